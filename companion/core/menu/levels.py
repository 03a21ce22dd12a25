"""The levels of the menu, stacked over the game screen, and what a section
of the menu is.

A :class:`Level` is one screen of the menu: it says what the OLED shows
(:meth:`Level.view`) and handles its own keys (:meth:`Level.on_key`).  The
levels here are the shapes every section builds from: a list, answers
beside the keys, a yes/no question, a message, the join screens.  A
:class:`Section` (the game, a new game, the Wi-Fi, the Pixels dice,
signing out) puts its lines in the main menu and opens its own levels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from ..hints import KEY_ROWS
from ..table import Update
from .view import MenuView, ViewKind


class MenuStack(Protocol):
    """What a level asks of the menu it is in (a
    :class:`~.state.MenuState`): the stack it is on, the menu's words, and
    what the last press opened, for the long press that may follow it."""

    ok_opened: bool
    back_opened: bool
    open_main_menu: Callable[[], None]

    @property
    def top(self) -> Level | None: ...

    def push(self, level: Level) -> None: ...

    def pop(self) -> None: ...

    def t(self, key: str, **fields: Any) -> str: ...


class Level:
    """One level of the menu.  ``version`` is set on a level built from one
    state of the table that means nothing once the state has changed."""

    version: int | None = None

    def uses_roll(self) -> bool:
        """Whether ROLL is one of its keys (else, with the ``button`` dice
        source, ROLL asks the dice service for a roll, whatever is open)."""
        return False

    def still_valid(self, update: Update) -> bool:
        return self.version is None or self.version == update.version

    def view(self) -> MenuView:
        raise NotImplementedError

    def on_key(self, key: str, kind: str) -> bool:
        """Handle one key (``kind`` is ``press`` or ``repeat``; a long press
        is the menu's); True when it changed something to show."""
        raise NotImplementedError

    def uncovered(self) -> None:
        """The question over this level was answered no: back to it."""


class Section(Protocol):
    """A part of the menu: its lines in the main menu (none while it has
    nothing to offer), each opening its own levels."""

    def choices(self) -> list[Choice]: ...


@dataclass
class Choice:
    label: str
    # What choosing it does (what that returns is not used).
    action: Callable[[], object]


class ListLevel(Level):
    """Choices, UP and DOWN to the one, OK to choose it, BACK to go back."""

    def __init__(self, state: MenuStack, title: str, choices: Sequence[Choice],
                 index: int = 0, version: int | None = None) -> None:
        self.state = state
        self.title, self.choices, self.index, self.version = title, list(choices), index, version

    def step(self, delta: int) -> None:
        if self.choices:
            self.index = (self.index - delta) % len(self.choices)

    def view(self) -> MenuView:
        return MenuView(ViewKind.LIST, self.title, tuple(c.label for c in self.choices),
                        self.index, footer=self.state.t("keys-enter"))

    def on_key(self, key: str, kind: str) -> bool:
        if key in ("up", "down"):
            self.step(1 if key == "up" else -1)
            return True
        if key == "back":
            self.state.pop()
            return True
        if key == "ok" and self.choices:
            self.choices[self.index].action()
            return True
        return False


class LiveList(ListLevel):
    """A list whose choices are read again each time it is shown or keyed
    (the smart dice: they answer a look, connect and drop on their own)."""

    def __init__(self, state: MenuStack, title: str,
                 choices: Callable[[], Sequence[Choice]]) -> None:
        super().__init__(state, title, choices())
        self._read = choices

    def refresh(self) -> None:
        self.choices = list(self._read())
        self.index = min(self.index, max(len(self.choices) - 1, 0))

    def view(self) -> MenuView:
        self.refresh()
        return super().view()

    def on_key(self, key: str, kind: str) -> bool:
        self.refresh()
        return super().on_key(key, kind)


class KeysLevel(Level):
    """Answers (or groups of answers) beside UP, DOWN, OK and ROLL: one
    key does what is beside it; BACK goes back.  On the game screen (not on
    the menu's stack) BACK opens the main menu instead."""

    def __init__(self, state: MenuStack, title: str, text: str,
                 rows: Sequence[Choice | None], version: int | None) -> None:
        self.state = state
        self.title, self.text, self.version = title, text, version
        self.rows = list(rows)[:len(KEY_ROWS)]

    def uses_roll(self) -> bool:
        return True

    def choice(self, key: str) -> Choice | None:
        row = KEY_ROWS.index(key) if key in KEY_ROWS else len(KEY_ROWS)
        return self.rows[row] if row < len(self.rows) else None

    def _home(self) -> bool:
        return self.state.top is not self

    def view(self) -> MenuView:
        labels = tuple(c.label if c is not None else "" for c in self.rows)
        labels += ("",) * (len(KEY_ROWS) - len(labels))
        return MenuView(ViewKind.KEYS, self.title, labels, text=self.text,
                        footer=self.state.t("keys-home" if self._home() else "keys-back"))

    def on_key(self, key: str, kind: str) -> bool:
        # A held key repeats nothing.
        if kind != "press":
            return False
        home = self._home()
        if key == "back":
            if home:
                # On the game screen BACK opens the menu, as ever.
                self.state.open_main_menu()
                self.state.back_opened = True
            else:
                self.state.pop()
            return True
        choice = self.choice(key)
        if choice is None:
            return False
        choice.action()
        # On the game screen, holding that OK still lists everything the
        # game accepts (what the keys do not offer is there).
        self.state.ok_opened = home and key == "ok"
        return True


class Confirm(Level):
    """A yes/no question: OK does it, BACK goes back to what it covers."""

    def __init__(self, state: MenuStack, title: str, question: str,
                 action: Callable[[], None], version: int | None = None) -> None:
        self.state = state
        self.title, self.question, self.action, self.version = title, question, action, version

    def view(self) -> MenuView:
        return MenuView(ViewKind.CONFIRM, self.title, text=self.question,
                        footer=self.state.t("keys-confirm"))

    def on_key(self, key: str, kind: str) -> bool:
        if key not in ("ok", "back"):
            return False
        self.state.pop()
        if key == "ok":
            self.action()
        elif self.state.top is not None:
            self.state.top.uncovered()
        return True


class Notice(Level):
    """A screen any key puts away, but ROLL (the dice's own key) and the
    repeats of a key still held."""

    state: MenuStack

    def on_key(self, key: str, kind: str) -> bool:
        if key == "roll" or kind == "repeat":
            return False
        self.state.pop()
        self.put_away()
        return True

    def put_away(self) -> None:
        """What follows once a key put it away."""


class Message(Notice):
    def __init__(self, state: MenuStack, title: str, text: str) -> None:
        self.state, self.title, self.text = state, title, text

    def view(self) -> MenuView:
        return MenuView(ViewKind.MESSAGE, self.title, text=self.text,
                        footer=self.state.t("ok"))


class Join(Notice):
    """The panel's QR code and PIN, to join from a phone.  ``put_up``:
    shown because the Wi-Fi changed (at start, say), not asked for with a
    key."""

    def __init__(self, state: MenuStack, url: str, pin: str, put_up: bool = False) -> None:
        self.state, self.url, self.pin, self.put_up = state, url, pin, put_up

    def view(self) -> MenuView:
        t = self.state.t
        return MenuView(ViewKind.QR, t("join"), url=self.url, pin=self.pin,
                        text=t("scan-panel"), footer=t("ok"))


class WifiJoin(Notice):
    """The companion's own Wi-Fi as a QR code; any key shows the panel's
    (or, over a game being played, brings the game back: ``then`` says
    which).  ``put_up`` as for :class:`Join`."""

    def __init__(self, state: MenuStack, ssid: str, passphrase: str,
                 then: Callable[[WifiJoin], None], put_up: bool = False) -> None:
        self.state, self.ssid, self.passphrase = state, ssid, passphrase
        self._then, self.put_up = then, put_up

    def view(self) -> MenuView:
        t = self.state.t
        return MenuView(ViewKind.WIFI, self.ssid, pin=self.passphrase, text=t("scan-wifi"),
                        footer=t("any-key-panel"))

    def put_away(self) -> None:
        self._then(self)
