"""Checking a box (RULES.md §6): a typed :class:`~.contract.BoxEntry` in, a :class:`Box`
of parsed cards out.

One module past 400 lines: every input check of RULES.md §6 in one place, in the
order the errors are reported.

The JSON is read once, by :mod:`.contract` (``BoxEntry.from_json``: known fields, JSON
types, text). What RULES.md §6 asks about the *input* is checked here, before any
scoring, on the typed box, whether it came from JSON or was built in code (the box
form): the cards exist and appear once, each hand has the right size, declared melds
are melds, declared deadwood and counts match, the players and the ending make sense.
Layoffs are checked later, in table order, by the showdown, because whether a layoff
fits depends on what was laid down before it.

A hand as entered has one type, :class:`~.contract.Hand`: text as typed, what is
stored and what the API speaks. What the showdown plays with is a :class:`CheckedHand`
built from it, not a second kind of hand: the same hand with its cards parsed once
into :class:`~.cards.Card` values (the showdown tries many arrangements of them),
under the player's name as seated, in the form the engine reads it (cards with the
layoffs made are arranged like cards) and with the input path its errors name. The
entry itself stays the caller's, and the ruling is remembered by it (:mod:`.ruling`).

>>> from .contract import BoxEntry, Hand
>>> from .rules import find_rules
>>> entry = BoxEntry(ending="knock", by="Bob",
...                  hands={"Bob": Hand(count=4), "Cal": Hand(count=13), "Ann": Hand(count=14)})
>>> box = check_box(entry, find_rules("jersey-scarne"), ("Ann", "Bob", "Cal"), "Ann")
>>> box.table_order()
('Bob', 'Cal', 'Ann')
>>> check_box(BoxEntry(ending="gin", by="Bob", hands={"Zed": Hand(count=0)}),
...           find_rules("gin"), ("Ann", "Bob"), "Ann", "boxes[2]")
Traceback (most recent call last):
...
scorekeeper.engine.errors.UnknownPlayerError: 'Zed' is not one of the players (Ann, Bob)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import Card, count_of, parse_cards, read_card
from .contract import (
    ENDINGS,
    MAX_NAME,
    MELD_INDEX,
    BoxEntry,
    Ending,
    Hand,
    Layoff,
    multiplier_error,
    player_name,
)
from .errors import (
    DeadwoodMismatchError,
    DuplicateCardError,
    InvalidMeldError,
    KnockAfterBreakError,
    MalformedError,
    UnknownPlayerError,
    WrongHandSizeError,
)
from .layoffs import ordinal
from .melds import is_meld
from .rules import Rules

HandForm = Literal["cards", "declared", "count"]


@functools.cache
def _most_deadwood(ace_value: int, size: int) -> int:
    """The highest count of ``size`` cards holding no meld: at most two of a rank, and
    no three ranks in a row of one suit (runs round the corner are ignored, which can
    only make the bound looser)."""
    pairs = [frozenset(c) for n in range(3) for c in itertools.combinations(range(4), n)]

    @functools.cache
    def best(rank: int, left: int, before: frozenset[int], last: frozenset[int]) -> int:
        if rank > 13 or left == 0:
            return 0 if left == 0 else -1000
        value = ace_value if rank == 1 else min(rank, 10)
        options = [
            len(suits) * value + best(rank + 1, left - len(suits), last, suits)
            for suits in pairs
            if len(suits) <= left and not suits & last & before
        ]
        return max(options)

    return best(1, size, frozenset(), frozenset())


def max_count(rules: Rules, size: int) -> int:
    """The most a hand can count: 98 for ten cards with aces at 1 (RULES.md §6)."""
    return _most_deadwood(rules.ace_value, size)


@dataclass(frozen=True)
class DeclaredLayoff:
    """A card a player says he laid off, onto another player's meld: an entered
    :class:`~.contract.Layoff` with its card parsed and its place in the input."""

    card: Card
    onto: str
    meld: int | None
    where: str


@dataclass(frozen=True)
class CheckedHand:
    """One player's hand, checked: an entered :class:`~.contract.Hand` with its cards
    parsed, as the showdown plays it (``form``: ``cards`` to arrange, with any layoffs
    actually made; ``declared`` as laid on the table; ``count`` only)."""

    player: str
    form: HandForm
    where: str
    cards: tuple[Card, ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()
    layoffs: tuple[DeclaredLayoff, ...] = ()
    deadwood: tuple[Card, ...] = ()
    count: int | None = None


@dataclass(frozen=True)
class Box:
    """A box checked: the rules it is played under and every hand."""

    rules: Rules
    players: tuple[str, ...]
    dealer: str | None
    ending: Ending
    by: str | None
    after_break: bool
    second_round: bool
    upcard: Card | None
    multiplier: int
    hands: Mapping[str, CheckedHand]
    where: str
    double_refused: str | None = None
    """The player whose double was refused, so he had to knock (V5)."""
    breaker: str | None = None
    """The breaker (J10): ``by`` on a break; named or None on a gin after the break (J13)."""

    def table_order(self) -> tuple[str, ...]:
        """Players from the one who ended the box, to his left (J5), round the table."""
        start = self.players.index(self.by) if self.by is not None else 0
        return self.players[start:] + self.players[:start]

    def left_of(self, player: str) -> str:
        """The player at this player's left: the next one in seating order."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]


def _at(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def check_players(names: Sequence[str], rules: Rules, where: str = "players") -> tuple[str, ...]:
    """Player names in seating order, checked against the rule set's player count.

    >>> from .rules import find_rules
    >>> check_players(["Ann", " Bob "], find_rules("gin"))
    ('Ann', 'Bob')
    >>> check_players(["Ann", "ANN"], find_rules("gin"))
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: 'Ann' and 'ANN' differ only in capitals: ...
    """
    names = tuple(player_name(name) for name in names)
    for i, name in enumerate(names):
        if not name:
            raise MalformedError(f"player {i + 1} needs a name", f"{where}[{i}]")
        hidden = next((c for c in name if not c.isprintable()), None)
        if hidden is not None:
            raise MalformedError(
                f"player {i + 1}'s name has an invisible or control character "
                f"(U+{ord(hidden):04X}): type the name again",
                f"{where}[{i}]",
            )
        if len(name) > MAX_NAME:
            raise MalformedError(
                f"the name {name[:20]!r}... is too long ({MAX_NAME} characters at most)",
                f"{where}[{i}]",
            )
        same = next((other for other in names[:i] if other.casefold() == name.casefold()), None)
        if same is not None:
            raise MalformedError(
                f"two players are called {name!r}"
                if same == name
                else f"{same!r} and {name!r} differ only in capitals: give them names a table can tell apart",
                f"{where}[{i}]",
            )
    if not rules.min_players <= len(names) <= rules.max_players:
        raise MalformedError(
            f"{rules.title} is played by {rules.players_words} players, not {len(names)}", where
        )
    return names


def seated(name: str, players: Sequence[str], where: str, role: str) -> str:
    """A name that must be one of the players (the dealer, the knocker, ...), as seated."""
    found = player_name(name)
    if found not in players:
        raise UnknownPlayerError(
            f"the {role} {name!r} is not one of the players ({', '.join(players)})", where
        )
    return found


def check_box(
    entry: BoxEntry, rules: Rules, players: Sequence[str], dealer: str | None, where: str = ""
) -> Box:
    """Check a box under its game's rules, seats and dealer; ``where`` prefixes the
    input path of every error (``boxes[3]`` in a game)."""
    players = tuple(players)
    if entry.ending not in ENDINGS:  # a box built in code: the contract's reading never ran
        raise MalformedError(
            f"ending must be one of {', '.join(ENDINGS)}, not {entry.ending!r}", _at(where, "ending")
        )
    by = _check_by(entry, rules, players, where)
    upcard = None if entry.upcard is None else read_card(entry.upcard, _at(where, "upcard"))
    multiplier = _check_multiplier(entry.multiplier, _at(where, "multiplier"))
    refused = _check_refused(entry, by, rules, players, where)
    breaker = _check_breaker(entry, by, players, where)
    hands = _check_hands(entry, rules, players, where)
    return Box(
        rules=rules,
        players=players,
        dealer=dealer,
        ending=entry.ending,
        by=by,
        after_break=entry.after_break,
        second_round=entry.second_round,
        upcard=upcard,
        multiplier=multiplier,
        hands=hands,
        where=where,
        double_refused=refused,
        breaker=breaker,
    )


def _check_multiplier(value: int, where: str) -> int:
    """Doubling's multiplier: 1, 2, 4, ... up to 1024, a power of two (V5).

    >>> _check_multiplier(8, "multiplier")
    8
    >>> _check_multiplier(3, "multiplier")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: multiplier must be a power of two ... not 3: ...
    """
    if not 1 <= value <= 1024 or value & (value - 1):
        raise multiplier_error(value, where)
    return value


def _check_refused(
    entry: BoxEntry, by: str | None, rules: Rules, players: tuple[str, ...], where: str
) -> str | None:
    """Whose refused double forced him to knock (V5): he must be the one who knocked."""
    if entry.double_refused is None:
        return None
    field = _at(where, "double_refused")
    if not rules.doubling:
        raise MalformedError(f"{rules.title} has no doubling: leave out 'double_refused' (V5)", field)
    doubler = seated(entry.double_refused, players, field, "player whose double was refused")
    if entry.ending not in ("knock", "gin") or by != doubler:
        ended = f"{by} ending it" if by else f"a {entry.ending}"
        raise MalformedError(
            f"{doubler}'s double was refused, so {doubler} had to knock at once, but the box "
            f"shows {ended} (V5)",
            field,
        )
    return doubler


def _check_breaker(entry: BoxEntry, by: str | None, players: tuple[str, ...], where: str) -> str | None:
    """The breaker of a gin after the break (J13), optional; on a break he is ``by``."""
    if entry.ending == "break":
        return by
    if entry.breaker is None:
        return None
    field = _at(where, "breaker")
    if not (entry.ending == "gin" and entry.after_break):
        raise MalformedError("only a gin after the break names a breaker apart from 'by' (J13)", field)
    return seated(entry.breaker, players, field, "breaker")


def _check_by(entry: BoxEntry, rules: Rules, players: tuple[str, ...], where: str) -> str | None:
    """Who ended the box; checks that the ending exists in this rule set (J10, P7, G7)."""
    ending, after_break = entry.ending, entry.after_break
    has_break = rules.stock_end == "break-3"
    if ending in ("draw", "misdeal"):
        if entry.by is not None:
            raise MalformedError(f"a {ending} has no scorer: leave out 'by'", _at(where, "by"))
        if ending == "draw" and has_break:
            raise MalformedError(
                f"in {rules.title} a box does not end in a draw: with three cards left in the "
                "stock the break begins (J10)",
                _at(where, "ending"),
            )
        return None
    if ending == "knock" and after_break:
        raise KnockAfterBreakError(
            "nobody may knock after the break (J10): record the break instead",
            _at(where, "ending"),
        )
    if ending == "break" and not has_break:
        raise MalformedError(
            f"{rules.title} has no break: a box that runs out of stock is a draw",
            _at(where, "ending"),
        )
    if after_break and not has_break:
        raise MalformedError(f"{rules.title} has no break", _at(where, "after_break"))
    role = {"knock": "knocker", "gin": "gin player", "break": "breaker"}[ending]
    if entry.by is None:
        raise MalformedError(f"say who the {role} was ('by')", _at(where, "by"))
    return seated(entry.by, players, _at(where, "by"), role)


def _check_hands(
    entry: BoxEntry, rules: Rules, players: tuple[str, ...], where: str
) -> dict[str, CheckedHand]:
    """Every player's hand, checked for size, melds, deadwood and duplicate cards."""
    hands_where = _at(where, "hands")
    given = {player_name(name): hand for name, hand in entry.hands.items()}
    for name in given:
        if name not in players:
            raise UnknownPlayerError(
                f"{name!r} is not one of the players ({', '.join(players)})",
                f"{hands_where}.{name}",
            )
    if entry.ending in ("draw", "misdeal"):
        return {}
    size = rules.hand_size_for(len(players))
    hands: dict[str, CheckedHand] = {}
    seen: dict[Card, str] = {}
    for player in players:
        if player not in given:
            raise MalformedError(
                f"{player}'s hand is missing: give the cards, the melds or just the count",
                f"{hands_where}.{player}",
            )
        hand = check_hand(given[player], player, size, rules, f"{hands_where}.{player}")
        _check_duplicates(hand, seen)
        hands[player] = hand
    return hands


def check_hand(hand: Hand, player: str, size: int, rules: Rules, where: str) -> CheckedHand:
    """One hand of ``size`` cards at the showdown, in the form its fields give."""
    if hand.cards is not None and hand.layoffs is not None and hand.melds is None and hand.deadwood is None:
        return _cards_with_layoffs(hand.cards, hand.layoffs, player, size, where)
    if hand.form == "declared":
        return _declared(hand, player, size, rules, where)
    if hand.cards is not None:
        cards = tuple(parse_cards(hand.cards, f"{where}.cards"))
        _check_size(player, len(cards), size, f"{where}.cards")
        count = None
        if hand.count is not None:  # a count typed as well: the ruling checks it
            count = _check_count(hand.count, player, max_count(rules, size), where)
        return CheckedHand(player, "cards", where, cards=cards, count=count)
    if hand.count is not None:
        count = _check_count(hand.count, player, max_count(rules, size), where)
        return CheckedHand(player, "count", where, count=count)
    raise MalformedError(f"{player}'s hand needs cards, melds and deadwood, or a count", where)


def _cards_with_layoffs(
    codes: Sequence[str], entered: Sequence[Layoff], player: str, size: int, where: str
) -> CheckedHand:
    """All of a player's cards and the layoffs he actually made (not necessarily those
    the engine would propose): the engine checks the layoffs and arranges the rest."""
    cards = tuple(parse_cards(codes, f"{where}.cards"))
    _check_size(player, len(cards), size, f"{where}.cards")
    layoffs = _check_layoffs(entered, f"{where}.layoffs")
    for layoff in layoffs:
        if layoff.card not in cards:
            raise DeadwoodMismatchError(
                f"{player} laid off {layoff.card}, but it is not among his cards", f"{layoff.where}.card"
            )
    return CheckedHand(player, "cards", where, cards=cards, layoffs=tuple(layoffs))


def _check_count(value: int, player: str, most: int, where: str) -> int:
    if not 0 <= value <= most:
        raise MalformedError(
            f"{player}'s count must be a whole number from 0 to {most}, not {value!r}",
            f"{where}.count",
        )
    return value


def _declared(hand: Hand, player: str, size: int, rules: Rules, where: str) -> CheckedHand:
    """The declared form: what was laid on the table, checked meld by meld."""
    melds = []
    for i, codes in enumerate(hand.melds or ()):
        meld_where = f"{where}.melds[{i}]"
        meld = tuple(parse_cards(codes, meld_where))
        if not is_meld(meld, rules.around_the_corner):
            corner = " (V4)" if rules.around_the_corner else " (C3; aces are low: no K-A-2)"
            raise InvalidMeldError(
                f"{player}'s {ordinal(i)} meld, {'-'.join(str(c) for c in meld)}, is not a set "
                f"or a run{corner}",
                meld_where,
            )
        melds.append(meld)
    layoffs = _check_layoffs(hand.layoffs or (), f"{where}.layoffs")
    placed = [card for meld in melds for card in meld] + [lay.card for lay in layoffs]
    given = None if hand.deadwood is None else parse_cards(hand.deadwood, f"{where}.deadwood")
    if hand.cards is not None:
        deadwood = _deadwood_from_cards(hand.cards, given, player, placed, where)
    elif given is not None:
        deadwood = given
    else:
        raise MalformedError(f"give {player}'s deadwood (an empty list if none)", f"{where}.deadwood")
    total = len(placed) + len(deadwood)
    _check_size(player, total, size, where)
    if hand.count is not None:
        count = _check_count(hand.count, player, max_count(rules, size), where)
        actual = count_of(deadwood, rules.ace_value)
        if count != actual:
            raise DeadwoodMismatchError(
                f"{player}'s count was given as {count}, but the deadwood "
                f"{' '.join(str(c) for c in deadwood) or '(none)'} counts {actual} (C4)",
                f"{where}.count",
            )
    return CheckedHand(
        player,
        "declared",
        where,
        cards=tuple(placed) + tuple(deadwood),
        melds=tuple(melds),
        layoffs=tuple(layoffs),
        deadwood=tuple(deadwood),
    )


def _deadwood_from_cards(
    codes: Sequence[str], given: list[Card] | None, player: str, placed: list[Card], where: str
) -> list[Card]:
    """With ``cards`` and melds both given, the deadwood is what is left: check it
    matches the deadwood ``given`` (None: not given)."""
    cards_where = f"{where}.cards"
    rest = parse_cards(codes, cards_where)
    for card in placed:
        if card not in rest:
            raise DeadwoodMismatchError(
                f"{card} is melded or laid off by {player} but is not among his cards",
                cards_where,
            )
        rest.remove(card)
    if given is not None and sorted(rest) != sorted(given):
        raise DeadwoodMismatchError(
            f"{player}'s deadwood should be {' '.join(str(c) for c in sorted(rest)) or 'empty'}"
            f": those are the cards left after the melds and layoffs",
            f"{where}.deadwood",
        )
    return rest


def _check_layoffs(entered: Sequence[Layoff], where: str) -> list[DeclaredLayoff]:
    """The layoffs a hand names, their cards read; whether each fits is the showdown's."""
    layoffs = []
    for i, layoff in enumerate(entered):
        item_where = f"{where}[{i}]"
        card = read_card(layoff.card, f"{item_where}.card")
        if layoff.meld is not None and layoff.meld < 0:
            raise MalformedError(MELD_INDEX, f"{item_where}.meld")
        layoffs.append(DeclaredLayoff(card, player_name(layoff.onto), layoff.meld, item_where))
    return layoffs


def _check_size(player: str, got: int, size: int, where: str) -> None:
    """Each hand at the showdown has exactly ``size`` cards (RULES.md §6)."""
    if got == size:
        return
    if got == size + 1:
        raise WrongHandSizeError(
            f"{player} has {got} cards: one too many, so the discard was not made. "
            f"Leave out the card {player} discarded",
            where,
        )
    raise WrongHandSizeError(f"{player} has {got} cards; a hand has {size} at the showdown", where)


def _check_duplicates(hand: CheckedHand, seen: dict[Card, str]) -> None:
    """No card may appear twice in the showdown (the first upcard is exempt)."""
    for position, card in enumerate(hand.cards):
        owner = seen.get(card)
        if owner is None:
            seen[card] = hand.player
            continue
        place = _card_place(hand, card, position)
        if owner == hand.player:
            message = f"{card.code} appears twice in {hand.player}'s hand"
        else:
            message = f"{card.code} is in both {owner}'s and {hand.player}'s hands"
        raise DuplicateCardError(message, place)


def _card_place(hand: CheckedHand, card: Card, position: int) -> str:
    """The input path of a card of this hand, for an error's ``where``."""
    if hand.form == "cards":
        return f"{hand.where}.cards[{position}]"
    for i, meld in enumerate(hand.melds):
        if card in meld:
            return f"{hand.where}.melds[{i}][{meld.index(card)}]"
    for lay in hand.layoffs:
        if lay.card == card:
            return f"{lay.where}.card"
    return f"{hand.where}.deadwood[{hand.deadwood.index(card)}]"


__all__ = [
    "Box",
    "CheckedHand",
    "DeclaredLayoff",
    "check_box",
    "check_hand",
    "check_players",
    "max_count",
    "player_name",
    "seated",
]
