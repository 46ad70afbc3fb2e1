"""Reading a PDF back: its pages' text, as the lines pypdf extracts."""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from pypdf import PdfReader
from reportlab.lib.units import mm

from scorekeeper.pdf.styles import MARGIN


def reader(pdf: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf))


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in reader(pdf).pages]


def lines(pdf: bytes) -> list[str]:
    """Every non-empty line of every page, stripped: one table cell is one line or more."""
    return [line.strip() for text in page_texts(pdf) for line in text.splitlines() if line.strip()]


def flat(pdf: bytes) -> str:
    """All the text with runs of white space made single spaces (wrapped names join up)."""
    return re.sub(r"\s+", " ", " ".join(page_texts(pdf)))


def contains_run(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether ``needle`` occurs in ``haystack`` as consecutive items.

    >>> contains_run(["1", "Ann", "5"], ["Ann", "5"]), contains_run(["1", "Ann"], ["1", "5"])
    (True, False)
    """
    size = len(needle)
    return any(list(haystack[i : i + size]) == list(needle) for i in range(len(haystack) - size + 1))


def page_size_mm(pdf: bytes, page: int = 0) -> tuple[int, int]:
    """A page's mediabox in whole millimetres."""
    box = reader(pdf).pages[page].mediabox
    return round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)


def pdftotext(pdf: bytes, *, layout: bool = False) -> str:
    """The text poppler's ``pdftotext`` reads (what a viewer's search and copy see), its
    pages joined by form feeds; the test is skipped where poppler is missing."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("pdftotext") is None:
        pytest.skip("needs poppler-utils (pdftotext)")
    command = ["pdftotext", *(["-layout"] if layout else []), "-enc", "UTF-8", "-", "-"]
    return subprocess.run(command, input=pdf, capture_output=True, check=True, timeout=60).stdout.decode()


def pdftotext_pages(pdf: bytes, *, layout: bool = False) -> list[list[str]]:
    """pdftotext's lines page by page (non-empty, stripped, bidi marks taken out)."""
    text = re.sub("[\u202a-\u202e]", "", pdftotext(pdf, layout=layout))
    pages = text.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return [[line.strip() for line in page.splitlines() if line.strip()] for page in pages]


def pdftotext_lines(pdf: bytes, *, layout: bool = False) -> list[str]:
    """pdftotext's non-empty lines, stripped, with poppler's bidi marks (U+202A-U+202E)
    taken out: a right-to-left run reads as typed between them."""
    text = re.sub("[\u202a-\u202e]", "", pdftotext(pdf, layout=layout))
    return [line.strip() for line in text.splitlines() if line.strip()]


def qr_modules(pdf: bytes, tmp_path: Path, dpi: int = 300) -> tuple[list[list[bool]], dict[str, float]]:
    """The QR code printed at the top right of page 1 read back from its pixels: the dark
    modules, row by row, and where the code stands in millimetres from the page's top and
    right edges (its ``top``, ``bottom`` and ``right``, and its ``side``). Only ink as dark
    as the tables' counts: the labels and the rules line are lighter. Empty when none."""
    source = tmp_path / "qr.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(dpi), "-f", "1", "-l", "1", str(source), str(tmp_path / "q")],
        check=True,
        timeout=60,
    )
    data = next(tmp_path.glob("q-*.pgm")).read_bytes()
    _, w, _, _, body = data.split(maxsplit=4)
    width = int(w)
    per_mm = dpi / 25.4
    right = width - round(MARGIN * per_mm / mm)
    # Beside the title block's fields: right of the last field's text, above the box table
    # (whose top rule is the first row dark all the way across).
    xs = range(right - round(17 * per_mm), right + round(1 * per_mm))
    dark: list[tuple[int, int]] = []
    for y in range(round(90 * per_mm)):
        row = [x for x in xs if body[y * width + x] < 80]
        if len(row) > 0.9 * len(xs):
            break
        dark += [(x, y) for x in row]
    if not dark:
        return [], {}
    x0, x1 = min(x for x, _ in dark), max(x for x, _ in dark)
    y0, y1 = min(y for _, y in dark), max(y for _, y in dark)
    # The finder pattern's top edge is 7 modules dark: it gives the module's size.
    middle = (y0 + 2) * width
    start = next(x for x in range(x0, x1 + 1) if body[middle + x] < 128)
    run = next(x for x in range(start, x1 + 2) if body[middle + x] >= 128) - start
    count = round((x1 - x0 + 1) / (run / 7))
    if count < 21:  # not a code: text (a field's words reach here when there is none)
        return [], {}
    step = (x1 - x0 + 1) / count
    grid = [
        [
            body[round(y0 + (r + 0.5) * step) * width + round(x0 + (c + 0.5) * step)] < 128
            for c in range(count)
        ]
        for r in range(count)
    ]
    where = {
        "top": y0 / per_mm,
        "bottom": (y1 + 1) / per_mm,
        "right": (width - x1 - 1) / per_mm,
        "side": (x1 - x0 + 1) / per_mm,
    }
    return grid, where


def has_finder(grid: list[list[bool]]) -> bool:
    """Whether ``grid`` has a QR code's top-left finder pattern: a dark ring of 7 modules,
    a light ring, a dark 3 × 3 centre."""
    if len(grid) < 21:
        return False
    ring = [grid[r][c] for r in range(7) for c in range(7) if r in (0, 6) or c in (0, 6)]
    gap = [grid[r][c] for r in range(1, 6) for c in range(1, 6) if r in (1, 5) or c in (1, 5)]
    centre = [grid[r][c] for r in range(2, 5) for c in range(2, 5)]
    return all(ring) and not any(gap) and all(centre)
