"""Bathroom Rush (2 to 4 players): the engine is :class:`BathroomRush` in
:mod:`.game` (its docstring maps the other modules), the dice, counts and
cards the companion knows by name in :mod:`.cards`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import exports

ALIASES = ("br",)

# BoardGameGeek's id (0: BG Stats matches the game by its name).
BGG_ID = 0

# The engine, its records (records.py) and sentences (terminal.py) are read
# when first asked for.
__getattr__ = exports(__name__, "game:BathroomRush", BLUE_DIE="cards", RED_DIE="cards")

if TYPE_CHECKING:
    from .cards import BLUE_DIE as BLUE_DIE
    from .cards import RED_DIE as RED_DIE
    from .game import BathroomRush as BathroomRush
    from .records import ALERTS as ALERTS
    from .records import RECORD as RECORD
    from .records import SCORING as SCORING
    from .records import STANDING as STANDING
    from .terminal import TERMINAL as TERMINAL

    GAME = BathroomRush
