"""Joining the table through the test client: the short join code, the confirmed join,
the scorers-only page, renewing codes, wrong codes limited, and rights that nothing
but a renewal takes away."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import ledger, store
from scorekeeper.web import gamedata, invite

from .conftest import box_form, start_game

HX = {"HX-Request": "true"}


def _codes(client: FlaskClient, game_id: str) -> tuple[str, str]:
    """The join link's edit code and the short join code, as the scorer's sheet shows them."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    link = re.search(rf'value="http://localhost/games/{game_id}/join#([^"]+)"', page)
    short = re.search(r'id="join-code"[^>]*>([^<]+)<', page)
    assert link is not None and short is not None, page[-3000:]
    return link.group(1), short.group(1).replace(" ", "")


def _scorer(client: FlaskClient, game_id: str) -> bool:
    return "Record box" in client.get(f"/games/{game_id}").get_data(as_text=True)


@pytest.fixture
def game_id(client: FlaskClient) -> str:
    return start_game(client)


def test_the_short_code_has_six_characters_without_look_alikes(
    client: FlaskClient, game_id: str, app: Flask
) -> None:
    """6 characters of the 30 (no 0, O, 1, I, L, nor U beside V); only its hash is stored, apart
    from the edit code's; 200 games get 200 different codes."""
    assert not set("0O1IlLU") & set(ledger.JOIN_ALPHABET) and len(ledger.JOIN_ALPHABET) == 30
    edit, short = _codes(client, game_id)
    assert re.fullmatch(r"[2-9A-HJKMNP-TV-Z]{6}", short) and short.upper() == short
    with app.app_context():
        from scorekeeper.web.database import session

        row = store.get_game(session(), game_id)
        assert row is not None and row.codes_round == 1
        assert row.join_code_hash == store.join_code_hash(short) != store.token_hash(short)
        assert short not in repr(row) and edit not in repr(row)
    shorts = {ledger.make_codes(b"s" * 32, f"game{i}", 1).join for i in range(200)}
    assert len(shorts) == 200


def test_a_watcher_joins_by_typing_the_short_code_in_any_case(
    app: Flask, client: FlaskClient, game_id: str
) -> None:
    _, short = _codes(client, game_id)
    phone = app.test_client()
    assert not _scorer(phone, game_id)
    typed = f" {short[:3].lower()}-{short[3:]} "
    joined = phone.post(f"/games/{game_id}/join", data={"code": typed})
    assert joined.status_code == 303 and joined.headers["Location"] == f"/games/{game_id}"
    assert _scorer(phone, game_id)


def test_join_a_game_from_home_by_the_code_alone(app: Flask, client: FlaskClient, game_id: str) -> None:
    other_game = start_game(client)
    _, short = _codes(client, game_id)
    home = app.test_client().get("/").get_data(as_text=True)
    assert "Join a game" in home and 'action="/join"' in home
    phone = app.test_client()
    joined = phone.post("/join", data={"code": short.lower()})
    assert joined.headers["Location"] == f"/games/{game_id}"
    assert _scorer(phone, game_id) and not _scorer(phone, other_game)
    wrong = app.test_client().post("/join", data={"code": "ZZZZZZ"})
    text = wrong.get_data(as_text=True)
    assert wrong.status_code == 403 and "does not unlock any game" in text
    assert "9 more tries" in text and 'name="code"' in text


def test_the_join_link_changes_nothing_until_confirmed(app: Flask, client: FlaskClient, game_id: str) -> None:
    """GET of the join link (new, with the code in the fragment the server never sees,
    or old, with the code in the path, sent on to the new one) shows the confirm page
    and no right; the POST of its button joins. The page is never cached and keeps its
    address to this server."""
    edit, _ = _codes(client, game_id)
    phone = app.test_client()
    for url in (f"/games/{game_id}/join", f"/games/{game_id}/join/{edit}"):
        page = phone.get(url, follow_redirects=True)
        text = page.get_data(as_text=True)
        assert page.status_code == 200 and "Join as scorer" in text
        assert page.headers["Cache-Control"] == "no-store"
        assert page.headers["Referrer-Policy"] == "same-origin"
        assert not _scorer(phone, game_id)
    old = phone.get(f"/games/{game_id}/join/{edit}")
    assert old.headers["Location"] == f"/games/{game_id}/join#{edit}"
    assert phone.post(f"/games/{game_id}/join", data={"code": edit}).status_code == 303
    assert _scorer(phone, game_id)
    again = phone.get(f"/games/{game_id}/join").get_data(as_text=True)
    assert "You already keep score here" in again


def test_every_page_that_shows_a_code_is_no_store(client: FlaskClient, game_id: str) -> None:
    """The scorer's sheet and share page show the codes: no-store, same-origin; the
    htmx poll of the sheet shows none and may be cached as before."""
    edit, short = _codes(client, game_id)
    for url in (f"/games/{game_id}", f"/games/{game_id}/share"):
        response = client.get(url)
        text = response.get_data(as_text=True)
        assert edit in text and short[:3] in text
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["Referrer-Policy"] == "same-origin"
    poll = client.get(f"/games/{game_id}/sheet", headers=HX).get_data(as_text=True)
    assert edit not in poll


def test_a_watcher_on_a_scorers_page_gets_the_code_prompt(
    app: Flask, client: FlaskClient, game_id: str
) -> None:
    """Record, edit, delete: a styled 403 that explains, with the code prompt that
    leads back to the page refused; a wrong code offers another try and the way back."""
    assert (
        client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13})).status_code
        == 303
    )
    box_id = re.findall(
        rf"/games/{game_id}/boxes/(\d+)", client.get(f"/games/{game_id}").get_data(as_text=True)
    )[0]
    _, short = _codes(client, game_id)
    phone = app.test_client()
    pages = [
        ("get", f"/games/{game_id}/boxes/new"),
        ("get", f"/games/{game_id}/boxes/{box_id}/edit"),
        ("post", f"/games/{game_id}/boxes/{box_id}/delete"),
        ("post", f"/games/{game_id}/codes"),
    ]
    for method, url in pages:
        response = getattr(phone, method)(url, data={"version": "2", "key": "x"})
        text = response.get_data(as_text=True)
        assert response.status_code == 403, url
        assert "Only scorers can do this" in text and "Forbidden" not in text
        assert 'name="code"' in text and "Back to the game" in text
        assert response.headers["Cache-Control"] == "no-store"
    refused = phone.get(f"/games/{game_id}/boxes/new").get_data(as_text=True)
    assert f'name="next" value="/games/{game_id}/boxes/new"' in refused
    wrong = phone.post(
        f"/games/{game_id}/join", data={"code": "WRQNG2", "next": f"/games/{game_id}/boxes/new"}
    )
    text = wrong.get_data(as_text=True)
    assert wrong.status_code == 403 and "Wrong code" in text and "9 more tries" in text
    assert f'href="/games/{game_id}"' in text and 'name="code"' in text
    joined = phone.post(f"/games/{game_id}/join", data={"code": short, "next": f"/games/{game_id}/boxes/new"})
    assert joined.headers["Location"] == f"/games/{game_id}/boxes/new"
    assert phone.get(f"/games/{game_id}/boxes/new").status_code == 200


def test_htmx_on_a_scorers_page_is_sent_to_the_prompt(app: Flask, game_id: str) -> None:
    response = app.test_client().post(
        f"/games/{game_id}/boxes/preview", headers=HX, data=box_form(1, counts={0: 1})
    )
    assert response.status_code == 200  # htmx follows it; the console logs no failure
    assert response.headers["HX-Redirect"].startswith(f"/games/{game_id}/join?next=")


def test_join_goes_only_to_pages_of_its_own_game(app: Flask, client: FlaskClient, game_id: str) -> None:
    edit, _ = _codes(client, game_id)
    for wanted in (
        "https://evil.example/",
        "//evil.example",
        f"/games/{game_id}x/boxes",
        "/games/other/boxes/new",
        f"/games/{game_id}/../../x\\y",
    ):
        joined = app.test_client().post(f"/games/{game_id}/join", data={"code": edit, "next": wanted})
        assert joined.headers["Location"] == f"/games/{game_id}", wanted


def test_wrong_codes_are_limited_per_client_and_per_game(
    app: Flask, client: FlaskClient, game_id: str
) -> None:
    """10 wrong short codes from one address, then 429 with Retry-After, even with the
    right short code; another address still may; 300 wrong codes on one game from many
    addresses close that game's short code for the window, not other games' (the join
    link never: tests/security/test_join_limits.py)."""
    _, short = _codes(client, game_id)
    phone = app.test_client()
    for left in range(9, -1, -1):
        wrong = phone.post(f"/games/{game_id}/join", data={"code": "ZZZZZZ"})
        assert wrong.status_code == (403 if left else 429)
    blocked = phone.post(f"/games/{game_id}/join", data={"code": short})
    text = blocked.get_data(as_text=True)
    assert blocked.status_code == 429 and "works again in 15 minutes" in text
    assert 0 < int(blocked.headers["Retry-After"]) <= 900
    assert not _scorer(phone, game_id)
    other = app.test_client()
    assert (
        other.post(
            f"/games/{game_id}/join", data={"code": short}, environ_base={"REMOTE_ADDR": "10.0.0.9"}
        ).status_code
        == 303
    )
    second = start_game(client)
    for n in range(300):
        app.test_client().post(
            f"/games/{second}/join",
            data={"code": "ZZZZZZ"},
            environ_base={"REMOTE_ADDR": f"10.1.{n // 10}.1"},
        )
    _, second_short = _codes(client, second)
    late = app.test_client().post(
        f"/games/{second}/join", data={"code": second_short}, environ_base={"REMOTE_ADDR": "10.2.0.1"}
    )
    assert late.status_code == 429
    assert (
        app.test_client()
        .post(f"/games/{game_id}/join", data={"code": short}, environ_base={"REMOTE_ADDR": "10.2.0.1"})
        .status_code
        == 303
    )


def test_the_tries_window_slides_and_memory_stays_bounded() -> None:
    tries = invite.Tries(limit=2, window=60, keys=3)
    tries.wrong("a", 0)
    tries.wrong("a", 10)
    assert tries.left("a", 20) == 0 and tries.wait("a", 20) == pytest.approx(40)
    assert tries.left("a", 61) == 1 and tries.wait("a", 61) == 0
    for key in "bcde":
        tries.wrong(key, 70)
    assert tries.left("a", 71) == 2 and len(tries._wrong) == 3


def test_renewing_revokes_old_codes_and_keeps_the_creator(
    app: Flask, client: FlaskClient, game_id: str
) -> None:
    """Bob joined with the link, Cal with the short code; Bob renews: the old link and
    short code unlock nothing, Cal becomes a watcher, Bob (who renewed) and Ann (who
    started the game, on another phone) stay scorers and see the new codes."""
    old_edit, old_short = _codes(client, game_id)
    bob, cal = app.test_client(), app.test_client()
    bob.post(f"/games/{game_id}/join", data={"code": old_edit})
    cal.post(f"/games/{game_id}/join", data={"code": old_short})
    assert _scorer(bob, game_id) and _scorer(cal, game_id)
    renewed = bob.post(f"/games/{game_id}/codes")
    assert renewed.headers["Location"] == f"/games/{game_id}#invite"
    new_edit, new_short = _codes(bob, game_id)
    assert (new_edit, new_short) != (old_edit, old_short)
    assert _codes(client, game_id) == (new_edit, new_short)
    assert not _scorer(cal, game_id) and _scorer(bob, game_id) and _scorer(client, game_id)
    for code in (old_edit, old_short):
        assert app.test_client().post(f"/games/{game_id}/join", data={"code": code}).status_code == 403
    assert app.test_client().post("/join", data={"code": old_short}).status_code == 403
    assert cal.post(f"/games/{game_id}/join", data={"code": new_short}).status_code == 303
    assert _scorer(cal, game_id)


def test_two_phones_renewing_at_once_agree(app: Flask, client: FlaskClient, game_id: str) -> None:
    """The store renews only from the round it saw: the second of two renewals from the
    same round changes nothing and answers the codes that stand."""
    with app.test_request_context():
        from scorekeeper.web.database import session

        db = session()
        row = store.get_game(db, game_id)
        assert row is not None and row.codes_round == 1
        first = ledger.make_codes(gamedata.secret(), game_id, 2)
        assert store.renew_codes(db, game_id, 1, first)
        assert not store.renew_codes(db, game_id, 1, ledger.make_codes(b"x" * 32, game_id, 2))
        now = store.get_game(db, game_id)
        assert now is not None and ledger.codes_of(now, gamedata.secret()) == first


def test_viewing_sixty_games_keeps_every_right(app: Flask, client: FlaskClient) -> None:
    """Rights live apart from the recent games: after looking at 65 other games (the
    recent list keeps 30) the first game is still this phone's to score, and so is a
    game it joined; the cookie stays under the 4 KB browsers keep."""
    mine = start_game(client)
    stranger = app.test_client()
    theirs = start_game(stranger)
    edit, _ = _codes(stranger, theirs)
    client.post(f"/games/{theirs}/join", data={"code": edit})
    others = [start_game(stranger) for _ in range(65)]
    for other in others:
        assert client.get(f"/games/{other}").status_code == 200
    assert _scorer(client, mine) and _scorer(client, theirs)
    with client.session_transaction() as session:
        assert len(session["games"]) == gamedata.MAX_REMEMBERED
        assert {game for game, _ in session["edit"]} == {mine, theirs}
    cookie = client.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 4000


def test_a_full_cookie_of_rights_fits(app: Flask) -> None:
    """60 games started on one phone (the most rights a cookie keeps) and 30 recent
    games: the cookie is under 4 KB, so a browser keeps it."""
    phone = app.test_client()
    for _ in range(gamedata.MAX_EDIT_RIGHTS):
        start_game(phone)
    cookie = phone.get_cookie("session")
    assert cookie is not None
    assert len(cookie.value) < 4000, len(cookie.value)


def test_a_right_no_longer_valid_is_a_watchers_view(app: Flask, client: FlaskClient, game_id: str) -> None:
    """The creator's pass is made from the server's secret and the game: another
    server secret (the secret file replaced) makes it worthless, as it should."""
    assert _scorer(client, game_id)
    app.config["SECRET_KEY"] = "another-secret-key"
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Record box" not in page


def test_api_games_have_codes_too(client: FlaskClient, app: Flask) -> None:
    game: dict[str, Any] = {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann"}
    body = client.post("/api/v1/games", json=game).get_json()
    assert re.fullmatch(r"[2-9A-HJKMNP-TV-Z]{6}", body["join_code"])
    phone = app.test_client()
    assert phone.post("/join", data={"code": body["join_code"]}).status_code == 303
    assert _scorer(phone, body["id"])


def test_a_game_from_before_codes_had_rounds(app: Flask, client: FlaskClient) -> None:
    """A game stored with a random edit code (before this change, or by the command
    line's import) has no short code: its scorer sees the edit link it holds and is
    offered to renew, which makes a short code."""
    with app.app_context():
        from scorekeeper.engine.contract import GameEntry
        from scorekeeper.web.database import session

        game = GameEntry.from_json(
            {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann"}
        )
        started = ledger.start(session(), game)
        assert started.table.row.codes_round is None and started.token is not None
        game_id, token = started.table.id, started.token
    assert client.post(f"/games/{game_id}/join", data={"code": token}).status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"join#{token}" in page and 'id="join-code"' not in page and "renew" in page
    client.post(f"/games/{game_id}/codes")
    _, short = _codes(client, game_id)
    assert ledger.as_join_code(short) == short and _scorer(client, game_id)
