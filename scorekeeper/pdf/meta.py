"""Where a printed sheet came from: the record the web (or the CLI) hands the PDF.

Everything a sheet brought to a dispute must answer about itself: which game,
which version of it, when and where it was played, when it was printed, by
which version of the app, and where to read it online. The PDF never reads a
clock or a request: what is not given prints as a line to fill in, or not at all.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata

from ..engine.substitutes import Substitute


@functools.cache
def installed_version() -> str:
    """The installed scorekeeper's version, as pip knows it."""
    try:
        return metadata.version("scorekeeper")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class SheetMeta:
    """The facts about a game that are not in the game itself (CONTRACT.md's game)."""

    game_id: str | None = None
    """The stored game's id, printed in every footer."""
    version: int | None = None
    """The game's version (it goes up with every box written), so two printouts compare."""
    created: datetime.datetime | None = None
    """When the game was started in the app: the sheet's date and the PDF's creation date."""
    started: datetime.datetime | None = None
    """When play began, when the table recorded it (else ``created`` stands for it)."""
    place: str = ""
    """Where the game was played, as the players wrote it."""
    printed: datetime.datetime | None = None
    """When the sheet was printed: the footer's time and the PDF's modification date."""
    app_version: str = field(default_factory=lambda: installed_version())
    read_only_url: str | None = None
    """The game's read-only page; a QR code to it stands in the title block when given."""
    currency: str = ""
    """The currency the stake is in ("EUR", "$"), printed with every amount of money."""
    revised: Mapping[str, int] = field(default_factory=dict)
    """A corrected box's version (2 after one edit), by the box's id as text: the sheet
    marks the box with it, so a printout shows which boxes changed since the first."""
    substitutes: tuple[Substitute, ...] = ()
    """Who plays a seat from which box (RULES.md E5): the title block names them."""

    @property
    def played(self) -> datetime.datetime | None:
        """When the game was played: its start, else its creation."""
        return self.started or self.created

    def footer(self) -> str:
        """The footer's trace line: game, version, printed time, app version.

        >>> SheetMeta("g7Qx", 12, printed=datetime.datetime(2026, 5, 1, 20, 5),
        ...           app_version="0.1.0").footer()
        'game g7Qx · version 12 · printed 2026-05-01 20:05 · scorekeeper 0.1.0'
        >>> SheetMeta(app_version="0.1.0").footer()
        'game not stored · scorekeeper 0.1.0'
        """
        parts = [f"game {self.game_id}" if self.game_id else "game not stored"]
        if self.version is not None:
            parts.append(f"version {self.version}")
        if self.printed is not None:
            parts.append(f"printed {stamp(self.printed)}")
        parts.append(f"scorekeeper {self.app_version}")
        return " · ".join(parts)


def stamp(moment: datetime.datetime) -> str:
    """A time as a sheet prints it, to the minute, with its zone when it has one.

    >>> stamp(datetime.datetime(2026, 5, 1, 20, 5, tzinfo=datetime.timezone.utc))
    '2026-05-01 20:05 UTC'
    """
    shown = moment.strftime("%Y-%m-%d %H:%M")
    zone = moment.tzname()
    return f"{shown} {zone}" if zone else shown


def pdf_date(moment: datetime.datetime) -> str:
    """A time in the PDF's date notation (ISO 32000 §7.9.4).

    >>> pdf_date(datetime.datetime(2026, 5, 1, 20, 5, 9))
    "D:20260501200509+00'00'"
    >>> pdf_date(datetime.datetime(2026, 5, 1, 20, 5, 9,
    ...          tzinfo=datetime.timezone(datetime.timedelta(hours=-5))))
    "D:20260501200509-05'00'"
    """
    offset = moment.utcoffset() or datetime.timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"D:{moment:%Y%m%d%H%M%S}{sign}{hours:02d}'{rest:02d}'"
