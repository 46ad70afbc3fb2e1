"""Who may keep score: a game's edit code and its short join code (LAYOUT.md floor 3).

Codes are made from the server's secret and the game's round of codes, so every server
that shares the secret shows the same ones while the database keeps only their hashes
(:func:`make_codes`); renewing them starts a new round. A phone that types a code is
given the game and the edit code it then keeps (:func:`joined`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from sqlalchemy.orm import Session

from .. import store
from .table import LedgerError, NotFound

JOIN_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The short join code's characters: no 0/O, 1/I/L, nor U beside V (30 characters:
a code of 6 is one of 729 million)."""
JOIN_LENGTH = 6


class CodesUnknown(LedgerError):
    """The game's codes cannot be shown: they were made before codes had rounds (at
    random), or with another server secret. Renewing them makes new ones."""


def make_codes(secret: bytes, game_id: str, round: int) -> store.Codes:
    """The game's codes of this round, made from the server's secret: the same on every
    server that shares it, so any phone with edit rights can be shown them while the
    database keeps only their hashes; a new round gives unrelated codes.

    >>> codes = make_codes(b"k" * 32, "game", 1)
    >>> len(codes.edit), len(codes.join), codes == make_codes(b"k" * 32, "game", 1)
    (32, 6, True)
    >>> make_codes(b"k" * 32, "game", 2).join != codes.join
    True
    """
    edit = hmac.new(secret, f"edit:{game_id}:{round}".encode(), hashlib.sha256).digest()
    join = hmac.new(secret, f"join:{game_id}:{round}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(join[:8], "big")
    letters = []
    for _ in range(JOIN_LENGTH):
        number, digit = divmod(number, len(JOIN_ALPHABET))
        letters.append(JOIN_ALPHABET[digit])
    return store.Codes(
        edit=base64.urlsafe_b64encode(edit[:24]).decode("ascii"), join="".join(letters), round=round
    )


def as_join_code(text: str) -> str | None:
    """What a phone typed, as a short join code if it can be one: case, spaces and
    dashes do not matter.

    >>> as_join_code(" k7m-2qx "), as_join_code("K7M2Q0"), as_join_code("abc")
    ('K7M2QX', None, None)
    """
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != JOIN_LENGTH or any(c not in JOIN_ALPHABET for c in code):
        return None
    return code


def codes_of(row: store.GameRow, secret: bytes) -> store.Codes:
    """The game's current codes, for a phone with edit rights to show and share."""
    if row.codes_round is None:
        raise CodesUnknown("this game's codes were made at random: renew them to get a short join code")
    codes = make_codes(secret, row.id, row.codes_round)
    if not store.check_edit_token(row, codes.edit):
        raise CodesUnknown(
            "this game's codes were made with another server key: renew them to see the new ones"
        )
    return codes


def renew_codes(db: Session, game_id: str, secret: bytes) -> store.Codes:
    """New codes for the game; the old edit link and short code stop working at once.
    When another phone renewed them at the same moment, its codes stand (both phones
    are shown the same ones)."""
    row = store.get_game(db, game_id)
    if row is None:
        raise NotFound(f"there is no game {game_id!r}")
    codes = free_codes(db, secret, row.id, (row.codes_round or 0) + 1)
    if store.renew_codes(db, row.id, row.codes_round, codes):
        return codes
    now = store.get_game(db, game_id)
    assert now is not None
    return codes_of(now, secret)


def joined(
    db: Session, code: str, secret: bytes, game_id: str | None = None
) -> tuple[store.GameRow, str] | None:
    """The game a typed code unlocks (its edit code from a link, or its short join code
    in any case), with the edit code a phone then keeps; None for a wrong code. Without
    ``game_id`` (the home page's form) only a short code can name the game."""
    short = as_join_code(code)
    if short is not None:
        for row in store.games_with_join_code(db, short):
            if game_id is None or row.id == game_id:
                try:
                    return row, codes_of(row, secret).edit
                except CodesUnknown:
                    return None
        return None
    found = store.get_game(db, game_id) if game_id is not None else None
    code = code.strip().rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    if found is None or not store.check_edit_token(found, code):
        return None
    return found, code


def free_codes(db: Session, secret: bytes, game_id: str, round: int) -> store.Codes:
    """The codes of the first round from ``round`` whose short code no other game
    uses: a short code names one game (one indexed existence check a round tried)."""
    while True:
        codes = make_codes(secret, game_id, round)
        if not store.join_code_taken(db, codes.join, game_id):
            return codes
        round += 1


__all__ = [
    "JOIN_ALPHABET",
    "JOIN_LENGTH",
    "CodesUnknown",
    "as_join_code",
    "codes_of",
    "free_codes",
    "joined",
    "make_codes",
    "renew_codes",
]
