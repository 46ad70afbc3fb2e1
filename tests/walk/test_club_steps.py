"""The walk's club steps played in one fixed order (the random walk may meet them
rarely in a short run): an evening joins a club, its new names decided, a spelling
linked and split off, decisions undone (one refused, as the model predicts), a season,
a box that moves its ladder; evenings planned (the page and the API), changed,
cancelled and the cancel undone, one started from its plan; the season's counting
changed from the page and the API (an undo refused while the later change stands);
an evening leaving the club and joining the season again; the model's checks run
after every step."""

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

    # the season's calendar, counting and evenings (the three writes after the season)
    season_url = club.seasons[0]
    walk.plan_an_evening(Choose(club, season_url, True), 3, "19:30")  # from the page
    walk.plan_an_evening(Choose(club, season_url, False), 5, "19:00")  # through the API
    walk.every_page_answers()
    first, second = sorted(club.plans)
    walk.change_or_cancel_a_plan(Choose(club, first), False, True)  # moved to 20:00 on its page
    walk.change_or_cancel_a_plan(Choose(club, second), True, False)  # cancelled through the API
    walk.every_page_answers()
    assert club.plans[first].time == "20:00" and club.plans[second].cancelled
    (cancel,) = [n for n, (kind, _, _) in club.owner_lines.items() if kind == "cancel"]
    walk.undo_a_cancel_or_a_counting(Choose(club, cancel))
    walk.undo_a_cancel_or_a_counting(Choose(club, cancel))  # refused: undone already
    assert not club.plans[second].cancelled
    walk.start_a_planned_evening(Choose(club, first, ["Ann", "Bob", "Cal"]))
    walk.every_page_answers()  # the feed shows the evening under the plan's UID
    started = club.plans[first].event
    assert started is not None and started in club.events
    walk.change_a_seasons_counting(Choose(club, season_url, True), "average", 1, 1)  # the page
    walk.change_a_seasons_counting(Choose(club, season_url, False), "net", 0, 0)  # the API
    earlier, later = sorted(n for n, (kind, _, _) in club.owner_lines.items() if kind == "counting")
    walk.undo_a_cancel_or_a_counting(Choose(club, earlier))  # refused: the later change stands
    walk.undo_a_cancel_or_a_counting(Choose(club, later))
    walk.every_page_answers()
    assert club.counting[season_url] == {"count": "average", "best": 1, "min_evenings": 1}
    played = walk.events[0].id
    walk.an_evening_leaves_the_club(Choose(club, played), True)
    walk.an_evening_leaves_the_club(Choose(club, started), False)  # its plan stands unstarted again
    walk.every_page_answers()
    walk.kept_ladders_are_fresh()
    assert club.plans[first].event is None and played not in club.events
    walk.an_evening_joins_a_season(Choose(club, season_url, True, lambda options: played))
    walk.every_page_answers()
    walk.kept_ladders_are_fresh()
    assert played in club.events
