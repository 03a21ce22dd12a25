"""OhShit!'s commands: what each takes, as the CLI, the panel and the menu
offer them."""

from __future__ import annotations

from ...engine import CommandSpec, Param
from .model import ACTIONS, KINDS, MAX_OF_A_KIND, MAX_PILE, POOPS


def _acting() -> Param:
    return Param("player", "player", optional=True,
                 help="who plays it (the active player, filled in when left out)")


TARGET = Param("target", "player", help="the player whose pile the card goes on")
POOP_COLOUR = Param("colour", "choice", choices=POOPS, help="the poop's colour, or unicorn")
# A hand holds at most the whole deck; param_range narrows it to this game's.
HAND_COUNT = Param("count", "int", low=0, high=MAX_OF_A_KIND * len(KINDS),
                   help="how many cards the hand holds, counted at the table")


COMMANDS = (
    CommandSpec("poop", (TARGET, POOP_COLOUR, _acting()),
                help="put a poop card on a player's pile (self included)"),
    CommandSpec("toilette", (TARGET, _acting()),
                help="empty a player's pile into the Décharge (not a constipated one)"),
    CommandSpec("constipation", (TARGET, _acting()),
                help="constipate a player: their pile cannot flush"),
    CommandSpec("suppositoire",
                (TARGET,
                 Param("colour", "choice", choices=POOPS, optional=True,
                       help="the poop it removes (not needed on an empty, "
                            "constipated pile)"),
                 _acting()),
                help="remove one poop from a pile, then lift its Constipation"),
    CommandSpec("set-pile",
                (Param("player", "player", help="whose pile"),
                 Param("colour", "choice", choices=POOPS, help="which poops"),
                 Param("count", "int", low=0, high=MAX_PILE,
                       help="how many of them the pile holds")),
                help="set how many poops of one colour a pile holds; nothing flushes",
                correction=True),
    CommandSpec("set-constipated",
                (Param("player", "player", help="who"),
                 Param("constipated", "bool", help="yes or no")),
                help="put or take away a Constipation by hand; nothing flushes",
                correction=True),
    CommandSpec("set-hand",
                (Param("player", "player", help="whose hand (a dead player's: the "
                                                "cards set aside at their death)"),
                 HAND_COUNT),
                help="set how many cards a hand holds; the draw pile makes up the "
                     "difference", correction=True),
    CommandSpec("set-decharge",
                (Param("colour", "choice", choices=POOPS, help="which poops"),
                 Param("count", "int", low=0, high=MAX_OF_A_KIND,
                       help="how many of them the Décharge holds")),
                help="set how many poops of one colour the Décharge holds; the draw "
                     "pile makes up the difference", correction=True),
    CommandSpec("set-drain",
                (Param("card", "choice", choices=ACTIONS, help="which action card"),
                 Param("count", "int", low=0, high=MAX_OF_A_KIND,
                       help="how many of them the Drain holds")),
                help="set how many action cards of one kind the Drain holds; the draw "
                     "pile makes up the difference", correction=True),
    CommandSpec("set-deck",
                (Param("card", "choice", choices=KINDS, help="which kind of card"),
                 Param("count", "int", low=0, high=MAX_OF_A_KIND,
                       help="how many of them the box really holds")),
                help="the box holds a different number of a kind than set at setup: "
                     "found cards go into the draw pile, missing ones leave it (this "
                     "fixes a wrong draw pile when every other count is right)",
                correction=True),
    CommandSpec("kill", (Param("player", "player", help="who is out"),),
                help="a player is out of the game: their pile goes to the Décharge",
                correction=True),
    CommandSpec("revive", (Param("player", "player", help="who comes back"),),
                help="bring a dead player back, with an empty pile", correction=True),
    CommandSpec("skip", help="end the active player's turn without a card; the next "
                             "player draws and plays", correction=True),
    CommandSpec("note", (Param("text", "text", help="what happened"),),
                help="write a note in the history", correction=True),
)
