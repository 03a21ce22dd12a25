"""Call of Nature (CHIPATSU), 2 to 6 players: the engine is
:class:`CallOfNature` in :mod:`.game`."""

from .game import CallOfNature
from .records import ALERTS, RECORD, STANDING

GAME = CallOfNature
ALIASES = ("chipatsu", "con")

__all__ = ["ALERTS", "ALIASES", "GAME", "RECORD", "STANDING", "CallOfNature"]
