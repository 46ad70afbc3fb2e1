"""The rules engine: pure standard library, no Flask, no database, no ReportLab.

Everything outside the engine uses only what is exported here (docs/engine-api.md).

>>> adjudicate({"rules": "gin", "players": ["Ann", "Bob"], "ending": "gin", "by": "Ann",
...             "hands": {"Ann": {"count": 0}, "Bob": {"count": 31}}})["points"]
56
"""

from .arrange import arrange
from .cards import Card, Suit, parse_cards
from .errors import ERROR_CLASSES, IllegalPlayError, NotationError, ScorekeeperError
from .rules import PRESETS, SETTINGS, Rules, Setting, find_rules
from .showdown import adjudicate, rule_box

__all__ = [
    "ERROR_CLASSES",
    "PRESETS",
    "SETTINGS",
    "Card",
    "IllegalPlayError",
    "NotationError",
    "Rules",
    "ScorekeeperError",
    "Setting",
    "Suit",
    "adjudicate",
    "arrange",
    "find_rules",
    "parse_cards",
    "rule_box",
]
