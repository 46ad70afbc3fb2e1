"""The checks of RULES.md §6 on a typed box, as the forms and the ledger hand it in (no
JSON on the way): the same codes, messages and ``where`` paths as the JSON edge gives,
one checked hand built from each entered ``contract.Hand``, and the ruling memo keyed
by the frozen box itself."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from scorekeeper import engine
from scorekeeper.engine import ruling
from scorekeeper.engine.boxes import CheckedHand, check_box
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand, LaidOff, LaidOut, Layoff, Ruling
from scorekeeper.engine.rules import find_rules

from .test_contract import CONTRACT_BOX

JERSEY = find_rules("jersey-scarne")
SEATS = ("Ann", "Bob", "Cal")
GAME = GameEntry(rules="jersey-scarne", players=SEATS, dealer="Ann")
BOB = ("AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C")


def _knock(**hands: Hand) -> BoxEntry:
    counts: dict[str, Hand] = {"Ann": Hand(count=14), "Bob": Hand(cards=BOB), "Cal": Hand(count=13)}
    return BoxEntry(ending="knock", by="Bob", hands={**counts, **hands})


def _refused(box: BoxEntry, where: str = "") -> engine.ScorekeeperError:
    with pytest.raises(engine.ScorekeeperError) as caught:
        check_box(box, JERSEY, SEATS, "Ann", where)
    return caught.value


def test_a_checked_hand_is_built_from_the_entered_hand() -> None:
    box = check_box(_knock(), JERSEY, SEATS, "Ann", "boxes[4]")
    bob = box.hands["Bob"]
    assert isinstance(bob, CheckedHand) and not isinstance(bob, Hand)
    assert (bob.player, bob.form, bob.where) == ("Bob", "cards", "boxes[4].hands.Bob")
    assert [card.code for card in bob.cards] == list(BOB)
    assert box.hands["Ann"].count == 14 and box.hands["Ann"].form == "count"


def test_cards_with_the_layoffs_made_are_arranged_like_cards() -> None:
    cal = Hand(
        cards=("KH", "KC", "KS", "AH", "AD", "2C", "2H", "3D", "4H", "4S"), layoffs=(Layoff("4S", "Bob"),)
    )
    assert cal.form == "declared"  # as entered: it names layoffs
    checked = check_box(_knock(Cal=cal), JERSEY, SEATS, "Ann").hands["Cal"]
    assert checked.form == "cards" and checked.layoffs[0].card.code == "4S"


@pytest.mark.parametrize(
    ("box", "code", "where", "words"),
    [
        (
            _knock(Cal=Hand(cards=("AS", "KC", "KS", "AH", "AD", "2C", "2H", "3D", "4H", "5H"))),
            "duplicate-card",
            "boxes[2].hands.Cal.cards[0]",
            "AS is in both Bob's and Cal's hands",
        ),
        (
            _knock(Cal=Hand(cards=("KC", "KS"))),
            "wrong-hand-size",
            "boxes[2].hands.Cal.cards",
            "Cal has 2 cards",
        ),
        (
            _knock(Cal=Hand(melds=(("KC", "QS", "JH"),), deadwood=("AH",) * 7)),
            "invalid-meld",
            "boxes[2].hands.Cal.melds[0]",
            "Cal's first meld",
        ),
        (
            _knock(Cal=Hand(cards=("ZZ",) * 10)),
            "invalid-card",
            "boxes[2].hands.Cal.cards[0]",
            "'ZZ' is not a card",
        ),
        (_knock(Cal=Hand()), "malformed", "boxes[2].hands.Cal", "Cal's hand needs cards"),
        (_knock(Cal=Hand(count=99)), "malformed", "boxes[2].hands.Cal.count", "from 0 to 98"),
        (
            _knock(Zed=Hand(count=3)),
            "unknown-player",
            "boxes[2].hands.Zed",
            "'Zed' is not one of the players",
        ),
        (
            dataclasses.replace(_knock(), multiplier=3),
            "malformed",
            "boxes[2].multiplier",
            "power of two",
        ),
        (dataclasses.replace(_knock(), by=None), "malformed", "boxes[2].by", "say who the knocker was"),
        (
            dataclasses.replace(_knock(), after_break=True),
            "knock-after-break",
            "boxes[2].ending",
            "nobody may knock after the break",
        ),
        (dataclasses.replace(_knock(), upcard="7X"), "invalid-card", "boxes[2].upcard", "'7X'"),
        (
            _knock(
                Cal=Hand(
                    melds=(("KC", "KS", "KH"),), deadwood=("AH",) * 6, layoffs=(Layoff("4S", "Bob", -1),)
                )
            ),
            "malformed",
            "boxes[2].hands.Cal.layoffs[0].meld",
            "the index of the meld",
        ),
        (
            dataclasses.replace(_knock(), ending="stalemate"),  # type: ignore[arg-type]
            "malformed",
            "boxes[2].ending",
            "ending must be one of knock, gin, break, draw, misdeal",
        ),
    ],
)
def test_a_typed_box_is_checked_as_rules_md_section_6_says(
    box: BoxEntry, code: str, where: str, words: str
) -> None:
    """A box built in code (the box form's translation) is checked by the engine: the
    contract's reading of JSON is not the only guard."""
    error = _refused(box, "boxes[2]")
    assert (error.code, error.where) == (code, where)
    assert words in error.message


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        ({"multiplier": 3}, "malformed", "multiplier"),
        ({"multiplier": "2"}, "malformed", "multiplier"),
        (
            {"hands": {"Ann": {"count": 14}, "Bob": {"cards": list(BOB)}, "Cal": {"cards": ["KH"] * 10}}},
            "duplicate-card",
            "hands.Cal.cards[1]",
        ),
        ({"by": "Zed"}, "unknown-player", "by"),
        (
            {
                "hands": {
                    **_knock().to_json()["hands"],
                    "Cal": {
                        "melds": [],
                        "deadwood": [],
                        "layoffs": [{"card": "4S", "onto": "Bob", "meld": -1}],
                    },
                }
            },
            "malformed",
            "hands.Cal.layoffs[0].meld",
        ),
    ],
)
def test_the_json_edge_and_the_typed_engine_refuse_alike(
    change: dict[str, Any], code: str, where: str
) -> None:
    """The JSON edge reads with the contract and rules with the typed engine, so a bad
    box is refused with the same error object either way."""
    data = {**CONTRACT_BOX, **change}
    with pytest.raises(engine.ScorekeeperError) as by_json:
        engine.adjudicate({**GAME.to_json(boxes=False), **data})
    assert (by_json.value.code, by_json.value.where) == (code, where)
    if isinstance(data.get("multiplier"), str):
        return  # not a whole number: only JSON can say so
    with pytest.raises(engine.ScorekeeperError) as typed:
        engine.rule(GAME, BoxEntry.from_json(data))
    assert typed.value.to_json() == by_json.value.to_json()


@pytest.mark.rule("J5")
def test_the_json_edge_is_the_typed_ruling_written_out() -> None:
    box = BoxEntry.from_json(CONTRACT_BOX)
    typed = engine.rule(GAME, box)
    assert isinstance(typed, Ruling)
    assert engine.adjudicate({**GAME.to_json(boxes=False), **CONTRACT_BOX}) == typed.to_json()
    assert typed.hands["Cal"].layoffs == (LaidOff("4S", "Bob", 0),)


def test_a_layoff_made_in_a_later_round_keeps_its_mark() -> None:
    laid = LaidOut(melds=(), deadwood=("2H",), layoffs=(LaidOff("3H", "Ann", 0, later_round=True),), count=2)
    assert LaidOut.from_json(laid.to_json()) == laid
    assert laid.to_json()["layoffs"] == [{"card": "3H", "onto": "Ann", "meld": 0, "later_round": True}]
    assert laid.as_declared().layoffs == (Layoff("3H", "Ann", 0),)  # as a box names it


def test_equal_boxes_hash_alike_whatever_the_order_of_their_hands() -> None:
    box = _knock()
    turned = dataclasses.replace(box, hands=dict(reversed(list(box.hands.items()))))
    assert turned == box and hash(turned) == hash(box)


@pytest.mark.parametrize("name", [field.name for field in dataclasses.fields(BoxEntry)])
def test_every_field_of_a_box_goes_into_its_hash(name: str) -> None:
    """The ruling memo is keyed by the box: a field left out of ``__hash__`` would still
    be told apart by equality, but every box differing only there would share a bucket."""
    box = _knock()
    other: dict[str, Any] = {
        "ending": "gin",
        "by": "Cal",
        "hands": {"Ann": Hand(count=1)},
        "after_break": True,
        "second_round": True,
        "breaker": "Cal",
        "upcard": "7S",
        "multiplier": 2,
        "double_refused": "Bob",
        "dealer": "Ann",
        "note": "n",
        "id": 7,
    }
    assert hash(dataclasses.replace(box, **{name: other[name]})) != hash(box)


def test_a_game_built_in_code_is_checked_too() -> None:
    for game, where in (
        (dataclasses.replace(GAME, stake=-1.0), "stake"),
        (dataclasses.replace(GAME, dealer=None), "dealer"),
    ):
        with pytest.raises(engine.ScorekeeperError) as caught:
            engine.scoring(game)
        assert (caught.value.code, caught.value.where) == ("malformed", where)


def test_the_memo_keys_on_the_box_less_its_label() -> None:
    box = _knock()
    first = engine.rule_box(box, JERSEY, SEATS, "Ann")
    hits = ruling._remembered.cache_info().hits
    again = engine.rule_box(dataclasses.replace(box, id=9, note="late", dealer="Ann"), JERSEY, SEATS, "Ann")
    assert again is first  # a shared, frozen value: read-only
    assert ruling._remembered.cache_info().hits == hits + 1
