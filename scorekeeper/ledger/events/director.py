"""The director's writes between and during rounds: late entries and withdrawals,
swapped seats and replaced players, penalties and their withdrawal (E4), a table's
game ended or reopened, a box corrected or deleted at any table, new director's codes.

Each is one write of the event's prologue (:func:`.held.held`), with the idempotency
key of the form or call that made it: the games it touches (a penalty's line in a
game's history, the new games of a reseated table, the old ones ended) are written in
the same transaction as the event.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence

from sqlalchemy.orm import Session

from ... import engine, store
from ...engine.contract import BoxEntry
from ...engine.errors import MalformedError
from ...engine.event import Penalty, Seating, check_room, read_entrants
from ...engine.history import Kind
from ...engine.substitutes import Substitute
from ...store.events import LoadedEvent
from .. import Written, correct, delete, end, load, make_codes, reopen
from ..table import LedgerError, Table
from .held import Change, NotInEvent, RoundRefused, held
from .reading import Codes, event_row
from .rounds import table_game

# --- entrants -----------------------------------------------------------------------------


def enter(db: Session, event_id: str, name: str, *, key: str | None = None) -> LoadedEvent:
    """A late entry (or a withdrawn player back), playing from the next round."""
    return change_entrants(db, event_id, [name], [], key=key)


def withdraw(db: Session, event_id: str, name: str, *, key: str | None = None) -> LoadedEvent:
    """The player plays no more from the next round (a game under way is played out,
    or ended by the director); the player stays in the standings, marked."""
    return change_entrants(db, event_id, [], [name], key=key)


def change_entrants(
    db: Session, event_id: str, added: Sequence[str], gone: Sequence[str], *, key: str | None = None
) -> LoadedEvent:
    """Late entries (or withdrawn players back) and withdrawals, from the next round:
    all of them or, when one is refused (a name entered twice, someone not entered),
    none."""
    cleaned = [read_entrants([name], "name")[0] for name in added]

    def write(event: LoadedEvent) -> Change:
        known = {e.name.casefold(): e for e in event.entrants}
        entering: list[str] = []
        for clean in cleaned:
            folded = clean.casefold()
            if (folded in known and known[folded].withdrawn_round is None) or folded in map(
                str.casefold, entering
            ):
                raise MalformedError(f"{clean} is already entered", "name")
            entering.append(known[folded].name if folded in known else clean)
        leaving = [entrant(event, name) for name in gone]
        both = {n.casefold() for n in entering} & {n.casefold() for n in leaving}
        if both:
            raise MalformedError(f"{sorted(both)[0]} cannot both enter and withdraw", "withdraw")
        round = event.row.current_round + 1
        check_room(len(event.playing(round)) - len(leaving), len(entering), "name")
        store.events.add_entrants(db, event.id, entering, round)
        for name in leaving:
            store.events.withdraw(db, event.id, name, round)
        return {"added": entering, "withdrawn": leaving, "round": round}, {}

    content = {"added": cleaned, "gone": list(gone)}
    return held(db, event_id, Kind.ENTRANTS, content, key, write).event


def entrant(event: LoadedEvent, name: str) -> str:
    """The entrant's name as entered, whatever case and spacing ``name`` was typed in."""
    folded = engine.player_name(name).casefold()
    for e in event.entrants:
        if e.name.casefold() == folded:
            return e.name
    raise NotInEvent(f"{name.strip()[:80]} is not an entrant of this event")


# --- before a table starts: swapped seats, a replaced player ---------------------------------


def swap(
    db: Session,
    event_id: str,
    first: str,
    second: str,
    *,
    secret: bytes | None = None,
    key: str | None = None,
) -> LoadedEvent:
    """Swap two players' seats in the current round before their tables start (no box
    recorded at either): their tables get new games with the new seats."""

    def write(event: LoadedEvent) -> Change:
        a, b = entrant(event, first), entrant(event, second)
        if a == b:
            raise MalformedError(f"name two players to swap, not {a} twice", "players")
        seating = _open_seating(event)
        at_a, at_b = seating.place_of(a), seating.place_of(b)
        if at_a is None or at_b is None:
            missing = a if at_a is None else b
            raise NotInEvent(f"{missing} is not seated in round {seating.round}")
        new = [list(t) for t in seating.tables]
        new[at_a[0] - 1][at_a[1] - 1], new[at_b[0] - 1][at_b[1] - 1] = b, a
        why = f"seats of {a} and {b} swapped"
        games = _reseat(db, event, seating, new, {at_a[0], at_b[0]}, secret, why)
        return {"first": a, "second": b, "round": seating.round, "games": games}, {}

    return held(db, event_id, Kind.SEATS, sorted((first, second)), key, write).event


def replace(
    db: Session,
    event_id: str,
    player: str,
    by: str,
    *,
    counts_for: str | None = None,
    secret: bytes | None = None,
    key: str | None = None,
) -> LoadedEvent:
    """``by`` takes ``player``'s seat in the current round, and his place in the rounds
    after; ``player`` withdraws (kept in the standings). Before the table's first box
    the table gets a new game with the new seats; once it has one, the game is kept
    (E5): ``by`` plays the seat from the next box, and the seat's result counts for
    ``counts_for`` (``player``, the original entrant, unless the director names ``by``)."""
    (new_name,) = read_entrants([by], "by")

    def write(event: LoadedEvent) -> Change:
        old = entrant(event, player)
        if any(
            e.name.casefold() == new_name.casefold() and e.withdrawn_round is None for e in event.entrants
        ):
            raise MalformedError(f"{new_name} is already entered: swap seats instead", "by")
        counted = _counted_for(old, new_name, counts_for)
        seating = _open_seating(event)
        at = seating.place_of(old)
        game_id = event.entry.game_of(seating.round, at[0]) if at else None
        table = load(db, game_id) if game_id else None
        if at is not None and game_id is not None and table is not None and table.boxes:
            return _substitute(db, event, seating.round, at[0], table, old, new_name, counted)
        from_round = seating.round if at else seating.round + 1
        check_room(len(event.playing(from_round)) - 1, 1, "by")
        store.events.add_entrant(db, event.id, new_name, from_round)
        store.events.withdraw(db, event.id, old, from_round)
        games: dict[int, str] = {}
        if at is not None:
            new = [list(t) for t in seating.tables]
            new[at[0] - 1][at[1] - 1] = new_name
            games = _reseat(db, event, seating, new, {at[0]}, secret, f"{new_name} replaced {old}")
        return {"player": old, "by": new_name, "round": from_round, "games": games}, {}

    content = [player, new_name] if counts_for is None else [player, new_name, counts_for]
    return held(db, event_id, Kind.REPLACED, content, key, write).event


def _counted_for(old: str, new_name: str, counts_for: str | None) -> str:
    """The player of record the director named (E5): the entrant who leaves by default."""
    if counts_for is None or not counts_for.strip():
        return old
    named = engine.player_name(counts_for).casefold()
    for name in (old, new_name):
        if name.casefold() == named:
            return name
    raise MalformedError(
        f"the seat's result counts for {old} or {new_name}, not {counts_for.strip()[:80]}", "counts_for"
    )


def _substitute(
    db: Session,
    event: LoadedEvent,
    round: int,
    number: int,
    table: Table,
    old: str,
    new_name: str,
    counted: str,
) -> Change:
    """A replacement mid-game (E5): the game is kept; ``new_name`` plays ``old``'s seat
    from the next box (data on the game, a line in its history); ``old`` withdraws from
    the next round and ``new_name`` takes his place in it (none when this is the last)."""
    if (table.sheet is not None and table.sheet.game_over) or table.row.ended:
        raise RoundRefused(f"table {number}'s game is over: nobody plays its seats any more")
    if any(new_name.casefold() == p.casefold() for p in (*table.players, *(s.by for s in table.substitutes))):
        raise MalformedError(f"{new_name} already plays at table {number}", "by")
    first = table.next_number
    sub = Substitute(old, new_name, first, counted)
    kept = [s for s in table.substitutes if (s.seat, s.from_box) != (old, first)]
    detail = {"round": round, "table": number, "game": table.id, **sub.to_json(), "player": old}
    note(db, table.id, Kind.REPLACED, detail, substitutes=[s.to_json() for s in (*kept, sub)])
    if round < event.entry.rounds:
        check_room(len(event.playing(round + 1)) - 1, 1, "by")
        store.events.add_entrant(db, event.id, new_name, round + 1)
        store.events.withdraw(db, event.id, old, round + 1)
    return {**detail, "games": {}}, {}


def _open_seating(event: LoadedEvent) -> Seating:
    current = event.round(event.row.current_round)
    seating = event.entry.seating_of(event.row.current_round)
    if current is None or seating is None or current.closed_at is not None:
        raise RoundRefused("no round is open: seats change between seating a round and its first box")
    return seating


def _reseat(
    db: Session,
    event: LoadedEvent,
    seating: Seating,
    new: list[list[str]],
    changed: set[int],
    secret: bytes | None,
    why: str,
) -> dict[int, str]:
    """Seat the ``changed`` tables anew inside the event's write: each gets a new game
    with its new seats; the old game gets a line in its history naming the new one
    (a table card printed before the change lands there) and is ended. The new games
    by table."""
    _check_unstarted(db, event, seating, changed)
    games: dict[int, str] = {}
    for number in sorted(changed):
        players = tuple(new[number - 1])
        seats = hashlib.sha256("\x1f".join(players).encode()).hexdigest()[:16]
        game_id = table_game(
            db, event, seating.round, number, players, secret, f"v{event.row.version}-{seats}"
        )
        store.events.reseat_table(db, event.id, seating.round, number, players, game_id)
        old_game = event.entry.game_of(seating.round, number)
        if old_game is not None:
            note(db, old_game, Kind.RESEATED, {"reseated": why, "game": game_id})
            with contextlib.suppress(engine.ScorekeeperError, LedgerError):
                end(db, old_game, by="director")  # unless it cannot be scored
        games[number] = game_id
    return games


def _check_unstarted(db: Session, event: LoadedEvent, seating: Seating, changed: set[int]) -> None:
    """Refuse before anything is written when a table to reseat has a box recorded."""
    for number in sorted(changed):
        game_id = event.entry.game_of(seating.round, number)
        table = load(db, game_id) if game_id else None
        if table is not None and table.boxes:
            raise RoundRefused(
                f"table {number} has started (box {len(table.boxes)} is "
                "recorded): seats change only before a table's first box"
            )


def note(
    db: Session,
    game_id: str,
    kind: Kind,
    detail: dict[str, object],
    *,
    substitutes: list[dict[str, object]] | None = None,
) -> None:
    """A line in a game's history for what the director did to it, inside the event's
    write (the game is locked with it: a box recorded meanwhile is in the version), with
    the game's ``substitutes`` when one is added (E5)."""
    with store.writing(db, game_id):
        table = load(db, game_id)
        if table is None:
            return
        store.amend_game(
            db,
            game_id,
            table.version,
            store.Amendment(kind.value, dict(detail), substitutes=substitutes),
            rulings={},
            summary=dict(table.row.summary),
        )


# --- penalties ---------------------------------------------------------------------------


def penalize(
    db: Session, event_id: str, player: str, points: int, note_: str, *, key: str | None = None
) -> LoadedEvent:
    """Points off a player's score, with a note (E4); in the history of the player's
    game of the current round too. A ``key`` sent again takes nothing more."""

    def write(event: LoadedEvent) -> Change:
        name = entrant(event, player)
        if name in event.withdrawn and not _seated_now(event, name):
            raise MalformedError(
                f"{name} has withdrawn from this event: a penalty is for a player in it", "player"
            )
        penalty = Penalty.from_json(
            {"player": name, "points": points, "note": note_, "round": event.row.current_round or None},
            "penalty",
        )
        if not penalty.note:
            raise MalformedError("say why: a penalty needs a note", "penalty.note")
        game_id = _game_of(event, name)
        number = store.events.add_penalty(db, event.id, penalty, game_id)
        detail = {**penalty.to_json(), "id": number}
        if game_id is not None:
            note(db, game_id, Kind.PENALTY, detail)
        return detail, {}

    return held(db, event_id, Kind.PENALTY, [player, points, note_], key, write).event


def withdraw_penalty(
    db: Session, event_id: str, number: int, why: str = "", *, key: str | None = None
) -> LoadedEvent:
    """Take a penalty back (E4): it is kept, struck out, and takes nothing off; the
    player's game of that round says so in its history."""

    def write(event: LoadedEvent) -> Change:
        found = store.events.withdraw_penalty(db, event.id, number, why.strip()[:1000])
        if found is None:
            raise NotInEvent(f"this event has no standing penalty {number}")
        penalty, game_id = found
        detail = {**penalty.to_json(), "why": why.strip()[:1000]}
        if game_id is not None:
            note(db, game_id, Kind.PENALTY_WITHDRAWN, detail)
        return detail, {}

    return held(db, event_id, Kind.PENALTY_WITHDRAWN, [number, why], key, write).event


def _seated_now(event: LoadedEvent, name: str) -> bool:
    seating = event.entry.seating_of(event.row.current_round)
    return bool(seating and seating.place_of(name))


def _game_of(event: LoadedEvent, name: str) -> str | None:
    seating = event.entry.seating_of(event.row.current_round)
    place = seating.place_of(name) if seating else None
    return event.entry.game_of(seating.round, place[0]) if seating and place else None


# --- the director's right over every game --------------------------------------------------


def event_game(db: Session, event_id: str, game_id: str) -> tuple[int, int]:
    """The round and table of an event's game (:class:`NotInEvent` for another game)."""
    found = store.events.event_of_game(db, game_id)
    if found is None or found[0] != event_id:
        raise NotInEvent(f"game {game_id[:32]!r} is not a game of this event")
    return found[1], found[2]


def correct_box(
    db: Session,
    event_id: str,
    game_id: str,
    box_id: int,
    entry: BoxEntry,
    *,
    version: int | None = None,
    key: str | None = None,
) -> Written:
    """The director corrects a box at any table of the event (kept in its history),
    even after the table's game was ended (closed with its round, or by the director)."""
    event_game(db, event_id, game_id)
    return correct(db, game_id, box_id, entry, version=version, key=key, director=True)


def delete_box(
    db: Session,
    event_id: str,
    game_id: str,
    box_id: int,
    *,
    version: int | None = None,
    key: str | None = None,
) -> Written:
    """The director deletes a box at any table of the event (kept in its history),
    even after the table's game was ended."""
    event_game(db, event_id, game_id)
    return delete(db, game_id, box_id, version=version, key=key, director=True)


def end_table(
    db: Session, event_id: str, game_id: str, *, version: int | None = None, key: str | None = None
) -> LoadedEvent:
    """The director ends a table's game by agreement, settled as it stands (E7)."""

    def write(event: LoadedEvent) -> Change:
        round, table = event_game(db, event.id, game_id)
        end(db, game_id, version=version, by="director")
        return {"round": round, "table": table, "game": game_id, "by": "director"}, {}

    return held(db, event_id, Kind.ENDED, game_id, key, write).event


def reopen_table(db: Session, event_id: str, game_id: str, *, key: str | None = None) -> LoadedEvent:
    """The director reopens a table's game ended by agreement by mistake (kept in its
    history); refused once its round is closed."""

    def write(event: LoadedEvent) -> Change:
        round, table = event_game(db, event.id, game_id)
        current = event.round(round)
        if current is None or current.closed_at is not None:
            raise RoundRefused(f"round {round} is closed: its games stay as they ended")
        reopen(db, game_id)
        return {"round": round, "table": table, "game": game_id}, {}

    return held(db, event_id, Kind.REOPENED, game_id, key, write).event


# --- the director's codes ----------------------------------------------------------------


def renew_director_codes(db: Session, event_id: str, secret: bytes, *, key: str | None = None) -> Codes:
    """New director codes; the old ones stop working at once. A ``key`` sent again
    renews nothing more (the codes as they are)."""

    def write(event: LoadedEvent) -> Change:
        made = make_codes(secret, f"event-{event.id}", (event.row.codes_round or 1) + 1)
        store.events.set_director_codes(db, event.id, made.edit, made.join, made.round)
        return {"round": made.round}, {}

    held(db, event_id, Kind.CODES, None, key, write)
    row = event_row(db, event_id)
    made = make_codes(secret, f"event-{row.id}", row.codes_round or 1)
    return Codes(made.edit, made.join, made.round)


__all__ = [
    "change_entrants",
    "correct_box",
    "delete_box",
    "end_table",
    "enter",
    "entrant",
    "event_game",
    "penalize",
    "renew_director_codes",
    "reopen_table",
    "replace",
    "swap",
    "withdraw",
    "withdraw_penalty",
]
