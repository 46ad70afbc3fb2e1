"""What the table tests (``test_table_*.py``, ``test_audits.py``) share: a phone of
390 x 844 that records its script errors, a game opened as its scorer, screenshots
(when ``SCOREKEEPER_SCREENSHOTS`` names a folder)."""

from __future__ import annotations

from typing import Any

from benchmarks.taps import PHONE, SHEET_URL, open_game
from tests.web.browser import screenshot

__all__ = ["PHONE", "SHEET_URL", "open_game", "phone", "shot", "stored_game"]


def phone(browser: Any, **options: Any) -> Any:
    """A page on a new phone; ``page.script_errors`` collects console errors and
    uncaught exceptions (a live preview's 422 of a half-entered box is expected)."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **options
    )
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "status of 422" not in m.text else None,
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.script_errors = errors
    return page


def shot(page: Any, name: str, full_page: bool = False) -> None:
    """A screenshot to look at (see :func:`tests.web.browser.screenshot`)."""
    screenshot(page, f"table-{name}", full_page=full_page)


def stored_game(page: Any, sheet_url: str) -> dict[str, Any]:
    """The game as stored (its JSON export)."""
    response = page.request.get(sheet_url + "/export.json")
    assert response.ok
    return dict(response.json())
