"""The table menu's state machine: the five keys, the levels of the menu
stacked over the game screen, and the table calls they lead to (submit,
undo, redo, new game), with the table's refusals shown in its own words.

What is entered for one command is an :class:`~companion.core.menu.entry.Entry`;
this module decides when one opens, what it answers, and what happens once
it is complete.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping, Sequence

from ..engine import Command, CommandSpec, Expectation, Game, Param
from ..errors import BadSetup, IllegalCommand, NoGame, StaleVersion, UnknownKey
from ..games import available, game_class
from ..keys import DICE_SOURCES, KEYS, KINDS
from ..ports import SmartDice, SmartDie, TablePort
from ..table import Update
from ..text import DEFAULT_LANGUAGE, event_sentence, say
from .entry import EDITING, Blocked, Entry, Now
from .hints import HINTS, KEY_ROWS, CommandHint, Context, Pick, PickGroup
from .view import MenuView, ViewKind
from .words import Words

log = logging.getLogger(__name__)

# How the table's journal names what came from the keys.
SOURCE = "buttons"
# A held UP or DOWN steps by one, then, after this many repeats, fast.
FAST_AFTER = 3
# The updates that are a move at the table (not a look at it).
MOVES = ("command", "undo", "redo", "new")
DEFAULT_NAMES = tuple(f"Player {n}" for n in range(1, 9))


# -- levels of the menu, stacked over the game screen ------------------------------


class _Level:
    """One level of the menu.  ``version`` is set on a level built from one
    state of the table that means nothing once the state has changed."""

    version: int | None = None

    def still_valid(self, update: Update) -> bool:
        return self.version is None or self.version == update.version


@dataclass
class _Choice:
    label: str
    # What choosing it does (what that returns is not used).
    action: Callable[[], object]


class _List(_Level):
    def __init__(self, title: str, choices: Sequence[_Choice], index: int = 0,
                 version: int | None = None) -> None:
        self.title, self.choices, self.index, self.version = title, list(choices), index, version

    def step(self, delta: int) -> None:
        if self.choices:
            self.index = (self.index - delta) % len(self.choices)


class _LiveList(_List):
    """A list whose choices are read again each time it is shown or keyed
    (the smart dice: they answer a look, connect and drop on their own)."""

    def __init__(self, title: str, choices: Callable[[], Sequence[_Choice]]) -> None:
        super().__init__(title, choices())
        self._read = choices

    def refresh(self) -> None:
        self.choices = list(self._read())
        self.index = min(self.index, max(len(self.choices) - 1, 0))


class _Keys(_Level):
    """Answers (or groups of answers) beside UP, DOWN, OK and ROLL: one
    key does what is beside it; BACK goes back."""

    def __init__(self, title: str, text: str, rows: Sequence[_Choice | None],
                 version: int | None) -> None:
        self.title, self.text, self.version = title, text, version
        self.rows = list(rows)[:len(KEY_ROWS)]

    def choice(self, key: str) -> _Choice | None:
        row = KEY_ROWS.index(key) if key in KEY_ROWS else len(KEY_ROWS)
        return self.rows[row] if row < len(self.rows) else None


class _Confirm(_Level):
    def __init__(self, title: str, question: str, action: Callable[[], None],
                 version: int | None = None) -> None:
        self.title, self.question, self.action, self.version = title, question, action, version


class _Message(_Level):
    def __init__(self, title: str, text: str) -> None:
        self.title, self.text = title, text


class _Join(_Level):
    """The panel's QR code and PIN.  ``put_up``: shown because the Wi-Fi
    changed (at start, say), not asked for with a key."""

    def __init__(self, url: str, pin: str, put_up: bool = False) -> None:
        self.url, self.pin, self.put_up = url, pin, put_up


class _WifiJoin(_Level):
    """The companion's own Wi-Fi as a QR code; any key shows the panel's
    (or, over a game being played, brings the game back)."""

    def __init__(self, ssid: str, passphrase: str, put_up: bool = False) -> None:
        self.ssid, self.passphrase, self.put_up = ssid, passphrase, put_up


# What the menu's stack holds: its levels, and the commands being entered.
_Shown = _List | _Keys | _Confirm | _Message | _Join | _WifiJoin | Entry


# -- the machine -------------------------------------------------------------------


class TableMenu:
    """Turns key presses into commands for the table; see the package
    docstring.

    ``table`` is the table it plays at: ``submit``, ``undo``, ``redo`` and
    ``new_game`` (the New game menu) against the game and version shown, and
    its ``game``'s setup for a rematch with the same variants and options and
    its ``param_range`` for the ranges the setup allows.  ``join_info()``
    returns ``(url, pin)`` for the Join screen; ``sign_out()`` signs every
    phone out of the panel (a new PIN and QR code) and returns the new
    ``(url, pin)``.
    ``dice_source`` is the source in use (or a function that says it) and
    ``set_dice_source(name)`` changes it.  ``roll()`` is the dice service's
    ROLL key: with the ``button`` source, the ROLL key asks it for a roll
    (which it submits), whatever menu is open; it returns ``None`` when the
    game took the roll, else why nothing was rolled.  ``player_names`` are
    the names a game started from the menu takes, in order.  ``wifi()``
    returns the companion's own Wi-Fi ``(name, password)`` while it is the
    hotspot (the Join screen shows it first), ``network_offer()`` a known
    network in reach, and ``switch_network()`` joins it.  ``smart_dice``
    (the Pixels dice) puts "Pixels dice" in the main menu: the dice paired,
    each given a role or forgotten, and the dice in reach to pair.
    ``language`` is the table's: the menu's own words are in it (the
    ``menu.*`` phrases of :data:`companion.core.text.COMMON`).
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
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        self._table = table
        self._join_info = join_info
        self._sign_out = sign_out
        self._dice_source = dice_source
        self._set_dice_source = set_dice_source
        self._roll = roll
        self._names = tuple(player_names) or DEFAULT_NAMES
        self._hints = HINTS if hints is None else hints
        self._source = source
        self._wifi = wifi
        self._network_offer = network_offer
        self._switch_network = switch_network
        self._smart_dice = smart_dice
        self._lang = language
        self._stack: list[_Shown] = []
        self._pending: Update | None = None
        self._pending_lock = threading.Lock()
        self._repeats = 0
        # What the last press did, for the long press that may follow it.
        self._ok_opened = False
        self._back_opened = False
        self.update: Update | None
        try:
            self.update = table.current()
        except NoGame:
            self.update = None

    # -- what the daemon calls ---------------------------------------------------

    @property
    def version(self) -> int | None:
        return self.update.version if self.update is not None else None

    @property
    def game_id(self) -> int | None:
        return self.update.game_id if self.update is not None else None

    @property
    def dice_source(self) -> str:
        source = self._dice_source
        return source() if callable(source) else source

    @dice_source.setter
    def dice_source(self, name: str) -> None:
        if name not in DICE_SOURCES:
            raise ValueError(f"no dice source {name!r}; the sources are {', '.join(DICE_SOURCES)}")
        if self._set_dice_source is not None:
            self._set_dice_source(name)
        if not callable(self._dice_source):
            self._dice_source = name

    def on_update(self, update: Update) -> None:
        """The table's listener: keep the newest state for the next key or
        view (quick, and safe from any thread)."""
        with self._pending_lock:
            if self._pending is None or _newer(update, self._pending):
                self._pending = update

    def on_key(self, key: str, kind: str = "press") -> bool:
        """Handle one key event; True when it changed something to show."""
        if key not in KEYS or kind not in KINDS:
            raise UnknownKey(f"no key {key!r} pressed as {kind!r}: keys are "
                             f"{', '.join(KEYS)}, kinds are {', '.join(KINDS)}")
        self._sync()
        self._repeats = self._repeats + 1 if kind == "repeat" else 0
        fast = self._repeats > FAST_AFTER
        ok_opened, back_opened = self._ok_opened, self._back_opened
        self._ok_opened = self._back_opened = False
        keys = self._keys_on_screen()
        if keys is not None and kind != "long":
            # Answers beside the keys: ROLL is one of them; a held key
            # repeats nothing.
            return kind == "press" and self._keys_key(keys, key)
        if key == "roll" and kind == "press" and self._roll is not None \
                and self.dice_source == "button":
            # The dice service rolls and submits; the table's update shows it.
            reason = self._roll()
            if reason is not None:
                log.info("ROLL: %s", reason)
            return False
        if kind == "long":
            return self._long(key, ok_opened, back_opened)
        top = self._stack[-1] if self._stack else None
        if top is None:
            return self._game_key(key, fast)
        if isinstance(top, Entry):
            return self._entry_key(top, key, fast)
        if isinstance(top, _List):
            return self._list_key(top, key)
        if isinstance(top, _Confirm):
            if key in ("ok", "back"):
                self._stack.pop()
                if key == "ok":
                    top.action()
                elif self._stack and isinstance(self._stack[-1], Entry):
                    self._stack[-1].reopen()
                return True
            return False
        # A message or the join screen: any key puts it away, but ROLL (the
        # dice's own key) and the repeats of a key still held.
        if key == "roll" or kind == "repeat":
            return False
        self._stack.pop()
        if isinstance(top, _WifiJoin) and top.put_up and self._playing():
            # Put up at a restart over a game being played: the first key
            # is the game again (BACK, Join shows the codes when wanted).
            self._drop_put_up_joins()
        elif isinstance(top, _WifiJoin):
            # One key later: the panel's QR code and PIN.
            self._open_panel_join(put_up=top.put_up)
        return True

    def view(self) -> MenuView:
        self._sync()
        top = self._stack[-1] if self._stack else None
        keys = self._keys_on_screen()
        if keys is not None:
            return self._keys_view(keys)
        if top is None:
            return self._game_view()
        if isinstance(top, _LiveList):
            top.refresh()
        if isinstance(top, _List):
            return MenuView(ViewKind.LIST, top.title, tuple(c.label for c in top.choices),
                            top.index, footer=self._t("keys-enter"))
        if isinstance(top, _Confirm):
            return MenuView(ViewKind.CONFIRM, top.title, text=top.question,
                            footer=self._t("keys-confirm"))
        if isinstance(top, _Message):
            return MenuView(ViewKind.MESSAGE, top.title, text=top.text, footer=self._t("ok"))
        if isinstance(top, _Join):
            return MenuView(ViewKind.QR, self._t("join"), url=top.url, pin=top.pin,
                            text=self._t("scan-panel"), footer=self._t("ok"))
        if isinstance(top, _WifiJoin):
            return MenuView(ViewKind.WIFI, top.ssid, pin=top.passphrase,
                            text=self._t("scan-wifi"),
                            footer=self._t("any-key-panel"))
        if isinstance(top, _Keys):
            return self._keys_view(top)
        return top.view(self.update.players if self.update is not None else ())

    # -- keeping up with the table -------------------------------------------------

    def _sync(self) -> None:
        with self._pending_lock:
            update, self._pending = self._pending, None
        if update is not None:
            self._adopt(update)

    def _adopt(self, update: Update) -> None:
        if self.update is not None and not _newer(update, self.update):
            return
        new_game = self.update is None or update.game_id != self.update.game_id
        self.update = update
        if update.action in MOVES and self._playing():
            # A move from a phone or the keys: the game is on again, and the
            # Join screens the Wi-Fi put up (after a restart) give it the
            # screen back.
            self._drop_put_up_joins()
        if new_game:
            self._stack = [f for f in self._stack if isinstance(f, _Join)]
            return
        # Drop the first level built on a state that no longer holds, and
        # every level opened from it.
        for depth, level in enumerate(self._stack):
            if not level.still_valid(update):
                del self._stack[depth:]
                break

    def _refresh(self) -> None:
        try:
            self._adopt(self._table.current())
        except NoGame:
            pass

    # -- answers beside the keys --------------------------------------------------

    def _keys_on_screen(self) -> _Keys | None:
        """The answers beside the keys now on screen: the level on top, or
        on the game screen those of what the game waits for first."""
        top = self._stack[-1] if self._stack else None
        if isinstance(top, _Keys):
            return top
        if top is None:
            return self._home_keys()
        return None

    def _home_keys(self) -> _Keys | None:
        update = self.update
        if update is None or update.over or not update.expected:
            return None
        first = update.expected[0]
        hint = self._hints.get((update.game_key, first.command), CommandHint())
        if hint.keys is None:
            return None
        actor = first.player
        context = Context(update.state, tuple(update.players), first, actor,
                          dict(first.args), self._lang)
        try:
            groups = [g for g in hint.keys(context) if g.picks]
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            # A hint that does not fit the view: the usual entry instead.
            return None
        if not groups:
            return None
        title = self._command_label(update.game_key, first.command)
        heading = self._prompt(update, first)
        if hint.keys_title is not None:
            try:
                heading = hint.keys_title(context)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                pass
        version = update.version
        picks = [p for g in groups for p in g.picks]
        if len(picks) <= len(KEY_ROWS):
            rows = [self._pick_choice(first, title, p, version) for p in picks]
        else:
            rows = [self._group_choice(first, title, g, version) for g in groups]
        return _Keys(title, heading, rows, version)

    def _group_choice(self, expectation: Expectation, title: str, group: PickGroup,
                      version: int) -> _Choice:
        if len(group.picks) == 1:
            return self._pick_choice(expectation, title, group.picks[0], version)
        rows = [self._pick_choice(expectation, title, p, version) for p in group.picks]
        opened: _Keys | _List
        if len(rows) <= len(KEY_ROWS):
            opened = _Keys(title, group.label, rows, version)
        else:
            # More than the keys hold: a list, UP and DOWN to the one.
            opened = _List(title, rows, version=version)
        return _Choice(group.label, partial(self._stack.append, opened))

    def _pick_choice(self, expectation: Expectation, title: str, pick: Pick,
                     version: int) -> _Choice:
        command = Command(expectation.command, {**expectation.args, **pick.args})
        ask = _Confirm(title, pick.question, partial(self._send, command), version)
        return _Choice(pick.label, partial(self._stack.append, ask))

    def _keys_key(self, keys: _Keys, key: str) -> bool:
        if key == "back":
            if self._stack and self._stack[-1] is keys:
                self._stack.pop()
                return True
            # On the game screen BACK opens the menu, as ever.
            self._open_main_menu()
            self._back_opened = True
            return True
        choice = keys.choice(key)
        if choice is None:
            return False
        home = not (self._stack and self._stack[-1] is keys)
        choice.action()
        # On the game screen, holding that OK still lists everything the
        # game accepts (what the keys do not offer is there).
        self._ok_opened = home and key == "ok"
        return True

    def _keys_view(self, keys: _Keys) -> MenuView:
        labels = tuple(c.label if c is not None else "" for c in keys.rows)
        labels += ("",) * (len(KEY_ROWS) - len(labels))
        home = not (self._stack and self._stack[-1] is keys)
        return MenuView(ViewKind.KEYS, keys.title, labels, text=keys.text,
                        footer=self._t("keys-home" if home else "keys-back"))

    # -- the game screen ---------------------------------------------------------

    def _game_view(self) -> MenuView:
        update = self.update
        if update is None:
            # Home: the PIN in sight, and UP for the QR code.
            url, pin = self._join_info() if self._join_info is not None else ("", "")
            return MenuView(ViewKind.GAME, self._t("home"),
                            footer=self._t("no-game"), url=url, pin=pin)
        if update.over:
            footer = update.result.message if update.result else self._t("game-over")
        elif update.expected:
            first = update.expected[0]
            footer = self._prompt(update, first)
            if first.dice is not None and self.dice_source != "manual":
                footer = f"ROLL: {footer}"
        else:
            footer = ""
        return MenuView(ViewKind.GAME, update.title, footer=footer)

    def _game_key(self, key: str, fast: bool) -> bool:
        update = self.update
        if key == "back":
            self._open_main_menu()
            self._back_opened = True
            return True
        if update is None or update.over:
            if key in ("up", "down") and self._join_info is not None:
                self._open_join()  # one key from home to the QR code
                return True
            if key != "ok":
                return False
            self._open_new_game()
            return True
        if key == "roll":
            rolls = [e for e in update.expected if e.dice is not None]
            if self.dice_source != "manual" or not rolls:
                return False
            self._answer(rolls[0], chosen=False)
            return True
        if not update.expected:
            return False
        first = update.expected[0]
        if key == "ok":
            self._answer(first, chosen=False)
            self._ok_opened = True
            return True
        delta = 1 if key == "up" else -1
        entry = self._entry_for(first, chosen=False)
        if entry is None or not entry.params:
            # Nothing to enter for the first action: UP and DOWN browse them all.
            self._open_actions().step(delta)
            return True
        self._start(entry)
        top = self._stack[-1] if self._stack else None
        if top is entry:
            entry.step(delta, fast)
        return True

    def _long(self, key: str, ok_opened: bool, back_opened: bool) -> bool:
        if key == "ok" and ok_opened:
            # The press opened the first action: holding OK asks for the others.
            self._stack.clear()
            self._open_actions()
            return True
        if key == "back" and self._stack and not back_opened:
            # Holding BACK goes home, unless that press just opened the menu.
            self._stack.clear()
            return True
        # Otherwise the press has done it all (selected, entered, confirmed).
        return False

    # -- entering a command ----------------------------------------------------------

    def _answer(self, expectation: Expectation, chosen: bool) -> None:
        entry = self._entry_for(expectation, chosen)
        if entry is None:
            self._say(self._t("not-here"), self._t("not-a-command", command=expectation.command,
                                                   title=self._shown().title))
            return
        self._start(entry)

    def _correct(self, spec: CommandSpec) -> None:
        entry = self._entry_for(None, chosen=True, spec=spec)
        if entry is not None:
            self._start(entry)

    def _entry_for(self, expectation: Expectation | None, chosen: bool,
                   spec: CommandSpec | None = None) -> Entry | None:
        update = self._shown()
        if spec is None:
            if expectation is None:
                return None
            try:
                spec = game_class(update.game_key).spec(expectation.command)
            except (IllegalCommand, BadSetup):
                return None
        hint = self._hints.get((update.game_key, spec.name), CommandHint())
        return Entry.build(spec, expectation, hint, update.expected, chosen,
                           self._words(update.game_key))

    def _start(self, entry: Entry) -> None:
        """Put the entry on screen at its first parameter, or go straight to
        sending it when there is nothing to enter."""
        self._stack.append(entry)
        if not self._open_next(entry):
            self._stack.remove(entry)

    def _open_next(self, entry: Entry) -> bool:
        """Open the entry's next parameter, or send the command once all are
        entered; False when the parameter cannot be entered here, and a
        message says why."""
        outcome = entry.open_next(self._now())
        if isinstance(outcome, Blocked):
            self._say(outcome.title, outcome.text)
            return False
        if outcome == EDITING:
            return True
        if not entry.entered:
            # Nothing was entered: there is nothing to go back to either.
            self._stack.remove(entry)
        self._finish(entry)
        return True

    def _now(self) -> Now:
        update = self._shown()
        game = _game_of(self._table)
        param_range: Callable[[Param], tuple[int | None, int | None]] = _spec_range
        if game is not None and game.key == update.game_key:
            param_range = game.param_range
        return Now(update, self.dice_source, param_range)

    def _entry_key(self, entry: Entry, key: str, fast: bool) -> bool:
        if key in ("up", "down"):
            entry.step(1 if key == "up" else -1, fast)
            return True
        if key == "roll":
            return False
        if key == "back":
            if not entry.back():
                self._stack.remove(entry)
            return True
        if not entry.enter():
            return True
        if not self._open_next(entry):
            # The message is shown over the entry, which waits as it was.
            entry.return_die()
        return True

    def _finish(self, entry: Entry) -> None:
        """All is entered: send the command, or ask first."""
        players = self._shown().players
        command = entry.command(players)
        confirm = entry.hint.confirm
        if confirm is None:
            confirm = entry.spec.correction or not (entry.entered or entry.chosen)
        if not confirm:
            self._send(command)
            return
        version = self.version if entry.expectation is not None else None
        self._stack.append(_Confirm(entry.label, entry.question(players),
                                    partial(self._send, command), version))

    def _send(self, command: Command) -> None:
        self._stack.clear()
        self._table_call(self._table.submit, command)

    def _table_call(self, call: Callable[..., Any], *args: Any) -> None:
        """Submit, undo or redo against the state the menu showed; a refusal
        is shown in the engine's words in the table's language, and a state changed meanwhile is
        shown again."""
        try:
            update = call(*args, expected_game=self.game_id, expected_version=self.version,
                          source=self._source)
        except StaleVersion:
            self._refresh()
            self._say(self._t("changed"), self._t("changed-nothing-done"))
        except IllegalCommand as refused:
            self._say(self._t("refused"), refused.say(self._lang))
        else:
            self._adopt(update)

    # -- the menus --------------------------------------------------------------------

    def _open_main_menu(self) -> None:
        choices = []
        if self.update is not None:
            choices += [
                _Choice(self._t("undo"), self._ask_undo),
                _Choice(self._t("redo"), self._redo),
                _Choice(self._t("actions"), self._open_actions),
                _Choice(self._t("corrections"), self._open_corrections),
            ]
        offer = self._network_offer() if self._network_offer is not None else None
        if offer:
            choices.insert(0, _Choice(self._t("wifi-offer", ssid=offer),
                                       lambda: self._ask_switch(offer)))
        choices += [
            _Choice(self._t("dice", source=self._t(f"source-{self.dice_source}")),
                    self._open_dice_sources),
        ]
        if self._smart_dice is not None:
            choices.append(_Choice(self._t("pixels"), self._open_smart_dice))
        choices += [
            _Choice(self._t("join-qr"), self._open_join),
        ]
        if self._sign_out is not None:
            choices.append(_Choice(self._t("sign-out"), self._ask_sign_out))
        choices.append(_Choice(self._t("new-game"), self._open_new_game))
        self._stack.append(_List(self._t("menu"), choices))

    def _ask_undo(self) -> None:
        update = self._shown()
        if not update.can_undo:
            self._say(self._t("undo"), self._t("nothing-to-undo"))
            return
        self._stack.append(_Confirm(self._t("undo"), self._t("undo-what",
                                                              what=self._undo_words(update)),
                                    self._undo,
                                    update.version))

    def _undo_words(self, update: Update) -> str | None:
        """What undo would take back, its events said in the table's
        language (the history's text is English)."""
        if self._lang == DEFAULT_LANGUAGE or not update.undo_events:
            return update.undo_text
        try:
            cls = game_class(update.game_key)
        except BadSetup:
            return update.undo_text
        tell = getattr(cls, "event_text", None)
        said = []
        for event in update.undo_events:
            if callable(tell):
                said.append(str(tell(event, self._lang)))
            else:
                said.append(event_sentence(event.kind, event.message, event.data, self._lang,
                                           update.game_key, update.players))
        return " · ".join(said)

    def _undo(self) -> None:
        self._stack.clear()
        self._table_call(self._table.undo)

    def _redo(self) -> None:
        if not self._shown().can_redo:
            self._say(self._t("redo"), self._t("nothing-to-redo"))
            return
        self._stack.clear()
        self._table_call(self._table.redo)

    def _open_actions(self) -> _List:
        """Everything the game accepts now, then the corrections."""
        update = self._shown()
        choices = []
        for expectation in update.expected:
            label = self._prompt(update, expectation)
            if label.partition(" ")[0].rstrip(":") == expectation.command:
                # A prompt written as the command's words: its name reads better.
                label = self._command_label(update.game_key, expectation.command)
            choices.append(_Choice(label, partial(self._answer, expectation, chosen=True)))
        choices.append(_Choice(self._t("corrections"), self._open_corrections))
        actions = _List(self._t("actions"), choices, version=update.version)
        self._stack.append(actions)
        return actions

    def _open_corrections(self) -> None:
        update = self._shown()
        key = update.game_key
        choices = []
        for spec in game_class(key).commands:
            if spec.correction:
                choices.append(_Choice(self._command_label(key, spec.name),
                                       partial(self._correct, spec)))
        if not choices:
            self._say(self._t("corrections"), self._t("no-corrections", title=update.title))
            return
        self._stack.append(_List(self._t("corrections"), choices))

    def _command_label(self, game_key: str, command: str) -> str:
        hint = self._hints.get((game_key, command), CommandHint())
        return self._words(game_key).command(command, hint.label)

    def _words(self, game_key: str) -> Words:
        return Words(self._lang, game_key)

    def _prompt(self, update: Update, expectation: Expectation) -> str:
        """What the game waits for, in the table's language."""
        hint = self._hints.get((update.game_key, expectation.command), CommandHint())
        return self._words(update.game_key).prompt(expectation, update.players, hint.label)

    def _open_dice_sources(self) -> None:
        current = self.dice_source
        choices = [_Choice(self._t(f"source-{name}"), partial(self._choose_dice_source, name))
                   for name in DICE_SOURCES]
        index = DICE_SOURCES.index(current) if current in DICE_SOURCES else 0
        self._stack.append(_List(self._t("dice-source"), choices, index))

    def _choose_dice_source(self, name: str) -> None:
        try:
            self.dice_source = name
        except ValueError as refused:
            self._say(self._t("dice-title"), str(refused))
            return
        self._stack.clear()

    # -- the smart dice: paired, in reach, roles ----------------------------------

    def _open_smart_dice(self) -> None:
        smart = self._smart_dice
        assert smart is not None

        def choices() -> list[_Choice]:
            shown = [_Choice(self._die_label(die, self._t(f"role-{die.role}") if die.role
                                             else self._t("no-role")),
                             partial(self._open_die, die.address, die.name))
                     for die in smart.dice()]
            return [*shown, _Choice(self._t("find-dice"), self._open_in_reach)]

        self._stack.append(_LiveList(self._t("pixels"), choices))

    def _open_in_reach(self) -> None:
        smart = self._smart_dice
        assert smart is not None
        smart.look()

        def choices() -> list[_Choice]:
            heard = [_Choice(self._die_label(die), partial(self._pair_die, die.address, die.name))
                     for die in smart.in_reach()]
            if smart.looking:
                return [*heard, _Choice(self._t("looking"), lambda: None)]
            return [*heard, _Choice(self._t("look-again"), smart.look)]

        self._stack.append(_LiveList(self._t("dice-in-reach"), choices))

    def _pair_die(self, address: str, name: str) -> None:
        assert self._smart_dice is not None
        self._smart_dice.pair(address, name)
        self._stack.pop()  # the dice in reach: the paired list shows it now
        self._open_die(address, name)

    def _open_die(self, address: str, name: str) -> None:
        smart = self._smart_dice
        assert smart is not None
        choices = [_Choice(self._t("make-it", role=self._t(f"role-{role}")),
                           partial(self._assign_die, address, role)) for role in smart.roles]
        choices.append(_Choice(self._t("no-role"),
                               partial(self._assign_die, address, None)))
        choices.append(_Choice(self._t("forget-it"), partial(
            self._stack.append, _Confirm(name, self._t("forget-die", name=name),
                                         partial(self._forget_die, address)))))
        self._stack.append(_List(name, choices))

    def _assign_die(self, address: str, role: str | None) -> None:
        assert self._smart_dice is not None
        self._stack.pop()
        try:
            self._smart_dice.assign(address, role)
        except KeyError:
            # Forgotten meanwhile, from a phone.
            self._say(self._t("pixels"), self._t("die-gone"))
        except ValueError as refused:
            self._say(self._t("pixels"), str(refused))

    def _forget_die(self, address: str) -> None:
        assert self._smart_dice is not None
        self._stack.pop()  # the die's list
        try:
            self._smart_dice.forget(address)
        except KeyError:
            pass  # forgotten meanwhile (from a phone)

    # -- joining: the Wi-Fi, then the panel ----------------------------------------

    def show_join(self) -> None:
        """Put the Join screens on top (the Wi-Fi's first while the
        companion is the hotspot), e.g. when its network changed."""
        self._sync()
        self._stack = [level for level in self._stack
                       if not isinstance(level, (_Join, _WifiJoin))]
        self._open_join(put_up=True)

    def say(self, title: str, text: str) -> None:
        """A message over whatever is on screen; any key puts it away."""
        self._sync()
        self._say(title, text)

    def _ask_switch(self, ssid: str) -> None:
        if self._switch_network is None:
            return
        switch = self._switch_network

        def switch_now() -> None:
            self._stack.clear()
            switch()

        self._stack.append(_Confirm(self._t("wifi"), self._t("wifi-switch", ssid=ssid),
                                    switch_now))

    def _open_join(self, put_up: bool = False) -> None:
        own = self._wifi() if self._wifi is not None else None
        if own is not None:
            self._stack.append(_WifiJoin(*own, put_up=put_up))
            return
        self._open_panel_join(put_up=put_up)

    def _open_panel_join(self, put_up: bool = False) -> None:
        if self._join_info is None:
            self._say(self._t("join"), self._t("no-panel"))
            return
        url, pin = self._join_info()
        self._stack.append(_Join(url, pin, put_up))

    def _playing(self) -> bool:
        """Whether a game is being played (not over)."""
        return self.update is not None and not self.update.over

    def _drop_put_up_joins(self) -> None:
        self._stack = [level for level in self._stack
                       if not (isinstance(level, (_Join, _WifiJoin)) and level.put_up)]

    def _ask_sign_out(self) -> None:
        self._stack.append(_Confirm(
            self._t("sign-out"), self._t("sign-out-ask"), self._signed_out))

    def _signed_out(self) -> None:
        assert self._sign_out is not None
        self._stack.clear()
        url, pin = self._sign_out()
        self._stack.append(_Join(url, pin))

    def _open_new_game(self) -> None:
        choices = []
        if self.update is not None:
            choices.append(_Choice(self._t("rematch-of", title=self.update.title),
                                   self._ask_rematch))
        for cls in available():
            choices.append(_Choice(cls.title, partial(self._choose_players, cls)))
        self._stack.append(_List(self._t("new-game"), choices))

    def _ask_rematch(self) -> None:
        update = self._shown()
        game = _game_of(self._table)
        setup = game.setup if game is not None and game.key == update.game_key else None
        players = tuple(setup.players) if setup else tuple(update.players)
        variants = tuple(sorted(setup.variants)) if setup else ()
        options = dict(setup.options) if setup else {}
        self._stack.append(_Confirm(
            self._t("rematch"), self._t("rematch-ask", title=update.title,
                                        players=", ".join(players)),
            partial(self._start_game, update.game_key, players, variants, options)))

    def _choose_players(self, cls: type[Game]) -> None:
        counts = range(cls.min_players, min(cls.max_players, len(self._names)) + 1)
        choices = []
        for count in counts:
            names = self._names[:count]
            ask = _Confirm(self._t("new-game"), self._t("new-game-ask", title=cls.title,
                                                         players=", ".join(names)),
                           partial(self._start_game, cls.key, names, (), {}))
            choices.append(_Choice(f"{count}: {', '.join(names)}",
                                   partial(self._stack.append, ask)))
        self._stack.append(_List(self._t("players-of", title=cls.title), choices))

    def _start_game(self, key: str, players: Sequence[str], variants: Sequence[str],
                    options: Mapping[str, Any]) -> None:
        self._stack.clear()
        try:
            update = self._table.new_game(key, list(players), variants, options,
                                          expected_game=self.game_id,
                                          expected_version=self.version)
        except StaleVersion:
            self._refresh()
            self._say(self._t("changed"), self._t("changed-no-game"))
        except BadSetup as refused:
            self._say(self._t("new-game"), refused.say(self._lang))
        else:
            self._adopt(update)

    def _list_key(self, level: _List, key: str) -> bool:
        if isinstance(level, _LiveList):
            level.refresh()
        if key in ("up", "down"):
            level.step(1 if key == "up" else -1)
            return True
        if key == "back":
            self._stack.pop()
            return True
        if key == "ok" and level.choices:
            level.choices[level.index].action()
            return True
        return False

    def _say(self, title: str, text: str) -> None:
        self._stack.append(_Message(title, text))


    @property
    def language(self) -> str:
        """The table's language, the menu's words are in."""
        return self._lang

    @language.setter
    def language(self, language: str) -> None:
        self._lang = language

    def _t(self, key: str, **fields: Any) -> str:
        """The menu's words for ``key`` in the table's language."""
        return say(f"menu.{key}", self._lang, **fields)

    def _die_label(self, die: SmartDie, role: str = "") -> str:
        """``d6: Pixel 42 87%``, ``Pixel 7 (away)``."""
        battery = f" {die.battery}%" if die.battery is not None else ""
        away = "" if die.connected or not role else f" ({self._t('away')})"
        return f"{role + ': ' if role else ''}{die.name}{battery}{away}"

    def _shown(self) -> Update:
        """The update on screen: every level that reads it opens over a game."""
        if self.update is None:
            raise NoGame("refusal.no-game")
        return self.update


def _newer(update: Update, than: Update) -> bool:
    if update.game_id != than.game_id:
        return True
    return update.version > than.version


def _game_of(table: TablePort) -> Game | None:
    try:
        return table.game
    except NoGame:
        return None


def _spec_range(param: Param) -> tuple[int | None, int | None]:
    return param.low, param.high
