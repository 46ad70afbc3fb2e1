"""The commands of the rules: rule on a box, score a game, arrange a hand, print a
game's sheet or a blank pad, list the presets. They read and answer JSON (or write a
PDF) and touch no database."""

from __future__ import annotations

import argparse
import datetime
import sys
from typing import Any

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

from .streams import BAD_INPUT, OK, InputError, complain, emit, load, parse_json, write_pdf


def _adjudicate(args: argparse.Namespace) -> int:
    emit(adjudicate(load(args.file)))
    return OK


def _score(args: argparse.Namespace) -> int:
    emit(score(load(args.file)))
    return OK


def _arrange(args: argparse.Namespace) -> int:
    options = {"around_the_corner": args.around_the_corner, "ace_value": args.ace_value}
    if args.cards == ["-"]:
        return _arrange_lines(options)
    if not args.cards:
        raise InputError("usage", "give 10 or 11 cards, or - to read JSON lines")
    emit(arrange(" ".join(args.cards), **options))
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
            emit(arrange(request["cards"], **options), compact=True)
        except (ScorekeeperError, InputError) as err:
            status = BAD_INPUT
            emit({**err.to_json(), "line": number}, compact=True)
            complain(err, f"line {number}: ")
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

    game = contract.GameEntry.from_json(load(args.file))
    sheet = score_game(game)
    meta = SheetMeta(
        game_id=args.game_id,
        place=args.place or "",
        started=args.started,
        currency=args.currency or "",
        read_only_url=args.url,
        printed=datetime.datetime.now(datetime.UTC).replace(microsecond=0),
    )
    return write_pdf(
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
    return write_pdf(pdf, args.output, "pad")


def _rules(args: argparse.Namespace) -> int:
    if args.preset is None:
        emit(
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
    emit(
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
