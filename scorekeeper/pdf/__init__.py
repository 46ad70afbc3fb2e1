"""PDF score sheets and blank score pads, drawn with ReportLab.

Typed values in, bytes out: :func:`render_sheet` prints a game and its score sheet
(the engine's :class:`~scorekeeper.engine.contract.GameEntry` and
:class:`~scorekeeper.engine.contract.Sheet`), :func:`render_blank_pad` a pad to keep score on paper,
:func:`render_season` a player's season (:mod:`scorekeeper.records`). No Flask
and no database here; the web view and the CLI only send the bytes on.
"""

from .pad import render_blank_pad
from .season import render_season
from .sheet import render_sheet

__all__ = ["render_blank_pad", "render_season", "render_sheet"]
