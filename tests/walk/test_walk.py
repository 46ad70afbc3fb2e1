"""The walk: a model-based test of the whole app (issue "One discipline").

A hypothesis state machine plays random sequences of every write the app has, from the
pages (the forms they offer, as a phone posts them) and from the API, with two scorers'
phones, a watcher's and a director's: games and events started, boxes recorded,
corrected, deleted and undone (by counts), forms sent twice, games ended, house rules
changed, names merged and their merges undone, penalties, seat swaps, replacements, late
entries and withdrawals, rounds closed and seated, codes renewed.

After every step it opens every page, poll, export and PDF of every game and event the
step touched, as a scorer, a watcher and the director, and holds what a user holds:
- no answer is a 5xx;
- every acknowledged write is stored exactly once (the model counts the boxes);
- the sheet's totals are the engine's score of the stored boxes;
- an event's standings are the sum of each player's settlements less penalties (E1);
- every event's kept standings equal a fresh computation from its stored games, and the
  standings every page and the API show are those (issue 34);
- a watcher's write is refused and changes nothing.

``make test`` runs a bounded number of examples; ``SCOREKEEPER_WALK_EXAMPLES=500`` (and
``SCOREKEEPER_WALK_STEPS``) walks longer.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from scorekeeper import engine, records, store
from scorekeeper.web import ahead, create_app
from tests.conftest import copy_database
from tests.walk.clubs import Club, ClubSteps
from tests.walk.kept import assert_kept_is_fresh
from tests.walk.phones import Phone, acknowledged
from tests.web.conftest import preset_defaults

EXAMPLES = int(os.environ.get("SCOREKEEPER_WALK_EXAMPLES", "12"))
STEPS = int(os.environ.get("SCOREKEEPER_WALK_STEPS", "14"))

NAMES = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Zoe\u0308", "Ivy"]
"""Entrants and players; one with a separate accent (NFD), as a phone may type it."""


@dataclass
class Game:
    """What the model knows of a stored game: its players, live boxes, who scores it."""

    id: str
    players: list[str]
    boxes: int = 0
    token: str | None = None
    event: str | None = None
    last: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Per phone, the last write it made here (kind, box id): what its undo takes back."""


@dataclass
class Event:
    """What the model knows of an event: who directs it, its standing penalties."""

    id: str
    director: str
    token: str | None = None
    penalties: int = 0
    keys: dict[str, tuple[str, int]] = field(default_factory=dict)
    counts_for: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per game, each replaced seat and the player its result counts for (E5)."""


def _counts(by_index: int, players: list[str], ending: str, draw: Callable[[Any], Any]) -> dict[int, int]:
    counts = {}
    for index, _ in enumerate(players):
        if index == by_index:
            counts[index] = 0 if ending == "gin" else draw(st.integers(0, 10))
        else:
            counts[index] = draw(st.integers(0, 60))
    return counts


class Walk(ClubSteps, RuleBasedStateMachine):
    """Every write, then every page (a club's steps: tests/walk/clubs.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.games: list[Game] = []
        self.events: list[Event] = []
        self.clubs: list[Club] = []
        self.touched_clubs: set[str] = set()
        self.touched_games: set[str] = set()
        self.touched_events: set[str] = set()
        self.last_form: tuple[str, str, dict[str, str], Game, str] | None = None
        self.last_director_form: tuple[Event, str, dict[str, str]] | None = None

    @initialize()
    def phones(self) -> None:
        app = WALK_APP.new()
        self.app = app
        self.phone = {name: Phone(name, app.test_client()) for name in ("ann", "bob", "watcher", "director")}

    def teardown(self) -> None:
        """The example's app reads ahead no more: its thread ends now, not 30 s on."""
        if hasattr(self, "app"):
            ahead.stop_reading(self.app)

    # --- helpers -------------------------------------------------------------------------

    def _game(self, draw: Callable[[Any], Any], playable: bool = False) -> Game:
        return draw(st.sampled_from(self.games))  # type: ignore[no-any-return]

    def _scorer(self, game: Game) -> Phone:
        return self.phone["director" if game.event else "ann"]

    def _stored(self, game: Game) -> dict[str, Any]:
        answer = self.phone["watcher"].get(f"/api/v1/games/{game.id}")
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return answer.get_json()  # type: ignore[no-any-return]

    def _touch(self, game: Game) -> None:
        self.touched_games.add(game.id)
        if game.event:
            self.touched_events.add(game.event)

    # --- games ---------------------------------------------------------------------------

    @rule(data=st.data(), size=st.sampled_from([2, 3]))
    def start_game_from_the_page(self, data: st.DataObject, size: int) -> None:
        players = data.draw(st.lists(st.sampled_from(NAMES), min_size=size, max_size=size, unique=True))
        preset = "jersey-scarne" if size == 3 else "gin"
        form = {"rules": preset, "dealer": "0", "stake": data.draw(st.sampled_from(["", "0.05"]))}
        form.update({f"players-{i}": name for i, name in enumerate(players)})
        form.update(preset_defaults(preset))
        answer = self.phone["ann"].post(f"/games/new?rules={preset}", data=form)
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        game = Game(answer.headers["Location"].rsplit("/", 1)[1], players)
        self.games.append(game)
        self._touch(game)

    @rule(data=st.data())
    def start_game_through_the_api(self, data: st.DataObject) -> None:
        players = data.draw(st.lists(st.sampled_from(NAMES), min_size=3, max_size=3, unique=True))
        body = {"rules": "jersey-scarne", "players": players, "dealer": players[0], "boxes": []}
        answer = self.phone["bob"].post("/api/v1/games", json=body)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        created = answer.get_json()
        game = Game(created["id"], players, token=created["edit_token"])
        self.games.append(game)
        self._touch(game)

    @precondition(lambda self: self.games)
    @rule(data=st.data(), ending=st.sampled_from(["knock", "knock", "gin", "misdeal"]))
    def record_a_box_on_the_page(self, data: st.DataObject, ending: str) -> None:
        self._record_on_page(data.draw(st.sampled_from(self.games)), ending, data.draw)

    def _record_on_page(self, game: Game, ending: str, draw: Callable[[Any], Any]) -> None:
        phone = self._scorer(game) if game.token is None else self.phone["ann"]
        form = phone.form(f"/games/{game.id}/boxes/new", "/boxes/new")
        if form is None:  # not this phone's game to score, or over: nothing offered
            return
        self._touch(game)
        fields = self._box_fields(game, ending, draw)
        answer = phone.submit(form, **fields)
        if acknowledged(answer):
            game.boxes += 1
            game.last[phone.name] = ("recorded", self._last_box_id(game))
        self.last_form = (phone.name, form.action, {**form.fields, **fields}, game, "record")

    def _box_fields(self, game: Game, ending: str, draw: Callable[[Any], Any]) -> dict[str, str]:
        fields = {"ending": ending}
        if ending == "misdeal":
            return fields
        by = draw(st.integers(0, len(game.players) - 1))
        fields["by"] = game.players[by]
        fields.update(
            {f"hands-{i}-count": str(c) for i, c in _counts(by, game.players, ending, draw).items()}
        )
        return fields

    def _last_box_id(self, game: Game) -> int:
        stored = self._stored(game)
        return int(stored["game"]["boxes"][-1]["id"])

    @precondition(lambda self: any(g.token for g in self.games))
    @rule(data=st.data(), ending=st.sampled_from(["knock", "gin"]), twice=st.booleans())
    def record_a_box_through_the_api(self, data: st.DataObject, ending: str, twice: bool) -> None:
        game = data.draw(st.sampled_from([g for g in self.games if g.token]))
        self._touch(game)
        by = data.draw(st.integers(0, 2))
        counts = _counts(by, game.players, ending, data.draw)
        body = {
            "ending": ending,
            "by": game.players[by],
            "hands": {p: {"count": counts[i]} for i, p in enumerate(game.players)},
        }
        key = f"k{data.draw(st.integers(0, 10**9))}"
        headers = {"Authorization": f"Bearer {game.token}", "Idempotency-Key": key}
        phone = self.phone["bob"]
        answer = phone.post(f"/api/v1/games/{game.id}/boxes", json=body, headers=headers)
        if answer.status_code in (200, 201):
            game.boxes += 1
        if twice:
            again = phone.post(f"/api/v1/games/{game.id}/boxes", json=body, headers=headers)
            assert again.status_code == answer.status_code or again.status_code < 300, (
                answer.status_code,
                again.status_code,
            )

    @precondition(lambda self: any(g.token for g in self.games))
    @rule(data=st.data())
    def record_a_gin_by_cards_through_the_api(self, data: st.DataObject) -> None:
        """A box given as cards: the engine arranges the gin hand (C9)."""
        game = data.draw(st.sampled_from([g for g in self.games if g.token]))
        self._touch(game)
        by = data.draw(st.sampled_from(game.players))
        hands: dict[str, Any] = {p: {"count": data.draw(st.integers(0, 60))} for p in game.players}
        hands[by] = {"cards": ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "9D", "10D", "JD"]}
        answer = self.phone["bob"].post(
            f"/api/v1/games/{game.id}/boxes",
            json={"ending": "gin", "by": by, "hands": hands},
            headers={"Authorization": f"Bearer {game.token}"},
        )
        if answer.status_code == 201:
            game.boxes += 1

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def rematch(self, data: st.DataObject) -> None:
        """A game over offers a rematch: a new game of the same players."""
        game = data.draw(st.sampled_from(self.games))
        phone = self._scorer(game)
        form = phone.form(f"/games/{game.id}", "/rematch")
        if form is None:
            return
        answer = phone.submit(form)
        self._touch(game)
        if acknowledged(answer):
            location = answer.headers.get("Location") or answer.headers.get("HX-Redirect") or ""
            new = Game(location.rstrip("/").rsplit("/", 1)[1], list(game.players))
            self.games.append(new)
            self._touch(new)

    @precondition(lambda self: self.last_form is not None and self.last_form[4] == "record")
    @rule(key=st.integers(0, 10**9))
    def send_a_box_entered_offline(self, key: int) -> None:
        """The service worker's offline form: the last box form again with a key made on
        the phone (issue 33): stored once as a new box if its number is still the next,
        else refused with what stands there; never a spent key, never a 5xx."""
        assert self.last_form is not None
        name, action, fields, game, _ = self.last_form
        self._touch(game)
        answer = self.phone[name].post(action, data={**fields, "key": f"offline-{key}"})
        if acknowledged(answer):
            game.boxes += 1
            game.last[name] = ("recorded", self._last_box_id(game))
        self.last_form = None

    @precondition(lambda self: any(not g.token for g in self.games))
    @rule(data=st.data())
    def renew_a_games_codes(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from([g for g in self.games if not g.token]))
        phone = self._scorer(game)
        form = phone.form(f"/games/{game.id}/share", "/codes")
        if form is not None:
            self._touch(game)
            phone.submit(form)

    @precondition(lambda self: any(not g.token and not g.event for g in self.games))
    @rule(data=st.data())
    def split_a_name(self, data: st.DataObject) -> None:
        """The scorer counts a player's name in one game as someone else (and back)."""
        game = data.draw(st.sampled_from([g for g in self.games if not g.token and not g.event]))
        name = data.draw(st.sampled_from(game.players))
        phone = self.phone["ann"]
        form = phone.form(f"/players/{name}", "/split")
        if form is None:
            return
        self._touch(game)
        answer = phone.submit(form, game=game.id, person=f"{name} Two")
        if acknowledged(answer) and data.draw(st.booleans()):
            undo = phone.form(answer.headers.get("Location") or f"/players/{name}", "/undo")
            if undo is not None:
                phone.submit(undo)

    @precondition(lambda self: self.last_form is not None)
    @rule()
    def send_the_last_form_again(self) -> None:
        """A double tap or a resend after a dropped answer: stored once."""
        assert self.last_form is not None
        name, action, fields, game, _ = self.last_form
        self._touch(game)
        self.phone[name].post(action, data=fields)

    @precondition(lambda self: any(g.boxes for g in self.games))
    @rule(data=st.data(), ending=st.sampled_from(["knock", "gin"]))
    def correct_a_box(self, data: st.DataObject, ending: str) -> None:
        game = data.draw(st.sampled_from([g for g in self.games if g.boxes]))
        phone = self._scorer(game) if game.token is None else self.phone["director"]
        box = data.draw(st.sampled_from(self._stored(game)["game"]["boxes"]))
        form = phone.form(f"/games/{game.id}/boxes/{box['id']}/edit", f"/boxes/{box['id']}/edit")
        if form is None:
            return
        self._touch(game)
        fields = self._box_fields(game, ending, data.draw)
        answer = phone.submit(form, **fields)
        if acknowledged(answer):
            game.last[phone.name] = ("edited", int(box["id"]))
        self.last_form = (phone.name, form.action, {**form.fields, **fields}, game, "correct")

    @precondition(lambda self: any(g.boxes for g in self.games))
    @rule(data=st.data())
    def delete_a_box(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from([g for g in self.games if g.boxes]))
        phone = self._scorer(game) if game.token is None else self.phone["director"]
        box = data.draw(st.sampled_from(self._stored(game)["game"]["boxes"]))
        form = phone.form(f"/games/{game.id}/boxes/{box['id']}", "/delete")
        if form is None:
            return
        self._touch(game)
        answer = phone.submit(form)
        if acknowledged(answer):
            game.boxes -= 1
            game.last[phone.name] = ("deleted", int(box["id"]))
        self.last_form = (phone.name, form.action, dict(form.fields), game, "delete")

    @precondition(lambda self: any(g.last for g in self.games))
    @rule(data=st.data())
    def undo_the_last_write(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from([g for g in self.games if g.last]))
        name = data.draw(st.sampled_from(sorted(game.last)))
        kind, box_id = game.last[name]
        form = self.phone[name].form(f"/games/{game.id}", f"/boxes/{box_id}/undo")
        if form is None:  # another write since: the sheet offers no undo
            return
        self._touch(game)
        answer = self.phone[name].submit(form)
        if acknowledged(answer):
            game.boxes += {"recorded": -1, "deleted": 1}.get(kind, 0)
            del game.last[name]
        self.last_form = (name, form.action, dict(form.fields), game, "undo")

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def end_a_game_by_agreement(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(self.games))
        phone = self._scorer(game)
        form = phone.form(f"/games/{game.id}", "/end")
        if form is None:
            return
        self._touch(game)
        phone.submit(form)
        game.last.clear()

    @precondition(lambda self: any(not g.event and not g.token for g in self.games))
    @rule(data=st.data(), bonus=st.sampled_from(["10", "20", "25"]))
    def change_house_rules(self, data: st.DataObject, bonus: str) -> None:
        game = data.draw(st.sampled_from([g for g in self.games if not g.event and not g.token]))
        form = self.phone["ann"].form(f"/games/{game.id}/rules", "/rules")
        if form is None:
            return
        self._touch(game)
        self.phone["ann"].submit(form, setting_underknock_bonus=bonus)
        game.last.clear()

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def a_watcher_tries_to_write(self, data: st.DataObject) -> None:
        """Nothing another phone may not do is done: a watcher's box is refused."""
        game = data.draw(st.sampled_from(self.games))
        before = len(self._stored(game)["game"]["boxes"])
        fields = {"version": "0", "number": str(before + 1), "key": "w"}
        fields.update(self._box_fields(game, "knock", data.draw))
        answer = self.phone["watcher"].post(f"/games/{game.id}/boxes/new", data=fields)
        assert answer.status_code == 403, answer.status_code
        assert len(self._stored(game)["game"]["boxes"]) == before

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def merge_two_names(self, data: st.DataObject) -> None:
        """The scorer counts one name as another in its games (issue 22), then undoes it."""
        game = data.draw(
            st.sampled_from([g for g in self.games if not g.token and not g.event] or self.games)
        )
        first, second = data.draw(
            st.lists(st.sampled_from(game.players), min_size=2, max_size=2, unique=True)
        )
        phone = self.phone["ann"]
        page = phone.get(f"/players/{first}")
        if page.status_code != 200:
            return
        self._touch(game)
        answer = phone.post(f"/players/{first}/merge", data={"name": second})
        if acknowledged(answer) and data.draw(st.booleans()):
            form = phone.form(answer.headers.get("Location") or f"/players/{first}", "/undo")
            if form is not None:
                phone.submit(form)

    # --- events --------------------------------------------------------------------------

    @rule(data=st.data(), ends=st.sampled_from(["game", "boxes", "minutes"]))
    def start_an_event_from_the_page(self, data: st.DataObject, ends: str) -> None:
        entrants = data.draw(st.lists(st.sampled_from(NAMES), min_size=6, max_size=8, unique=True))
        form = {
            "rules": "jersey-scarne",
            "name": "Walk night",
            "date": "2026-12-01",
            "place": "Back room",
            "table_size": "3",
            "rounds": "3",
            "round_ends": ends,
            "round_limit": "" if ends == "game" else "2",
            "standings": "net",
            "tie_break_1": "won",
            "tie_break_2": "boxes",
            "tie_break_3": "head_to_head",
            "entrants": "\n".join(entrants),
        }
        form.update(preset_defaults("jersey-scarne"))
        answer = self.phone["director"].post("/events/new?rules=jersey-scarne", data=form)
        assert acknowledged(answer), answer.get_data(as_text=True)[:3000]
        event = Event(answer.headers["Location"].rsplit("/", 1)[1], "director")
        self.events.append(event)
        self._seated(event)

    @rule(data=st.data())
    def start_an_event_through_the_api(self, data: st.DataObject) -> None:
        entrants = data.draw(st.lists(st.sampled_from(NAMES), min_size=6, max_size=7, unique=True))
        body = {
            "name": "API night",
            "rules": "jersey-scarne",
            "table_size": 3,
            "rounds": 2,
            "round_ends": {"game": True},
            "entrants": "\n".join(entrants) if data.draw(st.booleans()) else entrants,
        }
        answer = self.phone["bob"].post("/api/v1/events", json=body)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        event = Event(answer.get_json()["id"], "bob", token=answer.get_json()["director_token"])
        self.events.append(event)
        self._seated(event)

    def _event(self, event: Event) -> dict[str, Any]:
        answer = self.phone["watcher"].get(f"/api/v1/events/{event.id}")
        assert answer.status_code == 200
        return answer.get_json()  # type: ignore[no-any-return]

    def _seated(self, event: Event) -> None:
        """The event's games of its current round join the model (as the director's)."""
        self.touched_events.add(event.id)
        known = {g.id for g in self.games}
        for table in self._event(event)["tables"]:
            if table["game"] not in known:
                game = Game(table["game"], list(table["players"]), event=event.id)
                game.boxes = len(self._stored(game)["game"]["boxes"])
                self.games.append(game)
            self.touched_games.add(table["game"])

    def _director_form(self, event: Event, action: str) -> Any:
        return self.phone[event.director].form(f"/events/{event.id}/director", action)

    @precondition(lambda self: self.events)
    @rule(data=st.data(), points=st.integers(1, 30))
    def give_a_penalty(self, data: st.DataObject, points: int) -> None:
        event = data.draw(st.sampled_from(self.events))
        self.touched_events.add(event.id)
        players = [s["player"] for s in self._event(event)["standings"]]
        player = data.draw(st.sampled_from(players))
        if event.token:
            key = f"p{points % 3}"  # keys come back: the same content is taken once, other content refused
            answer = self.phone["bob"].post(
                f"/api/v1/events/{event.id}/penalties",
                json={"player": player, "points": points, "note": "slow play"},
                headers={"Authorization": f"Bearer {event.token}", "Idempotency-Key": key},
            )
            earlier = event.keys.get(key)
            if earlier is None and answer.status_code == 201:
                event.keys[key] = (player, points)
                event.penalties += 1
            elif earlier is not None:
                assert answer.status_code == (201 if earlier == (player, points) else 422), answer.status_code
        else:
            form = self._director_form(event, "/penalties")
            if form is None:
                return
            fields = {"player": player, "points": str(points), "note": "slow play"}
            answer = self.phone[event.director].submit(form, **fields)
            if acknowledged(answer):
                event.penalties += 1
            self.last_director_form = (event, form.action, {**form.fields, **fields})
        self._seated(event)

    @precondition(lambda self: self.last_director_form is not None)
    @rule()
    def send_the_directors_last_form_again(self) -> None:
        """A double tap or a resent director's form: written once (its stored key)."""
        assert self.last_director_form is not None
        event, action, fields = self.last_director_form
        self.touched_events.add(event.id)
        self.phone[event.director].post(action, data=fields)
        self._seated(event)

    @precondition(lambda self: any(e.penalties for e in self.events))
    @rule(data=st.data())
    def withdraw_a_penalty(self, data: st.DataObject) -> None:
        event = data.draw(st.sampled_from([e for e in self.events if e.penalties]))
        self.touched_events.add(event.id)
        standing = [p for p in self._event(event)["event"].get("penalties", []) if not p.get("withdrawn")]
        if not standing:
            return
        number = data.draw(st.sampled_from(standing))["id"]
        if event.token:
            answer = self.phone["bob"].post(
                f"/api/v1/events/{event.id}/penalties/{number}/withdrawal",
                json={"why": "misread"},
                headers={"Authorization": f"Bearer {event.token}"},
            )
            done = answer.status_code == 200
        else:
            form = self._director_form(event, f"/penalties/{number}/withdraw")
            if form is None:
                return
            answer = self.phone[event.director].submit(form)
            done = acknowledged(answer)
            self.last_director_form = (event, form.action, dict(form.fields))
        if done:
            event.penalties -= 1
        self._seated(event)

    @precondition(lambda self: any(not e.token for e in self.events))
    @rule(data=st.data())
    def reopen_a_table(self, data: st.DataObject) -> None:
        event = data.draw(st.sampled_from([e for e in self.events if not e.token]))
        self.touched_events.add(event.id)
        page = self.phone[event.director].get(f"/events/{event.id}/director").get_data(as_text=True)
        reopens = re.findall(rf'action="(/events/{event.id}/tables/\d+/reopen)"', page)
        if not reopens:
            return
        form = self._director_form(event, data.draw(st.sampled_from(reopens)))
        if form is not None:
            self.phone[event.director].submit(form)
            self.last_director_form = (event, form.action, dict(form.fields))
        self._seated(event)

    @precondition(lambda self: self.events)
    @rule(data=st.data())
    def swap_two_seats(self, data: st.DataObject) -> None:
        event = data.draw(st.sampled_from(self.events))
        self.touched_events.add(event.id)
        seated = [p for t in self._event(event)["tables"] for p in t["players"]]
        if len(seated) < 2:
            return
        a, b = data.draw(st.lists(st.sampled_from(seated), min_size=2, max_size=2, unique=True))
        if event.token:
            self.phone["bob"].post(
                f"/api/v1/events/{event.id}/swaps",
                json={"players": [a, b]},
                headers={"Authorization": f"Bearer {event.token}"},
            )
        else:
            form = self._director_form(event, "/swap")
            if form is None:
                return
            self.phone[event.director].submit(form, first=a, second=b)
            self.last_director_form = (event, form.action, {**form.fields, "first": a, "second": b})
        self._seated(event)

    @precondition(lambda self: self.events)
    @rule(data=st.data(), by=st.sampled_from(["Sub", "Rex", "Uma"]), theirs=st.booleans())
    def replace_a_player(self, data: st.DataObject, by: str, theirs: bool) -> None:
        """Before a table's first box the table plays a new game; once it has one (E5)
        the game is kept and ``by`` plays the seat from the next box, its result
        counting for the player who leaves or, when ``theirs``, for ``by``."""
        event = data.draw(st.sampled_from(self.events))
        self.touched_events.add(event.id)
        body = self._event(event)
        seated = [(t, p) for t in body["tables"] for p in t["players"]]
        if not seated:
            return
        table, player = data.draw(st.sampled_from(seated))
        model = next((g for g in self.games if g.id == table["game"]), None)
        first_box = data.draw(st.sampled_from([True, True, False]))
        if table["playing"] and not table["boxes"] and model is not None and first_box:
            self._record_on_page(model, "knock", data.draw)  # mid-game from here (E5)
            table = next(t for t in self._event(event)["tables"] if t["game"] == table["game"])
        active = set(body["event"]["entrants"]) - set(body["withdrawn"])
        before = self._substitutes(table["game"])
        at_table = set(table["players"]) | {s["by"] for s in before}
        mid_game = table["playing"] and table["boxes"] > 0 and by not in active and by not in at_table
        owner = by if theirs else player
        if event.token:
            self.phone["bob"].post(
                f"/api/v1/events/{event.id}/replacements",
                json={"player": player, "by": by, **({"counts_for": by} if theirs else {})},
                headers={"Authorization": f"Bearer {event.token}"},
            )
        else:
            form = self._director_form(event, "/replace")
            if form is None:
                return
            fields = {"player": player, "by": by, "counts_for": "by" if theirs else "player"}
            self.phone[event.director].submit(form, **fields)
            self.last_director_form = (event, form.action, {**form.fields, **fields})
        after = self._substitutes(table["game"])
        if mid_game:
            assert after[-1:] == [
                {"seat": player, "by": by, "from_box": table["boxes"] + 1, "counts_for": owner}
            ], (
                after,
                table,
            )
            event.counts_for.setdefault(table["game"], {})[player] = owner
            self.touched_games.add(table["game"])
        else:
            assert after == before, (after, before, table)
        self._seated(event)

    def _substitutes(self, game_id: str) -> list[dict[str, Any]]:
        answer = self.phone["watcher"].get(f"/api/v1/games/{game_id}")
        assert answer.status_code == 200
        return answer.get_json()["substitutes"]  # type: ignore[no-any-return]

    @precondition(lambda self: self.events)
    @rule(data=st.data(), late=st.sampled_from(["Kim", "Lou", "Max"]), leaves=st.booleans())
    def late_entry_or_withdrawal(self, data: st.DataObject, late: str, leaves: bool) -> None:
        event = data.draw(st.sampled_from(self.events))
        self.touched_events.add(event.id)
        players = [s["player"] for s in self._event(event)["standings"] if not s["withdrawn"]]
        gone = data.draw(st.sampled_from(players)) if leaves and players else ""
        if event.token:
            auth = {"Authorization": f"Bearer {event.token}"}
            if gone:
                self.phone["bob"].post(
                    f"/api/v1/events/{event.id}/withdrawals", json={"name": gone}, headers=auth
                )
            else:
                self.phone["bob"].post(
                    f"/api/v1/events/{event.id}/entrants", json={"name": late}, headers=auth
                )
        else:
            form = self._director_form(event, "/entrants")
            if form is None:
                return
            fields = {"add": "" if gone else late, "withdraw": gone}
            self.phone[event.director].submit(form, **fields)
            self.last_director_form = (event, form.action, {**form.fields, **fields})

    @precondition(lambda self: self.events)
    @rule(data=st.data(), force=st.booleans())
    def close_the_round(self, data: st.DataObject, force: bool) -> None:
        event = data.draw(st.sampled_from(self.events))
        self.touched_events.add(event.id)
        for table in self._event(event)["tables"]:
            self.touched_games.add(table["game"])
        if event.token:
            number = self._event(event)["round"]
            self.phone["bob"].post(
                f"/api/v1/events/{event.id}/rounds/{number}/close",
                json={"force": force},
                headers={"Authorization": f"Bearer {event.token}"},
            )
            self.phone["bob"].post(
                f"/api/v1/events/{event.id}/rounds", headers={"Authorization": f"Bearer {event.token}"}
            )
        else:
            form = self._director_form(event, "/close")
            if form is None:
                return
            fields = {"force": "y"} if force else {}
            self.phone[event.director].submit(form, **fields)
            self.last_director_form = (event, form.action, {**form.fields, **fields})
        self._seated(event)

    @precondition(lambda self: any(not e.token for e in self.events))
    @rule(data=st.data())
    def end_a_table(self, data: st.DataObject) -> None:
        event = data.draw(st.sampled_from([e for e in self.events if not e.token]))
        self.touched_events.add(event.id)
        page = self.phone[event.director].get(f"/events/{event.id}/director").get_data(as_text=True)
        ends = re.findall(rf'action="(/events/{event.id}/tables/\d+/end)"', page)
        if not ends:
            return
        form = self._director_form(event, data.draw(st.sampled_from(ends)))
        if form is not None:
            self.phone[event.director].submit(form)
            self.last_director_form = (event, form.action, dict(form.fields))
        self._seated(event)

    @precondition(lambda self: any(not e.token for e in self.events))
    @rule(data=st.data())
    def start_the_round(self, data: st.DataObject) -> None:
        """E7: a timed round's clock waits for the director's "Start round n" (or the
        round's first box); the start is one write, its key stored like any other."""
        event = data.draw(st.sampled_from([e for e in self.events if not e.token]))
        self.touched_events.add(event.id)
        form = self._director_form(event, f"/rounds/{self._event(event)['round']}/start")
        if form is None:
            return
        assert self._event(event)["clock"] is None, "a round offered to start already runs"
        answer = self.phone[event.director].submit(form)
        assert acknowledged(answer), answer.get_data(as_text=True)[:2000]
        clock = self._event(event)["clock"]
        assert clock is not None and clock["minutes"] == 2, clock
        self.last_director_form = (event, form.action, dict(form.fields))

    @precondition(lambda self: any(e.token for e in self.events))
    @rule(data=st.data(), twice=st.booleans())
    def start_the_round_through_the_api(self, data: st.DataObject, twice: bool) -> None:
        """The same start from the API (tests/web/test_event_api.py starts a timed round
        step by step): a start sent again keeps the first clock, an untimed round has
        none to start and keeps none."""
        event = data.draw(st.sampled_from([e for e in self.events if e.token]))
        self.touched_events.add(event.id)
        before = self._event(event)
        if before.get("finished"):
            return
        url = f"/api/v1/events/{event.id}/rounds/{before['round']}/start"
        auth = {"Authorization": f"Bearer {event.token}"}
        for _ in range(2 if twice else 1):
            answer = self.phone["bob"].post(url, headers=auth)
            assert answer.status_code == 200, answer.get_json()
        clock = self._event(event)["clock"]
        timed = "minutes" in (before["event"].get("round_ends") or {})
        assert timed or clock is None, clock
        assert before["clock"] is None or clock == before["clock"], (before["clock"], clock)

    @precondition(lambda self: any(not e.token for e in self.events))
    @rule(data=st.data())
    def renew_the_directors_codes(self, data: st.DataObject) -> None:
        event = data.draw(st.sampled_from([e for e in self.events if not e.token]))
        self.touched_events.add(event.id)
        form = self._director_form(event, "/director/codes")
        if form is not None:
            self.phone[event.director].submit(form)

    # --- after every step: every page ----------------------------------------------------

    @invariant()
    def every_page_answers(self) -> None:
        if not hasattr(self, "phone"):
            return
        opened: set[str] = set()  # a game at a touched event's table is opened once
        for event in [e for e in self.events if e.id in self.touched_events]:
            self._event_pages(event, opened)
        for game in [g for g in self.games if g.id in self.touched_games and g.id not in opened]:
            self._game_pages(game)
        for club in self.clubs:
            if club.id in self.touched_clubs or self.touched_events & set(club.events):
                self._club_pages(club)
        self.touched_clubs.clear()
        self.touched_games.clear()
        self.touched_events.clear()

    @invariant()
    def kept_standings_are_fresh(self) -> None:
        """After every step, every event's kept standings (changed by the step's own
        transaction) are the ones computed from scratch from its stored games."""
        if not self.events:
            return
        with store.opened(self.app.config["DATABASE_URL"]) as db:
            for event in self.events:
                assert_kept_is_fresh(db, event.id)

    def _game_pages(self, game: Game) -> None:
        stored = self._stored(game)
        boxes = stored["game"]["boxes"]
        assert len(boxes) == game.boxes, f"model {game.boxes} boxes, stored {len(boxes)} in {game.id}"
        score = engine.score(stored["game"])
        assert stored["score"]["totals"] == score["totals"]
        for phone in (self._scorer(game), self.phone["watcher"], self.phone["bob"]):
            sheet = phone.get(f"/games/{game.id}")
            assert sheet.status_code == 200
            page = sheet.get_data(as_text=True)
            shown = {n: int(v) for n, v in re.findall(r'data-player-total="([^"]+)">(-?\d+)<', page)}
            assert shown == {p: int(score["totals"].get(p, 0)) for p in stored["game"]["players"]}, (
                shown,
                score["totals"],
            )
            version = stored["version"]
            for since in (version, version - 1):
                poll = phone.get(f"/games/{game.id}/sheet?since={since}", headers={"HX-Request": "true"})
                assert poll.status_code in (200, 204)
            phone.get(f"/games/{game.id}/share")
            for image in re.findall(r'<img class="qr" src="([^"]+)"', page):  # a scorer's, drawn apart
                drawn = phone.get(image)
                assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml", (
                    image,
                    drawn.status_code,
                )
            for box in boxes:
                assert phone.get(f"/games/{game.id}/boxes/{box['id']}").status_code == 200
        # Every code a sheet shows is served to its phone (above); the join code to no
        # watcher. (The model's scorer may hold its right as an API token, not in its
        # session: its sheet then shows no code, and the code is refused to it too.)
        scorer, watcher = self._scorer(game), self.phone["watcher"]
        join_qr, watch_qr = (f"/games/{game.id}/qr/{which}.svg" for which in ("join", "watch"))
        refused = watcher.get(join_qr)  # the join code is the scorers' alone
        assert refused.status_code == 403 and b"<svg" not in refused.data
        assert watcher.get(watch_qr).data == scorer.get(watch_qr).data
        for url in (
            f"/games/{game.id}/boxes/new",
            f"/games/{game.id}/rules",
            f"/games/{game.id}/export.json",
            f"/games/{game.id}/boxes.csv",
            f"/games/{game.id}/score.json",
            f"/games/{game.id}/join",
            f"/players/{game.players[0]}",
            "/players/",
        ):
            scorer.get(url)
        pdf = self.phone["watcher"].get(f"/games/{game.id}/sheet.pdf")
        assert pdf.status_code in (200, 422) and (pdf.status_code != 200 or pdf.data.startswith(b"%PDF"))
        api_pdf = self.phone["watcher"].get(f"/api/v1/games/{game.id}/sheet.pdf")
        assert api_pdf.status_code in (200, 422)

    def _event_pages(self, event: Event, opened: set[str]) -> None:
        body = self._event(event)
        self._standings_are_the_settlements(event, body)
        with store.opened(self.app.config["DATABASE_URL"]) as db:
            loaded = store.events.load_event(db, event.id)
            assert loaded is not None
            games = store.events.table_games(db, event.id)
            fresh = records.standings(loaded.entry, games, withdrawn=loaded.withdrawn)
        assert body["standings"] == [s.to_json() for s in fresh]
        for phone in (self.phone[event.director], self.phone["watcher"]):
            assert phone.get(f"/events/{event.id}").status_code == 200
            page = phone.get(f"/events/{event.id}/standings")
            assert page.status_code == 200
            stamp = re.search(r'data-stamp="([^"]+)"', page.get_data(as_text=True))
            if stamp:
                poll = phone.get(
                    f"/events/{event.id}/standings?since={stamp.group(1)}", headers={"HX-Request": "true"}
                )
                assert poll.status_code in (200, 204)
            for standing in body["standings"][:3]:
                phone.get(f"/events/{event.id}/player?name={standing['player']}")
            phone.get(f"/api/v1/events/{event.id}/results.csv")
            phone.get(f"/api/v1/events/{event.id}/results.json")
        director = self.phone[event.director]
        if not event.token:
            page = director.get(f"/events/{event.id}/director")
            assert page.status_code == 200
            offered = f'action="/events/{event.id}/rounds/{body["round"]}/start"' in page.get_data(
                as_text=True
            )
            # E7: offered only for a timed round whose clock does not run yet
            assert not offered or (body["clock"] is None and self._timed(body)), (offered, body["clock"])
            cards = director.get(f"/events/{event.id}/cards.pdf")
            assert cards.status_code in (200, 404)
        results = self.phone["watcher"].get(f"/events/{event.id}/results.pdf")
        assert results.status_code == 200 and results.data.startswith(b"%PDF")
        for table in body["tables"]:
            game = next((g for g in self.games if g.id == table["game"]), None)
            if game is not None and game.id not in opened:
                self._game_pages(game)
                opened.add(game.id)

    @staticmethod
    def _timed(body: dict[str, Any]) -> bool:
        """An event whose rounds last minutes, not over: a round its director may start (E7)."""
        return "minutes" in (body["event"].get("round_ends") or {}) and not body.get("finished")

    def _standings_are_the_settlements(self, event: Event, body: dict[str, Any]) -> None:
        """E1: a player's score is the sum of their settlements, less penalties (a bye
        scores the round's average, 0 under net)."""
        net: dict[str, float] = {}
        for link in body["event"].get("games", []):
            game = self.phone["watcher"].get(f"/api/v1/games/{link['game']}").get_json()
            score = engine.score(game["game"])
            players = game["game"]["players"]
            counts = event.counts_for.get(link["game"], {})  # E5: a replaced seat's player of record
            assert {s["seat"]: s["counts_for"] for s in game["substitutes"]} == counts
            if score["game_over"]:
                for line in score.get("settlement") or []:
                    to, by = counts.get(line["to"], line["to"]), counts.get(line["from"], line["from"])
                    net[to] = net.get(to, 0) + line["points"]
                    net[by] = net.get(by, 0) - line["points"]
            else:  # a game still playing counts as if ended by agreement now (E7)
                total = sum(score["totals"].get(p, 0) for p in players)
                for p in players:
                    who = counts.get(p, p)
                    net[who] = net.get(who, 0) + len(players) * score["totals"].get(p, 0) - total
        standing = [p for p in body["event"].get("penalties", []) if not p.get("withdrawn")]
        assert len(standing) == event.penalties, (standing, event.penalties)
        for penalty in standing:
            net[penalty["player"]] = net.get(penalty["player"], 0) - penalty["points"]
        for standing in body["standings"]:
            assert standing["score"] == pytest.approx(net.get(standing["player"], 0)), (
                standing,
                net,
            )


class _WalkApp:
    """One migrated database copied for every example (migrating takes a while)."""

    def __init__(self) -> None:
        self.source: Path | None = None
        self.folder: Path | None = None
        self.count = 0

    def new(self) -> Flask:
        assert self.source is not None and self.folder is not None
        self.count += 1
        url = copy_database(self.source, self.folder / f"walk-{self.count}.sqlite3")
        return create_app(
            {
                "TESTING": True,
                "DATABASE_URL": url,
                "SECRET_KEY": "walk-secret-key",
                "WTF_CSRF_ENABLED": False,
                "PDF_IN_PROCESS": True,
                # the standings read ahead, as a server reads them: a thread of the app's
                # own reads each new state while the walk asks for it (web/ahead.py)
                "READ_AHEAD_SECONDS": 0.25,
            }
        )


WALK_APP = _WalkApp()

PARTS = 3
"""The walk runs as this many tests of a third of its examples each (each walks its own
random examples), so that ``make test``'s workers share it instead of one worker walking
for minutes while the others finish."""

_SETTINGS = settings(
    max_examples=max(1, -(-EXAMPLES // PARTS)),
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    # Shrinking a failing walk can take minutes; SCOREKEEPER_WALK_SHRINK=0 reports the
    # walk as found (to read the first failure at once).
    phases=[
        p for p in Phase if p is not Phase.shrink or os.environ.get("SCOREKEEPER_WALK_SHRINK", "1") != "0"
    ],
)


class TestWalk1(Walk.TestCase):  # type: ignore[misc,valid-type]
    settings = _SETTINGS


class TestWalk2(Walk.TestCase):  # type: ignore[misc,valid-type]
    settings = _SETTINGS


class TestWalk3(Walk.TestCase):  # type: ignore[misc,valid-type]
    settings = _SETTINGS


@pytest.fixture(autouse=True)
def _walk_database(migrated_once: Path, tmp_path: Path) -> None:
    WALK_APP.source, WALK_APP.folder = migrated_once, tmp_path
