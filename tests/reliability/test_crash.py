"""Crash safety: SIGKILL the server in the middle of a stream of writes, then every game
must recompute to what is stored, and every write a phone was told succeeded must be
there. Also the deterministic half: a write that fails half way leaves nothing."""

from __future__ import annotations

import itertools
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
import sqlalchemy as sa
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry

from .conftest import LiveServer
from .test_concurrency import GAME, TIMEOUT, misdeal

KNOCK: dict[str, Any] = {
    "ending": "knock",
    "by": "Bob",
    "hands": {"Ann": {"count": 5}, "Bob": {"count": 4}, "Cal": {"count": 5}},
}
"""Two points to Bob: boxes that move the totals, so stale totals would show."""


def _writer(
    server: LiveServer,
    games: list[tuple[str, dict[str, str]]],
    seed: int,
    acknowledged: list[tuple[str, int]],
    stop: threading.Event,
) -> None:
    """Append, correct and delete boxes until the server dies (or 400 requests)."""
    chance = random.Random(seed)
    with requests.Session() as phone:
        for n in range(400):
            if stop.is_set():
                return
            game_id, auth = chance.choice(games)
            base = f"{server.url}/api/v1/games/{game_id}/boxes"
            try:
                roll = chance.random()
                if roll < 0.6:
                    box = KNOCK if chance.random() < 0.3 else misdeal(f"w{seed}-{n}")
                    response = phone.post(base, json=box, headers=auth, timeout=TIMEOUT)
                    if response.status_code == 201:
                        acknowledged.append((game_id, response.json()["box_id"]))
                    continue
                boxes = phone.get(f"{server.url}/api/v1/games/{game_id}", timeout=TIMEOUT).json()["game"][
                    "boxes"
                ]
                if not boxes:
                    continue
                target = chance.choice(boxes)["id"]
                if roll < 0.85:
                    phone.put(
                        f"{base}/{target}", json=misdeal(f"fix w{seed}-{n}"), headers=auth, timeout=TIMEOUT
                    )
                else:
                    phone.delete(f"{base}/{target}", headers=auth, timeout=TIMEOUT)
            except (requests.RequestException, ValueError):
                return  # the server is gone


@pytest.mark.parametrize("writes_per_round", [(10, 40)])
def test_kill_9_mid_stream_leaves_every_game_consistent(
    database_url: str, tmp_path: Path, writes_per_round: tuple[int, int]
) -> None:
    """3 rounds: 6 writers on 3 games (appends, corrections, deletions) until a random
    10 to 40 of the round's appends have been acknowledged, then SIGKILL, the writers
    still writing. After each: every game verifies (rescored totals, stored rulings,
    one revision per version), every acknowledged box is stored, and a restarted server
    takes writes again."""
    log = tmp_path / "server.log"
    server = LiveServer(database_url, log).start()
    games = []
    for _ in range(3):
        created = requests.post(f"{server.url}/api/v1/games", json=GAME, timeout=TIMEOUT).json()
        games.append((created["id"], {"Authorization": f"Bearer {created['edit_token']}"}))
    acknowledged: list[tuple[str, int]] = []
    seeds = itertools.count()
    for round_ in range(3):
        stop = threading.Event()
        threads = [
            threading.Thread(target=_writer, args=(server, games, next(seeds), acknowledged, stop))
            for _ in range(6)
        ]
        target = len(acknowledged) + random.Random(round_).randint(*writes_per_round)
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while len(acknowledged) < target and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any(thread.is_alive() for thread in threads), "the writers stopped before the kill"
        server.kill()
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in threads)
        engine = store.connect(database_url)
        try:
            with Session(engine) as db:
                assert store.verify(db) == []
                for game_id, box_id in acknowledged:
                    box = db.get(store.Box, box_id)
                    assert box is not None and box.game_id == game_id
                assert (db.scalar(select(func.count()).select_from(store.Box)) or 0) > 0
        finally:
            engine.dispose()
        server = LiveServer(database_url, log).start()
    game_id, auth = games[0]
    after = requests.post(
        f"{server.url}/api/v1/games/{game_id}/boxes", json=misdeal("after"), headers=auth, timeout=TIMEOUT
    )
    assert after.status_code == 201
    server.stop()
    assert len(acknowledged) >= 10, "too few writes got in before the kills to prove anything"


def test_a_write_that_fails_half_way_leaves_nothing(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The version bump, the box, its revision and the idempotency key are one
    transaction: when the last step fails, none of them is stored."""
    engine = store.connect(database_url)
    try:
        with Session(engine, expire_on_commit=False) as db:
            game_id = ledger.import_game(db, GAME)[0].id
            # the last statement of the write fails (a function no database has)
            monkeypatch.setattr(store.writes._Sql, "revision", sa.text("SELECT power_cut()"))
            with pytest.raises(sa.exc.DBAPIError):
                ledger.record(db, game_id, BoxEntry.from_json(misdeal("lost")), key="k1")
            monkeypatch.undo()
        with Session(engine) as db:
            row = store.get_game(db, game_id)
            assert row is not None and row.version == 1
            assert db.scalar(select(func.count()).select_from(store.Box)) == 0
            assert db.scalar(select(func.count()).select_from(store.BoxRevision)) == 0
            assert db.scalar(select(func.count()).select_from(store.WriteKey)) == 0
            assert store.verify_game(db, game_id) == []
    finally:
        engine.dispose()


def test_a_write_based_on_another_version_is_refused(database_url: str) -> None:
    """A writer that did not hold the game and names a version that is no longer the
    game's (forged, or a race) is refused as stale by the store's own version check."""
    engine = store.connect(database_url)
    try:
        with Session(engine, expire_on_commit=False) as db:
            game_id = ledger.import_game(db, GAME)[0].id
            ruling = {"result": "misdeal", "winner": None}
            store.append_box(db, game_id, 1, misdeal("a"), rulings={None: ruling}, summary={"totals": {}})
            with pytest.raises(store.StaleWrite):
                store.append_box(db, game_id, 1, misdeal("b"), rulings={None: ruling}, summary={"totals": {}})
            assert store.game_version(db, game_id) == 2
    finally:
        engine.dispose()
