"""The flow of a round: turns one after the other, phases A to C done by the
companion, phase D's list of effects, the end of a turn and of a round (the
bathrooms' tokens taken, the queues moving up), and the final turns once a
player reaches a bathroom through a card."""

from __future__ import annotations

from typing import Any

from ...engine import Event
from .cards import AVID_READER, card_key
from .effects import acting, acts, reader_has_target, spent_once_resolved
from .model import Effect, Phase, Slot
from .queues import (
    bathroom_persona,
    bathroom_player,
    doors,
    find_persona,
    put_tokens,
    tokens_held,
    with_covered,
)
from .scoring import Scoring
from .sentences import persona_ref


class Rounds(Scoring):
    """The turn's flow, which every command that can end a turn goes through."""

    # -- a round and its turns ----------------------------------------------

    def _start_round(self, events: list[Event]) -> None:
        self.round += 1
        self.round_order = self.live_clockwise(self.first_player)
        self.turn = 0
        events.append(self._event("round", {**self._who(self.first_player), "round": self.round,
                                            "first_player": self.first_player}))
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        self.phase = Phase.A
        self.step = ""
        self.action_card = None
        self.concentration = False
        self.effects = []
        seat = self._turn_seat()
        events.append(self._event("turn", {**self._who(seat), "round": self.round}))
        if self.light:
            self.phase = Phase.E
            self.step = "choose"
            return
        self._automatic_phases(events)

    def _automatic_phases(self, events: list[Event]) -> None:
        """Go through phases A to C as far as the table lets the companion."""
        pending = self._pending_reveals()
        if pending:
            events.append(self._event("phase", {"phase": Phase.A, "count": len(pending)}))
            return
        self._place_bathroom_tokens(events)
        seat = self._turn_seat()
        events.append(self._event("phase", {**self._who(seat), "phase": "C"}))
        for q, card in self._permanents_of(seat):
            events.append(self._event("permanent-acts", {**self._who(seat), "queue": q,
                                                         "card": card}))
        self.effects = self._effects_for(seat, with_free_queue=self.turn == 0)
        if self.effects:
            self.phase = Phase.D
            events.append(self._event("phase", {"phase": Phase.D, "effects": self._effect_data()}))
            self._advance_effects(events)
        else:
            self._open_phase_e(events, "no-effect")

    def _permanents_of(self, seat: int) -> list[tuple[int, str]]:
        """The permanent cards behind the door of a player's queue."""
        q, _ = self._where(seat)
        return [(q, c["card"]) for c in self.queues[q - 1]["permanents"]]

    def _place_bathroom_tokens(self, events: list[Event]) -> None:
        placed = []
        for q, queue in doors(self.queues):
            p = bathroom_persona(queue)
            if p is not None and p["revealed"] and not p["placed"]:
                put_tokens(p, p["pipi"] or 0, p["popo"] or 0)
                p["placed"] = True
                placed.append({"queue": q, "persona": persona_ref(p), "pipi": p["tokens"][0],
                               "popo": p["tokens"][1]})
        if placed:
            events.append(self._event("tokens-placed", {"phase": "B", "placed": placed}))

    def _open_phase_e(self, events: list[Event], how: str = "") -> None:
        self.phase = Phase.E
        self.step = "choose"
        data = {**self._who(self._turn_seat()), "phase": Phase.E}
        if how:
            data["how"] = how
        events.append(self._event("phase", data))

    def _end_turn(self, events: list[Event], ended: Event) -> list[Event]:
        """The active player's turn is over (``ended`` says how); the next begins."""
        events.append(ended)
        self._next_turn(events)
        return events

    def _next_turn(self, events: list[Event]) -> None:
        if len(self.live_seats()) <= 1:
            self._last_standing(events)
            return
        self.turn += 1
        while (self.turn < len(self.round_order)
               and self.reserves[self.round_order[self.turn]]["eliminated"]):
            self.turn += 1
        if self.turn < len(self.round_order):
            self._begin_turn(events)
        else:
            self._end_round(events)

    def _take_or_give(self, seat: int, pipi: int, popo: int, events: list[Event]) -> None:
        """Tokens the table says a player takes (or discards, negative)
        into their reserve, which never goes below zero."""
        r = self.reserves[seat]
        pipi = max(pipi, -r["pipi"])
        popo = max(popo, -r["popo"])
        takes = pipi > 0 or popo > 0
        gives = pipi < 0 or popo < 0
        how = "both" if takes and gives else "take" if takes else "give"
        self._change_reserve(seat, pipi, popo, events, how)
        self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        """After tokens changed hands mid-turn: an elimination may end the
        turn or the game."""
        if self.phase not in (Phase.A, Phase.D, Phase.E):
            return
        if len(self.live_seats()) <= 1:
            self._last_standing(events)
        elif self.reserves[self._turn_seat()]["eliminated"]:
            self._next_turn(events)

    # -- the end of a round --------------------------------------------------

    def _light_end_round(self, events: list[Event]) -> None:
        """The end of a round in light tracking (:mod:`.light`)."""
        raise NotImplementedError

    def _end_round(self, events: list[Event]) -> None:
        if self.light:
            self._light_end_round(events)
            return
        if self.final_round:
            events.append(self._event("phase", {"phase": Phase.COUNT}))
            self._start_count(events)
            return
        self._cleanup(events)
        if len(self.live_seats()) <= 1:
            self._last_standing(events)
            return
        arrived = [seat for _, queue in doors(self.queues)
                   if (seat := bathroom_player(queue)) is not None]
        if arrived:
            events.append(self._event("final-round", {
                "players": arrived, "names": [self.players[s] for s in arrived],
                "how": "cleanup" if len(arrived) == 1 else "cleanup-many"}, alert=True))
            self._start_count(events)
            return
        self.first_player = self.live_clockwise(self.first_player + 1)[0]
        events.append(self._event("first-player", {**self._who(self.first_player),
                                                   "first_player": self.first_player}))
        self._start_round(events)

    def _cleanup(self, events: list[Event]) -> None:
        events.append(self._event("cleanup", {"round": self.round}))
        for q, queue in list(doors(self.queues)):
            p = bathroom_persona(queue)
            if p is None:
                continue
            # With a Persona on the Infamous Person, the tokens of both cards.
            pipi, popo = tokens_held(p)
            holder = self.player_in(q)
            if holder is None:
                events.append(self._event("tokens-discarded", {"queue": q, "pipi": pipi,
                                                               "popo": popo}))
            else:
                self._change_reserve(holder, pipi, popo, events, "bathroom", queue=q)
        leaving = [queue["slots"].pop(0) for _, queue in doors(self.queues)
                   if bathroom_persona(queue) is not None]
        left = sum(len(with_covered(p)) for p in leaving)
        self._discard(leaving)
        events.append(self._event("queue-advanced", {"left": left}))

    def _check_arrivals(self, events: list[Event]) -> None:
        """A player in a bathroom during a turn came there through a card:
        the rest of the round is the final turns."""
        for q, queue in doors(self.queues):
            seat = bathroom_player(queue)
            if seat is None or seat in self.arrived:
                continue
            self.arrived.append(seat)
            data = {**self._who(seat), "queue": q}
            if self.final_round:
                data["how"] = "too"
            self.final_round = True
            events.append(self._event("final-round", data, alert=True))

    # -- phase D: the Persona effects ------------------------------------------

    def _ignored_colours(self) -> tuple[str, ...]:
        ignored: tuple[str, ...] = ()
        if "first-game" in self.setup.variants:
            ignored += ("orange", "red")
        if "no-yellow" in self.setup.variants:
            ignored += ("yellow",)
        return ignored

    def _effects_for(self, seat: int, *, with_free_queue: bool) -> list[Effect]:
        """Phase D's list, fixed as the phase begins: in the first turn of a
        round the free queue's Personas, then those of the player's queue,
        each queue from the bathroom down."""
        ignored = self._ignored_colours()
        entries: list[Effect] = []
        free = self.free_queue()
        if with_free_queue and free is not None:
            slots = self.queues[free - 1]["slots"]
            entries += [{"persona": slots[i]["id"], "queue": free, "free": True, "done": ""}
                        for i in acting(slots, None, ignored)]
        q, position = self._where(seat)
        slots = self.queues[q - 1]["slots"]
        entries += [{"persona": slots[i]["id"], "queue": q, "free": False, "done": ""}
                    for i in acting(slots, position - 1, ignored)]
        return entries

    def _still_acts(self, entry: Effect) -> tuple[int, int, Slot] | None:
        """(queue, index, Persona) of a listed Persona whose condition still
        holds now, or None: it left, or the player moved away from it."""
        found = find_persona(self.queues, entry["persona"])
        if found is None:
            return None
        q, i, _ = found
        player = None
        if not entry["free"]:
            place = self.locate(self._turn_seat())
            if place is None or place[0] != q:
                return None
            player = place[1] - 1
        slots = self.queues[q - 1]["slots"]
        return found if acts(slots, i, player, self._ignored_colours()) else None

    def _current_effect(self) -> tuple[Effect, int, int, Slot] | None:
        """The effect phase D waits for: (entry, queue, index, Persona).
        Once reached it stays the one waited for until it is resolved or
        blocked, whatever the table does meanwhile to apply it."""
        for entry in self.effects:
            if not entry["done"]:
                found = (find_persona(self.queues, entry["persona"]) if entry.get("reached")
                         else None)
                return (entry, *found) if found is not None else None
        return None

    def _advance_effects(self, events: list[Event]) -> None:
        """Move phase D on to the next effect whose condition still holds
        when it is reached; a Persona whose condition no longer holds then
        keeps its effect for a later turn.  With none left, phase E opens.
        A Persona just placed on the Infamous Person is turned up first."""
        if self.phase != Phase.D or self._covering_reveals():
            return
        for entry in self.effects:
            if entry["done"]:
                continue
            found = find_persona(self.queues, entry["persona"])
            if entry.get("reached"):
                if found is not None:
                    return
                # The Persona left the queue as its effect was applied.
                entry["done"] = "applied"
                continue
            if self._still_acts(entry) is not None:
                entry["reached"] = True
                return
            entry["done"] = "passed"
            if found is not None:
                q, i, p = found
                events.append(self._event("effect-passed", self._of(p, q, i)))
        self._open_phase_e(events)

    def _resolved(self, entry: Effect, q: int, i: int, p: Slot, how: str,
                  events: list[Event]) -> None:
        """An effect applied or blocked: a one-shot Persona is turned over."""
        entry["done"] = how
        if spent_once_resolved(p) and not p["flipped"]:
            p["flipped"] = True
            place = find_persona(self.queues, p["id"])
            q, i = (place[0], place[1]) if place else (q, i)
            events.append(self._event("flipped", self._of(p, q, i)))

    def _effect_data(self) -> list[dict[str, Any]]:
        """Phase D's list as data: each Persona, its place, how it went."""
        lines = []
        for entry in self.effects:
            found = find_persona(self.queues, entry["persona"])
            if found is not None:
                q, i, p = found
                lines.append({**self._of(p, q, i), "done": entry["done"]})
        return lines

    def _reader_pending(self) -> tuple[int, Slot] | None:
        """The Avid Reader waiting for his blue die: the current effect, in
        a bathroom, with a Persona right after him."""
        current = self._current_effect()
        if current is None:
            return None
        _, q, i, p = current
        slots = self.queues[q - 1]["slots"]
        if card_key(p["name"]) == AVID_READER and reader_has_target(slots, i):
            return q, p
        return None
