"""The commands that move the game on: queues chosen at setup, Personas
revealed, phase D closed, the active player's choice in phase E (an Action
card, a decompression or a pass), the end of the turn, and the die rolls
(decompression, Avid Reader, tie-break)."""

from __future__ import annotations

from ...engine import Event
from ...errors import IllegalCommand
from .cards import CONCENTRATION, DEFENSIVE_CARDS, ONE_SHOT_PERSONAS, card_key
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

    def do_effects_done(self) -> list[Event]:
        events = []
        for q, i, p in self._listed_personas():
            one_shot = p["colour"] == "orange" or card_key(p["name"]) in ONE_SHOT_PERSONAS
            if one_shot and not p["flipped"]:
                p["flipped"] = True
                events.append(Event("flipped", f"{cap(label(p))} ({self._place(q, i)}) "
                                               f"is turned over: its effect is spent",
                                    {"queue": q, "position": i + 1}))
        self._open_phase_e(events)
        return events

    def do_action(self, card: str) -> list[Event]:
        name = self.players[self.active()]
        if card_key(card) in DEFENSIVE_CARDS:
            raise IllegalCommand(
                f"{card} is a defensive card: it is played together with the attack or the "
                f"Persona effect it blocks and is never the Action card of the turn; {name} "
                f"plays another Action card, decompresses or passes", rule="defensive-card")
        if card_key(card) == CONCENTRATION:
            return [Event("action", f"{name} plays {card}",
                          {"player": self.active(), "card": card})] + self.do_decompress(True)
        self.step = "action"
        self.action_card = card
        return [Event("action", f"{name} plays {card}: apply it with the queue commands, "
                                f"then end-turn", {"player": self.active(), "card": card})]

    def do_decompress(self, concentration: bool) -> list[Event]:
        self.step = "decompress"
        self.concentration = bool(concentration)
        with_card = " with Concentration" if concentration else ""
        return [Event("decompress", f"{self.players[self.active()]} decompresses{with_card}: "
                                    f"roll the red die",
                      {"player": self.active(), "concentration": self.concentration})]

    def do_pass(self) -> list[Event]:
        return self._end_turn([], Event("passed", f"{self.players[self.active()]} passes and "
                                                  f"discards down to 3 Action cards",
                                        {"player": self.active()}))

    def do_end_turn(self) -> list[Event]:
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
        q, reader = self._reader_pending()
        after = self.queues[q - 1]["slots"][1]
        put_tokens(after, value, 0)
        reader["flipped"] = True
        return [Event("tokens-added", f"{cap(label(reader))} leaves his newspaper: "
                                      f"{value} pipì on {label(after)} at position 2 of "
                                      f"queue {q}; he is turned over",
                      {"queue": q, "position": 2, "pipi": value, "popo": 0})]

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
