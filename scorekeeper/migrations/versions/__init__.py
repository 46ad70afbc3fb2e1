"""Alembic's revisions, one a file, in order; each says at its top what it changes in the
stored data and why (``scorekeeper migrate`` runs them)."""
