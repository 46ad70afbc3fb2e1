"""A season's page and the owner's writes on it (issue 36): an evening planned on its
calendar (changed, cancelled; started on the night from the new-event form filled from
the plan), its counting changed, an evening the owner directs joining the season and
an evening leaving the club.

The views are on the clubs' blueprint (:mod:`.clubs` calls :func:`register`). Every
write is a POST on a real form with its key in a hidden field; a refused form is the
season's page again, 422, with the message on the field at fault; a refusal of the
ledger is the app's handler's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, Response, request, url_for

from ..engine import ScorekeeperError
from ..engine.contract.club import PlanEntry, ladder_json
from ..engine.ladder import from_json as ladder_from_json
from ..engine.rules import find_rules
from ..ledger import clubs, planned
from ..store.clubs import ClubRow
from ..store.plans import PlanRow
from . import clubdata, database, eventdata, htmx
from .forms import club as forms
from .forms.fields import add_error, choices


def plan_rules(name: str) -> str:
    """A planned evening's rules as players say them."""
    try:
        return find_rules(name).title
    except ValueError:
        return name


def _season_page(club: ClubRow, season_id: int, status: int = 200, **more: Any) -> Response:
    found = clubdata.season(season_id, club.id)
    owner = clubdata.owns(club)
    if owner:  # the owner's forms (a reader's page, the one read most, builds none)
        more.setdefault(
            "counting_form", forms.CountingForm(formdata=None, data=ladder_json(found.entry.ladder))
        )
        more.setdefault("plan_form", forms.PlanForm(formdata=None))
        joining = more.setdefault("join_form", forms.EventForm(formdata=None))
        if not joining.event.choices:
            joining.event.choices = choices(_joinable(club, found.entry.starts, found.entry.ends))
    return htmx.render(
        "clubs/season.html",
        "clubs/_season.html",
        status,
        season=found,
        club=club,
        owner=owner,
        today=dt.date.today(),
        counts=forms.LADDER_COUNTS,
        **more,
    )


def _done(club: ClubRow, season_id: int, anchor: str) -> Response:
    """After a write from the season's page: for htmx the page swapped in place (a
    redirect to the same address with another fragment would not reload it), its
    address pushed; a browser without JavaScript follows the 303."""
    url = url_for("clubs.season", club_id=club.id, season_id=season_id) + anchor
    if not htmx.is_htmx():
        return htmx.go(url)
    response = _season_page(club, season_id)
    response.headers["HX-Push-Url"] = url
    return response


def _joinable(club: ClubRow, starts: dt.date, ends: dt.date) -> list[tuple[str, str]]:
    """The club-less evenings this phone directs, those of the season's period."""
    return [(e, label) for e, label, day in clubdata.directed_evenings() if starts <= day <= ends]


def season(club_id: str, season_id: int) -> Response:
    """The season's page: its ladder (E8), the evenings to come (planned ones too) and
    the ones played with their winners, and the calendar feed."""
    return _season_page(clubdata.readable(club_id), season_id)


def _planned(form: forms.PlanForm, today: dt.date | None) -> PlanEntry | None:
    """The form's plan checked by the engine; None with the message on its field."""
    if not form.validate():
        return None
    try:
        return PlanEntry.from_json(form.plan(), today=today)
    except ScorekeeperError as refused:
        field = getattr(form, (refused.where or "").split(".")[0], None)
        add_error(field if field is not None else form.date, refused.message)
        return None


def plan(club_id: str, season_id: int) -> Response:
    """An evening on the season's calendar: date and time, place, rules, table size."""
    club = clubdata.require_owner(club_id)
    form = forms.PlanForm()
    entry = _planned(form, dt.date.today())
    if entry is None:
        return _season_page(club, season_id, 422, plan_form=form)
    try:
        planned.plan(database.session(), club_id, season_id, entry, eventdata.usable(form.key.data))
    except ScorekeeperError as refused:  # outside the season's period
        add_error(form.date, refused.message)
        return _season_page(club, season_id, 422, plan_form=form)
    return _done(club, season_id, "#upcoming")


def _plan_page(club: ClubRow, plan_row: PlanRow, form: forms.PlanForm, status: int = 200) -> Response:
    return htmx.render("clubs/plan.html", "clubs/_plan.html", status, club=club, plan=plan_row, form=form)


def edit_plan(club_id: str, plan_id: int) -> Response:
    """A planned evening changed (its date, time, place, rules, size, name or notes)."""
    club = clubdata.require_owner(club_id)
    db = database.session()
    found = planned.plan_in(db, club_id, plan_id)
    stored = planned.entry_of(found)
    form = forms.PlanForm(
        data={**stored.to_json(), "date": stored.day, "time": dt.time.fromisoformat(stored.time)}
    )
    if request.method != "POST":
        return _plan_page(club, found, form)
    moved = form.date.data != stored.day
    entry = _planned(form, dt.date.today() if moved else None)
    if entry is None:
        return _plan_page(club, found, form, 422)
    try:
        planned.change(db, club_id, plan_id, entry, eventdata.usable(form.key.data))
    except ScorekeeperError as refused:
        add_error(form.date, refused.message)
        return _plan_page(club, found, form, 422)
    return htmx.go(url_for("clubs.season", club_id=club_id, season_id=found.season_id) + "#upcoming")


def cancel_plan(club_id: str, plan_id: int) -> Response:
    """The evening will not be played (undone from the club's history)."""
    clubdata.require_owner(club_id)
    form = forms.KeyForm()
    done = planned.cancel(database.session(), club_id, plan_id, eventdata.usable(form.key.data))
    return htmx.go(url_for("clubs.season", club_id=club_id, season_id=done.plan.season_id) + "#upcoming")


def counting(club_id: str, season_id: int) -> Response:
    """The season's counting changed: the ladder ranks by it at once."""
    club = clubdata.require_owner(club_id)
    form = forms.CountingForm()
    if not form.validate():
        return _season_page(club, season_id, 422, counting_form=form)
    try:
        rules = ladder_from_json(form.ladder())
    except ScorekeeperError as refused:
        add_error(form.count, refused.message)
        return _season_page(club, season_id, 422, counting_form=form)
    clubs.change_counting(database.session(), club_id, season_id, rules, eventdata.usable(form.key.data))
    return _done(club, season_id, "#ladder-rules")


def join_season(club_id: str, season_id: int) -> Response:
    """An evening this phone directs, of no club, joins the club in this season."""
    club = clubdata.require_owner(club_id)
    form = forms.EventForm()
    event_id = form.event.data or ""
    if not form.validate() or not eventdata.can_direct(event_id):
        add_error(form.event, "Choose an evening this phone directs.")
        return _season_page(club, season_id, 422, join_form=form)
    try:
        clubs.attach(database.session(), club_id, event_id, eventdata.usable(form.key.data), season=season_id)
    except ScorekeeperError as refused:
        add_error(form.event, refused.message)
        return _season_page(club, season_id, 422, join_form=form)
    return _done(club, season_id, "#past")


def detach(club_id: str, event_id: str) -> Response:
    """An evening joined by mistake leaves the club (its own pages stay; its director
    keeps the right). Back to the season it was read from, or the club's page."""
    clubdata.require_owner(club_id)
    form = forms.LeaveForm()
    clubs.detach(database.session(), club_id, event_id, eventdata.usable(form.key.data))
    back = form.season.data or ""
    if back.isdigit() and len(back) < 10:
        return htmx.go(url_for("clubs.season", club_id=club_id, season_id=int(back)) + "#past")
    return htmx.go(url_for("clubs.show", club_id=club_id) + "#evenings")


def register(bp: Blueprint) -> None:
    """The views on the clubs' blueprint (their endpoints ``clubs.season`` and so on)."""
    bp.add_app_template_global(plan_rules, "plan_rules")
    bp.add_url_rule("/<club_id>/seasons/<int:season_id>", view_func=season)
    bp.add_url_rule("/<club_id>/seasons/<int:season_id>/plans", view_func=plan, methods=["POST"])
    bp.add_url_rule("/<club_id>/plans/<int:plan_id>", view_func=edit_plan, methods=["GET", "POST"])
    bp.add_url_rule("/<club_id>/plans/<int:plan_id>/cancel", view_func=cancel_plan, methods=["POST"])
    bp.add_url_rule("/<club_id>/seasons/<int:season_id>/counting", view_func=counting, methods=["POST"])
    bp.add_url_rule("/<club_id>/seasons/<int:season_id>/events", view_func=join_season, methods=["POST"])
    bp.add_url_rule("/<club_id>/events/<event_id>/leave", view_func=detach, methods=["POST"])


__all__ = ["cancel_plan", "counting", "detach", "edit_plan", "join_season", "plan", "register", "season"]
