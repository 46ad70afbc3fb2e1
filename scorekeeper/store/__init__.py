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
    restore,
    verify,
    verify_game,
)
from .db import MIGRATIONS, SQLITE_BUSY_MS, connect, migrate, opened
from .locks import writing
from .models import (
    GAME_FIELDS,
    MAX_ROW_ID,
    Base,
    Box,
    BoxRevision,
    BoxRow,
    Game,
    GameRow,
    Key,
    NewGame,
    Rulings,
    StoredBox,
    WriteKey,
    summarize,
)
from .reads import (
    Stamp,
    all_game_ids,
    check_edit_token,
    game_entry,
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
    KeyTaken,
    StaleWrite,
    StoreError,
    WriteResult,
    append_box,
    create_game,
    delete_box,
    repeated,
    replace_box,
    started_with,
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
    "Key",
    "KeyTaken",
    "NewGame",
    "Rulings",
    "StaleWrite",
    "Stamp",
    "StoreError",
    "StoredBox",
    "WriteKey",
    "WriteResult",
    "all_game_ids",
    "append_box",
    "backup",
    "check_edit_token",
    "connect",
    "create_game",
    "delete_box",
    "export_game",
    "game_entry",
    "game_stamp",
    "game_version",
    "get_box",
    "get_game",
    "history",
    "live_boxes",
    "load_game",
    "migrate",
    "opened",
    "recent_games",
    "repeated",
    "replace_box",
    "restore",
    "started_with",
    "summarize",
    "verify",
    "verify_game",
    "writing",
]
