"""The Bathroom Rush commands: names, arguments and help, as the CLI, the
panel and the button menus offer them.  The rules behind each command are
in :mod:`.turn`, :mod:`.operations` and :mod:`.corrections`."""

from __future__ import annotations

from ...engine import CommandSpec, Param
from .actions import ACTION_CARDS
from .cards import COLOURS, PIPI_PER_POPO, POPO_LIMIT

MAX_QUEUES = 5
MAX_POSITION = 20
MAX_PRINTED = 9
MAX_ON_CARD = 40
# With the keep-playing variant a reserve may hold more popò than the limit.
MAX_KEPT_POPO = 40

# Queue operations the Action and Persona cards cause, offered in phases D and E.
OPERATIONS = ("swap-behind", "pass-in-front", "remove-front", "remove-behind", "change-queue",
              "add-tokens", "place-permanent", "remove-permanent", "flip", "take-tokens")
QUEUE = Param("queue", "int", low=1, high=MAX_QUEUES, help="queue number, 1 = leftmost door")
POSITION = Param("position", "int", low=1, high=MAX_POSITION,
                 help="place in the queue, 1 = in the bathroom")
PRINTED_PIPI = Param("pipi", "int", low=0, high=MAX_PRINTED, help="pipì printed on the card")
PRINTED_POPO = Param("popo", "int", low=0, high=MAX_PRINTED, help="popò printed on the card")
COLOUR = Param("colour", "choice", choices=COLOURS, help="the colour of the card")
PERSONA_NAME = Param("name", "text", optional=True, help="the name printed on the card")
# What the phone showed at that place (the number the game gives each
# Persona card, or a player's seat as "p<seat>"): refused when another move
# put something else there first.
MAX_CARD_ID = 100_000
AIMED = Param("persona", "int", optional=True, low=0, high=MAX_CARD_ID,
              help="the Persona card the place held when the command was made (as the game "
                   "numbers them in what it waits for); refused if another is there now",
              named=True)
AIMED_AT = Param("aimed", "text", optional=True,
                 help="what the place held when the command was made ('persona <n>' or "
                      "'player <seat>', as the game says in what it waits for); refused if "
                      "something else is there now", named=True)
RESERVE_PIPI = Param("pipi", "int", low=0, high=PIPI_PER_POPO - 1, help="pipì in the reserve")
# Its high end depends on the number of players: the game narrows it.
RESERVE_POPO = Param("popo", "int", low=0, high=POPO_LIMIT - 1, help="popò in the reserve")


def _moved(help_text: str = "who (the active player if left out)") -> Param:
    return Param("player", "player", optional=True, help=help_text)


def _acting() -> Param:
    return Param("player", "player", optional=True,
                 help="who acts (the active player, filled in when left out)")


def _count_on_card(name: str) -> Param:
    return Param(name, "int", low=0, high=MAX_ON_CARD,
                 help=f"{name.replace('pipi', 'pipì').replace('popo', 'popò')} taken")


def _count(name: str, low: int, help_text: str) -> Param:
    return Param(name, "int", low=low, high=MAX_PRINTED, help=help_text)


COMMANDS = (
    CommandSpec("choose-queue", (QUEUE, _moved("who chooses (the one whose turn it is)")),
                help="at setup, a player stands at the end of a queue nobody holds"),
    CommandSpec("reveal", (QUEUE, POSITION, PRINTED_PIPI, PRINTED_POPO, COLOUR, PERSONA_NAME,
                           AIMED),
                help="a face-down Persona is turned up: enter what is printed on it"),
    CommandSpec("reveal-kind", (QUEUE, POSITION,
                                Param("kind", "text", help="the kind of the box (its name or "
                                                           "number)"), AIMED),
                help="a face-down Persona is turned up: one of the kinds of the box described"),
    CommandSpec("effect", (_acting(),
                           Param("pipi", "int", low=-MAX_PRINTED, high=MAX_PRINTED, optional=True,
                                 default=0, help="pipì the effect gives (taken from, if "
                                                 "negative) a reserve, for an effect the "
                                                 "companion does not know"),
                           Param("popo", "int", low=-MAX_PRINTED, high=MAX_PRINTED, optional=True,
                                 default=0, help="popò the effect gives (or takes)"),
                           Param("to", "player", optional=True,
                                 help="whose reserve the tokens go to (the player whose turn "
                                      "it is if left out)")),
                help="the Persona effect phase D waits for happens (the companion applies "
                     "the effects it knows; for the others the table says which tokens go to "
                     "whose reserve, and applies any move with the queue commands first)"),
    CommandSpec("defend", (_acting(),),
                help="a Queue Defence blocks the Persona effect phase D waits for"),
    CommandSpec("decompress", (_acting(),),
                help="the active player decompresses: roll the red die next (with "
                     "Concentration: play the card)"),
    CommandSpec("pass", (_acting(),), help="the active player passes; the turn is over"),
    CommandSpec("end-turn", (_acting(),),
                help="the Action card is resolved; discard down to 3"),
    CommandSpec("roll", (Param("values", "dice", help="the die rolled"),
                         _moved("who rolled")),
                help="a die result: the red die (decompression, tie-break) "
                     "or the blue die (Avid Reader)"),
    CommandSpec("bathroom-tokens", (Param("player", "player", help="who takes them"),
                                    _count_on_card("pipi"), _count_on_card("popo")),
                help="light tracking, at the cleanup: the tokens a player takes from the "
                     "bathroom of their queue"),
    CommandSpec("count-tokens", (Param("player", "player", help="who takes them"),
                                 _count_on_card("pipi"), _count_on_card("popo")),
                help="light tracking, at the final count: the tokens between a player and "
                     "the door (permanent cards included)"),
    CommandSpec("reached", (Param("player", "player", help="who"),),
                help="light tracking: a player reaches the bathroom (through a card, or as "
                     "the queues move up at the cleanup)"),
    CommandSpec("swap-behind", (_moved(),),
                help="a player swaps places with the Persona behind them"),
    CommandSpec("pass-in-front", (_moved(),),
                help="the Persona behind a player passes in front of them"),
    CommandSpec("remove-front", (_moved(),),
                help="the Persona in front of a player leaves; the player moves up"),
    CommandSpec("remove-behind", (_moved(),),
                help="the Persona behind a player leaves; the queue behind moves up, "
                     "or a new Persona is drawn if it was the last"),
    CommandSpec("change-queue", (Param("queue", "int", low=1, high=MAX_QUEUES,
                                       optional=True, help="the free queue"), _moved()),
                help="a player moves to the end of the free queue; the Persona behind "
                     "them takes their old place and a new one is drawn behind them"),
    CommandSpec("add-tokens", (QUEUE, _count("pipi", 0, "pipì to add"),
                               _count("popo", 0, "popò to add"),
                               Param("position", "int", low=1, high=MAX_POSITION,
                                     optional=True, default=1,
                                     help="1 = the bathroom Persona")),
                help="tokens onto a Persona card (the bathroom one unless a position "
                     "is given)"),
    CommandSpec("place-permanent", (QUEUE,
                                    _count("pipi", -MAX_PRINTED, "pipì it adds to the "
                                                                 "final count (- takes)"),
                                    _count("popo", -MAX_PRINTED, "popò it adds to the "
                                                                 "final count (- takes)"),
                                    Param("card", "text", help="the card's name")),
                help="a permanent Action card goes behind a bathroom door"),
    CommandSpec("remove-permanent", (QUEUE, Param("card", "text", optional=True,
                                                  help="which card, if there are several")),
                help="a permanent card behind a door is discarded"),
    CommandSpec("flip", (QUEUE, POSITION),
                help="a Persona whose effect is spent is turned over"),
    CommandSpec("take-tokens", (Param("player", "player", help="whose reserve"),
                                _count("pipi", -MAX_PRINTED, "pipì taken (- discards)"),
                                _count("popo", -MAX_PRINTED, "popò taken (- discards)")),
                help="tokens go into a reserve (Distracted) or out of it (Empty Bottle)"),
    CommandSpec("set-reserve", (Param("player", "player", help="whose reserve"),
                                RESERVE_PIPI, RESERVE_POPO),
                help="set a reserve as the table has it", correction=True),
    CommandSpec("set-tokens", (QUEUE, POSITION,
                               Param("pipi", "int", low=0, high=MAX_ON_CARD),
                               Param("popo", "int", low=0, high=MAX_ON_CARD)),
                help="set the tokens lying on a Persona card", correction=True),
    CommandSpec("set-persona", (QUEUE, POSITION, PRINTED_PIPI, PRINTED_POPO, COLOUR,
                                PERSONA_NAME),
                help="correct what was entered for a revealed Persona", correction=True),
    CommandSpec("unflip", (QUEUE, POSITION),
                help="turn a Persona back: its effect is not spent", correction=True),
    CommandSpec("note", (Param("text", "text", help="what happened"),),
                help="write a line in the history", correction=True),
    # The Action cards by name: the companion applies the card and asks
    # only for what it leaves open (:mod:`.actions`).
    CommandSpec("play", (Param("card", "choice", choices=ACTION_CARDS,
                               help="the Action card played"), _acting()),
                help="the active player plays an Action card from the list: the companion "
                     "applies it"),
    CommandSpec("target", (QUEUE, POSITION, _acting(), AIMED_AT),
                help="the place the Action card strikes: a player, a Persona or a bathroom"),
)

# Commands of earlier versions, kept only so that the games already in a
# journal replay to the same table; nothing offers them (they are not in
# ``COMMANDS``: not in the CLI's list, the panel, the button menu or the
# API's description).  ``action`` named any card as free text and left its
# effect to the table (every card the rulebook names is now picked by name
# with ``play``; free text is a ``note``); ``decompress concentration=yes``
# was Concentration before it was a card of ``play``.  See
# :meth:`.game.BathroomRush.parse`.
CONCENTRATION_PARAM = Param("concentration", "bool", optional=True, default=False,
                            help="played with Concentration")
REPLAYED_ONLY = (
    CommandSpec("action", (Param("card", "text", help="the Action card's name"), _acting()),
                help="the active player played an Action card, applied by hand"),
    CommandSpec("decompress", (CONCENTRATION_PARAM, _acting()),
                help="the active player decompresses, with Concentration or not"),
)
