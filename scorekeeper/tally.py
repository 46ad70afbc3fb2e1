"""Players' records read from the store (LAYOUT.md floor 3, beside the ledger): the
games a browser may count as :class:`~scorekeeper.records.Played` values and who is
who (the scorers' merges and splits, written by :mod:`scorekeeper.ledger.players`).

A game's stored summary holds what the records need (each box's result, winner and
credit, the shutouts, the settlement: :func:`scorekeeper.store.summarize`), so a
player's page reads one row per game; a game stored before the summary held it is
scored by the engine instead (docs/performance.md has both figures).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.orm import Session

from . import ledger, store
from .engine.contract import Payment, Sheet, SheetBox
from .exports import Exported
from .ledger import players
from .records import Names, Played


def names(db: Session) -> Names:
    """The scorers' merges and splits (decided by :mod:`scorekeeper.ledger.players`)."""
    return players.names(db)


def played(
    db: Session, ids: Sequence[str] | None = None, kept: Kept | None = None, most: int | None = None
) -> list[Played]:
    """The games that count (``ids``: only those; None: every game; ``most``: only that
    many of the newest of them), each scored, oldest first. With ``kept``, a game read
    before at its current version is not read again."""
    who = names(db)
    if kept is None:
        if most is not None:
            ids = list(store.versions(db, ids, most))
        return [game for row in store.counted_games(db, ids) if (game := _played(db, row, who)) is not None]
    return kept.played(db, ids, who, most)


def _played(db: Session, row: store.CountedGame, who: Names) -> Played | None:
    """One game as records read it: from its summary, else scored by the engine."""
    sheet = summarised(row.summary)
    if sheet is not None and row.rules == "knock-rummy" and _version(row.summary) < store.RECORD_VERSION:
        sheet = None  # settled by the difference of totals before K5 said box by box
    if sheet is None:
        table = ledger.load(db, row.id)
        sheet = None if table is None else table.sheet
    if sheet is None:
        return None
    return Played(
        row.id,
        day_of(row),
        row.rules,
        tuple(row.players),
        tuple(who.person(name, row.id) for name in row.players),
        row.stake,
        sheet,
        began_at(row),
        row.currency or "",
    )


class Kept:
    """The games read so far, each with the version it was read at (a server keeps
    one): a player's page over a thousand games reads only the versions, and the
    games written since (docs/performance.md has the figures that asked for it).
    A change of the merges and splits only re-matches the names."""

    def __init__(self) -> None:
        self._games: dict[str, tuple[int, Played]] = {}
        self._names = Names()
        self._lock = threading.Lock()

    def played(
        self, db: Session, ids: Sequence[str] | None, who: Names, most: int | None = None
    ) -> list[Played]:
        """As :func:`played` does, from what is kept where it is still current (a game
        no longer counted, past ``most`` say, is forgotten)."""
        current = store.versions(db, ids, most)
        with self._lock:
            if who != self._names:
                self._games = {
                    game_id: (version, _matched(game, who))
                    for game_id, (version, game) in self._games.items()
                }
                self._names = who
            stale = [i for i, v in current.items() if self._games.get(i, (None,))[0] != v]
        fresh = {}
        for row in store.counted_games(db, stale) if stale else ():
            game = _played(db, row, who)
            if game is not None:
                fresh[row.id] = (row.version, game)
        with self._lock:
            self._games.update(fresh)
            for gone in [i for i in self._games if ids is None and i not in current]:
                del self._games[gone]
            found = [self._games[i] for i in current if i in self._games]
        return [game for version, game in found if current[game.id] == version]


def _matched(game: Played, who: Names) -> Played:
    """The game with its names matched again after a merge or split."""
    return dataclasses.replace(game, people=tuple(who.person(n, game.id) for n in game.players))


def exported(db: Session, games: Sequence[Played]) -> list[Exported]:
    """Each game read whole and scored by the engine (the exports: every count and
    credit of every box), in the order given."""
    found = []
    for game in games:
        table = ledger.load(db, game.id)
        if table is not None and table.sheet is not None:
            found.append(Exported(game.id, game.day, table.game, table.sheet))
    return found


def day_of(row: store.CountedGame | store.GameRow) -> date:
    """The day a game was played: its start as entered, else the day it was stored."""
    if row.started:
        try:
            return date.fromisoformat(row.started[:10])
        except ValueError:
            pass
    return row.created_at.date()


def _version(summary: Mapping[str, Any]) -> int:
    """The version of a stored summary's record (1 before it said; store.RECORD_VERSION)."""
    version = summary.get("record", {}).get("version", 1)
    return version if isinstance(version, int) else 1


def began_at(row: store.CountedGame | store.GameRow) -> datetime:
    """When play began: its start as entered (to the minute), else when it was stored;
    naive, as the store keeps times, so any two compare."""
    if row.started:
        try:
            began = datetime.fromisoformat(row.started)
        except ValueError:
            pass
        else:
            if began.tzinfo is not None:
                began = began.astimezone(UTC).replace(tzinfo=None)
            return began
    return row.created_at


def summarised(summary: Mapping[str, Any]) -> Sheet | None:
    """The sheet as the stored summary gives it (boxes with result, winner and credit
    only), or None for a summary written before it held a ``record``."""
    kept = summary.get("record")
    if not isinstance(kept, Mapping):
        return None
    boxes = tuple(
        SheetBox(result=result, winner=winner, points=points, credits={})
        for result, winner, points in kept.get("boxes", ())
    )
    return Sheet(
        totals=summary.get("totals") or {},
        game_over=bool(summary.get("game_over")),
        winner=summary.get("winner"),
        final_totals=summary.get("final_totals") or {},
        shutouts=tuple(kept.get("shutouts", ())),
        settlement=tuple(Payment.from_json(p) for p in kept.get("settlement", ())),
        boxes=boxes,
    )
