"""The table UI: key presses in, commands out, and what the OLED shows.

:class:`TableMenu` is a state machine for the five keys.  It builds every
command from the game's :class:`~companion.core.engine.CommandSpec` objects and
from what the game says it waits for (its expectations), so it drives any
engine without knowing its rules; :data:`HINTS` (read from each game's
``hints.py``) only tunes, per game and command, the starting values and the
order of lists, to keep a typical turn to a few presses.  It is pure: no
hardware, no clock, no randomness.  Its output is a :class:`MenuView`, which
``drivers/menu_screens.py`` draws.

On the game screen:

- UP or DOWN starts answering what the game waits for first and already
  changes its first value (a card of +3 is UP UP UP OK);
- OK starts it at its starting value (a +0 card is OK OK);
- holding OK lists everything the game accepts now (a special card, a
  queue operation...), then the corrections;
- BACK opens the main menu: undo, redo, actions, corrections, dice source,
  join, new game;
- while the first thing the game waits for is answered by keys (a hint's
  ``keys``: a Bathroom Rush reveal), the game screen shows its answers in
  groups beside UP, DOWN, OK and ROLL: a key opens a group, a second picks
  an answer, OK confirms it, BACK goes back;
- ROLL enters a roll by hand when the dice source is ``manual``; with the
  ``button`` source it asks the dice service to roll (the service submits
  the roll, the menu never does), whatever menu is open.

The keys arrive as ``(key, kind)`` from ``drivers/buttons.py``: a ``"long"``
follows the ``"press"`` of the same key, so a long press only adds to what
its press did; ``"repeat"`` comes while UP or DOWN is held.

Threads: call :meth:`TableMenu.on_key` and :meth:`TableMenu.view` from one
thread.  :meth:`TableMenu.on_update` may be called from any thread (it is the
table's listener, told after the table's lock is released, on the thread
that changed it): it only records the update, which the next key or view
takes in.

The modules: :mod:`.machine` (the core: the keys, the stack of levels, the
main menu), :mod:`.levels` (a level shows itself and handles its own keys;
the shapes every section builds from; what a section is), :mod:`.state`
(what the levels share: the stack, the table's state on screen, the calls
to the table, the services lent to the menu), one module per section of
the main menu (:mod:`.game` and :mod:`.home`, the game and its screen;
:mod:`.new_game`; :mod:`.wifi`; :mod:`.pixels`, the dice; :mod:`.sign_out`),
:mod:`.entry` (one command's parameters being entered), :mod:`.hints`
(what a hint is; each game keeps its own in its folder), :mod:`.words` (the
names on screen in the table's language) and :mod:`.view` (what the OLED
is given).
"""

from ..errors import UnknownKey
from ..games import HINTS
from ..hints import KEY_ROWS, CommandHint, Context, ParamHint, Pick, PickGroup
from ..keys import DICE_SOURCES, KEYS, KINDS
from .entry import DEFAULT_BOUNDS, DEFAULT_NOTES, FAST_STEP, NONE_LABEL
from .machine import DEFAULT_NAMES, FAST_AFTER, SOURCE, MenuServices, MenuSettings, TableMenu
from .view import KEYS_CONFIRM, KEYS_ENTER, VIEW_KINDS, MenuView, ViewKind, humanize

__all__ = [
    "DEFAULT_BOUNDS", "DEFAULT_NAMES", "DEFAULT_NOTES", "DICE_SOURCES", "FAST_AFTER",
    "FAST_STEP", "HINTS", "KEYS", "KEYS_CONFIRM", "KEYS_ENTER", "KEY_ROWS", "KINDS",
    "NONE_LABEL", "SOURCE", "VIEW_KINDS", "CommandHint", "Context", "MenuServices",
    "MenuSettings", "MenuView", "ParamHint", "Pick", "PickGroup", "TableMenu",
    "UnknownKey", "ViewKind", "humanize",
]
