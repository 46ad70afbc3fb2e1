"""Players' records read from the store (LAYOUT.md floor 3, beside the ledger): the
games a browser may count as :class:`~scorekeeper.records.Played` values, who is who,
and the scorers' merges and splits of names.

A game's stored summary holds what the records need (each box's result, winner and
credit, the shutouts, the settlement: :func:`scorekeeper.store.summarize`), so a
player's page reads one row per game; a game stored before the summary held it is
scored by the engine instead (docs/performance.md has both figures).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from . import ledger, store
from .engine.contract import Payment, Sheet, SheetBox
from .exports import Exported
from .records import Alias, Names, Played, fold

MAX_NAME = 80
"""A person's name in a merge or split (the store's column)."""


def names(db: Session) -> Names:
    """The scorers' merges and splits."""
    return Names(tuple(Alias(row.name, row.person, row.game_id)
                       for row in store.aliases(db)))


def played(db: Session, ids: Sequence[str] | None = None,
           kept: Kept | None = None) -> list[Played]:
    """The games that count (``ids``: only those; None: every game), each scored, oldest
    first. With ``kept``, a game read before at its current version is not read again."""
    who = names(db)
    if kept is None:
        return [game for row in store.counted_games(db, ids)
                if (game := _played(db, row, who)) is not None]
    return kept.played(db, ids, who)


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
    return Played(row.id, day_of(row), row.rules, tuple(row.players),
                  tuple(who.person(name, row.id) for name in row.players), row.stake, sheet)


class Kept:
    """The games read so far, each with the version it was read at (a server keeps
    one): a player's page over a thousand games reads only the versions, and the
    games written since (docs/performance.md has the figures that asked for it).
    A change of the merges and splits only re-matches the names."""

    def __init__(self) -> None:
        self._games: dict[str, tuple[int, Played]] = {}
        self._names = Names()
        self._lock = threading.Lock()

    def played(self, db: Session, ids: Sequence[str] | None, who: Names) -> list[Played]:
        """As :func:`played` does, from what is kept where it is still current."""
        current = store.versions(db, ids)
        with self._lock:
            if who != self._names:
                self._games = {game_id: (version, _matched(game, who))
                               for game_id, (version, game) in self._games.items()}
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


def summarised(summary: Mapping[str, Any]) -> Sheet | None:
    """The sheet as the stored summary gives it (boxes with result, winner and credit
    only), or None for a summary written before it held a ``record``."""
    kept = summary.get("record")
    if not isinstance(kept, Mapping):
        return None
    boxes = tuple(SheetBox(result=result, winner=winner, points=points, credits={})
                  for result, winner, points in kept.get("boxes", ()))
    return Sheet(
        totals=summary.get("totals") or {}, game_over=bool(summary.get("game_over")),
        winner=summary.get("winner"), final_totals=summary.get("final_totals") or {},
        shutouts=tuple(kept.get("shutouts", ())),
        settlement=tuple(Payment.from_json(p) for p in kept.get("settlement", ())),
        boxes=boxes)


class NameRefused(ValueError):
    """A merge or split that cannot be stored as asked (the message says why)."""


def merge(db: Session, name: str, person: str) -> store.AliasRow:
    """Count ``name`` as ``person`` in every game."""
    return store.set_alias(db, _folded(name, "name"), _person(person))


def split(db: Session, name: str, game_id: str, person: str) -> store.AliasRow:
    """Count ``name`` as another ``person`` in this game only (two people share a name)."""
    row = store.get_game(db, game_id)
    if row is None or fold(name) not in {fold(p) for p in row.players}:
        raise NameRefused(f"no player named {name!r} in that game")
    return store.set_alias(db, _folded(name, "name"), _person(person), game_id)


def _folded(name: str, what: str) -> str:
    folded = fold(name)
    if not folded:
        raise NameRefused(f"the {what} is empty")
    if len(folded) > MAX_NAME:
        raise NameRefused(f"the {what} is too long ({MAX_NAME} characters at most)")
    return folded


def _person(person: str) -> str:
    """The person's name as typed, spacing tidied (it is shown as the record's name)."""
    _folded(person, "person's name")
    return " ".join(person.split())
