"""Club nights: start an event, its page (rounds, tables, seeds, where each player sits),
the live standings for a projector, the director's page, table cards and results.

Every write is a POST on a real form (htmx enhances it; without JavaScript the browser
posts it and follows the 303); the views parse, call the ledger (``ledger.events``),
and render through :mod:`.htmx`. The director's right is shared and renewed like a
scorer's: :mod:`.eventdata` keeps it in the session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, render_template, request, url_for
from markupsafe import Markup

from .. import engine, ledger
from ..ledger import LedgerError
from . import (
    ahead,
    clubdata,
    compress,
    database,
    eventdata,
    eventresults,
    htmx,
    invite,
    polls,
    printing,
    projector,
)
from .forms import GAME_ORDER, presets
from .forms import event as forms
from .forms.fields import add_error, choices

bp = Blueprint("events", __name__, url_prefix="/events")

REFRESH_SECONDS = 15
"""The projector's refresh without JavaScript (a meta refresh)."""


@bp.app_template_global("event_seat")
def event_seat(game_id: str) -> tuple[Any, eventdata.Clock | None] | None:
    """The event table a game is played at and its round's clock (None for any other
    game): what a table's sheet shows above its boxes."""
    return eventdata.seat_of_game(database.session(), game_id)


bp.add_app_template_global(eventdata.now, "event_now")
bp.add_app_template_global(eventdata.shown_number, "number")
bp.add_app_template_global(eventdata.standing_rows, "standing_rows")
bp.add_app_template_global(projector.table_lines, "table_lines")


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    """The new-event form; POST starts the event, seats round 1 and goes to its page."""
    planned = clubdata.plan_to_start(request.values.get("plan"))
    preset = request.values.get("rules") or (planned[1].rules if planned else GAME_ORDER[0])
    if preset not in engine.PRESETS:
        preset = GAME_ORDER[0]
    form = forms.new_event_form_class(preset)()
    form.rules.data = preset
    form.club.choices = choices([("", "No club"), *((c.id, c.name) for c in clubdata.owned_clubs())])
    if request.method != "POST" and planned is not None:  # "Start this evening" on a season's page
        forms.fill_from_plan(form, planned[0].club_id, planned[0].id, planned[1])
    if request.method != "POST":
        if htmx.is_htmx() and "entrants" in request.args:  # "13 players: 4 tables, 1 bye"
            return htmx.varied(
                forms.seating_words(preset, request.args.get("table_size"), request.args["entrants"])
            )
        return _new_page(form)
    if not form.validate():
        return _new_page(form, 422)
    entry = forms.event_from_form(form)
    if entry is None:
        return _new_page(form, 422)
    try:
        event_id = eventdata.start(entry, key=form.key.data or None)
    except (engine.ScorekeeperError, LedgerError) as refused:
        if isinstance(refused, engine.ScorekeeperError):
            forms.attach_event_error(form, refused)
        else:
            form.form_errors.append(str(refused))
        return _new_page(form, 422)
    eventdata.directs(event_id)
    # the plan is linked when it is still to start and of the club chosen (else the event only joins)
    plan = str(planned[0].id) if planned is not None and planned[0].club_id == form.club.data else None
    clubdata.join_club(form.club.data, event_id, eventdata.usable(form.key.data), plan)
    return htmx.go(url_for("events.show", event_id=event_id))


def _new_page(form: forms.NewEventForm, status: int = 200) -> Response:
    rules = engine.find_rules(form.rules.data or GAME_ORDER[0])
    page = {"form": form, "rules": rules, "presets": presets()}
    page["seating"] = forms.seating_words(rules.name, form.table_size.data, form.entrants.data or "")
    return htmx.render("events/new.html", "events/_new_form.html", status, **page)


def _context(event: eventdata.EventView, **more: Any) -> dict[str, Any]:
    entry = event.entry
    return {
        "event": event,
        "rules": engine.find_rules(entry.rules),
        "ends_words": eventdata.round_ends_words(entry),
        "tie_words": [forms.TIE_BREAK_WORDS[t].lower() for t in entry.tie_breaks],
        "tie_short": forms.TIE_BREAK_SHORT,
        "tie_long": forms.TIE_BREAK_WORDS,
        "standings_count": len(event.standings),
        "entered": event.entered,
        "director": eventdata.can_direct(event.id),
        **more,
    }


@bp.get("/<event_id>")
def show(event_id: str) -> Response:
    """The event's page: its rounds and tables with links to their games, the seed,
    the find-your-seat form; after the last round, the published result."""
    event = eventdata.load(event_id)
    return htmx.render("events/event.html", "events/_event.html", **_context(event))


@bp.get("/<event_id>/player")
def player(event_id: str) -> Response:
    """A player's view, found by name: "Round 3: table 7, seat 2" and their rank."""
    event = eventdata.load(event_id)
    typed = (request.args.get("name") or "")[:80]
    found = eventdata.find_player(event, typed)
    me = eventdata.player_view(event, found) if found else None
    # Not found: 404, but 422 to htmx, which swaps it (the previous seat goes).
    status = 200 if me or not typed.strip() else (422 if htmx.is_htmx() else 404)
    near = [] if me else eventdata.closest_names(event, typed)
    context = _context(event, me=me, not_found=None if me else typed.strip(), near=near)
    return htmx.render("events/player.html", "events/_player.html", status, **context)


@bp.get("/<event_id>/standings")
def standings(event_id: str) -> Response:
    """The live standings for a projector or a phone: refreshes by itself (htmx polls;
    without JavaScript a meta refresh), and answers 204 to a poll while nothing changed.
    The standings are drawn once per state of the event (and minute of its clock) in
    each process, whoever asks (:mod:`.standings`)."""
    now = eventdata.current(event_id, polls.read_of(request.environ, event_id))
    if htmx.is_htmx() and request.args.get("since") == now.stamp:
        response = Response(status=204)
        response.vary.add("HX-Request")
        return response
    ahead.watch(event_id)
    event = eventdata.view_of(now)
    poll = current_app.config["POLL_SECONDS"]
    minute = event.clock.left(eventdata.now()) if event.clock and not event.finished else None
    fragment = now.drawn(
        ("projector", minute, poll),
        lambda: Markup(
            render_template("events/_standings.html", **_context(event, stamp=now.stamp, poll_seconds=poll))
        ),
    )
    if htmx.is_htmx():
        return compress.gzipped_once(fragment, lambda pack: now.drawn(("projector.gz", minute, poll), pack))
    return htmx.varied(
        render_template(
            "events/standings.html", event=event, standings=fragment, refresh_seconds=REFRESH_SECONDS
        )
    )


# --- the director ------------------------------------------------------------------------


@bp.get("/<event_id>/director")
def director(event_id: str) -> Response:
    """The director's page: share the director's right (QR and code), the round's
    tables with their games, entrants, seat swaps, closing the round, penalties and
    replacing a player. A phone without the right is asked for the code."""
    event = eventdata.load(event_id)
    if not eventdata.can_direct(event.id):
        return _director_prompt(event)
    return _director_page(event)


def _director_page(event: eventdata.EventView, status: int = 200, **forms_: Any) -> Response:
    seating = event.entry.seating_of(event.current)
    seated = sorted(seating.players if seating else ())
    everyone = sorted(set(event.entry.entrants) - set(event.withdrawn))
    swap = forms_.get("swap") or forms.SwapForm(formdata=None)
    swap.first.choices = choices((p, p) for p in seated)
    swap.second.choices = choices((p, p) for p in seated)
    penalty = forms_.get("penalty") or forms.PenaltyForm(formdata=None)
    penalty.player.choices = choices((p, p) for p in everyone)
    replace = forms_.get("replace") or forms.ReplaceForm(formdata=None)
    replace.player.choices = choices((p, p) for p in seated)
    close = forms_.get("close") or forms.CloseRoundForm(formdata=None)
    close.round.data = str(event.current)
    entrants = forms_.get("entrants") or forms.ChangeEntrantsForm(formdata=None)
    response = htmx.render(
        "events/director.html",
        "events/_director.html",
        status,
        **_context(
            event,
            swap=swap,
            penalty=penalty,
            replace=replace,
            close=close,
            entrants=entrants,
            share=eventdata.share(event.id),
            history=eventdata.history(event.id),
            refused=forms_.get("refused", ""),
        ),
    )
    return invite.private(response)


def _director_prompt(event: eventdata.EventView, wrong: str = "", status: int = 403) -> Response:
    body = htmx.render(
        "events/director_join.html",
        "events/_director_join.html",
        status if not htmx.is_htmx() else (422 if wrong else 200),
        **_context(event, wrong=wrong),
    )
    return invite.private(body)


@bp.post("/<event_id>/director/join")
def join(event_id: str) -> Response:
    """Become a director with the director's code (or the whole link). As a game's
    join: only wrong short codes count, on counters of their own; the link's
    32-character code is never refused by the limit (issue 33)."""
    event = eventdata.load(event_id)
    code = request.form.get("code") or ""
    short = ledger.as_join_code(code) is not None
    limit = invite.limit(event.id, director=True)
    if short and limit.left == 0:
        return _director_locked(event, limit)
    if eventdata.join(event.id, code):
        return htmx.go(url_for("events.director", event_id=event.id))
    if not short:
        return _director_prompt(
            event, "That code does not unlock this event's director pages (its codes may have been renewed)."
        )
    limit = invite.count_wrong(event.id, director=True)
    if limit.left == 0:
        return _director_locked(event, limit)
    return _director_prompt(
        event,
        f"That code does not unlock this event's director pages ({limit.left} more tries before a pause).",
    )


def _director_locked(event: eventdata.EventView, limit: invite.Limit) -> Response:
    """429 with Retry-After: the short code rests; the director's link still works."""
    return invite.rested(lambda words, status: _director_prompt(event, words, status), limit, "director's")


@bp.post("/<event_id>/director/codes")
def renew(event_id: str) -> Response:
    """New director's codes: the old link and code stop working, and so do the rights
    of phones that joined with them (the event's creator keeps its right)."""
    _require_director(event_id)
    eventdata.renew(event_id, _key())
    return htmx.go(url_for("events.director", event_id=event_id) + "#share")


def _require_director(event_id: str) -> eventdata.EventView:
    event = eventdata.load(event_id)
    if not eventdata.can_direct(event.id):
        abort(make_response(_director_prompt(event)))
    return event


def _refused(event_id: str, message: str, status: int = 422) -> Response:
    """The director's page again, saying why the action was refused (htmx swaps 409
    and 422)."""
    return _director_page(eventdata.load(event_id), status, refused=message)


def _said(refused: Exception) -> str:
    """Why the engine or the ledger refused a director's action, in its own words."""
    message = getattr(refused, "message", None)
    return message if isinstance(message, str) else str(refused)


def _key() -> str | None:
    """The form's idempotency key: the ledger stores it with the write, so a form sent
    twice (a double tap, a resend) writes once."""
    return request.form.get("key") or None


def _act(
    event: eventdata.EventView,
    write: Callable[[], object],
    form: tuple[str, Any, Any] | None = None,
    status: int = 422,
) -> Response:
    """Make a director's write and go back to the director's page; a refusal (the
    engine's or the ledger's, mapped here once for every director's form) shows the
    page again with the reason under the form's field at fault (``form``: its name,
    the form and the field), or at the top."""
    try:
        write()
    except (engine.ScorekeeperError, LedgerError) as refused:
        if form is None:
            return _refused(event.id, _said(refused), status)
        name, shown, field = form
        add_error(field, _said(refused))
        # The event as it is now: a close whose seating was refused did close.
        return _director_page(eventdata.load(event.id), status, **{name: shown})
    return _as_it_is(event.id)


def _as_it_is(event_id: str) -> Response:
    return htmx.go(url_for("events.director", event_id=event_id))


@bp.post("/<event_id>/entrants")
def entrants(event_id: str) -> Response:
    """Late entries and withdrawals, between rounds."""
    event = _require_director(event_id)
    form = forms.ChangeEntrantsForm()
    if not form.validate():
        return _director_page(event, 422, entrants=form)
    added = forms.entrant_names(form.add.data or "")
    gone = (form.withdraw.data or "").strip()
    if not added and not gone:
        add_error(form.add, "Type a late entry, or the name of a player who withdraws.")
        return _director_page(event, 422, entrants=form)
    field = form.withdraw if gone and not added else form.add
    return _act(
        event,
        lambda: eventdata.change_entrants(event.id, added, [gone] if gone else [], _key()),
        ("entrants", form, field),
    )


@bp.post("/<event_id>/swap")
def swap(event_id: str) -> Response:
    """Two players change seats before the round starts."""
    event = _require_director(event_id)
    form = forms.SwapForm()
    form.validate()
    first, second = form.first.data or "", form.second.data or ""
    if not first or not second or first == second:
        add_error(form.second, "Pick two different players.")
        return _director_page(event, 422, swap=form)
    return _act(event, lambda: eventdata.swap(event.id, first, second, _key()), ("swap", form, form.second))


@bp.post("/<event_id>/close")
def close(event_id: str) -> Response:
    """Close the round and seat the next. Refused while a table still plays, unless
    forced: then those games end by agreement, settled as they stand. The form names
    its round: a "Close round 1" sent again once round 2 is seated closes nothing."""
    event = _require_director(event_id)
    form = forms.CloseRoundForm()
    form.validate()
    posted = (form.round.data or "").strip()
    if posted != str(event.current):
        return _director_page(event, 409, refused=_not_this_round(event, posted))

    more: list[bool] = []
    answer = _act(
        event,
        lambda: more.append(eventdata.close_round(event.id, force=bool(form.force.data), key=_key())),
        ("close", form, form.force),
        409,
    )
    if not any(more):
        return answer
    key = _key()  # the round closed: seat the next (a refusal says why, at the top)
    return _act(
        event, lambda: eventdata.seat_next(event.id, None if key is None else f"{key}:seat"), status=409
    )


def _not_this_round(event: eventdata.EventView, posted: str) -> str:
    """Why a close naming another round than the current one closes nothing."""
    if not posted:
        return (
            f"Say which round to close (the form names it): nothing was closed. "
            f"Round {event.current} is the current round."
        )
    return (
        f"Round {posted[:6]} is not the current round (round {event.current} is): "
        "nothing was closed. The page was sent again, or another director closed "
        f"it; close round {event.current} from this page once its tables are done."
    )


@bp.post("/<event_id>/rounds/<int:number>/start")
def start_round(event_id: str, number: int) -> Response:
    """Start a timed round's clock ("Start round 1"): not at seating, while the cards
    print and the players sit; the round's first box starts it too (E7)."""
    event = _require_director(event_id)
    return _act(event, lambda: eventdata.start_round(event.id, number, _key()), status=409)


@bp.post("/<event_id>/seat")
def seat(event_id: str) -> Response:
    """Seat the next round once the current one is closed (closing seats it by itself;
    this is for a seating that was refused, after entrants changed, say)."""
    event = _require_director(event_id)
    return _act(event, lambda: eventdata.seat_next(event.id, _key()), status=409)


def _table_game(event: eventdata.EventView, table: int) -> str:
    game = event.entry.game_of(event.current, table)
    if game is None:
        abort(404, description=f"There is no table {table} in round {event.current}.")
    return game


@bp.post("/<event_id>/tables/<int:table>/end")
def end_table(event_id: str, table: int) -> Response:
    """End one table's game by agreement (the director, for a table that stops)."""
    event = _require_director(event_id)
    game = _table_game(event, table)
    return _act(event, lambda: eventdata.end_game(event.id, game, _key()))


@bp.post("/<event_id>/tables/<int:table>/reopen")
def reopen_table(event_id: str, table: int) -> Response:
    """Reopen a table's game the director ended by mistake (kept in its history)."""
    event = _require_director(event_id)
    game = _table_game(event, table)
    return _act(event, lambda: eventdata.reopen_game(event.id, game, _key()))


@bp.post("/<event_id>/penalties")
def penalty(event_id: str) -> Response:
    """Points taken from a player, with the reason (kept with the event, E4)."""
    event = _require_director(event_id)
    form = forms.PenaltyForm()
    form.player.choices = choices((p, p) for p in event.entry.entrants)
    if not form.validate():
        return _director_page(event, 422, penalty=form)
    return _act(
        event,
        lambda: eventdata.penalise(
            event.id, form.player.data or "", int(form.points.data or 0), form.note.data or "", _key()
        ),
        ("penalty", form, form.player),
    )


@bp.post("/<event_id>/penalties/<int:number>/withdraw")
def withdraw_penalty(event_id: str, number: int) -> Response:
    """Take a penalty back (E4): kept, struck out, and it takes nothing off."""
    event = _require_director(event_id)
    why = (request.form.get("why") or "")[:1000]
    return _act(event, lambda: eventdata.withdraw_penalty(event.id, number, why, _key()))


@bp.post("/<event_id>/replace")
def replace(event_id: str) -> Response:
    """Another player takes a seat in the current round (kept in the game's history):
    mid-game, from the next box, the seat counting for whom the director says (E5)."""
    event = _require_director(event_id)
    form = forms.ReplaceForm()
    if not form.validate():
        return _director_page(event, 422, replace=form)
    return _act(
        event,
        lambda: eventdata.replace(
            event.id,
            form.player.data or "",
            engine.player_name(form.by.data or ""),
            _key(),
            counts_for=engine.player_name(form.by.data or "") if form.counts_for.data == "by" else None,
        ),
        ("replace", form, form.by),
    )


# --- print ---------------------------------------------------------------------------------


@bp.get("/<event_id>/cards.pdf")
def cards_pdf(event_id: str) -> Response:
    """The table cards of a round (the current one by default): one card per table, its
    QR code the join link of the table's game. Directors only: the codes grant scoring."""
    event = _require_director(event_id)
    number = request.args.get("round", type=int) or event.current
    cards = eventdata.table_cards(event, number)
    if not cards:
        abort(404, description=f"Round {number} is not seated.")
    size = "letter" if request.args.get("size", "").lower() == "letter" else "A4"
    from ..pdf.events import render_table_cards

    with printing.turn():
        body = printing.printed(render_table_cards, cards, size=size)
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="table-cards-{event.id}-round-{number}.pdf"'
    return invite.private(response)


@bp.get("/<event_id>/results.pdf")
def results_pdf(event_id: str) -> Response:
    """The event's results, settled: standings, how each score is made, every round's
    tables with each seat's points and ending, the evening's best."""
    event = eventdata.load(event_id)
    size = "letter" if request.args.get("size", "").lower() == "letter" else "A4"
    from ..pdf.events import render_results

    with printing.turn():
        body = printing.printed(render_results, eventresults.results(event), size=size)
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="results-{event.id}.pdf"'
    return response
