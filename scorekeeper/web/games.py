"""Games: the home page, starting a game, the score sheet (the game's home page),
sharing, rematch, export and the printed sheet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from .. import chart, engine, ledger, store
from ..engine import vocabulary
from ..engine.contract import GameEntry
from ..engine.history import HistoryEntry, Kind
from ..engine.substitutes import playing
from . import database, forms, gamedata, htmx, invite, printing, watching
from .links import public_url

bp = Blueprint("games", __name__)


@bp.app_template_global("eldest")
def eldest(players: list[str], dealer: str) -> str:
    """Who plays first when ``dealer`` deals: the player at his left (J3, G1)."""
    return engine.eldest(players, dealer)


@bp.get("/")
def home() -> Response:
    """Recent games, and the ways in: new game, check a hand, settle a showdown, rules."""
    db = database.session()
    mine = gamedata.remembered()
    if current_app.config["RECENT_GAMES_PUBLIC"]:
        games = store.recent_games(db)
    else:
        games = store.recent_games(db, ids=mine) if mine else []
    return htmx.render("games/home.html", "games/_recent.html", games=games, mine=set(mine))


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> Response:
    """The new-game form; POST starts the game and goes to its score sheet."""
    preset = request.values.get("rules") or forms.GAME_ORDER[0]
    if preset not in engine.PRESETS:
        preset = forms.GAME_ORDER[0]
    form = forms.new_game_form_class(preset)()
    form.rules.data = preset
    _seat_choices(form)
    if request.method != "POST":  # GET or HEAD: only a POST writes
        return _new_page(form)
    if not form.validate():
        return _new_page(form, 422)
    game = forms.game_from_form(form)
    if game is None:
        return _new_page(form, 422)
    key = form.key.data or None
    try:
        started = ledger.start(
            database.session(), GameEntry.from_json(game), key=key, secret=gamedata.secret()
        )
    except engine.ScorekeeperError as err:
        forms.attach_engine_error(form, err)
        return _new_page(form, 422)
    gamedata.started(started.table.id)
    gamedata.name_phone(form.phone.data, "started a game")
    return htmx.go(url_for("games.sheet", game_id=started.table.id))


@bp.post("/games/new/cut")
def cut() -> Response:
    """Scarne's cut (J1): the high card deals first and chooses whose discards he takes."""
    preset = request.values.get("rules") or forms.GAME_ORDER[0]
    if preset not in engine.PRESETS:
        abort(404)
    form = forms.new_game_form_class(preset)()
    form.rules.data = preset
    _seat_choices(form)
    if not form.validate():
        return _new_page(form, 422)
    result = forms.scarne_cut(form)
    if result.dealer_seat is None:
        forms.add_error(form.cuts, result.message)
        return _new_page(form, 422)
    form.dealer.data = result.dealer_seat
    form.cut_receives.choices = forms.choices((seat, form.players[seat].data or "") for seat in result.others)
    if form.cut_receives.data not in result.others:  # a second tap keeps the choice
        form.cut_receives.data = result.others[-1]
    return _new_page(form, cut_message=result.message)


def _seat_choices(form: forms.NewGameForm) -> None:
    form.dealer.choices = forms.choices((i, f"Seat {i + 1}") for i in range(len(form.players)))


def _new_page(form: forms.NewGameForm, status: int = 200, cut_message: str = "") -> Response:
    rules = engine.find_rules(form.rules.data or forms.GAME_ORDER[0])
    return htmx.render(
        "games/new.html",
        "games/_new_form.html",
        status,
        form=form,
        rules=rules,
        presets=forms.presets(),
        cut_message=cut_message,
        main_settings=main_settings(rules),
    )


def main_settings(rules: Any) -> set[str]:
    """The settings that matter for this preset; the rest fold away under "more"."""
    hidden = {
        "V2": rules.knock_limit_from == "fixed",
        "V3": not rules.hollywood,
        "K1": rules.family != "knock-rummy",
        "P4": rules.family == "jersey",
        "J13": rules.stock_end != "break-3",
    }
    return {s.name for s in engine.SETTINGS if not hidden.get(s.rule, False)}


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (static/sw.js), served from the root so that it may keep the
    sheets of every game for reading offline; always checked for a new version."""
    worker = Path(current_app.static_folder or "static") / "sw.js"
    response = Response(worker.read_bytes(), mimetype="text/javascript")  # a small file
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/games/<game_id>")
def sheet(game_id: str) -> Response:
    """The score sheet: the game's home page."""
    game = gamedata.load(game_id)
    gamedata.remember(game.id)
    return _sheet_page(game)


@bp.get("/games/<game_id>/sheet")
def sheet_fragment(game_id: str) -> Response:
    """What phones poll: nothing (204) while the version is unchanged, else the sheet."""
    since = request.args.get("since", type=int)
    if htmx.is_htmx() and since is not None:
        version = store.game_version(database.session(), game_id)
        if version is None:
            abort(404)
        if version == since:
            response = Response(status=204)
            response.vary.add("HX-Request")
            return response
    return _sheet_page(gamedata.load(game_id))


def _sheet_page(table: ledger.Table) -> Response:
    """The score sheet (the fragment for htmx). A scorer's full page also invites the
    others (QR codes, the short code: kept out of caches) and says what this phone just
    did, offering to undo it; a watcher's offers the code prompt."""
    editable = gamedata.can_edit(table.row)
    # A finished game invites no one: no codes, no join prompt.
    open_ = table.sheet is not None and not table.sheet.game_over
    if not editable:  # a watcher's sheet: rendered once a version (web/watching.py)
        html = watching.watcher_sheet(
            table, lambda: render_template("games/_sheet.html", **_sheet_context(table, False))
        )
        return htmx.render(
            "games/sheet.html",
            "games/_watched.html",
            game=table,
            sheet_html=html,
            limit=invite.limit(table.id) if open_ and not htmx.is_htmx() else None,
        )
    if htmx.is_htmx():
        return htmx.render("games/sheet.html", "games/_sheet.html", **_sheet_context(table, editable))
    last = gamedata.last_write(table) if editable else None
    undo_form = None
    if last is not None:
        undo_form = forms.UndoForm(formdata=None)
        undo_form.version.data = str(table.version)
    response = htmx.render(
        "games/sheet.html",
        "games/_sheet.html",
        **_sheet_context(table, editable),
        last_write=last,
        undo_form=undo_form,
        joined=editable and gamedata.just_joined(table.id),
        invite=invite.invite(table.row) if editable and open_ else None,
        limit=invite.limit(table.id) if open_ and not editable else None,
    )
    return invite.private(response) if editable else response


def _replaced_by(events: list[HistoryEntry]) -> str | None:
    """The table's current game when the director reseated it after this one was set up
    (a table card printed before a swap lands here): followed to the last of a chain."""
    seen: set[str] = set()
    current = None
    lines = events
    while len(seen) < 8:
        found = next((e for e in reversed(lines) if e.kind is Kind.RESEATED and e.detail.get("game")), None)
        if found is None or str(found.detail["game"]) in seen:
            break
        current = str(found.detail["game"])
        seen.add(current)
        lines = store.game_events(database.session(), current)
    return current


def _sheet_context(table: ledger.Table, editable: bool) -> dict[str, Any]:
    events = store.game_events(database.session(), table.id)
    sheet = table.sheet
    players = table.players
    next_dealer = sheet.next_dealer if sheet else None
    first = engine.eldest(players, next_dealer) if next_dealer in players else None
    return {
        "game": table,
        "score": sheet,
        "rows": [(box, box.ruling) for box in table.boxes if box.ruling is not None],
        "rules": table.rules(),
        "editable": editable,
        "next_dealer": next_dealer,
        "plays_first": first,
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "events": events,
        "replaced_by": _replaced_by(events),
        "substitutes": table.substitutes,
        "seats_now": dict(zip(players, playing(players, table.substitutes, table.next_number), strict=True)),
        "ended": (sheet.ended if sheet else None) or table.game.ended,
        "charts": _charts(table),
        "deleted": store.deleted_boxes(database.session(), table.id),
    }


def _charts(table: ledger.Table) -> list[Markup]:
    """The running totals box by box as inline SVG (Hollywood: one per game column),
    drawn on the server; none before the first box. The SVG escapes every name."""
    sheet = table.sheet
    if sheet is None or not sheet.boxes:
        return []
    rules = table.rules()
    found = chart.charts(
        table.players, sheet, target=rules.game_target, unit=vocabulary.vocabulary_for(rules).deal
    )
    return [Markup(chart.svg(each)) for each in found]


@bp.get("/games/<game_id>/share")
def share(game_id: str) -> Response:
    """The watch link for everyone; the join link, short code and QR codes for those
    who may edit (never cached, never sent on as a Referer)."""
    game = gamedata.load(game_id)
    editable = gamedata.can_edit(game.row)
    return invite.private(
        htmx.render(
            "games/share.html",
            "games/_share.html",
            game=game,
            editable=editable,
            invite=invite.invite(game.row) if editable else None,
            limit=None if editable else invite.limit(game.id),
            # Never from a Host header a stranger may have written (issue 33).
            watch_url=None if editable else public_url("games.sheet", game_id=game.id),
        )
    )


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """A new game with the same players, rules and stake; the deal moves on one seat.
    Only a scorer of the game starts its rematch."""
    gamedata.require_edit(game_id)
    key = request.form.get("key") or None
    started = ledger.rematch(database.session(), game_id, key=key, secret=gamedata.secret())
    gamedata.started(started.table.id)
    return htmx.go(url_for("games.sheet", game_id=started.table.id))


@bp.post("/games/<game_id>/end")
def end(game_id: str) -> Response:
    """End the game by agreement after its last box (K5; a table that breaks up): the
    sheet then shows the totals settled, with no game or box bonus. Scorers only."""
    gamedata.require_edit(game_id)
    ledger.end(
        database.session(),
        game_id,
        version=request.form.get("version", type=int),
        key=request.form.get("key") or None,
    )
    return htmx.go(url_for("games.sheet", game_id=game_id))


@bp.route("/games/<game_id>/rules", methods=["GET", "POST"])
def house_rules(game_id: str) -> Response:
    """Change the game's house rules; the whole game is rescored under them, and a box
    the new rules make invalid is named. Scorers only."""
    gamedata.require_edit(game_id)
    table = gamedata.load(game_id)
    form_class = forms.house_rules_form_class(table.row.rules)
    preset = engine.find_rules(table.row.rules)
    if request.method != "POST":  # GET or HEAD: only a POST writes
        form = form_class(data=forms.setting_form_data(table.rules()))
        form.version.data = str(table.version)
        return _rules_page(table, form)
    form = form_class()
    if not form.validate():
        return _rules_page(table, form, 422)
    settings = forms.settings_from_form(form, preset)
    if settings is None:
        return _rules_page(table, form, 422)
    try:
        ledger.change_rules(
            database.session(), game_id, settings, version=_int(form.version.data), key=form.key.data or None
        )
    except ledger.Stale:
        forms.add_error(
            form.version,
            "Another phone changed this game meanwhile: the "
            "sheet has moved on. Check the rules and save again.",
        )
        form.version.data = str(gamedata.load(game_id).version)
        return _rules_page(table, form, 409)
    except ledger.RulesRefused as refused:
        return _rules_page(table, form, 422, refused=str(refused))
    except engine.ScorekeeperError as err:
        forms.attach_engine_error(form, err)
        return _rules_page(table, form, 422)
    return htmx.go(url_for("games.sheet", game_id=game_id))


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and len(text) < 12 else None


def _rules_page(
    table: ledger.Table, form: forms.HouseRulesForm, status: int = 200, refused: str = ""
) -> Response:
    rules = engine.find_rules(table.row.rules)
    return htmx.render(
        "games/rules.html",
        "games/_rules_form.html",
        status,
        game=table,
        form=form,
        rules=rules,
        refused=refused,
        main_settings=main_settings(rules),
    )


@bp.get("/games/<game_id>/export.json")
def export(game_id: str) -> Response:
    """The game as CONTRACT.md JSON: what ``scorekeeper score`` and the API take."""
    table = gamedata.load(game_id)
    body = json.dumps(table.game.to_json(), ensure_ascii=False, indent=2)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="game-{table.id}.json"'
    return response


@bp.get("/games/<game_id>/sheet.pdf")
def sheet_pdf(game_id: str) -> Response:
    """The printed score sheet (scorekeeper.pdf renders it): ``size`` A4 or letter,
    ``detail`` 1 or 0 (default: detail for the boxes entered with cards)."""
    with printing.turn():  # before the game is read: a refused request costs nothing
        table = gamedata.load(game_id)
        if table.sheet is None:
            abort(404, description=f"This game cannot be scored: {table.error}")
        return printing.pdf_response(table, *printing.pdf_options())
