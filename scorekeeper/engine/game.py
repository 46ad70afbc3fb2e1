"""Scoring a whole game (CONTRACT.md "A game"): totals, dealer, end, bonuses, settlement.

One module past 400 lines: the game's totals, its end and its settlement are one
pass over the boxes, and each step cites the rule of the family being played.

Each box is ruled by the showdown, then its credits (less Parlett's penalties,
P4) are added to the running totals. The game ends after the box in which a
player's total reaches the target (J14, P8, G8); the winner adds the game
bonus, every player the box bonus for each box he won, a player who won no box
is shut out (J15), and each pair of players settles the difference of their
final totals (J16), in money too when the game has a stake (V6). Hollywood
scores several such games at once (V3, :mod:`.hollywood`).

The engine works on the contract's typed values: :class:`Scoring` takes a
:class:`~.contract.GameEntry` and its :class:`~.contract.BoxEntry`'s and gives a
:class:`~.contract.Sheet`. :func:`score` is CONTRACT.md's JSON edge for the API and
the command line: the game read once by the contract, scored, written back.

>>> game = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann", "boxes": [
...     {"ending": "gin", "by": "Ann", "hands": {"Ann": {"count": 0}, "Bob": {"count": 80}}}]}
>>> sheet = score(game)
>>> sheet["totals"], sheet["game_over"], sheet["final_totals"]
({'Ann': 105, 'Bob': 0}, True, {'Ann': 230, 'Bob': 0})
>>> sheet["settlement"]
[{'from': 'Bob', 'to': 'Ann', 'points': 460, 'shutout': True}]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from . import hollywood
from .boxes import check_players, seated
from .contract import MAX_BOXES, BoxEntry, GameEntry, Ruling, Sheet, SheetBox, check_stake, too_many_boxes
from .credits import Step
from .errors import GameOverError, MalformedError
from .rules import Rules, find_rules
from .ruling import rule_box
from .vocabulary import CITES, Cites, vocabulary_for

CENT = Decimal("0.01")
RULING_FIELDS = tuple(field.name for field in dataclasses.fields(Ruling))
"""The fields a box on the sheet takes from its ruling."""


@dataclass(frozen=True)
class Game:
    """A game checked: rules, seating, first dealer, stake and its boxes as entered."""

    rules: Rules
    players: tuple[str, ...]
    dealer: str
    stake: Decimal | None
    boxes: tuple[BoxEntry, ...]
    ended: str | None = None
    """``"agreed"``: the players stopped the game by agreement after its last box (K5)."""

    @property
    def cites(self) -> Cites:
        return CITES[self.rules.family]


@dataclass(frozen=True)
class Tally:
    """One game's running score: totals (credits less penalties) and boxes won."""

    players: tuple[str, ...]
    totals: tuple[int, ...]
    wins: tuple[int, ...]
    target: int | None
    """None: no target, the players end the game by hand (K5)."""
    winner: str | None = None
    ended_with: int | None = None
    """The number (from 1) of the box after which the game was over."""
    entered: tuple[int, ...] = ()
    """The numbers of the boxes entered in this game (all but void ones, save in Hollywood)."""
    paid: tuple[tuple[str, str, int, int], ...] = ()
    """What was paid box by box where each box is paid as it falls (K3, K5):
    ``(payer, payee, box number, points)``."""

    @classmethod
    def start(cls, players: Sequence[str], target: int | None) -> Tally:
        zero = tuple(0 for _ in players)
        return cls(tuple(players), zero, zero, target)

    @property
    def over(self) -> bool:
        return self.winner is not None

    def add(self, ruling: Ruling, number: int) -> Tally:
        """The tally after one more box; it ends when someone reaches the target (J14)."""
        credits, penalties = ruling.credits, ruling.penalties
        totals = tuple(
            total + credits.get(p, 0) - penalties.get(p, 0)
            for p, total in zip(self.players, self.totals, strict=True)
        )
        wins = tuple(w + (p == ruling.winner) for p, w in zip(self.players, self.wins, strict=True))
        entered = self.entered if ruling.winner is None else (*self.entered, number)
        paid = (*self.paid, *((line.payer, line.payee, number, line.points) for line in ruling.payments))
        tally = dataclasses.replace(self, totals=totals, wins=wins, entered=entered, paid=paid)
        winner = tally.reached(ruling.winner)
        if winner is None:
            return tally
        return dataclasses.replace(tally, winner=winner, ended_with=number)

    def reached(self, box_winner: str | None) -> str | None:
        """Who reached the target: the box winner (only he gained), else the highest total."""
        if self.target is None:
            return None
        reached = [p for p, t in zip(self.players, self.totals, strict=True) if t >= self.target]
        if not reached:
            return None
        if box_winner in reached:
            return box_winner
        return max(reached, key=lambda p: self.total(p))

    def total(self, player: str) -> int:
        return self.totals[self.players.index(player)]

    def won(self, player: str) -> int:
        return self.wins[self.players.index(player)]

    def totals_dict(self) -> dict[str, int]:
        return dict(zip(self.players, self.totals, strict=True))

    def wins_dict(self) -> dict[str, int]:
        return dict(zip(self.players, self.wins, strict=True))


# --- checking the game ------------------------------------------------------------------


def check_game(entry: GameEntry) -> Game:
    """The game's rules (its preset with its settings), seats and first dealer checked;
    its boxes are checked one by one as they are added (:meth:`Scoring.add`)."""
    rules = find_rules(entry.rules).with_settings(entry.settings)
    players = check_players(entry.players, rules)
    if entry.dealer is None:
        raise MalformedError("say who dealt the first box ('dealer')", "dealer")
    dealer = seated(entry.dealer, players, "dealer", "dealer")
    stake = check_stake(entry.stake, "stake")
    return Game(
        rules, players, dealer, None if stake is None else Decimal(str(stake)), entry.boxes, entry.ended
    )


def _check_dealer(entry: BoxEntry, game: Game, dealer: str, where: str) -> None:
    """A box may name its dealer: he must be the one whose deal it was (J2, G1, C11)."""
    if entry.dealer is None:
        return
    named = seated(entry.dealer, game.players, f"{where}.dealer", "dealer")
    if named != dealer:
        words = vocabulary_for(game.rules)
        raise MalformedError(
            f"this {words.deal} was dealt by {dealer}, not {named}: the deal passes to the "
            f"left after every {words.deal}, and stays after a misdeal "
            f"({game.cites.deal}, C11, {game.cites.draw})",
            f"{where}.dealer",
        )


# --- dealing ---------------------------------------------------------------------------


def next_dealer(game: Game, dealer: str, result: str) -> tuple[str, Step]:
    """Who deals the next box: the same after a misdeal (C11) or, by setting, a draw (G7)."""
    players = game.players
    left = players[(players.index(dealer) + 1) % len(players)]
    if result == "misdeal":
        return dealer, Step("C11", f"after the misdeal {dealer} deals again")
    if result == "draw":
        if game.rules.redeal_after_draw == "same":
            return dealer, Step(game.cites.draw, f"after the draw {dealer} deals again")
        return left, Step(game.cites.draw, f"after the draw the deal passes: {left} deals")
    words = vocabulary_for(game.rules)
    return left, Step(game.cites.deal, f"the deal passes to the left: {left} deals {words.next_deal}")


# --- the score sheet ---------------------------------------------------------------------


def score(data: Any) -> dict[str, Any]:
    """Score a whole game: CONTRACT.md "A game" in, the score sheet out (JSON both; the
    typed :class:`Scoring` between)."""
    return Scoring.of(GameEntry.from_json(data)).sheet().to_json()


@dataclass(frozen=True)
class Scoring:
    """A game scored up to its last box so far: the next box is added to it.

    :func:`score` is ``Scoring.of(game).sheet()`` in JSON. A caller that keeps a
    ``Scoring`` (the ledger keeps one per stored game version) scores one more
    box with :meth:`add` without ruling the others again. States are immutable
    and share their rulings and sheet boxes: treat them as read-only.

    >>> from .contract import BoxEntry, GameEntry, Hand
    >>> game = GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann")
    >>> later = Scoring.of(game).add(BoxEntry(ending="knock", by="Bob",
    ...     hands={"Ann": Hand(count=30), "Bob": Hand(count=4)}))
    >>> later.sheet().totals, later.sheet().next_dealer
    ({'Ann': 0, 'Bob': 26}, 'Bob')
    """

    game: Game
    columns: hollywood.Columns | None
    tallies: tuple[Tally, ...]
    wins: tuple[int, ...]
    """Boxes won by each player, over every column."""
    dealer: str
    why: Step
    """Why ``dealer`` deals the next box."""
    boxes: tuple[SheetBox, ...] = ()

    @classmethod
    def of(cls, entry: GameEntry) -> Scoring:
        """The game (checked) with all its boxes added."""
        game = check_game(entry)
        columns = hollywood.start(game.rules, game.players)
        tallies = tuple(
            Tally.start(game.players, game.rules.game_target) for _ in range(columns.count if columns else 1)
        )
        scoring = cls(
            dataclasses.replace(game, boxes=(), ended=None),
            columns,
            tallies,
            tuple(0 for _ in game.players),
            game.dealer,
            Step(
                CITES[game.rules.family].deal.replace("J2", "J1"),
                f"{game.dealer} deals the first {vocabulary_for(game.rules).deal}",
            ),
        )
        for box in game.boxes:
            scoring = scoring.add(box)
        if game.ended is not None:  # stopped after its last box: no box may follow
            scoring = dataclasses.replace(scoring, game=dataclasses.replace(scoring.game, ended=game.ended))
        return scoring

    def add(self, entry: BoxEntry) -> Scoring:
        """The state after one more box (raises the engine's errors, naming the box)."""
        game, index = self.game, len(self.boxes)
        where = f"boxes[{index}]"
        if index >= MAX_BOXES:
            raise MalformedError(too_many_boxes(index + 1, MAX_BOXES), where)
        if all(tally.over for tally in self.tallies):
            raise GameOverError(_over_message(self.tallies, vocabulary_for(game.rules).deal), where)
        if game.ended is not None:
            raise GameOverError(
                f"the players ended the game by agreement after "
                f"{vocabulary_for(game.rules).deal} {index}; "
                "start a new game to go on",
                where,
            )
        _check_dealer(entry, game, self.dealer, where)
        ruling = rule_box(entry, game.rules, game.players, self.dealer, where)
        entered: tuple[int, ...] = (1,)
        columns = self.columns
        if columns is not None:
            entered, columns = columns.enter(ruling.result, ruling.winner, [t.over for t in self.tallies])
        tallies = tuple(
            t.add(ruling, index + 1) if n in entered and not t.over else t
            for n, t in enumerate(self.tallies, start=1)
        )
        wins = tuple(w + (p == ruling.winner) for p, w in zip(game.players, self.wins, strict=True))
        box = _sheet_box(entry, ruling, self.dealer, tallies, entered if columns is not None else None)
        dealer, why = next_dealer(game, self.dealer, ruling.result)
        return Scoring(game, columns, tallies, wins, dealer, why, (*self.boxes, box))

    def labelled(self, box_id: str | int) -> Scoring:
        """The same state with its last box labelled ``box_id`` (the id a store gave
        the box once it was written): nothing is ruled again."""
        last = dataclasses.replace(self.boxes[-1], id=box_id)
        return dataclasses.replace(self, boxes=(*self.boxes[:-1], last))

    def sheet(self) -> Sheet:
        """The score sheet (CONTRACT.md "A game" out) of the boxes added so far.

        The boxes are the sheet boxes built as each was added; where the game stands
        (totals, bonuses, settlement) is summed up here as the engine's own JSON
        summary (Hollywood nets its columns' in it) and read once into the sheet."""
        wins = dict(zip(self.game.players, self.wins, strict=True))
        summary = _summary(
            self.game, self.tallies, wins, hollywood_game=self.columns is not None, played=len(self.boxes)
        )
        over = summary["game_over"]
        if not over:
            summary["explanation"].append(self.why.to_json())
        summary["next_dealer"] = None if over else self.dealer
        return dataclasses.replace(Sheet.from_json(summary), boxes=self.boxes)


def _summary(
    game: Game, tallies: Sequence[Tally], wins: Mapping[str, int], hollywood_game: bool, played: int = 0
) -> dict[str, Any]:
    """The sheet's summary: the one game's, or Hollywood's columns combined (V3)."""
    summaries = [summarise(tally, game, played) for tally in tallies]
    if not hollywood_game:
        return summaries[0]
    for summary, tally in zip(summaries, tallies, strict=True):
        summary["entered_boxes"] = list(tally.entered)
    sheet = hollywood.combine(summaries, wins, game.rules)
    _price(sheet, game.stake)
    return sheet


def _over_message(tallies: Sequence[Tally], deal: str) -> str:
    last = max(tallies, key=lambda t: t.ended_with or 0)
    assert last.winner is not None
    games = "all the games are" if len(tallies) > 1 else "the game is"
    return (
        f"{games} over: {last.winner} reached {last.total(last.winner)} in {deal} "
        f"{last.ended_with}; start a new game to go on"
    )


def _sheet_box(
    entry: BoxEntry,
    ruling: Ruling,
    dealer: str,
    tallies: Sequence[Tally],
    columns: Sequence[int] | None,
) -> SheetBox:
    """One box of the sheet: its ruling, its label (id and note), its dealer and the
    running totals after it.

    In Hollywood the totals are summed over the columns; ``columns`` lists the
    columns the box was entered in and ``column_totals`` each column's totals.
    """
    totals = {p: sum(t.total(p) for t in tallies) for p in tallies[0].players}
    return SheetBox(
        **{name: getattr(ruling, name) for name in RULING_FIELDS},
        id=entry.id,
        note=entry.note,
        dealer=dealer,
        totals=totals,
        columns=() if columns is None else tuple(columns),
        column_totals=() if columns is None else tuple(t.totals_dict() for t in tallies),
    )


def summarise(tally: Tally, game: Game, played: int = 0) -> dict[str, Any]:
    """One game's summary: totals, and once it is over bonuses, shutouts and settlement
    (or, stopped by agreement after box ``played``, the totals as they stand)."""
    cites, rules = game.cites, game.rules
    summary: dict[str, Any] = {
        "totals": tally.totals_dict(),
        "boxes_won": tally.wins_dict(),
        "game_over": tally.over,
        "winner": tally.winner,
        "game_bonus": {},
        "box_bonuses": {},
        "shutouts": [],
        "final_totals": {},
        "settlement": [],
        "explanation": [],
    }
    if tally.winner is None and game.ended == "agreed":
        return _agreed_stop(summary, tally, game, played)
    if tally.winner is None:
        summary["explanation"] = [_progress(tally, cites).to_json()]
        return summary
    if rules.family == "knock-rummy":
        return _knock_rummy_end(summary, tally, game)
    winner = tally.winner
    box_bonuses = {p: rules.box_bonus * tally.won(p) for p in tally.players}
    final = {
        p: tally.total(p) + box_bonuses[p] + (rules.game_bonus if p == winner else 0) for p in tally.players
    }
    shutouts = [p for p in tally.players if tally.won(p) == 0]
    settlement, settle_steps = settle(final, winner, shutouts, game)
    steps = [
        Step(
            cites.end,
            f"{winner} reached {tally.total(winner)} in "
            f"{vocabulary_for(rules).deal} {tally.ended_with} "
            f"(target {tally.target}): the game is over",
        ),
        Step(cites.bonus, f"{winner} adds the game bonus of {rules.game_bonus}"),
        Step(
            cites.bonus,
            f"{vocabulary_for(rules).deal} bonuses at {rules.box_bonus} a "
            f"{vocabulary_for(rules).deal}: "
            + ", ".join(f"{p} {tally.won(p)} x {rules.box_bonus} = {box_bonuses[p]}" for p in tally.players),
        ),
        *_shutout_steps(shutouts, winner, rules, cites),
        Step(
            cites.settle,
            "final totals: "
            + "; ".join(
                _final_sum(p, tally, box_bonuses[p], rules.game_bonus if p == winner else 0, final[p])
                for p in tally.players
            ),
        ),
        *settle_steps,
    ]
    summary.update(
        game_bonus={winner: rules.game_bonus},
        box_bonuses=box_bonuses,
        shutouts=shutouts,
        final_totals=final,
        settlement=settlement,
        explanation=[step.to_json() for step in steps],
    )
    _price(summary, game.stake)
    return summary


def _agreed_stop(summary: dict[str, Any], tally: Tally, game: Game, played: int) -> dict[str, Any]:
    """A game the players ended by agreement before anyone reached the target (K5; a
    table that breaks up): no game bonus, no box bonuses, nobody shut out; the running
    totals are the final totals, settled as the rule set settles (J16), the leader (if
    one) as the winner."""
    final = tally.totals_dict()
    best = max(final.values())
    leaders = [p for p in tally.players if final[p] == best]
    winner = leaders[0] if len(leaders) == 1 else None
    if game.rules.family == "knock-rummy":
        settlement, settle_steps = settle_box_by_box(tally, game)
    else:
        settlement, settle_steps = settle(final, winner or "", [], game)
    cite = "K5" if game.rules.family == "knock-rummy" else game.cites.end
    lead = (
        f"{winner} leads and wins" if winner else f"{' and '.join(leaders)} are level at the top: nobody wins"
    )
    deal = vocabulary_for(game.rules)
    steps = [
        Step(
            cite,
            f"the players ended the game by agreement "
            f"{f'after {deal.deal} {played}' if played else f'before the first {deal.deal}'}"
            f"{'' if tally.target is None else f', before anyone reached {tally.target}'}"
            f": no game bonus, no {deal.deal} bonuses, nobody is shut out; {lead}",
        ),
        Step(
            game.cites.settle,
            "final totals are the totals: " + "; ".join(f"{p} {final[p]}" for p in tally.players),
        ),
        *settle_steps,
    ]
    summary.update(
        game_over=True,
        winner=winner,
        final_totals=final,
        settlement=settlement,
        ended="agreed",
        explanation=[step.to_json() for step in steps],
    )
    _price(summary, game.stake)
    return summary


def _knock_rummy_end(summary: dict[str, Any], tally: Tally, game: Game) -> dict[str, Any]:
    """A Knock Rummy game stopped at its agreed target (K5): no game or box bonus, nobody
    shut out, the totals are the final totals, and the players settle what they paid
    each other box by box (K3), not the difference of their totals (J16 does not apply)."""
    winner = tally.winner
    assert winner is not None
    deal = vocabulary_for(game.rules).deal
    final = tally.totals_dict()
    settlement, settle_steps = settle_box_by_box(tally, game)
    steps = [
        Step(
            "K5",
            f"{winner} reached {tally.total(winner)} in {deal} {tally.ended_with} "
            f"(the agreed stop at {tally.target}): the game ends, with no game or "
            f"{deal} bonus",
        ),
        Step("K5", "final totals are the totals: " + "; ".join(f"{p} {final[p]}" for p in tally.players)),
        *settle_steps,
    ]
    summary.update(
        game_bonus={winner: 0},
        box_bonuses={p: 0 for p in tally.players},
        final_totals=final,
        settlement=settlement,
        explanation=[step.to_json() for step in steps],
    )
    _price(summary, game.stake)
    return summary


def settle_box_by_box(tally: Tally, game: Game) -> tuple[list[dict[str, Any]], list[Step]]:
    """Who pays whom where each box is paid as it falls (K3, K5): between two players the
    sum of what each paid the other box by box, one line per pair that owes anything.

    >>> rules = find_rules("knock-rummy")
    >>> g = Game(rules, ("Ann", "Bob"), "Ann", None, ())
    >>> t = dataclasses.replace(Tally.start(g.players, 100),
    ...                         paid=(("Bob", "Ann", 1, 11), ("Ann", "Bob", 2, 10)))
    >>> settle_box_by_box(t, g)[1][0].text
    'Bob paid Ann 11 in hand 1; Ann paid Bob 10 in hand 2: Bob pays Ann 1 (11 - 10)'
    """
    deal = vocabulary_for(game.rules).deal
    lines: list[dict[str, Any]] = []
    steps: list[Step] = []
    for i, first in enumerate(game.players):
        for second in game.players[i + 1 :]:
            one = [(n, pts) for payer, payee, n, pts in tally.paid if (payer, payee) == (first, second)]
            other = [(n, pts) for payer, payee, n, pts in tally.paid if (payer, payee) == (second, first)]
            owed, back = sum(p for _, p in one), sum(p for _, p in other)
            pairs = ((first, second, one), (second, first, other))
            if back > owed:  # the one who owes on balance is named first
                pairs = pairs[::-1]
            said = [_paid_text(payer, payee, paid, deal) for payer, payee, paid in pairs if paid]
            if owed == back:
                if said:
                    steps.append(Step("K5", "; ".join(said) + ": nothing to settle"))
                continue
            low, high, points = (first, second, owed - back) if owed > back else (second, first, back - owed)
            sums = f" ({max(owed, back)} - {min(owed, back)})" if owed and back else ""
            lines.append({"from": low, "to": high, "points": points})
            steps.append(Step("K5", "; ".join(said) + f": {low} pays {high} {points}{sums}"))
    return lines, steps


def _paid_text(payer: str, payee: str, paid: Sequence[tuple[int, int]], deal: str) -> str:
    """What one player paid another, box by box: "Bob paid Ann 11 in box 1 and 5 in box 3"."""
    return f"{payer} paid {payee} " + " and ".join(f"{pts} in {deal} {n}" for n, pts in paid)


def _progress(tally: Tally, cites: Cites) -> Step:
    """Where a game in progress stands against its target (or, without one, K5)."""
    if tally.target is None:
        cites, goal = (
            dataclasses.replace(cites, end="K5"),
            (
                "there is no target: each hand is paid as it falls, and the players end the game "
                "when they agree"
            ),
        )  # only Knock Rummy has no target: its deal is a hand
    else:
        goal = f"the game is to {tally.target}"
    if not any(tally.totals):
        return Step(cites.end, f"nobody has scored yet; {goal}")
    best = max(tally.totals)
    leaders = [p for p, t in zip(tally.players, tally.totals, strict=True) if t == best]
    return Step(
        cites.end, f"{' and '.join(leaders)} {'lead' if len(leaders) > 1 else 'leads'} with {best}; {goal}"
    )


def _final_sum(player: str, tally: Tally, box_bonus: int, game_bonus: int, final: int) -> str:
    parts = [str(tally.total(player)), str(box_bonus)] + ([str(game_bonus)] if game_bonus else [])
    return f"{player} {' + '.join(parts)} = {final}"


def _shutout_steps(shutouts: Sequence[str], winner: str, rules: Rules, cites: Cites) -> list[Step]:
    """Who was shut out and what it costs him (J15, G8)."""
    if not shutouts:
        return [
            Step(cites.shutout, f"every player won at least one {vocabulary_for(rules).deal}: no shutout")
        ]
    effect = {
        "double": f"what he owes {winner} is doubled",
        "none": "this rule set adds nothing for a shutout",
    }.get(str(rules.shutout), f"he owes {winner} {rules.shutout} more")
    deal = vocabulary_for(rules).deal
    return [Step(cites.shutout, f"{p} won no {deal} and is shut out: {effect}") for p in shutouts]


def settle(
    final: Mapping[str, int], winner: str, shutouts: Sequence[str], game: Game
) -> tuple[list[dict[str, Any]], list[Step]]:
    """Who pays whom (J16): every pair, or only pairs with the winner, shutouts applied."""
    players, rules = game.players, game.rules
    lines: list[dict[str, Any]] = []
    steps: list[Step] = []
    for i, first in enumerate(players):
        for second in players[i + 1 :]:
            if rules.settlement == "winner-only" and winner not in (first, second):
                continue
            high, low = (first, second) if final[first] >= final[second] else (second, first)
            difference = final[high] - final[low]
            if difference == 0:
                steps.append(Step(game.cites.settle, f"{high} and {low} are level: nothing to settle"))
                continue
            points, text = difference, f"{final[high]} - {final[low]}"
            line: dict[str, Any] = {"from": low, "to": high, "points": points}
            if high == winner and low in shutouts and rules.shutout != "none":
                points, text = _shut_out(difference, text, rules)
                line.update(points=points, shutout=True)  # the one payment it changes (J15)
            lines.append(line)
            shown = text if text == str(points) else f"{text} = {points}"
            steps.append(
                Step(
                    game.cites.shutout if points != difference else game.cites.settle,
                    f"{low} pays {high} {shown}",
                )
            )
    return lines, steps


def _shut_out(difference: int, text: str, rules: Rules) -> tuple[int, str]:
    """A shut-out loser's debt to the winner: doubled, or a flat amount added (J15)."""
    if rules.shutout == "double":
        return difference * 2, f"({text}) x 2"
    if isinstance(rules.shutout, int):
        return difference + rules.shutout, f"({text}) + {rules.shutout}"
    return difference, text


def money(points: int, stake: Decimal) -> float:
    """Points at a stake per point, rounded to cents (half up, as people round money).

    >>> money(164, Decimal("0.05")), money(1, Decimal("0.125"))
    (8.2, 0.13)
    """
    return float((stake * points).quantize(CENT, rounding=ROUND_HALF_UP))


def _price(summary: dict[str, Any], stake: Decimal | None) -> None:
    """Add money amounts to a finished summary's settlement when there is a stake (V6)."""
    if stake is None or not summary["settlement"]:
        return
    for line in summary["settlement"]:
        line["amount"] = money(line["points"], stake)
    paid = "; ".join(
        f"{line['from']} pays {line['to']} {line['points']} x {stake} = {line['amount']:.2f}"
        for line in summary["settlement"]
    )
    summary["explanation"].append(Step("V6", f"at {stake} a point: {paid}").to_json())
