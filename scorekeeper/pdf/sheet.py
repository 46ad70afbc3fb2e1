"""A game's score sheet: title block, one row per box, the end of the game, box detail.

:func:`render_sheet` takes the game and its score sheet as the engine's typed
values (:class:`GameEntry`, :class:`Sheet`), and gives the PDF's bytes. Nothing here computes a
score: every number printed is one the engine gave.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
from collections.abc import Sequence

from reportlab.platypus import Flowable

from scorekeeper import engine

from ..engine.contract import GameEntry, Sheet
from ..engine.vocabulary import vocabulary_for
from . import words
from .blocks import Field, rule_lines, title_block
from .boxes import Columns, box_labels, box_table, entered, note_of
from .chart import chart_beside
from .detail import detail_section
from .document import Layout, QRCode, build
from .ending import end_of_game, stopped_by_agreement
from .fonts import FONT, FONT_BOLD, shortened
from .hollywood import hollywood_section
from .meta import SheetMeta, stamp
from .styles import MARGIN, paper_size, text
from .vocabulary import NOTE_MARK, beaten_word, legend


def render_sheet(
    game: GameEntry,
    score: Sheet,
    *,
    detail: bool | None = None,
    page_size: str = "A4",
    title: str | None = None,
    created: datetime.date | None = None,
    meta: SheetMeta | None = None,
) -> bytes:
    """The score sheet of ``game`` as PDF bytes.

    ``score`` is the game's :class:`Sheet` (``engine.score_game(game)``).
    ``detail`` prints each box's melds, layoffs, deadwood and explanation: ``None``
    does so for the boxes entered with cards, ``True`` for every box, ``False`` for
    none. ``title`` replaces the rule set's title at the top; ``created`` is the date
    printed (else the day the game ``started``, else a blank line to write it on).
    ``meta`` says where the sheet came from (:class:`SheetMeta`): the footer, the
    place and start time in the header, the currency of the money, the PDF's dates
    and the QR code.
    """
    meta = _with_game_facts(meta or SheetMeta(), game)
    rules = words.rules_of(game)
    players = list(game.players)
    columns = Columns.of(rules, score.boxes)
    wide = (len(players) >= 4 or (len(players) == 3 and columns.fixed > 4)) and not rules.hollywood
    # Four or five players get a landscape page, so their columns stay readable.
    size = paper_size(page_size, landscape=wide or _hollywood_wide(rules, score))
    heading = title or rules.title
    date = words.date(meta.played.date() if meta.played else created, game)
    if meta.played is None and date:
        # The game's own date stands for its creation in the PDF's metadata.
        meta = dataclasses.replace(meta, created=datetime.datetime.fromisoformat(date))
    layout = Layout(
        size,
        title=heading,
        header=_running_header(players, date),
        footer=f"scorekeeper · {rules.title} score sheet",
        meta=meta,
        legend=legend(beaten=beaten_word(rules, len(players)), has_break=vocabulary_for(rules).has_break)
        + _marks(game, score, meta),
    )
    width = size[0] - layout.left_margin - MARGIN
    story = _title(game, score, rules, heading, custom=title is not None, date=date, meta=meta, width=width)
    if rules.hollywood:
        story += hollywood_section(game, score, rules, players, width, meta)
    else:
        story.append(box_table(game, score, players, columns, width, meta.revised))
        # The chart beside the end tables: an evening's game stays one sheet of paper.
        story += end_of_game(
            score, rules, players, game.stake, width, meta=meta, beside=chart_beside(score, rules, players)
        )
    story += detail_section(game, score, players, width, detail=detail, rules=rules, notes=rules.hollywood)
    return build(story, layout, subject=f"Score sheet: {', '.join(players)}")


def _with_game_facts(meta: SheetMeta, game: GameEntry) -> SheetMeta:
    """``meta`` with what the game itself says where ``meta`` does not: its currency,
    its ``place``, and its ``started`` when that has a time of day (CONTRACT.md's game;
    a game file printed by ``scorekeeper sheet`` says them there)."""
    changes: dict[str, object] = {}
    if not meta.currency and game.currency:
        changes["currency"] = game.currency
    if not meta.place and game.place:
        changes["place"] = game.place
    if meta.started is None and game.started and len(game.started) > 10:
        # A start the engine took as text but no ISO time prints as its date, as before.
        with contextlib.suppress(ValueError):
            changes["started"] = datetime.datetime.fromisoformat(game.started)
    return dataclasses.replace(meta, **changes) if changes else meta  # type: ignore[arg-type]


def _marks(game: GameEntry, score: Sheet, meta: SheetMeta) -> str:
    """The legend's keys to the marks this sheet uses: the note mark only when a box has
    a note, the version only when a box was corrected."""
    keys = ""
    if any(note_of(box, entered(game, n)) for n, box in enumerate(score.boxes)):
        keys += f" · {NOTE_MARK} note under its box"
    if any(version > 1 for version in meta.revised.values()):
        keys += " · 5 v2 box 5 corrected, its version 2"
    return keys


def _hollywood_wide(rules: engine.Rules, score: Sheet) -> bool:
    """Whether a Hollywood game has more columns than a portrait page holds readably."""
    return rules.hollywood and len(score.games) > 3


def _running_header(players: Sequence[str], date: str) -> str:
    """What every page after the first repeats at its top right; long names shortened."""
    shown = " · ".join(shortened(p, FONT, 8, 90) for p in players)
    return f"{shown} · {date}" if date else shown


def _title(
    game: GameEntry,
    score: Sheet,
    rules: engine.Rules,
    heading: str,
    *,
    custom: bool,
    date: str,
    meta: SheetMeta,
    width: float,
) -> list[Flowable]:
    """Title, rules and changed settings, then date, place, players (every name whole),
    stake and where the game stands."""
    # One seat a line, every name whole (the player list is where a long name is read).
    seats = [(f"<b>{n}</b>&nbsp;", p) for n, p in enumerate(game.players, start=1)]
    if game.dealer is not None:
        seats.append(("first dealer ", game.dealer))
    labels = [label for label in box_labels(score.boxes) if label]
    said = vocabulary_for(rules)
    boxes = f"{len(labels)} {said.deal if len(labels) == 1 else said.deals}"
    misdeals = len(score.boxes) - len(labels)
    if misdeals:
        boxes += f" (and {misdeals} misdeal{'' if misdeals == 1 else 's'})"
    if score.game_over and stopped_by_agreement(score):
        last = labels[-1] if labels else "0"
        status = f"Stopped by agreement after {said.deal} {last}; " + (
            f"<b>{text(score.winner, FONT_BOLD)}</b> leads" if score.winner else "nobody leads"
        )
    elif score.game_over:
        status = f"{boxes}; won by <b>{text(score.winner or '', FONT_BOLD)}</b>"
    else:
        status = f"{boxes}; in progress"
        if score.next_dealer is not None:
            status += f", {text(score.next_dealer)} deals next"
    when = text(date)
    if meta.started is not None:
        # The date and the time on one line: "19:30" alone under "2026-05-01" read as another field.
        when = text(stamp(meta.started)).replace(" ", "&nbsp;", 1)
    fields: list[Field] = [("Date", when)]
    if meta.place:
        fields.append(("Place", text(meta.place)))
    fields += [
        ("Players in seat order", seats),
        *[("Substitute", text(s.words(said.deal))) for s in meta.substitutes],
        ("Stake", text(words.stake(game.stake, meta.currency))),
        ("Game", status),
    ]
    lines = rule_lines(rules, custom)
    # The QR code to the game's read-only page, when the server's address is known.
    qr = ("Online", QRCode(meta.read_only_url)) if meta.read_only_url else None
    return title_block(heading, lines, fields, width, qr)
