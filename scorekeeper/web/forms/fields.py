"""What the forms of every screen share: the card grid, numbers, choices, errors.

Flask-WTF's ``FlaskForm`` (CSRF on) is a WTForms ``Form``; the forms only check what a
form can know (a name is given, a count is a number): every rule of the game is the
engine's.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask_wtf import FlaskForm as _FlaskForm  # type: ignore[import-untyped]
from markupsafe import Markup
from wtforms import Field, Form, SelectMultipleField
from wtforms.fields.choices import Choice, SelectChoice  # type: ignore[attr-defined]
from wtforms.form import BaseForm
from wtforms.validators import StopValidation, ValidationError
from wtforms.widgets import Select, html_params

from ... import engine
from ..cardfaces import ALL_CODES

if TYPE_CHECKING:
    FlaskForm = Form  # Flask-WTF ships no types; its FlaskForm is a WTForms Form with CSRF
else:
    FlaskForm = _FlaskForm

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
MAX_NAME = engine.MAX_NAME


def not_huge(_form: Form, number_field: Field) -> None:
    """Refuse numbers of many digits before NumberRange, which turns them into floats
    and would crash (a 400-digit count was a 500)."""
    if isinstance(number_field.data, int) and abs(number_field.data) > 10**9:
        raise StopValidation("That number is far too large.")


def choices(pairs: Iterable[tuple[Any, str]]) -> list[Any]:
    """WTForms choices from ``(value, label)`` pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


class Roster(Select):
    """WTForms' ``<select>`` for a list of an event's players: its options drawn once for
    the same players and choice, and kept (a few lists: the director's page shows the
    seated players and every entrant). A 300-table event's director page drew 3,600
    options (900 players in four lists), 60 % of the page (issue 34); the markup is
    WTForms' own, option by option."""

    def __call__(self, field: Any, **kwargs: Any) -> Markup:
        listed = field.choices or []
        if (
            self.multiple
            or field.coerce is not str
            or not all(
                isinstance(c, SelectChoice)
                and not c.render_kw
                and c.optgroup is None
                and isinstance(c.value, str)
                for c in listed
            )
        ):
            return Markup(super().__call__(field, **kwargs))
        kwargs.setdefault("id", field.id)
        flags = getattr(field, "flags", {})
        for k in dir(flags):
            if k in self.validation_attrs and k not in kwargs:
                kwargs[k] = getattr(flags, k)
        drawn = _options(tuple((c.value, c.label) for c in listed), field.data)
        return Markup(f"<select {html_params(name=field.name, **kwargs)}>{drawn}</select>")


@functools.lru_cache(maxsize=8)
def _options(listed: tuple[tuple[str, str], ...], chosen: object) -> str:
    """The options of a :class:`Roster`, each drawn by WTForms' ``Select.render_option``
    (selected as ``SelectField`` selects: its value is the field's data)."""
    return "".join(
        Select.render_option(Choice(value, label, value == chosen, {}))  # type: ignore[call-arg]
        for value, label in listed
    )


def add_error(field_: Field, message: str) -> None:
    """Attach a message to a field whether or not it has been validated yet."""
    field_.errors = [*field_.errors, message]


class CardsField(SelectMultipleField):
    """The cards tapped on a hand's grid, each one of the 52.

    The grid is drawn from the deck (``cardfaces.taps``), not from choices, and a tapped
    card is checked against a set: WTForms would copy and check 52 choices for every
    hand of every request, the slowest part of reading a box form.
    """

    CODES = frozenset(ALL_CODES)

    def pre_validate(self, form: BaseForm) -> None:
        unknown = sorted({str(code) for code in self.data or () if code not in self.CODES})
        if unknown and not self.process_errors:
            raise ValidationError(
                self.ngettext(
                    "'%(value)s' is not a valid choice for this field.",
                    "'%(value)s' are not valid choices for this field.",
                    len(unknown),
                )
                % {"value": "', '".join(unknown)}
            )
