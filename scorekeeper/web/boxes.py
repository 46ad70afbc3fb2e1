"""Boxes of a stored game: record, preview, show (with history), correct, delete.

The views parse the form into the contract's :class:`BoxEntry`, call the ledger and
render. A record names the box it is for, a correction or deletion the game version
it was made against; when that no longer holds the ledger says so and the page shows
the game as it is now with nothing typed lost.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, request, url_for

from .. import engine, ledger, store
from ..engine.contract import BoxEntry, SheetBox
from ..engine.errors import GameOverError
from ..engine.substitutes import playing
from ..engine.vocabulary import deal_word
from . import forms, gamedata, htmx
from .database import session as db_session
from .eventdata import directs_game  # the event's director corrects an ended table too

bp = Blueprint("boxes", __name__, url_prefix="/games/<game_id>/boxes")

CONFLICT = (
    "Another phone changed this game while you were entering this box. "
    "The sheet is updated: check the ruling below and save again."
)


def rule_box(table: ledger.Table, form: forms.BoxForm, place: int | None = None) -> forms.Ruled:
    """The game with this box added (or put at ``place``), and the box's ruling."""
    entry = forms.box_entry(form)
    if entry is None:
        return forms.Ruled(errors=[forms.CHECK])
    try:
        sheet = table.scored_with(entry, place)
    except engine.ScorekeeperError as err:
        return forms.Ruled(entry, errors=[forms.attach_engine_error(form, err, form.players)])
    return forms.Ruled(entry, sheet, sheet.boxes[len(table.boxes) if place is None else place])


def _editable_game(game_id: str) -> ledger.Table:
    table = gamedata.load(game_id)
    if not gamedata.can_edit(table.row):
        abort(403)
    if table.sheet is None:
        abort(409)
    return table


def _form_page(
    table: ledger.Table,
    form: forms.BoxForm,
    outcome: forms.Ruled | None,
    status: int = 200,
    box: store.BoxRow | None = None,
    notice: str = "",
) -> Response:
    if box is None:
        save_url = url_for("boxes.new", game_id=table.id)
        preview_url = url_for("boxes.preview", game_id=table.id)
    else:
        save_url = url_for("boxes.edit", game_id=table.id, box_id=box.id)
        preview_url = url_for("boxes.preview_edit", game_id=table.id, box_id=box.id)
    page = "boxes/edit.html" if box is not None else "boxes/new.html"
    ruling = outcome.ruling if outcome else None
    number = table.next_number if box is None else _number_of(table, box.id)
    seats = tuple(table.game.players)
    now = dict(zip(seats, playing(seats, table.substitutes, number or table.next_number), strict=True))
    return htmx.render(
        page,
        "boxes/_form.html",
        status,
        game=table,
        form=form,
        outcome=outcome,
        proposals=forms.proposals(form, ruling, table.rules()),
        rules=table.rules(),
        box=box,
        save_url=save_url,
        preview_url=preview_url,
        notice=notice,
        dealer=_dealer_for(table, box),
        number=number,
        # E5: a seat's substitute named over it from the box he plays on (the form's
        # values stay the seats the game is scored under)
        playing=now,
        by_choices=[(seat, f"{now[seat]} (for {seat})") for seat in seats]
        if any(seat != name for seat, name in now.items())
        else None,
    )


def _dealer_for(table: ledger.Table, box: store.BoxRow | None) -> str | None:
    """Who deals the box being entered (the sheet's next dealer, or the box's own)."""
    if box is None:
        return table.sheet.next_dealer if table.sheet else None
    ruled = table.ruled(box.id)
    return ruled.dealer if ruled else None


def _number_of(table: ledger.Table, box_id: int) -> int | None:
    place = table.place_of(box_id)
    return None if place is None else place + 1


def _int(text: str | None) -> int | None:
    try:
        return int(text or "")
    except ValueError:
        return None


def _version(form: forms.BoxForm | forms.DeleteBoxForm) -> int:
    """The game version a form was made against; a form without one (or with garbage)
    is based on no version the game ever had, so it is refused as stale."""
    version = _int(form.version.data)
    return -1 if version is None else version


def _key(form: forms.BoxForm | forms.DeleteBoxForm | forms.UndoForm) -> str | None:
    return form.key.data or None


@bp.route("/new", methods=["GET", "POST"])
def new(game_id: str) -> Response:
    """Record a box: GET shows the form, POST stores exactly what the preview showed."""
    if request.method != "POST":  # GET or HEAD: only a POST writes
        table = _editable_game(game_id)
        form = forms.box_form(table.players)
        form.version.data = str(table.version)
        form.number.data = str(table.next_number)
        return _form_page(table, form, None)
    # The ledger reads and scores the game for the write: the page reads only the row
    # (who plays, who may edit), and the scored game where the form is shown again.
    row = gamedata.row(game_id)
    if not gamedata.can_edit(row):
        abort(403)
    form = forms.box_form(row.players, request.form)
    entry = forms.box_entry(form)
    if entry is None:
        return _form_page(_editable_game(game_id), form, forms.Ruled(errors=[forms.CHECK]), 422)
    number = _int(form.number.data)
    try:
        written = ledger.record(
            db_session(),
            row.id,
            entry,
            number=number,
            version=None if number is not None else _version(form),
            key=_key(form),
            laid_out=True,
            max_boxes=gamedata.max_boxes(),
            phone=gamedata.phone(),
        )
    except ledger.BoxTaken as taken:
        return _taken_page(taken, form, entry)
    except ledger.Stale as stale:
        return _conflict(stale.table, form)
    except GameOverError as over:  # the game takes no box, whatever the form says
        table = _editable_game(game_id)
        return _form_page(table, form, forms.Ruled(errors=[over.message]), 422)
    except engine.ScorekeeperError:
        table = _editable_game(game_id)
        return _form_page(table, form, rule_box(table, form), 422)
    return _saved(written, "saved")


def _saved(written: ledger.Written, done: str, number: int | None = None) -> Response:
    """The sheet after a write, which says what this phone did and offers to undo it."""
    table = written.table
    if written.box_id is not None:
        place = table.place_of(written.box_id)
        number = number if place is None else place + 1
        gamedata.note_write(
            table.id,
            written.box_id,
            table.version,
            f"{deal_word(table.rules()).capitalize()} {number or ''} {done}.",
        )
    return htmx.go(url_for("games.sheet", game_id=table.id))


def _taken_page(taken: ledger.BoxTaken, form: forms.BoxForm, entry: BoxEntry) -> Response:
    """409: box N was saved by another phone meanwhile. Show both side by side and let
    the scorer keep theirs, replace it with this one, or record this one as the next;
    when both rule the same, only keep it (a second copy would count the box twice)."""
    table = taken.table
    place = taken.number - 1
    mine: SheetBox | None = None
    errors: list[str] = []
    try:
        mine = table.scored_with(entry, place).boxes[place]
    except engine.ScorekeeperError as err:
        errors.append(err.message)
    fields = [
        (name, value)
        for name, value in request.form.items(multi=True)
        if name not in ("number", "version", "csrf_token")
    ]
    box_id = table.boxes[place].id
    return htmx.render(
        "boxes/taken.html",
        "boxes/_taken.html",
        409,
        game=table,
        number=taken.number,
        theirs=taken.box,
        mine=mine,
        errors=errors,
        fields=fields,
        replace_url=url_for("boxes.edit", game_id=table.id, box_id=box_id),
        next_url=url_for("boxes.new", game_id=table.id),
        next_number=table.next_number,
        version=table.version,
        sheet_url=url_for("games.sheet", game_id=table.id),
        rules=table.rules(),
        same=mine is not None and _same_box(mine, taken.box),
    )


def _same_box(mine: SheetBox, theirs: SheetBox) -> bool:
    """Whether two rulings of one box say the same (its id and note apart)."""

    def ruled(box: SheetBox) -> dict[str, object]:
        return {k: v for k, v in box.to_json().items() if k not in ("id", "note", "advice")}

    return ruled(mine) == ruled(theirs)


def _conflict(table: ledger.Table, form: forms.BoxForm, box_id: int | None = None) -> Response:
    """409: show the form again against the game as it is now, with its version."""
    box, place = None, None
    if box_id is not None:
        box, place = _live_box(table, box_id, "This box was deleted on another phone.")
    form.version.data = str(table.version)
    if box is None:
        form.number.data = str(table.next_number)
    return _form_page(table, form, rule_box(table, form, place), 409, box=box, notice=CONFLICT)


@bp.post("/preview")
def preview(game_id: str) -> Response:
    """The live ruling of the box being entered (htmx), or the form page showing it."""
    table = _editable_game(game_id)
    form = forms.box_form(table.players, request.form)
    return _preview_response(table, form, rule_box(table, form))


def _preview_response(
    table: ledger.Table, form: forms.BoxForm, outcome: forms.Ruled, box: store.BoxRow | None = None
) -> Response:
    status = 200  # a box half entered is not an error: the preview shows what is missing
    if htmx.is_htmx():
        return htmx.render(
            "boxes/_preview.html",
            "boxes/_preview.html",
            status,
            form=form,
            outcome=outcome,
            proposals=forms.proposals(form, outcome.ruling, table.rules()),
            game=table,
            rules=table.rules(),
        )
    return _form_page(table, form, outcome, status, box=box)


@bp.get("/<int:box_id>")
def show(game_id: str, box_id: int) -> Response:
    """One box: its ruling with the explanation, and its history of corrections."""
    table = gamedata.load(game_id)
    box = store.get_box(db_session(), table.row, box_id)
    if box is None:
        abort(404, description="This box is not in this game.")
    place = table.place_of(box.id)
    ruled = table.ruled(box.id)
    ruling = ruled if ruled is not None else SheetBox.from_json(box.ruling or {})
    return htmx.render(
        "boxes/show.html",
        "boxes/_show.html",
        game=table,
        box=box,
        rules=table.rules(),
        number=None if place is None else place + 1,
        ruling=ruling,
        history=store.box_history(store.history(db_session(), box)),
        editable=gamedata.can_edit(table.row) and not box.deleted,
        delete_form=_delete_form(table),
    )


def _delete_form(table: ledger.Table) -> forms.DeleteBoxForm:
    form = forms.DeleteBoxForm(formdata=None)
    form.version.data = str(table.version)
    return form


def _live_box(
    table: ledger.Table,
    box_id: int,
    gone: str = "This box is not in this game (was it deleted?).",
) -> tuple[store.BoxRow, int]:
    place = table.place_of(box_id)
    if place is None:
        abort(404, description=gone)
    return table.boxes[place].row, place


@bp.route("/<int:box_id>/edit", methods=["GET", "POST"])
def edit(game_id: str, box_id: int) -> Response:
    """Correct a box; every box after it is rescored."""
    table = _editable_game(game_id)
    box, place = _live_box(table, box_id)
    if request.method != "POST":  # GET or HEAD: only a POST writes
        data = forms.box_form_data(table.boxes[place].entry, table.players)
        form = forms.box_form(table.players, data=data)
        forms.prefill_box_form(form, data)
        form.version.data = str(table.version)
        return _form_page(table, form, rule_box(table, form, place), box=box)
    form = forms.box_form(table.players, request.form)
    entry = forms.box_entry(form)
    if entry is None:
        return _form_page(table, form, forms.Ruled(errors=[forms.CHECK]), 422, box=box)
    try:
        written = ledger.correct(
            db_session(),
            table.id,
            box.id,
            entry,
            version=_version(form),
            key=_key(form),
            laid_out=True,
            director=directs_game(table.id),
            phone=gamedata.phone(),
        )
    except ledger.Stale as stale:
        return _conflict(stale.table, form, box.id)
    except engine.ScorekeeperError:
        return _form_page(table, form, rule_box(table, form, place), 422, box=box)
    return _saved(written, "corrected")


@bp.post("/<int:box_id>/preview")
def preview_edit(game_id: str, box_id: int) -> Response:
    table = _editable_game(game_id)
    box, place = _live_box(table, box_id)
    form = forms.box_form(table.players, request.form)
    return _preview_response(table, form, rule_box(table, form, place), box)


@bp.post("/<int:box_id>/delete")
def delete(game_id: str, box_id: int) -> Response | tuple[str, int]:
    """Delete a box (it stays in the history); the boxes after it are rescored."""
    table = _editable_game(game_id)
    form = forms.DeleteBoxForm(request.form)
    if not form.validate():
        abort(400)
    written = ledger.delete(
        db_session(),
        table.id,
        box_id,
        version=_version(form),
        key=_key(form),
        director=directs_game(table.id),
        phone=gamedata.phone(),
    )
    place = table.place_of(box_id)
    return _saved(written, "deleted", None if place is None else place + 1)


UNDONE = {
    "recorded": "Undone: {} {} is off the sheet.",
    "edited": "Undone: {} {} is back as it was.",
    "deleted": "Undone: {} {} is back on the sheet.",
}
"""What the undo bar says, in the game's word for a deal ("box 3", "hand 3")."""


@bp.post("/<int:box_id>/undo")
def undo(game_id: str, box_id: int) -> Response:
    """Undo this phone's last write to a box, while no phone has written since."""
    table = _editable_game(game_id)
    form = forms.UndoForm(request.form)
    if not form.validate():
        abort(400)
    if not gamedata.may_undo(table.id, box_id, _int(form.version.data), _key(form)):
        return _undo_refused(
            table,
            "only the phone that made a write can undo it, as its "
            "sheet offers; correct or delete the box instead",
        )
    try:
        undone = ledger.undo(
            db_session(),
            table.id,
            box_id,
            version=_int(form.version.data) or -1,
            key=_key(form),
            phone=gamedata.phone(),
        )
    except ledger.NothingToUndo as refused:
        return _undo_refused(refused.table, str(refused))
    except engine.ScorekeeperError as err:
        return _undo_refused(table, err.message)
    gamedata.note_write(
        table.id,
        box_id,
        undone.version,
        UNDONE.get(undone.action, "Undone.").format(deal_word(table.rules()), undone.number),
        undoable=False,
        undo_key=_key(form),
    )
    return htmx.go(url_for("games.sheet", game_id=table.id))


def _undo_refused(table: ledger.Table, why: str) -> Response:
    """409: the undo cannot be done; say why, where the undo banner was."""
    message = why[:1].upper() + why[1:] + "."
    return htmx.render(
        "boxes/undo.html",
        "boxes/_undo.html",
        409,
        game=table,
        last={"what": "Not undone.", "refused": message, "undoable": False},
    )
