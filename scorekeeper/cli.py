"""The command line (CONTRACT.md "Command line").

Every command answers JSON on stdout and exits 0. Bad input exits 2 with
``{"error": {...}}`` on stdout and a one-line message on stderr, so a script
can read the error and a person sees it. ``arrange -`` reads JSON lines and
answers one line each; a bad line gets its own ``{"error": ..., "line": n}``
line and the run goes on, and the exit status is 2 if any line was bad.
Blank lines are skipped.

One module: each command is a short function beside its parser entry; the parser at
the bottom is the index of the command line.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from scorekeeper.engine import (
    SETTINGS,
    ScorekeeperError,
    adjudicate,
    arrange,
    contract,
    find_rules,
    ordered_presets,
    score,
    score_game,
)

OK, BAD_INPUT = 0, 2


class InputError(Exception):
    """Input the command cannot read: a missing file, bad JSON, a usage mistake."""

    def __init__(self, code: str, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.where = code, message, where

    def to_json(self) -> dict[str, Any]:
        body = {"code": self.code, "message": self.message}
        if self.where is not None:
            body["where"] = self.where
        return {"error": body}


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as JSON errors instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise InputError("usage", f"{message} (see {self.prog} --help)")


# --- reading and writing ------------------------------------------------------------------


def _emit(data: Any, *, compact: bool = False) -> None:
    """One JSON document on stdout (people read ♣, so no ASCII escapes). Text that is
    not valid Unicode (stored by an older version) is written escaped, and said on
    stderr, rather than crashing with nothing written."""
    indent = None if compact else 2
    odd: list[str] = []
    data = contract.sound(data, "output", odd)
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=indent) + "\n")
    _warn_odd(odd)


def _warn_odd(odd: Sequence[str]) -> None:
    """Say on stderr where text was not valid Unicode and was written escaped."""
    for place in odd:
        sys.stderr.write(f"scorekeeper: not valid Unicode, written escaped: {place}\n")


def _fail(error: ScorekeeperError | InputError) -> int:
    """Report bad input: the error object on stdout, one line on stderr."""
    _emit(error.to_json())
    _complain(error)
    return BAD_INPUT


def _complain(error: ScorekeeperError | InputError, prefix: str = "") -> None:
    message = " ".join(error.message.split())
    where = f" (at {error.where})" if error.where and error.where not in message else ""
    sys.stderr.write(f"scorekeeper: {prefix}{message}{where}\n")


def _read_text(source: str) -> str:
    """The text of a file, or of stdin for ``-``, as UTF-8 (a BOM is allowed)."""
    try:
        if source == "-":
            buffer = getattr(sys.stdin, "buffer", None)
            raw: bytes | str = buffer.read() if buffer is not None else sys.stdin.read()
        else:
            raw = Path(source).read_bytes()
    except OSError as err:
        reason = err.strerror or str(err)
        raise InputError("unreadable-file", f"cannot read {source}: {reason}", source) from None
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(
            "malformed", f"the input is not UTF-8 text (byte {err.start + 1})", f"byte {err.start + 1}"
        ) from None


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str) -> Any:
    """JSON with the line and column of any mistake; NaN and Infinity are refused.

    >>> parse_json('{"a": [1, 2}')
    Traceback (most recent call last):
    ...
    scorekeeper.cli.InputError: the input is not valid JSON: Expecting ',' ... line 1, column 12
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        where = f"line {err.lineno}, column {err.colno}"
        raise InputError("malformed", f"the input is not valid JSON: {err.msg} at {where}", where) from None
    except ValueError as err:
        raise InputError("malformed", f"the input is not valid JSON: {err}") from None


def _load(source: str) -> Any:
    return parse_json(_read_text(source))


# --- the commands --------------------------------------------------------------------------


def _adjudicate(args: argparse.Namespace) -> int:
    _emit(adjudicate(_load(args.file)))
    return OK


def _score(args: argparse.Namespace) -> int:
    _emit(score(_load(args.file)))
    return OK


def _arrange(args: argparse.Namespace) -> int:
    options = {"around_the_corner": args.around_the_corner, "ace_value": args.ace_value}
    if args.cards == ["-"]:
        return _arrange_lines(options)
    if not args.cards:
        raise InputError("usage", "give 10 or 11 cards, or - to read JSON lines")
    _emit(arrange(" ".join(args.cards), **options))
    return OK


def _arrange_lines(options: dict[str, Any]) -> int:
    """JSON lines in, one answer a line out; bad lines are answered and skipped."""
    status = OK
    buffer = getattr(sys.stdin, "buffer", None)
    for number, raw in enumerate(buffer if buffer is not None else sys.stdin, start=1):
        if not raw.strip():
            continue
        try:
            request = parse_json(_decode_line(raw, number))
            if not isinstance(request, dict) or "cards" not in request:
                raise InputError("malformed", 'each line must be an object like {"cards": ["7C", "8C", ...]}')
            _emit(arrange(request["cards"], **options), compact=True)
        except (ScorekeeperError, InputError) as err:
            status = BAD_INPUT
            _emit({**err.to_json(), "line": number}, compact=True)
            _complain(err, f"line {number}: ")
        sys.stdout.flush()
    return status


def _decode_line(raw: bytes | str, number: int) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as err:
        raise InputError(
            "malformed", f"the line is not UTF-8 text (byte {err.start + 1})", f"byte {err.start + 1}"
        ) from None


def _sheet(args: argparse.Namespace) -> int:
    from scorekeeper.pdf import render_sheet  # ReportLab is loaded only for this command
    from scorekeeper.pdf.meta import SheetMeta

    game = contract.GameEntry.from_json(_load(args.file))
    sheet = score_game(game)
    meta = SheetMeta(
        game_id=args.game_id,
        place=args.place or "",
        started=args.started,
        currency=args.currency or "",
        read_only_url=args.url,
        printed=datetime.datetime.now(datetime.UTC).replace(microsecond=0),
    )
    return _write_pdf(
        render_sheet(game, sheet, detail=args.detail, page_size=args.page_size, meta=meta),
        args.output,
        "sheet",
    )


def _moment(value: str) -> datetime.datetime:
    """An ISO date and time from the command line (``2026-05-01T19:30``)."""
    try:
        return datetime.datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date and time like 2026-05-01T19:30") from None


def _pad(args: argparse.Namespace) -> int:
    from scorekeeper.pdf import render_blank_pad

    find_rules(args.preset, "preset")
    try:
        pdf = render_blank_pad(
            args.preset, players=args.players, page_size=args.page_size, columns=args.columns
        )
    except ValueError as err:
        raise InputError("usage", str(err), "columns" if "column" in str(err) else "players") from None
    return _write_pdf(pdf, args.output, "pad")


def _write_pdf(pdf: bytes, output: str, what: str) -> int:
    """Write a PDF to a file (answering where and how big) or to stdout (``-``)."""
    if output == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(pdf)
        return OK
    try:
        Path(output).write_bytes(pdf)
    except OSError as err:
        reason = err.strerror or str(err)
        raise InputError("unwritable-file", f"cannot write {output}: {reason}", output) from None
    _emit({what: output, "bytes": len(pdf)})
    return OK


def _rules(args: argparse.Namespace) -> int:
    if args.preset is None:
        _emit(
            {
                "presets": [
                    {
                        "id": rules.name,
                        "title": rules.title,
                        "min_players": rules.min_players,
                        "max_players": rules.max_players,
                    }
                    for rules in ordered_presets()
                ]
            }
        )
        return OK
    rules = find_rules(args.preset, "preset")
    _emit(
        {
            "id": rules.name,
            "title": rules.title,
            "min_players": rules.min_players,
            "max_players": rules.max_players,
            "settings": rules.settings(),
            "table": [
                {
                    "setting": s.name,
                    "value": getattr(rules, s.name),
                    "meaning": s.meaning,
                    "rule": s.rule,
                    "source": s.source,
                }
                for s in SETTINGS
            ],
        }
    )
    return OK


def _serve(args: argparse.Namespace) -> int:
    if args.workers is not None:
        raise InputError(
            "usage",
            "scorekeeper serve runs one process (waitress, with threads); "
            "for several, run gunicorn 'scorekeeper.web:create_app()' "
            "(docs/deploy.md)",
            "workers",
        )
    from scorekeeper.serve import NotMigrated, serve  # Flask and the database only here
    from scorekeeper.store import NetworkStorage

    try:
        serve(args.host, args.port)
    except NotMigrated as err:
        raise InputError("not-migrated", str(err)) from None
    except NetworkStorage as err:
        raise InputError("network-storage", str(err), "DATABASE_URL") from None
    return OK


def _migrate(args: argparse.Namespace) -> int:
    from scorekeeper.store import migrate

    migrate(_database_url())
    _emit({"migrated": True})
    return OK


def _database_url() -> str:
    """The database the app uses here, found as the app finds it (the environment,
    instance/config.py, else the instance's SQLite file), without building the app;
    a SQLite file on a network file system is refused."""
    from scorekeeper.store import NetworkStorage, refuse_network_storage
    from scorekeeper.web.app import database_url

    url = database_url()
    try:
        refuse_network_storage(url)
    except NetworkStorage as err:
        raise InputError("network-storage", str(err), "DATABASE_URL") from None
    return url


def _backup(args: argparse.Namespace) -> int:
    from scorekeeper import store

    try:
        written = store.backup(args.output, _database_url())
    except OSError as err:
        raise InputError(
            "unwritable-file", f"cannot write {args.output}: {err.strerror or err}", args.output
        ) from None
    _warn_odd(written.odd)
    _emit({"backup": args.output, "rows": written.rows, **({"odd_text": written.odd} if written.odd else {})})
    return OK


def _import(args: argparse.Namespace) -> int:
    from scorekeeper import ledger, store

    with store.opened(_database_url()) as db:
        row, token = ledger.import_game(db, _load(args.file))
        _emit({"id": row.id, "edit_token": token, "version": row.version})
    return OK


def _restore(args: argparse.Namespace) -> int:
    from scorekeeper import store

    try:
        rows = store.restore(args.file, _database_url())
    except OSError as err:
        raise InputError(
            "unreadable-file", f"cannot read {args.file}: {err.strerror or err}", args.file
        ) from None
    except (store.StoreError, ValueError) as err:
        raise InputError("malformed", str(err), args.file) from None
    _emit({"restored": args.file, "rows": rows})
    return OK


def _export(args: argparse.Namespace) -> int:
    from scorekeeper import store

    with store.opened(_database_url()) as db:
        try:
            _emit(store.export_game(db, args.game))
        except store.GameNotFound:
            raise InputError("not-found", f"there is no game {args.game!r}", "game") from None
        _warn_odd(store.odd_text(db, args.game))
    return OK


def _event_results(args: argparse.Namespace) -> int:
    """An event's standings and every table's result: JSON, or CSV with ``--csv``."""
    from scorekeeper import exports, store
    from scorekeeper.ledger import events

    with store.opened(_database_url()) as db:
        event = events.load_event(db, args.event)
        if event is None:
            raise InputError("not-found", f"there is no event {args.event!r}", "event")
        board = events.board(db, event)
    if args.csv:
        sys.stdout.write(exports.event_csv(event.entry, board.standings, board.results))
    else:
        _emit(exports.event_json(event.id, event.entry, board.standings, board.results))
    return OK


def _check(args: argparse.Namespace) -> int:
    """Rescore every stored game and compare with what is stored; status 1 on problems."""
    from scorekeeper import store

    with store.opened(_database_url()) as db:
        problems = store.verify(db)
    _emit({"ok": not problems, "problems": problems})
    return OK if not problems else 1


# --- the parser ------------------------------------------------------------------------------


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
    parser = _Parser(
        prog="scorekeeper",
        description="Score keeper and rules adjudicator "
        "for Jersey Gin and the Gin Rummy family. Answers JSON.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

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
    sheet.add_argument("--url", help="the game's read-only page: a QR code to it in the footer")
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
        return _fail(err)
    return status
