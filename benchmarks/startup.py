"""Benchmark: what a process pays before its first answer (issue 31 point 7).

Each kind of start the suite and a club server pay, run ``--runs`` times in a fresh
interpreter, its CPU (user + system, the process and the children it waited for) as
the median:

- ``import web``: ``import scorekeeper.web.app`` (the package itself loads the app at
  its first use);
- ``create_app``: that and the app built on a fresh SQLite database;
- ``serve``: ``python -m scorekeeper serve`` until ``/health`` answers (its CPU read
  from ``/proc/PID/stat``, then it is stopped);
- ``printer``: the printing process (``web/printing.py``'s spawned pool) to its first
  answer, and to its first blank pad;
- ``cli rules`` / ``cli score`` / ``cli check``: the command line as a subprocess.

Beside each, the heavy packages the start loaded (flask, sqlalchemy, reportlab,
icalendar). CPU figures on a shared machine are inflated by the others: the load
average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from . import club

HEAVY = ("flask", "sqlalchemy", "reportlab", "icalendar", "alembic", "wtforms")
MODULES = "json.dumps(sorted({m.partition('.')[0] for m in sys.modules}))"
REPORT = f"import json, sys; print({MODULES}, file=sys.stderr)"
GAME = {
    "rules": "jersey-scarne",
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "boxes": [
        {
            "ending": "knock",
            "by": "Ann",
            "hands": {"Ann": {"count": 5}, "Bob": {"count": 40}, "Cal": {"count": 45}},
        },
        {
            "ending": "knock",
            "by": "Bob",
            "hands": {"Bob": {"count": 2}, "Cal": {"count": 34}, "Ann": {"count": 40}},
        },
    ],
}


def _cpu_of(command: list[str], env: dict[str, str], stdin: str = "") -> tuple[float, set[str]]:
    """CPU seconds of ``command`` run to its end (from this process's children's usage)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, input=stdin, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{command}: {done.returncode}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, _loaded(done.stderr)


def _loaded(err: str) -> set[str]:
    for line in reversed(err.splitlines()):
        if line.startswith("["):
            return set(json.loads(line)) & set(HEAVY)
    return set()


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", f"{code}\n{REPORT}"]


def _cli(*args: str) -> list[str]:
    code = (
        "import atexit, json, sys\n"
        f"atexit.register(lambda: print({MODULES}, file=sys.stderr))\n"
        "from scorekeeper.cli import main\n"
        f"sys.argv = ['scorekeeper', *{list(args)!r}]\n"
        "sys.exit(main())"
    )
    return [sys.executable, "-c", code]


def _serve(env: dict[str, str]) -> tuple[float, set[str]]:
    """``scorekeeper serve`` until /health answers: its CPU from /proc."""
    port = club.free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.02)
        return club.server_cpu([process]), set()  # what it loaded: see "create_app"
    finally:
        process.terminate()
        process.wait(timeout=30)


PRINTER = """
import json, os, sys, time
from scorekeeper.web import printing
printer = printing._printer(1)
first = printer.submit(os.getpid).result()
def cpu():
    fields = open(f"/proc/{first}/stat").read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
started = cpu()
loaded = printer.submit(eval, "sorted({m.partition('.')[0] for m in __import__('sys').modules})").result()
print(json.dumps(loaded), file=sys.stderr)
from scorekeeper.pdf import render_blank_pad
printer.submit(render_blank_pad, "jersey-scarne").result()
print(started, cpu())
"""


def _printer(env: dict[str, str]) -> tuple[float, float, set[str]]:
    """The printing process's CPU at its first answer and after its first blank pad, and
    what it had loaded at its first answer."""
    done = subprocess.run(
        [sys.executable, "-c", PRINTER], env=env, capture_output=True, text=True, check=True
    )
    started, pad = (float(word) for word in done.stdout.split())
    return started, pad, _loaded(done.stderr)


def say(text: str) -> None:
    print(text, flush=True)  # noqa: T201 - the benchmark's report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="kinds of start to measure")
    options = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="startup-"))
    game = folder / "game.json"
    game.write_text(json.dumps(GAME))
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{folder / 'db.sqlite'}",
        "SCOREKEEPER_SECRET_KEY": "startup-benchmark",
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
    }
    subprocess.run([sys.executable, "-m", "scorekeeper", "migrate"], env=env, check=True, capture_output=True)
    kinds: dict[str, Callable[[], tuple[float, set[str]]]] = {
        "import web": lambda: _cpu_of(_python("import scorekeeper.web.app"), env),
        "create_app": lambda: _cpu_of(_python("from scorekeeper.web import create_app; create_app()"), env),
        "serve": lambda: _serve(env),
        "cli rules": lambda: _cpu_of(_cli("rules", "gin"), env),
        "cli score": lambda: _cpu_of(_cli("score", str(game)), env),
        "cli check": lambda: _cpu_of(_cli("check"), env),
    }
    for name, measure in kinds.items():
        if options.only and name not in options.only:
            continue
        runs = [measure() for _ in range(options.runs)]
        cpu = statistics.median(cpu for cpu, _ in runs)
        loaded = sorted(set().union(*(found for _, found in runs)))
        say(f"{name:12} {cpu * 1000:7.0f} ms CPU  loads {', '.join(loaded) or '-'}")
    if not options.only or "printer" in options.only:
        printed = [_printer(env) for _ in range(options.runs)]
        started = statistics.median(first for first, _, _ in printed)
        pad = statistics.median(second for _, second, _ in printed)
        loaded = sorted(set().union(*(found for _, _, found in printed)))
        say(
            f"{'printer':12} {started * 1000:7.0f} ms CPU to its first answer,"
            f" {pad * 1000:.0f} ms to its first pad; loads {', '.join(loaded) or '-'} at its first answer"
        )
    say(f"load average {Path('/proc/loadavg').read_text().split()[0]}")


if __name__ == "__main__":
    main()
