"""The rules engine: pure standard library, no Flask, no database, no ReportLab.

Everything outside the engine uses only what is exported here (docs/engine-api.md).

>>> adjudicate({"rules": "gin", "players": ["Ann", "Bob"], "ending": "gin", "by": "Ann",
...             "hands": {"Ann": {"count": 0}, "Bob": {"count": 31}}})["points"]
56
"""

from .arrange import arrange
from .boxes import check_players, player_name
from .cards import SUIT_SYMBOLS, Card, Suit, parse_cards, shown, spoken
from .contract import MAX_BOXES, MAX_NAME, too_many_boxes
from .errors import ERROR_CLASSES, IllegalPlayError, NotationError, ScorekeeperError
from .game import Scoring, score
from .knocking import KnockLimit, knock_limit, may_knock
from .melds import Arrangement, arrangements, best_arrangement, best_arrangements
from .rules import (
    CHOICE_WORDS,
    DEFAULT_PRESET,
    PRESET_ORDER,
    PRESETS,
    SETTINGS,
    Rules,
    Setting,
    find_rules,
    ordered_presets,
    setting_words,
)
from .ruletext import (
    RULE_TEXTS,
    RuleText,
    Section,
    checks,
    rule_text,
    rule_texts,
    sections,
    settings_table,
)
from .ruling import adjudicate, knock_limit_for, rule_box
from .seating import Cut, cut_for_deal, eldest
from .typed import rule, score_game, scoring, scoring_with, sheet

__all__ = [
    "CHOICE_WORDS",
    "DEFAULT_PRESET",
    "ERROR_CLASSES",
    "MAX_BOXES",
    "MAX_NAME",
    "PRESETS",
    "PRESET_ORDER",
    "RULE_TEXTS",
    "SETTINGS",
    "SUIT_SYMBOLS",
    "Arrangement",
    "Card",
    "Cut",
    "IllegalPlayError",
    "KnockLimit",
    "NotationError",
    "RuleText",
    "Rules",
    "ScorekeeperError",
    "Scoring",
    "Section",
    "Setting",
    "Suit",
    "adjudicate",
    "arrange",
    "arrangements",
    "best_arrangement",
    "best_arrangements",
    "check_players",
    "checks",
    "cut_for_deal",
    "eldest",
    "find_rules",
    "knock_limit",
    "knock_limit_for",
    "may_knock",
    "ordered_presets",
    "parse_cards",
    "player_name",
    "rule",
    "rule_box",
    "rule_text",
    "rule_texts",
    "score",
    "score_game",
    "scoring",
    "scoring_with",
    "sections",
    "setting_words",
    "settings_table",
    "sheet",
    "shown",
    "spoken",
    "too_many_boxes",
]
