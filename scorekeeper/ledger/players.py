"""Who is who across games, as scorers decide it: merge a name into a player, split a
shared name in one game, undo either (issue 23: a name is not anyone's to merge).

A decision changes only the records of games the deciding phone keeps score of: a
merge counts the name as the player in each of *those* games where it played, never
in a stranger's game (the other Quinn keeps her own page), and a split touches the one
game named. Every decision is kept in history with what it replaced, and is undone
only by a phone that keeps score of every game it changed.

The caller says which games the phone keeps score of (``scored``: the web layer checks
the rights its cookie holds); this module checks every game a decision touches is
among them, so a page or a command line cannot reach past them.

Below the decisions, the records read from the store (LAYOUT.md floor 3: what was
``tally.py``, beside the ledger, now in it): the games a browser may count as
:class:`~scorekeeper.records.Played` values, each with its players matched to the
people the decisions say. A game's stored summary holds what the records need (each
box's result, winner and credit, the shutouts, the settlement:
:func:`scorekeeper.store.summarize`), so a player's page reads one row per game; a game
stored before the summary held it is scored by the engine instead
(docs/performance.md has both figures).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.orm import Session

from .. import store
from ..engine.contract import Payment, Sheet, SheetBox
from ..exports import Exported
from ..records import Alias, Names, Played, fold
from . import load

MAX_NAME = 80
"""A person's name in a merge or split (the store's column)."""


class NameRefused(ValueError):
    """A merge, split or undo that cannot be done as asked (the message says why)."""


class NotYours(NameRefused):
    """The decision would touch a game the deciding phone does not keep score of."""


def names(db: Session) -> Names:
    """The scorers' merges and splits as they stand now."""
    return Names(tuple(Alias(row.name, row.person, row.game_id) for row in store.aliases(db)))


def merge(db: Session, name: str, person: str, scored: Collection[str]) -> store.DecisionRow:
    """Count ``name`` as ``person`` in each game of ``scored`` where a seat is ``name``
    now (whatever it was written as, merges followed): only those games change."""
    folded, who = _folded(name, "name"), _person(person)
    if folded == fold(who):
        raise NameRefused(f"{name!r} is already {who}")
    current = names(db)
    games = _games(db, scored)
    places = [
        (game.id, fold(seat))
        for game in games
        for seat in game.players
        if current.person(seat, game.id) == folded
    ]
    met = [
        game
        for game in games
        if game.id in {g for g, _ in places}
        and any(current.person(seat, game.id) == fold(who) for seat in game.players)
    ]
    if met:
        raise NameRefused(
            f"{name!r} and {who} played at one table ({', '.join(met[0].players)}"
            f"): they are two people, not one"
        )
    if not places:
        raise NotYours(
            f"None of the games you keep score of has a player named {name!r}: "
            "a scorer of a game where that name played can count it as "
            f"{who} there."
        )
    return store.decide(db, "merge", folded, who, places)


def split(db: Session, name: str, game_id: str, person: str, scored: Collection[str]) -> store.DecisionRow:
    """Count ``name`` as another ``person`` in this game only (two people share a name):
    a game the phone keeps score of."""
    folded, who = _folded(name, "name"), _person(person)
    if game_id not in scored:
        raise NotYours("Choose a game of this player that you keep score of.")
    games = _games(db, [game_id])
    if not games or folded not in {fold(p) for p in games[0].players}:
        raise NameRefused(f"no player named {name!r} in that game")
    return store.decide(db, "split", folded, who, [(game_id, folded)])


def undo(db: Session, decision_id: int, scored: Collection[str]) -> store.DecisionRow | None:
    """Undo a merge or split, kept in history as undone; None if there is no such
    decision standing. Only a phone that keeps score of every game it changed (that
    still exists) may; a server-wide merge from before this history needs every game
    where that name played."""
    decision = store.decision(db, decision_id)
    if decision is None or decision.undone_at is not None:
        return None
    missing = [game for game in touched(db, decision) if game not in scored]
    if missing:
        games = "1 game" if len(missing) == 1 else f"{len(missing)} games"
        raise NotYours(
            f"Only a phone that keeps score of every game this {decision.kind} "
            f"changed can undo it ({games} of them you do not)."
        )
    return store.undo_decision(db, decision_id)


def touched(db: Session, decision: store.DecisionRow, most: int | None = None) -> list[str]:
    """The games a decision changed that still exist: an undo needs a right over each.
    A server-wide merge from before this history changed every game where its name
    played; with ``most``, only the newest ``most`` games are read for it (a page's
    hint stays bounded however many games the server holds; :func:`undo` reads all)."""
    games = set(store.versions(db, decision.games)) if decision.games else set()
    if any(change.game is None for change in decision.changes):
        among = None if most is None else list(store.versions(db, most=most))
        games |= {
            game.id
            for game in store.counted_games(db, among)
            if decision.name in {fold(p) for p in game.players}
        }
    return sorted(games)


def history(db: Session, person: str) -> list[store.DecisionRow]:
    """The decisions that touch a (folded) person, as name or as person, newest first,
    undone ones too."""
    return [d for d in reversed(store.decisions(db)) if fold(d.person) == person or d.name == person]


def _games(db: Session, ids: Collection[str]) -> list[store.CountedGame]:
    wanted = [i for i in ids if isinstance(i, str)]
    return store.counted_games(db, wanted) if wanted else []


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


# --- the records read from the store ---------------------------------------------------


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
        table = load(db, row.id)
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
        table = load(db, game.id)
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
    kept = store.Summary.read(summary).record
    return kept.version if kept else 1


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
    read = store.Summary.read(summary)
    kept = read.record
    if kept is None:
        return None
    boxes = tuple(
        SheetBox(result=result, winner=winner, points=points, credits={})
        for result, winner, points in kept.boxes
    )
    return Sheet(
        totals=read.totals,
        game_over=read.game_over,
        winner=read.winner,
        final_totals=read.final_totals,
        shutouts=kept.shutouts,
        settlement=tuple(Payment.from_json(p) for p in kept.settlement),
        boxes=boxes,
    )
