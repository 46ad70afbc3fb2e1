"""``scorekeeper event-results``: an event's standings and tables, as JSON or CSV."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from scorekeeper import store
from scorekeeper.cli import main
from scorekeeper.engine.event import EventEntry
from scorekeeper.ledger import events


def test_event_results_as_json_and_csv(
    migrated: Callable[[str], str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = migrated("cli-event.sqlite3")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url)
    with store.opened(url) as db:
        event = events.start_event(
            db, EventEntry("Club", ("Ann", "Bob", "Cal", "-Dee")), secret=b"k" * 32
        ).event
    assert main(["event-results", event.id]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["event"]["name"] == "Club" and len(body["standings"]) == 4
    assert body["event"]["seating"][0]["byes"]  # four in threes: one sits out
    assert main(["event-results", event.id, "--csv"]) == 0
    lines = capsys.readouterr().out.removeprefix("\ufeff").splitlines()
    assert lines[0].startswith("rank,player,score") and any(",'-Dee," in line for line in lines)
    assert main(["event-results", "nothing"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "not-found"
