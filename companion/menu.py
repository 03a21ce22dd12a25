"""The table UI: key presses in, commands out, and what the OLED shows.

:class:`TableMenu` is a state machine for the five keys.  It builds every
command from the game's :class:`~companion.engine.CommandSpec` objects and
from what the game says it waits for (its expectations), so it drives any
engine without knowing its rules; :data:`HINTS` only tunes, per game and
command, the starting values and the order of lists, to keep a typical turn
to a few presses.  It is pure: no hardware, no clock, no randomness.  Its
output is a :class:`MenuView`, which ``drivers/menu_screens.py`` draws.

On the game screen:

- UP or DOWN starts answering what the game waits for first and already
  changes its first value (a card of +3 is UP UP UP OK);
- OK starts it at its starting value (a +0 card is OK OK);
- holding OK lists everything the game accepts now (a special card, a
  queue operation...), then the corrections;
- BACK opens the main menu: undo, redo, actions, corrections, dice source,
  join, new game;
- ROLL enters a roll by hand when the dice source is ``manual`` (otherwise
  the dice driver rolls).

The keys arrive as ``(key, kind)`` from ``drivers/buttons.py``: a ``"long"``
follows the ``"press"`` of the same key, so a long press only adds to what
its press did; ``"repeat"`` comes while UP or DOWN is held.

Threads: call :meth:`TableMenu.on_key` and :meth:`TableMenu.view` from one
thread.  :meth:`TableMenu.on_update` may be called from any thread (it is the
table's listener, called inside the table's lock): it only records the
update, which the next key or view takes in.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .engine import Command, CommandSpec, Dice, Expectation, Param
from .errors import BadSetup, CompanionError, IllegalCommand, NoGame, StaleVersion
from .games import available, game_class

KEYS = ("up", "down", "ok", "back", "roll")
KINDS = ("press", "long", "repeat")
VIEW_KINDS = ("game", "list", "value", "confirm", "message", "qr", "dice")
DICE_SOURCES = ("button", "manual", "serial")

# How the table's journal names what came from the keys.
SOURCE = "buttons"
# A held UP or DOWN steps by one, then, after this many repeats, by FAST_STEP.
FAST_AFTER = 3
FAST_STEP = 5
# An int parameter with no bounds of its own is kept within these.
DEFAULT_BOUNDS = (-99, 999)
# Notes offered for a free-text parameter when the game names none: there is
# no keyboard at the table.
DEFAULT_NOTES = ("Corrected by hand", "Card played by mistake", "House rule applied",
                 "Game paused")
DEFAULT_NAMES = tuple(f"Player {n}" for n in range(1, 9))
NONE_LABEL = "(none)"

KEYS_ENTER = "OK: enter  BACK: back"
# How far the entry of a command got after a value was entered.
EDITING, DONE, BLOCKED = "editing", "done", "blocked"
KEYS_CONFIRM = "OK: yes  BACK: no"


class UnknownKey(CompanionError, ValueError):
    """A key or a kind of press that the table does not have."""

    def __init__(self, key: str, kind: str) -> None:
        super().__init__(
            f"no key {key!r} pressed as {kind!r}: keys are {', '.join(KEYS)}, "
            f"kinds are {', '.join(KINDS)}"
        )


@dataclass(frozen=True)
class MenuView:
    """What the OLED shows now.

    ``kind`` is one of :data:`VIEW_KINDS`: ``game`` (the game's own screen;
    ``footer`` is the first thing the game waits for), ``list`` (``items``
    with ``index`` highlighted), ``value`` (a number being entered: ``value``
    within ``low``..``high``, with a sign when ``signed``), ``dice`` (a roll
    entered die by die: ``items`` the faces so far, ``?`` for dice to come,
    ``index`` the die being entered, ``unit`` the dice's name, ``high`` their
    sides), ``confirm`` and ``message`` (``text`` is the question or the
    message), ``qr`` (``url`` and ``pin`` to join from a phone).  Elsewhere
    ``text`` is a line of help; ``footer`` says what the keys do.
    """

    kind: str
    title: str = ""
    items: tuple[str, ...] = ()
    index: int = 0
    value: int | None = None
    low: int | None = None
    high: int | None = None
    signed: bool = False
    unit: str = ""
    text: str = ""
    footer: str = ""
    url: str = ""
    pin: str = ""


# -- hints ---------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What a hint may look at: the table now (the engine's view), what is
    being answered, who acts, and the arguments chosen so far (seats as
    numbers)."""

    state: Mapping[str, Any]
    players: tuple[str, ...]
    expectation: Expectation | None
    actor: int | None
    args: Mapping[str, Any]


@dataclass(frozen=True)
class ParamHint:
    """How the menu offers one parameter.  Each field may be a value or a
    function of the :class:`Context`.

    ``start``: the value, choice or seat to start from; ``bounds``: an int
    parameter's (low, high); ``offer``: the choices or seats offered, in
    order; ``labels``: how choices are shown; ``notes``: the canned texts of
    a text parameter; ``label``: the parameter's name on screen; ``skip``:
    leave the parameter out (the game's default applies).
    """

    start: Any = None
    bounds: Any = None
    offer: Any = None
    labels: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    label: str = ""
    skip: Any = False


@dataclass(frozen=True)
class CommandHint:
    """How the menu offers one command: its name in lists, whether to ask
    before sending it (``None``: ask for corrections, and for a command with
    nothing to enter opened straight from the game screen), and its
    parameters' hints."""

    label: str = ""
    confirm: bool | None = None
    params: Mapping[str, ParamHint] = field(default_factory=dict)


def humanize(name: str) -> str:
    """``set-pressure`` -> ``Set pressure``."""
    text = name.replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


# -- editors: one parameter being entered --------------------------------------


class _Number:
    """A whole number within bounds; UP and DOWN step, held keys step fast."""

    def __init__(self, value: int, low: int, high: int) -> None:
        self.low, self.high = low, high
        self.value = min(high, max(low, value))

    def step(self, delta: int, fast: bool) -> None:
        if fast and delta > 0:
            # Fast steps land on multiples of FAST_STEP, the way people count.
            value = (self.value // FAST_STEP + 1) * FAST_STEP
        elif fast:
            value = -((-self.value) // FAST_STEP + 1) * FAST_STEP
        else:
            value = self.value + delta
        self.value = min(self.high, max(self.low, value))

    def result(self) -> int:
        return self.value


class _Pick:
    """One of a list (choices, players, notes); the ends wrap around."""

    def __init__(self, labels: Sequence[str], values: Sequence[Any], index: int = 0) -> None:
        self.labels, self.values, self.index = tuple(labels), tuple(values), index

    def step(self, delta: int, fast: bool) -> None:
        # UP (+1) moves the highlight up the list, to the line before.
        self.index = (self.index - delta) % len(self.values)

    def result(self) -> Any:
        return self.values[self.index]


class _Roll:
    """The values of one roll, one die after the other (faces wrap around)."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.values: list[int] = []
        self.value = 1

    def step(self, delta: int, fast: bool) -> None:
        self.value = (self.value - 1 + delta) % self.dice.sides + 1

    def next_die(self) -> bool:
        """Keep the face shown; True once every die has one."""
        self.values.append(self.value)
        self.value = 1
        return len(self.values) == self.dice.count

    def previous_die(self) -> bool:
        if not self.values:
            return False
        self.value = self.values.pop()
        return True

    def result(self) -> list[int]:
        return list(self.values)


class _Skipped:
    """A parameter a hint leaves out: the game's default applies."""

    def result(self) -> None:
        return None


# -- frames: the levels of the menu, stacked -------------------------------------


class _Frame:
    """One level of the menu.  ``version`` is set on a level built from one
    state of the table that means nothing once the state has changed."""

    version: int | None = None

    def still_valid(self, update: Any) -> bool:
        return self.version is None or self.version == update.version


@dataclass
class _Choice:
    label: str
    action: Callable[[], None]


class _List(_Frame):
    def __init__(self, title: str, choices: Sequence[_Choice], index: int = 0,
                 version: int | None = None) -> None:
        self.title, self.choices, self.index, self.version = title, list(choices), index, version

    def step(self, delta: int) -> None:
        if self.choices:
            self.index = (self.index - delta) % len(self.choices)


class _Confirm(_Frame):
    def __init__(self, title: str, question: str, action: Callable[[], None],
                 version: int | None = None) -> None:
        self.title, self.question, self.action, self.version = title, question, action, version


class _Message(_Frame):
    def __init__(self, title: str, text: str) -> None:
        self.title, self.text = title, text


class _Join(_Frame):
    def __init__(self, url: str, pin: str) -> None:
        self.url, self.pin = url, pin


class _Entry(_Frame):
    """A command being built, one parameter after the other.  ``editors``
    holds one editor per parameter entered so far, in ``params`` order."""

    def __init__(self, spec: CommandSpec, expectation: Expectation | None,
                 fixed: Mapping[str, Any], params: Sequence[Param], hint: CommandHint,
                 chosen: bool) -> None:
        self.spec, self.expectation, self.hint = spec, expectation, hint
        self.fixed = dict(fixed)
        self.params = list(params)
        self.editors: list[Any] = []
        # Picked from a list (the pick was the decision) rather than opened
        # by OK on the game screen.
        self.chosen = chosen

    @property
    def label(self) -> str:
        return self.hint.label or humanize(self.spec.name)

    def param_hint(self, param: Param) -> ParamHint:
        return self.hint.params.get(param.name, ParamHint())

    def args(self) -> dict[str, Any]:
        args = dict(self.fixed)
        for param, editor in zip(self.params, self.editors):
            args[param.name] = editor.result()
        return args

    def command(self, players: Sequence[str]) -> Command:
        """The command with its arguments in the spec's order and players by
        name, so that the history and the undo question read as people
        speak; a value left out stays out."""
        chosen = self.args()
        args: dict[str, Any] = {}
        for param in self.spec.params:
            value = chosen.get(param.name)
            if value is None:
                continue
            if param.kind == "player" and isinstance(value, int) and 0 <= value < len(players):
                value = players[value]
            args[param.name] = value
        return Command(self.spec.name, args)

    def still_valid(self, update: Any) -> bool:
        return self.expectation is None or self.expectation in update.expected


# -- the machine -------------------------------------------------------------------


class TableMenu:
    """Turns key presses into commands for the table; see the module
    docstring.

    ``table`` needs ``submit(command, expected_version=, source=)``,
    ``undo(expected_version=, source=)``, ``redo(...)`` and ``current()``;
    when it has them, ``new_game(key, players, variants, options)`` gives the
    New game menu, ``game.setup`` a rematch with the same variants and
    options, and ``game.param_range`` the ranges the setup allows.
    ``join_info()`` returns ``(url, pin)`` for the Join screen.
    ``dice_source`` is the source in use (or a function that says it) and
    ``set_dice_source(name)`` changes it.  ``player_names`` are the names a
    game started from the menu takes, in order.
    """

    def __init__(
        self,
        table: Any,
        *,
        join_info: Callable[[], tuple[str, str]] | None = None,
        dice_source: str | Callable[[], str] = "button",
        set_dice_source: Callable[[str], None] | None = None,
        player_names: Sequence[str] = (),
        hints: Mapping[tuple[str, str], CommandHint] | None = None,
        source: str = SOURCE,
    ) -> None:
        self._table = table
        self._join_info = join_info
        self._dice_source = dice_source
        self._set_dice_source = set_dice_source
        self._names = tuple(player_names) or DEFAULT_NAMES
        self._hints = HINTS if hints is None else hints
        self._source = source
        self._stack: list[_Frame] = []
        self._pending: Any = None
        self._pending_lock = threading.Lock()
        self._repeats = 0
        # What the last press did, for the long press that may follow it.
        self._ok_opened = False
        self._back_opened = False
        try:
            self.update = table.current()
        except NoGame:
            self.update = None

    # -- what the daemon calls ---------------------------------------------------

    @property
    def version(self) -> int | None:
        return self.update.version if self.update is not None else None

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

    def on_update(self, update: Any) -> None:
        """The table's listener: keep the newest state for the next key or
        view (quick, and safe from any thread)."""
        with self._pending_lock:
            if self._pending is None or _newer(update, self._pending):
                self._pending = update

    def on_key(self, key: str, kind: str = "press") -> bool:
        """Handle one key event; True when it changed something to show."""
        if key not in KEYS or kind not in KINDS:
            raise UnknownKey(key, kind)
        self._sync()
        self._repeats = self._repeats + 1 if kind == "repeat" else 0
        fast = self._repeats > FAST_AFTER
        ok_opened, back_opened = self._ok_opened, self._back_opened
        self._ok_opened = self._back_opened = False
        if kind == "long":
            return self._long(key, ok_opened, back_opened)
        top = self._stack[-1] if self._stack else None
        if top is None:
            return self._game_key(key, fast)
        if isinstance(top, _Entry):
            return self._entry_key(top, key, fast)
        if isinstance(top, _List):
            return self._list_key(top, key)
        if isinstance(top, _Confirm):
            if key in ("ok", "back"):
                self._stack.pop()
                if key == "ok":
                    top.action()
                elif self._stack and isinstance(self._stack[-1], _Entry):
                    _reopen(self._stack[-1])
                return True
            return False
        # A message or the join screen: any key puts it away, but ROLL (the
        # dice's own key) and the repeats of a key still held.
        if key == "roll" or kind == "repeat":
            return False
        self._stack.pop()
        return True

    def view(self) -> MenuView:
        self._sync()
        top = self._stack[-1] if self._stack else None
        if top is None:
            return self._game_view()
        if isinstance(top, _List):
            return MenuView("list", top.title, tuple(c.label for c in top.choices), top.index,
                            footer=KEYS_ENTER)
        if isinstance(top, _Confirm):
            return MenuView("confirm", top.title, text=top.question, footer=KEYS_CONFIRM)
        if isinstance(top, _Message):
            return MenuView("message", top.title, text=top.text, footer="OK")
        if isinstance(top, _Join):
            return MenuView("qr", "Join", url=top.url, pin=top.pin,
                            text="Scan to open the table on your phone", footer="OK")
        return self._entry_view(top)

    # -- keeping up with the table -------------------------------------------------

    def _sync(self) -> None:
        with self._pending_lock:
            update, self._pending = self._pending, None
        if update is not None:
            self._adopt(update)

    def _adopt(self, update: Any) -> None:
        if self.update is not None and not _newer(update, self.update):
            return
        new_game = self.update is None or update.game_id != self.update.game_id
        self.update = update
        if new_game:
            self._stack = [f for f in self._stack if isinstance(f, _Join)]
            return
        # Drop the first level built on a state that no longer holds, and
        # every level opened from it.
        for depth, frame in enumerate(self._stack):
            if not frame.still_valid(update):
                del self._stack[depth:]
                break

    def _refresh(self) -> None:
        try:
            self._adopt(self._table.current())
        except NoGame:
            pass

    # -- the game screen ---------------------------------------------------------

    def _game_view(self) -> MenuView:
        update = self.update
        if update is None:
            return MenuView("game", "Tabletop Companion", footer="No game: OK to start one")
        if update.over:
            footer = update.result.message if update.result else "Game over"
        elif update.expected:
            first = update.expected[0]
            footer = first.prompt
            if first.dice is not None and self.dice_source != "manual":
                footer = f"ROLL: {footer}"
        else:
            footer = ""
        return MenuView("game", update.title, footer=footer)

    def _game_key(self, key: str, fast: bool) -> bool:
        update = self.update
        if key == "back":
            self._open_main_menu()
            self._back_opened = True
            return True
        if update is None or update.over:
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
            self._open_actions()
            self._stack[-1].step(delta)
            return True
        self._start(entry)
        top = self._stack[-1] if self._stack else None
        if top is entry:
            entry.editors[-1].step(delta, fast)
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

    # -- answering what the game waits for ----------------------------------------

    def _answer(self, expectation: Expectation, chosen: bool) -> None:
        entry = self._entry_for(expectation, chosen)
        if entry is None:
            self._say("Not here", f"'{expectation.command}' is not a command of "
                                  f"{self.update.title}")
            return
        self._start(entry)

    def _entry_for(self, expectation: Expectation | None, chosen: bool,
                   spec: CommandSpec | None = None) -> _Entry | None:
        update = self.update
        try:
            spec = spec or game_class(update.game_key).spec(expectation.command)
        except (IllegalCommand, BadSetup):
            return None
        hint = self._hints.get((update.game_key, spec.name), CommandHint())
        fixed: dict[str, Any] = {}
        params: list[Param] = []
        for param in spec.params:
            if expectation is not None and param.name in expectation.args:
                fixed[param.name] = expectation.args[param.name]
            elif (param.name == "player" and param.kind == "player" and param.optional
                  and expectation is not None and expectation.player is not None):
                # The game fills in who acts, unless several players could
                # answer with this command.
                seats = {e.player for e in update.expected if e.command == spec.name}
                if len(seats) > 1:
                    fixed[param.name] = expectation.player
            elif hint.params.get(param.name, ParamHint()).skip is not True:
                params.append(param)
        return _Entry(spec, expectation, fixed, params, hint, chosen)

    def _start(self, entry: _Entry) -> None:
        """Put the entry on screen at its first parameter, or go straight to
        sending it when there is nothing to enter."""
        self._stack.append(entry)
        if self._open_next(entry) == BLOCKED:
            self._stack.remove(entry)

    def _open_next(self, entry: _Entry) -> str:
        """Open the editor of the next parameter (EDITING), or send the
        command once all are entered (DONE); BLOCKED when the parameter
        cannot be entered here, and a message says why."""
        while len(entry.editors) < len(entry.params):
            param = entry.params[len(entry.editors)]
            context = self._context(entry)
            phint = entry.param_hint(param)
            if _resolve(phint.skip, context):
                entry.editors.append(_Skipped())
                continue
            editor = self._editor(entry, param, phint, context)
            if editor is None:
                return BLOCKED
            entry.editors.append(editor)
            return EDITING
        if not any(not isinstance(e, _Skipped) for e in entry.editors):
            # Nothing was entered: there is nothing to go back to either.
            self._stack.remove(entry)
        self._finish(entry)
        return DONE

    def _editor(self, entry: _Entry, param: Param, phint: ParamHint, context: Context) -> Any:
        if param.kind == "dice":
            if self.dice_source != "manual":
                what = entry.expectation.prompt if entry.expectation else entry.label
                where = "press ROLL" if self.dice_source == "button" else "roll the dice device"
                self._say("Roll", f"{what}: {where}, or choose manual dice in the menu")
                return None
            expected = entry.expectation.dice if entry.expectation else None
            return _Roll(expected or Dice(6))
        if param.kind == "int":
            low, high = self._bounds(param, phint, context)
            start = _resolve(phint.start, context)
            if not isinstance(start, int):
                start = 0 if low <= 0 <= high else low
            return _Number(start, low, high)
        labels, values = self._offer(param, phint, context, rules=not entry.spec.correction)
        if not values:
            self._say("Nothing to choose",
                      f"no {self._param_label(entry, param)} can be chosen now")
            return None
        # A hint may start on "(none)"; without one, the first line.
        start = _resolve(phint.start, context)
        chosen = start is not None or phint.start is not None
        index = values.index(start) if chosen and start in values else 0
        return _Pick(labels, values, index)

    def _bounds(self, param: Param, phint: ParamHint, ctx: Context) -> tuple[int, int]:
        bounds = _resolve(phint.bounds, ctx)
        if bounds is None:
            bounds = (param.low, param.high)
            game = _game_of(self._table)
            if game is not None and game.key == self.update.game_key:
                bounds = game.param_range(param)
        low, high = bounds
        return (DEFAULT_BOUNDS[0] if low is None else low,
                DEFAULT_BOUNDS[1] if high is None else high)

    def _offer(self, param: Param, phint: ParamHint, ctx: Context, rules: bool
               ) -> tuple[list[str], list[Any]]:
        offered = _resolve(phint.offer, ctx)
        offered = list(offered) if offered is not None else None
        if param.kind == "player":
            seats = offered if offered is not None else _seats(param, ctx, rules)
            labels = [ctx.players[s] + (" (out)" if _out(ctx.state, s) else "") for s in seats]
            values: list[Any] = list(seats)
        elif param.kind == "choice":
            values = offered if offered is not None else list(param.choices)
            labels = [phint.labels.get(v, humanize(v)) for v in values]
        elif param.kind == "bool":
            values, labels = [True, False], ["Yes", "No"]
        else:  # text
            values = offered if offered is not None else list(phint.notes or DEFAULT_NOTES)
            labels = [str(v) for v in values]
        if param.optional and param.kind != "player":
            # Last, so that the usual answer stays one press away.
            values, labels = [*values, None], [*labels, NONE_LABEL]
        return labels, values

    def _context(self, entry: _Entry) -> Context:
        update = self.update
        actor = entry.expectation.player if entry.expectation is not None else None
        if actor is None and update.expected:
            actor = update.expected[0].player
        return Context(update.state, tuple(update.players), entry.expectation, actor,
                       entry.args())

    def _param_label(self, entry: _Entry, param: Param) -> str:
        return entry.param_hint(param).label or humanize(param.name).lower()

    def _entry_key(self, entry: _Entry, key: str, fast: bool) -> bool:
        editor = entry.editors[-1]
        if key in ("up", "down"):
            editor.step(1 if key == "up" else -1, fast)
            return True
        if key == "roll":
            return False
        if key == "back":
            if isinstance(editor, _Roll) and editor.previous_die():
                return True
            entry.editors.pop()
            if not _reopen(entry):
                self._stack.remove(entry)
            return True
        if isinstance(editor, _Roll) and not editor.next_die():
            return True
        if self._open_next(entry) == BLOCKED and isinstance(editor, _Roll):
            # The message is shown over the entry, which waits as it was.
            editor.previous_die()
        return True

    def _entry_view(self, entry: _Entry) -> MenuView:
        editor = entry.editors[-1]
        param = entry.params[len(entry.editors) - 1]
        if len(entry.params) > 1:
            title = f"{entry.label}: {self._param_label(entry, param)}"
        else:
            title = entry.expectation.prompt if entry.expectation else entry.label
        text = entry.expectation.prompt if entry.expectation else (param.help or entry.spec.help)
        if isinstance(editor, _Number):
            return MenuView("value", title, value=editor.value, low=editor.low,
                            high=editor.high, signed=editor.low < 0, text=text,
                            footer=KEYS_ENTER)
        if isinstance(editor, _Roll):
            faces = [str(v) for v in editor.values] + [str(editor.value)]
            faces += ["?"] * (editor.dice.count - len(faces))
            return MenuView("dice", title, tuple(faces), len(editor.values),
                            value=editor.value, low=1, high=editor.dice.sides,
                            unit=editor.dice.name, text=text, footer=KEYS_ENTER)
        return MenuView("list", title, editor.labels, editor.index, text=text,
                        footer=KEYS_ENTER)

    def _finish(self, entry: _Entry) -> None:
        """All is entered: send the command, or ask first."""
        command = entry.command(self.update.players)
        confirm = entry.hint.confirm
        if confirm is None:
            entered = any(not isinstance(e, _Skipped) for e in entry.editors)
            confirm = entry.spec.correction or not (entered or entry.chosen)
        if not confirm:
            self._send(command)
            return
        version = self.version if entry.expectation is not None else None
        self._stack.append(_Confirm(entry.label, f"{entry.label}{self._describe(entry)}?",
                                    lambda: self._send(command), version))

    def _describe(self, entry: _Entry) -> str:
        """What was entered, as the question before sending shows it."""
        parts = []
        for editor in entry.editors:
            if isinstance(editor, _Pick):
                parts.append(editor.labels[editor.index])
            elif isinstance(editor, _Number):
                parts.append(f"{editor.value:+d}" if editor.low < 0 else str(editor.value))
            elif isinstance(editor, _Roll):
                parts.append(" ".join(str(v) for v in editor.values))
        if not parts and entry.expectation is not None and entry.expectation.player is not None:
            return f": {self.update.players[entry.expectation.player]}"
        return (" " + " ".join(parts)) if parts else ""

    def _send(self, command: Command) -> None:
        self._stack.clear()
        self._table_call(self._table.submit, command)

    def _table_call(self, call: Callable[..., Any], *args: Any) -> None:
        """Submit, undo or redo against the state the menu showed; a refusal
        is shown in the engine's words, and a state changed meanwhile is
        shown again."""
        try:
            update = call(*args, expected_version=self.version, source=self._source)
        except StaleVersion:
            self._refresh()
            self._say("Changed meanwhile", "The table changed meanwhile (from a phone?): "
                                           "nothing was done. Look again.")
        except IllegalCommand as refused:
            self._say("Refused", str(refused))
        else:
            self._adopt(update)

    # -- the menus --------------------------------------------------------------------

    def _open_main_menu(self) -> None:
        choices = []
        if self.update is not None:
            choices += [
                _Choice("Undo", self._ask_undo),
                _Choice("Redo", self._redo),
                _Choice("Actions", self._open_actions),
                _Choice("Corrections", self._open_corrections),
            ]
        choices += [
            _Choice(f"Dice: {self.dice_source}", self._open_dice_sources),
            _Choice("Join (QR code)", self._open_join),
            _Choice("New game", self._open_new_game),
        ]
        self._stack.append(_List("Menu", choices))

    def _ask_undo(self) -> None:
        update = self.update
        if not update.can_undo:
            self._say("Undo", "Nothing to undo: the game is at its setup")
            return
        self._stack.append(_Confirm("Undo", f"Undo: {update.undo_text}?", self._undo,
                                    update.version))

    def _undo(self) -> None:
        self._stack.clear()
        self._table_call(self._table.undo)

    def _redo(self) -> None:
        if not self.update.can_redo:
            self._say("Redo", "Nothing to redo")
            return
        self._stack.clear()
        self._table_call(self._table.redo)

    def _open_actions(self) -> None:
        """Everything the game accepts now, then the corrections."""
        update = self.update
        choices = []
        for expectation in update.expected:
            label = expectation.prompt
            if label.partition(" ")[0].rstrip(":") == expectation.command:
                # A prompt written as the command's words: its name reads better.
                label = self._hints.get((update.game_key, expectation.command),
                                        CommandHint()).label or humanize(expectation.command)
            choices.append(_Choice(label, lambda e=expectation: self._answer(e, chosen=True)))
        choices.append(_Choice("Corrections", self._open_corrections))
        self._stack.append(_List("Actions", choices, version=update.version))

    def _open_corrections(self) -> None:
        key = self.update.game_key
        choices = []
        for spec in game_class(key).commands:
            if spec.correction:
                label = self._hints.get((key, spec.name), CommandHint()).label or \
                    humanize(spec.name)
                choices.append(_Choice(label, lambda s=spec: self._start(
                    self._entry_for(None, chosen=True, spec=s))))
        if not choices:
            self._say("Corrections", f"{self.update.title} has no corrections")
            return
        self._stack.append(_List("Corrections", choices))

    def _open_dice_sources(self) -> None:
        current = self.dice_source
        choices = [_Choice(name, lambda n=name: self._choose_dice_source(n))
                   for name in DICE_SOURCES]
        index = DICE_SOURCES.index(current) if current in DICE_SOURCES else 0
        self._stack.append(_List("Dice source", choices, index))

    def _choose_dice_source(self, name: str) -> None:
        try:
            self.dice_source = name
        except ValueError as refused:
            self._say("Dice", str(refused))
            return
        self._stack.clear()

    def _open_join(self) -> None:
        if self._join_info is None:
            self._say("Join", "The phone panel is not running")
            return
        url, pin = self._join_info()
        self._stack.append(_Join(url, pin))

    def _open_new_game(self) -> None:
        if not hasattr(self._table, "new_game"):
            self._say("New game", "Start a game from the phone panel")
            return
        choices = []
        if self.update is not None:
            choices.append(_Choice(f"Rematch: {self.update.title}", self._ask_rematch))
        for cls in available():
            choices.append(_Choice(cls.title, lambda c=cls: self._choose_players(c)))
        self._stack.append(_List("New game", choices))

    def _ask_rematch(self) -> None:
        update = self.update
        game = _game_of(self._table)
        setup = game.setup if game is not None and game.key == update.game_key else None
        players = tuple(setup.players) if setup else tuple(update.players)
        variants = tuple(sorted(setup.variants)) if setup else ()
        options = dict(setup.options) if setup else {}
        self._stack.append(_Confirm(
            "Rematch", f"New {update.title} with {', '.join(players)}?",
            lambda: self._start_game(update.game_key, players, variants, options)))

    def _choose_players(self, cls: Any) -> None:
        counts = range(cls.min_players, min(cls.max_players, len(self._names)) + 1)
        choices = []
        for count in counts:
            names = self._names[:count]
            ask = _Confirm("New game", f"{cls.title} with {', '.join(names)}?",
                           lambda n=names: self._start_game(cls.key, n, (), {}))
            choices.append(_Choice(f"{count}: {', '.join(names)}",
                                   lambda a=ask: self._stack.append(a)))
        self._stack.append(_List(f"{cls.title}: players", choices))

    def _start_game(self, key: str, players: Sequence[str], variants: Sequence[str],
                    options: Mapping[str, Any]) -> None:
        self._stack.clear()
        try:
            update = self._table.new_game(key, list(players), variants, options)
        except BadSetup as refused:
            self._say("New game", str(refused))
        else:
            self._adopt(update)

    def _list_key(self, frame: _List, key: str) -> bool:
        if key in ("up", "down"):
            frame.step(1 if key == "up" else -1)
            return True
        if key == "back":
            self._stack.pop()
            return True
        if key == "ok" and frame.choices:
            frame.choices[frame.index].action()
            return True
        return False

    def _say(self, title: str, text: str) -> None:
        self._stack.append(_Message(title, text))


# -- small helpers -------------------------------------------------------------------


def _reopen(entry: _Entry) -> bool:
    """Go back to the last value entered (over the parameters left out);
    False when there is none."""
    while entry.editors and isinstance(entry.editors[-1], _Skipped):
        entry.editors.pop()
    if not entry.editors:
        return False
    if isinstance(entry.editors[-1], _Roll):
        entry.editors[-1].previous_die()
    return True


def _newer(update: Any, than: Any) -> bool:
    if update.game_id != than.game_id:
        return True
    return update.version > than.version


def _resolve(value: Any, ctx: Context) -> Any:
    """A hint's value; a hint that does not fit the state (an engine's view
    that changed) is ignored rather than breaking the table's keys."""
    if not callable(value):
        return value
    try:
        return value(ctx)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None


def _game_of(table: Any) -> Any:
    try:
        return getattr(table, "game", None)
    except NoGame:
        return None


def _seats(param: Param, ctx: Context, rules: bool) -> list[int]:
    """Seats in playing order: the actor first when choosing who acts, the
    next player first when choosing a target.  Players who are out are left
    off for a rule, listed last for a correction."""
    count = len(ctx.players)
    actor = ctx.actor if ctx.actor is not None else 0
    first = actor if param.name == "player" else (actor + 1) % count
    order = [(first + step) % count for step in range(count)]
    living = [s for s in order if not _out(ctx.state, s)]
    if rules:
        return living
    return living + [s for s in order if _out(ctx.state, s)]


def _out(state: Mapping[str, Any], seat: int) -> bool:
    """Whether the game's view marks a seat as out of the game (the engines
    list their players under "players" or "reserves")."""
    for key in ("players", "reserves"):
        entries = state.get(key)
        if isinstance(entries, list) and 0 <= seat < len(entries) \
                and isinstance(entries[seat], Mapping):
            entry = entries[seat]
            return bool(entry.get("eliminated") or entry.get("out")) or \
                entry.get("alive") is False
    return False


# -- per-game hints --------------------------------------------------------------------


def _state(key: str, default: Any = None) -> Callable[[Context], Any]:
    return lambda ctx: ctx.state.get(key, default)


def _actor(ctx: Context) -> int | None:
    return ctx.actor


def _player_entry(ctx: Context, arg: str, listing: str = "players") -> Mapping[str, Any]:
    return ctx.state[listing][ctx.args[arg]]


_CON_SPECIALS = {
    "u-turn": "U-TURN!",
    "critical-threshold": "CRITICAL THRESHOLD!",
    "little-trip-in-the-bushes": "Little Trip in Bushes",
    "we-are-all-the-same": "We Are All the Same",
    "suspense": "Suspense!",
    "tighten-the-sphincters": "Tighten Sphincters",
    "move-over": "Move Over!",
    "perseverance": "PERSEVERANCE!",
    "we-are-friends": "We're Friends, RIGHT?",
}


def _fullest_colour(ctx: Context) -> str | None:
    """The poop a Suppositoire most likely takes: the target's biggest heap."""
    pile = _player_entry(ctx, "target")["pile"]
    heaps = [(count, kind) for kind, count in pile.items() if count]
    return max(heaps)[1] if heaps else None


def _dead(ctx: Context) -> list[int]:
    return [p["seat"] for p in ctx.state["players"] if not p["alive"]]


_BR_ACTION_CARDS = ("Give Up Your Place", "Swap", "Sneeze", "Cunning", "Change Queue",
                    "Cleaner", "Empty Bottle", "Concentration")
_BR_PERSONAS = ("Elderly Man", "Mother with Baby", "Distracted", "Avid Reader",
                "Entrepreneur", "Infamous Person")


def _free_queue(ctx: Context) -> int | None:
    return next(q["index"] for q in ctx.state["queues"] if q["door"] and q["player"] is None)


def _actors_queue(ctx: Context) -> int | None:
    return ctx.state["reserves"][ctx.actor]["queue"]


def _reserve(token: str) -> Callable[[Context], int]:
    return lambda ctx: _player_entry(ctx, "player", "reserves")[token]


_TOKENS = {"pipi": ParamHint(label="pipì"), "popo": ParamHint(label="popò")}

HINTS: dict[tuple[str, str], CommandHint] = {
    # Call of Nature: a Pressure card is most turns, and starts at +0.
    ("call-of-nature", "card"): CommandHint("Pressure card", params={
        "value": ParamHint(start=0, bounds=lambda ctx: tuple(ctx.state["card_values"]))}),
    ("call-of-nature", "special"): CommandHint("Special card", params={
        "card": ParamHint(offer=_state("specials_in_deck"), labels=_CON_SPECIALS)}),
    ("call-of-nature", "held-thresholds"): CommandHint("Thresholds held"),
    ("call-of-nature", "set-pressure"): CommandHint("Set pressure", params={
        "value": ParamHint(start=_state("pressure", 0))}),
    ("call-of-nature", "adjust-mastery"): CommandHint("Adjust Mastery", params={
        "delta": ParamHint(start=-1)}),
    ("call-of-nature", "set-draw-pile"): CommandHint("Set draw pile", params={
        "count": ParamHint(start=_state("draw_pile", 1))}),
    ("call-of-nature", "skip"): CommandHint("Skip player"),
    ("call-of-nature", "reverse"): CommandHint("Reverse direction"),
    ("call-of-nature", "note"): CommandHint("Note", params={"text": ParamHint(notes=tuple(
        f"{name} applied" for slug, name in _CON_SPECIALS.items() if slug != "u-turn"))}),

    # OhShit!: a poop starts on the next player; a Toilette or a
    # Suppositoire is most often played on one's own pile.
    ("ohshit", "toilette"): CommandHint("Toilette", params={"target": ParamHint(start=_actor)}),
    ("ohshit", "suppositoire"): CommandHint("Suppositoire", params={
        "target": ParamHint(start=_actor), "colour": ParamHint(start=_fullest_colour)}),
    ("ohshit", "set-pile"): CommandHint("Set pile", params={"count": ParamHint(
        start=lambda ctx: _player_entry(ctx, "player")["pile"][ctx.args["colour"]])}),
    ("ohshit", "set-constipated"): CommandHint("Constipated", params={"constipated": ParamHint(
        start=lambda ctx: not _player_entry(ctx, "player")["constipated"])}),
    ("ohshit", "kill"): CommandHint("Player out"),
    ("ohshit", "revive"): CommandHint("Bring back", params={"player": ParamHint(offer=_dead)}),
    ("ohshit", "skip"): CommandHint("Skip turn"),

    # Bathroom Rush: a neutral Persona needs no name; Concentration is
    # played as the Action card of that name.
    ("bathroom-rush", "choose-queue"): CommandHint("Choose queue", params={
        "queue": ParamHint(start=_free_queue)}),
    ("bathroom-rush", "reveal"): CommandHint("Reveal", params={
        **_TOKENS,
        "name": ParamHint(notes=_BR_PERSONAS,
                          skip=lambda ctx: ctx.args.get("colour") == "neutral")}),
    ("bathroom-rush", "set-persona"): CommandHint("Set Persona", params={
        **_TOKENS, "name": ParamHint(notes=_BR_PERSONAS)}),
    ("bathroom-rush", "action"): CommandHint("Action card", params={
        "card": ParamHint(notes=_BR_ACTION_CARDS)}),
    ("bathroom-rush", "decompress"): CommandHint("Decompress", params={
        "concentration": ParamHint(skip=True)}),
    ("bathroom-rush", "effects-done"): CommandHint("Effects done"),
    ("bathroom-rush", "end-turn"): CommandHint("End turn"),
    ("bathroom-rush", "add-tokens"): CommandHint("Add tokens", params={
        **_TOKENS, "queue": ParamHint(start=_actors_queue), "position": ParamHint(skip=True)}),
    ("bathroom-rush", "take-tokens"): CommandHint("Take tokens", params={
        "pipi": ParamHint(label="pipì", start=1), "popo": ParamHint(label="popò")}),
    ("bathroom-rush", "set-reserve"): CommandHint("Set reserve", params={
        "pipi": ParamHint(label="pipì", start=_reserve("pipi")),
        "popo": ParamHint(label="popò", start=_reserve("popo"))}),
    ("bathroom-rush", "set-tokens"): CommandHint("Set tokens", params=_TOKENS),
    ("bathroom-rush", "place-permanent"): CommandHint("Permanent card", params={
        **_TOKENS, "card": ParamHint(notes=("Bathroom Defence",) + _BR_ACTION_CARDS)}),
    ("bathroom-rush", "remove-permanent"): CommandHint("Remove permanent"),
}
