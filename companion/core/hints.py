"""The words a game and the button menu share to say how a game's commands
are offered, to keep a typical turn to a few presses.  Neither side's: a
game writes its hints with these types and the menu reads them, and
neither imports the other.

The menu builds every command from the game's specs without them; a hint
only names a command or a parameter on screen, says where a value starts,
narrows or orders what is offered, or leaves a parameter out.  Each game
keeps its own in ``companion/core/games/<folder>/hints.py`` as ``HINTS``, a
mapping from a command's name to its :class:`CommandHint`; a game without
that module is offered from its specs alone
(:func:`companion.core.games.hints_of` reads them).  A field may be a plain
value or a function of the :class:`Context` (the game's view and the
arguments entered so far): a correction starts at what the table has now
that way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import Expectation


@dataclass(frozen=True)
class Context:
    """What a hint may look at: the table now (the engine's view), what is
    being answered, who acts, the arguments chosen so far (seats as
    numbers), and the table's language (for what a hint labels)."""

    state: Mapping[str, Any]
    players: tuple[str, ...]
    expectation: Expectation | None
    actor: int | None
    args: Mapping[str, Any]
    lang: str = "en"


@dataclass(frozen=True)
class ParamHint:
    """How the menu offers one parameter.  Each field may be a value or a
    function of the :class:`Context`.

    ``start``: the value, choice or seat to start from; ``bounds``: an int
    parameter's (low, high); ``offer``: the choices or seats offered, in
    order; ``labels``: how choices are shown; ``notes``: the canned texts of
    a text parameter; ``label``: the parameter's name on screen; ``skip``:
    leave the parameter out (the game's default applies); ``none``: whether
    an optional parameter offers "(none)" after its choices.
    """

    start: Any = None
    bounds: Any = None
    offer: Any = None
    labels: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    label: str = ""
    skip: Any = False
    none: Any = True


@dataclass(frozen=True)
class Pick:
    """One answer offered beside a key: its ``label`` on screen, the
    ``args`` it adds to what the game waits for, and the ``question`` the
    confirmation asks before it is sent."""

    label: str
    args: Mapping[str, Any]
    question: str


@dataclass(frozen=True)
class PickGroup:
    """Up to :data:`KEY_ROWS` answers under one ``label``, beside one key."""

    label: str
    picks: tuple[Pick, ...]


# The keys an answer can sit beside, top to bottom on the screen (BACK
# always goes back).
KEY_ROWS = ("up", "down", "ok", "roll")


@dataclass(frozen=True)
class CommandHint:
    """How the menu offers one command: its name in lists, whether to ask
    before sending it (``None``: ask for corrections, and for a command with
    nothing to enter opened straight from the game screen), and its
    parameters' hints.

    ``keys``, a function of the :class:`Context`, makes the command an
    answer by keys: while it is the first thing the game waits for, the game
    screen shows up to four :class:`PickGroup` beside UP, DOWN, OK and ROLL;
    one key opens a group (its answers beside the same keys), a second picks
    an answer, OK confirms it: any of 16 answers in 3 presses.  A group of
    one answer goes straight to the confirmation, and when all the answers
    fit beside the keys the groups are skipped.  ``None`` or an empty
    list: the command is entered parameter by parameter as usual.
    """

    label: str = ""
    confirm: bool | None = None
    params: Mapping[str, ParamHint] = field(default_factory=dict)
    keys: Callable[[Context], Sequence[PickGroup]] | None = None
    # The line above the answers beside the keys (the prompt when None).
    keys_title: Callable[[Context], str] | None = None


GameHints = Mapping[str, CommandHint]
Reader = Callable[[Context], Any]


# -- reading the game's view -------------------------------------------------------
# A reader that does not fit the view (a key missing, nothing chosen yet) is
# ignored by the menu, which then starts where it would without a hint.


def state(key: str, default: Any = None) -> Reader:
    """The view's ``key`` as it is now."""
    return lambda ctx: ctx.state.get(key, default)


def actor(ctx: Context) -> int | None:
    """The seat acting now."""
    return ctx.actor


def player_entry(ctx: Context, arg: str, listing: str = "players") -> Mapping[str, Any]:
    """The view's entry (in ``listing``) of the seat chosen as ``arg``."""
    entry: Mapping[str, Any] = ctx.state[listing][ctx.args[arg]]
    return entry


def chosen_players(field_name: str, listing: str = "players") -> Reader:
    """The chosen player's ``field_name`` as the view has it now."""
    return lambda ctx: player_entry(ctx, "player", listing)[field_name]


def count_of(zone: str, arg: str) -> Reader:
    """How many of the kind chosen as ``arg`` the view's ``zone`` counts now."""
    return lambda ctx: ctx.state[zone][ctx.args[arg]]
