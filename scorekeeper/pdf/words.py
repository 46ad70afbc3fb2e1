"""How the sheets word things: numbers, money, settings, key numbers."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping

from scorekeeper import engine

from ..engine.contract import GameEntry
from ..engine.money import symbol_of
from ..engine.vocabulary import vocabulary_for
from .vocabulary import beaten_word


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


def money(value: object, currency: str = "") -> str:
    """An amount of money with two decimals and its currency, or nothing when there is none.

    >>> money(8.2), money(None), money(-1.5, "EUR"), money(3, "$"), money(2, "CHF")
    ('8.20', '', '−€1.50', '$3.00', '2.00 CHF')
    """
    if not isinstance(value, int | float) or isinstance(value, bool):
        return ""
    shown = f"{value:,.2f}".replace("-", "−")
    return with_currency(shown, currency)


def with_currency(amount: str, currency: str) -> str:
    """An amount with its currency: the code's symbol before it (the game keeps "EUR",
    the sheet prints "€", :mod:`scorekeeper.engine.money`), a code with none after it."""
    if not currency:
        return amount
    symbol = symbol_of(currency) if currency.isascii() and currency.isalpha() else currency
    if symbol:
        return f"−{symbol}{amount[1:]}" if amount.startswith("−") else symbol + amount
    return f"{amount} {currency}"


def stake(value: object, currency: str = "") -> str:
    """The stake line of the title block.

    >>> stake(0.05), stake(None), stake(0), stake(0.1, "EUR")
    ('0.05 a point', 'none', 'none', '€0.10 a point')
    """
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        return "none"
    shown = f"{value:.4f}".rstrip("0")
    if shown.endswith("."):
        shown += "00"
    elif len(shown.split(".")[1]) < 2:
        shown += "0"
    return f"{with_currency(shown, currency)} a point"


def date(created: datetime.date | None, game: GameEntry) -> str:
    """The date printed on the sheet: ``created``, else the day the game started, else
    blank to fill in."""
    if created is not None:
        return created.isoformat()
    return (game.started or "")[:10]


def rules_of(game: GameEntry) -> engine.Rules:
    """The game's rule set with its settings applied."""
    return engine.find_rules(game.rules).with_settings(dict(game.settings) or None)


def setting_value(value: object) -> str:
    """A setting's value as a player reads it: the engine's words, as the pages say it.

    >>> setting_value(True), setting_value(None), setting_value("first-upcard")
    ('yes', 'any', 'the first upcard')
    """
    return engine.setting_words(value)


def changed_settings(rules: engine.Rules) -> list[str]:
    """Each setting that differs from the preset, in words: what it is, the game's value
    and the book's, and the rule to look it up (no setting names, no brackets).

    >>> changed_settings(engine.find_rules("jersey-scarne").with_settings({"game_target": 138}))
    ['Total that ends the game: 138 instead of 100, rule J14']
    """
    preset = engine.find_rules(rules.name)
    meanings = {s.name: s for s in engine.SETTINGS}
    lines = []
    for name, value in rules.changed_settings().items():
        setting = meanings[name]
        said = vocabulary_for(rules)
        meaning = re.sub(r" \([^)]*\)$", "", said.say(setting.meaning))
        lines.append(
            f"{meaning}: {setting_value(value)} instead of "
            f"{setting_value(getattr(preset, name))}, rule "
            f"{said.setting_rule(name, setting.rule)}"
        )
    return lines


def key_numbers(rules: engine.Rules, players: int | None = None) -> list[tuple[str, str]]:
    """The numbers a table checks most often, for the margin of a blank pad of ``players``
    seats: the bonus of a beaten knock in the word the pad's legend uses (Knock Rummy's
    follows the number of players, :func:`.vocabulary.beaten_word`).

    >>> knock = engine.find_rules("knock-rummy")
    >>> [label for label, _ in key_numbers(knock, 4) + key_numbers(knock, 2) if label.startswith("Under")]
    ['Underknock bonus', 'Undercut bonus']
    >>> [label for label, _ in key_numbers(engine.find_rules("three-hand-parlett"), 3) if "knocker" in label]
    ['Underknocked knocker']
    """
    limit = "any count" if rules.knock_limit is None else f"{rules.knock_limit} or less"
    if rules.knock_limit_from != "fixed":
        limit = f"the {rules.knock_limit_from.replace('-', ' ')}"
    pairs = [("Knock", limit), ("Gin bonus", str(rules.gin_bonus))]
    said = vocabulary_for(rules)
    beaten = said.beaten if players is None else beaten_word(rules, players)
    if rules.underknock_bonus:
        pairs.append((f"{beaten.capitalize()} bonus", str(rules.underknock_bonus)))
    if rules.knocker_penalty:
        # In the legend's word too: Parlett's pad said "Undercut knocker" beside "U underknock".
        beaten_knocker = "Underknocked" if beaten == "underknock" else "Undercut"
        pairs.append((f"{beaten_knocker} knocker", f"−{rules.knocker_penalty}"))
    if rules.box_bonus:
        pairs.append((f"{said.deal.capitalize()} bonus", str(rules.box_bonus)))
    if rules.game_bonus:
        pairs.append(("Game bonus", str(rules.game_bonus)))
    pairs.append(("Game", f"{rules.game_target} up"))
    if rules.shutout == "double":
        pairs.append(("Shutout", "doubles"))
    elif rules.shutout != "none":
        pairs.append(("Shutout", f"+{rules.shutout}"))
    return pairs


_MINUS = re.compile(r"(?<=[\d)\s])-(?=[\s\d(])")
_TIMES = re.compile(r"(?<=[\d)]) x (?=[\d(])|(?<=\d)x\b")
_CARD = re.compile(r"\b(10|[2-9AJQKT])([CDHS])\b")
_SETTING = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
_BRACKETED_SETTING = re.compile(r" ?\((?:[a-z]+(?:_[a-z]+)+)\)")
_POSSESSIVE = re.compile(r"(?<=\w)'s\b")
_ZERO_BONUS = re.compile(r"\bbonus of 0\b|\bat 0 a (?:box|hand)\b|: 0 more\b")
FAMILY_IDS = {"jersey": "J", "parlett": "PJ", "gin": "G", "knock-rummy": "K"}
"""The sections of RULES.md a family's rulings may cite, beside common ground (C, V)."""


def typeset(said: str, numbers: Mapping[int, str] | None = None) -> str:
    """An explanation's text with the tables' typography: real minus and times signs, suits,
    and setting names in plain words; with ``numbers`` (the engine's box numbers to the
    sheet's, where a misdeal takes none), "box 5" reads as the sheet numbers it.

    >>> typeset("Bob reached 118 in box 5 (target 100)", {5: "4"})
    'Bob reached 118 in box 4 (target 100)'

    >>> typeset("Ann knocked with 1; Bob 14: 14-1 = 13, doubled to 2x")
    'Ann knocked with 1; Bob 14: 14 − 1 = 13, doubled to 2×'
    >>> typeset("Bob pays Ann (270 - 0) x 2 = 540; A♠-2♠-3♠; 7S; tie_goes_to_defender")
    'Bob pays Ann (270 − 0) × 2 = 540; A♠-2♠-3♠; 7♠; tie goes to defender'

    A setting's name in brackets after a sentence that already says it in words goes, and
    a possessive takes the sheet's one apostrophe (’), as its legend and layoffs do:

    >>> typeset("Sal tied Bob's count of 5: a tie goes to the defender (tie_goes_to_defender)")
    'Sal tied Bob’s count of 5: a tie goes to the defender'
    """
    if numbers:
        said = re.sub(
            r"\b(box|hand) (\d+)\b",
            lambda m: m.group(1) + " " + numbers.get(int(m.group(2)), m.group(2)),
            said,
        )
    said = _BRACKETED_SETTING.sub("", said)
    said = _POSSESSIVE.sub("’s", said)
    said = _MINUS.sub("−", said)
    said = re.sub(r"(?<=[\d)])−(?=[\d(])", " − ", said)
    said = re.sub(r"(?<=[\d)])\+(?=[\d(])", " + ", said)
    said = _TIMES.sub(lambda m: " × " if m.group(0).startswith(" ") else "×", said)
    said = _CARD.sub(
        lambda m: (
            ("10" if m.group(1) == "T" else m.group(1)) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[m.group(2)]
        ),
        said,
    )
    return _SETTING.sub(lambda m: m.group(0).replace("_", " "), said)


def priced(said: str, currency: str) -> str:
    """A money step (V6) with the currency after each amount it works out, as the tables
    print it.

    >>> priced("at 0.05 a point: Bob pays Ann 142 × 0.05 = 7.10; Cal pays Ann 60 × 0.05 = 3.00",
    ...        "EUR")
    'at €0.05 a point: Bob pays Ann 142 × 0.05 = €7.10; Cal pays Ann 60 × 0.05 = €3.00'
    """
    said = re.sub(
        r"^at (\d+(?:\.\d+)?) a point", lambda m: f"at {with_currency(m.group(1), currency)} a point", said
    )
    return re.sub(r"= (−?\d[\d,]*\.\d\d)\b", lambda m: "= " + with_currency(m.group(1), currency), said)


def belongs(rule: str, said: str, rules: engine.Rules | None) -> bool:
    """Whether an explanation step belongs on this game's sheet: it cites common ground or
    the game's own section of RULES.md, and is not a bonus of nothing.

    >>> knock = engine.find_rules("knock-rummy")
    >>> belongs("J2", "the deal passes", knock), belongs("K3", "A went gin", knock)
    (False, True)
    >>> belongs("G8", "Bob adds the game bonus of 0", engine.find_rules("gin"))
    False
    """
    if rules is None:
        return True
    if _ZERO_BONUS.search(said):
        return False
    section = rule[:1]
    return not section or section in "CV" or section in FAMILY_IDS.get(rules.family, section)
