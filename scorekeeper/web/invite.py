"""Bringing phones to the table: a game's codes as scorers see them (links, QR codes,
the short join code), the pages that show a code kept out of caches and referrers,
and the limit on wrong codes.

Wrong short codes are counted in this process's memory, per client address first
(10 per 15 minutes), then per game (a generous cap, 300, against many addresses
guessing one game's code). Only the 6-character code is limited: the join link's
32-character code (the QR code) cannot be guessed, so it is never refused and a wrong
one is not counted; a client or game past its limit still joins by the link or the QR
code, and the refusal says so. The home page's form names no game, so it counts per
client only: no number of wrong codes locks "Join a game" for everyone. A guesser
meets the limit long before a code falls (30 characters, 6 of them: 729 million
codes; 300 tries per game per 15 minutes is about 35 years of guessing on average).
With several worker processes each counts on its own, so the limit is that many times
as loose; a restart forgets the counts. Neither changes the arithmetic much; a
database table would cost a write per wrong try for no measured gain.
"""

from __future__ import annotations

import functools
import io
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from flask import Response, current_app, make_response, render_template, request, url_for
from markupsafe import Markup

from .. import ledger, store
from ..pdf.qr import qr_code
from . import gamedata, htmx
from .links import public_url

QR_CODES = 2048
"""QR codes kept drawn per process: two for each table of a 1,000-table evening (about
3 KB each, 6 MB in all). The scorers' sheets of an evening ask for them in turn, table
after table, so a cache smaller than the room keeps none: at 512, a 300-table evening
(600 codes) drew both codes again for every sheet after a box (issue 34)."""


@dataclass(frozen=True)
class Invite:
    """What a scorer's phone shows to bring others in: the watch link for everyone,
    and (when the codes can be shown) the join link, the short code and both QR codes
    (a game's are drawn apart, each from its own address: :func:`qr_file`)."""

    watch_url: str | None
    watch_qr: Markup | None
    join_url: str | None = None
    join_qr: Markup | None = None
    join_code: str | None = None
    edit_code: str | None = None
    problem: str | None = None
    """Why the codes cannot be shown (made at random, or with another server key)."""

    @property
    def spaced_code(self) -> str | None:
        """The short code in two halves, easier to read aloud: ``K7M 2QX``."""
        code = self.join_code
        return None if code is None else f"{code[:3]} {code[3:]}"


@functools.lru_cache(maxsize=QR_CODES)
def qr_svg(url: str, title: str) -> Markup:
    """A QR code of ``url`` as inline SVG (no script, no style attribute: the CSP
    allows it), drawn on the server; error correction M survives a glare on a screen.

    Drawn once per link in each process: a scorer's sheet shows two, and drawing them
    (choosing the best of eight masks) took 33 of the 48 ms of the sheet a scorer's
    phone loads after every box it records (the club evening's slowest request,
    benchmarks/FINDINGS.md). With the mask fixed (:data:`..pdf.qr.QR_MASK`) a code
    takes a fifth of that. A game's two codes are files of their own now (:func:`qr_file`,
    issue 34); this inline one is a club owner's and an event director's."""
    code = qr_code(url)
    svg = code.svg_inline(scale=4, svgclass="qr", lineclass=None, omitsize=True, title=title)
    return Markup(svg)  # segno escapes the title; the rest is its own markup


NO_ADDRESS = (
    "the links and QR codes need this server's own address, which it does not "
    "know yet: whoever runs it sets SCOREKEEPER_PUBLIC_URL (docs/deploy.md). "
    "The join code works meanwhile"
)


def join_url(game_id: str, edit_code: str) -> str | None:
    """The join link: the edit code rides in the fragment, which browsers never send to
    a server nor put in a Referer; the page posts it when the scorer confirms."""
    base = public_url("joining.confirm", game_id=game_id)
    return None if base is None else base + "#" + edit_code


def invite(row: store.GameRow) -> Invite:
    """The game's invitation as its scorer sees it (call only for a phone with rights):
    its links and codes, no QR code drawn. The sheet shows each code as an image from
    its own address (``/games/<id>/qr/join.svg``, ``watch.svg``: web/joining.py), which
    a phone asks for only when the invitation comes into view (issue 34: drawing both
    for every table's first sheet was a fifth of the CPU of the phones opening their
    games at each round of a 300-table evening)."""
    watch = public_url("games.sheet", game_id=row.id)
    if watch is None:
        try:
            codes = ledger.codes_of(row, gamedata.secret())
        except ledger.CodesUnknown:
            return Invite(None, None, problem=NO_ADDRESS)
        return Invite(None, None, join_code=codes.join, edit_code=codes.edit, problem=NO_ADDRESS)
    try:
        codes = ledger.codes_of(row, gamedata.secret())
    except ledger.CodesUnknown as unknown:
        held = gamedata.token_of(row.id)
        if held is not None and store.check_edit_token(row, held):
            link = join_url(row.id, held) or ""
            return Invite(watch, None, link, edit_code=held, problem=str(unknown))
        return Invite(watch, None, problem=str(unknown))
    return Invite(watch, None, join_url(row.id, codes.edit) or "", None, codes.join, codes.edit)


JOIN_TITLE = "QR code to score with us"
WATCH_TITLE = "QR code to watch this game"


@functools.lru_cache(maxsize=QR_CODES)
def qr_file(url: str, title: str) -> bytes:
    """A QR code of ``url`` as an SVG file (an image of its own, as ``<img>`` shows
    it), drawn as :func:`qr_svg` draws it: once per link in each process."""
    out = io.BytesIO()
    qr_code(url).save(out, kind="svg", scale=4, xmldecl=False, svgclass=None, lineclass=None, title=title)
    return out.getvalue()


def private(response: Response) -> Response:
    """A page that shows (or takes) a code: never stored by a browser or proxy cache,
    and its address sent as a Referer only to this server. Not ``no-referrer``: over
    HTTPS the CSRF check wants the Referer of the page's own form (the confirm button
    would fail), and a code is never in a Referer anyway (fragments are not sent; an
    old link's path reaches only this server, which had it already)."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def scorers_only(game_id: str) -> Response:
    """What a watcher gets on a scorer's page (record, edit, delete, settings): a page
    (403) that says why and offers the code prompt, never a bare "Forbidden". Once
    the code works the scorer lands on the page refused (a GET) or the sheet. For
    htmx, which swaps no 403, the browser is sent to the same prompt (a 200 with
    ``HX-Redirect``, so the console logs no failed request)."""
    back = _back(game_id)
    table = gamedata.find(game_id)
    if table is None:
        return make_response(
            htmx.error_page(404, "Not found", "There is no game at this address. Check the link.")
        )
    if htmx.is_htmx():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = url_for("joining.confirm", game_id=game_id, next=back)
        return response
    body = render_template(
        "games/join.html",
        game=table,
        game_id=table.id,
        code="",
        next_url=back,
        already=False,
        limit=limit(table.id),
        wrong="",
        refused=True,
    )
    return private(make_response(body, 403))


def _back(game_id: str) -> str:
    """Where a scorer goes once the code worked: the page that was refused if it was a
    page (a GET), else the sheet."""
    if request.method == "GET" and request.path.startswith(f"/games/{game_id}/"):
        return request.full_path.rstrip("?")
    return url_for("games.sheet", game_id=game_id)


class Tries:
    """Wrong codes per key (a client's address, a game) in a sliding window: ``limit``
    tries per ``window`` seconds; at most ``keys`` keys are kept (the oldest go), so a
    flood of addresses cannot fill the memory."""

    def __init__(self, limit: int, window: float, keys: int = 10_000) -> None:
        self.limit = limit
        self.window = window
        self.keys = keys
        self._wrong: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._wrong.get(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def left(self, key: str, now: float) -> int:
        """Wrong tries still allowed now."""
        return max(0, self.limit - len(self._recent(key, now)))

    def wait(self, key: str, now: float) -> float:
        """Seconds until one more try is allowed (0 when one is)."""
        times = self._recent(key, now)
        if len(times) < self.limit:
            return 0.0
        return times[len(times) - self.limit] + self.window - now

    def wrong(self, key: str, now: float) -> None:
        """Count one wrong code."""
        times = self._recent(key, now)
        times.append(now)
        self._wrong[key] = times
        self._wrong.move_to_end(key)
        while len(self._wrong) > self.keys:
            self._wrong.popitem(last=False)


@dataclass(frozen=True)
class Limit:
    """Where a client stands before typing a short code: tries left (the smaller of its
    own and the game's), when none the seconds to wait, and whose limit that is."""

    left: int
    wait: float
    game_closed: bool = False
    """The game's cap, not this client's, is what stops the short code."""

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.wait / 60))

    @property
    def minutes_words(self) -> str:
        """The wait as said: "1 minute", "5 minutes"."""
        return "1 minute" if self.minutes == 1 else f"{self.minutes} minutes"

    @property
    def retry_after(self) -> str:
        """The wait as the ``Retry-After`` header gives it: whole seconds, at least 1."""
        return str(max(1, round(self.wait)))


def rested(prompt: Callable[[str, int], Response], limit: Limit, link: str) -> Response:
    """A director's or a club owner's short code past its limit: ``prompt`` answers 429
    with Retry-After, saying when the code works again and that ``link`` (the
    director's, the owner's) still works now."""
    response = prompt(
        f"Too many wrong short codes: the short code works again in {limit.minutes_words}. "
        f"The {link} link or QR code still works now.",
        429,
    )
    response.headers["Retry-After"] = limit.retry_after
    return response


def _counters(director: bool = False) -> tuple[Tries, Tries]:
    """This app's counters, per client and per game (made on first use); an event's
    director's short code has counters of its own (issue 33: wrong game codes counted
    against an address's director join)."""
    name = "scorekeeper.tries.director" if director else "scorekeeper.tries"
    found = current_app.extensions.get(name)
    if found is None:
        config = current_app.config
        window = float(config["JOIN_TRIES_WINDOW"])
        found = (
            Tries(int(config["JOIN_TRIES_PER_CLIENT"]), window),
            Tries(int(config["JOIN_TRIES_PER_GAME"]), window),
        )
        current_app.extensions[name] = found
    return found


def limit(game_id: str | None, *, director: bool = False) -> Limit:
    """How many wrong short codes this client may still type for this game (``None``:
    the home page's form, limited per client only); ``director``: an event's
    director's short code, ``game_id`` the event."""
    per_client, per_game = _counters(director)
    client = f"client:{request.remote_addr}"
    now = _clock()
    own = Limit(per_client.left(client, now), per_client.wait(client, now))
    if game_id is None or own.left == 0:
        return own
    game = f"game:{game_id}"
    if per_game.left(game, now) == 0:
        return Limit(0, per_game.wait(game, now), game_closed=True)
    return Limit(min(own.left, per_game.left(game, now)), own.wait)


def count_wrong(game_id: str | None, *, director: bool = False) -> Limit:
    """Count a wrong short code against this client and this game (the home page's
    form: this client only); where they stand after."""
    per_client, per_game = _counters(director)
    now = _clock()
    per_client.wrong(f"client:{request.remote_addr}", now)
    if game_id is not None:
        per_game.wrong(f"game:{game_id}", now)
    return limit(game_id, director=director)


_clock = time.monotonic
