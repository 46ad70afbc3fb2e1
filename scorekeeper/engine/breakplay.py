"""Layoffs during the break (J11, J13): the first round in order, then any meld.

After the break (J10) the breaker lays his melds, the player at his left lays
his and may lay off on the breaker's, the third on both; in later rounds
(``second_round``) anyone may lay off on any meld. A gin after the break (J13)
ends it at once, and the cards laid off before the gin stay where they are:
given the breaker, their order is checked as in J11; without him, only that
each fits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import count_of, mask_cards
from .errors import IllegalLayoffError
from .layoffs import Layoff, Table, lay, layoff_plans

if TYPE_CHECKING:
    from .showdown import Played, Showdown


def table_of(showdown: Showdown, plays: Sequence[Played]) -> Table:
    """Every meld laid down, with the layoffs already made on them."""
    table: Table = ()
    for play in plays:
        table = showdown.lay_down(table, play)
    for play in plays:
        for layoff in play.layoffs:
            table = lay(table, layoff)
    return table


def second_round(showdown: Showdown, plays: list[Played]) -> list[Played]:
    """After the first round any player may lay off on any meld (J11): each such
    layoff is marked as made in a later round.

    A declared hand is exactly what was laid (C8): its own layoffs are placed and
    nothing is added to it; a layoff it missed is advice (:func:`missed_layoffs`). Only
    a hand given as cards has its later layoffs played by the engine (C9)."""
    table = table_of(showdown, plays)
    rules = showdown.rules
    result = list(plays)
    changed = True
    while changed:
        changed = False
        for i, play in enumerate(result):
            hand = showdown.box.hands[play.player]
            if hand.form == "count" or (hand.form == "declared" and not hand.layoffs):
                continue
            if hand.layoffs:
                if play.layoffs:
                    continue
                showdown.check_layoffs(hand, i)
                table, placed = showdown.place(hand, table, list(hand.layoffs))
            else:
                targets = frozenset(showdown.order) - {play.player}
                plans = layoff_plans(play.deadwood, table, play.player, targets, False)
                plan = max(plans, key=lambda p: count_of(mask_cards(p.mask)))
                if not plan.layoffs:
                    continue
                placed = list(plan.layoffs)
                for layoff in placed:
                    table = lay(table, layoff)
            later = tuple(dataclasses.replace(layoff, later=True) for layoff in placed)
            laid = {layoff.card for layoff in placed}
            deadwood = tuple(c for c in play.deadwood if c not in laid)
            result[i] = dataclasses.replace(
                play,
                count=count_of(deadwood, rules.ace_value),
                deadwood=deadwood,
                layoffs=(*play.layoffs, *later),
            )
            changed = True
    return result


def missed_layoffs(showdown: Showdown, plays: Sequence[Played]) -> list[tuple[str, Layoff]]:
    """The cards a declared hand kept in its deadwood that fit a meld on the table after
    the break's later rounds (J11): each player's best such plan, for the advice (C8).
    Nothing here changes a count."""
    table = table_of(showdown, plays)
    missed: list[tuple[str, Layoff]] = []
    for play in plays:
        if showdown.box.hands[play.player].form != "declared" or not play.deadwood:
            continue
        targets = frozenset(showdown.order) - {play.player}
        plans = layoff_plans(play.deadwood, table, play.player, targets, False)
        plan = max(plans, key=lambda p: count_of(mask_cards(p.mask)))
        missed += [(play.player, layoff) for layoff in plan.layoffs]
    return missed


def break_order(showdown: Showdown) -> tuple[str, ...]:
    """The order of play during the break: from the breaker, to his left (J11)."""
    box = showdown.box
    breaker = box.breaker if box.breaker is not None else showdown.order[0]
    start = box.players.index(breaker)
    return box.players[start:] + box.players[:start]


def break_gin_layoffs(showdown: Showdown, plays: list[Played]) -> list[Played]:
    """The layoffs made during the break before a gin (J13), checked and recorded.

    With the breaker named and no later round, the first round's order holds: each
    player lays off only on the melds of those before him from the breaker, and
    nobody after the gin player had his turn. Otherwise each layoff need only fit.
    The counts are already what was left in each hand.
    """
    box = showdown.box
    ordered = box.breaker is not None and not box.second_round
    order = break_order(showdown)
    gin_player = showdown.order[0]
    by_player = {play.player: play for play in plays}
    table: Table = ()
    for play in plays:
        table = showdown.lay_down(table, play)
    for position, player in enumerate(order):
        hand = box.hands[player]
        if not hand.layoffs:
            continue
        if ordered and position > order.index(gin_player):
            raise IllegalLayoffError(
                f"{player} plays after {gin_player} in the break's first round, from the breaker "
                f"{box.breaker}: the gin ended the box before {player}'s turn, so he laid "
                "nothing off (J11, J13)",
                hand.layoffs[0].where,
            )
        targets = frozenset(order[:position]) if ordered else frozenset(order) - {player}
        showdown.check_layoffs(hand, position, targets)
        table, placed = showdown.place(hand, table, list(hand.layoffs))
        later = tuple(dataclasses.replace(lay_, later=box.second_round) for lay_ in placed)
        by_player[player] = dataclasses.replace(by_player[player], layoffs=later)
    return [by_player[play.player] for play in plays]


__all__ = ["break_gin_layoffs", "break_order", "missed_layoffs", "second_round"]
