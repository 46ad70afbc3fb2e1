"""A club's pages (issue 36): begin a club, its page (roster, new names to decide on,
evenings, seasons, the owner's history and codes), a season's page (calendar and
ladder) and its iCalendar feed.

Every write is a POST on a real form with its key in a hidden field (htmx enhances it;
without JavaScript the browser follows the 303); the views parse, call the ledger
(:mod:`scorekeeper.ledger.clubs`) and answer through :mod:`.htmx`; a refusal is the
app's one error handler's. The owner's right is kept by :mod:`.clubdata`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for

from .. import ledger, store
from ..engine.contract.club import ClubEntry, SeasonEntry
from ..ledger import calendar as calendar_feed
from ..ledger import clubs, seasons
from ..ledger.member_season import member_season
from ..store.clubs import ClubRow
from . import clubdata, clubseasons, database, eventdata, gamedata, htmx, invite, printing
from .forms import club as forms
from .forms.fields import add_error, choices

bp = Blueprint("clubs", __name__, url_prefix="/clubs")
bp.add_app_template_global(clubdata.contributions, "contributions")


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    """The new-club form; POST begins the club and goes to its page (this phone owns it)."""
    form = forms.NewClubForm()
    if request.method != "POST":
        return htmx.render("clubs/new.html", "clubs/_new_form.html", form=form)
    if not form.validate():
        return htmx.render("clubs/new.html", "clubs/_new_form.html", 422, form=form)
    entry = ClubEntry.from_json(
        {"name": form.name.data, "place": form.place.data or None, "public": form.public.data}
    )
    begun = clubs.begin(
        database.session(), entry, secret=gamedata.secret(), key=eventdata.usable(form.key.data)
    )
    clubdata.keep_owner(begun.club.id, clubdata.owner_pass(begun.club.id))
    return htmx.go(url_for("clubs.show", club_id=begun.club.id))


def _club_page(club: ClubRow, status: int = 200, **more: Any) -> Response:
    db = database.session()
    owner = clubdata.owns(club)
    members = clubs.roster(db, club.id)
    attach = more.pop("attach", None) or forms.AttachForm(formdata=None)
    attach.event.choices = (
        choices((e, label) for e, label, _ in clubdata.directed_evenings()) if owner else []
    )
    context = {
        "club": club,
        "owner": owner,
        "members": members,
        "new_names": clubs.new_names(db, club.id) if owner else [],
        "evenings": store.clubs.evenings(db, club.id),
        "seasons": seasons.club_seasons(db, club.id),
        "history": store.clubs.history(db, club.id) if owner else [],
        "undoable": clubs.UNDOABLE,
        "share": clubdata.share(club) if owner else None,
        "attach": attach,
        "season_form": more.pop("season_form", None) or forms.SeasonForm(formdata=None),
        "today": dt.date.today(),
        **more,
    }
    response = htmx.render("clubs/club.html", "clubs/_club.html", status, **context)
    return invite.private(response) if owner else response


@bp.get("/<club_id>")
def show(club_id: str) -> Response:
    """The club's page: the owner's (roster, decisions, seasons, codes), or for a public
    club anyone's (read only); a private club asks for the owner's code."""
    club = clubdata.load(club_id)
    if not clubdata.may_read(club):
        return _owner_prompt(club)
    return _club_page(club)


def _owner_prompt(club: ClubRow, wrong: str = "", status: int = 403) -> Response:
    body = htmx.render("clubs/owner_join.html", "clubs/_owner_join.html", status, club=club, wrong=wrong)
    return invite.private(body)


@bp.post("/<club_id>/owner/join")
def join(club_id: str) -> Response:
    """Own the club with the owner's code (short, or the whole link). Wrong short codes
    count as a director's do (the same counters, under the club's own key), and rest a
    while past the limit; the owner's link is never refused by it."""
    club = clubdata.load(club_id)
    code = request.form.get("code") or ""
    short = ledger.as_join_code(code) is not None
    limit = invite.limit(f"club-{club.id}", director=True)
    if short and limit.left == 0:
        return _owner_locked(club, limit)
    kept = clubs.owner_joined(database.session(), code, gamedata.secret(), club.id)
    if kept is None:
        if not short:
            return _owner_prompt(
                club, "That code does not open this club (its codes may have been renewed).", 422
            )
        limit = invite.count_wrong(f"club-{club.id}", director=True)
        if limit.left == 0:
            return _owner_locked(club, limit)
        return _owner_prompt(
            club, f"That code does not open this club ({limit.left} more tries before a pause).", 422
        )
    clubdata.keep_owner(club.id, kept)
    return htmx.go(url_for("clubs.show", club_id=club.id))


def _owner_locked(club: ClubRow, limit: invite.Limit) -> Response:
    """429 with Retry-After, as a director's: the short code rests; the owner's link
    still works."""
    return invite.rested(lambda words, status: _owner_prompt(club, words, status), limit, "owner's")


@bp.post("/<club_id>/owner/codes")
def renew(club_id: str) -> Response:
    """New owner's codes: the old link and code stop working (this phone keeps its right)."""
    clubdata.require_owner(club_id)
    form = forms.KeyForm()
    codes = clubs.renew_owner_codes(
        database.session(), club_id, gamedata.secret(), eventdata.usable(form.key.data)
    )
    if not clubdata.owns(clubdata.load(club_id)):
        clubdata.keep_owner(club_id, codes.owner)
    return htmx.go(url_for("clubs.show", club_id=club_id) + "#share")


@bp.post("/<club_id>/public")
def publish(club_id: str) -> Response:
    """The season pages public (``public`` sent) or private."""
    clubdata.require_owner(club_id)
    form = forms.KeyForm()
    public = request.form.get("public") == "y"
    clubs.publish(database.session(), club_id, public, eventdata.usable(form.key.data))
    return htmx.go(url_for("clubs.show", club_id=club_id))


@bp.post("/<club_id>/link")
def link(club_id: str) -> Response:
    """A new name is a member (chosen, or a new one), or a spelling moves to another."""
    clubdata.require_owner(club_id)
    form = forms.LinkForm()
    if not form.validate():
        abort(422, description="Choose a name and who it is.")
    chosen = form.member.data or "new"
    member = None if chosen == "new" else _member_number(chosen)
    clubs.link(database.session(), club_id, form.spelling.data or "", member, eventdata.usable(form.key.data))
    return htmx.go(url_for("clubs.show", club_id=club_id) + "#roster")


def _member_number(text: str) -> int:
    digits = text.removeprefix("m")
    if not digits.isdigit() or len(digits) > 9:
        abort(422, description=f"There is no member {text[:20]!r} in this club.")
    return int(digits)


@bp.post("/<club_id>/split")
def split(club_id: str) -> Response:
    """A spelling split off its member: a member of its own."""
    clubdata.require_owner(club_id)
    form = forms.SplitForm()
    if not form.validate():
        abort(422, description="Choose the spelling to split off.")
    clubs.split(database.session(), club_id, form.spelling.data or "", eventdata.usable(form.key.data))
    return htmx.go(url_for("clubs.show", club_id=club_id) + "#roster")


@bp.post("/<club_id>/undo/<int:line>")
def undo(club_id: str, line: int) -> Response:
    """Undo a roster decision (a line of the club's history)."""
    clubdata.require_owner(club_id)
    form = forms.KeyForm()
    clubs.undo(database.session(), club_id, line, eventdata.usable(form.key.data))
    return htmx.go(url_for("clubs.show", club_id=club_id) + "#history")


@bp.post("/<club_id>/events")
def attach(club_id: str) -> Response:
    """An evening this phone directs joins the club."""
    club = clubdata.require_owner(club_id)
    form = forms.AttachForm()
    event_id = form.event.data or ""
    if not form.validate() or not gamedata.can_direct(event_id):
        add_error(form.event, "Choose an evening this phone directs.")
        return _club_page(club, 422, attach=form)
    clubs.attach(database.session(), club_id, event_id, eventdata.usable(form.key.data))
    return htmx.go(url_for("clubs.show", club_id=club_id) + "#evenings")


@bp.post("/<club_id>/seasons")
def add_season(club_id: str) -> Response:
    """A new season of the club: its period and how its ladder counts."""
    club = clubdata.require_owner(club_id)
    form = forms.SeasonForm()
    if not form.validate():
        return _club_page(club, 422, season_form=form)
    try:
        entry = SeasonEntry.from_json(
            {
                "name": form.name.data,
                "from": form.starts.data.isoformat() if form.starts.data else "",
                "to": form.ends.data.isoformat() if form.ends.data else "",
                "ladder": form.ladder(),
            }
        )
    except ValueError as refused:
        add_error(form.ends, str(refused))
        return _club_page(club, 422, season_form=form)
    _done, season_id = clubs.add_season(database.session(), club_id, entry, eventdata.usable(form.key.data))
    return htmx.go(url_for("clubs.season", club_id=club_id, season_id=season_id))


@bp.get("/<club_id>/seasons/<int:season_id>/members/<member>")
def member(club_id: str, season_id: int, member: str) -> Response:
    """A member's season: each evening, boxes won by kind, head to head, the rating chart."""
    club = clubdata.readable(club_id)
    db = database.session()
    found = clubdata.season(season_id, club.id)
    mine = member_season(db, found, member)
    chart = clubdata.rating_chart(mine.ratings, f"{mine.name}'s rating after each evening")
    return htmx.render(
        "clubs/member.html", "clubs/_member.html", season=found, club=club, me=mine, chart=chart
    )


@bp.get("/<club_id>/seasons/<int:season_id>/members/<member>/season.<any(csv, json):kind>")
def member_export(club_id: str, season_id: int, member: str, kind: str) -> Response:
    """A member's season as CSV (an evening a row) or JSON (everything the page shows)."""
    club = clubdata.readable(club_id)
    db = database.session()
    mine = member_season(db, clubdata.season(season_id, club.id), member)
    if kind == "json":
        return jsonify(mine.to_json())
    response = Response(mine.csv(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="season-{season_id}-{member[:40]}.csv"'
    return response


@bp.get("/<club_id>/seasons/<int:season_id>/ladder.pdf")
def ladder_pdf(club_id: str, season_id: int) -> Response:
    """The season's standings for the club's wall: the ladder, each evening's winner,
    the top rated, the season's dates and the print time."""
    from ..pdf.ladder import render_ladder

    club = clubdata.readable(club_id)
    size = "letter" if request.args.get("size", "").lower() == "letter" else "A4"
    with printing.turn():
        found = clubdata.season(season_id, club.id)
        body = printing.printed(render_ladder, clubdata.ladder_sheet(found, forms.LADDER_COUNTS), size=size)
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="ladder-{season_id}.pdf"'
    return response


@bp.get("/<club_id>/seasons/<int:season_id>/calendar.ics")
def calendar(club_id: str, season_id: int) -> Response:
    """The season's evenings as an iCalendar feed, for members' phones."""
    club = clubdata.readable(club_id)
    found = clubdata.season(season_id, club.id)
    body = calendar_feed.season_calendar(
        found,
        lambda e: url_for("events.show", event_id=e, _external=True),
        lambda: url_for("clubs.season", club_id=club.id, season_id=season_id, _external=True),
    )
    response = Response(body, mimetype="text/calendar")
    response.headers["Content-Disposition"] = f'inline; filename="season-{season_id}.ics"'
    return response


clubseasons.register(bp)  # the season's page and the owner's writes on it

__all__ = ["bp"]
