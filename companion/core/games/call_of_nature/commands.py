"""Call of Nature's commands: what each takes, as the CLI, the panel and the
menu offer them."""

from __future__ import annotations

from ...engine import CommandSpec, Param
from .model import (
    DEFAULT_OPTIONS,
    HAND_SIZE,
    MAX_DECK,
    MAX_MASTERY,
    MAX_SET_PRESSURE,
    SPECIAL_CARDS,
)

VARIANTS = {
    "no-end-roll": "Ignore the End of Game roll: the Mastery counters decide as they stand.",
    "threshold-cards-in-hand": "Each CRITICAL THRESHOLD! card held when someone explodes "
                               "takes 2 off its holder's End of Game roll (minimum 2).",
    "no-powerful-cards": "Take A Little Trip in the Bushes? and But Yes, We Are All "
                         "the Same! out of the deck.",
    "beginners-deck": "Take the seven cards listed for beginners out of the deck.",
}

CARD_VALUE = Param("value", "int", low=DEFAULT_OPTIONS["min_value"],
                   high=DEFAULT_OPTIONS["max_value"],
                   help="the value printed on the card: +5, -10, 0...")
HELD_COUNT = Param("count", "int", low=0, high=HAND_SIZE,
                   help="CRITICAL THRESHOLD! cards in that player's hand")
DRAW_PILE_COUNT = Param("count", "int", low=1, high=MAX_DECK,
                        help="cards in the draw pile, counted at the table")


def _acting(help_text: str) -> Param:
    return Param("player", "player", optional=True, help=help_text)


COMMANDS = (
    CommandSpec("card", (CARD_VALUE, _acting("who plays it (the active player)")),
                help="play a Pressure card: the Pressure changes by its value"),
    CommandSpec("special", (Param("card", "choice", choices=tuple(SPECIAL_CARDS),
                                  help="which special card"),
                            _acting("who plays it (the active player)")),
                help="play a special card: the Pressure stays as it is"),
    CommandSpec("roll", (Param("values", "dice", help="the die or dice rolled"),
                         _acting("who rolled")),
                help="the result of a Respite d6 or an End of Game 2d6"),
    CommandSpec("held-thresholds", (HELD_COUNT, _acting("who holds them")),
                help="how many CRITICAL THRESHOLD! cards a player holds at the end"),
    CommandSpec("set-pressure", (Param("value", "int", low=0, high=MAX_SET_PRESSURE,
                                       help="the Pressure as the table has it"),),
                help="set the Pressure; no threshold or Respite fires", correction=True),
    CommandSpec("adjust-mastery", (Param("player", "player", help="whose counter"),
                                   Param("delta", "int", low=-MAX_MASTERY, high=MAX_MASTERY,
                                         help="levels to add (+) or take (-)")),
                help="change a player's Mastery; 0 is still an explosion", correction=True),
    CommandSpec("skip", help="skip the active player: the turn passes on", correction=True),
    CommandSpec("reverse", help="reverse the direction of play", correction=True),
    CommandSpec("new-round", (Param("player", "player", optional=True,
                                    help="who starts it (default: the active player)"),),
                help="start a new round by hand: Pressure 0, deck dealt again",
                correction=True),
    CommandSpec("set-draw-pile", (DRAW_PILE_COUNT,),
                help="set how many cards are in the draw pile", correction=True),
    CommandSpec("note", (Param("text", "text", help="what happened"),),
                help="write a note in the history", correction=True),
)
