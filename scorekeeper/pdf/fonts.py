"""Every name in its own script: a fallback chain of embedded TrueType fonts, and shaping.

DejaVu Sans sets Latin, Greek, Cyrillic, Arabic and Hebrew letters and the suit
symbols. What it lacks is looked up, character by character, in the fallback
fonts shipped in ``scorekeeper/fonts`` (Droid Sans Fallback for Chinese,
Japanese and Korean, Symbola for emoji), so a name never prints as empty boxes.
Only TrueType outlines: ReportLab embeds and subsets those, never CFF.

Arabic is joined into its contextual letter forms (``arabic_reshaper``) and
Arabic and Hebrew are put in right-to-left order (``python-bidi``) before they
are drawn, since ReportLab draws characters in the order it is given them.
The fallback fonts are parsed only when a name needs them.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import escape

import arabic_reshaper  # type: ignore[import-untyped]
from bidi import get_display  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONTS_DIR = Path(__file__).resolve().parent.parent / "fonts"
FALLBACKS = (("DroidSansFallback", "DroidSansFallback.ttf"), ("Symbola", "Symbola.ttf"))
"""Tried in order for a character the body font lacks (name, file in FONTS_DIR)."""
ELLIPSIS = "…"


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """ReportLab's ToUnicode CMap with code points past U+FFFF written as UTF-16 surrogate
    pairs, as the PDF reference asks: ReportLab writes ``<1F600>``, which readers reject,
    so an emoji drew but could not be copied or searched.

    >>> "<00> <D83DDE00>" in _to_unicode_cmap("F", [0x1F600])
    True
    """
    entries = [f"<{i:02X}> <{chr(v).encode('utf-16-be').hex().upper()}>"
               for i, v in enumerate(subset)]
    return "\n".join([
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
        "/CIDSystemInfo", f"<< /Registry ({fontname})", f"/Ordering ({fontname})",
        "/Supplement 0", ">> def", f"/CMapName /{fontname} def", "/CMapType 2 def",
        "1 begincodespacerange", f"<00> <{len(subset) - 1:02X}>", "endcodespacerange",
        f"{len(subset)} beginbfchar", *entries, "endbfchar", "endcmap",
        "CMapName currentdict /CMap defineresource pop", "end", "end"])


@functools.cache
def register_fonts() -> None:
    """Register the DejaVu body fonts once per process (parsing them is slow), and mend
    ReportLab's ToUnicode CMap for characters past U+FFFF (emoji)."""
    ttfonts.makeToUnicodeCMap = _to_unicode_cmap
    pdfmetrics.registerFont(TTFont(FONT, str(FONTS_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(FONTS_DIR / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT,
                                  boldItalic=FONT_BOLD)


@functools.cache
def _glyphs(name: str) -> frozenset[int]:
    """The code points a registered font (a fallback is registered here, on first need) sets."""
    register_fonts()
    files = dict(FALLBACKS)
    if name in files:
        pdfmetrics.registerFont(TTFont(name, str(FONTS_DIR / files[name])))
    face = pdfmetrics.getFont(name)
    assert isinstance(face, TTFont)
    return frozenset(face.face.charToGlyph)


def _font_for(char: str, font: str) -> str:
    """The first font of the chain that has ``char`` (the body font when none has)."""
    if ord(char) < 0x370 or char.isspace() or ord(char) in _glyphs(font):
        return font
    for name, _ in FALLBACKS:
        if ord(char) in _glyphs(name):
            return name
    return font


def is_rtl(raw: str) -> bool:
    """Whether ``raw`` holds right-to-left letters (Arabic, Hebrew).

    >>> is_rtl("Ann"), is_rtl("עברית")
    (False, True)
    """
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in raw)


@functools.lru_cache(maxsize=4096)
def visual(raw: str) -> str:
    """``raw`` in the order its glyphs are drawn: Arabic joined, right-to-left runs reversed.

    >>> visual("Ann"), visual("אב")
    ('Ann', 'בא')
    """
    if not is_rtl(raw):
        return raw
    return str(get_display(arabic_reshaper.reshape(raw)))


@functools.lru_cache(maxsize=8192)
def runs(shown: str, font: str = FONT) -> tuple[tuple[str, str], ...]:
    """``shown`` (already in visual order) cut into (font, text) runs of one font each.

    >>> runs("Ann")
    (('DejaVuSans', 'Ann'),)
    >>> [name for name, _ in runs("Ann 日本")]
    ['DejaVuSans', 'DroidSansFallback']
    """
    register_fonts()
    pieces: list[tuple[str, str]] = []
    for char in shown:
        name = _font_for(char, font)
        if char.isspace() and pieces:
            name = pieces[-1][0]
        if pieces and pieces[-1][0] == name:
            pieces[-1] = (name, pieces[-1][1] + char)
        else:
            pieces.append((name, char))
    return tuple(pieces)


def plain(raw: str) -> bool:
    """Whether ``raw`` can be drawn as it is in the body fonts (no shaping, no fallback).

    >>> plain("Zoë"), plain("日本"), plain("עברית")
    (True, False, False)
    """
    return not is_rtl(raw) and all(name == FONT for name, _ in runs(raw, FONT)) and all(
        name == FONT_BOLD for name, _ in runs(raw, FONT_BOLD))


@functools.lru_cache(maxsize=8192)
def width(raw: str, font: str = FONT, size: float = 8, *, shaped: bool = False) -> float:
    """How wide ``raw`` prints, each run measured in the font that draws it."""
    shown = raw if shaped else visual(raw)
    return sum(pdfmetrics.stringWidth(piece, name, size) for name, piece in runs(shown, font))


def markup(raw: object, font: str = FONT, *, shaped: bool = False) -> str:
    """User text as Paragraph markup: escaped, shaped, and each fallback run in its font.

    >>> markup("<b>Ann & Co</b>")
    '&lt;b&gt;Ann &amp; Co&lt;/b&gt;'
    >>> markup("Ann 日本")
    'Ann <font face="DroidSansFallback">日本</font>'
    """
    value = str(raw)
    shown = value if shaped else visual(value)
    return "".join(escape(piece) if name in (FONT, FONT_BOLD, font)
                   else f'<font face="{name}">{escape(piece)}</font>'
                   for name, piece in runs(shown, font))


def shortened(raw: str, font: str, size: float, room: float, *, shaped: bool = False) -> str:
    """``raw`` in visual order, cut with an ellipsis at a word end when it can, to fit ``room``.

    >>> shortened("Maximiliano Hohenzollern", FONT, 8, 60)
    'Maximiliano…'
    """
    shown = raw if shaped else visual(raw)
    if width(shown, font, size, shaped=True) <= room:
        return shown
    cuts = list(_cuts(shown))
    for end in cuts:
        candidate = shown[:end].rstrip(" -") + ELLIPSIS
        if width(candidate, font, size, shaped=True) <= room:
            return candidate
    return ELLIPSIS


def _cuts(shown: str) -> Iterator[int]:
    """Where to cut, longest first: word ends while a word is left, then any character."""
    spaces = [i for i, c in enumerate(shown) if c in " -" and i > 0]
    yield from reversed(spaces)
    yield from range(len(shown) - 1, 0, -1)


def draw(canvas: Canvas, x: float, y: float, raw: str, font: str, size: float, *,
         align: str = "left", room: float | None = None) -> None:
    """Draw user text on the canvas run by run, shortened to ``room`` when given."""
    shown = shortened(raw, font, size, room) if room is not None else visual(raw)
    total = width(shown, font, size, shaped=True)
    if align == "right":
        x -= total
    elif align == "centre":
        x -= total / 2
    for name, piece in runs(shown, font):
        canvas.setFont(name, size)
        canvas.drawString(x, y, piece)
        x += pdfmetrics.stringWidth(piece, name, size)
