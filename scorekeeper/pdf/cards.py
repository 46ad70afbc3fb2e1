"""Cards and rule citations as Paragraph markup: real suit symbols, red hearts and diamonds.

The engine speaks JSON notation (``7C``, ``10H``); people read ``7♣`` and
``10♥``. Everything here returns markup for a ReportLab ``Paragraph`` with the
user's text escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .styles import RED, text

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = "♥♦♡♢"
_RED_HEX = RED.hexval()[2:]
_RED_SYMBOL = re.compile(f"([{RED_SUITS}])")


def red(markup: str) -> str:
    """Markup printed in the red of hearts and diamonds."""
    return f'<font color="#{_RED_HEX}">{markup}</font>'


def card(code: object) -> str:
    """One card in people's notation, red when it is a heart or a diamond.

    >>> card("7C")
    '7♣'
    >>> card("Th") == red("10♥")
    True
    """
    value = str(code).strip()
    rank, suit = value[:-1].upper(), value[-1:].upper()
    rank = "10" if rank == "T" else rank
    symbol = SYMBOLS.get(suit, suit)
    shown = text(rank + symbol)
    return red(shown) if symbol in RED_SUITS else shown


def cards(codes: Iterable[object]) -> str:
    """Cards separated by spaces, as they lie on the table.

    >>> cards(["AS", "2S", "3S"])
    'A♠ 2♠ 3♠'
    """
    return " ".join(card(c) for c in codes)


def melds(groups: Sequence[Sequence[object]]) -> str:
    """Melds set apart by a wide gap, each one read left to right."""
    return " &nbsp;·&nbsp; ".join(cards(group) for group in groups)


def suited(value: object) -> str:
    """Free text (an explanation, a note) escaped, with its suit symbols in colour.

    >>> suited("Cal laid off 4♥ & 5♠") == "Cal laid off 4" + red("♥") + " &amp; 5♠"
    True
    """
    return _RED_SYMBOL.sub(lambda m: red(m.group(1)), text(value))


def layoff(item: Mapping[str, Any], hands: Mapping[str, Any]) -> str:
    """A layoff as "4♠ on Bob's A♠ 2♠ 3♠" (or "on Bob" when the meld is unknown)."""
    onto = str(item.get("onto", ""))
    shown = f"{card(item.get('card', ''))} on {text(onto)}"
    meld = item.get("meld")
    target = hands.get(onto) or {}
    groups = target.get("melds") or []
    if isinstance(meld, int) and 0 <= meld < len(groups):
        shown += f"’s {cards(groups[meld])}"
    return shown
