"""How the sheets word things: endings, numbers, money, settings, key numbers."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from scorekeeper import engine

ENDINGS = {
    "knock": "Knock",
    "underknock": "Underknock",
    "undercut": "Undercut",
    "gin": "Gin",
    "break": "Break",
    "break-gin": "Break gin",
    "draw": "Draw",
    "misdeal": "Misdeal",
}
VOID_ENDINGS = frozenset({"draw", "misdeal"})


def ending(box: Mapping[str, Any]) -> str:
    """The ending of a scored box as a pad would write it, with its doubling.

    >>> ending({"result": "break-gin"}), ending({"result": "knock", "multiplier": 2})
    ('Break gin', 'Knock ×2')
    """
    result = str(box.get("result", ""))
    label = ENDINGS.get(result, result.replace("-", " ").capitalize())
    multiplier = box.get("multiplier", 1)
    if isinstance(multiplier, int) and multiplier > 1:
        label += f" ×{multiplier}"
    return label


def number(value: object, *, signed: bool = False) -> str:
    """A score as printed: whole numbers plain, minus as a real minus sign.

    >>> number(19), number(-20), number(5, signed=True), number(None), number(7.0)
    ('19', '−20', '+5', '', '7')
    """
    if value is None or value == "":
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    shown = f"{value:+}" if signed and isinstance(value, int | float) else str(value)
    return shown.replace("-", "−")


def money(value: object) -> str:
    """An amount of money with two decimals, or nothing when there is none.

    >>> money(8.2), money(None), money(-1.5)
    ('8.20', '', '−1.50')
    """
    if not isinstance(value, int | float) or isinstance(value, bool):
        return ""
    return f"{value:,.2f}".replace("-", "−")


def stake(value: object) -> str:
    """The stake line of the title block.

    >>> stake(0.05), stake(None), stake(0)
    ('0.05 a point', 'none', 'none')
    """
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        return "none"
    shown = f"{value:.4f}".rstrip("0")
    if shown.endswith("."):
        shown += "00"
    elif len(shown.split(".")[1]) < 2:
        shown += "0"
    return f"{shown} a point"


def date(created: datetime.date | None, game: Mapping[str, Any]) -> str:
    """The date printed on the sheet: ``created``, else the game's own, else blank to fill in."""
    if created is not None:
        return created.isoformat()
    for key in ("date", "created"):
        value = game.get(key)
        if isinstance(value, str) and value:
            return value[:10]
    return ""


def rules_of(game: Mapping[str, Any]) -> engine.Rules:
    """The game's rule set with its settings applied (Jersey Gin for three, else Gin)."""
    name = game.get("rules") or ("jersey-scarne" if len(game.get("players", ())) == 3 else "gin")
    return engine.find_rules(str(name)).with_settings(game.get("settings") or None)


def setting_value(value: object) -> str:
    """A setting's value as a player reads it.

    >>> setting_value(True), setting_value(None), setting_value("first-upcard")
    ('yes', 'any', 'first-upcard')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "any" if value is None else str(value)


def changed_settings(rules: engine.Rules) -> list[str]:
    """Each setting that differs from the preset, with its meaning, rule id and preset value."""
    preset = engine.find_rules(rules.name)
    meanings = {s.name: s for s in engine.SETTINGS}
    lines = []
    for name, value in rules.changed_settings().items():
        setting = meanings[name]
        lines.append(f"{setting.meaning} ({setting.rule}): {setting_value(value)}, "
                     f"preset {setting_value(getattr(preset, name))}")
    return lines


def key_numbers(rules: engine.Rules) -> list[tuple[str, str]]:
    """The numbers a table checks most often, for the margin of a blank pad."""
    limit = "any count" if rules.knock_limit is None else f"{rules.knock_limit} or less"
    if rules.knock_limit_from != "fixed":
        limit = f"the {rules.knock_limit_from.replace('-', ' ')}"
    pairs = [("Knock", limit), ("Gin bonus", str(rules.gin_bonus))]
    if rules.underknock_bonus:
        word = "Underknock" if rules.is_three_hand else "Undercut"
        pairs.append((f"{word} bonus", str(rules.underknock_bonus)))
    if rules.knocker_penalty:
        pairs.append(("Undercut knocker", f"−{rules.knocker_penalty}"))
    if rules.box_bonus:
        pairs.append(("Box bonus", str(rules.box_bonus)))
    if rules.game_bonus:
        pairs.append(("Game bonus", str(rules.game_bonus)))
    pairs.append(("Game", f"{rules.game_target} up"))
    if rules.shutout == "double":
        pairs.append(("Shutout", "doubles"))
    elif rules.shutout != "none":
        pairs.append(("Shutout", f"+{rules.shutout}"))
    return pairs
