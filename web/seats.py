"""Whose phone is whose: the seats the phones hold ("I am Ana").

A phone says whose it is through ``POST /api/seat``; the seat is kept in
its controller session (the player's name and a claim token, in the signed
cookie), and the panel keeps, for each name, the token of the phone that
claimed it last.  One seat, one phone: a newer claim takes the seat, and the
older phone, whose token no longer matches, holds no seat.  Every phone is
told who holds which seat (the claim tokens, by name, in the ``companion``
live event): the older phone sees its token gone and says so.  A token is
worth nothing without the signed cookie that carries it.

Seats are found by name, so a seat holds for the next game with the same
players.  They live as long as the panel: after a restart a phone claims its
seat again (the page remembers it).  With the table's setting "turns only
from the player's own phone", the table refuses a phone's command for
another seat (:meth:`companion.core.table.Table.submit`'s ``seat``).
"""

from __future__ import annotations

import secrets
import threading

from flask import session

SEAT = "seat"
CLAIM = "claim"


class Seats:
    """The claim token of the phone holding each seat, by the player's name
    (any case).  Safe to use from several threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._claims: dict[str, tuple[str, str]] = {}

    def claim(self, name: str) -> tuple[str, bool]:
        """Give ``name``'s seat to a new claim: its token, and whether
        another phone held it."""
        token = secrets.token_urlsafe(9)
        with self._lock:
            taken = name.casefold() in self._claims
            self._claims[name.casefold()] = (name, token)
        return token, taken

    def release(self, name: str, token: str) -> None:
        """The phone holding ``name``'s seat with ``token`` gives it up."""
        with self._lock:
            if self._claims.get(name.casefold(), ("", ""))[1] == token:
                del self._claims[name.casefold()]

    def holds(self, name: str, token: str) -> bool:
        with self._lock:
            found = self._claims.get(name.casefold())
        return found is not None and secrets.compare_digest(found[1], token)

    def public(self) -> dict[str, str]:
        """Each held seat's claim token, by the player's name."""
        with self._lock:
            return dict(self._claims.values())


# -- the seat of the phone making the current request ---------------------------------


def held(seats: Seats) -> tuple[str | None, str | None]:
    """This phone's seat and claim token, if it still holds it."""
    name, token = session.get(SEAT), session.get(CLAIM)
    if isinstance(name, str) and isinstance(token, str) and seats.holds(name, token):
        return name, token
    return None, None


def take(seats: Seats, name: str | None) -> bool:
    """This phone is ``name``'s (``None``: no one's); True when the seat was
    another phone's, which now holds none."""
    mine, token = held(seats)
    if mine is not None and token is not None and (name is None or
                                                   mine.casefold() != name.casefold()):
        seats.release(mine, token)
    if name is None:
        session.pop(SEAT, None)
        session.pop(CLAIM, None)
        return False
    if mine is not None and mine.casefold() == name.casefold():
        session[SEAT] = name
        return False
    token, taken = seats.claim(name)
    session[SEAT] = name
    session[CLAIM] = token
    return taken
