"""A game in play, with everything needed to undo and redo it, and its
replay from the journal.

Undo works by snapshot: the state before one command in ``SNAPSHOT_EVERY``
is kept as text, and the state before any other is rebuilt from the nearest
one kept by playing the commands again (engines are pure), so memory does not
grow with a snapshot per command.  Redo re-applies the command.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Sequence

from .engine import Command, Event, Game, Setup
from .errors import CompanionError, ForeignDatabase, IllegalCommand
from .games import game_class
from .journal import GameRow, Journal
from .text import LANGUAGES
from .updates import Action, HistoryEntry, Update, change_text

# The state before a command is kept for one command in this many (live or
# replayed); undo rebuilds the others from the nearest one kept (engines are
# pure, so playing the commands again gives the same state).
SNAPSHOT_EVERY = 32


@dataclass(slots=True)
class Done:
    """A command in effect, and the state before it (``None`` unless it is
    one of the commands whose state is kept) so that undo restores it.
    ``events_json`` is the text its history entry keeps (the same string,
    not a copy): what undo says it takes back."""

    before: str | None
    command: Command
    events_json: str = "[]"


@dataclass
class Session:
    """The game being played and everything needed to undo and redo it."""

    game_id: int
    game: Game
    started: float
    version: int = 0
    over: bool = False  # as the journal has it
    done: list[Done] = field(default_factory=list)
    undone: list[Command] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)


def apply(session: Session, command: Command, *,
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
    session.done.append(Done(before if keep else None, command))
    return events, before


def undo(session: Session) -> Done:
    """Take the last command in effect back."""
    done = session.done.pop()
    session.game = _state_before(session, done)
    session.undone.append(done.command)
    return done


def redo(session: Session, *, replaying: bool = False) -> tuple[Command, list[Event], str | None]:
    """Play the last command taken back again."""
    command = session.undone.pop()
    events, before = apply(session, command, replaying=replaying)
    return command, events, before


def _state_before(session: Session, done: Done) -> Game:
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


def replay(journal: Journal, row: GameRow) -> Session:
    """Rebuild a game from the journal, entry by entry."""
    try:
        cls = game_class(row.game)
        game = cls(Setup.from_json(row.setup))
    except CompanionError as exc:
        raise ForeignDatabase(
            f"game {row.id} in {journal.path} cannot be set up again: {exc}"
        ) from exc
    session = Session(row.id, game, row.started)
    for entry in journal.entries(row.id):
        try:
            undid_json = "[]"
            if entry.action == "command":
                command = Command.from_json(entry.command or {})
                events, _ = apply(session, command, replaying=True)
                session.undone.clear()
            elif entry.action == "undo":
                taken = undo(session)
                command, events, undid_json = taken.command, [], taken.events_json
            else:
                command, events, _ = redo(session, replaying=True)
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


def update_of(session: Session, action: str, events: Sequence[Event],
              command: Command | None = None, source: str = "",
              undid: tuple[Event, ...] = ()) -> Update:
    """The table's answer for ``session`` after a change (``action``;
    ``undid``: the events an undo took back)."""
    game = session.game
    undo_text, undo_events = undo_said(session)
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
        prompts=prompts(game),
        undid=undid,
    )


# The languages a game may say its prompts in, besides English.
OTHER_LANGUAGES = tuple(lang for lang in LANGUAGES if lang != "en")


def prompts(game: Game) -> dict[str, tuple[str, ...]]:
    """The game's prompts in the other languages (none for a game whose
    prompts are English only)."""
    out: dict[str, tuple[str, ...]] = {}
    for lang in OTHER_LANGUAGES:
        said = game.prompts_in(lang)
        if said is None:
            return {}
        out[lang] = tuple(said)
    return out


def undo_said(session: Session) -> tuple[str | None, tuple[Event, ...]]:
    """What undo would take back: a sentence and the events it comes from."""
    if not session.done:
        return None, ()
    done = session.done[-1]
    events = tuple(Event.from_json(e) for e in json.loads(done.events_json))
    return change_text(events, done.command), events


def live(before: str | None) -> str:
    """The state before a live command, which :func:`apply` always makes."""
    if before is None:
        raise AssertionError("a live command was applied without the state before it")
    return before


def _snapshot(done: Done) -> str:
    """The state before ``done``, which the caller knows was kept."""
    if done.before is None:
        raise AssertionError(f"no snapshot was kept before {done.command.text()!r}")
    return done.before
