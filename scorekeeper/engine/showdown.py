"""The showdown: every hand laid out in table order, with its melds and layoffs.

One module past 400 lines: the lay-out in table order is one search (the
knocker's choice against the others' best replies), kept whole to be read as one.

Players lay out in table order from the one who ended the box (J5, J11). A
hand given as cards is arranged by the engine (C9): the knocker picks, among
his arrangements within the knock limit, the one that serves him best against
the others' best replies; each later player picks the melds and layoffs that
leave him the lowest count. A hand given as melds is scored exactly as declared
(C8), its layoffs checked where they stand in the order; the engine only
*advises* when a better play existed. A hand given as a count is taken as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .boxes import Box, CheckedHand, DeclaredLayoff
from .breakplay import break_gin_layoffs, break_order, missed_layoffs, second_round, table_of
from .cards import Card, by_rank, cards_mask, count_of, mask_cards, meld_order, show
from .contract import LaidOff, LaidOut
from .credits import Outcome, Step, break_outcome, gin_outcome, knock_outcome
from .errors import (
    GinCountError,
    IllegalLayoffError,
    LayoffOnGinError,
    OverKnockLimitError,
    UnknownPlayerError,
)
from .layoffs import (
    Layoff,
    Table,
    TableMeld,
    extended,
    lay,
    layoff_plans,
    meld_name,
    ordinal,
    place_layoff,
)
from .melds import Arrangement, arrangements, best_arrangements, best_count
from .rules import Rules
from .vocabulary import vocabulary_for

_LAYOFF_RULE = {"jersey": "J5", "parlett": "P5", "gin": "G3", "knock-rummy": "K2"}


@dataclass(frozen=True)
class Played:
    """One player's hand as it ended on the table."""

    player: str
    count: int
    form: str
    melds: tuple[tuple[Card, ...], ...] = ()
    deadwood: tuple[Card, ...] = ()
    layoffs: tuple[Layoff, ...] = ()

    def laid_out(self) -> LaidOut:
        """The hand as the ruling shows it (CONTRACT.md "A ruling", ``hands``)."""
        return LaidOut(
            melds=tuple(tuple(card.code for card in meld) for meld in self.melds),
            deadwood=tuple(card.code for card in sorted(self.deadwood, key=by_rank)),
            layoffs=tuple(
                LaidOff(layoff.card.code, layoff.onto, layoff.meld, layoff.later) for layoff in self.layoffs
            ),
            count=self.count,
        )


def _laid(play: Played, table: Table) -> str:
    """A play in words: its melds, its layoffs (on which meld of the table) and its
    deadwood."""
    melds = ", ".join(show(meld) for meld in play.melds) or "no melds"
    onto: dict[tuple[str, int], list[str]] = {}
    for layoff in play.layoffs:
        onto.setdefault((layoff.onto, layoff.meld), []).append(str(layoff.card))
    named = {(m.owner, m.index): str(m) for m in table}
    laid = "".join(
        f", laying off {' '.join(cards)} on {owner}'s {named[(owner, index)]}"
        for (owner, index), cards in onto.items()
    )
    deadwood = " ".join(str(card) for card in sorted(play.deadwood, key=by_rank)) or "none"
    return f"{melds}{laid}; deadwood {deadwood}"


def _canonical(melds: Sequence[Sequence[Card]], rules: Rules) -> tuple[tuple[Card, ...], ...]:
    """Melds in the order people read them: each in set or run order, lowest rank first."""
    laid = [TableMeld.lay_down("", 0, meld, rules.around_the_corner).cards for meld in melds]
    return tuple(sorted(laid, key=meld_order))


Score = tuple[int, int]
"""How good an outcome is for the player choosing: higher is better."""


class Showdown:
    """Plays one box's showdown in table order (C8, C9, J5, J11, P5, G3)."""

    def __init__(self, box: Box, limit: int | None) -> None:
        self.box = box
        self.rules = box.rules
        self.order = box.table_order()
        self.limit = limit
        self.notes: list[Step] = []
        self._replies_cache: dict[tuple[str, Table], list[Played]] = {}
        self.words = vocabulary_for(self.rules)
        self.gin = box.ending == "gin" or (
            box.ending == "knock" and self._own_count(box.hands[self.order[0]]) == 0
        )
        self.break_gin = box.ending == "gin" and box.after_break
        """J13: layoffs made during the break before the gin are checked after the play."""
        policy = "sequential" if box.ending == "break" else self.rules.layoffs
        closed = self.break_gin or (self.gin and not self.rules.gin_layoffs)
        self.policy = "none" if closed else policy
        self.original_only = self.policy == "knocker-original-only"

    # --- who may lay off where -------------------------------------------------

    def targets(self, position: int) -> frozenset[str]:
        """Whose melds the player at this place in table order may lay off on."""
        if self.policy == "none":
            return frozenset()
        if self.policy == "sequential":
            return frozenset(self.order[:position])
        return frozenset(self.order[:1])

    def layoff_rule(self) -> str:
        if self.box.ending == "break" or self.break_gin:
            return "J11"
        return _LAYOFF_RULE[self.rules.family]

    def gin_rule(self) -> str:
        """The rule that forbids layoffs on gin in this game (J9, G3)."""
        return "J9" if self.rules.family in ("jersey", "parlett") else "G3"

    # --- the whole showdown ----------------------------------------------------

    def play(self) -> tuple[list[Played], Outcome]:
        """Every player's final hand and the outcome, the knocker choosing first (C9)."""
        first = self.order[0]
        hand = self.box.hands[first]
        best: tuple[Score, list[Played], Outcome] | None = None
        bound = self._bound_without_layoffs()
        errors: list[IllegalLayoffError] = []
        for candidate in self._first_candidates(hand):
            if best is not None and best[0][0] == 1 and bound(candidate.count) <= best[0][1]:
                break
            table = self.lay_down((), candidate)
            try:
                plays = self._rest(table, [candidate], 1)
            except IllegalLayoffError as err:
                errors.append(err)
                continue
            outcome = self.outcome(plays)
            score = self._score_for(first, outcome)
            if best is None or score > best[0]:
                best = (score, plays, outcome)
        if best is None:
            raise errors[0]
        if self.break_gin:
            return break_gin_layoffs(self, best[1]), best[2]
        if self.box.second_round:
            plays = second_round(self, best[1])
            return plays, self.outcome(plays)
        return best[1], best[2]

    def _score_for(self, first: str, outcome: Outcome) -> Score:
        """C9: the knocker maximises his credit, or else leaves the winner least."""
        if outcome.winner == first:
            return (1, outcome.points)
        return (0, -outcome.points)

    def _bound_without_layoffs(self) -> Callable[[int], int]:
        """The most a knocker with count k could be credited: no layoffs at all."""
        counts = []
        for player in self.order[1:]:
            hand = self.box.hands[player]
            counts.append(self._own_count(hand))

        def bound(k: int) -> int:
            return sum(c - k for c in counts)

        return bound

    def _own_count(self, hand: CheckedHand) -> int:
        if hand.form == "count":
            assert hand.count is not None
            return hand.count
        if hand.form == "declared":
            return count_of(hand.deadwood, self.rules.ace_value)
        return best_count(
            cards_mask(hand.cards),
            around_the_corner=self.rules.around_the_corner,
            ace_value=self.rules.ace_value,
        )

    def outcome(self, plays: Sequence[Played]) -> Outcome:
        counts = {play.player: play.count for play in plays}
        first = self.order[0]
        if self.box.ending == "break":
            return break_outcome(self.order, counts)
        if self.gin or counts[first] == 0:
            return gin_outcome(self.rules, self.order, counts, self.box.after_break)
        return knock_outcome(self.rules, self.order, counts)

    # --- the knocker, gin player or breaker --------------------------------------

    def _first_candidates(self, hand: CheckedHand) -> list[Played]:
        """The arrangements the player who ended the box may lay out, best first."""
        player = hand.player
        if hand.form == "count":
            assert hand.count is not None
            candidates = [Played(player, hand.count, "count")]
        elif hand.form == "declared":
            if hand.layoffs and not self.break_gin and not self.box.second_round:
                raise IllegalLayoffError(
                    f"{player} ended the {self.words.deal} and lays out first: he has nothing to lay off on "
                    f"({self.layoff_rule()})",
                    hand.layoffs[0].where,
                )
            candidates = [self._declared(hand, ())]
        else:
            candidates = self._arranged_candidates(hand)
        self._check_limit(hand, candidates[0].count)
        if self.policy == "none":
            return candidates[:1]
        return candidates

    def _arranged_candidates(self, hand: CheckedHand) -> list[Played]:
        corner, ace = self.rules.around_the_corner, self.rules.ace_value
        choice_matters = self.policy != "none" and any(
            self.box.hands[p].form != "count" for p in self.order[1:]
        )
        if self.box.ending == "knock" and choice_matters and self.limit is not None:
            found = arrangements(hand.cards, max_count=self.limit, around_the_corner=corner, ace_value=ace)
        else:
            found = []
        if not found:
            found = best_arrangements(hand.cards, around_the_corner=corner, ace_value=ace)
        return [self._arranged(hand.player, arrangement) for arrangement in found]

    def _check_limit(self, hand: CheckedHand, count: int) -> None:
        """The knock limit (C6, V2) and gin's count of 0; over it is a false knock (C12)."""
        where = f"{hand.where}.count" if hand.form == "count" else hand.where
        if self.box.ending == "gin" and count != 0:
            entered = "was entered as" if hand.form == "count" else "is"
            raise GinCountError(
                f"gin must count 0: {hand.player}'s count {entered} {count}; if "
                f"{hand.player} knocked, record a knock (C6)",
                where,
            )
        if self.box.ending == "knock" and self.limit is not None and count > self.limit:
            raise OverKnockLimitError(
                f"{hand.player} knocked with {count} but the knock limit is {self.limit}: a false "
                f"knock does not end the {self.words.deal}; the hand is laid face up and play "
                "goes on (C12)",
                where,
            )
        if self.box.ending == "knock" and count == 0:
            self.notes.append(
                Step("C6", f"{hand.player} knocked with a count of 0: that is gin, and is scored as gin")
            )

    # --- the other players, in table order ---------------------------------------

    def _rest(self, table: Table, plays: list[Played], position: int) -> list[Played]:
        """The later players' replies (C9): each lowest count, ties against the winner."""
        if position == len(self.order):
            return plays
        player = self.order[position]
        hand = self.box.hands[player]
        if hand.form == "count":
            assert hand.count is not None
            return self._rest(table, [*plays, Played(player, hand.count, "count")], position + 1)
        if hand.form == "declared" or hand.layoffs:
            play, table = self._declared_reply(hand, table, position)
            return self._rest(table, [*plays, play], position + 1)
        options = self.replies(hand, table, position)
        if len(options) == 1 or position == len(self.order) - 1:
            play, after = options[0]
            return self._rest(after, [*plays, play], position + 1)
        best: tuple[int, list[Played]] | None = None
        for play, after in options:
            full = self._rest(after, [*plays, play], position + 1)
            points = self.outcome(full).points
            if best is None or points < best[0]:
                best = (points, full)
        assert best is not None
        return best[1]

    def replies(self, hand: CheckedHand, table: Table, position: int) -> list[tuple[Played, Table]]:
        """Every lowest-count way to lay off and meld this hand, with the table after it."""
        targets = self.targets(position)
        relevant = tuple(
            meld
            for meld in table
            if meld.owner in targets and any(meld.could_take(card) for card in hand.cards)
        )
        key = (hand.player, relevant)
        plays = self._replies_cache.get(key)
        if plays is None:
            last = position == len(self.order) - 1 and not self.box.second_round
            plays = self._best_plays(hand, relevant, targets, distinct=not last)
            self._replies_cache[key] = plays
        options = []
        for play in plays:
            after = table
            for layoff in play.layoffs:
                after = lay(after, layoff)
            options.append((play, self.lay_down(after, play)))
        return options

    def _best_plays(
        self, hand: CheckedHand, table: Table, targets: frozenset[str], distinct: bool
    ) -> list[Played]:
        """The lowest-count plays of a hand against the melds it could lay off on (C5, C9).

        Only melds that could take one of the hand's cards matter, so the knocker's
        many arrangements (C9) often share one answer: :meth:`replies` caches it.
        """
        rules = self.rules
        mask = cards_mask(hand.cards)
        plans = layoff_plans(hand.cards, table, hand.player, targets, self.original_only, distinct)
        scored = [
            (
                best_count(
                    mask & ~plan.mask, around_the_corner=rules.around_the_corner, ace_value=rules.ace_value
                ),
                plan,
            )
            for plan in plans
        ]
        low = min(count for count, _ in scored)
        plays = []
        for count, plan in scored:
            if count != low:
                continue
            rest = mask_cards(mask & ~plan.mask)
            for arrangement in best_arrangements(
                rest, around_the_corner=rules.around_the_corner, ace_value=rules.ace_value
            ):
                plays.append(self._arranged(hand.player, arrangement, plan.layoffs))
        return plays

    def _declared_reply(self, hand: CheckedHand, table: Table, position: int) -> tuple[Played, Table]:
        """A hand's own layoffs checked against the table as it stands (J5, P5, G3).

        A declared hand is scored as laid; a hand given as cards with the layoffs
        actually made has the rest of its cards arranged by the engine (C9).
        """
        if self.break_gin:
            play = self._declared(hand, ()) if hand.form == "declared" else self._with_layoffs(hand, ())
            return play, self.lay_down(table, play)
        self.check_layoffs(hand, position)
        placed: list[Layoff] = []
        if not self.box.second_round:
            table, placed = self.place(hand, table, list(hand.layoffs))
        if hand.form == "declared":
            play = self._declared(hand, tuple(placed))
        else:
            play = self._with_layoffs(hand, tuple(placed))
        return play, self.lay_down(table, play)

    def check_layoffs(self, hand: CheckedHand, position: int, targets: frozenset[str] | None = None) -> None:
        """Each layoff goes onto another player's entered melds, one he may lay off on."""
        targets = self.targets(position) if targets is None else targets
        for layoff in hand.layoffs:
            if self.gin and not self.rules.gin_layoffs and not self.break_gin:
                raise LayoffOnGinError(
                    f"no layoffs on a gin hand ({self.gin_rule()}): {hand.player} cannot lay off "
                    f"{layoff.card}",
                    layoff.where,
                )
            if layoff.onto not in self.box.players:
                raise UnknownPlayerError(f"{layoff.onto!r} is not one of the players", f"{layoff.where}.onto")
            if layoff.onto == hand.player:
                raise IllegalLayoffError(
                    f"{hand.player} cannot lay off on his own melds: put {layoff.card} in the "
                    f"meld instead (C5)",
                    f"{layoff.where}.onto",
                )
            if self.box.second_round:
                continue
            if layoff.onto not in targets:
                raise IllegalLayoffError(self._not_a_target(hand.player, layoff.onto), f"{layoff.where}.onto")
            if self.box.hands[layoff.onto].form == "count":
                raise IllegalLayoffError(
                    f"{layoff.onto}'s melds were not entered, so {hand.player}'s layoff of "
                    f"{layoff.card} cannot be checked: enter {layoff.onto}'s melds "
                    f"({self.layoff_rule()})",
                    f"{layoff.where}.onto",
                )

    def _with_layoffs(self, hand: CheckedHand, placed: tuple[Layoff, ...]) -> Played:
        """A hand given as cards, after the layoffs entered for it: the rest arranged (C9)."""
        rules = self.rules
        laid = cards_mask(layoff.card for layoff in hand.layoffs)
        rest = mask_cards(cards_mask(hand.cards) & ~laid)
        arrangement = best_arrangements(
            rest, around_the_corner=rules.around_the_corner, ace_value=rules.ace_value
        )[0]
        return self._arranged(hand.player, arrangement, placed)

    def place(
        self, hand: CheckedHand, table: Table, pending: list[DeclaredLayoff]
    ) -> tuple[Table, list[Layoff]]:
        """Apply declared layoffs in any order that works (a chain may be listed backwards)."""
        placed: list[Layoff] = []
        while pending:
            progress = False
            for layoff in list(pending):
                index = layoff.meld if self.box.hands[layoff.onto].form == "declared" else None
                done = place_layoff(table, layoff.card, hand.player, layoff.onto, index, self.original_only)
                if done is not None:
                    table = lay(table, done)
                    placed.append(done)
                    pending.remove(layoff)
                    progress = True
            if not progress:
                raise IllegalLayoffError(self.misfit(hand, table, pending[0]), f"{pending[0].where}.card")
        return table, placed

    def misfit(self, hand: CheckedHand, table: Table, layoff: DeclaredLayoff) -> str:
        """Why a layoff does not fit, naming the meld as the table sees it ("Bob's second
        meld, 7♣-7♦-7♥") and the rule broken."""
        rule = self.layoff_rule()
        if layoff.meld is not None:
            target = [m for m in table if m.owner == layoff.onto and m.index == layoff.meld]
            if not target:
                return (
                    f"{layoff.onto} has no {ordinal(layoff.meld)} meld for {hand.player}'s "
                    f"{layoff.card} ({rule})"
                )
            where = f"{layoff.onto}'s {meld_name(target[0])}"
        else:
            melds = [meld_name(m) for m in table if m.owner == layoff.onto]
            where = (
                f"any of {layoff.onto}'s melds ({'; '.join(melds)})"
                if melds
                else f"{layoff.onto}'s melds: there are none"
            )
        extra = (
            "; only the knocker's original melds take layoffs, not cards laid off by another"
            if self.original_only
            else ""
        )
        return f"{hand.player}'s {layoff.card} does not fit {where} (C5, {rule}{extra})"

    def _not_a_target(self, player: str, onto: str) -> str:
        if self.break_gin:
            return (
                f"{player} plays before {onto} in the break from the breaker "
                f"{self.box.breaker}: {onto}'s melds were not yet on the table (J11, J13)"
            )
        if self.policy == "none":
            return f"there is no laying off in {self.rules.title} ({self.layoff_rule()})"
        if self.policy == "sequential":
            return (
                f"{player} lays off before {onto} has laid out: only on melds already on "
                f"the table ({self.layoff_rule()})"
            )
        return f"{player} may lay off only on the knocker's melds, not on {onto}'s ({self.layoff_rule()})"

    # --- building hands --------------------------------------------------------

    def _arranged(self, player: str, arrangement: Arrangement, layoffs: tuple[Layoff, ...] = ()) -> Played:
        return Played(
            player,
            arrangement.count,
            "cards",
            _canonical(arrangement.melds, self.rules),
            arrangement.deadwood,
            layoffs,
        )

    def _declared(self, hand: CheckedHand, layoffs: tuple[Layoff, ...]) -> Played:
        melds = tuple(
            TableMeld.lay_down("", 0, meld, self.rules.around_the_corner).cards for meld in hand.melds
        )
        return Played(
            hand.player,
            count_of(hand.deadwood, self.rules.ace_value),
            "declared",
            melds,
            hand.deadwood,
            layoffs,
        )

    def lay_down(self, table: Table, play: Played) -> Table:
        """The table with this player's melds added (counts-only hands add nothing)."""
        new = tuple(
            TableMeld.lay_down(play.player, i, meld, self.rules.around_the_corner)
            for i, meld in enumerate(play.melds)
        )
        return table + new

    # --- what the ruling says ---------------------------------------------------

    def layoff_steps(self, plays: Sequence[Played]) -> list[Step]:
        """One step per layoff in table order, naming the meld as it stood when the card
        went on it (a chained layoff is shown against the meld already extended, where
        it fits); layoffs of a later round of the break (J11) come last, marked so."""
        rule = self.layoff_rule()
        by_player = {play.player: play for play in plays}
        seats = (
            list(break_order(self))
            if self.box.after_break or self.box.ending == "break"
            else [play.player for play in plays]
        )
        table: Table = ()
        steps: list[Step] = []
        later: list[Layoff] = []
        for player in seats:
            play = by_player.get(player)
            if play is None:
                continue
            for layoff in play.layoffs:
                if layoff.later:
                    later.append(layoff)
                    continue
                steps.append(self._layoff_step(rule, table, layoff, ""))
                table = lay(table, layoff)
            table = self.lay_down(table, play)
        for layoff in later:
            steps.append(self._layoff_step("J11", table, layoff, " in a later round"))
            table = lay(table, layoff)
        return steps

    def _layoff_step(self, rule: str, table: Table, layoff: Layoff, when: str) -> Step:
        """The layoff told against its meld as the table shows it at that moment."""
        meld = next(m for m in table if (m.owner, m.index) == (layoff.onto, layoff.meld))
        return Step(rule, f"{layoff.by} laid off {layoff.card} on {layoff.onto}'s {extended(meld)}{when}")

    def describe(self, plays: Sequence[Played]) -> list[Step]:
        """How each hand came to be arranged: entered (C8), arranged (C9) or a count."""
        steps = []
        for play in plays:
            melds = ", ".join(show(m) for m in play.melds) or "no melds"
            deadwood = " ".join(str(c) for c in sorted(play.deadwood, key=by_rank))
            if play.form == "count":
                steps.append(Step("C4", f"{play.player}'s count was entered as {play.count}", play.player))
                continue
            rule, verb = (
                ("C9", "the engine arranged") if play.form == "cards" else ("C8", "as laid on the table")
            )
            steps.append(
                Step(
                    rule,
                    f"{play.player}, {verb}: {melds}; deadwood {deadwood or 'none'} = {play.count}",
                    play.player,
                )
            )
        return steps

    def _better(self, hand: CheckedHand, table: Table, position: int) -> Played | None:
        """The lowest-count legal play of a declared hand (the knocker's own best split;
        a later player's best melds and layoffs on the table as it stood)."""
        if position == 0:
            found = best_arrangements(
                cards_mask(hand.cards),
                around_the_corner=self.rules.around_the_corner,
                ace_value=self.rules.ace_value,
            )
            return self._arranged(hand.player, found[0]) if found else None
        options = self.replies(hand, table, position)
        return options[0][0] if options else None

    def advice(self, plays: Sequence[Played]) -> list[Step]:
        """Better legal plays a declared hand missed (C8: advised, never applied)."""
        found = []
        table: Table = ()
        for position, play in enumerate(plays):
            hand = self.box.hands[play.player]
            if hand.form == "declared":
                better = self._better(hand, table, position)
                if better is not None and better.count < play.count:
                    found.append(
                        Step(
                            "C8",
                            f"{play.player} could have counted {better.count} "
                            f"instead of {play.count}, as {_laid(better, table)}; what "
                            "was laid on the table is what is scored",
                            play.player,
                        )
                    )
            for layoff in play.layoffs:
                table = lay(table, layoff)
            table = self.lay_down(table, play)
        if self.box.second_round and not self.break_gin:
            found += self._missed_later(plays)
        return found

    def _missed_later(self, plays: Sequence[Played]) -> list[Step]:
        """Layoffs a declared hand could still have made in a later round of the break
        (J11): advised, never applied (C8), so his count stays what he laid."""
        table = table_of(self, plays)
        named = {(m.owner, m.index): str(m) for m in table}
        missed: dict[str, list[Layoff]] = {}
        for player, layoff in missed_layoffs(self, plays):
            missed.setdefault(player, []).append(layoff)
        steps = []
        by_player = {play.player: play for play in plays}
        for player, layoffs in missed.items():
            play = by_player[player]
            saved = count_of([layoff.card for layoff in layoffs], self.rules.ace_value)
            laid = " and ".join(
                f"{layoff.card} on {layoff.onto}'s {named[(layoff.onto, layoff.meld)]}" for layoff in layoffs
            )
            steps.append(
                Step(
                    "J11",
                    f"{player} could have laid {laid} in a later round, "
                    f"counting {play.count - saved} instead of {play.count}; "
                    "what was laid on the table is what is scored (C8)",
                    player,
                )
            )
        return steps
