"""Starting a club night, and the director's forms between rounds: the new-event form
(name, date, place, the rule set with its house rules, table size, rounds, how a round
ends, how standings count, tie-breaks, the entrants typed or pasted one a line), late
entries and withdrawals, seat swaps, closing a round, penalties and replacing a player.

The forms check what a form can know; the event itself is checked by the engine
(:meth:`EventEntry.from_json`), whose error is put back on the field its ``where``
names, with the engine's own message.
"""

from __future__ import annotations

import datetime
import functools
import re
import secrets
from typing import Any

from wtforms import (
    BooleanField,
    DateField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ... import engine
from ...engine import vocabulary
from ...engine.contract.club import PlanEntry
from ...engine.event import MAX_ENTRANTS, MAX_EVENT_NAME, MAX_ROUNDS, EventEntry
from ...engine.movement import table_sizes
from .fields import NUMERIC, FlaskForm, Roster, add_error, choices, not_huge
from .game import setting_field, settings_from_form

ROUND_ENDS = (
    ("game", "Each game to its own end"),
    ("boxes", "After a number of boxes"),
    ("minutes", "After a time limit (minutes)"),
)
COUNTS = (
    ("net", "Net: the sum of each player's settlements"),
    ("placings", "Placings: points by place at the table, ties shared"),
)
TIE_BREAK_WORDS = vocabulary.TIE_BREAK_WORDS
TIE_BREAK_SHORT = vocabulary.TIE_BREAK_SHORT


class NewEventForm(FlaskForm):
    """Start an event: what, when and where, the rules, the shape of the evening, and
    who plays."""

    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    rules = HiddenField()
    name = StringField(
        "Name of the event",
        validators=[InputRequired("Give the event a name."), Length(max=MAX_EVENT_NAME)],
        render_kw={"maxlength": MAX_EVENT_NAME, "autocomplete": "off"},
    )
    date = DateField("Date", validators=[Optional()], default=datetime.date.today)
    place = StringField(
        "Place", validators=[Optional(), Length(max=120)], render_kw={"maxlength": 120, "autocomplete": "off"}
    )
    table_size = IntegerField(
        "Players at a table",
        validators=[InputRequired("Give the number of players at a table."), not_huge],
        render_kw=NUMERIC,
    )
    rounds = IntegerField(
        "Rounds",
        default=3,
        validators=[InputRequired("Give the number of rounds."), not_huge, NumberRange(1, MAX_ROUNDS)],
        render_kw=NUMERIC,
    )
    round_ends = RadioField("A round ends", choices=choices(ROUND_ENDS), default="game")
    round_limit = IntegerField("Boxes or minutes", validators=[Optional(), not_huge], render_kw=NUMERIC)
    standings = RadioField("Standings count", choices=choices(COUNTS), default="net")
    tie_break_1 = SelectField("First tie-break", default="won", choices=choices(TIE_BREAK_WORDS.items()))
    tie_break_2 = SelectField("Second tie-break", default="boxes", choices=choices(TIE_BREAK_WORDS.items()))
    tie_break_3 = SelectField(
        "Third tie-break", default="head_to_head", choices=choices(TIE_BREAK_WORDS.items())
    )
    club = SelectField("The club it belongs to", default="", validate_choice=False)
    """One of the clubs this phone owns, or none (issue 36): its entrants are then
    matched to the club's members."""
    plan = HiddenField()
    """The club's planned evening this event is (issue 36): it points at the event once
    started."""
    entrants = TextAreaField(
        "Entrants, one a line",
        validators=[InputRequired("Enter the players, one name a line.")],
        render_kw={"rows": 9, "autocapitalize": "words", "autocomplete": "off", "spellcheck": "false"},
    )

    setting_names: tuple[str, ...] = ()

    def setting_fields(self) -> list[tuple[Any, Field]]:
        """``(Setting, field)`` for every setting, in the engine's order."""
        by_name = {s.name: s for s in engine.SETTINGS}
        return [(by_name[name], self[f"setting_{name}"]) for name in self.setting_names]

    def tie_break_fields(self) -> list[Field]:
        return [self.tie_break_1, self.tie_break_2, self.tie_break_3]


@functools.cache
def new_event_form_class(preset: str) -> type[NewEventForm]:
    """The new-event form for one preset: a field per house rule, the preset's values
    as defaults, its table size as the default size."""
    rules = engine.find_rules(preset)
    attributes: dict[str, Any] = {"setting_names": tuple(s.name for s in engine.SETTINGS)}
    for setting in engine.SETTINGS:
        attributes[f"setting_{setting.name}"] = setting_field(setting, getattr(rules, setting.name))
    size = rules.usual_table_size
    attributes["table_size"] = IntegerField(
        "Players at a table",
        default=size,
        render_kw=NUMERIC,
        validators=[InputRequired("Give the number of players at a table."), not_huge],
    )
    return type(f"NewEventForm_{preset.replace('-', '_')}", (NewEventForm,), attributes)


def fill_from_plan(form: NewEventForm, club_id: str, plan_id: int, plan: PlanEntry) -> None:
    """The new-event form filled from a club's planned evening: its name, date, place,
    table size and club (the rules are the form's preset already); the entrants are
    the night's."""
    form.name.data = plan.name or form.name.data
    form.date.data = plan.day
    form.place.data = plan.place or ""
    form.table_size.data = plan.table_size
    form.club.data = club_id
    form.plan.data = str(plan_id)


def event_from_form(form: NewEventForm) -> EventEntry | None:
    """The event the form describes, checked by the engine; None with the errors put
    on their fields."""
    rules = engine.find_rules(form.rules.data or "jersey-scarne")
    settings = settings_from_form(form, rules)
    ties = [f.data for f in form.tie_break_fields()]
    ok = settings is not None
    for field_ in form.tie_break_fields()[1:]:
        if ties.count(field_.data) > 1:
            add_error(
                field_,
                f"{TIE_BREAK_WORDS.get(field_.data or '', 'This')} is "
                "already an earlier tie-break: pick each once.",
            )
            ok = False
    kind = form.round_ends.data or "game"
    if kind != "game" and not form.round_limit.data:
        add_error(form.round_limit, "Give the number of boxes or minutes a round lasts.")
        ok = False
    if not ok:
        return None
    data: dict[str, Any] = {
        "name": form.name.data or "",
        "rules": rules.name,
        "settings": settings,
        "table_size": form.table_size.data,
        "rounds": form.rounds.data,
        "round_ends": {"game": True} if kind == "game" else {kind: form.round_limit.data},
        "standings": form.standings.data,
        "tie_breaks": ties,
        "entrants": form.entrants.data or "",
    }
    if form.date.data is not None:
        data["date"] = form.date.data.isoformat()
    if form.place.data and form.place.data.strip():
        data["place"] = " ".join(form.place.data.split())
    try:
        return EventEntry.from_json(data)
    except engine.ScorekeeperError as err:
        attach_event_error(form, err)
        return None


def attach_event_error(form: NewEventForm, error: engine.ScorekeeperError) -> None:
    """Put the engine's message on the field its ``where`` names (an entrant's line is
    named by its number, counted as typed, blank lines aside)."""
    where = error.where or ""
    head = re.split(r"[.\[]", where, maxsplit=1)[0]
    message = str(error.message)
    if head == "settings":
        name = where.split(".", 1)[1] if "." in where else ""
        target = getattr(form, f"setting_{name}", None)
    elif head == "round_ends":
        target = form.round_limit if "." in where else form.round_ends
    elif head == "tie_breaks":
        target = form.tie_break_1
    elif head in ("name", "date", "place", "rules", "table_size", "rounds", "standings", "entrants"):
        target = form[head]
    else:
        target = None
    if target is None:
        form.form_errors.append(message)
    else:
        add_error(target, message)


def seating_words(preset: str, size: object, entrants: str) -> str:
    """What the entrants typed so far make of a round, by the engine's seating arithmetic
    (the new-event form shows it as they are typed, and again after a refused submit).

    >>> seating_words("jersey-scarne", "3", "Ann\\nBob\\nCal\\nDee")
    '4 players: 1 table, 1 bye'
    >>> seating_words("jersey-scarne", 3, "Ann")
    '1 player: not enough for a table of 3'
    """
    rules = engine.find_rules(preset if preset in engine.PRESETS else "jersey-scarne")
    seats = size if isinstance(size, int) else int(size) if isinstance(size, str) and size.isdigit() else 0
    seats = seats if rules.min_players <= seats <= rules.max_players else rules.min_players
    players = len(set(entrant_names(entrants)[:MAX_ENTRANTS]))
    if not players:
        return ""
    sizes = table_sizes(players, seats, rules.min_players, rules.max_players)
    said = f"{players} player{'s' if players != 1 else ''}"
    if not sizes:
        return f"{said}: not enough for a table of {rules.min_players}"
    byes = players - sum(sizes)
    tables = f"{len(sizes)} table{'s' if len(sizes) != 1 else ''}"
    return f"{said}: {tables}" + (f", {byes} bye{'s' if byes != 1 else ''}" if byes else ", no bye")


def entrant_names(text: str) -> list[str]:
    """Names typed or pasted one a line (blank lines skipped, spaces collapsed); every
    one of them (the form refuses more than an event takes: none is dropped)."""
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


class ChangeEntrantsForm(FlaskForm):
    """Between rounds: late entries (one a line) and withdrawals."""

    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    add = TextAreaField(
        "Late entries, one a line",
        validators=[Optional()],
        render_kw={"rows": 3, "autocapitalize": "words", "autocomplete": "off"},
    )
    withdraw = StringField(
        "Withdraw (a name)", validators=[Optional(), Length(max=80)], render_kw={"autocomplete": "off"}
    )

    def validate_add(self, field: TextAreaField) -> None:
        """More names than an event takes are refused, not cut (issue 33: the names
        past 1,000 of a paste were dropped without a word)."""
        count = len(entrant_names(field.data or ""))
        if count > MAX_ENTRANTS:
            raise ValidationError(
                f"{count} late entries: an event takes {MAX_ENTRANTS} entrants at most. Nothing was entered."
            )


class SwapForm(FlaskForm):
    """Before a round starts: two players change seats."""

    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    first = SelectField("Player", validate_choice=False, widget=Roster())
    second = SelectField("Changes seats with", validate_choice=False, widget=Roster())


class CloseRoundForm(FlaskForm):
    """Close the round; ``force`` ends the tables still playing by agreement."""

    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    round = HiddenField()
    force = BooleanField("End the tables still playing by agreement, as they stand")


class PenaltyForm(FlaskForm):
    """The director takes points from a player, with the reason."""

    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    player = SelectField("Player", validate_choice=False, id="penalty-player", widget=Roster())
    points = IntegerField(
        "Points",
        validators=[InputRequired("Give the points taken."), not_huge, NumberRange(1, 100_000)],
        render_kw=NUMERIC,
    )
    note = StringField(
        "Why",
        validators=[InputRequired("Say why: it is kept with the penalty."), Length(max=300)],
        render_kw={"autocomplete": "off"},
    )


class ReplaceForm(FlaskForm):
    """The director puts another player in a seat (one who left mid-game)."""

    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    player = SelectField("Player who leaves", validate_choice=False, id="replace-player", widget=Roster())
    by = StringField(
        "Replaced by",
        validators=[InputRequired("Name the new player."), Length(max=80)],
        render_kw={"autocomplete": "off", "autocapitalize": "words"},
    )
    counts_for = RadioField(
        "Mid-game, the seat's result counts for",
        choices=choices([("player", "the player who leaves"), ("by", "the new player")]),
        default="player",
        id="replace-counts-for",
    )


class FindSeatForm(FlaskForm):
    """A player finds their seat and rank by name (a GET: no CSRF token needed)."""

    class Meta:
        csrf = False

    name = StringField(
        "Your name",
        validators=[Optional(), Length(max=80)],
        render_kw={"autocomplete": "name", "autocapitalize": "words"},
    )
