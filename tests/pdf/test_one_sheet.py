"""One sheet for an evening's game (issue 35): up to 15 boxes with ordinary full names
(20 characters) print on one page without detail, on A4 and on letter, with a currency;
each box keeps one line, the dealer and winner by a short form the seat list explains."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
import segno

from scorekeeper import engine
from scorekeeper.pdf.blocks import short_names, widened
from scorekeeper.pdf.meta import SheetMeta
from scorekeeper.pdf.qr import QR_MASK

from . import games
from .reading import pdftotext_lines, qr_modules, reader

NAMES = ["Margarethe Johansson", "Bartholomew Ingallsx", "Constance Whitfieldo"]
ARABIC = ["محمد عبد الرحمن يوسف", "فاطمة الزهراء بن علي", "عبد الله بن عمر حسين"]
DEVANAGARI = ["अर्जुन विश्वनाथ राणा", "प्रियंका रानी सिन्हा", "सिद्धार्थ मुखर्जी ओम"]
assert {len(n) for n in NAMES + ARABIC + DEVANAGARI} == {20}
FURNISHED = SheetMeta(
    "eve1",
    3,
    created=datetime.datetime(2026, 5, 1, 19, 30),
    printed=datetime.datetime(2026, 5, 2, 9, 0),
    place="Club Nord",
    read_only_url="http://192.168.1.20:8000/g/eve1",
    currency="EUR",
)
"""Everything a club's sheet can carry at its top: a place, a currency (the game's own is
USD) and the QR code to the game's page."""


@pytest.fixture(scope="module")
def evening() -> dict[str, object]:
    game = games.evening_game(17, NAMES)  # 15 boxes and 2 misdeals
    score = engine.score(game)
    assert score["game_over"] and sum(b["result"] != "misdeal" for b in score["boxes"]) == 15
    return game


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_fifteen_boxes_of_twenty_character_names_are_one_page(evening: dict[str, object], paper: str) -> None:
    pdf = games.sheet_pdf(evening, detail=False, page_size=paper)
    assert len(reader(pdf).pages) == 1
    lines = pdftotext_lines(pdf, layout=True)
    text = "\n".join(lines)
    # Everything an evening's sheet has is on its one page: the end, money, the working.
    for said in ("Final total", "Settlement", "Net result", "Running totals", "J16", "V6", "$"):
        assert said in text, said
    # Each box is one line: its number, the dealer's and winner's short names, its numbers.
    rows = [line for line in lines if re.match(r"\d+ +\S+ +(K|G|U|B|BG) +\S+ +\d", line)]
    assert [row.split()[0] for row in rows] == [str(n) for n in range(1, 16)]
    assert rows and all("Johansson" not in row and "Ingallsx" not in row for row in rows)
    assert lines.index(next(r for r in rows if r.startswith("1 "))) < lines.index(
        next(r for r in rows if r.startswith("15 "))
    )
    # The seat list above names every player whole.
    for name in NAMES:
        assert name in text


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize(
    ("names", "meta"),
    [
        (NAMES, FURNISHED),
        (ARABIC, FURNISHED),
        (DEVANAGARI, None),
        ([NAMES[0], ARABIC[0], DEVANAGARI[0]], FURNISHED),
    ],
    ids=["latin-furnished", "arabic-furnished", "devanagari-bare", "mixed-furnished"],
)
def test_an_evening_with_place_currency_and_qr_code_is_one_page(
    names: list[str], meta: SheetMeta | None, paper: str, tmp_path: Path
) -> None:
    # On letter with a place, a currency and the QR code in the footer the settlement's
    # V6 line spilled onto a page of its own (issue 35): the code stands in the title block.
    game = games.evening_game(17, names)
    pdf = games.sheet_pdf(game, detail=False, page_size=paper, meta=meta)
    assert len(reader(pdf).pages) == 1
    text = " ".join(pdftotext_lines(pdf))
    symbol = "€" if meta else "$"
    for said in (
        "Final total",
        "Settlement",
        "Net result",
        "Money",
        "J16",
        "V6",
        f"at {symbol}0.05 a point:",
    ):
        assert said in text, said
    # Every payment's money line and its amount, each in the unit of the game's money.
    assert len(re.findall(rf"−?{re.escape(symbol)}\d+\.\d\d", text)) >= 9
    if meta:
        assert {"Club", "Nord", "ONLINE", "2026-05-01"} <= set(text.split())
        # The code on the page is the game's address, module for module (test_paper's test).
        grid, _ = qr_modules(pdf, tmp_path, dpi=200)
        assert meta.read_only_url is not None
        assert grid == [
            [bool(m) for m in row] for row in segno.make(meta.read_only_url, error="m", mask=QR_MASK).matrix
        ]
    for name in names:  # the seat list names everyone whole, in the text layer as typed
        assert name in text, name


def test_the_short_form_is_the_first_name_or_initials_when_first_names_clash() -> None:
    assert short_names(NAMES, 22 * 2.8346) == {n: n.split()[0] for n in NAMES}
    twins = ["Margarethe Johansson", "Margarethe Ingallsxy"]
    assert short_names(twins, 22 * 2.8346) == {twins[0]: "MJ1", twins[1]: "MI2"}


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_a_field_of_the_title_block_is_never_narrower_than_its_longest_word(
    evening: dict[str, object], paper: str
) -> None:
    # With a place, a currency and the QR code the title block has five fields beside the
    # long seat list; the date's field was cut to "2026-05-0" over "1" (issue 35's review).
    meta = SheetMeta(
        "eve1",
        3,
        created=datetime.datetime(2026, 5, 1, 19, 30),
        printed=datetime.datetime(2026, 5, 2, 9, 0),
        place="Club Nord",
        read_only_url="http://192.168.1.20:8000/g/eve1",
        currency="EUR",
    )
    pdf = games.sheet_pdf(evening, detail=False, page_size=paper, meta=meta)
    words = " ".join(pdftotext_lines(pdf)).split()
    assert "2026-05-01" in words
    assert "2026-05-0" not in words
    # ... and the room it takes comes from fields that wrap, never from the seat list.
    said = " ".join(words)
    assert f"first dealer {evening['dealer']}" in said
    for name in NAMES:
        assert name in said


def test_widened_fields_take_their_room_from_the_others() -> None:
    # 10 points short; the others spare 40 and 80 beyond their needs: they give a third and
    # two thirds of it.
    assert widened([40.0, 60.0, 100.0], [50.0, 20.0, 20.0]) == pytest.approx(
        [50.0, 60 - 10 / 3, 100 - 20 / 3]
    )
    # Short of 50 with 10 to spare: the short field gets the 10, the other keeps its need.
    assert widened([40.0, 60.0], [90.0, 50.0]) == [50.0, 50.0]
    # Two short fields share what is spared in proportion to what each is short.
    assert widened([40.0, 40.0, 100.0], [70.0, 50.0, 80.0]) == pytest.approx([55.0, 45.0, 80.0])
    # Nobody can spare anything: the widths stay as they were.
    assert widened([40.0, 60.0], [90.0, 60.0]) == [40.0, 60.0]


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("preset", ["jersey-scarne", "three-hand-parlett", "knock-rummy"])
def test_no_label_of_the_title_block_wraps(preset: str, paper: str) -> None:
    # Short names (Ann, Bob, Cal) asked little room for the seat list and its label wrapped
    # to "PLAYERS IN SEAT" over "ORDER": the whole block a line taller (issue 35's review).
    pdf = games.sheet_pdf(games.preset_game(preset), page_size=paper, meta=FURNISHED)
    lines = pdftotext_lines(pdf)
    for label in ("DATE", "PLACE", "PLAYERS IN SEAT ORDER", "STAKE", "GAME", "ONLINE"):
        assert label in lines, label


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_a_payment_between_two_full_names_is_one_line(evening: dict[str, object], paper: str) -> None:
    # Beside the chart on A4 the settlement's name columns wrapped "Margarethe / Johansson"
    # while its figure columns stood half empty (issue 35's review).
    pdf = games.sheet_pdf(evening, detail=False, page_size=paper, meta=FURNISHED)
    score = engine.score(evening)
    lines = pdftotext_lines(pdf, layout=True)
    for payment in score["settlement"]:
        row = rf"^{payment['from']} +{payment['to']} +{payment['points']} +€\d+\.\d\d\b"
        assert any(re.match(row, line) for line in lines), payment
