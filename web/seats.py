"""Whose phone is whose: the seats the phones hold ("I am Ana").

A phone says whose it is through ``POST /api/seat``; the seat belongs to its
controller session: the panel keeps, for each player's name, the session
that holds it (known by a digest of the session's CSRF token, which the
session keeps for its life) and a claim token.  Nothing is written to the
cookie, so a request answered late cannot put back a cookie of before the
claim.  One seat, one phone: a newer claim takes the seat, and the older
phone holds none.  Every phone is told who holds which seat (the claim
tokens, by name, in the ``companion`` live event): the older phone sees its
token gone and says so.  A claim token is worth nothing without the session
that holds it.

Seats are found by name, so a seat holds for the next game with the same
players.  They live as long as the panel: after a restart a phone claims its
seat again (the page remembers it).  With the table's setting "turns only
from the player's own phone", the table refuses a phone's command for
another seat (:meth:`companion.core.table.Table.submit`'s ``seat``).
"""

from __future__ import annotations

import hashlib
import secrets
import threading

from .access import csrf_token


class Seats:
    """Who holds each seat: by the player's name (any case), the holder's
    key and claim token.  Safe to use from several threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # name.casefold() -> (name, holder's key, claim token)
        self._claims: dict[str, tuple[str, str, str]] = {}

    def take(self, holder: str, name: str | None) -> tuple[str | None, bool]:
        """``holder``'s seat is now ``name``'s (``None``: no one's): its claim
        token, and whether another holder had that seat (it now has none)."""
        with self._lock:
            for key, (_, who, _) in list(self._claims.items()):
                if who == holder and (name is None or key != name.casefold()):
                    del self._claims[key]
            if name is None:
                return None, False
            found = self._claims.get(name.casefold())
            if found is not None and found[1] == holder:
                return found[2], False
            token = secrets.token_urlsafe(9)
            self._claims[name.casefold()] = (name, holder, token)
            return token, found is not None

    def of(self, holder: str) -> tuple[str | None, str | None]:
        """The seat ``holder`` holds and its claim token, if any."""
        with self._lock:
            for name, who, token in self._claims.values():
                if who == holder:
                    return name, token
        return None, None

    def public(self) -> dict[str, str]:
        """Each held seat's claim token, by the player's name."""
        with self._lock:
            return {name: token for name, _, token in self._claims.values()}


# -- the phone making the current request ---------------------------------------------


def holder() -> str:
    """The current session's key among the seats' holders."""
    return hashlib.sha256(csrf_token().encode()).hexdigest()[:32]


def held(seats: Seats) -> tuple[str | None, str | None]:
    """This phone's seat and claim token, if it holds one."""
    return seats.of(holder())


def take(seats: Seats, name: str | None) -> bool:
    """This phone is ``name``'s (``None``: no one's); True when the seat was
    another phone's, which now holds none."""
    return seats.take(holder(), name)[1]
