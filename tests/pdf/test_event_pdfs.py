"""A club night on paper: table cards (one per table, the QR code that opens the table's
game) and the results, read back with pypdf and, for the QR code, from the rendered
page's pixels compared module by module with the code of the expected link."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import segno
from reportlab.lib.units import mm

from scorekeeper.pdf.events import CARD_QR, render_results, render_table_cards
from scorekeeper.pdf.qr import QR_MASK
from scorekeeper.pdf.values import Results, ScoreLines, Standing, TableCard, TableResult

from .reading import contains_run, flat, lines, page_texts, pdftotext, reader

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
JOIN = "http://192.168.1.20:5000/games/{}/join#" + "E" * 32
SEATS = [
    ("Ann", "Bob", "Cal"),
    ("Dee", "Eve", "Fay"),
    ("Gus", "Hal", "Ivy"),
    ("Jo", "Kim", "Lou"),
    ("Max", "Ned", "Olga Ćirić"),
]


def _cards(count: int = 5) -> list[TableCard]:
    return [
        TableCard(
            "Tuesday Jersey",
            2,
            n,
            SEATS[n - 1],
            JOIN.format(f"g{n}"),
            f"K7M{n}QX",
            "Jersey Gin",
            "40 minutes",
        )
        for n in range(1, count + 1)
    ]


def test_each_table_gets_a_card_with_its_number_round_and_seats() -> None:
    pdf = render_table_cards(_cards())
    pages = page_texts(pdf)
    assert len(pages) == 2  # four cards a page
    text = flat(pdf)
    for n, seats in enumerate(SEATS, start=1):
        assert f"Table {n}" in text
        for number, player in enumerate(seats, start=1):
            assert f"Seat {number} {player}" in text
    assert "Round 2 · 40 minutes" in text
    assert "type the code K7M 1QX" in text and "type the code K7M 5QX" in text
    assert "Table 5" in pages[1] and "Table 5" not in pages[0]


@pytest.mark.parametrize("size", ["A4", "letter"])
def test_a_full_name_that_deals_first_prints_whole(size: str) -> None:
    # Beside "deals first (the cut)" a 20-character name was cut: "Margarethe Johan…"
    # (issue 35's review of the table cards).
    seats = ("Margarethe Johansson", "محمد عبد الرحمن يوسف", "अर्जुन विश्वनाथ राणा")
    cards = [TableCard("Club", 1, n, seats, dealer=seats[n - 1]) for n in (1, 2, 3)]
    text = pdftotext(render_table_cards(cards, size=size))
    assert "…" not in text
    plain = re.sub("[\u202a-\u202e]", "", text)
    for name in seats:
        assert plain.count(name) == 3, name


def test_a_card_without_a_link_has_no_qr_code() -> None:
    pdf = render_table_cards([TableCard("Club", 1, 3, ("Ann", "Bob"))])
    assert "Scan to score" not in flat(pdf)
    content = reader(pdf).pages[0].get_contents()
    assert content is not None and content.get_data().count(b" re") < 10


def _grey(pdf: bytes, tmp_path: Path, dpi: int) -> tuple[int, int, bytes]:
    source = tmp_path / "cards.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(dpi), "-f", "1", "-l", "1", str(source), str(tmp_path / "p")],
        check=True,
        timeout=60,
    )
    data = next(tmp_path.glob("p-*.pgm")).read_bytes()
    _, width, height, _, body = data.split(maxsplit=4)
    return int(width), int(height), body


@needs_poppler
@pytest.mark.parametrize("card", [0, 3])
def test_the_qr_code_opens_that_tables_game(tmp_path: Path, card: int) -> None:
    """Read the code back from the page: every module, sampled at its centre, is what
    segno makes of the table's own join link (and not of another table's)."""
    pdf = render_table_cards(_cards(4))
    dpi = 200
    width, height, body = _grey(pdf, tmp_path, dpi)
    scale = dpi / 72
    page_w, page_h = width / scale, height / scale
    column, row = card % 2, card // 2
    cell_w, cell_h = page_w / 2, page_h / 2
    qr_x = column * cell_w + (cell_w - CARD_QR) / 2
    qr_y = page_h - (row + 1) * cell_h + 9 * mm + 14  # the QR's lower edge, PDF points

    def read(size: int) -> list[list[bool]]:
        module = CARD_QR / (size + 2)
        found = []
        for r in range(size):
            line = []
            for c in range(size):
                x = qr_x + (c + 1.5) * module
                y = qr_y + CARD_QR - (r + 1.5) * module
                px, py = int(x * scale), int((page_h - y) * scale)
                line.append(body[py * width + px] < 128)
            found.append(line)
        return found

    for n in (1, 2, 3, 4):
        expected = [
            [bool(v) for v in line]
            for line in segno.make(JOIN.format(f"g{n}"), error="m", micro=False, mask=QR_MASK).matrix
        ]
        assert (read(len(expected)) == expected) is (n == card + 1)


def _results() -> Results:
    return Results(
        "Tuesday Jersey",
        "2026-12-01",
        "Elm Street Club",
        "Jersey Gin",
        "net",
        ("Head to head",),
        (
            Standing(1, "Ann", 212, 3, 2, 19, ("1",)),
            Standing(2, "Bob", -12, 3, 1, 10, ("0",)),
            Standing(3, "Cal", -200, 3, 0, 4, ("0",)),
        ),
        (
            TableResult(1, 1, (("Ann", 250), ("Bob", 30), ("Cal", 0)), "done", 12),
            TableResult(1, 2, (("Dee", 100), ("Eve", 130), ("Fay", 0)), "agreed", 8),
            TableResult(2, 1, (("Bob", 90), ("Ann", 60), ("Cal", 10)), "done", 9),
            TableResult(2, 0, (("Gus", 0),), "bye"),
        ),
        highest_box=("Ann", 75, 1, 1),
        most_gins=(("Ann", 2), ("Eve", 2)),
    )


def test_results_list_standings_rounds_and_the_evenings_best() -> None:
    pdf = render_results(_results())
    found = lines(pdf)
    text = flat(pdf)
    assert "Tuesday Jersey: results" in text and "2026-12-01 · Elm Street Club" in text
    assert contains_run(found, ["1", "Ann", "212", "3", "2", "19", "1"])
    assert contains_run(found, ["2", "Bob", "−12", "3", "1", "10", "0"])
    assert text.index("Final standings") < text.index("Round 1") < text.index("Round 2")
    assert "Ann +250" in text and "Eve +130" in text and "ended by agreement" in text
    assert "Highest box: Ann, 75 points (round 1, table 1)" in text
    assert "Most gins: Ann, Eve, 2 gins" in text
    assert contains_run(found, ["bye", "Gus"])
    assert "Score: the sum of each player’s settlements." in text


def test_results_with_nothing_scored_say_so() -> None:
    text = flat(render_results(Results("Quiet night", count="placings")))
    assert "No game has been scored yet." in text
    assert "points by place at the table, ties shared" in text
    assert "Highest box" not in text


def test_a_name_in_another_script_is_set_at_the_standings_size() -> None:
    """A CJK or Hebrew name (another font, or shaping) is set at the size of the Latin
    names beside it in the standings, not the small cell size (issue 32)."""
    names = ("Ann", "日本太郎", "עברית")
    pdf = render_results(
        Results(
            "Night", standings=tuple(Standing(n, name, 10 - n, 1, 0, 1) for n, name in enumerate(names, 1))
        )
    )
    sizes: dict[str, set[float]] = {}

    def seen(said: str, _cm: object, tm: list[float], _font: object, size: float) -> None:
        for name in names:
            if said.strip() and said.strip() in name:
                sizes.setdefault(name, set()).add(round(size * abs(tm[0] or tm[3] or 1), 1))

    reader(pdf).pages[0].extract_text(visitor_text=seen)
    assert sizes["Ann"] == {9.5} and set(sizes) == set(names), sizes
    assert all(found == {9.5} for found in sizes.values()), sizes


def test_each_score_is_made_under_a_bold_name_in_every_script() -> None:
    # "How each score is made" set Latin names bold and Arabic, Devanagari, Thai and Hebrew
    # names in their regular face (issue 35's review of the results sheet). Chinese has no
    # bold face bundled (Droid Sans Fallback): not here.
    names = ("Ann", "محمد العربي", "अर्जुन शर्मा", "สมชาย ใจดี", "דוד כהן")
    made = tuple(ScoreLines(name, (("round 1 table 1: +10", False),), "+10") for name in names)
    pdf = render_results(Results("Night", lines=made))
    faces: dict[str, set[str]] = {}

    def seen(said: str, _cm: object, _tm: object, font: Any, _size: float) -> None:
        for name in names:
            if said.strip() and said.strip() in name and font is not None:
                faces.setdefault(name, set()).add(str(font["/BaseFont"]).split("+")[-1])

    page = reader(pdf).pages[0]
    page.extract_text(visitor_text=seen)
    assert set(faces) == set(names), faces
    for name, found in faces.items():
        assert all("Bold" in face for face in found), (name, found)
