"""A club's use cases (ledger.clubs, ledger.seasons): the owner's codes, the roster's
link, split and undo kept in history, events joining the club, and a season's ladder
that follows a correction of a box of an old evening (issue 36)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import pytest
from openskill.models import PlackettLuce
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, Hand
from scorekeeper.engine.contract.club import ClubEntry, SeasonEntry
from scorekeeper.engine.event import EventEntry
from scorekeeper.engine.history import Kind
from scorekeeper.ledger import clubs, events, ratings, seasons

SECRET = b"s" * 32


@pytest.fixture
def db(migrated: Callable[[str], str]) -> Iterator[Session]:
    with store.opened(migrated("clubs.sqlite3")) as session:
        yield session


def _club(db: Session, key: str | None = "club-1") -> str:
    return clubs.begin(db, ClubEntry("Hoboken Gin Club", "Back room"), secret=SECRET, key=key).club.id


def _evening(db: Session, day: str, entrants: tuple[str, ...], key: str) -> str:
    entry = EventEntry(
        f"Tuesday {day}", entrants, rules="gin-classic", table_size=2, rounds=1, seed=7, date=day
    )
    return events.start_event(db, entry, secret=SECRET, key=key).event.id


def _play(db: Session, event_id: str, winner: str, loser: str) -> int:
    """One gin box at the evening's table of ``winner``: the box's id."""
    event = events.load_event(db, event_id)
    assert event is not None
    game_id = event.entry.game_of(1, 1)
    assert game_id is not None
    table = ledger.load(db, game_id)
    assert table is not None and set(table.players) == {winner, loser}
    box = BoxEntry(ending="gin", by=winner, hands={winner: Hand(count=0), loser: Hand(count=25)})
    box_id = ledger.record(db, game_id, box).box_id
    assert box_id is not None
    return box_id


def test_owner_codes_are_shared_and_renewed_like_a_directors(db: Session) -> None:
    begun = clubs.begin(db, ClubEntry("Hoboken Gin Club"), secret=SECRET, key="k")
    assert begun.codes is not None
    again = clubs.begin(db, ClubEntry("Hoboken Gin Club"), secret=SECRET, key="k")
    assert again.repeated and again.club.id == begun.club.id
    with pytest.raises(ledger.KeyReused):
        clubs.begin(db, ClubEntry("Another club"), secret=SECRET, key="k")
    club_id = begun.club.id
    assert clubs.owner_joined(db, begun.codes.join.lower(), SECRET, club_id) == begun.codes.owner
    assert clubs.owner_joined(db, "ZZZZZZ", SECRET, club_id) is None
    renewed = clubs.renew_owner_codes(db, club_id, SECRET, key="r1")
    assert clubs.owner_joined(db, begun.codes.owner, SECRET, club_id) is None
    assert clubs.owner_joined(db, renewed.owner, SECRET, club_id) == renewed.owner
    assert clubs.renew_owner_codes(db, club_id, SECRET, key="r1") == renewed  # a resent form
    assert [h.line.kind for h in store.clubs.history(db, club_id)] == [Kind.CLUB, Kind.OWNER_CODES]


def test_spellings_are_one_member_linked_split_and_undone(db: Session) -> None:
    club_id = _club(db)
    clubs.link(db, club_id, " ANN  lee ", None, key="a")
    (ann,) = clubs.roster(db, club_id)
    assert ann.name == "ANN lee" and ann.spellings == (("ann lee", "ANN lee"),)
    name_of = clubs.who(db, club_id)
    assert name_of("Ann Lee") == name_of("ann lee") == (f"m{ann.id}", "ANN lee", True)
    assert name_of("Bob") == ("guest:bob", "Bob", False)
    near = clubs.near_members("Ann L.", clubs.roster(db, club_id))
    assert [m.id for m in near] == [ann.id]
    clubs.link(db, club_id, "Ann L.", ann.id, key="b")
    assert clubs.who(db, club_id)("ann l.")[0] == f"m{ann.id}"
    assert clubs.link(db, club_id, "Ann L.", ann.id, key="b").repeated
    with pytest.raises(ledger.KeyReused):
        clubs.link(db, club_id, "Bob", None, key="b")
    with pytest.raises(clubs.RosterRefused, match="m999"):
        clubs.link(db, club_id, "Bob", 999)
    clubs.split(db, club_id, "ann l.", key="c")
    members = {m.name: m for m in clubs.roster(db, club_id)}
    assert set(members) == {"ANN lee", "Ann L."}
    with pytest.raises(clubs.RosterRefused, match="only spelling"):
        clubs.split(db, club_id, "Ann L.")
    lines = store.clubs.history(db, club_id)
    split_line = lines[-1]
    assert split_line.line.kind is Kind.SPLIT_OFF
    link_line = lines[-2]
    with pytest.raises(clubs.RosterRefused, match="later decision"):
        clubs.undo(db, club_id, link_line.id)
    clubs.undo(db, club_id, split_line.id, key="d")  # Ann L. is Ann again
    assert clubs.who(db, club_id)("Ann L.")[0] == f"m{ann.id}"
    assert [m.name for m in clubs.roster(db, club_id)] == ["ANN lee"]
    with pytest.raises(clubs.RosterRefused, match="undone already"):
        clubs.undo(db, club_id, split_line.id)
    clubs.undo(db, club_id, link_line.id)  # and not linked at all: a guest
    assert clubs.who(db, club_id)("Ann L.") == ("guest:ann l.", "Ann L.", False)
    kinds = [h.line.kind for h in store.clubs.history(db, club_id)]
    assert kinds[-2:] == [Kind.DECISION_UNDONE, Kind.DECISION_UNDONE]
    assert [h.undone for h in store.clubs.history(db, club_id) if h.line.kind is Kind.SPLIT_OFF] == [True]


def test_an_event_belongs_to_one_club(db: Session) -> None:
    club_id, other = _club(db, "x"), _club(db, "y")
    event_id = _evening(db, "2027-01-05", ("Ann", "Bob"), "e1")
    clubs.attach(db, club_id, event_id, key="at")
    assert clubs.attach(db, club_id, event_id).repeated  # already the club's
    with pytest.raises(clubs.RosterRefused, match="another club"):
        clubs.attach(db, other, event_id)
    with pytest.raises(ledger.NotFound):
        clubs.attach(db, club_id, "nope")
    assert [e.id for e in store.clubs.evenings(db, club_id)] == [event_id]


@pytest.mark.rule("E8")
def test_the_ladder_follows_a_correction_of_a_box_of_an_old_evening(db: Session) -> None:
    club_id = _club(db)
    for name in ("Ann", "Bob"):
        clubs.link(db, club_id, name, None)
    winter = SeasonEntry.from_json(
        {"name": "Winter", "from": "2027-01-01", "to": "2027-03-31", "ladder": {"count": "placings"}}
    )
    season_id = clubs.add_season(db, club_id, winter, key="s")[1]
    first = _evening(db, "2027-01-05", ("Ann", "Bob"), "e1")
    second = _evening(db, "2027-01-12", ("Ann", "bob"), "e2")  # bob: Bob's spelling
    outside = _evening(db, "2027-05-01", ("Ann", "Bob"), "e3")
    for event_id in (first, second, outside):
        clubs.attach(db, club_id, event_id)
    box = _play(db, first, "Ann", "Bob")
    _play(db, second, "bob", "Ann")
    season = seasons.season(db, season_id)
    assert [e.row.id for e in season.evenings] == [first, second]
    assert [e.winners for e in season.evenings] == [("Ann",), ("bob",)]
    # placings: 2 points for the first of two, 1 for the second; level on 3, tables won 1 each
    assert [(line.name, line.line.points, line.line.rank) for line in season.ladder] == [
        ("Ann", 3, 1),
        ("Bob", 3, 1),
    ]
    game_id = events.load_event(db, first)
    assert game_id is not None
    table_game = game_id.entry.game_of(1, 1)
    assert table_game is not None
    # the first evening's box was Bob's gin after all: Bob won both evenings
    events.correct_box(
        db,
        first,
        table_game,
        box,
        BoxEntry(ending="gin", by="Bob", hands={"Bob": Hand(count=0), "Ann": Hand(count=25)}),
    )
    season = seasons.season(db, season_id)
    assert [(line.name, line.line.points, line.line.rank, line.line.moved) for line in season.ladder] == [
        ("Bob", 4, 1, 0),
        ("Ann", 2, 2, 0),
    ]
    assert season.evenings[0].winners == ("Bob",)
    assert season.upcoming(dt.date(2027, 1, 1)) == ()


def test_ratings_are_openskills_own_for_a_three_player_and_a_two_player_game(db: Session) -> None:
    club_id = _club(db)
    three = events.start_event(
        db,
        EventEntry("Jersey night", ("Ann", "Bob", "Cal"), rounds=1, seed=3, date="2027-01-05"),
        secret=SECRET,
        key="j",
    ).event.id
    two = _evening(db, "2027-01-12", ("ann", "Bob"), "g")
    for event_id in (three, two):
        clubs.attach(db, club_id, event_id)
    clubs.link(db, club_id, "Ann", None)
    event = events.load_event(db, three)
    assert event is not None
    game_id = event.entry.game_of(1, 1)
    assert game_id is not None
    ledger.record(
        db,
        game_id,
        BoxEntry(
            ending="knock",
            by="Cal",
            hands={"Cal": Hand(count=2), "Ann": Hand(count=20), "Bob": Hand(count=31)},
        ),
    )
    _play(db, two, "Bob", "ann")
    nets = {s.player: s.score for s in events.standings(db, three)}
    model = PlackettLuce()
    fresh = {name: model.rating(name=name) for name in ("Ann", "Bob", "Cal")}
    order = list(event.entry.seating_of(1).tables[0])  # type: ignore[union-attr]
    first = dict(
        zip(
            order,
            (r for (r,) in model.rate([[fresh[p]] for p in order], scores=[nets[p] for p in order])),
            strict=True,
        )
    )
    second_nets = {s.player: s.score for s in events.standings(db, two)}
    ann, bob = model.rate([[first["Ann"]], [first["Bob"]]], scores=[second_nets["ann"], second_nets["Bob"]])
    rated = ratings.club_ratings(db, club_id)
    member = clubs.who(db, club_id)("Ann")[0]
    assert rated.now[member].mu == pytest.approx(ann[0].mu) and rated.now[member].sigma == pytest.approx(
        ann[0].sigma
    )
    assert rated.now["guest:bob"].mu == pytest.approx(bob[0].mu)
    assert rated.now["guest:cal"].mu == pytest.approx(first["Cal"].mu)
    assert [event for event, _ in rated.history[member]] == [three, two]
    assert first["Cal"].mu > 25  # Cal knocked low: the model lifts the table's winner
    # a correction recomputes: the two-player game was Ann's after all
    season_id = clubs.add_season(
        db, club_id, SeasonEntry.from_json({"name": "W", "from": "2027-01-01", "to": "2027-12-31"})
    )[1]
    before = seasons.season(db, season_id).rating(member)
    two_game = events.load_event(db, two)
    assert two_game is not None and before is not None
    game = two_game.entry.game_of(1, 1)
    assert game is not None
    box = ledger.load(db, game)
    assert box is not None and box.boxes
    events.correct_box(
        db,
        two,
        game,
        box.boxes[0].id,
        BoxEntry(ending="gin", by="ann", hands={"ann": Hand(count=0), "Bob": Hand(count=25)}),
    )
    after = seasons.season(db, season_id).rating(member)
    assert after is not None and after.mu > before.mu
