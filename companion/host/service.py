"""What a long-running service needs from its host, standard library only.

- systemd's notification protocol: ``READY=1``, ``WATCHDOG=1`` and
  ``STOPPING=1`` as datagrams to ``$NOTIFY_SOCKET``, and the watchdog's
  interval from ``$WATCHDOG_USEC``;
- a stop event that a signal handler may set without deadlocking;
- logging that gives each line its priority and leaves the time to journald
  when the output is the journal's stream, and a time and level otherwise;
- a working directory of its own for lgpio, the GPIO's library on a Pi.
"""

from __future__ import annotations

import io
import logging
import os
import select
import socket
import sys
from pathlib import Path
from typing import ClassVar, Mapping, MutableMapping, TextIO

log = logging.getLogger(__name__)


# -- systemd's notification protocol ---------------------------------------------


def sd_notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` ("READY=1", "WATCHDOG=1"...) to systemd: one datagram
    to ``$NOTIFY_SOCKET`` (``@`` starts an abstract socket name).  Returns
    False when not run by systemd; never raises."""
    address = (os.environ if environ is None else environ).get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("cannot notify systemd (%s): %s", message.split("=")[0], exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds systemd's watchdog allows between two WATCHDOG=1, or None."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds if seconds > 0 else None


class StopEvent:
    """A stop event that a signal handler may set.

    ``threading.Event.set()`` takes a lock that the main thread may be
    holding inside ``wait()`` when the signal lands, which would deadlock.
    Here ``set()`` is a flag and a byte written to a pipe, and ``wait()``
    is a ``select()`` on that pipe.
    """

    def __init__(self) -> None:
        self._read, self._write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._set = False

    def set(self) -> None:
        self._set = True
        if self._write < 0:
            return  # closed: a late signal must not write to a reused descriptor
        try:
            os.write(self._write, b"x")
        except OSError:
            pass  # the pipe is full: the flag alone is enough

    def is_set(self) -> bool:
        return self._set

    def wait(self, timeout: float | None = None) -> bool:
        if not self._set and self._read >= 0:
            select.select([self._read], [], [], timeout)
        return self._set

    def close(self) -> None:
        descriptors, self._read, self._write = (self._read, self._write), -1, -1
        for fd in descriptors:
            if fd >= 0:
                os.close(fd)


# -- logging -------------------------------------------------------------------------


class _JournaldFormatter(logging.Formatter):
    """journald adds the time; a ``<N>`` prefix gives each line its priority."""

    PRIORITY: ClassVar[dict[int, int]] = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4,
                logging.ERROR: 3, logging.CRITICAL: 2}

    def format(self, record: logging.LogRecord) -> str:
        priority = self.PRIORITY.get(record.levelno, 6)
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines())


def under_journald(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """True when ``stream`` is the journal stream systemd gave us."""
    value = environ.get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    try:
        st = os.fstat(stream.fileno())
        return (st.st_dev, st.st_ino) == (int(device), int(inode))
    except (ValueError, OSError, AttributeError, io.UnsupportedOperation):
        return False


def configure_logging(stream: TextIO | None = None,
                      environ: Mapping[str, str] | None = None,
                      level: int = logging.INFO) -> None:
    stream = stream or sys.stdout
    environ = os.environ if environ is None else environ
    handler = logging.StreamHandler(stream)
    if under_journald(stream, environ):
        handler.setFormatter(_JournaldFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s",
                                               "%H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # gpiozero warns of each pin library it cannot load: into the log, once.
    logging.captureWarnings(True)
    # One line per request would drown the journal of a Pi on an SD card.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


# -- lgpio's working directory -------------------------------------------------------


def give_lgpio_a_working_directory(data_dir: Path,
                                   environ: MutableMapping[str, str] | None = None) -> str:
    """lgpio makes its notification pipes in ``$LG_WD``, else in the working
    directory, when it loads; started by hand from a directory its user
    cannot write (``cd / && sudo -u companion companion serve``), the
    companion would lose its GPIO.  Point ``LG_WD`` at a directory the
    companion owns, before gpiozero loads lgpio: systemd's runtime directory
    for the service (``/run/companion``), else the data directory.  An
    ``LG_WD`` already given is kept.  Returns the directory."""
    environ = os.environ if environ is None else environ
    if environ.get("LG_WD"):
        return environ["LG_WD"]
    runtime = environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    directory = Path(runtime) if runtime else data_dir
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        # The data directory's own failure is the journal's to report.
        log.debug("no working directory for lgpio in %s (%s)", directory, exc.strerror)
    environ["LG_WD"] = str(directory)
    return str(directory)
