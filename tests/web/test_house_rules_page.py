"""The house rules page shows the preset's own settings (issue 22): Jersey shows
Jersey's, not Oklahoma's upcard or Hollywood's columns; the rest are behind one "Other
settings" disclosure, opened only when one of them is wrong."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from .conftest import start_game


def _parts(page: str) -> tuple[str, str]:
    """The page before the disclosure, and the disclosure itself."""
    assert page.count('<details class="other-settings"') == 1
    before, _, rest = page.partition('<details class="other-settings"')
    return before, rest.partition("</details>")[0]


def test_jersey_shows_its_own_settings_and_folds_the_rest(client: FlaskClient) -> None:
    game_id = start_game(client)  # Jersey Gin
    before, other = _parts(client.get(f"/games/{game_id}/rules").text)
    own = set(re.findall(r'name="setting_([a-z_]+)"', before))
    folded = set(re.findall(r'name="setting_([a-z_]+)"', other))
    assert {"underknock_bonus", "gin_bonus", "break_gin_bonus", "game_target"} <= own
    assert {
        "ace_upcard",
        "spade_doubles",
        "knock_limit_from",
        "hollywood_columns",
        "knocker_penalty",
    } <= folded
    assert not own & folded
    assert re.match(r">\s*<summary><span>Other settings", other)  # closed


def test_a_wrong_other_setting_opens_the_disclosure(client: FlaskClient) -> None:
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}/rules").text
    fields = dict(re.findall(r'name="(setting_[a-z_]+)"[^>]*value="([^"]*)"', page))
    selects = dict(
        re.findall(
            r'name="(setting_[a-z_]+)"[^>]*>\s*(?:<option value="[^"]*">[^<]*</option>\s*)*'
            r'<option value="([^"]*)" selected',
            page,
        )
    )
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert version is not None
    data = {**fields, **selects, "version": version.group(1), "key": "k", "setting_hollywood_columns": "500"}
    refused = client.post(f"/games/{game_id}/rules", data=data)
    assert refused.status_code == 422
    _before, other = _parts(refused.text)
    assert other.startswith(" open>") and 'aria-invalid="true"' in other
