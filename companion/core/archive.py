"""The table's archive: the games it has played, looked back on.

Past games open to their end, their chart and their story (replayed from
the journal); statistics come from the summaries the journal keeps of the
finished games (written in the transaction that ends a game: see
:mod:`companion.core.stats`), so a year of play costs the table nothing.
Nothing here takes the table's lock: a phone reading the archive holds back
no input.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any, Callable

from .errors import ForeignDatabase, JournalError, NoGame
from .journal import GameRow, Journal
from .session import Session, replay, update_of
from .stats import Played, Tally, in_effect, summarise
from .updates import HistoryEntry, Update

log = logging.getLogger(__name__)


class Archive:
    """Past games, their histories, and the statistics of the finished ones.

    ``current`` gives the session being played (the table's, read as it is:
    a past game that is the current one is not replayed)."""

    def __init__(self, journal: Journal, current: Callable[[], Session | None]) -> None:
        self._journal = journal
        self._current = current
        self._lock = threading.Lock()
        # The statistics of the finished games, added up from the journal at
        # the first statistics and kept up to date by the games that end (or
        # take their end back) meanwhile, in the order they did.  Only the
        # latest game can end or take its end back: the tally before it is
        # kept to go back to.
        self._tally: Tally | None = None
        self._last = 0
        self._before_last: tuple[Tally, int] | None = None
        self._ended: deque[tuple[int, Played | None]] = deque()
        self._computed: dict[str, Any] | None = None
        # What the tally kept in the journal counts: (last game, games).
        self._kept_at: tuple[int, int] | None = None
        # Games summed up that a journal opened to read only cannot keep.
        self._unkept: dict[int, Played] = {}
        # Set when a game ended, or took its end back, that the statistics
        # have not counted yet (whoever keeps them up to date waits on it).
        self.changed = threading.Event()
        # The games of an earlier version's journal are summed up once, by
        # one thread at a time; meanwhile (games summed up, of how many).
        # When another thread does it (see count_apart), statistics asked
        # before it has finished do not wait for it.
        self._summing = threading.Lock()
        self._counting: tuple[int, int] | None = None
        self._apart = False
        self._summed_up = False

    def games(self) -> list[dict[str, Any]]:
        """Every game of the journal: its players, variants, times and result."""
        return [_game_summary(row) for row in self._journal.games()]

    def session(self, game_id: int) -> Session:
        """A game of the journal as it stands, replayed unless it is current."""
        session = self._current()
        if session is None or session.game_id != game_id:
            row = self._journal.game(game_id)
            if row is None:
                raise NoGame("refusal.no-such-game", number=game_id)
            session = replay(self._journal, row)
        return session

    def history(self, game_id: int) -> list[HistoryEntry]:
        return list(self.session(game_id).history)

    def history_after(self, game_id: int, version: int) -> list[HistoryEntry]:
        """The entries of a game after ``version``, in order.  Of the game
        in play it costs what is new, not the game's length (a history only
        grows): a reader following a cursor (the venue) asks at each change."""
        history = self.session(game_id).history
        start = len(history)
        while start and history[start - 1].version > version:
            start -= 1
        return history[start:]

    def past(self, game_id: int) -> tuple[Update, list[HistoryEntry]]:
        """A game as it stands and its history: a finished game opens to its
        end, its chart and its story."""
        session = self.session(game_id)
        return update_of(session, "current", ()), list(session.history)

    def ended(self, game_id: int, played: Played | None) -> None:
        """A game ended (``played``, its summary) or its end was taken back
        (``None``): told by the table once the journal has it."""
        self._ended.append((game_id, played))
        self.changed.set()

    def relabelled(self) -> None:
        """The times of some games were set right (see
        :meth:`companion.core.journal.Journal.relabel`): the statistics are
        added up again when next asked, and the tally kept is dropped."""
        with self._lock:
            self._tally, self._last, self._before_last = None, 0, None
            self._computed, self._kept_at = None, None
            self._ended.clear()
            try:
                self._journal.save_option(KEPT[0], KEPT[1], None)
            except JournalError:
                pass
        self.changed.set()

    def stats(self) -> dict[str, Any]:
        """Statistics over every finished game in the journal (see
        :func:`companion.core.stats.compute`), from the summaries it keeps;
        computed again only when a game has ended (or its end was taken
        back) since.  The answer is shared: do not change it.

        While another thread sums up the games of a journal written by an
        earlier version (once, after the start), the answer does not wait
        for it: it counts the games summed up so far and says how far the
        count is (``counting``: ``summed`` of ``of``)."""
        if self._tally is None and self._apart and not self._summed_up:
            counting = self._counting or (0, self._journal.unsummarised_count())
            if counting[1]:
                return self._so_far(*counting)
        with self._lock:
            if self._tally is None:
                self._load()
            while self._ended:
                self._computed = None
                self._apply(*self._ended.popleft())
            if self._computed is None:
                self._computed = _tally(self).to_json()
                self._keep()
            return self._computed

    def count_apart(self) -> None:
        """Say that another thread will call :meth:`summarise_past_games`
        (the companion's upkeep, after its start): until it has, statistics
        answer with the games counted so far instead of summing up the rest
        themselves."""
        self._apart = True

    def _so_far(self, summed: int, of: int) -> dict[str, Any]:
        """The statistics of the games summed up so far (neither kept nor
        remembered), and how far the count is."""
        tally, last = Tally(), 0
        while batch := self._journal.summaries_after(last, BATCH):
            for game_id, data in batch:
                tally.add(Played.from_json(data))
                last = game_id
        return {**tally.to_json(), "counting": {"summed": summed, "of": of}}

    def _load(self) -> None:
        """The tally kept in the journal, if it still holds, and the games
        that ended after it; else every summary added up, a batch at a time
        (and those not kept)."""
        self.summarise_past_games()
        found = self._kept()
        tally, last = found or (Tally(), 0)
        if found is not None:
            self._kept_at = (last, tally.count)
        while batch := self._journal.summaries_after(last, BATCH):
            for game_id, data in batch:
                for early in sorted(k for k in self._unkept if k < game_id):
                    tally.add(self._unkept.pop(early))
                tally.add(Played.from_json(data))
                last = game_id
        for early in sorted(self._unkept):
            tally.add(self._unkept.pop(early))
            last = max(last, early)
        self._tally, self._last, self._before_last = tally, last, None
        self._keep()

    def _kept(self) -> tuple[Tally, int] | None:
        """The tally the journal keeps, when it still counts what it did:
        the last game it counted still ended as it had (only the latest game
        can end, or take its end back; earlier ones never change)."""
        kept = self._journal.saved_options(KEPT[0]).get(KEPT[1])
        if not isinstance(kept, dict):
            return None
        try:
            last = int(kept["last"])
            if last and self._journal.summary(last) != kept["summary"]:
                return None
            return Tally.load(kept["tally"]), last
        except (KeyError, TypeError, ValueError):
            return None

    def _keep(self) -> None:
        """Keep the tally in the journal, for the next start's statistics
        (when it counts more than the one kept)."""
        if self._kept_at == (self._last, _tally(self).count):
            return
        self._kept_at = (self._last, _tally(self).count)
        try:
            self._journal.save_option(KEPT[0], KEPT[1], {
                "last": self._last, "summary": self._journal.summary(self._last),
                "tally": _tally(self).dump()})
        except JournalError:
            pass  # a journal opened to read only: counted again next time

    def _apply(self, game_id: int, played: Played | None) -> None:
        tally = _tally(self)
        if game_id > self._last:
            if played is not None:  # a game ended after every game counted
                self._before_last = (tally.copy(), self._last)
                tally.add(played)
                self._last = game_id
        elif game_id == self._last and self._before_last is not None:
            self._tally, self._last = self._before_last  # its end taken back
            self._before_last = None
            if played is not None:
                self._apply(game_id, played)
        else:  # an older game changed: count everything again
            self._load()

    def summarise_past_games(self) -> int:
        """Sum up, once, the finished games of a journal written before
        summaries were kept (each replayed); returns how many.  The
        companion runs it after its start; the first statistics run it too,
        if it has not finished.  A journal opened to read only keeps them
        in memory."""
        with self._summing:
            try:
                return self._summarise(self._journal.unsummarised())
            finally:
                # Done (or failed: then the statistics sum up what is left).
                self._counting, self._summed_up = None, True

    def _summarise(self, rows: list[GameRow]) -> int:
        if rows:
            try:
                self._journal.save_option(KEPT[0], KEPT[1], None)  # counts them no more
            except JournalError:
                pass  # a journal opened to read only keeps none
        for summed, row in enumerate(rows):
            self._counting = (summed, len(rows))
            played = _summarise_row(self._journal, row)
            try:
                self._journal.put_summary(row.id, played.to_json())
            except JournalError:
                self._unkept[row.id] = played  # counted, if not kept
        return len(rows)


# Summaries read from the journal at a time.
BATCH = 500
# The tally of the finished games, kept in the journal (as a saved option of
# a name no game has) so that a start does not add a year of games up again.
KEPT = ("(statistics)", "tally")


def _tally(archive: Archive) -> Tally:
    if archive._tally is None:
        raise AssertionError("the statistics were not loaded")
    return archive._tally


def _summarise_row(journal: Journal, row: GameRow) -> Played:
    try:
        history = replay(journal, row).history
    except ForeignDatabase:
        log.warning("game %s does not replay: counted without its record", row.id)
        history = []
    groups = in_effect((entry.action, entry.events) for entry in history)
    return summarise(row.id, row.game, row.setup, row.result, row.started, row.ended, groups)


def _game_summary(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "players": row.setup.get("players", []),
        "variants": row.setup.get("variants", []),
        "started": row.started,
        "status": row.status,
        "ended": row.ended,
        "result": row.result,
    }
