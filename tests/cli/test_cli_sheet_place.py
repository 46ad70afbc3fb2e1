"""``scorekeeper sheet`` prints the game file's ``place`` and the time in its ``started``
(issue 35), read back with pdftotext; the command line's own options still win."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import run
from tests.pdf.reading import pdftotext


def _game(tmp_path: Path) -> Path:
    game = {
        "rules": "jersey-scarne",
        "players": ["Ann", "Bob", "Cal"],
        "dealer": "Ann",
        "place": "Hoboken, back room",
        "started": "2026-05-01T19:30",
        "boxes": [
            {
                "ending": "gin",
                "by": "Ann",
                "hands": {"Ann": {"count": 0}, "Bob": {"count": 20}, "Cal": {"count": 15}},
            }
        ],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    return path


def test_the_sheet_prints_the_files_place_and_start_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "sheet.pdf"
    assert run(capsys, "sheet", str(_game(tmp_path)), "-o", str(target))[0] == 0
    text = " ".join(pdftotext(target.read_bytes()).split())
    assert "PLACE" in text and "Hoboken, back room" in text
    assert "2026-05-01 19:30" in text


def test_the_command_lines_place_and_start_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "sheet.pdf"
    options = ["--place", "Club room", "--started", "2026-05-02T20:15"]
    assert run(capsys, "sheet", str(_game(tmp_path)), *options, "-o", str(target))[0] == 0
    text = " ".join(pdftotext(target.read_bytes()).split())
    assert "Club room" in text and "Hoboken" not in text
    assert "2026-05-02 20:15" in text and "19:30" not in text
