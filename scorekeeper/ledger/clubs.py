"""A club's use cases (issue 36): begin a club, its owner's codes (shared and renewed
as an event director's are), the roster's decisions (link a spelling to a member, split
one off, undo either), an event joining the club and a new season.

Every owner's write goes through :func:`held`, the events' prologue for a club: hold
the club from the read the write is based on to its one commit, answer a repeated
idempotency key with the club as it is (the same key with other content is
:class:`~scorekeeper.ledger.KeyReused`), write, and end with the club's new version and
the write's typed history line (:class:`~scorekeeper.engine.history.Kind`). Nothing is
retried.

Who a name is: an entrant's name counts as the member its folded spelling names
(:func:`~scorekeeper.engine.contract.club.fold`: "ann", " ANN " and "Ann" are one).
A name the roster does not know stays a guest until the owner says who it is: the same
as a member (:func:`link`) or a new member (:func:`link` with no member). A director
would not want a typo to become a member behind their back, and the club's page offers
the near names (:func:`near_members`) beside every new one.
"""

from __future__ import annotations

import difflib
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from .. import store
from ..engine.contract.club import ClubEntry, SeasonEntry, fold, ladder_json, member_name
from ..engine.errors import MalformedError
from ..engine.history import Kind, words
from ..engine.ladder import Ladder
from ..store.clubs import ClubRow, MemberRow
from .codes import as_join_code, make_codes
from .events.held import digest, repeated
from .table import KeyReused, LedgerError, NotFound


class RosterRefused(LedgerError):
    """A roster decision that cannot be made (a spelling of no one, a member of another
    club, an undo a later decision stands on)."""


@dataclass(frozen=True)
class Codes:
    """The owner's codes: the link's code and the short code typed by hand."""

    owner: str
    join: str
    round: int


@dataclass(frozen=True)
class Done:
    """What an owner's write answers: the club after it (``repeated``: a resent key)."""

    club: ClubRow
    repeated: bool = False


@dataclass(frozen=True)
class Begun:
    club: ClubRow
    codes: Codes | None
    repeated: bool = False


def club(db: Session, club_id: str) -> ClubRow:
    found = store.clubs.get_club(db, club_id)
    if found is None:
        raise NotFound(f"there is no club {club_id!r}")
    return found


def owner_codes(row: ClubRow, secret: bytes) -> Codes:
    """The owner's current codes, made from the server's secret as a director's are."""
    made = make_codes(secret, f"club-{row.id}", row.codes_round)
    return Codes(made.edit, made.join, made.round)


def is_owner(row: ClubRow, code: str | None) -> bool:
    return bool(code) and hmac.compare_digest(row.owner_hash, store.token_hash(code or ""))


def owner_joined(db: Session, code: str, secret: bytes, club_id: str) -> str | None:
    """The owner's code a phone keeps after typing ``code`` (short or the link's), or
    None when it does not open this club."""
    row = store.clubs.get_club(db, club_id)
    if row is None:
        return None
    short = as_join_code(code)
    if short is not None:
        codes = owner_codes(row, secret)
        return codes.owner if short == codes.join and is_owner(row, codes.owner) else None
    code = code.strip().rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    return code if is_owner(row, code) else None


def begin(db: Session, entry: ClubEntry, *, secret: bytes, key: str | None = None) -> Begun:
    """A new club with its owner's codes; a resent form (same key) answers the same club."""
    with store.holding(db, None):
        if key is not None:
            earlier = store.clubs.club_started_with(db, key)
            if earlier is not None:
                found = club(db, earlier)
                if (found.name, found.place, found.public) != (entry.name, entry.place, entry.public):
                    raise KeyReused("this form was already used to begin another club: reload the page")
                return Begun(found, None, repeated=True)
        club_id = store.new_game_id()
        made = make_codes(secret, f"club-{club_id}", 1)
        store.clubs.create_club(db, club_id, entry.name, entry.place, entry.public, made.edit, made.join, key)
        store.clubs.log_write(db, club_id, Kind.CLUB.value, entry.to_json(), key=None, digest="")
        db.commit()
    return Begun(club(db, club_id), Codes(made.edit, made.join, made.round))


Change = tuple[dict[str, Any], dict[str, Any]]


def held(
    db: Session,
    club_id: str,
    action: Kind,
    content: object,
    key: str | None,
    write: Callable[[ClubRow], Change | None],
) -> Done:
    """Every owner's write, once (the events' prologue, for a club)."""
    signed = digest(action.value, content)
    with store.holding(db, None):
        store.clubs.lock_club(db, club_id)
        row = club(db, club_id)
        if key is not None and repeated(store.clubs.earlier_write(db, club_id, key), signed, "club"):
            return Done(row, repeated=True)
        change = write(row)
        if change is None:
            return Done(row, repeated=True)
        detail, values = change
        store.clubs.log_write(db, club_id, action.value, detail, key=key, digest=signed, **values)
        db.commit()
    return Done(club(db, club_id))


def renew_owner_codes(db: Session, club_id: str, secret: bytes, key: str | None = None) -> Codes:
    """New owner's codes: the old link and short code stop working at once."""

    def write(row: ClubRow) -> Change:
        made = make_codes(secret, f"club-{row.id}", row.codes_round + 1)
        values = {
            "codes_round": made.round,
            "owner_hash": store.token_hash(made.edit),
            "join_code_hash": store.join_code_hash(made.join),
        }
        return {"round": made.round}, values

    done = held(db, club_id, Kind.OWNER_CODES, {"renew": True}, key, write)
    return owner_codes(done.club, secret)


def publish(db: Session, club_id: str, public: bool, key: str | None = None) -> Done:
    """The club's season pages public to anyone with the address, or only to phones
    holding the owner's right."""

    def write(row: ClubRow) -> Change | None:
        if row.public == public:
            return None
        return {"public": public}, {"public": public}

    return held(db, club_id, Kind.PUBLISHED, {"public": public}, key, write)


# --- the roster ------------------------------------------------------------------------------


def roster(db: Session, club_id: str) -> list[MemberRow]:
    return store.clubs.members(db, club_id)


def link(db: Session, club_id: str, spelling: str, member: int | None, key: str | None = None) -> Done:
    """``spelling`` names ``member`` from now on (None: a new member of that name);
    what it named before is kept, so the decision can be undone."""
    shown = member_name(spelling, "spelling")
    folded = fold(shown)

    def write(row: ClubRow) -> Change | None:
        spelt = store.clubs.spellings(db, club_id)
        names = store.clubs.member_names(db, club_id)
        before = spelt.get(folded)
        if member is not None and member not in names:
            raise RosterRefused(f"there is no member m{member} in this club")
        if member is not None and before == member:
            return None  # already so: a double tap
        target = member if member is not None else store.clubs.add_member(db, club_id, shown)
        store.clubs.set_spelling(db, club_id, folded, shown, target)
        detail = {
            "spelling": shown,
            "folded": folded,
            "member": target,
            "name": names.get(target, shown),
            "before": before,
            "new": member is None,
        }
        return detail, {}

    kind = Kind.MEMBER if member is None else Kind.LINKED
    return held(db, club_id, kind, {"spelling": folded, "member": member}, key, write)


def split(db: Session, club_id: str, spelling: str, key: str | None = None) -> Done:
    """``spelling`` stops naming its member: a member of its own, under that name (the
    owner found that "Ann L." is another Ann)."""
    folded = fold(member_name(spelling, "spelling"))

    def write(row: ClubRow) -> Change:
        found = next((m for m in store.clubs.members(db, club_id) if folded in dict(m.spellings)), None)
        if found is None:
            raise RosterRefused(f"“{spelling}” names no member of this club: there is nothing to split")
        if len(found.spellings) < 2:
            raise RosterRefused(
                f"“{spelling}” is {found.name}'s only spelling: {found.name} is one member already"
            )
        shown = dict(found.spellings)[folded]
        new = store.clubs.add_member(db, club_id, shown)
        store.clubs.set_spelling(db, club_id, folded, shown, new)
        return {
            "spelling": shown,
            "folded": folded,
            "from": found.name,
            "before": found.id,
            "member": new,
        }, {}

    return held(db, club_id, Kind.SPLIT_OFF, {"spelling": folded}, key, write)


UNDOABLE = frozenset({Kind.MEMBER, Kind.LINKED, Kind.SPLIT_OFF, Kind.COUNTING, Kind.PLAN_CANCELLED})
"""The owner's decisions an undo takes back: the roster's, a season's counting and an
evening's cancel."""


def undo(db: Session, club_id: str, line: int, key: str | None = None) -> Done:
    """Undo an owner's decision (a line of the club's history): a spelling names again
    whom it named before, a season counts as it did, a cancelled evening stands again.
    Refused when it was undone already or a later decision changed the same thing."""

    def write(row: ClubRow) -> Change:
        found = store.clubs.history_line(db, club_id, line)
        if found is None or found.line.kind not in UNDOABLE:
            raise RosterRefused(f"line {line} of this club's history is no decision to undo")
        if found.undone:
            raise RosterRefused("this decision was undone already")
        d = found.line.detail
        if found.line.kind is Kind.COUNTING:
            _undo_counting(db, club_id, d)
        elif found.line.kind is Kind.PLAN_CANCELLED:
            _undo_cancel(db, club_id, d)
        else:
            _undo_spelling(db, club_id, d)
        store.clubs.mark_undone(db, found.id)
        return {"line": found.id, "what": words(found.line)}, {}

    return held(db, club_id, Kind.DECISION_UNDONE, {"line": line}, key, write)


def _undo_spelling(db: Session, club_id: str, d: Any) -> None:
    folded, shown = str(d["folded"]), str(d["spelling"])
    if store.clubs.spellings(db, club_id).get(folded) != d["member"]:
        raise RosterRefused(f"a later decision changed “{shown}”: undo that one first")
    before = d.get("before")
    store.clubs.set_spelling(db, club_id, folded, shown, before if isinstance(before, int) else None)


def _undo_counting(db: Session, club_id: str, d: Any) -> None:
    season = store.clubs.get_season(db, int(d["season"]))
    if season is None or season.club_id != club_id:
        raise RosterRefused("that season is gone")
    if season.ladder != d["after"]:
        raise RosterRefused(f"a later change of {season.name}'s counting stands: undo that one first")
    store.clubs.set_ladder(db, season.id, dict(d["before"]))


def _undo_cancel(db: Session, club_id: str, d: Any) -> None:
    plan = store.plans.get_plan(db, int(d["id"]))
    if plan is None or plan.club_id != club_id:
        raise RosterRefused("that planned evening is gone")
    if not plan.cancelled:
        raise RosterRefused("that evening is not cancelled now")
    store.plans.change_plan(db, plan.id, cancelled=False)


def near_members(name: str, members: Iterable[MemberRow], n: int = 3) -> list[MemberRow]:
    """The members whose name or a spelling is near ``name`` (difflib), nearest first:
    what the owner is offered beside a new name ("Ann L." → Ann Lee)."""
    pool = list(members)
    keys: dict[str, MemberRow] = {}
    for m in pool:
        keys.setdefault(fold(m.name), m)
        for spelt, _ in m.spellings:
            keys.setdefault(spelt, m)
    near = difflib.get_close_matches(fold(name), list(keys), n=n * 2, cutoff=0.5)
    out: list[MemberRow] = []
    for k in near:
        if keys[k] not in out:
            out.append(keys[k])
    folded = fold(name)
    prefixed = [m for m in pool if m not in out and fold(m.name).startswith(folded.split(" ")[0])]
    return (out + prefixed)[:n]


def new_names(db: Session, club_id: str) -> list[tuple[str, list[MemberRow]]]:
    """The names the club's evenings entered that the roster does not know yet, each
    with the members whose names are near it: what the owner decides on."""
    spelt = store.clubs.spellings(db, club_id)
    members = store.clubs.members(db, club_id)
    seen: set[str] = set()
    out = []
    for name in store.clubs.entrant_names(db, club_id):
        folded = fold(name)
        if folded in spelt or folded in seen:
            continue
        seen.add(folded)
        out.append((name, near_members(name, members)))
    return out


def who(db: Session, club_id: str) -> Callable[[str], tuple[str, str, bool]]:
    """Who an entrant's name is in this club: (key, name shown, member?). A member is
    ``m<id>``; a name no spelling knows is a guest, keyed by its fold."""
    spelt = store.clubs.spellings(db, club_id)
    names = store.clubs.member_names(db, club_id)
    known: dict[str, tuple[str, str, bool]] = {}  # a season asks for each name many times

    def name_of(player: str) -> tuple[str, str, bool]:
        found = known.get(player)
        if found is None:
            member = spelt.get(fold(player))
            if member is None:
                found = f"guest:{fold(player)}", player, False
            else:
                found = f"m{member}", names[member], True
            known[player] = found
        return found

    return name_of


# --- events and seasons -----------------------------------------------------------------------


def attach(
    db: Session,
    club_id: str,
    event_id: str,
    key: str | None = None,
    *,
    season: int | None = None,
    plan: int | None = None,
) -> Done:
    """The event belongs to the club from now on (its entrants are matched to the
    roster). An event belongs to one club at most. With ``season``, its date must fall
    in that season's period; with ``plan``, the planned evening it is points at it from
    now on (the calendar shows the event in the plan's place), in the same write."""

    def write(row: ClubRow) -> Change | None:
        event = store.events.get_event(db, event_id)
        if event is None:
            raise NotFound(f"there is no event {event_id!r}")
        owner = store.clubs.club_of_event(db, event_id)
        if owner is not None and owner != club_id:
            raise RosterRefused(f"the evening {event.name} belongs to another club")
        day = store.clubs.EveningRow(event.id, event.name, event.entry, False, event.created_at).day
        if season is not None:
            found = store.clubs.get_season(db, season)
            if found is None or found.club_id != club_id:
                raise NotFound(f"there is no season {season}")
            if not found.starts <= day <= found.ends:
                raise MalformedError(
                    f"the evening {event.name} is of {day}, outside the season {found.name} "
                    f"({found.starts} to {found.ends})",
                    "event",
                )
        planned = _link_plan(db, club_id, plan, event_id) if plan is not None else None
        if owner == club_id and planned is None:
            return None
        if owner is None:
            store.clubs.lock_event(db, event_id)
            store.clubs.attach(db, club_id, event_id)
            store.ladder.evening_written(db, event_id)  # its standings kept for the seasons
        detail: dict[str, Any] = {"event": event_id, "event_name": event.name}
        if planned is not None:
            detail |= {"plan": plan, "planned": planned}
        return detail, {}

    content = {"event": event_id, "season": season, "plan": plan}
    return held(db, club_id, Kind.ATTACHED, content if season or plan else {"event": event_id}, key, write)


def _link_plan(db: Session, club_id: str, plan_id: int, event_id: str) -> str:
    """The planned evening points at the event started from it; its day and time."""
    found = store.plans.get_plan(db, plan_id)
    if found is None or found.club_id != club_id:
        raise NotFound(f"there is no planned evening {plan_id} in this club")
    if found.cancelled:
        raise RosterRefused("this evening was cancelled: undo the cancel to start it")
    if found.event_id is not None and found.event_id != event_id:
        raise RosterRefused("this planned evening was started already")
    store.plans.change_plan(db, plan_id, event_id=event_id)
    return f"{found.entry.get('date', '?')} {found.entry.get('time', '')}".strip()


def detach(db: Session, club_id: str, event_id: str, key: str | None = None) -> Done:
    """The event leaves the club (it joined by mistake): it belongs to no club again, its
    seasons' ladders and the club's ratings no longer count it, its own pages and its
    director's right are untouched. A plan it was started from stands unstarted again."""

    def write(row: ClubRow) -> Change | None:
        event = store.events.get_event(db, event_id)
        if event is None:
            raise NotFound(f"there is no event {event_id!r}")
        if store.clubs.club_of_event(db, event_id) != club_id:
            raise RosterRefused(f"the evening {event.name} does not belong to this club")
        store.clubs.lock_event(db, event_id)
        store.clubs.detach(db, event_id)
        store.ladder.evening_left(db, event_id)
        plan = store.plans.plan_of_event(db, event_id)
        if plan is not None:
            store.plans.change_plan(db, plan, event_id=None)
        return {"event": event_id, "event_name": event.name, "plan": plan}, {}

    return held(db, club_id, Kind.DETACHED, {"event": event_id}, key, write)


def change_counting(db: Session, club_id: str, season_id: int, rules: Ladder, key: str | None = None) -> Done:
    """The season counts by ``rules`` from now on (its ladder's count, best N of M,
    minimum evenings). The kept evenings hold no count (the ladder ranks them on read,
    :mod:`scorekeeper.store.ladder`), so nothing kept is stale: the club's version, up
    in this write, is the ladder's stamp, and the next read ranks by the new rules."""
    after = ladder_json(rules)

    def write(row: ClubRow) -> Change | None:
        season = store.clubs.get_season(db, season_id)
        if season is None or season.club_id != club_id:
            raise NotFound(f"there is no season {season_id}")
        if season.ladder == after:
            return None
        store.clubs.set_ladder(db, season_id, after)
        return {"season": season_id, "name": season.name, "before": season.ladder, "after": after}, {}

    return held(db, club_id, Kind.COUNTING, {"season": season_id, "ladder": after}, key, write)


def add_season(db: Session, club_id: str, season: SeasonEntry, key: str | None = None) -> tuple[Done, int]:
    """A new season of the club; its id."""
    made: list[int] = []

    def write(row: ClubRow) -> Change:
        ladder = ladder_json(season.ladder)
        made.append(store.clubs.add_season(db, club_id, season.name, season.starts, season.ends, ladder))
        return {**season.to_json(), "season": made[0]}, {}

    done = held(db, club_id, Kind.SEASON, season.to_json(), key, write)
    if not made:  # a resent key: the season it made
        found = [
            s.id
            for s in store.clubs.seasons(db, club_id)
            if s.name == season.name and s.starts == season.starts
        ]
        made.append(found[-1] if found else 0)
    return done, made[0]


__all__ = [
    "Begun",
    "Codes",
    "Done",
    "RosterRefused",
    "add_season",
    "attach",
    "begin",
    "change_counting",
    "club",
    "detach",
    "held",
    "is_owner",
    "link",
    "near_members",
    "new_names",
    "owner_codes",
    "owner_joined",
    "publish",
    "renew_owner_codes",
    "roster",
    "split",
    "undo",
    "who",
]
