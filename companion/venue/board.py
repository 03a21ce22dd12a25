"""The venue board's memory: every table it has heard of, and every result,
in a small SQLite journal of its own.

The board only reads the broker.  Each message is checked in full before
anything of it is stored (:func:`companion.venue.schema.read`: its size,
depth, numbers, strings and every field against one JSON Schema); one that
is not well formed, or whose content names another table than its topic, is
not kept, and counted by its cause (:meth:`Board.health`).  What a message
changes is stored in one transaction: all of it, or nothing.  An event or a
result is kept once, by its id: a message the broker sends twice (MQTT's
QoS 1 may) is dropped.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from companion.core.venue import Message

from .schema import Refused, read, read_topic

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    venue   TEXT NOT NULL,
    name    TEXT NOT NULL,
    state   TEXT,
    online  INTEGER NOT NULL DEFAULT 0,
    alert   TEXT,
    seen    REAL NOT NULL,
    PRIMARY KEY (venue, name)
);
CREATE TABLE IF NOT EXISTS events (
    venue   TEXT NOT NULL,
    name    TEXT NOT NULL,
    id      TEXT NOT NULL,
    body    TEXT NOT NULL,
    seen    REAL NOT NULL,
    PRIMARY KEY (venue, name, id)
);
CREATE TABLE IF NOT EXISTS results (
    venue   TEXT NOT NULL,
    name    TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    body    TEXT NOT NULL,
    ended   REAL,
    PRIMARY KEY (venue, name, game_id)
);
"""

# How many events the board keeps per table (the latest): its page shows a few.
EVENTS_KEPT = 200


class Board:
    """What the board knows, kept in ``path`` (``:memory:`` for a test)."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()
        self._clock = clock
        # Messages not kept, by cause ("not-json", "invalid-state"...).
        self.refused: Counter[str] = Counter()
        self.taken = 0
        self.generation = 0  # raised by every change: the page's live stream waits on it
        self._changed = threading.Condition()
        self._listeners: list[Callable[[Message], None]] = []

    def subscribe(self, listener: Callable[[Message], None]) -> None:
        self._listeners.append(listener)

    # -- taking messages ------------------------------------------------------------

    def take(self, topic: str, payload: bytes) -> Message | None:
        """Keep what a message says; ``None`` (and counted) when refused."""
        try:
            message = read(topic, payload)
        except Refused as exc:
            self._refuse(exc.cause, topic, str(exc))
            return None
        try:
            with self._lock:
                kept = self._transaction(lambda: self._keep(message))
        except (sqlite3.Error, ValueError, OverflowError) as exc:
            # What the checks let through and the database would not take:
            # refused the same way, and nothing of it stored.
            self._refuse("not-stored", topic, str(exc))
            return None
        self.taken += 1
        if kept:
            for listener in self._listeners:
                listener(message)
            with self._changed:
                self.generation += 1
                self._changed.notify_all()
        return message

    def take_empty_result(self, topic: str) -> None:
        """A result taken back (its game's end was undone): forget it."""
        try:
            where = read_topic(topic)
        except Refused as exc:
            self._refuse(exc.cause, topic, str(exc))
            return
        if where.kind != "result":
            self._refuse("empty", topic, "an empty message that is no result")
            return
        with self._lock:
            cur = self._db.execute("DELETE FROM results WHERE venue = ? AND name = ? AND "
                                   "game_id = ?", (where.venue, where.table, where.game_id))
        if cur.rowcount:
            with self._changed:
                self.generation += 1
                self._changed.notify_all()

    def _refuse(self, cause: str, topic: str, why: str) -> None:
        self.refused[cause] += 1
        log.info("board: a message on %s is ignored: %s", topic[:120], why[:200])

    def _transaction(self, work: Callable[[], bool]) -> bool:
        """``work`` in one transaction: all of it is kept, or none of it."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            done = work()
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        return done

    def health(self) -> dict[str, Any]:
        """How the board is doing: messages kept, refused by cause, tables."""
        with self._lock:
            (tables,) = self._db.execute("SELECT COUNT(*) FROM tables").fetchone()
            (results,) = self._db.execute("SELECT COUNT(*) FROM results").fetchone()
        return {"taken": self.taken, "refused": sum(self.refused.values()),
                "refused_by_cause": dict(sorted(self.refused.items())),
                "tables": tables, "results": results, "generation": self.generation}

    def _keep(self, m: Message) -> bool:
        now = self._clock()
        db = self._db
        db.execute("INSERT INTO tables (venue, name, seen) VALUES (?, ?, ?) "
                   "ON CONFLICT (venue, name) DO UPDATE SET seen = excluded.seen",
                   (m.venue, m.table, now))
        if m.kind == "availability":
            db.execute("UPDATE tables SET online = ? WHERE venue = ? AND name = ?",
                       (m.body == "online", m.venue, m.table))
        elif m.kind == "state":
            db.execute("UPDATE tables SET state = ?, online = 1 WHERE venue = ? AND name = ?",
                       (_dumps(m.body), m.venue, m.table))
        elif m.kind == "alert":
            db.execute("UPDATE tables SET alert = ? WHERE venue = ? AND name = ?",
                       (_dumps({**dict(m.body), "at": now}), m.venue, m.table))  # type: ignore[arg-type]
        elif m.kind == "event":
            body = dict(m.body)  # type: ignore[arg-type]
            cur = db.execute("INSERT OR IGNORE INTO events (venue, name, id, body, seen) "
                             "VALUES (?, ?, ?, ?, ?)", (m.venue, m.table, body["id"],
                                                        _dumps(body), now))
            if cur.rowcount == 0:
                return False  # a duplicate
            db.execute("DELETE FROM events WHERE venue = ? AND name = ? AND rowid NOT IN "
                       "(SELECT rowid FROM events WHERE venue = ? AND name = ? "
                       "ORDER BY seen DESC, rowid DESC LIMIT ?)",
                       (m.venue, m.table, m.venue, m.table, EVENTS_KEPT))
        elif m.kind == "result":
            body = dict(m.body)  # type: ignore[arg-type]
            db.execute("INSERT INTO results (venue, name, game_id, body, ended) "
                       "VALUES (?, ?, ?, ?, ?) ON CONFLICT (venue, name, game_id) DO UPDATE "
                       "SET body = excluded.body, ended = excluded.ended",
                       (m.venue, m.table, body["game_id"], _dumps(body), body.get("ended")))
        return True

    # -- reading ------------------------------------------------------------------------

    def tables(self) -> list[dict[str, Any]]:
        """Every table heard of: its state, online or not, its last alert and
        its latest events."""
        with self._lock:
            rows = self._db.execute("SELECT venue, name, state, online, alert, seen FROM tables "
                                    "ORDER BY venue, name").fetchall()
            # Each table's latest three events, in one query for every table.
            latest: dict[tuple[str, str], list[Any]] = {}
            for venue, name, body in self._db.execute(
                    "SELECT venue, name, body FROM (SELECT venue, name, body, ROW_NUMBER() "
                    "OVER (PARTITION BY venue, name ORDER BY seen DESC, rowid DESC) AS n "
                    "FROM events) WHERE n <= 3 ORDER BY venue, name, n"):
                latest.setdefault((venue, name), []).append(json.loads(body))
        return [{"venue": venue, "table": name,
                 "state": None if state is None else json.loads(state),
                 "online": bool(online),
                 "alert": None if alert is None else json.loads(alert),
                 "events": latest.get((venue, name), []), "seen": seen}
                for venue, name, state, online, alert, seen in rows]

    def events(self, venue: str, table: str) -> list[dict[str, Any]]:
        """A table's events the board kept, in the order they came."""
        with self._lock:
            return [json.loads(b) for (b,) in self._db.execute(
                "SELECT body FROM events WHERE venue = ? AND name = ? ORDER BY seen, rowid",
                (venue, table))]

    def results(self, since: float | None = None) -> list[dict[str, Any]]:
        """Every result (from ``since`` on), in the order the games ended."""
        with self._lock:
            rows = self._db.execute(
                "SELECT venue, name, body FROM results WHERE ? IS NULL OR ended >= ? "
                "ORDER BY ended, venue, name, game_id", (since, since)).fetchall()
        return [{**json.loads(body), "venue": venue, "table": name}
                for venue, name, body in rows]

    def wait(self, generation: int, timeout: float) -> int:
        """Wait until the board changes after ``generation`` (or ``timeout``)."""
        with self._changed:
            self._changed.wait_for(lambda: self.generation != generation, timeout)
            return self.generation

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
