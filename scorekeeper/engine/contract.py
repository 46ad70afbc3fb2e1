"""CONTRACT.md as typed values: a box, its hands and layoffs, a game; a ruling and a
score sheet. JSON exists only at the edges (the API, the command line, storage):
everything between them passes these frozen values.

One module although it is long: every type of the contract, in and out, beside the
others it is built from, so the whole shape of a box reads in one place (as
CONTRACT.md is one page).

Input (:class:`BoxEntry`, :class:`Hand`, :class:`Layoff`, :class:`GameEntry`) is read
with ``from_json``, which checks the *shape* (known fields only, the right JSON types,
text that is valid Unicode) and names the field at fault in CONTRACT.md's error
object; whether the cards and the play are legal is the engine's ruling, as ever.
``to_json`` gives back what was read, so a stored box is exactly what was entered.

Output (:class:`Ruling`, :class:`SheetBox`, :class:`Sheet`) wraps what the engine
answers; fields a later version adds are kept in ``extra`` and come back in
``to_json``.

>>> box = BoxEntry.from_json({"ending": "knock", "by": "Bob",
...     "hands": {"Bob": {"count": 4}, "Cal": {"cards": ["AS", "2S"]}}})
>>> box.hands["Cal"].form, box.to_json()["hands"]["Bob"]
('cards', {'count': 4})
>>> BoxEntry.from_json({"ending": "gin", "by": "Ann", "colour": "red"})
Traceback (most recent call last):
...
scorekeeper.engine.errors.MalformedError: a box has no field 'colour' ...
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import MalformedError
from .money import read_currency
from .rules import default_rules_for

Ending = Literal["knock", "gin", "break", "draw", "misdeal"]
ENDINGS: tuple[Ending, ...] = ("knock", "gin", "break", "draw", "misdeal")
MAX_NAME = 40
"""The longest player name, in characters (the engine checks it, :mod:`.boxes`)."""
MAX_NOTE = 1000
"""The longest note on a box, in characters."""
MAX_STAKE = 1_000_000
MELD_INDEX = "a layoff's meld is the index of the meld (0, 1, ...)"
"""What a layoff's ``meld`` is: the contract reads a whole number, the engine checks it."""
MAX_BOXES = 1000
"""The most boxes one game may hold. A real game is a few dozen boxes (a long Hollywood
evening perhaps two hundred); draws score nothing, so without a bound one request could
make a game of ten thousand that never ends and costs minutes to score and print."""
MAX_PLACE = 120
MAX_CARD_TEXT = 8
"""A card is at most a few characters ("10♥"); anything longer is not a card."""
MAX_CARDS = 52
Json = Any
"""A value as :func:`json.loads` gives it."""

HandFormName = Literal["cards", "declared", "count"]


def too_many_boxes(number: int, most: int) -> str:
    """Why box ``number`` (from 1) is refused in a game that holds at most ``most``."""
    return (
        f"box {number} cannot be added: a game holds at most {most} boxes; start a "
        "new game (a rematch) to play on"
    )


def _at(where: str, name: str | int) -> str:
    if isinstance(name, int):
        return f"{where}[{name}]"
    return f"{where}.{name}" if where else name


def check_text(value: str, where: str, what: str = "text") -> str:
    """Text that can be stored and printed: valid Unicode (no lone surrogates, which
    JSON's ``\\udfff`` escapes can make and UTF-8 cannot encode) without control
    characters other than tab and line breaks (PostgreSQL cannot store NUL in text).
    Printable text is all of that (names, cards: nearly everything), so only the rest is
    looked at character by character."""
    if value.isprintable():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        bad = value[err.start]
        raise MalformedError(
            f"the {what} holds a character that is not valid text (U+{ord(bad):04X}): type it again",
            where or None,
        ) from None
    control = next((c for c in value if (c < " " and c not in "\t\n\r") or c == "\x7f"), None)
    if control is not None:
        raise MalformedError(
            f"the {what} holds a control character (U+{ord(control):04X}): type it again", where or None
        )
    return value


def escaped(text: str) -> str:
    """Text with anything that is not valid Unicode written as its escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def sound(value: Any, where: str, odd: list[str]) -> Any:
    """JSON data with every text that UTF-8 cannot encode written escaped (``\\udfff``),
    each such place added to ``odd``: a backup or an export must never fail on what
    the database already holds."""
    if isinstance(value, str):
        clean = escaped(value)
        if clean != value:
            odd.append(f"{where}: {clean[:60]}")
        return clean
    if isinstance(value, list):
        return [sound(item, f"{where}[{i}]", odd) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {
            sound(key, f"{where} (a key)", odd): sound(item, f"{where}.{escaped(str(key))}", odd)
            for key, item in value.items()
        }
    return value


def unsound(value: Any, where: str) -> str | None:
    """Where ``value`` (JSON data) holds text that is not valid Unicode, or None: what a
    restore refuses."""
    if isinstance(value, str):
        return None if escaped(value) == value else where
    if isinstance(value, list):
        items = ((f"{where}[{i}]", item) for i, item in enumerate(value))
    elif isinstance(value, dict):
        items = (
            pair
            for key, item in value.items()
            for pair in ((f"{where} (a key)", key), (f"{where}.{escaped(str(key))}", item))
        )
    else:
        return None
    return next((found for place, item in items if (found := unsound(item, place))), None)


def _stored(
    data: Mapping[str, Json], fields: frozenset[str], inner: Mapping[str, typing.Callable[[Any], Json]]
) -> dict[str, Json]:
    """Stored JSON kept to ``fields``, its text escaped; ``inner`` reads nested fields."""

    def clean(value: Json) -> Json:
        if isinstance(value, str):
            return escaped(value)
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    return {
        key: inner[key](value) if key in inner and value is not None else clean(value)
        for key, value in data.items()
        if key in fields
    }


def _text(data: Json, where: str, what: str, most: int) -> str:
    if not isinstance(data, str):
        raise MalformedError(f"the {what} must be text, not {_shown(data)}", where or None)
    check_text(data, where, what)
    if len(data) > most:
        raise MalformedError(f"the {what} is too long ({most} characters at most)", where)
    return data


def _shown(value: Json) -> str:
    """A bad value quoted in an error, cut short and safe to print."""
    if isinstance(value, int) and value.bit_length() > 100:
        return f"a number of about {value.bit_length() * 3 // 10} digits"
    text = repr(value)
    text = escaped(text)
    return text if len(text) <= 40 else text[:37] + "..."


def _fields(data: Json, where: str, what: str, allowed: frozenset[str]) -> Mapping[str, Json]:
    """An object with only the fields CONTRACT.md names (an unknown field is refused,
    never stored and echoed back)."""
    if not isinstance(data, Mapping):
        raise MalformedError(f"{what} must be a JSON object", where or None)
    for key in data:
        if not isinstance(key, str) or key not in allowed:
            name = escaped(str(key))
            raise MalformedError(
                f"{what} has no field {name[:40]!r} (it takes {', '.join(sorted(allowed))})", _at(where, name)
            )
    return data


def _whole(data: Json, where: str, what: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise MalformedError(f"{what} must be a whole number, not {_shown(data)}", where)
    return data


def _flag(data: Mapping[str, Json], name: str, where: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise MalformedError(f"{name} must be true or false", _at(where, name))
    return value


def _name(data: Json, where: str, role: str) -> str:
    """A player named in a box (by, onto, a hand's key): text of a name's length, its
    spaces trimmed and collapsed as the engine compares names, so the stored box names
    the player as seated (the characters themselves are kept exactly as typed)."""
    return " ".join(_text(data, where, f"{role}'s name", MAX_NAME * 4).split())


def _card(data: Json, where: str) -> str:
    if not isinstance(data, str):
        raise MalformedError('a card is written like "4S" or "10H"', where)
    return _text(data, where, "card", MAX_CARD_TEXT)


def _cards(data: Json, where: str) -> tuple[str, ...]:
    """A list of cards; a string of cards separated by spaces is read as CONTRACT.md's
    command line does. Printable text of a card's length is sound as it stands (no
    control character, no lone surrogate), so only the rest goes through the full
    check, which names the card's place: this is the reading of every card the engine
    rules, API and command line alike."""
    if isinstance(data, str):
        data = data.replace(",", " ").split()
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        raise MalformedError('cards must be a list of cards such as ["7C", "10H"]', where)
    if len(data) > MAX_CARDS:
        raise MalformedError(f"{len(data)} cards: a deck has {MAX_CARDS}", where)
    return tuple(
        item if len(item) <= MAX_CARD_TEXT and item.isprintable() else _card(item, _at(where, i))
        for i, item in enumerate(data)
    )


# --- input ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layoff:
    """A card laid off onto another player's meld (``meld``: its index there, from 0)."""

    card: str
    onto: str
    meld: int | None = None

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset({"card", "onto", "meld"})

    @classmethod
    def from_json(cls, data: Json, where: str = "layoff") -> Layoff:
        body = _fields(data, where, "a layoff", cls.FIELDS)
        if "card" not in body or "onto" not in body:
            raise MalformedError("each layoff needs a card and the player it went onto ('onto')", where)
        meld = body.get("meld")
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool)):
            raise MalformedError(MELD_INDEX, _at(where, "meld"))
        if not isinstance(body["onto"], str):
            raise MalformedError("onto must name a player", _at(where, "onto"))
        return cls(
            _card(body["card"], _at(where, "card")),
            _name(body["onto"], _at(where, "onto"), "layoff's player"),
            meld,
        )

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {"card": self.card, "onto": self.onto}
        if self.meld is not None:
            body["meld"] = self.meld
        return body


@dataclass(frozen=True)
class Hand:
    """One player's hand as entered, in one of CONTRACT.md's three forms: the cards
    (the engine arranges them), what was laid on the table (melds, layoffs,
    deadwood), or only the count. Fields not given are None."""

    cards: tuple[str, ...] | None = None
    melds: tuple[tuple[str, ...], ...] | None = None
    deadwood: tuple[str, ...] | None = None
    layoffs: tuple[Layoff, ...] | None = None
    count: int | None = None

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset({"cards", "melds", "deadwood", "layoffs", "count"})

    @property
    def form(self) -> HandFormName:
        if self.melds is not None or self.deadwood is not None or self.layoffs is not None:
            return "declared"
        return "cards" if self.cards is not None else "count"

    @classmethod
    def from_json(cls, data: Json, where: str = "hand", player: str = "") -> Hand:
        """The hand (``player`` names it in errors); an empty hand is the engine's to
        refuse, with the player's name."""
        body = _fields(data, where, f"{player}'s hand" if player else "a hand", cls.FIELDS)
        melds = body.get("melds")
        if melds is not None and not isinstance(melds, list):
            raise MalformedError("melds must be a list of melds (lists of cards)", _at(where, "melds"))
        layoffs = body.get("layoffs")
        if layoffs is not None and not isinstance(layoffs, list):
            raise MalformedError("layoffs must be a list of {card, onto, meld}", _at(where, "layoffs"))
        count = body.get("count")
        hand = cls(
            cards=_optional(body, "cards", where, _cards),
            melds=None
            if melds is None
            else tuple(_cards(meld, _at(_at(where, "melds"), i)) for i, meld in enumerate(melds)),
            deadwood=_optional(body, "deadwood", where, _cards),
            layoffs=None
            if layoffs is None
            else tuple(
                Layoff.from_json(item, _at(_at(where, "layoffs"), i)) for i, item in enumerate(layoffs)
            ),
            count=None
            if count is None
            else _whole(count, _at(where, "count"), f"{player}'s count" if player else "a count"),
        )
        return hand

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {}
        if self.cards is not None:
            body["cards"] = list(self.cards)
        if self.melds is not None:
            body["melds"] = [list(meld) for meld in self.melds]
        if self.layoffs is not None:
            body["layoffs"] = [layoff.to_json() for layoff in self.layoffs]
        if self.deadwood is not None:
            body["deadwood"] = list(self.deadwood)
        if self.count is not None:
            body["count"] = self.count
        return body


def multiplier_error(value: Json, where: str) -> MalformedError:
    """The one error for a wrong multiplier, whether the JSON gives no whole number or
    the engine finds no power of two (V5)."""
    return MalformedError(
        f"multiplier must be a power of two (1, 2, 4, 8, ... up to 1024), not {_shown(value)}: "
        "each double doubles the box (V5)",
        where,
    )


def _optional(
    body: Mapping[str, Json], name: str, where: str, read: typing.Callable[[Json, str], Any]
) -> Any:
    value = body.get(name)
    return None if value is None else read(value, _at(where, name))


@dataclass(frozen=True)
class BoxEntry:
    """A box as entered at the end of a hand (CONTRACT.md "A box", without the game's
    rules, players and settings): how it ended, who ended it, every hand.

    ``dealer`` may be given; the game checks it is the player whose deal it was (J2,
    G1). ``id`` and ``note`` are labels: they come back with the ruling and change
    nothing in it.
    """

    ending: Ending
    by: str | None = None
    hands: Mapping[str, Hand] = field(default_factory=dict)
    after_break: bool = False
    second_round: bool = False
    breaker: str | None = None
    upcard: str | None = None
    multiplier: int = 1
    double_refused: str | None = None
    dealer: str | None = None
    note: str | None = None
    id: str | int | None = None

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset(
        {
            "ending",
            "by",
            "hands",
            "after_break",
            "second_round",
            "breaker",
            "upcard",
            "multiplier",
            "double_refused",
            "dealer",
            "note",
            "id",
        }
    )

    @classmethod
    def from_json(cls, data: Json, where: str = "") -> BoxEntry:
        body = _fields(data, where, "a box", cls.FIELDS)
        ending = body.get("ending")
        if ending not in ENDINGS:
            raise MalformedError(
                f"ending must be one of {', '.join(ENDINGS)}, not {_shown(ending)}", _at(where, "ending")
            )
        hands = body.get("hands")
        if hands is not None and not isinstance(hands, Mapping):
            raise MalformedError("hands must be an object with one entry per player", _at(where, "hands"))
        multiplier = body.get("multiplier", 1)
        if not isinstance(multiplier, int) or isinstance(multiplier, bool):
            raise multiplier_error(multiplier, _at(where, "multiplier"))
        return cls(
            ending=typing.cast(Ending, ending),
            by=_optional(body, "by", where, lambda v, w: _name(v, w, "player")),
            hands=_hands(hands or {}, _at(where, "hands")),
            after_break=_flag(body, "after_break", where),
            second_round=_flag(body, "second_round", where),
            breaker=_optional(body, "breaker", where, lambda v, w: _name(v, w, "breaker")),
            upcard=_optional(body, "upcard", where, _card),
            multiplier=multiplier,
            double_refused=_optional(body, "double_refused", where, lambda v, w: _name(v, w, "doubler")),
            dealer=_optional(body, "dealer", where, lambda v, w: _name(v, w, "dealer")),
            note=_optional(body, "note", where, lambda v, w: _text(v, w, "box's note", MAX_NOTE)),
            id=_optional(body, "id", where, _label_id),
        )

    @classmethod
    def from_stored(cls, data: Mapping[str, Json]) -> BoxEntry:
        """A box as a store holds it, written by this version or an older one, which
        kept fields it did not know and text it did not check: unknown fields are
        dropped and text that is not valid Unicode is kept escaped (``\\udfff``), so
        an odd old box still loads, prints and backs up."""
        return cls.from_json(
            _stored(
                data,
                cls.FIELDS,
                {
                    "hands": lambda hands: {
                        escaped(str(p)): _stored(
                            h,
                            Hand.FIELDS,
                            {"layoffs": lambda lays: [_stored(lay, Layoff.FIELDS, {}) for lay in lays]},
                        )
                        for p, h in hands.items()
                    }
                },
            )
        )

    def to_json(self) -> dict[str, Json]:
        """The box as CONTRACT.md writes it: only the fields that say something."""
        body: dict[str, Json] = {"ending": self.ending}
        if self.by is not None:
            body["by"] = self.by
        for name in ("after_break", "second_round"):
            if getattr(self, name):
                body[name] = True
        for name in ("breaker", "upcard", "double_refused", "dealer"):
            if getattr(self, name) is not None:
                body[name] = getattr(self, name)
        if self.multiplier != 1:
            body["multiplier"] = self.multiplier
        if self.hands:
            body["hands"] = {player: hand.to_json() for player, hand in self.hands.items()}
        if self.note is not None:
            body["note"] = self.note
        if self.id is not None:
            body["id"] = self.id
        return body

    def __hash__(self) -> int:
        """A box is a value: equal boxes hash alike, so the engine remembers a ruling by
        the box itself (``hands`` is a mapping, hashed as its set of items, as a
        mapping's equality ignores the order of its players)."""
        return hash(
            (
                self.ending,
                self.by,
                frozenset(self.hands.items()),
                self.after_break,
                self.second_round,
                self.breaker,
                self.upcard,
                self.multiplier,
                self.double_refused,
                self.dealer,
                self.note,
                self.id,
            )
        )

    def relabelled(self, box_id: str | int | None = None) -> BoxEntry:
        """The same box under another id (None: as stored, where the row holds the id)."""
        return dataclasses.replace(self, id=box_id)


def _hands(hands: Mapping[str, Json], where: str) -> dict[str, Hand]:
    """Each player's hand, by the player's name as seated; two hands for one player
    (" Bob" and "Bob") are refused, not one silently dropped."""
    read: dict[str, Hand] = {}
    for name, hand in hands.items():
        player = _name(name, _at(where, name), "player")
        if player in read:
            raise MalformedError(f"two hands are given for {player}", _at(where, name))
        read[player] = Hand.from_json(hand, _at(where, name), name)
    return read


def _label_id(value: Json, where: str) -> str | int:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise MalformedError("a box's id must be a string or a whole number", where)
    return _text(value, where, "box's id", 64) if isinstance(value, str) else value


@dataclass(frozen=True)
class GameEntry:
    """A game as ``score`` takes it: the rules (a preset and its changed settings), the
    seating, the first dealer, the stake, and the boxes so far. ``place`` and
    ``started`` (an ISO date and time) are what a score sheet's header shows."""

    rules: str
    players: tuple[str, ...]
    dealer: str | None = None
    settings: Mapping[str, Json] = field(default_factory=dict)
    stake: float | None = None
    boxes: tuple[BoxEntry, ...] = ()
    place: str | None = None
    started: str | None = None
    ended: Literal["agreed"] | None = None
    """``"agreed"``: the players stopped the game by agreement after its last box (K5)."""
    currency: str | None = None
    """The stake's currency, an ISO 4217 code ("EUR"), printed with every amount."""

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset(
        {"rules", "settings", "players", "dealer", "stake", "boxes", "place", "started", "ended", "currency"}
    )

    @classmethod
    def from_json(cls, data: Json, where: str = "") -> GameEntry:
        body = _fields(data, where, "a game", cls.FIELDS)
        players = body.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise MalformedError("players must be a list of names", _at(where, "players"))
        names = tuple(_name(p, _at(_at(where, "players"), i), "player") for i, p in enumerate(players))
        rules = body.get("rules")
        if rules is None:
            rules = default_rules_for(len(names)).name
        elif not isinstance(rules, str):
            raise MalformedError(f"rules must name a preset, not {_shown(rules)}", _at(where, "rules"))
        settings = body.get("settings") or {}
        if not isinstance(settings, Mapping):
            raise MalformedError(
                "settings must be an object of setting names and values", _at(where, "settings")
            )
        for name, value in settings.items():
            check_text(str(name), _at(where, "settings"), "setting's name")
            if isinstance(value, str):
                check_text(value, _at(_at(where, "settings"), name), "setting")
        boxes = body.get("boxes", [])
        if not isinstance(boxes, list):
            raise MalformedError("boxes must be a list of boxes", _at(where, "boxes"))
        if len(boxes) > MAX_BOXES:  # before reading them: a hostile game is refused cheaply
            raise MalformedError(
                too_many_boxes(MAX_BOXES + 1, MAX_BOXES), _at(_at(where, "boxes"), MAX_BOXES)
            )
        return cls(
            rules=_text(rules, _at(where, "rules"), "rules", 40),
            players=names,
            dealer=_optional(body, "dealer", where, lambda v, w: _name(v, w, "dealer")),
            settings=dict(settings),
            stake=check_stake(body.get("stake"), _at(where, "stake")),
            boxes=tuple(BoxEntry.from_json(box, _at(_at(where, "boxes"), i)) for i, box in enumerate(boxes)),
            place=_optional(body, "place", where, lambda v, w: _text(v, w, "place", MAX_PLACE)),
            started=_optional(body, "started", where, lambda v, w: _text(v, w, "start", 40)),
            ended=_optional(body, "ended", where, _ended),
            currency=_optional(body, "currency", where, _currency),
        )

    def to_json(self, boxes: bool = True) -> dict[str, Json]:
        body: dict[str, Json] = {
            "rules": self.rules,
            "settings": dict(self.settings),
            "players": list(self.players),
        }
        for name in ("dealer", "stake", "place", "started", "ended", "currency"):
            if getattr(self, name) is not None:
                body[name] = getattr(self, name)
        if boxes:
            body["boxes"] = [box.to_json() for box in self.boxes]
        return body

    def with_boxes(self, boxes: typing.Iterable[BoxEntry]) -> GameEntry:
        return dataclasses.replace(self, boxes=tuple(boxes))


def _ended(value: Json, where: str) -> Literal["agreed"]:
    if value != "agreed":
        raise MalformedError(
            f"ended is 'agreed' (the players stopped the game by agreement) or absent, not {_shown(value)}",
            where,
        )
    return "agreed"


def _currency(value: Json, where: str) -> str:
    """An ISO 4217 code in capitals, from a code or the symbol players write (money.py).

    >>> _currency("eur", "currency"), _currency("€", "currency")
    ('EUR', 'EUR')
    """
    code = read_currency(value) if isinstance(value, str) else None
    if code is None:
        raise MalformedError(
            f"currency is a three-letter ISO 4217 code such as 'EUR' or a symbol such as '€', "
            f"not {_shown(value)}",
            where,
        )
    return code


def read_adjudication(data: Json) -> tuple[GameEntry, BoxEntry]:
    """``adjudicate``'s input: one box with its game's rules, settings, players and
    dealer (CONTRACT.md "A box"), checked as a game and a box are."""
    game_fields = ("rules", "settings", "players", "dealer")
    body = _fields(data, "", "a box", BoxEntry.FIELDS | set(game_fields))
    game = GameEntry.from_json({k: body[k] for k in game_fields if k in body})
    box = BoxEntry.from_json({k: v for k, v in body.items() if k not in game_fields})
    return game, box


def check_stake(value: Json, where: str) -> float | None:
    """The money per point (V6): a number from 0 to :data:`MAX_STAKE`, checked before it
    is turned into a float (a whole number of thousands of digits would overflow); the
    engine asks the same of a game built in code."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
        or not (0 <= value <= MAX_STAKE)
    ):
        raise MalformedError(
            f"the stake is money per point, a number from 0 to {MAX_STAKE}, not {_shown(value)}", where
        )
    return value


# --- output -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One step of an explanation, citing the RULES.md id that applied."""

    rule: str
    text: str
    player: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Line:
        return cls(data["rule"], data["text"], data.get("player"))

    def to_json(self) -> dict[str, Json]:
        body = {"rule": self.rule, "text": self.text}
        if self.player is not None:
            body["player"] = self.player
        return body


@dataclass(frozen=True)
class LaidOff:
    """A layoff as the ruling made it: the card, whose meld took it and which one (its
    index there), and whether it went on in a later round of the break (J11)."""

    card: str
    onto: str
    meld: int | None = None
    later_round: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> LaidOff:
        return cls(data["card"], data["onto"], data.get("meld"), bool(data.get("later_round", False)))

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {"card": self.card, "onto": self.onto}
        if self.meld is not None:
            body["meld"] = self.meld
        if self.later_round:
            body["later_round"] = True
        return body

    def as_entered(self) -> Layoff:
        """The layoff as a box names it (the round it was made in is the ruling's to find)."""
        return Layoff(self.card, self.onto, self.meld)


@dataclass(frozen=True)
class LaidOut:
    """A hand as the ruling arranged it: melds, the layoffs made, deadwood, count."""

    melds: tuple[tuple[str, ...], ...]
    deadwood: tuple[str, ...]
    layoffs: tuple[LaidOff, ...]
    count: int

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> LaidOut:
        return cls(
            tuple(tuple(meld) for meld in data.get("melds", ())),
            tuple(data.get("deadwood", ())),
            tuple(LaidOff.from_json(lay) for lay in data.get("layoffs", ())),
            data.get("count", 0),
        )

    def to_json(self) -> dict[str, Json]:
        return {
            "melds": [list(meld) for meld in self.melds],
            "deadwood": list(self.deadwood),
            "layoffs": [lay.to_json() for lay in self.layoffs],
            "count": self.count,
        }

    def as_declared(self) -> Hand:
        """The hand entered as it was laid out (C8: the stored box is what was shown)."""
        return Hand(
            melds=self.melds, layoffs=tuple(lay.as_entered() for lay in self.layoffs), deadwood=self.deadwood
        )


def _plain(value: Any, items: bool = False) -> Json:
    """A field's value as JSON: ``items`` a tuple of contract values (each its own
    ``to_json``), else mappings and tuples as dicts and lists, the rest as it is."""
    if items:
        return [item.to_json() for item in value]
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _lines(data: Json) -> tuple[Line, ...]:
    return tuple(Line.from_json(line) for line in data or ())


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """The ruling on one box (CONTRACT.md "A ruling")."""

    result: str
    winner: str | None
    points: int
    credits: Mapping[str, int]
    penalties: Mapping[str, int] = field(default_factory=dict)
    counts: Mapping[str, int] = field(default_factory=dict)
    hands: Mapping[str, LaidOut] = field(default_factory=dict)
    explanation: tuple[Line, ...] = ()
    advice: tuple[Line, ...] = ()
    showdown: tuple[Line, ...] = ()
    ending: str | None = None
    by: str | None = None
    after_break: bool = False
    multiplier: int = 1
    knock_limit: int | None = None
    payments: tuple[Payment, ...] = ()
    """Where a box is paid as it falls (Knock Rummy, K3): what each other player paid
    the winner, the multiplier applied; empty (and absent from the JSON) elsewhere."""
    extra: Mapping[str, Json] = field(default_factory=dict)
    """Fields of the engine's answer that this version does not name."""

    LINES: typing.ClassVar[tuple[str, ...]] = ("explanation", "advice", "showdown")

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> typing.Self:
        named = {f.name for f in dataclasses.fields(cls)} - {"extra"}
        values: dict[str, Any] = {}
        for name in named & data.keys():
            value = data[name]
            if name in cls.LINES:
                value = _lines(value)
            elif name == "hands":
                value = {p: LaidOut.from_json(hand) for p, hand in value.items()}
            elif name == "payments":
                value = tuple(Payment.from_json(line) for line in value or ())
            values[name] = cls._read(name, value)
        values["extra"] = {k: v for k, v in data.items() if k not in named}
        return cls(**values)

    @classmethod
    def _read(cls, _name: str, value: Json) -> Any:
        return value

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "extra":
                continue
            if f.name == "hands":
                body[f.name] = {p: hand.to_json() for p, hand in value.items()}
            elif f.name == "payments":
                if value:
                    body[f.name] = _plain(value, items=True)
            else:
                body[f.name] = _plain(value, f.name in self.LINES)
        return {**body, **self.extra}

    @property
    def lines(self) -> tuple[Line, ...]:
        """The explanation, then any advice: what a ruling says, in order."""
        return self.explanation + self.advice


@dataclass(frozen=True, kw_only=True)
class SheetBox(Ruling):
    """One box on the score sheet: its ruling, its dealer and the running totals after
    it (Hollywood: the columns it went into and each column's totals)."""

    id: str | int | None = None
    note: str | None = None
    dealer: str | None = None
    totals: Mapping[str, int] = field(default_factory=dict)
    columns: tuple[int, ...] = ()
    column_totals: tuple[Mapping[str, int], ...] = ()

    @classmethod
    def _read(cls, name: str, value: Json) -> Any:
        return tuple(value) if name in ("columns", "column_totals") else value

    def to_json(self) -> dict[str, Json]:
        body = super().to_json()
        for name in ("id", "note"):
            if body.get(name) is None:
                body.pop(name, None)
        if not self.column_totals:  # not Hollywood (a Hollywood draw enters no column)
            body.pop("columns", None)
            body.pop("column_totals", None)
        return body


@dataclass(frozen=True)
class Payment:
    """One line of the settlement: ``payer`` pays ``payee`` (CONTRACT.md's ``from`` and
    ``to``) so many points, and money at the game's stake."""

    payer: str
    payee: str
    points: int
    amount: float | None = None
    shutout: bool = False
    """The shutout changed this payment (J15, G8, P8): a shut-out player's debt to the
    winner, the only payment a shutout doubles; absent from the JSON when false."""

    JSON_NAMES: typing.ClassVar[Mapping[str, str]] = {"payer": "from", "payee": "to"}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Payment:
        return cls(
            data["from"], data["to"], data["points"], data.get("amount"), bool(data.get("shutout", False))
        )

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {"from": self.payer, "to": self.payee, "points": self.points}
        if self.amount is not None:
            body["amount"] = self.amount
        if self.shutout:
            body["shutout"] = True
        return body


@dataclass(frozen=True, kw_only=True)
class Summary:
    """Where one game stands: totals and boxes won; once over, bonuses, shutouts, final
    totals and the settlement. Hollywood has one per column (``column``, from 1)."""

    totals: Mapping[str, int]
    boxes_won: Mapping[str, int] = field(default_factory=dict)
    game_over: bool = False
    winner: str | None = None
    game_bonus: Mapping[str, int] = field(default_factory=dict)
    box_bonuses: Mapping[str, int] = field(default_factory=dict)
    shutouts: tuple[str, ...] = ()
    final_totals: Mapping[str, int] = field(default_factory=dict)
    settlement: tuple[Payment, ...] = ()
    explanation: tuple[Line, ...] = ()
    column: int | None = None
    entered_boxes: tuple[int, ...] | None = None
    """Hollywood (V3): the numbers of the boxes entered in this column."""
    ended: str | None = None
    """``"agreed"``: the players ended the game by agreement after its last box (K5)."""
    extra: Mapping[str, Json] = field(default_factory=dict)

    OPTIONAL: typing.ClassVar[tuple[str, ...]] = ("column", "entered_boxes", "ended")
    """Fields left out of the JSON when they are None."""

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> typing.Self:
        named = {f.name for f in dataclasses.fields(cls)} - {"extra"}
        values: dict[str, Any] = {name: data[name] for name in named & data.keys()}
        if values.get("entered_boxes") is not None:
            values["entered_boxes"] = tuple(values["entered_boxes"])
        values["shutouts"] = tuple(data.get("shutouts") or ())
        values["settlement"] = tuple(Payment.from_json(p) for p in data.get("settlement") or ())
        values["explanation"] = _lines(data.get("explanation"))
        if "boxes" in values:
            values["boxes"] = tuple(SheetBox.from_json(box) for box in data["boxes"])
        if "games" in values:
            values["games"] = tuple(Summary.from_json(game) for game in data["games"] or ())
        values["extra"] = {k: v for k, v in data.items() if k not in named}
        return cls(**values)

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "extra" or (f.name in self.OPTIONAL and value is None):
                continue
            body[f.name] = _plain(value, f.name in ("settlement", "explanation", "boxes", "games"))
        return {**body, **self.extra}


@dataclass(frozen=True, kw_only=True)
class Sheet(Summary):
    """The score sheet of a game (CONTRACT.md "A game", out): every box with its ruling
    and running totals, where the game stands, and who deals next while it goes on.
    Hollywood adds ``games``, one :class:`Summary` per column (V3)."""

    boxes: tuple[SheetBox, ...] = ()
    next_dealer: str | None = None
    games: tuple[Summary, ...] = ()

    def to_json(self) -> dict[str, Json]:
        body = super().to_json()
        if not self.games:
            body.pop("games", None)
        return body

    def box_of(self, box_id: int | str) -> tuple[int, SheetBox] | None:
        """The box with this id and its place on the sheet (from 0), if it is there."""
        for index, box in enumerate(self.boxes):
            if box.id == box_id:
                return index, box
        return None


__all__ = [
    "ENDINGS",
    "MAX_BOXES",
    "MAX_NAME",
    "MAX_NOTE",
    "MAX_STAKE",
    "MELD_INDEX",
    "BoxEntry",
    "Ending",
    "GameEntry",
    "Hand",
    "LaidOff",
    "LaidOut",
    "Layoff",
    "Line",
    "Payment",
    "Ruling",
    "Sheet",
    "SheetBox",
    "Summary",
    "check_stake",
    "check_text",
    "escaped",
    "multiplier_error",
    "read_adjudication",
    "sound",
    "too_many_boxes",
    "unsound",
]
