"""Reading a box (CONTRACT.md "A box") into checked values.

One module past 400 lines: every input check of RULES.md §6 in one place, in the
order the errors are reported.

Everything RULES.md §6 asks about the *input* is checked here, before any
scoring: the cards exist and appear once, each hand has the right size, declared
melds are melds, declared deadwood and counts match, the players and the ending
make sense. Layoffs are checked later, in table order, by the showdown, because
whether a layoff fits depends on what was laid down before it.

>>> from .rules import find_rules
>>> box = read_box({"ending": "knock", "by": "Bob",
...                 "hands": {"Bob": {"count": 4}, "Cal": {"count": 13}, "Ann": {"count": 14}}},
...                find_rules("jersey-scarne"), ("Ann", "Bob", "Cal"), "Ann")
>>> box.table_order()
('Bob', 'Cal', 'Ann')
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .cards import Card, count_of, parse_cards
from .errors import (
    DeadwoodMismatchError,
    DuplicateCardError,
    InvalidCardError,
    InvalidMeldError,
    KnockAfterBreakError,
    MalformedError,
    UnknownPlayerError,
    WrongHandSizeError,
)
from .layoffs import ordinal
from .melds import is_meld
from .rules import Rules

Ending = Literal["knock", "gin", "break", "draw", "misdeal"]
ENDINGS: tuple[Ending, ...] = ("knock", "gin", "break", "draw", "misdeal")
HandForm = Literal["cards", "declared", "count"]
MAX_NAME = 40
"""The longest player name, in characters."""


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
    """A card a player says he laid off, onto another player's meld."""

    card: Card
    onto: str
    meld: int | None
    where: str


@dataclass(frozen=True)
class Hand:
    """One player's hand as entered, in one of the three forms of CONTRACT.md."""

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
    """A box read and checked: the rules it is played under and every hand."""

    rules: Rules
    players: tuple[str, ...]
    dealer: str | None
    ending: Ending
    by: str | None
    after_break: bool
    second_round: bool
    upcard: Card | None
    multiplier: int
    hands: Mapping[str, Hand]
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


def player_name(text: str) -> str:
    """A name as the engine compares it: trimmed, runs of spaces made one, and in one
    Unicode form (NFC), so that "Çal" typed on two phones is one player however each
    keyboard composed the Ç, and " Bob " or "Ann  Lee" is the player seated.

    >>> player_name("  Ann \u00a0 Lee ")
    'Ann Lee'
    """
    return unicodedata.normalize("NFC", " ".join(text.split()))


def read_players(data: Any, rules: Rules, where: str = "players") -> tuple[str, ...]:
    """Player names in seating order, checked against the rule set's player count."""
    if not isinstance(data, list) or not all(isinstance(name, str) for name in data):
        raise MalformedError("players must be a list of names", where)
    names = tuple(player_name(name) for name in data)
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
        wanted = (
            str(rules.min_players)
            if rules.min_players == rules.max_players
            else f"{rules.min_players} to {rules.max_players}"
        )
        raise MalformedError(f"{rules.title} is played by {wanted} players, not {len(names)}", where)
    return names


def read_player(data: Any, players: Sequence[str], where: str, role: str) -> str:
    """A name that must be one of the players (the dealer, the knocker, ...)."""
    if not isinstance(data, str) or player_name(data) not in players:
        raise UnknownPlayerError(
            f"the {role} {data!r} is not one of the players ({', '.join(players)})", where
        )
    return player_name(data)


def read_box(data: Any, rules: Rules, players: Sequence[str], dealer: str | None, where: str = "") -> Box:
    """Check a box body (without rules/players/dealer) and return it as a :class:`Box`."""
    if not isinstance(data, Mapping):
        raise MalformedError("a box must be a JSON object", where or None)
    players = tuple(players)
    ending = data.get("ending")
    if ending not in ENDINGS:
        raise MalformedError(
            f"ending must be one of {', '.join(ENDINGS)}, not {ending!r}", _at(where, "ending")
        )
    after_break = _flag(data, "after_break", where)
    by = _read_by(data, ending, after_break, rules, players, where)
    upcard = None
    if data.get("upcard") is not None:
        upcard = read_card(data["upcard"], _at(where, "upcard"))
    multiplier = _read_multiplier(data.get("multiplier", 1), _at(where, "multiplier"))
    refused = _read_refused(data, ending, by, rules, players, where)
    breaker = _read_breaker(data, ending, after_break, by, players, where)
    hands = _read_hands(data.get("hands"), ending, rules, players, where)
    return Box(
        rules=rules,
        players=players,
        dealer=dealer,
        ending=ending,
        by=by,
        after_break=after_break,
        second_round=_flag(data, "second_round", where),
        upcard=upcard,
        multiplier=multiplier,
        hands=hands,
        where=where,
        double_refused=refused,
        breaker=breaker,
    )


def _read_multiplier(value: Any, where: str) -> int:
    """Doubling's multiplier: 1, 2, 4, ... up to 1024, a power of two (V5).

    >>> _read_multiplier(8, "multiplier")
    8
    >>> _read_multiplier(3, "multiplier")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: multiplier must be a power of two ... not 3: ...
    """
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1024 or value & (value - 1):
        raise MalformedError(
            f"multiplier must be a power of two (1, 2, 4, 8, ... up to 1024), not {value!r}: "
            "each double doubles the box (V5)",
            where,
        )
    return value


def _read_refused(
    data: Mapping[str, Any],
    ending: Ending,
    by: str | None,
    rules: Rules,
    players: tuple[str, ...],
    where: str,
) -> str | None:
    """Whose refused double forced him to knock (V5): he must be the one who knocked."""
    named = data.get("double_refused")
    if named is None:
        return None
    field = _at(where, "double_refused")
    if not rules.doubling:
        raise MalformedError(f"{rules.title} has no doubling: leave out 'double_refused' (V5)", field)
    doubler = read_player(named, players, field, "player whose double was refused")
    if ending not in ("knock", "gin") or by != doubler:
        ended = f"{by} ending it" if by else f"a {ending}"
        raise MalformedError(
            f"{doubler}'s double was refused, so {doubler} had to knock at once, but the box "
            f"shows {ended} (V5)",
            field,
        )
    return doubler


def _read_breaker(
    data: Mapping[str, Any],
    ending: Ending,
    after_break: bool,
    by: str | None,
    players: tuple[str, ...],
    where: str,
) -> str | None:
    """The breaker of a gin after the break (J13), optional; on a break he is ``by``."""
    if ending == "break":
        return by
    named = data.get("breaker")
    if named is None:
        return None
    field = _at(where, "breaker")
    if not (ending == "gin" and after_break):
        raise MalformedError("only a gin after the break names a breaker apart from 'by' (J13)", field)
    return read_player(named, players, field, "breaker")


def _flag(data: Mapping[str, Any], name: str, where: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise MalformedError(f"{name} must be true or false", _at(where, name))
    return value


def _read_by(
    data: Mapping[str, Any],
    ending: Ending,
    after_break: bool,
    rules: Rules,
    players: tuple[str, ...],
    where: str,
) -> str | None:
    """Who ended the box; checks that the ending exists in this rule set (J10, P7, G7)."""
    has_break = rules.stock_end == "break-3"
    if ending in ("draw", "misdeal"):
        if data.get("by") is not None:
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
    if data.get("by") is None:
        role = {"knock": "knocker", "gin": "gin player", "break": "breaker"}[ending]
        raise MalformedError(f"say who the {role} was ('by')", _at(where, "by"))
    role = {"knock": "knocker", "gin": "gin player", "break": "breaker"}[ending]
    return read_player(data["by"], players, _at(where, "by"), role)


def _read_hands(
    data: Any, ending: Ending, rules: Rules, players: tuple[str, ...], where: str
) -> dict[str, Hand]:
    """Every player's hand, checked for size, melds, deadwood and duplicate cards."""
    hands_where = _at(where, "hands")
    if data is None and ending in ("draw", "misdeal"):
        return {}
    if not isinstance(data, Mapping):
        raise MalformedError("hands must be an object with one entry per player", hands_where)
    data = {player_name(str(name)): hand for name, hand in data.items()}
    for name in data:
        if name not in players:
            raise UnknownPlayerError(
                f"{name!r} is not one of the players ({', '.join(players)})",
                f"{hands_where}.{name}",
            )
    if ending in ("draw", "misdeal"):
        return {}
    size = rules.hand_size_for(len(players))
    hands: dict[str, Hand] = {}
    seen: dict[Card, str] = {}
    for player in players:
        if player not in data:
            raise MalformedError(
                f"{player}'s hand is missing: give the cards, the melds or just the count",
                f"{hands_where}.{player}",
            )
        hand = _read_hand(data[player], player, size, rules, f"{hands_where}.{player}")
        _check_duplicates(hand, seen)
        hands[player] = hand
    return hands


def _read_hand(data: Any, player: str, size: int, rules: Rules, where: str) -> Hand:
    if not isinstance(data, Mapping):
        raise MalformedError(f"{player}'s hand must be an object", where)
    if "cards" in data and "layoffs" in data and not ("melds" in data or "deadwood" in data):
        return _read_cards_with_layoffs(data, player, size, where)
    if "melds" in data or "deadwood" in data or "layoffs" in data:
        return _read_declared(data, player, size, rules, where)
    if "cards" in data:
        cards = tuple(parse_cards(_card_list(data["cards"], f"{where}.cards"), f"{where}.cards"))
        _check_size(player, len(cards), size, f"{where}.cards")
        count = None
        if data.get("count") is not None:  # a count typed as well: the ruling checks it
            count = _read_count(data["count"], player, max_count(rules, size), where)
        return Hand(player, "cards", where, cards=cards, count=count)
    if "count" in data:
        count = _read_count(data["count"], player, max_count(rules, size), where)
        return Hand(player, "count", where, count=count)
    raise MalformedError(f"{player}'s hand needs cards, melds and deadwood, or a count", where)


def _read_cards_with_layoffs(data: Mapping[str, Any], player: str, size: int, where: str) -> Hand:
    """All of a player's cards and the layoffs he actually made (not necessarily those
    the engine would propose): the engine checks the layoffs and arranges the rest."""
    cards = tuple(parse_cards(_card_list(data["cards"], f"{where}.cards"), f"{where}.cards"))
    _check_size(player, len(cards), size, f"{where}.cards")
    layoffs = _read_layoffs(data["layoffs"], player, f"{where}.layoffs")
    for layoff in layoffs:
        if layoff.card not in cards:
            raise DeadwoodMismatchError(
                f"{player} laid off {layoff.card}, but it is not among his cards", f"{layoff.where}.card"
            )
    return Hand(player, "cards", where, cards=cards, layoffs=tuple(layoffs))


def _read_count(value: Any, player: str, most: int, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise MalformedError(
            f"{player}'s count must be a whole number from 0 to {most}, not {value!r}",
            f"{where}.count",
        )
    return value


def _card_list(value: Any, where: str) -> Any:
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        return value
    raise MalformedError('cards must be a list of cards such as ["7C", "10H"]', where)


def _read_declared(data: Mapping[str, Any], player: str, size: int, rules: Rules, where: str) -> Hand:
    """The declared form: what was laid on the table, checked meld by meld."""
    melds_data = data.get("melds", [])
    if not isinstance(melds_data, list):
        raise MalformedError("melds must be a list of melds (lists of cards)", f"{where}.melds")
    melds = []
    for i, meld_data in enumerate(melds_data):
        meld_where = f"{where}.melds[{i}]"
        meld = tuple(parse_cards(_card_list(meld_data, meld_where), meld_where))
        if not is_meld(meld, rules.around_the_corner):
            corner = " (V4)" if rules.around_the_corner else " (C3; aces are low: no K-A-2)"
            raise InvalidMeldError(
                f"{player}'s {ordinal(i)} meld, {'-'.join(str(c) for c in meld)}, is not a set "
                f"or a run{corner}",
                meld_where,
            )
        melds.append(meld)
    layoffs = _read_layoffs(data.get("layoffs", []), player, f"{where}.layoffs")
    placed = [card for meld in melds for card in meld] + [lay.card for lay in layoffs]
    if "deadwood" in data:
        deadwood_where = f"{where}.deadwood"
        deadwood = parse_cards(_card_list(data["deadwood"], deadwood_where), deadwood_where)
    elif "cards" in data:
        deadwood = []
    else:
        raise MalformedError(f"give {player}'s deadwood (an empty list if none)", f"{where}.deadwood")
    if "cards" in data:
        deadwood = _deadwood_from_cards(data, player, placed, deadwood, where)
    total = len(placed) + len(deadwood)
    _check_size(player, total, size, where)
    if "count" in data:
        count = _read_count(data["count"], player, max_count(rules, size), where)
        actual = count_of(deadwood, rules.ace_value)
        if count != actual:
            raise DeadwoodMismatchError(
                f"{player}'s count was given as {count}, but the deadwood "
                f"{' '.join(str(c) for c in deadwood) or '(none)'} counts {actual} (C4)",
                f"{where}.count",
            )
    return Hand(
        player,
        "declared",
        where,
        cards=tuple(placed) + tuple(deadwood),
        melds=tuple(melds),
        layoffs=tuple(layoffs),
        deadwood=tuple(deadwood),
    )


def _deadwood_from_cards(
    data: Mapping[str, Any], player: str, placed: list[Card], deadwood: list[Card], where: str
) -> list[Card]:
    """With ``cards`` and melds both given, the deadwood is what is left: check it matches."""
    cards_where = f"{where}.cards"
    cards = parse_cards(_card_list(data["cards"], cards_where), cards_where)
    rest = list(cards)
    for card in placed:
        if card not in rest:
            raise DeadwoodMismatchError(
                f"{card} is melded or laid off by {player} but is not among his cards",
                cards_where,
            )
        rest.remove(card)
    if "deadwood" in data and sorted(rest) != sorted(deadwood):
        raise DeadwoodMismatchError(
            f"{player}'s deadwood should be {' '.join(str(c) for c in sorted(rest)) or 'empty'}"
            f": those are the cards left after the melds and layoffs",
            f"{where}.deadwood",
        )
    return rest


def read_card(value: Any, where: str) -> Card:
    """One card given on its own (an upcard, a laid-off card)."""
    if not isinstance(value, str):
        raise MalformedError('a card is written like "4S" or "10H"', where)
    try:
        return Card.parse(value)
    except InvalidCardError as err:
        raise InvalidCardError(err.message, where) from None


def _read_layoffs(data: Any, player: str, where: str) -> list[DeclaredLayoff]:
    if not isinstance(data, list):
        raise MalformedError("layoffs must be a list of {card, onto, meld}", where)
    layoffs = []
    for i, item in enumerate(data):
        item_where = f"{where}[{i}]"
        if not isinstance(item, Mapping) or "card" not in item or "onto" not in item:
            raise MalformedError("each layoff needs a card and the player it went onto ('onto')", item_where)
        card = read_card(item["card"], f"{item_where}.card")
        meld = item.get("meld")
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool) or meld < 0):
            raise MalformedError("a layoff's meld is the index of the meld (0, 1, ...)", f"{item_where}.meld")
        onto = item["onto"]
        if not isinstance(onto, str):
            raise MalformedError("onto must name a player", f"{item_where}.onto")
        layoffs.append(DeclaredLayoff(card, player_name(onto), meld, item_where))
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


def _check_duplicates(hand: Hand, seen: dict[Card, str]) -> None:
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


def _card_place(hand: Hand, card: Card, position: int) -> str:
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


__all__ = ["ENDINGS", "Box", "DeclaredLayoff", "Hand", "max_count", "read_box", "read_players"]
