"""Layoffs the knocker's own arrangement blocked (C8), said in the explanation.

The knocker chooses how to split his hand, and may split it to deny layoffs
(a 7♠ kept in a set of four sevens rather than in 5♠-6♠-7♠ takes no 8♠). What
he laid down is what is scored; but a player left holding a card he could
have laid off on another split of the same hand is owed the reason, so the
ruling says which meld of the knocker's would have taken it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .breakplay import table_of
from .cards import Card, cards_mask, show
from .credits import Step
from .melds import Arrangement, arrangements, is_meld

if TYPE_CHECKING:
    from .showdown import Played, Showdown


def _where_kept(card: Card, knocker: Played) -> str:
    """Where the knocker put a card: in which of his melds, or in his deadwood."""
    for meld in knocker.melds:
        if card in meld:
            return f"in {show(meld)}"
    return "in his deadwood"


def blocked_steps(showdown: Showdown, plays: Sequence[Played]) -> list[Step]:
    """One step per card a defender kept that another split of the knocker's hand,
    within the knock limit, would have taken on one of its melds (C8)."""
    knocker = plays[0]
    hand = showdown.box.hands[knocker.player]
    if hand.form != "declared" or showdown.policy == "none" or showdown.box.ending == "break":
        return []
    rules = showdown.rules
    limit = showdown.limit if showdown.limit is not None else knocker.count
    others = arrangements(
        cards_mask(hand.cards),
        around_the_corner=rules.around_the_corner,
        ace_value=rules.ace_value,
        max_count=max(limit, knocker.count),
    )
    table = table_of(showdown, plays)
    own = [meld for meld in table if meld.owner == knocker.player]
    steps = []
    for play in plays[1:]:
        if play.form == "count":
            continue
        for card in sorted(play.deadwood):
            if any(meld.fits(card, play.player) for meld in own):
                continue
            step = _blocking(knocker, play.player, card, others, rules.around_the_corner)
            if step is not None:
                steps.append(step)
    return steps


def _blocking(
    knocker: Played, player: str, card: Card, others: Sequence[Arrangement], corner: bool
) -> Step | None:
    """The first other split of the knocker's hand with a meld that takes ``card``:
    the step names the cards he kept elsewhere (in another meld, else his deadwood)."""
    declared = {frozenset(meld) for meld in knocker.melds}
    melded = {c for meld in knocker.melds for c in meld}
    for other in others:
        for meld in other.melds:
            if frozenset(meld) in declared or not is_meld((*meld, card), corner):
                continue
            moved = [
                c
                for c in meld
                if c in melded and not any(c in mine and set(mine) <= set(meld) for mine in knocker.melds)
            ]
            kept = "; ".join(f"{c} {_where_kept(c, knocker)}" for c in moved or meld)
            return Step(
                "C8",
                f"{knocker.player}'s arrangement blocked {player}'s {card}: "
                f"{knocker.player} kept {kept} rather than in {show(meld)}, "
                f"which would have taken it (the knocker chooses his melds)",
                player,
            )
    return None


__all__ = ["blocked_steps"]
