"""The walk's club steps played in one fixed order (the random walk may meet them
rarely in a short run): an evening joins a club, its new names decided, a spelling
linked and split off, decisions undone (one refused, as the model predicts), a season,
a box that moves its ladder; the model's checks run after every step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.walk.test_walk import WALK_APP, Walk


class Choose:
    """A stand-in for hypothesis's ``data``: each draw takes the next scripted choice
    (a function of the strategy's elements), or the first element."""

    def __init__(self, *picks: Any) -> None:
        self.picks = list(picks)

    def draw(self, strategy: Any) -> Any:
        elements = list(getattr(strategy, "elements", [0]))
        pick = self.picks.pop(0) if self.picks else None
        return pick(elements) if callable(pick) else elements[0] if pick is None else pick


def test_the_club_steps_keep_the_model(migrated_once: Path, tmp_path: Path) -> None:
    WALK_APP.source, WALK_APP.folder = migrated_once, tmp_path
    walk = Walk()
    walk.phones()
    walk.start_an_event_from_the_page(Choose(["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"]), "game")
    walk.every_page_answers()
    walk.an_evening_joins_a_club(Choose(False, None))  # a club begun, the evening joins it
    walk.every_page_answers()
    (club,) = walk.clubs
    assert club.events == [walk.events[0].id]
    for _ in range(6):  # each entrant a new member
        walk.decide_a_new_name(Choose(club, None, "new"))
        walk.every_page_answers()
    assert len(set(club.group.values())) == 6 and len(club.decisions) == 6
    walk.decide_a_new_name(Choose(club))  # no new name left: nothing to decide
    ann = club.group["ann"]
    walk.link_a_spelling_through_the_api(Choose(club, ann), "Annie")  # Annie is Ann
    walk.every_page_answers()
    assert club.group["annie"] == ann
    walk.split_a_spelling_off(Choose(club))  # "Annie" split off Ann again
    walk.every_page_answers()
    assert club.group["annie"] != ann
    link, split = sorted(club.decisions)[-2:]
    walk.undo_a_decision(Choose(club, link))  # refused: the split changed "Annie" since
    walk.undo_a_decision(Choose(club, split))
    walk.every_page_answers()
    assert club.group["annie"] == ann
    walk.undo_a_decision(Choose(club, link))
    walk.every_page_answers()
    assert "annie" not in club.group
    walk.add_a_season(Choose(club), "placings", "")
    walk.every_page_answers()
    walk.publish_or_make_private(Choose(club))  # a stranger reads the club now
    walk.every_page_answers()
    assert club.public
    walk.kept_ladders_are_fresh()
    walk.record_a_box_on_the_page(Choose(lambda games: games[0], 0, 25, 30), "gin")
    walk.every_page_answers()  # the ladder counts the evening now played, for every member
    walk.kept_ladders_are_fresh()  # the box's difference kept in the evening's row
    season = walk.phone["watcher"].get(
        f"/api/v1/clubs/{club.id}/seasons/{club.seasons[0].rsplit('/', 1)[1]}",
        headers={"Authorization": f"Bearer {club.token}"},
    )
    lines = season.get_json()["ladder"]
    assert len(lines) == 6 and all(line["evenings"] == 1 and not line["guest"] for line in lines)
