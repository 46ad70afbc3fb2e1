"""Alembic environment, run programmatically by :func:`scorekeeper.store.migrate`."""

from __future__ import annotations

from alembic import context

from scorekeeper import store

config = context.config
url = config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url")
if not url:
    raise RuntimeError("no database URL: call scorekeeper.store.migrate(url)")

engine = store.connect(str(url))
with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=store.Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
