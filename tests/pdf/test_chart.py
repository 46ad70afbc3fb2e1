"""The chart of a game: the data is the engine's running totals, the SVG is black and white,
its players told apart by line style and labels, their names escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from scorekeeper import chart, engine
from scorekeeper.engine.contract import Sheet

from . import games

SVG = "{http://www.w3.org/2000/svg}"


def test_the_data_is_every_running_total_box_by_box() -> None:
    game = games.jersey_game(20, ended=False)
    score = engine.score(game)
    (found,) = chart.charts(game["players"], Sheet.from_json(score), target=100)
    played = [b for b in score["boxes"] if b["result"] != "misdeal"]
    for line in found.lines:
        assert line.points[0] == (0, 0)
        assert [y for _, y in line.points[1:]] == [b["totals"][line.player] for b in played]
    assert found.boxes == len(played) and found.target == 100


def test_hollywood_has_one_chart_per_game_column() -> None:
    game = games.hollywood_game()
    score = engine.score(game)
    found = chart.charts(game["players"], Sheet.from_json(score), target=100)
    assert [c.title for c in found] == ["Game 1", "Game 2", "Game 3"]
    first = [b for b in score["boxes"] if 1 in b["columns"]]
    assert found[0].boxes == len(first)
    assert found[0].lines[1].points[-1][1] == score["games"][0]["totals"]["Bob"]


def test_the_svg_is_black_and_white_and_tells_players_apart_by_line_style() -> None:
    players = ["Ann", "<b>Bob</b> & Co", "Cal", "Dee", "Eve"]
    game = games.knock_rummy_game(players)
    (found,) = chart.charts(game["players"], Sheet.from_json(engine.score(game)), target=300)
    svg = chart.svg(found)
    root = ET.fromstring(svg)  # well-formed, so the hostile name was escaped
    colours = set(re.findall(r'(?:stroke|fill)="([^"]+)"', svg)) - {"none"}
    assert colours == {"#000"}
    lines = [
        p
        for p in root.iter(f"{SVG}path")
        if p.get("stroke-width") not in (None, "1")
        and p.get("stroke-dasharray") != "2 2"
        and len(p.get("d", "")) > 40
    ]
    styles = {(p.get("stroke-dasharray"), p.get("stroke-width")) for p in lines}
    assert len(styles) == len(players)
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "<b>Bob</b>… 188" in labels and "&lt;b&gt;Bob" in svg
    assert root.get("viewBox") == "0 0 360 180" and root.get("width") == "100%"
    assert "target 300" in labels


def test_a_far_target_does_not_flatten_the_lines() -> None:
    game = games.knock_rummy_game(["Ann", "Bob"])
    (found,) = chart.charts(game["players"], Sheet.from_json(engine.score(game)), target=5000)
    assert found.high < 5000 and not found.target_in_view
    assert found.caption == "Running totals (game to 5000)"
