"""The game's section of the menu: undo, redo, everything the game accepts
now, the corrections, and a command being entered then sent.

What is entered for one command is an :class:`~companion.core.menu.entry.Entry`;
this module decides when one opens, what its keys do, and what happens
once it is complete.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from ..engine import Command, CommandSpec, Expectation, Game, Param
from ..errors import BadSetup, IllegalCommand, NoGame
from ..games import game_class
from ..ports import TablePort
from ..table import Update
from ..text import DEFAULT_LANGUAGE, event_sentence
from .entry import EDITING, Blocked, Entry, EntryReads
from .levels import Choice, Confirm, Level, ListLevel
from .state import MenuState
from .view import MenuView


class Entering(Level):
    """A command being entered, on screen: UP and DOWN change the value,
    OK keeps it, BACK goes back one value."""

    def __init__(self, section: GameSection, entry: Entry) -> None:
        self.section, self.entry = section, entry

    def still_valid(self, update: Update) -> bool:
        return self.entry.still_valid(update)

    def view(self) -> MenuView:
        return self.entry.view(self.section.state.players())

    def on_key(self, key: str, kind: str) -> bool:
        entry, state = self.entry, self.section.state
        if key in ("up", "down"):
            entry.step(1 if key == "up" else -1, state.fast)
            return True
        if key == "roll":
            return False
        if key == "back":
            if not entry.back():
                state.remove(self)
            return True
        if not entry.enter():
            return True
        if not self.section.open_next(self):
            # The message is shown over the entry, which waits as it was.
            entry.return_die()
        return True

    def uncovered(self) -> None:
        self.entry.reopen()


class GameSection:
    """Undo, redo, the actions and the corrections of the game on screen."""

    def __init__(self, state: MenuState) -> None:
        self.state = state

    def choices(self) -> list[Choice]:
        if self.state.update is None:
            return []
        t = self.state.t
        return [
            Choice(t("undo"), self._ask_undo),
            Choice(t("redo"), self._redo),
            Choice(t("actions"), self.open_actions),
            Choice(t("corrections"), self._open_corrections),
        ]

    # -- undo and redo -------------------------------------------------------------

    def _ask_undo(self) -> None:
        state, t = self.state, self.state.t
        update = state.shown()
        if not update.can_undo:
            state.say(t("undo"), t("nothing-to-undo"))
            return
        state.push(Confirm(state, t("undo"), t("undo-what", what=self._undo_words(update)),
                           self._undo, update.version))

    def _undo_words(self, update: Update) -> str | None:
        """What undo would take back, its events said in the table's
        language (the history's text is English)."""
        lang = self.state.language
        if lang == DEFAULT_LANGUAGE or not update.undo_events:
            return update.undo_text
        try:
            cls = game_class(update.game_key)
        except BadSetup:
            return update.undo_text
        tell = getattr(cls, "event_text", None)
        sentences = []
        for event in update.undo_events:
            if callable(tell):
                sentences.append(str(tell(event, lang)))
            else:
                sentences.append(event_sentence(event.kind, event.message, event.data, lang,
                                                update.game_key, update.players))
        return " · ".join(sentences)

    def _undo(self) -> None:
        self.state.clear()
        self.state.call_table(self.state.table.undo)

    def _redo(self) -> None:
        state = self.state
        if not state.shown().can_redo:
            state.say(state.t("redo"), state.t("nothing-to-redo"))
            return
        state.clear()
        state.call_table(state.table.redo)

    # -- the actions and the corrections ------------------------------------------

    def open_actions(self) -> ListLevel:
        """Everything the game accepts now, then the corrections."""
        state = self.state
        update = state.shown()
        choices = []
        for expectation in update.expected:
            label = state.prompt(update, expectation)
            if label.partition(" ")[0].rstrip(":") == expectation.command:
                # A prompt written as the command's words: its name reads better.
                label = state.command_label(update.game_key, expectation.command)
            choices.append(Choice(label, partial(self.answer, expectation, chosen=True)))
        choices.append(Choice(state.t("corrections"), self._open_corrections))
        actions = ListLevel(state, state.t("actions"), choices, version=update.version)
        state.push(actions)
        return actions

    def _open_corrections(self) -> None:
        state = self.state
        update = state.shown()
        key = update.game_key
        choices = [Choice(state.command_label(key, spec.name), partial(self._correct, spec))
                   for spec in game_class(key).commands if spec.correction]
        if not choices:
            state.say(state.t("corrections"), state.t("no-corrections", title=update.title))
            return
        state.push(ListLevel(state, state.t("corrections"), choices))

    # -- entering a command ----------------------------------------------------------

    def answer(self, expectation: Expectation, chosen: bool) -> None:
        entry = self.entry_for(expectation, chosen)
        if entry is None:
            state = self.state
            state.say(state.t("not-here"), state.t("not-a-command", command=expectation.command,
                                                   title=state.shown().title))
            return
        self.start(entry)

    def _correct(self, spec: CommandSpec) -> None:
        entry = self.entry_for(None, chosen=True, spec=spec)
        if entry is not None:
            self.start(entry)

    def entry_for(self, expectation: Expectation | None, chosen: bool,
                  spec: CommandSpec | None = None) -> Entry | None:
        update = self.state.shown()
        if spec is None:
            if expectation is None:
                return None
            try:
                spec = game_class(update.game_key).spec(expectation.command)
            except (IllegalCommand, BadSetup):
                return None
        hint = self.state.hint(update.game_key, spec.name)
        return Entry.build(spec, expectation, hint, update.expected, chosen,
                           self.state.names(update.game_key))

    def start(self, entry: Entry) -> Entering:
        """Put the entry on screen at its first parameter, or go straight to
        sending it when there is nothing to enter."""
        level = Entering(self, entry)
        self.state.push(level)
        if not self.open_next(level):
            self.state.remove(level)
        return level

    def open_next(self, level: Entering) -> bool:
        """Open the entry's next parameter, or send the command once all are
        entered; False when the parameter cannot be entered here, and a
        message says why."""
        entry, state = level.entry, self.state
        outcome = entry.open_next(self._reads())
        if isinstance(outcome, Blocked):
            state.say(outcome.title, outcome.text)
            return False
        if outcome == EDITING:
            return True
        if not entry.entered:
            # Nothing was entered: there is nothing to go back to either.
            state.remove(level)
        self._finish(entry)
        return True

    def _reads(self) -> EntryReads:
        update = self.state.shown()
        game = game_of(self.state.table)
        param_range: Callable[[Param], tuple[int | None, int | None]] = _spec_range
        if game is not None and game.key == update.game_key:
            param_range = game.param_range
        return EntryReads(update, self.state.dice_source, param_range)

    def _finish(self, entry: Entry) -> None:
        """All is entered: send the command, or ask first."""
        state = self.state
        players = state.shown().players
        command = entry.command(players)
        confirm = entry.hint.confirm
        if confirm is None:
            confirm = entry.spec.correction or not (entry.entered or entry.chosen)
        if not confirm:
            self.send(command)
            return
        version = state.version if entry.expectation is not None else None
        state.push(Confirm(state, entry.label, entry.question(players),
                           partial(self.send, command), version))

    def send(self, command: Command) -> None:
        self.state.clear()
        self.state.call_table(self.state.table.submit, command)


def game_of(table: TablePort) -> Game | None:
    try:
        return table.game
    except NoGame:
        return None


def _spec_range(param: Param) -> tuple[int | None, int | None]:
    return param.low, param.high
