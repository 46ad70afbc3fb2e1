"""Paper is not wasted, and every page can be printed on an inkjet: page counts, where the
detail starts, the footer's distance from the edge, and pads ruled for handwriting."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import segno
from reportlab.lib.units import mm

from scorekeeper import engine
from scorekeeper.pdf import render_blank_pad
from scorekeeper.pdf.meta import SheetMeta
from scorekeeper.pdf.pad import box_pad, hollywood_pad
from scorekeeper.pdf.qr import QR_MASK
from scorekeeper.pdf.styles import MARGIN

from . import games
from .reading import contains_run, flat, has_finder, lines, page_texts, qr_modules, reader

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
URL = SheetMeta(read_only_url="http://192.168.1.20:8000/g/g7Qx2")


def test_a_52_box_game_with_detail_takes_a_few_pages_not_eleven() -> None:
    game = games.jersey_game(52, ended=False)
    score = engine.score(game)
    pdf = games.sheet_pdf(game, score, detail=True)
    assert len(reader(pdf).pages) <= 4
    texts = page_texts(pdf)
    # The detail follows the standing on the same page: no page break from a nested block.
    played = sum(1 for box in score["boxes"] if box["result"] != "misdeal")  # misdeals: no box
    assert any(f"Standing after {played} boxes" in t and "Box detail" in t for t in texts)


def pixels(pdf: bytes, tmp_path: Path, page: int = 1) -> tuple[int, int, bytes]:
    """Page ``page`` at 72 dots an inch (a pixel a point), as grey levels."""
    source = tmp_path / "x.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-gray", "-r", "72", "-f", str(page), "-l", str(page), str(source), str(tmp_path / "p")],
        check=True,
        timeout=60,
    )
    data = next(tmp_path.glob("p-*.pgm")).read_bytes()
    _, width, height, _, body = data.split(maxsplit=4)
    return int(width), int(height), body


def inked_rows(width: int, height: int, body: bytes) -> list[int]:
    return [y for y in range(height) if min(body[y * width : (y + 1) * width]) < 200]


@needs_poppler
@pytest.mark.parametrize("kind", ["sheet", "sheet with QR", "pad"])
def test_the_footer_stays_10_mm_from_the_edge(kind: str, tmp_path: Path) -> None:
    game = games.jersey_game(11, ended=False)
    pdf = (
        render_blank_pad("jersey-scarne")
        if kind == "pad"
        else games.sheet_pdf(game, meta=URL if "QR" in kind else None)
    )
    width, height, body = pixels(pdf, tmp_path)
    lowest = max(inked_rows(width, height, body))
    assert height - lowest >= 10 * mm - 1


@needs_poppler
@pytest.mark.parametrize("size", ["A4", "letter"])
def test_the_qr_code_stands_in_the_title_block_and_reads_as_the_games_address(
    size: str, tmp_path: Path
) -> None:
    # In the footer it took 7 mm off every page: an evening on letter paper spilled its
    # last money line onto a second page (issue 35). Beside the seat list it costs none.
    game = games.jersey_game(11, ended=False)
    score = engine.score(game)
    url = URL.read_only_url
    assert url is not None
    (tmp_path / "a").mkdir()
    grid, where = qr_modules(games.sheet_pdf(game, score, meta=URL, page_size=size), tmp_path / "a")
    # The modules drawn are the address's code, module for module (no QR reader is
    # installed; segno's matrix is what a reader decodes).
    assert has_finder(grid)
    assert grid == [
        [bool(m) for m in row] for row in segno.make(url, error="m", micro=False, mask=QR_MASK).matrix
    ]
    # 15 mm with its one-module quiet zone (11 mm did not scan), flush with the right
    # margin, in the title block: below the top margin, above the box table.
    quiet = 15 / (len(grid) + 2)
    assert where["side"] == pytest.approx(15 - 2 * quiet, abs=0.3)
    assert where["right"] == pytest.approx(MARGIN / mm + quiet, abs=0.3)
    assert MARGIN / mm < where["top"] < where["bottom"] < 60
    # Nothing of it in the footer: the page's lowest 30 mm at the right hold no code.
    width, height, body = pixels(games.sheet_pdf(game, score, meta=URL, page_size=size), tmp_path)
    corner = range(height - int(30 * mm), height - int(10 * mm))
    assert not any(
        body[y * width + x] < 100 for y in corner for x in range(width - int(30 * mm), width - int(14 * mm))
    )
    # Without the server's address there is none, nor its label.
    (tmp_path / "b").mkdir()
    bare = games.sheet_pdf(game, score, page_size=size)
    assert not has_finder(qr_modules(bare, tmp_path / "b")[0])
    assert "ONLINE" not in flat(bare) and "ONLINE" in flat(games.sheet_pdf(game, score, meta=URL))


@pytest.mark.parametrize(
    ("rules", "seats"), [("jersey-scarne", 3), ("oklahoma", 2), ("doubling", 2), ("knock-rummy", 5)]
)
def test_pads_are_ruled_for_handwriting(rules: str, seats: int) -> None:
    preset = engine.find_rules(rules)
    width = (297 if seats >= 4 else 210) * mm - 37 * mm
    table: Any = box_pad(preset, seats, width, 200 * mm)  # its measures are internal
    widths, heights = list(table._colWidths), list(table._rowHeights)
    fixed = len(widths) - 3 * seats
    assert all(w >= 15 * mm - 0.01 for w in widths[fixed:])
    assert all(w <= 11 * mm for w in widths[:fixed])
    assert all(h >= 8 * mm - 0.01 for h in heights[2:])
    assert heights[0] >= 10 * mm - 0.01  # the name boxes


def test_five_seats_on_letter_keep_15_mm_score_cells_within_the_margins() -> None:
    # Letter's landscape body is 242 mm: five seats of three 15 mm cells beside the deal's
    # columns ran 13 mm into the right margin. The count (two digits) gives up the room.
    width = (279.4 - 28 - 9) * mm  # letter landscape, less the margins and margin note
    table: Any = box_pad(engine.find_rules("knock-rummy"), 5, width, 200 * mm)
    widths = list(table._colWidths)
    assert sum(widths) <= width + 0.01
    scores = widths[4:]
    assert all(w >= 11 * mm - 0.01 for w in scores[0::3])  # count
    assert all(w >= 15 * mm - 0.01 for n, w in enumerate(scores) if n % 3)  # hand, total


@needs_poppler
@pytest.mark.parametrize("size", ["A4", "letter"])
@pytest.mark.parametrize("kind", ["knock-rummy pad of 5", "knock-rummy sheet of 5", "hollywood pad of 12"])
def test_every_page_keeps_its_right_margin(kind: str, size: str, tmp_path: Path) -> None:
    if kind == "knock-rummy sheet of 5":
        pdf = games.sheet_pdf(games.knock_rummy_game(["Ann", "Bob", "Cal", "Dee", "Eve"]), page_size=size)
    else:
        preset, _, _, seats = kind.split()
        if preset == "hollywood":
            pdf = render_blank_pad(preset, page_size=size, columns=int(seats))
        else:
            pdf = render_blank_pad(preset, page_size=size, players=int(seats))
    for page in range(1, len(reader(pdf).pages) + 1):
        where = tmp_path / str(page)
        where.mkdir()
        width, height, body = pixels(pdf, where, page)
        rightmost = max(x for y in range(0, height, 2) for x in range(width) if body[y * width + x] < 200)
        assert width - 1 - rightmost >= MARGIN / mm * 72 / 25.4 - 1, (kind, page)


def test_each_game_gets_its_columns_on_the_pad() -> None:
    assert contains_run(
        lines(render_blank_pad("oklahoma")), ["Hand", "Dlr", "How", "Won", "Upcard", "seat A"]
    )
    assert contains_run(lines(render_blank_pad("doubling")), ["Hand", "Dlr", "How", "Won", "×", "seat A"])
    # The summary (the foot and the pairs) is on the last sheet: the pad's own, or its own.
    jersey = " ".join(page_texts(render_blank_pad("jersey-scarne"))[-1].split())
    assert "Pair Who pays Points ×2 shutout Money A–B ☐ A–C ☐ B–C ☐" in jersey
    hollywood = " ".join(page_texts(render_blank_pad("hollywood"))[-1].split())
    assert "Hands won" in hollywood and "Net: who is up, by how much" in hollywood


def test_a_hollywood_pad_of_many_columns_goes_in_bands() -> None:
    preset = engine.find_rules("hollywood")
    bands = hollywood_pad(preset, 12, 173 * mm, 200 * mm, 30 * mm, 250 * mm)
    tables = [f for f in bands if hasattr(f, "_colWidths")]
    assert len(tables) == 3  # four games a band
    assert all(w >= 15 * mm - 0.01 for t in tables for w in list(t._colWidths)[5:])
    pdf = render_blank_pad("hollywood", columns=12)
    texts = page_texts(pdf)
    assert len(texts) == 3 and "Game 12 · to 100" in texts[2]
