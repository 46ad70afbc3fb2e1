"""How every command reads and answers: JSON in from a file or stdin (UTF-8, with the
line and column of a mistake), one JSON document out on stdout, a PDF to a file or
stdout, and bad input as CONTRACT.md's error object with a one-line message on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from scorekeeper.engine import ScorekeeperError, contract

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


class Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as JSON errors instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise InputError("usage", f"{message} (see {self.prog} --help)")


def emit(data: Any, *, compact: bool = False) -> None:
    """One JSON document on stdout (people read ♣, so no ASCII escapes). Text that is
    not valid Unicode (stored by an older version) is written escaped, and said on
    stderr, rather than crashing with nothing written."""
    indent = None if compact else 2
    odd: list[str] = []
    data = contract.sound(data, "output", odd)
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=indent) + "\n")
    warn_odd(odd)


def warn_odd(odd: Sequence[str]) -> None:
    """Say on stderr where text was not valid Unicode and was written escaped."""
    for place in odd:
        sys.stderr.write(f"scorekeeper: not valid Unicode, written escaped: {place}\n")


def fail(error: ScorekeeperError | InputError) -> int:
    """Report bad input: the error object on stdout, one line on stderr."""
    emit(error.to_json())
    complain(error)
    return BAD_INPUT


def complain(error: ScorekeeperError | InputError, prefix: str = "") -> None:
    message = " ".join(error.message.split())
    where = f" (at {error.where})" if error.where and error.where not in message else ""
    sys.stderr.write(f"scorekeeper: {prefix}{message}{where}\n")


def read_text(source: str) -> str:
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
    scorekeeper.cli.streams.InputError: the input is not valid JSON: Expecting ',' ... line 1, column 12
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        where = f"line {err.lineno}, column {err.colno}"
        raise InputError("malformed", f"the input is not valid JSON: {err.msg} at {where}", where) from None
    except ValueError as err:
        raise InputError("malformed", f"the input is not valid JSON: {err}") from None


def load(source: str) -> Any:
    return parse_json(read_text(source))


def write_pdf(pdf: bytes, output: str, what: str) -> int:
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
    emit({what: output, "bytes": len(pdf)})
    return OK
