"""What is in the Bathroom Rush box: the counts and dice the rules use, and
the cards the companion knows by name.

The box holds 50 Persona and 50 Action cards whose full list the rulebook
does not print, so a card is always accepted under any name.  The names
below are the ones the rulebook describes: they give the players a reminder
of what a Persona does, and they are the Action cards a rule depends on.
English and Italian (printed) names are both understood.
"""

from __future__ import annotations

import re

from ...engine import Dice

RED_DIE = Dice(4, 1, "red")
BLUE_DIE = Dice(2, 1, "blue")
PERSONA_CARDS = 50
MAX_PERSONA_DECK = 120
QUEUE_LENGTH = 6
MIN_DECK_PER_QUEUE = QUEUE_LENGTH
# The Lost Young Man: one card, taken out for beginners without yellow effects.
LOST_YOUNG_MEN = 1
COLOURS = ("neutral", "orange", "red", "yellow")
PIPI_PER_POPO = 5
POPO_LIMIT = 4
POPO_LIMIT_TWO_PLAYERS = 3

ELDERLY_MAN = "elderly man"
MOTHER_WITH_BABY = "mother with baby"
AVID_READER = "avid reader"
DISTRACTED = "distracted"
ENTREPRENEUR = "entrepreneur"
INFAMOUS_PERSON = "infamous person"
LOST_YOUNG_MAN = "lost young man"

# The ids the table's sentences name the known Personas by.
PERSONA_IDS = {key: key.replace(" ", "-") for key in (
    ELDERLY_MAN, MOTHER_WITH_BABY, AVID_READER, DISTRACTED, ENTREPRENEUR, INFAMOUS_PERSON,
    LOST_YOUNG_MAN)}

# The Personas whose card says to turn it over once its effect is resolved
# or blocked, whatever colour the table entered for it.
ONE_SHOT_PERSONAS = frozenset({ELDERLY_MAN, MOTHER_WITH_BABY, AVID_READER, DISTRACTED})

# The only Action cards that may be played against a player who reached the
# bathroom through an Action card, during the final turns.
ALLOWED_AGAINST_ARRIVED = frozenset({"give up your place", "swap", "sneeze"})
CONCENTRATION = "concentration"
# The green cards: played against an attack or a Persona effect, never as the
# Action card of a turn ("it is never considered an Action card played in the
# turn").
DEFENSIVE_CARDS = frozenset({"bathroom defence", "bathroom defense", "queue defence",
                             "queue defense"})

_ITALIAN = {
    "anziano": "elderly man",
    "avido lettore": "avid reader",
    "distratto": "distracted",
    "imprenditore": "entrepreneur",
    "mamma con pupo": "mother with baby",
    "infame": "infamous person",
    # (The rulebook gives no Italian name for the Lost Young Man; the
    # companion's, said to French and Italian tables like the others'.)
    "ragazzo sperduto": "lost young man",
    "addetto alle pulizie": "cleaner",
    "astuzia": "cunning",
    "bottiglietta vuota": "empty bottle",
    "cambia fila": "change queue",
    "cedi il posto": "give up your place",
    "concentrazione": "concentration",
    "difesa bagno": "bathroom defence",
    "difesa fila": "queue defence",
    "scambio": "swap",
    "starnuto": "sneeze",
}


def card_key(name: str | None) -> str:
    """A card's name reduced to the English words the rules use:
    ``"Cedi il posto!"`` and ``"give-up your place"`` both give
    ``"give up your place"``."""
    if not name:
        return ""
    words = " ".join(re.sub(r"[^\w]+", " ", name.casefold()).split())
    return _ITALIAN.get(words, words)
