"""How cards look on the page: the tap grid's order and the coloured suit symbols.

The engine speaks ``7C`` in JSON and ``7♣`` to people; the page shows the symbol,
red for hearts and diamonds, and never relies on colour alone (the symbol is
always there).

>>> face("10H")
Markup('<span class="card red" title="10 of hearts">10♥</span>')
>>> str(suits("Bob laid off 4♦"))
'Bob laid off 4<span class="red">♦</span>'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from markupsafe import Markup, escape

from ..engine import SUIT_SYMBOLS, shown
from ..engine import spoken as engine_spoken

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {suit: SUIT_SYMBOLS[suit] for suit in "SHCD"}
"""Grid rows, black and red alternating so neighbouring rows are easy to tell apart
(the symbols are the engine's card notation)."""
RED = frozenset("HD")
ALL_CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)


def grid() -> list[tuple[str, str, list[str]]]:
    """The tap grid: one row per suit, ``(suit letter, symbol, codes A..K)``."""
    return [(suit, symbol, [rank + suit for rank in RANKS]) for suit, symbol in SUITS.items()]


def taps(name: str, kind: str, picked: Iterable[str] = (), suit_named: bool = True) -> Markup:
    """The tap grid's four rows of 13 cards, each card an input of ``kind``
    (``checkbox``: a hand's cards; ``radio``: the first upcard) named ``name``, the
    ``picked`` codes checked; ``suit_named``: each row says its suit (``data-suit``,
    which table.js's meld taps read)."""
    return _taps(name, kind, frozenset(picked), suit_named)


@functools.lru_cache(maxsize=256)
def _taps(name: str, kind: str, picked: frozenset[str], suit_named: bool) -> Markup:
    """:func:`taps`, drawn once per process for each name and cards picked: a new box's
    form has three grids of 52 taps with nothing picked, and drawing them cost half of
    the form's 12 ms (issue 34, ``benchmarks.request_mix``)."""
    rows = []
    for suit, symbol, codes in grid():
        red = " red" if suit in RED else ""
        named = f' data-suit="{suit}"' if suit_named else ""
        cells = "".join(
            f'<label class="tap"><input type="{escape(kind)}" name="{escape(name)}" value="{code}"'
            f' aria-label="{escape(spoken(code))}"{" checked" if code in picked else ""}>'
            f'<span aria-hidden="true">{code[:-1]}<b>{symbol}</b></span></label>'
            for code in codes
        )
        rows.append(f'<div class="suit-row{red}"{named}>{cells}</div>')
    return Markup("\n    ".join(rows))


def label(code: str) -> str:
    """People's notation of a JSON card code (``10H`` -> ``10♥``): the engine's."""
    return shown(code)


def spoken(code: str) -> str:
    """The card's name for screen readers: ``queen of spades`` (the engine's words)."""
    return engine_spoken(code)


def face(code: Any) -> Markup:
    """One card as a coloured chip."""
    text = str(code)
    red = " red" if text[-1:].upper() in RED else ""
    return Markup('<span class="card{}" title="{}">{}</span>').format(red, spoken(text), label(text))


def faces(codes: Iterable[Any]) -> Markup:
    """Several cards, for a meld or a hand."""
    return Markup(" ").join(face(code) for code in codes)


def suits(text: Any) -> Markup:
    """Escape text and colour the ♥ and ♦ it contains (explanations, messages)."""
    escaped = str(escape(text))
    for symbol in "♥♦":
        escaped = escaped.replace(symbol, f'<span class="red">{symbol}</span>')
    return Markup(escaped)
