"""A club's season read (issue 36): its calendar (upcoming evenings and past ones with
their winner) and its ladder (RULES.md E8), from the club's events' standings.

The ladder is a pure function of the evenings' standings (:func:`scorekeeper.engine.
ladder.ladder`), each read through the one ledger function that gives an event's
standings (:func:`scorekeeper.ledger.events.standings`: the games' stored summaries),
so a correction of any box of any evening is in the ladder on the next read.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from .. import store
from ..engine import ladder as ladders
from ..engine.contract.club import SeasonEntry
from ..engine.event import Standing
from ..engine.rules import find_rules
from ..store.clubs import ClubRow, EveningRow, SeasonRow
from . import clubs
from .events import standings
from .ratings import Rating, Ratings, club_ratings
from .table import NotFound


@dataclass(frozen=True)
class Evening:
    """One evening of the season as its calendar shows it: the event, its date, place,
    rules and table size, and once played its winner(s) and standings."""

    row: EveningRow
    standings: tuple[Standing, ...]

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

    @property
    def winners(self) -> tuple[str, ...]:
        """Who stands first (shared first places all), once a box was scored."""
        if not any(s.games or s.score for s in self.standings):
            return ()
        return tuple(s.player for s in self.standings if s.rank == 1)


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
    """The season with its evenings and its ladder as they stand now."""
    row = store.clubs.get_season(db, season_id)
    if row is None or (club_id is not None and row.club_id != club_id):
        raise NotFound(f"there is no season {season_id}")
    entry = entry_of(row)
    found = clubs.club(db, row.club_id)
    read: dict[str, list[store.events.TableGame]] = {}
    evenings = []
    for e in store.clubs.evenings(db, row.club_id):
        if entry.holds(e.day):
            read[e.id] = store.events.table_games(db, e.id)  # once: the standings' and ratings'
            evenings.append(Evening(e, standings(db, e.id, read[e.id])))
    ladder = ladder_of(db, row.club_id, tuple(evenings), entry.ladder)
    return Season(found, row, entry, tuple(evenings), ladder, club_ratings(db, row.club_id, read))


def ladder_of(
    db: Session, club_id: str, evenings: tuple[Evening, ...], rules: ladders.Ladder
) -> tuple[LadderLine, ...]:
    """E8 over the evenings played, each entrant counted as the member the roster says
    (a member who played under two spellings in one evening counts once: the better)."""
    name_of = clubs.who(db, club_id)
    shown: dict[str, tuple[str, bool]] = {}
    played = []
    for evening in evenings:
        if not evening.winners:
            continue
        lines: list[ladders.Standing] = []
        seen: set[str] = set()
        for s in evening.standings:
            key, name, member = name_of(s.player)
            shown.setdefault(key, (name, member))
            if key in seen:
                continue
            seen.add(key)
            lines.append(ladders.Standing(s.rank, key, s.score, s.won, s.boxes))
        played.append(ladders.Evening(evening.row.id, tuple(lines)))
    return tuple(LadderLine(line, *shown[line.member]) for line in ladders.ladder(played, rules))


def club_seasons(db: Session, club_id: str) -> list[SeasonRow]:
    return store.clubs.seasons(db, club_id)


__all__ = ["Evening", "LadderLine", "Season", "club_seasons", "entry_of", "ladder_of", "season"]
