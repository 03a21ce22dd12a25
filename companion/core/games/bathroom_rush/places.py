"""Where everyone stands, and the checks a command makes before it changes
anything.

:class:`Places` is the first layer of the Bathroom Rush engine: it answers
the table's questions (whose turn, who stands where, which queue is free,
who may not be moved) and refuses, with the rule named, a command that
points at a place where the table has no such thing.  The Persona deck is
here too, since every move that opens a gap in a queue draws from it.
"""

from __future__ import annotations

from typing import Any

from ...engine import Event, Game
from ...errors import IllegalCommand
from ...text import Word, Words
from .cards import ALLOWED_AGAINST_ARRIVED, card_key
from .model import TURN_PHASES, KindView, Phase, Slot, State
from .queues import (
    bathroom_persona,
    doors,
    find_player,
    is_player,
    new_persona,
    pending_reveals,
    where,
    with_covered,
)
from .sentences import GAME, card_word, event_key, persona_ref, render, spot_word


class Places(Game, State):
    """The state questions and checks the command layers build on (the
    state itself is :class:`.model.State`)."""

    @property
    def light(self) -> bool:
        """Light tracking: the companion keeps the tokens, not the queues."""
        return "light-tracking" in self.setup.variants

    # -- who and where -----------------------------------------------------

    def live_seats(self) -> list[int]:
        return [s for s, r in enumerate(self.reserves) if not r["eliminated"]]

    def live_clockwise(self, start: int) -> list[int]:
        """The seats still playing, clockwise from ``start`` (included)."""
        n = len(self.players)
        seats = [(start + k) % n for k in range(n)]
        return [s for s in seats if not self.reserves[s]["eliminated"]]

    def card_at(self, queue: int, position: int) -> int | None:
        """The number of the Persona card at a place (None: a player)."""
        slot = self.queues[queue - 1]["slots"][position - 1]
        return None if is_player(slot) else int(slot["id"])

    def held_at(self, queue: int, position: int) -> str:
        """What a place holds, as a target names it to say what its phone
        showed there: ``"player <seat>"`` or ``"persona <number>"``."""
        slot = self.queues[queue - 1]["slots"][position - 1]
        if is_player(slot):
            return f"player {slot['player']}"
        return f"persona {slot['id']}"

    def active(self) -> int | None:
        """The seat whose turn it is (the one choosing, during setup)."""
        if self.phase == Phase.SETUP:
            return self.chooser
        if self.phase in TURN_PHASES:
            return self.round_order[self.turn]
        return None

    def _turn_seat(self) -> int:
        """The active player, during a turn (phases A to E)."""
        seat = self.active()
        if seat is None:
            raise AssertionError(f"no turn is being played in phase {self.phase}")
        return seat

    def _where(self, seat: int) -> tuple[int, int]:
        """(queue, position) of a player known to stand in a queue."""
        place = self.locate(seat)
        if place is None:
            raise AssertionError(f"{self.players[seat]} stands in no queue")
        return place

    def locate(self, seat: int) -> tuple[int, int] | None:
        """(queue, position) of a player, position 1 being the bathroom."""
        found = find_player(self.queues, seat)
        return (found[0], found[1] + 1) if found else None

    def persona(self, queue: int, position: int) -> Slot | None:
        """The Persona at a place, or None (a player, an empty place, no door)."""
        if not 1 <= queue <= len(self.queues):
            return None
        slots = self.queues[queue - 1]["slots"]
        if 1 <= position <= len(slots) and not is_player(slots[position - 1]):
            found: Slot = slots[position - 1]
            return found
        return None

    def player_in(self, queue: int) -> int | None:
        for slot in self.queues[queue - 1]["slots"]:
            if is_player(slot):
                seat: int = slot["player"]
                return seat
        return None

    def free_queues(self) -> list[int]:
        """The queues with a door and no player (one, once every player stands)."""
        return [q for q, _ in doors(self.queues) if self.player_in(q) is None]

    def free_queue(self) -> int | None:
        """The queue with a door and no player."""
        free = self.free_queues()
        return free[0] if free else None

    def protected(self, seat: int) -> bool:
        """Whether queue operations against ``seat`` are refused now: they
        reached the bathroom through a card and the card being played is
        not Give Up Your Place, Swap or Sneeze."""
        return (self.final_round and seat in self.arrived and seat != self.active()
                and card_key(self.action_card) not in ALLOWED_AGAINST_ARRIVED)

    # -- what the events say ------------------------------------------------

    def _event(self, kind: str, data: dict[str, Any], *, alert: bool = False) -> Event:
        """An event whose sentence is said from its kind and data, in
        English here and in any language by :func:`.sentences.render`."""
        return Event(kind, render(event_key(kind, data), "en", data), data, alert)

    def _who(self, seat: int) -> dict[str, Any]:
        return {"player": seat, "name": self.players[seat]}

    def _at(self, q: int, i: int) -> dict[str, Any]:
        """A place as data: queue, position and the player next to it."""
        slots = self.queues[q - 1]["slots"]
        data: dict[str, Any] = {"queue": q, "position": i + 1}
        if i + 1 < len(slots) and is_player(slots[i + 1]):
            data.update(beside=self.players[slots[i + 1]["player"]], side="front")
        elif i >= 1 and i - 1 < len(slots) and is_player(slots[i - 1]):
            data.update(beside=self.players[slots[i - 1]["player"]], side="behind")
        return data

    def _of(self, p: Slot, q: int, i: int) -> dict[str, Any]:
        """A Persona and its place as data."""
        return {"persona": persona_ref(p), **self._at(q, i)}

    def _place(self, q: int, i: int) -> str:
        return where(self.queues, self.players, q, i)

    def _place_word(self, q: int, i: int) -> Word:
        """A place as a word of the players' language (for a refusal)."""
        data = self._at(q, i)
        place = spot_word(q, i + 1)
        if "beside" in data:
            return Word(f"place.{data['side']}", place=place, beside=data["beside"])
        return place

    def _pending_reveals(self) -> list[tuple[int, int]]:
        return pending_reveals(self.queues, final_count=self.phase == Phase.COUNT)

    def _covering_reveals(self) -> list[tuple[int, int]]:
        """The Personas just placed on an Infamous Person, still face down:
        they are turned up at once, before anything else happens."""
        return [(q, 0) for q, queue in doors(self.queues)
                if (p := bathroom_persona(queue)) is not None and "covers" in p
                and not p["revealed"]]

    # -- checks before a change --------------------------------------------

    def _mover(self, player: int | None) -> tuple[int, int, int]:
        """The player a queue operation moves (the active one by default):
        seat, queue and index in the queue."""
        seat = self._turn_seat() if player is None else player
        self._need_target(seat)
        q, position = self._where(seat)
        return seat, q, position - 1

    def _need_target(self, seat: int) -> None:
        """A card may be played against ``seat`` now."""
        self._need_live(seat)
        self._guard(seat)

    def _guard(self, seat: int) -> None:
        if self.protected(seat):
            name = self.players[seat]
            played = (Word("refusal.card-played-is", card=card_word(self.action_card))
                      if self.action_card else Word("refusal.no-card-played-yet"))
            raise IllegalCommand("refusal.final-turns", rule="final-turns", game=GAME,
                                 player=name, played=played)

    def _guard_queue(self, queue: int) -> None:
        self._need_door(queue)
        holder = self.player_in(queue)
        if holder is not None:
            self._guard(holder)

    def _need_live(self, seat: int) -> None:
        if self.reserves[seat]["eliminated"]:
            live = Words((self.players[s] for s in self.live_seats()), last=Word("refusal.and"))
            raise IllegalCommand("refusal.eliminated", rule="eliminated", game=GAME,
                                 player=self.players[seat], live=live)

    def _need_door(self, queue: int) -> None:
        if not self.queues[queue - 1]["door"]:
            open_doors = Words((q for q, _ in doors(self.queues)), last=Word("refusal.and"))
            raise IllegalCommand("refusal.no-door", rule="no-door", game=GAME, queue=queue,
                                 open=open_doors)

    def _need_persona(self, queue: int, position: int) -> Slot:
        self._need_door(queue)
        slots = self.queues[queue - 1]["slots"]
        if position > len(slots):
            raise IllegalCommand("refusal.no-persona-at", rule="no-persona", game=GAME,
                                 queue=queue, count=len(slots), position=position)
        slot = slots[position - 1]
        if is_player(slot):
            raise IllegalCommand("refusal.player-at", rule="no-persona", game=GAME,
                                 queue=queue, position=position,
                                 player=self.players[slot["player"]])
        persona: Slot = slot
        return persona

    def _need_neighbour(self, seat: int, q: int, i: int, purpose: str) -> Slot:
        """The Persona at index ``i`` next to ``seat`` (standing at the
        index after or before it) in queue ``q``."""
        name = self.players[seat]
        slots = self.queues[q - 1]["slots"]
        behind = i >= 1 and slots[i - 1].get("player") == seat
        if i < 0:
            raise IllegalCommand("refusal.neighbour-bathroom", rule="no-persona", game=GAME,
                                 player=name, queue=q, purpose=Word(purpose))
        if i >= len(slots) or is_player(slots[i]):
            raise IllegalCommand("refusal.no-one-behind" if behind else "refusal.no-one-front",
                                 rule="no-persona", game=GAME, player=name, queue=q,
                                 purpose=Word(purpose))
        persona: Slot = slots[i]
        return persona

    # -- the Persona deck and the box ----------------------------------------

    def unseen(self, kind: int) -> int:
        """Copies of a kind of the box neither face up on the table nor
        discarded face up since the last reshuffle."""
        on_table = sum(1 for _, queue in doors(self.queues) for slot in queue["slots"]
                       if not is_player(slot) and slot.get("kind") == kind)
        left: int = self.box[kind]["copies"] - on_table - self.box_seen[kind]
        return max(0, left)

    def box_view(self) -> list[KindView]:
        """The grid of the kinds, with how many are still unseen."""
        return [KindView(k + 1, kind["name"], kind["colour"], kind["pipi"], kind["popo"],
                         kind["copies"], self.unseen(k))
                for k, kind in enumerate(self.box)]

    def _discard(self, personas: list[Slot]) -> None:
        """Personas onto the discard pile; the box remembers the kinds seen."""
        personas = [c for p in personas
                    for c in ([p] if is_player(p) else with_covered(p))]
        self.persona_discard += len(personas)
        for p in personas:
            if not is_player(p) and p.get("kind") is not None:
                self.box_seen[p["kind"]] += 1

    def _check_draw(self, count: int) -> None:
        if self.persona_deck + self.persona_discard < count:
            raise IllegalCommand("refusal.deck-empty", rule="deck-empty", game=GAME)

    def _draw(self, events: list[Event]) -> Slot:
        """A new face-down Persona from the deck (callers check there is one)."""
        if self.persona_deck == 0:
            self.persona_deck, self.persona_discard = self.persona_discard, 0
            self.box_seen = [0] * len(self.box)
            events.append(self._event("deck-reshuffled", {"deck": self.persona_deck}))
        self.persona_deck -= 1
        self.next_id += 1
        return new_persona(self.next_id - 1)
