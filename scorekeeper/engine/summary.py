"""A game's stored summary, typed, with its one reader (:meth:`Summary.read`): what game
lists, players' records and an event's standings read of a game without rescoring it.
The store writes it (:func:`scorekeeper.store.summarize`) from the game's sheet; this
module only reads it, whatever version wrote it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Summary:
    """A game's stored summary, typed, read in one place (:meth:`read`): what lists,
    records and an event's standings read of a game without rescoring it. ``record`` is
    None for a summary written before it held one; every field reads what an older
    version wrote, or its empty value, never a KeyError."""

    totals: Mapping[str, int]
    boxes: int | None
    """The game's boxes (None when an old summary did not say)."""
    game_over: bool
    winner: str | None
    final_totals: Mapping[str, int]
    record: RecordSummary | None
    paid: Mapping[str, int]

    @classmethod
    def read(cls, stored: object) -> Summary:
        data = stored if isinstance(stored, Mapping) else {}
        boxes = data.get("boxes")
        kept = data.get("record")
        return cls(
            _ints(data.get("totals")),
            boxes if isinstance(boxes, int) and not isinstance(boxes, bool) else None,
            bool(data.get("game_over")),
            data.get("winner") if isinstance(data.get("winner"), str) else None,
            _ints(data.get("final_totals")),
            RecordSummary.read(kept) if isinstance(kept, Mapping) else None,
            _ints(data.get("paid")),
        )

    @property
    def standing_totals(self) -> Mapping[str, int]:
        """The totals as they stand: the final ones once the game is over."""
        return (self.final_totals if self.game_over else None) or self.totals


@dataclass(frozen=True)
class RecordSummary:
    """What a player's record reads of a game: each box's result, winner and credit, the
    shutouts and the settlement (``version``: :data:`RECORD_VERSION` when written)."""

    version: int
    boxes: tuple[tuple[str, str | None, int], ...]
    shutouts: tuple[str, ...]
    settlement: tuple[Mapping[str, Any], ...]

    @classmethod
    def read(cls, kept: Mapping[str, Any]) -> RecordSummary:
        version = kept.get("version", 1)
        boxes = tuple(
            (
                str(box[0]),
                box[1] if isinstance(box[1], str) else None,
                box[2] if isinstance(box[2], int) else 0,
            )
            for box in kept.get("boxes") or ()
            if isinstance(box, list | tuple) and len(box) >= 3
        )
        return cls(
            version if isinstance(version, int) else 1,
            boxes,
            tuple(str(p) for p in kept.get("shutouts") or ()),
            tuple(p for p in kept.get("settlement") or () if isinstance(p, Mapping)),
        )


def _ints(value: object) -> dict[str, int]:
    return (
        {str(k): int(v) for k, v in value.items() if isinstance(v, int | float)}
        if isinstance(value, Mapping)
        else {}
    )


__all__ = ["RecordSummary", "Summary"]
