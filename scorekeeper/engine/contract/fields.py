"""How the contract reads JSON: the bounds it holds every field to, the checks of text
(valid Unicode, no control characters) and the small readers of a field (a name, a
card, a whole number, a flag) that name the field at fault in CONTRACT.md's error
object. The box, hand and game types are built from these; so is the event's reading
(:mod:`..event`)."""

from __future__ import annotations

import json
import typing
import unicodedata
from collections.abc import Mapping
from typing import Any, Literal

from ..errors import MalformedError

if typing.TYPE_CHECKING:
    from ..rules import Rules

Ending = Literal["knock", "gin", "break", "draw", "misdeal"]
ENDINGS: tuple[Ending, ...] = ("knock", "gin", "break", "draw", "misdeal")
MAX_NAME = 40
"""The longest player name, in characters (the engine checks it, :mod:`.boxes`)."""
MAX_NOTE = 1000
"""The longest note on a box, in characters."""
MAX_STAKE = 1_000_000
MELD_INDEX = "a layoff's meld is the index of the meld (0, 1, ...)"
"""What a layoff's ``meld`` is: the contract reads a whole number, the engine checks it."""
MAX_BOXES = 1000
"""The most boxes one game may hold. A real game is a few dozen boxes (a long Hollywood
evening perhaps two hundred); draws score nothing, so without a bound one request could
make a game of ten thousand that never ends and costs minutes to score and print."""
MAX_PLACE = 120
MAX_CARD_TEXT = 8
"""A card is at most a few characters ("10♥"); anything longer is not a card."""
MAX_CARDS = 52
Json = Any
"""A value as :func:`json.loads` gives it."""

HandFormName = Literal["cards", "declared", "count"]


def too_many_boxes(number: int, most: int) -> str:
    """Why box ``number`` (from 1) is refused in a game that holds at most ``most``."""
    return (
        f"box {number} cannot be added: a game holds at most {most} boxes; start a "
        "new game (a rematch) to play on"
    )


def _at(where: str, name: str | int) -> str:
    if isinstance(name, int):
        return f"{where}[{name}]"
    return f"{where}.{name}" if where else name


def check_text(value: str, where: str, what: str = "text") -> str:
    """Text that can be stored and printed: valid Unicode (no lone surrogates, which
    JSON's ``\\udfff`` escapes can make and UTF-8 cannot encode) without control
    characters other than tab and line breaks (PostgreSQL cannot store NUL in text).
    Printable text is all of that (names, cards: nearly everything), so only the rest is
    looked at character by character."""
    if value.isprintable():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        bad = value[err.start]
        raise MalformedError(
            f"the {what} holds a character that is not valid text (U+{ord(bad):04X}): type it again",
            where or None,
        ) from None
    control = next((c for c in value if (c < " " and c not in "\t\n\r") or c == "\x7f"), None)
    if control is not None:
        raise MalformedError(
            f"the {what} holds a control character (U+{ord(control):04X}): type it again", where or None
        )
    return value


def escaped(text: str) -> str:
    """Text with anything that is not valid Unicode written as its escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def sound(value: Any, where: str, odd: list[str]) -> Any:
    """JSON data with every text that UTF-8 cannot encode written escaped (``\\udfff``),
    each such place added to ``odd``: a backup or an export must never fail on what
    the database already holds.

    Data that UTF-8 encodes whole (nearly all) is answered as it is after one pass of
    the C encoder: walking it node by node cost 12 ms for a 300-box game's summary, on
    every read of its row (issue 33: readers of a big game slowed other tables).

    >>> sound({"a": ["x", 1]}, "s", [])
    {'a': ['x', 1]}
    >>> odd = []; sound({"a": ["\\udfff"]}, "s", odd), odd
    ({'a': ['\\\\udfff']}, ['s.a[0]: \\\\udfff'])
    """
    if isinstance(value, list | dict):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
            pass  # walked below, place by place
        else:
            return value
    if isinstance(value, str):
        clean = escaped(value)
        if clean != value:
            odd.append(f"{where}: {clean[:60]}")
        return clean
    if isinstance(value, list):
        return [sound(item, f"{where}[{i}]", odd) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {
            sound(key, f"{where} (a key)", odd): sound(item, f"{where}.{escaped(str(key))}", odd)
            for key, item in value.items()
        }
    return value


def unsound(value: Any, where: str) -> str | None:
    """Where ``value`` (JSON data) holds text that is not valid Unicode, or None: what a
    restore refuses."""
    if isinstance(value, str):
        return None if escaped(value) == value else where
    if isinstance(value, list):
        items = ((f"{where}[{i}]", item) for i, item in enumerate(value))
    elif isinstance(value, dict):
        items = (
            pair
            for key, item in value.items()
            for pair in ((f"{where} (a key)", key), (f"{where}.{escaped(str(key))}", item))
        )
    else:
        return None
    return next((found for place, item in items if (found := unsound(item, place))), None)


def _stored(
    data: Mapping[str, Json], fields: frozenset[str], inner: Mapping[str, typing.Callable[[Any], Json]]
) -> dict[str, Json]:
    """Stored JSON kept to ``fields``, its text escaped; ``inner`` reads nested fields."""

    def clean(value: Json) -> Json:
        if isinstance(value, str):
            return escaped(value)
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    return {
        key: inner[key](value) if key in inner and value is not None else clean(value)
        for key, value in data.items()
        if key in fields
    }


def _text(data: Json, where: str, what: str, most: int) -> str:
    if not isinstance(data, str):
        raise MalformedError(f"the {what} must be text, not {_shown(data)}", where or None)
    check_text(data, where, what)
    if len(data) > most:
        raise MalformedError(f"the {what} is too long ({most} characters at most)", where)
    return data


def _shown(value: Json) -> str:
    """A bad value quoted in an error, cut short and safe to print."""
    if isinstance(value, int) and value.bit_length() > 100:
        return f"a number of about {value.bit_length() * 3 // 10} digits"
    text = repr(value)
    text = escaped(text)
    return text if len(text) <= 40 else text[:37] + "..."


def _fields(data: Json, where: str, what: str, allowed: frozenset[str]) -> Mapping[str, Json]:
    """An object with only the fields CONTRACT.md names (an unknown field is refused,
    never stored and echoed back)."""
    if not isinstance(data, Mapping):
        raise MalformedError(f"{what} must be a JSON object", where or None)
    for key in data:
        if not isinstance(key, str) or key not in allowed:
            name = escaped(str(key))
            raise MalformedError(
                f"{what} has no field {name[:40]!r} (it takes {', '.join(sorted(allowed))})", _at(where, name)
            )
    return data


def _whole(data: Json, where: str, what: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise MalformedError(f"{what} must be a whole number, not {_shown(data)}", where)
    return data


def table_size(rules: Rules, body: Mapping[str, Json], where: str) -> int:
    """``body``'s ``table_size``, the players to a table (absent: the rules' own number,
    or 4 where they take a range), within what the rules allow; ``where`` is its path."""
    size = _whole(body.get("table_size", rules.usual_table_size), where, "table_size")
    if not rules.min_players <= size <= rules.max_players:
        raise MalformedError(f"{rules.title} is played {rules.players_words} to a table, not {size}", where)
    return size


def _flag(data: Mapping[str, Json], name: str, where: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise MalformedError(f"{name} must be true or false", _at(where, name))
    return value


def player_name(text: str) -> str:
    """A name as the engine compares it: trimmed, runs of spaces made one, and in one
    Unicode form (NFC), so that "Çal" typed on two phones is one player however each
    keyboard composed the Ç, and " Bob " or "Ann  Lee" is the player seated.

    >>> player_name("  Ann \u00a0 Lee "), player_name("Zoe\u0308") == "Zo\u00eb"
    ('Ann Lee', True)
    """
    return unicodedata.normalize("NFC", " ".join(text.split()))


def _name(data: Json, where: str, role: str) -> str:
    """A player named anywhere the contract reads one (a game's players and dealer, a
    box's ``by``, breaker and doubler, a hand's key, a layoff's ``onto``, an entrant, a
    penalty): text of a name's length made :func:`player_name`, so a name is one value
    from the edge in and the stored game names each player as the engine scores her."""
    return player_name(_text(data, where, f"{role}'s name", MAX_NAME * 4))


def _card(data: Json, where: str) -> str:
    if not isinstance(data, str):
        raise MalformedError('a card is written like "4S" or "10H"', where)
    return _text(data, where, "card", MAX_CARD_TEXT)


def _cards(data: Json, where: str) -> tuple[str, ...]:
    """A list of cards; a string of cards separated by spaces is read as CONTRACT.md's
    command line does. Printable text of a card's length is sound as it stands (no
    control character, no lone surrogate), so only the rest goes through the full
    check, which names the card's place: this is the reading of every card the engine
    rules, API and command line alike."""
    if isinstance(data, str):
        data = data.replace(",", " ").split()
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        raise MalformedError('cards must be a list of cards such as ["7C", "10H"]', where)
    if len(data) > MAX_CARDS:
        raise MalformedError(f"{len(data)} cards: a deck has {MAX_CARDS}", where)
    return tuple(
        item if len(item) <= MAX_CARD_TEXT and item.isprintable() else _card(item, _at(where, i))
        for i, item in enumerate(data)
    )


def _optional(
    body: Mapping[str, Json], name: str, where: str, read: typing.Callable[[Json, str], Any]
) -> Any:
    value = body.get(name)
    return None if value is None else read(value, _at(where, name))
