"""PDFs from the command line: sheet options and blank pads, read back with pypdf."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from scorekeeper.cli import main
from tests.cli.test_cli import assert_bad, run
from tests.engine.test_game import CONTRACT_GAME
from tests.engine.test_showdown import CONTRACT_BOX

A4_WIDTH, LETTER_WIDTH = 595, 612


def text_of(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_sheet_options_paper_and_detail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = {
        **CONTRACT_GAME,
        "boxes": [
            {k: v for k, v in CONTRACT_BOX.items() if k not in ("rules", "settings", "players", "dealer")},
            *CONTRACT_GAME["boxes"][1:],
        ],
    }
    source = tmp_path / "game.json"
    source.write_text(json.dumps(game))
    detailed, plain = tmp_path / "detail.pdf", tmp_path / "plain.pdf"
    assert run(capsys, "sheet", str(source), "-o", str(detailed), "--page-size", "letter")[0] == 0
    assert run(capsys, "sheet", str(source), "-o", str(plain), "--no-detail")[0] == 0
    assert round(float(PdfReader(detailed).pages[0].mediabox.width)) == LETTER_WIDTH
    assert round(float(PdfReader(plain).pages[0].mediabox.width)) == A4_WIDTH
    assert "Box detail" in text_of(detailed) and "4♠" in text_of(detailed)
    assert "Box detail" not in text_of(plain)


@pytest.mark.parametrize(("preset", "names"), [("jersey-scarne", 3), ("gin", 2), ("hollywood", 2)])
def test_blank_pads(preset: str, names: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "pad.pdf"
    status, out, _ = run(capsys, "pad", preset, "-o", str(target), "--page-size", "letter")
    assert status == 0 and out == {"pad": str(target), "bytes": target.stat().st_size}
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    assert round(float(reader.pages[0].mediabox.width)) == LETTER_WIDTH
    assert "100" in text_of(target)  # the game target printed in the margin


def test_bad_pads_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "pad.pdf"
    assert_bad(*run(capsys, "pad", "canasta", "-o", str(target)), "unknown-rules")
    assert_bad(*run(capsys, "pad", "gin", "--players", "7", "-o", str(target)), "usage")
    assert not target.exists()
    assert main(["pad", "gin", "-o", str(target), "--page-size", "A5"]) == 2


def test_sheet_header_and_footer_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.json"
    source.write_text(json.dumps({**CONTRACT_GAME, "stake": 0.05}))
    target = tmp_path / "sheet.pdf"
    assert (
        run(
            capsys,
            "sheet",
            str(source),
            "-o",
            str(target),
            "--place",
            "Club Nord",
            "--started",
            "2026-05-01T19:30",
            "--currency",
            "EUR",
            "--game-id",
            "g7Qx2",
            "--url",
            "http://192.168.1.20:8000/g/g7Qx2",
        )[0]
        == 0
    )
    text = " ".join(text_of(target).split())
    assert "Club Nord" in text and "2026-05-01 19:30" in text
    assert "€0.05 a point" in text and "game g7Qx2" in text
    info = PdfReader(target).metadata
    assert info is not None and str(info["/CreationDate"]).startswith("D:20260501193000")


def test_a_hollywood_pad_with_many_columns_and_a_bad_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "pad.pdf"
    assert run(capsys, "pad", "hollywood", "--columns", "12", "-o", str(target))[0] == 0
    text = text_of(target)
    assert "Game 12 · to 100" in text and len(PdfReader(target).pages) == 3  # bands of four
    assert_bad(*run(capsys, "pad", "hollywood", "--columns", "51", "-o", str(tmp_path / "x.pdf")), "usage")
