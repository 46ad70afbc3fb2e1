"""PDF score sheets and blank score pads, drawn with ReportLab.

Typed values in, bytes out: :func:`render_sheet` prints a game and its score sheet
(the engine's :class:`~scorekeeper.engine.contract.GameEntry` and
:class:`~scorekeeper.engine.contract.Sheet`), :func:`render_blank_pad` a pad to keep score on paper,
:func:`render_season` a player's season (:mod:`scorekeeper.records`). No Flask
and no database here; the web view and the CLI only send the bytes on.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .pad import render_blank_pad
    from .season import render_season
    from .sheet import render_sheet

__all__ = ["render_blank_pad", "render_season", "render_sheet"]

_MODULES = {"render_blank_pad": "pad", "render_season": "season", "render_sheet": "sheet"}
"""Where each entry point lives: loaded at its first use, not with the package. ReportLab
and the fonts cost about 0.4 s of CPU, which a process that never prints (a server's
start, the web app's import, the CLI's rules) need not pay; :mod:`.meta`, :mod:`.values`
and :mod:`.qr` load without them."""


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
