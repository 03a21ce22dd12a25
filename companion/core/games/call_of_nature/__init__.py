"""Call of Nature (CHIPATSU), 2 to 6 players: the engine is
:class:`CallOfNature` in :mod:`.game`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import exports

ALIASES = ("chipatsu", "con")

# BoardGameGeek's id (0: BG Stats matches the game by its name).
BGG_ID = 0

# The engine, its records (records.py) and sentences (terminal.py) are read
# when first asked for.
__getattr__ = exports(__name__, "game:CallOfNature")

if TYPE_CHECKING:
    from .game import CallOfNature as CallOfNature
    from .records import ALERTS as ALERTS
    from .records import RECORD as RECORD
    from .records import SCORING as SCORING
    from .records import STANDING as STANDING
    from .terminal import TERMINAL as TERMINAL

    GAME = CallOfNature
