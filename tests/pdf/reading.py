"""Reading a PDF back: its pages' text, as the lines pypdf extracts."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from pypdf import PdfReader


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
