"""Bathroom Rush: the queues at the bathroom doors, as they lie on the table.

The companion keeps the public table: who stands where in which queue, the
Personas (face down, or with the values printed on them), the tokens lying on
the cards, the permanent Action cards behind the doors, each player's reserve,
whose turn it is and in which phase.  It never knows a hand.  Where the
rulebook is open it follows the rules notes, and the decisions listed at the
end of this docstring.

Data model (every field plain JSON; ``state_fields`` serialises them all)
-------------------------------------------------------------------------
``queues``
    One per bathroom door.  Commands and views number them from 1, left to
    right: ``{"door": bool, "slots": [slot...], "permanents": [card...]}``.
    The queue of an eliminated player keeps its number but loses its door,
    its Personas and its permanent cards.
``slots``
    The line, bathroom first (position 1 is "in the bathroom").  A slot is
    a player ``{"player": seat}`` or a Persona ``{"id", "revealed", "pipi",
    "popo", "colour", "name", "flipped", "tokens", "placed"}``: printed
    values, colour (neutral, orange, red, yellow) and name stay ``None``
    until it is revealed; ``flipped`` means turned over once its effect is
    spent (its values stay known); ``tokens`` ``[pipi, popo]`` are the tokens
    lying on the card (an Avid Reader's, a Cleaner's, and the printed ones
    once it is in the bathroom); ``placed`` says its printed tokens were put
    on it in phase B.  ``id`` follows a Persona as it moves during a turn.
``permanents``
    Permanent Action cards behind the door: ``{"card", "pipi", "popo"}``,
    the name and the token modifier the final count applies.
``reserves``
    Per seat ``{"pipi", "popo", "eliminated"}``; pipì is always below 5.
``first_player``, ``round``, ``round_order``, ``turn``
    The first-player token, the round (0 while queues are chosen), the seats
    playing this round clockwise from the first player, and the index in it
    of the active player.
``phase``, ``step``
    "setup" (players choose queues), "A" (reveal), "D" (Persona effects),
    "E" (action), "count" (final count), "tie-break" or "over".  B (tokens
    onto the bathroom Personas) and C (draw to four) are done by the
    companion and never wait.  In E, ``step`` is "choose", "action" (a card
    was played: its queue operations, then end-turn) or "decompress"
    (waiting for the red die).
``chooser``
    During setup, the seat choosing a queue.
``action_card``, ``concentration``
    The Action card played this turn; whether the decompression waiting for
    its die is made with Concentration.
``effects``
    Phase D's list, fixed as the phase begins: ``{"persona": id}`` or
    ``{"permanent": name, "queue": n}``.
``final_round``, ``arrived``
    A player reached the bathroom through a card, so this round is the last;
    the seats who did (only Give Up Your Place, Swap and Sneeze may be played
    against them).
``tie_group``, ``tie_pending``
    The tied seats and those still to roll in this pass of the tie-break.
``scores``, ``winners``, ``outcome``
    The result once over.
``persona_deck``, ``persona_discard``, ``next_id``
    Persona cards in the deck and on the discard pile; the next id.

Decisions where the rulebook is open
------------------------------------
- Phase B puts the printed tokens on every revealed bathroom Persona that
  has none yet: all of them at the start of a round, and a Persona that
  entered a bathroom during the round at the next turn.
- Phase D lists, in queue order (the bathroom, then in front, then behind):
  the bathroom Persona of any colour but neutral (the Avid Reader acts from
  there), the Personas next to the player, and any other yellow Persona;
  the permanent cards behind the player's door come first, and in the first
  turn of a round the free queue's Personas come before everything.  At
  effects-done every listed orange Persona, and an Avid Reader, is turned
  over: applied or blocked, its effect is spent.
- ``pass`` and the decompression roll end the turn; an Action card is
  followed by its queue operations and ``end-turn``.
- Decompressing with Concentration and rolling 4 discards every pipì of the
  reserve (at most 4: five would already be a popò).  With no Persona
  behind, nobody is replaced.
- At the final count the tokens are taken into the reserve, so five pipì
  become a popò and a player reaching the popò limit is eliminated.  The
  modifiers of the permanent cards behind a queuing player's door are added
  once to what they take (never below zero).
- The tie-break is among the tied players only; the last player standing
  wins at once; when the Persona deck runs out, the discard pile is
  shuffled into a new deck.
"""

from __future__ import annotations

from ...engine import CommandSpec, Dice, Event, Expectation, Game, Param, Result, Setup
from ...errors import BadArgument, BadSetup, IllegalCommand
from .cards import (
    ALLOWED_AGAINST_ARRIVED,
    AVID_READER,
    CONCENTRATION,
    ONE_SHOT_PERSONAS,
    card_key,
    persona_hint,
)
from .queues import (
    cap,
    doors,
    find_persona,
    find_player,
    join,
    label,
    modifier_text,
    new_persona,
    pending_reveals,
    persona_effects,
    personas_text,
    slot_view,
    tokens_ahead,
    tokens_text,
    where,
)

RED_DIE = Dice(4, 1, "red")
BLUE_DIE = Dice(2, 1, "blue")
QUEUE_LENGTH = 6
PERSONA_CARDS = 50
PIPI_PER_POPO = 5
POPO_LIMIT = 4
POPO_LIMIT_TWO_PLAYERS = 3
COLOURS = ("neutral", "orange", "red", "yellow")
MAX_QUEUES = 5
MAX_POSITION = 20
MAX_PRINTED = 9
MAX_ON_CARD = 40

PHASE_NAMES = {
    "setup": "Choose queues",
    "A": "Reveal Personas",
    "D": "Persona effects",
    "E": "Action, decompress or pass",
    "count": "Final count",
    "tie-break": "Tie-break",
    "over": "Game over",
}

# Queue operations the Action and Persona cards cause, offered in phases D and E.
OPERATIONS = (
    ("swap-behind", "swap-behind [player]: swaps with the Persona behind (Give Up Your Place)"),
    ("pass-in-front", "pass-in-front [player]: the Persona behind passes in front"),
    ("remove-front", "remove-front [player]: the Persona in front leaves; the player moves up"),
    ("remove-behind", "remove-behind [player]: the Persona behind leaves"),
    ("change-queue", "change-queue: the player moves to the end of the free queue"),
    ("add-tokens", "add-tokens queue pipi popo: tokens onto a bathroom Persona"),
    ("place-permanent", "place-permanent queue pipi popo card: a permanent card behind a door"),
    ("remove-permanent", "remove-permanent queue card: a permanent card is discarded"),
    ("flip", "flip queue position: a Persona whose effect is spent is turned over"),
    ("take-tokens", "take-tokens player pipi popo: tokens into (or out of) a reserve"),
)
QUEUE = Param("queue", "int", low=1, high=MAX_QUEUES, help="queue number, 1 = leftmost door")
POSITION = Param("position", "int", low=1, high=MAX_POSITION,
                 help="place in the queue, 1 = in the bathroom")
PRINTED_PIPI = Param("pipi", "int", low=0, high=MAX_PRINTED, help="pipì printed on the card")
PRINTED_POPO = Param("popo", "int", low=0, high=MAX_PRINTED, help="popò printed on the card")
COLOUR = Param("colour", "choice", choices=COLOURS, help="the colour of the card")
PERSONA_NAME = Param("name", "text", optional=True, help="the name printed on the card")
RESERVE_PIPI = Param("pipi", "int", low=0, high=PIPI_PER_POPO - 1, help="pipì in the reserve")
RESERVE_POPO = Param("popo", "int", low=0, high=POPO_LIMIT - 1, help="popò in the reserve")


def _moved(help_text: str = "who (the active player if left out)") -> Param:
    return Param("player", "player", optional=True, help=help_text)


def _count(name: str, low: int, help_text: str) -> Param:
    return Param(name, "int", low=low, high=MAX_PRINTED, help=help_text)


class BathroomRush(Game):
    key = "bathroom-rush"
    title = "Bathroom Rush"
    min_players = 2
    max_players = 4
    variants = {
        "first-game": "Tips for first games: orange and red Personas have no special effect.",
        "keep-behind": "Decompressing does not replace the Persona behind the player.",
    }
    commands = (
        CommandSpec("choose-queue", (QUEUE, _moved("who chooses (the one whose turn it is)")),
                    help="at setup, a player stands at the end of a queue nobody holds"),
        CommandSpec("reveal", (QUEUE, POSITION, PRINTED_PIPI, PRINTED_POPO, COLOUR, PERSONA_NAME),
                    help="a face-down Persona is turned up: enter what is printed on it"),
        CommandSpec("effects-done", help="the Persona effects of this turn are resolved"),
        CommandSpec("action", (Param("card", "text", help="the Action card's name"),),
                    help="the active player plays an Action card"),
        CommandSpec("decompress", (Param("concentration", "bool", optional=True, default=False,
                                         help="played with Concentration"),),
                    help="the active player decompresses: roll the red die next"),
        CommandSpec("pass", help="the active player passes; the turn is over"),
        CommandSpec("end-turn", help="the Action card is resolved; discard down to 3"),
        CommandSpec("roll", (Param("values", "dice", help="the die rolled"),
                             _moved("who rolled")),
                    help="a die result: the red die (decompression, tie-break) "
                         "or the blue die (Avid Reader)"),
        CommandSpec("swap-behind", (_moved(),),
                    help="a player swaps places with the Persona behind them"),
        CommandSpec("pass-in-front", (_moved(),),
                    help="the Persona behind a player passes in front of them"),
        CommandSpec("remove-front", (_moved(),),
                    help="the Persona in front of a player leaves; the player moves up"),
        CommandSpec("remove-behind", (_moved(),),
                    help="the Persona behind a player leaves; the queue behind moves up, "
                         "or a new Persona is drawn if it was the last"),
        CommandSpec("change-queue", (Param("queue", "int", low=1, high=MAX_QUEUES,
                                           optional=True, help="the free queue"), _moved()),
                    help="a player moves to the end of the free queue; the Persona behind "
                         "them takes their old place and a new one is drawn behind them"),
        CommandSpec("add-tokens", (QUEUE, _count("pipi", 0, "pipì to add"),
                                   _count("popo", 0, "popò to add"),
                                   Param("position", "int", low=1, high=MAX_POSITION,
                                         optional=True, default=1,
                                         help="1 = the bathroom Persona")),
                    help="tokens onto a Persona card (the bathroom one unless a position "
                         "is given)"),
        CommandSpec("place-permanent", (QUEUE,
                                        _count("pipi", -MAX_PRINTED, "pipì it adds to the "
                                                                     "final count (- takes)"),
                                        _count("popo", -MAX_PRINTED, "popò it adds to the "
                                                                     "final count (- takes)"),
                                        Param("card", "text", help="the card's name")),
                    help="a permanent Action card goes behind a bathroom door"),
        CommandSpec("remove-permanent", (QUEUE, Param("card", "text", optional=True,
                                                      help="which card, if there are several")),
                    help="a permanent card behind a door is discarded"),
        CommandSpec("flip", (QUEUE, POSITION),
                    help="a Persona whose effect is spent is turned over"),
        CommandSpec("take-tokens", (Param("player", "player", help="whose reserve"),
                                    _count("pipi", -MAX_PRINTED, "pipì taken (- discards)"),
                                    _count("popo", -MAX_PRINTED, "popò taken (- discards)")),
                    help="tokens go into a reserve (Distracted) or out of it (Empty Bottle)"),
        CommandSpec("set-reserve", (Param("player", "player", help="whose reserve"),
                                    RESERVE_PIPI, RESERVE_POPO),
                    help="set a reserve as the table has it", correction=True),
        CommandSpec("set-tokens", (QUEUE, POSITION,
                                   Param("pipi", "int", low=0, high=MAX_ON_CARD),
                                   Param("popo", "int", low=0, high=MAX_ON_CARD)),
                    help="set the tokens lying on a Persona card", correction=True),
        CommandSpec("set-persona", (QUEUE, POSITION, PRINTED_PIPI, PRINTED_POPO, COLOUR,
                                    PERSONA_NAME),
                    help="correct what was entered for a revealed Persona", correction=True),
        CommandSpec("unflip", (QUEUE, POSITION),
                    help="turn a Persona back: its effect is not spent", correction=True),
        CommandSpec("note", (Param("text", "text", help="what happened"),),
                    help="write a line in the history", correction=True),
    )
    state_fields = (
        "queues", "reserves", "first_player", "round", "round_order", "turn", "phase", "step",
        "chooser", "action_card", "concentration", "effects", "final_round", "arrived",
        "tie_group", "tie_pending", "scores", "winners", "outcome",
        "persona_deck", "persona_discard", "next_id",
    )

    # -- the starting table -------------------------------------------------

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        setup = super().check_setup(setup)
        if setup.options:
            raise BadSetup(f"{cls.title} takes no options, not "
                           f"{', '.join(sorted(setup.options))}")
        return setup

    def start(self) -> None:
        self.persona_deck = PERSONA_CARDS
        self.persona_discard = 0
        self.next_id = 0
        self.queues = [
            {"door": True, "slots": [self._draw([]) for _ in range(QUEUE_LENGTH)],
             "permanents": []}
            for _ in range(len(self.players) + 1)
        ]
        self.reserves = [{"pipi": 0, "popo": 0, "eliminated": False} for _ in self.players]
        self.first_player = 0
        self.round = 0
        self.round_order = []
        self.turn = 0
        self.phase = "setup"
        self.step = ""
        self.chooser = 0
        self.action_card = None
        self.concentration = False
        self.effects = []
        self.final_round = False
        self.arrived = []
        self.tie_group = []
        self.tie_pending = []
        self.scores = None
        self.winners = []
        self.outcome = ""

    # -- what the table can ask --------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def popo_limit(self) -> int:
        return POPO_LIMIT_TWO_PLAYERS if len(self.players) == 2 else POPO_LIMIT

    def live_seats(self) -> list[int]:
        return [s for s, r in enumerate(self.reserves) if not r["eliminated"]]

    def active(self) -> int | None:
        """The seat whose turn it is (the one choosing, during setup)."""
        if self.phase == "setup":
            return self.chooser
        if self.phase in ("A", "D", "E"):
            return self.round_order[self.turn]
        return None

    def locate(self, seat: int) -> tuple[int, int] | None:
        """(queue, position) of a player, position 1 being the bathroom."""
        found = find_player(self.queues, seat)
        return (found[0], found[1] + 1) if found else None

    def persona(self, queue: int, position: int) -> dict | None:
        """The Persona at a place, or None (a player, an empty place, no door)."""
        if not 1 <= queue <= len(self.queues):
            return None
        slots = self.queues[queue - 1]["slots"]
        if 1 <= position <= len(slots) and "player" not in slots[position - 1]:
            return slots[position - 1]
        return None

    def player_in(self, queue: int) -> int | None:
        for slot in self.queues[queue - 1]["slots"]:
            if "player" in slot:
                return slot["player"]
        return None

    def free_queue(self) -> int | None:
        """The queue with a door and no player."""
        for q, _ in doors(self.queues):
            if self.player_in(q) is None:
                return q
        return None

    def protected(self, seat: int) -> bool:
        """Whether queue operations against ``seat`` are refused now: they
        reached the bathroom through a card and the card being played is
        not Give Up Your Place, Swap or Sneeze."""
        return (self.final_round and seat in self.arrived and seat != self.active()
                and card_key(self.action_card) not in ALLOWED_AGAINST_ARRIVED)

    def score(self, seat: int) -> int:
        r = self.reserves[seat]
        return r["pipi"] + PIPI_PER_POPO * r["popo"]

    def param_range(self, param: Param) -> tuple[int | None, int | None]:
        if param.name == "queue":
            return 1, len(self.queues)
        if param is RESERVE_POPO:
            return 0, self.popo_limit - 1
        return param.low, param.high

    def expected(self) -> list[Expectation]:
        if self.phase == "setup":
            seat = self.chooser
            free = ", ".join(str(q) for q, _ in doors(self.queues) if self.player_in(q) is None)
            return [Expectation("choose-queue",
                                f"{self.players[seat]}: choose a queue ({free}) and stand "
                                f"at its end", player=seat)]
        if self.phase in ("A", "count"):
            return [self._reveal_wait(q, i) for q, i in self._pending_reveals()]
        seat = self.active()
        if self.phase == "D":
            waits = []
            reader = self._reader_pending()
            if reader:
                q, p = reader
                waits.append(Expectation(
                    "roll", f"{cap(label(p))} in the bathroom of queue {q}: roll the "
                            f"blue die for the pipì he leaves on the next Persona "
                            f"(effects-done if he is blocked)",
                    player=seat, dice=BLUE_DIE))
            waits.append(Expectation("effects-done",
                                     f"{self.players[seat]}: {self._effects_prompt()}",
                                     player=seat))
            return waits + self._operation_waits()
        if self.phase == "E":
            name = self.players[seat]
            if self.step == "decompress":
                return [Expectation("roll", f"{name} decompresses: roll the red die",
                                    player=seat, dice=RED_DIE)]
            if self.step == "action":
                return [Expectation("end-turn", f"{name}: apply {self.action_card} with the "
                                                f"queue commands, then end-turn", player=seat)
                        ] + self._operation_waits()
            return [
                Expectation("action", f"{name}: play an Action card", player=seat),
                Expectation("decompress", f"{name}: decompress (red die)", player=seat),
                Expectation("pass", f"{name}: pass", player=seat),
            ]
        if self.phase == "tie-break":
            return [Expectation("roll", f"Tie-break: {self.players[s]} makes a Decompression "
                                        f"roll (red die)", player=s, dice=RED_DIE)
                    for s in self.tie_pending]
        return []

    def result(self) -> Result | None:
        if not self.over:
            return None
        return Result(tuple(self.winners), tuple(self.scores), self.outcome)

    def view(self) -> dict:
        fq = self.free_queue()
        queues = []
        permanents = []
        for q, queue in enumerate(self.queues, 1):
            queues.append({
                "index": q,
                "door": queue["door"],
                "player": self.player_in(q) if queue["door"] else None,
                "free": q == fq,
                "slots": [slot_view(self.players, i, slot)
                          for i, slot in enumerate(queue["slots"])],
                "permanents": [dict(c) for c in queue["permanents"]],
            })
            permanents += [{"queue": q, **c} for c in queue["permanents"]]
        reserves = []
        for seat, r in enumerate(self.reserves):
            place = self.locate(seat)
            reserves.append({
                "seat": seat, "name": self.players[seat],
                "pipi": r["pipi"], "popo": r["popo"], "eliminated": r["eliminated"],
                "popo_limit": self.popo_limit, "score": self.score(seat),
                "queue": place[0] if place else None,
                "position": place[1] if place else None,
                "in_bathroom": bool(place and place[1] == 1),
            })
        return {
            "phase": self.phase,
            "phase_name": PHASE_NAMES[self.phase],
            "step": self.step,
            "round": self.round,
            "active": self.active(),
            "first_player": self.first_player,
            "free_queue": fq,
            "queues": queues,
            "permanents": permanents,
            "reserves": reserves,
            "effects": self._effect_lines() if self.phase == "D" else [],
            "action_card": self.action_card,
            "final_round": self.final_round,
            "arrived": list(self.arrived),
            "tie_break": ({"tied": list(self.tie_group), "to_roll": list(self.tie_pending)}
                          if self.phase == "tie-break" else None),
            "persona_deck": self.persona_deck,
            "persona_discard": self.persona_discard,
            "scores": list(self.scores) if self.over else None,
            "winners": list(self.winners) if self.over else [],
            "message": self.outcome,
        }

    # -- setup and the turn --------------------------------------------------

    def do_choose_queue(self, queue: int, player: int | None) -> list[Event]:
        seat = self.chooser if player is None else player
        holder = self.player_in(queue)
        if holder is not None:
            free = ", ".join(str(q) for q, _ in doors(self.queues) if self.player_in(q) is None)
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
        for entry in self.effects:
            found = find_persona(self.queues, entry.get("persona"))
            if found is None:
                continue
            q, i, p = found
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
        events = [Event("passed", f"{self.players[self.active()]} passes and discards down "
                                  f"to 3 Action cards", {"player": self.active()})]
        self._next_turn(events)
        return events

    def do_end_turn(self) -> list[Event]:
        events = [Event("turn-ended", f"{self.players[self.active()]} discards down to 3 "
                                      f"Action cards; the turn is over",
                        {"player": self.active()})]
        self._next_turn(events)
        return events

    def do_roll(self, values: list[int], player: int | None) -> list[Event]:
        value = values[0]
        if self.phase == "D":
            return self._reader_roll(value)
        if self.phase == "E":
            return self._decompression_roll(value)
        return self._tie_break_roll(value, player)

    # -- queue operations ------------------------------------------------

    def do_swap_behind(self, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        behind = self._need_neighbour(seat, q, i + 1, "to swap with")
        slots = self.queues[q - 1]["slots"]
        slots[i], slots[i + 1] = slots[i + 1], slots[i]
        return [Event("persona-moved", f"{self.players[seat]} gives up their place: "
                                       f"{label(behind)} moves ahead in queue {q}",
                      {"player": seat, "queue": q, "position": i + 2})]

    def do_pass_in_front(self, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        behind = self._need_neighbour(seat, q, i + 1, "to pass")
        slots = self.queues[q - 1]["slots"]
        slots[i], slots[i + 1] = slots[i + 1], slots[i]
        return [Event("persona-moved", f"{cap(label(behind))} passes in front of "
                                       f"{self.players[seat]} in queue {q}",
                      {"player": seat, "queue": q, "position": i + 2})]

    def do_remove_front(self, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        front = self._need_neighbour(seat, q, i - 1, "to remove")
        self.queues[q - 1]["slots"].pop(i - 1)
        self.persona_discard += 1
        into = "into the bathroom" if i == 1 else f"to position {i}"
        events = [Event("persona-removed", f"{cap(label(front))} in front of "
                                           f"{self.players[seat]} leaves queue {q}; "
                                           f"{self.players[seat]} moves up {into}",
                        {"player": seat, "queue": q})]
        self._check_arrivals(events)
        return events

    def do_remove_behind(self, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        behind = self._need_neighbour(seat, q, i + 1, "to remove")
        slots = self.queues[q - 1]["slots"]
        was_last = i + 2 == len(slots)
        if was_last:
            self._check_draw(1)
        slots.pop(i + 1)
        self.persona_discard += 1
        events: list[Event] = []
        if was_last:
            slots.append(self._draw(events))
            then = "a new face-down Persona takes its place"
        else:
            then = "the queue behind moves up"
        events.insert(0, Event("persona-removed", f"{cap(label(behind))} behind "
                                                  f"{self.players[seat]} leaves queue {q}; {then}",
                               {"player": seat, "queue": q}))
        return events

    def do_change_queue(self, queue: int | None, player: int | None) -> list[Event]:
        seat, q, i = self._mover(player)
        free = self.free_queue()
        if free is None:
            raise IllegalCommand("there is no free queue to change to", rule="no-free-queue")
        if queue is not None and queue != free:
            holder = self.player_in(queue) if self.queues[queue - 1]["door"] else None
            what = (f"holds {self.players[holder]}: two players never share a queue"
                    if holder is not None else "has no door any more")
            raise IllegalCommand(f"queue {queue} {what}; {self.players[seat]} can only change "
                                 f"to the free queue, {free}", rule="queue-taken")
        self._check_draw(1)
        # The Persona behind steps into the old place simply by closing the gap.
        self.queues[q - 1]["slots"].pop(i)
        events = [Event("queue-changed", f"{self.players[seat]} leaves queue {q} for the end "
                                         f"of queue {free}, with a new face-down Persona "
                                         f"behind; queue {q} is now the free queue",
                        {"player": seat, "from": q, "to": free})]
        target = self.queues[free - 1]["slots"]
        target.append({"player": seat})
        target.append(self._draw(events))
        self._check_arrivals(events)
        return events

    def do_add_tokens(self, queue: int, pipi: int, popo: int, position: int) -> list[Event]:
        if not pipi and not popo:
            raise BadArgument("add-tokens needs at least one pipì or popò to add")
        self._guard_queue(queue)
        p = self._need_persona(queue, position)
        p["tokens"][0] += pipi
        p["tokens"][1] += popo
        return [Event("tokens-added", f"{tokens_text(pipi, popo)} added on {label(p)} "
                                      f"{self._place(queue, position - 1)}: "
                                      f"{tokens_text(*p['tokens'])} on the card",
                      {"queue": queue, "position": position, "pipi": pipi, "popo": popo})]

    def do_place_permanent(self, queue: int, pipi: int, popo: int, card: str) -> list[Event]:
        self._guard_queue(queue)
        self.queues[queue - 1]["permanents"].append({"card": card, "pipi": pipi, "popo": popo})
        return [Event("permanent-placed", f"{card} goes behind the door of queue {queue} "
                                          f"({modifier_text(pipi, popo)} at the final count)",
                      {"queue": queue, "card": card, "pipi": pipi, "popo": popo})]

    def do_remove_permanent(self, queue: int, card: str | None) -> list[Event]:
        self._need_door(queue)
        cards = self.queues[queue - 1]["permanents"]
        names = ", ".join(c["card"] for c in cards)
        if not cards:
            raise IllegalCommand(f"there is no permanent card behind the door of queue {queue}",
                                 rule="no-permanent")
        if card is None:
            if len(cards) > 1:
                raise BadArgument(f"name the card to remove from queue {queue}: {names}")
            index = 0
        else:
            matches = [k for k, c in enumerate(cards) if card_key(c["card"]) == card_key(card)]
            if not matches:
                raise IllegalCommand(f"no permanent card {card!r} behind the door of queue "
                                     f"{queue}; there: {names}", rule="no-permanent")
            index = matches[0]
        removed = cards.pop(index)
        return [Event("permanent-removed", f"{removed['card']} is removed from behind the door "
                                           f"of queue {queue}",
                      {"queue": queue, "card": removed["card"]})]

    def do_flip(self, queue: int, position: int) -> list[Event]:
        p = self._need_persona(queue, position)
        where = self._place(queue, position - 1)
        if not p["revealed"]:
            raise IllegalCommand(f"the Persona {where} is face down: only a revealed Persona "
                                 f"whose effect is spent is turned over", rule="face-down")
        if p["flipped"]:
            raise IllegalCommand(f"{cap(label(p))} {where} is already turned over",
                                 rule="already-flipped")
        p["flipped"] = True
        return [Event("flipped", f"{cap(label(p))} {where} is turned over",
                      {"queue": queue, "position": position})]

    def do_take_tokens(self, player: int, pipi: int, popo: int) -> list[Event]:
        if not pipi and not popo:
            raise BadArgument("take-tokens needs a number of pipì or popò other than 0")
        self._need_live(player)
        self._guard(player)
        r = self.reserves[player]
        # A reserve never goes below zero: the table takes back what is there.
        pipi = max(pipi, -r["pipi"])
        popo = max(popo, -r["popo"])
        parts = []
        if pipi > 0 or popo > 0:
            parts.append("takes " + tokens_text(max(pipi, 0), max(popo, 0)))
        if pipi < 0 or popo < 0:
            parts.append("discards " + tokens_text(max(-pipi, 0), max(-popo, 0)))
        events: list[Event] = []
        self._change_reserve(player, pipi, popo, events, " and ".join(parts) or "discards nothing")
        self._settle(events)
        return events

    # -- corrections ---------------------------------------------------------

    def do_set_reserve(self, player: int, pipi: int, popo: int) -> list[Event]:
        self._need_live(player)
        self.reserves[player].update(pipi=pipi, popo=popo)
        return [Event("correction", f"Correction: {self.players[player]}'s reserve is "
                                    f"{tokens_text(pipi, popo, zero='empty')}",
                      {"player": player, "pipi": pipi, "popo": popo})]

    def do_set_tokens(self, queue: int, position: int, pipi: int, popo: int) -> list[Event]:
        p = self._need_persona(queue, position)
        p["tokens"] = [pipi, popo]
        return [Event("correction", f"Correction: {tokens_text(pipi, popo)} on {label(p)} "
                                    f"{self._place(queue, position - 1)}",
                      {"queue": queue, "position": position, "pipi": pipi, "popo": popo})]

    def do_set_persona(self, queue: int, position: int, pipi: int, popo: int, colour: str,
                       name: str | None) -> list[Event]:
        p = self._need_persona(queue, position)
        where = self._place(queue, position - 1)
        if not p["revealed"]:
            raise IllegalCommand(f"the Persona {where} is face down: reveal it instead",
                                 rule="face-down")
        p.update(pipi=pipi, popo=popo, colour=colour, name=name or p["name"])
        return [Event("correction", f"Correction: the Persona {where} is {label(p)}, "
                                    f"{tokens_text(pipi, popo)}",
                      {"queue": queue, "position": position})]

    def do_unflip(self, queue: int, position: int) -> list[Event]:
        p = self._need_persona(queue, position)
        where = self._place(queue, position - 1)
        if not p["flipped"]:
            raise IllegalCommand(f"the Persona {where} is not turned over", rule="not-flipped")
        p["flipped"] = False
        return [Event("correction", f"Correction: {label(p)} {where} is turned back up",
                      {"queue": queue, "position": position})]

    def do_note(self, text: str) -> list[Event]:
        return [Event("note", text)]

    # -- the flow of a round ----------------------------------------------

    def _start_round(self, events: list[Event]) -> None:
        self.round += 1
        n = len(self.players)
        self.round_order = [(self.first_player + k) % n for k in range(n)
                            if not self.reserves[(self.first_player + k) % n]["eliminated"]]
        self.turn = 0
        events.append(Event("round", f"Round {self.round}: {self.players[self.first_player]} "
                                     f"holds the first-player token",
                            {"round": self.round, "first_player": self.first_player}))
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        self.phase = "A"
        self.step = ""
        self.action_card = None
        self.concentration = False
        self.effects = []
        seat = self.active()
        events.append(Event("turn", f"{self.players[seat]}'s turn", {"player": seat,
                                                                       "round": self.round}))
        self._automatic_phases(events)

    def _automatic_phases(self, events: list[Event]) -> None:
        """Go through phases A to C as far as the table lets the companion."""
        pending = self._pending_reveals()
        if pending:
            events.append(Event("phase", f"A: reveal the Personas in the bathrooms and next to "
                                         f"the players ({len(pending)} face down)",
                                {"phase": "A"}))
            return
        self._place_bathroom_tokens(events)
        seat = self.active()
        events.append(Event("phase", f"C: {self.players[seat]} draws Action cards up to 4",
                            {"phase": "C"}))
        self.effects = self._effects_for(seat, with_free_queue=self.turn == 0)
        if self.effects:
            self.phase = "D"
            events.append(Event("phase", f"D: {self._effects_prompt()}", {"phase": "D"}))
        else:
            self._open_phase_e(events, "D: no Persona effect to resolve. ")

    def _place_bathroom_tokens(self, events: list[Event]) -> None:
        placed = []
        for q, queue in doors(self.queues):
            slots = queue["slots"]
            if not slots or "player" in slots[0]:
                continue
            p = slots[0]
            if p["revealed"] and not p["placed"]:
                p["tokens"][0] += p["pipi"]
                p["tokens"][1] += p["popo"]
                p["placed"] = True
                placed.append(f"queue {q}: {tokens_text(*p['tokens'])} on {label(p)}")
        if placed:
            events.append(Event("tokens-placed", "B: " + "; ".join(placed), {"phase": "B"}))

    def _open_phase_e(self, events: list[Event], before: str = "") -> None:
        self.phase = "E"
        self.step = "choose"
        name = self.players[self.active()]
        events.append(Event("phase", f"{before}E: {name} plays an Action card, decompresses "
                                     f"or passes", {"phase": "E"}))

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

    def _settle(self, events: list[Event]) -> None:
        """After tokens changed hands mid-turn: an elimination may end the
        turn or the game."""
        if self.phase not in ("A", "D", "E"):
            return
        if len(self.live_seats()) <= 1:
            self._last_standing(events)
        elif self.reserves[self.active()]["eliminated"]:
            self._next_turn(events)

    def _end_round(self, events: list[Event]) -> None:
        if self.final_round:
            events.append(Event("phase", "The final turns are over: final count",
                                {"phase": "count"}))
            self._start_count(events)
            return
        self._cleanup(events)
        if len(self.live_seats()) <= 1:
            self._last_standing(events)
            return
        arrived = [queue["slots"][0]["player"] for _, queue in doors(self.queues)
                   if queue["slots"] and "player" in queue["slots"][0]]
        if arrived:
            names = join([self.players[s] for s in arrived])
            events.append(Event("final-round", f"{names} reaches the bathroom as the queues "
                                               f"move up: the game ends at once",
                                {"players": arrived}, alert=True))
            self._start_count(events)
            return
        n = len(self.players)
        for k in range(1, n + 1):
            seat = (self.first_player + k) % n
            if not self.reserves[seat]["eliminated"]:
                self.first_player = seat
                break
        events.append(Event("first-player", f"The first-player token passes to "
                                            f"{self.players[self.first_player]}",
                            {"first_player": self.first_player}))
        self._start_round(events)

    def _cleanup(self, events: list[Event]) -> None:
        events.append(Event("cleanup", f"End of round {self.round}: the players take the tokens "
                                       f"of their bathroom; the free queue's are discarded",
                            {"round": self.round}))
        for q, queue in list(doors(self.queues)):
            slots = queue["slots"]
            if not slots or "player" in slots[0]:
                continue
            pipi, popo = slots[0]["tokens"]
            holder = self.player_in(q)
            if holder is None:
                events.append(Event("tokens-discarded", f"Queue {q} is free: "
                                                        f"{tokens_text(pipi, popo)} discarded",
                                    {"queue": q, "pipi": pipi, "popo": popo}))
            else:
                self._change_reserve(holder, pipi, popo, events,
                                     f"takes {tokens_text(pipi, popo)} from the bathroom of "
                                     f"queue {q}")
        left = 0
        for _, queue in doors(self.queues):
            slots = queue["slots"]
            if slots and "player" not in slots[0]:
                slots.pop(0)
                left += 1
        self.persona_discard += left
        events.append(Event("queue-advanced", f"The {left} bathroom Personas leave and every "
                                              f"queue moves up one place", {"left": left}))

    def _check_arrivals(self, events: list[Event]) -> None:
        """A player in a bathroom during a turn came there through a card:
        the rest of the round is the final turns."""
        for q, queue in doors(self.queues):
            slots = queue["slots"]
            if not slots or "player" not in slots[0] or slots[0]["player"] in self.arrived:
                continue
            seat = slots[0]["player"]
            self.arrived.append(seat)
            name = self.players[seat]
            if self.final_round:
                message = f"{name} reaches the bathroom of queue {q} too"
            else:
                self.final_round = True
                message = (f"{name} reaches the bathroom of queue {q}: the rest of this round "
                           f"is the final turns, and only Give Up Your Place, Swap and Sneeze "
                           f"may be played against {name}")
            events.append(Event("final-round", message, {"player": seat, "queue": q},
                                alert=True))

    # -- tokens and reserves ---------------------------------------------------

    def _change_reserve(self, seat: int, pipi: int, popo: int, events: list[Event],
                        why: str) -> None:
        r = self.reserves[seat]
        name = self.players[seat]
        r["pipi"] = max(0, r["pipi"] + pipi)
        r["popo"] = max(0, r["popo"] + popo)
        converted = 0
        while r["pipi"] >= PIPI_PER_POPO:
            r["pipi"] -= PIPI_PER_POPO
            r["popo"] += 1
            converted += 1
        now = tokens_text(r["pipi"], r["popo"], zero="empty")
        events.append(Event("reserve-changed", f"{name} {why}: reserve {now}",
                            {"player": seat, "pipi": r["pipi"], "popo": r["popo"]}))
        if converted:
            times = "" if converted == 1 else f" ({converted} times)"
            events.append(Event("popo-converted", f"Five of {name}'s pipì become one "
                                                  f"popò{times}",
                                {"player": seat, "count": converted}))
        if r["popo"] >= self.popo_limit:
            self._eliminate(seat, events)

    def _eliminate(self, seat: int, events: list[Event]) -> None:
        where = self.locate(seat)
        self.reserves[seat]["eliminated"] = True
        name = self.players[seat]
        closed = ""
        if where:
            queue = self.queues[where[0] - 1]
            count = sum(1 for slot in queue["slots"] if "player" not in slot)
            self.persona_discard += count
            queue.update(door=False, slots=[], permanents=[])
            closed = (f": queue {where[0]} is closed, its door removed and its "
                      f"{personas_text(count)} discarded")
        if seat in self.tie_pending:
            self.tie_pending.remove(seat)
        events.append(Event("player-eliminated", f"{name} has {self.popo_limit} popò and is "
                                                 f"eliminated{closed}",
                            {"player": seat, "queue": where[0] if where else None},
                            alert=True))

    def _decompress(self, seat: int, value: int, concentration: bool,
                    events: list[Event]) -> None:
        r = self.reserves[seat]
        name = self.players[seat]
        if value < RED_DIE.sides or concentration:
            gone = r["pipi"] if value == RED_DIE.sides else min(value, r["pipi"])
            how = " with Concentration" if value == RED_DIE.sides else ""
            events.append(Event("decompressed", f"{name} rolls {value}{how}: discards "
                                                f"{gone} pipì",
                                {"player": seat, "roll": value, "pipi": -gone}))
            if gone:
                self._change_reserve(seat, -gone, 0, events, f"discards {gone} pipì")
        else:
            events.append(Event("decompressed", f"{name} rolls {value}: takes one popò",
                                {"player": seat, "roll": value, "popo": 1}))
            self._change_reserve(seat, 0, 1, events, "takes one popò")

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
        events.append(Event("turn-ended", f"{self.players[seat]}'s turn is over; discard down "
                                          f"to 3 Action cards", {"player": seat}))
        self._next_turn(events)
        return events

    def _reader_roll(self, value: int) -> list[Event]:
        q, reader = self._reader_pending()
        after = self.queues[q - 1]["slots"][1]
        after["tokens"][0] += value
        reader["flipped"] = True
        return [Event("tokens-added", f"{cap(label(reader))} leaves his newspaper: "
                                      f"{value} pipì on {label(after)} at position 2 of "
                                      f"queue {q}; he is turned over",
                      {"queue": q, "position": 2, "pipi": value, "popo": 0})]

    # -- the end -------------------------------------------------------------

    def _start_count(self, events: list[Event]) -> None:
        self.phase = "count"
        self.step = ""
        self.effects = []
        pending = self._pending_reveals()
        if pending:
            events.append(Event("phase", f"Final count: reveal the {len(pending)} face-down "
                                         f"Personas between the players and the doors",
                                {"phase": "count"}))
            return
        self._final_count(events)

    def _final_count(self, events: list[Event]) -> None:
        for seat in self.live_seats():
            q, position = self.locate(seat)
            if position == 1:
                continue
            queue = self.queues[q - 1]
            pipi, popo = tokens_ahead(queue, position - 1)
            with_cards = " and the permanent cards" if queue["permanents"] else ""
            self._change_reserve(seat, pipi, popo, events,
                                 f"takes {tokens_text(pipi, popo)} for the "
                                 f"{personas_text(position - 1)} between them and the door of "
                                 f"queue {q}{with_cards}")
        self._decide(self.live_seats(), events)

    def _decide(self, contenders: list[int], events: list[Event]) -> None:
        alive = [s for s in contenders if not self.reserves[s]["eliminated"]]
        if not alive:
            self._finish([], "Every player in contention was eliminated: the game has no "
                             "winner", events)
            return
        best = min(self.score(s) for s in alive)
        tied = [s for s in alive if self.score(s) == best]
        if len(tied) == 1:
            self._finish(tied, f"{self.players[tied[0]]} wins with {best} "
                               f"(pipì + 5 × popò)", events)
            return
        self.phase = "tie-break"
        self.tie_group = tied
        self.tie_pending = list(tied)
        events.append(Event("tie-break", f"{join([self.players[s] for s in tied])} are tied at "
                                         f"{best}: each makes a Decompression roll (red die)",
                            {"tied": tied, "score": best}, alert=True))

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

    def _last_standing(self, events: list[Event]) -> None:
        live = self.live_seats()
        if live:
            message = f"{self.players[live[0]]} is the last player standing and wins"
        else:
            message = "Every player was eliminated: the game has no winner"
        self._finish(live, message, events)

    def _finish(self, winners: list[int], message: str, events: list[Event]) -> None:
        self.phase = "over"
        self.step = ""
        self.tie_pending = []
        self.winners = list(winners)
        self.scores = [None if r["eliminated"] else self.score(s)
                       for s, r in enumerate(self.reserves)]
        self.outcome = message
        events.append(Event("game-over", message, {"winners": self.winners,
                                                   "scores": self.scores}, alert=True))

    # -- Persona effects -------------------------------------------------

    def _effects_for(self, seat: int, *, with_free_queue: bool) -> list[dict]:
        """Phase D's list: the free queue's Personas in the first turn of a
        round, then the permanent cards behind the player's door, then the
        Personas of the player's queue."""
        ignored = ("orange", "red") if "first-game" in self.setup.variants else ()
        entries = []
        free = self.free_queue()
        if with_free_queue and free is not None:
            entries += persona_effects(self.queues[free - 1]["slots"], None, ignored)
        q, position = self.locate(seat)
        entries += [{"permanent": c["card"], "queue": q}
                    for c in self.queues[q - 1]["permanents"]]
        entries += persona_effects(self.queues[q - 1]["slots"], position - 1, ignored)
        return entries

    def _effect_lines(self) -> list[str]:
        lines = []
        for entry in self.effects:
            if "permanent" in entry:
                lines.append(f"permanent card {entry['permanent']} behind the door of "
                             f"queue {entry['queue']}")
                continue
            found = find_persona(self.queues, entry["persona"])
            if found is None:
                continue
            q, i, p = found
            hint = persona_hint(p["name"])
            done = " (turned over)" if p["flipped"] else ""
            lines.append(f"{label(p)} {self._place(q, i)}{done}"
                         + (f": {hint}" if hint else ""))
        return lines

    def _effects_prompt(self) -> str:
        lines = self._effect_lines()
        listed = "; ".join(lines) if lines else "nothing left"
        return f"resolve, in order: {listed}; then effects-done"

    def _reader_pending(self) -> tuple[int, dict] | None:
        """The Avid Reader waiting for his blue die: listed, in a bathroom,
        not turned over, with a Persona right after him."""
        for entry in self.effects:
            found = find_persona(self.queues, entry.get("persona"))
            if found is None:
                continue
            q, i, p = found
            slots = self.queues[q - 1]["slots"]
            if (i == 0 and not p["flipped"] and card_key(p["name"]) == AVID_READER
                    and len(slots) > 1 and "player" not in slots[1]):
                return q, p
        return None

    def _operation_waits(self) -> list[Expectation]:
        return [Expectation(name, prompt) for name, prompt in OPERATIONS]

    # -- places and checks -----------------------------------------------

    def _pending_reveals(self) -> list[tuple[int, int]]:
        return pending_reveals(self.queues, final_count=self.phase == "count")

    def _place(self, q: int, i: int) -> str:
        return where(self.queues, self.players, q, i)

    def _reveal_wait(self, q: int, i: int) -> Expectation:
        prefix = "Final count: reveal" if self.phase == "count" else "Reveal"
        return Expectation("reveal", f"{prefix} the Persona {self._place(q, i)}: enter its "
                                     f"pipì, popò and colour",
                           args={"queue": q, "position": i + 1})

    def _mover(self, player: int | None) -> tuple[int, int, int]:
        """The player a queue operation moves (the active one by default):
        seat, queue and index in the queue."""
        seat = self.active() if player is None else player
        self._need_live(seat)
        self._guard(seat)
        q, position = self.locate(seat)
        return seat, q, position - 1

    def _guard(self, seat: int) -> None:
        if self.protected(seat):
            name = self.players[seat]
            played = (f"the card played is {self.action_card}" if self.action_card
                      else "no Action card has been played")
            raise IllegalCommand(
                f"{name} reached the bathroom through an Action card: in the final turns only "
                f"Give Up Your Place, Swap and Sneeze may be played against {name}, and "
                f"{played}", rule="final-turns")

    def _guard_queue(self, queue: int) -> None:
        self._need_door(queue)
        holder = self.player_in(queue)
        if holder is not None:
            self._guard(holder)

    def _need_live(self, seat: int) -> None:
        if self.reserves[seat]["eliminated"]:
            raise IllegalCommand(f"{self.players[seat]} was eliminated and stands in no queue",
                                 rule="eliminated")

    def _need_door(self, queue: int) -> None:
        if not self.queues[queue - 1]["door"]:
            raise IllegalCommand(f"queue {queue} has no door any more: its player was "
                                 f"eliminated", rule="no-door")

    def _need_persona(self, queue: int, position: int) -> dict:
        self._need_door(queue)
        slots = self.queues[queue - 1]["slots"]
        if position > len(slots):
            raise IllegalCommand(f"queue {queue} has {len(slots)} places: there is no Persona "
                                 f"at position {position}", rule="no-persona")
        slot = slots[position - 1]
        if "player" in slot:
            raise IllegalCommand(f"position {position} of queue {queue} is "
                                 f"{self.players[slot['player']]}, not a Persona",
                                 rule="no-persona")
        return slot

    def _need_neighbour(self, seat: int, q: int, i: int, purpose: str) -> dict:
        """The Persona at index ``i`` next to ``seat`` (standing at the
        index after or before it) in queue ``q``."""
        name = self.players[seat]
        slots = self.queues[q - 1]["slots"]
        side = "behind" if i >= 1 and slots[i - 1].get("player") == seat else "in front of"
        if i < 0:
            raise IllegalCommand(f"{name} is in the bathroom of queue {q}: there is no Persona "
                                 f"in front of {name} {purpose}", rule="no-persona")
        if i >= len(slots) or "player" in slots[i]:
            raise IllegalCommand(f"there is no Persona {side} {name} in queue {q} {purpose}",
                                 rule="no-persona")
        return slots[i]

    def _check_draw(self, count: int) -> None:
        if self.persona_deck + self.persona_discard < count:
            raise IllegalCommand("no Persona card is left in the deck or on the discard pile "
                                 "to draw", rule="deck-empty")

    def _draw(self, events: list[Event]) -> dict:
        """A new face-down Persona from the deck (callers check there is one)."""
        if self.persona_deck == 0:
            self.persona_deck, self.persona_discard = self.persona_discard, 0
            events.append(Event("deck-reshuffled", f"The Persona deck is empty: the "
                                                   f"{self.persona_deck} discarded Personas are "
                                                   f"shuffled into a new deck",
                                {"deck": self.persona_deck}))
        self.persona_deck -= 1
        self.next_id += 1
        return new_persona(self.next_id - 1)
