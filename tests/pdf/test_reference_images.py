"""Every preset's sheet and pad, A4 and letter, drawn by poppler and compared with reviewed
reference images (tests/pdf/reference/), so an accidental change of layout fails.

The comparison allows for anti-aliasing and font-rasteriser differences: the page sizes
must match exactly, the mean grey difference must stay under ``MEAN`` levels and at most
``CHANGED`` of the pixels may differ strongly. After a deliberate change of layout, look at
the new pages, then write them as the references with
``SCOREKEEPER_UPDATE_REFERENCES=1 pytest tests/pdf/test_reference_images.py``.
"""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from scorekeeper import engine
from scorekeeper.pdf import render_blank_pad
from scorekeeper.pdf.meta import SheetMeta

from . import games

REFERENCES = Path(__file__).with_name("reference")
DPI = "40"
MEAN = 1.5
"""Mean absolute grey difference allowed, in levels of 255."""
CHANGED = 0.004
"""Share of pixels allowed to differ by more than 64 levels."""
META = SheetMeta(
    "ref1",
    7,
    created=datetime.datetime(2026, 5, 1, 19, 30),
    printed=datetime.datetime(2026, 5, 2, 9, 0),
    place="Club Nord",
    read_only_url="http://192.168.1.20:8000/g/ref1",
    currency="EUR",
    app_version="reference",
)
UPDATE = os.environ.get("SCOREKEEPER_UPDATE_REFERENCES") == "1"

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


def render(kind: str, preset: str, size: str) -> bytes:
    if kind == "pad":
        return render_blank_pad(preset, page_size=size, printed=datetime.date(2026, 5, 2))
    game = games.preset_game(preset)
    return games.sheet_pdf(game, page_size=size, meta=META)


def pages(pdf: bytes, where: Path) -> list[Image.Image]:
    """The PDF's pages as grey images at ``DPI``."""
    source = where / "page.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-gray", "-r", DPI, str(source), str(where / "p")], check=True, timeout=120
    )
    return [Image.open(path).convert("L") for path in sorted(where.glob("p-*.png"))]


def differs(page: Image.Image, reference: Image.Image) -> str | None:
    """Why ``page`` is not ``reference`` within the tolerance, or None when it is."""
    if page.size != reference.size:
        return f"size {page.size} instead of {reference.size}"
    delta = ImageChops.difference(page, reference)
    mean = ImageStat.Stat(delta).mean[0]
    strong = sum(delta.histogram()[65:]) / (page.size[0] * page.size[1])
    if mean > MEAN or strong > CHANGED:
        return f"mean difference {mean:.2f}, {strong:.2%} of pixels changed strongly"
    return None


@pytest.mark.parametrize("size", ["A4", "letter"])
@pytest.mark.parametrize("kind", ["sheet", "pad"])
@pytest.mark.parametrize("preset", list(engine.PRESETS))
def test_the_pages_look_as_reviewed(preset: str, kind: str, size: str, tmp_path: Path) -> None:
    drawn = pages(render(kind, preset, size), tmp_path)
    name = f"{preset}-{kind}-{size.lower()}"
    if UPDATE:
        REFERENCES.mkdir(exist_ok=True)
        for old in REFERENCES.glob(f"{name}-*.png"):
            old.unlink()
        for number, page in enumerate(drawn, start=1):
            page.save(REFERENCES / f"{name}-{number}.png", optimize=True)
    references = sorted(REFERENCES.glob(f"{name}-*.png"))
    assert len(drawn) == len(references), f"{name}: {len(drawn)} pages, {len(references)} reviewed"
    for number, (page, path) in enumerate(zip(drawn, references, strict=True), start=1):
        reason = differs(page, Image.open(path).convert("L"))
        assert reason is None, f"{name} page {number}: {reason}"


@pytest.mark.parametrize("size", ["A4", "letter"])
def test_names_in_every_script_look_as_reviewed(size: str, tmp_path: Path) -> None:
    """Arabic (with the lam-lam-heh ligature), Hebrew and Chinese names in every block of
    an eleven-box sheet with detail: each name in its own order, no empty box."""
    game = games.jersey_game(11, players=["محمد العربي", "דוד כהן", "李雷"])
    game["boxes"][0]["note"] = "عبد الله kept score"
    drawn = pages(games.sheet_pdf(game, page_size=size, meta=META, detail=True), tmp_path)
    name = f"scripts-sheet-{size.lower()}"
    if UPDATE:
        for old in REFERENCES.glob(f"{name}-*.png"):
            old.unlink()
        for number, page in enumerate(drawn, start=1):
            page.save(REFERENCES / f"{name}-{number}.png", optimize=True)
    references = sorted(REFERENCES.glob(f"{name}-*.png"))
    assert len(drawn) == len(references), f"{name}: {len(drawn)} pages, {len(references)} reviewed"
    for number, (page, path) in enumerate(zip(drawn, references, strict=True), start=1):
        assert differs(page, Image.open(path).convert("L")) is None, f"{name} page {number}"


def test_the_comparison_catches_a_moved_table(tmp_path: Path) -> None:
    """The tolerance is not so loose that a layout change passes: a page shifted by 2 mm fails."""
    (page,) = pages(render("pad", "gin", "A4"), tmp_path)
    shifted = Image.new("L", page.size, 255)
    shifted.paste(page, (0, 3))
    assert differs(page, page) is None
    assert differs(shifted, page) is not None
