"""The pages really render: poppler's pdftoppm draws them, suits in red, nothing blank."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from scorekeeper.pdf import render_blank_pad

PDFTOPPM = shutil.which("pdftoppm")
needs_poppler = pytest.mark.skipif(
    PDFTOPPM is None, reason="pdftoppm (Debian poppler-utils) is not installed; `make test` installs it"
)


def to_images(pdf: bytes, tmp_path: Path, *args: str) -> list[Path]:
    assert PDFTOPPM is not None
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    subprocess.run([PDFTOPPM, *args, str(source), str(tmp_path / "page")], check=True, timeout=60)
    return sorted(tmp_path.glob("page-*"))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header, after checking it is one."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def ppm_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and RGB bytes of a binary PPM (what pdftoppm writes by default)."""
    data = path.read_bytes()
    magic, width, height, depth, pixels = data.split(maxsplit=4)
    assert magic == b"P6" and depth == b"255"
    return int(width), int(height), pixels


@needs_poppler
def test_every_page_renders_to_a_png_of_the_page_size(jersey_pdf: bytes, tmp_path: Path) -> None:
    pages = to_images(jersey_pdf, tmp_path, "-png", "-r", "30")
    assert len(pages) == 3
    # A4 at 30 dots an inch: 595.3 × 841.9 points are 248.0 × 350.8 pixels, rounded up.
    assert all(png_size(page) == (249, 351) for page in pages)


@needs_poppler
def test_pages_have_ink_and_red_suits(jersey_pdf: bytes, tmp_path: Path) -> None:
    pages = [ppm_pixels(p) for p in to_images(jersey_pdf, tmp_path, "-r", "60")]
    for width, height, pixels in pages:
        assert len(pixels) == width * height * 3
        dark = sum(1 for i in range(0, len(pixels), 3) if pixels[i] < 128)
        assert dark > 2000
    # The box detail page draws hearts and diamonds in red: strong red, little green.
    _, _, detail = pages[2]
    red = sum(
        1 for i in range(0, len(detail), 3) if detail[i] > 150 and detail[i + 1] < 90 and detail[i + 2] < 110
    )
    assert red > 50


@needs_poppler
def test_a_letter_pad_renders(tmp_path: Path) -> None:
    # The rows on one sheet, the summary on its own (issue 35): both letter-sized.
    pages = to_images(render_blank_pad("jersey-scarne", page_size="letter"), tmp_path, "-png", "-r", "30")
    assert len(pages) == 2 and all(png_size(page) == (255, 330) for page in pages)
