"""Players: a player's record across the games this browser counts, head to head, the
charts, the exports (CSV, JSON, a season's PDF) and the scorers' merges and splits.

Which games count follows the home page: those this browser started or opened, or
every game when ``RECENT_GAMES_PUBLIC`` is set (a club's own server). The figures are
:mod:`scorekeeper.records`'; this module parses, calls and renders.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from flask import Blueprint, Response, abort, current_app, request, url_for

from .. import chart, exports, records, store
from ..ledger import players
from . import database, gamedata, htmx, printing

bp = Blueprint("players", __name__)
LAST_GAMES = 10


RECORDS_MAX_GAMES = 1000
"""The newest games a public server's records pages count (``RECORDS_MAX_GAMES``): what
one request reads stays bounded however many games the server holds (issue 23)."""


def counted() -> list[records.Played]:
    """The games this browser may count (the home page's rule), scored; the app keeps
    the games it has read (:class:`~scorekeeper.ledger.players.Kept`) until they change. A public
    server counts its newest ``RECORDS_MAX_GAMES`` games."""
    kept = current_app.extensions.setdefault("scorekeeper.records", players.Kept())
    if current_app.config["RECENT_GAMES_PUBLIC"]:
        most = int(current_app.config.get("RECORDS_MAX_GAMES", RECORDS_MAX_GAMES))
        return players.played(database.session(), kept=kept, most=max(most, 1))
    mine = gamedata.remembered()
    return players.played(database.session(), mine, kept=kept) if mine else []


@bp.get("/players/")
def index() -> Response:
    """Everyone in the counted games, and the head-to-head form."""
    games = counted()
    return htmx.render(
        "players/index.html",
        "players/_list.html",
        people=records.people(games),
        games=len(games),
        versus=None,
    )


@bp.get("/players/<path:person>")
def player(person: str) -> Response:
    """A player's page: figures, kinds of boxes won, per preset, the chart, last games."""
    return _player_page(person)


def _player_page(person: str, status: int = 200, error: str | None = None) -> Response:
    event = _event_filter()
    games = counted() if event is None else event[1]
    record = _record(person, games)
    others = [p for p in records.people(record.games) if p.person != record.person]
    svg = chart.svg(records.results_chart([record.person], games, {record.person: record.name}))
    return htmx.render(
        "players/player.html",
        "players/_player.html",
        status,
        record=record,
        last=record.games[:LAST_GAMES],
        svg=svg,
        opponents=others[:6],
        years=sorted({g.day.year for g in record.games}, reverse=True),
        decisions=_decisions_of(record),
        scored=_scorer_games(record),
        deciding=bool(gamedata.scored()),
        error=error,
        event=event[0] if event else None,
        **_words(record),
    )


def _event_filter() -> tuple[store.events.EventRow, list[records.Played]] | None:
    """``?event=<id>``: only that event's games, every one of them (an event's results
    are public on its page), else None; an unknown event is a 404."""
    event_id = request.args.get("event")
    if not event_id:
        return None
    db = database.session()
    row = store.events.get_event(db, event_id)
    if row is None:
        abort(404, description="There is no event at this address. Check the link.")
    kept = current_app.extensions.setdefault("scorekeeper.records", players.Kept())
    ids = sorted(store.events.event_game_ids(db, row.id))
    return row, players.played(db, ids, kept=kept) if ids else []


def _words(record: records.Record) -> dict[str, Any]:
    """The record's words (:func:`records.words_of`) as the page's context."""
    said = records.words_of(record.games)
    return {"kinds": list(said.kinds), "kind_names": said.kinds, "deal": said.deal, "deals": said.deals}


def _record(person: str, games: list[records.Played]) -> records.Record:
    record = records.record(person, games)
    if not record.games:
        abort(404, description=f"No counted game has a player named {person!r}.")
    return record


@bp.get("/head-to-head")
def versus() -> Response | tuple[str, int]:
    """Two or three players against each other over a chosen period (``p`` two or three
    times, ``since`` and ``until`` as YYYY-MM-DD, both optional)."""
    games = counted()
    chosen = [p for p in request.args.getlist("p") if p.strip()]
    try:
        since, until = _day("since"), _day("until")
        result = records.head_to_head(chosen, games, since=since, until=until)
    except ValueError as err:
        return htmx.error_page(422, "Choose two or three players", str(err))
    svg = chart.svg(records.results_chart(result.people, result.games, result.names))
    return htmx.render(
        "players/versus.html", "players/_versus.html", versus=result, svg=svg, people=records.people(games)
    )


def _day(field: str) -> date | None:
    text = (request.args.get(field) or "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{field} must be a date written 2026-11-24, not {text[:20]!r}") from None


# --- exports ------------------------------------------------------------------------------


@bp.get("/players/<path:person>/record.csv")
def record_csv(person: str) -> Response:
    """Every box of every counted game of the player, one row each."""
    record = _record(person, counted())
    games = players.exported(database.session(), list(reversed(record.games)))
    return _download(exports.box_csv(games), "text/csv", f"record-{_slug(record.name)}.csv")


@bp.get("/players/<path:person>/record.json")
def record_json(person: str) -> Response:
    """The player's figures and every counted game as CONTRACT.md JSON."""
    record = _record(person, counted())
    games = players.exported(database.session(), list(reversed(record.games)))
    body = json.dumps(exports.record_json(record, games), ensure_ascii=False, indent=2)
    return _download(body, "application/json", f"record-{_slug(record.name)}.json")


@bp.get("/players/<path:person>/season.pdf")
def season_pdf(person: str) -> Response | tuple[str, int]:
    """The player's season (``year``, default the latest played) on paper: it waits
    its turn with the score sheets, before any game is read (web/printing.py)."""
    year_text = request.args.get("year")
    if year_text is not None and (not year_text.isdigit() or len(year_text) != 4):
        return htmx.error_page(422, "Which season?", "year must be four digits, like 2026.")
    size = request.args.get("size") or "A4"
    if size.lower() not in ("a4", "letter"):
        return htmx.error_page(422, "Which paper?", "size must be A4 or letter.")
    from ..pdf import render_season  # ReportLab (0.4 s of CPU at import) only when printing

    with printing.turn():
        games = counted()
        record = _record(person, games)
        year = int(year_text or record.games[0].day.year)
        season = [g for g in games if g.day.year == year]
        body = printing.printed(
            render_season,
            records.record(person, season),
            year,
            records.results_chart([record.person], season, {record.person: record.name}),
            size=size,
        )
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="season-{year}-{_slug(record.name)}.pdf"'
    return response


@bp.get("/games/<game_id>/boxes.csv")
def game_csv(game_id: str) -> Response:
    """One game, one row per box."""
    table = gamedata.load(game_id)
    if table.sheet is None:
        abort(404, description=f"This game cannot be scored: {table.error}")
    game = exports.Exported(table.id, players.day_of(table.row), table.game, table.sheet)
    return _download(exports.box_csv([game]), "text/csv", f"game-{table.id}.csv")


@bp.get("/games/<game_id>/score.json")
def game_json(game_id: str) -> Response:
    """One game as CONTRACT.md JSON: the game ``score`` takes and its score sheet."""
    table = gamedata.load(game_id)
    if table.sheet is None:
        abort(404, description=f"This game cannot be scored: {table.error}")
    game = exports.Exported(table.id, players.day_of(table.row), table.game, table.sheet)
    body = json.dumps(exports.game_json(game), ensure_ascii=False, indent=2)
    return _download(body, "application/json", f"game-{table.id}-score.json")


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(name: str) -> str:
    """A file name's part from a player's name: letters and digits, dashes between."""
    return (
        "-".join("".join(c if c.isalnum() and c.isascii() else " " for c in name).split()).lower() or "player"
    )


# --- merges and splits ---------------------------------------------------------------------


def _scorer_games(record: records.Record) -> list[records.Played]:
    """The player's games this browser keeps score of (may decide who is who)."""
    return [g for g in record.games if gamedata.can_edit(g.id)]


def _decisions_of(record: records.Record) -> list[tuple[store.DecisionRow, bool]]:
    """The merges and splits that touch this player, newest first, each with whether
    this browser may undo it (it keeps score of every game the decision changed). A
    phone that keeps score of no game may undo none: nothing more is read for it. For
    another, an old server-wide merge is checked against the newest
    ``RECORDS_MAX_GAMES`` games only (the undo itself checks every game)."""
    db = database.session()
    scored = gamedata.scored()
    decisions = players.history(db, record.person)
    if not scored:
        return [(d, False) for d in decisions]
    most = max(int(current_app.config.get("RECORDS_MAX_GAMES", RECORDS_MAX_GAMES)), 1)
    return [(d, d.undone_at is None and set(players.touched(db, d, most)) <= scored) for d in decisions]


@bp.post("/players/<path:person>/merge")
def merge(person: str) -> Response:
    """Count another name as this player in the games this browser keeps score of
    where that name played (never in other scorers' games)."""
    record = _record(person, counted())
    try:
        players.merge(database.session(), request.form.get("name") or "", record.name, gamedata.scored())
    except players.NameRefused as err:
        return _player_page(person, 422, str(err))
    return htmx.go(url_for("players.player", person=record.person))


@bp.post("/players/<path:person>/split")
def split(person: str) -> Response:
    """In one game the browser keeps score of, count this player's name as someone else."""
    record = _record(person, counted())
    game_id = request.form.get("game") or ""
    game = next((g for g in record.games if g.id == game_id), None)
    if game is None:
        return _player_page(person, 422, "Choose a game of this player that you keep score of.")
    try:
        row = players.split(
            database.session(),
            game.name_of(record.person) or record.name,
            game_id,
            request.form.get("person") or "",
            gamedata.scored(),
        )
    except players.NameRefused as err:
        return _player_page(person, 422, str(err))
    return htmx.go(url_for("players.player", person=records.fold(row.person)))


@bp.post("/players/names/<int:decision_id>/undo")
def undo(decision_id: int) -> Response:
    """Undo a merge or split (kept in history as undone): only a browser that keeps
    score of every game it changed may."""
    try:
        done = players.undo(database.session(), decision_id, gamedata.scored())
    except players.NotYours as err:
        abort(403, description=str(err))
    if done is None:
        abort(404, description="There is no such merge or split standing.")
    return htmx.go(url_for("players.player", person=records.fold(done.person)))
