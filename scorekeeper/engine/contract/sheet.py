"""A score sheet (CONTRACT.md "A game", out): each box with its ruling and running
totals, where the game stands (a :class:`Summary`, one per column in Hollywood) and the
settlement once it is over."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .fields import Json
from .ruling import Line, Payment, Ruling, _lines, _plain


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
