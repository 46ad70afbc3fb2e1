"""A hand as entered (CONTRACT.md "A box", ``hands``): in one of its three forms (the
cards, what was laid on the table, or only the count), and a layoff onto another
player's meld."""

from __future__ import annotations

import typing
from dataclasses import dataclass

from ..errors import MalformedError
from .fields import MELD_INDEX, HandFormName, Json, _at, _card, _cards, _fields, _name, _optional, _whole


@dataclass(frozen=True)
class Layoff:
    """A card laid off onto another player's meld (``meld``: its index there, from 0)."""

    card: str
    onto: str
    meld: int | None = None

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset({"card", "onto", "meld"})

    @classmethod
    def from_json(cls, data: Json, where: str = "layoff") -> Layoff:
        body = _fields(data, where, "a layoff", cls.FIELDS)
        if "card" not in body or "onto" not in body:
            raise MalformedError("each layoff needs a card and the player it went onto ('onto')", where)
        meld = body.get("meld")
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool)):
            raise MalformedError(MELD_INDEX, _at(where, "meld"))
        if not isinstance(body["onto"], str):
            raise MalformedError("onto must name a player", _at(where, "onto"))
        return cls(
            _card(body["card"], _at(where, "card")),
            _name(body["onto"], _at(where, "onto"), "layoff's player"),
            meld,
        )

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {"card": self.card, "onto": self.onto}
        if self.meld is not None:
            body["meld"] = self.meld
        return body


@dataclass(frozen=True)
class Hand:
    """One player's hand as entered, in one of CONTRACT.md's three forms: the cards
    (the engine arranges them), what was laid on the table (melds, layoffs,
    deadwood), or only the count. Fields not given are None."""

    cards: tuple[str, ...] | None = None
    melds: tuple[tuple[str, ...], ...] | None = None
    deadwood: tuple[str, ...] | None = None
    layoffs: tuple[Layoff, ...] | None = None
    count: int | None = None

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset({"cards", "melds", "deadwood", "layoffs", "count"})

    @property
    def form(self) -> HandFormName:
        if self.melds is not None or self.deadwood is not None or self.layoffs is not None:
            return "declared"
        return "cards" if self.cards is not None else "count"

    @classmethod
    def from_json(cls, data: Json, where: str = "hand", player: str = "") -> Hand:
        """The hand (``player`` names it in errors); an empty hand is the engine's to
        refuse, with the player's name."""
        body = _fields(data, where, f"{player}'s hand" if player else "a hand", cls.FIELDS)
        melds = body.get("melds")
        if melds is not None and not isinstance(melds, list):
            raise MalformedError("melds must be a list of melds (lists of cards)", _at(where, "melds"))
        layoffs = body.get("layoffs")
        if layoffs is not None and not isinstance(layoffs, list):
            raise MalformedError("layoffs must be a list of {card, onto, meld}", _at(where, "layoffs"))
        count = body.get("count")
        hand = cls(
            cards=_optional(body, "cards", where, _cards),
            melds=None
            if melds is None
            else tuple(_cards(meld, _at(_at(where, "melds"), i)) for i, meld in enumerate(melds)),
            deadwood=_optional(body, "deadwood", where, _cards),
            layoffs=None
            if layoffs is None
            else tuple(
                Layoff.from_json(item, _at(_at(where, "layoffs"), i)) for i, item in enumerate(layoffs)
            ),
            count=None
            if count is None
            else _whole(count, _at(where, "count"), f"{player}'s count" if player else "a count"),
        )
        return hand

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {}
        if self.cards is not None:
            body["cards"] = list(self.cards)
        if self.melds is not None:
            body["melds"] = [list(meld) for meld in self.melds]
        if self.layoffs is not None:
            body["layoffs"] = [layoff.to_json() for layoff in self.layoffs]
        if self.deadwood is not None:
            body["deadwood"] = list(self.deadwood)
        if self.count is not None:
            body["count"] = self.count
        return body
