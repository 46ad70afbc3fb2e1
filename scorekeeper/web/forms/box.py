"""Recording or correcting a box: the box form, reading a box from it, and showing a
stored box in it again.

A hand given by cards is shown with the engine's proposed melds and layoffs
(``splits.py``), and stored as the player declared it.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import Length, NumberRange, Optional

from ... import engine
from ...engine.contract import BoxEntry, Hand, Ruling
from ...engine.vocabulary import ENDING_VERBS, title_of
from ..cardfaces import ALL_CODES
from .fields import NUMERIC, CardsField, FlaskForm, add_error, choices, not_huge
from .splits import AUTO, Proposal, as_option, read_split, signature, split_options

ENDINGS = {ending: title_of(ending) for ending in ("knock", "gin", "break", "draw", "misdeal")}
"""The endings a box form offers, named as the engine's vocabulary names them."""


class HandForm(Form):
    """One player's hand: a count, or the cards tapped on the grid (and, once the engine
    has proposed an arrangement, the meld split and the layoffs the player chose)."""

    count = IntegerField("Count", validators=[Optional(), not_huge, NumberRange(0, 98)], render_kw=NUMERIC)
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
    number = HiddenField()
    """The box (from 1) a new entry is for: saved twice, it is the other phone's box."""
    key = HiddenField()
    ending = RadioField("Ending", choices=choices(ENDINGS.items()), default="knock")
    by = RadioField("Who", validate_choice=False)
    after_break = BooleanField("After the break (J13)")
    second_round = BooleanField("Play went on round the table after the break (J11)")
    upcard = StringField(
        "First upcard",
        validators=[Optional(), Length(max=4)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "placeholder": "e.g. 7S"},
    )
    multiplier = IntegerField(
        "Doubled ×", validators=[Optional(), not_huge, NumberRange(1, 1024)], render_kw=NUMERIC
    )
    note = StringField("Note", validators=[Optional(), Length(max=200)], render_kw={"autocomplete": "off"})
    hands = FieldList(FormField(HandForm))

    players: Sequence[str] = ()


@functools.cache
def _box_form_class(n: int) -> type[BoxForm]:
    return type(
        f"BoxForm{n}",
        (BoxForm,),
        {
            "hands": FieldList(FormField(HandForm), min_entries=n, max_entries=n),
        },
    )


def box_form(players: Sequence[str], formdata: Any = None, data: Mapping[str, Any] | None = None) -> BoxForm:
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


def proposal_signature(form: BoxForm, index: int) -> str:
    """What the proposal for hand ``index`` depends on: the ending, who, the upcard,
    every hand's cards, and the splits the *other* players chose (a new split of the
    knocker's changes what may be laid off on it; one's own split does not)."""
    hands = [sorted(hand.form.cards.data or []) for hand in form.hands]
    splits = [(hand.form.split.data or "") if i != index else None for i, hand in enumerate(form.hands)]
    return signature(form.ending.data, form.by.data, (form.upcard.data or "").upper(), hands, splits)


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
            role = {**ENDING_VERBS, "break": "was the breaker"}[ending]
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
            if hand.count.data is not None:  # both given: the engine holds them equal
                hands[player]["count"] = hand.count.data
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
    proposal = Proposal.read(hand.proposal.data, hand.keep.data or [], proposal_signature(form, index))
    if proposal is not None:
        proposal.split = split
        return proposal.declared_hand(cards)
    if split is not None:
        placed = {card for meld in split for card in meld}
        return {"melds": split, "deadwood": [c for c in cards if c not in placed], "layoffs": []}
    return {"cards": cards}


def box_form_data(entry: BoxEntry, players: Sequence[str]) -> dict[str, Any]:
    """Form data that shows a stored box again (to correct it): the way back from
    :func:`~.entry.box_entry`. A hand laid out as declared comes back as its cards, its
    layout carried in ``_declared`` for :func:`prefill_box_form`."""
    rows: list[tuple[list[str], int | None, Hand | None]] = []
    for player in players:
        hand = entry.hands.get(player)
        if hand is None:
            rows.append(([], None, None))
        elif hand.form == "cards":
            rows.append((list(hand.cards or ()), None, None))
        elif hand.form == "declared":
            cards = (
                [c for meld in hand.melds or () for c in meld]
                + [lay.card for lay in hand.layoffs or ()]
                + list(hand.deadwood or ())
            )
            rows.append((cards, None, hand))
        else:
            rows.append(([], hand.count, None))
    return {
        "ending": entry.ending,
        "by": entry.by,
        "after_break": entry.after_break,
        "second_round": entry.second_round,
        "upcard": entry.upcard or "",
        "multiplier": entry.multiplier,
        "note": entry.note or "",
        "hands": [{"cards": cards, "count": count, "split": AUTO} for cards, count, _ in rows],
        "_declared": [declared for _, _, declared in rows],
    }


def prefill_box_form(form: BoxForm, data: Mapping[str, Any]) -> None:
    """Carry declared hands of a stored box into proposals, so they stay as declared."""
    declared_hands: list[Hand | None] = data.get("_declared", [])
    for index, (hand_entry, declared) in enumerate(zip(form.hands, declared_hands, strict=False)):
        if declared is None:
            continue
        proposal = Proposal(
            melds=[list(m) for m in declared.melds or ()],
            layoffs=[lay.to_json() for lay in declared.layoffs or ()],
            declared=True,
            signature=proposal_signature(form, index),
        )
        hand_entry.form.proposal.data = proposal.to_json()
        hand_entry.form.keep.data = [Proposal.layoff_id(lay) for lay in proposal.layoffs]


def proposals(form: BoxForm, ruling: Ruling | None, rules: Any = None) -> dict[int, Proposal]:
    """For each hand entered with cards: the proposal to show (carried or new), with
    the meld splits the player may choose instead (C8)."""
    shown: dict[int, Proposal] = {}
    ruled = ruling.hands if ruling is not None else {}
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
            layoffs = [lay.as_entered().to_json() for lay in arranged.layoffs]
            proposal = Proposal(
                melds=[list(m) for m in arranged.melds],
                layoffs=layoffs,
                signature=signature,
                kept={Proposal.layoff_id(lay) for lay in layoffs},
            )
        proposal.split = read_split(hand.split.data, cards)
        if rules is not None:
            proposal.auto = as_option(proposal.melds, cards, rules.ace_value)
            proposal.options = split_options(
                cards, _split_limit(form, player, ruling, rules), rules, proposal
            )
        shown[i] = proposal
    return shown


def _split_limit(form: BoxForm, player: str, ruling: Ruling | None, rules: Any) -> int | None:
    """The highest count a split of this hand may leave: the knock limit for the
    knocker (C6, V2), 0 for the gin hand; any count for the others."""
    if form.by.data != player:
        return None
    if form.ending.data == "gin":
        return 0
    if form.ending.data == "knock":
        if ruling is not None:
            return ruling.knock_limit
        return engine.knock_limit(rules, _upcard(form)).value
    return None


def _upcard(form: BoxForm) -> engine.Card | None:
    """The first upcard the form names, if it names one card the engine reads."""
    try:
        cards = engine.parse_cards((form.upcard.data or "").strip(), "upcard")
    except engine.ScorekeeperError:
        return None
    return cards[0] if len(cards) == 1 else None


class DeleteBoxForm(FlaskForm):
    """Delete a box: only the version seen and the idempotency key."""

    version = HiddenField()
    key = HiddenField(default=lambda: secrets.token_urlsafe(16))


class UndoForm(FlaskForm):
    """Undo this phone's last write to a box: the game version that write made (the
    undo is refused once the game moved on) and the idempotency key."""

    version = HiddenField()
    key = HiddenField(default=lambda: secrets.token_urlsafe(16))
