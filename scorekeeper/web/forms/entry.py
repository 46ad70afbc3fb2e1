"""A box form read into the contract's :class:`BoxEntry` (the one place a box form
becomes one; :func:`~.box.box_form_data` is the way back), and what the engine made
of it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine import ScorekeeperError
from ...engine.contract import BoxEntry, Ruling, Sheet
from .box import BoxForm, checked_box
from .errors import attach_engine_error

CHECK = "Check the fields marked below."


@dataclass
class Ruled:
    """A box form run through the engine: the entry, the sheet with it (a stored game)
    and the box's ruling, or what is wrong with it."""

    entry: BoxEntry | None = None
    sheet: Sheet | None = None
    ruling: Ruling | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.ruling is not None and not self.errors


def box_entry(form: BoxForm) -> BoxEntry | None:
    """The form's box as the contract's value: the one place a box form becomes a
    :class:`BoxEntry` (and :func:`box_form_data` the way back). None, with errors on
    the fields, when it does not check."""
    data = checked_box(form)
    if data is None:
        return None
    try:
        return BoxEntry.from_json(data)
    except ScorekeeperError as err:
        attach_engine_error(form, err, form.players)
        return None
