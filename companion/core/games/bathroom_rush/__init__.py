"""Bathroom Rush (2 to 4 players): the engine is :class:`BathroomRush` in
:mod:`.game` (its docstring maps the other modules), the dice, counts and
cards the companion knows by name in :mod:`.cards`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import exports

ALIASES = ("br",)

# BoardGameGeek's id (0: BG Stats matches the game by its name).
BGG_ID = 0

# The engine and the rest are read from their modules when first asked for.
__getattr__ = exports(
    __name__,
    BLUE_DIE="cards:BLUE_DIE",
    RED_DIE="cards:RED_DIE",
    GAME="game:BathroomRush",
    BathroomRush="game:BathroomRush",
    ALERTS="records:ALERTS",
    RECORD="records:RECORD",
    SCORING="records:SCORING",
    STANDING="records:STANDING",
    TERMINAL="terminal:TERMINAL",
)

if TYPE_CHECKING:
    from .cards import BLUE_DIE, RED_DIE
    from .game import BathroomRush
    from .records import ALERTS, RECORD, SCORING, STANDING
    from .terminal import TERMINAL

    GAME = BathroomRush

__all__ = [
    "ALERTS",
    "ALIASES",
    "BGG_ID",
    "BLUE_DIE",
    "GAME",
    "RECORD",
    "RED_DIE",
    "SCORING",
    "STANDING",
    "TERMINAL",
    "BathroomRush"
]
