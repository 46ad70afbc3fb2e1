"""Members' ratings (issue 36): OpenSkill's Plackett-Luce model (the ``openskill``
package: three-player tables and pairs rated natively), fed every game played at the
club's events in play order (evening, round, table); the order at a table is its
settlement (each player's net, E1), players level on net tied.

Ratings are derived, never stored: rated again from the stored games' results (as the
kept standings hold them) whenever one changed, so a correction of any box of any
evening is in them on the next read (:func:`club_ratings`). A rating shows as ``mu ± sigma``
("Ann 27.4 ± 2.1": the skill the model believes and its uncertainty); members are
ranked by rating on the model's ordinal (mu - 3 sigma), which a newcomer's wide
uncertainty keeps modest.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy.orm import Session

from .. import store
from ..engine.event import TableResult
from ..store.clubs import EveningRow
from . import clubs


@dataclass(frozen=True)
class Rating:
    """A member's rating: skill ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """What members are ranked by: mu less three sigma."""
        return self.mu - 3 * self.sigma

    def __str__(self) -> str:
        return f"{self.mu:.1f} ± {self.sigma:.1f}"

    def to_json(self) -> dict[str, float]:
        return {"mu": round(self.mu, 2), "sigma": round(self.sigma, 2)}


@dataclass(frozen=True)
class Ratings:
    """Every member's rating now (by the ladder's member key), and each one's after
    every evening they played (event id, rating): the chart's points."""

    now: dict[str, Rating] = field(default_factory=dict)
    history: dict[str, list[tuple[str, Rating]]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    results: Mapping[str, list[TableResult]] = field(default_factory=dict)
    """What was rated: each evening's tables' results, seat by seat, by event."""

    def ranked(self) -> list[tuple[str, Rating]]:
        """Members by rating (ordinal), best first."""
        return sorted(self.now.items(), key=lambda item: (-item[1].ordinal, item[0]))


Table = list[tuple[str, float]]
"""One game: each seat's member key and net."""


def rate(games: Iterable[tuple[str, Table]]) -> Ratings:
    """The ratings after ``games`` (each: its evening's id and its seats), in order.

    >>> after = rate([("e1", [("ann", 10), ("bob", -10)])])
    >>> str(after.now["ann"]), after.now["ann"].mu > 25 > after.now["bob"].mu
    ('27.6 ± 8.1', True)
    """
    model = PlackettLuce()
    kept: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[tuple[str, Rating]]] = {}
    for evening, table in games:
        players = [key for key, _ in table]
        if len(set(players)) != len(players) or len(players) < 2:
            continue  # one member twice at a table (two spellings) is no game to rate
        teams = [[kept.get(key) or model.rating(name=key)] for key in players]
        rated = model.rate(teams, scores=[net for _, net in table])
        for key, (after,) in zip(players, rated, strict=True):
            kept[key] = after
            line = history.setdefault(key, [])
            now = Rating(after.mu, after.sigma)
            if line and line[-1][0] == evening:
                line[-1] = (evening, now)
            else:
                line.append((evening, now))
    return Ratings({k: Rating(r.mu, r.sigma) for k, r in kept.items()}, history)


def club_games(
    evenings: Iterable[EveningRow],
    results: Mapping[str, Iterable[TableResult]],
    name_of: Callable[[str], tuple[str, str, bool]],
) -> tuple[list[tuple[str, Table]], dict[str, str]]:
    """Every started game of the evenings in play order (evening, round, table), each
    seat as its member, from each evening's tables' results (``results``, by event)."""
    games: list[tuple[str, Table]] = []
    names: dict[str, str] = {}
    for evening in evenings:
        for result in sorted(results.get(evening.id, ()), key=lambda r: (r.round, r.table)):
            if not result.started:
                continue
            nets = result.nets()
            seats = []
            for player in result.players:
                key, name, _member = name_of(player)
                names.setdefault(key, name)
                seats.append((key, float(nets.get(player, 0))))
            games.append((evening.id, seats))
    return games, names


KEPT = 8
"""Clubs whose ratings are kept per process, the least recently read going first."""

_kept: OrderedDict[tuple[str, str], tuple[object, Ratings]] = OrderedDict()
_keeping = threading.Lock()


def club_ratings(db: Session, club_id: str) -> Ratings:
    """The club's ratings from every game at its events, rated afresh whenever any of
    them may have changed.

    The games are read as the kept standings hold their results (one query over the
    club's kept tables: no summary parsed, no box scored), then rated in play order
    (benchmarks/club_season.py: about a tenth of a second for 52 evenings of 30 tables);
    what was rated is kept per process under the club's stamp
    (:func:`scorekeeper.store.ladder.stamp`), which every write to any game of its
    evenings and every owner's write changes, in any process."""
    stamp = store.ladder.stamp(db, club_id)
    key = (str(db.get_bind().engine.url), club_id)
    with _keeping:
        found = _kept.get(key)
        if found is not None and found[0] == stamp:
            _kept.move_to_end(key)
            return found[1]
    evenings = store.clubs.evenings(db, club_id)
    results = store.ladder.results(db, club_id, [e.id for e in evenings])
    games, names = club_games(evenings, results, clubs.who(db, club_id))
    rated = rate(games)
    made = Ratings(rated.now, rated.history, names, results)
    with _keeping:
        _kept[key] = (stamp, made)
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return made


__all__ = ["Rating", "Ratings", "club_games", "club_ratings", "rate"]
