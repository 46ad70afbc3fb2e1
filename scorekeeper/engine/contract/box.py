"""A box as entered (CONTRACT.md "A box"): how the hand ended, who ended it and every
player's hand; read from JSON or from a store's older rows, and written back as it was
entered."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import MalformedError
from .fields import (
    ENDINGS,
    MAX_NOTE,
    Ending,
    Json,
    _at,
    _card,
    _fields,
    _flag,
    _name,
    _optional,
    _shown,
    _stored,
    _text,
    escaped,
)
from .hand import Hand, Layoff


def multiplier_error(value: Json, where: str) -> MalformedError:
    """The one error for a wrong multiplier, whether the JSON gives no whole number or
    the engine finds no power of two (V5)."""
    return MalformedError(
        f"multiplier must be a power of two (1, 2, 4, 8, ... up to 1024), not {_shown(value)}: "
        "each double doubles the box (V5)",
        where,
    )


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
