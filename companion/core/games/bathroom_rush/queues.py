"""The queues as plain data: places, Personas, and the words for them.

A queue is ``{"door", "slots", "permanents"}`` with its slots bathroom
first; a slot is a player ``{"player": seat}`` or a Persona (see
:func:`new_persona`).  Queues are numbered from 1 and places are indexes
from 0 here; commands and views say "position", counting from 1.  Nothing
here checks a rule: the engine does, before it changes a queue.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .model import PersonaSlotView, PlayerSlotView, Queue, Slot, Tokens


def new_persona(pid: int) -> Slot:
    """A face-down Persona: its printed values are unknown until revealed."""
    return {"id": pid, "revealed": False, "pipi": None, "popo": None, "colour": None,
            "name": None, "flipped": False, "tokens": [0, 0], "placed": False}


def is_player(slot: Slot) -> bool:
    return "player" in slot


def bathroom_persona(queue: Queue) -> Slot | None:
    """The Persona in the bathroom of a queue, or None (a player, or nobody)."""
    slots = queue["slots"]
    return slots[0] if slots and not is_player(slots[0]) else None


def bathroom_player(queue: Queue) -> int | None:
    """The seat of the player in the bathroom of a queue, or None."""
    slots = queue["slots"]
    return slots[0]["player"] if slots and is_player(slots[0]) else None


def with_covered(persona: Slot) -> list[Slot]:
    """A bathroom Persona and the Infamous Person under it, if any: the
    cards that leave together."""
    covered = persona.get("covers")
    return [persona] if covered is None else [persona, covered]


def tokens_held(persona: Slot) -> tuple[int, int]:
    """The tokens on a Persona and on the card under it."""
    cards = with_covered(persona)
    return sum(c["tokens"][0] for c in cards), sum(c["tokens"][1] for c in cards)


def put_tokens(persona: Slot, pipi: int, popo: int) -> None:
    """Tokens onto a Persona card: they stay on it until the end of the round."""
    persona["tokens"][0] += pipi
    persona["tokens"][1] += popo


def doors(queues: Sequence[Queue]) -> Iterator[tuple[int, Queue]]:
    """The queues still in play (with their door), with their numbers."""
    for q, queue in enumerate(queues, 1):
        if queue["door"]:
            yield q, queue


def find_player(queues: Sequence[Queue], seat: int) -> tuple[int, int] | None:
    """(queue, index) of a player."""
    for q, queue in doors(queues):
        for i, slot in enumerate(queue["slots"]):
            if slot.get("player") == seat:
                return q, i
    return None


def find_persona(queues: Sequence[Queue],
                 pid: int | None) -> tuple[int, int, Slot] | None:
    """(queue, index, Persona) of a Persona still in a queue."""
    for q, queue in doors(queues):
        for i, slot in enumerate(queue["slots"]):
            if is_player(slot):
                continue
            for card in with_covered(slot):
                if card["id"] == pid:
                    return q, i, card
    return None


def pending_reveals(queues: Sequence[Queue], *,
                    final_count: bool) -> list[tuple[int, int]]:
    """Face-down Personas the table must reveal: those in a bathroom or
    next to a player, or at the final count those between a player and
    the door."""
    spots = []
    for q, queue in doors(queues):
        slots = queue["slots"]
        players = [i for i, slot in enumerate(slots) if is_player(slot)]
        if final_count:
            wanted = set(range(players[0])) if players else set()
        else:
            wanted = {0} | {j for i in players for j in (i - 1, i + 1)}
        spots += [(q, j) for j in sorted(wanted)
                  if 0 <= j < len(slots) and not is_player(slots[j])
                  and not slots[j]["revealed"]]
    return spots


def tokens_ahead(queue: Queue, index: int) -> tuple[int, int]:
    """What a player at ``index`` takes at the final count: the tokens of
    every Persona between them and the door (on the card, plus the printed
    ones not yet put on it), with the permanent cards' modifiers, never
    below zero."""
    pipi = popo = 0
    for p in (c for slot in queue["slots"][:index] for c in with_covered(slot)):
        pipi += p["tokens"][0] + (0 if p["placed"] else p["pipi"] or 0)
        popo += p["tokens"][1] + (0 if p["placed"] else p["popo"] or 0)
    pipi += sum(c["pipi"] for c in queue["permanents"])
    popo += sum(c["popo"] for c in queue["permanents"])
    return max(0, pipi), max(0, popo)


# -- words -------------------------------------------------------------------


def label(p: Slot) -> str:
    if not p["revealed"]:
        return "the face-down Persona"
    return p["name"] or f"the {p['colour']} Persona"


def where(queues: Sequence[Queue], players: Sequence[str], q: int, i: int) -> str:
    """A place in words: ``at position 3 of queue 2, behind Ana``."""
    slots = queues[q - 1]["slots"]
    text = f"in the bathroom of queue {q}" if i == 0 else f"at position {i + 1} of queue {q}"
    if i + 1 < len(slots) and is_player(slots[i + 1]):
        text += f", in front of {players[slots[i + 1]['player']]}"
    elif i >= 1 and is_player(slots[i - 1]):
        text += f", behind {players[slots[i - 1]['player']]}"
    return text


def slot_view(players: Sequence[str], i: int, slot: Slot) -> PlayerSlotView | PersonaSlotView:
    if is_player(slot):
        return PlayerSlotView(i + 1, slot["player"], players[slot["player"]])
    return PersonaSlotView(
        position=i + 1,
        revealed=slot["revealed"],
        pipi=slot["pipi"],
        popo=slot["popo"],
        colour=slot["colour"],
        name=slot["name"],
        flipped=slot["flipped"],
        tokens_on_card=Tokens(slot["tokens"][0], slot["tokens"][1]),
        tokens_placed=slot["placed"],
    )


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
