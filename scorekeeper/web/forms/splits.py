"""Meld splits and layoffs (C8): the engine's proposed layout of a hand given by cards,
and the other legal splits, shown for the player to choose.

A piece the box form uses (``box.py``); it knows nothing of the form itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ... import engine

AUTO = ""
"""The split value meaning "the proposal as shown" (the engine's, or the stored one)."""
NO_MELDS = "-"


def split_key(melds: Iterable[Iterable[str]]) -> str:
    """A meld split as one form value, the same whatever the order of the melds:
    ``2S.3S.4S|7C.7D.7H`` (``-`` for no melds).

    >>> split_key([["7C", "7D", "7H"], ["AS", "2S", "3S"]])
    '7C.7D.7H|AS.2S.3S'
    >>> read_split("7C.7D.7H|AS.2S.3S", ["AS", "2S", "3S", "7C", "7D", "7H", "9D"])
    [['7C', '7D', '7H'], ['AS', '2S', '3S']]
    >>> read_split("AS.2S.3S|3S.4S.5S", ["AS", "2S", "3S", "4S", "5S"]) is None
    True
    """
    key = "|".join(sorted(".".join(meld) for meld in melds))
    return key or NO_MELDS


def read_split(raw: str | None, cards: Sequence[str]) -> list[list[str]] | None:
    """The melds a split value names, if they are disjoint and all in ``cards``."""
    raw = (raw or "").strip().upper()
    if not raw:
        return None
    if raw == NO_MELDS:
        return []
    melds = [[card for card in part.split(".") if card] for part in raw.split("|")]
    used = [card for meld in melds for card in meld]
    if len(used) != len(set(used)) or not set(used) <= set(cards) or any(len(meld) < 3 for meld in melds):
        return None
    return melds


def signature(ending: Any, by: Any, upcard: str, hands: list[list[str]], splits: list[str | None]) -> str:
    """A short hash of what a proposal depends on (see ``box.proposal_signature``)."""
    raw = json.dumps([ending, by, upcard, hands, splits], sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


@dataclass
class SplitOption:
    """One way the player may have laid out his melds, as the page offers it."""

    key: str
    melds: list[list[str]]
    deadwood: list[str]
    count: int


@dataclass
class Proposal:
    """The melds and layoffs the engine proposed for one hand, with the player's choices:
    another meld split (C8), and the layoffs he kept."""

    melds: list[list[str]]
    layoffs: list[dict[str, Any]]
    declared: bool = False
    signature: str = ""
    kept: set[str] = field(default_factory=set)
    split: list[list[str]] | None = None
    options: list[SplitOption] = field(default_factory=list)
    auto: SplitOption | None = None

    @staticmethod
    def layoff_id(layoff: Mapping[str, Any]) -> str:
        return f"{layoff['card']}>{layoff['onto']}>{layoff.get('meld', '')}"

    def to_json(self) -> str:
        return json.dumps(
            {"melds": self.melds, "layoffs": self.layoffs, "declared": self.declared, "sig": self.signature}
        )

    @classmethod
    def read(cls, raw: str | None, keep: Sequence[str], signature: str) -> Proposal | None:
        """The proposal a hand's hidden field carries, if it is for these cards."""
        if not raw:
            return None
        try:
            data = json.loads(raw)
            proposal = cls(
                melds=[[str(c) for c in meld] for meld in data["melds"]],
                layoffs=[dict(lay) for lay in data["layoffs"]],
                declared=bool(data.get("declared")),
                signature=str(data["sig"]),
                kept=set(keep),
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        return proposal if proposal.signature == signature else None

    @property
    def shown_melds(self) -> list[list[str]]:
        """The melds the hand is laid out in: the chosen split, else the proposal's."""
        return self.proposal_melds if self.split is None else self.split

    @property
    def proposal_melds(self) -> list[list[str]]:
        return self.melds

    @property
    def chosen_key(self) -> str:
        """The split radio to tick: AUTO while the proposal's own melds are used."""
        if self.split is None or split_key(self.split) == split_key(self.melds):
            return AUTO
        return split_key(self.split)

    def open_layoffs(self) -> list[dict[str, Any]]:
        """The proposed layoffs still possible: their card is not in a chosen meld."""
        melded = {card for meld in self.shown_melds for card in meld}
        return [lay for lay in self.layoffs if lay.get("card") not in melded]

    def declared_hand(self, cards: Sequence[str]) -> dict[str, Any]:
        """The declared form (CONTRACT.md): the melds shown and the layoffs kept."""
        melds = self.shown_melds
        layoffs = [lay for lay in self.open_layoffs() if self.layoff_id(lay) in self.kept]
        placed = [card for meld in melds for card in meld] + [lay["card"] for lay in layoffs]
        deadwood = [card for card in cards if card not in placed]
        return {"melds": melds, "deadwood": deadwood, "layoffs": layoffs}


MAX_OPTIONS = 6


def as_option(meld_codes: list[list[str]], cards: Sequence[str], ace_value: int) -> SplitOption:
    """The proposal's own split, shown like the alternatives (count before layoffs)."""
    placed = {card for meld in meld_codes for card in meld}
    deadwood = [card for card in cards if card not in placed]
    try:
        count = sum(card.value(ace_value) for card in engine.parse_cards(deadwood))
    except ValueError:
        count = 0
    return SplitOption(AUTO, meld_codes, deadwood, count)


def split_options(
    cards: Sequence[str], limit: int | None, rules: Any, proposal: Proposal
) -> list[SplitOption]:
    """The other legal ways to lay out these melds, best first (a few of them): a
    knocker may split his hand as he likes within the knock limit (C8)."""
    if rules.hand_size is not None and len(cards) != rules.hand_size:
        return []
    try:
        hand = engine.parse_cards(list(cards))
        if limit is None:
            best = engine.best_arrangement(
                hand, around_the_corner=rules.around_the_corner, ace_value=rules.ace_value
            ).count
            limit = best + 10
        found = engine.arrangements(
            hand, around_the_corner=rules.around_the_corner, ace_value=rules.ace_value, max_count=limit
        )
    except ValueError:
        return []
    chosen = None if proposal.split is None else split_key(proposal.split)
    seen = {split_key(proposal.melds)}
    options: list[SplitOption] = []
    for arrangement in found:
        meld_codes = [[card.code for card in meld] for meld in arrangement.melds]
        key = split_key(meld_codes)
        if key in seen or (len(options) >= MAX_OPTIONS and key != chosen):
            continue
        seen.add(key)
        options.append(
            SplitOption(key, meld_codes, [c.code for c in arrangement.deadwood], arrangement.count)
        )
    return options
