"""A club as its pages show it, and the owner's right (issue 36).

The owner's right is kept in the signed session cookie, as a director's is: the pass of
the phone that began the club (made from the server's secret, never shown, untouched by
renewals) or the owner's code it joined with, kept compact (the start of the code's
hash). Clubs are few on a phone: they have a small list of their own (``clubs``), apart
from the games' and events' rights.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import hashlib
import hmac
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from flask import abort, session
from markupsafe import Markup

from .. import store
from ..engine.contract.club import PlanEntry
from ..engine.ladder import Line
from ..ledger import clubs, seasons
from ..ledger.ratings import Rating
from ..ledger.seasons import Season
from ..pdf.values import LadderLine, LadderSheet
from ..store.clubs import ClubRow
from ..store.plans import PlanRow
from . import database, eventdata, gamedata, invite, links

OWNS = "clubs"
MAX_CLUBS = 8
PASS = gamedata.PASS
DIGEST = gamedata.DIGEST


def owner_pass(club_id: str) -> str:
    """What the phone that began a club keeps: never shown, untouched by renewals."""
    digest = hmac.new(gamedata.secret(), b"owner:" + club_id.encode("utf-8"), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode("ascii")


def _held() -> dict[str, str]:
    held = session.get(OWNS)
    return (
        {k: v for k, v in held.items() if isinstance(k, str) and isinstance(v, str)}
        if isinstance(held, dict)
        else {}
    )


def keep_owner(club_id: str, token: str) -> None:
    """This phone owns the club (it began it, or joined with the owner's code)."""
    kept = PASS if hmac.compare_digest(token, owner_pass(club_id)) else DIGEST + store.token_hash(token)[:16]
    held = {k: v for k, v in _held().items() if k != club_id}
    held[club_id] = kept
    session[OWNS] = dict(list(held.items())[-MAX_CLUBS:])
    session.permanent = True


def owns(club: ClubRow) -> bool:
    """Whether this phone holds the club's owner's right now (a renewed code is not)."""
    token = _held().get(club.id)
    if token is None:
        return False
    return token == PASS or gamedata.matches(token, club.owner_hash)


def owned() -> list[str]:
    """The clubs this phone owns (as kept; each is checked when used)."""
    return list(_held())


def season(season_id: int, club_id: str) -> Season:
    """The season as it stands: its evenings and ladder read from the kept evenings (one
    row an evening, kept by every write: :mod:`scorekeeper.store.ladder`), its ratings
    rated again only when a game of the club changed
    (:func:`scorekeeper.ledger.ratings.club_ratings`)."""
    return seasons.season(database.session(), season_id, club_id)


def owned_clubs() -> list[ClubRow]:
    """The clubs this phone owns now (a renewed code's club is left out)."""
    found = (store.clubs.get_club(database.session(), club_id) for club_id in owned())
    return [row for row in found if row is not None and owns(row)]


def join_club(club_id: str | None, event_id: str, key: str | None, plan: str | None = None) -> None:
    """An event this phone just started joins the club chosen on its form, when this
    phone owns that club (a resent form joins it once); started from a planned evening
    of that club (``plan``), the plan points at it, in the same write."""
    if not club_id:
        return
    row = store.clubs.get_club(database.session(), club_id)
    if row is not None and owns(row):
        number = int(plan) if plan and plan.isdigit() and len(plan) < 10 else None
        clubs.attach(
            database.session(), club_id, event_id, None if key is None else f"event:{key}"[:64], plan=number
        )


def plan_to_start(plan: str | None) -> tuple[PlanRow, PlanEntry] | None:
    """The planned evening the new-event form is filled from: one of a club this phone
    owns, neither cancelled nor started (else the form is an empty one)."""
    if not plan or not plan.isdigit() or len(plan) > 9:
        return None
    found = store.plans.get_plan(database.session(), int(plan))
    if found is None or found.cancelled or found.event_id is not None:
        return None
    club = store.clubs.get_club(database.session(), found.club_id)
    season = store.clubs.get_season(database.session(), found.season_id)
    if club is None or season is None or not owns(club):
        return None
    entry = PlanEntry.from_json(found.entry)
    return found, entry if entry.name else dataclasses.replace(entry, name=f"{season.name} evening")


def load(club_id: str) -> ClubRow:
    row = store.clubs.get_club(database.session(), club_id)
    if row is None:
        abort(404, description="There is no club at this address. Check the link.")
    return row


def require_owner(club_id: str) -> ClubRow:
    row = load(club_id)
    if not owns(row):
        abort(403, description="Only the club's owner can do this: ask the owner for the owner's code.")
    return row


def directed_evenings() -> list[tuple[str, str, dt.date]]:
    """The events this phone directs that belong to no club yet: the evenings it may
    bring into the club (id, label, day)."""
    db = database.session()
    found = []
    for key, _ in gamedata._held():
        if not key.startswith(gamedata.EVENT):
            continue
        event_id = key[len(gamedata.EVENT) :]
        row = store.events.get_event(db, event_id)
        if row is None or store.clubs.club_of_event(db, event_id) is not None:
            continue
        if gamedata.can_direct(event_id):
            day = store.clubs.EveningRow(event_id, row.name, row.entry, False, row.created_at).day
            found.append((event_id, f"{row.name} ({day.isoformat()})", day))
    return found


def readable(club_id: str) -> ClubRow:
    """The club, when this phone may read its pages (403 otherwise)."""
    club = load(club_id)
    if not may_read(club):
        abort(403, description="This club's season is private: ask its owner for the owner's code.")
    return club


def may_read(club: ClubRow) -> bool:
    """A public club's pages are anyone's with the address; a private one's, the owner's."""
    return club.public or owns(club)


def share(club: ClubRow) -> invite.Invite | None:
    """The owner's link (the code in its fragment), its QR code and the short code."""
    codes = clubs.owner_codes(club, gamedata.secret())
    if not clubs.is_owner(club, codes.owner):
        return None
    page = links.public_url("clubs.show", club_id=club.id)
    if page is None:
        return invite.Invite(
            None, None, join_code=codes.join, edit_code=codes.owner, problem=invite.NO_ADDRESS
        )
    link = f"{page}#{codes.owner}"
    return invite.Invite(
        page, None, link, invite.qr_svg(link, "QR code to own this club"), codes.join, codes.owner
    )


def ladder_sheet(season: Season, counts: Mapping[str, str]) -> LadderSheet:
    """The ladder PDF's values, from the season as its page shows it."""
    rules = season.entry.ladder
    counted = counts[rules.count] + (
        f"; the best {rules.best} evenings count" if rules.best else "; every evening counts"
    )
    if rules.min_evenings:
        counted += f"; {rules.min_evenings} evenings to be ranked"
    rating = season.rating
    return LadderSheet(
        season.club.name,
        season.row.name,
        f"{season.entry.starts.isoformat()} to {season.entry.ends.isoformat()}",
        counted + ". Ties: tables won, then boxes won, then shared (E8).",
        tuple(
            LadderLine(
                line.line.rank if line.line.ranked else None,
                line.name,
                line.line.points,
                line.line.evenings,
                line.line.moved,
                str(r) if (r := rating(line.line.member)) else "",
            )
            for line in season.ladder
        ),
        tuple((e.day.isoformat(), e.row.name, " and ".join(e.winners)) for e in season.played),
        tuple((season.ratings.names.get(k, k), str(r)) for k, r in season.ratings.ranked()[:5]),
        dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )


def contributions(line: Line) -> Markup:
    """What each evening gave a ladder line, in play order, one not counted (outside the
    best N) struck: built here as one string a line, not by the template evening by
    evening (a season of 300 members and 52 evenings lists some 5,000 figures)."""
    shown = ((eventdata.shown_number(points), counted) for _, points, counted in line.contributions)
    # a shown number is digits, a sign and a point: nothing to escape
    return Markup(" · ".join(number if counted else f"<s>{number}</s>" for number, counted in shown))


def rating_chart(points: Sequence[tuple[str, Rating]], title: str) -> Markup:
    """A member's rating after each evening as a small inline SVG (drawn on the server,
    no script): the skill as a line, its uncertainty as a band, in black and grey."""
    if not points:
        return Markup("")
    width, height, pad = 320, 120, 24
    top = max(r.mu + r.sigma for _, r in points)
    bottom = min(r.mu - r.sigma for _, r in points)
    span = (top - bottom) or 1.0
    step = (width - 2 * pad) / max(len(points) - 1, 1)

    def y(value: float) -> float:
        return round(pad / 2 + (top - value) / span * (height - pad), 1)

    xs = [round(pad + i * step, 1) for i in range(len(points))]
    upper = " ".join(f"{x},{y(r.mu + r.sigma)}" for x, (_, r) in zip(xs, points, strict=True))
    lower = " ".join(f"{x},{y(r.mu - r.sigma)}" for x, (_, r) in reversed(list(zip(xs, points, strict=True))))
    line = " ".join(f"{x},{y(r.mu)}" for x, (_, r) in zip(xs, points, strict=True))
    last = points[-1][1]
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'class="rating-chart" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<polygon points="{upper} {lower}" fill="#ddd" stroke="none"/>'
        f'<polyline points="{line}" fill="none" stroke="#000" stroke-width="2"/>'
        + "".join(f'<circle cx="{x}" cy="{y(r.mu)}" r="2.5"/>' for x, (_, r) in zip(xs, points, strict=True))
        + f'<text x="{width - 2}" y="{height - 2}" text-anchor="end" font-size="11">'
        + f"{escape(str(last))}</text>"
        "</svg>"
    )
    return Markup(svg)


__all__ = [
    "contributions",
    "directed_evenings",
    "join_club",
    "keep_owner",
    "load",
    "may_read",
    "owned",
    "owner_pass",
    "owns",
    "plan_to_start",
    "rating_chart",
    "readable",
    "require_owner",
    "share",
]
