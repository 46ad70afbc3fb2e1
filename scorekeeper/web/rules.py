"""The rules section: every preset's settings with their alternatives, and the texts of
RULES.md under the ids the rulings cite, searchable.

Every rule id an explanation cites links here (:func:`rule_href`): to the preset's own
page when it shows that rule, else to the page of every rule.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request, url_for

from .. import engine
from . import forms, htmx

bp = Blueprint("rules", __name__, url_prefix="/rules")

FAMILY_SECTIONS = {"jersey": (1, 2), "parlett": (1, 2, 3), "gin": (1, 4), "knock-rummy": (1, 5)}


def section_titles() -> dict[int, str]:
    """RULES.md's section titles by number, as the engine reads them."""
    return {section.number: section.title for section in engine.sections()}


def rule_texts() -> list[Any]:
    """Every rule text, in RULES.md order."""
    return list(engine.RULE_TEXTS.values())


def shown_sections(preset: str | None) -> tuple[int, ...]:
    """The RULES.md sections a preset's page shows."""
    rules = engine.PRESETS.get(preset or "")
    return FAMILY_SECTIONS.get(rules.family, (1,)) if rules is not None else ()


@bp.app_template_global()
def rule_href(rule_id: str, preset: str | None = None) -> str:
    """Where a cited rule id is explained: its anchor on the preset's page if that page
    shows it, else on the page of all rules."""
    text = engine.RULE_TEXTS.get(rule_id)
    if text is not None and text.section in shown_sections(preset):
        return url_for("rules.preset", preset=preset) + f"#{rule_id}"
    return url_for("rules.everything") + f"#{rule_id}"


@bp.app_template_global()
def value_text(value: Any) -> str:
    """A setting's value as the pages show it, in plain words (the engine's)."""
    return engine.setting_words(value)


@bp.app_template_global()
def book_source(rules: Any) -> str:
    """Whose book a preset follows, for "Undercut bonus: 25 (Parlett)": the name in
    its title's brackets, else the title."""
    title = str(rules.title)
    if title.endswith(")") and "(" in title:
        return title[title.rindex("(") + 1 : -1]
    return title


def alternatives(setting: Any, rules: Any | None = None) -> list[tuple[str, list[str]]]:
    """The values other presets give a setting, each with the presets that use it,
    then the documented choices no preset uses (the setting's alternatives)."""
    current = None if rules is None else value_text(getattr(rules, setting.name))
    by_value: dict[str, list[str]] = {}
    for preset in forms.presets():
        by_value.setdefault(value_text(getattr(preset, setting.name)), []).append(preset.title)
    for choice in setting.choices:
        by_value.setdefault(value_text(choice), [])
    if setting.kind is bool:
        for choice in ("yes", "no"):
            by_value.setdefault(choice, [])
    return [(value, titles) for value, titles in by_value.items() if value != current]


def search(query: str) -> tuple[list[Any], list[Any]]:
    """Rules and settings whose id, title, name or text contains every word of the query."""
    words = [w.casefold() for w in query.split() if w.strip()]

    def hit(*texts: str) -> bool:
        haystack = " ".join(texts).casefold()
        return all(word in haystack for word in words)

    rules = [r for r in rule_texts() if hit(r.id, r.title, r.text)]
    settings = [
        s
        for s in engine.SETTINGS
        if hit(s.name, s.name.replace("_", " "), s.meaning, s.rule, " ".join(str(c) for c in s.choices))
    ]
    return rules, settings


@bp.get("/")
def index() -> Response:
    """All presets, and a search over the rule texts and settings."""
    query = (request.args.get("q") or "").strip()[:100]
    found, settings = search(query) if query else ([], [])
    return htmx.render(
        "rules/index.html",
        "rules/_results.html",
        presets=forms.presets(),
        query=query,
        found=found,
        settings=settings,
        sections=section_titles(),
        alternatives=alternatives,
    )


@bp.get("/all")
def everything() -> Response:
    """Every rule of RULES.md under its id, and every setting with its alternatives."""
    return htmx.render(
        "rules/all.html",
        "rules/_all.html",
        texts=rule_texts(),
        sections=section_titles(),
        settings=engine.SETTINGS,
        alternatives=alternatives,
        value_text=value_text,
    )


@bp.get("/<preset>")
def preset(preset: str) -> Response:
    """One preset: its settings (value, meaning, rule, alternatives) and its rule texts."""
    if preset not in engine.PRESETS:
        abort(404, description=f"There is no rule set called {preset!r}.")
    rules = engine.PRESETS[preset]
    sections = shown_sections(preset)
    texts = [r for r in rule_texts() if r.section in sections]
    return htmx.render(
        "rules/preset.html",
        "rules/_preset.html",
        rules=rules,
        settings=engine.SETTINGS,
        texts=texts,
        sections=section_titles(),
        shown_sections=sections,
        alternatives=alternatives,
        value_text=value_text,
    )
