"""Seating an event's rounds (engine.movement): the draw, the movement, the byes."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import movement
from scorekeeper.engine.event import Seating
from scorekeeper.engine.movement import cut_at_table, met, repeats, seat_round, table_sizes

NAMES = [f"P{i:02}" for i in range(40)]


def _rounds(
    names: Sequence[str],
    rounds: int,
    seed: int,
    size: int,
    least: int | None = None,
    most: int | None = None,
    ranked: bool = False,
) -> list[Seating]:
    history: list[Seating] = []
    for number in range(1, rounds + 1):
        history.append(
            seat_round(
                names,
                number,
                history,
                seed=seed,
                table_size=size,
                least=least,
                most=most,
                ranking=list(names) if ranked else None,
                rounds=rounds,
            )
        )
    return history


def _partitions(players: Sequence[str], size: int) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat ``players`` at tables of ``size`` (an independent brute force)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for mates in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in mates]
        for more in _partitions(left, size):
            yield [(first, *mates), *more]


def test_the_draw_is_kept_by_its_seed() -> None:
    names = NAMES[:12]
    one = seat_round(names, 1, (), seed=42, table_size=3)
    assert one == seat_round(names, 1, (), seed=42, table_size=3)
    assert any(seat_round(names, 1, (), seed=s, table_size=3) != one for s in range(43, 50))
    assert sorted(one.players) == sorted(names)


@given(
    st.integers(2, 40),
    st.sampled_from([(3, None, None), (2, None, None), (4, 2, 5)]),
    st.integers(1, 5),
    st.integers(0, 2**32),
)
@settings(max_examples=60, deadline=None)
def test_nobody_twice_in_a_round_and_tables_of_the_right_size(
    count: int, shape: tuple[int, int | None, int | None], rounds: int, seed: int
) -> None:
    size, least, most = shape
    names = NAMES[:count]
    for seating in _rounds(names, rounds, seed, size, least, most, ranked=size == 2):
        everyone = [*seating.players, *seating.byes]
        assert sorted(everyone) == sorted(names)  # each entrant once: seated or a bye
        lo, hi = (least or size), (most or size)
        assert all(lo <= len(table) <= hi for table in seating.tables)
        if least is None:
            assert len(seating.byes) == count % size
        else:
            assert (
                max(map(len, seating.tables), default=0) - min(map(len, seating.tables), default=0) <= 1
            )  # as even as possible
            assert not seating.byes or count < least


@given(st.integers(3, 30), st.sampled_from([2, 3]), st.integers(2, 8), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_byes_are_spread(count: int, size: int, rounds: int, seed: int) -> None:
    """Never the same player twice while someone has had fewer byes."""
    names = NAMES[:count]
    had: Counter[str] = Counter()
    for seating in _rounds(names, rounds, seed, size, ranked=size == 2):
        seated = [p for p in names if p not in seating.byes]
        if seating.byes and seated:
            assert max(had[p] for p in seating.byes) <= min(had[p] for p in seated), had
        had.update(seating.byes)
        assert max(had[p] for p in names) - min(had[p] for p in names) <= 1


@given(st.sampled_from([6, 9, 12]), st.integers(2, 5), st.integers(0, 2**32))
@settings(max_examples=15, deadline=None)
def test_threes_repeat_opponents_no_more_than_the_fewest_possible(count: int, rounds: int, seed: int) -> None:
    """Each round's repeated meetings are the fewest any seating of it could make, given
    the rounds before (checked against every seating: nobody meets an opponent twice
    while that can be avoided)."""
    names = NAMES[:count]
    history: list[Seating] = []
    for number in range(1, rounds + 1):
        seating = seat_round(names, number, history, seed=seed, table_size=3)
        before = met(history)
        fewest = min(repeats(p, before) for p in _partitions(names, 3))
        assert repeats(seating.tables, before) == fewest
        history.append(seating)


def test_nine_players_in_threes_meet_everyone_once_in_four_rounds() -> None:
    """A resolvable design exists (the affine plane of order 3): no repeats at all,
    for any seed whose first three rounds leave one."""
    names = NAMES[:9]
    found = 0
    for seed in range(10):
        history = _rounds(names, 3, seed, 3)
        best = min(repeats(p, met(history)) for p in _partitions(names, 3))
        fourth = seat_round(names, 4, history, seed=seed, table_size=3)
        assert repeats(fourth.tables, met(history)) == best
        found += best == 0
    assert found


@given(st.integers(20, 60).map(lambda n: n * 3), st.integers(0, 2**32))
@settings(max_examples=5, deadline=None)
def test_a_large_field_in_threes_meets_nobody_twice_in_four_rounds(count: int, seed: int) -> None:
    names = [f"Q{i}" for i in range(count)]
    history = _rounds(names, 4, seed, 3)
    assert all(n == 1 for n in met(history).values())


@given(st.integers(8, 30), st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_pairs_are_swiss_without_rematches_while_avoidable(count: int, seed: int) -> None:
    names = NAMES[:count]
    history = _rounds(names, 3, seed, 2, ranked=True)
    assert all(n == 1 for n in met(history).values())
    second = history[1]
    top = [p for p in names if p not in second.byes][:2]
    first = met(history[:1])
    if not first[frozenset(top)]:  # Swiss: the top two meet unless they already have
        assert tuple(sorted(top)) in {tuple(sorted(t)) for t in second.tables}


def test_few_pairs_play_a_round_robin() -> None:
    names = NAMES[:6]
    history = _rounds(names, 5, 3, 2)
    assert all(n == 1 for n in met(history).values())
    assert len(met(history)) == 15  # everyone met everyone
    odd = _rounds(NAMES[:5], 5, 3, 2)
    assert sorted(p for s in odd for p in s.byes) == sorted(NAMES[:5])


def test_table_sizes() -> None:
    assert table_sizes(9, 3) == (3, 3, 3)
    assert table_sizes(11, 3) == (3, 3, 3)
    assert table_sizes(7, 2) == (2, 2, 2)
    assert table_sizes(13, 5, 2, 5) == (5, 4, 4)
    assert table_sizes(9, 2, 2, 5) == (3, 2, 2, 2)
    assert table_sizes(1, 4, 2, 5) == ()


@pytest.mark.rule("J1")
@given(st.integers(2, 5), st.integers(0, 2**32), st.integers(1, 9), st.integers(1, 99))
@settings(max_examples=60, deadline=None)
def test_each_tables_dealer_is_drawn_by_the_cut(players: int, seed: int, round: int, table: int) -> None:
    """High card deals; equal ranks cut again, only those who tied; drawn from the seed."""
    names = tuple(NAMES[:players])
    cuts = cut_at_table(names, seed, round, table)
    assert cuts == cut_at_table(names, seed, round, table)
    assert all(cut.dealer is None and cut.recut for cut in cuts[:-1])
    last = cuts[-1]
    assert last.dealer is not None
    assert all(last.ranks[last.dealer] > rank for p, rank in last.ranks.items() if p != last.dealer)
    for before, after in itertools.pairwise(cuts):
        assert set(after.ranks) == set(before.recut)


def _greedy_by_scan(
    players: list[str], sizes: Sequence[int], before: Counter[frozenset[str]], rng: random.Random
) -> list[list[str]]:
    """The greedy start as it was first written: every seat scans the whole pool."""
    pool = list(players)
    rng.shuffle(pool)
    tables: list[list[str]] = []
    for size in sizes:
        table = [pool.pop()]
        while len(table) < size:
            pick = min(range(len(pool)), key=lambda i: sum(before[frozenset((pool[i], p))] for p in table))
            table.append(pool.pop(pick))
        tables.append(table)
    return tables


@given(st.integers(13, 60), st.sampled_from([3, 4]), st.integers(1, 4), st.integers(0, 2**32))
@settings(max_examples=25, deadline=None)
def test_the_greedy_start_picks_whom_a_scan_of_the_whole_pool_picks(
    count: int, size: int, rounds: int, seed: int
) -> None:
    """The greedy start stops at the first player who met nobody at the table (issue 34:
    a 300-table seating scanned 900 players for every seat): the same tables as the scan."""
    names = NAMES[: min(count, len(NAMES))] + [f"Q{i:02}" for i in range(max(count - len(NAMES), 0))]
    before = met(_rounds(names, rounds, seed, size))
    sizes = table_sizes(len(names), size)
    playing = names[: sum(sizes)]
    assert movement._greedy(playing, sizes, before, random.Random(seed)) == _greedy_by_scan(
        playing, sizes, before, random.Random(seed)
    )
