"""The commands that move the game on: queues chosen at setup, Personas
revealed, phase D closed, the active player's choice in phase E (an Action
card, a decompression or a pass), the end of the turn, and the die rolls
(decompression, Avid Reader, tie-break)."""

from __future__ import annotations

from ...engine import Event
from ...errors import IllegalCommand
from .cards import (
    AVID_READER,
    CONCENTRATION,
    DEFENSIVE_CARDS,
    DISTRACTED,
    ELDERLY_MAN,
    INFAMOUS_PERSON,
    MOTHER_WITH_BABY,
    card_key,
)
from .effects import reader_has_target
from .queues import cap, label, put_tokens, tokens_text
from .rounds import Rounds


class TurnCommands(Rounds):
    """``do_*`` for the commands the game expects in turn."""

    def do_choose_queue(self, queue: int, player: int | None) -> list[Event]:
        seat = self.chooser if player is None else player
        holder = self.player_in(queue)
        if holder is not None:
            free = ", ".join(str(q) for q in self.free_queues())
            raise IllegalCommand(
                f"queue {queue} is taken by {self.players[holder]}: two players never share "
                f"a queue; the free queues are {free}", rule="queue-taken")
        last = self.chooser == len(self.players) - 1
        if last:
            self._check_draw(len(self.players))
        self.queues[queue - 1]["slots"].append({"player": seat})
        events = [Event("queue-chosen", f"{self.players[seat]} stands at the end of queue {queue}",
                        {"player": seat, "queue": queue})]
        self.chooser += 1
        if last:
            for s in range(len(self.players)):
                q, _ = self.locate(s)
                self.queues[q - 1]["slots"].append(self._draw(events))
            events.append(Event("persona-drawn", f"One more Persona goes behind each player; "
                                                 f"queue {self.free_queue()} is the free queue",
                                {"free_queue": self.free_queue()}))
            self._start_round(events)
        return events

    def do_reveal(self, queue: int, position: int, pipi: int, popo: int, colour: str,
                  name: str | None) -> list[Event]:
        p = self._need_persona(queue, position)
        where = self._place(queue, position - 1)
        if p["revealed"]:
            raise IllegalCommand(f"the Persona {where} is already revealed; set-persona "
                                 f"corrects its values", rule="already-revealed")
        if (queue, position - 1) not in self._pending_reveals():
            allowed = ("those between a player and the door" if self.phase == "count"
                       else "those in a bathroom or next to a player")
            raise IllegalCommand(f"the Persona {where} stays face down: the Personas revealed "
                                 f"now are {allowed}", rule="not-revealable")
        p.update(revealed=True, pipi=pipi, popo=popo, colour=colour, name=name)
        events = [Event("revealed", f"Revealed {where}: {label(p)}, "
                                    f"{tokens_text(pipi, popo)}",
                        {"queue": queue, "position": position, "pipi": pipi, "popo": popo,
                         "colour": colour, "name": name})]
        if not self._pending_reveals():
            if self.phase == "A":
                self._automatic_phases(events)
            else:
                self._final_count(events)
        return events

    # -- phase D: one Persona effect at a time ---------------------------------

    def _need_current(self) -> tuple[dict, int, int, dict]:
        current = self._current_effect()
        if current is None:
            raise IllegalCommand("no Persona effect waits to be resolved", rule="no-effect")
        return current

    def do_effect(self, player: int | None) -> list[Event]:
        """The current effect happens: the companion applies the effects it
        knows; any other the table has applied with the queue commands."""
        entry, q, i, p = self._need_current()
        seat = self.active()
        name = self.players[seat]
        key = card_key(p["name"])
        slots = self.queues[q - 1]["slots"]
        events: list[Event] = []
        if key in (ELDERLY_MAN, MOTHER_WITH_BABY):
            slots[i - 1], slots[i] = slots[i], slots[i - 1]
            events.append(Event("persona-moved", f"{cap(label(p))} passes in front of {name} "
                                                 f"in queue {q}",
                                {"player": seat, "queue": q, "position": i + 1}))
        elif key == DISTRACTED:
            self._resolved(entry, q, i, p, "applied", events)
            self._change_reserve(seat, 1, 0, events, f"takes a pipì because of {label(p)}")
            self._settle(events)
            return events
        elif key == AVID_READER:
            if reader_has_target(slots, i):
                raise IllegalCommand(f"{cap(label(p))} leaves his newspaper on the Persona "
                                     f"after him: roll the blue die", rule="roll-first")
            events.append(Event("effect-applied", f"{cap(label(p))} leaves his newspaper, but "
                                                  f"a player is right after him: no effect",
                                {"queue": q, "position": i + 1}))
        elif key == INFAMOUS_PERSON:
            self._check_draw(1)
            slots.insert(0, self._draw(events))
            events.append(Event("persona-on-top", f"A Persona from the deck goes on top of "
                                                  f"{label(p)} in the bathroom of queue {q}",
                                {"queue": q}))
        else:
            events.append(Event("effect-applied", f"The effect of {label(p)} "
                                                  f"{self._place(q, i)} is applied",
                                {"queue": q, "position": i + 1}))
        self._resolved(entry, q, i, p, "applied", events)
        return events

    def do_defend(self, player: int | None) -> list[Event]:
        """A defensive card blocks the current effect; a one-shot Persona is
        turned over all the same."""
        entry, q, i, p = self._need_current()
        name = self.players[self.active()]
        events = [Event("effect-blocked", f"{name} plays a Queue Defence: {label(p)} "
                                          f"{self._place(q, i)} is blocked",
                        {"player": self.active(), "queue": q, "position": i + 1})]
        self._resolved(entry, q, i, p, "blocked", events)
        return events

    def do_action(self, card: str, player: int | None) -> list[Event]:
        name = self.players[self.active()]
        if card_key(card) in DEFENSIVE_CARDS:
            raise IllegalCommand(
                f"{card} is a defensive card: it is played together with the attack or the "
                f"Persona effect it blocks and is never the Action card of the turn; {name} "
                f"plays another Action card, decompresses or passes", rule="defensive-card")
        if card_key(card) == CONCENTRATION:
            return [Event("action", f"{name} plays {card}",
                          {"player": self.active(), "card": card})] + self.do_decompress(True, player)
        self.step = "action"
        self.action_card = card
        return [Event("action", f"{name} plays {card}: apply it with the queue commands, "
                                f"then end-turn", {"player": self.active(), "card": card})]

    def do_decompress(self, concentration: bool, player: int | None) -> list[Event]:
        self.step = "decompress"
        self.concentration = bool(concentration)
        with_card = " with Concentration" if concentration else ""
        return [Event("decompress", f"{self.players[self.active()]} decompresses{with_card}: "
                                    f"roll the red die",
                      {"player": self.active(), "concentration": self.concentration})]

    def do_pass(self, player: int | None) -> list[Event]:
        return self._end_turn([], Event("passed", f"{self.players[self.active()]} passes and "
                                                  f"discards down to 3 Action cards",
                                        {"player": self.active()}))

    def do_end_turn(self, player: int | None) -> list[Event]:
        return self._end_turn([], Event("turn-ended", f"{self.players[self.active()]} discards "
                                                      f"down to 3 Action cards; the turn is over",
                                        {"player": self.active()}))

    def do_roll(self, values: list[int], player: int | None) -> list[Event]:
        value = values[0]
        if self.phase == "D":
            return self._reader_roll(value)
        if self.phase == "E":
            return self._decompression_roll(value)
        return self._tie_break_roll(value, player)

    # -- what a roll does ------------------------------------------------------

    def _decompression_roll(self, value: int) -> list[Event]:
        seat = self.active()
        q, position = self.locate(seat)
        behind = None
        if "keep-behind" not in self.setup.variants:
            behind = self.persona(q, position + 1)
        if behind is not None:
            self._check_draw(1)
        events: list[Event] = []
        self._decompress(seat, value, self.concentration, events)
        if behind is not None and not self.reserves[seat]["eliminated"]:
            slots = self.queues[q - 1]["slots"]
            self.persona_discard += 1
            slots[position] = self._draw(events)
            events.append(Event("persona-replaced", f"{cap(label(behind))} behind "
                                                    f"{self.players[seat]} leaves the queue; a "
                                                    f"new face-down Persona takes the place",
                                {"queue": q, "position": position + 1}))
        return self._end_turn(events, Event("turn-ended", f"{self.players[seat]}'s turn is over; "
                                                          f"discard down to 3 Action cards",
                                            {"player": seat}))

    def _reader_roll(self, value: int) -> list[Event]:
        entry, q, i, reader = self._need_current()
        after = self.queues[q - 1]["slots"][i + 1]
        put_tokens(after, value, 0)
        events = [Event("tokens-added", f"{cap(label(reader))} leaves his newspaper: "
                                        f"{value} pipì on {label(after)} at position {i + 2} "
                                        f"of queue {q}",
                        {"queue": q, "position": i + 2, "pipi": value, "popo": 0})]
        self._resolved(entry, q, i, reader, "applied", events)
        return events

    def _tie_break_roll(self, value: int, player: int | None) -> list[Event]:
        seat = self.tie_pending[0] if player is None else player
        events = [Event("tie-break", f"Tie-break: {self.players[seat]} rolls {value}",
                        {"player": seat, "roll": value})]
        self._decompress(seat, value, False, events)
        if seat in self.tie_pending:
            self.tie_pending.remove(seat)
        if not self.tie_pending:
            self._decide(self.tie_group, events)
        return events
