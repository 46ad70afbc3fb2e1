"""Every name in its own script: a fallback chain of embedded TrueType fonts, and shaping.

DejaVu Sans sets Latin, Greek and Cyrillic letters and the suit symbols; Noto Sans
Arabic sets Arabic in every joined form; Noto Sans Hebrew, Devanagari and Thai set
their scripts (:data:`SCRIPTS`, both weights, the weight of the text around them),
Devanagari and Thai shaped by HarfBuzz (:mod:`.shaping`). What DejaVu lacks is looked
up, character by character, in the fallback fonts shipped in ``scorekeeper/fonts``
(Droid Sans Fallback for Chinese, Japanese and Korean, Symbola for emoji), so a
name never prints as empty boxes. (Debian's Noto CJK fonts are CFF outlines in
collections, which ReportLab cannot embed: Droid Sans Fallback stays for CJK.)
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
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import arabic_reshaper  # type: ignore[import-untyped]
from bidi import get_display  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from . import shaping

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONTS_DIR = Path(__file__).resolve().parent.parent / "fonts"
FALLBACKS = (("DroidSansFallback", "DroidSansFallback.ttf"), ("Symbola", "Symbola.ttf"))
"""Tried in order for a character the body font lacks (name, file in FONTS_DIR)."""
ARABIC = {
    FONT: ("NotoSansArabic", "NotoSansArabic-Regular.ttf"),
    FONT_BOLD: ("NotoSansArabic-Bold", "NotoSansArabic-Bold.ttf"),
}
"""The font of Arabic letters, by the weight of the text around them: Noto Sans Arabic
has every joined form ``arabic_reshaper`` makes (DejaVu Sans lacks the Persian and Urdu
forms)."""
_ARABIC_BLOCKS = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


@dataclass(frozen=True)
class Script:
    """A script set in a Noto font of its own, in the weight of the text around it."""

    blocks: tuple[tuple[int, int], ...]
    regular: tuple[str, str]
    """(font name, file in FONTS_DIR)."""
    bold: tuple[str, str]
    shaped: bool
    """Whether HarfBuzz shapes it (:mod:`.shaping`): conjuncts, reordered vowel signs."""

    def face(self, font: str) -> tuple[str, str]:
        return self.bold if font == FONT_BOLD or font.endswith("-Bold") else self.regular


SCRIPTS = (
    Script(
        ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF)),
        ("NotoSansDevanagari", "NotoSansDevanagari-Regular.ttf"),
        ("NotoSansDevanagari-Bold", "NotoSansDevanagari-Bold.ttf"),
        shaped=True,
    ),
    Script(
        ((0x0E00, 0x0E7F),),
        ("NotoSansThai", "NotoSansThai-Regular.ttf"),
        ("NotoSansThai-Bold", "NotoSansThai-Bold.ttf"),
        shaped=True,
    ),
    # Hebrew is put in drawing order by the bidi algorithm (:func:`visual`), as Arabic is;
    # it has no joined forms, so Noto Sans Hebrew draws it unshaped.
    Script(
        ((0x0590, 0x05FF), (0xFB1D, 0xFB4F)),
        ("NotoSansHebrew", "NotoSansHebrew-Regular.ttf"),
        ("NotoSansHebrew-Bold", "NotoSansHebrew-Bold.ttf"),
        shaped=False,
    ),
)
"""Scripts DejaVu Sans does not draw well: each in its own Noto font, both weights."""
_SHAPED_FILES = {face: FONTS_DIR / file for s in SCRIPTS if s.shaped for face, file in (s.regular, s.bold)}
ELLIPSIS = "…"


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """ReportLab's ToUnicode CMap, mended so that the text layer holds what was typed:

    - code points past U+FFFF written as UTF-16 surrogate pairs, as the PDF reference
      asks (ReportLab writes ``<1F600>``, which readers reject: an emoji drew but could
      not be copied or searched);
    - an Arabic joined form (U+FB50-U+FEFF) read back as its plain letter(s), so a search
      for "محمد" finds the name drawn in its joined forms;
    - a glyph HarfBuzz made (:mod:`.shaping`) read back as the letters of its cluster.

    >>> "<00> <D83DDE00>" in _to_unicode_cmap("F", [0x1F600])
    True
    >>> "<00> <0644>" in _to_unicode_cmap("F", [0xFEDF])
    True
    """
    entries = [f"<{i:02X}> <{_read_back(v).encode('utf-16-be').hex().upper()}>" for i, v in enumerate(subset)]
    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            "/CIDSystemInfo",
            f"<< /Registry ({fontname})",
            f"/Ordering ({fontname})",
            "/Supplement 0",
            ">> def",
            f"/CMapName /{fontname} def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            f"<00> <{len(subset) - 1:02X}>",
            "endcodespacerange",
            f"{len(subset)} beginbfchar",
            *entries,
            "endbfchar",
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
    )


def _read_back(code: int) -> str:
    """What the text layer holds for a drawn code point (:func:`_to_unicode_cmap`)."""
    if 0xFB50 <= code <= 0xFDFF or 0xFE70 <= code <= 0xFEFF:
        # A joined form reads back as its letter; lam-alef, drawn as one glyph of a
        # right-to-left run, as its two letters in drawing order (readers put the run,
        # letters and all, back in reading order).
        return unicodedata.normalize("NFKC", chr(code))[::-1]
    return shaping.read_back(code)


@functools.cache
def register_fonts() -> None:
    """Register the DejaVu body fonts once per process (parsing them is slow), and mend
    ReportLab's ToUnicode CMap for characters past U+FFFF (emoji)."""
    ttfonts.makeToUnicodeCMap = _to_unicode_cmap
    pdfmetrics.registerFont(TTFont(FONT, str(FONTS_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(FONTS_DIR / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)


@functools.cache
def _glyphs(name: str) -> frozenset[int]:
    """The code points a registered font (a fallback is registered here, on first need) sets."""
    register_fonts()
    files = dict(FALLBACKS)
    if name in files:
        pdfmetrics.registerFont(TTFont(name, str(FONTS_DIR / files[name])))
    elif name in dict(ARABIC.values()):
        _register_arabic()
    else:
        _register_scripts()
    face = pdfmetrics.getFont(name)
    assert isinstance(face, TTFont)
    return frozenset(face.face.charToGlyph)


@functools.cache
def _register_arabic() -> None:
    """Both weights of the Arabic font, as a family: in a bold Paragraph the markup's
    ``<font face="NotoSansArabic">`` then sets the bold weight."""
    (regular, regular_file), (bold, bold_file) = ARABIC[FONT], ARABIC[FONT_BOLD]
    pdfmetrics.registerFont(TTFont(regular, str(FONTS_DIR / regular_file)))
    pdfmetrics.registerFont(TTFont(bold, str(FONTS_DIR / bold_file)))
    pdfmetrics.registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)


@functools.cache
def _register_scripts() -> None:
    """Both weights of each script's font, each its own family: a glyph string shaped for
    one weight (:mod:`.shaping`) is never drawn in the other, so ``<b>`` around it keeps
    its face; the weight is chosen by the text's own font (:func:`markup`)."""
    for script in SCRIPTS:
        for name, file in (script.regular, script.bold):
            pdfmetrics.registerFont(TTFont(name, str(FONTS_DIR / file)))
            pdfmetrics.registerFontFamily(name, normal=name, bold=name, italic=name, boldItalic=name)


def _font_for(char: str, font: str) -> str:
    """The first font of the chain that has ``char`` (the body font when none has)."""
    code = ord(char)
    if code < 0x370 or char.isspace():
        return font
    if any(low <= code <= high for low, high in _ARABIC_BLOCKS):
        arabic = ARABIC.get(font, ARABIC[FONT])[0]
        if code in _glyphs(arabic):
            return arabic
    for script in SCRIPTS:
        if any(low <= code <= high for low, high in script.blocks):
            _register_scripts()
            return script.face(font)[0]
    if code in _glyphs(font):
        return font
    for name, _ in FALLBACKS:
        if ord(char) in _glyphs(name):
            return name
    return font


_RTL = ("R", "AL")
_INSIDE_NAME = frozenset(" \u00a0-'.\u200c\u200d")
"""What may stand between two right-to-left letters and still belong to the same name."""


@functools.cache
def _reshaper() -> arabic_reshaper.ArabicReshaper:
    """Arabic joining with the one ligature the script requires, lam with alef.

    ``arabic_reshaper``'s other ligatures are word ligatures that draw what nobody
    typed: "محمد" became U+FDF4, which Noto Sans Arabic draws with a shadda and
    vowel marks, and "الله" U+FDF2 with its marks. A name prints as typed, its letters
    joined (issue 35).
    """
    from arabic_reshaper.ligatures import LIGATURES  # type: ignore[import-untyped]

    lam_alef = "ARABIC LIGATURE LAM WITH ALEF"
    required = {
        lam_alef,
        *(f"{lam_alef} WITH {mark}" for mark in ("HAMZA ABOVE", "HAMZA BELOW", "MADDA ABOVE")),
    }
    config = {name: name in required for name, _ in LIGATURES}
    return arabic_reshaper.ArabicReshaper(configuration=config)


def _covered(char: str) -> str:
    """``char``, or its plain letter when no font of the chain has the joined form
    (a few Persian and Urdu forms): unjoined rather than an empty box."""
    if any(ord(char) in _glyphs(name) for name in (FONT, ARABIC[FONT][0], *dict(FALLBACKS))):
        return char
    return unicodedata.normalize("NFKC", char)


def _rtl_runs(raw: str) -> Iterator[tuple[bool, str]]:
    """``raw`` cut into (right-to-left, text) runs: a right-to-left run starts and ends
    with a right-to-left letter and holds only letters, marks, spaces and the joiners
    of a name, so each name is one run and a comma or a number ends it.

    >>> list(_rtl_runs("Ann pays דוד כהן 5, עב"))
    [(False, 'Ann pays '), (True, 'דוד כהן'), (False, ' 5, '), (True, 'עב')]
    """
    start, n = 0, 0
    while n < len(raw):
        if unicodedata.bidirectional(raw[n]) not in _RTL:
            n += 1
            continue
        end = last = n
        while end < len(raw):
            kind = unicodedata.bidirectional(raw[end])
            if kind in _RTL:
                last = end
            elif kind != "NSM" and raw[end] not in _INSIDE_NAME and raw[end] != ELLIPSIS:
                break
            end += 1
        if last + 1 < len(raw) and raw[last + 1] == ELLIPSIS:
            last += 1  # a shortened name keeps its ellipsis at its own end
        if start < n:
            yield False, raw[start:n]
        yield True, raw[n : last + 1]
        start = n = last + 1
    if start < len(raw):
        yield False, raw[start:]


def is_rtl(raw: str) -> bool:
    """Whether ``raw`` holds right-to-left letters (Arabic, Hebrew).

    >>> is_rtl("Ann"), is_rtl("עברית")
    (False, True)
    """
    return any(unicodedata.bidirectional(c) in _RTL for c in raw)


@functools.lru_cache(maxsize=4096)
def visual(raw: str) -> str:
    """``raw`` (as typed) in the order its glyphs are drawn on a left-to-right line.

    Each right-to-left name is reordered on its own, as if isolated: the line
    around it keeps its order, numbers beside it stay where they are, and its
    words are held together by no-break spaces so a line never breaks inside it
    (a name that must wrap is cut into lines before this, by :func:`.styles.fitted`).
    Arabic is joined first. Call this exactly once on any text: the functions
    here take text as typed and do it themselves.

    >>> visual("Ann"), visual("אב")
    ('Ann', 'בא')
    >>> visual("Ann pays דוד כהן 5")
    'Ann pays ןהכ\xa0דוד 5'
    """
    if not is_rtl(raw):
        return raw
    out = []
    for rtl, part in _rtl_runs(raw):
        if rtl:
            shaped = "".join(_covered(c) for c in _reshaper().reshape(part))
            part = str(get_display(shaped, base_dir="R")).replace(" ", "\u00a0")
        out.append(part)
    return "".join(out)


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
    return tuple((name, _shaped(piece, name)) for name, piece in pieces)


def _shaped(piece: str, name: str) -> str:
    """A run of a shaped script as its font's glyphs (:mod:`.shaping`), else as it is."""
    path = _SHAPED_FILES.get(name)
    return shaping.shaped(piece, name, path) if path is not None else piece


def plain(raw: str) -> bool:
    """Whether ``raw`` can be drawn as it is in the body fonts (no shaping, no fallback).

    >>> plain("Zoë"), plain("日本"), plain("עברית")
    (True, False, False)
    """
    return (
        not is_rtl(raw)
        and all(name == FONT for name, _ in runs(raw, FONT))
        and all(name == FONT_BOLD for name, _ in runs(raw, FONT_BOLD))
    )


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
    return "".join(
        escape(piece) if name in (FONT, FONT_BOLD, font) else f'<font face="{name}">{escape(piece)}</font>'
        for name, piece in runs(shown, font)
    )


def shortened(raw: str, font: str, size: float, room: float) -> str:
    """``raw`` as typed, cut with an ellipsis at a word end when it can, to fit ``room``
    once drawn: a name loses its end, never its start, in any script.

    >>> shortened("Maximiliano Hohenzollern", FONT, 8, 60)
    'Maximiliano…'
    >>> shortened("محمد العربي", FONT, 8, 30)
    'محمد…'
    """
    if width(raw, font, size) <= room:
        return raw
    for end in _cuts(raw):
        candidate = raw[:end].rstrip(" -") + ELLIPSIS
        if width(candidate, font, size) <= room:
            return candidate
    return ELLIPSIS


def _cuts(shown: str) -> Iterator[int]:
    """Where to cut, longest first: word ends while a word is left, then any character
    that starts a syllable (never before a vowel sign or mark, never after a virama: a
    shortened "अर्जुन" keeps whole syllables).

    >>> list(_cuts("कि क"))
    [2, 3, 2]
    """
    spaces = [i for i, c in enumerate(shown) if c in " -" and i > 0]
    yield from reversed(spaces)
    yield from (
        i
        for i in range(len(shown) - 1, 0, -1)
        if not unicodedata.category(shown[i]).startswith("M") and shown[i - 1] not in _VIRAMAS
    )


_VIRAMAS = frozenset("\u094d\u0e3a")
"""Signs that join the letter after them into one syllable (Devanagari's virama, Thai's
phinthu)."""


def draw(
    canvas: Canvas,
    x: float,
    y: float,
    raw: str,
    font: str,
    size: float,
    *,
    align: str = "left",
    room: float | None = None,
) -> None:
    """Draw user text (as typed) on the canvas run by run, shortened to ``room`` when given."""
    shown = visual(shortened(raw, font, size, room) if room is not None else raw)
    total = width(shown, font, size, shaped=True)
    if align == "right":
        x -= total
    elif align == "centre":
        x -= total / 2
    for name, piece in runs(shown, font):
        canvas.setFont(name, size)
        canvas.drawString(x, y, piece)
        x += pdfmetrics.stringWidth(piece, name, size)
