"""The evening's results as the PDF prints them, settled: every player's score traced
to his tables (each round's points, not the games' totals), byes and what they scored,
penalties with their notes (withdrawn ones struck out), replacements with both names,
each table's real ending, the tie-breaks in words, and when it was printed.

One read of the event's games (the standings' own), the games' histories only for the
tables that ended early (to say who ended them); the PDF gets plain values.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence

from .. import engine, records, store
from ..engine.event import EventEntry, Standing, TableResult, table_points
from ..engine.event.breakdown import number, score_lines, total, who_pays
from ..engine.history import Kind
from ..engine.substitutes import read_substitutes
from ..engine.vocabulary import TIE_BREAK_SHORT, TIE_BREAK_WORDS, TableStatus
from ..pdf.values import Results, ScoreLines
from ..pdf.values import Standing as PrintedStanding
from ..pdf.values import TableResult as PrintedTable
from . import database
from .eventdata import EventView, TableView, history, shown_number


def results(event: EventView, now: datetime.datetime | None = None) -> Results:
    """The results PDF's values (``now``: the print time; the clock's by default)."""
    db = database.session()
    games = store.events.table_games(db, event.id)
    seats = {g.game_id: records.table_result(g) for g in games}
    counted = [records.counted_result(g) for g in games]
    subs = {g.game_id: read_substitutes(g.substitutes) for g in games if g.substitutes}
    lines = score_lines(event.entry, counted)
    endings = _endings(event, games)
    highest, gins = _best(event, games)
    most = max(gins.values(), default=0)
    ties = tuple(t for t in event.entry.tie_breaks if t == "head_to_head")  # the rest
    standings = tuple(
        PrintedStanding(
            s.rank,
            s.player,
            s.score,
            s.games,
            s.won,
            s.boxes,
            tuple(_head_to_head(s, event.standings) for _ in ties),
        )
        for s in event.standings
    )
    tables = tuple(_table(event.entry, t, seats.get(t.game or ""), endings) for t in event.tables)
    tables += tuple(
        PrintedTable(seating.round, 0, tuple((p, 0) for p in seating.byes), "bye")
        for seating in event.entry.seating
        if seating.byes
    )
    stamp = (now or datetime.datetime.now(datetime.UTC)).strftime("%Y-%m-%d %H:%M UTC")
    return Results(
        event.entry.name,
        event.entry.date or "",
        event.entry.place or "",
        engine.find_rules(event.entry.rules).title,
        event.entry.standings,
        tuple(TIE_BREAK_SHORT[t] for t in ties),
        standings,
        tables,
        highest[0] if highest else None,
        tuple(sorted((p, n) for p, n in gins.items() if n == most and most)),
        standing_title=heading(event),
        printed=stamp,
        legend=legend(event.entry),
        lines=tuple(
            ScoreLines(
                s.player,
                tuple((line.words(), line.withdrawn) for line in lines.get(s.player, ())),
                number(total(lines.get(s.player, ()))),
                s.withdrawn,
            )
            for s in event.standings
        ),
        highest_boxes=tuple(highest),
        stake=f"{event.entry.stake:g} a point" if event.entry.stake else "",
        payments=tuple(
            f"{payer} pays {payee} {amount:.2f}"
            for payer, payee, amount in who_pays(counted, event.entry.stake or 0)
        ),
        replacements=tuple(
            f"Round {t.round}, table {t.table}: {sub.words()}; the seat counts for {sub.counts_for}"
            for t in event.tables
            for sub in subs.get(t.game or "", ())
        ),
    )


def heading(event: EventView) -> str:
    """The standings' heading: final, with a round playing (it is counted), or after
    the last round closed."""
    if event.finished:
        return "Final standings"
    started = any(t.status is not TableStatus.WAITING for t in event.round_tables(event.current))
    if event.current and event.current not in event.closed and started:
        after = f" (rounds to {event.closed[-1]} closed)" if event.closed else ""
        return f"Standings with round {event.current} playing{after}"
    return f"Standings after round {event.closed[-1]}" if event.closed else "Standings so far"


def legend(entry: EventEntry) -> tuple[str, ...]:
    """The tie-breaks in order, shared ranks, and what a bye scores (E1, E3, E6)."""
    order = ", then ".join(TIE_BREAK_WORDS[t].lower() for t in entry.tie_breaks)
    said = [f"Ties are broken by {order}; players equal on all of them share the rank."]
    said.append(
        "Tables won: the highest settlement at a table, shared by those level at the top (E6). "
        "Head to head: the net between players level on score and the earlier tie-breaks "
        "in the games they shared (blank when nobody is level)."
    )
    if entry.bye == "average":
        zero = " (0 under net)" if entry.standings == "net" else ""
        said.append(f"A bye scores the round’s average score{zero} (E3).")
    else:
        said.append(f"A bye scores {number(entry.bye)} (E3).")
    return tuple(said)


def _head_to_head(standing: Standing, everyone: Sequence[Standing]) -> str:
    """The head-to-head figure where it breaks a tie (another player level on score),
    blank elsewhere: a column of zeros says nothing."""
    level = any(o.player != standing.player and o.score == standing.score for o in everyone)
    return shown_number(standing.head_to_head) if level else ""


def _table(
    entry: EventEntry, t: TableView, seat: TableResult | None, endings: Mapping[str, str]
) -> PrintedTable:
    """A table of a round: each seat's player and the points the round gave him (his
    net, or placing points), and how its game ended."""
    started = seat is not None and seat.started
    points = table_points(entry, seat) if seat is not None and started else {}
    cells = tuple((p, points.get(p, 0.0)) for p in t.players)
    status = endings.get(t.game or "", t.status.value)
    return PrintedTable(t.round, t.table, cells, status, t.boxes)


def _endings(event: EventView, games: Sequence[store.events.TableGame]) -> dict[str, str]:
    """How each game ended early, in words: at the round's box limit or time, by the
    director closing the round, by the director, or by the players' agreement."""
    closed: dict[tuple[int, int], bool] = {}
    for line in history(event.id):
        if line.kind is Kind.CLOSED:
            for table in line.detail.get("ended") or ():
                closed[int(line.detail.get("round", 0)), int(table)] = bool(line.detail.get("force"))
    limit = event.entry.round_ends
    said: dict[str, str] = {}
    db = database.session()
    for game in games:
        if game.ended != "agreed":
            continue
        force = closed.get((game.round, game.table))
        if force is False and limit.kind == "boxes":
            said[game.game_id] = f"box limit ({limit.limit}) reached"
        elif force is False and limit.kind == "minutes":
            said[game.game_id] = "ended at time"
        elif force is not None:
            said[game.game_id] = "ended when the director closed the round"
        else:
            lines = [e for e in store.game_events(db, game.game_id) if e.kind is Kind.ENDED]
            by = lines[-1].detail.get("by") if lines else None
            said[game.game_id] = "ended by the director" if by == "director" else "ended by agreement"
    return said


def _best(
    event: EventView, games: Sequence[store.events.TableGame]
) -> tuple[list[tuple[str, int, int, int]], dict[str, int]]:
    """Every box tied at the evening's highest, and each player's gins."""
    highest: list[tuple[str, int, int, int]] = []
    gins: dict[str, int] = {}
    for game in games:
        kept = store.Summary.read(game.summary).record
        for result, winner, points in kept.boxes if kept else ():
            if winner and isinstance(points, int):
                if not highest or points > highest[0][1]:
                    highest = [(winner, points, game.round, game.table)]
                elif points == highest[0][1]:
                    highest.append((winner, points, game.round, game.table))
            if winner and result in ("gin", "break-gin"):
                gins[winner] = gins.get(winner, 0) + 1
    return highest, gins
