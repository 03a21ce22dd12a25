"""Which companion the command line speaks to: the one that is running.

``companion serve`` keeps its data where :func:`companion.host.storage.data_dir`
says: the config's ``data_dir``; else systemd's state directory; else the
service's ``/var/lib/companion`` when it may write there, or the user's own
data directory (a simulation on a laptop, or a companion started by hand).
The command line looks at the same places, in the same order, and asks each
whether a companion runs there: a running companion holds its journal's
lock (``companion.db.lock``), so a lock that cannot be had means it runs.
Nothing is written to find out.
"""

from __future__ import annotations

import errno
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from companion.host import config as config_module
from companion.host.config import Config
from companion.host.storage import ACCESS_FILE, JOURNAL_FILE

RUNNING, STOPPED, ABSENT, CLOSED = "running", "stopped", "absent", "closed"


@dataclass(frozen=True)
class Place:
    """A data directory a companion may use, who uses it, and whether a
    companion runs there now (``closed``: this user may not look)."""

    directory: Path
    who: str
    status: str

    @property
    def journal(self) -> Path:
        return self.directory / JOURNAL_FILE

    def describe(self) -> str:
        return f"{self.who}, data in {self.directory}"

    @property
    def has_data(self) -> bool:
        return (self.directory / ACCESS_FILE).exists() or self.journal.exists()


def own_data_dir() -> Path:
    """The user's own data directory: a simulation's, and the CLI's default."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("companion", appauthor=False))


def places(config: Config | None = None,
           environ: Mapping[str, str] | None = None) -> list[Place]:
    """Where a companion may keep its data, in the order ``serve`` picks, each
    with whether one runs there."""
    env = os.environ if environ is None else environ
    found: list[tuple[Path, str]] = []
    if config is not None and config.data_dir:
        found.append((Path(config.data_dir).expanduser(), "the companion of the config"))
    elif env.get("STATE_DIRECTORY"):
        found.append((Path(env["STATE_DIRECTORY"].split(":")[0]), "the service"))
    else:
        found.append((config_module.SERVICE_DATA_DIR, "the service"))
        found.append((own_data_dir(), "your own companion"))
    seen: set[Path] = set()
    out = []
    for directory, who in found:
        if directory not in seen:
            seen.add(directory)
            out.append(Place(directory, who, status(directory)))
    return out


def status(directory: Path) -> str:
    """Whether a companion runs with its data in ``directory``."""
    try:
        if not directory.is_dir():
            return ABSENT
    except OSError:
        return CLOSED
    if not os.access(directory, os.R_OK | os.X_OK):
        return CLOSED
    held = journal_held(directory / JOURNAL_FILE)
    if held is None:
        return CLOSED
    return RUNNING if held else STOPPED


def journal_held(journal: Path) -> bool | None:
    """True when a process holds ``journal``'s lock (a companion runs on
    it); None when this user cannot tell."""
    try:
        fd = os.open(f"{journal}.lock", os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    except OSError:
        return None
    try:
        # A shared lock, let go at once: it never stands in a writer's way
        # for longer than this call.
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return True
        return None
    finally:
        os.close(fd)
    return False


def running(found: list[Place]) -> list[Place]:
    return [place for place in found if place.status == RUNNING]
