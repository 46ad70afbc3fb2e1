"""scorekeeper: score keeping and rules adjudication for Jersey Gin and the Gin family.

The package root loads no framework: the rules are :mod:`scorekeeper.engine`, the web
app is built by :func:`scorekeeper.web.create_app`.
"""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def _version() -> str:
    """The installed distribution's version; in a checkout never installed, the one
    ``pyproject.toml`` beside the package names."""
    from importlib.metadata import PackageNotFoundError, version  # 0.1 s of CPU: see below

    try:
        return version("scorekeeper")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "0+unknown"


def __getattr__(name: str) -> Any:
    """``__version__``, found at its first use: importlib.metadata (and the email
    package it loads) cost every process about 0.1 s of CPU at import, which the
    command line's rules and the printing process need not pay."""
    if name == "__version__":
        return _version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
