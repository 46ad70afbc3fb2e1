"""What the sheets call each way a box can end, from the engine's vocabulary.

The phone, the PDF and the explanations say the same thing ("gin after the
break"): the words and letters are the engine's (``engine/vocabulary.py``);
this module only shapes them for the printed page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine.rules import Rules
from ..engine.vocabulary import ENDING_VERBS, RESULT_LETTERS, RESULT_NAMES, VOID_RESULTS, vocabulary_for


@dataclass(frozen=True)
class Result:
    """One way a box ends: its letter in the narrow "how" column and its name in words."""

    letter: str
    name: str
    scores: bool = True
    """False for a draw or misdeal, which no one wins."""


RESULTS: Mapping[str, Result] = {
    key: Result(RESULT_LETTERS[key], name, key not in VOID_RESULTS) for key, name in RESULT_NAMES.items()
}

KNOCKER_MARK = "ᵏ"
"""After a count: the knocker's (or breaker's) count, the one the others were measured by."""
NOTE_MARK = "*"
"""After a box number: the box has a note, printed under the table."""


def result(key: str) -> Result:
    """The :class:`Result` of a scored box's ``result`` (an unknown one is named as the
    engine wrote it).

    >>> result("break-gin").name, result("odd-one").letter
    ('gin after the break', '?')
    """
    return RESULTS.get(key) or Result("?", key.replace("-", " "))


def legend(*, beaten: str, knocker: bool = True, has_break: bool = True) -> str:
    """The key to the letters, printed on every page that uses them: ``beaten`` is the
    game's own word for a knock beaten ("underknock", "undercut": the word its box detail
    uses, :func:`beaten_word`); the break's letters only in a game that has the break (J10).

    >>> legend(beaten="underknock")
    'K knock · U underknock · G gin · B break · BG gin after the break · 4ᵏ knocker’s count'
    >>> legend(beaten="undercut", has_break=False)
    'K knock · U undercut · G gin · 4ᵏ knocker’s count'
    """
    parts = [f"{RESULT_LETTERS[key]} {RESULT_NAMES[key]}" for key in ("knock", "gin")]
    parts.insert(1, f"{RESULT_LETTERS['underknock']} {beaten}")
    if has_break:
        parts += [f"{RESULT_LETTERS[key]} {RESULT_NAMES[key]}" for key in ("break", "break-gin")]
    if knocker:
        parts.append(f"4{KNOCKER_MARK} knocker’s count")
    return " · ".join(parts)


def beaten_word(rules: Rules, players: int) -> str:
    """A knock beaten, as this game's box detail words it: the game's word (Gin's
    "undercut", Jersey's "underknock"); Knock Rummy's follows the number of players, as
    its ruling does ("undercut" for two, "underknock" for more).

    >>> from scorekeeper.engine import find_rules
    >>> knock = find_rules("knock-rummy")
    >>> beaten_word(knock, 2), beaten_word(knock, 3), beaten_word(find_rules("gin"), 2)
    ('undercut', 'underknock', 'undercut')
    """
    return vocabulary_for(rules).result_name("undercut" if players == 2 else "underknock")


def headline(key: str, winner: str | None, by: str | None = None) -> str:
    """Who won the box and how (its ``result``, ``winner`` and the player who knocked or
    broke), in words, never naming the loser as its subject.

    >>> headline("underknock", "Sal", "Marge")
    'Sal won by an underknock (Marge knocked)'
    >>> headline("gin", "Ann", "Ann"), headline("misdeal", None)
    ('Ann won by gin', 'misdeal')
    """
    found = result(key)
    if not found.scores or winner is None:
        return found.name
    article = (
        "an "
        if found.name[0] in "aeiou" and found.name != "gin"
        else ("a " if found.name in ("knock", "break") else "")
    )
    line = f"{winner} won by {article}{found.name}"
    if by is not None and by != winner:
        verb = ENDING_VERBS["break" if key in ("break", "break-gin") else "knock"]
        line += f" ({by} {verb})"
    return line
