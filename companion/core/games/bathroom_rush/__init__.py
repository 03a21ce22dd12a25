"""Bathroom Rush (2 to 4 players): the engine is :class:`BathroomRush` in
:mod:`.game` (its docstring maps the other modules), the dice, counts and
cards the companion knows by name in :mod:`.cards`."""

from .cards import BLUE_DIE, RED_DIE
from .game import BathroomRush
from .records import ALERTS, RECORD, SCORING, STANDING
from .terminal import TERMINAL

GAME = BathroomRush
ALIASES = ("br",)

# BoardGameGeek's id (0: BG Stats matches the game by its name).
BGG_ID = 0

__all__ = [
    "ALERTS", "ALIASES", "BGG_ID", "BLUE_DIE", "GAME", "RECORD", "RED_DIE", "SCORING",
    "STANDING", "TERMINAL", "BathroomRush",
]
