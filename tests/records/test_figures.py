"""Players' figures over the known games of :mod:`.games`, each worked out by hand there:
read from the stored summaries, from the engine's scoring of older rows, and with a
scorer's merges and splits of names."""

from __future__ import annotations

from datetime import date

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from scorekeeper import ledger, records, store
from scorekeeper.engine.contract import BoxEntry
from scorekeeper.ledger import players

from .games import box


def test_a_player_matched_by_folded_name_across_games(db: Session, ids: list[str]) -> None:
    ann = records.record("Ann", players.played(db))
    figures = ann.overall
    assert [g.id for g in ann.games] == [ids[2], ids[1], ids[0]]  # newest first
    assert (figures.games, figures.won, figures.finished) == (3, 1, 1)
    # Boxes played: A 2, B 5 (the misdeal is none), C 1; won: A 2, B 3.
    assert (figures.boxes, figures.boxes_won) == (8, 5)
    assert figures.kinds == {"knock": 2, "underknock": 1, "gin": 1, "break": 1, "gin after the break": 0}
    # Credits won: 18 + 90 (A) + 28 + 18 + 4 (B) = 158 over 5 boxes.
    assert figures.credit == 158 and figures.average_credit == pytest.approx(31.6)
    assert figures.biggest == records.Biggest(90, ids[0], 2, "gin")
    # B: boxes 2, 4 and 5 won, the misdeal (3) between them neither makes nor breaks it.
    assert figures.longest_run == 3
    assert (figures.shutouts_given, figures.shutouts_taken) == (2, 0)
    assert figures.points == 1032 and figures.money == pytest.approx(103.2)


def test_per_preset_and_the_losers(db: Session, ids: list[str]) -> None:
    games = players.played(db)
    ann = records.record("ann", games)
    assert ann.presets["gin"].games == 1 and ann.presets["gin"].boxes_won == 0
    assert ann.presets["jersey-scarne"].boxes_won == 5
    bob = records.record("BOB", games).overall
    assert (bob.games, bob.boxes_won, bob.longest_run, bob.biggest) == (2, 0, 0, None)
    assert bob.average_credit is None
    assert (bob.shutouts_taken, bob.points) == (1, -516)
    assert bob.money == pytest.approx(-51.6)
    dan = records.record("dan", games).overall
    assert dan.kinds["gin after the break"] == 1 and dan.credit == 12 + 25
    assert dan.money is None  # no stake was kept in Dan's only game


def test_older_summaries_are_scored_by_the_engine_with_the_same_figures(db: Session, ids: list[str]) -> None:
    before = records.record("ann", players.played(db))
    for row in store.counted_games(db):
        summary = {k: v for k, v in row.summary.items() if k != "record"}
        db.execute(sa.update(store.Game).where(store.Game.id == row.id).values(summary=summary))
    db.commit()
    assert all("record" not in row.summary for row in store.counted_games(db))
    after = records.record("ann", players.played(db))
    assert after.overall == before.overall


def test_only_the_games_a_browser_counts(db: Session, ids: list[str]) -> None:
    ann = records.record("ann", players.played(db, [ids[1]])).overall
    assert (ann.games, ann.boxes_won, ann.credit) == (1, 3, 50)


def test_a_merge_and_a_split_decided_by_a_scorer(db: Session, ids: list[str]) -> None:
    """A scorer of every game merges Dan into Cal and splits Bob in game A; undoing the
    merge puts Dan back, and the history keeps both decisions."""
    players.merge(db, "Dan", "Cal", set(ids))
    players.split(db, "Bob", ids[0], "Bob Two", set(ids))
    games = players.played(db)
    cal = records.record("cal", games)
    assert {g.id for g in cal.games} == set(ids)
    assert cal.overall.boxes_won == 1 + 2
    bob = records.record("bob", games).overall
    assert (bob.games, bob.shutouts_taken) == (1, 0)
    assert records.record("bob two", games).overall.shutouts_taken == 1
    with pytest.raises(players.NameRefused, match="no player named 'Zed'"):
        players.split(db, "Zed", ids[0], "Zed Two", set(ids))
    merge, split = store.decisions(db)
    assert (merge.kind, merge.games, split.games) == ("merge", (ids[1],), (ids[0],))
    undone = players.undo(db, merge.id, set(ids))
    assert undone is not None and undone.undone_at is not None
    assert {g.id for g in records.record("cal", players.played(db)).games} == {ids[0], ids[2]}
    assert players.undo(db, merge.id, set(ids)) is None
    assert [d.id for d in players.history(db, "cal")] == [merge.id]


def test_head_to_head_games_boxes_and_net_settlement(db: Session, ids: list[str]) -> None:
    games = players.played(db)
    versus = records.head_to_head(["Ann", "bob"], games)
    assert [g.id for g in versus.games] == [ids[1], ids[0]]
    assert versus.won == {"ann": 1, "bob": 0}
    assert versus.boxes_won == {"ann": 5, "bob": 0}
    assert versus.net == {("ann", "bob"): 516, ("bob", "ann"): -516}
    assert versus.money[("ann", "bob")] == pytest.approx(51.6)
    three = records.head_to_head(["ann", "bob", "cal"], games)
    assert [g.id for g in three.games] == [ids[0]]
    assert three.net[("bob", "cal")] == 0 and three.net[("cal", "ann")] == -516
    later = records.head_to_head(["ann", "bob"], games, since=date(2026, 11, 1))
    assert [g.id for g in later.games] == [ids[1]] and later.net[("ann", "bob")] == 0
    with pytest.raises(ValueError, match="two or three"):
        records.head_to_head(["ann", "ANN "], games)


def test_results_over_time_and_the_list_of_players(db: Session, ids: list[str]) -> None:
    games = players.played(db)
    # Only game A is over: Ann +1032, Bob -516 against everyone; Ann against Cal +516.
    assert records.running_net("ann", games) == ((0, 0), (1, 1032))
    assert records.running_net("bob", games) == ((0, 0), (1, -516))
    assert records.running_net("ann", games, against=["cal"]) == ((0, 0), (1, 516))
    listed = [(p.person, p.games, p.won) for p in records.people(games)]
    assert listed == [("ann", 3, 1), ("bob", 2, 0), ("cal", 2, 0), ("dan", 1, 0)]


def test_kept_games_are_read_again_once_written(db: Session, ids: list[str]) -> None:
    kept = players.Kept()
    assert kept.played(db, None, players.names(db)) == players.played(db)
    first = {g.id: g for g in players.played(db, kept=kept)}
    # Game B goes on: Dan knocks with 1 against ANN 11 and bob 21 (J6: 10 + 20 = 30).
    ledger.record(db, ids[1], BoxEntry.from_json(box("knock", "Dan", Dan=1, ANN=11, bob=21)))
    again = {g.id: g for g in players.played(db, kept=kept)}
    assert again[ids[0]] is first[ids[0]]  # unchanged: not read again
    assert again[ids[1]].sheet.totals == {"bob": 0, "ANN": 50, "Dan": 67}
    players.merge(db, "Dan", "Cal", set(ids))
    merged = players.played(db, kept=kept)
    assert merged == players.played(db)
    assert records.record("cal", merged).overall.games == 3
    assert [g.id for g in players.played(db, [ids[2]], kept=kept)] == [ids[2]]
    db.execute(sa.delete(store.Game).where(store.Game.id == ids[0]))
    db.commit()
    assert [g.id for g in players.played(db, kept=kept)] == ids[1:]
