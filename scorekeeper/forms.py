"""One form per screen (Flask-WTF, CSRF on), and the translation between forms and
CONTRACT.md objects.

The forms only check what a form can know (a name is given, a count is a number);
every rule of the game is the engine's, and an engine error is put back on the
field its ``where`` points at, with the engine's own message.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from flask_wtf import FlaskForm as _FlaskForm  # type: ignore[import-untyped]
from wtforms import (
    BooleanField,
    DecimalField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from . import engine
from .web.cardfaces import ALL_CODES, RANKS

if TYPE_CHECKING:
    FlaskForm = Form  # Flask-WTF ships no types; its FlaskForm is a WTForms Form with CSRF
else:
    FlaskForm = _FlaskForm

ENDINGS = {
    "knock": "Knock",
    "gin": "Gin",
    "break": "Break",
    "draw": "Draw",
    "misdeal": "Misdeal",
}
NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
MAX_NAME = 40
BOX_PATH = re.compile(r"^boxes\[\d+\]\.?")


def choices(pairs: Iterable[tuple[Any, str]]) -> list[Any]:
    """WTForms choices from ``(value, label)`` pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


def add_error(field_: Field, message: str) -> None:
    """Attach a message to a field whether or not it has been validated yet."""
    field_.errors = [*field_.errors, message]


# --- a new game ---------------------------------------------------------------------------


def _name_ok(_form: Form, name_field: Field) -> None:
    name = (name_field.data or "").strip()
    if name and not name.isprintable():
        raise ValidationError("A name may not contain control characters.")


class NewGameForm(FlaskForm):
    """Start a game: rule set, house rules, players in seat order, first dealer, stake."""

    rules = HiddenField()
    players = FieldList(
        StringField("Name", validators=[Optional(), Length(max=MAX_NAME), _name_ok],
                    render_kw={"autocomplete": "off", "maxlength": MAX_NAME,
                               "autocapitalize": "words"}),
        min_entries=2,
    )
    dealer = RadioField("First dealer", coerce=int, default=0, validate_choice=False)
    stake = DecimalField("Stake per point (money, optional)", places=None,
                         validators=[Optional(), NumberRange(min=0, max=10000)],
                         render_kw={"inputmode": "decimal", "autocomplete": "off"})
    cuts = FieldList(SelectField("Cut", choices=choices([("", "–"), *((r, r) for r in RANKS)]),
                                 validate_choice=False), min_entries=0)
    cut_receives = RadioField("High card takes the discards of", coerce=int,
                              validate_choice=False)

    setting_names: tuple[str, ...] = ()

    def names(self) -> list[str]:
        """The players' names as entered, blanks dropped, seat order kept."""
        return [(entry.data or "").strip() for entry in self.players
                if (entry.data or "").strip()]

    def setting_fields(self) -> list[tuple[Any, Field]]:
        """``(Setting, field)`` for every setting, in the engine's order."""
        by_name = {s.name: s for s in engine.SETTINGS}
        return [(by_name[name], self[f"setting_{name}"]) for name in self.setting_names]


@functools.cache
def new_game_form_class(preset: str) -> type[NewGameForm]:
    """The new-game form for one preset: a field per setting, preset values as defaults."""
    rules = engine.find_rules(preset)
    attributes: dict[str, Any] = {
        "players": FieldList(NewGameForm.players.args[0], min_entries=rules.max_players,
                             max_entries=rules.max_players),
        "cuts": FieldList(NewGameForm.cuts.args[0], min_entries=rules.max_players,
                          max_entries=rules.max_players),
        "setting_names": tuple(s.name for s in engine.SETTINGS),
    }
    for setting in engine.SETTINGS:
        attributes[f"setting_{setting.name}"] = _setting_field(setting,
                                                               getattr(rules, setting.name))
    return type(f"NewGameForm_{preset.replace('-', '_')}", (NewGameForm,), attributes)


def _setting_field(setting: Any, value: Any) -> Field:
    """The input that suits a setting: yes/no, a choice, a number or a blank-able number."""
    label = setting.name.replace("_", " ")
    if setting.kind is bool:
        return SelectField(label, choices=choices([("true", "yes"), ("false", "no")]),
                           default="true" if value else "false")
    if setting.name == "shutout":
        return StringField(label, default=str(value), validators=[Length(max=12)],
                           render_kw={"list": "shutout-choices", "autocomplete": "off"})
    if setting.choices:
        return SelectField(label, choices=choices((c, c) for c in setting.choices), default=value)
    if setting.nullable:
        return StringField(label, default="" if value is None else str(value),
                           validators=[Length(max=6)], render_kw=NUMERIC)
    return IntegerField(label, default=value, render_kw=NUMERIC,
                        validators=[InputRequired("Give a number."),
                                    NumberRange(setting.minimum, setting.maximum)])


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
        return int(text)
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
        name = (entry.data or "").strip()
        if name and folded.count(name.casefold()) > 1:
            add_error(entry, "Two players have this name.")
            ok = False
    settings: dict[str, Any] = {}
    for setting, setting_field in form.setting_fields():
        try:
            value = setting_value(setting, setting_field.data)
        except ValueError as err:
            add_error(setting_field, str(err))
            ok = False
            continue
        if value != getattr(rules, setting.name):
            settings[setting.name] = value
    if not ok:
        return None
    seats = [i for i, entry in enumerate(form.players) if (entry.data or "").strip()]
    dealer_seat = form.dealer.data if form.dealer.data in seats else seats[0]
    dealer = (form.players[dealer_seat].data or "").strip()
    names = _seat_by_cut(form, names, dealer)
    game: dict[str, Any] = {"rules": rules.name, "settings": settings, "players": names,
                            "dealer": dealer}
    if form.stake.data is not None and form.stake.data > 0:
        game["stake"] = float(form.stake.data)
    return game


def _seat_by_cut(form: NewGameForm, names: list[str], dealer: str) -> list[str]:
    """J1: the high card picks whose discards he takes: that player sits at his right,
    so he comes just before the dealer in seat order."""
    chosen = form.cut_receives.data
    if chosen is None or not 0 <= chosen < len(form.players) or len(names) != 3:
        return names
    receives = (form.players[chosen].data or "").strip()
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


# --- a box --------------------------------------------------------------------------------


class HandForm(Form):
    """One player's hand: a count, or the cards tapped on the grid."""

    count = IntegerField("Count", validators=[Optional(), NumberRange(0, 98)],
                         render_kw=NUMERIC)
    cards = SelectMultipleField("Cards", choices=choices((c, c) for c in ALL_CODES))
    keep = SelectMultipleField("Layoffs", validate_choice=False)
    proposal = HiddenField()


class BoxForm(FlaskForm):
    """Record or correct a box (also the showdown form of "settle a showdown")."""

    version = HiddenField()
    key = HiddenField()
    ending = RadioField("Ending", choices=choices(ENDINGS.items()), default="knock")
    by = RadioField("Who", validate_choice=False)
    after_break = BooleanField("After the break (J13)")
    second_round = BooleanField("Play went on round the table after the break (J11)")
    upcard = StringField("First upcard", validators=[Optional(), Length(max=4)],
                         render_kw={"autocomplete": "off", "autocapitalize": "characters",
                                    "placeholder": "e.g. 7S"})
    multiplier = IntegerField("Doubled ×", validators=[Optional(), NumberRange(1, 1024)],
                              render_kw=NUMERIC)
    note = StringField("Note", validators=[Optional(), Length(max=200)],
                       render_kw={"autocomplete": "off"})
    hands = FieldList(FormField(HandForm))

    players: Sequence[str] = ()


@functools.cache
def _box_form_class(n: int) -> type[BoxForm]:
    return type(f"BoxForm{n}", (BoxForm,), {
        "hands": FieldList(FormField(HandForm), min_entries=n, max_entries=n),
    })


def box_form(players: Sequence[str], formdata: Any = None,
             data: Mapping[str, Any] | None = None) -> BoxForm:
    """The box form for these players (``formdata`` on POST, ``data`` to prefill)."""
    form = _box_form_class(len(players))(formdata=formdata, data=data)
    form.players = tuple(players)
    form.by.choices = choices((name, name) for name in players)
    if not form.key.data:
        form.key.data = secrets.token_urlsafe(16)
    return form


def proposal_signature(form: BoxForm) -> str:
    """What an arrangement proposal depends on: the ending, who, and every hand's cards."""
    hands = [sorted(hand.form.cards.data or []) for hand in form.hands]
    raw = json.dumps([form.ending.data, form.by.data, hands], sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


@dataclass
class Proposal:
    """The melds and layoffs the engine proposed for one hand, with those kept."""

    melds: list[list[str]]
    layoffs: list[dict[str, Any]]
    declared: bool = False
    signature: str = ""
    kept: set[str] = field(default_factory=set)

    @staticmethod
    def layoff_id(layoff: Mapping[str, Any]) -> str:
        return f"{layoff['card']}>{layoff['onto']}>{layoff.get('meld', '')}"

    def to_json(self) -> str:
        return json.dumps({"melds": self.melds, "layoffs": self.layoffs,
                           "declared": self.declared, "sig": self.signature})

    @classmethod
    def read(cls, raw: str | None, keep: Sequence[str], signature: str) -> Proposal | None:
        """The proposal a hand's hidden field carries, if it is for these cards."""
        if not raw:
            return None
        try:
            data = json.loads(raw)
            proposal = cls(melds=[[str(c) for c in meld] for meld in data["melds"]],
                           layoffs=[dict(lay) for lay in data["layoffs"]],
                           declared=bool(data.get("declared")), signature=str(data["sig"]),
                           kept=set(keep))
        except (ValueError, KeyError, TypeError):
            return None
        return proposal if proposal.signature == signature else None

    def all_kept(self) -> bool:
        return self.kept == {self.layoff_id(lay) for lay in self.layoffs}

    def declared_hand(self, cards: Sequence[str]) -> dict[str, Any]:
        """The declared form (CONTRACT.md): the proposed melds and the layoffs kept."""
        layoffs = [lay for lay in self.layoffs if self.layoff_id(lay) in self.kept]
        placed = [card for meld in self.melds for card in meld] + [lay["card"] for lay in layoffs]
        deadwood = [card for card in cards if card not in placed]
        return {"melds": self.melds, "deadwood": deadwood, "layoffs": layoffs}


def box_from_form(form: BoxForm) -> dict[str, Any] | None:
    """The CONTRACT.md box the form describes, or None with errors on the fields."""
    players = form.players
    ending = form.ending.data
    entry: dict[str, Any] = {"ending": ending}
    ok = True
    if ending in ("knock", "gin", "break"):
        if form.by.data not in players:
            role = {"knock": "knocked", "gin": "went gin", "break": "was the breaker"}[ending]
            add_error(form.by, f"Tap who {role}.")
            ok = False
        else:
            entry["by"] = form.by.data
    if ending == "gin" and form.after_break.data:
        entry["after_break"] = True
    if ending == "break" and form.second_round.data:
        entry["second_round"] = True
    if form.upcard.data and form.upcard.data.strip():
        entry["upcard"] = form.upcard.data.strip().upper()
    if form.multiplier.data not in (None, 1):
        entry["multiplier"] = form.multiplier.data
    if form.note.data and form.note.data.strip():
        entry["note"] = form.note.data.strip()
    if ending in ("draw", "misdeal"):
        return entry if ok else None
    signature = proposal_signature(form)
    hands: dict[str, Any] = {}
    for player, hand_entry in zip(players, form.hands, strict=True):
        hand = hand_entry.form
        cards = [code for code in ALL_CODES if code in set(hand.cards.data or [])]
        if cards:
            proposal = Proposal.read(hand.proposal.data, hand.keep.data or [], signature)
            if proposal is not None and (proposal.declared or not proposal.all_kept()):
                hands[player] = proposal.declared_hand(cards)
            else:
                hands[player] = {"cards": cards}
        elif hand.count.data is not None:
            hands[player] = {"count": hand.count.data}
        elif ending == "gin" and player == entry.get("by"):
            hands[player] = {"count": 0}
        elif not hand.count.errors:
            add_error(hand.count, f"Enter {player}'s count or tap {player}'s cards.")
            ok = False
    entry["hands"] = hands
    return entry if ok else None


def box_form_data(entry: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """Form data that shows a stored box again (to correct it)."""
    hands = entry.get("hands") or {}
    rows: list[dict[str, Any]] = []
    for player in players:
        hand = hands.get(player) or {}
        if "cards" in hand:
            rows.append({"cards": list(hand["cards"]), "count": None})
        elif "melds" in hand or "deadwood" in hand:
            cards = ([c for meld in hand.get("melds", []) for c in meld]
                     + [lay["card"] for lay in hand.get("layoffs", [])]
                     + list(hand.get("deadwood", [])))
            rows.append({"cards": cards, "count": None, "declared": hand})
        else:
            rows.append({"cards": [], "count": hand.get("count")})
    return {
        "ending": entry.get("ending", "knock"),
        "by": entry.get("by"),
        "after_break": bool(entry.get("after_break")),
        "second_round": bool(entry.get("second_round")),
        "upcard": entry.get("upcard") or "",
        "multiplier": entry.get("multiplier"),
        "note": entry.get("note") or "",
        "hands": [{"cards": row["cards"], "count": row["count"]} for row in rows],
        "_declared": [row.get("declared") for row in rows],
    }


def prefill_box_form(form: BoxForm, data: Mapping[str, Any]) -> None:
    """Carry declared hands of a stored box into proposals, so they stay as declared."""
    signature = proposal_signature(form)
    for hand_entry, declared in zip(form.hands, data.get("_declared", []), strict=False):
        if not declared:
            continue
        proposal = Proposal(melds=[list(m) for m in declared.get("melds", [])],
                            layoffs=[dict(lay) for lay in declared.get("layoffs", [])],
                            declared=True, signature=signature)
        hand_entry.form.proposal.data = proposal.to_json()
        hand_entry.form.keep.data = [Proposal.layoff_id(lay) for lay in proposal.layoffs]


def proposals(form: BoxForm, ruling: Mapping[str, Any] | None) -> dict[int, Proposal]:
    """For each hand entered with cards: the proposal to show (carried or new)."""
    signature = proposal_signature(form)
    shown: dict[int, Proposal] = {}
    ruled = (ruling or {}).get("hands") or {}
    for i, (player, hand_entry) in enumerate(zip(form.players, form.hands, strict=True)):
        hand = hand_entry.form
        if not hand.cards.data:
            continue
        carried = Proposal.read(hand.proposal.data, hand.keep.data or [], signature)
        if carried is not None:
            shown[i] = carried
            continue
        arranged = ruled.get(player)
        if arranged is None:
            continue
        layoffs = [dict(lay) for lay in arranged.get("layoffs", [])]
        shown[i] = Proposal(melds=[list(m) for m in arranged.get("melds", [])],
                            layoffs=layoffs, signature=signature,
                            kept={Proposal.layoff_id(lay) for lay in layoffs})
    return shown


def attach_engine_error(form: FlaskForm, error: Any, players: Sequence[str] = ()) -> str:
    """Put an engine error on the field its ``where`` names; returns the message.

    Errors the form has no field for stay in the form's own error list.
    """
    where = BOX_PATH.sub("", error.where or "")
    message = str(error.message)
    target = _field_for(form, where, players)
    if target is None:
        form.form_errors.append(message)
    else:
        add_error(target, message)
    return message


def _field_for(form: FlaskForm, where: str, players: Sequence[str]) -> Field | None:
    """The form field for an engine ``where`` path, if the form has one."""
    head = re.split(r"[.\[]", where, maxsplit=1)[0]
    if head == "hands" and isinstance(form, BoxForm):
        for i, player in sorted(enumerate(players), key=lambda p: -len(p[1])):
            if where == f"hands.{player}" or where.startswith(f"hands.{player}."):
                hand = form.hands[i].form
                by_count = where.endswith(".count") or not hand.cards.data
                return hand.count if by_count else hand.cards
        return None
    if head == "settings" and isinstance(form, NewGameForm):
        name = where.split(".", 1)[1] if "." in where else ""
        found_setting: Field | None = getattr(form, f"setting_{name}", None)
        return found_setting
    if head == "players" and isinstance(form, NewGameForm):
        match = re.match(r"players\[(\d+)\]", where)
        if match and int(match.group(1)) < len(form.players):
            return _nth_named(form, int(match.group(1)))
        return form.players
    if head in ("ending", "by", "upcard", "multiplier", "after_break", "second_round",
                "dealer", "stake") and head in form:
        found: Field = form[head]
        return found
    return None


def _nth_named(form: NewGameForm, n: int) -> Field:
    """The n-th non-blank name field (the engine counts only the names given)."""
    named = [entry for entry in form.players if (entry.data or "").strip()]
    return named[n] if n < len(named) else form.players


# --- disputes -----------------------------------------------------------------------------


class CheckForm(FlaskForm):
    """Check a hand: 10 or 11 cards tapped (or typed)."""

    class Meta:
        csrf = False  # a read-only question: GET, bookmarkable, nothing stored

    cards = SelectMultipleField("Cards", choices=choices((c, c) for c in ALL_CODES))
    typed = StringField("…or type them", validators=[Optional(), Length(max=120)],
                        render_kw={"autocomplete": "off", "autocapitalize": "characters",
                                   "placeholder": "AS 2S 3S 7H 7D 7C 9D 10D JD 4C"})
    rules = SelectField("Rules", default="jersey-scarne")


class ShowdownSetupForm(FlaskForm):
    """Settle a showdown, step one: the rule set and the players in seat order."""

    class Meta:
        csrf = False  # GET: only chooses what the showdown form shows

    rules = SelectField("Game", default="jersey-scarne")
    players = StringField("Players in seat order", default="Ann, Bob, Cal",
                          validators=[Length(max=5 * (MAX_NAME + 2))],
                          render_kw={"autocomplete": "off"})


def parse_names(text: str) -> list[str]:
    """Names separated by commas (what the showdown setup takes).

    >>> parse_names(" Ann, Bob ,,Cal ")
    ['Ann', 'Bob', 'Cal']
    """
    return [name.strip() for name in (text or "").split(",") if name.strip()]


def decimal_text(value: Decimal | float | None) -> str:
    return "" if value is None else format(value, "f")


class DeleteBoxForm(FlaskForm):
    """Delete a box: only the version seen and the idempotency key."""

    version = HiddenField()
    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
