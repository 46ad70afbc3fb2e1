"""Blank score pads to print for a game played on paper (scorekeeper.pdf renders them)."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from .. import engine
from . import printing

bp = Blueprint("pads", __name__, url_prefix="/pads")


@bp.get("/")
def index() -> str:
    """Choose the game, the paper and the number of players."""
    return render_template(
        "pads/index.html",
        presets=engine.ordered_presets(),
        chosen="jersey-scarne",
        size="A4",
        players=None,
        columns=None,
        error=None,
    )


@bp.get("/pad.pdf")
def pad() -> Response | tuple[str, int]:
    """The pad itself; a bad choice comes back to the form with the reason (422)."""
    from .. import pdf

    rules = request.args.get("rules", "jersey-scarne")
    size = "letter" if request.args.get("size", "").lower() == "letter" else "A4"
    raw_players = request.args.get("players", "").strip()
    raw_columns = request.args.get("columns", "").strip()[:6]
    try:
        players = int(raw_players) if raw_players else None
        columns = int(raw_columns) if raw_columns else None
        with printing.turn():  # a blank pad is a PDF too: its turn, the printing process
            body = printing.printed(
                pdf.render_blank_pad, rules, players=players, page_size=size, columns=columns
            )
    except (ValueError, engine.ScorekeeperError) as err:
        message = err.message if isinstance(err, engine.ScorekeeperError) else str(err)
        if raw_players and not raw_players.isdigit():
            message = f"{raw_players!r} is not a number of players"
        elif raw_columns and not raw_columns.isdigit():
            message = f"{raw_columns!r} is not a number of Hollywood games"
        page = render_template(
            "pads/index.html",
            presets=engine.ordered_presets(),
            chosen=rules,
            size=size,
            players=raw_players,
            columns=raw_columns,
            error=message,
        )
        return page, 422
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="pad-{rules}-{size}.pdf"'
    return response
