"""Starting a game: the new-game form, its house-rule settings, and Scarne's cut (J1)."""

from __future__ import annotations

import functools
import re
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from wtforms import (
    DateTimeLocalField,
    DecimalField,
    Field,
    FieldList,
    Form,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)

from ... import engine
from ...engine.money import SYMBOLS
from ..cardfaces import RANKS
from .fields import MAX_NAME, NUMERIC, FlaskForm, add_error, choices, not_huge


def _name_ok(_form: Form, name_field: Field) -> None:
    name = (name_field.data or "").strip()
    if name and not name.isprintable():
        raise ValidationError("A name may not contain control characters.")


class NewGameForm(FlaskForm):
    """Start a game: rule set, house rules, players in seat order, first dealer, stake."""

    rules = HiddenField()
    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    """The form's idempotency key: a double tap starts one game."""
    players = FieldList(
        StringField(
            "Name",
            validators=[Optional(), Length(max=MAX_NAME), _name_ok],
            render_kw={"autocomplete": "off", "maxlength": MAX_NAME, "autocapitalize": "words"},
        ),
        min_entries=2,
    )
    dealer = RadioField("First dealer", coerce=int, default=0, validate_choice=False)
    stake = DecimalField(
        "Stake per point (money, optional)",
        places=None,
        validators=[Optional(), NumberRange(min=0, max=10000)],
        render_kw={"inputmode": "decimal", "autocomplete": "off"},
    )
    currency = StringField(
        "Currency (code or symbol, optional)",
        validators=[
            Optional(),
            Regexp(
                rf"^\s*([A-Za-z]{{3}}|{'|'.join(map(re.escape, SYMBOLS))})\s*$",
                message="Enter a three-letter currency code such as EUR or USD, or a symbol such as €.",
            ),
        ],
        render_kw={
            "maxlength": 3,
            "autocomplete": "off",
            "autocapitalize": "characters",
            "placeholder": "EUR",
        },
    )
    """The stake's currency, stored with the game and printed with every amount."""
    cuts = FieldList(
        SelectField("Cut", choices=choices([("", "–"), *((r, r) for r in RANKS)]), validate_choice=False),
        min_entries=0,
    )
    cut_receives = RadioField("High card takes the discards of", coerce=int, validate_choice=False)
    place = StringField(
        "Where",
        validators=[Optional(), Length(max=120), _name_ok],
        render_kw={"maxlength": 120, "autocomplete": "off"},
    )
    """Printed in the score sheet's header, as the table writes it."""
    started = DateTimeLocalField(
        "Play began", validators=[Optional()], format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"]
    )
    """The table's own clock (the phone's local time), printed in the sheet's header."""
    phone = StringField(
        "Your name",
        validators=[Optional(), Length(max=40), _name_ok],
        render_kw={"maxlength": 40, "autocomplete": "off"},
    )
    """Who keeps score on this phone: the game's history says "from Bo's phone"."""

    setting_names: tuple[str, ...] = ()

    def names(self) -> list[str]:
        """The players' names as entered, blanks dropped, seat order kept."""
        return [engine.player_name(entry.data or "") for entry in self.players if (entry.data or "").strip()]

    def setting_fields(self) -> list[tuple[Any, Field]]:
        """``(Setting, field)`` for every setting, in the engine's order."""
        by_name = {s.name: s for s in engine.SETTINGS}
        return [(by_name[name], self[f"setting_{name}"]) for name in self.setting_names]


GAME_ORDER = engine.PRESET_ORDER
"""The engine's order of presets (Jersey Gin first), which every form offers."""


def presets() -> list[engine.Rules]:
    """Every preset, in the order the new-game and showdown forms offer them."""
    return engine.ordered_presets()


@functools.cache
def new_game_form_class(preset: str) -> type[NewGameForm]:
    """The new-game form for one preset: a field per setting, preset values as defaults."""
    rules = engine.find_rules(preset)
    attributes: dict[str, Any] = {
        "players": FieldList(
            NewGameForm.players.args[0], min_entries=rules.max_players, max_entries=rules.max_players
        ),
        "cuts": FieldList(
            NewGameForm.cuts.args[0], min_entries=rules.max_players, max_entries=rules.max_players
        ),
        "setting_names": tuple(s.name for s in engine.SETTINGS),
    }
    for setting in engine.SETTINGS:
        attributes[f"setting_{setting.name}"] = setting_field(setting, getattr(rules, setting.name))
    return type(f"NewGameForm_{preset.replace('-', '_')}", (NewGameForm,), attributes)


class HouseRulesForm(FlaskForm):
    """Change a game's house rules after it started (scorers only): a field per
    setting, filled with the game's own values, and the version the change is based on."""

    version = HiddenField()
    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
    setting_names: tuple[str, ...] = ()

    def setting_fields(self) -> list[tuple[Any, Field]]:
        """``(Setting, field)`` for every setting, in the engine's order."""
        by_name = {s.name: s for s in engine.SETTINGS}
        return [(by_name[name], self[f"setting_{name}"]) for name in self.setting_names]


@functools.cache
def house_rules_form_class(preset: str) -> type[HouseRulesForm]:
    """The house-rules form of a preset's games (the fields of its new-game form)."""
    rules = engine.find_rules(preset)
    attributes: dict[str, Any] = {"setting_names": tuple(s.name for s in engine.SETTINGS)}
    for setting in engine.SETTINGS:
        attributes[f"setting_{setting.name}"] = setting_field(setting, getattr(rules, setting.name))
    return type(f"HouseRulesForm_{preset.replace('-', '_')}", (HouseRulesForm,), attributes)


def setting_form_data(rules: engine.Rules) -> dict[str, str]:
    """A rule set's values as the setting fields show them (to fill the form)."""
    data: dict[str, str] = {}
    for setting in engine.SETTINGS:
        value = getattr(rules, setting.name)
        key = f"setting_{setting.name}"
        if setting.kind is bool:
            data[key] = "true" if value else "false"
        else:
            data[key] = "" if value is None else str(value)
    return data


def setting_field(setting: Any, value: Any) -> Field:
    """The input that suits a setting: yes/no, a choice, a number or a blank-able number."""
    label = setting.name.replace("_", " ")
    if setting.kind is bool:
        return SelectField(
            label, choices=choices([("true", "yes"), ("false", "no")]), default="true" if value else "false"
        )
    if setting.name == "shutout":
        return StringField(
            label,
            default=str(value),
            validators=[Length(max=12)],
            render_kw={"list": "shutout-choices", "autocomplete": "off"},
        )
    if setting.choices:
        return SelectField(label, choices=choices((c, c) for c in setting.choices), default=value)
    if setting.nullable:
        return StringField(
            label, default="" if value is None else str(value), validators=[Length(max=6)], render_kw=NUMERIC
        )
    return IntegerField(
        label,
        default=value,
        render_kw=NUMERIC,
        validators=[InputRequired("Give a number."), not_huge, NumberRange(setting.minimum, setting.maximum)],
    )


def setting_value(setting: Any, raw: Any) -> Any:
    """A setting's value from its form field, in the type the engine wants.

    Raises ``ValueError`` with a message for the field.
    """
    if setting.kind is bool:
        return raw == "true"
    if setting.name == "shutout":
        text = str(raw or "").strip().lower()
        if text in ("double", "none"):
            return text
        if text.isdigit():
            return int(text)
        raise ValueError("Write double, none, or a number of points.")
    if setting.nullable:
        text = str(raw or "").strip()
        if not text:
            return None
        if not text.isdigit():
            raise ValueError("Give a whole number, or leave it empty.")
        number = int(text)
        low, high = setting.minimum, setting.maximum
        if (low is not None and number < low) or (high is not None and number > high):
            raise ValueError(f"Number must be between {low} and {high}.")
        return number
    return raw


def game_from_form(form: NewGameForm) -> dict[str, Any] | None:
    """The CONTRACT.md game (without boxes) the form describes, or None with errors set."""
    rules = engine.find_rules(form.rules.data or "")
    names = form.names()
    ok = True
    if len(names) < rules.min_players:
        add_error(form.players, f"{rules.title} needs at least {rules.min_players} players.")
        ok = False
    folded = [name.casefold() for name in names]
    for entry in form.players:
        name = engine.player_name(entry.data or "")
        if name and folded.count(name.casefold()) > 1:
            add_error(entry, "Two players have this name.")
            ok = False
    settings = settings_from_form(form, rules)
    if settings is None:
        ok = False
    if not ok:
        return None
    seats = [i for i, entry in enumerate(form.players) if (entry.data or "").strip()]
    dealer_seat = form.dealer.data if form.dealer.data in seats else seats[0]
    dealer = engine.player_name(form.players[dealer_seat].data or "")
    names = _seat_by_cut(form, names, dealer)
    game: dict[str, Any] = {"rules": rules.name, "settings": settings, "players": names, "dealer": dealer}
    if form.stake.data is not None and form.stake.data > 0:
        game["stake"] = float(form.stake.data)
    if form.currency.data and form.currency.data.strip():
        game["currency"] = form.currency.data.strip()  # the engine reads a code or a symbol
    if form.place.data and form.place.data.strip():
        game["place"] = " ".join(form.place.data.split())
    if form.started.data is not None:
        game["started"] = form.started.data.isoformat(timespec="minutes")
    return game


def _seat_by_cut(form: NewGameForm, names: list[str], dealer: str) -> list[str]:
    """J1: the high card picks whose discards he takes: that player sits at his right,
    so he comes just before the dealer in seat order."""
    chosen = form.cut_receives.data
    if chosen is None or not 0 <= chosen < len(form.players) or len(names) != 3:
        return names
    receives = engine.player_name(form.players[chosen].data or "")
    if receives not in names or receives == dealer:
        return names
    other = next(name for name in names if name not in (dealer, receives))
    return [dealer, other, receives]


@dataclass(frozen=True)
class CutResult:
    """Scarne's cut (J1): who cut high and deals first, or why to cut again."""

    dealer_seat: int | None
    message: str
    others: tuple[int, ...] = ()


def scarne_cut(form: NewGameForm) -> CutResult:
    """Read the cut cards and let the engine rule on them (J1)."""
    seats: dict[str, int] = {}
    cuts: dict[str, str] = {}
    for seat, (name_entry, cut_entry) in enumerate(zip(form.players, form.cuts, strict=False)):
        name = (name_entry.data or "").strip()
        if not name:
            continue
        if cut_entry.data not in RANKS:
            return CutResult(None, f"Pick the card {name} cut.")
        seats[name], cuts[name] = seat, cut_entry.data
    if len(cuts) != 3:
        return CutResult(None, "Scarne's cut is for three players: enter three names.")
    cut = engine.cut_for_deal(cuts)
    if cut.dealer is None:
        return CutResult(None, cut.explain() + ".")
    others = tuple(seats[name] for name in sorted(cut.low, key=lambda n: cut.ranks[n]))
    return CutResult(seats[cut.dealer], cut.explain() + ".", others)


def settings_from_form(form: Any, rules: Any) -> dict[str, Any] | None:
    """The settings that differ from the preset, or None with errors on the fields."""
    settings: dict[str, Any] = {}
    ok = True
    for setting, setting_field in form.setting_fields():
        if setting_field.errors:
            ok = False
            continue
        try:
            value = setting_value(setting, setting_field.data)
        except ValueError as err:
            add_error(setting_field, str(err))
            ok = False
            continue
        if value != getattr(rules, setting.name):
            settings[setting.name] = value
    return settings if ok else None


def decimal_text(value: Decimal | float | None) -> str:
    return "" if value is None else format(value, "f")
