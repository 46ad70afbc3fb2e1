"""Joining the table: the join link's confirm page, joining with the edit code or the
short join code (on a game's pages, or on the home page by the code alone), and
renewing a game's codes.

Looking never changes anything: the join link (``/games/<id>/join#<edit code>``, the
code in the fragment that no server or Referer sees) shows a "Join as scorer" button,
and only its POST gives this browser the right. Old links with the code in the path
are sent on to today's link, the code moved into the fragment.
"""

from __future__ import annotations

import re

from flask import (
    Blueprint,
    Response,
    abort,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import ledger, store
from . import database, gamedata, htmx, invite
from .links import public_url

bp = Blueprint("joining", __name__)


@bp.get("/games/<game_id>/join")
def confirm(game_id: str) -> Response:
    """The join link's page: the code comes from the link's fragment (static/share.js
    fills it in) or is typed; nothing changes until the scorer confirms."""
    return _join_page(game_id, next_url=_next(game_id, request.args.get("next")))


OLD_LINK = re.compile(r"(/games/[^/?#]+/join/)[^?#\s]*")
"""An edit link from before, the code in the path (as an access log writes it)."""


@bp.get("/games/<game_id>/join/<path:code>")
def confirm_old_link(game_id: str, code: str) -> Response:
    """An edit link from before (the code in the path): sent on to the join link of
    today, the code in the fragment, which no server sees again nor any Referer; the
    access log of ``scorekeeper serve`` writes this request's path without the code
    (:func:`scrubbed`). It changes nothing by itself."""
    gamedata.row(game_id)
    response = make_response(redirect(url_for("joining.confirm", game_id=game_id) + "#" + code[:200], 303))
    return invite.private(response)


def scrubbed(uri: str) -> str:
    """A request's path as the access log may keep it: an old join link's code cut.

    >>> scrubbed("/games/abc/join/SECRET?x=1")
    '/games/abc/join/...?x=1'
    """
    return OLD_LINK.sub(r"\1...", uri)


def _join_page(game_id: str, code: str = "", next_url: str | None = None) -> Response:
    table = gamedata.load(game_id)
    response = make_response(
        render_template(
            "games/_join.html" if htmx.is_htmx() else "games/join.html",
            game=table,
            game_id=table.id,
            code=code,
            next_url=next_url or url_for("games.sheet", game_id=table.id),
            already=gamedata.can_edit(table.row),
            limit=invite.limit(table.id),
            wrong="",
            refused=False,
        )
    )
    response.vary.add("HX-Request")
    return invite.private(response)


@bp.post("/games/<game_id>/join")
def join(game_id: str) -> Response:
    """Join as scorer with the edit code (or a whole join link) or the short join code,
    in any case; wrong codes count against this client and this game."""
    row = store.get_game(database.session(), game_id)
    if row is None:
        abort(404, description="There is no game at this address. Check the link.")
    next_url = _next(row.id, request.form.get("next")) or url_for("games.sheet", game_id=row.id)
    code = request.form.get("code") or ""
    short = ledger.as_join_code(code) is not None
    limit = invite.limit(row.id)
    if short and limit.left == 0:
        return _too_many(row.id, limit, next_url)
    found = ledger.joined(database.session(), code, gamedata.secret(), game_id=row.id)
    if found is None and not short:
        # Not a short code: the link's code is not guessed (32 characters), and a typo
        # of the short code cannot match one. Refused, never counted.
        what = (
            "a join code has 6 letters and digits, without 0, O, 1, I, L or U"
            if len("".join(code.split())) <= 8
            else "its codes may have been renewed"
        )
        return _refusal(
            row.id,
            403,
            f"That code does not unlock this game ({what}). Check "
            "it with a scorer, or scan their \u201cScore with us\u201d QR code.",
            next_url,
            limit,
        )
    if found is None:
        return _wrong(row.id, invite.count_wrong(row.id), next_url)
    gamedata.remember(row.id, found[1], whole=row.codes_round is None)
    gamedata.name_phone(request.form.get("phone"), "joined")
    gamedata.note_joined(row.id)
    return htmx.go(next_url)


@bp.post("/join")
def join_by_code() -> Response:
    """The home page's "Join a game": the short join code alone names the game."""
    limit = invite.limit(None)
    if limit.left == 0:
        return _too_many(None, limit, None)
    code = request.form.get("code") or ""
    found = None
    if ledger.as_join_code(code) is not None:
        found = ledger.joined(database.session(), code, gamedata.secret())
    if found is None:
        return _wrong(None, invite.count_wrong(None), None)
    row, edit_code = found
    gamedata.remember(row.id, edit_code)
    gamedata.name_phone(request.form.get("phone"), "joined")
    gamedata.note_joined(row.id)
    return htmx.go(url_for("games.sheet", game_id=row.id))


@bp.get("/games/<game_id>/qr/join.svg")
def join_qr(game_id: str) -> Response:
    """The "Score with us" QR code: the join link, its edit code in it. For the game's
    scorers only (a watcher gets 403 and no code), never kept by a cache nor sent on as
    a Referer; 404 where the sheet shows no join link (no address, codes unknown)."""
    row = gamedata.row(game_id)
    if not gamedata.can_edit(row):
        refused = make_response("Only this game's scorers see its join code.", 403)
        refused.mimetype = "text/plain"
        return invite.private(refused)
    link = invite.invite(row).join_url
    if not link:
        abort(404, description="This game's join link cannot be shown here.")
    return invite.private(_svg(invite.qr_file(link, invite.JOIN_TITLE)))


@bp.get("/games/<game_id>/qr/watch.svg")
def watch_qr(game_id: str) -> Response:
    """The "Watch" QR code: the sheet's read-only link, for anyone who may watch (anyone
    with the game's address); kept an hour by the phone."""
    row = gamedata.row(game_id)
    link = public_url("games.sheet", game_id=row.id)
    if link is None:
        abort(404, description=invite.NO_ADDRESS)
    response = _svg(invite.qr_file(link, invite.WATCH_TITLE))
    response.cache_control.max_age = 3600
    return response


def _svg(body: bytes) -> Response:
    return Response(body, mimetype="image/svg+xml")


@bp.post("/games/<game_id>/codes")
def renew(game_id: str) -> Response:
    """New codes for the game (a code went to the wrong person): the old link and short
    code stop working, and so do the rights of phones that joined with them. This phone
    keeps its right (the game's creator holds a pass that no renewal touches)."""
    gamedata.require_edit(game_id)
    held = gamedata.token_of(game_id)
    codes = ledger.renew_codes(database.session(), game_id, gamedata.secret())
    if held is not None and held != gamedata.creator_pass(game_id):
        gamedata.remember(game_id, codes.edit)
    return htmx.go(url_for("games.sheet", game_id=game_id) + "#invite")


def _wrong(game_id: str | None, limit: invite.Limit, next_url: str | None) -> Response:
    if limit.left == 0:
        return _too_many(game_id, limit, next_url)
    tries = "1 more try" if limit.left == 1 else f"{limit.left} more tries"
    where = "this game" if game_id else "any game being played here"
    message = (
        f"That code does not unlock {where}. Check it with a scorer and try again ({tries} before a pause)."
    )
    return _refusal(game_id, 403, message, next_url, limit)


def _too_many(game_id: str | None, limit: invite.Limit, next_url: str | None) -> Response:
    message = too_many_words(limit)
    response = _refusal(game_id, 429, message, next_url, limit)
    response.headers["Retry-After"] = limit.retry_after
    return response


def too_many_words(limit: invite.Limit) -> str:
    """What a client past the short code's limit is told: whose limit, how long, and
    what still works now (the join link or QR code, never limited)."""
    whose = (
        "Too many wrong short codes have been tried for this game"
        if limit.game_closed
        else "Too many wrong short codes from this phone"
    )
    return (
        f"{whose}: the short code works again in {limit.minutes_words}. The join link or the "
        "\u201cScore with us\u201d QR code on a scorer's phone still works now."
    )


def _refusal(
    game_id: str | None, status: int, message: str, next_url: str | None, limit: invite.Limit
) -> Response:
    """The code prompt again, saying what went wrong; htmx gets it in place (422, which
    htmx swaps) and a browser the page with the true status."""
    table = gamedata.find(game_id) if game_id else None
    template = "games/_join.html" if htmx.is_htmx() else "games/join.html"
    body = render_template(
        template,
        game=table,
        game_id=game_id,
        code="",
        next_url=next_url,
        already=False,
        limit=limit,
        wrong=message,
        refused=False,
    )
    response = make_response(body, 422 if htmx.is_htmx() else status)
    response.vary.add("HX-Request")
    return invite.private(response)


def _next(game_id: str, wanted: str | None) -> str | None:
    """Where to go once joined: only a page of this game (never another site)."""
    if not wanted:
        return None
    base = f"/games/{game_id}"
    path = wanted.split("?", 1)[0]
    if (
        (path == base or path.startswith(base + "/"))
        and "//" not in wanted
        and "\\" not in wanted
        and "/join" not in path
    ):
        return wanted
    return None
