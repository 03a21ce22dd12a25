"""A command being entered at the table: its parameters walked one after
the other, each with an editor (a number, a pick from a list, a roll die by
die), started and ordered by the command's :mod:`hints <companion.core.hints>`.

An :class:`Entry` knows nothing of the keys' meaning elsewhere in the menu
nor of sending: the machine steps it, enters or takes back values, and sends
its :meth:`Entry.command` once it is complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..engine import Command, CommandSpec, Dice, Expectation, Param, ParamKind
from ..hints import CommandHint, Context, ParamHint
from ..table import Update
from .view import MenuView, ViewKind
from .words import MenuNames

# A held UP or DOWN steps by this much once it goes fast.
FAST_STEP = 5
# An int parameter with no bounds of its own is kept within these.
DEFAULT_BOUNDS = (-99, 999)
# Notes offered for a free-text parameter when the game names none: there is
# no keyboard at the table.
# (In the table's language: ``menu.note-1`` to ``menu.note-4``.)
DEFAULT_NOTES = ("Corrected by hand", "Card played by mistake", "House rule applied",
                 "Game paused")
NONE_LABEL = "(none)"
# How far :meth:`Entry.open_next` got: a value is being entered, or all are.
EDITING, DONE = "editing", "done"


@dataclass(frozen=True)
class EntryReads:
    """What an entry reads of the table: the update it is built on, the dice
    source in use, and the range the game allows an int parameter."""

    update: Update
    dice_source: str
    param_range: Callable[[Param], tuple[int | None, int | None]]


@dataclass(frozen=True)
class Blocked:
    """Why the next parameter cannot be entered here, as a message."""

    title: str
    text: str


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

    def step(self, delta: int, fast: bool) -> None:
        """Never on screen: the entry walks over it."""


_Editor = _Number | _Pick | _Roll | _Skipped


# -- the entry -------------------------------------------------------------------


class Entry:
    """A command being built, one parameter after the other.  ``editors``
    holds one editor per parameter entered so far, in ``params`` order."""

    def __init__(self, spec: CommandSpec, expectation: Expectation | None,
                 fixed: Mapping[str, Any], params: Sequence[Param], hint: CommandHint,
                 chosen: bool, words: MenuNames | None = None) -> None:
        self.spec, self.expectation, self.hint = spec, expectation, hint
        self.words = words or MenuNames()
        self.fixed = dict(fixed)
        self.params = list(params)
        self.editors: list[_Editor] = []
        # Picked from a list (the pick was the decision) rather than opened
        # by OK on the game screen.
        self.chosen = chosen

    @classmethod
    def build(cls, spec: CommandSpec, expectation: Expectation | None, hint: CommandHint,
              expected: Sequence[Expectation], chosen: bool,
              words: MenuNames | None = None) -> Entry:
        """The entry of ``spec``, answering ``expectation`` if any: what the
        game already says is fixed, what a hint leaves out is not asked."""
        fixed: dict[str, Any] = {}
        params: list[Param] = []
        for param in spec.params:
            if expectation is not None and param.name in expectation.args:
                fixed[param.name] = expectation.args[param.name]
            elif (param.name == "player" and param.kind == ParamKind.PLAYER and param.optional
                  and expectation is not None and expectation.player is not None):
                # The game fills in who acts, unless several players could
                # answer with this command.
                seats = {e.player for e in expected if e.command == spec.name}
                if len(seats) > 1:
                    fixed[param.name] = expectation.player
            elif hint.params.get(param.name, ParamHint()).skip is not True:
                params.append(param)
        return cls(spec, expectation, fixed, params, hint, chosen, words)

    @property
    def label(self) -> str:
        return self.words.command(self.spec.name, self.hint.label)

    @property
    def entered(self) -> bool:
        """Whether anything was entered (rather than all left out)."""
        return any(not isinstance(e, _Skipped) for e in self.editors)

    def param_hint(self, param: Param) -> ParamHint:
        return self.hint.params.get(param.name, ParamHint())

    def param_label(self, param: Param) -> str:
        return self.words.param(self.spec.name, param.name, self.param_hint(param).label)

    def _prompt(self, players: Sequence[str]) -> str:
        assert self.expectation is not None
        return self.words.prompt(self.expectation, players, self.hint.label)

    def args(self) -> dict[str, Any]:
        args = dict(self.fixed)
        for param, editor in zip(self.params, self.editors, strict=False):
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
            is_seat = isinstance(value, int) and 0 <= value < len(players)
            if param.kind == ParamKind.PLAYER and is_seat:
                value = players[value]
            args[param.name] = value
        return Command(self.spec.name, args)

    def still_valid(self, update: Update) -> bool:
        return self.expectation is None or self.expectation in update.expected

    # -- walking the parameters ------------------------------------------------

    def open_next(self, reads: EntryReads) -> str | Blocked:
        """Open the editor of the next parameter to enter, over those a hint
        leaves out (EDITING), or say that all are entered (DONE).  A
        parameter that cannot be entered here says why, and the entry waits
        as it was."""
        entered = len(self.editors)
        while len(self.editors) < len(self.params):
            param = self.params[len(self.editors)]
            context = self._context(reads)
            phint = self.param_hint(param)
            if _resolve(phint.skip, context):
                self.editors.append(_Skipped())
                continue
            editor = self._editor(param, phint, context, reads)
            if isinstance(editor, Blocked):
                del self.editors[entered:]
                return editor
            self.editors.append(editor)
            return EDITING
        return DONE

    def step(self, delta: int, fast: bool) -> None:
        self.editors[-1].step(delta, fast)

    def enter(self) -> bool:
        """Keep the value shown; False while the roll being entered still
        needs dice."""
        editor = self.editors[-1]
        return not isinstance(editor, _Roll) or editor.next_die()

    def return_die(self) -> None:
        """Put the last die of a roll back on screen: what follows it could
        not be opened, so the roll waits as it was."""
        editor = self.editors[-1]
        if isinstance(editor, _Roll):
            editor.previous_die()

    def back(self) -> bool:
        """Go back one value (the die before, or the parameter before);
        False when there is none and the entry is given up."""
        editor = self.editors[-1]
        if isinstance(editor, _Roll) and editor.previous_die():
            return True
        self.editors.pop()
        return self.reopen()

    def reopen(self) -> bool:
        """Go back to the last value entered (over the parameters left out);
        False when there is none."""
        while self.editors and isinstance(self.editors[-1], _Skipped):
            self.editors.pop()
        if not self.editors:
            return False
        if isinstance(self.editors[-1], _Roll):
            self.editors[-1].previous_die()
        return True

    # -- on screen -------------------------------------------------------------

    def view(self, players: Sequence[str] = ()) -> MenuView:
        editor = self.editors[-1]
        param = self.params[len(self.editors) - 1]
        prompt = self._prompt(players) if self.expectation else ""
        if len(self.params) > 1:
            title = f"{self.label}: {self.param_label(param)}"
        else:
            title = prompt or self.label
        text = prompt or (param.help or self.spec.help)
        keys = self.words.menu("keys-enter")
        if isinstance(editor, _Number):
            return MenuView(ViewKind.VALUE, title, value=editor.value, low=editor.low,
                            high=editor.high, signed=editor.low < 0, text=text,
                            footer=keys)
        if isinstance(editor, _Roll):
            faces = [str(v) for v in editor.values] + [str(editor.value)]
            faces += ["?"] * (editor.dice.count - len(faces))
            return MenuView(ViewKind.DICE, title, tuple(faces), len(editor.values),
                            value=editor.value, low=1, high=editor.dice.sides,
                            unit=self._die_name(editor.dice.name), text=text, footer=keys)
        if isinstance(editor, _Skipped):
            raise AssertionError("a parameter left out is never on screen")
        return MenuView(ViewKind.LIST, title, editor.labels, editor.index, text=text,
                        footer=keys)

    def _die_name(self, name: str) -> str:
        """A die's name as the menu says it (the red die: ``red``)."""
        if name in ("red", "blue", "d6"):
            return self.words.menu(f"role-{name}")
        return name

    def question(self, players: Sequence[str]) -> str:
        """What was entered, as the question before sending asks it."""
        parts = []
        for editor in self.editors:
            if isinstance(editor, _Pick):
                parts.append(editor.labels[editor.index])
            elif isinstance(editor, _Number):
                parts.append(f"{editor.value:+d}" if editor.low < 0 else str(editor.value))
            elif isinstance(editor, _Roll):
                parts.append(" ".join(str(v) for v in editor.values))
        if parts:
            return f"{self.label} {' '.join(parts)}?"
        if self.expectation is not None and self.expectation.player is not None:
            return f"{self.label}: {players[self.expectation.player]}?"
        return f"{self.label}?"

    # -- one editor ------------------------------------------------------------

    def _context(self, reads: EntryReads) -> Context:
        update = reads.update
        actor = self.expectation.player if self.expectation is not None else None
        if actor is None and update.expected:
            actor = update.expected[0].player
        return Context(update.state, tuple(update.players), self.expectation, actor,
                       self.args(), self.words.lang)

    def _editor(self, param: Param, phint: ParamHint, context: Context, reads: EntryReads
                ) -> _Number | _Pick | _Roll | Blocked:
        if param.kind == ParamKind.DICE:
            if reads.dice_source != "manual":
                what = self._prompt(reads.update.players) if self.expectation else self.label
                words = self.words
                where = words.menu("roll-button" if reads.dice_source == "button"
                                   else "roll-device")
                return Blocked(words.menu("roll"), words.menu("roll-where", what=what,
                                                              where=where))
            expected = self.expectation.dice if self.expectation else None
            return _Roll(expected or Dice(6))
        if param.kind == ParamKind.INT:
            low, high = _bounds(param, phint, context, reads)
            start = _resolve(phint.start, context)
            if not isinstance(start, int):
                start = 0 if low <= 0 <= high else low
            return _Number(start, low, high)
        labels, values = _offer(param, phint, context, rules=not self.spec.correction,
                                words=self.words)
        if not values:
            return Blocked(self.words.menu("nothing-to-choose"),
                           self.words.menu("nothing-to-choose-now",
                                           what=self.param_label(param)))
        # A hint may start on "(none)"; without one, the first line.
        start = _resolve(phint.start, context)
        chosen = start is not None or phint.start is not None
        index = values.index(start) if chosen and start in values else 0
        return _Pick(labels, values, index)


def _bounds(param: Param, phint: ParamHint, ctx: Context, reads: EntryReads) -> tuple[int, int]:
    bounds = _resolve(phint.bounds, ctx)
    if bounds is None:
        bounds = reads.param_range(param)
    low, high = bounds
    return (DEFAULT_BOUNDS[0] if low is None else low,
            DEFAULT_BOUNDS[1] if high is None else high)


def _offer(param: Param, phint: ParamHint, ctx: Context, rules: bool, words: MenuNames
           ) -> tuple[list[str], list[Any]]:
    offered = _resolve(phint.offer, ctx)
    offered = list(offered) if offered is not None else None
    values: list[Any]
    if param.kind == ParamKind.PLAYER:
        values = offered if offered is not None else _seats(param, ctx, rules)
        out = f" ({words.menu('out')})"
        labels = [ctx.players[s] + (out if _out(ctx.state, s) else "") for s in values]
    elif param.kind == ParamKind.CHOICE:
        values = offered if offered is not None else list(param.choices)
        labels = [words.choice(v, phint.labels) for v in values]
    elif param.kind == ParamKind.BOOL:
        values, labels = [True, False], [words.menu("yes"), words.menu("no")]
    else:  # text
        values, labels = _notes(phint, offered, words)
    if param.optional and param.kind != ParamKind.PLAYER and _resolve(phint.none, ctx) is not False:
        # Last, so that the usual answer stays one press away.
        values, labels = [*values, None], [*labels, words.menu("none")]
    return labels, values


def _notes(phint: ParamHint, offered: list[Any] | None, words: MenuNames
           ) -> tuple[list[Any], list[str]]:
    """The texts offered for a text parameter: the hint's, else canned notes."""
    notes = phint.notes or tuple(words.menu(f"note-{n}") for n in
                                 range(1, len(DEFAULT_NOTES) + 1))
    values = offered if offered is not None else list(notes)
    # The text sent stays as offered (the rules know cards by it).
    return values, [words.note(str(v)) for v in values]


def _resolve(value: Any, ctx: Context) -> Any:
    """A hint's value; a hint that does not fit the state (an engine's view
    that changed) is ignored rather than breaking the table's keys."""
    if not callable(value):
        return value
    try:
        return value(ctx)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
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
