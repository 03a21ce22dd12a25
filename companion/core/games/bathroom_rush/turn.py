"""The commands that move the game on: queues chosen at setup, Personas
revealed, phase D closed, the active player's choice in phase E (an Action
card, a decompression or a pass), the end of the turn, and the die rolls
(decompression, Avid Reader, tie-break)."""

from __future__ import annotations

from ...engine import Event
from ...errors import IllegalCommand
from ...text import Word
from .box import find_kind
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
from .effects import applied_by_companion, reader_has_target
from .model import Effect, Phase, Slot
from .queues import put_tokens
from .rounds import Rounds
from .sentences import GAME, card_word, persona_ref, persona_word


class TurnCommands(Rounds):
    """``do_*`` for the commands the game expects in turn."""

    def do_choose_queue(self, queue: int, player: int | None) -> list[Event]:
        seat = self.chooser if player is None else player
        holder = self.player_in(queue)
        if holder is not None:
            free = ", ".join(str(q) for q in self.free_queues())
            raise IllegalCommand("refusal.queue-taken", rule="queue-taken", game=GAME,
                                 queue=queue, holder=self.players[holder], free=free)
        last = self.chooser == len(self.players) - 1
        if last:
            self._check_draw(len(self.players))
        self.queues[queue - 1]["slots"].append({"player": seat})
        events = [self._event("queue-chosen", {**self._who(seat), "queue": queue})]
        self.chooser += 1
        if last:
            for s in range(len(self.players)):
                q, _ = self._where(s)
                self.queues[q - 1]["slots"].append(self._draw(events))
            events.append(self._event("persona-drawn", {"free_queue": self.free_queue()}))
            self._start_round(events)
        return events

    def do_reveal(self, queue: int, position: int, pipi: int, popo: int, colour: str,
                  name: str | None) -> list[Event]:
        p = self._need_persona(queue, position)
        where = self._place_word(queue, position - 1)
        if p["revealed"]:
            raise IllegalCommand("refusal.already-revealed", rule="already-revealed", game=GAME,
                                 place=where)
        if (queue, position - 1) not in self._pending_reveals():
            raise IllegalCommand("refusal.not-revealable.count" if self.phase == Phase.COUNT
                                 else "refusal.not-revealable", rule="not-revealable",
                                 game=GAME, place=where)
        p.update({"revealed": True, "pipi": pipi, "popo": popo, "colour": colour, "name": name})
        events = [self._event("revealed", {**self._of(p, queue, position - 1), "pipi": pipi,
                                           "popo": popo, "colour": colour, "name": name})]
        if "covers" in p and not p["placed"]:
            # On the Infamous Person: its printed tokens go on it at once.
            put_tokens(p, pipi, popo)
            p["placed"] = True
            events.append(self._event("tokens-placed", {
                "queue": queue, "persona": persona_ref(p), "pipi": pipi, "popo": popo,
                "under": persona_ref(p["covers"]), "how": "on-top"}))
        if not self._pending_reveals():
            if self.phase == Phase.A:
                self._automatic_phases(events)
            elif self.phase == Phase.COUNT:
                self._final_count(events)
        return events

    def do_reveal_kind(self, queue: int, position: int, kind: str) -> list[Event]:
        """A reveal with the box described: one of its kinds still unseen."""
        index = find_kind(self.box, kind)
        if index is None:
            kinds: str | Word = (", ".join(k["name"] for k in self.box)
                                 or Word("refusal.no-box"))
            raise IllegalCommand("refusal.no-such-kind", rule="no-such-kind", game=GAME,
                                 kind=repr(kind), kinds=kinds)
        found = self.box[index]
        if self.unseen(index) == 0:
            left: str | Word = ", ".join(f"{k['name']} ({self.unseen(n)})"
                                         for n, k in enumerate(self.box)
                                         if self.unseen(n)) or Word("refusal.none")
            raise IllegalCommand("refusal.kind-all-seen", rule="kind-all-seen", game=GAME,
                                 copies=found["copies"], name=found["name"], left=left)
        p = self._need_persona(queue, position)
        events = self.do_reveal(queue, position, found["pipi"], found["popo"], found["colour"],
                                found["name"])
        # The same card, whatever the phases that followed did.
        p["kind"] = index
        return events

    # -- phase D: one Persona effect at a time ---------------------------------

    def _need_current(self) -> tuple[Effect, int, int, Slot]:
        current = self._current_effect()
        if current is None:
            raise IllegalCommand("refusal.no-effect", rule="no-effect", game=GAME)
        return current

    def do_effect(self, player: int | None, pipi: int = 0, popo: int = 0,
                  to: int | None = None) -> list[Event]:
        """The current effect happens: the companion applies the effects it
        knows; any other the table has applied with the queue commands, and
        says which tokens it gave (or took) to whose reserve."""
        entry, q, i, p = self._need_current()
        seat = self._turn_seat()
        key = card_key(p["name"])
        slots = self.queues[q - 1]["slots"]
        events: list[Event] = []
        if (pipi or popo) and applied_by_companion(p):
            raise IllegalCommand("refusal.effect-tokens-known", rule="effect-tokens", game=GAME,
                                 persona=persona_word(p))
        if pipi or popo:
            target = seat if to is None else to
            if self.reserves[target]["eliminated"]:
                raise IllegalCommand("refusal.effect-tokens-out", rule="effect-tokens", game=GAME,
                                     player=self.players[target])
            events.append(self._event("effect-applied", self._of(p, q, i)))
            self._resolved(entry, q, i, p, "applied", events)
            self._take_or_give(target, pipi, popo, events)
            return events
        if key in (ELDERLY_MAN, MOTHER_WITH_BABY):
            if i < 1 or slots[i - 1].get("player") != seat:
                raise IllegalCommand("refusal.not-behind", rule="not-behind", game=GAME,
                                     persona=persona_word(p), player=self.players[seat])
            slots[i - 1], slots[i] = slots[i], slots[i - 1]
            events.append(self._event("persona-moved", {
                **self._who(seat), "persona": persona_ref(p), "queue": q, "position": i + 1,
                "how": "in-front"}))
        elif key == DISTRACTED:
            self._resolved(entry, q, i, p, "applied", events)
            self._change_reserve(seat, 1, 0, events, "distracted", persona=persona_ref(p))
            self._settle(events)
            return events
        elif key == AVID_READER:
            if reader_has_target(slots, i):
                raise IllegalCommand("refusal.roll-first", rule="roll-first", game=GAME,
                                     persona=persona_word(p))
            events.append(self._event("effect-applied", {**self._of(p, q, i), "how": "nobody"}))
        elif key == INFAMOUS_PERSON:
            # The Persona drawn lies on him in the bathroom: it is turned up
            # at once (the next command is its reveal) and both leave at the
            # cleanup, so the queue moves up as usual.
            self._check_draw(1)
            top = self._draw(events)
            top["covers"] = slots[i]
            slots[i] = top
            events.append(self._event("persona-on-top", {"persona": persona_ref(p), "queue": q}))
        else:
            events.append(self._event("effect-applied", self._of(p, q, i)))
        self._resolved(entry, q, i, p, "applied", events)
        return events

    def do_defend(self, player: int | None) -> list[Event]:
        """A defensive card blocks the current effect; a one-shot Persona is
        turned over all the same."""
        entry, q, i, p = self._need_current()
        events = [self._event("effect-blocked", {**self._who(self._turn_seat()),
                                                 **self._of(p, q, i)})]
        self._resolved(entry, q, i, p, "blocked", events)
        return events

    def do_action(self, card: str, player: int | None) -> list[Event]:
        """An Action card named as free text, its effect applied by hand.

        Offered no more (every card is picked by name with ``play``; free
        text is a ``note``): kept so that the games already in a journal
        replay, as :meth:`.game.BathroomRush.parse` says."""
        name = self.players[self._turn_seat()]
        if card_key(card) in DEFENSIVE_CARDS:
            raise IllegalCommand("refusal.defensive-card", rule="defensive-card", game=GAME,
                                 card=card_word(card), player=name)
        who = self._who(self._turn_seat())
        if card_key(card) == CONCENTRATION:
            return ([self._event("action", {**who, "card": card, "how": "concentration"})]
                    + self.do_decompress(player, concentration=True))
        self.step = "action"
        self.action_card = card
        return [self._event("action", {**who, "card": card})]

    def do_decompress(self, player: int | None, concentration: bool = False) -> list[Event]:
        """The red die comes next (``concentration``: played with the card,
        or, in journals of earlier versions, ``decompress concentration=yes``)."""
        self.step = "decompress"
        self.concentration = bool(concentration)
        data = {**self._who(self._turn_seat()), "concentration": self.concentration}
        if self.concentration:
            data["how"] = "concentration"
        return [self._event("decompress", data)]

    def do_pass(self, player: int | None) -> list[Event]:
        return self._end_turn([], self._event("passed", self._who(self._turn_seat())))

    def do_end_turn(self, player: int | None) -> list[Event]:
        return self._end_turn([], self._event("turn-ended", self._who(self._turn_seat())))

    def do_roll(self, values: list[int], player: int | None) -> list[Event]:
        value = values[0]
        if self.phase == Phase.D:
            return self._reader_roll(value)
        if self.phase == Phase.E:
            if self.step != "decompress":
                # Light tracking: the red die rolled at the choice is the
                # decompression, one tap.
                return self.do_decompress(player) + self._decompression_roll(value)
            return self._decompression_roll(value)
        return self._tie_break_roll(value, player)

    # -- what a roll does ------------------------------------------------------

    def _decompression_roll(self, value: int) -> list[Event]:
        seat = self._turn_seat()
        q, position = (0, 0) if self.light else self._where(seat)
        behind = None
        if "keep-behind" not in self.setup.variants and not self.light:
            behind = self.persona(q, position + 1)
        if behind is not None:
            self._check_draw(1)
        events: list[Event] = []
        self._decompress(seat, value, self.concentration, events)
        if behind is not None and not self.reserves[seat]["eliminated"]:
            slots = self.queues[q - 1]["slots"]
            self._discard([slots[position]])
            slots[position] = self._draw(events)
            events.append(self._event("persona-replaced", {
                **self._who(seat), "persona": persona_ref(behind), "queue": q,
                "position": position + 1}))
        return self._end_turn(events, self._event("turn-ended", {**self._who(seat),
                                                                 "how": "roll"}))

    def _reader_roll(self, value: int) -> list[Event]:
        entry, q, i, reader = self._need_current()
        after = self.queues[q - 1]["slots"][i + 1]
        put_tokens(after, value, 0)
        events = [self._event("tokens-added", {
            "persona": persona_ref(reader), "after": persona_ref(after), "queue": q,
            "position": i + 2, "pipi": value, "popo": 0, "how": "reader"})]
        self._resolved(entry, q, i, reader, "applied", events)
        return events

    def _tie_break_roll(self, value: int, player: int | None) -> list[Event]:
        seat = self.tie_pending[0] if player is None else player
        events = [self._event("tie-break", {**self._who(seat), "roll": value, "how": "roll"})]
        self._decompress(seat, value, False, events)
        if seat in self.tie_pending:
            self.tie_pending.remove(seat)
        if not self.tie_pending:
            # Everyone still in the game is compared again, those who did
            # not roll included.
            self._decide(self.live_seats(), events)
        return events
