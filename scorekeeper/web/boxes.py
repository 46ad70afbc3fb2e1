"""Boxes of a stored game: record, preview, show (with history), correct, delete.

Every write carries the game version the form was based on and a per-form
idempotency key; the whole game is rescored by the engine before anything is
stored, so a box that would break the game (say, one recorded after its end) is
refused with the engine's message.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from flask import Blueprint, Response, abort, request, url_for

from .. import engine, store
from . import database, forms, gamedata, htmx

bp = Blueprint("boxes", __name__, url_prefix="/games/<game_id>/boxes")

CONFLICT = ("Another phone changed this game while you were entering this box. "
            "The sheet is updated: check the ruling below and save again.")


@dataclass
class Ruled:
    """The outcome of running a box form through the engine."""

    entry: dict[str, Any] | None = None
    ruling: dict[str, Any] | None = None
    score: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.ruling is not None and not self.errors

    @classmethod
    def read(cls, form: forms.BoxForm) -> Ruled:
        """The form's box, not yet ruled; without ``entry`` when a field does not check."""
        entry = forms.checked_box(form)
        if entry is None:
            return cls(errors=["Check the fields marked below."])
        return cls(entry=entry)


def rule_box(game: gamedata.LoadedGame, form: forms.BoxForm, index: int | None = None,
             box_id: int | None = None, declare: bool = False) -> Ruled:
    """Score the game with this box added (or put at ``index``, as box ``box_id``) and
    pick out its ruling. An added box is ruled alone, on the stored version's score.

    With ``declare`` (saving), hands still given as cards are replaced by the layout
    the ruling shows, so the stored box is exactly what the preview showed (C8).
    """
    outcome = Ruled.read(form)
    if outcome.entry is None:
        return outcome

    def sheet(entry: dict[str, Any]) -> dict[str, Any]:
        if index is None:
            return game.with_box(entry).sheet()
        boxes = list(game.data["boxes"])
        boxes[index] = {**entry, "id": box_id}
        return engine.score({**game.data, "boxes": boxes})

    place = len(game.boxes) if index is None else index
    try:
        outcome.score = sheet(outcome.entry)
    except engine.ScorekeeperError as err:
        outcome.errors = [forms.attach_engine_error(form, err, form.players)]
        return outcome
    outcome.ruling = outcome.score["boxes"][place]
    if declare:
        _declare(outcome, sheet, place)
    return outcome


def _declare(outcome: Ruled, sheet: Callable[[dict[str, Any]], dict[str, Any]],
             place: int) -> None:
    """Store hands as laid out, if the engine rules the laid-out box the same way."""
    assert outcome.entry is not None and outcome.ruling is not None
    declared = forms.declare_hands(outcome.entry, outcome.ruling)
    if declared == outcome.entry:
        return
    try:
        score = sheet(declared)
    except engine.ScorekeeperError:
        return
    ruling = score["boxes"][place]
    if ruling.get("credits") == outcome.ruling.get("credits") and ruling.get(
            "penalties") == outcome.ruling.get("penalties"):
        outcome.entry, outcome.score, outcome.ruling = declared, score, ruling


def _editable_game(game_id: str) -> gamedata.LoadedGame:
    game = gamedata.load(game_id)
    if not gamedata.can_edit(game):
        abort(403)
    if game.score is None:
        abort(409)
    return game


def _form_page(game: gamedata.LoadedGame, form: forms.BoxForm, outcome: Ruled | None,
               status: int = 200, box: store.BoxRow | None = None, notice: str = "") -> Response:
    if box is None:
        save_url = url_for("boxes.new", game_id=game.id)
        preview_url = url_for("boxes.preview", game_id=game.id)
    else:
        save_url = url_for("boxes.edit", game_id=game.id, box_id=box.id)
        preview_url = url_for("boxes.preview_edit", game_id=game.id, box_id=box.id)
    page = "boxes/edit.html" if box is not None else "boxes/new.html"
    return htmx.render(
        page, "boxes/_form.html", status, game=game, form=form, outcome=outcome,
        proposals=forms.proposals(form, outcome.ruling if outcome else None, game.rules()),
        rules=game.rules(), box=box, save_url=save_url, preview_url=preview_url,
        notice=notice, dealer=_dealer_for(game, box),
    )


def _dealer_for(game: gamedata.LoadedGame, box: store.BoxRow | None) -> str | None:
    """Who deals the box being entered (the sheet's next dealer, or the box's own)."""
    score = game.score or {}
    if box is None:
        dealer = score.get("next_dealer")
        return str(dealer) if dealer else None
    for stored, ruling in zip(game.boxes, score.get("boxes") or [], strict=False):
        if stored.id == box.id:
            return str(ruling.get("dealer") or "") or None
    return None


def _already_saved(game_id: str) -> Response | None:
    """A resent form (double tap, retry) whose key is stored: answer as the first time,
    whatever changed since (the box deleted, the game over)."""
    if store.repeated(database.session(), game_id, request.form.get("key") or None) is None:
        return None
    return htmx.go(url_for("games.sheet", game_id=game_id))


def _version(form: forms.BoxForm | forms.DeleteBoxForm) -> int:
    try:
        return int(form.version.data or "")
    except ValueError:
        return -1


P = ParamSpec("P")
R = TypeVar("R")


def _one_writer(view: Callable[P, R]) -> Callable[P, R]:
    """A POST reads the game, rules the box and writes it as one writer (store.writing)."""

    @functools.wraps(view)
    def serialised(*args: P.args, **kwargs: P.kwargs) -> R:
        if request.method != "POST":
            return view(*args, **kwargs)
        with store.writing(database.session(), str(kwargs["game_id"])):
            return view(*args, **kwargs)

    return serialised


@bp.route("/new", methods=["GET", "POST"])
@_one_writer
def new(game_id: str) -> Response:
    """Record a box: GET shows the form, POST stores exactly what the preview showed."""
    game = _editable_game(game_id)
    if request.method == "GET":
        form = forms.box_form(game.players)
        form.version.data = str(game.version)
        return _form_page(game, form, None)
    # A resent form is found by its key only where it goes wrong (the box it recorded
    # ended the game, or its version is stale): the store refuses a key twice.
    form = forms.box_form(game.players, request.form)
    outcome = rule_box(game, form, declare=True)
    if not outcome.ok or outcome.entry is None or outcome.score is None:
        return _already_saved(game.id) or _form_page(game, form, outcome, 422)
    try:
        written = store.append_box(database.session(), game.id, _version(form), outcome.entry,
                                   outcome.score, key=form.key.data or None,
                                   based_on=game.version, previous=game.rulings)
    except store.StaleWrite as stale:
        return _conflict(game_id, form, stale)
    game.appended(written, outcome.entry)
    return htmx.go(url_for("games.sheet", game_id=game.id))


def _conflict(game_id: str, form: forms.BoxForm, stale: store.StaleWrite,
              box_id: int | None = None) -> Response:
    """409: show the form again against the game as it is now, with the new version."""
    game = gamedata.load(game_id)
    box, index = None, None
    if box_id is not None:
        box, index = _live_box(game, box_id, "This box was deleted on another phone.")
    form.version.data = str(stale.current_version)
    outcome = rule_box(game, form, index, box_id)
    return _form_page(game, form, outcome, 409, box=box, notice=CONFLICT)


@bp.post("/preview")
def preview(game_id: str) -> Response:
    """The live ruling of the box being entered (htmx), or the form page showing it."""
    game = _editable_game(game_id)
    form = forms.box_form(game.players, request.form)
    outcome = rule_box(game, form)
    return _preview_response(game, form, outcome)


def _preview_response(game: gamedata.LoadedGame, form: forms.BoxForm, outcome: Ruled,
                      box: store.BoxRow | None = None) -> Response:
    status = 200 if outcome.ok else 422
    if htmx.is_htmx():
        return htmx.render(
            "boxes/_preview.html", "boxes/_preview.html", status, form=form, outcome=outcome,
            proposals=forms.proposals(form, outcome.ruling, game.rules()), game=game, rules=game.rules(),
        )
    return _form_page(game, form, outcome, status, box=box)


@bp.get("/<int:box_id>")
def show(game_id: str, box_id: int) -> Response:
    """One box: its ruling with the explanation, and its history of corrections."""
    game = gamedata.load(game_id)
    box = store.get_box(database.session(), game.row, box_id)
    if box is None:
        abort(404, description="This box is not in this game.")
    number = None
    ruling = box.ruling
    score_boxes = (game.score or {}).get("boxes") or []
    for i, stored in enumerate(game.boxes):
        if stored.id == box.id:
            number = i + 1
            if i < len(score_boxes):
                ruling = score_boxes[i]
    return htmx.render(
        "boxes/show.html", "boxes/_show.html", game=game, box=box, number=number,
        ruling=ruling, history=store.history(database.session(), box),
        editable=gamedata.can_edit(game) and not box.deleted,
        delete_form=_delete_form(game),
    )


def _delete_form(game: gamedata.LoadedGame) -> forms.DeleteBoxForm:
    form = forms.DeleteBoxForm(formdata=None)
    form.version.data = str(game.version)
    return form


def _live_box(game: gamedata.LoadedGame, box_id: int,
              gone: str = "This box is not in this game (was it deleted?).",
              ) -> tuple[store.BoxRow, int]:
    for index, box in enumerate(game.boxes):
        if box.id == box_id:
            return box, index
    abort(404, description=gone)


@bp.route("/<int:box_id>/edit", methods=["GET", "POST"])
@_one_writer
def edit(game_id: str, box_id: int) -> Response:
    """Correct a box; every box after it is rescored."""
    game = _editable_game(game_id)
    if request.method == "POST" and (done := _already_saved(game.id)):
        return done
    box, index = _live_box(game, box_id)
    if request.method == "GET":
        data = forms.box_form_data(box.entry, game.players)
        form = forms.box_form(game.players, data=data)
        forms.prefill_box_form(form, data)
        form.version.data = str(game.version)
        return _form_page(game, form, rule_box(game, form, index, box.id), box=box)
    form = forms.box_form(game.players, request.form)
    outcome = rule_box(game, form, index, box.id, declare=True)
    if not outcome.ok or outcome.entry is None or outcome.score is None:
        return _form_page(game, form, outcome, 422, box=box)
    try:
        store.replace_box(database.session(), game.id, box.id, _version(form), outcome.entry,
                          outcome.score, key=form.key.data or None, based_on=game.version,
                          previous=game.rulings)
    except store.StaleWrite as stale:
        return _conflict(game_id, form, stale, box.id)
    return htmx.go(url_for("games.sheet", game_id=game.id))


@bp.post("/<int:box_id>/preview")
def preview_edit(game_id: str, box_id: int) -> Response:
    game = _editable_game(game_id)
    box, index = _live_box(game, box_id)
    form = forms.box_form(game.players, request.form)
    return _preview_response(game, form, rule_box(game, form, index, box.id), box)


@bp.post("/<int:box_id>/delete")
@_one_writer
def delete(game_id: str, box_id: int) -> Response | tuple[str, int]:
    """Delete a box (it stays in the history); the boxes after it are rescored."""
    game = _editable_game(game_id)
    if done := _already_saved(game.id):
        return done
    box, index = _live_box(game, box_id)
    form = forms.DeleteBoxForm(request.form)
    if not form.validate():
        abort(400)
    boxes = [b for i, b in enumerate(game.data["boxes"]) if i != index]
    try:
        score = engine.score({**game.data, "boxes": boxes})
    except engine.ScorekeeperError as err:
        return htmx.error_page(422, "This box cannot be deleted", err.message)
    try:
        store.delete_box(database.session(), game.id, box.id, _version(form), score,
                         key=form.key.data or None, based_on=game.version,
                         previous=game.rulings)
    except store.StaleWrite:
        return htmx.error_page(409, "The game changed",
                               "Another phone changed this game meanwhile. Look at the sheet "
                               "again before deleting.")
    return htmx.go(url_for("games.sheet", game_id=game.id))
