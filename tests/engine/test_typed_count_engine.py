"""A hand given both as cards and as a count (a count typed, cards tapped): the two
must agree, or the error names the player and both numbers (RULES.md §6, C4); the
engine never silently takes one of them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.engine import adjudicate
from scorekeeper.engine.errors import DeadwoodMismatchError
from tests.engine.test_showdown import CONTRACT_BOX


def _box(**hands: dict[str, Any]) -> dict[str, Any]:
    box = copy.deepcopy(CONTRACT_BOX)
    box["hands"]["Cal"] = {"cards": ["KH", "KC", "KS", "AH", "AD", "2C", "2H", "3D", "4H", "4S"]}
    box["hands"].update(hands)
    return box


@pytest.mark.rule("C4")
def test_a_count_that_agrees_with_the_cards_is_taken() -> None:
    ruling = adjudicate(_box())
    both = adjudicate(
        _box(Bob={**CONTRACT_BOX["hands"]["Bob"], "count": 4}, Cal={**_box()["hands"]["Cal"], "count": 13})
    )  # Cal's count after laying off 4S
    assert both["counts"] == ruling["counts"] == {"Ann": 14, "Bob": 4, "Cal": 13}
    assert both["points"] == ruling["points"] == 19


@pytest.mark.rule("C4")
def test_the_knockers_typed_count_disagrees_with_his_cards() -> None:
    with pytest.raises(DeadwoodMismatchError) as err:
        adjudicate(_box(Bob={**CONTRACT_BOX["hands"]["Bob"], "count": 3}))
    assert err.value.message == (
        "Bob's count was entered as 3, but Bob's cards count 4 (C4): correct the count or the cards"
    )
    assert err.value.where == "hands.Bob.count"


@pytest.mark.rule("C4")
def test_a_defenders_count_is_his_count_after_laying_off() -> None:
    """Cal typed 17 (his count before laying off 4S on Bob's run); his cards count 13."""
    with pytest.raises(
        DeadwoodMismatchError,
        match=r"Cal's count was entered as 17, "
        r"but Cal's cards count 13",
    ) as err:
        adjudicate(_box(Cal={**_box()["hands"]["Cal"], "count": 17}))
    assert err.value.where == "hands.Cal.count"


@pytest.mark.rule("C4")
def test_a_declared_hand_with_a_count_that_disagrees() -> None:
    cal = {**CONTRACT_BOX["hands"]["Cal"], "count": 12}
    with pytest.raises(DeadwoodMismatchError, match=r"Cal's count was given as 12.*counts 13"):
        adjudicate(_box(Cal=cal))
