"""The table in its venue: what it publishes on the venue's MQTT broker.

The journal is the queue.  Every change the table acknowledged is already
in it, durably; the part remembers, in the journal's database too, the last
change the broker acknowledged (``(venue) sent``), and sends what follows,
in order, whenever the broker answers: after it was away, after a restart
of the companion, after a power cut.  A key press costs nothing more with
the venue on: the table's listener only wakes the part's own thread, which
does every read, every send and every wait.  While the broker is away the
backlog grows with the games; past ``[venue] queue`` changes the oldest
are not sent, and the part says so.

Topics and payloads are :mod:`companion.core.venue`'s; the connection is
:class:`drivers.mqtt.Link`'s (paho's thread).
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from typing import Any, Callable

from companion.core import venue as messages
from companion.core.journal import GameRow, Journal
from companion.core.stats import Played
from companion.core.table import Table
from companion.core.updates import HistoryEntry, Update
from companion.host.config import ConfigError, Venue, section
from companion.parts.lifecycle import Component, Setup
from companion.venue.names import topics as topics_of

log = logging.getLogger(__name__)

# The journal's saved option that keeps what the broker has.
CURSOR = ("(venue)", "sent")
# How often the cursor is written while changes come, at most; it is written
# after the state and events it follows, and once the table is quiet.
CURSOR_EVERY = 1.0
# The event every game ends with (and that an undo of the end takes back).
GAME_OVER = "game-over"
# An alert older than this is not sent: a light that flashes for an
# explosion of ten minutes ago tells the room nothing.
ALERT_FRESH = 120.0
# How soon what could not be sent is tried again, while the broker answers.
RETRY = 1.0
# How long the first connection may take before the panel shows a fault.
CONNECT_GRACE = 10.0
# How long Home Assistant's birth message may wait for the discovery, at most.
REANNOUNCE_SPREAD = 5.0


class VenuePart(Component):
    """Publishes the table on the venue's broker, from its own thread."""

    name = "venue"

    def __init__(self, settings: Venue, table: Table, journal: Journal, *, table_name: str,
                 version: str, link_factory: Callable[..., Any] | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.settings = settings
        self.table = table
        self.journal = journal
        self.table_name = settings.table or table_name
        self.version = version
        self._link_factory = link_factory
        # The table's own clock: an alert's age is read against the time
        # the journal kept it at, on the clock that does not follow a step.
        self._clock: Callable[[], float] = clock if clock is not None else \
            getattr(table, "now", time.time)
        self.topics = topics_of(settings.venue, self.table_name)
        self.link: Any = None
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._announce = threading.Event()
        self._state_sent: tuple[int, int] | None = None
        self._cursor = self._read_cursor()
        self._cursor_saved = self._cursor
        self._saved_at = 0.0
        self.dropped = 0  # changes never sent: the queue was full
        self.refused = 0  # messages the broker refused (its ACL)
        self.sent = 0
        self._started = 0.0

    # -- life ------------------------------------------------------------------

    def start(self) -> None:
        if not self.settings.enabled:
            return
        factory = self._link_factory
        if factory is None:
            from drivers.mqtt import Link

            factory = Link
        s = self.settings
        self.link = factory(
            s.broker, s.port, client_id=f"companion-{self.topics.venue}-{self.topics.table}",
            username=s.username or None, password=s.password or None, tls=s.tls,
            ca_file=s.ca_file or None, cert_file=s.cert_file or None,
            key_file=s.key_file or None,
            will=(self.topics.availability, messages.OFFLINE.encode()),
            subscriptions=(messages.HA_STATUS,) if s.home_assistant else (),
            on_connect=self._connected, on_message=self._message)
        self._unsubscribe = self.table.subscribe(self._changed)
        self._thread = threading.Thread(target=self._run, name="venue", daemon=True)
        self._thread.start()
        self._started = self._clock()
        self.link.start()
        log.info("venue: publishing as %s on %s:%s", self.topics.base, s.broker, s.port)

    def stop(self) -> None:
        if self.link is None:
            return
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(15)
        self._save_cursor(force=True)
        self.link.stop(farewell=(self.topics.availability, messages.OFFLINE.encode()))

    def fault(self) -> str | None:
        if self.link is None or self.link.connected:
            return None
        if self.link.last_error is None and self._clock() - self._started < CONNECT_GRACE:
            return None  # still connecting
        why = f" ({self.link.last_error})" if self.link.last_error else ""
        return (f"the venue's broker {self.settings.broker}:{self.settings.port} does not "
                f"answer{why}; the table keeps its changes and sends them when it does")

    def status(self) -> dict[str, Any]:
        """What the panel shows of the venue (never a credential)."""
        return {"enabled": self.settings.enabled, "broker": self.settings.broker,
                "port": self.settings.port, "topic": self.topics.base,
                "connected": bool(self.link and self.link.connected),
                "sent": self.sent, "dropped": self.dropped, "refused": self.refused}

    # -- what wakes the thread (other threads) -------------------------------------

    def _changed(self, update: Update) -> None:
        self._wake.set()

    def _connected(self) -> None:
        self._announce.set()
        self._wake.set()

    def _message(self, topic: str, payload: bytes) -> None:
        if topic == messages.HA_STATUS and payload.strip() == b"online":
            # Home Assistant (re)started: announce again, after a short wait of
            # our own, so that a venue's tables do not all answer at once.
            timer = threading.Timer(random.uniform(0.5, REANNOUNCE_SPREAD), self._reannounce)
            timer.daemon = True
            timer.start()

    def _reannounce(self) -> None:
        self._announce.set()
        self._wake.set()

    # -- the thread ----------------------------------------------------------------

    def _run(self) -> None:
        unsent = False
        while not self._stopping.is_set():
            # Something left unsent (the broker went while it was sent) is
            # tried again within a second once the broker answers; a cursor
            # not yet written is written once nothing else is to do.
            dirty = self._cursor != self._cursor_saved
            woken = self._wake.wait(RETRY if unsent else CURSOR_EVERY if dirty else 30)
            self._wake.clear()
            if self._stopping.is_set():
                break
            if not woken and dirty and not unsent:
                self._save_cursor(force=True)
                continue
            if not self.link.connected:
                unsent = True
                continue
            try:
                unsent = not self._send()
            except Exception:  # the thread goes on; it tries again
                unsent = True
                log.exception("venue: sending failed; trying again")

    def _send(self) -> bool:
        """Send what is due, the state first (what the board and Home
        Assistant show), then the events and results; True when all went.
        The cursor is written after, and at most every CURSOR_EVERY seconds
        while changes come: never between a commit and its state."""
        if self._announce.is_set():
            self._announce.clear()
            if not self._publish(self.topics.availability, messages.ONLINE.encode(),
                                 retain=True):
                self._announce.set()
                return False
            if self.settings.home_assistant:
                for topic, payload in messages.discovery(self.topics, self.table_name,
                                                         self.version):
                    self._publish(topic, messages.encode(payload), retain=True)
            self._state_sent = None
        if not self._send_state():
            return False
        return self._send_backlog()

    def _publish(self, topic: str, payload: bytes, *, retain: bool = False) -> bool:
        from drivers.mqtt import Refused

        try:
            done = bool(self.link.publish(topic, payload, retain=retain))
        except Refused as exc:
            self.refused += 1
            log.warning("venue: %s (check the broker's ACL for this table)", exc)
            return True  # sending it again would be refused again
        if done:
            self.sent += 1
        return done

    def _send_backlog(self) -> bool:
        """Send every change after the cursor, in order; True when all went."""
        pending = list(self._pending())
        if len(pending) > self.settings.queue:
            dropped = len(pending) - self.settings.queue
            self.dropped += dropped
            log.warning("venue: the broker was away for %d changes, more than [venue] queue "
                        "(%d): the oldest %d are not sent", len(pending), self.settings.queue,
                        dropped)
            pending = pending[dropped:]
        # Games whose end came, or was taken back, in these changes: their
        # result is published (or cleared); no other change touches results.
        ended: dict[int, GameRow] = {}
        for row, entry in pending:
            message = messages.event_message(row.id, row.game, entry, self.table_name)
            if not self._publish(self.topics.event, messages.encode(message)):
                self._save_cursor(force=True)
                return False
            if self._clock() - entry.at <= ALERT_FRESH:
                for event in message["events"]:
                    if event.get("alert") and entry.action != "undo":
                        alert = messages.alert_message(event, message["id"],
                                                       row.setup.get("players", ()))
                        self._publish(self.topics.alert, messages.encode(alert))
            self._cursor = (row.id, entry.version)
            if any(e.get("kind") == GAME_OVER for e in message["events"]):
                ended[row.id] = row
        for row in ended.values():
            self._send_result(row.id)
        self._save_cursor()
        return True

    def _pending(self) -> Any:
        game_id, version = self._cursor
        for row in self.journal.games_from(max(game_id, 1)):
            for entry in self._history_after(row, version if row.id == game_id else -1):
                yield row, entry

    def _history_after(self, row: GameRow, version: int) -> list[HistoryEntry]:
        try:
            found: list[HistoryEntry] = self.table.archive.history_after(row.id, version)
            return found
        except Exception as exc:  # a game that does not replay is not sent
            log.warning("venue: game %s is not sent: %s", row.id, exc)
            return []

    def _send_result(self, game_id: int) -> None:
        """A finished game's result, retained on its own topic; a game whose
        end was taken back has its result taken back too (an empty retained
        message clears it)."""
        row = self.journal.game(game_id)
        kept = self.journal.summary(game_id)
        if row is not None and row.status == "over" and kept is not None:
            message = (row.result or {}).get("message", "")
            body = messages.encode(messages.result_message(Played.from_json(kept),
                                                           self.table_name, message))
        else:
            body = b""
        self._publish(self.topics.result(game_id), body, retain=True)

    def _send_state(self) -> bool:
        if not self.table.has_game:
            return True
        update = self.table.current()
        now = (update.game_id, update.version)
        if now == self._state_sent:
            return True
        state = messages.state_message(update, self.table_name)
        if not self._publish(self.topics.state, messages.encode(state), retain=True):
            return False
        self._state_sent = now
        return True

    # -- the cursor, in the journal's database ---------------------------------------

    def _read_cursor(self) -> tuple[int, int]:
        kept = self.journal.saved_options(CURSOR[0]).get(CURSOR[1])
        if isinstance(kept, dict) and isinstance(kept.get("game"), int):
            return (kept["game"], int(kept.get("version", 0)))
        # A table that joins a venue sends its current game, not its past.
        latest = self.journal.latest_game()
        return (0, 0) if latest is None else (latest.id, 0)

    def _save_cursor(self, force: bool = False) -> None:
        if self._cursor == self._cursor_saved:
            return
        if not force and self._clock() - self._saved_at < CURSOR_EVERY:
            return
        self.journal.save_option(CURSOR[0], CURSOR[1], {"game": self._cursor[0],
                                                        "version": self._cursor[1]})
        self._cursor_saved, self._saved_at = self._cursor, self._clock()


# The panel's venue settings, kept in the data directory (0600: a password).
SETTINGS_FILE = "venue.json"
# How long the owner's key press at the table lets a phone change them.
ALLOW_FOR = 300.0
# What a kept password is bound to: a change of any of these needs it again.
BOUND_TO = ("broker", "port", "tls", "ca_file", "cert_file", "key_file", "username")


class VenueService(Component):
    """The table's place in a venue, as the config and then the panel set it.

    The panel's settings (``venue.json`` in the data directory, written
    durably) win over the config's ``[venue]``; ``version()`` is the
    program's version, looked up only when the table joins a venue; a change stops the part that
    publishes and starts one on the new broker, on a thread of its own, so
    that the panel's answer waits for neither broker."""

    name = "venue"
    needs = ("table", "journal")
    provides = ("venue",)

    def __init__(self, setup: Setup, *, table: Table, journal: Journal,
                 table_name: str | None = None, version: Callable[[], str] | None = None,
                 keep_file: Callable[..., None] | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        import socket

        from companion.host.storage import keep_file as keep_durably
        from companion.host.version import program_version

        self.config = setup.config.venue
        self.table, self.journal = table, journal
        self.path = setup.directory / SETTINGS_FILE
        self.table_name = socket.gethostname() if table_name is None else table_name
        self.version = version or program_version
        self._keep_file = keep_file or keep_durably
        self._lock = threading.Lock()
        self._monotonic = monotonic
        self._allowed_until = -math.inf
        self.part: VenuePart | None = None
        self.settings, self.source = self._read()

    def start(self) -> None:
        self._restart()

    def stop(self) -> None:
        with self._lock:
            part, self.part = self.part, None
        if part is not None:
            part.stop()

    def fault(self) -> str | None:
        return None if self.part is None else self.part.fault()

    def status(self) -> dict[str, Any]:
        s, part = self.settings, self.part
        running = part.status() if part is not None else {}
        return {"enabled": s.enabled, "broker": s.broker, "port": s.port, "tls": s.tls,
                "venue": s.venue, "table": s.table or self.table_name,
                "username": s.username, "has_password": bool(s.password),
                "topic": running.get("topic"), "connected": bool(running.get("connected")),
                "error": part.fault() if part is not None else None,
                "sent": running.get("sent", 0), "dropped": running.get("dropped", 0),
                "refused": running.get("refused", 0), "source": self.source,
                "changes_allowed": self.changes_allowed()}

    # -- who may change the settings --------------------------------------------

    def allow_changes(self) -> None:
        """The owner's key press at the table (Menu → Venue → OK):
        a controller may change the venue settings for :data:`ALLOW_FOR`
        seconds."""
        # One float's assignment: the menu's thread never waits on a
        # restart in progress (which holds the lock).
        self._allowed_until = self._monotonic() + ALLOW_FOR
        log.info("venue: the settings may be changed from a phone for %d s", ALLOW_FOR)

    def changes_allowed(self) -> bool:
        return self._monotonic() < self._allowed_until

    def configure(self, changes: dict[str, Any]) -> dict[str, Any]:
        """Keep the panel's settings durably, then move the table to them.

        Refused (:class:`VenueChangeRefused`, nothing changed) unless the
        owner allowed it at the table (:meth:`allow_changes`) a moment ago;
        and a kept password is never carried to another broker: a change of
        the broker, port, TLS settings or user comes with the password again
        (leaving the venue forgets it)."""
        import dataclasses
        import json

        from companion.core.errors import VenueChangeRefused
        from companion.venue.names import topic_level

        if not self.changes_allowed():
            raise VenueChangeRefused("venue-locked", "the venue settings are changed only "
                                     "after the owner allows it at the table")
        values = {**dataclasses.asdict(self.settings), **changes}
        settings = dataclasses.replace(self.settings, **{
            k: v for k, v in values.items() if k in Venue.__dataclass_fields__})
        try:
            topic_level(settings.venue)
            if settings.table:
                topic_level(settings.table)
        except ValueError:
            raise VenueChangeRefused("no-topic", "a venue's or a table's name needs a letter "
                                     "or a digit, of which its topic is made") from None
        moved = any(getattr(settings, k) != getattr(self.settings, k) for k in BOUND_TO)
        if not settings.enabled:
            settings = dataclasses.replace(settings, password="")
        elif moved and "password" not in changes and self.settings.password:
            raise VenueChangeRefused("password-needed", "a new broker, port, TLS setting or "
                                     "user needs the password again")
        text = json.dumps({k: getattr(settings, k) for k in
                           ("broker", "port", "tls", "venue", "table", "username", "password")})
        self._keep_file(self.path, text.encode(), mode=0o600)
        self.settings, self.source = settings, "panel"
        log.info("venue: set from the panel to %s", settings.broker or "no venue")
        threading.Thread(target=self._restart, name="venue-restart", daemon=True).start()
        return self.status()

    def _restart(self) -> None:
        with self._lock:
            old, self.part = self.part, None
            if old is not None:
                old.stop()
            if self.settings.enabled:
                part = VenuePart(self.settings, self.table, self.journal,
                                 table_name=self.table_name, version=self.version())
                part.start()
                self.part = part

    def _read(self) -> tuple[Venue, str]:
        import dataclasses
        import json

        try:
            kept = json.loads(self.path.read_text())
        except FileNotFoundError:
            return self.config, "config"
        except (OSError, ValueError) as exc:
            log.warning("venue: %s cannot be read (%s); the config's [venue] is used",
                        self.path, exc)
            return self.config, "config"
        try:
            fields = {k: v for k, v in kept.items() if k in Venue.__dataclass_fields__}
            checked = section("venue", Venue, fields, str(self.path))
        except (AttributeError, ConfigError) as exc:  # not an object, or a value it cannot use
            log.warning("venue: %s is not used (%s); the config's [venue] is used",
                        self.path, exc)
            return self.config, "config"
        return dataclasses.replace(self.config, **{k: getattr(checked, k) for k in fields}), "panel"
