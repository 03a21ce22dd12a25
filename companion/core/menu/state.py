"""What every level and section of the menu shares: the stack of levels,
the table's state on screen, the calls to the table against it, the
services the companion lends the menu and the menu's words.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..engine import Expectation
from ..errors import NoGame, Refusal, StaleVersion
from ..games import HINTS
from ..hints import CommandHint
from ..keys import DICE_SOURCES
from ..ports import SmartDice, TablePort
from ..table import Update
from ..text import say
from .levels import Join, Level, Message, WifiJoin
from .words import MenuNames

log = logging.getLogger(__name__)

# How the table's journal names what came from the keys.
SOURCE = "buttons"
DEFAULT_NAMES = tuple(f"Player {n}" for n in range(1, 9))
# The updates that are a move at the table (not a look at it).
MOVES = ("command", "undo", "redo", "new")


@dataclass
class MenuServices:
    """What the companion lends the menu, each ``None`` when it has none
    (see :class:`~companion.core.menu.TableMenu`)."""

    join_info: Callable[[], tuple[str, str]] | None = None
    sign_out: Callable[[], tuple[str, str]] | None = None
    dice_source: str | Callable[[], str] = "button"
    set_dice_source: Callable[[str], None] | None = None
    roll: Callable[[], str | None] | None = None
    wifi: Callable[[], tuple[str, str] | None] | None = None
    network_offer: Callable[[], str | None] | None = None
    switch_network: Callable[[], Any] | None = None
    smart_dice: SmartDice | None = None


@dataclass(frozen=True)
class MenuSettings:
    """How the menu plays: the names a game started from it takes, the
    hints it offers commands with, and its name in the table's journal."""

    player_names: Sequence[str] = DEFAULT_NAMES
    hints: Mapping[tuple[str, str], CommandHint] = field(default_factory=lambda: HINTS)
    source: str = SOURCE


class MenuState:
    """The levels stacked over the game screen, the update on screen, and
    what the menu does with them."""

    def __init__(self, table: TablePort, services: MenuServices, settings: MenuSettings,
                 language: str, open_main_menu: Callable[[], None]) -> None:
        self.table, self.services, self.settings = table, services, settings
        self.language = language
        self.open_main_menu = open_main_menu
        self.stack: list[Level] = []
        self.update: Update | None
        try:
            self.update = table.current()
        except NoGame:
            self.update = None
        # A held UP or DOWN goes fast; what the last press did, for the
        # long press that may follow it.
        self.fast = False
        self.ok_opened = False
        self.back_opened = False

    # -- the stack -------------------------------------------------------------

    @property
    def top(self) -> Level | None:
        return self.stack[-1] if self.stack else None

    def push(self, level: Level) -> None:
        self.stack.append(level)

    def pop(self) -> None:
        self.stack.pop()

    def remove(self, level: Level) -> None:
        self.stack.remove(level)

    def clear(self) -> None:
        self.stack.clear()

    def say(self, title: str, text: str) -> None:
        """A message over whatever is on screen; any key puts it away."""
        self.push(Message(self, title, text))

    # -- the table's state on screen ------------------------------------------

    @property
    def version(self) -> int | None:
        return self.update.version if self.update is not None else None

    @property
    def game_id(self) -> int | None:
        return self.update.game_id if self.update is not None else None

    def playing(self) -> bool:
        """Whether a game is being played (not over)."""
        return self.update is not None and not self.update.over

    def shown(self) -> Update:
        """The update on screen: every level that reads it opens over a game."""
        if self.update is None:
            raise NoGame("refusal.no-game")
        return self.update

    def adopt(self, update: Update) -> None:
        """Show ``update`` if it is newer: a new game keeps only the panel's
        join screen; otherwise the first level built on a state that no
        longer holds goes, and every level opened from it."""
        if self.update is not None and not newer(update, self.update):
            return
        new_game = self.update is None or update.game_id != self.update.game_id
        self.update = update
        if update.action in MOVES and self.playing():
            # A move from a phone or the keys: the game is on again, and the
            # Join screens the Wi-Fi put up (after a restart) give it the
            # screen back.
            drop_put_up_joins(self)
        if new_game:
            self.stack = [level for level in self.stack if isinstance(level, Join)]
            return
        for depth, level in enumerate(self.stack):
            if not level.still_valid(update):
                del self.stack[depth:]
                break

    def refresh(self) -> None:
        try:
            self.adopt(self.table.current())
        except NoGame:
            pass

    def call_table(self, call: Callable[..., Update], *args: Any) -> None:
        """Submit, undo or redo against the state the menu showed; a refusal
        (the rules', or a memory card that cannot take the write) is shown
        in the table's words in its language, and a state changed meanwhile
        is shown again."""
        try:
            update = call(*args, expected_game=self.game_id, expected_version=self.version,
                          source=self.settings.source)
        except StaleVersion:
            self.refresh()
            self.say(self.t("changed"), self.t("changed-nothing-done"))
        except Refusal as refused:
            self.say(self.t("refused"), refused.say(self.language))
        else:
            self.adopt(update)

    # -- the dice source ---------------------------------------------------------

    @property
    def dice_source(self) -> str:
        source = self.services.dice_source
        return source() if callable(source) else source

    @dice_source.setter
    def dice_source(self, name: str) -> None:
        if name not in DICE_SOURCES:
            raise ValueError(f"no dice source {name!r}; the sources are {', '.join(DICE_SOURCES)}")
        if self.services.set_dice_source is not None:
            self.services.set_dice_source(name)
        if not callable(self.services.dice_source):
            self.services.dice_source = name

    def roll_by_button(self) -> bool:
        """ROLL with the ``button`` source: the dice service rolls and
        submits (the table's update shows it); False when it is not that."""
        roll = self.services.roll
        if roll is None or self.dice_source != "button":
            return False
        reason = roll()
        if reason is not None:
            log.info("ROLL: %s", reason)
        return True

    # -- words -------------------------------------------------------------------

    def t(self, key: str, **fields: Any) -> str:
        """The menu's words for ``key`` in the table's language."""
        return say(f"menu.{key}", self.language, **fields)

    def names(self, game_key: str) -> MenuNames:
        return MenuNames(self.language, game_key)

    def hint(self, game_key: str, command: str) -> CommandHint:
        return self.settings.hints.get((game_key, command), CommandHint())

    def command_label(self, game_key: str, command: str) -> str:
        return self.names(game_key).command(command, self.hint(game_key, command).label)

    def prompt(self, update: Update, expectation: Expectation) -> str:
        """What the game waits for, in the table's language."""
        hint = self.hint(update.game_key, expectation.command)
        return self.names(update.game_key).prompt(expectation, update.players, hint.label)

    def players(self) -> Sequence[str]:
        return self.update.players if self.update is not None else ()


def drop_put_up_joins(state: MenuState) -> None:
    """Put away the Join screens the Wi-Fi put up."""
    state.stack = [level for level in state.stack
                   if not (isinstance(level, (Join, WifiJoin)) and level.put_up)]


def newer(update: Update, than: Update) -> bool:
    if update.game_id != than.game_id:
        return True
    return update.version > than.version

