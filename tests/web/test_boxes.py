"""Recording, previewing, correcting and deleting boxes, with and without htmx."""

from __future__ import annotations

import html
import json
import re

from flask.testing import FlaskClient

from .conftest import box_form, totals, version_of

HX = {"HX-Request": "true"}
BOB = ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]
CAL = ["KH", "KC", "KS", "AH", "AD", "2C", "2H", "3D", "4H", "4S"]


def _cards_box(version: int, **extra: object) -> dict[str, object]:
    return box_form(version, counts={0: 14}, extra={"hands-1-cards": BOB, "hands-2-cards": CAL, **extra})


def test_record_form_page_and_fragment(client: FlaskClient, game_id: str) -> None:
    text = client.get(f"/games/{game_id}/boxes/new").get_data(as_text=True)
    assert "How did the box end?" in text and "Tap <bdi>Cal</bdi>'s cards" in text
    assert text.count('type="checkbox" name="hands-0-cards"') == 52
    assert 'inputmode="numeric"' in text and 'name="key"' in text and 'name="version"' in text
    assert "Break" in text and "Draw" not in text  # Jersey Gin has the break, not the draw
    fragment = client.get(f"/games/{game_id}/boxes/new", headers=HX).get_data(as_text=True)
    assert "<html" not in fragment and 'id="box-form"' in fragment


def test_record_by_counts(client: FlaskClient, game_id: str) -> None:
    response = client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}))
    assert response.status_code == 303
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 0}


def test_record_with_htmx_redirects_by_header(client: FlaskClient, game_id: str) -> None:
    response = client.post(
        f"/games/{game_id}/boxes/new", headers=HX, data=box_form(1, "gin", "Cal", counts={0: 20, 1: 25})
    )
    assert response.status_code == 200 and response.headers["HX-Redirect"] == f"/games/{game_id}"
    assert totals(client, game_id) == {"Ann": 0, "Bob": 0, "Cal": 85}


def test_missing_count_is_named(client: FlaskClient, game_id: str) -> None:
    response = client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4}))
    assert response.status_code == 422
    assert "Enter Cal&#39;s count or tap Cal&#39;s cards." in response.get_data(as_text=True)
    response = client.post(
        f"/games/{game_id}/boxes/new", headers=HX, data=box_form(1, by=None, counts={0: 1, 1: 2, 2: 3})
    )
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Tap who knocked." in text and "<html" not in text and 'id="box-form"' in text
    assert totals(client, game_id) == {"Ann": 0, "Bob": 0, "Cal": 0}


def test_engine_errors_land_on_the_field(client: FlaskClient, game_id: str) -> None:
    response = client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 15, 2: 13}))
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert re.search(r'id="hands-1-count-errors">\s*<li>[^<]*Bob', text), text
    taken = [*CAL[:-1], "4C"]
    response = client.post(
        f"/games/{game_id}/boxes/new",
        data=box_form(1, counts={0: 14}, extra={"hands-1-cards": BOB, "hands-2-cards": taken}),
    )
    assert response.status_code == 422
    assert "4C is in both Bob&#39;s and Cal&#39;s hands" in response.get_data(as_text=True)


def test_preview_with_and_without_htmx(client: FlaskClient, game_id: str) -> None:
    data = _cards_box(1)
    fragment = client.post(f"/games/{game_id}/boxes/preview", data=data, headers=HX)
    text = fragment.get_data(as_text=True)
    assert fragment.status_code == 200 and "<html" not in text
    assert "Knock: Bob" in text and "+19" in text and "J6" in text
    assert 'name="hands-2-keep" value="4S&gt;Bob&gt;0" checked' in text
    page = client.post(f"/games/{game_id}/boxes/preview", data=data).get_data(as_text=True)
    assert "<html" in page and "+19" in page and 'id="box-form"' in page
    bad = client.post(
        f"/games/{game_id}/boxes/preview", headers=HX, data=box_form(1, counts={0: 1, 1: 99, 2: 3})
    )
    # A box half entered is no failed request (the console stays quiet): 200, with why.
    assert bad.status_code == 200 and "Not yet" in bad.get_data(as_text=True)
    assert "must be" in bad.get_data(as_text=True) or "99" in bad.get_data(as_text=True)
    assert totals(client, game_id) == {"Ann": 0, "Bob": 0, "Cal": 0}


def test_layoff_proposal_can_be_refused(client: FlaskClient, game_id: str) -> None:
    preview = client.post(f"/games/{game_id}/boxes/preview", data=_cards_box(1), headers=HX)
    proposal = re.search(r'name="hands-2-proposal" value="([^"]+)"', preview.get_data(as_text=True))
    assert proposal is not None
    raw = proposal.group(1).replace("&#34;", '"').replace("&gt;", ">")
    data = _cards_box(1, **{"hands-2-proposal": raw})  # the 4♠ layoff unticked
    refused = client.post(f"/games/{game_id}/boxes/preview", data=data, headers=HX)
    assert "+23" in refused.get_data(as_text=True)
    client.post(f"/games/{game_id}/boxes/new", data=data)
    assert totals(client, game_id)["Bob"] == 23
    stored = client.get(f"/games/{game_id}/export.json").get_json()["boxes"][0]
    assert stored["hands"]["Cal"]["layoffs"] == []
    assert "4S" in stored["hands"]["Cal"]["deadwood"]
    assert stored["hands"]["Bob"]["deadwood"] == ["4C"]


def test_saving_stores_what_was_previewed(client: FlaskClient, game_id: str) -> None:
    """Even saved without a preview (no JavaScript), cards are stored as laid out."""
    client.post(f"/games/{game_id}/boxes/new", data=_cards_box(1))
    game = client.get(f"/games/{game_id}/export.json").get_json()
    hands = game["boxes"][0]["hands"]
    assert hands["Ann"] == {"count": 14}
    assert hands["Bob"] == {
        "melds": [["AS", "2S", "3S"], ["7C", "7D", "7H"], ["9D", "10D", "JD"]],
        "deadwood": ["4C"],
        "layoffs": [],
    }
    assert hands["Cal"] == {
        "melds": [["KC", "KH", "KS"]],
        "deadwood": ["AD", "AH", "2C", "2H", "3D", "4H"],
        "layoffs": [{"card": "4S", "onto": "Bob", "meld": 0}],
    }
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 0}


def _field(text: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]+)"', text)
    assert found is not None, name
    return found.group(1).replace("&#34;", '"').replace("&gt;", ">")


def test_knocker_chooses_another_split(client: FlaskClient, game_id: str) -> None:
    """C8: Bob may keep A-2-3 of spades out of his melds (count 10) so Cal cannot lay
    off 4S on them; what the preview showed is what is stored."""
    first = client.post(f"/games/{game_id}/boxes/preview", data=_cards_box(1), headers=HX)
    text = first.get_data(as_text=True)
    assert "<bdi>Bob</bdi> laid the melds out differently?" in text
    split = "7C.7D.7H|9D.10D.JD"
    assert f'name="hands-1-split" value="{split}"' in text
    data = _cards_box(
        1,
        **{
            "hands-1-proposal": _field(text, "hands-1-proposal"),
            "hands-2-proposal": _field(text, "hands-2-proposal"),
            "hands-2-keep": "4S>Bob>0",
            "hands-1-split": split,
        },
    )
    second = client.post(f"/games/{game_id}/boxes/preview", data=data, headers=HX)
    shown = second.get_data(as_text=True)
    assert second.status_code == 200
    assert f'name="hands-1-split" value="{split}" checked' in shown
    assert "4S&gt;Bob" not in shown  # nothing left for Cal to lay off
    # Bob 10, Cal 17 (KKK melded, 4S now deadwood), Ann 14: (17-10)+(14-10) = 11
    assert "+11" in shown
    data.update({"hands-2-proposal": _field(shown, "hands-2-proposal")})
    data.pop("hands-2-keep")
    nojs = client.post(f"/games/{game_id}/boxes/preview", data=data)
    assert nojs.status_code == 200 and "<html" in nojs.get_data(as_text=True)
    assert client.post(f"/games/{game_id}/boxes/new", data=data).status_code == 303
    stored = client.get(f"/games/{game_id}/export.json").get_json()["boxes"][0]["hands"]
    assert stored["Bob"] == {
        "melds": [["7C", "7D", "7H"], ["9D", "10D", "JD"]],
        "deadwood": ["AS", "2S", "3S", "4C"],
        "layoffs": [],
    }
    assert stored["Cal"]["layoffs"] == [] and "4S" in stored["Cal"]["deadwood"]
    assert totals(client, game_id)["Bob"] == 11


def test_a_split_that_is_not_in_the_hand_is_ignored(client: FlaskClient, game_id: str) -> None:
    data = _cards_box(1, **{"hands-1-split": "QS.KS.AS"})
    response = client.post(f"/games/{game_id}/boxes/preview", data=data, headers=HX)
    assert response.status_code == 200 and "+19" in response.get_data(as_text=True)


def test_stale_write_is_409_and_keeps_the_entry(client: FlaskClient, game_id: str) -> None:
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}))
    response = client.post(
        f"/games/{game_id}/boxes/new", headers=HX, data=box_form(1, "gin", "Cal", counts={0: 20, 1: 25})
    )
    text = response.get_data(as_text=True)
    # htmx swaps the conflict's form like any answer: 200 (no failed request logged)
    assert response.status_code == 200 and "Another phone changed this game" in text
    assert 'name="version" type="hidden" value="2"' in text and 'value="25"' in text
    plain = client.post(f"/games/{game_id}/boxes/new", data=box_form(1, "gin", "Cal", counts={0: 20, 1: 25}))
    assert plain.status_code == 409 and "Another phone changed this game" in plain.text
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 0}


def test_double_submit_stores_one_box(client: FlaskClient, game_id: str) -> None:
    data = box_form(1, counts={0: 14, 1: 4, 2: 13}, key="same-form")
    assert client.post(f"/games/{game_id}/boxes/new", data=data).status_code == 303
    assert client.post(f"/games/{game_id}/boxes/new", data=data).status_code == 303
    assert len(client.get(f"/games/{game_id}/export.json").get_json()["boxes"]) == 1
    assert totals(client, game_id)["Bob"] == 19


def _first_box(client: FlaskClient, game_id: str) -> int:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    match = re.search(rf'<td><a href="/games/{game_id}/boxes/(\d+)"', page)  # the sheet's row
    assert match is not None
    return int(match.group(1))


def _two_boxes(client: FlaskClient, game_id: str) -> int:
    """Bob knocks (Ann 14, Bob 4, Cal 13), then Cal goes gin; the first box's id."""
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}))
    client.post(f"/games/{game_id}/boxes/new", data=box_form(2, "gin", "Cal", counts={0: 20, 1: 25}))
    return _first_box(client, game_id)


def test_edit_rescores_everything_after(client: FlaskClient, game_id: str) -> None:
    box_id = _two_boxes(client, game_id)
    form = client.get(f"/games/{game_id}/boxes/{box_id}/edit").get_data(as_text=True)
    assert 'value="14"' in form and "Save the correction" in form and "+19" in form
    fragment = client.get(f"/games/{game_id}/boxes/{box_id}/edit", headers=HX)
    assert "<html" not in fragment.get_data(as_text=True)
    preview = client.post(
        f"/games/{game_id}/boxes/{box_id}/preview", headers=HX, data=box_form(3, counts={0: 16, 1: 4, 2: 13})
    )
    assert "+21" in preview.get_data(as_text=True)
    response = client.post(
        f"/games/{game_id}/boxes/{box_id}/edit", data=box_form(3, counts={0: 16, 1: 4, 2: 13})
    )
    assert response.status_code == 303
    assert totals(client, game_id) == {"Ann": 0, "Bob": 21, "Cal": 85}
    shown = client.get(f"/games/{game_id}/boxes/{box_id}").get_data(as_text=True)
    assert "Recorded" in shown and "Corrected" in shown and "counts Ann 14" in shown
    assert "Ann's count 14 → 16" in html.unescape(shown)
    stale = client.post(
        f"/games/{game_id}/boxes/{box_id}/edit", data=box_form(3, counts={0: 18, 1: 4, 2: 13})
    )
    assert stale.status_code == 409


def test_edit_keeps_a_declared_hand_declared(client: FlaskClient, game_id: str) -> None:
    preview = client.post(f"/games/{game_id}/boxes/preview", data=_cards_box(1), headers=HX)
    raw = re.search(r'name="hands-2-proposal" value="([^"]+)"', preview.get_data(as_text=True))
    assert raw is not None
    proposal = raw.group(1).replace("&#34;", '"').replace("&gt;", ">")
    client.post(f"/games/{game_id}/boxes/new", data=_cards_box(1, **{"hands-2-proposal": proposal}))
    box_id = _first_box(client, game_id)
    form = client.get(f"/games/{game_id}/boxes/{box_id}/edit").get_data(as_text=True)
    assert "+23" in form
    carried = re.search(r'name="hands-2-proposal" value="([^"]+)"', form)
    assert carried is not None and json.loads(carried.group(1).replace("&#34;", '"'))["declared"]


def test_box_page_and_delete(client: FlaskClient, game_id: str) -> None:
    box_id = _two_boxes(client, game_id)
    page = client.get(f"/games/{game_id}/boxes/{box_id}").get_data(as_text=True)
    assert "Box 1" in page and "Ann dealt" in page and "J6" in page and "Delete this box" in page
    fragment = client.get(f"/games/{game_id}/boxes/{box_id}", headers=HX).get_data(True)
    assert "<html" not in fragment and "History" in fragment
    stale = client.post(f"/games/{game_id}/boxes/{box_id}/delete", data={"version": "1", "key": "d1"})
    assert stale.status_code == 409
    response = client.post(
        f"/games/{game_id}/boxes/{box_id}/delete",
        headers=HX,
        data={"version": str(version_of(client, game_id)), "key": "d2"},
    )
    assert response.headers["HX-Redirect"] == f"/games/{game_id}"
    # The gin is now box 1, dealt by Ann; the deleted box stays on record.
    assert totals(client, game_id) == {"Ann": 0, "Bob": 0, "Cal": 85}
    deleted = client.get(f"/games/{game_id}/boxes/{box_id}").get_data(as_text=True)
    assert "This box was deleted" in deleted and "Deleted" in deleted
    assert "Delete this box" not in deleted
    assert client.get(f"/games/{game_id}/boxes/{box_id}/edit").status_code == 404
    assert client.get(f"/games/{game_id}/boxes/999").status_code == 404


def test_draw_and_misdeal_need_no_hands(client: FlaskClient, game_id: str) -> None:
    response = client.post(f"/games/{game_id}/boxes/new", data=box_form(1, "misdeal", None))
    assert response.status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Misdeal" in page and "<strong>Ann</strong> deals next" in page
