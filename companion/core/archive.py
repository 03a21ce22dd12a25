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
from .stats import Played, compute, in_effect, summarise
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
        # The finished games summed up, loaded from the journal at the first
        # statistics and kept up to date by the games that end (or take
        # their end back) meanwhile, in the order they did.
        self._played: dict[int, Played] | None = None
        self._ended: deque[tuple[int, Played | None]] = deque()
        self._computed: dict[str, Any] | None = None

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

    def past(self, game_id: int) -> tuple[Update, list[HistoryEntry]]:
        """A game as it stands and its history: a finished game opens to its
        end, its chart and its story."""
        session = self.session(game_id)
        return update_of(session, "current", ()), list(session.history)

    def ended(self, game_id: int, played: Played | None) -> None:
        """A game ended (``played``, its summary) or its end was taken back
        (``None``): told by the table once the journal has it."""
        self._ended.append((game_id, played))

    def stats(self) -> dict[str, Any]:
        """Statistics over every finished game in the journal (see
        :func:`companion.core.stats.compute`), from the summaries it keeps;
        computed again only when a game has ended (or its end was taken
        back) since.  The answer is shared: do not change it."""
        with self._lock:
            if self._played is None:
                self.summarise_past_games()
                self._played = {p.game_id: p for p in map(Played.from_json,
                                                          self._journal.summaries())}
            while self._ended:
                game_id, played = self._ended.popleft()
                self._computed = None
                if played is None:
                    self._played.pop(game_id, None)
                else:
                    self._played[game_id] = played
            if self._computed is None:
                self._computed = compute(list(self._played.values()))
            return self._computed

    def summarise_past_games(self) -> int:
        """Sum up, once, the finished games of a journal written before
        summaries were kept (each replayed); returns how many.  The
        companion runs it after its start; the first statistics run it too,
        if it has not finished.  A journal opened to read only keeps them
        in memory."""
        rows = self._journal.unsummarised()
        for row in rows:
            played = _summarise_row(self._journal, row)
            try:
                self._journal.put_summary(row.id, played.to_json())
            except JournalError:
                self._ended.appendleft((row.id, played))  # counted, if not kept
        return len(rows)


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
