"""The printed score sheet of a stored game, for the pages and the API alike."""

from __future__ import annotations

import datetime

from flask import Response, request, url_for

from .. import ledger, pdf
from ..pdf.meta import SheetMeta


def pdf_options() -> tuple[bool | None, str]:
    """Box detail and paper size from the query string; anything unknown is the default."""
    detail = request.args.get("detail")
    size = "letter" if request.args.get("size", "").lower() == "letter" else "A4"
    return (None if detail not in ("0", "1") else detail == "1"), size


def sheet_meta(table: ledger.Table) -> SheetMeta:
    """What a printed sheet says about itself (issue 15): the game's id and version, when
    it was started in the app and when play began (as the table entered it), where,
    when it was printed, and the read-only page its footer's QR code leads to."""
    created = table.row.created_at.replace(tzinfo=datetime.UTC)
    return SheetMeta(
        game_id=table.id, version=table.version, created=created,
        started=_started(table.game.started), place=table.game.place or "",
        printed=datetime.datetime.now(datetime.UTC).replace(microsecond=0),
        read_only_url=url_for("games.sheet", game_id=table.id, _external=True))


def _started(text: str | None) -> datetime.datetime | None:
    """The start time as stored (an ISO date and time); anything else is not printed."""
    try:
        return datetime.datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def pdf_response(table: ledger.Table, detail: bool | None, size: str = "A4") -> Response:
    """The PDF of a game's score sheet, sent inline with a sensible file name."""
    assert table.sheet is not None
    body = pdf.render_sheet(table.game.to_json(), table.sheet.to_json(), detail=detail,
                            page_size=size, meta=sheet_meta(table))
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="score-sheet-{table.id}.pdf"'
    return response
