"""The typed values the PDFs of a club night and a club's season are printed from
(:mod:`.events`, :mod:`.ladder`): plain dataclasses, no ReportLab, so the web app builds
them without loading the PDF's libraries (about 0.4 s of CPU at every start) and sends
them to the printing process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableCard:
    """One table of one round, as its card shows it."""

    event: str
    round: int
    table: int
    seats: tuple[str, ...]
    """The players in seat order (seat 1 first); the game's first dealer is seat 1's
    cut, as the sheet says."""
    url: str | None = None
    """The link the QR code opens: the table's game to score it (its join link)."""
    code: str | None = None
    """The game's short join code, for a phone that cannot scan."""
    rules: str = ""
    """The rule set's title."""
    round_ends: str = ""
    """How the round ends, in words ("40 minutes", "6 boxes", "each game to its end")."""
    dealer: str | None = None
    """Who deals the first box, as the cut chose (J1): marked at that seat."""


@dataclass(frozen=True)
class Standing:
    """One line of the standings as printed."""

    rank: int
    player: str
    score: float
    games: int
    won: float
    boxes: int
    tie_breaks: tuple[str, ...] = ()
    """The tie-break figures in the order the event names them (already in words)."""


@dataclass(frozen=True)
class TableResult:
    """A table of a round with its final totals (or where it stands)."""

    round: int
    table: int
    totals: tuple[tuple[str, float], ...]
    """Each seat's player and the points the round gave him (his net, or placing
    points), in seat order."""
    status: str = "done"
    """``done``, ``agreed`` (ended by agreement), ``playing``, or ``bye``."""
    boxes: int = 0


@dataclass(frozen=True)
class ScoreLines:
    """How one player's score is made, as printed: each line's words (a withdrawn
    penalty's struck out) and the score they add up to."""

    player: str
    lines: tuple[tuple[str, bool], ...]
    """Each line's words and whether it is struck out (a withdrawn penalty)."""
    score: str
    withdrawn: bool = False
    substitutes: tuple[str, ...] = ()
    """The replacements at his tables (E5), in words."""


@dataclass(frozen=True)
class Results:
    """The evening's results: what :func:`render_results` prints."""

    name: str
    date: str = ""
    place: str = ""
    rules: str = ""
    count: str = "net"
    """How the standings count: ``net`` or ``placings``."""
    tie_breaks: tuple[str, ...] = ()
    """The names of the tie-break columns, as headed."""
    standings: tuple[Standing, ...] = ()
    tables: tuple[TableResult, ...] = ()
    highest_box: tuple[str, int, int, int] | None = None
    """(player, points, round, table) of the evening's highest box."""
    most_gins: tuple[tuple[str, int], ...] = ()
    """The players with the most gins and their count (several when tied)."""
    footer: str = field(default="")
    standing_title: str = "Final standings"
    """The standings' heading ("Standings after round 2" while the event goes on)."""
    printed: str = ""
    """When the sheet was printed, as the heading says it."""
    legend: tuple[str, ...] = ()
    """How the standings rank: the count, the tie-breaks in order, shared ranks, byes."""
    lines: tuple[ScoreLines, ...] = ()
    """How each player's score is made, in the order of the standings."""
    highest_boxes: tuple[tuple[str, int, int, int], ...] = ()
    """Every box tied at the evening's highest: (player, points, round, table)."""
    replacements: tuple[str, ...] = ()
    """Every mid-game replacement (E5) in words: both names, the table, from which box."""
    payments: tuple[str, ...] = ()
    """With a stake, who pays whom, in words ("Bob pays Ann 2.50")."""
    stake: str = ""
    """The stake in words ("0.05 a point"), when the event has one."""


@dataclass(frozen=True)
class LadderLine:
    rank: int | None
    """None: below the season's minimum of evenings (listed, unranked)."""
    name: str
    points: float
    evenings: int
    moved: int
    rating: str = ""


@dataclass(frozen=True)
class LadderSheet:
    club: str
    season: str
    period: str
    counted: str
    """How the ladder counts, in words."""
    lines: Sequence[LadderLine]
    evenings: Sequence[tuple[str, str, str]]
    """Each evening played: date, name, winner(s)."""
    top_rated: Sequence[tuple[str, str]]
    printed: str
