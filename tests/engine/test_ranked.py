"""The standings ranked from an event's sums (engine.event.kept.ranked) against the
ranking as first written: each player's key is now made once and the players level
with nobody skip the head-to-head sums (issue 34), with the same standings; and a
ranking made from the one before a change (only the changed players placed again)
against one made from nothing."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.event import EventEntry, Penalty, Seating, Standing, TieBreak
from scorekeeper.engine.event.kept import SCALE, Line, RankedRows, Tally, ranked, ranking, values_and_ranks

PLAYERS = tuple(f"P{n}" for n in range(8))


def ranked_as_first_written(
    event: EventEntry, tally: Tally, names: Sequence[str], *, withdrawn: Sequence[str] = ()
) -> tuple[Standing, ...]:
    """``ranked`` before issue 34's cut, word for word."""
    empty = Line()
    lines = {p: tally.lines.get(p, empty) for p in names}
    score = {p: line.score / SCALE for p, line in lines.items()}
    byes = dict.fromkeys(names, 0)
    for seating in event.seating:
        for p in seating.byes:
            if p not in score:
                continue
            byes[p] += 1
            if event.bye == "average":
                points, count = tally.rounds.get(seating.round, (0, 0))
                score[p] += points / count / SCALE if count else 0
            else:
                score[p] += event.bye
    penalty = dict.fromkeys(names, 0)
    for pen in event.penalties:
        if pen.player in penalty and not pen.withdrawn:
            penalty[pen.player] += pen.points
            score[pen.player] -= pen.points

    def key_of(p: str, h2h: float = 0) -> tuple[float, ...]:
        keys: list[float] = [round(score[p], 6)]
        for tie in event.tie_breaks:
            if tie == "won":
                keys.append(lines[p].won / SCALE)
            elif tie == "boxes":
                keys.append(lines[p].boxes)
            else:
                keys.append(round(h2h, 6))
        return tuple(keys)

    plain = {p: key_of(p) for p in names}
    h2h = dict.fromkeys(names, 0.0)
    for p in names:
        for q, owed in lines[p].versus.items():
            if q in plain and plain[p] == plain[q]:
                h2h[p] += owed / 2
    final = {p: key_of(p, h2h[p]) if h2h[p] else plain[p] for p in names}
    negated = {p: tuple(-k for k in key) for p, key in final.items()}
    order = sorted(names, key=negated.__getitem__)
    rows: list[Standing] = []
    gone = set(withdrawn)
    for i, p in enumerate(order):
        line = lines[p]
        rank = rows[-1].rank if rows and final[p] == final[order[i - 1]] else i + 1
        rows.append(
            Standing(
                rank,
                p,
                score[p],
                line.games,
                line.won / SCALE,
                line.boxes,
                byes[p],
                penalty[p],
                h2h[p],
                p in gone,
            )
        )
    return tuple(rows)


small = st.integers(-2, 2)


@st.composite
def tallies(draw: st.DrawFn) -> Tally:
    """Sums with few values, so that many players are level on some or all keys."""
    lines = {}
    for p in draw(st.lists(st.sampled_from(PLAYERS), unique=True)):
        versus = {q: draw(small) for q in draw(st.lists(st.sampled_from(PLAYERS), unique=True)) if q != p}
        lines[p] = Line(
            draw(small) * SCALE // 2, draw(st.integers(0, 2)), draw(small) * SCALE // 3, draw(small), versus
        )
    rounds = {1: (draw(small) * SCALE, draw(st.integers(0, 3)))}
    return Tally(lines, rounds)


def _event(
    names: Sequence[str],
    ties: Sequence[TieBreak],
    byes: Sequence[str],
    bye: str | int,
    penalized: Sequence[tuple[str, int, bool]] = (),
) -> EventEntry:
    """An event of ``names`` with one round's ``byes`` (no table: the sums are drawn)."""
    return EventEntry(
        "x",
        tuple(names),
        seating=(Seating(1, (), tuple(byes)),),
        tie_breaks=tuple(ties),
        bye=bye,  # type: ignore[arg-type]
        penalties=tuple(Penalty(p, points, "late", withdrawn=gone) for p, points, gone in penalized),
    )


@settings(max_examples=150, deadline=None)
@given(
    tally=tallies(),
    names=st.lists(st.sampled_from(PLAYERS), unique=True, min_size=1),
    ties=st.lists(st.sampled_from(("won", "boxes", "head_to_head")), unique=True),
    byes=st.lists(st.sampled_from(PLAYERS), unique=True, max_size=3),
    bye=st.sampled_from(("average", 0, 5)),
    penalized=st.lists(st.tuples(st.sampled_from(PLAYERS), st.integers(1, 3), st.booleans()), max_size=3),
    withdrawn=st.lists(st.sampled_from(PLAYERS), unique=True, max_size=2),
)
def test_ranked_is_the_ranking_as_first_written(
    tally: Tally,
    names: list[str],
    ties: list[TieBreak],
    byes: list[str],
    bye: str | int,
    penalized: list[tuple[str, int, bool]],
    withdrawn: list[str],
) -> None:
    event = _event(names, ties, byes, bye, penalized)
    expected = ranked_as_first_written(event, tally, names, withdrawn=withdrawn)
    assert ranked(event, tally, names, withdrawn=withdrawn) == expected


@st.composite
def met_tallies(draw: st.DrawFn) -> Tally:
    """Sums as a evening's tables make them: what a player has against another is
    the opposite of what that other has against him (``Line.versus``)."""
    tally = Tally({}, {1: (draw(small) * SCALE, draw(st.integers(0, 3)))})
    for _ in range(draw(st.integers(0, 4))):
        tally = draw(changes(tally))
    return tally


@st.composite
def changes(draw: st.DrawFn, tally: Tally) -> Tally:
    """The sums after a write: a table of two or three players played (their lines
    new objects, what each has against the others changed by opposite amounts, the
    other players' lines the same), or one player's line read again (the same values,
    a new object); sometimes a round's sum changed (a bye's average)."""
    lines = dict(tally.lines)
    table = draw(st.lists(st.sampled_from(PLAYERS), unique=True, min_size=1, max_size=3))
    if len(table) == 1 and table[0] in lines:
        lines[table[0]] = Line(**lines[table[0]].to_json())
    else:
        versus = {p: dict(lines[p].versus) if p in lines else {} for p in table}
        for n, p in enumerate(table):
            for q in table[n + 1 :]:
                owed = draw(small)
                versus[p][q] = versus[p].get(q, 0) + owed
                versus[q][p] = versus[q].get(p, 0) - owed
        for p in table:
            lines[p] = Line(
                draw(small) * SCALE // 2,
                draw(st.integers(0, 2)),
                draw(small) * SCALE // 3,
                draw(small),
                versus[p],
            )
    rounds = dict(tally.rounds)
    if draw(st.booleans()):
        rounds[1] = (draw(small) * SCALE, draw(st.integers(0, 3)))
    return Tally(lines, rounds)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    tally=met_tallies(),
    names=st.lists(st.sampled_from(PLAYERS), unique=True, min_size=1),
    ties=st.lists(st.sampled_from(("won", "boxes", "head_to_head")), unique=True),
    byes=st.lists(st.sampled_from(PLAYERS), unique=True, max_size=3),
    bye=st.sampled_from(("average", 5)),
    withdrawn=st.lists(st.sampled_from(PLAYERS), unique=True, max_size=2),
)
def test_a_ranking_made_from_the_one_before_is_the_fresh_one(
    data: st.DataObject,
    tally: Tally,
    names: list[str],
    ties: list[TieBreak],
    byes: list[str],
    bye: str | int,
    withdrawn: list[str],
) -> None:
    """Through any tables played and a round's sum changed, the ranking made from the
    one before (issue 34), told or not whose lines were read again, has the fresh
    one's standings, and a line whose
    player, values and rank did not change is the line before itself (what the pages'
    and the JSON's drawings keep by)."""
    event = _event(names, ties, byes, bye)
    before = ranking(event, tally, names, withdrawn=withdrawn)
    for _ in range(data.draw(st.integers(1, 6))):
        sums_before, tally = tally, data.draw(changes(tally))
        # told whose lines may be new objects (those read again), or not told
        new = [p for p in PLAYERS if tally.lines.get(p) is not sums_before.lines.get(p)]
        more = data.draw(st.lists(st.sampled_from(PLAYERS), max_size=2))
        touched = data.draw(st.sampled_from((None, [*new, *more])))
        made = ranking(event, tally, names, withdrawn=withdrawn, before=before, touched=touched)
        fresh = ranking(event, tally, names, withdrawn=withdrawn)
        assert made.rows == fresh.rows
        assert (made.order, made.final, made.plain) == (fresh.order, fresh.final, fresh.plain)
        # each place's values line and rank are the fresh line's values and rank
        values, ranks = values_and_ranks(made.rows)
        assert [(s.unranked, rank) for s, rank in zip(values, ranks, strict=True)] == [
            (s.unranked, s.rank) for s in fresh.rows
        ]
        assert all(row.values_line is s for row, s in zip(made.rows, values, strict=True))
        # a values line kept is the line before itself, with the same values
        was = {s.player: s for s in values_and_ranks(before.rows)[0]}
        assert all(s.unranked == was[s.player].unranked for s in values if s is was[s.player])
        before = made


def test_a_ranking_after_a_box_keeps_the_lines_that_did_not_move() -> None:
    """A box that moves one player from last to first makes his line anew and keeps
    every other player's values line: the players it passed have new ranks (one lower)
    beside the same lines, and read as standings each names it."""
    names = tuple(f"P{n}" for n in range(6))
    event = EventEntry("x", names)
    lines = {p: Line(score=(10 - n) * SCALE, games=1) for n, p in enumerate(names)}
    before = ranking(event, Tally(lines), names)
    assert [s.player for s in before.rows] == list(names)
    lines["P5"] = Line(score=20 * SCALE, games=2)
    after = ranking(event, Tally(dict(lines)), names, before=before)
    assert [(s.rank, s.player) for s in after.rows] == [(1, "P5"), *((n + 2, f"P{n}") for n in range(5))]
    was = {s.player: s for s in values_and_ranks(before.rows)[0]}
    values, ranks = values_and_ranks(after.rows)
    assert list(ranks) == [1, 2, 3, 4, 5, 6]
    assert [s.player for s in values if s is was[s.player]] == ["P0", "P1", "P2", "P3", "P4"]
    assert all(row.values_line is was[row.player] for row in after.rows[1:])
    third = ranking(
        event,
        Tally({**lines, "P2": Line(8 * SCALE, 1)}),
        names,
        before=after,
    )
    kept = {s.player: s for s in values}
    same = [s.player for s in values_and_ranks(third.rows)[0] if s is kept[s.player]]
    assert same == ["P5", "P0", "P1", "P3", "P4"]  # P2's line is new, with the same values


def test_ranked_rows_read_as_the_standings_they_are() -> None:
    """:class:`RankedRows` is read as a sequence of standings, each with its rank, and
    is equal to any sequence of the same lines."""
    ann, bob = Standing(1, "Ann", 12.0, 2), Standing(2, "Bob", 3.0, 2)
    rows = RankedRows((ann, bob), (1, 1))
    assert len(rows) == 2 and rows[0] is ann and rows[1].rank == 1 and rows[1].values_line is bob
    assert rows == (ann, Standing(1, "Bob", 3.0, 2)) and rows == list(rows) and rows != (ann, bob)
    assert rows[1:] == (Standing(1, "Bob", 3.0, 2),) and [s.player for s in rows] == ["Ann", "Bob"]
    assert rows == RankedRows((ann, Standing(1, "Bob", 3.0, 2)), (1, 1))


def test_a_moved_lines_origin_is_not_part_of_the_contract() -> None:
    """``Standing.origin`` is the process's own (what a drawing is found by): a line
    moved to another rank writes and reads the same JSON as any other (the API's
    schema does not name it either: tests/web/test_standings_kept.py)."""
    moved = Standing(3, "Ann", 12.0, 2).at_rank(2)
    assert "origin" not in moved.to_json()
    assert Standing.from_json({**moved.to_json(), "origin": "Bob"}) == moved
    assert Standing.from_json(moved.to_json()).origin is None
