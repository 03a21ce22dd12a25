"""Bathroom Rush's state and view, as types: the state the engine keeps
(every field serialised, as plain JSON), the phases, and the view screens
read.  What each field means is told here once; the rules modules read
and change them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict


class Phase(StrEnum):
    """Where the round is.  B (tokens onto the bathroom Personas) and C
    (draw to four) are done by the companion and never wait."""

    SETUP = "setup"  # players choose queues
    A = "A"  # reveal
    D = "D"  # Persona effects
    E = "E"  # action
    CLEANUP = "cleanup"  # light tracking: each player's bathroom tokens
    COUNT = "count"  # final count
    TIE_BREAK = "tie-break"
    OVER = "over"


# Phases in which a player's turn is being played.
TURN_PHASES = (Phase.A, Phase.D, Phase.E)


# -- the state the engine keeps (every field is serialised) -----------------------------


class Slot(TypedDict, total=False):
    """A place in a queue: a player ``{"player": seat}`` or a Persona.

    A Persona's printed values, colour (neutral, orange, red, yellow) and
    name stay ``None`` until it is revealed; ``flipped`` means turned over
    once its effect is spent (its values stay known); ``tokens`` ``[pipi,
    popo]`` are the tokens lying on the card (an Avid Reader's, a
    Cleaner's, and the printed ones once it is in the bathroom); ``placed``
    says its printed tokens were put on it in phase B.  ``id`` follows a
    Persona as it moves during a turn; ``kind`` is the index of its kind in
    the box, when it was revealed as one.  ``covers`` is the Infamous
    Person this Persona was placed on: it lies under it, in the bathroom,
    with its tokens, and both leave at the cleanup.
    """

    player: int
    id: int
    revealed: bool
    pipi: int | None
    popo: int | None
    colour: str | None
    name: str | None
    flipped: bool
    tokens: list[int]
    placed: bool
    kind: int
    covers: Slot


class Permanent(TypedDict):
    """A permanent Action card behind a door: its name and the token
    modifier the final count applies."""

    card: str
    pipi: int
    popo: int


class Queue(TypedDict):
    """One bathroom door's queue, its slots bathroom first (position 1 is
    "in the bathroom").  The queue of an eliminated player keeps its number
    but loses its door, its Personas and its permanent cards."""

    door: bool
    slots: list[Slot]
    permanents: list[Permanent]


class Reserve(TypedDict):
    """A player's reserve; pipì is always below 5."""

    pipi: int
    popo: int
    eliminated: bool


class Effect(TypedDict, total=False):
    """An entry of phase D's list, fixed as the phase begins (see
    :mod:`.effects` for who acts): ``done``
    becomes "applied", "blocked" or "passed" (its condition no longer held
    when its turn came: it keeps its effect); ``reached`` once its turn
    came."""

    persona: int
    queue: int
    free: bool
    done: str
    reached: bool


class Kind(TypedDict):
    """A kind of Persona of the box described at setup."""

    name: str
    colour: str
    pipi: int
    popo: int
    copies: int


class State:
    """The engine's whole state; ``Game.state_fields`` are these names, in
    this order (the journal's snapshots keep it)."""

    # One per bathroom door, numbered from 1 by commands and views.
    queues: list[Queue]
    reserves: list[Reserve]
    # The first-player token, the round (0 while queues are chosen), the
    # seats playing this round clockwise from the first player, and the
    # index in it of the active player.
    first_player: int
    round: int
    round_order: list[int]
    turn: int
    phase: Phase
    # In E: "choose", "action" (a card was played: its queue operations,
    # then end-turn) or "decompress" (waiting for the red die).
    step: str
    # During setup, the seat choosing a queue.
    chooser: int
    # The Action card played this turn; whether the decompression waiting
    # for its die is made with Concentration.
    action_card: str | None
    concentration: bool
    effects: list[Effect]
    # A player reached the bathroom through a card, so this round is the
    # last; the seats who did (only Give Up Your Place, Swap and Sneeze may
    # be played against them).
    final_round: bool
    arrived: list[int]
    # The tied seats and those still to roll in this pass of the tie-break.
    tie_group: list[int]
    tie_pending: list[int]
    # The result once over.
    scores: list[int | None] | None
    winners: list[int]
    outcome: str
    # Persona cards in the deck and on the discard pile; the next id.
    persona_deck: int
    persona_discard: int
    next_id: int
    # The kinds of the box (none without one), and per kind the copies
    # seen and discarded since the last reshuffle.
    box: list[Kind]
    box_seen: list[int]
    # Light tracking: the seats still to enter their tokens at the cleanup
    # or the final count.
    pending: list[int]


# -- the view (what screens read) --------------------------------------------------------


@dataclass(slots=True)
class Tokens:
    pipi: int
    popo: int


@dataclass(slots=True)
class PlayerSlotView:
    position: int
    player: int
    name: str


@dataclass(slots=True)
class PersonaSlotView:
    position: int
    revealed: bool
    pipi: int | None
    popo: int | None
    colour: str | None
    name: str | None
    flipped: bool
    tokens_on_card: Tokens
    tokens_placed: bool


@dataclass(slots=True)
class PermanentView:
    """A permanent card in the table's list: its queue, then the card."""

    queue: int
    card: str
    pipi: int
    popo: int


@dataclass(slots=True)
class QueueView:
    index: int
    door: bool
    player: int | None
    free: bool
    slots: list[PlayerSlotView | PersonaSlotView]
    permanents: list[Permanent]


@dataclass(slots=True)
class ReserveView:
    seat: int
    name: str
    pipi: int
    popo: int
    eliminated: bool
    popo_limit: int
    score: int | None
    over_limit: bool
    queue: int | None
    position: int | None
    in_bathroom: bool


@dataclass(slots=True)
class TieBreakView:
    tied: list[int]
    to_roll: list[int]


@dataclass(slots=True)
class KindView:
    """A kind of the box, numbered from 1, with the copies still unseen."""

    kind: int
    name: str
    colour: str
    pipi: int
    popo: int
    copies: int
    unseen: int


@dataclass(slots=True)
class View:
    """The public table."""

    phase: Phase
    phase_name: str
    step: str
    round: int
    active: int | None
    first_player: int
    free_queue: int | None
    queues: list[QueueView]
    permanents: list[PermanentView]
    reserves: list[ReserveView]
    # Phase D's list in the language asked, and in the other languages
    # (language -> lines, in the same order; empty outside phase D).
    effects: list[str]
    effects_said: dict[str, list[str]]
    action_card: str | None
    final_round: bool
    arrived: list[int]
    tie_break: TieBreakView | None
    persona_deck: int
    popo_limit: int
    eliminates: bool
    persona_discard: int
    box: list[KindView] | None
    scores: list[int | None] | None
    winners: list[int]
    message: str
