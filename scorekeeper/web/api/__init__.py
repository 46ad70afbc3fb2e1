"""The JSON API of CONTRACT.md, documented at ``/api/v1/openapi.json``, by resource:
the blueprint, its errors, the helpers and the rules' own endpoints (:mod:`.base`),
stored games (:mod:`.games`), events (:mod:`.events`).

Bad input is 422 with CONTRACT.md's error object; stored games are read by id and
written with the edit token (``Authorization: Bearer``), ``If-Match: <version>``
refusing stale writes with 409 and ``Idempotency-Key`` making retries safe.
"""

from __future__ import annotations

from . import clubs, events, games
from .base import bp, error_response, refusal

__all__ = ["bp", "clubs", "error_response", "events", "games", "refusal"]
