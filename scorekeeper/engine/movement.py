"""Seating an event's rounds: the draw and the movement are rules, so pure functions of
the entrants, the round, the rounds before it and a seed (LAYOUT.md floor 1).

- Round 1 is drawn at random from the event's seed: the same seed gives the same draw.
- Later rounds spread opponents: with three or more to a table, the seating that makes
  the fewest repeated meetings (none while that can be avoided: an exhaustive search for
  a dozen players or fewer, a local search of swaps beyond); with two to a table, a
  round robin when the entrants are few enough to meet everyone in the event's rounds,
  else Swiss: the standings paired top down, avoiding rematches.
- When the entrants do not divide, byes go to those with the fewest byes so far (never
  the same player twice while avoidable): the lowest in the standings first, else drawn.

>>> first = seat_round(["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"], 1, (), seed=7,
...                    table_size=3)
>>> first == seat_round(["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"], 1, (), seed=7,
...                     table_size=3)
True
>>> [len(t) for t in first.tables], first.byes
([3, 3], ())
>>> table_sizes(10, 3), table_sizes(11, 4, 2, 5), table_sizes(1, 2)
((3, 3, 3), (4, 4, 3), ())
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import RANK_NAMES
from .event import Seating
from .seating import Cut, cut_for_deal

EXHAUSTIVE_UP_TO = 12
"""Players a round is searched exhaustively for (15 400 ways to seat 12 in threes)."""

Met = Counter[frozenset[str]]


def table_sizes(
    players: int, size: int, least: int | None = None, most: int | None = None
) -> tuple[int, ...]:
    """The sizes of a round's tables: ``size`` each when the rules fix it (the rest sit
    out); when the rules allow ``least`` to ``most`` at a table, as even as possible
    around ``size`` with nobody sitting out (unless there are fewer than ``least``)."""
    least = size if least is None else least
    most = size if most is None else most
    if least == most:
        return (size,) * (players // size)
    if players < least:
        return ()
    count = -(-players // size)
    while count > 1 and players // count < least:
        count -= 1
    while -(-players // count) > most:
        count += 1
    base, extra = divmod(players, count)
    return (base + 1,) * extra + (base,) * (count - extra)


def met(history: Iterable[Seating]) -> Met:
    """How often each pair of players has sat at one table."""
    counts: Met = Counter()
    for seating in history:
        for table in seating.tables:
            for a, b in itertools.combinations(table, 2):
                counts[frozenset((a, b))] += 1
    return counts


def repeats(tables: Iterable[Sequence[str]], before: Met) -> int:
    """Meetings in these tables that happened before (a pair met twice before counts two)."""
    return sum(before[frozenset((a, b))] for table in tables for a, b in itertools.combinations(table, 2))


def seat_round(
    entrants: Sequence[str],
    round: int,
    history: Sequence[Seating],
    *,
    seed: int,
    table_size: int,
    least: int | None = None,
    most: int | None = None,
    ranking: Sequence[str] | None = None,
    rounds: int | None = None,
) -> Seating:
    """The seating of ``round`` for these entrants (the present ones, in entry order),
    after the rounds in ``history``. ``ranking``: the entrants best first (the
    standings), for Swiss pairs and for who sits out; ``rounds``: the event's rounds,
    to choose a round robin for few pairs."""
    names = list(dict.fromkeys(entrants))
    rng = random.Random(f"{seed}:{round}")
    if table_size == 2 == (least or 2) == (most or 2) and rounds is not None:
        robin = _round_robin(names, round, history, rounds)
        if robin is not None:
            return robin
    sizes = table_sizes(len(names), table_size, least, most)
    byes = _byes(names, len(names) - sum(sizes), history, ranking, rng)
    playing = [n for n in names if n not in byes]
    before = met(history)
    if not history or not any(s.tables for s in history):
        rng.shuffle(playing)
        tables = _cut(playing, sizes)
    elif sizes and set(sizes) == {2} and ranking is not None:
        tables = _swiss(playing, ranking, before, rng)
    else:
        tables = _spread(playing, sizes, before, rng)
    seated = tuple(_seat_order(table, rng) for table in tables)
    return Seating(round, seated, tuple(byes))


def _cut(players: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, at = [], 0
    for size in sizes:
        tables.append(list(players[at : at + size]))
        at += size
    return tables


def _seat_order(table: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    seats = list(table)
    rng.shuffle(seats)
    return tuple(seats)


def _byes(
    names: Sequence[str],
    count: int,
    history: Sequence[Seating],
    ranking: Sequence[str] | None,
    rng: random.Random,
) -> list[str]:
    """Who sits out: the fewest byes so far first; then the lowest in the standings
    (or, before there are standings, drawn)."""
    if count <= 0:
        return []
    had = Counter(p for s in history for p in s.byes)
    drawn = list(names)
    rng.shuffle(drawn)
    place = {p: i for i, p in enumerate(ranking or ())}
    drawn.sort(key=lambda p: (had[p], -place.get(p, len(place)) if ranking else 0))
    return drawn[:count]


def _round_robin(names: list[str], round: int, history: Sequence[Seating], rounds: int) -> Seating | None:
    """Round ``round`` of the circle method when everyone can meet everyone within the
    event's rounds, and no entrant came or went since round 1 (else None: Swiss)."""
    field = names + ([""] if len(names) % 2 else [])
    if len(field) < 2 or len(field) - 1 > rounds:
        return None
    if history and set(history[0].players) | set(history[0].byes) != set(names):
        return None
    turn = (round - 1) % (len(field) - 1)
    ring = field[1:]
    ring = ring[-turn:] + ring[:-turn] if turn else ring
    order = [field[0], *ring]
    half = len(order) // 2
    tables: list[tuple[str, str]] = []
    byes: list[str] = []
    for a, b in zip(order[:half], reversed(order[half:]), strict=True):
        if "" in (a, b):
            byes.append(a or b)
        else:
            tables.append((a, b) if (round + len(tables)) % 2 else (b, a))
    if repeats(tables, met(history)):
        return None
    return Seating(round, tuple(tables), tuple(byes))


def _swiss(players: list[str], ranking: Sequence[str], before: Met, rng: random.Random) -> list[list[str]]:
    """Pairs top down by the standings, each with the highest below who has not met him;
    backtracking when the rest cannot be paired so; if no pairing avoids every rematch,
    the fewest rematches (the spreading search)."""
    place = {p: i for i, p in enumerate(ranking)}
    order = sorted(players, key=lambda p: place.get(p, len(place)))
    found = _pairs_without_rematch(order, before)
    if found is not None:
        return found
    return _spread(order, [2] * (len(order) // 2), before, rng)


SWISS_BUDGET = 20_000
"""Pairings the Swiss search tries before it leaves the rematches to the spreading search."""


def _pairs_without_rematch(
    order: Sequence[str], before: Met, budget: int = SWISS_BUDGET
) -> list[list[str]] | None:
    """The pairs of ``order`` top down, each player with the highest below who has not
    met him, backtracking when the rest cannot be paired so; None past ``budget`` tries
    or when no such pairing exists. A loop with its own stack, not recursion (issue 33:
    an event of 4,004 entrants met Python's recursion limit, a pair a level).

    >>> _pairs_without_rematch(["A", "B", "C", "D"], Counter({frozenset("AB"): 1}))
    [['A', 'C'], ['B', 'D']]
    >>> len(_pairs_without_rematch([f"P{n}" for n in range(5000)], Counter()) or ())
    2500
    """
    if not order:
        return []
    budget -= 1
    levels: list[tuple[list[str], list[int]]] = [(list(order), [0])]
    """Each level: the players still to pair there, and the next partner to try for
    the first of them."""
    pairs: list[list[str]] = []
    """The pair chosen at each level in use."""
    while levels:
        rest, at = levels[-1]
        if len(pairs) == len(levels):
            pairs.pop()  # the rest could not be paired after this level's last choice
        top, others = rest[0], rest[1:]
        for i in range(at[0], len(others)):
            if before[frozenset((top, others[i]))]:
                continue
            at[0] = i + 1
            pairs.append([top, others[i]])
            remaining = others[:i] + others[i + 1 :]
            if not remaining:
                return pairs
            budget -= 1
            if budget < 0:
                return None
            levels.append((remaining, [0]))
            break
        else:
            levels.pop()
    return None


def _spread(players: list[str], sizes: Sequence[int], before: Met, rng: random.Random) -> list[list[str]]:
    """The seating with the fewest repeated meetings: every way for a dozen players or
    fewer, else a greedy start improved by swapping players between tables."""
    if len(players) <= EXHAUSTIVE_UP_TO:
        return _exhaustive(players, sizes, before, rng)
    best: list[list[str]] | None = None
    best_cost = -1
    for _ in range(3):
        tables = _greedy(players, sizes, before, rng)
        cost = _improve(tables, before, rng)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    return best


def _exhaustive(players: list[str], sizes: Sequence[int], before: Met, rng: random.Random) -> list[list[str]]:
    """Branch and bound over every seating (tables of the given sizes, unordered)."""
    order = list(players)
    rng.shuffle(order)
    ordered_sizes = sorted(sizes, reverse=True)
    best: list[list[list[str]]] = [[]]
    best_cost = [10**9]

    def cost_of(group: Sequence[str]) -> int:
        return sum(before[frozenset((a, b))] for a, b in itertools.combinations(group, 2))

    def search(rest: list[str], left: list[int], tables: list[list[str]], cost: int) -> bool:
        if cost >= best_cost[0]:
            return False
        if not left:
            best[0], best_cost[0] = [list(t) for t in tables], cost
            return cost == 0
        first = rest[0]
        for size in dict.fromkeys(left):  # the first player at a table of each size
            others = list(left)
            others.remove(size)
            for mates in itertools.combinations(rest[1:], size - 1):
                group = [first, *mates]
                remaining = [p for p in rest[1:] if p not in mates]
                tables.append(group)
                if search(remaining, others, tables, cost + cost_of(group)):
                    return True
                tables.pop()
        return False

    search(order, ordered_sizes, [], 0)
    return best[0]


def _greedy(players: list[str], sizes: Sequence[int], before: Met, rng: random.Random) -> list[list[str]]:
    """Tables filled one seat at a time with whoever adds the fewest repeated meetings."""
    pool = list(players)
    rng.shuffle(pool)
    tables: list[list[str]] = []
    if any(count < 0 for count in before.values()):
        for size in sizes:
            table = [pool.pop()]
            while len(table) < size:
                pick = min(
                    range(len(pool)), key=lambda i: sum(before[frozenset((pool[i], p))] for p in table)
                )
                table.append(pool.pop(pick))
            tables.append(table)
        return tables
    # The first of the pool with the fewest meetings, as ``min`` finds it; meetings are
    # never fewer than none, so the first who met nobody at the table is that player
    # without looking further (at 900 players the scan of the whole pool for every seat
    # was 1.2 of a 300-table seating's 3.2 s, issue 34).
    met_by: dict[str, Counter[str]] = {}
    for pair, count in before.items():
        if count and len(pair) == 2:
            a, b = pair
            met_by.setdefault(a, Counter())[b] += count
            met_by.setdefault(b, Counter())[a] += count
    for size in sizes:
        table = [pool.pop()]
        while len(table) < size:
            pick, fewest = 0, -1
            for i, player in enumerate(pool):
                mates = met_by.get(player)
                cost = 0 if mates is None else sum(mates[p] for p in table)
                if fewest < 0 or cost < fewest:
                    pick, fewest = i, cost
                    if cost == 0:
                        break
            table.append(pool.pop(pick))
        tables.append(table)
    return tables


def _improve(tables: list[list[str]], before: Met, rng: random.Random, passes: int = 12) -> int:
    """Swap players between tables while a swap lowers the repeated meetings; the cost
    left."""

    def with_(table: Sequence[str], player: str, skip: str) -> int:
        return sum(before[frozenset((player, p))] for p in table if p != skip)

    cost = repeats(tables, before)
    for _ in range(passes):
        if cost == 0:
            break
        improved = False
        bad = [(t, i) for t, table in enumerate(tables) for i, p in enumerate(table) if with_(table, p, p)]
        rng.shuffle(bad)
        for t, i in bad:
            a = tables[t][i]
            for u, other in enumerate(tables):
                if u == t:
                    continue
                for j, b in enumerate(other):
                    delta = (
                        with_(tables[t], b, a)
                        + with_(other, a, b)
                        - with_(tables[t], a, a)
                        - with_(other, b, b)
                    )
                    if delta < 0:
                        tables[t][i], other[j] = b, a
                        cost += delta
                        improved = True
                        break
                if tables[t][i] != a:
                    break
        if not improved:
            break
    return cost


def cut_at_table(players: Sequence[str], seed: int, round: int, table: int) -> tuple[Cut, ...]:
    """The cut for the first deal at a table (J1: high card deals, equal ranks cut
    again), drawn from the event's seed as the table would cut a shuffled deck: the
    cuts in order, the last naming the dealer.

    >>> cuts = cut_at_table(("Ann", "Bob", "Cal"), 7, 1, 1)
    >>> cuts[-1].dealer in ("Ann", "Bob", "Cal"), cuts == cut_at_table(("Ann", "Bob", "Cal"), 7, 1, 1)
    (True, True)
    """
    rng = random.Random(f"{seed}:{round}:{table}:cut")
    deck = [f"{rank}{suit}" for rank in RANK_NAMES for suit in "SHDC"]
    cutting = list(players)
    cuts: list[Cut] = []
    while True:
        drawn = rng.sample(deck, len(cutting))
        cut = cut_for_deal(dict(zip(cutting, drawn, strict=True)))
        cuts.append(cut)
        if cut.dealer is not None:
            return tuple(cuts)
        cutting = list(cut.recut)


__all__ = ["EXHAUSTIVE_UP_TO", "cut_at_table", "met", "repeats", "seat_round", "table_sizes"]
