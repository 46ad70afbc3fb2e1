"""Every line of a game's history, typed, and the one function that words it.

A game's history has two sources: the revisions of its boxes (recorded, corrected,
deleted, undone) and the changes to the game itself (ended, reopened, house rules, a
director's penalty, a seat change, a replacement). Each stored line is read once into a
:class:`HistoryEntry` of a :class:`Kind`; :func:`words` says every kind, and the sheet,
the box page, the PDF and the API all word lines through it, so a new kind is a type
error where it is not worded (``assert_never``), never a page that fails on it. A kind
this version does not know (written by a newer one) reads as :attr:`Kind.NOTE`.

>>> line = HistoryEntry.stored("penalty", {"player": "Ann", "points": 10, "note": "slow play"})
>>> line.kind, words(line)
(<Kind.PENALTY: 'penalty'>, 'Director: penalty of 10 to Ann (slow play)')
>>> words(HistoryEntry.stored("ended", {"after_box": 4}), deal="hand")
'Ended by agreement after hand 4'
>>> words(HistoryEntry.stored("rules", {"before": {}, "after": {"gin_bonus": 50}}))
'House rules changed: gin bonus 50'
>>> words(HistoryEntry.stored("replaced", {"player": "Bob", "by": "Zed", "from_box": 3, "counts_for": "Zed"}))
"Director: Zed plays Bob's seat from box 3; the seat's result counts for Zed"
>>> words(HistoryEntry.stored("teleported", {}))
'Changed: teleported'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, assert_never

from .ladder import counting_words
from .rules import setting_words
from .vocabulary import title_of


class Kind(enum.StrEnum):
    """What a history line records; the value is the word the store keeps."""

    RECORDED = "recorded"
    CORRECTED = "edited"
    DELETED = "deleted"
    UNDONE = "undone"
    ENDED = "ended"
    REOPENED = "reopened"
    RULES = "rules"
    PENALTY = "penalty"
    PENALTY_WITHDRAWN = "penalty-withdrawn"
    RESEATED = "director"
    """The director changed this table's seats: the game was replaced by another."""
    REPLACED = "replaced"
    """A player replaced by another (E5)."""
    STARTED = "started"
    SEATED = "seated"
    CLOSED = "closed"
    ENTRANTS = "entrants"
    SEATS = "seats"
    """Two players swapped seats (the event's line; each table's game gets RESEATED)."""
    CODES = "codes"
    CLOCK = "clock"
    """The director started a timed round's clock (E7)."""
    CLUB = "club"
    """A club begun (its roster, seasons and events follow; issue 36)."""
    MEMBER = "member"
    """A new member of a club's roster, under the spelling an evening used."""
    LINKED = "linked"
    """A spelling linked to a member (it counts as that member from then on)."""
    SPLIT_OFF = "split-off"
    """A spelling split off its member: a new member of its own."""
    DECISION_UNDONE = "decision-undone"
    """A link, split or new member undone: the roster as it was before it."""
    SEASON = "season"
    ATTACHED = "attached"
    """An event joined to a club (its entrants are matched to the club's members)."""
    COUNTING = "counting"
    """A season's counting changed (its ladder's rules: before and after)."""
    DETACHED = "detached"
    """An event taken out of a club (joined by mistake): it belongs to no club again."""
    PLANNED = "planned"
    """An evening planned on a season's calendar, before its entrants are known."""
    PLAN_CHANGED = "plan-changed"
    PLAN_CANCELLED = "plan-cancelled"
    OWNER_CODES = "owner-codes"
    PUBLISHED = "published"
    """A club's season pages made public, or private again."""
    NOTE = "note"
    """A line this version does not know."""


BOX_KINDS = frozenset({Kind.RECORDED, Kind.CORRECTED, Kind.DELETED, Kind.UNDONE})
"""The kinds a box's own revisions have."""


@dataclass(frozen=True)
class HistoryEntry:
    """One line of a game's history: its kind, what it changed (``detail``, as stored),
    the game version it made and when. A box's line carries its ruling and the one
    before (``detail["ruling"]``, ``detail["before"]``) to say what changed."""

    kind: Kind
    detail: Mapping[str, Any] = field(default_factory=dict)
    version: int | None = None
    at: datetime | None = None
    phone: str | None = None
    action: str = ""
    """The stored word, kept for a line of a kind this version does not know."""

    @classmethod
    def stored(
        cls,
        action: str,
        detail: object,
        version: int | None = None,
        at: datetime | None = None,
        phone: str | None = None,
    ) -> HistoryEntry:
        """The line as the store keeps it; anything unknown or malformed reads as a note."""
        try:
            kind = Kind(action)
        except ValueError:
            kind = Kind.NOTE
        return cls(kind, detail if isinstance(detail, Mapping) else {}, version, at, phone, action)

    def to_json(self, deal: str = "box") -> dict[str, Any]:
        """The line for the API: its kind, its words, its version and time."""
        return {
            "kind": self.kind.value,
            "text": words(self, deal),
            "version": self.version,
            "at": None if self.at is None else self.at.isoformat() + "Z",
            "detail": dict(self.detail),
        }


def words(entry: HistoryEntry, deal: str = "box") -> str:
    """The line in words, for every kind (``deal``: the game's word, box or hand)."""
    step, what = worded(entry, deal)
    return f"{step}: {what}" if what else step


def worded(entry: HistoryEntry, deal: str = "box") -> tuple[str, str]:
    """The line as its step ("Corrected", "Director") and what it did, for pages that
    set the step apart; every kind is worded here (a kind left out is a type error)."""
    d = entry.detail
    match entry.kind:
        case Kind.RECORDED:
            counts = ", ".join(f"{p} {c}" for p, c in _counts(d.get("ruling")).items())
            return "Recorded", said(d.get("ruling")) + (f" (counts {counts})" if counts else "")
        case Kind.CORRECTED:
            return "Corrected", _changed(d)
        case Kind.UNDONE:
            return "Undone", _changed(d)
        case Kind.DELETED:
            return "Deleted", f"{said(d.get('ruling'))} is off the sheet"
        case Kind.ENDED:
            after = d.get("after_box")
            by = "by the director" if d.get("by") == "director" else "by agreement"
            if isinstance(d.get("table"), int):
                return f"Table {d['table']}'s game ended by the director", _note(d)
            if isinstance(after, int) and after > 0:
                return f"Ended {by} after {deal} {after}", ""
            return f"Ended {by} before the first {deal}", ""
        case Kind.REOPENED:
            return "Reopened by the director", _note(d)
        case Kind.RULES:
            return "House rules changed", _rules_changed(d)
        case Kind.PENALTY | Kind.PENALTY_WITHDRAWN:
            back = " withdrawn" if entry.kind is Kind.PENALTY_WITHDRAWN else ""
            return "Director", f"penalty of {d.get('points', '?')} to {d.get('player', '?')}{back}{_why(d)}"
        case Kind.RESEATED:
            why = d.get("reseated")
            return "Director", f"{why or 'seats changed'}: the table plays a new game"
        case Kind.REPLACED:
            first = d.get("from_box")
            when = f" from {deal} {first}" if isinstance(first, int) else ""
            owner = d.get("counts_for")
            mine = f"; the seat's result counts for {owner}" if owner and owner != d.get("player") else ""
            return "Director", f"{d.get('by', '?')} plays {d.get('player', '?')}'s seat{when}{mine}"
        case Kind.STARTED:
            return "Event started", f"{d.get('entrants', '?')} entrants"
        case Kind.SEATED:
            return f"Round {d.get('round', '?')} seated", _tables_and_byes(d)
        case Kind.CLOSED:
            ended = d.get("ended") or []
            forced = (
                f"; the games at tables {', '.join(map(str, ended))} ended as they stood" if ended else ""
            )
            return f"Round {d.get('round', '?')} closed", ("by force" if d.get("force") else "") + forced
        case Kind.ENTRANTS:
            parts = []
            if d.get("added"):
                parts.append("entered " + ", ".join(map(str, d["added"])))
            if d.get("withdrawn"):
                parts.append("withdrew " + ", ".join(map(str, d["withdrawn"])))
            return "Director", "; ".join(parts) + f" (from round {d.get('round', '?')})"
        case Kind.SEATS:
            return "Director", f"seats of {d.get('first', '?')} and {d.get('second', '?')} swapped"
        case Kind.CODES:
            return "Director", "new director's codes (the old ones stopped working)"
        case Kind.CLOCK:
            return f"Round {d.get('round', '?')} started", f"the clock runs {d.get('minutes', '?')} minutes"
        case Kind.CLUB:
            return "Club begun", str(d.get("name", ""))[:120]
        case Kind.MEMBER:
            return "Owner", f"{d.get('name', '?')} is a new member"
        case Kind.LINKED:
            return "Owner", f"“{d.get('spelling', '?')}” is {d.get('name', '?')}" + _undone(d)
        case Kind.SPLIT_OFF:
            return (
                "Owner",
                f"“{d.get('spelling', '?')}” split off {d.get('from', '?')}: a member of its own"
                + _undone(d),
            )
        case Kind.DECISION_UNDONE:
            return "Owner", f"undid: {d.get('what', '?')}"
        case Kind.SEASON:
            return "Season", f"{d.get('name', '?')} ({d.get('from', '?')} to {d.get('to', '?')})"
        case Kind.ATTACHED:
            planned = f" (the evening planned for {d['planned']})" if d.get("planned") else ""
            return "Owner", f"the evening {d.get('event_name', d.get('event', '?'))} joined the club{planned}"
        case Kind.DETACHED:
            return "Owner", f"the evening {d.get('event_name', d.get('event', '?'))} left the club"
        case Kind.COUNTING:
            before, after = d.get("before"), d.get("after")
            was = counting_words(before) if isinstance(before, Mapping) else "?"
            now = counting_words(after) if isinstance(after, Mapping) else "?"
            return "Owner", f"{d.get('name', 'the season')} counts {now} (was {was})" + _undone(d)
        case Kind.PLANNED:
            return "Owner", f"an evening planned for {_plan_words(d.get('plan'))}"
        case Kind.PLAN_CHANGED:
            return (
                "Owner",
                f"the evening planned for {_plan_words(d.get('before'))} changed: {_plan_changed(d)}",
            )
        case Kind.PLAN_CANCELLED:
            return "Owner", f"the evening planned for {_plan_words(d.get('plan'))} cancelled" + _undone(d)
        case Kind.PUBLISHED:
            return "Owner", "the season pages are public" if d.get(
                "public"
            ) else "the season pages are private"
        case Kind.OWNER_CODES:
            return "Owner", "new owner's codes (the old ones stopped working)"
        case Kind.NOTE:
            return "Changed", entry.action[:40]
        case _:
            assert_never(entry.kind)


def said(ruling: object) -> str:
    """A ruling in a few words: "Knock, Bob +19"."""
    if not isinstance(ruling, Mapping) or not ruling:
        return "no ruling"
    text = title_of(str(ruling.get("result", "")))
    if ruling.get("winner"):
        text += f", {ruling['winner']} +{ruling.get('points', 0)}"
    return text


def _counts(ruling: object) -> dict[str, Any]:
    counts = ruling.get("counts") if isinstance(ruling, Mapping) else None
    return dict(counts) if isinstance(counts, Mapping) else {}


def _changed(d: Mapping[str, Any]) -> str:
    """What a correction (or an undo) changed: the ruling, each count, the note."""
    before, after = d.get("before"), d.get("ruling")
    parts = []
    if d.get("restored"):
        parts.append("back on the sheet")
    if said(before) != said(after):
        parts.append(f"{said(before)} → {said(after)}")
    old, new = _counts(before), _counts(after)
    parts += [f"{p}'s count {old.get(p, '–')} → {c}" for p, c in new.items() if old.get(p) != c]
    if d.get("note_before", "") != d.get("note", ""):
        parts.append(f'note "{d.get("note") or ""}"')
    return "; ".join(parts) if parts else said(after)


def _before_after(d: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """A change's ``before`` and ``after`` (each empty where it is not a mapping)."""
    before, after = d.get("before"), d.get("after")
    return (before if isinstance(before, Mapping) else {}), (after if isinstance(after, Mapping) else {})


def _rules_changed(d: Mapping[str, Any]) -> str:
    before, after = _before_after(d)
    parts = [
        f"{name.replace('_', ' ')} {setting_words(value)}"
        for name, value in after.items()
        if before.get(name) != value
    ]
    parts += [f"{name.replace('_', ' ')} back to the book" for name in before if name not in after]
    return "; ".join(parts)


def _plan_words(plan: object) -> str:
    """A planned evening as its history names it: "2027-01-12 19:30"."""
    if not isinstance(plan, Mapping):
        return "?"
    return f"{plan.get('date', '?')} {plan.get('time', '')}".strip()


def _plan_changed(d: Mapping[str, Any]) -> str:
    before, after = _before_after(d)
    parts = [
        f"{name.replace('_', ' ')} {before.get(name) or '–'} → {value or '–'}"
        for name, value in after.items()
        if before.get(name) != value
    ]
    return "; ".join(parts) or "nothing"


def _tables_and_byes(d: Mapping[str, Any]) -> str:
    tables, byes = d.get("tables"), d.get("byes") or []
    said = f"{tables} tables" if isinstance(tables, int) else ""
    if byes:
        said += ("; " if said else "") + "bye for " + ", ".join(map(str, byes))
    return said


def _note(d: Mapping[str, Any]) -> str:
    note = d.get("note") or d.get("why")
    return str(note)[:200] if note else ""


def _undone(d: Mapping[str, Any]) -> str:
    return " (undone)" if d.get("undone") else ""


def _why(d: Mapping[str, Any]) -> str:
    note = _note(d)
    return f" ({note})" if note else ""


__all__ = ["BOX_KINDS", "HistoryEntry", "Kind", "said", "worded", "words"]
