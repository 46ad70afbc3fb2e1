"""The rules section: every preset's settings with their alternatives, and the texts of
RULES.md under the ids the rulings cite, searchable."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request

from .. import engine
from . import htmx
from .games import presets

bp = Blueprint("rules", __name__, url_prefix="/rules")

FAMILY_SECTIONS = {"jersey": (1, 2), "parlett": (1, 2, 3), "gin": (1, 4),
                   "knock-rummy": (1, 5)}


def section_titles() -> dict[int, str]:
    """RULES.md's section titles by number, as the engine reads them."""
    return {section.number: section.title for section in engine.sections()}


def rule_texts() -> list[Any]:
    """Every rule text, in RULES.md order."""
    return list(engine.RULE_TEXTS.values())


def search(query: str) -> tuple[list[Any], list[Any]]:
    """Rules and settings whose id, title, name or text contains every word of the query."""
    words = [w.casefold() for w in query.split() if w.strip()]

    def hit(*texts: str) -> bool:
        haystack = " ".join(texts).casefold()
        return all(word in haystack for word in words)

    rules = [r for r in rule_texts() if hit(r.id, r.title, r.text)]
    settings = [s for s in engine.SETTINGS
                if hit(s.name, s.name.replace("_", " "), s.meaning, s.rule)]
    return rules, settings


@bp.get("/")
def index() -> Response:
    """All presets, and a search over the rule texts and settings."""
    query = (request.args.get("q") or "").strip()[:100]
    found, settings = search(query) if query else ([], [])
    return htmx.render("rules/index.html", "rules/_results.html", presets=presets(),
                       query=query, found=found, settings=settings, sections=section_titles(),
                       all_rules=rule_texts())


@bp.get("/<preset>")
def preset(preset: str) -> Response:
    """One preset: its settings (value, meaning, rule, alternatives) and its rule texts."""
    if preset not in engine.PRESETS:
        abort(404, description=f"There is no rule set called {preset!r}.")
    rules = engine.PRESETS[preset]
    sections = FAMILY_SECTIONS.get(rules.family, (1,))
    texts = [r for r in rule_texts() if r.section in sections]
    return htmx.render("rules/preset.html", "rules/_preset.html", rules=rules,
                       settings=engine.SETTINGS, texts=texts, sections=section_titles(),
                       shown_sections=sections)
