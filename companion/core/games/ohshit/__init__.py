"""OhShit!, 2 to 6 players: the engine is :class:`OhShit` in :mod:`.game`."""

from .game import OhShit
from .records import ALERTS, RECORD, SCORING, STANDING
from .terminal import TERMINAL

GAME = OhShit
ALIASES = ("oh-shit",)

# BoardGameGeek's id (0: BG Stats matches the game by its name).
BGG_ID = 0

__all__ = [
    "ALERTS", "ALIASES", "BGG_ID", "GAME", "RECORD", "SCORING", "STANDING", "TERMINAL",
    "OhShit",
]
