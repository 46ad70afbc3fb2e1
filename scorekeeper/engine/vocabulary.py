"""The words each game uses for its deals and results: one place for the whole app.

Jersey Gin and Parlett's Three-hand Gin say *box*, *knock*, *underknock* and
*break*; the two-hand games (Gin Rummy and its variants) say *hand*, *knock* and
*undercut* (RULES.md §2-§4). The explanations, the web pages and the PDF take
their words from here, so that the phone, the paper and the ruling agree ("gin
after the break" everywhere, not "Break gin" on one and "Gin after break" on
another).

>>> jersey = vocabulary_for(find_rules("jersey-scarne"))
>>> jersey.deal, jersey.result_name("break-gin"), jersey.result_name("underknock")
('box', 'gin after the break', 'underknock')
>>> gin = vocabulary_for(find_rules("hollywood"))
>>> gin.deal, gin.result_name("undercut"), gin.title("undercut")
('hand', 'undercut', 'Undercut')
>>> gin.next_deal
'the next hand'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import ScorekeeperError
from .rules import Family, Rules, find_rules

RESULT_NAMES: dict[str, str] = {
    "knock": "knock",
    "underknock": "underknock",
    "undercut": "undercut",
    "gin": "gin",
    "break": "break",
    "break-gin": "gin after the break",
    "draw": "draw",
    "misdeal": "misdeal",
}
"""The name of each ``result`` of a ruling (CONTRACT.md), in words for people."""

RESULT_LETTERS: dict[str, str] = {
    "knock": "K",
    "underknock": "U",
    "undercut": "U",
    "gin": "G",
    "break": "B",
    "break-gin": "BG",
    "draw": "–",
    "misdeal": "–",
}
"""Each result's letter, for a narrow column of a sheet (the key printed beside it)."""

VOID_RESULTS = frozenset({"draw", "misdeal"})
"""Results nobody wins (C11, G7, P7, K4)."""

ENDING_VERBS: dict[str, str] = {"knock": "knocked", "gin": "went gin", "break": "broke"}
"""What the player named by ``by`` did, by the box's ending."""


@dataclass(frozen=True)
class Cites:
    """The rule ids a family's game rules live under: end, bonuses, shutout, settlement."""

    end: str
    bonus: str
    shutout: str
    settle: str
    deal: str
    """The rule the deal follows: the first dealer and the deal passing (J1/J2, G1, K1)."""
    draw: str
    """The rule of a drawn (void) box (P7, G7, K4)."""


CITES = {
    "jersey": Cites("J14", "J14", "J15", "J16", "J2", "J10"),
    "parlett": Cites("P8", "P8", "P8", "P8", "J2", "P7"),
    "gin": Cites("G8", "G8", "G8", "G8", "G1", "G7"),
    "knock-rummy": Cites("K5", "K5", "K5", "K5", "K1", "K4"),
}


SETTING_RULES: dict[str, dict[str, str]] = {
    "parlett": {
        "underknock_bonus": "P4",
        "gin_bonus": "P6",
        "layoffs": "P5",
        "stock_end": "P7",
        "tie_goes_to_defender": "P3",
    },
    "gin": {
        "underknock_bonus": "G5",
        "gin_bonus": "G6",
        "layoffs": "G3",
        "stock_end": "G7",
        "tie_goes_to_defender": "G5",
        "knock_limit": "G2",
    },
    "knock-rummy": {
        "underknock_bonus": "K3",
        "gin_bonus": "K3",
        "layoffs": "K2",
        "stock_end": "K4",
        "tie_goes_to_defender": "K3",
        "knock_limit": "K2",
    },
}
"""The rule each game cites for a setting that Jersey's rules name first (RULES.md §7):
Gin's undercut bonus is G5, not J7; the game's end, bonuses, shutout and settlement
follow :data:`CITES`."""


def title_of(result: str) -> str:
    """A result's name with a capital, for a heading or a table cell (an unknown one as
    written, its hyphens spaced).

    >>> title_of("break-gin"), title_of("odd-one")
    ('Gin after the break', 'Odd one')
    """
    name = RESULT_NAMES.get(result, result.replace("-", " "))
    return name[:1].upper() + name[1:]


@dataclass(frozen=True)
class Vocabulary:
    """The words of one game: what a deal is called and what beating a knock is called."""

    family: Family
    deal: str
    """One deal from shuffle to score (C7): "box" or "hand"."""
    deals: str
    beaten: str
    """A defender beating the knocker: "underknock" or "undercut"."""
    beaten_verb: str
    """The same as a verb in the past: "underknocked" or "undercut"."""
    has_break: bool

    @property
    def cites(self) -> Cites:
        """The rule ids this game's end, bonuses, shutout and settlement live under: a
        page cites G8 for a Gin shutout, never Jersey's J15."""
        return CITES[self.family]

    def say(self, text: str) -> str:
        """A text written for Jersey (a setting's meaning) in this game's word for a deal.

        >>> vocabulary("gin").say("Bonus per box won; two boxes")
        'Bonus per hand won; two hands'
        """
        if self.deal == "box":
            return text

        def word(found: re.Match[str]) -> str:
            said = self.deals if found[2] else self.deal
            return said.capitalize() if found[1] == "B" else said

        return re.sub(r"\b([Bb])ox(es)?\b", word, text)

    def setting_rule(self, name: str, rule: str) -> str:
        """The rule this game cites for a setting whose own rule id is ``rule`` (the id
        of RULES.md §7, most often Jersey's): a Knock Rummy target is K5, not J14.

        >>> said = vocabulary("knock-rummy")
        >>> said.setting_rule("game_target", "J14"), said.setting_rule("shutout", "J15")
        ('K5', 'K5')
        >>> vocabulary("gin").setting_rule("underknock_bonus", "J7")
        'G5'
        >>> vocabulary("jersey-scarne").setting_rule("game_target", "J14")
        'J14'
        """
        cites = self.cites
        game = {
            "game_target": cites.end,
            "game_bonus": cites.bonus,
            "box_bonus": cites.bonus,
            "shutout": cites.shutout,
            "settlement": cites.settle,
        }
        if name in game:
            return game[name]
        return SETTING_RULES.get(self.family, {}).get(name, rule)

    @property
    def next_deal(self) -> str:
        return f"the next {self.deal}"

    def result_name(self, result: str) -> str:
        """The name of a ruling's result in this game (``underknock`` follows the game;
        Knock Rummy, for two to five, names it by the number of players as the result does)."""
        if result in ("underknock", "undercut") and self.family != "knock-rummy":
            return self.beaten
        return RESULT_NAMES[result]

    def title(self, result: str) -> str:
        """The result's name with a capital, for a heading or a table cell."""
        return title_of(self.result_name(result))


_BOX = {"jersey", "parlett"}


def vocabulary_for(rules: Rules) -> Vocabulary:
    """The words of the game these rules play (by RULES.md section: J and P say box)."""
    if rules.family in _BOX:
        return Vocabulary(
            rules.family, "box", "boxes", "underknock", "underknocked", rules.stock_end == "break-3"
        )
    return Vocabulary(rules.family, "hand", "hands", "undercut", "undercut", False)


def deal_word(rules: object, plural: bool = False) -> str:
    """What a page calls a deal under ``rules`` ("box" where the rules are not known,
    as on a page that shows no game).

    >>> deal_word(find_rules("gin")), deal_word(None, plural=True)
    ('hand', 'boxes')
    """
    if isinstance(rules, Rules):
        said = vocabulary_for(rules)
        return said.deals if plural else said.deal
    return "boxes" if plural else "box"


def shared_deal_word(presets: Iterable[str], plural: bool = False) -> str:
    """What pages over several games (a player's record, its CSV) call a deal: the
    games' own word when they all share it, else the neutral "deal" (C7: a box is one
    deal).

    >>> shared_deal_word(["gin", "hollywood"]), shared_deal_word(["gin", "jersey-scarne"])
    ('hand', 'deal')
    >>> shared_deal_word([], plural=True)
    'deals'
    """
    words = set()
    for preset in presets:
        try:
            said = vocabulary(preset)
        except ScorekeeperError:
            return "deals" if plural else "deal"
        words.add(said.deals if plural else said.deal)
    return words.pop() if len(words) == 1 else ("deals" if plural else "deal")


def vocabulary(preset: str) -> Vocabulary:
    """The words of a preset by its id (for pages that know only the name)."""
    return vocabulary_for(find_rules(preset))


# --- an event's words: one for one thing, on the pages, the projector and the paper -----


class TableStatus(enum.StrEnum):
    """Where a table of an event stands."""

    WAITING = "waiting"
    """Seated, no box recorded yet."""
    PLAYING = "playing"
    DONE = "done"
    """Its game is over (played to its end)."""
    AGREED = "agreed"
    """Its game was ended by agreement (the players, the director, a forced close)."""

    @property
    def words(self) -> str:
        """ "not started", "playing", "done", "ended by agreement"."""
        return TABLE_STATUS_WORDS[self]

    @property
    def finished(self) -> bool:
        return self in (TableStatus.DONE, TableStatus.AGREED)


TABLE_STATUS_WORDS = {
    TableStatus.WAITING: "not started",
    TableStatus.PLAYING: "playing",
    TableStatus.DONE: "done",
    TableStatus.AGREED: "ended by agreement",
}
"""Each table status in words, the same on every page and paper."""

TIE_BREAK_WORDS = {"won": "Tables won", "boxes": "Boxes won", "head_to_head": "Head to head"}
"""Each tie-break of the standings (RULES.md E1, E6) in words."""

TIE_BREAK_SHORT = {"won": "Won", "boxes": "Boxes", "head_to_head": "Head to head"}
"""Each tie-break as a column heads it."""


__all__ = [
    "CITES",
    "ENDING_VERBS",
    "RESULT_LETTERS",
    "RESULT_NAMES",
    "TABLE_STATUS_WORDS",
    "TIE_BREAK_SHORT",
    "TIE_BREAK_WORDS",
    "VOID_RESULTS",
    "Cites",
    "TableStatus",
    "Vocabulary",
    "deal_word",
    "shared_deal_word",
    "title_of",
    "vocabulary",
    "vocabulary_for",
]
