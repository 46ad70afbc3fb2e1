"""A club's season read (issue 36): its calendar (upcoming evenings and past ones with
their winner) and its ladder (RULES.md E8), from the club's evenings as kept.

Each evening's standings are kept by every write that changes them, in its transaction
(:mod:`scorekeeper.store.ladder`: a box adds its game's difference to the event's kept
sums, which are ranked into the evening's row), so a season read reads one row an
evening and no game. The ladder is a pure function of those rows and the roster
(:func:`scorekeeper.engine.ladder.of_members`, then :func:`~scorekeeper.engine.ladder.
ladder`); :func:`fresh_ladder` is the same computed from the stored games, what the
kept one must equal (the property test and the walk hold them equal).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from .. import store
from ..engine import ladder as ladders
from ..engine.contract.club import SeasonEntry
from ..engine.event import Standing
from ..engine.rules import find_rules
from ..store.clubs import ClubRow, EveningRow, SeasonRow
from ..store.plans import PlanRow
from . import clubs
from .ratings import Rating, Ratings, club_ratings
from .table import NotFound


@dataclass(frozen=True)
class Evening:
    """One evening of the season as its calendar shows it: the event, its date, place,
    rules and table size, and once played its winner(s) and standings."""

    row: EveningRow
    standings: tuple[Standing, ...]
    winners: tuple[str, ...] = ()
    """Who stands first (shared first places all), once a box was scored."""
    members: ladders.Evening | None = None
    """Once played, its standings as the club's members (a member who played under two
    names counted once: :func:`scorekeeper.engine.ladder.of_members`)."""

    def twice(self) -> tuple[ladders.Standing, ...]:
        """The members the evening lists under more than one name."""
        return tuple(s for s in self.members.standings if len(s.played_as) > 1) if self.members else ()

    @property
    def day(self) -> dt.date:
        return self.row.day

    @property
    def place(self) -> str:
        return str(self.row.entry.get("place") or "")

    @property
    def rules(self) -> str:
        return str(self.row.entry.get("rules") or "")

    @property
    def rules_title(self) -> str:
        """The rules' name as players say it ("Jersey Gin (Scarne)")."""
        try:
            return find_rules(self.rules).title
        except ValueError:
            return self.rules or "Gin"

    @property
    def table_size(self) -> int:
        size = self.row.entry.get("table_size")
        return size if isinstance(size, int) else 0


@dataclass(frozen=True)
class LadderLine:
    """A ladder line with the member's name shown (a guest: a name the roster does not
    know yet)."""

    line: ladders.Line
    name: str
    member: bool


@dataclass(frozen=True)
class Season:
    club: ClubRow
    row: SeasonRow
    entry: SeasonEntry
    evenings: tuple[Evening, ...]
    ladder: tuple[LadderLine, ...]
    ratings: Ratings = field(default_factory=Ratings)
    """Every member's rating from every game at the club's events (not only this
    season's: a rating carries over)."""
    plans: tuple[PlanRow, ...] = ()
    """The evenings planned on its calendar (a started one points at its event)."""

    def planned(self, today: dt.date) -> tuple[PlanRow, ...]:
        """The plans not started yet, from ``today`` on (cancelled ones too, said so)."""
        return tuple(p for p in self.plans if p.event_id is None and p.day >= today)

    def plan_of(self, event_id: str) -> PlanRow | None:
        """The plan an evening was started from."""
        return next((p for p in self.plans if p.event_id == event_id), None)

    def rating(self, member: str) -> Rating | None:
        return self.ratings.now.get(member)

    @property
    def played(self) -> tuple[Evening, ...]:
        return tuple(e for e in self.evenings if e.row.finished or e.winners)

    def upcoming(self, today: dt.date) -> tuple[Evening, ...]:
        """Evenings not begun yet (no box scored), from ``today`` on."""
        return tuple(e for e in self.evenings if e not in self.played and e.day >= today)

    def past(self, today: dt.date) -> tuple[Evening, ...]:
        """Evenings played or gone by, latest first."""
        return tuple(reversed([e for e in self.evenings if e in self.played or e.day < today]))


def entry_of(row: SeasonRow) -> SeasonEntry:
    return SeasonEntry.from_json(
        {"name": row.name, "from": row.starts.isoformat(), "to": row.ends.isoformat(), "ladder": row.ladder}
    )


def season(db: Session, season_id: int, club_id: str | None = None) -> Season:
    """The season with its evenings, its ladder and the club's ratings as they stand now."""
    row, entry, found = _season_rows(db, season_id, club_id)
    evenings, ladder = kept_ladder(db, season_id, row.club_id)
    plans = tuple(store.plans.plans(db, season_id))
    return Season(found, row, entry, evenings, ladder, club_ratings(db, row.club_id), plans)


SEASONS = 8
"""Seasons whose ladder is kept per process, the least recently read going first."""

_kept: OrderedDict[tuple[str, int], tuple[object, tuple[Evening, ...], tuple[LadderLine, ...]]] = (
    OrderedDict()
)
_keeping = threading.Lock()


def kept_ladder(
    db: Session, season_id: int, club_id: str | None = None
) -> tuple[tuple[Evening, ...], tuple[LadderLine, ...]]:
    """The season's evenings and ladder from the kept evenings (:mod:`scorekeeper.store.
    ladder`: one row an evening, no game read), ranked once per state of the club in
    each process: 52 evenings of 90 players are some 4,700 lines to name as members and
    rank (about 0.1 s of CPU, benchmarks/club_season.py), and the club's stamp
    (:func:`scorekeeper.store.ladder.stamp`, two indexed reads) changes with every write
    that could change them, in any process."""
    row, entry, _club = _season_rows(db, season_id, club_id)
    stamp = store.ladder.stamp(db, row.club_id)
    key = (str(db.get_bind().engine.url), season_id)
    with _keeping:
        found = _kept.get(key)
        if found is not None and found[0] == stamp:
            _kept.move_to_end(key)
            return found[1], found[2]
    rows = [e for e in store.clubs.evenings(db, row.club_id) if entry.holds(e.day)]
    kept = store.ladder.evenings(db, row.club_id, [e.id for e in rows])
    evenings, ladder = _laddered(db, row.club_id, entry, [(e, kept.get(e.id)) for e in rows])
    with _keeping:
        _kept[key] = (stamp, evenings, ladder)
        _kept.move_to_end(key)
        while len(_kept) > SEASONS:
            _kept.popitem(last=False)
    return evenings, ladder


def fresh_ladder(db: Session, season_id: int) -> tuple[tuple[Evening, ...], tuple[LadderLine, ...]]:
    """The season's evenings and ladder computed now from every stored game (what the
    kept ones must equal)."""
    row, entry, _club = _season_rows(db, season_id, None)
    rows = [e for e in store.clubs.evenings(db, row.club_id) if entry.holds(e.day)]
    return _laddered(db, row.club_id, entry, [(e, store.ladder.fresh(db, e.id)) for e in rows])


def _laddered(
    db: Session,
    club_id: str,
    entry: SeasonEntry,
    rows: list[tuple[EveningRow, store.ladder.EveningStandings | None]],
) -> tuple[tuple[Evening, ...], tuple[LadderLine, ...]]:
    """Each evening as the club's members (the roster as it stands), and E8 over those
    played."""
    name_of = clubs.who(db, club_id)
    evenings = tuple(
        Evening(e, kept.standings, kept.winners, ladders.of_members(e.id, kept.standings, name_of))
        if kept is not None and kept.winners
        else Evening(e, kept.standings if kept else (), kept.winners if kept else ())
        for e, kept in rows
    )
    return evenings, ladder_of(evenings, entry.ladder)


def _season_rows(db: Session, season_id: int, club_id: str | None) -> tuple[SeasonRow, SeasonEntry, ClubRow]:
    row = store.clubs.get_season(db, season_id)
    if row is None or (club_id is not None and row.club_id != club_id):
        raise NotFound(f"there is no season {season_id}")
    return row, entry_of(row), clubs.club(db, row.club_id)


def ladder_of(evenings: tuple[Evening, ...], rules: ladders.Ladder) -> tuple[LadderLine, ...]:
    """E8 over the evenings played, as the club's members."""
    played = [e.members for e in evenings if e.members is not None]
    shown: dict[str, tuple[str, bool]] = {}
    for evening in played:
        for s in evening.standings:
            shown.setdefault(s.member, (s.name, not s.guest))
    return tuple(LadderLine(line, *shown[line.member]) for line in ladders.ladder(played, rules))


def club_seasons(db: Session, club_id: str) -> list[SeasonRow]:
    return store.clubs.seasons(db, club_id)


__all__ = [
    "Evening",
    "LadderLine",
    "Season",
    "club_seasons",
    "entry_of",
    "fresh_ladder",
    "kept_ladder",
    "ladder_of",
    "season",
]
