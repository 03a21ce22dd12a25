"""What a change of the table gives back: an :class:`Update` for the
listeners, the panel and the screens, a :class:`HistoryEntry` for the
game's story, a :class:`Preview` for a command not played yet."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Mapping, Sequence

from .engine import Command, Event, Expectation, Result


class Action(StrEnum):
    """What an :class:`Update` (or a line of history) is: a new game, a
    command played, undone or redone, or the table as it is (``current``)."""

    NEW = "new"
    COMMAND = "command"
    UNDO = "undo"
    REDO = "redo"
    CURRENT = "current"


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
    # For an undo: the events of the command it took back (the caller says them).
    undid: tuple[Event, ...] = ()

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
        return cls(seq, version, action, command, compact([e.to_json() for e in events]),
                   at, source, undid_json)

    @property
    def undid(self) -> tuple[Event, ...]:
        return tuple(Event.from_json(e) for e in json.loads(self.undid_json))

    @property
    def said(self) -> str:
        """The entry as people say it: the events' sentences ("Dee plays 6:
        Pressure 32"), an undo naming what it took back."""
        if self.action == Action.UNDO:
            return f"Undone: {change_text(self.undid, self.command)}"
        if self.action == Action.REDO:
            return f"Redone: {change_text(self.events, self.command)}"
        return change_text(self.events, self.command)

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
        head = compact({"seq": self.seq, "version": self.version, "action": self.action,
                         "command": self.command.to_json() if self.command else None,
                         "text": self.text, "said": self.said})
        tail = compact({"at": self.at, "source": self.source})
        return (f'{head[:-1]},"events":{self.events_json},"undid":{self.undid_json},'
                f'{tail[1:]}')


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
        return change_text(self.events, self.command)

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


def change_text(events: Sequence[Event], command: Command | None) -> str:
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


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
