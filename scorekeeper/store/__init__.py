"""The database: the only package that talks to it, given a URL (no Flask here).

``models`` holds the tables and the plain records reads hand out; ``db`` connects and
migrates; ``reads`` and ``writes`` are the two directions (``locks`` keeps writers of
one game apart); ``backup`` exports, imports, backs up, restores and checks. The public
names are all here, so ``from scorekeeper import store; store.migrate(url)`` reads as
before.
"""

from __future__ import annotations

from .backup import (
    BACKUP_FORMAT,
    BACKUP_TABLES,
    BACKUP_VERSION,
    backup,
    export_game,
    import_game,
    restore,
    verify,
    verify_game,
)
from .db import MIGRATIONS, SQLITE_BUSY_MS, connect, migrate, opened
from .locks import WriterLock, writing
from .models import (
    GAME_FIELDS,
    MAX_ROW_ID,
    Base,
    Box,
    BoxRevision,
    BoxRow,
    Game,
    GameRow,
    WriteKey,
)
from .reads import (
    Stamp,
    all_game_ids,
    box_input,
    check_edit_token,
    game_input,
    game_stamp,
    game_version,
    get_box,
    get_game,
    history,
    live_boxes,
    load_game,
    recent_games,
)
from .writes import (
    BoxNotFound,
    GameNotFound,
    StaleWrite,
    StoreError,
    WriteResult,
    append_box,
    clean_entry,
    create_game,
    delete_box,
    repeated,
    replace_box,
    summarize,
)

__all__ = [
    "BACKUP_FORMAT",
    "BACKUP_TABLES",
    "BACKUP_VERSION",
    "GAME_FIELDS",
    "MAX_ROW_ID",
    "MIGRATIONS",
    "SQLITE_BUSY_MS",
    "Base",
    "Box",
    "BoxNotFound",
    "BoxRevision",
    "BoxRow",
    "Game",
    "GameNotFound",
    "GameRow",
    "StaleWrite",
    "Stamp",
    "StoreError",
    "WriteKey",
    "WriteResult",
    "WriterLock",
    "all_game_ids",
    "append_box",
    "backup",
    "box_input",
    "check_edit_token",
    "clean_entry",
    "connect",
    "create_game",
    "delete_box",
    "export_game",
    "game_input",
    "game_stamp",
    "game_version",
    "get_box",
    "get_game",
    "history",
    "import_game",
    "live_boxes",
    "load_game",
    "migrate",
    "opened",
    "recent_games",
    "repeated",
    "replace_box",
    "restore",
    "summarize",
    "verify",
    "verify_game",
    "writing",
]
