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


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_an_evening_from_a_file_with_place_currency_and_url_is_one_page(
    paper: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The game file as a club keeps it: 15 boxes of 20-character names, its place, start
    # and currency; the command line adds the QR code's address (issue 35: two letter pages).
    from tests.pdf.games import evening_game

    game = evening_game(17, ["Margarethe Johansson", "Bartholomew Ingallsx", "Constance Whitfieldo"], "€")
    game.update(place="Club Nord", started="2026-05-01T19:30")
    source, target = tmp_path / "evening.json", tmp_path / "sheet.pdf"
    source.write_text(json.dumps(game), encoding="utf-8")
    options = ["--page-size", paper, "--no-detail", "--url", "http://192.168.1.20:8000/g/x1"]
    assert run(capsys, "sheet", str(source), *options, "-o", str(target))[0] == 0
    pages = pdftotext(target.read_bytes()).split("\f")
    assert len([page for page in pages if page.strip()]) == 1
    text = " ".join(pages[0].split())
    assert {"ONLINE", "Club", "Nord", "19:30"} <= set(text.split())
    assert "Settlement" in text and "at €0.05 a point:" in text
    # The date and the time on one line of the title block (the time wrapped under it).
    assert "2026-05-01 19:30" in pdftotext(target.read_bytes(), layout=True)
