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
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy.orm import Session

from .. import store
from ..records import Alias, Names, fold

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
