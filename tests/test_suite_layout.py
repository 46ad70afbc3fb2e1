"""The suite's own layout (issue 24): no two test modules share a name, so a failure's
module name says which file it is, and store and ledger tests have their own folders."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_name() -> None:
    places: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        places[path.name].append(str(path.relative_to(TESTS)))
    assert {name: found for name, found in places.items() if len(found) > 1} == {}


def test_store_and_ledger_tests_have_their_own_folders() -> None:
    assert list((TESTS / "store").glob("test_*.py"))
    assert list((TESTS / "ledger").glob("test_*.py"))
    assert not list(TESTS.glob("test_ledger*.py")) and not list(TESTS.glob("test_store*.py"))
