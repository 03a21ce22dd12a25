"""What a game brings to the statistics, to the plays it logs and to a board
across the room: its record (:class:`RecordRule`), how it is scored
(:class:`ScoreRule`) and how its players stand (:class:`Standing`).  A game
folder exports them as ``RECORD``, ``SCORING`` and ``STANDING``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from .engine import Event

# A record over the events of a game's commands in effect: the best
# (value, seat) of one game, or None when nothing counts.
Groups = Sequence[Sequence[Event]]
Best = Callable[[Sequence[int | None], Groups], "tuple[int, int] | None"]


@dataclass(frozen=True)
class RecordRule:
    """A game's record: what it is called (``kind``, also the panel's
    ``stats.record.<kind>`` text), whether the lowest value wins it, and
    how one game's best try is found.  A game folder that has a record
    exports one as ``RECORD`` (see :mod:`companion.core.games`)."""

    kind: str
    best: Best
    lowest: bool = False


@dataclass(frozen=True)
class ScoreRule:
    """How a game is scored, as a play log (BG Stats) asks: whether the
    highest score wins (``False``: the lowest), and whether the game has
    points at all (``False``: the winners win, the others share second
    place).  Every game folder exports one as ``SCORING``: a play is never
    logged by a guess."""

    highest_wins: bool
    points: bool = True


# Each player's figure in a game's public view (``Game.view()``): per seat,
# the figure and whether the player is still in the game.
Figures = Callable[[Mapping[str, Any]], "list[tuple[int | None, bool]]"]


@dataclass(frozen=True)
class Standing:
    """How a game's players stand, for a board across the room: each one's
    figure (``figure`` names it: "mastery", "pile", "score"), and who leads
    (the best figure among the players still in; the lowest when
    ``lowest``).  A game folder exports one as ``STANDING``."""

    figure: str
    figures: Figures
    lowest: bool = False

    def leader(self, view: Mapping[str, Any]) -> int | None:
        """The seat that leads now (the first of equals), or ``None``."""
        tries = [(value, seat) for seat, (value, still_in) in enumerate(self.figures(view))
                 if still_in and value is not None]
        found = best_of(tries, lowest=self.lowest)
        return None if found is None else found[1]


def best_of(tries: Iterable[tuple[int, int]], *, lowest: bool = False) -> tuple[int, int] | None:
    """The best of ``(value, seat)`` tries (the first of equal ones)."""
    found: tuple[int, int] | None = None
    for value, seat in tries:
        if found is None or (value < found[0] if lowest else value > found[0]):
            found = (value, seat)
    return found
