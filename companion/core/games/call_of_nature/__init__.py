"""Call of Nature (CHIPATSU), 2 to 6 players: the engine is
:class:`CallOfNature` in :mod:`.game`."""

from .game import CallOfNature
from .records import ALERTS, RECORD, SCORING, STANDING
from .terminal import TERMINAL

GAME = CallOfNature
ALIASES = ("chipatsu", "con")

# BoardGameGeek's id (0: BG Stats matches the game by its name).
BGG_ID = 0

__all__ = [
    "ALERTS", "ALIASES", "BGG_ID", "GAME", "RECORD", "SCORING", "STANDING", "TERMINAL",
    "CallOfNature",
]
