"""Whether a hand may knock: the knock limit of a box and the verdict on a count (C6, V2).

The dispute page's hand check and the box form ask these, so the rule is answered in
one place: a preset's fixed limit, a house limit, Oklahoma's first upcard (an ace: gin
only, or a knock with 1), Knock Rummy's knock at any count.

>>> from .cards import Card
>>> from .rules import find_rules
>>> limit = knock_limit(find_rules("oklahoma"), Card.parse("7C"))
>>> limit.value, limit.source
(7, 'the first upcard 7♣ (V2)')
>>> may_knock(8, limit)
'Cannot knock: count 8 is over 7, the first upcard 7♣ (V2) (C6).'
>>> may_knock(9, knock_limit(find_rules("gin")))
'Can knock: count 9 is within 10, the limit of Gin Rummy (C6).'
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .rules import Rules
from .ruling import knock_limit_for


@dataclass(frozen=True)
class KnockLimit:
    """The highest count that may knock (``None``: any count, or unknown while
    ``known`` is false: Oklahoma without its upcard) and where it comes from, in words."""

    value: int | None
    source: str
    gin_only: bool = False
    """Oklahoma's ace upcard under ``ace_upcard: gin-only``: no knock at all (V2)."""
    known: bool = True


def knock_limit(rules: Rules, upcard: Card | None = None, house: int | None = None) -> KnockLimit:
    """The knock limit to judge by: a ``house`` limit the table agreed, else the rules'
    (C6); Oklahoma's comes from the first ``upcard`` (V2)."""
    if house is not None:
        return KnockLimit(house, "the house limit")
    if rules.knock_limit_from != "fixed":
        if upcard is None:
            return KnockLimit(None, f"in {rules.title} the upcard sets the limit (V2): give it", known=False)
        value, _ = knock_limit_for(rules, upcard)
        gin_only = value == 0
        what = "an ace: gin only, V2" if gin_only else "V2"
        return KnockLimit(value, f"the first upcard {upcard} ({what})", gin_only)
    if rules.knock_limit is None:
        return KnockLimit(None, f"{rules.title} lets a player knock at any count")
    return KnockLimit(rules.knock_limit, f"the limit of {rules.title}")


def may_knock(count: int, limit: KnockLimit) -> str:
    """Whether a hand of this count may knock under ``limit``, in words (C6, V2)."""
    if count == 0:
        return "Gin: count 0."
    if limit.gin_only:
        return f"Cannot knock: count {count}, and {limit.source}."
    if limit.value is None:
        return f"Count {count}: {limit.source}."
    if count <= limit.value:
        return f"Can knock: count {count} is within {limit.value}, {limit.source} (C6)."
    return f"Cannot knock: count {count} is over {limit.value}, {limit.source} (C6)."


__all__ = ["KnockLimit", "knock_limit", "may_knock"]
