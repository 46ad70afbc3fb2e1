"""A non-editable install (``pip install .``) is a working app (issue 12): the wheel holds
every package, the templates and the static files, and a page renders from it outside
the checkout.

The wheel is built from a copy of the checkout without build isolation (no network: the
test extras pin setuptools), installed with ``--no-deps`` into a fresh virtual
environment that sees this environment's libraries through a ``.pth`` file, and run
from a directory that holds no checkout.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import scorekeeper

ROOT = Path(scorekeeper.__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "scorekeeper", "templates", "static")


def _pip(*args: str, cwd: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``pip wheel`` builds from a copy of the checkout's sources."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(
                path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
            )
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(path, source / name)
    _pip(
        "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(work / "dist"), str(source), cwd=work
    )
    (built,) = (work / "dist").glob("scorekeeper-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtual environment with the wheel installed: its python."""
    env = tmp_path_factory.mktemp("env") / "venv"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    _pip("--python", str(python), "install", "--no-deps", "--no-index", str(wheel), cwd=env)
    # This environment's libraries (Flask, SQLAlchemy, ...) after the env's own site:
    # a plain path, so the checkout's editable-install hook in there is not run.
    (site / "libraries.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    yield python


def test_the_wheel_holds_every_package_the_templates_and_static_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {
        str(init.parent.relative_to(ROOT))
        for init in (ROOT / "scorekeeper").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    missing = sorted(p for p in packages if f"{p}/__init__.py" not in names)
    assert missing == [], "add them to [tool.setuptools] packages in pyproject.toml"
    for folder in ("templates", "static"):
        files = {str(path.relative_to(ROOT)) for path in (ROOT / folder).rglob("*") if path.is_file()}
        assert files and sorted(f for f in files if f"scorekeeper/web/{f}" not in names) == []
    assert "scorekeeper/migrations/env.py" in names
    assert "scorekeeper/engine/RULES.md" in names


RENDER = """
import json, sys, tempfile
from pathlib import Path
import scorekeeper
from scorekeeper import store
from scorekeeper.web import create_app

folder = Path(tempfile.mkdtemp())
url = f"sqlite:///{folder / 'installed.sqlite3'}"
store.migrate(url)
app = create_app({"DATABASE_URL": url, "SECRET_KEY": "packaging-" + "p" * 40})
client = app.test_client()
home = client.get("/")
htmx = client.get("/static/htmx.min.js")
rules = client.get("/rules/")
print(json.dumps({
    "package": scorekeeper.__file__, "version": scorekeeper.__version__,
    "templates": app.template_folder, "static": app.static_folder,
    "home": [home.status_code, home.get_data(as_text=True)],
    "htmx": [htmx.status_code, len(htmx.get_data())],
    "rules": [rules.status_code, rules.get_data(as_text=True)],
}))
"""


def test_an_installed_app_renders_its_pages_and_static_files(installed: Path, tmp_path: Path) -> None:
    """Run from outside the checkout: the package, its templates and its static files
    are the installed ones, and the home page, a static file and the rules render."""
    done = subprocess.run(
        [str(installed), "-c", RENDER],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    env = installed.parent.parent
    for key in ("package", "templates", "static"):
        assert Path(seen[key]).resolve().is_relative_to(env.resolve()), (key, seen[key])
    assert seen["version"] == scorekeeper.__version__
    status, page = seen["home"]
    assert status == 200 and "<title>" in page and "/static/htmx.min.js" in page
    assert seen["htmx"] == [200, (ROOT / "static" / "htmx.min.js").stat().st_size]
    status, page = seen["rules"]
    assert status == 200 and "Jersey" in page
