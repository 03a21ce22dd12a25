"""The dice device on a serial port (and a simulated one).

The device reports each roll as one ASCII line (docs/build.md)::

    ROLL <sides> <value> [<value> ...]

ending with ``\\n`` or ``\\r\\n``; words are separated by spaces and case does
not matter.  :func:`parse_line` reads one line; a :class:`SerialDiceReader`
thread reads the port, passes each good roll on, counts the lines it ignores
and sums them up in the log at most once a minute (a device at the wrong baud
rate must not fill the SD card), and rides out the device being unplugged and
plugged back.  The port ``"auto"`` is the one dice device found under
``/dev/serial/by-id/`` (names there survive replugging, ``ttyUSB0`` does not).
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
import tty
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import serial

from companion.core.backoff import BACKOFF, Backoff
from companion.core.errors import CompanionError

log = logging.getLogger(__name__)

AUTO = "auto"
DEFAULT_PORT = AUTO
BY_ID = Path("/dev/serial/by-id")
# Ignored lines are summed up in the log at most this often (seconds).
SUMMARY_INTERVAL = 60.0
DEFAULT_BAUDRATE = 9600
MAX_LINE = 128  # bytes; a real roll line is a dozen

RollListener = Callable[[int, list[int]], None]


@dataclass(frozen=True)
class Roll:
    """One roll reported by the device: ``values`` of dice with ``sides`` faces."""

    sides: int
    values: tuple[int, ...]


class BadDiceLine(CompanionError, ValueError):
    """A line from the dice device that is not a valid roll.

    ``reason`` says which way, for counting: ``not-a-roll``, ``malformed``,
    ``out-of-range`` or ``too-long``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


_FORM = "a roll reads 'ROLL <sides> <value> [<value> ...]'"


class PortNotFound(CompanionError, OSError):
    """``"auto"`` found no single dice device under ``/dev/serial/by-id/``."""


def find_dice_port(by_id: Path = BY_ID) -> str:
    """The one serial device under ``by_id`` (its stable name); raises
    :class:`PortNotFound` saying what is there when there is none or several."""
    try:
        names = sorted(entry.name for entry in by_id.iterdir())
    except OSError:
        names = []
    if len(names) == 1:
        return str(by_id / names[0])
    if not names:
        raise PortNotFound(errno.ENOENT, f"no dice device under {by_id}/ (not plugged in)")
    raise PortNotFound(errno.EEXIST, f"{len(names)} serial devices under {by_id}/ "
                       f"({', '.join(names)}): set [serial] port to the dice device's")


def resolve_port(port: str, by_id: Path = BY_ID) -> str:
    """``port`` itself, or for ``"auto"`` the one device under ``by_id``."""
    return find_dice_port(by_id) if port == AUTO else port


class IgnoredLines:
    """Counts the lines a reader ignores and sums them up in the log: the
    first at once, then at most one summary per ``interval`` seconds (on the
    next ignored line after it, or when :meth:`flush` is called)."""

    def __init__(self, port: str, interval: float = SUMMARY_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.interval = interval
        self.total: Counter[str] = Counter()
        self._clock = clock
        self._unreported: Counter[str] = Counter()
        self._last_example = ""
        self._logged_at: float | None = None

    def add(self, bad: BadDiceLine) -> None:
        self.total[bad.reason] += 1
        self._unreported[bad.reason] += 1
        self._last_example = str(bad)
        now = self._clock()
        if self._logged_at is None or now - self._logged_at >= self.interval:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        if not self._unreported:
            return
        count = sum(self._unreported.values())
        reasons = ", ".join(f"{n} {reason}" for reason, n in sorted(self._unreported.items()))
        if count == 1:
            log.warning("dice device %s: line ignored (%s): %s", self.port, reasons,
                        self._last_example)
        else:
            log.warning("dice device %s: %d lines ignored (%s), the last: %s (a wrong "
                        "baud rate garbles every line)", self.port, count, reasons,
                        self._last_example)
        self._unreported.clear()
        self._logged_at = self._clock() if now is None else now


def parse_line(line: bytes | str) -> Roll | None:
    """Read one line of the protocol (with or without its line ending).

    Returns the :class:`Roll`, or ``None`` for a blank line; raises
    :class:`BadDiceLine` for anything else.
    """
    if isinstance(line, (bytes, bytearray)):
        if len(line) > MAX_LINE:
            raise BadDiceLine("too-long", f"a line of {len(line)} bytes; {_FORM}")
        try:
            text = bytes(line).decode("ascii")
        except UnicodeDecodeError:
            raise BadDiceLine("malformed", f"{bytes(line)!r} is not ASCII; {_FORM}") from None
    else:
        text = line
    words = text.split()
    if not words:
        return None
    shown = " ".join(words)
    if words[0].upper() != "ROLL":
        raise BadDiceLine("not-a-roll", f"{shown!r} is not a roll; {_FORM}")
    if len(words) < 3:
        raise BadDiceLine("malformed", f"{shown!r} lacks the sides or the values; {_FORM}")
    for word in words[1:]:
        if not (word.isascii() and word.isdigit()):
            raise BadDiceLine("malformed", f"{word!r} in {shown!r} is not a whole number; {_FORM}")
    sides, *values = (int(word) for word in words[1:])
    if sides < 2:
        raise BadDiceLine("malformed", f"a die has 2 sides or more, not {sides}, in {shown!r}")
    for value in values:
        if not 1 <= value <= sides:
            raise BadDiceLine(
                "out-of-range",
                f"{value} is not a face of a {sides}-sided die (1 to {sides}) in {shown!r}",
            )
    return Roll(sides, tuple(values))


class LineSplitter:
    """Cuts the bytes from the port into lines (without their ``\n``).

    A line that runs past ``MAX_LINE`` bytes is handed out at once, too long
    for :func:`parse_line` to take, and the rest of it up to its end is
    dropped: a device that never ends its lines cannot fill the memory.
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self._skipping = False  # inside a line already handed out as too long

    def feed(self, chunk: bytes) -> list[bytes]:
        self._pending += chunk
        lines = []
        while (end := self._pending.find(b"\n")) >= 0:
            line = bytes(self._pending[:end])
            del self._pending[:end + 1]
            if self._skipping:
                self._skipping = False
            else:
                lines.append(line)
        if len(self._pending) > MAX_LINE:
            if not self._skipping:
                lines.append(bytes(self._pending))
            self._pending.clear()
            self._skipping = True
        return lines


class SerialDiceReader:
    """Reads the dice device on its own thread and calls ``on_roll(sides, values)``.

    ``opener`` opens the port the way :func:`serial.serial_for_url` does
    (tests pass ``loop://`` or a pseudo-terminal's path).  The thread sleeps in
    its read until a byte comes, the device goes away or :meth:`stop` wakes
    it: ``read_timeout`` is ``None``, so an idle table costs no wake-ups.
    Lines that are not valid rolls are ignored, counted in :attr:`ignored` by
    reason and summed up in the log at most once a minute (``clock`` times
    that).  ``port`` ``"auto"`` is the one device under ``by_id``, looked
    for at each attempt to open it.
    When the port cannot be opened or fails, the reader retries after the
    waits of ``backoff`` (doubling, the companion's :data:`BACKOFF`), and
    :attr:`status` says what it waits for, for the screen and the panel.
    """

    def __init__(
        self,
        on_roll: RollListener,
        *,
        port: str = DEFAULT_PORT,
        baudrate: int = DEFAULT_BAUDRATE,
        opener: Callable[..., serial.Serial] = serial.serial_for_url,
        read_timeout: float | None = None,
        backoff: Backoff = BACKOFF,
        by_id: Path = BY_ID,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.port = port
        self.by_id = by_id
        self.baudrate = baudrate
        self.read_timeout = read_timeout
        self.backoff = backoff
        self.status = f"waiting for {port}: not started"
        # Written by the reader thread only.
        self._ignored = IgnoredLines(port, clock=clock)
        self._on_roll = on_roll
        self._opener = opener
        # Failures in a row of the port (the reader thread's).
        self._failures = 0
        self._stopping = threading.Event()
        self._link: serial.Serial | None = None
        self._thread: threading.Thread | None = None

    @property
    def ignored(self) -> Counter[str]:
        """Lines ignored since the start, by reason."""
        return self._ignored.total

    @property
    def retry_delay(self) -> float:
        """Seconds the reader waits after the next failure before it retries."""
        return self.backoff.delay(self._failures + 1)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> SerialDiceReader:
        if self._thread is not None:
            raise RuntimeError(f"the reader of {self.port} is already started")
        self.status = f"waiting for {self.port}: opening"
        self._thread = threading.Thread(target=self._run, name=f"dice {self.port}",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop reading and wait for the thread to end."""
        self._stopping.set()
        link = self._link
        if link is not None:
            try:
                link.cancel_read()  # wakes a blocked read at once
            except (OSError, AttributeError):
                pass  # closed meanwhile: the read ends with the port
        if self._thread is not None:
            self._thread.join(timeout)
        self._ignored.flush()
        self.status = "stopped"

    def __enter__(self) -> SerialDiceReader:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- the thread -----------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                port = resolve_port(self.port, self.by_id)
                self._ignored.port = port
                link = self._opener(port, baudrate=self.baudrate, bytesize=8,
                                    parity="N", stopbits=1, timeout=self.read_timeout)
            except (OSError, ValueError) as failure:  # SerialException is an OSError
                self._wait_for_port(_plain_reason(failure))
                continue
            self._link = link
            self._set_status("connected")
            lost = None
            try:
                self._read_lines(link)
            except OSError as failure:
                lost = f"connection lost ({failure})"
            except Exception as failure:
                log.exception("the dice reader of %s failed", self.port)
                lost = f"reader failed ({failure})"
            finally:
                self._link = None
                _close_quietly(link)
            if lost is not None:
                self._wait_for_port(lost)

    def _wait_for_port(self, reason: str) -> None:
        where = f"a dice device under {self.by_id}/" if self.port == AUTO else self.port
        self._set_status(f"waiting for {where}: {reason}")
        self._stopping.wait(self.retry_delay)
        self._failures += 1

    def _set_status(self, status: str) -> None:
        # Logged on change only: an unplugged device retries all day long.
        if status != self.status:
            log.log(logging.INFO if status == "connected" else logging.WARNING,
                    "dice device: %s", status)
        self.status = status

    def _read_lines(self, link: serial.Serial) -> None:
        lines = LineSplitter()
        while not self._stopping.is_set():
            chunk = link.read(1)  # blocks until a byte comes, or stop() cancels it
            if not chunk:
                continue
            self._failures = 0  # the port works again
            waiting = link.in_waiting
            if waiting:
                chunk += link.read(waiting)
            for line in lines.feed(chunk):
                self._take(line)

    def _take(self, line: bytes) -> None:
        try:
            roll = parse_line(line)
        except BadDiceLine as bad:
            self._ignore(bad)
            return
        if roll is None:
            return
        try:
            self._on_roll(roll.sides, list(roll.values))
        except Exception:
            log.exception("the dice roll listener failed on %s", roll)

    def _ignore(self, bad: BadDiceLine) -> None:
        self._ignored.add(bad)


def _close_quietly(link: serial.Serial) -> None:
    try:
        link.close()
    except OSError:
        pass  # the device is gone already


_PLAIN_REASONS = {
    errno.ENOENT: "not plugged in",
    errno.ENODEV: "not plugged in",
    errno.EACCES: "no permission to open it (is the user in the dialout group?)",
    # What a device the service's DeviceAllow= leaves out gives.
    errno.EPERM: "not permitted to open it (is it a serial port the service may use?)",
    errno.EBUSY: "in use by another program",
    errno.EIO: "unplugged",
}


def _plain_reason(failure: BaseException) -> str:
    if isinstance(failure, PortNotFound):
        return str(failure.strerror)
    code = getattr(failure, "errno", None)
    return _PLAIN_REASONS.get(code, str(failure)) if isinstance(code, int) else str(failure)


class SimulatedDiceDevice:
    """A dice device for the simulation: a pseudo-terminal pair.

    A reader opens :attr:`port` exactly as it would ``/dev/ttyUSB0``;
    :meth:`roll` writes what the real device would send.  Closing it is
    pulling the plug.
    """

    def __init__(self) -> None:
        self._device, self._terminal = os.openpty()
        # Raw, so that nothing is echoed or translated before a reader
        # configures the port.
        tty.setraw(self._terminal)
        # A device nobody reads must not block the simulation once the
        # terminal's buffer is full.
        os.set_blocking(self._device, False)
        self.port = os.ttyname(self._terminal)
        self.closed = False

    def roll(self, sides: int, values: list[int] | tuple[int, ...]) -> None:
        self.write(f"ROLL {sides} {' '.join(str(v) for v in values)}\r\n".encode("ascii"))

    def write(self, data: bytes) -> None:
        """Send raw bytes, as a device with a fault might."""
        try:
            os.write(self._device, data)
        except BlockingIOError:
            log.warning("simulated dice device: nobody reads %s; %r dropped", self.port, data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self._device)
            os.close(self._terminal)

    def __enter__(self) -> SimulatedDiceDevice:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
