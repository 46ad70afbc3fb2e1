"""Hollywood's columns (RULES.md V3): several games of Gin scored at once.

Each column is a whole game with its own target, bonuses, shutouts and
settlement; :mod:`.game` keeps one tally per column. This module decides which
columns a box is entered in and sums the finished columns into one sheet.

Entry ``per-deal`` (Parlett, the default): deal *n* opens column *n*; each box goes in
every open column opened so far, and a deal after the last column opens none. A
misdeal is not a deal (C11); a drawn deal is.

Entry ``per-win`` (Scarne): a player's first box win goes in game 1 only, his
second in games 1 and 2, his third and later in every open game. Closed games
take nothing more, and a player shut out of a closed game makes his first entry
in the next open one (Scarne: "his next score is entered as the first score in
the next game in progress"). So each win goes in every open column the winner
has already entered, plus the lowest open column he has not.

>>> from .rules import find_rules
>>> columns = start(find_rules("hollywood").with_settings({"hollywood_entry": "per-win"}),
...                 ("Ann", "Bob"))
>>> assert columns is not None
>>> for winner in ("Ann", "Bob", "Ann", "Ann"):
...     entered, columns = columns.enter("knock", winner, [False, False, False])
...     print(winner, entered)
Ann (1,)
Bob (1,)
Ann (1, 2)
Ann (1, 2, 3)
>>> columns.enter("knock", "Bob", [True, False, False])[0]
(2,)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .credits import Step
from .rules import Rules


@dataclass(frozen=True)
class Columns:
    """Which columns each player has entered (per-win) or how many deals there were."""

    count: int
    entry: str
    players: tuple[str, ...]
    entered: tuple[frozenset[int], ...]
    deals: int = 0

    def enter(
        self, result: str, winner: str | None, closed: Sequence[bool]
    ) -> tuple[tuple[int, ...], Columns]:
        """The columns (from 1) this box is entered in, and the state after it."""
        open_columns = [n for n in range(1, self.count + 1) if not closed[n - 1]]
        if self.entry == "per-deal":
            after = dataclasses.replace(self, deals=self.deals + (result != "misdeal"))
            if winner is None:
                return (), after
            return tuple(n for n in open_columns if n <= after.deals), after
        if winner is None:
            return (), self
        seat = self.players.index(winner)
        mine = self.entered[seat]
        columns = [n for n in open_columns if n in mine]
        fresh = next((n for n in open_columns if n not in mine), None)
        if fresh is not None:
            columns.append(fresh)
            mine = mine | {fresh}
        entered = (*self.entered[:seat], mine, *self.entered[seat + 1 :])
        return tuple(sorted(columns)), dataclasses.replace(self, entered=entered)


def start(rules: Rules, players: Sequence[str]) -> Columns | None:
    """The columns of a Hollywood game, or None when the rules score a single game."""
    if not rules.hollywood:
        return None
    return Columns(
        rules.hollywood_columns, rules.hollywood_entry, tuple(players), tuple(frozenset() for _ in players)
    )


def combine(games: Sequence[Mapping[str, Any]], wins: Mapping[str, int], rules: Rules) -> dict[str, Any]:
    """The sheet's summary over all columns: sums of totals and bonuses, net settlement.

    ``totals`` and ``final_totals`` are the sums over the columns, and the
    settlement is the columns' settlements netted pair by pair, so what the
    sheet shows at the top is what changes hands.
    """
    players = list(wins)
    over = all(game["game_over"] for game in games)
    summary: dict[str, Any] = {
        "totals": _sum(games, "totals", players),
        "boxes_won": dict(wins),
        "game_over": over,
        "winner": None,
        "game_bonus": {},
        "box_bonuses": {},
        "shutouts": [],
        "final_totals": {},
        "settlement": [],
        "explanation": [],
        "games": [_column_summary(n, game) for n, game in enumerate(games, start=1)],
    }
    steps = [_entry_step(rules), *(_column_step(n, game, rules) for n, game in enumerate(games, start=1))]
    if over:
        final = _sum(games, "final_totals", players)
        best = max(final.values())
        leaders = [p for p in players if final[p] == best]
        settlement = net_settlement(games, players)
        summary.update(
            winner=leaders[0] if len(leaders) == 1 else None,
            game_bonus={
                p: v
                for p, v in _sum(games, "game_bonus", players).items()
                if any(p in game["game_bonus"] for game in games)
            },
            box_bonuses=_sum(games, "box_bonuses", players),
            shutouts=[p for p in players if wins[p] == 0],
            final_totals=final,
            settlement=settlement,
        )
        steps.append(
            Step(
                "V3",
                "over all the games: "
                + "; ".join(
                    f"{p} " + " + ".join(str(g["final_totals"][p]) for g in games) + f" = {final[p]}"
                    for p in players
                ),
            )
        )
        steps.extend(
            Step("V3", f"{line['from']} pays {line['to']} {line['points']}, the games' settlements netted")
            for line in settlement
        )
    summary["explanation"] = [step.to_json() for step in steps]
    return summary


def _column_summary(number: int, game: Mapping[str, Any]) -> dict[str, Any]:
    """One column's summary, its explanation opened by the boxes entered in it (V3)."""
    entered = game.get("entered_boxes", [])
    listed = ", ".join(str(n) for n in entered) if entered else "none yet"
    first = Step("V3", f"game {number}: hands entered {listed}").to_json()
    return {"column": number, **game, "explanation": [first, *game["explanation"]]}


def _sum(games: Sequence[Mapping[str, Any]], field: str, players: Sequence[str]) -> dict[str, int]:
    return {p: sum(game[field].get(p, 0) for game in games) for p in players}


def net_settlement(games: Sequence[Mapping[str, Any]], players: Sequence[str]) -> list[dict[str, Any]]:
    """Every pair's payments over all columns, netted into one payment per pair."""
    owed: dict[tuple[str, str], int] = {}
    for game in games:
        for line in game["settlement"]:
            key = (line["from"], line["to"])
            owed[key] = owed.get(key, 0) + line["points"]
    lines = []
    for i, first in enumerate(players):
        for second in players[i + 1 :]:
            net = owed.get((second, first), 0) - owed.get((first, second), 0)
            if net:
                payer, payee = (second, first) if net > 0 else (first, second)
                lines.append({"from": payer, "to": payee, "points": abs(net)})
    return lines


def _entry_step(rules: Rules) -> Step:
    """How boxes go into the columns, as this game plays it (V3)."""
    games = f"{rules.hollywood_columns} games are scored at once, each to {rules.game_target}"
    if rules.hollywood_entry == "per-deal":
        return Step(
            "V3", f"{games}: each deal opens the next game and every hand is entered in every open game"
        )
    return Step(
        "V3",
        f"{games}: a player's first win goes in game 1 only, his second in "
        "games 1 and 2, his third and later in every open game",
    )


def _column_step(number: int, game: Mapping[str, Any], rules: Rules) -> Step:
    """One line per column: who won it, or where it stands."""
    if game["game_over"]:
        winner = game["winner"]
        return Step(
            "V3",
            f"game {number} is closed: {winner} reached "
            f"{game['totals'][winner]} (target {rules.game_target})",
        )
    totals = game["totals"]
    if not any(totals.values()):
        return Step("V3", f"game {number} is open; nothing entered yet")
    shown = ", ".join(f"{p} {t}" for p, t in totals.items())
    return Step("V3", f"game {number} is open: {shown}")
