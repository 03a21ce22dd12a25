"""The table: the one entry point through which every input changes the game.

Buttons, dice, the phone panel and the CLI all call :meth:`Table.submit`,
:meth:`Table.undo` and :meth:`Table.redo`.  The table applies one command at a
time under a lock, writes it durably to the journal before acknowledging it,
and then, with its lock released, tells its listeners, in order.  On start it
replays the journal and ends up exactly where it was.

Undo works by snapshot: the state before one command in ``SNAPSHOT_EVERY``
is kept as text, and the state before any other is rebuilt from the nearest
one kept by playing the commands again (engines are pure), so memory does not
grow with a snapshot per command.  Redo re-applies the command.  Undo and redo
are journal entries too, so they survive a restart.

Every change raises the version by one, and every game starts at version 0.
A change may name the game and the version it was made against
(``expected_game``, ``expected_version``); the table checks both inside its
lock and refuses a stale one (:class:`StaleVersion`), so two phones tapping
the same card never apply it twice, a note made against a game that was
replaced never lands in the new one, and two phones tapping "Play again"
start one game.  ``ANY_GAME`` (the default) leaves the game unchecked, for
the table's own buttons and the CLI, which act on whatever game is current.

The table keeps its own settings (:class:`Settings`) in the journal, beside
the games' saved options: its language, which the table's screen and the
phones without a language of their own follow, and "turns only from the
player's own phone".  With that one on, a command sent from a phone names
the seat the phone belongs to (``seat``, a player's name, or ``None`` for a
phone of no seat) and the table refuses, inside its lock, a turn of another
seat (:class:`NotYourSeat`).  The table's buttons, dice and CLI send no seat
(``ANY_SEAT``): the physical table is the truth, and they act for anyone.
Corrections, undo and redo stay open to every controller: they make the
companion agree with the cards on the table, they play no one's turn.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Callable, Final, Iterable, Iterator, Mapping, Sequence

from .engine import Command, Event, Expectation, Game, Result, Setup
from .errors import (
    BadSetting,
    BadSetup,
    CompanionError,
    ForeignDatabase,
    IllegalCommand,
    NoGame,
    NothingToRedo,
    NothingToUndo,
    NotYourSeat,
    StaleVersion,
)
from .games import game_class
from .journal import GameRow, Journal
from .stats import Played, compute, in_effect, summarise
from .text import LANGUAGES, Word

log = logging.getLogger(__name__)

# What a listener returns is not used.
Listener = Callable[["Update"], object]


class Action(StrEnum):
    """What an :class:`Update` (or a line of history) is: a new game, a
    command played, undone or redone, or the table as it is (``current``)."""

    NEW = "new"
    COMMAND = "command"
    UNDO = "undo"
    REDO = "redo"
    CURRENT = "current"


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

# The journal keeps the table's settings as the saved options of this name,
# which no game has.
TABLE_SETTINGS: Final = "(table)"


@dataclass(frozen=True)
class Settings:
    """The table's own settings, kept in the journal across restarts.

    ``seat_only``: a seat's turn is playable only from that seat's phone
    (the table's buttons and CLI still act for anyone).  ``language``: the
    table's language (``None`` until a controller sets one: the companion's
    configured language is used meanwhile)."""

    seat_only: bool = False
    language: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat_only": self.seat_only, "language": self.language}


# The settings and the values each takes (``None`` sets it back to its default).
SETTINGS: Final[Mapping[str, str]] = {
    "seat_only": "true or false",
    "language": " or ".join(LANGUAGES),
}

SettingsListener = Callable[[Settings], object]


@dataclass(frozen=True)
class Update:
    """The table after a change: what the listeners, the panel and the
    screens are given."""

    game_id: int
    game_key: str
    title: str
    version: int
    action: Action
    state: dict[str, Any]
    expected: tuple[Expectation, ...]
    events: tuple[Event, ...]
    over: bool
    result: Result | None
    players: tuple[str, ...]
    can_undo: bool
    can_redo: bool
    undo_text: str | None = None
    setup: dict[str, Any] | None = None
    # What undo would take back, as the events it made (the panel says them
    # in the phone's language); empty when there is nothing to undo.
    undo_events: tuple[Event, ...] = ()
    # What made this update: the command played, undone or redone (``None``
    # for a new game or a replay), and who sent it ("buttons", "panel",
    # "dice", "cli"...), so that a listener tells a roll from a card.
    command: Command | None = None
    source: str = ""
    # The prompts of ``expected`` in the other languages, for the games that
    # say them in several (``Game.prompts_in``): language -> prompts in order.
    prompts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def expected_json(self) -> list[dict[str, Any]]:
        """``expected`` as JSON, each with its prompt in the other languages
        (``said``) when the game says them."""
        out = []
        for i, e in enumerate(self.expected):
            shown = e.to_json()
            said = {lang: found[i] for lang, found in self.prompts.items() if i < len(found)}
            if said:
                shown["said"] = said
            out.append(shown)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "game": self.game_key,
            "title": self.title,
            "version": self.version,
            "action": self.action,
            "state": self.state,
            "expected": self.expected_json(),
            "events": [e.to_json() for e in self.events],
            "over": self.over,
            "result": self.result.to_json() if self.result else None,
            "players": list(self.players),
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "undo_text": self.undo_text,
            "undo_events": [e.to_json() for e in self.undo_events],
            "setup": self.setup,
            "command": self.command.to_json() if self.command else None,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One line of a game's history, in the order it happened.

    A long game keeps thousands of entries, so an entry keeps little: its
    text is made when asked for, and its events are kept as compact JSON
    text (less than half the memory of the events themselves), read back
    when asked for.
    """

    seq: int
    version: int
    action: Action
    command: Command | None
    events_json: str
    at: float
    source: str
    # For an undo: the events of the command it took back (the text the
    # command's own entry keeps, shared, not copied).
    undid_json: str = "[]"

    @classmethod
    def of(cls, seq: int, version: int, action: Action, command: Command | None,
           events: Sequence[Event], at: float, source: str,
           undid_json: str = "[]") -> HistoryEntry:
        return cls(seq, version, action, command, _compact([e.to_json() for e in events]),
                   at, source, undid_json)

    @property
    def undid(self) -> tuple[Event, ...]:
        return tuple(Event.from_json(e) for e in json.loads(self.undid_json))

    @property
    def said(self) -> str:
        """The entry as people say it: the events' sentences ("Dee plays 6:
        Pressure 32"), an undo naming what it took back."""
        if self.action == Action.UNDO:
            return f"Undone: {said(self.undid, self.command)}"
        if self.action == Action.REDO:
            return f"Redone: {said(self.events, self.command)}"
        return said(self.events, self.command)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(Event.from_json(e) for e in json.loads(self.events_json))

    @property
    def text(self) -> str:
        said = self.command.text() if self.command else ""
        return said if self.action == Action.COMMAND else f"{self.action} {said}".strip()

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "version": self.version,
            "action": self.action,
            "command": self.command.to_json() if self.command else None,
            "text": self.text,
            "said": self.said,
            "events": json.loads(self.events_json),
            "undid": json.loads(self.undid_json),
            "at": self.at,
            "source": self.source,
        }

    def json_text(self) -> str:
        """``to_json()`` as compact JSON text, made without decoding the
        events: a history of thousands of entries is sent without building
        them all as objects first."""
        head = _compact({"seq": self.seq, "version": self.version, "action": self.action,
                         "command": self.command.to_json() if self.command else None,
                         "text": self.text, "said": self.said})
        tail = _compact({"at": self.at, "source": self.source})
        return (f'{head[:-1]},"events":{self.events_json},"undid":{self.undid_json},'
                f'{tail[1:]}')


# The state before a command is kept for one command in this many (live or
# replayed); undo rebuilds the others from the nearest one kept (engines are
# pure, so playing the commands again gives the same state).
SNAPSHOT_EVERY = 32


@dataclass(frozen=True)
class Preview:
    """What a command would do, played on a copy of the game: its events
    and the table as it would then be.  Nothing is written or told."""

    game_id: int
    version: int
    command: Command
    events: tuple[Event, ...]
    state: dict[str, Any]
    expected: tuple[Expectation, ...]
    over: bool
    result: Result | None

    @property
    def text(self) -> str:
        """The events' sentences, the way a person says them."""
        return said(self.events, self.command)

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "version": self.version,
            "command": self.command.to_json(),
            "events": [e.to_json() for e in self.events],
            "text": self.text,
            "state": self.state,
            "expected": [e.to_json() for e in self.expected],
            "over": self.over,
            "result": self.result.to_json() if self.result else None,
        }


def said(events: Sequence[Event], command: Command | None) -> str:
    """A change as people say it: its events' sentences, or, for a command
    that made none, the command's name and values ("card 6")."""
    if events:
        return " · ".join(e.message for e in events)
    if command is None:
        return ""
    values = " ".join(
        " ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
        for key, value in command.args.items() if key != "player")
    return f"{command.name.replace('-', ' ')} {values}".strip()


@dataclass(slots=True)
class _Done:
    """A command in effect, and the state before it (``None`` unless it is
    one of the commands whose state is kept) so that undo restores it.
    ``events_json`` is the text its history entry keeps (the same string,
    not a copy): what undo says it takes back."""

    before: str | None
    command: Command
    events_json: str = "[]"


@dataclass
class _Session:
    """The game being played and everything needed to undo and redo it."""

    game_id: int
    game: Game
    started: float
    version: int = 0
    over: bool = False  # as the journal has it
    done: list[_Done] = field(default_factory=list)
    undone: list[Command] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)


class Table:
    """Owns the current game and the journal; see the module docstring."""

    def __init__(self, journal: Journal, *, clock: Callable[[], float] = time.time) -> None:
        self._journal = journal
        self._clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._session: _Session | None = None
        self._settings_listeners: list[SettingsListener] = []
        self._settings = self._read_settings()
        # What the listeners are still to be told, in the order it happened
        # (appended inside the lock, told outside it: see _tell).
        self._untold: deque[Callable[[], None]] = deque()
        self._telling = threading.Lock()
        # The finished games summed up, loaded from the journal at the first
        # statistics and kept up to date by the games that end (or take
        # their end back) meanwhile: see stats().
        self._archive = threading.Lock()
        self._played: dict[int, Played] | None = None
        self._ended: deque[tuple[int, Played | None]] = deque()
        self._computed: dict[str, Any] | None = None
        self._replay()

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
            return self._update("current", ())

    def history(self, game_id: int | None = None) -> list[HistoryEntry]:
        """The history of the current game, or of a past one by its id
        (replayed from the journal, so a finished game can be looked back on)."""
        with self._lock:
            if game_id is None:
                return list(self._require().history)
            session = self._session
            if session is None or session.game_id != game_id:
                row = self._journal.game(game_id)
                if row is None:
                    raise NoGame("refusal.no-such-game", number=game_id)
                session = self._load(row)
            return list(session.history)

    def undo_preview(self) -> str | None:
        """What undo would take back, as a sentence (``None``: nothing)."""
        with self._lock:
            session = self._require()
            return _undo_said(session)[0]

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
            self._check(session, expected_game, expected_version)
            self._check_seat(session, command, seat)
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
            session = self._require()
            return sum(done.before is not None for done in session.done)

    def games(self) -> list[dict[str, Any]]:
        """Every game of the journal, read without the table's lock."""
        return [_game_summary(row) for row in self._journal.games()]

    def stats(self) -> dict[str, Any]:
        """Statistics over every finished game in the journal, per game:
        games and wins per player, win rate, streaks, records, head to
        head (see :func:`companion.core.stats.compute`), from the summaries
        the journal keeps of finished games.  Read without the table's lock:
        a command played meanwhile waits for no statistic.  They are
        computed again only when a game has ended (or its end was taken
        back) since; the answer is shared: do not change it."""
        with self._archive:
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
        summaries were kept (each is replayed, outside the table's lock);
        returns how many.  The companion runs it after its start; the first
        statistics run it too, if it has not finished."""
        rows = self._journal.unsummarised()
        for row in rows:
            self._journal.put_summary(row.id, self._summarise_row(row).to_json())
        return len(rows)

    def _summarise_row(self, row: GameRow) -> Played:
        try:
            history = self._load(row).history
        except ForeignDatabase:
            log.warning("game %s does not replay: counted without its record", row.id)
            history = []
        groups = in_effect((entry.action, entry.events) for entry in history)
        return summarise(row.id, row.game, row.setup, row.result, row.started,
                         row.ended, groups)

    # -- saved setup options -------------------------------------------------

    def saved_options(self, key: str) -> dict[str, Any]:
        """The setup options kept for every new game of ``key`` (a game's
        key or alias), as :meth:`save_option` left them."""
        cls = game_class(key)
        with self._lock:
            return self._journal.saved_options(cls.key)

    def save_option(self, key: str, name: str, value: Any) -> None:
        """Keep ``value`` as the setup option ``name`` of every new game of
        ``key`` unless its setup gives another (``None`` forgets it).  The
        value is checked as the game checks it at setup (on a table of the
        fewest players), so a bad one raises :class:`BadSetup` and nothing
        is kept.  The game being played keeps the setup it started with."""
        cls = game_class(key)
        declared: Mapping[str, Any] = getattr(cls, "options", {})
        if name not in declared:
            raise BadSetup("refusal.no-such-option", title=cls.title, name=repr(name),
                           options=", ".join(sorted(declared)) if declared else Word(
                               "refusal.none"))
        if value is not None:
            players = tuple(f"Player {n}" for n in range(1, cls.min_players + 1))
            cls.check_setup(Setup(players, frozenset(), {name: value}))
        with self._lock:
            self._journal.save_option(cls.key, name, value)

    # -- the table's settings ------------------------------------------------

    def settings(self) -> Settings:
        """The table's settings now (see :class:`Settings`).  Read without
        the lock (one immutable value, replaced whole): every page and live
        stream asks, and none waits for a command being played."""
        return self._settings

    def change_setting(self, name: str, value: Any) -> Settings:
        """Set one of the table's settings (``None``: back to its default),
        keep it in the journal and tell the settings' listeners.  A setting
        that does not exist, or a value it does not take, raises
        :class:`BadSetting` and nothing changes."""
        if name not in SETTINGS:
            raise BadSetting(f"the table has no setting {name!r}; its settings are: "
                             f"{', '.join(SETTINGS)}")
        checked = _setting_value(name, value)
        with self._changing():
            self._journal.save_option(TABLE_SETTINGS, name, checked)
            now = {**self._settings.to_json(), name: checked}
            self._settings = Settings(seat_only=bool(now["seat_only"]),
                                      language=now["language"])
            settings = self._settings
            self._later(self._settings_listeners, settings)
            return settings

    def subscribe_settings(self, listener: SettingsListener) -> Callable[[], None]:
        """Call ``listener(settings)`` after every change of the table's
        settings, outside the table's lock, in order."""
        with self._lock:
            self._settings_listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._settings_listeners:
                    self._settings_listeners.remove(listener)

        return unsubscribe

    def _read_settings(self) -> Settings:
        kept = self._journal.saved_options(TABLE_SETTINGS)
        values: dict[str, Any] = {}
        for name, value in kept.items():
            try:
                values[name] = _setting_value(name, value) if name in SETTINGS else None
            except BadSetting:
                log.warning("the journal's table setting %s=%r is not one the table "
                            "takes; its default is used", name, value)
        return Settings(seat_only=bool(values.get("seat_only") or False),
                        language=values.get("language"))

    # -- listeners -----------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(update)`` after every change, once the change is
        in the journal and the table's lock released: a slow listener holds
        back no input.  Listeners are told every change in the order it
        happened, one change at a time."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    @contextmanager
    def _changing(self) -> Iterator[None]:
        """Hold the lock for a change, then tell the listeners what it did."""
        try:
            with self._lock:
                yield
        finally:
            self._tell()

    def _later(self, listeners: Sequence[Callable[[Any], object]], value: Any) -> None:
        """Queue ``value`` for ``listeners`` (called inside the lock)."""
        chosen = list(listeners)

        def tell() -> None:
            for listener in chosen:
                try:
                    listener(value)
                except Exception:  # a listener must never break the table
                    log.exception("table listener %r failed; the table goes on", listener)

        self._untold.append(tell)

    def _tell(self) -> None:
        """Tell the listeners what is queued, outside the lock.  One thread
        tells at a time, in order; a thread that finds another telling
        leaves its change to it and returns, so no input waits for a
        listener of another's change."""
        while self._untold:
            if not self._telling.acquire(blocking=False):
                return  # the thread telling takes this change too (see below)
            try:
                while self._untold:
                    self._untold.popleft()()
            finally:
                self._telling.release()
            # A change queued while this thread told, whose thread found the
            # telling taken, is told by the loop's next turn.

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
        journal as abandoned).

        ``expected_game`` is the game the request was made against: ``None``
        when it saw no game at the table, ``ANY_GAME`` to start one whatever
        is current; with ``expected_version`` too, the game must also be at
        that version.  Two phones that tap "Play again" on the same game
        thus start one game: the second is refused (:class:`StaleVersion`).
        """
        cls = game_class(key)
        with self._lock:
            saved = self._journal.saved_options(cls.key)
        # The options a table saved (its box) unless the setup says otherwise;
        # the journal keeps the setup as played, so a replay needs no saved option.
        setup = Setup(tuple(" ".join(str(p).split()) for p in players),
                      frozenset(variants), {**saved, **dict(options or {})})
        game = cls(setup)  # raises BadSetup before anything is written
        with self._changing():
            self._check(self._session, expected_game, expected_version)
            started = self._clock()
            game_id = self._journal.create_game(cls.key, setup.to_json(), started)
            self._session = _Session(game_id, game, started)
            update = self._update("new", ())
            self._later(self._listeners, update)
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
            self._check(session, expected_game, expected_version)
            self._check_seat(session, command, seat)
            events, before = self._apply(session, command)
            try:
                self._write(session, "command", command, source, events)
            except BaseException:
                session.done.pop()
                session.game = type(session.game).loads(_live(before))
                raise
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
            self._check(session, expected_game, expected_version)
            if not session.done:
                raise NothingToUndo("refusal.nothing-to-undo")
            game_before = session.game
            done = self._undo(session)
            try:
                self._write(session, "undo", None, source, ())
            except BaseException:
                session.undone.pop()
                session.done.append(done)
                session.game = game_before
                raise
            return self._changed(session, "undo", done.command, (), source,
                                 undid_json=done.events_json)

    def redo(self, *, expected_game: ExpectedGame = ANY_GAME,
             expected_version: int | None = None, source: str = "") -> Update:
        with self._changing():
            session = self._require()
            self._check(session, expected_game, expected_version)
            if not session.undone:
                raise NothingToRedo("refusal.nothing-to-redo")
            command, events, before = self._redo(session)
            try:
                self._write(session, "redo", None, source, events)
            except BaseException:
                session.done.pop()
                session.game = type(session.game).loads(_live(before))
                session.undone.append(command)
                raise
            return self._changed(session, "redo", command, events, source)

    def close(self) -> None:
        with self._lock:
            self._journal.close()

    # -- internals -----------------------------------------------------------

    def _require(self) -> _Session:
        if self._session is None:
            raise NoGame("refusal.no-game")
        return self._session

    @staticmethod
    def _check(session: _Session | None, game: ExpectedGame,
               version: int | None) -> None:
        """Refuse a change made against another game or version than the
        current one (called inside the lock)."""
        current_game = None if session is None else session.game_id
        current = None if session is None else session.version
        if game is ANY_GAME:
            if version is not None and version != current:
                if session is None:
                    raise NoGame("refusal.no-game")
                raise StaleVersion(version, current)
            return
        if game != current_game or (version is not None and game is not None
                                    and version != current):
            raise StaleVersion(version, current, expected_game=game,
                               current_game=current_game)

    def _check_seat(self, session: _Session, command: Command, seat: Seat) -> None:
        """With ``seat_only`` on, refuse a phone's command that plays
        another seat's turn (called inside the lock, before the command is
        applied; a command the game refuses anyway is left to the game)."""
        if seat is ANY_SEAT or not self._settings.seat_only:
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

    @staticmethod
    def _apply(session: _Session, command: Command, *,
               replaying: bool = False) -> tuple[list[Event], str | None]:
        """Apply ``command`` and push it on the done stack.  Returns its
        events and, when live, the state before it (to take it back if the
        journal refuses it); the state is kept on the stack for one command
        in ``SNAPSHOT_EVERY`` only."""
        game = session.game
        keep = len(session.done) % SNAPSHOT_EVERY == 0
        before = game.dumps() if keep or not replaying else None
        try:
            events = game.apply(command)
        except BaseException:
            # An engine promises to change nothing when it refuses; the
            # snapshot makes sure of it.  (A replay that fails is abandoned.)
            if before is not None:
                session.game = type(game).loads(before)
            raise
        session.done.append(_Done(before if keep else None, command))
        return events, before

    def _undo(self, session: _Session) -> _Done:
        done = session.done.pop()
        session.game = self._state_before(session, done)
        session.undone.append(done.command)
        return done

    @staticmethod
    def _state_before(session: _Session, done: _Done) -> Game:
        """The state before ``done``, the command just taken off the top."""
        cls = type(session.game)
        if done.before is not None:
            return cls.loads(done.before)
        top = len(session.done)
        # The nearest state kept below (the first command's always is).
        kept = top - 1
        while session.done[kept].before is None:
            kept -= 1
        game = cls.loads(_snapshot(session.done[kept]))
        for earlier in session.done[kept:top]:
            game.apply(earlier.command)
        return game

    def _redo(self, session: _Session, *,
              replaying: bool = False) -> tuple[Command, list[Event], str | None]:
        command = session.undone.pop()
        events, before = self._apply(session, command, replaying=replaying)
        return command, events, before

    def _write(self, session: _Session, action: str, command: Command | None,
               source: str, events: Sequence[Event]) -> None:
        """Journal a change already made in memory (the caller takes it back
        if this raises, so memory never runs ahead of disk); a change that
        ends the game writes the game's summary with it."""
        game = session.game
        result = game.result()
        at = self._clock()
        summary = None
        if game.over:
            history = [(entry.action.value, entry.events) for entry in session.history]
            groups = in_effect([*history, (action, events)])
            summary = summarise(session.game_id, game.key, game.setup.to_json(),
                                result.to_json() if result else None, session.started,
                                at, groups)
        was_over = session.over
        self._journal.append(
            session.game_id,
            session.version + 1,
            action,
            command.to_json() if command else None,
            source,
            at,
            over=game.over,
            result=result.to_json() if result else None,
            summary=None if summary is None else summary.to_json(),
        )
        session.over = game.over
        if summary is not None or was_over:
            self._ended.append((session.game_id, summary))

    def _changed(self, session: _Session, action: str, command: Command | None,
                 events: Sequence[Event], source: str, *, undid_json: str = "[]") -> Update:
        session.version += 1
        entry = HistoryEntry.of(
            seq=len(session.history) + 1,
            version=session.version,
            action=Action(action),
            command=command,
            events=events,
            at=self._clock(),
            source=source,
            undid_json=undid_json,
        )
        session.history.append(entry)
        if action != "undo":
            session.done[-1].events_json = entry.events_json
        update = self._update(action, events, command, source)
        self._later(self._listeners, update)
        return update

    def _update(self, action: str, events: Sequence[Event], command: Command | None = None,
                source: str = "") -> Update:
        return _update_of(self._require(), action, events, command, source)

    def past(self, game_id: int) -> tuple[Update, list[HistoryEntry]]:
        """A game of the journal as it stands (the current one, or a past
        one replayed) and its history: a finished game opens to its end,
        its chart and its story."""
        with self._lock:
            session = self._session
            if session is None or session.game_id != game_id:
                row = self._journal.game(game_id)
                if row is None:
                    raise NoGame("refusal.no-such-game", number=game_id)
                session = self._load(row)
            return _update_of(session, "current", ()), list(session.history)

    def _replay(self) -> None:
        """Rebuild the latest game from the journal and make it current."""
        row = self._journal.latest_game()
        if row is not None:
            self._session = self._load(row)

    def _load(self, row: GameRow) -> _Session:
        """Rebuild a game from the journal, entry by entry."""
        try:
            cls = game_class(row.game)
            game = cls(Setup.from_json(row.setup))
        except CompanionError as exc:
            raise ForeignDatabase(
                f"game {row.id} in {self._journal.path} cannot be set up again: {exc}"
            ) from exc
        session = _Session(row.id, game, row.started)
        for entry in self._journal.entries(row.id):
            try:
                undid_json = "[]"
                if entry.action == "command":
                    command = Command.from_json(entry.command or {})
                    events, _ = self._apply(session, command, replaying=True)
                    session.undone.clear()
                elif entry.action == "undo":
                    taken = self._undo(session)
                    command, events, undid_json = taken.command, [], taken.events_json
                else:
                    command, events, _ = self._redo(session, replaying=True)
            except (IllegalCommand, IndexError) as exc:
                raise ForeignDatabase(
                    f"journal entry {entry.seq} of game {row.id} does not replay "
                    f"({exc}); the journal was changed outside the companion"
                ) from exc
            session.version = entry.version
            kept = HistoryEntry.of(
                seq=len(session.history) + 1,
                version=entry.version,
                action=Action(entry.action),
                command=command,
                events=events,
                at=entry.at,
                source=entry.source,
                undid_json=undid_json,
            )
            session.history.append(kept)
            if entry.action != "undo":
                session.done[-1].events_json = kept.events_json
        session.over = session.game.over
        return session


def _update_of(session: _Session, action: str, events: Sequence[Event],
                command: Command | None = None, source: str = "") -> Update:
    game = session.game
    undo_text, undo_events = _undo_said(session)
    return Update(
        game_id=session.game_id,
        game_key=game.key,
        title=game.title,
        version=session.version,
        action=Action(action),
        state=game.view(),
        expected=tuple(game.expected()),
        events=tuple(events),
        over=game.over,
        result=game.result(),
        players=game.players,
        can_undo=bool(session.done),
        can_redo=bool(session.undone),
        undo_text=undo_text,
        undo_events=undo_events,
        setup=game.setup.to_json(),
        command=command,
        source=source,
        prompts=_prompts(game),
    )


# The languages a game may say its prompts in, besides English.
OTHER_LANGUAGES = ("fr", "it")


def _prompts(game: Game) -> dict[str, tuple[str, ...]]:
    """The game's prompts in the other languages (none for a game whose
    prompts are English only)."""
    out: dict[str, tuple[str, ...]] = {}
    for lang in OTHER_LANGUAGES:
        said = game.prompts_in(lang)
        if said is None:
            return {}
        out[lang] = tuple(said)
    return out


def _undo_said(session: _Session) -> tuple[str | None, tuple[Event, ...]]:
    """What undo would take back: a sentence and the events it comes from."""
    if not session.done:
        return None, ()
    done = session.done[-1]
    events = tuple(Event.from_json(e) for e in json.loads(done.events_json))
    return said(events, done.command), events


def _setting_value(name: str, value: Any) -> Any:
    """``value`` as setting ``name`` takes it, or :class:`BadSetting`."""
    if value is None:
        return None
    if name == "seat_only" and isinstance(value, bool):
        return value
    if name == "language" and isinstance(value, str) and value in LANGUAGES:
        return value
    raise BadSetting(f"the table's setting {name!r} takes {SETTINGS[name]}, not {value!r}")


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _live(before: str | None) -> str:
    """The state before a live command, which ``_apply`` always makes."""
    if before is None:
        raise AssertionError("a live command was applied without the state before it")
    return before


def _snapshot(done: _Done) -> str:
    """The state before ``done``, which the caller knows was kept."""
    if done.before is None:
        raise AssertionError(f"no snapshot was kept before {done.command.text()!r}")
    return done.before


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
