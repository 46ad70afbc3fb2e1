"""A hostile client asking for the largest PDFs it can, several at once, does not stop a
table: while it prints, the table's every record is stored and every poll answered, and
the printer answers the hostile client only with a sheet or a 503 (wait and retry).
The same holds while anonymous readers fetch the biggest game's page over and over.
How fast the table stays is a figure, not a test: benchmarks/hostile.py measures it
(docs/performance.md, "A hostile client")."""

from __future__ import annotations

import pytest

from benchmarks.hostile import attack

from .conftest import LiveServer


@pytest.mark.parametrize("load", ["pdf", "read"])
def test_a_table_keeps_recording_while_a_client_prints_the_biggest_sheets(
    server: LiveServer, load: str
) -> None:
    """``read``: anonymous readers of the biggest game's sheet page (issue 23). The attack
    lasts until the hostile client has been given two whole PDFs (or pages) since the
    table began playing under it: the server makes one at a time, so the second was made
    from start to end while the table played."""
    result = attack(server.url, seconds=0.5, hostile=4, load=load, sheets=2)
    idle, attacked = result["idle"], result["attacked"]
    # attack() raises if any of the table's records or polls is refused or fails.
    assert idle["cycles"] >= 1 and attacked["cycles"] >= 1, result
    assert attacked["hostile_answers"].get(200, 0) >= 2, result
    assert set(attacked["hostile_answers"]) <= {200, 503}, result
