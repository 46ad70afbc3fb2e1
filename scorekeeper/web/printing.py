"""The printed score sheet of a stored game, for the pages and the API alike."""

from __future__ import annotations

from flask import Response, request

from .. import ledger, pdf


def pdf_options() -> tuple[bool | None, str]:
    """Box detail and paper size from the query string; anything unknown is the default."""
    detail = request.args.get("detail")
    size = "letter" if request.args.get("size", "").lower() == "letter" else "A4"
    return (None if detail not in ("0", "1") else detail == "1"), size


def pdf_response(table: ledger.Table, detail: bool | None, size: str = "A4") -> Response:
    """The PDF of a game's score sheet, sent inline with a sensible file name."""
    assert table.sheet is not None
    body = pdf.render_sheet(table.game.to_json(), table.sheet.to_json(), detail=detail,
                            page_size=size)
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="score-sheet-{table.id}.pdf"'
    return response
