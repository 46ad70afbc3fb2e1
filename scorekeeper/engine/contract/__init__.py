"""CONTRACT.md as typed values: a box, its hands and layoffs, a game; a ruling and a
score sheet. JSON exists only at the edges (the API, the command line, storage):
everything between them passes these frozen values.

One package, a module a subject: :mod:`.fields` (how JSON is read and text checked),
:mod:`.hand`, :mod:`.box`, :mod:`.game` (input), :mod:`.ruling` and :mod:`.sheet`
(output). Every name is importable from here, as it was from the one module.

Input (:class:`BoxEntry`, :class:`Hand`, :class:`Layoff`, :class:`GameEntry`) is read
with ``from_json``, which checks the *shape* (known fields only, the right JSON types,
text that is valid Unicode) and names the field at fault in CONTRACT.md's error
object; whether the cards and the play are legal is the engine's ruling, as ever.
``to_json`` gives back what was read, so a stored box is exactly what was entered.

Output (:class:`Ruling`, :class:`SheetBox`, :class:`Sheet`) wraps what the engine
answers; fields a later version adds are kept in ``extra`` and come back in
``to_json``.

>>> box = BoxEntry.from_json({"ending": "knock", "by": "Bob",
...     "hands": {"Bob": {"count": 4}, "Cal": {"cards": ["AS", "2S"]}}})
>>> box.hands["Cal"].form, box.to_json()["hands"]["Bob"]
('cards', {'count': 4})
>>> BoxEntry.from_json({"ending": "gin", "by": "Ann", "colour": "red"})
Traceback (most recent call last):
...
scorekeeper.engine.errors.MalformedError: a box has no field 'colour' ...
"""

from __future__ import annotations

from .box import BoxEntry, multiplier_error
from .fields import (
    ENDINGS,
    MAX_BOXES,
    MAX_CARD_TEXT,
    MAX_CARDS,
    MAX_NAME,
    MAX_NOTE,
    MAX_PLACE,
    MAX_STAKE,
    MELD_INDEX,
    Ending,
    HandFormName,
    Json,
    check_text,
    escaped,
    player_name,
    sound,
    too_many_boxes,
    unsound,
)
from .game import GameEntry, check_stake, read_adjudication
from .hand import Hand, Layoff
from .ruling import LaidOff, LaidOut, Line, Payment, Ruling
from .sheet import Sheet, SheetBox, Summary

__all__ = [
    "ENDINGS",
    "MAX_BOXES",
    "MAX_CARDS",
    "MAX_CARD_TEXT",
    "MAX_NAME",
    "MAX_NOTE",
    "MAX_PLACE",
    "MAX_STAKE",
    "MELD_INDEX",
    "BoxEntry",
    "Ending",
    "GameEntry",
    "Hand",
    "HandFormName",
    "Json",
    "LaidOff",
    "LaidOut",
    "Layoff",
    "Line",
    "Payment",
    "Ruling",
    "Sheet",
    "SheetBox",
    "Summary",
    "check_stake",
    "check_text",
    "escaped",
    "multiplier_error",
    "player_name",
    "read_adjudication",
    "sound",
    "too_many_boxes",
    "unsound",
]
