"""The walk's club steps (issue 36): a club begun from its page and through the API,
evenings joining it, the new names decided (a new member, or the near member the page
offers), spellings split off, decisions undone, seasons added; evenings planned on a
season's calendar, changed, cancelled (the cancel undone) and started; a season's
counting changed (and undone); an evening leaving the club and joining a season again;
then every club page, season page, calendar feed and the API's club and season, as the
owner and a stranger.

The model keeps the roster as a partition of folded spellings (which spellings are one
member) and each undoable decision's spelling and what it named before; the stored
roster must be that partition, an undo is refused exactly when the model says (undone
already, or a later decision changed the spelling), and a season's ladder counts for
every member the evenings that member played, whatever spelling they used; after every
step each club's kept evenings and seasons' ladders equal a fresh computation. The
model also keeps each season's counting and each planned evening (cancelled or not,
the event it became): the API's season and the calendar feed must say the same."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule

from scorekeeper import store
from scorekeeper.engine.contract.club import fold
from tests.walk.kept import assert_ladder_is_fresh
from tests.walk.phones import Phone, acknowledged, forms_of

_groups = itertools.count(1)


@dataclass
class Club:
    """What the model knows of a club: its owner's phone and token, the roster as
    groups of spellings, the decisions that can be undone and its seasons."""

    id: str
    owner: str
    token: str
    public: bool
    group: dict[str, int] = field(default_factory=dict)
    """Each folded spelling's member (a model's number, not the stored id)."""
    decisions: dict[int, tuple[str, int, int | None, bool]] = field(default_factory=dict)
    """History line -> (spelling, the member it set, the member before, undone)."""
    seasons: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    counting: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each season's ladder rules as the model expects them (by season URL)."""
    plans: dict[int, Plan] = field(default_factory=dict)
    owner_lines: dict[int, tuple[str, Any, bool]] = field(default_factory=dict)
    """History line -> ("counting", (season, before, after)) or ("cancel", plan), undone."""


@dataclass
class Plan:
    """A planned evening as the model knows it."""

    season: str
    time: str
    date: str
    cancelled: bool = False
    event: str | None = None


class ClubSteps:
    """Mixed into the walk's state machine: its rules join the walk's."""

    phone: dict[str, Phone]
    events: list[Any]
    clubs: list[Club]
    touched_clubs: set[str]
    app: Flask

    def _club_page(self, club: Club) -> str:
        answer = self.phone[club.owner].get(f"/clubs/{club.id}")
        assert answer.status_code == 200, answer.get_data(as_text=True)[:1000]
        return answer.get_data(as_text=True)

    def _stored_club(self, club: Club) -> dict[str, Any]:
        answer = self.phone["watcher"].get(
            f"/api/v1/clubs/{club.id}", headers={"Authorization": f"Bearer {club.token}"}
        )
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return answer.get_json()  # type: ignore[no-any-return]

    def _learn_lines(self, club: Club, spelling: str, before: int | None, now: int) -> None:
        """The history line a decision just made (the newest undo form)."""
        lines = [int(n) for n in re.findall(r'action="/clubs/\w+/undo/(\d+)"', self._club_page(club))]
        fresh = [n for n in lines if n not in club.decisions]
        assert len(fresh) == 1, (lines, club.decisions)
        club.decisions[fresh[0]] = (spelling, now, before, False)

    @rule(public=st.booleans())
    def begin_a_club_from_the_page(self, public: bool) -> None:
        self._begin(public)

    def _begin(self, public: bool) -> Club:
        form = {"name": "Walk club", "place": "Back room", **({"public": "y"} if public else {})}
        answer = self.phone["director"].post("/clubs/new", data=form)
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        club_id = answer.headers["Location"].rsplit("/", 1)[1]
        page = self.phone["director"].get(f"/clubs/{club_id}").get_data(as_text=True)
        link = re.search(
            r'id="owner-link" value="[^"#]+#([^"]+)"|value="[^"#]+#([^"]+)"[^>]*id="owner-link"', page
        )
        assert link is not None, page[-3000:]
        club = Club(club_id, "director", link.group(1) or link.group(2), public)
        self.clubs.append(club)
        self.touched_clubs.add(club_id)
        return club

    @rule()
    def begin_a_club_through_the_api(self) -> None:
        answer = self.phone["bob"].post("/api/v1/clubs", json={"name": "API club", "public": True})
        assert answer.status_code == 201, answer.get_data(as_text=True)
        body = answer.get_json()
        club = Club(body["id"], "bob", body["owner_token"], True)
        self.clubs.append(club)
        self.touched_clubs.add(club.id)

    @precondition(lambda self: any(e.director == "director" for e in self.events))
    @rule(data=st.data())
    def an_evening_joins_a_club(self, data: st.DataObject) -> None:
        """An evening the director's phone directs joins one of its clubs (a club begun
        first when it has none)."""
        owned = [c for c in self.clubs if c.owner == "director"]
        club = data.draw(st.sampled_from(owned)) if owned else self._begin(data.draw(st.booleans()))
        form = self.phone["director"].form(f"/clubs/{club.id}", "/events")
        self.touched_clubs.add(club.id)
        if form is None:  # every evening this phone directs belongs to a club
            return
        event = data.draw(st.sampled_from(form.options["event"]))
        answer = self.phone["director"].submit(form, event=event)
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        club.events.append(event)

    @precondition(lambda self: any(c.token for c in self.clubs))
    @rule(data=st.data(), name=st.sampled_from(["Ann", " ann ", "Bob", "Annie", "Zed"]))
    def link_a_spelling_through_the_api(self, data: st.DataObject, name: str) -> None:
        club = data.draw(st.sampled_from(self.clubs))
        self.touched_clubs.add(club.id)
        known = sorted({g for g in club.group.values()})
        target = data.draw(st.sampled_from([None, *known]))
        stored = self._stored_club(club)
        member = None
        if target is not None:
            spelling = next(s for s, g in club.group.items() if g == target)
            member = next(m["id"] for m in stored["club"]["members"] if spelling in map(fold, m["spellings"]))
        answer = self.phone["watcher"].post(
            f"/api/v1/clubs/{club.id}/members",
            json={"spelling": name, "member": member},
            headers={"Authorization": f"Bearer {club.token}"},
        )
        assert answer.status_code == 200, answer.get_data(as_text=True)
        folded = fold(name)
        before = club.group.get(folded)
        if target is not None and before == target:
            return  # already so: nothing written
        now = target if target is not None else next(_groups)
        club.group[folded] = now
        if club.owner == "director":
            self._learn_lines(club, folded, before, now)

    @precondition(lambda self: any(c.owner == "director" and c.events for c in self.clubs))
    @rule(data=st.data())
    def decide_a_new_name(self, data: st.DataObject) -> None:
        club = data.draw(st.sampled_from([c for c in self.clubs if c.owner == "director" and c.events]))
        self.touched_clubs.add(club.id)
        page = self._club_page(club)
        forms = [f for f in forms_of(page) if f.action.endswith("/link")]
        if not forms:
            return
        form = data.draw(st.sampled_from(forms))
        chosen = data.draw(st.sampled_from(form.options["member"]))
        stored = self._stored_club(club)
        answer = self.phone["director"].submit(form, member=chosen)
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        folded = fold(form.fields["spelling"])
        if chosen == "new":
            now = next(_groups)
        else:
            member = next(m for m in stored["club"]["members"] if m["id"] == chosen)
            now = club.group[fold(member["spellings"][0])]
        club.group[folded] = now
        self._learn_lines(club, folded, None, now)

    @precondition(lambda self: any(c.owner == "director" for c in self.clubs))
    @rule(data=st.data())
    def split_a_spelling_off(self, data: st.DataObject) -> None:
        club = data.draw(st.sampled_from([c for c in self.clubs if c.owner == "director"]))
        self.touched_clubs.add(club.id)
        forms = [f for f in forms_of(self._club_page(club)) if f.action.endswith("/split")]
        if not forms:
            return
        form = data.draw(st.sampled_from(forms))
        answer = self.phone["director"].submit(form)
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        folded = fold(form.fields["spelling"])
        before, now = club.group[folded], next(_groups)
        club.group[folded] = now
        self._learn_lines(club, folded, before, now)

    @precondition(lambda self: any(c.decisions for c in self.clubs))
    @rule(data=st.data())
    def undo_a_decision(self, data: st.DataObject) -> None:
        club = data.draw(st.sampled_from([c for c in self.clubs if c.decisions]))
        self.touched_clubs.add(club.id)
        line = data.draw(st.sampled_from(sorted(club.decisions)))
        spelling, now, before, undone = club.decisions[line]
        answer = self.phone[club.owner].post(
            f"/clubs/{club.id}/undo/{line}", data={"key": f"undo-{line}-{len(club.decisions)}"}
        )
        if undone or club.group.get(spelling) != now:
            assert answer.status_code == 422, answer.status_code
            return
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        club.decisions[line] = (spelling, now, before, True)
        if before is None:
            del club.group[spelling]
        else:
            club.group[spelling] = before

    @precondition(lambda self: any(c.owner == "director" for c in self.clubs))
    @rule(
        data=st.data(),
        count=st.sampled_from(["net", "average", "placings"]),
        best=st.sampled_from(["", "1", "2"]),
    )
    def add_a_season(self, data: st.DataObject, count: str, best: str) -> None:
        club = data.draw(st.sampled_from([c for c in self.clubs if c.owner == "director"]))
        self.touched_clubs.add(club.id)
        form = {
            "name": "Winter",
            "starts": "2000-01-01",
            "ends": "2099-12-31",
            "count": count,
            "best": best,
            "min_evenings": "0",
        }
        answer = self.phone["director"].post(
            f"/clubs/{club.id}/seasons", data={**form, "key": f"s{len(club.seasons)}"}
        )
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        club.seasons.append(answer.headers["Location"])

    @precondition(lambda self: self.clubs)
    @rule(data=st.data())
    def publish_or_make_private(self, data: st.DataObject) -> None:
        """The owner turns the season pages public or private (from the page, or the API)."""
        club = data.draw(st.sampled_from(self.clubs))
        self.touched_clubs.add(club.id)
        if club.owner == "director":
            form = self.phone["director"].form(f"/clubs/{club.id}", "/public")
            assert form is not None
            assert acknowledged(self.phone["director"].submit(form))
        else:
            answer = self.phone["bob"].post(
                f"/api/v1/clubs/{club.id}/public",
                json={"public": not club.public},
                headers={"Authorization": f"Bearer {club.token}"},
            )
            assert answer.status_code == 200 and answer.get_json()["club"]["public"] is not club.public
        club.public = not club.public

    # --- a season's calendar, counting and evenings (issue 36, the three writes after it) --

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
            form = self.phone["director"].form(season, "/events")
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

    # --- after every step ------------------------------------------------------------------

    @invariant()
    def kept_ladders_are_fresh(self) -> None:
        """After every step, every club's kept evenings (changed by the step's own
        transaction) and its seasons' ladders equal the ones computed from the stored
        games: read from the database, no page opened."""
        if not getattr(self, "clubs", None):
            return
        with store.opened(self.app.config["DATABASE_URL"]) as db:
            for club in self.clubs:
                assert_ladder_is_fresh(db, club.id, [int(url.rsplit("/", 1)[1]) for url in club.seasons])

    def _club_pages(self, club: Club) -> None:
        stored = self._stored_club(club)
        partition = sorted(sorted(fold(s) for s in m["spellings"]) for m in stored["club"]["members"])
        groups: dict[int, list[str]] = {}
        for spelling, group in club.group.items():
            groups.setdefault(group, []).append(spelling)
        assert partition == sorted(sorted(g) for g in groups.values()), (partition, club.group)
        # A club begun through the API is its owner's by a token: the API phone's pages
        # hold no owner's right, so a private one is refused there as to a stranger.
        sees = club.public or club.owner == "director"
        if sees:
            self._club_page(club)
        else:
            assert self.phone[club.owner].get(f"/clubs/{club.id}").status_code == 403
        stranger = self.phone["watcher"].get(f"/clubs/{club.id}")
        assert stranger.status_code == (200 if club.public else 403)
        for url in club.seasons:
            season_id = url.rsplit("/", 1)[1]
            owner = self.phone[club.owner]
            assert owner.get(url).status_code == (200 if sees else 403)
            calendar = None
            if sees:
                feed = owner.get(url + "/calendar.ics")
                assert feed.status_code == 200 and feed.data.startswith(b"BEGIN:VCALENDAR")
                calendar = feed.data
                printed = owner.get(url + "/ladder.pdf")
                assert printed.status_code == 200 and printed.data.startswith(b"%PDF")
            body = (
                self.phone["watcher"]
                .get(
                    f"/api/v1/clubs/{club.id}/seasons/{season_id}",
                    headers={"Authorization": f"Bearer {club.token}"},
                )
                .get_json()
            )
            self._ladder_counts_each_members_evenings(club, body)
            self._calendar_is_the_models(club, url, body, calendar)
            for line in body["ladder"][:3] if sees else ():  # a member's season: page, CSV, JSON
                page = f"{url}/members/{line['member']}"
                assert owner.get(page).status_code == 200
                assert owner.get(page + "/season.csv").status_code == 200
                mine = owner.get(page + "/season.json").get_json()
                assert len(mine["evenings"]) == line["evenings"], (mine, line)

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

    def _ladder_counts_each_members_evenings(self, club: Club, body: dict[str, Any]) -> None:
        played: dict[str, int] = {}
        for evening in body["evenings"]:
            if not evening["winners"]:
                continue
            standings = (
                self.phone["watcher"].get(f"/api/v1/events/{evening['event']}").get_json()["standings"]
            )
            keys = {
                f"g{club.group[fold(s['player'])]}"
                if fold(s["player"]) in club.group
                else "guest:" + fold(s["player"])
                for s in standings
            }
            for key in keys:
                played[key] = played.get(key, 0) + 1
        counted = sorted(line["evenings"] for line in body["ladder"])
        assert counted == sorted(played.values()), (body["ladder"], played)
