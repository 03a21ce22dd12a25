"""Who may drive the table from a phone.

The panel has a short PIN and a long join token, kept with the generation
of controller sessions in an :class:`~companion.core.access.AccessStore` (a
file in the data directory, so the PIN survives a restart).  The OLED shows
both: a QR code of ``join_url`` (the token) and the PIN.  A phone that opens
the URL or types the PIN becomes a *controller*; every other phone is a
*spectator* that sees the table but cannot change it.

Controllers are remembered in Flask's signed session cookie (HttpOnly,
SameSite=Lax, with ``Max-Age``, so that a phone whose clock and the
companion's disagree keeps it), with the generation they joined in and
when, on the clock that never steps (see :mod:`companion.core.clock`): a
controller stays one for one game night (``session_hours``) whatever a
clock step does, and "Sign out every
phone" (from a phone, the table's menu or ``companion sign-out``) makes a
new PIN and token and a new generation, so that every controller is a
spectator until it joins again.  Every state-changing request also carries
the session's CSRF token in the ``X-CSRF-Token`` header.  Wrong PINs are
counted per client address in the store, so a restart does not lift a
lockout, and on the same clock, so a step does not make one last a day.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from typing import Callable

from flask import current_app, session

from companion.core.access import AccessStore, Keys
from companion.core.clock import Instant, steady_now, within
from companion.core.errors import CompanionError

CONTROLLER = "controller"
SPECTATOR = "spectator"
SESSION_HOURS = 12.0


class PinThrottled(CompanionError, RuntimeError):
    """Too many wrong PINs from one address: it must wait ``wait`` seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many wrong PINs from this phone; try again in {wait} s")
        self.wait = wait


class Access:
    """The PIN, the join token, the PIN throttle and how long a controller
    stays one.  ``store`` keeps them (an in-memory one when not given);
    ``now`` tells the time as an :class:`~companion.core.clock.Instant`
    (the boot and its clock that never steps, and the wall clock); a plain
    ``clock`` instead is taken as one that never steps (for tests)."""

    def __init__(self, *, store: AccessStore | None = None, attempts: int = 5,
                 window: float = 60.0, session_hours: float = SESSION_HOURS,
                 clock: Callable[[], float] | None = None,
                 now: Callable[[], Instant] | None = None) -> None:
        if attempts < 1 or window <= 0:
            raise ValueError("the PIN limit needs at least 1 attempt in a positive window")
        if session_hours <= 0:
            raise ValueError("a controller's session needs a positive number of hours")
        self.store = store or AccessStore()
        self.session_seconds = session_hours * 3600
        self._attempts = attempts
        self._window = window
        if now is None:
            now = steady_now if clock is None else (lambda: _one_boot(self._clock()))
        self._clock = clock or time.time
        self._now = now
        self._lock = threading.Lock()

    @property
    def keys(self) -> Keys:
        return self.store.keys()

    @property
    def pin(self) -> str:
        return self.keys.pin

    @property
    def token(self) -> str:
        return self.keys.token

    @property
    def generation(self) -> int:
        return self.keys.generation

    def now(self) -> Instant:
        return self._now()

    def sign_out(self) -> Keys:
        """Sign every phone out: a new PIN and join token, and every
        controller a spectator until it joins again."""
        return self.store.sign_out()

    def join_url(self, base_url: str) -> str:
        """The URL the QR code holds: opening it makes the phone a controller."""
        return f"{base_url.rstrip('/')}/?join={self.token}"

    def token_matches(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self.token.encode())

    def retry_after(self, address: str) -> int:
        """Seconds before ``address`` may try a PIN again; 0 when it may now."""
        return self._wait(address)

    def try_pin(self, address: str, pin: str) -> bool:
        """Check a PIN typed on a phone; a wrong one counts against its
        address.  Raises :class:`PinThrottled` for an address that must
        wait, without telling it whether its guess was right.

        The check and the count are one step under the lock, so
        that guesses fired all at once cannot slip past the limit together.
        """
        with self._lock:
            wait = self._wait(address)
            if wait:
                raise PinThrottled(wait)
            if hmac.compare_digest(pin.encode("utf-8", "replace"), self.pin.encode()):
                return True
            now = self.now()
            self.store.add_failure(address, now,
                                   keep=lambda then: within(then, now, self._window))
        return False

    def _wait(self, address: str) -> int:
        now = self.now()
        failures = [then for then in self.store.failures(address)
                    if within(then, now, self._window)]
        if len(failures) < self._attempts:
            return 0
        oldest = failures[-self._attempts]
        if oldest.boot == now.boot:
            left = oldest.steady + self._window - now.steady
        else:  # counted before a reboot: the wall clock, never beyond the window
            left = oldest.wall + self._window - now.wall
        return max(1, math.ceil(min(left, self._window)))


_TEST_BOOT = "one-boot"


def _one_boot(clock: float) -> Instant:
    """A plain clock taken as one that never steps, within one boot."""
    return Instant(_TEST_BOOT, clock, clock)


# -- the session of the phone making the current request ----------------------


def _guard() -> Access:
    found: Access = current_app.extensions["companion"].access
    return found


def role() -> str:
    """A controller joined in the current generation, less than the
    session's hours ago; anyone else is a spectator."""
    if session.get("role") != CONTROLLER:
        return SPECTATOR
    guard = _guard()
    joined = _joined(session.get("joined"))
    if session.get("generation") != guard.generation or joined is None:
        return SPECTATOR
    return CONTROLLER if within(joined, guard.now(), guard.session_seconds) else SPECTATOR


def _joined(kept: object) -> Instant | None:
    """When the phone joined, as its cookie keeps it; a cookie of an earlier
    version kept only the wall clock's time (read as another boot's)."""
    if isinstance(kept, (int, float)) and not isinstance(kept, bool):
        return Instant("", float(kept), float(kept))
    return Instant.from_json(kept)


def make_controller() -> None:
    guard = _guard()
    session.permanent = True
    session["role"] = CONTROLLER
    session["generation"] = guard.generation
    session["joined"] = guard.now().to_json()
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
