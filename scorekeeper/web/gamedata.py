"""A stored game as the views need it: loaded through the ledger, and who may change it.

Edit rights live in the signed session cookie, apart from the list of recent games
(looking at games never drops a right): for a game this browser started, its creator's
pass (made from the server's secret and the game's id: renewing the codes keeps it);
for a game it joined, the edit code it joined with (renewing the codes revokes it).
The id alone (the share link) only reads.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from datetime import UTC, datetime
from typing import Any

from flask import abort, current_app, flash, g, request, session

from .. import ledger, store
from ..ledger import events as ledger_events
from . import printing
from .database import session as db_session

MAX_REMEMBERED = 30
"""Games in this browser's list of recent games."""
MAX_EDIT_RIGHTS = 60
"""Rights a cookie keeps, a game's and an event director's together. They are kept
apart from the recent games, so looking at games never drops a right; past this, or
past :data:`RIGHTS_BYTES`, the least recently used right goes (a write, a join or a
director's action uses one), and the phone is told. They are kept as one list of
``[game, secret]`` pairs (an event's ``["e:<event>", secret]``), least recently used
first: the session's JSON sorts a dict's keys, which once made the order that of game
ids, and the director's rights a dict of their own (issue 33)."""

RIGHTS_BYTES = 2640
"""The most the rights take in the cookie's JSON: a browser drops a cookie past 4 KB
(Chromium did from the 10th director join of a phone holding 60 game rights, issue
33), and the recent games, the phone's name, the last write and the director's form
keys need the rest. Rights are kept compact: a creator's pass as :data:`PASS`, a code
joined with as :data:`DIGEST` and 16 hex digits of its stored hash (about 41 bytes a
right, an event's 43: 60 fit)."""

PASS = "*"
"""What the cookie keeps for a creator's pass: the pass is made again from the server's
secret, which also signs the cookie, so keeping it whole added nothing but bytes."""

DIGEST = "#"
"""Before what the cookie keeps of a code joined with: the start of the code's hash as
the database stores it (64 bits), enough to tell the current code from a renewed one;
the signed cookie cannot be forged, so the code itself adds nothing but bytes."""

EVENT = "e:"
"""Before an event's id in the rights list: a director's right (game ids have no colon)."""


NO_GAME = "There is no game at this address. Check the link."


def load(game_id: str) -> ledger.Table:
    """The game or 404; scored by the engine (an engine error is shown, not raised)."""
    table = find(game_id)
    if table is None:
        abort(404, description=NO_GAME)
    return table


def row(game_id: str) -> store.GameRow:
    """The game's row or 404, without its boxes or score: for a write, which the ledger
    reads and scores itself (a page only needs the scored game to show the form again)."""
    found = store.get_game(db_session(), game_id)
    if found is None:
        abort(404, description=NO_GAME)
    return found


def find(game_id: str) -> ledger.Table | None:
    """The game scored, or None. A reader of a very large game waits for its turn
    before the game is read and scored (issue 23: web/printing.py's
    :func:`~.printing.big_game_turn`), its size taken from the game's row (the
    summary's count of boxes). The turn is the anonymous readers': a write, or a read
    by a phone that keeps score of the game, takes none, so readers never keep a
    table's save or its own sheet waiting."""
    db = db_session()
    found = store.get_game(db, game_id)
    if found is None:
        return None
    boxes = store.Summary.read(found.summary).boxes
    if isinstance(boxes, int):
        printing.big_game_turn(boxes, exempt=lambda: _scoring(found))
    # The row read once (issue 34: twice a page), unless the request waited for its turn.
    table = ledger.load(db, game_id, None if printing.holds_big_game_turn() else found)
    if table is not None and not isinstance(boxes, int):  # a game stored without one
        printing.big_game_turn(len(table.boxes), exempt=lambda: _scoring(found))
    return table


def _scoring(game: store.GameRow) -> bool:
    """Whether this request is a scorer's: a write, from a phone that keeps score of
    the game, or from the API with the game's edit token or its event director's as a
    Bearer token (issue 33: 8 scorers appending to a 120-box game through the API got
    7 busy 503s in 600 reads); no turn among the readers for any of them."""
    return request.method not in ("GET", "HEAD") or can_edit(game) or _bearer_scores(game)


def _bearer_scores(game: store.GameRow) -> bool:
    """Whether the request's ``Authorization: Bearer`` token scores this game."""
    kind, _, token = (request.headers.get("Authorization") or "").partition(" ")
    token = token.strip()
    if kind.lower() != "bearer" or not token or len(token) > 200:
        return False
    if store.check_edit_token(game, token):
        return True
    seat = store.events.event_of_game(db_session(), game.id)
    event = store.events.get_event(db_session(), seat[0]) if seat else None
    return event is not None and ledger_events.is_director(event, token)


def max_boxes() -> int:
    """The most boxes one game keeps on this server (``MAX_BOXES``)."""
    return int(current_app.config["MAX_BOXES"])


def secret() -> bytes:
    """The server's secret, from which games' codes and creators' passes are made."""
    return str(current_app.config["SECRET_KEY"]).encode("utf-8")


def creator_pass(game_id: str) -> str:
    """What the browser that started a game keeps as its right: never shown or shared,
    so renewing the game's codes (against a leaked code) never locks its creator out."""
    digest = hmac.new(secret(), b"creator:" + game_id.encode("utf-8"), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode("ascii")


def _held() -> list[tuple[str, str]]:
    """Every right the cookie holds, games' and directors', least recently used first
    (a cookie from before holds games' rights in a dict, whose order is lost, and
    directors' in a dict of their own: they come first, in their ids' order)."""
    held = session.get("edit") or []
    pairs: list[tuple[Any, Any]] = (
        list(held.items())
        if isinstance(held, dict)
        else [(p[0], p[1]) for p in held if isinstance(p, list | tuple) and len(p) == 2]
    )
    old = session.get(DIRECT)
    if isinstance(old, dict):
        pairs = [(EVENT + str(event), token) for event, token in old.items()] + pairs
    return [(key, token) for key, token in pairs if isinstance(key, str) and isinstance(token, str)]


def _rights() -> list[tuple[str, str]]:
    """The games' rights the cookie holds, least recently used first."""
    return [(game, token) for game, token in _held() if not game.startswith(EVENT)]


def _compact(key: str, token: str) -> str:
    """What the cookie keeps of a right: :data:`PASS` for the creator's or director's
    pass, else the start of the code's hash (a kept right as it is)."""
    if token == PASS or token.startswith(DIGEST):
        return token
    made = director_pass(key[len(EVENT) :]) if key.startswith(EVENT) else creator_pass(key)
    if hmac.compare_digest(token, made):
        return PASS
    return DIGEST + store.token_hash(token)[:16]


def matches(token: str, stored_hash: str) -> bool:
    """Whether a right held (a code, or its kept :data:`DIGEST`) is the code whose hash
    the database stores (constant-time)."""
    if token.startswith(DIGEST):
        return hmac.compare_digest(token[len(DIGEST) :], stored_hash[:16])
    return len(token) <= 200 and hmac.compare_digest(store.token_hash(token), stored_hash)


def token_of(game_id: str) -> str | None:
    """The right this browser holds for the game (a pass or an edit code), if any."""
    token = next((token for game, token in _rights() if game == game_id), None)
    return creator_pass(game_id) if token == PASS else token


def can_edit(game: str | store.GameRow) -> bool:
    """Whether this browser holds a right to the game (its id, or its row read already):
    its creator's pass, or its current edit code."""
    game_id = game if isinstance(game, str) else game.id
    token = token_of(game_id)
    if not token:
        return directs_game(game_id)
    row = store.get_game(db_session(), game_id) if isinstance(game, str) else game
    if row is None:
        return False
    if hmac.compare_digest(store.token_hash(token), store.token_hash(creator_pass(row.id))) or matches(
        token, row.edit_token_hash
    ):
        if request.method not in ("GET", "HEAD"):
            _used(game_id, token)
        return True
    return directs_game(game_id)


def _used(game_id: str, token: str) -> None:
    """A right used for a write becomes the most recently used (the last to go), kept
    as it was kept."""
    stored = next((held for game, held in _rights() if game == game_id), token)
    _hold(game_id, stored, whole=True)


def _hold(key: str, token: str, *, whole: bool = False) -> None:
    """Keep a right (a game's id, or :data:`EVENT` and an event's) as the most
    recently used, compact (:func:`_compact`) unless ``whole``: a code the phone must
    show again, since the server cannot make it (a game's random code from before)."""
    kept = token if whole else _compact(key, token)
    held = _held()
    if held and held[-1] == (key, kept) and DIRECT not in session:
        return
    _keep([(k, t) for k, t in held if k != key] + [(key, kept)])


def _keep(rights: list[tuple[str, str]]) -> None:
    """Store the rights, the least recently used dropped past :data:`MAX_EDIT_RIGHTS`
    or :data:`RIGHTS_BYTES`, and tell the phone which games or events it no longer
    keeps."""
    kept = rights[-MAX_EDIT_RIGHTS:]
    size = sum(len(k) + len(t) + 8 for k, t in kept)
    while len(kept) > 1 and size > RIGHTS_BYTES:
        size -= len(kept[0][0]) + len(kept[0][1]) + 8
        kept = kept[1:]
    dropped = rights[: len(rights) - len(kept)]
    session.pop(DIRECT, None)
    session["edit"] = [[key, token] for key, token in kept]
    if dropped:
        games = sum(1 for key, _ in dropped if not key.startswith(EVENT))
        events = len(dropped) - games
        what = " and ".join(
            part
            for part in (
                "" if not games else "a game" if games == 1 else f"{games} games",
                "" if not events else "an event" if events == 1 else f"{events} events",
            )
            if part
        )
        flash(
            f"This phone no longer keeps score of {what} (it keeps {len(kept)} at "
            "most: the least recently used went). Its scorers or director can give "
            "you the code again.",
            "rights",
        )


# --- an event's director's right (issue 25), beside the scorers' ------------------------
# Here rather than in :mod:`.eventdata`, which reads events and imports this module: a
# game's right asks whether this phone directs its event, without importing back.

DIRECT = "direct"
"""The session's key where a cookie from before kept the director's rights (a dict of
event id -> the code or pass); they are read from it and moved into the one list."""


def director_pass(event_id: str) -> str:
    """What the phone that started an event keeps: never shown, untouched by renewals."""
    digest = hmac.new(secret(), b"director:" + event_id.encode("utf-8"), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode("ascii")


def directing(event_id: str) -> str | None:
    """The director's code or pass this phone holds for an event, if any."""
    key = EVENT + event_id
    token = next((token for held, token in _held() if held == key), None)
    return director_pass(event_id) if token == PASS else token


def keep_director(event_id: str, token: str) -> None:
    """This phone directs the event (a join, a director's action): its right becomes the
    most recently used."""
    session.permanent = True
    _hold(EVENT + event_id, token)


def can_direct(event_id: str) -> bool:
    """Whether this phone holds the event's director's right: its creator's pass, or
    the current director's code."""
    token = directing(event_id)
    if not token:
        return False
    if hmac.compare_digest(token, director_pass(event_id)):
        allowed = True
    else:
        row = store.events.get_event(db_session(), event_id)
        allowed = row is not None and matches(token, row.director_hash)
    if allowed and request.method not in ("GET", "HEAD"):
        keep_director(event_id, token)
    return allowed


def directs_game(game_id: str) -> bool:
    """Whether this phone directs the event a game is played in (its right then covers
    the game). Costs nothing for a phone that directs no event."""
    if not any(key.startswith(EVENT) for key, _ in _held()):
        return False
    found = store.events.event_of_game(db_session(), game_id)
    return found is not None and can_direct(found[0])


def scored() -> set[str]:
    """The games this browser keeps score of now (each right checked, as
    :func:`can_edit` does, once a request): what a merge or split of names may touch."""
    found = g.get("scored")
    if found is None:
        found = g.scored = {game_id for game_id, _ in _rights() if can_edit(game_id)}
    return set(found)


MAX_PHONE_NAME = 40
"""The longest name a phone gives itself (its label, "Bo's phone", goes in history)."""


def name_phone(name: str | None, how: str) -> None:
    """Keep this phone's label in its session, written with each change it makes to a
    box (issue 22: history lines say from which phone): "Bo's phone" from the name it
    gave when it joined or started a game, else, while it has none, "a phone that
    ``how`` at 20:14" (UTC)."""
    given = " ".join((name or "").split())[:MAX_PHONE_NAME]
    if given:
        session["phone"] = f"{given}'s phone"
    elif not isinstance(session.get("phone"), str):
        session["phone"] = f"a phone that {how} at {datetime.now(UTC):%H:%M} UTC"


def phone() -> str | None:
    """This phone's label (:func:`name_phone`), if it has one."""
    label = session.get("phone")
    return label if isinstance(label, str) else None


def started(game_id: str) -> None:
    """Remember a game this browser started, with its creator's pass."""
    remember(game_id, creator_pass(game_id))


def require_edit(game_id: str) -> None:
    if not can_edit(game_id):
        abort(403)


def remember(game_id: str, token: str | None = None, *, whole: bool = False) -> None:
    """Note the game in this browser's list, and its edit secret if given (kept
    ``whole`` when the server cannot make it again: its scorer shows its link)."""
    seen = [g for g in session.get("games", []) if g != game_id]
    games = [game_id, *seen][:MAX_REMEMBERED]
    if games != session.get("games") or not session.permanent:
        # Only a change is written: an unchanged session sends no new cookie.
        session.permanent = True
        session["games"] = games
    if token is not None:
        _hold(game_id, token, whole=whole)


def forget_right(game_id: str) -> None:
    """Drop a code that no longer unlocks the game (its codes were renewed)."""
    rights = _held()
    if any(game == game_id for game, _ in rights):
        session.pop(DIRECT, None)
        session["edit"] = [[game, token] for game, token in rights if game != game_id]


def remembered() -> list[str]:
    return list(session.get("games", []))


def note_joined(game_id: str) -> None:
    """This phone has just joined the game: its sheet says so, once."""
    session["joined"] = game_id


def just_joined(game_id: str) -> bool:
    """Whether this phone has just joined the game (said once, on a GET: the note is
    dropped then; a HEAD changes nothing)."""
    if session.get("joined") != game_id or request.method != "GET":
        return False
    session.pop("joined")
    return True


UNDO_SECONDS = 60
"""How long the sheet offers to undo the last write made on this phone."""


def note_write(
    game_id: str, box_id: int, version: int, what: str, undoable: bool = True, undo_key: str | None = None
) -> None:
    """Remember this phone's last write (one at a time), for the sheet to say what was
    done and offer to undo it: the game version it made, so the offer ends with the
    next write from any phone. An undo notes its own key (``undo_key``), so a second
    tap of the same undo is still this phone's."""
    session["last_write"] = {
        "game": game_id,
        "box": box_id,
        "version": version,
        "what": what,
        "undoable": undoable,
        "undo_key": undo_key,
        "until": int(time.time()) + UNDO_SECONDS,
    }


def may_undo(game_id: str, box_id: int, version: int | None, key: str | None) -> bool:
    """Whether an undo of the box is this phone's own, as the sheet promises: its last
    write was to that box and made that version (or the undo repeats this phone's
    undo, by its key). Another scorer's write is theirs to undo, or anyone's to edit."""
    noted = session.get("last_write")
    if not isinstance(noted, dict) or noted.get("game") != game_id or noted.get("box") != box_id:
        return False
    if noted.get("undoable") and noted.get("version") == version:
        return True
    return key is not None and noted.get("undo_key") == key


def last_write(table: ledger.Table) -> dict[str, Any] | None:
    """This phone's last write to the game, with ``seconds`` left to undo it, while it
    is still the game's last write and not older than :data:`UNDO_SECONDS`."""
    noted = session.get("last_write")
    if not isinstance(noted, dict) or noted.get("game") != table.id:
        return None
    left = int(noted.get("until", 0)) - int(time.time())
    if noted.get("version") != table.version or left <= 0:
        return None
    return {**noted, "seconds": left}
