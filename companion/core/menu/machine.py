"""The table menu's core: the five keys, the levels of the menu stacked over
the game screen, and the sections of the main menu.

Each level handles its own keys (:mod:`.levels`); each section of the main
menu is a module: the game (:mod:`.game`, :mod:`.home` for the game screen),
a new game (:mod:`.new_game`), the Wi-Fi (:mod:`.wifi`), the dice
(:mod:`.pixels`), the caller (:mod:`.caller`), signing out (:mod:`.sign_out`), the venue
(:mod:`.venue`).  What they share (the
stack, the table's state on screen, the calls to the table) is a
:class:`~.state.MenuState`.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Mapping, Sequence

from ..caller import MOMENTS
from ..errors import CardFault, UnknownKey
from ..games import HINTS
from ..hints import CommandHint
from ..keys import KEYS, KINDS
from ..ports import SmartDice, TablePort
from ..table import Update
from ..text import DEFAULT_LANGUAGE
from .caller import CallerSection
from .game import GameSection
from .home import GameScreen
from .levels import Level, ListLevel, Section
from .new_game import NewGameSection
from .pixels import DiceSourceSection, PixelsSection
from .sign_out import SignOutSection
from .state import DEFAULT_NAMES, SOURCE, MenuServices, MenuSettings, MenuState, newer
from .venue import VenueSection
from .view import MenuView
from .wifi import JoinSection, WifiOfferSection

__all__ = ["DEFAULT_NAMES", "FAST_AFTER", "SOURCE", "MenuServices", "MenuSettings", "TableMenu"]

# A held UP or DOWN steps by one, then, after this many repeats, fast.
FAST_AFTER = 3


class TableMenu:
    """Turns key presses into commands for the table; see the package
    docstring.

    ``table`` is the table it plays at: ``submit``, ``undo``, ``redo`` and
    ``new_game`` (the New game menu) against the game and version shown, and
    its ``game``'s setup for a rematch with the same variants and options and
    its ``param_range`` for the ranges the setup allows.

    What the companion lends the menu (a :class:`~.state.MenuServices`, the
    keywords of the same names): ``join_info()`` returns ``(url, pin)`` for
    the Join screen; ``sign_out()`` signs every phone out of the panel (a
    new PIN and QR code) and returns the new ``(url, pin)``.
    ``dice_source`` is the source in use (or a function that says it) and
    ``set_dice_source(name)`` changes it.  ``roll()`` is the dice service's
    ROLL key: with the ``button`` source, the ROLL key asks it for a roll
    (which it submits), whatever menu is open; it returns ``None`` when the
    game took the roll, else why nothing was rolled.  ``wifi()`` returns the
    companion's own Wi-Fi ``(name, password)`` while it is the hotspot (the
    Join screen shows it first), ``network_offer()`` a known network in
    reach, and ``switch_network()`` joins it.  ``smart_dice`` (the Pixels
    dice) puts "Pixels dice" in the main menu: the dice paired, each given a
    role or forgotten, and the dice in reach to pair.  ``allow_venue()``
    (the venue, when the companion can join one) puts "Venue" in
    the main menu: confirmed with OK, a controller's phone may change them
    for a few minutes.

    How it plays (a :class:`~.state.MenuSettings`): ``player_names`` are the
    names a game started from the menu takes, in order; ``hints`` tune how
    commands are offered; ``source`` names the keys in the table's journal.
    ``language`` is the table's: the menu's own words are in it (the
    ``menu.*`` phrases of :data:`companion.core.text.COMMON`).  With a
    ``speaker``, "Caller" turns the table's caller on and off and chooses
    its moments (``caller_moments`` until a controller chose them).
    """

    def __init__(
        self,
        table: TablePort,
        *,
        join_info: Callable[[], tuple[str, str]] | None = None,
        sign_out: Callable[[], tuple[str, str]] | None = None,
        dice_source: str | Callable[[], str] = "button",
        set_dice_source: Callable[[str], None] | None = None,
        roll: Callable[[], str | None] | None = None,
        player_names: Sequence[str] = (),
        hints: Mapping[tuple[str, str], CommandHint] | None = None,
        source: str = SOURCE,
        wifi: Callable[[], tuple[str, str] | None] | None = None,
        network_offer: Callable[[], str | None] | None = None,
        switch_network: Callable[[], Any] | None = None,
        smart_dice: SmartDice | None = None,
        allow_venue: Callable[[], None] | None = None,
        language: str = DEFAULT_LANGUAGE,
        speaker: bool = False,
        caller_moments: Sequence[str] = MOMENTS,
    ) -> None:
        services = MenuServices(join_info, sign_out, dice_source, set_dice_source, roll,
                                wifi, network_offer, switch_network, smart_dice)
        settings = MenuSettings(tuple(player_names) or DEFAULT_NAMES,
                                HINTS if hints is None else hints, source)
        self._state = state = MenuState(table, services, settings, language,
                                        self._open_main_menu)
        self._game = GameSection(state)
        self._new_game = NewGameSection(state)
        self._join = JoinSection(state, services)
        # The main menu, in order.
        self._sections: tuple[Section, ...] = (
            WifiOfferSection(state, services), self._game, DiceSourceSection(state),
            PixelsSection(state, smart_dice), CallerSection(state, speaker, caller_moments),
            self._join, SignOutSection(state, sign_out), VenueSection(state, allow_venue),
            self._new_game)
        self._home = GameScreen(state, self._game, self._join.open, self._new_game.open)
        self._pending: Update | None = None
        self._pending_lock = threading.Lock()
        self._repeats = 0

    # -- what the daemon calls ---------------------------------------------------

    @property
    def update(self) -> Update | None:
        return self._state.update

    @property
    def version(self) -> int | None:
        return self._state.version

    @property
    def game_id(self) -> int | None:
        return self._state.game_id

    @property
    def dice_source(self) -> str:
        return self._state.dice_source

    @dice_source.setter
    def dice_source(self, name: str) -> None:
        self._state.dice_source = name

    @property
    def language(self) -> str:
        """The table's language, the menu's words are in."""
        return self._state.language

    @language.setter
    def language(self, language: str) -> None:
        self._state.language = language

    def on_update(self, update: Update) -> None:
        """The table's listener: keep the newest state for the next key or
        view (quick, and safe from any thread)."""
        with self._pending_lock:
            if self._pending is None or newer(update, self._pending):
                self._pending = update

    def on_key(self, key: str, kind: str = "press") -> bool:
        """Handle one key event; True when it changed something to show.  A
        write the memory card cannot take is said on the screen, not raised."""
        if key not in KEYS or kind not in KINDS:
            raise UnknownKey(f"no key {key!r} pressed as {kind!r}: keys are "
                             f"{', '.join(KEYS)}, kinds are {', '.join(KINDS)}")
        self._sync()
        state = self._state
        self._repeats = self._repeats + 1 if kind == "repeat" else 0
        state.fast = self._repeats > FAST_AFTER
        ok_opened, back_opened = state.ok_opened, state.back_opened
        state.ok_opened = state.back_opened = False
        try:
            if kind == "long":
                return self._long(key, ok_opened, back_opened)
            top = self._top()
            if key == "roll" and kind == "press" and not top.uses_roll() \
                    and state.roll_by_button():
                return False
            return top.on_key(key, kind)
        except CardFault as fault:
            # Whatever the key wrote (a new game, a setting, ROLL's roll), a
            # card that cannot take it is said as the table's refusal.
            state.say(state.t("refused"), fault.say(state.language))
            return True

    def view(self) -> MenuView:
        self._sync()
        return self._top().view()

    def show_join(self) -> None:
        """Put the Join screens on top (the Wi-Fi's first while the
        companion is the hotspot), e.g. when its network changed."""
        self._sync()
        self._join.show()

    def say(self, title: str, text: str) -> None:
        """A message over whatever is on screen; any key puts it away."""
        self._sync()
        self._state.say(title, text)

    # -- the levels ----------------------------------------------------------------

    def _top(self) -> Level:
        return self._state.top or self._home

    def _sync(self) -> None:
        with self._pending_lock:
            update, self._pending = self._pending, None
        if update is not None:
            self._state.adopt(update)

    def _long(self, key: str, ok_opened: bool, back_opened: bool) -> bool:
        state = self._state
        if key == "ok" and ok_opened:
            # The press opened the first action: holding OK asks for the others.
            state.clear()
            self._game.open_actions()
            return True
        if key == "back" and state.stack and not back_opened:
            # Holding BACK goes home, unless that press just opened the menu.
            state.clear()
            return True
        # Otherwise the press has done it all (selected, entered, confirmed).
        return False

    def _open_main_menu(self) -> None:
        choices = [choice for section in self._sections for choice in section.choices()]
        self._state.push(ListLevel(self._state, self._state.t("menu"), choices))

    def _start_game(self, key: str, players: Sequence[str], variants: Sequence[str],
                    options: Mapping[str, Any]) -> None:
        self._new_game.start(key, players, variants, options)
