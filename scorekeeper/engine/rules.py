"""Rule sets as data (RULES.md §7).

A :class:`Rules` value holds every setting of RULES.md §7 under its canonical
name. Each preset is one such value, found by name with :func:`find_rules`, and
a game may override any setting with :meth:`Rules.with_settings`; the result is
frozen with the game.

>>> rules = find_rules("jersey-scarne")
>>> rules.gin_bonus, rules.underknock_bonus, rules.layoffs
(40, 10, 'sequential')
>>> find_rules("gin").with_settings({"underknock_bonus": 10}).underknock_bonus
10
>>> find_rules("gin").with_settings({"undercut": 10})
Traceback (most recent call last):
...
scorekeeper.engine.errors.UnknownSettingError: 'undercut' is not a setting; ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import MalformedError, UnknownRulesError, UnknownSettingError

KnockLimitFrom = Literal["fixed", "first-upcard", "current-upcard"]
Family = Literal["jersey", "parlett", "gin", "knock-rummy"]
"""Which section of RULES.md a rule set belongs to: its rule ids are cited (J, P, G, K)."""
Layoffs = Literal["sequential", "knocker-original-only", "knocker-only", "none"]
StockEnd = Literal["break-3", "draw-3", "draw-2", "draw-players"]


@dataclass(frozen=True)
class Setting:
    """What a setting means and which values it takes, for the app and the docs."""

    name: str
    meaning: str
    rule: str
    choices: tuple[Any, ...] = ()
    kind: type = int
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None

    @property
    def source(self) -> str:
        """Where the presets' values of this setting come from (RULES.md §7), in short."""
        return SOURCES[self.name]


SOURCES: dict[str, str] = {
    "knock_limit": "C6: 10 in Scarne, Parlett and Denexa; K2: any count in Knock Rummy",
    "knock_limit_from": "V2: Parlett's Oklahoma Gin (first upcard; current upcard in 1979)",
    "ace_upcard": "V2: Parlett, an ace upcard means gin only",
    "spade_doubles": "V2: Parlett, a spade first upcard doubles (off by default)",
    "tie_goes_to_defender": "J7: Scarne; G5: Parlett, Denexa; K3: lower than the knocker",
    "underknock_bonus": "J7: Scarne 10; G5: 25 (Parlett, Wikipedia); V1: 10; K3: 10",
    "knocker_penalty": "P4: Parlett's Three-hand Gin, 20 (or 25)",
    "gin_bonus": "J9: Scarne 20 from each; P6: Parlett 50; G6: 25; V1: 20; K3: 25",
    "break_gin_bonus": "J13: Scarne 0; Denexa's reading gives the usual 40",
    "layoffs": "J5: Scarne; P5: Parlett; G3: the knocker's melds; K2: none",
    "stock_end": "J10: Scarne's break; P7: Parlett's draw at 3; G7: draw at 2; K4",
    "redeal_after_draw": "G7: Parlett 'the deal passes', Denexa 'the deal rotates'; "
    "Scarne's Jersey keeps the dealer",
    "gin_layoffs": "J9, G3: no layoffs on gin (Scarne, Parlett); seed 002's base rule allows them",
    "game_target": "J14: Scarne 100; P8: Parlett 200; G8: 100; K5: an agreed stop",
    "game_bonus": "J14: Scarne 100; G8: Parlett 100; K5: none",
    "box_bonus": "J14: Scarne 25; G8: 25; V1: 20; K5: none",
    "shutout": "J15: Scarne doubles; G8: Parlett doubles",
    "settlement": "J16: Scarne, every pair settles",
    "around_the_corner": "V4: some tables; aces are low in every book (C3)",
    "ace_value": "V4: 1 in the books, 15 in many clubs",
    "hand_size": "K1: Parlett, ten for two players, seven for three to five",
    "hollywood_columns": "V3: Parlett, as many double columns as deals to be played",
    "hollywood_entry": "V3: Parlett per deal; per win the other common method",
}
"""The source of each setting's values, shown beside it in the rules table."""


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "knock_limit",
        "Highest count that may knock (empty: any count)",
        "C6",
        nullable=True,
        minimum=0,
        maximum=98,
    ),
    Setting(
        "knock_limit_from",
        "Where the knock limit comes from",
        "V2",
        ("fixed", "first-upcard", "current-upcard"),
        str,
    ),
    Setting(
        "ace_upcard",
        "Oklahoma: an ace upcard means gin only, or knock with 1",
        "V2",
        ("gin-only", "knock-1"),
        str,
    ),
    Setting("spade_doubles", "Oklahoma: a spade first upcard doubles the box", "V2", kind=bool),
    Setting(
        "tie_goes_to_defender", "A defender whose count equals the knocker's underknocks", "J7", kind=bool
    ),
    Setting("underknock_bonus", "Bonus for an underknock or undercut", "J7", minimum=0, maximum=1000),
    Setting(
        "knocker_penalty",
        "Subtracted from a knocker who is undercut (Parlett)",
        "P4",
        minimum=0,
        maximum=1000,
    ),
    Setting("gin_bonus", "Bonus for gin, in all", "J9", minimum=0, maximum=1000),
    Setting("break_gin_bonus", "Bonus for gin after the break", "J13", minimum=0, maximum=1000),
    Setting(
        "layoffs",
        "Who may lay off on whose melds",
        "J5",
        ("sequential", "knocker-original-only", "knocker-only", "none"),
        str,
    ),
    Setting(
        "stock_end",
        "What happens when the stock runs low",
        "J10",
        ("break-3", "draw-3", "draw-2", "draw-players"),
        str,
    ),
    Setting("redeal_after_draw", "Who deals after a drawn box", "G7", ("same", "next"), str),
    Setting("gin_layoffs", "Opponents may lay off on a gin hand", "G3", kind=bool),
    Setting(
        "game_target",
        "Total that ends the game (empty: the players stop)",
        "J14",
        nullable=True,
        minimum=1,
        maximum=100000,
    ),
    Setting("game_bonus", "Bonus to the game's winner", "J14", minimum=0, maximum=100000),
    Setting("box_bonus", "Bonus per box won, added at the end", "J14", minimum=0, maximum=100000),
    Setting(
        "shutout",
        "A shut-out loser's debt to the winner: double, none, or a number added",
        "J15",
        ("double", "none"),
        str,
    ),
    Setting(
        "settlement",
        "Every pair settles, or only the winner collects",
        "J16",
        ("pairwise", "winner-only"),
        str,
    ),
    Setting("around_the_corner", "K-A-2 and Q-K-A are runs", "V4", kind=bool),
    Setting("ace_value", "Count of an ace", "V4", minimum=1, maximum=15),
    Setting(
        "hand_size",
        "Cards in each hand (empty: 10 for two players, 7 for more)",
        "K1",
        nullable=True,
        minimum=7,
        maximum=10,
    ),
    Setting(
        "hollywood_columns", "Hollywood: deals to be played, one column each", "V3", minimum=1, maximum=50
    ),
    Setting(
        "hollywood_entry", "Hollywood: a column opens per deal or per win", "V3", ("per-deal", "per-win"), str
    ),
)
SETTINGS_BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


@dataclass(frozen=True)
class Rules:
    """A complete rule set: a preset, possibly with some settings overridden."""

    name: str
    title: str
    family: Family
    min_players: int
    max_players: int
    knock_limit: int | None = 10
    knock_limit_from: KnockLimitFrom = "fixed"
    ace_upcard: Literal["gin-only", "knock-1"] = "gin-only"
    spade_doubles: bool = False
    tie_goes_to_defender: bool = True
    underknock_bonus: int = 25
    knocker_penalty: int = 0
    gin_bonus: int = 25
    break_gin_bonus: int = 0
    layoffs: Layoffs = "knocker-only"
    stock_end: StockEnd = "draw-2"
    redeal_after_draw: Literal["same", "next"] = "next"
    gin_layoffs: bool = False
    game_target: int | None = 100
    game_bonus: int = 100
    box_bonus: int = 25
    shutout: str | int = "double"
    settlement: Literal["pairwise", "winner-only"] = "pairwise"
    around_the_corner: bool = False
    ace_value: int = 1
    hand_size: int | None = 10
    hollywood: bool = False
    hollywood_columns: int = 3
    hollywood_entry: Literal["per-win", "per-deal"] = "per-deal"
    doubling: bool = False
    overrides: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def with_settings(self, settings: Mapping[str, Any] | None, where: str = "settings") -> Rules:
        """This rule set with some settings changed; unknown names and bad values raise."""
        if not settings:
            return self
        if not isinstance(settings, Mapping):
            raise MalformedError("settings must be an object of setting names and values", where)
        changes = {name: _check_setting(name, value, f"{where}.{name}") for name, value in settings.items()}
        if "game_target" in changes and changes["game_target"] is None and (self.family != "knock-rummy"):
            raise MalformedError(
                f"{self.title} needs a game target: only Knock Rummy may be played without "
                "one, until the players stop (K5)",
                f"{where}.game_target",
            )
        merged = dict(self.overrides)
        merged.update(changes)
        return dataclasses.replace(self, overrides=tuple(sorted(merged.items())), **changes)

    def settings(self) -> dict[str, Any]:
        """Every setting's value, by canonical name (what the app shows)."""
        return {s.name: getattr(self, s.name) for s in SETTINGS}

    def changed_settings(self) -> dict[str, Any]:
        """The settings that differ from this rule set's preset."""
        preset = find_rules(self.name)
        return {name: value for name, value in self.settings().items() if getattr(preset, name) != value}

    @property
    def players_words(self) -> str:
        """How many play: "3", or "2 to 4" where the rules take a range."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    @property
    def usual_table_size(self) -> int:
        """The players to a table when none is said: the rules' own number, or 4."""
        return self.min_players if self.min_players == self.max_players else 4

    @property
    def is_three_hand(self) -> bool:
        return self.min_players == 3

    def hand_size_for(self, players: int) -> int:
        """Cards in each hand at the showdown (K1: 10 for two players, 7 for more)."""
        if self.hand_size is not None:
            return self.hand_size
        return 10 if players == 2 else 7

    def stock_end_cards(self, players: int) -> int:
        """How many stock cards end play (J10, P7, G7, K4)."""
        if self.stock_end == "draw-players":
            return players
        return int(self.stock_end[-1])


def _check_setting(name: str, value: Any, where: str) -> Any:
    """Validate one override against its :class:`Setting` description."""
    setting = SETTINGS_BY_NAME.get(name)
    if setting is None:
        known = ", ".join(SETTINGS_BY_NAME)
        raise UnknownSettingError(f"{name!r} is not a setting; the settings are {known}", where)
    if value is None and setting.nullable:
        return None
    if name == "shutout" and isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= 100000:
            raise MalformedError("shutout as a number must be from 0 to 100000", where)
        return value
    if setting.kind is bool:
        if not isinstance(value, bool):
            raise MalformedError(f"{name} must be true or false, not {value!r}", where)
        return value
    if setting.kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise MalformedError(f"{name} must be a whole number, not {value!r}", where)
        low, high = setting.minimum, setting.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            raise MalformedError(f"{name} must be from {low} to {high}, not {value}", where)
        return value
    if value not in setting.choices:
        options = ", ".join(str(c) for c in setting.choices)
        extra = " or a number" if name == "shutout" else ""
        raise MalformedError(f"{name} must be one of {options}{extra}, not {value!r}", where)
    return value


_GIN = Rules(name="gin", title="Gin Rummy", family="gin", min_players=2, max_players=2)

PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        Rules(
            name="jersey-scarne",
            title="Jersey Gin (Scarne)",
            family="jersey",
            min_players=3,
            max_players=3,
            underknock_bonus=10,
            gin_bonus=40,
            layoffs="sequential",
            stock_end="break-3",
            redeal_after_draw="same",
        ),
        Rules(
            name="three-hand-parlett",
            title="Three-hand Gin (Parlett)",
            family="parlett",
            min_players=3,
            max_players=3,
            underknock_bonus=0,
            knocker_penalty=20,
            gin_bonus=50,
            layoffs="knocker-original-only",
            stock_end="draw-3",
            game_target=200,
        ),
        _GIN,
        dataclasses.replace(
            _GIN,
            name="gin-classic",
            title="Gin Rummy (classic scoring)",
            underknock_bonus=10,
            gin_bonus=20,
            box_bonus=20,
        ),
        dataclasses.replace(_GIN, name="oklahoma", title="Oklahoma Gin", knock_limit_from="first-upcard"),
        dataclasses.replace(_GIN, name="hollywood", title="Hollywood Gin", hollywood=True),
        dataclasses.replace(
            _GIN, name="around-the-corner", title="Around-the-Corner Gin", around_the_corner=True
        ),
        dataclasses.replace(_GIN, name="doubling", title="Doubling Gin", doubling=True),
        Rules(
            name="knock-rummy",
            title="Knock Rummy",
            family="knock-rummy",
            min_players=2,
            max_players=5,
            knock_limit=None,
            tie_goes_to_defender=False,
            underknock_bonus=10,
            gin_bonus=25,
            layoffs="none",
            stock_end="draw-players",
            game_bonus=0,
            box_bonus=0,
            shutout="none",
            hand_size=None,
        ),
    )
}
"""Every preset of RULES.md, by id."""


def find_rules(name: str, where: str = "rules") -> Rules:
    """The preset with this id (``jersey-scarne``, ``gin``, ...).

    >>> find_rules("oklahoma").knock_limit_from
    'first-upcard'
    >>> find_rules("canasta")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.UnknownRulesError: 'canasta' is not a rule set; choose one of jersey-scarne, ...
    """
    if not isinstance(name, str) or name not in PRESETS:
        choices = ", ".join(PRESETS)
        raise UnknownRulesError(f"{name!r} is not a rule set; choose one of {choices}", where)
    return PRESETS[name]


def default_rules_for(players: int) -> Rules:
    """Jersey Gin for three players, two-hand Gin for two (RULES.md §2 heading)."""
    return find_rules("jersey-scarne" if players == 3 else "gin")


DEFAULT_PRESET = "jersey-scarne"
"""The game this app is for: the preset a form or page offers first."""
PRESET_ORDER = (
    "jersey-scarne",
    "gin",
    "oklahoma",
    "hollywood",
    "doubling",
    "around-the-corner",
    "gin-classic",
    "three-hand-parlett",
    "knock-rummy",
)
"""The order pages, the PDF and the command line list presets in: Jersey Gin first, then
two-hand Gin and its variants."""


def ordered_presets() -> list[Rules]:
    """Every preset, in :data:`PRESET_ORDER` (any preset it does not name last)."""
    ordered = [PRESETS[name] for name in PRESET_ORDER if name in PRESETS]
    return ordered + [p for name, p in PRESETS.items() if name not in PRESET_ORDER]


CHOICE_WORDS: dict[str, str] = {
    "fixed": "a fixed number",
    "first-upcard": "the first upcard",
    "current-upcard": "the current upcard",
    "gin-only": "gin only",
    "knock-1": "knock with 1",
    "sequential": "each on the melds before him (J5)",
    "knocker-original-only": "on the knocker's own melds only (P5)",
    "knocker-only": "on the knocker's melds (G3)",
    "none": "none",
    "break-3": "the break at 3 cards",
    "draw-3": "a draw at 3 cards",
    "draw-2": "a draw at 2 cards",
    "draw-players": "a draw at as many cards as players",
    "same": "the same dealer",
    "next": "the next dealer",
    "double": "double",
    "pairwise": "every pair settles",
    "winner-only": "only the winner collects",
    "per-win": "a column per win",
    "per-deal": "a column per deal",
}
"""The words for each setting's choices, as pages, the PDF and the command line say them."""


def setting_words(value: object) -> str:
    """A setting's value in plain words.

    >>> setting_words(True), setting_words(None), setting_words("first-upcard"), setting_words(25)
    ('yes', 'any', 'the first upcard', '25')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "any"
    return CHOICE_WORDS.get(str(value), str(value))
