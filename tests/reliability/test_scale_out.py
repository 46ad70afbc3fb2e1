"""Scale-out on PostgreSQL (issue 12): two app instances, each its own process and
instance folder, one database and one secret from the environment, as docs/deploy.md
runs them behind a proxy. A phone may meet either instance on any request."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from scorekeeper import store

from .conftest import Postgres
from .test_concurrency import GAME, TIMEOUT, _box_form, _phone, stored
from .test_serving import Served

pytestmark = pytest.mark.postgres
POLL = {"HX-Request": "true"}
"""A poll as htmx sends it (the sheet's hx-trigger every few seconds)."""


@dataclass
class Instance(Served):
    """``scorekeeper serve`` with an instance folder of its own."""

    folder: Path = Path()

    def environment(self) -> dict[str, str]:
        return {**super().environment(), "SCOREKEEPER_INSTANCE_PATH": str(self.folder)}


@pytest.fixture
def pair(postgres: Postgres, tmp_path: Path) -> Iterator[tuple[Instance, Instance, str]]:
    url = postgres.new_database()
    store.migrate(url)
    started: list[Instance] = []
    try:
        for name in ("a", "b"):
            folder = tmp_path / name
            started.append(Instance(url, tmp_path / f"{name}.log", folder=folder).start())
        yield started[0], started[1], url
    finally:
        for instance in started:
            instance.stop()


def _version(sheet: str) -> int:
    found = re.search(r'data-version="(\d+)"', sheet)
    assert found, sheet[:2000]
    return int(found.group(1))


def test_two_instances_share_games_rights_and_one_winner(pair: tuple[Instance, Instance, str]) -> None:
    a, b, url = pair
    assert Path(a.folder).is_dir() and Path(b.folder).is_dir() and a.folder != b.folder
    created = requests.post(f"{a.url}/api/v1/games", json=GAME, timeout=TIMEOUT).json()
    game_id, token = created["id"], created["edit_token"]

    # A watcher on B follows the game; the scorer joined on A.
    watcher = requests.Session()
    sheet = watcher.get(f"{b.url}/games/{game_id}", timeout=TIMEOUT)
    assert sheet.status_code == 200 and "You are watching this game" in sheet.text
    version = _version(sheet.text)
    assert (
        watcher.get(
            f"{b.url}/games/{game_id}/sheet?since={version}", headers=POLL, timeout=TIMEOUT
        ).status_code
        == 204
    )
    scorer = _phone(a, game_id, token)

    # The edit right obtained on A works on B: the box form, and a box saved there.
    form = _box_form(scorer, b, game_id)
    saved = scorer.post(
        f"{b.url}/games/{game_id}/boxes/new",
        data={**form, "ending": "misdeal", "note": "saved on B"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert saved.status_code == 303, saved.text[:2000]

    # A box recorded on A is on B's very next poll.
    form = _box_form(scorer, a, game_id)
    saved = scorer.post(
        f"{a.url}/games/{game_id}/boxes/new",
        data={**form, "ending": "misdeal", "note": "saved on A"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert saved.status_code == 303
    polled = watcher.get(f"{b.url}/games/{game_id}/sheet?since={version}", headers=POLL, timeout=TIMEOUT)
    assert polled.status_code == 200 and _version(polled.text) == version + 2
    assert polled.text.count('class="what"') == 2, polled.text

    # The same box saved through both instances at once: one box, one clear conflict.
    other = _phone(b, game_id, token)
    forms = {a.url: _box_form(scorer, a, game_id), b.url: _box_form(other, b, game_id)}
    assert forms[a.url]["number"] == forms[b.url]["number"] == "3"
    answers: dict[str, requests.Response] = {}
    barrier = threading.Barrier(2)

    def save(phone: requests.Session, base: str) -> None:
        barrier.wait()
        answers[base] = phone.post(
            f"{base}/games/{game_id}/boxes/new",
            data={**forms[base], "ending": "misdeal", "note": f"box 3 through {base[-5:]}"},
            allow_redirects=False,
            timeout=TIMEOUT,
        )

    threads = [
        threading.Thread(target=save, args=(scorer, a.url)),
        threading.Thread(target=save, args=(other, b.url)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(answer.status_code for answer in answers.values())
    assert statuses == [303, 409], statuses
    loser = next(answer for answer in answers.values() if answer.status_code == 409)
    assert "was saved on another phone" in loser.text
    notes, problems = stored(url, game_id)
    assert notes[:2] == ["saved on B", "saved on A"] and len(notes) == 3 and problems == []

    # The operator's check agrees.
    checked = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "check"],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert '"ok": true' in checked.stdout
