"""An engine error put back on the form field its ``where`` path points at, with the
engine's own message."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from wtforms import Field

from .box import BoxForm
from .fields import FlaskForm, add_error
from .game import NewGameForm

BOX_PATH = re.compile(r"^boxes\[\d+\]\.?")


def attach_engine_error(form: FlaskForm, error: Any, players: Sequence[str] = ()) -> str:
    """Put an engine error on the field its ``where`` names; returns the message.

    Errors the form has no field for stay in the form's own error list.
    """
    where = BOX_PATH.sub("", error.where or "")
    message = str(error.message)
    target = _field_for(form, where, players)
    if target is None:
        form.form_errors.append(message)
    else:
        add_error(target, message)
    return message


def _field_for(form: FlaskForm, where: str, players: Sequence[str]) -> Field | None:
    """The form field for an engine ``where`` path, if the form has one."""
    head = re.split(r"[.\[]", where, maxsplit=1)[0]
    if head == "hands" and isinstance(form, BoxForm):
        for i, player in sorted(enumerate(players), key=lambda p: -len(p[1])):
            if where == f"hands.{player}" or where.startswith(f"hands.{player}."):
                hand = form.hands[i].form
                by_count = where.endswith(".count") or not hand.cards.data
                return hand.count if by_count else hand.cards
        return None
    if head == "settings" and isinstance(form, NewGameForm):
        name = where.split(".", 1)[1] if "." in where else ""
        found_setting: Field | None = getattr(form, f"setting_{name}", None)
        return found_setting
    if head == "players" and isinstance(form, NewGameForm):
        match = re.match(r"players\[(\d+)\]", where)
        if match and int(match.group(1)) < len(form.players):
            return _nth_named(form, int(match.group(1)))
        return form.players
    if (
        head in ("ending", "by", "upcard", "multiplier", "after_break", "second_round", "dealer", "stake")
        and head in form
    ):
        found: Field = form[head]
        return found
    return None


def _nth_named(form: NewGameForm, n: int) -> Field:
    """The n-th non-blank name field (the engine counts only the names given)."""
    named = [entry for entry in form.players if (entry.data or "").strip()]
    return named[n] if n < len(named) else form.players
