"""The keys to the phone panel, kept where every process of the companion
finds them: a small SQLite file in the data directory.

It holds the PIN and the join token (the QR code) that make a phone a
controller, the *generation* of controller sessions, and the wrong PINs
counted per address.  A phone's session cookie carries the generation it
joined in; signing every phone out (:meth:`AccessStore.sign_out`) makes a
new PIN and token and raises the generation, so every cookie signed before
is worth a spectator's.

The service reads it and the CLI (``companion sign-out``) writes it, each
with its own connection, so signing out needs no running service and takes
effect in a running one at its next request: SQLite's ``data_version``
tells a connection that another one changed the file, at the cost of one
small query.  Keeping it on disk also means that the PIN does not change
when the companion restarts, and that a restart does not forget a lockout.

Separate from the journal, whose file the service holds locked, and kept
the same way: in WAL mode with ``synchronous=FULL``, so that a sign-out is
on disk once it is answered.  (SQLite's default rollback journal would not
do: a commit deletes ``panel-access.db-journal`` and, at ``FULL``, does not
sync the directory; a power cut can bring the journal back, and the next
start rolls the sign-out back.  A WAL commit is the WAL file synced, and
SQLite syncs the directory once, when it creates that file.)
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .clock import Instant
from .errors import JournalError
from .journal import card_fault

PIN_DIGITS = 6
# Addresses whose wrong PINs are remembered; the oldest are forgotten first,
# so a flood of addresses cannot grow the file.
MAX_TRACKED_ADDRESSES = 1024
BUSY_TIMEOUT = 5.0
# How the file survives a power cut (see the module's docstring).
JOURNAL_MODE = "WAL"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS keys (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL,
    pin TEXT NOT NULL,
    token TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pin_failures (
    address TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS pin_failures_by_address ON pin_failures (address, at);
"""
# Added to files made before them: the boot a wrong PIN was typed in and
# its clock that never steps (``at`` is the wall clock's time, a label).
_STEADY_COLUMNS = (
    "ALTER TABLE pin_failures ADD COLUMN boot TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE pin_failures ADD COLUMN steady REAL NOT NULL DEFAULT 0",
)


@dataclass(frozen=True)
class Keys:
    """The PIN, the join token and the generation of controller sessions."""

    generation: int
    pin: str
    token: str


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def new_token() -> str:
    return secrets.token_urlsafe(18)


class AccessStore:
    """The keys and the wrong PINs, in the SQLite file at ``path``
    (``":memory:"`` for one that lasts as long as the process).  Safe to
    use from several threads, and from several processes at once."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = str(path)
        if self.path != ":memory:":
            _create_private(Path(self.path))
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None,
                                       check_same_thread=False, timeout=BUSY_TIMEOUT)
            self._db.execute(f"PRAGMA journal_mode={JOURNAL_MODE}")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(pin_failures)")}
            if "steady" not in columns:
                for statement in _STEADY_COLUMNS:
                    self._db.execute(statement)
            with self._write():
                if self._db.execute("SELECT 1 FROM keys").fetchone() is None:
                    self._db.execute("INSERT INTO keys VALUES (1, 1, ?, ?)",
                                     (new_pin(), new_token()))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot use the panel's keys in {self.path}: {exc}") from exc
        self._lock = threading.Lock()
        self._seen_version: int | None = None
        self._keys = self._read()

    def keys(self) -> Keys:
        """The keys now, read again if another process changed them."""
        with self._lock:
            version = self._db.execute("PRAGMA data_version").fetchone()[0]
            if version != self._seen_version:
                self._keys = self._read()
                self._seen_version = version
            return self._keys

    def sign_out(self) -> Keys:
        """Sign every phone out: a new PIN, a new join token, and a new
        generation, so every controller's cookie is a spectator's."""
        with self._lock, self._write():
            self._db.execute("UPDATE keys SET generation = generation + 1, pin = ?, token = ?",
                             (new_pin(), new_token()))
            self._keys = self._read()
        return self._keys

    # -- wrong PINs ---------------------------------------------------------------

    def failures(self, address: str) -> list[Instant]:
        """When ``address`` typed a wrong PIN, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT boot, steady, at FROM pin_failures WHERE address = ? ORDER BY rowid",
                (address,)).fetchall()
        return [Instant(boot, steady, at) for boot, steady, at in rows]

    def add_failure(self, address: str, at: Instant, *,
                    keep: Callable[[Instant], bool]) -> None:
        """Count a wrong PIN from ``address``; the failures ``keep`` refuses
        are forgotten, and so are the addresses beyond the
        ``MAX_TRACKED_ADDRESSES`` that failed last."""
        with self._lock, self._write():
            rows = self._db.execute(
                "SELECT rowid, boot, steady, at FROM pin_failures").fetchall()
            old = [(rowid,) for rowid, boot, steady, wall in rows
                   if not keep(Instant(boot, steady, wall))]
            self._db.executemany("DELETE FROM pin_failures WHERE rowid = ?", old)
            self._db.execute("INSERT INTO pin_failures (address, at, boot, steady) "
                             "VALUES (?, ?, ?, ?)", (address, at.wall, at.boot, at.steady))
            self._db.execute(
                "DELETE FROM pin_failures WHERE address NOT IN (SELECT address FROM "
                "pin_failures GROUP BY address ORDER BY MAX(rowid) DESC LIMIT ?)",
                (MAX_TRACKED_ADDRESSES,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- internals ------------------------------------------------------------------

    def _read(self) -> Keys:
        generation, pin, token = self._db.execute(
            "SELECT generation, pin, token FROM keys").fetchone()
        return Keys(generation, pin, token)

    def _write(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on an error)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise card_fault(exc) from exc

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            if kind is None:
                self._db.execute("COMMIT")
                return
        except sqlite3.Error as exc:
            # A full or failing card: SQLite may have rolled back already.
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise card_fault(exc) from exc
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise card_fault(error) from error


def _create_private(path: Path) -> None:
    """The file holds the PIN and the join token: readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
