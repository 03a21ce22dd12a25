"""The append-only journal: every game and every accepted command, in SQLite.

SQLite is the embedded default: one file, no server, and with WAL and
``synchronous=FULL`` a committed transaction survives a power cut.  Each
entry is committed before the table acknowledges it, so what a player saw
accepted is on disk.

The file is marked with an application id, so that a foreign or damaged
database is refused with a clear message instead of being written over.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Iterator

from .errors import CardFailing, CardFault, CardFull, ForeignDatabase, JournalError, JournalInUse

APPLICATION_ID = 0x54424C43  # "TBLC"
SCHEMA_VERSION = 1
# The page caches, in KiB (SQLite's default is 2 MB): the journal's (a
# command touches a few pages; a year of games read for the archive need
# not stay in memory), and that of the whole-file check (it reads each page
# about once).
CACHE_KIB = 1024
CHECK_CACHE_KIB = 256

SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    setup    TEXT NOT NULL,
    started  REAL NOT NULL,
    status   TEXT NOT NULL DEFAULT 'playing'
             CHECK (status IN ('playing', 'over', 'abandoned')),
    ended    REAL,
    result   TEXT
);
CREATE TABLE entries (
    seq      INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    version  INTEGER NOT NULL,
    action   TEXT NOT NULL CHECK (action IN ('command', 'undo', 'redo')),
    command  TEXT,
    source   TEXT NOT NULL DEFAULT '',
    at       REAL NOT NULL,
    UNIQUE (game_id, version)
);
"""

# Kept beside the games, added to journals written before it: the setup
# options a table saved for every game of a kind (its described box).
SAVED_OPTIONS = """
CREATE TABLE IF NOT EXISTS saved_options (
    game     TEXT NOT NULL,
    name     TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (game, name)
)
"""

# Kept beside the games, added to journals written before it: a finished
# game summed up for the statistics (players, result, scores, its record),
# written in the transaction that ends the game and deleted by the one that
# takes its end back, so statistics never replay a game.
SUMMARIES = """
CREATE TABLE IF NOT EXISTS summaries (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id),
    summary  TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class GameRow:
    """A game as the journal keeps it."""

    id: int
    game: str
    setup: dict[str, Any]
    started: float
    status: str
    ended: float | None
    result: dict[str, Any] | None


@dataclass(frozen=True)
class EntryRow:
    """A command, an undo or a redo, as the journal keeps it."""

    seq: int
    game_id: int
    version: int
    action: str
    command: dict[str, Any] | None
    source: str
    at: float


class Journal:
    """One SQLite journal file.  Each call holds the journal's own lock for
    its few statements only, so a reader of the archive (statistics, past
    games) never waits for the table, and the table never waits longer
    than one read."""

    def __init__(self, connection: sqlite3.Connection, path: str,
                 lock_fd: int | None = None) -> None:
        self._db = connection
        self.path = path
        self._lock_fd = lock_fd
        self._lock = threading.RLock()
        # The card's fault (full, read-only) until a write succeeds again.
        self.card_fault: CardFault | None = None
        self.read_only = False  # opened to be read only

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Journal:
        """Open the journal at ``path``, creating it (and its folder) if new."""
        path = str(path)
        lock_fd = None
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            lock_fd = _lock(path)
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            _unlock(lock_fd)
            raise JournalError(f"cannot open the journal {path}: {exc}") from exc
        try:
            cls._prepare(db, path)
        except sqlite3.DatabaseError as exc:
            db.close()
            _unlock(lock_fd)
            raise ForeignDatabase(
                f"{path} is not a companion journal or is damaged ({exc}); "
                f"move it aside or choose another file with --db"
            ) from exc
        except JournalError:
            db.close()
            _unlock(lock_fd)
            raise
        return cls(db, path, lock_fd)

    @classmethod
    def open_read_only(cls, path: str | os.PathLike[str]) -> Journal:
        """Open an existing journal to read it only, without its lock: what
        ``companion state`` does while the running companion holds it.
        SQLite's WAL lets a reader see every committed command while the
        writer goes on; a write through this journal raises."""
        where = Path(path)
        if not where.is_file():
            raise JournalError(f"there is no journal at {where}")
        try:
            db = _connect_read_only(where)
            _check_readable(db, str(where))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {where}: {exc}") from exc
        journal = cls(db, str(where))
        journal.read_only = True
        return journal

    @staticmethod
    def _prepare(db: sqlite3.Connection, path: str) -> None:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and tables == 0:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        elif app_id != APPLICATION_ID:
            raise ForeignDatabase(
                f"{path} is an SQLite database of another program (application id "
                f"{app_id:#x}), not a companion journal; it was left untouched"
            )
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"{path} was written by a newer companion (journal version {version}, "
                f"this one reads up to {SCHEMA_VERSION}); update the companion"
            )
        # Reading the schema reads the file's header and first pages: a file
        # that is not a database fails here.  The whole file is checked by
        # :meth:`check`, after the start, so the start does not grow with it.
        db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: the WAL is synced at every commit, so an acknowledged command
        # survives a power cut, not only a crash of the process.
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        db.execute(SAVED_OPTIONS)
        db.execute(SUMMARIES)

    def check(self) -> str | None:
        """Check the whole file (SQLite's ``quick_check``): ``None`` when
        it is sound, else what is wrong.  Its time grows with the file, so
        the companion runs it after its start, not before, on a connection
        of its own: the table goes on writing meanwhile (WAL)."""
        if self.path == ":memory:":
            with self._lock:
                found = [row[0] for row in self._db.execute("PRAGMA quick_check")]
        else:
            reader = sqlite3.connect(Path(self.path).absolute().as_uri() + "?mode=ro",
                                     uri=True)
            try:
                reader.execute(f"PRAGMA cache_size = -{CHECK_CACHE_KIB}")
                found = [row[0] for row in reader.execute("PRAGMA quick_check")]
            finally:
                reader.close()
        return None if found == ["ok"] else "; ".join(str(f) for f in found)

    # -- writing -----------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._lock, self._noted)

    def _noted(self, fault: CardFault | None) -> None:
        self.card_fault = fault

    def create_game(self, game: str, setup: dict[str, Any], at: float) -> int:
        """Start a new game; any game still being played is marked abandoned."""
        with self._transaction():
            self._db.execute(
                "UPDATE games SET status = 'abandoned', ended = ? WHERE status = 'playing'",
                (at,),
            )
            cur = self._db.execute(
                "INSERT INTO games (game, setup, started) VALUES (?, ?, ?)",
                (game, _dumps(setup), at),
            )
            return _inserted(cur)

    def append(
        self,
        game_id: int,
        version: int,
        action: str,
        command: dict[str, Any] | None,
        source: str,
        at: float,
        *,
        result: dict[str, Any] | None = None,
        over: bool = False,
        summary: dict[str, Any] | None = None,
    ) -> int:
        """Commit one entry durably, with the game's status in the same
        transaction (``over`` with its ``result`` and its ``summary`` for
        the statistics, or back to playing, without a summary)."""
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO entries (game_id, version, action, command, source, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, version, action, None if command is None else _dumps(command),
                 source, at),
            )
            if over:
                self._db.execute(
                    "UPDATE games SET status = 'over', ended = ?, result = ? WHERE id = ?",
                    (at, _dumps(result), game_id),
                )
                if summary is not None:
                    self._put_summary(game_id, summary)
            else:
                self._db.execute(
                    "UPDATE games SET status = 'playing', ended = NULL, result = NULL "
                    "WHERE id = ? AND status = 'over'",
                    (game_id,),
                )
                self._db.execute("DELETE FROM summaries WHERE game_id = ?", (game_id,))
            return _inserted(cur)

    def put_summary(self, game_id: int, summary: dict[str, Any]) -> None:
        """Keep the summary of a game that ended before summaries were kept
        (see :meth:`unsummarised`); a game no longer over is left alone."""
        with self._transaction():
            over = self._db.execute("SELECT 1 FROM games WHERE id = ? AND status = 'over'",
                                    (game_id,)).fetchone()
            if over is not None:
                self._put_summary(game_id, summary)

    def _put_summary(self, game_id: int, summary: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT INTO summaries (game_id, summary) VALUES (?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET summary = excluded.summary",
            (game_id, _dumps(summary)),
        )

    def save_option(self, game: str, name: str, value: Any) -> None:
        """Keep ``value`` as the setup option ``name`` of every new game of
        ``game``; ``None`` forgets it."""
        with self._transaction():
            if value is None:
                self._db.execute("DELETE FROM saved_options WHERE game = ? AND name = ?",
                                 (game, name))
            else:
                self._db.execute(
                    "INSERT INTO saved_options (game, name, value) VALUES (?, ?, ?) "
                    "ON CONFLICT (game, name) DO UPDATE SET value = excluded.value",
                    (game, name, _dumps(value)),
                )

    # -- reading -------------------------------------------------------------

    def summaries(self) -> list[dict[str, Any]]:
        """The summary of every finished game that has one, by game id."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.game_id, s.summary FROM summaries AS s JOIN games AS g "
                "ON g.id = s.game_id WHERE g.status = 'over' ORDER BY s.game_id"
            ).fetchall()
        return [_loads(text, f"summary of game {gid}") for gid, text in rows]

    def summaries_after(self, game_id: int, count: int) -> list[tuple[int, dict[str, Any]]]:
        """Up to ``count`` summaries of finished games after ``game_id``, in
        order: a year of games is read a batch at a time."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.game_id, s.summary FROM summaries AS s JOIN games AS g "
                "ON g.id = s.game_id WHERE g.status = 'over' AND s.game_id > ? "
                "ORDER BY s.game_id LIMIT ?", (game_id, count)).fetchall()
        return [(gid, _loads(text, f"summary of game {gid}")) for gid, text in rows]

    def summary(self, game_id: int) -> dict[str, Any] | None:
        """The summary of a finished game, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT summary FROM summaries WHERE game_id = ?",
                                   (game_id,)).fetchone()
        return None if row is None else _loads(row[0], f"summary of game {game_id}")

    def games_from(self, game_id: int) -> list[GameRow]:
        """The games from ``game_id`` on, in order."""
        return self._games("WHERE id >= ? ORDER BY id", game_id)

    def unsummarised(self) -> list[GameRow]:
        """The finished games without a summary: those that ended before
        the journal kept summaries."""
        return self._games(f"WHERE {_UNSUMMARISED} ORDER BY id")

    def unsummarised_count(self) -> int:
        """How many finished games have no summary (see :meth:`unsummarised`)."""
        with self._lock:
            found: int = self._db.execute(
                f"SELECT count(*) FROM games WHERE {_UNSUMMARISED}").fetchone()[0]
        return found

    def saved_options(self, game: str) -> dict[str, Any]:
        with self._lock:
            rows = self._db.execute(
                "SELECT name, value FROM saved_options WHERE game = ? ORDER BY name", (game,)
            ).fetchall()
        return {name: _loads(value, name) for name, value in rows}

    def latest_game(self) -> GameRow | None:
        return next(iter(self._games("ORDER BY id DESC LIMIT 1")), None)

    def game(self, game_id: int) -> GameRow | None:
        return next(iter(self._games("WHERE id = ?", game_id)), None)

    def games(self) -> list[GameRow]:
        return self._games("ORDER BY id")

    def _games(self, where: str, *parameters: Any) -> list[GameRow]:
        """The games ``where`` (a constant clause of this module) chooses."""
        with self._lock:
            rows = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games {where}",
                                    parameters).fetchall()
        return [_game_row(r) for r in rows]

    def entries(self, game_id: int) -> Iterator[EntryRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, game_id, version, action, command, source, at FROM entries "
                "WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        for seq, gid, version, action, command, source, at in rows:
            yield EntryRow(seq, gid, version, action, _loads(command, seq), source, at)

    def close(self) -> None:
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
            self._db.close()
            _unlock(self._lock_fd)
            self._lock_fd = None


class _Transaction:
    """One write, holding the journal's lock from its BEGIN to its COMMIT."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock,
                 noted: Callable[[CardFault | None], None]) -> None:
        self._db = db
        self._lock = lock
        self._noted = noted

    def __enter__(self) -> None:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            self._lock.release()
            raise self._fault(exc) from exc

    def _fault(self, error: sqlite3.Error) -> JournalError:
        found = card_fault(error)
        if isinstance(found, CardFault):
            self._noted(found)
        return found

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            self._end(exc_type, exc)
        finally:
            self._lock.release()

    def _end(self, exc_type: type[BaseException] | None, exc: BaseException | None) -> None:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                # A COMMIT that failed (a full card, a card turned read-only)
                # may have been rolled back by SQLite already.
                self._roll_back()
                raise self._fault(error) from error
            self._noted(None)
            return
        self._roll_back()
        if isinstance(exc, sqlite3.Error):
            raise self._fault(exc) from exc

    def _roll_back(self) -> None:
        if not self._db.in_transaction:
            return
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # nothing was written: the transaction ends with the connection's next one


# SQLite's primary result codes for a card that cannot take a write: full;
# read-only (the file system turned so after an error, or was mounted so);
# an input/output error; a file it cannot open (its WAL, on a read-only card).
SQLITE_FULL = 13
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CANTOPEN = 14
_FAILING = (SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN)


def card_fault(error: sqlite3.Error) -> JournalError:
    """The error a write of the journal raises: :class:`CardFull` or
    :class:`CardFailing` (said to the players) when the card is to blame,
    else a plain :class:`JournalError`."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code == SQLITE_FULL:
        return CardFull(str(error))
    if code in _FAILING:
        return CardFailing(str(error))
    return JournalError(f"cannot write the journal: {error}")


# -- setting right the times kept while the clock was wrong --------------------------


def mark(journal: Journal) -> tuple[int, int]:
    """Where ``journal`` is: its last game and its last entry (see
    :func:`relabel`)."""
    with journal._lock:
        game, seq = journal._db.execute(
            "SELECT (SELECT coalesce(max(id), 0) FROM games), "
            "(SELECT coalesce(max(seq), 0) FROM entries)").fetchone()
    return int(game), int(seq)


def relabel(journal: Journal, shift: float, since: tuple[int, int]) -> int:
    """Add ``shift`` seconds to every time ``journal`` kept after ``since``
    (a :func:`mark`): the times kept while the clock was wrong, once the
    right time is known.  The games' starts and ends, the entries' moments
    and the summaries' times move together, in one transaction; returns
    how many games moved."""
    game, seq = since
    db = journal._db
    with journal._transaction():
        db.execute("UPDATE entries SET at = at + ? WHERE seq > ?", (shift, seq))
        # A game's end was kept after the mark if the game is new, or ended
        # by an entry after it, or was abandoned by a game made after it.
        ended_since = (
            "ended IS NOT NULL AND (id > :game OR (status = 'over' AND EXISTS "
            "(SELECT 1 FROM entries AS e WHERE e.game_id = games.id AND e.seq > :seq)) "
            "OR (status = 'abandoned' AND (SELECT min(later.id) FROM games AS later "
            "WHERE later.id > games.id) > :game))")
        changed = sorted(gid for (gid,) in db.execute(
            f"SELECT id FROM games WHERE id > :game OR ({ended_since})",
            {"game": game, "seq": seq}))
        db.execute(f"UPDATE games SET ended = ended + :shift WHERE {ended_since}",
                   {"shift": shift, "game": game, "seq": seq})
        db.execute("UPDATE games SET started = started + ? WHERE id > ?", (shift, game))
        db.executemany(
            "UPDATE summaries SET summary = json_set(summary, '$.started', g.started, "
            "'$.ended', g.ended) FROM (SELECT started, ended FROM games WHERE id = ?1) "
            "AS g WHERE game_id = ?1", [(gid,) for gid in changed])
        # A game's record was set when it ended.
        db.executemany(
            "UPDATE summaries SET summary = json_set(summary, '$.record.at', "
            "json_extract(summary, '$.ended')) WHERE game_id = ? AND "
            "json_type(summary, '$.record') = 'object'", [(gid,) for gid in changed])
        return len(changed)


def _connect_read_only(where: Path) -> sqlite3.Connection:
    """A connection that only reads ``where``.  On a read-only file system
    SQLite cannot make the WAL's shared-memory file: a journal closed
    cleanly (no WAL left) is then opened as immutable, and one with a WAL
    (its latest commands) is read from a copy in memory."""
    def connect(uri: str) -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)

    uri = where.absolute().as_uri()
    db = connect(uri + "?mode=ro")
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
        wal = Path(str(where) + "-wal")
        if not wal.exists() or wal.stat().st_size == 0:
            return connect(uri + "?mode=ro&immutable=1")
    import shutil
    import tempfile

    # /dev/shm: memory, not the card.
    folder = Path(tempfile.mkdtemp(prefix="companion-journal-",
                                   dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    copy = folder / where.name
    shutil.copyfile(where, copy)
    shutil.copyfile(wal, Path(str(copy) + "-wal"))
    return connect(copy.as_uri() + "?mode=ro")


def _check_readable(db: sqlite3.Connection, path: str) -> None:
    """Refuse a file that is not a journal this companion reads."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    if app_id != APPLICATION_ID:
        db.close()
        raise ForeignDatabase(f"{path} is not a companion journal; it was left untouched")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        db.close()
        raise JournalError(
            f"{path} was written by a newer companion (journal version {version}, "
            f"this one reads up to {SCHEMA_VERSION}); update the companion"
        )


def _lock(path: str) -> int:
    """Hold the journal for this process alone: a second table on the same
    file (the CLI while the daemon runs) would silently fall behind it."""
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise JournalInUse(
            f"{path} is in use by another companion process (is the companion "
            f"service running? play from its panel, or stop it first)"
        ) from None
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the descriptor releases the lock


def _inserted(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just made (SQLite always gives one)."""
    if cursor.lastrowid is None:
        raise JournalError("the journal did not number the row just written")
    return cursor.lastrowid


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _loads(text: str | None, where: Any) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ForeignDatabase(f"journal entry {where} is damaged: {exc}") from exc


_GAME_COLUMNS = "id, game, setup, started, status, ended, result"
# The finished games an earlier version left without a summary.
_UNSUMMARISED = "status = 'over' AND id NOT IN (SELECT game_id FROM summaries)"


def _game_row(row: tuple[Any, ...]) -> GameRow:
    gid, game, setup, started, status, ended, result = row
    return GameRow(gid, game, _loads(setup, f"game {gid}"), started, status, ended,
                   _loads(result, f"game {gid}"))
