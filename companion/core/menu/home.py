"""The game screen: the level under every other, never put away.

It shows the game and the first thing it waits for.  UP or DOWN starts
answering it (or browses the actions when there is nothing to enter), OK
starts it at its starting value, ROLL enters a roll by hand with the
``manual`` dice source, BACK opens the main menu.  While what the game waits
for first is answered by keys (a hint's ``keys``), its answers stand beside
the keys instead.  With no game (or a game over), UP or DOWN shows the QR
code and OK opens the New game menu.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from ..engine import Command, Expectation
from ..hints import KEY_ROWS, CommandHint, Context, Pick, PickGroup
from ..table import Update
from .game import GameSection
from .levels import Choice, Confirm, KeysLevel, Level, ListLevel
from .state import MenuState
from .view import MenuView, ViewKind

# What a hint's ``keys`` may raise on a view it does not fit: the usual
# entry instead.
_UNFIT = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _heading(hint: CommandHint, context: Context, prompt: str) -> str:
    """What the answers beside the keys answer: the hint's title, else the
    game's prompt."""
    if hint.keys_title is None:
        return prompt
    try:
        return hint.keys_title(context)
    except _UNFIT:
        return prompt


class GameScreen(Level):
    """The game on screen, under the menu's levels."""

    def __init__(self, state: MenuState, game: GameSection, open_join: Callable[[], None],
                 open_new_game: Callable[[], None]) -> None:
        self.state, self.game = state, game
        self._open_join, self._open_new_game = open_join, open_new_game

    def uses_roll(self) -> bool:
        return self.keys() is not None

    def view(self) -> MenuView:
        keys = self.keys()
        if keys is not None:
            return keys.view()
        state, update = self.state, self.state.update
        if update is None:
            # Home: the PIN in sight, and UP for the QR code.
            join_info = state.services.join_info
            url, pin = join_info() if join_info is not None else ("", "")
            return MenuView(ViewKind.GAME, state.t("home"), footer=state.t("no-game"),
                            url=url, pin=pin)
        if update.over:
            footer = update.result.message if update.result else state.t("game-over")
        elif update.expected:
            first = update.expected[0]
            footer = state.prompt(update, first)
            if first.dice is not None and state.dice_source != "manual":
                footer = f"ROLL: {footer}"
        else:
            footer = ""
        return MenuView(ViewKind.GAME, update.title, footer=footer)

    def on_key(self, key: str, kind: str) -> bool:
        keys = self.keys()
        if keys is not None:
            return keys.on_key(key, kind)
        state, update = self.state, self.state.update
        if key == "back":
            state.open_main_menu()
            state.back_opened = True
            return True
        if update is None or update.over:
            return self._no_game_key(key)
        if key == "roll":
            return self._roll_by_hand(update)
        if not update.expected:
            return False
        if key == "ok":
            self.game.answer(update.expected[0], chosen=False)
            state.ok_opened = True
            return True
        self._start_stepping(update.expected[0], 1 if key == "up" else -1)
        return True

    def _no_game_key(self, key: str) -> bool:
        if key in ("up", "down") and self.state.services.join_info is not None:
            self._open_join()  # one key from home to the QR code
            return True
        if key != "ok":
            return False
        self._open_new_game()
        return True

    def _roll_by_hand(self, update: Update) -> bool:
        rolls = [e for e in update.expected if e.dice is not None]
        if self.state.dice_source != "manual" or not rolls:
            return False
        self.game.answer(rolls[0], chosen=False)
        return True

    def _start_stepping(self, first: Expectation, delta: int) -> None:
        entry = self.game.entry_for(first, chosen=False)
        if entry is None or not entry.params:
            # Nothing to enter for the first action: UP and DOWN browse them all.
            self.game.open_actions().step(delta)
            return
        level = self.game.start(entry)
        if self.state.top is level:
            entry.step(delta, self.state.fast)

    # -- answers beside the keys --------------------------------------------------

    def keys(self) -> KeysLevel | None:
        """The answers beside the keys on the game screen: those of what the
        game waits for first, when its hint answers it by keys."""
        state, update = self.state, self.state.update
        if update is None or update.over or not update.expected:
            return None
        first = update.expected[0]
        hint = state.hint(update.game_key, first.command)
        if hint.keys is None:
            return None
        context = Context(update.state, tuple(update.players), first, first.player,
                          dict(first.args), state.language)
        try:
            groups = [g for g in hint.keys(context) if g.picks]
        except _UNFIT:
            return None
        if not groups:
            return None
        title = state.command_label(update.game_key, first.command)
        heading = _heading(hint, context, state.prompt(update, first))
        picks = [p for g in groups for p in g.picks]
        if len(picks) <= len(KEY_ROWS):
            rows = [self._pick_choice(first, title, p, update.version) for p in picks]
        else:
            rows = [self._group_choice(first, title, g, update.version) for g in groups]
        return KeysLevel(state, title, heading, rows, update.version)

    def _group_choice(self, expectation: Expectation, title: str, group: PickGroup,
                      version: int) -> Choice:
        if len(group.picks) == 1:
            return self._pick_choice(expectation, title, group.picks[0], version)
        rows = [self._pick_choice(expectation, title, p, version) for p in group.picks]
        opened: KeysLevel | ListLevel
        if len(rows) <= len(KEY_ROWS):
            opened = KeysLevel(self.state, title, group.label, rows, version)
        else:
            # More than the keys hold: a list, UP and DOWN to the one.
            opened = ListLevel(self.state, title, rows, version=version)
        return Choice(group.label, partial(self.state.push, opened))

    def _pick_choice(self, expectation: Expectation, title: str, pick: Pick,
                     version: int) -> Choice:
        command = Command(expectation.command, {**expectation.args, **pick.args})
        ask = Confirm(self.state, title, pick.question, partial(self.game.send, command),
                      version)
        return Choice(pick.label, partial(self.state.push, ask))
