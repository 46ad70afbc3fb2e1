"""Scripts that need more than a font: Devanagari and Thai shaped with HarfBuzz.

ReportLab draws one glyph per character, in the order it is given them. That is
right for Latin, Greek, Cyrillic and Chinese, wrong for Devanagari ("अर्जुन":
the reph is drawn over the next letter, the vowel sign ि before its consonant,
conjuncts are glyphs of their own) and for Thai's stacked marks. HarfBuzz (the
``uharfbuzz`` binding, the shaper ReportLab's own ``shaping`` option calls)
turns a run of such text into the font's glyphs in drawing order with their
advances; each glyph is given a code point the embedded font maps to it, so the
rest of the package (widths, markup, Paragraphs, the canvas) draws the run as it
draws any other string.

Searching and copying read the text layer, not the glyphs: every code point made
here is a private one (plane 15) that the PDF's ToUnicode map turns back into
the letters as typed. The glyphs of a cluster (a syllable) stand for its letters
in the order typed, one each and the last the rest (:func:`_share`), so "अर्जुन"
reads back as typed although its glyphs are drawn in another order, and no glyph
reads as nothing where a reader would take its room for a space.

The faces are parsed once; the codes are kept for the process, as ReportLab keeps
its fonts.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import uharfbuzz  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

_FIRST_CODE = 0xF0000
"""Supplementary Private Use Area-A: no bundled font maps anything there."""
_codes: dict[tuple[str, int, str, int], int] = {}
TEXT_OF: dict[int, str] = {}
"""What each made code point stands for in the text layer (the letters as typed, or "")."""


@functools.cache
def _hb_font(path: Path) -> Any:
    """HarfBuzz's font for a file, at its own units (an em of ``upem``)."""
    return uharfbuzz.Font(uharfbuzz.Face(uharfbuzz.Blob(path.read_bytes())))


def _glyph_runs(text: str, path: Path) -> list[tuple[int, int, int]]:
    """(glyph id, first character of its cluster, advance in font units), drawing order."""
    buffer = uharfbuzz.Buffer()
    buffer.add_codepoints([ord(c) for c in text])
    buffer.guess_segment_properties()
    uharfbuzz.shape(_hb_font(path), buffer, {})
    return [
        (info.codepoint, info.cluster, position.x_advance)
        for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True)
    ]


def _code(face_name: str, face: Any, glyph: int, said: str, advance: float) -> int:
    """The code point that draws ``glyph`` ``advance`` wide in this face and reads back as
    ``said``: the glyph's own character when it is that, else a private one made here."""
    own = face.glyphToChar.get(glyph, ())
    if len(said) == 1 and ord(said) in own and face.charWidths.get(ord(said)) == round(advance):
        return ord(said)
    key = (face_name, glyph, said, round(advance))
    code = _codes.get(key)
    if code is None:
        code = _codes[key] = _FIRST_CODE + len(_codes)
        TEXT_OF[code] = said
        face.charToGlyph[code] = glyph
        face.glyphToChar.setdefault(glyph, []).append(code)
        face.charWidths[code] = round(advance)
    return code


@functools.lru_cache(maxsize=4096)
def shaped(text: str, font_name: str, path: Path) -> str:
    """``text`` (a run of one script, as typed) as the glyphs the registered TrueType font
    ``font_name`` (read from ``path``) draws for it, in drawing order: a string ReportLab
    measures and draws as it does any other.

    Each cluster's text is read back from its first glyph (see the module's docstring).
    """
    font = pdfmetrics.getFont(font_name)
    assert isinstance(font, TTFont)
    face = font.face
    scale = face._pdfScale(1)  # type: ignore[attr-defined]
    glyphs = _glyph_runs(text, path)
    starts = [*sorted({cluster for _, cluster, _ in glyphs}), len(text)]
    ends = dict(itertools.pairwise(starts))
    drawn: dict[int, int] = {}
    for _, cluster, _ in glyphs:
        drawn[cluster] = drawn.get(cluster, 0) + 1
    out, told = [], dict.fromkeys(drawn, 0)
    for glyph, cluster, advance in glyphs:
        said = _share(text[cluster : ends[cluster]], told[cluster], drawn[cluster])
        told[cluster] += 1
        out.append(chr(_code(font_name, face, glyph, said, advance * scale)))
    return "".join(out)


def _share(letters: str, nth: int, glyphs: int) -> str:
    """The letters of a cluster the ``nth`` of its ``glyphs`` reads back as: one each in
    drawing order, the last glyph the rest, so that the cluster reads as typed and no
    glyph that takes room reads as nothing (a reader takes the room of a glyph that
    says nothing for a space: "प्रि यंका" for "प्रियंका").

    >>> [_share("कि", n, 2) for n in range(2)], [_share("र्जु", n, 3) for n in range(3)]
    (['क', 'ि'], ['र', '्', 'जु'])
    >>> [_share("क्ष", 0, 1)], [_share("a", n, 2) for n in range(2)]
    (['क्ष'], ['a', ''])
    """
    if nth == glyphs - 1:
        return letters[nth:]
    return letters[nth : nth + 1]


def read_back(code: int) -> str:
    """What the text layer reads for a drawn code point: the letters a made code stands
    for, else the character itself.

    >>> read_back(ord("A"))
    'A'
    """
    return TEXT_OF.get(code, chr(code))
