"""Every rule id of RULES.md has at least one test marked ``@pytest.mark.rule("ID")``."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.engine.ruletext import rule_texts

TESTS = Path(__file__).parent
MARK = re.compile(r"mark\.rule\(([^)]*)\)")
ID = re.compile(r'"([A-Z]\d+)"')


def marked_ids() -> set[str]:
    found: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        for args in MARK.findall(path.read_text(encoding="utf-8")):
            found.update(ID.findall(args))
    return found


def test_every_rule_id_has_a_test() -> None:
    ids = set(rule_texts())
    assert len(ids) >= 55  # C1-C13, J1-J16, P1-P8, G1-G8, V1-V6, K1-K4
    missing = sorted(ids - marked_ids(), key=lambda i: (i[0], int(i[1:])))
    assert missing == [], f"rule ids without a test: {missing}"


def test_no_test_cites_a_rule_that_does_not_exist() -> None:
    assert marked_ids() - set(rule_texts()) == set()
