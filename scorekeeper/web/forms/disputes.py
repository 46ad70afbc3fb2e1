"""The dispute screens: check a hand, and the setup of settling a showdown (its
showdown itself is a box form, ``box.py``)."""

from __future__ import annotations

import functools
from typing import Any

from wtforms import Field, IntegerField, SelectField, StringField
from wtforms.validators import Length, NumberRange, Optional

from ... import engine
from .fields import MAX_NAME, NUMERIC, CardsField, FlaskForm
from .game import setting_field


class CheckForm(FlaskForm):
    """Check a hand: 10 or 11 cards tapped (or typed), and the knock limit to judge by."""

    class Meta:
        csrf = False  # a read-only question: GET, bookmarkable, nothing stored

    cards = CardsField("Cards")
    typed = StringField(
        "…or type them",
        validators=[Optional(), Length(max=120)],
        render_kw={
            "autocomplete": "off",
            "autocapitalize": "characters",
            "placeholder": "AS 2S 3S 7H 7D 7C 9D 10D JD 4C",
        },
    )
    rules = SelectField("Rules", default="jersey-scarne")
    knock_limit = IntegerField(
        "House knock limit (optional)", validators=[Optional(), NumberRange(0, 98)], render_kw=NUMERIC
    )
    upcard = StringField(
        "First upcard (Oklahoma)",
        validators=[Optional(), Length(max=4)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "placeholder": "e.g. 7S"},
    )


class ShowdownSetupForm(FlaskForm):
    """Settle a showdown, step one: the rule set, its house rules, the players in seat
    order and the dealer."""

    class Meta:
        csrf = False  # GET: only chooses what the showdown form shows

    rules = SelectField("Game", default="jersey-scarne")
    players = StringField(
        "Players in seat order",
        default="Ann, Bob, Cal",
        validators=[Length(max=5 * (MAX_NAME + 2))],
        render_kw={"autocomplete": "off"},
    )
    dealer = SelectField("Dealer", validate_choice=False)

    setting_names: tuple[str, ...] = ()

    def setting_fields(self) -> list[tuple[Any, Field]]:
        """``(Setting, field)`` for every setting, in the engine's order."""
        by_name = {s.name: s for s in engine.SETTINGS}
        return [(by_name[name], self[f"setting_{name}"]) for name in self.setting_names]


@functools.cache
def _showdown_setup_class(preset: str) -> type[ShowdownSetupForm]:
    rules = engine.find_rules(preset)
    attributes: dict[str, Any] = {"setting_names": tuple(s.name for s in engine.SETTINGS)}
    for setting in engine.SETTINGS:
        attributes[f"setting_{setting.name}"] = setting_field(setting, getattr(rules, setting.name))
    return type(f"ShowdownSetup_{preset.replace('-', '_')}", (ShowdownSetupForm,), attributes)


def showdown_setup_form(preset: str, args: Any) -> ShowdownSetupForm:
    """The setup form of "settle a showdown" for a preset, read from the query."""
    form = _showdown_setup_class(preset)(args)
    form.rules.data = preset
    return form


def parse_names(text: str) -> list[str]:
    """Names separated by commas (what the showdown setup takes).

    >>> parse_names(" Ann, Bob ,,Cal ")
    ['Ann', 'Bob', 'Cal']
    """
    return [engine.player_name(name) for name in (text or "").split(",") if name.strip()]
