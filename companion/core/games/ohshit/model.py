"""OhShit!'s facts and state: the cards, the default box, the limits of a
pile, how a pile flushes, the state the engine keeps and the view it shows.

The engine knows the cards by slug; their names, in every language, are in
:mod:`.text`, and their colours on a phone are the panel's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ...engine import Setup
from ...errors import BadSetup
from ...text import Word, Words
from .text import TEXT

GAME_KEY = "ohshit"

# The five poop colours (the rulebook names "épicé" and "précieux"; the
# other three are the companion's names for the card colours), the Unicorn
# (every colour at once) and the three action cards.
COLOURS = ("spicy", "precious", "grassy", "frosty", "fruity")
COLOUR_SLUGS = COLOURS
UNICORN = "unicorn"
POOPS = COLOURS + (UNICORN,)
ACTIONS = ("toilette", "constipation", "suppositoire")
KINDS = POOPS + ACTIONS

# The rulebook prints no card list; this is the default box, and the table
# can set its own with options {"deck": {"spicy": 8, "unicorn": 2, ...}}.
DEFAULT_DECK = {
    "spicy": 10, "precious": 10, "grassy": 10, "frosty": 10, "fruity": 10,
    "unicorn": 4, "toilette": 8, "constipation": 6, "suppositoire": 8,
}
MAX_OF_A_KIND = 40
HAND_SIZE = 5
DEALT_ACTIONS = ("toilette", "suppositoire")   # one of each to every player first
FLUSH_SET = 3
FULL_PILE = 5          # a pile holding this many takes no more poops...
MAX_PILE = 6           # ...except its owner's sixth, on their own turn


class Phase(StrEnum):
    PLAY = "play"
    OVER = "over"


def card_name(kind: str) -> str:
    """A card's English name, as the engine's sentences say it."""
    return TEXT["en"][f"card.{kind}"]


def poop_word(kind: str) -> str:
    """A card as a sentence says it: colours in lower case ("2 spicy"), the
    Unicorn and the action cards by their names."""
    name = card_name(kind)
    return name if kind in ACTIONS or kind == UNICORN else name.lower()


def cards_text(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def are(n: int) -> str:
    return "is" if n == 1 else "are"


def describe_cards(cards: Mapping[str, int]) -> str:
    """'2 spicy, 1 precious and 1 Unicorn' (or 'nothing')."""
    parts = [f"{cards[kind]} {poop_word(kind)}" for kind in KINDS if cards.get(kind)]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def cards_word(n: int) -> Word:
    """'1 card', '3 cards' as a word of the players' language."""
    return Word("refusal.one-card") if n == 1 else Word("refusal.cards", count=n)


def poop_term(kind: str) -> Word:
    """A card as a sentence says it (see :func:`poop_word`), as a word."""
    return Word(f"poop.{kind}", default=poop_word(kind))


def kind_word(n: int, kind: str) -> Word:
    """'2 spicy' as a word of the players' language."""
    return Word("refusal.n-of", count=n, card=poop_term(kind))


def cards_words(cards: Mapping[str, int]) -> Word | Words:
    """'2 spicy, 1 precious and 1 Unicorn' (or 'nothing') as words."""
    parts = [kind_word(cards[kind], kind) for kind in KINDS if cards.get(kind)]
    return Words(parts, last=Word("refusal.and")) if parts else Word("refusal.nothing")


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def deck_of(setup: Setup) -> dict[str, int]:
    """The deck composition a setup asks for (defaults for what it leaves
    out); raises BadSetup when the options are wrong or cannot be dealt."""
    options = dict(setup.options)
    unknown = set(options) - {"deck"}
    if unknown:
        raise BadSetup("refusal.unknown-option", title="OhShit!", n=len(unknown),
                       unknown=", ".join(sorted(unknown)), allowed="deck")
    asked = options.get("deck", {})
    if not isinstance(asked, Mapping):
        raise BadSetup("refusal.deck-not-a-map", game=GAME_KEY, raw=repr(asked))
    strange = set(asked) - set(KINDS)
    if strange:
        raise BadSetup("refusal.unknown-kinds", game=GAME_KEY,
                       unknown=", ".join(sorted(map(str, strange))), kinds=", ".join(KINDS))
    deck = dict(DEFAULT_DECK)
    for kind, count in asked.items():
        if not is_int(count) or not 0 <= count <= MAX_OF_A_KIND:
            raise BadSetup("refusal.kind-count", game=GAME_KEY, kind=kind, most=MAX_OF_A_KIND,
                           raw=repr(count))
        deck[kind] = count
    seats = len(setup.players)
    for kind in DEALT_ACTIONS:
        if deck[kind] < seats:
            raise BadSetup("refusal.one-each", game=GAME_KEY, card=Word(f"card.{kind}"),
                           players=seats, count=deck[kind])
    if sum(deck.values()) < HAND_SIZE * seats:
        raise BadSetup("refusal.deck-too-small", game=GAME_KEY, deck=sum(deck.values()),
                       hand=HAND_SIZE, players=seats, least=HAND_SIZE * seats)
    return deck


def flush_of(pile: Mapping[str, int]) -> dict[str, int]:
    """The cards a pile (not constipated) sends to the Décharge: kind -> count,
    only the kinds that leave.  See the game module's docstring for the rule."""
    left = {kind: pile.get(kind, 0) for kind in POOPS}
    gone = dict.fromkeys(POOPS, 0)
    unicorns = left[UNICORN]
    complete = [c for c in COLOURS if left[c] >= 1 and left[c] + unicorns >= FLUSH_SET]
    if complete:
        used = max(max(0, FLUSH_SET - left[c]) for c in complete)
        for colour in complete:
            gone[colour], left[colour] = left[colour], 0
        gone[UNICORN], left[UNICORN] = used, unicorns - used
    if left[UNICORN] >= FLUSH_SET and not any(left[c] for c in COLOURS):
        gone[UNICORN] += left[UNICORN]
    return {kind: n for kind, n in gone.items() if n}


# -- the state the engine keeps (every field is serialised) -----------------------------


class State:
    """The engine's whole state; ``Game.state_fields`` are these names."""

    deck: dict[str, int]              # the box: kind -> cards
    piles: list[dict[str, int]]       # per seat: poop -> cards on the pile
    constipated: list[bool]
    alive: list[bool]
    dead: list[int]                   # the seats out of the game, in the order they died
    hands: list[int]                  # cards in each hand (a dead player's: set aside)
    draw_pile: int
    decharge: dict[str, int]          # poop -> cards
    drain: dict[str, int]             # action card -> cards
    active: int
    turn_number: int
    reshuffles: int
    winners: list[int]


# -- the view (what screens read) --------------------------------------------------------


@dataclass(slots=True)
class PlayerView:
    seat: int
    name: str
    pile: dict[str, int]
    pile_total: int
    constipated: bool
    alive: bool
    hand: int


@dataclass(slots=True)
class View:
    """The public table, with the limits a screen draws (a full pile, the
    most a pile holds) and the cards by slug, colours first."""

    phase: Phase
    colours: list[str]
    unicorn: str
    actions: list[str]
    full_pile: int
    max_pile: int
    players: list[PlayerView]
    active: int | None
    turn: int
    draw_pile: int
    poops_only: bool
    reshuffles: int
    decharge: int
    decharge_cards: dict[str, int]
    drain: int
    drain_cards: dict[str, int]
    constipations_on_table: int
    unseen: dict[str, int]
    set_aside: int
    deck: dict[str, int]
    deck_total: int
    over: bool
    winner: int | None
    winners: list[int]
