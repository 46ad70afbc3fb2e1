"""The club's forms: begin a club; the owner's roster decisions (a spelling linked to a
member or made a new member, split off, a decision undone); an evening joining the
club; a new season with its ladder's rules. Each carries its idempotency key in a
hidden field, as the director's forms do."""

from __future__ import annotations

import secrets
from typing import Any

from wtforms import (
    BooleanField,
    DateField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
    TimeField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ...engine import PRESETS
from ...engine.contract.club import MAX_CLUB_NAME, MAX_PLAN_NAME, MAX_SEASON_NAME
from ...engine.contract.fields import MAX_NOTE
from ...engine.ladder import COUNTS
from .fields import NUMERIC, FlaskForm, choices, not_huge

LADDER_COUNTS = {
    "net": "Total net: the sum of each evening's score",
    "average": "Average net per evening played",
    "placings": "Placings points: the first of n players n points, down to 1",
}
assert set(LADDER_COUNTS) == set(COUNTS)


def _key() -> str:
    return secrets.token_urlsafe(16)


class NewClubForm(FlaskForm):
    key = HiddenField(default=_key)
    name = StringField(
        "Name of the club",
        validators=[InputRequired("Give the club a name."), Length(max=MAX_CLUB_NAME)],
        render_kw={"maxlength": MAX_CLUB_NAME, "autocomplete": "off"},
    )
    place = StringField("Place", validators=[Optional(), Length(max=120)], render_kw={"maxlength": 120})
    public = BooleanField("Season pages public to anyone with the address")


class LinkForm(FlaskForm):
    """A spelling is a member (``member``: the member's id, or ``new``)."""

    key = HiddenField(default=_key)
    spelling = HiddenField(validators=[InputRequired("Which name?"), Length(max=160)])
    member = SelectField("Is", validate_choice=False)


class SplitForm(FlaskForm):
    key = HiddenField(default=_key)
    spelling = HiddenField(validators=[InputRequired("Which spelling?"), Length(max=160)])


class KeyForm(FlaskForm):
    """A write whose address says it all (undo a line): only its key."""

    key = HiddenField(default=_key)


class AttachForm(FlaskForm):
    key = HiddenField(default=_key)
    event = SelectField("Evening", validate_choice=False, validators=[InputRequired("Choose an evening.")])


class CountingForm(FlaskForm):
    """A season's counting: set by the season's form, changed after it was made by this."""

    key = HiddenField(default=_key)
    count = RadioField("The ladder counts", choices=choices(LADDER_COUNTS.items()), default="net")
    best = IntegerField(
        "Best evenings that count (empty: every one)",
        validators=[Optional(), not_huge, NumberRange(1, 366)],
        render_kw=NUMERIC,
    )
    min_evenings = IntegerField(
        "Evenings to be ranked",
        default=0,
        validators=[Optional(), not_huge, NumberRange(0, 366)],
        render_kw=NUMERIC,
    )

    def ladder(self) -> dict[str, Any]:
        """CONTRACT.md's ``ladder`` the form says."""
        out: dict[str, Any] = {"count": self.count.data, "min_evenings": self.min_evenings.data or 0}
        if self.best.data:
            out["best"] = self.best.data
        return out


class SeasonForm(CountingForm):
    """A new season: its name and period, and its counting."""

    name = StringField(
        "Name of the season",
        validators=[InputRequired("Give the season a name."), Length(max=MAX_SEASON_NAME)],
        render_kw={"maxlength": MAX_SEASON_NAME, "autocomplete": "off"},
    )
    starts = DateField("From", validators=[InputRequired("Give the season's first day.")])
    ends = DateField("To", validators=[InputRequired("Give the season's last day.")])


class PlanForm(FlaskForm):
    """An evening planned on a season's calendar: when, where, the rules and the table
    size; its name and notes if the owner likes (no entrants: they come on the night)."""

    key = HiddenField(default=_key)
    name = StringField(
        "Name (empty: the season's)",
        validators=[Optional(), Length(max=MAX_PLAN_NAME)],
        render_kw={"maxlength": MAX_PLAN_NAME, "autocomplete": "off"},
    )
    date = DateField("Date", validators=[InputRequired("Give the evening's date.")])
    time = TimeField(
        "Starts at", default=None, validators=[InputRequired("Give the time it starts (19:30).")]
    )
    place = StringField("Place", validators=[Optional(), Length(max=120)], render_kw={"maxlength": 120})
    rules = SelectField(
        "Rules", default="jersey-scarne", choices=choices((name, r.title) for name, r in PRESETS.items())
    )
    table_size = IntegerField(
        "Players at a table", default=3, validators=[InputRequired("Give the table size."), not_huge]
    )
    notes = TextAreaField(
        "Notes", validators=[Optional(), Length(max=MAX_NOTE)], render_kw={"rows": 2, "maxlength": MAX_NOTE}
    )

    def plan(self) -> dict[str, Any]:
        """CONTRACT.md's planned evening the form says (checked by the engine)."""
        return {
            "name": self.name.data or None,
            "date": self.date.data.isoformat() if self.date.data else "",
            "time": self.time.data.strftime("%H:%M") if self.time.data else "",
            "place": self.place.data or None,
            "rules": self.rules.data,
            "table_size": self.table_size.data,
            "notes": self.notes.data or None,
        }


class EventForm(FlaskForm):
    """A write naming one evening (it leaves the club, or joins a season)."""

    key = HiddenField(default=_key)
    event = SelectField("Evening", validate_choice=False, validators=[InputRequired("Choose an evening.")])


class LeaveForm(FlaskForm):
    """An evening leaves the club; ``season``: the season's page it was sent from."""

    key = HiddenField(default=_key)
    season = HiddenField()


__all__ = [
    "LADDER_COUNTS",
    "AttachForm",
    "CountingForm",
    "EventForm",
    "KeyForm",
    "LeaveForm",
    "LinkForm",
    "NewClubForm",
    "PlanForm",
    "SeasonForm",
    "SplitForm",
]
