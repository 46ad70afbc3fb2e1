"""A game as ``score`` takes it (CONTRACT.md "A game"): the rules, the seating, the
dealer, the stake and the boxes; and ``adjudicate``'s input, one box with its game."""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..errors import MalformedError
from ..money import read_currency
from ..rules import default_rules_for
from .box import BoxEntry
from .fields import (
    MAX_BOXES,
    MAX_PLACE,
    MAX_STAKE,
    Json,
    _at,
    _fields,
    _name,
    _optional,
    _shown,
    _text,
    check_text,
    too_many_boxes,
)


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
