"""Call of Nature (CHIPATSU), 2 to 6 players: the engine is
:class:`CallOfNature` in :mod:`.game`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import exports

ALIASES = ("chipatsu", "con")

# BoardGameGeek's id (0: BG Stats matches the game by its name).
BGG_ID = 0

# The engine and the rest are read from their modules when first asked for.
__getattr__ = exports(
    __name__,
    GAME="game:CallOfNature",
    CallOfNature="game:CallOfNature",
    ALERTS="records:ALERTS",
    RECORD="records:RECORD",
    SCORING="records:SCORING",
    STANDING="records:STANDING",
    TERMINAL="terminal:TERMINAL",
)

if TYPE_CHECKING:
    from .game import CallOfNature
    from .records import ALERTS, RECORD, SCORING, STANDING
    from .terminal import TERMINAL

    GAME = CallOfNature

__all__ = [
    "ALERTS",
    "ALIASES",
    "BGG_ID",
    "GAME",
    "RECORD",
    "SCORING",
    "STANDING",
    "TERMINAL",
    "CallOfNature"
]
