"""One whole game per preset, as CONTRACT.md boxes: what the preset tests play through
the pages (counts for most hands, tapped cards for some)."""

from __future__ import annotations

from typing import Any


def _counts(**counts: int) -> dict[str, Any]:
    return {name: {"count": value} for name, value in counts.items()}


GIN_HAND = ["AS", "2S", "3S", "4S", "5H", "5D", "5C", "9C", "10C", "JC"]
CORNER_GIN = ["QS", "KS", "AS", "2H", "3H", "4H", "5C", "5D", "5S", "5H"]
RUMMY_GIN = ["AS", "2S", "3S", "4S", "7H", "7D", "7C"]

GAMES: dict[str, dict[str, Any]] = {
    "jersey-scarne": {
        "players": ["Ann", "Bob", "Cal"],
        "boxes": [
            {"ending": "knock", "by": "Bob", "hands": _counts(Ann=14, Bob=4, Cal=13)},
            {"ending": "knock", "by": "Cal", "hands": _counts(Ann=5, Bob=20, Cal=8)},
            {"ending": "break", "by": "Ann", "hands": _counts(Ann=3, Bob=10, Cal=20)},
            {
                "ending": "gin",
                "by": "Cal",
                "hands": {"Ann": {"count": 50}, "Bob": {"count": 60}, "Cal": {"cards": GIN_HAND}},
            },
        ],
    },
    "gin": {
        "players": ["Ann", "Bob"],
        "boxes": [
            {"ending": "knock", "by": "Ann", "hands": _counts(Ann=5, Bob=30)},
            {"ending": "draw"},
            {"ending": "knock", "by": "Bob", "hands": _counts(Ann=6, Bob=8)},
            {"ending": "gin", "by": "Ann", "hands": {"Ann": {"cards": GIN_HAND}, "Bob": {"count": 40}}},
        ],
    },
    "gin-classic": {
        "players": ["Ann", "Bob"],
        "boxes": [
            {"ending": "knock", "by": "Ann", "hands": _counts(Ann=5, Bob=30)},
            {"ending": "misdeal"},
            {"ending": "gin", "by": "Ann", "hands": _counts(Ann=0, Bob=70)},
        ],
    },
    "oklahoma": {
        "players": ["Ann", "Bob"],
        "boxes": [
            {"ending": "knock", "by": "Ann", "upcard": "7S", "hands": _counts(Ann=6, Bob=40)},
            {"ending": "gin", "by": "Bob", "upcard": "AH", "hands": _counts(Ann=50, Bob=0)},
            {"ending": "gin", "by": "Ann", "upcard": "5D", "hands": _counts(Ann=0, Bob=60)},
        ],
    },
    "hollywood": {
        "players": ["Ann", "Bob"],
        "boxes": [
            {"ending": "gin", "by": "Ann", "hands": _counts(Ann=0, Bob=60)},
            {"ending": "gin", "by": "Ann", "hands": _counts(Ann=0, Bob=60)},
            {"ending": "knock", "by": "Bob", "hands": _counts(Ann=30, Bob=5)},
            {"ending": "gin", "by": "Ann", "hands": _counts(Ann=0, Bob=60)},
            {"ending": "gin", "by": "Ann", "hands": _counts(Ann=0, Bob=60)},
        ],
    },
    "doubling": {
        "players": ["Ann", "Bob"],
        "boxes": [
            {"ending": "knock", "by": "Ann", "multiplier": 2, "hands": _counts(Ann=5, Bob=30)},
            {"ending": "knock", "by": "Bob", "hands": _counts(Ann=25, Bob=3)},
            {"ending": "gin", "by": "Ann", "multiplier": 4, "hands": _counts(Ann=0, Bob=40)},
        ],
    },
    "around-the-corner": {
        "players": ["Ann", "Bob"],
        "boxes": [
            {"ending": "knock", "by": "Bob", "hands": _counts(Ann=30, Bob=9)},
            {"ending": "gin", "by": "Ann", "hands": {"Ann": {"cards": CORNER_GIN}, "Bob": {"count": 80}}},
        ],
    },
    "three-hand-parlett": {
        "players": ["Ann", "Bob", "Cal"],
        "boxes": [
            {"ending": "knock", "by": "Ann", "hands": _counts(Ann=8, Bob=5, Cal=30)},
            {"ending": "draw"},
            {"ending": "gin", "by": "Cal", "hands": _counts(Ann=60, Bob=70, Cal=0)},
            {"ending": "knock", "by": "Cal", "hands": _counts(Ann=30, Bob=40, Cal=2)},
        ],
    },
    "knock-rummy": {
        "players": ["Ann", "Bob", "Cal", "Dee"],
        "boxes": [
            # K3: each box paid as it falls; all melded is 25 from each other player
            {"ending": "knock", "by": "Ann", "hands": _counts(Ann=3, Bob=10, Cal=8, Dee=12)},
            {"ending": "draw"},
            {
                "ending": "gin",
                "by": "Bob",
                "hands": {
                    "Ann": {"count": 10},
                    "Bob": {"cards": RUMMY_GIN},
                    "Cal": {"count": 5},
                    "Dee": {"count": 6},
                },
            },
            {"ending": "knock", "by": "Bob", "hands": _counts(Ann=10, Bob=1, Cal=3, Dee=2)},
        ],
    },
}
