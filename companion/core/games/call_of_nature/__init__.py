"""Call of Nature (CHIPATSU), 2 to 6 players: the engine is
:class:`CallOfNature` in :mod:`.game`."""

from .game import CallOfNature
from .records import RECORD

GAME = CallOfNature
ALIASES = ("chipatsu", "con")

__all__ = ["ALIASES", "GAME", "RECORD", "CallOfNature"]
