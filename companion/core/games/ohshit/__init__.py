"""OhShit!, 2 to 6 players: the engine is :class:`OhShit` in :mod:`.game`."""

from .game import OhShit
from .records import RECORD

GAME = OhShit
ALIASES = ("oh-shit",)

__all__ = ["ALIASES", "GAME", "RECORD", "OhShit"]
