"""The commands of the stored data (DATABASE_URL): serve the web app, migrate, back up,
restore, import and export a game, an event's results, and check every stored game.
Flask and the database are loaded inside each command, so the rules' commands start
without them."""

from __future__ import annotations

import argparse
import sys

from .streams import OK, InputError, emit, load, warn_odd


def _serve(args: argparse.Namespace) -> int:
    if args.workers is not None:
        raise InputError(
            "usage",
            "scorekeeper serve runs one process (waitress, with threads); "
            "for several, run gunicorn 'scorekeeper.web:create_app()' "
            "(docs/deploy.md)",
            "workers",
        )
    from scorekeeper.serve import NotMigrated, serve  # Flask and the database only here
    from scorekeeper.store import NetworkStorage

    try:
        serve(args.host, args.port)
    except NotMigrated as err:
        raise InputError("not-migrated", str(err)) from None
    except NetworkStorage as err:
        raise InputError("network-storage", str(err), "DATABASE_URL") from None
    return OK


def _migrate(args: argparse.Namespace) -> int:
    from scorekeeper.store import migrate

    migrate(_database_url())
    emit({"migrated": True})
    return OK


def _database_url() -> str:
    """The database the app uses here, found as the app finds it (the environment,
    instance/config.py, else the instance's SQLite file), without building the app;
    a SQLite file on a network file system is refused."""
    from scorekeeper.store import NetworkStorage, refuse_network_storage
    from scorekeeper.web.config import database_url  # Flask's Config, not the app

    url = database_url()
    try:
        refuse_network_storage(url)
    except NetworkStorage as err:
        raise InputError("network-storage", str(err), "DATABASE_URL") from None
    return url


def _backup(args: argparse.Namespace) -> int:
    from scorekeeper import store

    try:
        written = store.backup(args.output, _database_url())
    except OSError as err:
        raise InputError(
            "unwritable-file", f"cannot write {args.output}: {err.strerror or err}", args.output
        ) from None
    warn_odd(written.odd)
    emit({"backup": args.output, "rows": written.rows, **({"odd_text": written.odd} if written.odd else {})})
    return OK


def _import(args: argparse.Namespace) -> int:
    from scorekeeper import ledger, store

    with store.opened(_database_url()) as db:
        row, token = ledger.import_game(db, load(args.file))
        emit({"id": row.id, "edit_token": token, "version": row.version})
    return OK


def _restore(args: argparse.Namespace) -> int:
    from scorekeeper import store

    try:
        rows = store.restore(args.file, _database_url())
    except OSError as err:
        raise InputError(
            "unreadable-file", f"cannot read {args.file}: {err.strerror or err}", args.file
        ) from None
    except (store.StoreError, ValueError) as err:
        raise InputError("malformed", str(err), args.file) from None
    emit({"restored": args.file, "rows": rows})
    return OK


def _export(args: argparse.Namespace) -> int:
    from scorekeeper import store

    with store.opened(_database_url()) as db:
        try:
            emit(store.export_game(db, args.game))
        except store.GameNotFound:
            raise InputError("not-found", f"there is no game {args.game!r}", "game") from None
        warn_odd(store.odd_text(db, args.game))
    return OK


def _event_results(args: argparse.Namespace) -> int:
    """An event's standings and every table's result: JSON, or CSV with ``--csv``."""
    from scorekeeper import exports, store
    from scorekeeper.ledger import events

    with store.opened(_database_url()) as db:
        event = events.load_event(db, args.event)
        if event is None:
            raise InputError("not-found", f"there is no event {args.event!r}", "event")
        board = events.board(db, event)
    if args.csv:
        sys.stdout.write(exports.event_csv(event.entry, board.standings, board.results))
    else:
        emit(exports.event_json(event.id, event.entry, board.standings, board.results))
    return OK


def _check(args: argparse.Namespace) -> int:
    """Rescore every stored game and compare with what is stored; status 1 on problems."""
    from scorekeeper import store

    with store.opened(_database_url()) as db:
        problems = store.verify(db)
    emit({"ok": not problems, "problems": problems})
    return OK if not problems else 1
