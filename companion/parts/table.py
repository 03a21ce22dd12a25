"""The journal and the table as a part of the daemon: the one essential
part, since without it there is nothing to play.  It opens them in the data
directory (:func:`companion.host.storage.data_dir`) and keeps the journal's
upkeep (summing up an earlier version's games, the statistics' tally, the
file's check) on a thread of its own at the lowest priority."""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from companion.core.errors import JournalError
from companion.host.storage import (
    JOURNAL_FILE,
    card_read_only,
    make_directory,
    sync_directory,
)
from companion.parts.lifecycle import Component, PartContext

log = logging.getLogger(__name__)


class TablePart(Component):
    """The journal and the table: without them there is nothing to play."""

    name = "table"
    essential = True
    provides = ("table", "journal", "time")
    early = True
    # A card that cannot be written, a date not known: on the table's
    # screen for as long as they last.
    fault_lasts = True

    def __init__(self, setup: PartContext) -> None:
        from companion.core.clock import LabelClock
        from companion.host.timesync import TableTime, synced_reader

        self.directory = setup.directory
        self.table: Any = None
        self.journal: Any = None
        # The table's clock, and whether it knows the date.
        self.time = TableTime(LabelClock(), synced_reader(simulate=setup.simulate), time.time)
        self.upkeep: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        from companion.core.journal import Journal
        from companion.core.table import Table

        try:
            make_directory(self.directory)
            # Whoever made it (systemd's StateDirectory, lgpio's working
            # directory at the start), its name is synced in its folder:
            # else a cut can lose the whole data directory.
            sync_directory(self.directory.parent)
            self.journal = Journal.open(self.directory / JOURNAL_FILE)
        except (OSError, JournalError) as exc:
            if not card_read_only(self.directory, exc):
                if isinstance(exc, JournalError):
                    raise
                raise JournalError(
                    f"cannot use the data directory {self.directory} ({exc.strerror}); set "
                    f"data_dir in the config, or try 'companion serve --simulate', which "
                    f"keeps its data in your own data directory"
                ) from None
            self.journal = self._read_only(exc)
        self.table = Table(self.journal, clock=self.time.clock)
        self.time.table = self.table
        self.time.tick()
        # The games of an earlier version's journal are summed up by the
        # upkeep (keep_up), not by the first phone to ask for statistics.
        self.table.archive.count_apart()
        where = self.table.journal_path
        if self.table.has_game:
            log.info("journal %s: game of %s at version %d", where,
                     self.table.game.title, self.table.version)
        else:
            log.info("journal %s: no game yet", where)

    def _read_only(self, exc: BaseException) -> Any:
        """The journal on a card that cannot be written (it failed, and its
        file system turned read-only): the game so far, shown but not
        played on, rather than a companion restarting again and again."""
        from companion.core.errors import CardFailing
        from companion.core.journal import Journal

        path = self.directory / JOURNAL_FILE
        log.critical("the memory card holding %s is read-only (%s): showing the games so "
                     "far without recording anything; back up the journal and replace the "
                     "card ('companion doctor' says how)", self.directory, exc)
        journal = Journal.open_read_only(path) if path.exists() else Journal.open(":memory:")
        journal.read_only = True
        journal.card_fault = CardFailing(f"read-only at the start: {exc}")
        return journal

    def provided(self, name: str) -> Any:
        return {"journal": self.journal, "time": self.time}.get(name, self.table)

    def tick(self) -> None:
        self.time.tick()

    def fault(self) -> str | None:
        """The card's trouble while it lasts, else a date not known, said in
        the table's language (the table's screen shows it; the panel lists
        it)."""
        from companion.core.text import say

        journal = self.journal
        trouble = None if journal is None else journal.card_fault
        language = "en"
        if self.table is not None:
            try:
                language = self.table.settings().language or "en"
            except Exception:
                pass
        if trouble is not None:
            said = trouble.say(language)
            return said[:1].upper() + said[1:]
        if not self.time.known():
            return say("menu.date-unknown", language)
        return None

    def keep_up(self) -> None:
        """Start the work that grows with the journal, beside the companion
        and not before it: the daemon calls it once the panel answers, so
        the start does not wait for, nor share its CPU with, a year of
        games."""
        if self.upkeep is None and self.table is not None:
            self.upkeep = threading.Thread(target=self._keep_up, name="journal-upkeep",
                                           daemon=True)
            self.upkeep.start()

    def _keep_up(self) -> None:
        """At the lowest priority: sum up the finished games of a journal
        written by an earlier version (once), compute the statistics so
        that the first phone to ask has them, check the whole file; then
        count each game as it ends, so that the journal always keeps the
        statistics' tally up to date and no start adds games up again."""
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except (AttributeError, OSError):
            pass  # this thread alone, on Linux; elsewhere it runs as the rest
        try:
            done = self.table.archive.summarise_past_games()
            if done:
                log.info("journal: %d finished games summed up for the statistics", done)
            self.table.stats()
            if self._stopping.is_set():
                return
            found = self.journal.check()
        except Exception as exc:  # the journal closed under it, or a damaged page
            if not self._stopping.is_set():
                log.error("journal %s: its check failed (%s)", self.journal.path, exc)
            return
        if found is not None:
            log.error("journal %s is damaged (%s): the games go on, but copy the file "
                      "aside and run 'companion doctor'", self.journal.path, found)
        self._count_games_as_they_end()

    def _count_games_as_they_end(self) -> None:
        """Wait (no polling) for a game to end, or take its end back, and
        count it, until the companion stops."""
        ended = self.table.archive.changed
        while True:
            ended.wait()
            if self._stopping.is_set():
                return
            ended.clear()
            try:
                self.table.stats()
            except Exception:
                if self._stopping.is_set():
                    return
                log.exception("journal %s: the statistics could not count the game that "
                              "ended; they count it when next asked", self.journal.path)

    def stop(self) -> None:
        self._stopping.set()
        if self.table is not None:
            self.table.archive.changed.set()  # the upkeep's wait ends
        if self.upkeep is not None:
            self.upkeep.join(5)
        if self.table is not None:
            # close() takes the table's lock: the command in progress ends first.
            self.table.close()
