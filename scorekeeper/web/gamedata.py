"""A stored game as the views need it: loaded through the ledger, and who may change it.

Edit rights live in the signed session cookie: the edit secret of each game this
browser created or joined. The id alone (the share link) only reads.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from flask import abort, current_app, session

from .. import ledger, store
from .database import session as db_session

MAX_REMEMBERED = 30
"""Games in this browser's list of recent games."""
MAX_EDIT_RIGHTS = 60
"""Edit secrets a cookie keeps (about 55 bytes each: a cookie holds 4 KB). They are
kept apart from the recent games, so looking at games never drops a right; past this
the least recently used right goes."""


def load(game_id: str) -> ledger.Table:
    """The game or 404; scored by the engine (an engine error is shown, not raised)."""
    table = find(game_id)
    if table is None:
        abort(404, description="There is no game at this address. Check the link.")
    return table


def find(game_id: str) -> ledger.Table | None:
    return ledger.load(db_session(), game_id)


def max_boxes() -> int:
    """The most boxes one game keeps on this server (``MAX_BOXES``)."""
    return int(current_app.config["MAX_BOXES"])


def start_token(key: str | None) -> str | None:
    """The edit secret of a game started by the form (or request) with this idempotency
    key: derived from the key and the server's secret, so a resent start (a double tap,
    a retry) answers the same secret, which the store keeps only as a hash. None without
    a key: the store makes a random one."""
    if key is None:
        return None
    secret = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    digest = hmac.new(secret, b"start:" + key.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")


def token_of(game_id: str) -> str | None:
    """The edit secret this browser holds for the game, if any."""
    token = (session.get("edit") or {}).get(game_id)
    return token if isinstance(token, str) else None


def can_edit(game: str | ledger.Table) -> bool:
    """Whether this browser holds the edit secret of the game (its id, or the game read)."""
    game_id = game if isinstance(game, str) else game.id
    token = token_of(game_id)
    if not token:
        return False
    row = store.get_game(db_session(), game_id) if isinstance(game, str) else game.row
    return row is not None and store.check_edit_token(row, token)


def require_edit(game_id: str) -> None:
    if not can_edit(game_id):
        abort(403)


def remember(game_id: str, token: str | None = None) -> None:
    """Note the game in this browser's list, and its edit secret if given."""
    seen = [g for g in session.get("games", []) if g != game_id]
    games = [game_id, *seen][:MAX_REMEMBERED]
    if games != session.get("games") or not session.permanent:
        # Only a change is written: an unchanged session sends no new cookie.
        session.permanent = True
        session["games"] = games
    if token is not None:
        rights = {k: v for k, v in (session.get("edit") or {}).items() if k != game_id}
        rights[game_id] = token
        session["edit"] = dict(list(rights.items())[-MAX_EDIT_RIGHTS:])


def forget_right(game_id: str) -> None:
    """Drop a secret that no longer unlocks the game (its codes were renewed)."""
    rights = dict(session.get("edit") or {})
    if rights.pop(game_id, None) is not None:
        session["edit"] = rights


def remembered() -> list[str]:
    return list(session.get("games", []))
