"""May this hand knock: the engine answers it for the dispute page and the box form."""

from __future__ import annotations

import pytest

from scorekeeper import engine
from scorekeeper.engine import Card


@pytest.mark.rule("C6")
def test_a_fixed_limit_a_house_limit_and_a_knock_at_any_count() -> None:
    gin = engine.find_rules("gin")
    assert engine.may_knock(10, engine.knock_limit(gin)).startswith("Can knock")
    assert engine.may_knock(11, engine.knock_limit(gin)).startswith("Cannot knock")
    house = engine.knock_limit(gin, house=5)
    assert (house.value, house.source) == (5, "the house limit")
    assert engine.may_knock(6, house).startswith("Cannot knock: count 6 is over 5")
    anything = engine.knock_limit(engine.find_rules("knock-rummy"))
    assert anything.value is None and anything.known
    assert engine.may_knock(40, anything) == "Count 40: Knock Rummy lets a player knock at any count."
    assert engine.may_knock(0, house) == "Gin: count 0."


@pytest.mark.rule("V2")
def test_oklahoma_asks_for_the_upcard_and_an_ace_means_gin_only() -> None:
    oklahoma = engine.find_rules("oklahoma")
    unknown = engine.knock_limit(oklahoma)
    assert not unknown.known and unknown.value is None and "give it" in unknown.source
    seven = engine.knock_limit(oklahoma, Card.parse("7H"))
    assert seven.value == 7 and engine.may_knock(7, seven).startswith("Can knock")
    ace = engine.knock_limit(oklahoma, Card.parse("AS"))
    assert ace.gin_only and engine.may_knock(1, ace).startswith("Cannot knock")
    one = engine.knock_limit(oklahoma.with_settings({"ace_upcard": "knock-1"}), Card.parse("AS"))
    assert one.value == 1 and not one.gin_only
    assert engine.may_knock(1, one).startswith("Can knock")
