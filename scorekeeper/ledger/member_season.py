"""A member's season (issue 36): each evening's rank, net and placings points, the boxes
won by kind, gins, undercuts and the best box, head to head with every member met (net
and games), and the rating after each evening; as a page, CSV and JSON show it.

Read from what the season read (its evenings as the club's members: a member who played
under two names in one evening is one line, its figures summed, placed among the
evening's people, :func:`scorekeeper.engine.ladder.of_members`) and each evening's games'
stored summaries (the member's games only, one query): a member is every spelling the
roster links to them (:func:`scorekeeper.ledger.clubs.who`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from .. import records, store
from ..engine import ladder as ladders
from . import clubs
from .ratings import Rating
from .seasons import Season
from .table import NotFound


@dataclass(frozen=True)
class EveningLine:
    event: str
    name: str
    date: str
    rank: int
    players: int
    net: float
    placings: float
    boxes: int
    gins: int
    undercuts: int


@dataclass(frozen=True)
class Met:
    """Head to head with one member: games shared, and the net between the two (what
    the settlements paid one to the other; a game still playing as its totals stand,
    every pair settling its difference, as the evening's standings count it)."""

    member: str
    name: str
    games: int = 0
    net: float = 0


@dataclass(frozen=True)
class MemberSeason:
    member: str
    name: str
    evenings: tuple[EveningLine, ...]
    kinds: dict[str, int] = field(default_factory=dict)
    best: tuple[int, str] | None = None
    """The best box: its points and the evening's name."""
    met: tuple[Met, ...] = ()
    ratings: tuple[tuple[str, Rating], ...] = ()
    rating: Rating | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "member": self.member,
            "name": self.name,
            "rating": None if self.rating is None else self.rating.to_json(),
            "evenings": [vars(e) for e in self.evenings],
            "boxes_won": dict(self.kinds),
            "gins": sum(e.gins for e in self.evenings),
            "undercuts": sum(e.undercuts for e in self.evenings),
            "best_box": None if self.best is None else {"points": self.best[0], "evening": self.best[1]},
            "head_to_head": [vars(m) for m in self.met],
            "rating_history": [{"event": e, **r.to_json()} for e, r in self.ratings],
        }

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            ["date", "evening", "rank", "players", "net", "placings", "boxes", "gins", "undercuts"]
        )
        for e in self.evenings:
            writer.writerow(
                [e.date, _cell(e.name), e.rank, e.players, e.net, e.placings, e.boxes, e.gins, e.undercuts]
            )
        return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet never reads a name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _games_played(
    db: Session, season: Season, member: str, name_of: Callable[[str], tuple[str, str, bool]]
) -> dict[str, list[tuple[list[str], dict[str, Any]]]]:
    """The games the member sat at, by evening in table order (players and stored
    summary): found in the tables' results the ratings read (no other game is read),
    then one query for their summaries."""
    wanted: dict[str, list[str]] = {}
    for evening in season.evenings:
        if evening.members is None or not any(s.member == member for s in evening.members.standings):
            continue
        results = season.ratings.results.get(evening.row.id)
        if results is None:  # not rated: read the evening's tables
            results = [records.table_result(game) for game in store.events.table_games(db, evening.row.id)]
        wanted[evening.row.id] = [
            r.game
            for r in sorted(results, key=lambda r: (r.round, r.table))
            if r.game and any(name_of(p)[0] == member for p in r.players)
        ]
    read = store.ladder.summaries(db, [g for games in wanted.values() for g in games])
    return {event: [read[g] for g in games if g in read] for event, games in wanted.items()}


def member_season(db: Session, season: Season, member: str) -> MemberSeason:
    name_of = clubs.who(db, season.club.id)
    lines: list[EveningLine] = []
    kinds: dict[str, int] = {}
    best: tuple[int, str] | None = None
    met: dict[str, list[float]] = {}
    names: dict[str, str] = {}
    shown = None
    played = _games_played(db, season, member, name_of)
    for evening in season.evenings:
        people = evening.members
        s = next((s for s in people.standings if s.member == member), None) if people else None
        if people is None or s is None:
            continue
        shown = shown or s.name
        points = ladders.evening_points(people, "placings")
        gins = undercuts = won = 0
        for players, stored in played.get(evening.row.id, ()):
            seats = {p: name_of(p)[0] for p in players}
            me = [p for p, k in seats.items() if k == member]
            summary = store.Summary.read(stored)
            record = summary.record
            settled = bool(record and record.settlement)
            for result, winner, box_points in record.boxes if record else ():
                if winner in me:
                    won += 1
                    kinds[result] = kinds.get(result, 0) + 1
                    gins += result in ("gin", "break-gin")
                    undercuts += result == "undercut"
                    if best is None or box_points > best[0]:
                        best = (box_points, evening.row.name)
            for player, key in seats.items():
                if key == member:
                    continue
                names.setdefault(key, name_of(player)[1])
                tally = met.setdefault(key, [0, 0.0])
                tally[0] += 1
                if not settled:  # still playing: every pair settles its difference (E7)
                    tally[1] += sum(summary.totals.get(p, 0) - summary.totals.get(player, 0) for p in me)
                for payment in record.settlement if record and settled else ():
                    amount = float(payment.get("points", 0))
                    if payment.get("to") in me and payment.get("from") == player:
                        tally[1] += amount
                    elif payment.get("from") in me and payment.get("to") == player:
                        tally[1] -= amount
        lines.append(
            EveningLine(
                evening.row.id,
                evening.row.name,
                evening.day.isoformat(),
                s.rank,
                len(people.standings),
                s.score,
                points[member],
                won,
                gins,
                undercuts,
            )
        )
    if shown is None:
        known = next((line.name for line in season.ladder if line.line.member == member), None)
        if known is None:
            raise NotFound(f"{member} played no evening of this season")
        shown = known
    return MemberSeason(
        member,
        shown,
        tuple(lines),
        kinds,
        best,
        tuple(
            sorted(
                (Met(k, names[k], int(g), n) for k, (g, n) in met.items()), key=lambda m: (-m.games, m.name)
            )
        ),
        tuple(season.ratings.history.get(member, ())),
        season.rating(member),
    )


__all__ = ["EveningLine", "MemberSeason", "Met", "member_season"]
