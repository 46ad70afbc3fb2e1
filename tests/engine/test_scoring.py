"""engine.Scoring: the running score a box is added to, held against engine.score.

The ledger keeps a ``Scoring`` per stored game version and adds a new box to it
instead of scoring the whole game again, so adding must give exactly what scoring
the longer game gives: the same sheet, or the same error at the same place. The
state takes the contract's typed values; ``engine.score`` is its JSON edge.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import engine
from scorekeeper.engine import Scoring
from scorekeeper.engine.contract import BoxEntry, GameEntry

from .test_game import CONTRACT_GAME
from .test_melds import quick

PLAYERS = {
    "jersey-scarne": 3,
    "three-hand-parlett": 3,
    "gin": 2,
    "gin-classic": 2,
    "oklahoma": 2,
    "hollywood": 2,
    "around-the-corner": 2,
    "doubling": 2,
    "knock-rummy": 4,
}
NAMES = ("Ann", "Bob", "Cal", "Dee")
TYPED_GAME = GameEntry.from_json(CONTRACT_GAME)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A game of boxes given as counts: valid or not, ended early or not."""
    rules = draw(st.sampled_from(sorted(PLAYERS)))
    players = list(NAMES[: PLAYERS[rules]])
    boxes = []
    for index in range(draw(st.integers(0, 14))):
        ending = draw(st.sampled_from(["knock", "knock", "knock", "gin", "break", "draw", "misdeal"]))
        box: dict[str, Any] = {"ending": ending, "id": index + 1}
        if ending in ("knock", "gin", "break"):
            by = draw(st.sampled_from(players))
            counts = {p: draw(st.integers(0, 60)) for p in players}
            if ending == "gin":
                counts[by] = 0
            elif draw(st.booleans()):
                counts[by] = draw(st.integers(0, 10))
            box.update(by=by, hands={p: {"count": c} for p, c in counts.items()})
        if draw(st.integers(0, 5)) == 0:
            box["note"] = "checked twice"
        boxes.append(box)
    return {"rules": rules, "players": players, "dealer": draw(st.sampled_from(players)), "boxes": boxes}


def _outcome(run: Any) -> Any:
    """The sheet as JSON text, or the error (code, where, message)."""
    try:
        return json.dumps(run(), sort_keys=True)
    except engine.ScorekeeperError as err:
        return ("error", err.code, err.where, err.message)


@quick(300, derandomize=True)
@given(games())
def test_adding_a_box_scores_as_the_whole_game(game: dict[str, Any]) -> None:
    boxes = game["boxes"]
    for k in range(len(boxes)):
        before = GameEntry.from_json({**game, "boxes": boxes[:k]})
        try:
            state = Scoring.of(before)
        except engine.ScorekeeperError:
            break  # the shorter game already fails: scoring it is engine.score's business
        sheet_before = json.dumps(state.sheet().to_json(), sort_keys=True)
        box = BoxEntry.from_json(boxes[k])
        added = _outcome(lambda state=state, box=box: state.add(box).sheet().to_json())
        assert added == _outcome(lambda k=k: engine.score({**game, "boxes": boxes[: k + 1]}))
        # States are immutable: adding to one leaves its own sheet as it was.
        assert json.dumps(state.sheet().to_json(), sort_keys=True) == sheet_before


def test_score_is_scoring_of_the_whole_game() -> None:
    assert Scoring.of(TYPED_GAME).sheet().to_json() == engine.score(CONTRACT_GAME)


def test_the_contract_game_box_by_box() -> None:
    state = Scoring.of(TYPED_GAME.with_boxes([]))
    for box in TYPED_GAME.boxes:
        state = state.add(box)
    assert state.sheet() == Scoring.of(TYPED_GAME).sheet()
    assert state.sheet().to_json() == engine.score(CONTRACT_GAME)


def test_a_box_after_the_end_is_refused_with_its_place() -> None:
    finished = Scoring.of(TYPED_GAME)
    assert finished.sheet().game_over
    with pytest.raises(engine.ScorekeeperError) as caught:
        finished.add(BoxEntry(ending="draw"))
    assert caught.value.code == "game-over"
    assert caught.value.where == f"boxes[{len(CONTRACT_GAME['boxes'])}]"


def test_a_box_is_ruled_once_whatever_its_id_and_note() -> None:
    """The ruling memo ignores the label: the web app adds a box without an id (to
    preview it), then with the id the store gave it; both give the same ruling."""
    state = Scoring.of(TYPED_GAME.with_boxes([]))
    box = TYPED_GAME.boxes[0]
    plain = state.add(box).sheet().boxes[0]
    labelled = state.add(dataclasses.replace(box, id=7, note="late")).sheet().boxes[0]
    assert labelled == dataclasses.replace(plain, id=7, note="late")
    assert labelled.to_json() == {**plain.to_json(), "id": 7, "note": "late"}


def test_the_ruling_memo_remembers_rulings_and_never_errors() -> None:
    """The memo is a functools.lru_cache: a box seen again is not ruled again, and a
    refused box names its own place each time it is met (errors are not remembered)."""
    from scorekeeper.engine import ruling

    box = TYPED_GAME.boxes[0]
    Scoring.of(TYPED_GAME.with_boxes([box]))
    hits = ruling._remembered.cache_info().hits
    Scoring.of(TYPED_GAME.with_boxes([box]))
    assert ruling._remembered.cache_info().hits == hits + 1
    bad = BoxEntry(ending="knock", by="Nobody")
    for boxes in ([bad], [box, bad]):
        with pytest.raises(engine.ScorekeeperError) as refused:
            Scoring.of(TYPED_GAME.with_boxes(boxes))
        assert refused.value.where is not None
        assert refused.value.where.startswith(f"boxes[{len(boxes) - 1}]")
