"""The queue operations the Action and Persona cards cause: a player and a
Persona next to them trading places or leaving, a player changing queue,
tokens onto Persona cards or into a reserve, permanent cards behind a door,
a spent Persona turned over.

The companion does not know which card asks for which operation: the table
says what happened, and each operation checks only that it can happen
here, and that it is not played against a player who reached the bathroom
through a card (in the final turns only Give Up Your Place, Swap and
Sneeze may be)."""

from __future__ import annotations

from ...engine import Event
from ...errors import BadArgument, IllegalCommand
from .cards import card_key
from .model import Slot
from .queues import put_tokens
from .rounds import Rounds
from .sentences import GAME, persona_ref, persona_word


class QueueOperations(Rounds):
    """``do_*`` for the queue operations, offered in phases D and E."""

    # -- a player and the Persona next to them ---------------------------------

    def do_swap_behind(self, player: int | None) -> list[Event]:
        seat, q, behind = self._swap_with_behind(player, "refusal.to-swap")
        return [self._persona_moved(seat, q, behind, "gave-up")]

    def do_pass_in_front(self, player: int | None) -> list[Event]:
        seat, q, behind = self._swap_with_behind(player, "refusal.to-pass")
        return [self._persona_moved(seat, q, behind, "in-front")]

    def _swap_with_behind(self, player: int | None,
                          purpose: str) -> tuple[int, int, Slot]:
        """A player and the Persona behind them trade places: the seat, the
        queue and the Persona now ahead."""
        seat, q, i = self._mover(player)
        behind = self._need_neighbour(seat, q, i + 1, purpose)
        slots = self.queues[q - 1]["slots"]
        slots[i], slots[i + 1] = slots[i + 1], slots[i]
        return seat, q, behind

    def _persona_moved(self, seat: int, q: int, persona: Slot, how: str) -> Event:
        """The event of a swap, with the place the player now stands at."""
        position = self._where(seat)[1]
        return self._event("persona-moved", {**self._who(seat), "persona": persona_ref(persona),
                                             "queue": q, "position": position, "how": how})

    def do_remove_front(self, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        front = self._need_neighbour(seat, q, i - 1, "refusal.to-remove")
        self._discard([self.queues[q - 1]["slots"].pop(i - 1)])
        events = [self._event("persona-removed", {
            **self._who(seat), "persona": persona_ref(front), "queue": q, "position": i,
            "how": "front" if i == 1 else "front-up"})]
        self._check_arrivals(events)
        return events

    def do_remove_behind(self, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        behind = self._need_neighbour(seat, q, i + 1, "refusal.to-remove")
        slots = self.queues[q - 1]["slots"]
        was_last = i + 2 == len(slots)
        if was_last:
            self._check_draw(1)
        self._discard([slots.pop(i + 1)])
        events: list[Event] = []
        if was_last:
            slots.append(self._draw(events))
        events.insert(0, self._event("persona-removed", {
            **self._who(seat), "persona": persona_ref(behind), "queue": q,
            "how": "behind-new" if was_last else "behind"}))
        return events

    def do_change_queue(self, queue: int | None, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        free = self.free_queue()
        if free is None:
            raise IllegalCommand("refusal.no-free-queue", rule="no-free-queue", game=GAME)
        if queue is not None and queue != free:
            holder = self.player_in(queue) if self.queues[queue - 1]["door"] else None
            if holder is not None:
                raise IllegalCommand("refusal.change-to-taken", rule="queue-taken", game=GAME,
                                     queue=queue, holder=self.players[holder],
                                     player=self.players[seat], free=free)
            raise IllegalCommand("refusal.change-to-closed", rule="queue-taken", game=GAME,
                                 queue=queue, player=self.players[seat], free=free)
        self._check_draw(1)
        # The Persona behind steps into the old place simply by closing the gap.
        self.queues[q - 1]["slots"].pop(i)
        events = [self._event("queue-changed", {**self._who(seat), "from": q, "to": free})]
        target = self.queues[free - 1]["slots"]
        target.append({"player": seat})
        target.append(self._draw(events))
        self._check_arrivals(events)
        return events

    # -- tokens and cards ------------------------------------------------------

    def do_add_tokens(self, queue: int, pipi: int, popo: int, position: int) -> list[Event]:
        if not pipi and not popo:
            raise BadArgument("refusal.add-tokens-none", game=GAME)
        self._guard_queue(queue)
        p = self._need_persona(queue, position)
        put_tokens(p, pipi, popo)
        return [self._event("tokens-added", {**self._of(p, queue, position - 1), "pipi": pipi,
                                             "popo": popo, "on_card": list(p["tokens"])})]

    def do_place_permanent(self, queue: int, pipi: int, popo: int, card: str) -> list[Event]:
        self._guard_queue(queue)
        self.queues[queue - 1]["permanents"].append({"card": card, "pipi": pipi, "popo": popo})
        return [self._event("permanent-placed", {"queue": queue, "card": card,
                                                 "modifier": [pipi, popo]})]

    def do_remove_permanent(self, queue: int, card: str | None) -> list[Event]:
        self._need_door(queue)
        cards = self.queues[queue - 1]["permanents"]
        names = ", ".join(c["card"] for c in cards)
        if not cards:
            raise IllegalCommand("refusal.no-permanent", rule="no-permanent", game=GAME,
                                 queue=queue)
        if card is None:
            if len(cards) > 1:
                raise BadArgument("refusal.name-permanent", game=GAME, queue=queue, names=names)
            index = 0
        else:
            matches = [k for k, c in enumerate(cards) if card_key(c["card"]) == card_key(card)]
            if not matches:
                raise IllegalCommand("refusal.no-such-permanent", rule="no-permanent",
                                     game=GAME, card=repr(card), queue=queue, names=names)
            index = matches[0]
        removed = cards.pop(index)
        return [self._event("permanent-removed", {"queue": queue, "card": removed["card"]})]

    def do_flip(self, queue: int, position: int) -> list[Event]:
        p = self._need_persona(queue, position)
        where = self._place_word(queue, position - 1)
        if not p["revealed"]:
            raise IllegalCommand("refusal.flip-face-down", rule="face-down", game=GAME,
                                 place=where)
        if p["flipped"]:
            raise IllegalCommand("refusal.already-flipped", rule="already-flipped", game=GAME,
                                 persona=persona_word(p), place=where)
        p["flipped"] = True
        return [self._event("flipped", {**self._of(p, queue, position - 1), "how": "by-hand"})]

    def do_take_tokens(self, player: int, pipi: int, popo: int) -> list[Event]:
        if not pipi and not popo:
            raise BadArgument("refusal.take-tokens-none", game=GAME)
        self._need_target(player)
        events: list[Event] = []
        self._take_or_give(player, pipi, popo, events)
        return events
