"""An event as its pages show it: the tables of each round with where their games
stand, the standings, the round's clock, a player's seat and rank, and who may direct.

The pages render these values; only :func:`load` reads (through the ledger and the
store's summaries, never a rescoring of every box), so the projector's page stays cheap.
The director's right lives in the signed session cookie beside the scorers' rights
(:mod:`.gamedata`): an event's creator's pass, or the director's code it joined with.
"""

from __future__ import annotations

import contextlib
import datetime
import difflib
import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app
from markupsafe import Markup

from .. import engine, ledger, store
from ..engine.event import EventEntry, Seating, Standing, values_and_ranks
from ..engine.history import HistoryEntry
from ..engine.vocabulary import TableStatus
from ..ledger import events as ledger_events
from ..pdf.values import TableCard
from . import database, gamedata, invite, limits, links, standings

TableView = ledger_events.TableState
"""One table of one round, as every page shows it (the ledger's one table type)."""


@dataclass(frozen=True)
class Clock:
    """A timed round's clock: when it started and how long it lasts."""

    round: int
    started: datetime.datetime
    minutes: int

    @property
    def ends(self) -> datetime.datetime:
        return self.started + datetime.timedelta(minutes=self.minutes)

    def left(self, now: datetime.datetime) -> int:
        """Whole minutes left (rounded up), 0 once time is up.

        >>> c = Clock(1, datetime.datetime(2026, 12, 1, 19, 0), 40)
        >>> c.left(datetime.datetime(2026, 12, 1, 19, 0, 30)), c.left(
        ...     datetime.datetime(2026, 12, 1, 19, 41))
        (40, 0)
        """
        seconds = (self.ends - now).total_seconds()
        return max(0, int(-(-seconds // 60)))

    def iso_end(self) -> str:
        """The end in UTC, as ``<time datetime>`` wants it (the page shows local time)."""
        return self.ends.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class EventView:
    """What the event's pages show."""

    id: str
    entry: EventEntry
    version: int
    tables: tuple[TableView, ...]
    standings: Sequence[Standing]
    current: int
    """The round being played or about to be (0 before any seating)."""
    closed: tuple[int, ...] = ()
    """The rounds closed so far."""
    withdrawn: tuple[str, ...] = ()
    clock: Clock | None = None

    @property
    def finished(self) -> bool:
        """Every round closed: the page is the event's published result."""
        return len(self.closed) >= self.entry.rounds

    @property
    def between_rounds(self) -> bool:
        """The current round is seated but no table has a box yet."""
        return all(t.status is TableStatus.WAITING for t in self.round_tables(self.current))

    def round_tables(self, number: int) -> tuple[TableView, ...]:
        return self._by_round.get(number, ())

    @functools.cached_property
    def _by_round(self) -> dict[int, tuple[TableView, ...]]:
        """Each round's tables, sorted out once for the view (a projector's page asks
        for the current round's twice: 1,280 tables at a 640-table evening's second)."""
        rounds: dict[int, list[TableView]] = {}
        for t in self.tables:
            rounds.setdefault(t.round, []).append(t)
        return {number: tuple(tables) for number, tables in rounds.items()}

    @functools.cached_property
    def entered(self) -> dict[str, int]:
        """The round each player first played or had a bye (a late entry's is later
        than 1), once for the view."""
        seating = sorted(self.entry.seating, key=lambda s: -s.round)
        return {p: s.round for s in seating for p in (*s.players, *s.byes)}

    def seating(self, number: int) -> Seating | None:
        return self.entry.seating_of(number)

    def rounds_seated(self) -> list[int]:
        """The rounds seated so far, latest first."""
        return sorted({s.round for s in self.entry.seating}, reverse=True)

    def playing(self, number: int) -> list[TableView]:
        return [t for t in self.round_tables(number) if not t.finished]

    def rank_of(self, player: str) -> Standing | None:
        return next((s for s in self.standings if s.player == player), None)


@dataclass(frozen=True)
class PlayerView:
    """A player's evening at a glance: where to sit next, their rank."""

    player: str
    round: int | None
    table: int | None
    seat: int | None
    bye: bool
    standing: Standing | None
    game: str | None = None

    @property
    def where(self) -> str:
        """``Round 3: table 7, seat 2`` (or the bye, or nothing seated yet)."""
        if self.round is None:
            return "Not seated yet: the director seats the next round."
        if self.bye:
            return f"Round {self.round}: a bye (you sit this round out)."
        return f"Round {self.round}: table {self.table}, seat {self.seat}"


def find_player(event: EventView, typed: str) -> str | None:
    """The entrant whose name was typed, case and spacing aside (None when nobody).

    >>> entry = EventEntry("x", ("Ann Lee", "Bob"))
    >>> view = EventView("e", entry, 1, (), (), 0)
    >>> find_player(view, "  ann   LEE "), find_player(view, "Cal")
    ('Ann Lee', None)
    """
    folded = " ".join(typed.split()).casefold()
    if not folded:
        return None
    names = list(event.entry.entrants) + [s.player for s in event.standings]
    return next((name for name in names if name.casefold() == folded), None)


def closest_names(event: EventView, typed: str) -> list[str]:
    """The entrants whose names are nearest the one typed (a slip, another spelling).

    >>> closest_names(EventView("e", EventEntry("x", ("Ann Lee", "Bob", "Anna")), 1, (), (), 0), "ann le")
    ['Ann Lee', 'Anna']
    """
    names = {name.casefold(): name for name in event.entry.entrants}
    near = difflib.get_close_matches(" ".join(typed.split()).casefold(), list(names), n=3, cutoff=0.6)
    return [names[n] for n in near]


def player_view(event: EventView, player: str) -> PlayerView:
    """Where ``player`` sits in the latest round seated, and their rank now."""
    standing = event.rank_of(player)
    for number in event.rounds_seated():
        seating = event.seating(number)
        if seating is None:
            continue
        place = seating.place_of(player)
        if place is not None:
            table, seat = place
            return PlayerView(
                player, number, table, seat, False, standing, event.entry.game_of(number, table)
            )
        if player in seating.byes:
            return PlayerView(player, number, None, None, True, standing)
        break
    return PlayerView(player, None, None, None, False, standing)


def round_ends_words(entry: EventEntry) -> str:
    """How a round ends, in words.

    >>> from scorekeeper.engine.event import RoundEnd
    >>> round_ends_words(EventEntry("x", ("A",), round_ends=RoundEnd("minutes", 40)))
    '40 minutes'
    """
    ends = entry.round_ends
    if ends.kind == "minutes":
        return f"{ends.limit} minutes"
    if ends.kind == "boxes":
        return f"{ends.limit} boxes"
    return "each game to its end"


# --- reading: through the store's queries (one row per table's game, no rescoring) ----------

NO_EVENT = "There is no event at this address. Check the link."


def load(event_id: str) -> EventView:
    """The event as its pages show it, or 404: its stored entry, each table's game as
    its summary stands, the standings computed from those summaries; kept per process
    until the event or any of its games changes (:mod:`.standings`)."""
    return view_of(current(event_id))


def current(event_id: str, parts: tuple[object, ...] | None = None) -> standings.Now:
    """The event as it stands, or 404 (``parts``: as :func:`.standings.now`)."""
    found = standings.now(event_id, parts)
    if found is None:
        abort(404, description=NO_EVENT)
    return found


def view_of(now: standings.Now) -> EventView:
    """The pages' view of one state of the event, made once a state."""
    return now.drawn("view", lambda: _view(now.event, now.board))


def _view(loaded: store.events.LoadedEvent, board: ledger_events.Board) -> EventView:
    timed = ledger_events.clock(loaded)
    current_round = loaded.row.current_round
    return EventView(
        loaded.id,
        loaded.entry,
        loaded.row.version,
        board.every_table,
        board.standings,
        current_round,
        tuple(r.number for r in loaded.rounds if r.closed_at is not None),
        loaded.withdrawn,
        None if timed is None else Clock(current_round, *timed),
    )


def history(event_id: str) -> list[HistoryEntry]:
    """What the director did to the event, each a typed history line."""
    return store.events.event_history(database.session(), event_id)


def now() -> datetime.datetime:
    """Now in UTC without a zone, as the store keeps times."""
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def seat_of_game(db: Any, game_id: str) -> tuple[ledger_events.Seat, Clock | None] | None:
    """Where a game is played in an event, and its round's clock while a timed round
    runs (None for a game of no event): one read, since every table's sheet asks."""
    seat = ledger_events.seat_of_game(db, game_id)
    if seat is None:
        return None
    return seat, None if seat.clock is None else Clock(seat.round, *seat.clock)


# --- writing: through the ledger's use cases ------------------------------------------------


def start(entry: EventEntry, key: str | None = None) -> str:
    """Start the event and seat round 1 (its tables charged to this address); its id."""
    limits.charge(limits.tables_of(entry))
    started = ledger_events.start_event(database.session(), entry, secret=gamedata.secret(), key=usable(key))
    return started.event.id


def _loaded_or_404(event_id: str) -> store.events.LoadedEvent:
    found = ledger_events.load_event(database.session(), event_id)
    if found is None:
        abort(404)
    return found


def change_entrants(event_id: str, added: Sequence[str], gone: Sequence[str], key: str | None = None) -> None:
    """Late entries and withdrawals, from the next round seated: all or none (late
    entries charged to this address)."""
    if added:
        event = _loaded_or_404(event_id)
        limits.charge(limits.late_entries_cost(event.entry, len(added)))
    ledger_events.change_entrants(database.session(), event_id, added, gone, key=usable(key))


def swap(event_id: str, first: str, second: str, key: str | None = None) -> None:
    ledger_events.swap(database.session(), event_id, first, second, secret=gamedata.secret(), key=usable(key))


def replace(
    event_id: str, player: str, by: str, key: str | None = None, *, counts_for: str | None = None
) -> None:
    ledger_events.replace(
        database.session(),
        event_id,
        player,
        by,
        counts_for=counts_for,
        secret=gamedata.secret(),
        key=usable(key),
    )


def close_round(event_id: str, *, force: bool, key: str | None = None) -> bool:
    """Close the round (ending the tables still playing when forced); whether a next
    round is to be seated."""
    closed = ledger_events.close_round(database.session(), event_id, force=force, key=usable(key))
    return not closed.row.finished and closed.row.current_round < closed.entry.rounds


def start_round(event_id: str, number: int, key: str | None = None) -> None:
    """Start round ``number``'s clock (E7: its first box starts it otherwise)."""
    ledger_events.start_round(database.session(), event_id, number, key=usable(key))


def seat_next(event_id: str, key: str | None = None) -> None:
    """Seat the next round (after a close whose seating was refused, say)."""
    limits.charge_next_round(_loaded_or_404(event_id))
    ledger_events.seat_next_round(database.session(), event_id, secret=gamedata.secret(), key=usable(key))


def end_game(event_id: str, game_id: str, key: str | None = None) -> None:
    ledger_events.end_table(database.session(), event_id, game_id, key=usable(key))


def reopen_game(event_id: str, game_id: str, key: str | None = None) -> None:
    ledger_events.reopen_table(database.session(), event_id, game_id, key=usable(key))


def penalise(event_id: str, player: str, points: int, note: str, key: str | None = None) -> None:
    ledger_events.penalize(database.session(), event_id, player, points, note, key=usable(key))


def withdraw_penalty(event_id: str, number: int, why: str, key: str | None = None) -> None:
    ledger_events.withdraw_penalty(database.session(), event_id, number, why, key=usable(key))


KEY_LENGTH = 64
"""The longest form key stored with a write (the forms make 22 characters)."""


def usable(key: str | None) -> str | None:
    """A form's idempotency key as the ledger stores it (1-64 characters, else none)."""
    return key if key and len(key) <= KEY_LENGTH else None


# --- the director's right ---------------------------------------------------------------------

DIRECT = gamedata.DIRECT
creator_pass = gamedata.director_pass
_held = gamedata.directing
can_direct = gamedata.can_direct
directs_game = gamedata.directs_game
"""The director's right is kept and checked in :mod:`.gamedata` beside the scorers'
(a game's right covers its event's director without importing this module)."""


_keep = gamedata.keep_director


def directs(event_id: str) -> None:
    """This phone started the event: it keeps the creator's pass."""
    _keep(event_id, creator_pass(event_id))


def join(event_id: str, code: str) -> bool:
    """Become a director with a typed code (short, or the link's); False when wrong."""
    found = ledger_events.director_joined(database.session(), code, gamedata.secret(), event_id=event_id)
    if found is None:
        return False
    _keep(event_id, found[1])
    return True


def renew(event_id: str, key: str | None = None) -> None:
    """New director's codes (once per form: its key); a phone that joined by code keeps
    its right with the new one."""
    codes = ledger_events.renew_director_codes(
        database.session(), event_id, gamedata.secret(), key=usable(key)
    )
    held = _held(event_id)
    if held is not None and held != creator_pass(event_id):
        _keep(event_id, codes.director)


def share(event_id: str) -> invite.Invite | None:
    """The director's link (its code in the fragment), QR code and short code; the
    short code only when this server does not know its own address (issue 23: a link
    is never built from a Host header a stranger may have written)."""
    row = store.events.get_event(database.session(), event_id)
    if row is None:
        return None
    codes = ledger_events.director_codes(row, gamedata.secret())
    if not ledger_events.is_director(row, codes.director):
        return None
    page = links.public_url("events.director", event_id=event_id)
    if page is None:  # a Host this server cannot vouch for: no link built from it
        return invite.Invite(
            None, None, join_code=codes.join, edit_code=codes.director, problem=invite.NO_ADDRESS
        )
    link = f"{page}#{codes.director}"
    return invite.Invite(
        page,
        invite.qr_svg(page, "QR code of the event's director page"),
        link,
        invite.qr_svg(link, "QR code to direct this event"),
        codes.join,
        codes.director,
    )


# --- print --------------------------------------------------------------------------------


def table_cards(event: EventView, number: int) -> list[TableCard]:
    """A card per table of round ``number``: its QR code the table's game's join link
    (scoring that game only), with the game's short join code."""
    db = database.session()
    cards = []
    rules = engine.find_rules(event.entry.rules)
    for table in event.round_tables(number):
        url = code = None
        row = store.get_game(db, table.game) if table.game else None
        if row is not None:
            with contextlib.suppress(ledger.CodesUnknown):
                codes = ledger.codes_of(row, gamedata.secret())
                url, code = invite.join_url(row.id, codes.edit), codes.join
        cards.append(
            TableCard(
                event.entry.name,
                number,
                table.table,
                table.players,
                url,
                code,
                rules.title,
                round_ends_words(event.entry),
                row.dealer if row is not None else None,
            )
        )
    return cards


LINE, WITHDRAWN_LINE = "<tr>", '<tr class="withdrawn">'
"""How a standings line starts."""


def standing_rows(event: EventView, entered: Mapping[str, int], link: bool = False) -> Markup:
    """The standings table's lines, in one piece of markup (empty:
    no line). A projector's page is drawn again for every box of the evening (issue 34:
    the 900 lines of a 300-table evening took 36 ms of CPU a drawing); a box moves a few
    players, but the rank of every line between their old and new places. So what
    follows the rank is drawn once per process for the line whose values it shows
    (:class:`.standings.ByIdentity`, found by each place's values line, which a new
    rank alone does not change: :func:`values_and_ranks`), or for those values
    (:func:`_standing_row`); the rank is put before it here, and the lines joined into
    one piece of markup (a line each, the template escaped each of them again).
    ``entered``: the round each player first played; ``link``: each name links to the
    player's page."""
    extensions = current_app.extensions
    drawn = extensions.get("scorekeeper.standing_rows")
    if drawn is None:
        drawn = extensions.setdefault(
            "scorekeeper.standing_rows",
            (
                standings.ByIdentity[tuple[str, str]](),
                functools.lru_cache(maxsize=standings.LINES)(_standing_row),
            ),
        )
    by_line, by_values = drawn
    lines, ties, event_id = event.standings, event.entry.tie_breaks, event.id if link else ""

    def cut(s: Standing) -> tuple[str, str]:
        # a line's values, so its player, are its entry's: the round he entered with them
        after = by_values(s.unranked, entered.get(s.player, 1), event_id, ties)
        start = WITHDRAWN_LINE if s.withdrawn else LINE
        return f'{start}<td class="num rank">', f"</td>{after}"

    values, ranks = values_and_ranks(lines)
    cuts = by_line.each(values, (event_id, ties), cut)
    # a rank shared with the line above or below is shown "=3"
    shared = {r for r, below in itertools.pairwise(ranks) if r == below}
    # nothing here but numbers and our own markup: the name is in what was drawn
    return Markup(
        "\n".join(
            f"{head}={rank}{tail}" if rank in shared else f"{head}{rank}{tail}"
            for rank, (head, tail) in zip(ranks, cuts, strict=True)
        )
    )


def _standing_row(values: tuple[Any, ...], entered: int, event_id: str, ties: tuple[str, ...]) -> Markup:
    """A line of the standings after its rank, from a standing's ``values`` after its
    rank (``event_id``: the name links to the player's page in that event)."""
    s = Standing(0, *values)
    row = current_app.jinja_env.get_template("events/_standing_row.html").module.row  # type: ignore[attr-defined]
    cells = Markup("".join(f'<td class="num">{_tie_value(s, tie)}</td>' for tie in ties))
    # U+2212 as its entity: one minus sign on the page made the whole drawing two bytes
    # a character in memory, and its UTF-8 encoding a pass of its own (issue 34)
    return Markup(str(row(s, entered, event_id, shown_number(s.score), cells)).replace("\u2212", "&minus;"))


def shown_number(value: float) -> str:
    """A score as the pages show it: whole numbers plain, others to one decimal, and a
    minus sign rather than a hyphen.

    >>> shown_number(-12.0), shown_number(2.5)
    ('−12', '2.5')
    """
    shown = f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"
    return shown.replace("-", "−")


def _tie_value(standing: Standing, tie: str) -> str:
    value = {"won": standing.won, "boxes": standing.boxes, "head_to_head": standing.head_to_head}[tie]
    return shown_number(value)
