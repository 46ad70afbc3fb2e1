"""One form per screen (Flask-WTF, CSRF on), and the translation between forms and
CONTRACT.md objects: ``game`` (a new game, its settings, Scarne's cut), ``box`` (the
box form), ``splits`` (the engine's proposed melds and layoffs the box form shows),
``disputes`` (check a hand, settle a showdown), and ``errors`` (an engine error put
back on its field). The names the views use are all here.

The forms only check what a form can know (a name is given, a count is a number);
every rule of the game is the engine's, and an engine error is put back on the
field its ``where`` points at, with the engine's own message.
"""

from __future__ import annotations

from .box import (
    ENDINGS,
    BoxForm,
    DeleteBoxForm,
    HandForm,
    UndoForm,
    box_form,
    box_form_data,
    box_from_form,
    checked_box,
    prefill_box_form,
    proposal_signature,
    proposals,
)
from .disputes import CheckForm, ShowdownSetupForm, parse_names, showdown_setup_form
from .entry import CHECK, Ruled, box_entry
from .errors import attach_engine_error
from .fields import MAX_NAME, NUMERIC, CardsField, FlaskForm, add_error, choices
from .game import (
    GAME_ORDER,
    CutResult,
    HouseRulesForm,
    NewGameForm,
    game_from_form,
    house_rules_form_class,
    new_game_form_class,
    presets,
    scarne_cut,
    setting_form_data,
    setting_value,
    settings_from_form,
)
from .splits import AUTO, NO_MELDS, Proposal, SplitOption, read_split, split_key, split_options

__all__ = [
    "AUTO",
    "CHECK",
    "ENDINGS",
    "GAME_ORDER",
    "MAX_NAME",
    "NO_MELDS",
    "NUMERIC",
    "BoxForm",
    "CardsField",
    "CheckForm",
    "CutResult",
    "DeleteBoxForm",
    "FlaskForm",
    "HandForm",
    "HouseRulesForm",
    "NewGameForm",
    "Proposal",
    "Ruled",
    "ShowdownSetupForm",
    "SplitOption",
    "UndoForm",
    "add_error",
    "attach_engine_error",
    "box_entry",
    "box_form",
    "box_form_data",
    "box_from_form",
    "checked_box",
    "choices",
    "game_from_form",
    "house_rules_form_class",
    "new_game_form_class",
    "parse_names",
    "prefill_box_form",
    "presets",
    "proposal_signature",
    "proposals",
    "read_split",
    "scarne_cut",
    "setting_form_data",
    "setting_value",
    "settings_from_form",
    "showdown_setup_form",
    "split_key",
    "split_options",
]
