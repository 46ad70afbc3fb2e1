"""The kept ladder (issue 36): every write that changes a club evening's standings keeps
that evening's row for the club's seasons in its own transaction, and after any sequence
of writes (boxes, corrections, deletions, undo, tables ended, penalties and their
withdrawal, entrants and rounds, an evening joining the club or a season and leaving
it, the season's counting changed and undone, the roster's links, splits and undos)
each kept evening and each season's ladder equal the ones computed from the
stored games (a property test); a box changes its evening's row only, in its own write."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine import ScorekeeperError
from scorekeeper.engine.contract import BoxEntry, Hand
from scorekeeper.engine.contract.club import ClubEntry, SeasonEntry
from scorekeeper.engine.event import EventEntry
from scorekeeper.engine.ladder import Ladder
from scorekeeper.ledger import clubs, events, seasons
from scorekeeper.ledger.table import LedgerError
from tests.conftest import copy_database
from tests.ledger.test_kept_standings import WRITES, _Writes
from tests.walk.kept import assert_ladder_is_fresh

SECRET = b"k" * 32
FIRST = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus")
SECOND = ("ann", "Annie", "Bob", "Cal", "Dee", "Hal", "Ivy")
"""The second evening spells Ann twice over, once as the roster may link her."""


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory, migrated_once: Path) -> str:
    return copy_database(migrated_once, tmp_path_factory.mktemp("ladder") / "ladder.sqlite3")


@pytest.fixture
def db(url: str) -> Iterator[Session]:
    with store.opened(url) as session:
        yield session


class _Roster:
    """The owner's roster decisions, drawn at random."""

    def __init__(self, db: Session, club_id: str, draw: Callable[[Any], Any]) -> None:
        self.db, self.club, self.draw = db, club_id, draw

    def link(self) -> None:
        members = clubs.roster(self.db, self.club)
        spelling = self.draw(st.sampled_from(FIRST + SECOND + ("Annie", "A. Lee")))
        member = self.draw(st.sampled_from([None, *(m.id for m in members)]))
        clubs.link(self.db, self.club, spelling, member)

    def split(self) -> None:
        spelt = [s for m in clubs.roster(self.db, self.club) if len(m.spellings) > 1 for s, _ in m.spellings]
        if spelt:
            clubs.split(self.db, self.club, self.draw(st.sampled_from(spelt)))

    def undo(self) -> None:
        lines = [h.id for h in store.clubs.history(self.db, self.club) if h.line.kind in clubs.UNDOABLE]
        if lines:
            clubs.undo(self.db, self.club, self.draw(st.sampled_from(lines)))

    def counting(self) -> None:
        """The season's counting changed (its only season: the one the test reads)."""
        (season,) = store.clubs.seasons(self.db, self.club)
        count = self.draw(st.sampled_from(["net", "average", "placings"]))
        best = self.draw(st.sampled_from([None, 1, 2]))
        clubs.change_counting(
            self.db, self.club, season.id, Ladder(count, best, None, self.draw(st.integers(0, 2)))
        )

    def detach(self) -> None:
        evenings = store.clubs.evenings(self.db, self.club)
        if evenings:
            clubs.detach(self.db, self.club, self.draw(st.sampled_from(evenings)).id)


ROSTER = ("link", "link", "split", "undo", "counting", "detach")


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),  # no shrinking: a failure names its draws
)
@given(
    data=st.data(),
    count=st.sampled_from(["net", "average", "placings"]),
    best=st.sampled_from([None, 1]),
    standings=st.sampled_from(["net", "placings"]),
)
def test_the_kept_ladder_equals_a_fresh_one_after_any_writes(
    db: Session, data: st.DataObject, count: str, best: int | None, standings: str
) -> None:
    club_id = clubs.begin(db, ClubEntry("Kept club"), secret=SECRET).club.id
    ladder: dict[str, Any] = {"count": count, **({"best": best} if best else {})}
    season = SeasonEntry.from_json({"name": "S", "from": "2027-01-01", "to": "2027-12-31", "ladder": ladder})
    season_id = clubs.add_season(db, club_id, season)[1]
    evenings = []
    for n, names in enumerate((FIRST, SECOND, FIRST[:4])):
        entry = EventEntry(
            f"Evening {n}",
            names,
            rounds=2,
            seed=data.draw(st.integers(0, 1000)),
            date=f"2027-0{n + 1}-05",
            standings=standings,  # type: ignore[arg-type]
        )
        evenings.append(events.start_event(db, entry, secret=SECRET).event.id)
    for event_id in evenings[:2]:
        clubs.attach(db, club_id, event_id)
    for name in ("Ann", "Bob", "Cal"):
        clubs.link(db, club_id, name, None)
    assert_ladder_is_fresh(db, club_id, [season_id])
    writes = {e: _Writes(db, e, data.draw) for e in evenings}
    roster = _Roster(db, club_id, data.draw)
    for _ in range(data.draw(st.integers(6, 14))):
        action = data.draw(st.sampled_from((*WRITES, "withdraw_penalty", "entrants", *ROSTER, "attach")))
        try:
            if action == "attach":  # to the club, or to its season
                event = data.draw(st.sampled_from(evenings))
                clubs.attach(db, club_id, event, season=data.draw(st.sampled_from([None, season_id])))
            elif action in ROSTER:
                getattr(roster, action)()
            else:
                getattr(writes[data.draw(st.sampled_from(evenings))], action)()
        except (LedgerError, ScorekeeperError):
            db.rollback()  # refused: nothing half-saved, the kept rows as they were
        assert_ladder_is_fresh(db, club_id, [season_id])


def test_a_box_keeps_its_evenings_row_in_its_own_write(db: Session) -> None:
    """A box at a club evening's table changes that evening's kept row (its version goes
    up, the ladder moves) and no other; an evening with no row (stored before revision
    0018) is read from its kept standings, and ``migrate`` makes its row."""
    club_id = clubs.begin(db, ClubEntry("Rows club"), secret=SECRET).club.id
    season = SeasonEntry.from_json({"name": "S", "from": "2027-01-01", "to": "2027-12-31"})
    season_id = clubs.add_season(db, club_id, season)[1]
    ids = []
    for n in (1, 2):
        entry = EventEntry(
            f"Evening {n}", FIRST[:4], rules="gin", table_size=2, rounds=1, date=f"2027-0{n}-05"
        )
        ids.append(events.start_event(db, entry, secret=SECRET).event.id)
        clubs.attach(db, club_id, ids[-1])
    rows = select(store.ladder.KeptEvening.event_id, store.ladder.KeptEvening.version).where(
        store.ladder.KeptEvening.club_id == club_id
    )
    versions = dict(db.execute(rows).all())
    assert seasons.kept_ladder(db, season_id)[1] == ()  # nothing played yet
    loaded = store.events.load_event(db, ids[0])
    assert loaded is not None
    game_id = loaded.entry.game_of(1, 1)
    assert game_id is not None
    table = ledger.load(db, game_id)
    assert table is not None
    winner, loser = table.players
    ledger.record(
        db, game_id, BoxEntry(ending="gin", by=winner, hands={winner: Hand(count=0), loser: Hand(count=30)})
    )
    after = dict(db.execute(rows).all())
    assert after == {ids[0]: versions[ids[0]] + 1, ids[1]: versions[ids[1]]}
    kept = store.ladder.read(db, club_id)[ids[0]]
    assert kept.winners == (winner,) and kept.standings[0].player == winner
    ladder = seasons.kept_ladder(db, season_id)[1]
    assert (ladder[0].name, ladder[0].line.rank) == (winner, 1)
    assert_ladder_is_fresh(db, club_id, [season_id])
    db.execute(delete(store.ladder.KeptEvening).where(store.ladder.KeptEvening.club_id == club_id))
    db.commit()
    assert seasons.kept_ladder(db, season_id)[1] == ladder  # made from the kept standings
    assert store.kept.rebuild_missing(db) == 2
    assert_ladder_is_fresh(db, club_id, [season_id])
