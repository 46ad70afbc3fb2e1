"""The command line (CONTRACT.md "Command line").

Every command answers JSON on stdout and exits 0. Bad input exits 2 with
``{"error": {...}}`` on stdout and a one-line message on stderr, so a script
can read the error and a person sees it. ``arrange -`` reads JSON lines and
answers one line each; a bad line gets its own ``{"error": ..., "line": n}``
line and the run goes on, and the exit status is 2 if any line was bad.
Blank lines are skipped.

The commands live by group (:mod:`.play` the rules', :mod:`.database` the stored
data's), on :mod:`.streams` for reading and answering; the parser here is the index of
the command line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from scorekeeper.engine import ScorekeeperError

from .database import _backup, _check, _event_results, _export, _import, _migrate, _restore, _serve
from .play import _adjudicate, _arrange, _moment, _pad, _rules, _score, _sheet
from .streams import BAD_INPUT, OK, InputError, Parser, fail, parse_json

__all__ = ["BAD_INPUT", "OK", "InputError", "build_parser", "main", "parse_json"]


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return int(text)


def _ace_value(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 15:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ace value (1 to 15)")
    return int(text)


def _paper(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--page-size", choices=("A4", "letter"), default="A4", help="paper size (A4 or letter)"
    )


def build_parser() -> argparse.ArgumentParser:
    """The ``scorekeeper`` command and its subcommands, as CONTRACT.md lists them."""
    parser = Parser(
        prog="scorekeeper",
        description="Score keeper and rules adjudicator "
        "for Jersey Gin and the Gin Rummy family. Answers JSON.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    def command(name: str, run: Callable[[argparse.Namespace], int], text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=text, description=text)
        sub.set_defaults(run=run)
        return sub

    source = "a JSON file, or - (the default) for stdin"
    command("adjudicate", _adjudicate, "rule on one box").add_argument(
        "file", nargs="?", default="-", metavar="FILE", help=source
    )
    command("score", _score, "score a whole game").add_argument(
        "file", nargs="?", default="-", metavar="FILE", help=source
    )
    arranging = command("arrange", _arrange, "best melds and count of 10 or 11 cards")
    arranging.add_argument(
        "cards",
        nargs="*",
        metavar="CARD",
        help='cards like 7C 10H QS, or - to read JSON lines {"cards": [...]}',
    )
    arranging.add_argument("--around-the-corner", action="store_true", help="K-A-2 and Q-K-A are runs (V4)")
    arranging.add_argument("--ace-value", type=_ace_value, default=1, help="count of an ace (V4)")
    sheet = command("sheet", _sheet, "a game as a PDF score sheet")
    sheet.add_argument("file", nargs="?", default="-", metavar="FILE", help=source)
    sheet.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="the PDF file to write (- for stdout)"
    )
    _paper(sheet)
    detail = sheet.add_mutually_exclusive_group()
    detail.add_argument(
        "--detail",
        action="store_true",
        default=None,
        help="every box's melds, layoffs and explanation (default: boxes with cards)",
    )
    detail.add_argument("--no-detail", dest="detail", action="store_false", help="the score table only")
    sheet.add_argument("--place", help="where the game was played, printed in the header")
    sheet.add_argument("--started", type=_moment, help="when play began, e.g. 2026-05-01T19:30")
    sheet.add_argument("--currency", help="the stake's currency, e.g. EUR or $")
    sheet.add_argument("--game-id", help="the stored game's id, printed in every footer")
    sheet.add_argument("--url", help="the game's read-only page: a QR code to it beside the title block")
    pad = command("pad", _pad, "a blank score pad to print for a game played on paper")
    pad.add_argument("preset", metavar="PRESET", help="the rule set, e.g. jersey-scarne")
    pad.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="the PDF file to write (- for stdout)"
    )
    pad.add_argument("--players", type=int, default=None, help="columns for this many players")
    pad.add_argument(
        "--columns",
        type=int,
        default=None,
        help="Hollywood: games scored at once, 1 to 50 (default: the preset's)",
    )
    _paper(pad)
    command("rules", _rules, "list the presets, or one preset's settings").add_argument(
        "preset", nargs="?", metavar="PRESET"
    )
    serving = command(
        "serve",
        _serve,
        "run the web app in one process (DATABASE_URL picks "
        "the database; several processes: gunicorn, see docs/deploy.md)",
    )
    serving.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0)")
    serving.add_argument("--port", type=_port, default=5000, help="port to listen on (5000)")
    serving.add_argument("--workers", help=argparse.SUPPRESS)  # gone: says to use gunicorn
    command(
        "migrate",
        _migrate,
        "create or upgrade the database (DATABASE_URL); run it once per deploy, before the servers start",
    )
    command("backup", _backup, "the whole database as one JSON file (DATABASE_URL)").add_argument(
        "output", metavar="OUT", help="the backup file to write"
    )
    command("import", _import, "store a game (an export, or any input of score) as a new game").add_argument(
        "file", nargs="?", default="-", metavar="FILE", help=source
    )
    command("restore", _restore, "load a backup into an empty database (DATABASE_URL)").add_argument(
        "file", metavar="FILE", help="a file written by scorekeeper backup"
    )
    command("export", _export, "one stored game as CONTRACT.md JSON").add_argument(
        "game", metavar="ID", help="the game's id (from its address)"
    )
    command("check", _check, "rescore every stored game and compare with what is stored")
    results = command(
        "event-results", _event_results, "an event's standings and every table's result (DATABASE_URL)"
    )
    results.add_argument("event", metavar="ID", help="the event's id (from its address)")
    results.add_argument("--csv", action="store_true", help="CSV instead of JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is 0, or 2 for bad input."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise InputError(
                "usage",
                "say what to do: adjudicate, score, arrange, sheet, "
                "pad, rules, serve, migrate, backup or import (see scorekeeper --help)",
            )
        status: int = args.run(args)
    except (ScorekeeperError, InputError) as err:
        return fail(err)
    return status
