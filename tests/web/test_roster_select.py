"""The director's player lists (forms.fields.Roster, issue 34): WTForms' own markup,
option by option, drawn once for the same players and choice."""

from __future__ import annotations

import pytest
from wtforms import Form, SelectField

from scorekeeper.web.forms import fields
from scorekeeper.web.forms.fields import Roster, choices

NAMES = ["Ann", "Bob <b>", 'Cé"l', "Dee & co", "أحمد", ""]


class Both(Form):
    plain = SelectField("Player", validate_choice=False, id="p")
    roster = SelectField("Player", validate_choice=False, id="p", widget=Roster())


@pytest.mark.parametrize("chosen", [None, "Ann", "Bob <b>", "Dee & co", "", "nobody"])
def test_a_roster_draws_what_wtforms_draws(chosen: str | None) -> None:
    form = Both()
    for field in (form.plain, form.roster):
        field.choices = choices((n, n or "(none)") for n in NAMES)
        field.data = chosen
    plain = str(form.plain(aria_describedby="hint")).replace('name="plain"', 'name="roster"')
    assert str(form.roster(aria_describedby="hint")) == plain
    assert plain.count("<option") == len(NAMES)


def test_the_same_players_are_drawn_once() -> None:
    fields._options.cache_clear()
    form = Both()
    form.roster.choices = choices((n, n) for n in NAMES)
    first = str(form.roster())
    again = Both()
    again.roster.choices = choices((n, n) for n in NAMES)
    assert str(again.roster()) == first
    assert fields._options.cache_info().hits == 1
    again.roster.data = "Ann"  # another choice: drawn again, with Ann selected
    assert '<option selected value="Ann">' in str(again.roster())
    assert fields._options.cache_info().misses == 2
