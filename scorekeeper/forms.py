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
from werkzeug.datastructures import MultiDict
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
from wtforms.form import BaseForm
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)

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
MAX_NAME = engine.MAX_NAME
BOX_PATH = re.compile(r"^boxes\[\d+\]\.?")


def _not_huge(_form: Form, number_field: Field) -> None:
    """Refuse numbers of many digits before NumberRange, which turns them into floats
    and would crash (a 400-digit count was a 500)."""
    if isinstance(number_field.data, int) and abs(number_field.data) > 10**9:
        raise StopValidation("That number is far too large.")


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
        return [engine.player_name(entry.data or "") for entry in self.players
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
                        validators=[InputRequired("Give a number."), _not_huge,
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


# --- a box --------------------------------------------------------------------------------


class CardsField(SelectMultipleField):
    """The cards tapped on a hand's grid, each one of the 52.

    The grid is drawn from the deck (``card_rows``), not from choices, and a tapped
    card is checked against a set: WTForms would copy and check 52 choices for every
    hand of every request, the slowest part of reading a box form.
    """

    CODES = frozenset(ALL_CODES)

    def pre_validate(self, form: BaseForm) -> None:
        unknown = sorted({str(code) for code in self.data or () if code not in self.CODES})
        if unknown and not self.process_errors:
            raise ValidationError(self.ngettext(
                "'%(value)s' is not a valid choice for this field.",
                "'%(value)s' are not valid choices for this field.",
                len(unknown)) % {"value": "', '".join(unknown)})


class HandForm(Form):
    """One player's hand: a count, or the cards tapped on the grid (and, once the engine
    has proposed an arrangement, the meld split and the layoffs the player chose)."""

    count = IntegerField("Count", validators=[Optional(), _not_huge, NumberRange(0, 98)],
                         render_kw=NUMERIC)
    cards = CardsField("Cards")
    keep = SelectMultipleField("Layoffs", validate_choice=False)
    split = StringField("Melds", validators=[Optional(), Length(max=200)])
    proposal = HiddenField()


class BoxForm(FlaskForm):
    """Record or correct a box (also the showdown form of "settle a showdown")."""

    class Meta:
        # CSRFProtect checks every form POST before the view; the form's own token field
        # would sign a fresh token on each POST only to be thrown away (about 3 % of
        # recording a box). The template writes the token itself (csrf_token()).
        csrf = False

    version = HiddenField()
    key = HiddenField()
    ending = RadioField("Ending", choices=choices(ENDINGS.items()), default="knock")
    by = RadioField("Who", validate_choice=False)
    after_break = BooleanField("After the break (J13)")
    second_round = BooleanField("Play went on round the table after the break (J11)")
    upcard = StringField("First upcard", validators=[Optional(), Length(max=4)],
                         render_kw={"autocomplete": "off", "autocapitalize": "characters",
                                    "placeholder": "e.g. 7S"})
    multiplier = IntegerField("Doubled ×", validators=[Optional(), _not_huge,
                                                       NumberRange(1, 1024)],
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
    """The box form for these players (``formdata`` on POST, ``data`` to prefill).

    Every hand's count key is made present, so a hand the request left out stays that
    player's (WTForms would otherwise hand the next player's fields to the first).
    """
    if formdata is not None:
        formdata = MultiDict(formdata)
        for index in range(len(players)):
            formdata.setdefault(f"hands-{index}-count", "")
    form = _box_form_class(len(players))(formdata=formdata, data=data)
    form.players = tuple(players)
    form.by.choices = choices((name, name) for name in players)
    if not form.key.data:
        form.key.data = secrets.token_urlsafe(16)
    return form


# --- meld splits and layoffs (C8) ---------------------------------------------------------

AUTO = ""
"""The split value meaning "the proposal as shown" (the engine's, or the stored one)."""
NO_MELDS = "-"


def split_key(melds: Iterable[Iterable[str]]) -> str:
    """A meld split as one form value, the same whatever the order of the melds:
    ``2S.3S.4S|7C.7D.7H`` (``-`` for no melds).

    >>> split_key([["7C", "7D", "7H"], ["AS", "2S", "3S"]])
    '7C.7D.7H|AS.2S.3S'
    >>> read_split("7C.7D.7H|AS.2S.3S", ["AS", "2S", "3S", "7C", "7D", "7H", "9D"])
    [['7C', '7D', '7H'], ['AS', '2S', '3S']]
    >>> read_split("AS.2S.3S|3S.4S.5S", ["AS", "2S", "3S", "4S", "5S"]) is None
    True
    """
    key = "|".join(sorted(".".join(meld) for meld in melds))
    return key or NO_MELDS


def read_split(raw: str | None, cards: Sequence[str]) -> list[list[str]] | None:
    """The melds a split value names, if they are disjoint and all in ``cards``."""
    raw = (raw or "").strip().upper()
    if not raw:
        return None
    if raw == NO_MELDS:
        return []
    melds = [[card for card in part.split(".") if card] for part in raw.split("|")]
    used = [card for meld in melds for card in meld]
    if len(used) != len(set(used)) or not set(used) <= set(cards) or any(
            len(meld) < 3 for meld in melds):
        return None
    return melds


def proposal_signature(form: BoxForm, index: int) -> str:
    """What the proposal for hand ``index`` depends on: the ending, who, the upcard,
    every hand's cards, and the splits the *other* players chose (a new split of the
    knocker's changes what may be laid off on it; one's own split does not)."""
    hands = [sorted(hand.form.cards.data or []) for hand in form.hands]
    splits = [(hand.form.split.data or "") if i != index else None
              for i, hand in enumerate(form.hands)]
    raw = json.dumps([form.ending.data, form.by.data, (form.upcard.data or "").upper(),
                      hands, splits], sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


@dataclass
class SplitOption:
    """One way the player may have laid out his melds, as the page offers it."""

    key: str
    melds: list[list[str]]
    deadwood: list[str]
    count: int


@dataclass
class Proposal:
    """The melds and layoffs the engine proposed for one hand, with the player's choices:
    another meld split (C8), and the layoffs he kept."""

    melds: list[list[str]]
    layoffs: list[dict[str, Any]]
    declared: bool = False
    signature: str = ""
    kept: set[str] = field(default_factory=set)
    split: list[list[str]] | None = None
    options: list[SplitOption] = field(default_factory=list)
    auto: SplitOption | None = None

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
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        return proposal if proposal.signature == signature else None

    @property
    def shown_melds(self) -> list[list[str]]:
        """The melds the hand is laid out in: the chosen split, else the proposal's."""
        return self.proposal_melds if self.split is None else self.split

    @property
    def proposal_melds(self) -> list[list[str]]:
        return self.melds

    @property
    def chosen_key(self) -> str:
        """The split radio to tick: AUTO while the proposal's own melds are used."""
        if self.split is None or split_key(self.split) == split_key(self.melds):
            return AUTO
        return split_key(self.split)

    def open_layoffs(self) -> list[dict[str, Any]]:
        """The proposed layoffs still possible: their card is not in a chosen meld."""
        melded = {card for meld in self.shown_melds for card in meld}
        return [lay for lay in self.layoffs if lay.get("card") not in melded]

    def declared_hand(self, cards: Sequence[str]) -> dict[str, Any]:
        """The declared form (CONTRACT.md): the melds shown and the layoffs kept."""
        melds = self.shown_melds
        layoffs = [lay for lay in self.open_layoffs() if self.layoff_id(lay) in self.kept]
        placed = [card for meld in melds for card in meld] + [lay["card"] for lay in layoffs]
        deadwood = [card for card in cards if card not in placed]
        return {"melds": melds, "deadwood": deadwood, "layoffs": layoffs}


def _hand_cards(hand: HandForm) -> list[str]:
    picked = set(hand.cards.data or [])
    return [code for code in ALL_CODES if code in picked]


def checked_box(form: BoxForm) -> dict[str, Any] | None:
    """The form validated and read into a CONTRACT.md box, or None (errors on the fields)."""
    return box_from_form(form) if form.validate() else None


def box_from_form(form: BoxForm) -> dict[str, Any] | None:
    """The CONTRACT.md box the form describes, or None with errors on the fields.

    A hand given by cards is declared (melds, deadwood, layoffs) as soon as the page has
    shown a proposal for it, so what is stored is exactly what the preview showed; a
    hand whose cards were never previewed goes to the engine as cards (C9).
    """
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
    hands: dict[str, Any] = {}
    for index, (player, hand_entry) in enumerate(zip(players, form.hands, strict=True)):
        hand = hand_entry.form
        cards = _hand_cards(hand)
        if cards:
            hands[player] = _declared_or_cards(form, index, cards)
        elif hand.count.data is not None:
            hands[player] = {"count": hand.count.data}
        elif ending == "gin" and player == entry.get("by"):
            hands[player] = {"count": 0}
        elif not hand.count.errors:
            add_error(hand.count, f"Enter {player}'s count or tap {player}'s cards.")
            ok = False
    entry["hands"] = hands
    return entry if ok else None


def _declared_or_cards(form: BoxForm, index: int, cards: list[str]) -> dict[str, Any]:
    """One hand given by cards: as the player laid it out, or cards for the engine."""
    hand = form.hands[index].form
    split = read_split(hand.split.data, cards)
    proposal = Proposal.read(hand.proposal.data, hand.keep.data or [],
                             proposal_signature(form, index))
    if proposal is not None:
        proposal.split = split
        return proposal.declared_hand(cards)
    if split is not None:
        placed = {card for meld in split for card in meld}
        return {"melds": split, "deadwood": [c for c in cards if c not in placed],
                "layoffs": []}
    return {"cards": cards}


def declare_hands(entry: Mapping[str, Any], ruling: Mapping[str, Any]) -> dict[str, Any]:
    """The box with every hand given as cards replaced by the engine's layout of it
    (melds, deadwood, layoffs as the ruling shows them): what is stored."""
    ruled = ruling.get("hands") or {}
    hands: dict[str, Any] = {}
    for player, hand in (entry.get("hands") or {}).items():
        shown = ruled.get(player)
        if "cards" in hand and shown is not None:
            hands[player] = {"melds": [list(m) for m in shown.get("melds", [])],
                             "deadwood": list(shown.get("deadwood", [])),
                             "layoffs": [dict(lay) for lay in shown.get("layoffs", [])]}
        else:
            hands[player] = hand
    return {**entry, "hands": hands}


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
        "hands": [{"cards": row["cards"], "count": row["count"], "split": AUTO}
                  for row in rows],
        "_declared": [row.get("declared") for row in rows],
    }


def prefill_box_form(form: BoxForm, data: Mapping[str, Any]) -> None:
    """Carry declared hands of a stored box into proposals, so they stay as declared."""
    for index, (hand_entry, declared) in enumerate(
            zip(form.hands, data.get("_declared", []), strict=False)):
        if not declared:
            continue
        proposal = Proposal(melds=[list(m) for m in declared.get("melds", [])],
                            layoffs=[dict(lay) for lay in declared.get("layoffs", [])],
                            declared=True, signature=proposal_signature(form, index))
        hand_entry.form.proposal.data = proposal.to_json()
        hand_entry.form.keep.data = [Proposal.layoff_id(lay) for lay in proposal.layoffs]


def proposals(form: BoxForm, ruling: Mapping[str, Any] | None,
              rules: Any = None) -> dict[int, Proposal]:
    """For each hand entered with cards: the proposal to show (carried or new), with
    the meld splits the player may choose instead (C8)."""
    shown: dict[int, Proposal] = {}
    ruled = (ruling or {}).get("hands") or {}
    for i, (player, hand_entry) in enumerate(zip(form.players, form.hands, strict=True)):
        hand = hand_entry.form
        cards = _hand_cards(hand)
        if not cards:
            continue
        signature = proposal_signature(form, i)
        proposal = Proposal.read(hand.proposal.data, hand.keep.data or [], signature)
        if proposal is None:
            arranged = ruled.get(player)
            if arranged is None:
                continue
            layoffs = [dict(lay) for lay in arranged.get("layoffs", [])]
            proposal = Proposal(melds=[list(m) for m in arranged.get("melds", [])],
                                layoffs=layoffs, signature=signature,
                                kept={Proposal.layoff_id(lay) for lay in layoffs})
        proposal.split = read_split(hand.split.data, cards)
        if rules is not None:
            proposal.auto = _as_option(proposal.melds, cards, rules.ace_value)
            proposal.options = split_options(cards, _split_limit(form, player, ruling, rules),
                                             rules, proposal)
        shown[i] = proposal
    return shown


MAX_OPTIONS = 6


def _as_option(meld_codes: list[list[str]], cards: Sequence[str], ace_value: int) -> SplitOption:
    """The proposal's own split, shown like the alternatives (count before layoffs)."""
    placed = {card for meld in meld_codes for card in meld}
    deadwood = [card for card in cards if card not in placed]
    try:
        count = sum(card.value(ace_value) for card in engine.parse_cards(deadwood))
    except ValueError:
        count = 0
    return SplitOption(AUTO, meld_codes, deadwood, count)


def _split_limit(form: BoxForm, player: str, ruling: Mapping[str, Any] | None,
                 rules: Any) -> int | None:
    """The highest count a split of this hand may leave: the knock limit for the
    knocker (C6, V2), 0 for the gin hand; any count for the others."""
    if form.by.data != player:
        return None
    if form.ending.data == "gin":
        return 0
    if form.ending.data == "knock":
        limit = (ruling or {}).get("knock_limit", rules.knock_limit)
        return None if limit is None else int(limit)
    return None


def split_options(cards: Sequence[str], limit: int | None, rules: Any,
                  proposal: Proposal) -> list[SplitOption]:
    """The other legal ways to lay out these melds, best first (a few of them): a
    knocker may split his hand as he likes within the knock limit (C8)."""
    if rules.hand_size is not None and len(cards) != rules.hand_size:
        return []
    try:
        hand = engine.parse_cards(list(cards))
        if limit is None:
            best = engine.best_arrangement(hand, around_the_corner=rules.around_the_corner,
                                          ace_value=rules.ace_value).count
            limit = best + 10
        found = engine.arrangements(hand, around_the_corner=rules.around_the_corner,
                                   ace_value=rules.ace_value, max_count=limit)
    except ValueError:
        return []
    chosen = None if proposal.split is None else split_key(proposal.split)
    seen = {split_key(proposal.melds)}
    options: list[SplitOption] = []
    for arrangement in found:
        meld_codes = [[card.code for card in meld] for meld in arrangement.melds]
        key = split_key(meld_codes)
        if key in seen or (len(options) >= MAX_OPTIONS and key != chosen):
            continue
        seen.add(key)
        options.append(SplitOption(key, meld_codes, [c.code for c in arrangement.deadwood],
                                   arrangement.count))
    return options


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
    """Check a hand: 10 or 11 cards tapped (or typed), and the knock limit to judge by."""

    class Meta:
        csrf = False  # a read-only question: GET, bookmarkable, nothing stored

    cards = CardsField("Cards")
    typed = StringField("…or type them", validators=[Optional(), Length(max=120)],
                        render_kw={"autocomplete": "off", "autocapitalize": "characters",
                                   "placeholder": "AS 2S 3S 7H 7D 7C 9D 10D JD 4C"})
    rules = SelectField("Rules", default="jersey-scarne")
    knock_limit = IntegerField("House knock limit (optional)",
                               validators=[Optional(), NumberRange(0, 98)], render_kw=NUMERIC)
    upcard = StringField("First upcard (Oklahoma)", validators=[Optional(), Length(max=4)],
                         render_kw={"autocomplete": "off", "autocapitalize": "characters",
                                    "placeholder": "e.g. 7S"})


class ShowdownSetupForm(FlaskForm):
    """Settle a showdown, step one: the rule set, its house rules, the players in seat
    order and the dealer."""

    class Meta:
        csrf = False  # GET: only chooses what the showdown form shows

    rules = SelectField("Game", default="jersey-scarne")
    players = StringField("Players in seat order", default="Ann, Bob, Cal",
                          validators=[Length(max=5 * (MAX_NAME + 2))],
                          render_kw={"autocomplete": "off"})
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
        attributes[f"setting_{setting.name}"] = _setting_field(setting,
                                                               getattr(rules, setting.name))
    return type(f"ShowdownSetup_{preset.replace('-', '_')}", (ShowdownSetupForm,), attributes)


def showdown_setup_form(preset: str, args: Any) -> ShowdownSetupForm:
    """The setup form of "settle a showdown" for a preset, read from the query."""
    form = _showdown_setup_class(preset)(args)
    form.rules.data = preset
    return form


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


def parse_names(text: str) -> list[str]:
    """Names separated by commas (what the showdown setup takes).

    >>> parse_names(" Ann, Bob ,,Cal ")
    ['Ann', 'Bob', 'Cal']
    """
    return [engine.player_name(name) for name in (text or "").split(",") if name.strip()]


def decimal_text(value: Decimal | float | None) -> str:
    return "" if value is None else format(value, "f")


class DeleteBoxForm(FlaskForm):
    """Delete a box: only the version seen and the idempotency key."""

    version = HiddenField()
    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
