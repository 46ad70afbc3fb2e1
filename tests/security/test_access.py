"""Access: who may change a game. Edit secrets are unguessable and checked in constant
time, the read-only link writes nothing through any route, every form needs its CSRF
token, a game's id reveals nothing, cookies are locked down."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store

from .conftest import GAME, StoredGame, join, snapshot

SAFE = {"GET", "OPTIONS"}
"""Methods that never write. Not HEAD: Flask answers it on every GET route, and a view
that tells writes by ``method != "GET"`` would record a HEAD's form body without its
CSRF token (Flask-WTF checks POST only). test_head_with_a_body_writes_nothing proves
no route does."""
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

GAME_WRITES = {
    "boxes.new",
    "boxes.preview",
    "boxes.edit",
    "boxes.preview_edit",
    "boxes.delete",
    "boxes.undo",
    "api.add_box",
    "api.replace_box",
    "api.delete_box",
    "joining.renew",
    "games.end",
    "games.house_rules",
    "api.end_game",
    "api.change_settings",
}
"""Routes that change (or need the right to change) one stored game."""

EVENT_WRITES = {
    "events.renew",
    "events.entrants",
    "events.swap",
    "events.close",
    "events.seat",
    "events.end_table",
    "events.penalty",
    "events.withdraw_penalty",
    "events.reopen_table",
    "events.replace",
    "events.start_round",
    "api.seat_round",
    "api.close_round",
    "api.start_round",
    "api.enter",
    "api.withdraw",
    "api.penalize",
    "api.withdraw_penalty",
    "api.end_table",
    "api.reopen_table",
    "api.swap",
    "api.replace",
}
"""Routes that need an event's director's right (issue 25)."""

CLUB_WRITES = {
    "clubs.renew",
    "clubs.publish",
    "clubs.link",
    "clubs.split",
    "clubs.undo",
    "clubs.attach",
    "clubs.add_season",
    "clubs.plan",
    "clubs.edit_plan",
    "clubs.cancel_plan",
    "clubs.counting",
    "clubs.join_season",
    "clubs.detach",
    "api.publish_club",
    "api.link_member",
    "api.split_member",
    "api.undo_decision",
    "api.attach_event",
    "api.create_season",
    "api.plan_evening",
    "api.change_plan",
    "api.cancel_plan",
    "api.change_counting",
    "api.join_season",
    "api.detach_event",
}
"""Routes that need a club's owner's right (issue 36)."""

OPEN_POSTS = {
    "games.new": "starts a new game of one's own",
    "games.cut": "Scarne's cut on the new-game form: stores nothing",
    "games.rematch": "a new game of one's own with the same players",
    "joining.join": "needs the game's edit code or join code itself (wrong ones limited)",
    "joining.join_by_code": "needs a game's join code itself (wrong ones limited)",
    "disputes.settle": "rules on a showdown, stores nothing",
    "api.adjudicate": "stores nothing",
    "api.score": "stores nothing",
    "api.arrange": "stores nothing",
    "api.create_game": "a new game of one's own",
    "players.merge": "changes only games whose edit secret the browser holds",
    "players.split": "needs the edit secret of the game the name is split in",
    "players.undo": "needs the edit secret of every game the decision changed",
    "events.new": "starts a new event of one's own",
    "api.create_event": "a new event of one's own",
    "events.join": "needs the event's director code itself (wrong ones limited)",
    "clubs.new": "begins a club of one's own",
    "api.create_club": "a new club of one's own",
    "clubs.join": "needs the club's owner code itself (wrong ones limited)",
}
"""Every other state-changing route, and why anyone may call it."""


def _mutating_rules(app: Flask) -> list[Any]:
    return [
        rule
        for rule in app.url_map.iter_rules()
        if (rule.methods or set()) & WRITE_METHODS and rule.endpoint != "static"
    ]


def test_every_mutating_route_is_classified(secure_app: Flask) -> None:
    """A new POST/PUT/DELETE route must be added to one of the lists above (and so to the
    read-only test below) before this passes."""
    endpoints = {rule.endpoint for rule in _mutating_rules(secure_app)}
    assert endpoints == GAME_WRITES | EVENT_WRITES | CLUB_WRITES | set(OPEN_POSTS)


def _url(rule: Any, game: StoredGame) -> str:
    values = {"game_id": game.id, "box_id": game.box_id}
    return (
        str(rule.rule)
        .replace("<game_id>", game.id)
        .replace("<int:box_id>", str(values["box_id"]))
        .replace("<path:person>", "ann")
        .replace("<int:decision_id>", "1")
        .replace("<event_id>", "anevent")
        .replace("<int:table>", "1")
        .replace("<int:number>", "1")
        .replace("<club_id>", "aclub")
        .replace("<int:season_id>", "1")
        .replace("<int:line>", "1")
        .replace("<int:plan_id>", "1")
    )


@pytest.mark.parametrize("with_token", ["none", "wrong", "other game's"])
def test_read_only_link_cannot_write_through_any_route(
    secure_app: Flask, stored_game: StoredGame, viewer: FlaskClient, with_token: str
) -> None:
    """Every method of every game-writing route, as a browser without the edit secret
    (CSRF off, so only the edit check stands) and as an API client with no, a wrong, or
    another game's token: refused with 401/403 and nothing in the database changes."""
    secure_app.config["WTF_CSRF_ENABLED"] = False
    other = viewer.post("/api/v1/games", json=GAME).get_json()["edit_token"]
    token = {"none": None, "wrong": stored_game.token[:-2] + "xx", "other game's": other}[with_token]
    before = snapshot(secure_app)
    form = {"version": "2", "key": "k", "ending": "misdeal", "code": token or ""}
    checked = 0
    for rule in _mutating_rules(secure_app):
        if rule.endpoint not in GAME_WRITES:
            continue
        for method in sorted((rule.methods or set()) - SAFE):
            headers = {"If-Match": "2"}
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            response = (
                viewer.open(_url(rule, stored_game), method=method, data=form, headers=headers)
                if not rule.endpoint.startswith("api.")
                else viewer.open(
                    _url(rule, stored_game), method=method, json={"ending": "misdeal"}, headers=headers
                )
            )
            wanted = {403} if token is not None or not rule.endpoint.startswith("api.") else {401}
            assert response.status_code in wanted, (rule.endpoint, method, response.status_code)
            checked += 1
    assert checked == 17  # 14 routes, and HEAD on the three that also show a form
    after = snapshot(secure_app)
    after["games"] = [g for g in after["games"] if g["id"] in {x["id"] for x in before["games"]}]
    assert after == before


def test_head_with_a_body_writes_nothing(
    secure_app: Flask, editor: FlaskClient, stored_game: StoredGame
) -> None:
    """HEAD on every route that answers it, by the editor (who may write), with a box
    form or a new game in its body and the code of the game: nothing is stored, not a
    box, not a game, not a code, not a right (the session is the same after)."""
    game = stored_game.id
    version = editor.get(f"/api/v1/games/{game}").get_json()["version"]
    form = {
        "version": str(version),
        "number": "2",
        "key": "head",
        "ending": "misdeal",
        "rules": "jersey-scarne",
        "players-0": "Ann",
        "players-1": "Bob",
        "players-2": "Cal",
        "dealer": "0",
        "code": stored_game.token,
    }
    heads = [
        rule
        for rule in secure_app.url_map.iter_rules()
        if "HEAD" in (rule.methods or set()) and rule.endpoint != "static"
    ]
    assert {"boxes.new", "boxes.edit", "games.new", "joining.confirm"} <= {rule.endpoint for rule in heads}
    before = snapshot(secure_app)
    cookie = editor.get_cookie("session")
    for rule in heads:
        url = _url(rule, stored_game).replace("<path:code>", stored_game.token)
        if "<" in url:  # a route with values of its own (a rules preset, a pad)
            continue
        response = editor.open(url, method="HEAD", data=form)
        response.close()  # a file's response (/sw.js) holds the file open until closed
        assert response.status_code < 500 and not response.get_data(), url
        assert snapshot(secure_app) == before, (rule.endpoint, response.status_code)
    after = editor.get_cookie("session")
    assert cookie is not None and after is not None and after.value == cookie.value
    recorded = editor.post(f"/games/{game}/boxes/new", data=form)
    assert recorded.status_code == 400  # the same body as a POST needs its CSRF token


def test_the_editor_can_write_the_same_routes(
    editor: FlaskClient, stored_game: StoredGame, secure_app: Flask
) -> None:
    """The control for the test above: with the edit secret the same requests work."""
    secure_app.config["WTF_CSRF_ENABLED"] = False
    new = editor.post(
        f"/games/{stored_game.id}/boxes/new", data={"version": "1", "key": "k1", "ending": "misdeal"}
    )
    assert new.status_code == 303
    api = editor.post(
        f"/api/v1/games/{stored_game.id}/boxes",
        json={"ending": "misdeal"},
        headers={"Authorization": f"Bearer {stored_game.token}"},
    )
    assert api.status_code == 201 and api.get_json()["version"] == 3


def test_edit_secrets_are_unguessable_and_stored_hashed(secure_app: Flask) -> None:
    """200 games: tokens of 32 URL-safe characters (192 random bits), all different,
    none stored in the clear, unrelated to the game's id; ids of 16 characters (96
    bits), all different, sharing no common prefix that could betray an order."""
    secure_app.config["START_LIMIT"] = "1000 per minute"  # one address starts them all
    client = secure_app.test_client()
    created = [client.post("/api/v1/games", json=GAME).get_json() for _ in range(200)]
    tokens = [c["edit_token"] for c in created]
    ids = [c["id"] for c in created]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", i) for i in ids)
    assert len(set(tokens)) == len(set(ids)) == 200
    assert len({i[:3] for i in ids}) > 150  # random, not sequential or time-ordered
    stored = snapshot(secure_app)
    text = repr(stored)
    assert not any(token in text for token in tokens)
    assert all(len(g["edit_token_hash"]) == 64 for g in stored["games"])
    assert not any(i in t or t in i for i, t in zip(ids, tokens, strict=True))


def test_tokens_are_compared_in_constant_time(
    monkeypatch: pytest.MonkeyPatch, secure_app: Flask, stored_game: StoredGame
) -> None:
    """Every check of an edit secret (API, edit link, typed code) goes through
    hmac.compare_digest on fixed-length digests, never ``==`` on the secret."""
    import hmac

    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return bool(real(a, b))

    monkeypatch.setattr(hmac, "compare_digest", spy)
    client = secure_app.test_client()
    secure_app.config["WTF_CSRF_ENABLED"] = False
    client.post(
        f"/api/v1/games/{stored_game.id}/boxes",
        json={"ending": "misdeal"},
        headers={"Authorization": "Bearer guess"},
    )
    client.get(f"/games/{stored_game.id}/join/guess")  # only shows the confirm page
    client.post(f"/games/{stored_game.id}/join", data={"code": "guess"})
    guessed = [call for call in calls if store.token_hash("guess") in call]
    assert len(guessed) == 2  # the session cookie's signature is checked the same way
    assert all(len(a) == len(b) == 64 for a, b in guessed)
    assert not any(stored_game.token in (a, b) for a, b in calls)


def test_a_games_id_reveals_nothing(viewer: FlaskClient, stored_game: StoredGame) -> None:
    """Everything a read-only visitor can fetch about a game (sheet, fragments, box, share
    page, export, PDF, API) never contains its edit secret, its hash, or an edit link."""
    urls = [
        f"/games/{stored_game.id}",
        f"/games/{stored_game.id}/sheet",
        f"/games/{stored_game.id}/share",
        f"/games/{stored_game.id}/export.json",
        f"/games/{stored_game.id}/boxes/{stored_game.box_id}",
        f"/api/v1/games/{stored_game.id}",
        "/",
        f"/games/{stored_game.id}/sheet.pdf",
    ]
    for url in urls:
        for headers in ({}, {"HX-Request": "true"}):
            response = viewer.get(url, headers=headers)
            assert response.status_code == 200, url
            body = response.get_data()
            assert stored_game.token.encode() not in body, url
            assert b"/join/" not in body and b"/join#" not in body, url
            assert b"edit_token" not in body, url


def _cookie(response: Any) -> str:
    cookies = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")]
    assert cookies, "no session cookie set"
    return str(cookies[-1])


def test_session_cookie_flags(secure_app: Flask, stored_game: StoredGame) -> None:
    """The cookie that carries edit secrets: always HttpOnly and SameSite=Lax; Secure
    when the page came over HTTPS; plain HTTP on the LAN keeps working."""
    code = stored_game.token
    plain = _cookie(join(secure_app.test_client(), stored_game.id, code))
    assert "HttpOnly" in plain and "SameSite=Lax" in plain and "Secure" not in plain
    https = _cookie(join(secure_app.test_client(), stored_game.id, code, base_url="https://scores.example"))
    assert "HttpOnly" in https and "SameSite=Lax" in https and "Secure" in https
    secure_app.config["SESSION_COOKIE_SECURE"] = True
    forced = _cookie(join(secure_app.test_client(), stored_game.id, code))
    assert "Secure" in forced


def test_forwarded_proto_is_believed_only_behind_a_configured_proxy(migrated: Callable[[str], str]) -> None:
    """X-Forwarded-Proto: https makes the cookie Secure only with PROXY_FIX set; without
    it any phone could claim HTTPS (and the header is ignored)."""
    from scorekeeper.web import create_app

    url = migrated("proxy.sqlite3")
    headers = {"X-Forwarded-Proto": "https"}
    for proxies, secure in ((0, False), (1, True)):
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "p" * 40, "PROXY_FIX": proxies})
        created = app.test_client().post("/api/v1/games", json=GAME).get_json()
        referer = {"Referer": f"https://localhost/games/{created['id']}/join"}
        response = join(
            app.test_client(), created["id"], created["edit_token"], headers={**headers, **referer}
        )
        assert ("Secure" in _cookie(response)) is secure


def _csrf_posts(stored: StoredGame) -> list[tuple[str, dict[str, str]]]:
    """Every form POST of the app, with otherwise valid data."""
    game = stored.id
    players = {"players-0": "Ann", "players-1": "Bob", "players-2": "Cal", "dealer": "0"}
    return [
        ("/games/new?rules=jersey-scarne", {"rules": "jersey-scarne", **players}),
        (
            "/games/new/cut?rules=jersey-scarne",
            {"rules": "jersey-scarne", **players, "cuts-0": "K", "cuts-1": "2", "cuts-2": "5"},
        ),
        (f"/games/{game}/boxes/new", {"version": "1", "key": "a", "ending": "misdeal"}),
        (f"/games/{game}/boxes/preview", {"version": "1", "key": "a", "ending": "misdeal"}),
        (f"/games/{game}/boxes/{stored.box_id}/edit", {"version": "1", "key": "b", "ending": "misdeal"}),
        (f"/games/{game}/boxes/{stored.box_id}/preview", {"version": "1", "ending": "misdeal"}),
        (f"/games/{game}/boxes/{stored.box_id}/delete", {"version": "1", "key": "c"}),
        (f"/games/{game}/boxes/{stored.box_id}/undo", {"version": "2", "key": "u"}),
        (f"/games/{game}/rematch", {}),
        (f"/games/{game}/end", {"version": "1", "key": "d"}),
        (f"/games/{game}/rules", {"version": "1", "key": "e", "setting_gin_bonus": "60"}),
        (f"/games/{game}/join", {"code": stored.token}),
        ("/join", {"code": "ABCDEF"}),
        (f"/games/{game}/codes", {}),
        ("/settle?rules=jersey-scarne&players=Ann,Bob,Cal", {"ending": "misdeal"}),
        ("/players/ann/merge", {"name": "Bob"}),
        ("/players/ann/split", {"game": game, "person": "Ann Two"}),
        ("/players/names/1/undo", {}),
        ("/events/new?rules=jersey-scarne", {"name": "Club", "entrants": "Ann\nBob\nCal"}),
        ("/events/anevent/director/join", {"code": "ABCDEF"}),
        ("/events/anevent/director/codes", {}),
        ("/events/anevent/entrants", {"add": "Dee"}),
        ("/events/anevent/swap", {"first": "Ann", "second": "Bob"}),
        ("/events/anevent/close", {"force": "y"}),
        ("/events/anevent/seat", {}),
        ("/events/anevent/tables/1/end", {}),
        ("/events/anevent/penalties", {"player": "Ann", "points": "5", "note": "late"}),
        ("/events/anevent/penalties/1/withdraw", {"why": "misread"}),
        ("/events/anevent/tables/1/reopen", {}),
        ("/events/anevent/replace", {"player": "Ann", "by": "Eve"}),
        ("/events/anevent/rounds/1/start", {"key": "s"}),
        ("/clubs/new", {"name": "Club"}),
        ("/clubs/aclub/owner/join", {"code": "ABCDEF"}),
        ("/clubs/aclub/owner/codes", {}),
        ("/clubs/aclub/public", {"public": "y"}),
        ("/clubs/aclub/link", {"spelling": "Ann", "member": "new"}),
        ("/clubs/aclub/split", {"spelling": "Ann"}),
        ("/clubs/aclub/undo/1", {}),
        ("/clubs/aclub/events", {"event": "anevent"}),
        ("/clubs/aclub/seasons", {"name": "W", "starts": "2027-01-01", "ends": "2027-02-01"}),
        ("/clubs/aclub/seasons/1/plans", {"date": "2099-01-01", "time": "19:30", "table_size": "3"}),
        ("/clubs/aclub/plans/1", {"date": "2099-01-01", "time": "19:30", "table_size": "3"}),
        ("/clubs/aclub/plans/1/cancel", {}),
        ("/clubs/aclub/seasons/1/counting", {"count": "net"}),
        ("/clubs/aclub/seasons/1/events", {"event": "anevent"}),
        ("/clubs/aclub/events/anevent/leave", {"season": "1"}),
    ]


def test_every_form_needs_its_csrf_token(
    secure_app: Flask, editor: FlaskClient, stored_game: StoredGame
) -> None:
    """Each form POST (all 40 of them, by the editor, who may do them all) without the
    CSRF token, or with a forged one, is refused 400 with a readable page, and nothing is
    stored; the same POST with the page's own token goes through."""
    before = snapshot(secure_app)
    posts = _csrf_posts(stored_game)
    form_routes = {
        rule.endpoint for rule in _mutating_rules(secure_app) if not rule.endpoint.startswith("api.")
    }
    assert len(posts) == len(form_routes) == 46
    for url, data in posts:
        for token in (None, "forged"):
            sent = data if token is None else {**data, "csrf_token": token}
            response = editor.post(url, data=sent)
            assert response.status_code == 400, (url, response.status_code)
            assert "This form has expired" in response.get_data(as_text=True)
    assert snapshot(secure_app) == before
    page = editor.get(f"/games/{stored_game.id}/boxes/new").get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert match is not None
    saved = editor.post(
        f"/games/{stored_game.id}/boxes/new",
        data={"csrf_token": match.group(1), "version": "1", "key": "ok", "ending": "misdeal"},
    )
    assert saved.status_code == 303


def test_every_post_form_on_every_page_carries_a_csrf_token(
    editor: FlaskClient, stored_game: StoredGame
) -> None:
    """The pages render the token into each of their POST forms."""
    pages = [
        "/",
        "/games/new",
        f"/games/{stored_game.id}",
        f"/games/{stored_game.id}/share",
        f"/games/{stored_game.id}/rules",
        f"/games/{stored_game.id}/boxes/new",
        f"/games/{stored_game.id}/boxes/{stored_game.box_id}",
        f"/games/{stored_game.id}/boxes/{stored_game.box_id}/edit",
        "/settle?rules=jersey-scarne&players=Ann,Bob,Cal",
        "/check",
        "/rules/",
    ]
    forms_seen = 0
    for url in pages:
        page = editor.get(url).get_data(as_text=True)
        for form in re.findall(r"<form\b[^>]*>.*?</form>", page, flags=re.S):
            if re.search(r'method="post"', form, flags=re.I):
                forms_seen += 1
                assert 'name="csrf_token"' in form, (url, form[:300])
    assert forms_seen >= 5


def test_a_sheet_rendered_once_carries_each_browsers_own_csrf_token(
    secure_app: Flask, stored_game: StoredGame
) -> None:
    """The sheet of a version is rendered once per process (gamedata.LoadedGame.rendered)
    and its rematch form has each session's token: one browser's token is refused in
    another's session, and its own goes through."""
    game = stored_game.id
    ender = {
        "ending": "knock",
        "by": "Bob",
        "hands": {"Ann": {"count": 90}, "Bob": {"count": 0}, "Cal": {"count": 90}},
    }
    auth = {"Authorization": f"Bearer {stored_game.token}"}
    ended = secure_app.test_client().post(f"/api/v1/games/{game}/boxes", json=ender, headers=auth)
    assert ended.status_code == 201 and ended.get_json()["score"]["game_over"], ended.text
    browsers = [secure_app.test_client() for _ in range(2)]
    tokens = []
    for browser in browsers:
        assert join(browser, game, stored_game.token).status_code == 303
        page = browser.get(f"/games/{game}").get_data(as_text=True)
        (token,) = set(re.findall(r'name="csrf_token" value="([^"]+)"', page))
        tokens.append(token)
    assert tokens[0] != tokens[1]
    refused = browsers[0].post(f"/games/{game}/rematch", data={"csrf_token": tokens[1]})
    assert refused.status_code == 400
    assert browsers[0].post(f"/games/{game}/rematch", data={"csrf_token": tokens[0]}).status_code == 303


def _session_cookie(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def test_a_session_cookie_is_checked_and_its_age_counts_not_the_clocks(
    secure_app: Flask, editor: FlaskClient, stored_game: StoredGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A changed byte is refused; a cookie past its lifetime gives no edit rights; a
    cookie signed by a server whose clock runs a minute ahead (another instance of a
    club server) is taken, where itsdangerous alone refuses a negative age."""
    from scorekeeper.web import session

    form = f"/games/{stored_game.id}/boxes/new"
    cookie = _session_cookie(editor)
    assert editor.get(form).status_code == 200
    forged = secure_app.test_client()
    forged.set_cookie("session", cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB"))
    assert forged.get(form).status_code == 403
    now = session._clock()
    ahead = secure_app.test_client()
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: now + 60)
    with secure_app.test_request_context("/"):
        interface = secure_app.session_interface
        assert isinstance(interface, session.SessionInterface)
        signed = interface.get_signing_serializer(secure_app)
        assert signed is not None
        data = {"games": [stored_game.id], "edit": {stored_game.id: stored_game.token}, "_permanent": True}
        ahead.set_cookie("session", signed.dumps(data))
    monkeypatch.undo()
    assert ahead.get(form).status_code == 200
    lifetime = secure_app.permanent_session_lifetime.total_seconds()
    monkeypatch.setattr(session, "_clock", lambda: now + lifetime + 60)
    assert editor.get(form).status_code == 403


def test_a_cross_site_page_cannot_strip_edit_rights(
    secure_app: Flask, editor: FlaskClient, stored_game: StoredGame
) -> None:
    """What a hostile page can make a victim's browser do: top-level GETs (SameSite=Lax
    sends the cookie) of 40 other games' join links, old and new, and of 40 sheets:
    nothing joins, the editor still scores; and POSTs to every form route without the
    cookie (Lax withholds it): refused, and none answers a cookie that would replace the
    victim's (a fresh session without its rights)."""
    creator = secure_app.test_client()
    others = [creator.post("/api/v1/games", json=GAME).get_json() for _ in range(40)]
    for other in others:
        assert editor.get(f"/games/{other['id']}/join/{other['edit_token']}").status_code == 303
        assert editor.get(f"/games/{other['id']}/join").status_code == 200
        assert editor.get(f"/games/{other['id']}").status_code == 200
    with editor.session_transaction() as session:
        assert {game for game, _ in session["edit"]} == {stored_game.id}
    page = editor.get(f"/games/{stored_game.id}").get_data(as_text=True)
    assert "Record box" in page
    for rule in _mutating_rules(secure_app):
        if rule.endpoint.startswith("api."):
            continue
        url = _url(rule, stored_game)
        response = secure_app.test_client().post(url, data={"code": stored_game.token})
        assert response.status_code == 400, url
        assert not [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")], url
