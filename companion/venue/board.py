"""The venue board's memory: every table it has heard of, and every result,
in a small SQLite journal of its own.

The board only reads the broker.  Each message is checked
(:func:`companion.core.venue.read`); one that is not well formed, or whose
content names another table than its topic, is not kept, and counted.  An
event or a result is kept once, by its id: a message the broker sends twice
(MQTT's QoS 1 may) is dropped.
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

from companion.core.errors import BadMessage
from companion.core.venue import VenueMessage, read

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
        self.refused: Counter[str] = Counter()
        self.generation = 0  # raised by every change: the page's live stream waits on it
        self._changed = threading.Condition()
        self._listeners: list[Callable[[VenueMessage], None]] = []

    def subscribe(self, listener: Callable[[VenueMessage], None]) -> None:
        self._listeners.append(listener)

    # -- taking messages ------------------------------------------------------------

    def take(self, topic: str, payload: bytes) -> VenueMessage | None:
        """Keep what a message says; ``None`` (and counted) when refused."""
        try:
            message = read(topic, payload)
        except BadMessage as exc:
            self.refused[str(exc).partition(":")[0]] += 1
            log.info("board: a message on %s is ignored: %s", topic, exc)
            return None
        with self._lock:
            kept = self._keep(message)
        if kept:
            for listener in self._listeners:
                listener(message)
            with self._changed:
                self.generation += 1
                self._changed.notify_all()
        return message

    def take_empty_result(self, topic: str) -> None:
        """A result taken back (its game's end was undone): forget it."""
        levels = topic.split("/")
        if len(levels) == 5 and levels[3] == "result" and levels[4].isdigit():
            with self._lock:
                self._db.execute("DELETE FROM results WHERE venue = ? AND name = ? AND "
                                 "game_id = ?", (levels[1], levels[2], int(levels[4])))
            with self._changed:
                self.generation += 1
                self._changed.notify_all()

    def _keep(self, m: VenueMessage) -> bool:
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
            out = []
            for venue, name, state, online, alert, seen in rows:
                events = [json.loads(b) for (b,) in self._db.execute(
                    "SELECT body FROM events WHERE venue = ? AND name = ? "
                    "ORDER BY seen DESC, rowid DESC LIMIT 3", (venue, name))]
                out.append({"venue": venue, "table": name,
                            "state": None if state is None else json.loads(state),
                            "online": bool(online),
                            "alert": None if alert is None else json.loads(alert),
                            "events": events, "seen": seen})
        return out

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
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
