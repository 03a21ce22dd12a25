"""The table: the one entry point through which every input changes the game.

Buttons, dice, the phone panel and the CLI all call :meth:`Table.submit`,
:meth:`Table.undo` and :meth:`Table.redo`.  The table applies one command at a
time under a lock, writes it durably to the journal before acknowledging it,
and then, with its lock released, tells its listeners, in order.  On start it
replays the journal and ends up exactly where it was.

Undo and redo (see :mod:`companion.core.session`) are journal entries too,
so they survive a restart.

Every change raises the version by one, and every game starts at version 0.
A change may name the game and the version it was made against
(``expected_game``, ``expected_version``); the table checks both inside its
lock and refuses a stale one (:class:`StaleVersion`), so two phones tapping
the same card never apply it twice, a note made against a game that was
replaced never lands in the new one, and two phones tapping "Play again"
start one game.  ``ANY_GAME`` (the default) leaves the game unchecked, for
the table's own buttons and the CLI, which act on whatever game is current.

The table keeps its own settings (:class:`~companion.core.settings.Settings`)
in the journal, beside the games' saved options: its language, which the table's screen and the
phones without a language of their own follow, and "turns only from the
player's own phone".  With that one on, a command sent from a phone names
the seat the phone belongs to (``seat``, a player's name, or ``None`` for a
phone of no seat) and the table refuses, inside its lock, a turn of another
seat (:class:`NotYourSeat`).  The table's buttons, dice and CLI send no seat
(``ANY_SEAT``): the physical table is the truth, and they act for anyone.
Corrections, undo and redo stay open to every controller: they make the
companion agree with the cards on the table, they play no one's turn.

What the table has played is looked back on through its archive
(:mod:`companion.core.archive`): past games, their histories, statistics.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from enum import Enum
from typing import Any, Callable, Final, Iterable, Iterator, Mapping, Sequence

from . import journal as journal_module
from . import session as play
from .archive import Archive
from .engine import Command, Event, Game, Setup, chosen
from .errors import IllegalCommand, NoGame, NothingToRedo, NothingToUndo, NotYourSeat, StaleVersion
from .games import game_class
from .journal import Journal
from .listeners import Teller, add_listener
from .session import SNAPSHOT_EVERY, Session, update_of
from .settings import SETTINGS, TABLE_SETTINGS, Settings, SettingsListener, TableSettings
from .stats import Played, in_effect, summarise
from .updates import Action, HistoryEntry, Preview, Update, change_text

# Names the table's users import from here.
__all__ = ["ANY_GAME", "ANY_SEAT", "SETTINGS", "SNAPSHOT_EVERY", "TABLE_SETTINGS", "Action",
           "ExpectedGame", "HistoryEntry", "Listener", "Preview", "Seat", "Settings",
           "SettingsListener", "Table", "Update", "change_text", "check_made_against"]

# What a listener returns is not used.
Listener = Callable[[Update], object]


class _AnyGame(Enum):
    ANY = "any"


# ``expected_game=ANY_GAME``: whichever game is current (not checked).
# ``expected_game=None``: no game is expected to be at the table.
ANY_GAME: Final = _AnyGame.ANY
ExpectedGame = int | None | _AnyGame


class _AnySeat(Enum):
    ANY = "any"


# ``seat=ANY_SEAT``: the table's own buttons, dice and CLI, which act for
# any seat.  ``seat=None``: a phone that belongs to no seat.  ``seat="Ana"``:
# Ana's phone.
ANY_SEAT: Final = _AnySeat.ANY
Seat = str | None | _AnySeat


class Table:
    """Owns the current game and the journal; see the module docstring."""

    def __init__(self, journal: Journal, *, clock: Callable[[], float] = time.time) -> None:
        self._journal = journal
        self._clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._teller = Teller()
        self._session: Session | None = None
        self.table_settings = TableSettings(journal)
        self.archive = Archive(journal, lambda: self._session)
        row = journal.latest_game()
        if row is not None:
            self._session = play.replay(journal, row)
        # Where the journal was when its times were last known right.
        self._labelled_since = journal_module.mark(journal)

    # -- reading -----------------------------------------------------------

    @property
    def game(self) -> Game:
        return self._require().game

    @property
    def version(self) -> int:
        return self._require().version

    @property
    def has_game(self) -> bool:
        return self._session is not None

    def now(self) -> float:
        """The table's clock now: the time it would keep for a change."""
        return self._clock()

    @property
    def journal_path(self) -> str:
        return self._journal.path

    def answers(self, timeout: float) -> bool:
        """True if the table can take a command within ``timeout`` seconds:
        the service watchdog asks this, so a hung table stops being fed."""
        if not self._lock.acquire(timeout=timeout):
            return False
        self._lock.release()
        return True

    def current(self) -> Update:
        with self._lock:
            return update_of(self._require(), "current", ())

    def history(self, game_id: int | None = None) -> list[HistoryEntry]:
        """The history of the current game, or of a past one by its id
        (replayed from the journal, so a finished game can be looked back on)."""
        if game_id is not None:
            return self.past(game_id)[1]
        with self._lock:
            return list(self._require().history)

    def past(self, game_id: int) -> tuple[Update, list[HistoryEntry]]:
        """A game of the journal as it stands (the current one, or a past
        one replayed) and its history: a finished game opens to its end,
        its chart and its story."""
        with self._lock:
            session = self._session
            if session is not None and session.game_id == game_id:
                return update_of(session, "current", ()), list(session.history)
        return self.archive.past(game_id)

    def undo_preview(self) -> str | None:
        """What undo would take back, as a sentence (``None``: nothing)."""
        with self._lock:
            return play.undo_said(self._require())[0]

    def preview(self, command: Command | Mapping[str, Any], *,
                expected_game: ExpectedGame = ANY_GAME,
                expected_version: int | None = None,
                seat: Seat = ANY_SEAT) -> Preview:
        """Play ``command`` on a copy of the game and say what it would do,
        without writing, telling anyone or changing the table.  It is
        refused exactly as :meth:`submit` would refuse it (a stale version,
        an illegal command...), with the same errors."""
        if not isinstance(command, Command):
            command = Command.from_json(command)
        with self._lock:
            session = self._require()
            _check(session, expected_game, expected_version)
            _check_seat(self.table_settings.now(), session, command, seat)
            copy = type(session.game).loads(session.game.dumps())
            game_id, version = session.game_id, session.version
        # The copy is this call's own: the engine runs outside the lock.
        events = copy.apply(command)
        return Preview(game_id=game_id, version=version, command=command,
                       events=tuple(events), state=copy.view(),
                       expected=tuple(copy.expected()), over=copy.over,
                       result=copy.result())

    def snapshots_kept(self) -> int:
        """How many states the current game keeps for undo (one command in
        ``SNAPSHOT_EVERY``): memory that grows slowly with a game's length."""
        with self._lock:
            return sum(done.before is not None for done in self._require().done)

    # -- the archive and the settings, read without the table's lock ---------

    def games(self) -> list[dict[str, Any]]:
        return self.archive.games()

    def stats(self) -> dict[str, Any]:
        return self.archive.stats()

    def settings(self) -> Settings:
        return self.table_settings.now()

    def change_setting(self, name: str, value: Any) -> Settings:
        return self.table_settings.change(name, value)

    def subscribe_settings(self, listener: SettingsListener) -> Callable[[], None]:
        return self.table_settings.subscribe(listener)

    def saved_options(self, key: str) -> dict[str, Any]:
        return self.table_settings.saved_options(key)

    def save_option(self, key: str, name: str, value: Any) -> None:
        self.table_settings.save_option(key, name, value)

    # -- listeners -----------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(update)`` after every change, once the change is
        in the journal and the table's lock released: a slow listener holds
        back no input.  Listeners are told every change in the order it
        happened, one change at a time."""
        return add_listener(self._listeners, listener, self._lock)

    @contextmanager
    def _changing(self) -> Iterator[None]:
        """Hold the lock for a change, then tell the listeners what it did."""
        try:
            with self._lock:
                yield
        finally:
            self._teller.tell()

    # -- changing ------------------------------------------------------------

    def new_game(
        self,
        key: str,
        players: Sequence[str],
        variants: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        *,
        expected_game: ExpectedGame = ANY_GAME,
        expected_version: int | None = None,
    ) -> Update:
        """Start a new game (the one being played, if any, is kept in the
        journal as abandoned).  ``expected_game``: the game the request saw
        (``None``: no game), so two phones that tap "Play again" on the same
        game start one game, the second refused (:class:`StaleVersion`)."""
        cls = game_class(key)
        saved = self._journal.saved_options(cls.key)
        # The options a table saved (its box) unless the setup says otherwise;
        # the journal keeps the setup as played, so a replay needs no saved option.
        setup = chosen(cls, Setup(tuple(" ".join(str(p).split()) for p in players),
                                 frozenset(variants), {**saved, **dict(options or {})}))
        game = cls(setup)  # raises BadSetup before anything is written
        with self._changing():
            _check(self._session, expected_game, expected_version)
            started = self._clock()
            game_id = self._journal.create_game(cls.key, setup.to_json(), started)
            self._session = Session(game_id, game, started)
            update = update_of(self._session, "new", ())
            self._teller.later(self._listeners, update)
            return update

    def submit(
        self,
        command: Command | Mapping[str, Any],
        *,
        expected_game: ExpectedGame = ANY_GAME,
        expected_version: int | None = None,
        source: str = "",
        seat: Seat = ANY_SEAT,
    ) -> Update:
        """Apply one command durably; refused commands change nothing.
        With ``expected_game`` and ``expected_version``, it is refused
        unless the table is at that game and version.  ``seat`` is whose
        phone sent it (see the module docstring): with the table's setting
        ``seat_only`` on, a turn of another seat is refused
        (:class:`NotYourSeat`)."""
        if not isinstance(command, Command):
            command = Command.from_json(command)
        with self._changing():
            session = self._require()
            _check(session, expected_game, expected_version)
            _check_seat(self.table_settings.now(), session, command, seat)
            events, before = play.apply(session, command)

            def take_back() -> None:
                session.done.pop()
                session.game = type(session.game).loads(play.live(before))

            self._commit(session, "command", command, events, source, take_back)
            session.undone.clear()
            return self._changed(session, "command", command, events, source)

    def submit_words(self, words: str | Sequence[str], **kwargs: Any) -> Update:
        with self._lock:
            command = self._require().game.parse_words(words)
        return self.submit(command, **kwargs)

    def undo(self, *, expected_game: ExpectedGame = ANY_GAME,
             expected_version: int | None = None, source: str = "") -> Update:
        with self._changing():
            session = self._require()
            _check(session, expected_game, expected_version)
            if not session.done:
                raise NothingToUndo("refusal.nothing-to-undo")
            game_before = session.game
            done = play.undo(session)

            def take_back() -> None:
                session.undone.pop()
                session.done.append(done)
                session.game = game_before

            self._commit(session, "undo", None, (), source, take_back)
            return self._changed(session, "undo", done.command, (), source,
                                 undid_json=done.events_json)

    def redo(self, *, expected_game: ExpectedGame = ANY_GAME,
             expected_version: int | None = None, source: str = "") -> Update:
        with self._changing():
            session = self._require()
            _check(session, expected_game, expected_version)
            if not session.undone:
                raise NothingToRedo("refusal.nothing-to-redo")
            command, events, before = play.redo(session)

            def take_back() -> None:
                session.done.pop()
                session.game = type(session.game).loads(play.live(before))
                session.undone.append(command)

            self._commit(session, "redo", None, events, source, take_back)
            return self._changed(session, "redo", command, events, source)

    def close(self) -> None:
        with self._lock:
            self._journal.close()

    # -- internals -----------------------------------------------------------

    def _require(self) -> Session:
        if self._session is None:
            raise NoGame("refusal.no-game")
        return self._session

    def _commit(self, session: Session, action: str, command: Command | None,
                events: Sequence[Event], source: str, take_back: Callable[[], None]) -> None:
        """Journal a change already made in memory, or take it back with
        ``take_back`` and raise, so memory never runs ahead of disk.  A
        change that ends the game writes the game's summary with it (and one
        that takes the end back deletes it), and tells the archive."""
        game = session.game
        result = game.result()
        at = self._clock()
        summary = _summary(session, action, events, at) if game.over else None
        try:
            self._journal.append(
                session.game_id, session.version + 1, action,
                command.to_json() if command else None, source, at,
                over=game.over, result=result.to_json() if result else None,
                summary=None if summary is None else summary.to_json())
        except BaseException:
            take_back()
            raise
        self._ended(session, summary)

    def _ended(self, session: Session, summary: Played | None) -> None:
        """Tell the archive a game ended, or that its end was taken back."""
        was_over, session.over = session.over, session.game.over
        if summary is not None or was_over:
            self.archive.ended(session.game_id, summary)

    def _changed(self, session: Session, action: str, command: Command | None,
                 events: Sequence[Event], source: str, *, undid_json: str = "[]") -> Update:
        session.version += 1
        entry = HistoryEntry.of(len(session.history) + 1, session.version, Action(action),
                                command, events, self._clock(), source, undid_json)
        session.history.append(entry)
        if action != "undo":
            session.done[-1].events_json = entry.events_json
        update = update_of(session, action, events, command, source,
                           undid=entry.undid if action == "undo" else ())
        self._teller.later(self._listeners, update)
        return update

def relabel(table: Table, correct: Callable[[], float], *,
            provisional: bool = False) -> float:
    """The right time is known: ``correct()`` sets ``table``'s clock right
    and says by how much the times it gave were off; those the journal
    kept since the last correction move by as much (a game's start and end,
    its commands, its summary), in the statistics and every export too.
    A ``provisional`` time (a phone's) may itself be off: the times it set
    move again with the next correction.  Returns the shift."""
    with table._changing():
        shift = correct()
        if shift:
            if journal_module.relabel(table._journal, shift, table._labelled_since):
                table.archive.relabelled()
            row = table._journal.latest_game()
            if row is not None and table._session is not None:
                table._session = play.replay(table._journal, row)
        if not provisional:
            table._labelled_since = journal_module.mark(table._journal)
        return shift


def _check(session: Session | None, game: ExpectedGame, version: int | None) -> None:
    """Refuse a change made against another game or version than the
    current one (called inside the lock)."""
    if session is None:
        check_made_against(game, version, None, None)
    else:
        check_made_against(game, version, session.game_id, session.version)


def check_made_against(game: ExpectedGame, version: int | None,
                       current_game: int | None, current: int | None) -> None:
    """The one check of a change made against a state of the table (the
    table's, and early in the panel and the dice service): refused
    (:class:`StaleVersion`) when made against another game than
    ``current_game`` or, in the same game, another version than ``current``.
    ``ANY_GAME`` checks the version alone (``NoGame`` when there is none);
    a ``version`` of ``None`` checks the game alone."""
    if game is ANY_GAME:
        if version is not None and version != current:
            if current_game is None:
                raise NoGame("refusal.no-game")
            raise StaleVersion(version, current)
        return
    if game != current_game or (version is not None and game is not None
                                and version != current):
        raise StaleVersion(version, current, expected_game=game,
                           current_game=current_game)

def _check_seat(settings: Settings, session: Session, command: Command, seat: Seat) -> None:
    """With ``seat_only`` on, refuse a phone's command that plays
    another seat's turn (called inside the lock, before the command is
    applied; a command the game refuses anyway is left to the game)."""
    if seat is ANY_SEAT or not settings.seat_only:
        return
    game = session.game
    try:
        actor = game.actor(command)
    except IllegalCommand:
        return  # the game refuses it with its own reason when it is applied
    if actor is None:
        return
    mine = None if seat is None else next(
        (n for n in game.players if n.casefold() == seat.casefold()), None)
    if mine is None or game.players.index(mine) != actor:
        raise NotYourSeat(
            "refusal.not-your-seat" if mine else "refusal.not-your-seat-none",
            player=game.players[actor], seat=mine)


def _summary(session: Session, action: str, events: Sequence[Event], at: float) -> Played:
    """The summary of the game ``session`` ends with this change."""
    game, result = session.game, session.game.result()
    done = [(entry.action.value, entry.events) for entry in session.history]
    return summarise(session.game_id, game.key, game.setup.to_json(),
                     result.to_json() if result else None, session.started, at,
                     in_effect([*done, (action, events)]))
