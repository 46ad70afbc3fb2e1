"""The walk's steps of a season changed after it is made (issue 36), mixed into the
club's steps (tests/walk/clubs.py): evenings planned on a season's calendar (from the
page and the API), changed, cancelled (the cancel undone) and started on the night from
the new-event form filled from the plan; a season's counting changed (and undone, or
refused while a later change stands); an evening leaving the club and joining a season
again. The model keeps each season's counting and each planned evening (its date and
time, cancelled or not, the event it became): the API's season and the calendar feed,
both read already by the club's pages after the step, must say the same."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from tests.walk.phones import Phone, acknowledged

if TYPE_CHECKING:
    from tests.walk.clubs import Club


@dataclass
class Plan:
    """A planned evening as the model knows it."""

    season: str
    time: str
    date: str
    cancelled: bool = False
    event: str | None = None


class SeasonSteps:
    """Mixed into the club's steps: its rules join the walk's."""

    phone: dict[str, Phone]
    events: list[Any]
    clubs: list[Club]
    touched_clubs: set[str]
    app: Flask

    def _owner_api(self, club: Club) -> dict[str, str]:
        return {"Authorization": f"Bearer {club.token}"}

    def _api_season(self, club: Club, url: str) -> dict[str, Any]:
        answer = self.phone["watcher"].get(
            f"/api/v1/clubs/{club.id}/seasons/{url.rsplit('/', 1)[1]}", headers=self._owner_api(club)
        )
        assert answer.status_code == 200, answer.get_data(as_text=True)[:1000]
        return answer.get_json()  # type: ignore[no-any-return]

    def _newest_line(self, club: Club) -> int:
        history = self.phone["watcher"].get(f"/api/v1/clubs/{club.id}/history", headers=self._owner_api(club))
        return int(history.get_json()["history"][-1]["line"])

    def _api_season_of(self, club: Club) -> str:
        """A season of a club begun through the API (made through the API when none)."""
        if not club.seasons:
            answer = self.phone["bob"].post(
                f"/api/v1/clubs/{club.id}/seasons",
                json={"name": "API season", "from": "2000-01-01", "to": "2099-12-31"},
                headers=self._owner_api(club),
            )
            assert answer.status_code == 201, answer.get_data(as_text=True)
            club.seasons.append(f"/clubs/{club.id}/seasons/{answer.get_json()['id']}")
        return club.seasons[0]

    @precondition(lambda self: any(c.seasons or c.owner == "bob" for c in self.clubs))
    @rule(data=st.data(), days=st.integers(0, 30), hour=st.sampled_from(["19:00", "19:30"]))
    def plan_an_evening(self, data: st.DataObject, days: int, hour: str) -> None:
        """An evening on a season's calendar, from the page (the owner's phone) or the API."""
        club = data.draw(st.sampled_from([c for c in self.clubs if c.seasons or c.owner == "bob"]))
        self.touched_clubs.add(club.id)
        season = data.draw(st.sampled_from(club.seasons)) if club.seasons else self._api_season_of(club)
        plan = {"date": (dt.date.today() + dt.timedelta(days=days)).isoformat(), "time": hour}
        plan |= {"rules": "jersey-scarne", "table_size": "3", "place": "Back room"}
        if club.owner == "director" and data.draw(st.booleans()):
            answer = self.phone["director"].post(f"{season}/plans", data=plan)
            assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
            # the page answers with the season: the plan's id is read from the API
            (made,) = [p for p in self._api_season(club, season)["plans"] if p["id"] not in club.plans]
        else:
            answer = self.phone["bob"].post(
                f"/api/v1{season}/plans", json={**plan, "table_size": 3}, headers=self._owner_api(club)
            )
            assert answer.status_code == 201, answer.get_data(as_text=True)
            made = answer.get_json()
        assert (made["date"], made["time"], made["cancelled"], made["event"]) == (
            plan["date"],
            hour,
            False,
            None,
        )
        club.plans[made["id"]] = Plan(season, hour, plan["date"])

    def _open_plans(self, club: Club) -> list[int]:
        return [n for n, p in club.plans.items() if not p.cancelled and p.event is None]

    @precondition(lambda self: any(self._open_plans(c) for c in self.clubs))
    @rule(data=st.data(), cancel=st.booleans(), page=st.booleans())
    def change_or_cancel_a_plan(self, data: st.DataObject, cancel: bool, page: bool) -> None:
        club = data.draw(st.sampled_from([c for c in self.clubs if self._open_plans(c)]))
        self.touched_clubs.add(club.id)
        number = data.draw(st.sampled_from(self._open_plans(club)))
        plan = club.plans[number]
        hour = "20:00" if plan.time != "20:00" else "19:45"
        page = page and club.owner == "director"
        if cancel:
            if page:
                answer = self.phone["director"].post(f"/clubs/{club.id}/plans/{number}/cancel", data={})
                assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
            else:
                answer = self.phone["bob"].post(
                    f"/api/v1/clubs/{club.id}/plans/{number}/cancel", headers=self._owner_api(club)
                )
                assert answer.status_code == 200 and answer.get_json()["cancelled"], answer.get_data(
                    as_text=True
                )
            plan.cancelled = True
            club.owner_lines[self._newest_line(club)] = ("cancel", number, False)
            return
        if page:
            form = self.phone["director"].form(f"/clubs/{club.id}/plans/{number}", f"/plans/{number}")
            assert form is not None
            assert acknowledged(self.phone["director"].submit(form, time=hour))
        else:
            body = {"date": plan.date, "place": "Back room", "rules": "jersey-scarne", "table_size": 3}
            answer = self.phone["bob"].open(
                "PUT",
                f"/api/v1/clubs/{club.id}/plans/{number}",
                json={**body, "time": hour},
                headers=self._owner_api(club),
            )
            assert answer.status_code == 200 and answer.get_json()["time"] == hour, answer.get_data(
                as_text=True
            )
        plan.time = hour

    @precondition(lambda self: any(c.owner == "director" and self._open_plans(c) for c in self.clubs))
    @rule(data=st.data())
    def start_a_planned_evening(self, data: st.DataObject) -> None:
        """On the night: the new-event form filled from the plan, the entrants typed; the
        event joins the club with the plan pointing at it."""
        from tests.walk.test_walk import Event  # the walk's own model (it imports this mixin)

        club = data.draw(
            st.sampled_from([c for c in self.clubs if c.owner == "director" and self._open_plans(c)])
        )
        self.touched_clubs.add(club.id)
        number = data.draw(st.sampled_from(self._open_plans(club)))
        form = self.phone["director"].form(f"/events/new?rules=jersey-scarne&plan={number}", "?rules=")
        assert form is not None and form.fields["plan"] == str(number) and form.fields["club"] == club.id
        names = data.draw(
            st.lists(
                st.sampled_from(["Ann", "Bob", "Cal", "Dee", "Eve", "Zed"]),
                min_size=3,
                max_size=4,
                unique=True,
            )
        )
        answer = self.phone["director"].submit(form, entrants="\n".join(names), rounds="1")
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        event = Event(answer.headers["Location"].rsplit("/", 1)[1], "director")
        self.events.append(event)
        self._seated(event)  # type: ignore[attr-defined]
        club.events.append(event.id)
        club.plans[number].event = event.id

    @precondition(lambda self: any(c.seasons for c in self.clubs))
    @rule(
        data=st.data(),
        count=st.sampled_from(["net", "average", "placings"]),
        best=st.sampled_from([0, 1, 2]),
        least=st.sampled_from([0, 1]),
    )
    def change_a_seasons_counting(self, data: st.DataObject, count: str, best: int, least: int) -> None:
        club = data.draw(st.sampled_from([c for c in self.clubs if c.seasons]))
        self.touched_clubs.add(club.id)
        season = data.draw(st.sampled_from(club.seasons))
        after: dict[str, Any] = {"count": count, "min_evenings": least, **({"best": best} if best else {})}
        before = club.counting.get(season) or self._api_season(club, season)["season"]["ladder"]
        if club.owner == "director" and data.draw(st.booleans()):
            form = {"count": count, "best": str(best or ""), "min_evenings": str(least)}
            answer = self.phone["director"].post(f"{season}/counting", data=form)
            assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        else:
            answer = self.phone["bob"].post(
                f"/api/v1{season}/counting", json={"ladder": after}, headers=self._owner_api(club)
            )
            assert answer.status_code == 200 and answer.get_json()["season"]["ladder"] == after
        club.counting[season] = after
        if before != after:
            club.owner_lines[self._newest_line(club)] = ("counting", (season, before, after), False)

    @precondition(lambda self: any(c.owner_lines for c in self.clubs))
    @rule(data=st.data())
    def undo_a_cancel_or_a_counting(self, data: st.DataObject) -> None:
        """From the club's history (the page's undo, or the API's): refused exactly when
        the model says (undone already, or a later counting change stands)."""
        club = data.draw(st.sampled_from([c for c in self.clubs if c.owner_lines]))
        self.touched_clubs.add(club.id)
        line = data.draw(st.sampled_from(sorted(club.owner_lines)))
        kind, what, undone = club.owner_lines[line]
        allowed = not undone and (kind == "cancel" or club.counting.get(what[0]) == what[2])
        if club.owner == "director":
            answer = self.phone["director"].post(f"/clubs/{club.id}/undo/{line}", data={})
            ok = acknowledged(answer)
        else:
            answer = self.phone["bob"].post(
                f"/api/v1/clubs/{club.id}/history/{line}/undo", headers=self._owner_api(club)
            )
            ok = answer.status_code == 200
        if not allowed:
            assert answer.status_code == 422, (answer.status_code, kind, what)
            return
        assert ok, answer.get_data(as_text=True)[:2000]
        club.owner_lines[line] = (kind, what, True)
        if kind == "cancel":
            club.plans[what].cancelled = False
        else:
            club.counting[what[0]] = what[1]

    @precondition(lambda self: any(c.events for c in self.clubs))
    @rule(data=st.data(), page=st.booleans())
    def an_evening_leaves_the_club(self, data: st.DataObject, page: bool) -> None:
        """An evening joined by mistake leaves (the season page's button, or the API)."""
        club = data.draw(st.sampled_from([c for c in self.clubs if c.events]))
        self.touched_clubs.add(club.id)
        event = data.draw(st.sampled_from(club.events))
        if page and club.owner == "director":
            answer = self.phone["director"].post(f"/clubs/{club.id}/events/{event}/leave", data={})
            assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        else:
            answer = self.phone["bob"].open(
                "DELETE", f"/api/v1/clubs/{club.id}/events/{event}", headers=self._owner_api(club)
            )
            assert answer.status_code == 200 and event not in answer.get_json()["events"]
        club.events.remove(event)
        for plan in club.plans.values():
            if plan.event == event:
                plan.event = None

    @precondition(lambda self: any(c.seasons for c in self.clubs))
    @rule(data=st.data())
    def an_evening_joins_a_season(self, data: st.DataObject) -> None:
        """An evening of no club joins a season: the director's from the season's page,
        an API event with its director's token through the API."""
        club = data.draw(st.sampled_from([c for c in self.clubs if c.seasons]))
        self.touched_clubs.add(club.id)
        season = data.draw(st.sampled_from(club.seasons))
        taken = {e for c in self.clubs for e in c.events}
        if club.owner == "director" and data.draw(st.booleans()):
            form = self.phone["director"].form(season, "/events", ending=True)
            if form is None:  # no evening of this phone is free to join
                return
            event = data.draw(st.sampled_from(form.options["event"]))
            answer = self.phone["director"].submit(form, event=event)
            assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        else:
            free = [e for e in self.events if e.token and e.id not in taken]
            if not free:
                return
            chosen = data.draw(st.sampled_from(free))
            event = chosen.id
            answer = self.phone["bob"].post(
                f"/api/v1{season}/events",
                json={"event": event, "director_token": chosen.token},
                headers=self._owner_api(club),
            )
            assert answer.status_code == 200, answer.get_data(as_text=True)
        assert event not in taken
        club.events.append(event)

    def _calendar_is_the_models(self, club: Club, url: str, body: dict[str, Any], feed: bytes | None) -> None:
        """The season's counting, its plans and their feed entries as the model has them
        (the API's answer and the feed, both already read)."""
        if url in club.counting:
            assert body["season"]["ladder"] == club.counting[url], (
                body["season"]["ladder"],
                club.counting[url],
            )
        mine = {n: p for n, p in club.plans.items() if p.season == url}
        stored = {p["id"]: (p["cancelled"], p["event"], p["date"], p["time"]) for p in body["plans"]}
        assert stored == {n: (p.cancelled, p.event, p.date, p.time) for n, p in mine.items()}, (stored, mine)
        assert {e["event"] for e in body["evenings"]} == {e for e in club.events}, (
            body["evenings"],
            club.events,
        )
        if feed is not None:
            text = feed.decode().replace("\r\n ", "")
            for n, p in mine.items():
                assert text.count(f"UID:plan-{n}@scorekeeper") == 1, (n, text[:2000])
                if p.event is None:
                    entry = text.split(f"UID:plan-{n}@scorekeeper", 1)[1].split("END:VEVENT", 1)[0]
                    entry += text.split(f"UID:plan-{n}@scorekeeper", 1)[0].rsplit("BEGIN:VEVENT", 1)[1]
                    assert ("STATUS:CANCELLED" in entry) is p.cancelled, entry


__all__ = ["Plan", "SeasonSteps"]
