"""The start of a printing process (:mod:`scorekeeper.web.printing` spawns them): what
runs in it before its first render, standard library only.

The pool's initializer is named by its module, and a spawned process imports that
module to run it. Kept in :mod:`scorekeeper.web.printing` it made every printing
process import the whole web app (Flask, SQLAlchemy, the ledger, every blueprint:
about 2 s of CPU) to render a PDF that needs none of it; from here the process loads
only what the render it is sent names (this package and the engine).
"""

from __future__ import annotations

import os
import threading
import time


def lower_priority() -> None:
    """In a printing process: yield the CPU to the server's requests (Unix ``nice``),
    and end with the server, even one killed with SIGKILL (no exit handler runs then,
    and an orphaned printer would wait for work for ever)."""
    if hasattr(os, "nice"):
        os.nice(10)
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()


def _end_with(server: int) -> None:
    """Exit once the process that started this one is gone (it is then not the parent)."""
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)
