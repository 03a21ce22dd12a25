"""The Action cards by name: the player picks the card, the companion
applies what the rulebook's "Action Card Effects" say, and asks only for
what the card leaves open: which Persona or which player (a place in the
queues), which bathroom, which die result.  A defensive card is offered to
the one it can protect, when it can answer.

``play`` names the card.  With one choice left open the game waits for
``target`` (a place in the queues: a player, a Persona, a bathroom); with
one possible target it is taken at once.  When the card strikes another
player who may answer (Give Up Your Place: a Queue Defence; the Cleaner on
the bathroom of their queue: a Bathroom Defence), they ``defend`` or let it
happen (``effect``; for the Cleaner, the red die rolled is the answer: the
defence comes before the roll).  The card applied, the turn ends.

The cards whose effects the rulebook does not print (Swap, Sneeze,
Desperate Scream) are named all the same; the table applies them with the
queue operations, then ends the turn, as with ``action``.

Decisions where the rulebook is open
------------------------------------
- Give Up Your Place may strike any player with a Persona right behind
  them, the active player too; only another player can answer it, with a
  Queue Defence.
- Cunning acts on the active player's own queue: nobody else can answer.
- The Cleaner strikes the bathroom Persona of the queue chosen (a queue
  whose bathroom holds a Persona): the red die's result in pipì goes on
  it, and every permanent card behind every door is discarded.  Only the
  player of that queue may answer, with a Bathroom Defence, which cancels
  the whole card.
- The Empty Bottle: the rulebook says only that it acts on the player's own
  reserve; the companion asks for the red die and discards that many pipì
  (never below zero).
"""

from __future__ import annotations

from typing import Any

from ...engine import Event, Expectation
from ...errors import IllegalCommand
from ...text import Word, Words
from .cards import RED_DIE
from .operations import QueueOperations
from .queues import is_player, put_tokens
from .sentences import GAME, persona_ref, render
from .turn import TurnCommands

GIVE_UP = "give-up-your-place"
CUNNING = "cunning"
CHANGE_QUEUE = "change-queue"
CLEANER = "cleaner"
EMPTY_BOTTLE = "empty-bottle"
CONCENTRATION_CARD = "concentration"
SWAP = "swap"
SNEEZE = "sneeze"
DESPERATE_SCREAM = "desperate-scream"

# The Action cards the rulebook names, as the list offers them.
ACTION_CARDS = (GIVE_UP, CUNNING, CHANGE_QUEUE, CLEANER, EMPTY_BOTTLE, CONCENTRATION_CARD,
                SWAP, SNEEZE, DESPERATE_SCREAM)
# Their names as the rules (and :func:`.cards.card_key`) know them.
CARD_NAMES = {GIVE_UP: "Give Up Your Place", CUNNING: "Cunning", CHANGE_QUEUE: "Change Queue",
              CLEANER: "Cleaner", EMPTY_BOTTLE: "Empty Bottle",
              CONCENTRATION_CARD: "Concentration", SWAP: "Swap", SNEEZE: "Sneeze",
              DESPERATE_SCREAM: "Desperate Scream"}
# Cards the table applies with the queue operations (their effect is not
# printed in the rulebook).
BY_HAND = frozenset({SWAP, SNEEZE, DESPERATE_SCREAM})
# Cards that choose a place in the queues.
TARGETED = frozenset({GIVE_UP, CUNNING, CLEANER})
# The cards light tracking applies: they act on the reserve, the rest on the
# queues that stay on the table.
LIGHT_CARDS = (CONCENTRATION_CARD, EMPTY_BOTTLE)
# The defensive card each attack may be answered with.
DEFENCE = {GIVE_UP: "queue-defence", CLEANER: "bathroom-defence"}


class ActionCards(TurnCommands, QueueOperations):
    """``do_play`` and ``do_target``; ``effect``, ``defend`` and ``roll``
    answer a card in phase E."""

    # The card being applied: ``{"card": id, "targets": [[queue, position]...],
    # "target": [queue, position] | None, "seat": the player who may answer}``;
    # None otherwise.  Serialised only while there is one (see the game's
    # ``to_json``), so that journals of games without one read as before.
    attack: dict[str, Any] | None = None

    # -- the card named ----------------------------------------------------

    def do_play(self, card: str, player: int | None) -> list[Event]:
        seat = self._turn_seat()
        who = self._who(seat)
        name = CARD_NAMES[card]
        if self.light and card not in LIGHT_CARDS:
            raise IllegalCommand("refusal.light-card", rule="light-tracking", game=GAME,
                                 card=Word(f"card.{card}"), name=who["name"],
                                 cards=Words((Word(f"card.{c}") for c in LIGHT_CARDS),
                                             last=Word("refusal.and")))
        if card == CONCENTRATION_CARD:
            return ([self._event("action", {**who, "card": name, "card_id": card,
                                            "how": "concentration"})]
                    + self.do_decompress(player, concentration=True))
        if card in BY_HAND:
            self.step = "action"
            self.action_card = name
            return [self._event("action", {**who, "card": name, "card_id": card})]
        # Checked before anything changes: a card without a target is refused.
        self.action_card = name
        try:
            targets = self._targets(card, seat)
        finally:
            self.action_card = None
        if card in TARGETED and not targets:
            raise self._no_target(card, seat)
        if card == CHANGE_QUEUE:
            self._check_change_queue()
        self.action_card = name
        events = [self._event("card-played", {**who, "card_id": card})]
        self.attack = {"card": card, "targets": [list(t) for t in targets], "target": None,
                       "seat": None}
        if card == EMPTY_BOTTLE:
            self.step = "card-roll"
            return events
        if card == CHANGE_QUEUE:
            events += self.do_change_queue(None, None)
            return self._card_done(events)
        if len(targets) == 1:
            return self._aim(targets[0], events)
        self.step = "target"
        return events

    def do_target(self, queue: int, position: int, player: int | None) -> list[Event]:
        attack = self._need_attack()
        if [queue, position] not in attack["targets"]:
            places = Words((Word("refusal.queue-position", queue=q, position=p)
                            for q, p in attack["targets"]), sep="; ")
            raise IllegalCommand("refusal.cannot-strike", rule="no-target", game=GAME,
                                 card=Word(f"card.{attack['card']}"), queue=queue,
                                 position=position, places=places)
        # Where the card strikes, said even when nothing happens yet (a
        # player may answer it, the Cleaner's die is rolled first).
        aimed = self._event("card-aimed", {**self._who(self._turn_seat()),
                                           "card_id": attack["card"], "queue": queue,
                                           "position": position})
        return self._aim((queue, position), [aimed])

    # -- answering a card ---------------------------------------------------

    def do_effect(self, player: int | None, pipi: int = 0, popo: int = 0,
                  to: int | None = None) -> list[Event]:
        if self.phase != "E":
            return super().do_effect(player, pipi, popo, to)
        if pipi or popo:
            raise IllegalCommand("refusal.effect-tokens-card", rule="effect-tokens", game=GAME)
        attack = self._need_attack()
        return self._apply(attack, [])

    def do_defend(self, player: int | None) -> list[Event]:
        if self.phase != "E":
            return super().do_defend(player)
        attack = self._need_attack()
        seat = attack["seat"]
        q, _ = attack["target"]
        events = [self._event("card-blocked", {
            **self._who(seat), "by": self._who(self._turn_seat())["name"],
            "card_id": attack["card"], "defence": DEFENCE[attack["card"]],
            "queue": q, "how": DEFENCE[attack["card"]]})]
        return self._card_done(events)

    def do_roll(self, values: list[int], player: int | None) -> list[Event]:
        if self.phase == "E" and self.step in ("answer", "card-roll"):
            attack = self._need_attack()
            return self._apply(attack, [], values[0])
        return super().do_roll(values, player)

    # -- what the table can tap ----------------------------------------------

    def playable(self, seat: int) -> list[str]:
        """The Action cards ``seat`` may play now, in the list's order: a
        card that strikes a place only when it has one to strike, Change
        Queue only with a free queue and a Persona to draw."""
        out = []
        before = self.action_card
        for card in LIGHT_CARDS if self.light else ACTION_CARDS:
            if card in TARGETED:
                self.action_card = CARD_NAMES[card]
                try:
                    if not self._targets(card, seat):
                        continue
                finally:
                    self.action_card = before
            elif card == CHANGE_QUEUE:
                try:
                    self._check_change_queue()
                except IllegalCommand:
                    continue
            out.append(card)
        return out

    def _targets(self, card: str, seat: int) -> list[tuple[int, int]]:
        """The places the card may strike: (queue, position) from 1."""
        found: list[tuple[int, int]] = []
        if card == GIVE_UP:
            for q, queue in enumerate(self.queues, 1):
                slots = queue["slots"]
                for i, slot in enumerate(slots):
                    if (is_player(slot) and i + 1 < len(slots) and not is_player(slots[i + 1])
                            and not self.protected(slot["player"])):
                        found.append((q, i + 1))
        elif card == CUNNING:
            q, position = self._where(seat)
            last = position + 1 == len(self.queues[q - 1]["slots"])
            can_draw = self.persona_deck + self.persona_discard > 0
            for other in (position - 1, position + 1):
                # The last Persona behind is replaced from the deck.
                if self.persona(q, other) is not None and (other < position or not last
                                                           or can_draw):
                    found.append((q, other))
        elif card == CLEANER:
            for q, queue in enumerate(self.queues, 1):
                holder = self.player_in(q) if queue["door"] else None
                if (self.persona(q, 1) is not None
                        and not (holder is not None and self.protected(holder))):
                    found.append((q, 1))
        return found

    def _no_target(self, card: str, seat: int) -> IllegalCommand:
        if card == GIVE_UP:
            key = "refusal.no-target.give-up"
        elif card == CUNNING:
            key = "refusal.no-target.cunning"
        else:
            key = "refusal.no-target.cleaner"
        return IllegalCommand(key, rule="no-target", game=GAME, player=self.players[seat])

    def _check_change_queue(self) -> None:
        if self.free_queue() is None:
            raise IllegalCommand("refusal.no-free-queue", rule="no-target", game=GAME)
        self._check_draw(1)

    def _need_attack(self) -> dict[str, Any]:
        if self.attack is None:
            raise IllegalCommand("refusal.no-card-played", rule="no-card", game=GAME)
        return self.attack

    # -- applying the card ----------------------------------------------------

    def _aim(self, target: tuple[int, int], events: list[Event]) -> list[Event]:
        """The place chosen: a player who may answer is asked; otherwise the
        card applies (after its die, for the Cleaner)."""
        attack = self._need_attack()
        q, position = target
        attack["target"] = [q, position]
        active = self._turn_seat()
        card = attack["card"]
        if card == GIVE_UP:
            seat: int = self.queues[q - 1]["slots"][position - 1]["player"]
            if seat != active:
                attack["seat"] = seat
                self.step = "answer"
                return events
            return self._apply(attack, events)
        if card == CLEANER:
            holder = self.player_in(q)
            if holder is not None and holder != active:
                attack["seat"] = holder
                self.step = "answer"
            else:
                self.step = "card-roll"
            return events
        return self._apply(attack, events)

    def _apply(self, attack: dict[str, Any], events: list[Event],
               value: int | None = None) -> list[Event]:
        card = attack["card"]
        active = self._turn_seat()
        if card == GIVE_UP:
            q, position = attack["target"]
            seat = self.queues[q - 1]["slots"][position - 1]["player"]
            events += self.do_swap_behind(seat)
        elif card == CUNNING:
            q, position = attack["target"]
            mine = self._where(active)[1]
            events += (self.do_remove_front(None) if position < mine
                       else self.do_remove_behind(None))
        elif card == CLEANER:
            assert value is not None
            q, _ = attack["target"]
            bathroom = self.queues[q - 1]["slots"][0]
            put_tokens(bathroom, value, 0)
            removed = [c["card"] for queue in self.queues for c in queue["permanents"]]
            for queue in self.queues:
                queue["permanents"] = []
            events.append(self._event("cleaned", {
                **self._who(active), "persona": persona_ref(bathroom), "queue": q,
                "roll": value, "pipi": value, "on_card": list(bathroom["tokens"]),
                "card_id": card,
                "names": removed, "how": "cards" if removed else ""}))
        elif card == EMPTY_BOTTLE:
            assert value is not None
            had = self.reserves[active]["pipi"]
            self._change_reserve(active, -value, 0, events, "bottle", roll=value,
                                 gone=min(value, had))
            self._settle(events)
        if self.phase == "E" and self.active() == active:
            return self._card_done(events)
        self.attack = None
        return events

    def _card_done(self, events: list[Event]) -> list[Event]:
        self.attack = None
        return self._end_turn(events, self._event("turn-ended", self._who(self._turn_seat())))

    # -- what the game waits for ---------------------------------------------

    def _play_wait(self, seat: int, lang: str, key: str = "prompt.play") -> Expectation:
        return Expectation("play", render(key, lang, self._who(seat)), player=seat)

    def _card_waits(self, seat: int, lang: str) -> list[Expectation]:
        """Phase E while a card named is being applied."""
        attack = self.attack
        if attack is None:
            return []
        card = attack["card"]
        who = {**self._who(seat), "card_id": card}
        if self.step == "target":
            return [Expectation("target", render(f"prompt.target.{card}", lang,
                                                 {**who, **self._target_data(q, p)}),
                                player=seat, args={"queue": q, "position": p,
                                                   "aimed": self.held_at(q, p)})
                    for q, p in attack["targets"]]
        q, position = attack["target"] or (0, 0)
        if self.step == "card-roll":
            data = {**who, "queue": q}
            if card == CLEANER:
                data["persona"] = persona_ref(self.queues[q - 1]["slots"][0])
            return [Expectation("roll", render(f"prompt.roll.{card}", lang, data), player=seat,
                                dice=RED_DIE)]
        if self.step == "answer":
            target = attack["seat"]
            data = {**who, "target": self.players[target], "queue": q}
            if card == GIVE_UP:
                behind = self.queues[q - 1]["slots"][position]
                data["persona"] = persona_ref(behind)
                return [Expectation("effect", render("prompt.effect.give-up-your-place", lang,
                                                     data), player=target),
                        Expectation("defend", render("prompt.defend.give-up-your-place", lang,
                                                     data), player=target)]
            data["persona"] = persona_ref(self.queues[q - 1]["slots"][0])
            return [Expectation("roll", render("prompt.roll.cleaner", lang, data), player=seat,
                                dice=RED_DIE),
                    Expectation("defend", render("prompt.defend.cleaner", lang, data),
                                player=target)]
        return []

    def _attack_view(self) -> dict[str, Any] | None:
        """The card being applied, for the picture of the queues: the places
        it may strike, the one chosen, who may answer."""
        if self.attack is None:
            return None
        return {"card": self.attack["card"], "step": self.step,
                "targets": [{"queue": q, "position": p} for q, p in self.attack["targets"]],
                "target": self.attack["target"], "answers": self.attack["seat"]}

    def _target_data(self, q: int, position: int) -> dict[str, Any]:
        slot = self.queues[q - 1]["slots"][position - 1]
        if is_player(slot):
            return {"target": self.players[slot["player"]], "queue": q}
        return {"persona": persona_ref(slot), "queue": q, "position": position}
