"""OhShit!, 2 to 6 players: the engine is :class:`OhShit` in :mod:`.game`."""

from .game import OhShit
from .records import ALERTS, RECORD, STANDING

GAME = OhShit
ALIASES = ("oh-shit",)

__all__ = ["ALERTS", "ALIASES", "GAME", "RECORD", "STANDING", "OhShit"]
