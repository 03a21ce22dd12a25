"""When a Persona's special effect acts, as the rulebook's "Persona Cards"
and "Persona Card Effects" say, and what acting does.

Pure functions of a queue: nothing here changes the table.  A Persona acts
in the turn of the player concerned (the active player; nobody for the free
queue, whose effects come before the first player's turn) when:

- it is face up and not turned over, and its colour is not ignored by a
  variant of the setup (orange and red for a first game, yellow for
  beginners);
- its card names a condition: the Elderly Man and the Mother with Baby
  when they stand directly behind the player, the Distracted when he is
  adjacent (in front or behind), the Avid Reader when he is in the
  bathroom of the player's queue, the Infamous Person when he is in a
  bathroom; the Entrepreneur never waits for the table (he only stays);
- otherwise by its colour: an orange or red Persona only when adjacent to
  the player (never when not adjacent, the bathroom included); a yellow
  one wherever it stands in the queue; a neutral one never.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import (
    AVID_READER,
    DISTRACTED,
    ELDERLY_MAN,
    ENTREPRENEUR,
    INFAMOUS_PERSON,
    MOTHER_WITH_BABY,
    ONE_SHOT_PERSONAS,
    card_key,
)
from .model import Slot

# The Personas the companion resolves itself when the effect is not
# blocked; any other acts as the table applies it with the queue commands.
APPLIED_BY_COMPANION = frozenset({ELDERLY_MAN, MOTHER_WITH_BABY, DISTRACTED, AVID_READER,
                                  INFAMOUS_PERSON})


def is_player(slot: Slot) -> bool:
    return "player" in slot


def acts(slots: Sequence[Slot], index: int, player: int | None,
         ignored_colours: Sequence[str] = ()) -> bool:
    """Whether the Persona at ``index`` acts in the turn of the player
    standing at ``player`` in the same queue (``None``: no player there)."""
    p = slots[index]
    if (is_player(p) or not p["revealed"] or p["flipped"] or p["colour"] == "neutral"
            or p["colour"] in ignored_colours):
        return False
    key = card_key(p["name"])
    adjacent = player is not None and abs(index - player) == 1
    if key in (ELDERLY_MAN, MOTHER_WITH_BABY):
        return player is not None and index == player + 1
    if key == DISTRACTED:
        return adjacent
    if key == AVID_READER:
        return player is not None and index == 0
    if key == INFAMOUS_PERSON:
        return index == 0
    if key == ENTREPRENEUR:
        return False
    if p["colour"] == "yellow":
        return True
    return adjacent


def acting(slots: Sequence[Slot], player: int | None,
           ignored_colours: Sequence[str] = ()) -> list[int]:
    """The indexes of the Personas that act, in the rulebook's order: the
    bathroom, then in front of the player, then behind, down the queue."""
    return [i for i in range(len(slots)) if acts(slots, i, player, ignored_colours)]


def spent_once_resolved(p: Slot) -> bool:
    """Whether a Persona is turned over once its effect is resolved or
    blocked: an orange card, and the cards that say so."""
    return p["colour"] == "orange" or card_key(p["name"]) in ONE_SHOT_PERSONAS


def applied_by_companion(p: Slot) -> bool:
    return card_key(p["name"]) in APPLIED_BY_COMPANION


def reader_has_target(slots: Sequence[Slot], index: int) -> bool:
    """The Avid Reader leaves his newspaper on the Persona right after him;
    a player there (or nobody) means no effect."""
    return index + 1 < len(slots) and not is_player(slots[index + 1])
