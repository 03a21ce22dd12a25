"""Bathroom Rush (2 to 4 players): the engine is :class:`BathroomRush` in
:mod:`.game` (its docstring maps the other modules), the dice, counts and
cards the companion knows by name in :mod:`.cards`."""

from .cards import BLUE_DIE, RED_DIE
from .game import BathroomRush
from .records import ALERTS, RECORD, STANDING

GAME = BathroomRush
ALIASES = ("br",)

__all__ = ["ALERTS", "ALIASES", "BLUE_DIE", "GAME", "RECORD", "RED_DIE", "STANDING", "BathroomRush"]
