"""The walk's club steps (issue 36): a club begun from its page and through the API,
evenings joining it, the new names decided (a new member, or the near member the page
offers), spellings split off, decisions undone, seasons added (and, in
tests/walk/seasons.py, a season changed after it is made); then every club page,
season page, calendar feed and the API's club and season, as the owner and a stranger.

The model keeps the roster as a partition of folded spellings (which spellings are one
member) and each undoable decision's spelling and what it named before; the stored
roster must be that partition, an undo is refused exactly when the model says (undone
already, or a later decision changed the spelling), and a season's ladder counts for
every member the evenings that member played, whatever spelling they used; after every
step each club's kept evenings and seasons' ladders equal a fresh computation."""

from __future__ import annotations

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
from tests.walk.seasons import Plan, SeasonSteps

_groups = itertools.count(1)
_keys = itertools.count(1)


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


class ClubSteps(SeasonSteps):
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
        """The history line a decision just made (the undo form the model knows no line of:
        the page also offers to undo the owner's season decisions, ``owner_lines``)."""
        lines = [int(n) for n in re.findall(r'action="/clubs/\w+/undo/(\d+)"', self._club_page(club))]
        fresh = [n for n in lines if n not in club.decisions and n not in club.owner_lines]
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
        form = self.phone["director"].form(f"/clubs/{club.id}", "/events", ending=True)
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
            # A key of its own: the same key again is a resend, answered as the first was.
            f"/clubs/{club.id}/undo/{line}",
            data={"key": f"undo-{line}-{next(_keys)}"},
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
