"""A ruling on one box (CONTRACT.md "A ruling"), as the engine answers it: the result,
the credits, each hand as the ruling laid it out, the explanation's lines, and where a
box is paid as it falls the payments (a :class:`Payment` is also a settlement's line).
Fields a later version adds are kept in ``extra``."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .fields import Json
from .hand import Hand, Layoff


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
