"""The engine is a pure standard-library package: no Flask, no database, no ReportLab."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import scorekeeper.engine

ENGINE = Path(scorekeeper.engine.__file__).parent


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_engine_runs_alone_without_site_packages(tmp_path: Path) -> None:
    """A copy of the engine, outside the project, with no site-packages at all, still rules."""
    shutil.copytree(ENGINE, tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import engine; "
        "r = engine.adjudicate({'rules': 'jersey-scarne', 'players': ['A', 'B', 'C'], "
        "'ending': 'knock', 'by': 'A', 'hands': {'A': {'count': 5}, 'B': {'count': 15}, "
        "'C': {'count': 13}}}); print(r['points'], len(engine.rule_texts()), "
        "sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'sqlalchemy', 'reportlab'}))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], check=True, capture_output=True, text=True, cwd=tmp_path
    ).stdout.split()
    assert out[0] == "18" and int(out[1]) >= 55 and out[2] == "[]"


def test_importing_the_engine_reads_no_files() -> None:
    code = (
        "import builtins, sys; opened = []; real = builtins.open\n"
        "def spy(*a, **k):\n    opened.append(str(a[0])); return real(*a, **k)\n"
        "builtins.open = spy\nimport scorekeeper.engine\n"
        "print([p for p in opened if 'scorekeeper' in p and not p.endswith('.py')])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout.strip()
    assert out == "[]"
