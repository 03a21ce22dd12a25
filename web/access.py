"""Who may drive the table from a phone.

At start the panel makes a short PIN and a long join token.  The OLED shows
both: a QR code of ``join_url`` (the token) and the PIN.  A phone that opens
the URL or types the PIN becomes a *controller*; every other phone is a
*spectator* that sees the table but cannot change it.

Controllers are remembered in Flask's signed session cookie (HttpOnly,
SameSite=Lax).  Every state-changing request also carries the session's
CSRF token in the ``X-CSRF-Token`` header.  PIN guesses are limited per
client address.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections import OrderedDict, deque
from typing import Callable

from flask import session

from companion.core.errors import CompanionError

PIN_DIGITS = 6
CONTROLLER = "controller"
SPECTATOR = "spectator"
# Addresses remembered by the PIN throttle; the oldest are forgotten first,
# so a flood of addresses cannot grow memory.
MAX_TRACKED_ADDRESSES = 1024


class PinThrottled(CompanionError, RuntimeError):
    """Too many wrong PINs from one address: it must wait ``wait`` seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many wrong PINs from this phone; try again in {wait} s")
        self.wait = wait


class Access:
    """The PIN, the join token and the PIN throttle."""

    def __init__(self, *, attempts: int = 5, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if attempts < 1 or window <= 0:
            raise ValueError("the PIN limit needs at least 1 attempt in a positive window")
        self.pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        self.token = secrets.token_urlsafe(18)
        self._attempts = attempts
        self._window = window
        self._clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def join_url(self, base_url: str) -> str:
        """The URL the QR code holds: opening it makes the phone a controller."""
        return f"{base_url.rstrip('/')}/?join={self.token}"

    def token_matches(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self.token.encode())

    def retry_after(self, address: str) -> int:
        """Seconds before ``address`` may try a PIN again; 0 when it may now."""
        with self._lock:
            return self._wait(address)

    def try_pin(self, address: str, pin: str) -> bool:
        """Check a PIN typed on a phone; a wrong one counts against its
        address.  Raises :class:`PinThrottled` for an address that must
        wait, without telling it whether its guess was right.

        The check and the count are one step under the lock, so that guesses
        fired all at once cannot slip past the limit together.
        """
        with self._lock:
            wait = self._wait(address)
            if wait:
                raise PinThrottled(wait)
            if hmac.compare_digest(pin.encode("utf-8", "replace"), self.pin.encode()):
                return True
            failures = self._recent(address)
            failures.append(self._clock())
            self._failures[address] = failures
            self._failures.move_to_end(address)
            while len(self._failures) > MAX_TRACKED_ADDRESSES:
                self._failures.popitem(last=False)
        return False

    def _wait(self, address: str) -> int:
        failures = self._recent(address)
        if len(failures) < self._attempts:
            return 0
        return max(1, math.ceil(failures[0] + self._window - self._clock()))

    def _recent(self, address: str) -> deque[float]:
        failures = self._failures.get(address, deque())
        cutoff = self._clock() - self._window
        while failures and failures[0] <= cutoff:
            failures.popleft()
        return failures


# -- the session of the phone making the current request ----------------------


def role() -> str:
    return CONTROLLER if session.get("role") == CONTROLLER else SPECTATOR


def make_controller() -> None:
    session.permanent = True
    session["role"] = CONTROLLER
    csrf_token()


def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    token = session.get("csrf")
    if not isinstance(token, str) or len(token) < 16:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def csrf_ok(sent: str | None) -> bool:
    token = session.get("csrf")
    if not sent or not isinstance(token, str):
        return False
    return hmac.compare_digest(sent.encode(), token.encode())
