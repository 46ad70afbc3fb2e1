"""Settling disputes without a game: check a hand, settle a showdown."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request, url_for

from .. import engine, forms
from . import htmx
from .boxes import Ruled
from .games import presets

bp = Blueprint("disputes", __name__)


@bp.get("/check")
def check() -> Response:
    """Check a hand: 10 or 11 cards in; best melds, count, can it knock, best discard."""
    form = forms.CheckForm(request.args)
    form.rules.choices = forms.choices((p.name, p.title) for p in presets())
    result: dict[str, Any] | None = None
    error = None
    cards = list(form.cards.data or [])
    if form.typed.data and form.typed.data.strip():
        try:
            cards += [c.code for c in engine.parse_cards(form.typed.data, "typed")]
        except engine.ScorekeeperError as err:
            forms.add_error(form.typed, err.message)
            error = err.message
    rules = engine.PRESETS.get(form.rules.data or "") or engine.PRESETS["jersey-scarne"]
    asked = bool(cards) or bool(form.typed.data)
    if cards and error is None:
        try:
            result = engine.arrange(cards, around_the_corner=rules.around_the_corner,
                                    ace_value=rules.ace_value)
        except engine.ScorekeeperError as err:
            error = err.message
            forms.add_error(form.cards, err.message)
    status = 422 if error else 200
    return htmx.render("disputes/check.html", "disputes/_check_result.html", status,
                       form=form, result=result, error=error, rules=rules, asked=asked,
                       verdict=knock_verdict(result, rules) if result else None)


def knock_verdict(result: dict[str, Any], rules: Any) -> str:
    """Can this hand knock, in the preset's terms (C6, V2)?"""
    count = int(result["count"])
    limit = rules.knock_limit
    if count == 0:
        return "Gin: count 0."
    if limit is None:
        return f"Count {count}: {rules.title} lets a player knock at any count."
    if rules.knock_limit_from != "fixed":
        return f"Count {count}: in {rules.title} the upcard sets the knock limit (V2)."
    if count <= limit:
        return f"Can knock: count {count} is within the limit of {limit} (C6)."
    return f"Cannot knock: count {count} is over the limit of {limit} (C6)."


@bp.route("/settle", methods=["GET", "POST"])
def settle() -> Response:
    """Settle a showdown: any box, no game; the full ruling with its explanation."""
    setup = forms.ShowdownSetupForm(request.args)
    setup.rules.choices = forms.choices((p.name, p.title) for p in presets())
    preset = setup.rules.data if setup.rules.data in engine.PRESETS else "jersey-scarne"
    rules = engine.PRESETS[preset]
    players = forms.parse_names(setup.players.data or "")
    problem = _players_problem(players, rules)
    if problem:
        forms.add_error(setup.players, problem)
        return htmx.render("disputes/settle.html", "disputes/_settle_form.html", 422,
                           setup=setup, form=None, outcome=None, rules=rules, proposals={})
    form = forms.box_form(players, request.form if request.method == "POST" else None)
    outcome = None
    status = 200
    if request.method == "POST":
        outcome = adjudicate(form, preset, players)
        status = 200 if outcome.ok else 422
    proposals = forms.proposals(form, outcome.ruling if outcome else None, rules)
    url = url_for("disputes.settle", rules=preset, players=", ".join(players))
    if request.method == "POST" and htmx.is_htmx():
        fragment = ("boxes/_preview.html" if request.headers.get("HX-Target") == "preview"
                    else "boxes/_form.html")
        return htmx.render(fragment, fragment, status, form=form, outcome=outcome,
                           proposals=proposals, rules=rules, game=None, save_url=url,
                           preview_url=url, box=None, notice="", dealer=players[0])
    return htmx.render("disputes/settle.html", "disputes/_settle_form.html", status,
                       setup=setup, form=form, outcome=outcome, rules=rules,
                       proposals=proposals, save_url=url, preview_url=url, game=None,
                       box=None, notice="", dealer=players[0])


def _players_problem(players: list[str], rules: Any) -> str:
    if not rules.min_players <= len(players) <= rules.max_players:
        wanted = (str(rules.min_players) if rules.min_players == rules.max_players
                  else f"{rules.min_players} to {rules.max_players}")
        return f"{rules.title} is played by {wanted} players: separate the names with commas."
    if len({p.casefold() for p in players}) != len(players):
        return "Two players have the same name."
    if any(len(p) > forms.MAX_NAME or not p.isprintable() for p in players):
        return f"Names are at most {forms.MAX_NAME} printable characters."
    return ""


def adjudicate(form: forms.BoxForm, preset: str, players: list[str]) -> Ruled:
    """Rule one box on its own (the dealer is the first player named)."""
    outcome = Ruled()
    if not form.validate():
        outcome.errors = ["Check the fields marked below."]
        return outcome
    entry = forms.box_from_form(form)
    if entry is None:
        outcome.errors = ["Check the fields marked below."]
        return outcome
    outcome.entry = entry
    box = {"rules": preset, "players": players, "dealer": players[0], **entry}
    try:
        outcome.ruling = engine.adjudicate(box)
    except engine.ScorekeeperError as err:
        outcome.errors = [forms.attach_engine_error(form, err, players)]
    return outcome
