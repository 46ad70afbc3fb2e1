"""Phones at one table writing to one game at the same moment, against the app in its
own process (waitress, 8 worker threads) on SQLite and on PostgreSQL.

Each box carries a unique note, so a lost or duplicated box shows by name.
"""

from __future__ import annotations

import random
import re
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import requests
from sqlalchemy.orm import Session

from scorekeeper import store

from .conftest import LiveServer

GAME: dict[str, Any] = {
    "rules": "jersey-scarne",
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "boxes": [],
}
TIMEOUT = 30
CONFLICT = "Another phone changed this game"


def misdeal(note: str) -> dict[str, Any]:
    """A box that scores nothing, so a game never ends however many are stored."""
    return {"ending": "misdeal", "note": note}


def create(server: LiveServer) -> tuple[str, dict[str, str]]:
    created = requests.post(f"{server.url}/api/v1/games", json=GAME, timeout=TIMEOUT).json()
    return created["id"], {"Authorization": f"Bearer {created['edit_token']}"}


def stored(database_url: str, game_id: str) -> tuple[list[str], list[str]]:
    """The notes of the live boxes, and whatever :func:`store.verify_game` finds wrong."""
    engine = store.connect(database_url)
    try:
        with Session(engine) as db:
            row = store.get_game(db, game_id)
            assert row is not None
            notes = [box.entry.get("note", "") for box in store.live_boxes(db, row)]
            return notes, store.verify_game(db, game_id)
    finally:
        engine.dispose()


def run_threads(count: int, work: Callable[[int], None]) -> None:
    """Start ``count`` threads on ``work(i)`` at once (barrier) and re-raise any failure."""
    barrier = threading.Barrier(count)
    failures: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            work(i)
        except BaseException as err:  # reported to the test below
            failures.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a writer hung"
    if failures:
        raise failures[0]


def test_racing_appends_and_retries_store_each_box_once(server: LiveServer, database_url: str) -> None:
    """8 threads, 96 distinct boxes, each sent twice with the same Idempotency-Key by two
    threads at about the same time (192 requests, no If-Match): every box is stored
    exactly once, every request answered 201 (first) or 200 ``repeated``."""
    game_id, auth = create(server)
    writes = [(f"key-{n:03d}", f"box {n:03d}") for n in range(96)]
    answers: list[tuple[str, int, dict[str, Any]]] = []
    lock = threading.Lock()

    def work(i: int) -> None:
        with requests.Session() as phone:
            for n, (key, note) in enumerate(writes):
                if n % 4 != i % 4:
                    continue
                response = phone.post(
                    f"{server.url}/api/v1/games/{game_id}/boxes",
                    json=misdeal(note),
                    timeout=TIMEOUT,
                    headers={**auth, "Idempotency-Key": key},
                )
                with lock:
                    answers.append((key, response.status_code, response.json()))

    run_threads(8, work)
    assert len(answers) == 192
    assert {status for _key, status, _body in answers} <= {200, 201}, answers
    for key, _note in writes:
        mine = [(status, body) for k, status, body in answers if k == key]
        assert sorted(status for status, _ in mine) == [200, 201], (key, mine)
        assert len({body["box_id"] for _, body in mine}) == 1
        assert [body["repeated"] for status, body in mine if status == 200] == [True]
    notes, problems = stored(database_url, game_id)
    assert sorted(notes) == sorted(note for _key, note in writes)
    assert problems == []
    final = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=TIMEOUT).json()
    assert final["version"] == 1 + len(writes)


def test_if_match_serialises_appends_edits_and_deletes(server: LiveServer, database_url: str) -> None:
    """6 threads x 12 operations (append, edit, delete at random, each read-then-write
    with If-Match): stale writes get 409 and are retried after reading again. Replaying
    the accepted writes in version order reproduces the stored game exactly, so no write
    overwrote another and none was lost or doubled."""
    game_id, auth = create(server)
    accepted: list[tuple[int, str, int | None, str]] = []
    conflicts = Counter[str]()
    lock = threading.Lock()

    def work(i: int) -> None:
        chance = random.Random(1000 + i)
        with requests.Session() as phone:
            for n in range(12):
                operation = chance.choice(["append", "append", "edit", "delete"])
                note = f"phone {i} op {n}"
                for _attempt in range(200):
                    read = phone.get(f"{server.url}/api/v1/games/{game_id}", timeout=TIMEOUT)
                    version = read.json()["version"]
                    ids = [box["id"] for box in read.json()["game"]["boxes"]]
                    headers = {**auth, "If-Match": read.headers["ETag"]}
                    base = f"{server.url}/api/v1/games/{game_id}/boxes"
                    if operation == "append" or not ids:
                        operation, target = "append", None
                        response = phone.post(base, json=misdeal(note), headers=headers, timeout=TIMEOUT)
                    elif operation == "edit":
                        target = chance.choice(ids)
                        response = phone.put(
                            f"{base}/{target}", json=misdeal(note), headers=headers, timeout=TIMEOUT
                        )
                    else:
                        target = chance.choice(ids)
                        response = phone.delete(f"{base}/{target}", headers=headers, timeout=TIMEOUT)
                    if response.status_code == 409:
                        body = response.json()["error"]
                        assert body["code"] == "stale-version"
                        assert "changed" in body["message"]
                        assert int(response.headers["ETag"].strip('"')) > version
                        with lock:
                            conflicts[operation] += 1
                        continue
                    assert response.status_code in (200, 201), response.text
                    written = response.json()
                    assert written["version"] == version + 1
                    box_id = written["box_id"] if operation == "append" else target
                    with lock:
                        accepted.append((written["version"], operation, box_id, note))
                    break
                else:
                    raise AssertionError(f"phone {i} never got a write in")

    run_threads(6, work)
    assert len(accepted) == 72
    assert sum(conflicts.values()) > 0, "the phones never collided: the test proved nothing"
    versions = sorted(version for version, *_ in accepted)
    assert versions == list(range(2, 2 + len(accepted)))
    model: dict[int, str] = {}
    for _version, operation, box_id, note in sorted(accepted):
        assert box_id is not None
        if operation == "append":
            model[box_id] = note
        elif operation == "edit":
            assert box_id in model
            model[box_id] = note
        else:
            del model[box_id]
    notes, problems = stored(database_url, game_id)
    assert notes == [model[box_id] for box_id in sorted(model)]
    assert problems == []


def _phone(server: LiveServer, game_id: str, token: str) -> requests.Session:
    """A browser that opened the join link and confirmed."""
    phone = requests.Session()
    page = phone.get(f"{server.url}/games/{game_id}/join", timeout=TIMEOUT).text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf is not None
    joined = phone.post(
        f"{server.url}/games/{game_id}/join",
        data={"csrf_token": csrf.group(1), "code": token},
        timeout=TIMEOUT,
    )
    assert joined.status_code == 200 and f"/games/{game_id}" in joined.url
    return phone


def _box_form(phone: requests.Session, server: LiveServer, game_id: str) -> dict[str, str]:
    """The new-box form's hidden fields as the page gives them: CSRF token, version, box
    number, key."""
    page = phone.get(f"{server.url}/games/{game_id}/boxes/new", timeout=TIMEOUT).text
    fields = dict(
        re.findall(r'<input[^>]*?name="(csrf_token|version|number|key)"[^>]*?value="([^"]*)"', page)
    )
    assert set(fields) == {"csrf_token", "version", "number", "key"}, page[:3000]
    return fields


def test_phones_saving_the_same_moment_through_the_forms(server: LiveServer, database_url: str) -> None:
    """Through the real pages (CSRF on): 5 rounds of 4 phones saving a box all based on
    the same box: one is stored, the other 3 get 409 and both boxes side by side.
    Then 5 double taps, each the same form sent 3 times at once: one box each."""
    created = requests.post(f"{server.url}/api/v1/games", json=GAME, timeout=TIMEOUT).json()
    game_id = created["id"]
    phones = [_phone(server, game_id, created["edit_token"]) for _ in range(4)]
    expected: list[str] = []
    for round_ in range(5):
        forms = [_box_form(phone, server, game_id) for phone in phones]
        assert len({form["version"] for form in forms}) == 1
        results: list[tuple[int, str, str]] = []

        def save(
            i: int,
            forms: list[dict[str, str]] = forms,
            results: list[tuple[int, str, str]] = results,
            round_: int = round_,
        ) -> None:
            note = f"round {round_} phone {i}"
            response = phones[i].post(
                f"{server.url}/games/{game_id}/boxes/new",
                data={**forms[i], "ending": "misdeal", "note": note},
                allow_redirects=False,
                timeout=TIMEOUT,
            )
            results.append((response.status_code, note, response.text))

        run_threads(4, save)
        statuses = sorted(status for status, _note, _text in results)
        assert statuses == [303, 409, 409, 409], statuses
        expected += [note for status, note, _ in results if status == 303]
        assert all("was saved on another phone" in text for status, _note, text in results if status == 409)
    for tap in range(5):
        form = _box_form(phones[0], server, game_id)
        note = f"double tap {tap}"
        taps: list[int] = []

        def press(_i: int, form: dict[str, str] = form, note: str = note, taps: list[int] = taps) -> None:
            response = phones[0].post(
                f"{server.url}/games/{game_id}/boxes/new",
                data={**form, "ending": "misdeal", "note": note},
                allow_redirects=False,
                timeout=TIMEOUT,
            )
            taps.append(response.status_code)

        run_threads(3, press)
        assert taps == [303, 303, 303], taps
        expected.append(note)
    notes, problems = stored(database_url, game_id)
    assert sorted(notes) == sorted(expected) and len(notes) == 10
    assert problems == []
