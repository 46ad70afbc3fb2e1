"""Settling disputes without a game: check a hand, settle a showdown."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request, url_for

from .. import engine
from ..engine.contract import GameEntry
from . import forms, htmx

bp = Blueprint("disputes", __name__)


@bp.get("/check")
def check() -> Response:
    """Check a hand: 10 or 11 cards in; every best arrangement, the count, whether it
    can knock (by the preset, a house limit or the Oklahoma upcard), the best discard."""
    form = forms.CheckForm(request.args)
    form.rules.choices = forms.choices((p.name, p.title) for p in forms.presets())
    form.validate()
    result: dict[str, Any] | None = None
    error = None
    cards = list(form.cards.data or [])
    if form.typed.data and form.typed.data.strip():
        try:
            cards += [c.code for c in engine.parse_cards(form.typed.data, "typed")]
        except engine.ScorekeeperError as err:
            forms.add_error(form.typed, err.message)
            error = err.message
    rules = engine.PRESETS.get(form.rules.data or "") or engine.PRESETS[engine.DEFAULT_PRESET]
    limit = knock_limit(form, rules)
    if form.knock_limit.errors or form.upcard.errors:
        error = error or "Check the knock limit and the upcard."
    asked = bool(cards) or bool(form.typed.data)
    best: list[Any] = []
    if cards and error is None:
        try:
            result = engine.arrange(
                cards, around_the_corner=rules.around_the_corner, ace_value=rules.ace_value
            )
            best = best_alternatives(result, rules)
        except engine.ScorekeeperError as err:
            error = err.message
            forms.add_error(form.cards, err.message)
    status = 422 if error else 200
    return htmx.render(
        "disputes/check.html",
        "disputes/_check_result.html",
        status,
        form=form,
        result=result,
        error=error,
        rules=rules,
        asked=asked,
        best=best,
        limit=limit,
        verdict=knock_verdict(result, limit) if result else None,
    )


def knock_limit(form: forms.CheckForm, rules: engine.Rules) -> engine.KnockLimit:
    """The limit to judge by, asked of the engine: the house limit typed in, or the
    first upcard read from the form where the rules need it (V2)."""
    house = form.knock_limit.data if not form.knock_limit.errors else None
    upcard = None
    raw = (form.upcard.data or "").strip()
    if house is None and rules.knock_limit_from != "fixed" and raw:
        try:
            cards = engine.parse_cards(raw, "upcard")
        except engine.ScorekeeperError as err:
            forms.add_error(form.upcard, err.message)
            return engine.KnockLimit(None, "no upcard", known=False)
        if len(cards) != 1:
            forms.add_error(form.upcard, "Give one card: the first upcard.")
            return engine.KnockLimit(None, "no upcard", known=False)
        upcard = cards[0]
    return engine.knock_limit(rules, upcard, house)


def knock_verdict(result: dict[str, Any], limit: engine.KnockLimit) -> str:
    """Can this hand knock (C6, V2)? The engine says."""
    return engine.may_knock(int(result["count"]), limit)


def best_alternatives(result: dict[str, Any], rules: engine.Rules) -> list[list[list[str]]]:
    """Every arrangement with the best count (of the 10 kept after the best discard)."""
    kept = [card for card in result["cards"] if card != result.get("discard")]
    found = engine.best_arrangements(
        engine.parse_cards(kept), around_the_corner=rules.around_the_corner, ace_value=rules.ace_value
    )
    return [[[card.code for card in meld] for meld in arrangement.melds] for arrangement in found[:12]]


# --- settle a showdown --------------------------------------------------------------------


@bp.route("/settle", methods=["GET", "POST"])
def settle() -> Response:
    """Settle a showdown: any box, no game, with house rules and the dealer; the full
    ruling with its explanation."""
    preset = request.args.get("rules") or engine.DEFAULT_PRESET
    if preset not in engine.PRESETS:
        preset = "jersey-scarne"
    setup = forms.showdown_setup_form(preset, request.args)
    setup.rules.choices = forms.choices((p.name, p.title) for p in forms.presets())
    players = forms.parse_names(setup.players.data or "")
    setup.dealer.choices = forms.choices((p, p) for p in players)
    settings, rules, problem = _table(setup, preset, players)
    if problem:
        return htmx.render(
            "disputes/settle.html",
            "disputes/_settle_form.html",
            422,
            setup=setup,
            form=None,
            outcome=None,
            rules=rules,
            proposals={},
        )
    dealer = setup.dealer.data if setup.dealer.data in players else players[0]
    form = forms.box_form(players, request.form if request.method == "POST" else None)
    outcome = None
    status = 200
    if request.method == "POST":
        outcome = adjudicate(form, preset, players, dealer, settings)
        status = 200 if outcome.ok else 422
    proposals = forms.proposals(form, outcome.ruling if outcome else None, rules)
    url = url_for("disputes.settle", **_setup_args(setup, preset, players, dealer))
    context = {
        "form": form,
        "outcome": outcome,
        "proposals": proposals,
        "rules": rules,
        "game": None,
        "save_url": url,
        "preview_url": url,
        "box": None,
        "notice": "",
        "dealer": dealer,
    }
    if request.method == "POST" and htmx.is_htmx():
        fragment = (
            "boxes/_preview.html" if request.headers.get("HX-Target") == "preview" else "boxes/_form.html"
        )
        return htmx.render(fragment, fragment, status, **context)
    return htmx.render("disputes/settle.html", "disputes/_settle_form.html", status, setup=setup, **context)


def _table(
    setup: forms.ShowdownSetupForm, preset: str, players: list[str]
) -> tuple[dict[str, Any], engine.Rules, bool]:
    """The house rules and the frozen rule set; marks the fields that are wrong."""
    rules = engine.PRESETS[preset]
    setup.players.validate(setup)
    problem = _players_problem(players, rules)
    if problem:
        forms.add_error(setup.players, problem)
    for _setting, setting_field in setup.setting_fields():
        if setting_field.raw_data:  # only what was sent; the rest keeps the preset's value
            setting_field.validate(setup)
    settings = forms.settings_from_form(setup, rules)
    bad = bool(problem) or settings is None or bool(setup.players.errors)
    if settings is None:
        return {}, rules, True
    try:
        rules = rules.with_settings(settings)
    except engine.ScorekeeperError as err:
        forms.attach_engine_error(setup, err)
        return {}, engine.PRESETS[preset], True
    return settings, rules, bad


def _setup_args(
    setup: forms.ShowdownSetupForm, preset: str, players: list[str], dealer: str
) -> dict[str, Any]:
    """The setup as query arguments, so the showdown form posts back to the same table."""
    args: dict[str, Any] = {"rules": preset, "players": ", ".join(players), "dealer": dealer}
    for _setting, setting_field in setup.setting_fields():
        if setting_field.raw_data:
            args[setting_field.name] = setting_field.raw_data[0]
    return args


def _players_problem(players: list[str], rules: engine.Rules) -> str:
    if not rules.min_players <= len(players) <= rules.max_players:
        return f"{rules.title} is played by {rules.players_words} players: separate the names with commas."
    if len({p.casefold() for p in players}) != len(players):
        return "Two players have the same name."
    try:
        engine.check_players(players, rules)  # the engine's own checks of each name
    except engine.ScorekeeperError as err:
        return err.message[:1].upper() + err.message[1:] + "."
    return ""


def adjudicate(
    form: forms.BoxForm, preset: str, players: list[str], dealer: str, settings: dict[str, Any] | None = None
) -> forms.Ruled:
    """Rule one box on its own, with the table's house rules and dealer."""
    entry = forms.box_entry(form)
    if entry is None:
        return forms.Ruled(errors=[forms.CHECK])
    game = GameEntry(rules=preset, settings=settings or {}, players=tuple(players), dealer=dealer)
    try:
        return forms.Ruled(entry, ruling=engine.rule(game, entry))
    except engine.ScorekeeperError as err:
        return forms.Ruled(entry, errors=[forms.attach_engine_error(form, err, players)])
