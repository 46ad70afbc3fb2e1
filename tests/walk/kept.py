"""The kept standings equal a fresh computation from the stored games (issue 34), and so
do a club's kept evenings and its seasons' ladders (issue 36): what the walk holds after
every step and the property tests after every write."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from scorekeeper import records, store
from scorekeeper.engine.event.kept import Line, Tally
from scorekeeper.ledger import clubs, events, ratings, seasons


def _tidy(kept: store.kept.Kept) -> tuple[object, ...]:
    tally = Tally(kept.lines, kept.rounds).tidy()
    tables = {game: (table.result, table.ended) for game, table in kept.tables.items()}
    return dict(tally.lines), dict(tally.rounds), tables


def assert_kept_is_fresh(db: Session, event_id: str) -> None:
    """The event's kept rows are the sums of its stored games, and the standings read
    from them (as every reader reads them) are the standings computed from scratch."""
    db.rollback()  # a new read: what the writes committed
    kept = store.kept.read(db, event_id)
    fresh = store.kept.fresh(db, event_id)
    assert kept is not None and fresh is not None, event_id
    assert _tidy(kept) == _tidy(fresh)
    assert all(isinstance(line, Line) for line in kept.lines.values())
    loaded = store.events.load_event(db, event_id)
    assert loaded is not None
    games = store.events.table_games(db, event_id)
    expected = records.standings(loaded.entry, games, withdrawn=loaded.withdrawn)
    board = events.board(db, loaded)
    assert board.standings == expected, (board.standings, expected)
    ended = tuple(sorted(g.game_id for g in games if g.ended))
    assert tuple(sorted(board.ended)) == ended
    assert board.tables == events.tables(db, loaded)
    db.rollback()


def assert_ladder_is_fresh(db: Session, club_id: str, season_ids: Iterable[int]) -> None:
    """Every evening of the club kept for its seasons (issue 36) is the one computed now
    from its stored games, and so is each season's ladder read from them (the roster as
    it stands applied to both), and the club's ratings rated from the games' summaries."""
    db.rollback()
    kept = store.ladder.read(db, club_id)
    events_of_club = [e.id for e in store.clubs.evenings(db, club_id)]
    assert sorted(kept) == sorted(events_of_club), (sorted(kept), events_of_club)
    for event_id in events_of_club:
        assert kept[event_id] == store.ladder.fresh(db, event_id), event_id
    for season_id in season_ids:
        assert seasons.kept_ladder(db, season_id) == seasons.fresh_ladder(db, season_id), season_id
    evenings = store.clubs.evenings(db, club_id)
    games = {e.id: [records.table_result(g) for g in store.events.table_games(db, e.id)] for e in evenings}
    rated = ratings.rate(ratings.club_games(evenings, games, clubs.who(db, club_id))[0])
    kept_ratings = ratings.club_ratings(db, club_id)  # from the kept tables, kept under the club's stamp
    assert (kept_ratings.now, kept_ratings.history) == (rated.now, rated.history)
    db.rollback()
