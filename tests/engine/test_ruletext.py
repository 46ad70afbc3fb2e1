"""The rule texts come from the packaged RULES.md, which must match the shared one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.engine import ruletext
from scorekeeper.engine.errors import ScorekeeperError
from scorekeeper.engine.ruletext import (
    RULE_TEXTS,
    checks,
    rule_text,
    rule_texts,
    sections,
    settings_table,
)

CHECKOUT = Path(__file__).resolve().parents[2]
PACKAGED = CHECKOUT / "scorekeeper" / "engine" / "RULES.md"
SHARED = CHECKOUT.parent / "shared" / "RULES.md"

ALL_IDS = (
    [f"C{n}" for n in range(1, 14)]
    + [f"J{n}" for n in range(1, 17)]
    + [f"P{n}" for n in range(1, 9)]
    + [f"G{n}" for n in range(1, 9)]
    + [f"V{n}" for n in range(1, 7)]
    + [f"K{n}" for n in range(1, 6)]
    + [f"E{n}" for n in range(1, 9)]
)


@pytest.mark.parametrize("rule_id", ALL_IDS)
def test_every_rule_has_a_title_and_text(rule_id: str) -> None:
    rule = rule_text(rule_id)
    assert rule.id == rule_id
    assert rule.title.strip()
    assert rule.text.strip()
    assert RULE_TEXTS[rule_id] == rule


def test_there_are_exactly_the_rules_of_rules_md() -> None:
    assert list(rule_texts()) == ALL_IDS
    assert len(RULE_TEXTS) == len(ALL_IDS)
    assert list(RULE_TEXTS) == ALL_IDS


def test_texts_are_plain_and_whole() -> None:
    j13 = rule_text("J13")
    assert j13.title == "Gin after the break"
    assert "**" not in j13.text and "`" not in j13.text
    assert "the Denexa reading gives the usual 40)." in j13.text
    assert j13.text.endswith("Boxes entered by counts need neither.")
    assert "**no**" in j13.markdown
    assert rule_text("J6").text.endswith("A is credited 10 + 8 = 18.")


def test_sections_carry_their_rules() -> None:
    found = {section.number: section for section in sections()}
    assert list(found) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert found[8].title.startswith("Club play") and found[8].rule_ids == tuple(f"E{n}" for n in range(1, 9))
    assert found[2].rule_ids[-1] == "J16"
    assert found[4].rule_ids == tuple([f"G{n}" for n in range(1, 9)] + [f"V{n}" for n in range(1, 7)])
    assert found[3].text.startswith("As Jersey Gin (J1–J3) except")
    assert all(rule_text(i).section == number for number, s in found.items() for i in s.rule_ids)


def test_checks_and_settings_table() -> None:
    assert len(checks()) == 7
    table = settings_table()
    assert table[0] == (
        "setting",
        "meaning",
        "jersey-scarne",
        "three-hand-parlett",
        "gin",
        "gin-classic",
        "knock-rummy",
    )
    assert [row[0] for row in table[1:]][:2] == ["knock_limit", "knock_limit_from"]
    assert all(len(row) == 7 for row in table)


def test_unknown_rule_id() -> None:
    with pytest.raises(ScorekeeperError, match="no rule 'X1'"):
        rule_text("X1")
    with pytest.raises(KeyError):
        RULE_TEXTS["X1"]


def test_parse_refuses_a_file_without_rules() -> None:
    with pytest.raises(ScorekeeperError):
        ruletext.parse("# nothing\n\n## 1. Empty\n\nno rules here\n")


def test_packaged_rules_match_the_shared_copy() -> None:
    if not SHARED.exists():
        pytest.skip(f"no shared RULES.md beside the checkout ({SHARED})")
    assert PACKAGED.read_bytes() == SHARED.read_bytes(), (
        "scorekeeper/engine/RULES.md differs from ../shared/RULES.md: copy the shared one in"
    )


def test_importing_reads_nothing() -> None:
    code = (
        "import scorekeeper.engine.ruletext as r; "
        "assert r._document.cache_info().currsize == 0; "
        "r.RULE_TEXTS['J1']; assert r._document.cache_info().currsize == 1"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
