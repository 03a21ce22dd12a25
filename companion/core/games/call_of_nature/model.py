"""Call of Nature's facts and state: the numbers printed in the rulebook,
the state the engine keeps, and the view it shows.

Which critical thresholds are armed is not stored: a threshold T is armed
exactly when the Pressure is below T.  A card can only take the Pressure to
T or above by crossing T upwards (which fires it), a drop below T re-arms it
(rulebook FAQ), and a correction that sets the Pressure at or above T counts
T as passed without firing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

from ...engine import Dice, Setup
from .text import TEXT

MAX_MASTERY = 7
HAND_SIZE = 4
# Critical threshold -> Mastery it costs, in the order a card applies them.
CRITICAL_THRESHOLDS = {31: 1, 61: 2, 91: 3}
ROUND_END = 91
RESPITES = (50, 80)
MAX_SET_PRESSURE = 200

RESPITE_DIE = Dice(6, 1, "d6")
END_OF_GAME_DICE = Dice(6, 2, "2d6")

# The End of Game card: sum of 2d6 -> (Mastery lost, what the card says).
END_OF_GAME_TABLE = {
    2: (7, "It's a disaster!"),
    3: (3, "Bad luck!"),
    4: (2, "Too bad!"),
    5: (1, "Ohhh..."),
}
SAVED = (0, "Bravo, you have saved your dignity!")

# Special cards by slug, in the rulebook's order, with the name printed on
# them (from the game's text, where the other languages' names are too).
SPECIAL_SLUGS = (
    "u-turn", "critical-threshold", "little-trip-in-the-bushes", "we-are-all-the-same",
    "suspense", "tighten-the-sphincters", "move-over", "perseverance", "we-are-friends",
)
SPECIAL_CARDS = {slug: TEXT["en"][f"card.{slug}"] for slug in SPECIAL_SLUGS}
POWERFUL_CARDS = ("little-trip-in-the-bushes", "we-are-all-the-same")
BEGINNERS_REMOVED = POWERFUL_CARDS + (
    "suspense", "tighten-the-sphincters", "move-over", "perseverance", "we-are-friends",
)
# The variants that change the deck, and the special cards each takes out.
DECK_VARIANTS = {
    "no-powerful-cards": POWERFUL_CARDS,
    "beginners-deck": BEGINNERS_REMOVED,
}

# Setup options and their defaults.  The rulebook prints no card list, so how
# many cards a deck variant removes is an option: one copy of each named card
# unless the table says otherwise.
DEFAULT_OPTIONS: dict[str, Any] = {
    "min_value": -30,
    "max_value": 30,
    "deck_size": 76,
    "removed_cards": {name: len(cards) for name, cards in DECK_VARIANTS.items()},
}
OPTION_HELP = {
    "min_value": "lowest value printed on a Pressure card (0 or less)",
    "max_value": "highest value printed on a Pressure card (0 or more)",
    "deck_size": "Pressure cards in the box",
    "removed_cards": "cards each deck variant takes out, e.g. "
                     "{\"no-powerful-cards\": 2, \"beginners-deck\": 7}",
}
MAX_CARD_VALUE = 200
MAX_DECK = 500

# The corrections that still make sense while the survivors roll for the End of Game.
END_PHASE_CORRECTIONS = ("adjust-mastery", "note")


class Phase(StrEnum):
    """What the table is doing: playing cards, waiting on a Respite roll,
    rolling for the End of Game, or done."""

    PLAY = "play"
    RESPITE = "respite"
    END_ROLLS = "end-rolls"
    OVER = "over"


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"

    @classmethod
    def of(cls, step: int) -> Direction:
        return cls.CLOCKWISE if step == 1 else cls.COUNTER_CLOCKWISE


# -- the state the engine keeps (every field is serialised) -----------------------------


class Respite(TypedDict):
    """A Respite waiting for its d6: who rolls, at which Pressure."""

    player: int
    pressure: int


class EndRoll(TypedDict):
    """One survivor's End of Game roll: CRITICAL THRESHOLD! cards held
    (``None`` until said) and the two dice (``None`` until rolled)."""

    player: int
    held: int | None
    dice: list[int] | None


class State:
    """The engine's whole state; ``Game.state_fields`` are these names."""

    pressure: int
    mastery: list[int]
    active: int
    direction: int  # 1 clockwise, -1 counter-clockwise
    round_number: int
    draw_pile: int
    played_pile: int
    respite: Respite | None
    exploded: int | None
    # Once someone explodes: one entry per survivor, in rolling order.
    end_rolls: list[EndRoll]


# -- the view (what screens read) --------------------------------------------------------


@dataclass(slots=True)
class ThresholdView:
    """A critical threshold: where it is, what it costs, whether a card can still fire it."""

    at: int
    cost: int
    armed: bool


@dataclass(slots=True)
class PlayerView:
    seat: int
    name: str
    mastery: int
    eliminated: bool


@dataclass(slots=True)
class EndRollView:
    player: int
    held: int | None
    dice: list[int] | None
    total: int | None = None
    loss: int | None = None
    verdict: str | None = None


@dataclass(slots=True)
class View:
    """The public table.  Every fact a screen shows is here, derived once
    by the engine: the next threshold and its cost, which are armed, the
    next Respite, the limits."""

    phase: Phase
    pressure: int
    next_threshold: int | None
    next_threshold_cost: int | None
    armed_thresholds: list[int]
    thresholds: list[ThresholdView]
    respites: list[int]
    next_respite: int | None
    round: int
    active: int | None
    direction: Direction
    players: list[PlayerView]
    max_mastery: int
    draw_pile: int
    played_pile: int
    deck_size: int
    card_values: list[int]
    specials_in_deck: list[str]
    respite: Respite | None
    end_rolls: list[EndRollView]
    result: dict[str, Any] | None


def end_roll_view(entry: EndRoll) -> EndRollView:
    """An End of Game roll with its outcome once rolled."""
    dice = entry["dice"]
    if dice is None:
        return EndRollView(entry["player"], entry["held"], None)
    total, loss, verdict = roll_outcome(dice, entry["held"] or 0)
    return EndRollView(entry["player"], entry["held"], list(dice), total, loss, verdict)


def roll_outcome(dice: list[int], held: int) -> tuple[int, int, str]:
    """An End of Game roll's total (2 off per CRITICAL THRESHOLD! card held,
    at least 2), the Mastery it costs and what the card says."""
    total = max(2, sum(dice) - 2 * held)
    loss, verdict = END_OF_GAME_TABLE.get(total, SAVED)
    return total, loss, verdict


# -- what the setup decides --------------------------------------------------------------


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def option(options: Mapping[str, Any], name: str) -> int:
    value: int = options.get(name, DEFAULT_OPTIONS[name])
    return value


def deck_size(setup: Setup) -> int:
    """Pressure cards in play once the deck variants have taken theirs out."""
    removed = {**DEFAULT_OPTIONS["removed_cards"], **setup.options.get("removed_cards", {})}
    # The beginners' list already holds the powerful cards: with both variants
    # the larger count comes out, not the sum.
    taken: int = max((removed[v] for v in setup.variants if v in DECK_VARIANTS), default=0)
    return option(setup.options, "deck_size") - taken
