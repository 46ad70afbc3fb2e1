"""Alembic migrations of the scorekeeper database (applied by ``store.migrate``)."""
