"""scorekeeper: score keeping and rules adjudication for Jersey Gin and the Gin family.

The package root loads no framework: the rules are :mod:`scorekeeper.engine`, the web
app is built by :func:`scorekeeper.web.create_app`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def _version() -> str:
    """The installed distribution's version; in a checkout never installed, the one
    ``pyproject.toml`` beside the package names."""
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


__version__ = _version()
