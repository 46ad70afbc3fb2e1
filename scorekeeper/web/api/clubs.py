"""The API's clubs (issue 36; CONTRACT.md "A club and its season"): begin a club, read
it, the owner's roster decisions (link, split, undo), an event joining the club (or a
season, or a planned evening) and leaving it, seasons with their ladder and their
counting changed, and evenings planned on a season's calendar. The owner's writes take the owner's token
(``Authorization: Bearer``) and an ``Idempotency-Key``; a private club is read with
the owner's token too."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Response, abort, jsonify, url_for

from ... import store
from ...engine.contract.club import ClubEntry, PlanEntry, SeasonEntry
from ...engine.ladder import from_json as ladder_from_json
from ...ledger import clubs, events, planned, seasons
from ...store.clubs import ClubRow
from ...store.plans import PlanRow
from .. import clubdata, database, gamedata
from .base import _bearer, _idempotency_key, _object_body, bp, error_response


def _club(club_id: str) -> ClubRow:
    row = store.clubs.get_club(database.session(), club_id)
    if row is None:
        abort(error_response(404, "not-found", f"there is no club {club_id!r}"))
    return row


def _owner(club_id: str) -> ClubRow:
    """401 without the owner's token, 403 with a wrong one."""
    token = _bearer("the club's owner token")
    row = _club(club_id)
    if not clubs.is_owner(row, token):
        abort(error_response(403, "forbidden", "this token is not this club's owner's"))
    return row


def _readable(club_id: str) -> ClubRow:
    """A public club is anyone's to read; a private one takes the owner's token."""
    row = _club(club_id)
    return row if row.public else _owner(club_id)


def club_json(row: ClubRow) -> dict[str, Any]:
    """CONTRACT.md's club with its members, seasons and evenings."""
    db = database.session()
    return {
        "id": row.id,
        "version": row.version,
        "club": {
            **ClubEntry(row.name, row.place, row.public).to_json(),
            "members": [
                {"id": m.ref, "name": m.name, "spellings": [shown for _, shown in m.spellings]}
                for m in clubs.roster(db, row.id)
            ],
        },
        "seasons": [{"id": s.id, "name": s.name} for s in seasons.club_seasons(db, row.id)],
        "events": [e.id for e in store.clubs.evenings(db, row.id)],
    }


def _answer(row: ClubRow, status: int = 200) -> Response:
    response = jsonify(club_json(row))
    response.status_code = status
    response.headers["ETag"] = f'"{row.version}"'
    return response


@bp.post("/clubs")
def create_club() -> Response:
    """Begin a club (name, place, public): answers it with the owner's token and short
    code; the same Idempotency-Key answers the same club again."""
    entry = ClubEntry.from_json(_object_body())
    begun = clubs.begin(database.session(), entry, secret=gamedata.secret(), key=_idempotency_key())
    codes = clubs.owner_codes(begun.club, gamedata.secret())
    body = {
        **club_json(begun.club),
        "owner_token": codes.owner,
        "join_code": codes.join,
        "repeated": begun.repeated,
    }
    response = jsonify(body)
    response.status_code = 200 if begun.repeated else 201
    response.headers["Location"] = url_for("api.get_club", club_id=begun.club.id)
    return response


@bp.get("/clubs/<club_id>")
def get_club(club_id: str) -> Response:
    return _answer(_readable(club_id))


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        abort(error_response(422, "malformed", f"{name} is a name as text", name))
    return value


@bp.post("/clubs/<club_id>/public")
def publish_club(club_id: str) -> Response:
    """``{"public": true}``: the season pages public to anyone; false: the owner's."""
    _owner(club_id)
    public = _object_body().get("public")
    if not isinstance(public, bool):
        return error_response(422, "malformed", "public is true or false", "public")
    return _answer(clubs.publish(database.session(), club_id, public, _idempotency_key()).club)


@bp.post("/clubs/<club_id>/members")
def link_member(club_id: str) -> Response:
    """``{"spelling": "Ann L.", "member": "m3"}``: the spelling is that member from now
    on; ``"member": null`` makes it a new member."""
    _owner(club_id)
    data = _object_body()
    member = data.get("member")
    if member is not None and not (isinstance(member, str) and member[1:].isdigit() and member[:1] == "m"):
        return error_response(
            422, "malformed", "member is a member's id (m12) or null for a new one", "member"
        )
    number = None if member is None else int(member[1:])
    done = clubs.link(database.session(), club_id, _text(data, "spelling"), number, _idempotency_key())
    return _answer(done.club)


@bp.post("/clubs/<club_id>/members/split")
def split_member(club_id: str) -> Response:
    """``{"spelling": "Ann L."}``: split off its member, a member of its own."""
    _owner(club_id)
    done = clubs.split(database.session(), club_id, _text(_object_body(), "spelling"), _idempotency_key())
    return _answer(done.club)


@bp.get("/clubs/<club_id>/history")
def club_history(club_id: str) -> Response:
    """The owner's decisions, each a typed line (its number is what an undo names)."""
    _owner(club_id)
    rows = store.clubs.history(database.session(), club_id)
    return jsonify({"history": [{"line": r.id, "undone": r.undone, **r.line.to_json()} for r in rows]})


@bp.post("/clubs/<club_id>/history/<int:line>/undo")
def undo_decision(club_id: str, line: int) -> Response:
    _owner(club_id)
    return _answer(clubs.undo(database.session(), club_id, line, _idempotency_key()).club)


def _directed(data: dict[str, Any]) -> str:
    """The event a body names, its director agreeing (``director_token``)."""
    event_id = _text(data, "event")
    row = store.events.get_event(database.session(), event_id)
    if row is None:
        abort(error_response(404, "not-found", f"there is no event {event_id!r}", "event"))
    token = data.get("director_token")
    if not isinstance(token, str) or not events.is_director(row, token):
        abort(
            error_response(
                403, "forbidden", "director_token is not this event's director's", "director_token"
            )
        )
    return event_id


@bp.post("/clubs/<club_id>/events")
def attach_event(club_id: str) -> Response:
    """``{"event": id, "director_token": ...}``: the event joins the club (its
    director's token says the director agrees); with ``"plan": 12`` it is that planned
    evening, started (the plan points at it, in the same write)."""
    _owner(club_id)
    data = _object_body()
    event_id = _directed(data)
    plan = data.get("plan")
    if plan is not None and (not isinstance(plan, int) or isinstance(plan, bool)):
        return error_response(422, "malformed", "plan is a planned evening's id (a number)", "plan")
    done = clubs.attach(database.session(), club_id, event_id, _idempotency_key(), plan=plan)
    return _answer(done.club)


@bp.delete("/clubs/<club_id>/events/<event_id>")
def detach_event(club_id: str, event_id: str) -> Response:
    """The event leaves the club (joined by mistake): it belongs to no club again, its
    own pages and its director's right untouched."""
    _owner(club_id)
    return _answer(clubs.detach(database.session(), club_id, event_id, _idempotency_key()).club)


def season_json(found: seasons.Season) -> dict[str, Any]:
    """CONTRACT.md's season with its ladder and its evenings."""
    return {
        "id": found.row.id,
        "club": found.club.id,
        "season": {**found.entry.to_json(), "events": [e.row.id for e in found.evenings]},
        "ladder": [
            {
                "rank": line.line.rank if line.line.ranked else None,
                "member": line.line.member,
                "name": line.name,
                "guest": not line.member,
                "points": line.line.points,
                "evenings": line.line.evenings,
                "moved": line.line.moved,
                "rating": None if (r := found.rating(line.line.member)) is None else r.to_json(),
                "won": line.line.won,
                "boxes": line.line.boxes,
                "contributions": [
                    {"event": event, "points": points, "counted": counted}
                    for event, points, counted in line.line.contributions
                ],
            }
            for line in found.ladder
        ],
        "ratings": [
            {"member": key, "name": found.ratings.names.get(key, key), **rating.to_json()}
            for key, rating in found.ratings.ranked()
        ],
        "evenings": [
            {
                "event": e.row.id,
                "name": e.row.name,
                "date": e.day.isoformat(),
                "place": e.place or None,
                "rules": e.rules,
                "table_size": e.table_size,
                "winners": list(e.winners),
                "finished": e.row.finished,
                "plan": None if (p := found.plan_of(e.row.id)) is None else p.id,
            }
            for e in found.evenings
        ],
        "plans": [plan_json(p) for p in found.plans],
        "counting_changed": None
        if found.row.counting_at is None
        else found.row.counting_at.isoformat(timespec="seconds") + "Z",
    }


def plan_json(row: PlanRow) -> dict[str, Any]:
    """A planned evening: its entry, cancelled or not, and the event it became."""
    return {"id": row.id, **row.entry, "cancelled": row.cancelled, "event": row.event_id}


@bp.post("/clubs/<club_id>/seasons")
def create_season(club_id: str) -> Response:
    """A season (CONTRACT.md: name, from, to, ladder): answers it with its ladder."""
    _owner(club_id)
    entry = SeasonEntry.from_json(_object_body())
    db = database.session()
    _done, season_id = clubs.add_season(db, club_id, entry, _idempotency_key())
    response = jsonify(season_json(seasons.season(db, season_id, club_id)))
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_season", club_id=club_id, season_id=season_id)
    return response


@bp.get("/clubs/<club_id>/seasons/<int:season_id>")
def get_season(club_id: str, season_id: int) -> Response:
    _readable(club_id)
    return jsonify(season_json(clubdata.season(season_id, club_id)))


def _season_answer(club_id: str, season_id: int) -> Response:
    return jsonify(season_json(seasons.season(database.session(), season_id, club_id)))


@bp.post("/clubs/<club_id>/seasons/<int:season_id>/counting")
def change_counting(club_id: str, season_id: int) -> Response:
    """``{"ladder": {"count": "placings", "best": 3, "min_evenings": 2}}``: the season
    counts so from now on; answers the season, its ladder ranked anew."""
    _owner(club_id)
    raw = _object_body().get("ladder")
    if not isinstance(raw, dict):
        return error_response(
            422, "malformed", "ladder is an object (count, best, of, min_evenings)", "ladder"
        )
    rules = ladder_from_json(raw)
    clubs.change_counting(database.session(), club_id, season_id, rules, _idempotency_key())
    return _season_answer(club_id, season_id)


@bp.post("/clubs/<club_id>/seasons/<int:season_id>/events")
def join_season(club_id: str, season_id: int) -> Response:
    """``{"event": id, "director_token": ...}``: an event of no club joins the club in
    this season (its date must fall in the season's period)."""
    _owner(club_id)
    event_id = _directed(_object_body())
    clubs.attach(database.session(), club_id, event_id, _idempotency_key(), season=season_id)
    return _season_answer(club_id, season_id)


@bp.post("/clubs/<club_id>/seasons/<int:season_id>/plans")
def plan_evening(club_id: str, season_id: int) -> Response:
    """A planned evening (``date``, ``time``, ``place``, ``rules``, ``table_size``,
    ``name``, ``notes``): 201 with the plan; a date in the past is refused."""
    _owner(club_id)
    entry = PlanEntry.from_json(_object_body(), today=dt.date.today())
    made = planned.plan(database.session(), club_id, season_id, entry, _idempotency_key())
    response = jsonify(plan_json(made.plan))
    response.status_code = 200 if made.done.repeated else 201
    return response


@bp.put("/clubs/<club_id>/plans/<int:plan_id>")
def change_plan(club_id: str, plan_id: int) -> Response:
    """The planned evening as given from now on (the whole plan, as when planned)."""
    _owner(club_id)
    db = database.session()
    before = planned.entry_of(planned.plan_in(db, club_id, plan_id))
    body = _object_body()
    moved = body.get("date") != before.day.isoformat()
    entry = PlanEntry.from_json(body, today=dt.date.today() if moved else None)
    return jsonify(plan_json(planned.change(db, club_id, plan_id, entry, _idempotency_key()).plan))


@bp.post("/clubs/<club_id>/plans/<int:plan_id>/cancel")
def cancel_plan(club_id: str, plan_id: int) -> Response:
    """The evening will not be played (undo: the club's history line)."""
    _owner(club_id)
    return jsonify(plan_json(planned.cancel(database.session(), club_id, plan_id, _idempotency_key()).plan))


__all__ = ["club_json", "plan_json", "season_json"]
