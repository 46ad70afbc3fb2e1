"""The command line of CONTRACT.md, through ``main(argv)`` and once as the installed script."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main
from tests.engine.test_game import CONTRACT_GAME
from tests.engine.test_showdown import CONTRACT_BOX, CONTRACT_RULING

HAND = ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]
SCRIPT = Path(sys.executable).with_name("scorekeeper")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Run the CLI; return its status, its stdout read as JSON, and its stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, json.loads(out), err


def feed(monkeypatch: pytest.MonkeyPatch, data: str | bytes) -> None:
    raw = data.encode() if isinstance(data, str) else data
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))


def assert_bad(status: int, out: Any, err: str, code: str) -> None:
    """Bad input: exit 2, the error object on stdout, one line on stderr."""
    assert status == 2
    assert set(out) == {"error"}
    assert out["error"]["code"] == code
    assert out["error"]["message"]
    assert err.startswith("scorekeeper: ") and err.count("\n") == 1


# --- adjudicate and score ---------------------------------------------------------------------


def test_adjudicate_the_contract_box(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "box.json"
    path.write_text(json.dumps(CONTRACT_BOX))
    status, ruling, err = run(capsys, "adjudicate", str(path))
    assert (status, err) == (0, "")
    assert {key: ruling[key] for key in CONTRACT_RULING} == CONTRACT_RULING


@pytest.mark.parametrize("argv", [["adjudicate"], ["adjudicate", "-"]])
def test_adjudicate_reads_stdin(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, "\ufeff" + json.dumps(CONTRACT_BOX))  # a BOM is allowed
    status, ruling, _ = run(capsys, *argv)
    assert status == 0 and ruling["points"] == 19


def test_score_a_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    feed(monkeypatch, json.dumps(CONTRACT_GAME))
    status, sheet, _ = run(capsys, "score")
    assert status == 0
    assert sheet["final_totals"] == {"Ann": 259, "Bob": 95, "Cal": 0}
    assert sheet["settlement"][0] == {"from": "Bob", "to": "Ann", "points": 164, "amount": 8.2}


def test_output_keeps_suit_symbols(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, json.dumps(CONTRACT_BOX))
    main(["adjudicate"])
    assert "4♠" in capsys.readouterr().out


# --- bad input --------------------------------------------------------------------------------


def test_bad_json_names_line_and_column(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, '{"rules": "gin",\n "players": [1, }')
    status, out, err = run(capsys, "score")
    assert_bad(status, out, err, "malformed")
    assert out["error"]["where"] == "line 2, column 17"
    assert "line 2, column 17" in err


@pytest.mark.parametrize("text", ['{"stake": NaN}', '{"stake": Infinity}'])
def test_json_constants_are_refused(
    text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, text)
    assert_bad(*run(capsys, "score"), "malformed")


def test_input_that_is_not_utf8(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    feed(monkeypatch, b'{"rules": "\xff"}')
    status, out, err = run(capsys, "score")
    assert_bad(status, out, err, "malformed")
    assert "UTF-8" in out["error"]["message"]


def test_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "score", str(tmp_path / "missing.json"))
    assert_bad(status, out, err, "unreadable-file")
    assert out["error"]["where"] == str(tmp_path / "missing.json")


def test_engine_errors_come_out_as_the_error_object(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {
        **CONTRACT_BOX,
        "hands": {
            **CONTRACT_BOX["hands"],
            "Ann": {"cards": ["AS", "5H", "6H", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]},
        },
    }
    feed(monkeypatch, json.dumps(bad))
    status, out, err = run(capsys, "adjudicate")
    assert_bad(status, out, err, "duplicate-card")
    assert out["error"]["where"] == "hands.Bob.cards[0]"
    assert "(at hands.Bob.cards[0])" in err


def test_score_errors_point_into_the_boxes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    late = {**CONTRACT_GAME, "boxes": [*CONTRACT_GAME["boxes"], {"ending": "misdeal"}]}
    feed(monkeypatch, json.dumps(late))
    status, out, err = run(capsys, "score")
    assert_bad(status, out, err, "game-over")
    assert out["error"]["where"] == "boxes[3]"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["serve", "--port", "http"],
        ["serve", "--workers", "0"],
        ["arrange", "--ace-value", "20", "AS"],
        ["sheet"],
    ],
)
def test_usage_mistakes(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad(*run(capsys, *argv), "usage")


# --- arrange ----------------------------------------------------------------------------------


@pytest.mark.rule("C3", "C4")
def test_arrange_ten_cards(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "arrange", *HAND)
    assert status == 0
    assert out["count"] == 4
    assert out["melds"] == [["AS", "2S", "3S"], ["7C", "7D", "7H"], ["9D", "10D", "JD"]]
    assert out["deadwood"] == ["4C"]
    assert "discard" not in out


@pytest.mark.rule("C1", "C4")
def test_arrange_eleven_cards_in_one_argument(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "arrange", "as2s3s 7h7d7c 9dTdJd 4c KH")
    assert status == 0
    assert out["discard"] == "KH"
    assert out["count"] == 4


@pytest.mark.rule("V4")
def test_arrange_around_the_corner(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["QS", "KS", "AS", "2H", "3H", "4H", "5D", "6D", "7D", "9C"]
    assert run(capsys, "arrange", *hand)[1]["count"] == 9 + 10 + 10 + 1
    assert run(capsys, "arrange", "--around-the-corner", *hand)[1]["count"] == 9


def test_arrange_needs_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad(*run(capsys, "arrange"), "usage")
    assert_bad(*run(capsys, "arrange", "AS", "2S"), "wrong-hand-size")


def test_arrange_json_lines(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    feed(
        monkeypatch,
        "\n".join(
            [
                json.dumps({"cards": HAND}),
                "",
                "not json",
                json.dumps({"cards": ["ZZ", *HAND[1:]]}),
                json.dumps(["AS"]),
                json.dumps({"cards": " ".join(HAND) + " KH"}),
            ]
        )
        + "\n",
    )
    status = main(["arrange", "-"])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert len(lines) == 5
    assert lines[0]["count"] == 4
    assert (lines[1]["line"], lines[1]["error"]["code"]) == (3, "malformed")
    assert (lines[2]["line"], lines[2]["error"]["code"]) == (4, "invalid-card")
    assert lines[2]["error"]["where"] == "cards[0]"
    assert (lines[3]["line"], lines[3]["error"]["code"]) == (5, "malformed")
    assert lines[4]["discard"] == "KH"
    assert [line.split(":")[1].strip() for line in err.splitlines()] == ["line 3", "line 4", "line 5"]


def test_arrange_json_lines_all_good(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, json.dumps({"cards": HAND}) + "\n" + json.dumps({"cards": HAND}) + "\n")
    assert main(["arrange", "-"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2 and err == ""


# --- rules, sheet, serve, migrate ---------------------------------------------------------------


def test_rules_lists_the_presets(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules")
    assert status == 0
    # the engine's one order, as the pages list them (engine.PRESET_ORDER)
    assert [p["id"] for p in out["presets"]] == [
        "jersey-scarne",
        "gin",
        "oklahoma",
        "hollywood",
        "doubling",
        "around-the-corner",
        "gin-classic",
        "three-hand-parlett",
        "knock-rummy",
    ]
    assert out["presets"][0]["title"] == "Jersey Gin (Scarne)"


def test_rules_of_one_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "three-hand-parlett")
    assert status == 0
    assert out["settings"]["game_target"] == 200
    assert out["settings"]["knocker_penalty"] == 20
    status, out, _ = run(capsys, "rules", "hollywood")
    table = {row["setting"]: row for row in out["table"]}
    assert (
        table["redeal_after_draw"]["value"],
        table["hollywood_entry"]["value"],
        table["gin_layoffs"]["value"],
        table["hollywood_columns"]["value"],
    ) == ("next", "per-deal", False, 3)
    assert "Parlett 'the deal passes'" in table["redeal_after_draw"]["source"]
    assert all(row["source"] and row["rule"] for row in out["table"])
    status, out, err = run(capsys, "rules", "canasta")
    assert_bad(status, out, err, "unknown-rules")


def test_sheet_writes_a_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "game.json", tmp_path / "game.pdf"
    source.write_text(json.dumps(CONTRACT_GAME))
    status, out, _ = run(capsys, "sheet", str(source), "-o", str(target))
    assert status == 0
    assert out == {"sheet": str(target), "bytes": target.stat().st_size}
    assert target.read_bytes().startswith(b"%PDF")


def test_sheet_to_stdout(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "game.json"
    source.write_text(json.dumps(CONTRACT_GAME))
    assert main(["sheet", str(source), "-o", "-"]) == 0
    assert capsysbinary.readouterr().out.startswith(b"%PDF")


def test_sheet_of_a_bad_game_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "game.json", tmp_path / "game.pdf"
    source.write_text(json.dumps({**CONTRACT_GAME, "dealer": "Zed"}))
    assert_bad(*run(capsys, "sheet", str(source), "-o", str(target)), "unknown-player")
    assert not target.exists()


def test_serve_passes_host_and_port(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """serve hands its host and port on; ``--workers`` is refused, naming gunicorn."""
    calls: list[tuple[str, int]] = []
    fake = types.ModuleType("scorekeeper.serve")
    fake.serve = lambda host, port: calls.append((host, port))  # type: ignore[attr-defined]
    fake.NotMigrated = type("NotMigrated", (Exception,), {})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "scorekeeper.serve", fake)
    assert main(["serve"]) == 0
    assert main(["serve", "--host", "127.0.0.1", "--port", "8080"]) == 0
    assert calls == [("0.0.0.0", 5000), ("127.0.0.1", 8080)]
    status, out, err = run(capsys, "serve", "--workers", "4")
    assert_bad(status, out, err, "usage")
    assert "gunicorn 'scorekeeper.web:create_app()'" in out["error"]["message"]
    assert calls == [("0.0.0.0", 5000), ("127.0.0.1", 8080)]


def test_migrate(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import scorekeeper.store

    calls: list[bool] = []
    monkeypatch.setattr(scorekeeper.store, "migrate", lambda _url: calls.append(True))
    status, out, _ = run(capsys, "migrate")
    assert (status, out, calls) == (0, {"migrated": True}, [True])


# --- the installed script ---------------------------------------------------------------------


def test_installed_script() -> None:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed beside {sys.executable}")
    good = subprocess.run(
        [str(SCRIPT), "score"],
        input=json.dumps(CONTRACT_GAME),
        text=True,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert (good.returncode, good.stderr) == (0, "")
    assert json.loads(good.stdout)["winner"] == "Ann"
    bad = subprocess.run(
        [str(SCRIPT), "arrange", "AS", "2S", "XX"], text=True, capture_output=True, check=False, timeout=60
    )
    assert bad.returncode == 2
    assert json.loads(bad.stdout)["error"]["code"] == "invalid-card"
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("scorekeeper: ")


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "rules", "gin"],
        text=True,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["id"] == "gin"
