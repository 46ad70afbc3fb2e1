"""Imports run one way (issue 12, docs LAYOUT.md): the engine and the PDF package load no
web framework and no database library, the package root loads nothing, the store no
Flask, no blueprint imports another, and every module imports only from its floor and
the floors below (:data:`FLOORS`, LAYOUT.md's table).

Each import is checked in a fresh interpreter (``sys.modules`` of this one already
holds everything the other tests loaded).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).resolve().parent
ROOT = PACKAGE.parent
WEB_STACK = ("flask", "flask_wtf", "werkzeug", "wtforms", "jinja2", "itsdangerous")
DATABASE = ("sqlalchemy", "alembic", "psycopg")


def _loaded_by(*modules: str, then: str = "") -> set[str]:
    """The top-level packages a fresh interpreter holds after importing ``modules``
    from this checkout (and running ``then``, a statement, after them)."""
    code = "\n".join(
        [
            "import importlib, json, sys",
            f"sys.path.insert(0, {str(ROOT)!r})",
            *(f"importlib.import_module({name!r})" for name in modules),
            then,
            "print(json.dumps(sorted({name.partition('.')[0] for name in sys.modules})))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True, cwd=ROOT
    )
    loaded = set(json.loads(done.stdout))
    imported = {name.partition(".")[0] for name in modules}
    assert imported <= loaded, "the import did not run"
    return loaded


def test_the_checkout_is_what_a_fresh_interpreter_imports() -> None:
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); import scorekeeper; print(scorekeeper.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True, cwd=ROOT
    )
    assert Path(done.stdout.strip()).resolve().parent == PACKAGE


@pytest.mark.parametrize("module", ["scorekeeper.engine", "scorekeeper.pdf"])
def test_engine_and_pdf_load_no_framework_and_no_database(module: str) -> None:
    loaded = _loaded_by(module)
    assert sorted(loaded & {*WEB_STACK, *DATABASE}) == []


def test_the_package_root_loads_nothing_of_ours_or_theirs() -> None:
    loaded = _loaded_by("scorekeeper")
    assert sorted(loaded & {*WEB_STACK, *DATABASE, "reportlab"}) == []


def test_the_store_loads_no_web_framework() -> None:
    loaded = _loaded_by("scorekeeper.store")
    assert "sqlalchemy" in loaded
    assert sorted(loaded & set(WEB_STACK)) == []


def test_the_web_app_does_load_flask() -> None:
    """The check above can fail: importing the web app does load Flask (the package
    itself loads ``create_app`` at its first use)."""
    assert "flask" in _loaded_by("scorekeeper.web.app")


def test_the_command_lines_configuration_loads_flask_config_only() -> None:
    """``scorekeeper check``, ``backup``, ``export`` find the database through
    ``web/config.py``: Flask's ``Config``, not the app (WTForms, the limiter, the
    database, the PDF)."""
    loaded = _loaded_by("scorekeeper.web.config")
    assert "flask" in loaded
    assert sorted(loaded & {"flask_wtf", "wtforms", "flask_limiter", *DATABASE, *PRINTING}) == []


PRINTING = ("reportlab", "icalendar")
"""What only a print or a calendar feed needs: loaded at their first use, not at a
start (issue 31 point 7: ReportLab and the fonts 0.4 s of CPU, icalendar 0.24 s)."""


def test_the_web_app_starts_without_what_only_printing_needs() -> None:
    built = "sys.modules['scorekeeper.web'].create_app({'DATABASE_URL': 'sqlite://', 'SECRET_KEY': 'x'})"
    loaded = _loaded_by("scorekeeper.web", then=built)
    assert "flask" in loaded  # the app was built
    assert sorted(loaded & set(PRINTING)) == []


def test_the_command_line_loads_only_what_its_command_needs() -> None:
    """The command line loads no framework, no database and no PDF to start: ``rules``
    and ``score`` need none, the stored data's commands load theirs inside each command
    (``check`` its database address through ``web/config.py``, below)."""
    loaded = _loaded_by("scorekeeper.cli", "scorekeeper.__main__")
    assert sorted(loaded & {*WEB_STACK, *DATABASE, *PRINTING}) == []


def test_the_printing_process_loads_no_web_app() -> None:
    """The printing process (``web/printing.py``'s spawned pool) imports its
    initializer's module: from ``scorekeeper.pdf.printer`` it loads the standard library
    only, where ``scorekeeper.web.printing`` loaded the whole app. The real pool is
    started here and asked what it holds after its first blank pad."""
    from scorekeeper.pdf import render_blank_pad
    from scorekeeper.web import printing

    pool = printing._printer(1)
    try:
        assert pool.submit(render_blank_pad, "gin").result().startswith(b"%PDF")
        held = pool.submit(eval, "sorted({m.partition('.')[0] for m in __import__('sys').modules})").result()
        modules = pool.submit(eval, "list(__import__('sys').modules)").result()
    finally:
        printing._close_printer()  # this worker's later prints start their own
    assert "reportlab" in held  # it did print
    assert sorted(set(held) & {*WEB_STACK, *DATABASE, "icalendar"}) == []
    assert "scorekeeper.web" not in modules


def _blueprints() -> dict[str, Path]:
    """The web modules that define a blueprint (``bp = Blueprint(...)``), by name."""
    found = {}
    web = PACKAGE / "web"
    for path in sorted([*web.glob("*.py"), *web.glob("*/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "Blueprint"
            ):
                found[path.stem if path.parent == web else path.parent.name] = path
    return found


def _web_imports(path: Path) -> set[str]:
    """The ``scorekeeper.web`` modules a web module imports, anywhere in it (a module of
    a package in ``web/``, such as ``web/api/``, reaches them two dots up)."""
    names: set[str] = set()
    up = 2 if path.parent.name != "web" and path.parent.parent.name == "web" else 1
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == up and node.module is None:
                names.update(alias.name for alias in node.names)
            elif node.level == up and node.module:
                names.add(node.module.partition(".")[0])
            elif node.level == 0 and (node.module or "").startswith("scorekeeper.web."):
                names.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            names.update(
                alias.name.split(".")[2] for alias in node.names if alias.name.startswith("scorekeeper.web.")
            )
    return names


def test_blueprints_do_not_import_each_other() -> None:
    blueprints = _blueprints()
    assert {"games", "boxes", "api", "health"} <= set(blueprints)
    crossings = {
        name: sorted(_web_imports(path) & (set(blueprints) - {name})) for name, path in blueprints.items()
    }
    assert {name: found for name, found in crossings.items() if found} == {}


def test_the_import_check_sees_a_crossing(tmp_path: Path) -> None:
    """The check above can fail: a module that imports a blueprint is caught."""
    module = tmp_path / "crossing.py"
    module.write_text(
        "from . import games\nfrom .boxes import Ruled\ndef later():\n    from .api import error_response\n"
    )
    assert _web_imports(module) == {"games", "boxes", "api"}


def _modules(package: Path) -> dict[str, Path]:
    """Each module of ``package`` by its dotted name. Migrations are Alembic's scripts,
    not modules of ours."""
    modules: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        if "migrations" in path.parts or "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _import_graph(package: Path) -> dict[str, set[str]]:
    """Which modules of ``package`` each of its modules imports when it is loaded (the
    imports at module level; those inside functions and ``if TYPE_CHECKING`` run later
    or never)."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom):
                base = here
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                if node.level:
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module or ""
                for alias in node.names:
                    found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {module for module in found if module in modules and module != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle a depth-first walk meets, each as the chain of modules."""
    done: set[str] = set()
    path: list[str] = []
    cycles: list[list[str]] = []

    def walk(module: str) -> None:
        path.append(module)
        for imported in sorted(graph[module]):
            if imported in path:
                cycles.append([*path[path.index(imported) :], imported])
            elif imported not in done:
                walk(imported)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            walk(module)
    return cycles


FLOORS: dict[str, float] = {
    "scorekeeper": 0,  # the package root: a docstring and the version
    "scorekeeper.engine": 1,
    "scorekeeper.store": 2,
    "scorekeeper.pdf": 2,
    "scorekeeper.chart": 2,
    "scorekeeper.records": 3,
    "scorekeeper.exports": 3,
    "scorekeeper.tables": 3,
    "scorekeeper.ledger": 3.5,
    "scorekeeper.web": 4,
    "scorekeeper.serve": 4,
    "scorekeeper.serveloop": 4,  # the server's loop, beside serve (waitress only)
    "scorekeeper.cli": 5,
    "scorekeeper.__main__": 5,
    "scorekeeper.gunicorn_conf": 5,
}
"""LAYOUT.md's floors, by package or module. Floor 3 is split in two: the ledger stands
above what it reads across games (records, exports, the event's tables), which call no
use case. A module of ours that is not here has no floor, and fails the test (as
``tally.py`` would have: a records module above the ledger it called)."""
CROSSINGS = {("scorekeeper.pdf", "scorekeeper.records")}
"""Imports a floor up that LAYOUT.md names: the season's PDF takes the records' typed
values (``Record``, ``Figures``), which load only the engine and the chart."""


def _floor_of(module: str, floors: dict[str, float]) -> tuple[str, float] | None:
    """The package or module of ``floors`` that holds ``module``, with its floor (the
    package root holds only itself)."""
    parts = module.split(".")
    if module in floors:
        return module, floors[module]
    for end in range(len(parts) - 1, 1, -1):  # the root's floor is its own, not its modules'
        name = ".".join(parts[:end])
        if name in floors:
            return name, floors[name]
    return None


def _upward(package: Path, floors: dict[str, float], crossings: set[tuple[str, str]]) -> list[str]:
    """Every import in ``package`` (at module level or inside a function alike) that
    runs up a floor, and every module with no floor."""
    modules = _modules(package)
    found: list[str] = []
    for name, path in sorted(modules.items()):
        mine = _floor_of(name, floors)
        if mine is None:
            found.append(f"{name} has no floor")
            continue
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = here
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                target = (
                    (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
                )
                targets = [
                    f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target for a in node.names
                ]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            for target in targets:
                theirs = _floor_of(target, floors)
                if theirs is not None and theirs[1] > mine[1] and (mine[0], theirs[0]) not in crossings:
                    found.append(f"{name} imports {target} (floor {theirs[1]} over {mine[1]})")
    return found


def test_every_module_imports_only_downward() -> None:
    assert _floor_of("scorekeeper.ledger.players", FLOORS) == ("scorekeeper.ledger", 3.5)
    assert _upward(PACKAGE, FLOORS, CROSSINGS) == []


def test_the_floor_check_sees_an_upward_import_and_a_module_without_a_floor(tmp_path: Path) -> None:
    package = tmp_path / "house"
    (package / "ledger").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "ledger" / "__init__.py").write_text("from .. import records\n")
    (package / "records.py").write_text("def later():\n    from . import ledger\n")
    (package / "tally.py").write_text("from . import ledger\n")
    floors = {"house": 0, "house.records": 3, "house.ledger": 3.5}
    assert _upward(package, floors, set()) == [
        "house.records imports house.ledger (floor 3.5 over 3)",
        "house.tally has no floor",
    ]


def test_no_import_cycles() -> None:
    graph = _import_graph(PACKAGE)
    assert {"scorekeeper.web.forms.box", "scorekeeper.store.models"} <= set(graph)
    assert "scorekeeper.web.forms.splits" in graph["scorekeeper.web.forms.box"]
    assert _cycles(graph) == []


def test_the_cycle_check_sees_a_cycle(tmp_path: Path) -> None:
    package = tmp_path / "house"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "box.py").write_text("from .splits import proposal\n")
    (package / "splits.py").write_text("from . import box\n")
    assert _cycles(_import_graph(package)) == [["house.box", "house.splits", "house.box"]]


def test_the_architecture_names_every_web_module_and_blueprint() -> None:
    """docs/architecture.md's floor of the web layer names each module of
    ``scorekeeper/web/`` and each blueprint the app registers (a review found three
    blueprints and four modules missing from it)."""
    from scorekeeper.web import create_app

    floor = next(
        line
        for line in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| 4 |")
    )
    modules = {path for path in (PACKAGE / "web").glob("*.py")} - {PACKAGE / "web" / "__init__.py"}
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "d" * 40})
    assert (
        sorted(
            m.name
            for m in modules  # a blueprint's module by its blueprint's name
            if f"`{m.name}`" not in floor and f"`{m.stem}`" not in floor
        )
        == []
    )
    assert sorted(b for b in app.blueprints if f"`{b}`" not in floor) == []
