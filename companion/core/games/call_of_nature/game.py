"""Call of Nature (CHIPATSU): the common Pressure, Mastery counters and deck count.

The companion keeps the public state of the table: the Pressure, each
player's Mastery, whose turn it is and in which direction, and how many
Pressure cards are in the draw pile and the played pile.  It never knows a
hand.  Where the rulebook is open it follows the project's rules notes
(RULES-NOTES.md), and says what it decided in its events.

Which critical thresholds are armed is not stored: a threshold T is armed
exactly when the Pressure is below T.  A card can only take the Pressure to
T or above by crossing T upwards (which fires it), a drop below T re-arms it
(rulebook FAQ), and a correction that sets the Pressure at or above T counts
T as passed without firing it.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...engine import (
    CommandSpec,
    Dice,
    Event,
    Expectation,
    Game,
    Param,
    Result,
    Setup,
)
from ...errors import BadArgument, BadSetup, IllegalCommand, NotExpected, WrongPlayer

MAX_MASTERY = 7
HAND_SIZE = 4
# Critical threshold -> Mastery it costs, in the order a card applies them.
CRITICAL_THRESHOLDS = {31: 1, 61: 2, 91: 3}
ROUND_END = 91
RESPITES = (50, 80)
MAX_SET_PRESSURE = 200

RESPITE_DIE = Dice(6, 1, "d6")
END_OF_GAME_DICE = Dice(6, 2, "2d6")

# The End of Game card: sum of 2d6 -> (Mastery lost, what the card says).
END_OF_GAME_TABLE = {
    2: (7, "It's a disaster!"),
    3: (3, "Bad luck!"),
    4: (2, "Too bad!"),
    5: (1, "Ohhh..."),
}
SAVED = (0, "Bravo, you have saved your dignity!")

# Special cards by slug, with the name printed on them.
SPECIAL_CARDS = {
    "u-turn": "U-TURN!",
    "critical-threshold": "CRITICAL THRESHOLD!",
    "little-trip-in-the-bushes": "A Little Trip in the Bushes?",
    "we-are-all-the-same": "But Yes, We Are All the Same!",
    "suspense": "Suspense!",
    "tighten-the-sphincters": "Tighten the Sphincters!",
    "move-over": "Move Over!",
    "perseverance": "PERSEVERANCE!",
    "we-are-friends": "We're Friends, RIGHT?",
}
POWERFUL_CARDS = ("little-trip-in-the-bushes", "we-are-all-the-same")
BEGINNERS_REMOVED = POWERFUL_CARDS + (
    "suspense", "tighten-the-sphincters", "move-over", "perseverance", "we-are-friends",
)
# The variants that change the deck, and the special cards each takes out.
DECK_VARIANTS = {
    "no-powerful-cards": POWERFUL_CARDS,
    "beginners-deck": BEGINNERS_REMOVED,
}

# Setup options and their defaults.  The rulebook prints no card list, so how
# many cards a deck variant removes is an option: one copy of each named card
# unless the table says otherwise.
DEFAULT_OPTIONS: dict[str, Any] = {
    "min_value": -30,
    "max_value": 30,
    "deck_size": 76,
    "removed_cards": {name: len(cards) for name, cards in DECK_VARIANTS.items()},
}
OPTION_HELP = {
    "min_value": "lowest value printed on a Pressure card (0 or less)",
    "max_value": "highest value printed on a Pressure card (0 or more)",
    "deck_size": "Pressure cards in the box",
    "removed_cards": "cards each deck variant takes out, e.g. "
                     "{\"no-powerful-cards\": 2, \"beginners-deck\": 7}",
}
MAX_CARD_VALUE = 200
MAX_DECK = 500

# The corrections that still make sense while the survivors roll for the End of Game.
END_PHASE_CORRECTIONS = ("adjust-mastery", "note")

CARD_VALUE = Param("value", "int", low=DEFAULT_OPTIONS["min_value"],
                   high=DEFAULT_OPTIONS["max_value"],
                   help="the value printed on the card: +5, -10, 0...")
HELD_COUNT = Param("count", "int", low=0, high=HAND_SIZE,
                   help="CRITICAL THRESHOLD! cards in that player's hand")
DRAW_PILE_COUNT = Param("count", "int", low=1, high=MAX_DECK,
                        help="cards in the draw pile, counted at the table")


def _acting(help_text: str) -> Param:
    return Param("player", "player", optional=True, help=help_text)


class CallOfNature(Game):
    key = "call-of-nature"
    title = "Call of Nature"
    menu_order = 1
    # 24 Mastery cards make 6 counters of 4 cards.
    min_players = 2
    max_players = 6
    variants = {
        "no-end-roll": "Ignore the End of Game roll: the Mastery counters decide as they stand.",
        "threshold-cards-in-hand": "Each CRITICAL THRESHOLD! card held when someone explodes "
                                   "takes 2 off its holder's End of Game roll (minimum 2).",
        "no-powerful-cards": "Take A Little Trip in the Bushes? and But Yes, We Are All "
                             "the Same! out of the deck.",
        "beginners-deck": "Take the seven cards listed for beginners out of the deck.",
    }
    commands = (
        CommandSpec("card", (CARD_VALUE, _acting("who plays it (the active player)")),
                    help="play a Pressure card: the Pressure changes by its value"),
        CommandSpec("special", (Param("card", "choice", choices=tuple(SPECIAL_CARDS),
                                      help="which special card"),
                                _acting("who plays it (the active player)")),
                    help="play a special card: the Pressure stays as it is"),
        CommandSpec("roll", (Param("values", "dice", help="the die or dice rolled"),
                             _acting("who rolled")),
                    help="the result of a Respite d6 or an End of Game 2d6"),
        CommandSpec("held-thresholds", (HELD_COUNT, _acting("who holds them")),
                    help="how many CRITICAL THRESHOLD! cards a player holds at the end"),
        CommandSpec("set-pressure", (Param("value", "int", low=0, high=MAX_SET_PRESSURE,
                                           help="the Pressure as the table has it"),),
                    help="set the Pressure; no threshold or Respite fires", correction=True),
        CommandSpec("adjust-mastery", (Param("player", "player", help="whose counter"),
                                       Param("delta", "int", low=-MAX_MASTERY, high=MAX_MASTERY,
                                             help="levels to add (+) or take (-)")),
                    help="change a player's Mastery; 0 is still an explosion", correction=True),
        CommandSpec("skip", help="skip the active player: the turn passes on", correction=True),
        CommandSpec("reverse", help="reverse the direction of play", correction=True),
        CommandSpec("new-round", (Param("player", "player", optional=True,
                                        help="who starts it (default: the active player)"),),
                    help="start a new round by hand: Pressure 0, deck dealt again",
                    correction=True),
        CommandSpec("set-draw-pile", (DRAW_PILE_COUNT,),
                    help="set how many cards are in the draw pile", correction=True),
        CommandSpec("note", (Param("text", "text", help="what happened"),),
                    help="write a note in the history", correction=True),
    )
    state_fields = (
        "pressure",
        "mastery",
        "active",
        "direction",
        "round_number",
        "draw_pile",
        "played_pile",
        "respite",
        "exploded",
        "end_rolls",
    )

    # -- setup -------------------------------------------------------------

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        setup = super().check_setup(setup)
        options = dict(setup.options)
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise BadSetup(
                f"unknown option(s) {', '.join(sorted(unknown))} for {cls.title}; "
                f"allowed: {', '.join(DEFAULT_OPTIONS)}"
            )
        for name in ("min_value", "max_value", "deck_size"):
            if name in options and not _is_int(options[name]):
                raise BadSetup(f"option '{name}' must be a whole number, not {options[name]!r}")
        low, high = _option(options, "min_value"), _option(options, "max_value")
        if not -MAX_CARD_VALUE <= low <= 0 <= high <= MAX_CARD_VALUE:
            raise BadSetup(
                f"card values {low}..{high} must run from {-MAX_CARD_VALUE}..0 "
                f"up to 0..{MAX_CARD_VALUE} (the deck has +0 cards)"
            )
        removed = options.get("removed_cards", {})
        if not isinstance(removed, Mapping) or not all(
            name in DECK_VARIANTS and _is_int(count) and count >= 0
            for name, count in removed.items()
        ):
            raise BadSetup(
                "option 'removed_cards' maps deck variants "
                f"({', '.join(DECK_VARIANTS)}) to a number of cards, not {removed!r}"
            )
        deck = _deck_size(setup)
        least = HAND_SIZE * len(setup.players) + 1
        if not least <= deck <= MAX_DECK:
            raise BadSetup(
                f"a deck of {deck} Pressure cards cannot deal {HAND_SIZE} to each of "
                f"{len(setup.players)} players and leave a draw pile: it needs "
                f"{least} to {MAX_DECK} cards"
            )
        return setup

    @classmethod
    def describe(cls) -> dict:
        out = super().describe()
        out["options"] = {
            name: {"default": default, "help": OPTION_HELP[name]}
            for name, default in DEFAULT_OPTIONS.items()
        }
        return out

    def start(self) -> None:
        self.pressure = 0
        self.mastery = [MAX_MASTERY] * len(self.players)
        self.active = 0
        self.direction = 1  # 1 clockwise, -1 counter-clockwise
        self.round_number = 1
        self.draw_pile = 0
        self.played_pile = 0
        self.deal()
        self.respite: dict | None = None  # {"player": seat, "pressure": 50 or 80}
        self.exploded: int | None = None
        # Once someone explodes: one entry per survivor, in rolling order:
        # {"player": seat, "held": CRITICAL THRESHOLD! cards or None, "dice": [a, b] or None}
        self.end_rolls: list[dict] = []

    # -- what the setup decides ---------------------------------------------

    def deck_size(self) -> int:
        """Pressure cards in play once the deck variants have taken theirs out."""
        return _deck_size(self.setup)

    def card_values(self) -> tuple[int, int]:
        """The lowest and highest value a Pressure card may have."""
        options = self.setup.options
        return _option(options, "min_value"), _option(options, "max_value")

    def specials_in_deck(self) -> tuple[str, ...]:
        """The special cards (slugs) that the chosen variants leave in the deck."""
        removed = {c for v in self.setup.variants for c in DECK_VARIANTS.get(v, ())}
        return tuple(c for c in SPECIAL_CARDS if c not in removed)

    def param_range(self, param: Param) -> tuple[int | None, int | None]:
        if param == CARD_VALUE:
            return self.card_values()
        if param == DRAW_PILE_COUNT:
            return 1, self.deck_size() - HAND_SIZE * len(self.players)
        return super().param_range(param)

    # -- state questions ---------------------------------------------------

    @property
    def over(self) -> bool:
        return self.exploded is not None and all(r["dice"] is not None for r in self.end_rolls)

    def armed_thresholds(self) -> list[int]:
        return [t for t in CRITICAL_THRESHOLDS if self.pressure < t]

    def expected(self) -> list[Expectation]:
        if self.over:
            return []
        if self.exploded is not None:
            entry = self._next_end_roll()
            seat = entry["player"]
            name = self.players[seat]
            if entry["held"] is None:
                return [Expectation("held-thresholds",
                                    f"{name} says how many CRITICAL THRESHOLD! cards they hold",
                                    player=seat)]
            return [Expectation("roll", f"{name} rolls 2d6 for the End of Game",
                                player=seat, dice=END_OF_GAME_DICE)]
        if self.respite is not None:
            seat = self.respite["player"]
            return [Expectation("roll", f"{self.players[seat]} rolls a d6 for the Respite "
                                        f"at {self.respite['pressure']}",
                                player=seat, dice=RESPITE_DIE)]
        name = self.players[self.active]
        return [Expectation("card", f"{name} plays a card", player=self.active),
                Expectation("special", f"{name} plays a special card", player=self.active)]

    def result(self) -> Result | None:
        if not self.over:
            return None
        survivors = [s for s in range(len(self.players)) if s != self.exploded]
        best = max(self.mastery[s] for s in survivors)
        winners = tuple(s for s in survivors if self.mastery[s] == best)
        names = _join([self.players[s] for s in winners])
        if len(winners) == 1:
            message = f"{names} wins with Mastery {best}"
        else:
            message = f"{names} share the victory with Mastery {best}"
        return Result(winners, tuple(self.mastery), message)

    def view(self) -> dict:
        armed = self.armed_thresholds()
        result = self.result()
        if self.over:
            phase, acting = "over", None
        elif self.exploded is not None:
            phase, acting = "end-rolls", self._next_end_roll()["player"]
        elif self.respite is not None:
            phase, acting = "respite", self.respite["player"]
        else:
            phase, acting = "play", self.active
        return {
            "phase": phase,
            "pressure": self.pressure,
            "next_threshold": armed[0] if armed else None,
            "armed_thresholds": armed,
            "round": self.round_number,
            "active": acting,
            "direction": _direction_name(self.direction),
            "players": [
                {"seat": s, "name": name, "mastery": self.mastery[s],
                 "eliminated": s == self.exploded}
                for s, name in enumerate(self.players)
            ],
            "draw_pile": self.draw_pile,
            "played_pile": self.played_pile,
            "deck_size": self.deck_size(),
            "card_values": list(self.card_values()),
            "specials_in_deck": list(self.specials_in_deck()),
            "respite": dict(self.respite) if self.respite else None,
            "end_rolls": [self._end_roll_view(r) for r in self.end_rolls],
            "result": result.to_json() if result else None,
        }

    # -- rules commands ------------------------------------------------------

    def do_card(self, value: int, player: int | None) -> list[Event]:
        seat = self._check_turn(player)
        before = self.pressure
        after = max(0, before + value)
        name = self.players[seat]
        events = [Event("pressure-changed", _card_message(name, value, before, after),
                        {"player": seat, "value": value, "before": before, "after": after})]
        self.pressure = after
        # A +0 card never changes the Pressure, so it can cross nothing.
        for threshold, loss in CRITICAL_THRESHOLDS.items():
            if not before < threshold <= after:
                continue
            events += self._fire_threshold(seat, threshold, loss)
            if self.exploded is not None:
                return events
            if threshold == ROUND_END:
                return events + self._new_round(seat, fired=True)
        if value != 0 and after in RESPITES:
            self.respite = {"player": seat, "pressure": after}
            events.append(Event(
                "respite",
                f"Respite at {after}: {name} rolls a d6; more than their Mastery "
                f"{self.mastery[seat]} wins 1 level back",
                {"player": seat, "pressure": after, "mastery": self.mastery[seat]},
                alert=True,
            ))
        events += self._count_card_played()
        if self.respite is None:
            events += self._pass_turn()
        return events

    def do_special(self, card: str, player: int | None) -> list[Event]:
        seat = self._check_turn(player)
        if card not in self.specials_in_deck():
            removed_by = [v for v in sorted(self.setup.variants)
                          if card in DECK_VARIANTS.get(v, ())]
            raise BadArgument(
                f"{SPECIAL_CARDS[card]} is not in this deck (taken out by "
                f"{', '.join(removed_by)}); the special cards in play are: "
                f"{', '.join(self.specials_in_deck())}",
                rule="card-not-in-deck",
            )
        name = self.players[seat]
        printed = SPECIAL_CARDS[card]
        data = {"player": seat, "card": card, "pressure": self.pressure}
        if card == "u-turn":
            events = [Event("special-played", f"{name} plays {printed}: pressure stays "
                                              f"{self.pressure}", data)]
            self.direction = -self.direction
            events.append(self._direction_event(f"{printed} "))
        else:
            events = [Event("special-played",
                            f"{name} plays {printed}: pressure stays {self.pressure}. Apply "
                            f"its effect, and correct the companion if it changes the "
                            f"Pressure, a Mastery or the turn", data)]
        events += self._count_card_played()
        return events + self._pass_turn()

    def do_roll(self, values: list[int], player: int | None) -> list[Event]:
        if self.exploded is not None:
            return self._end_roll(values, player)
        if self.respite is None:
            raise NotExpected("no roll is expected now: a roll answers a Respite or the "
                              "End of Game")
        return self._respite_roll(values, player)

    def do_held_thresholds(self, count: int, player: int | None) -> list[Event]:
        entry = self._next_end_roll() if self.exploded is not None else None
        if entry is None or entry["held"] is not None:
            raise NotExpected("CRITICAL THRESHOLD! cards in hand are counted only at the "
                              "End of Game, once per player, before their roll")
        self._check_actor(player, entry["player"], "held-thresholds")
        seat = entry["player"]
        entry["held"] = count
        cards = "card" if count == 1 else "cards"
        penalty = f": {2 * count} off their End of Game roll (minimum 2)" if count else ""
        return [Event("end-roll",
                      f"{self.players[seat]} holds {count} CRITICAL THRESHOLD! {cards}{penalty}",
                      {"player": seat, "held": count})]

    # -- corrections -------------------------------------------------------

    def do_set_pressure(self, value: int) -> list[Event]:
        self._check_correction("set-pressure")
        before = self.pressure
        if value == before:
            raise BadArgument(f"the pressure is already {value}; nothing to correct",
                              rule="no-change")
        self.pressure = value
        passed = [t for t in CRITICAL_THRESHOLDS if before < t <= value]
        rearmed = [t for t in CRITICAL_THRESHOLDS if value < t <= before]
        notes = []
        if passed:
            notes.append(f"{_thresholds(passed)} count as passed: no Mastery lost"
                         + (", the round goes on" if ROUND_END in passed else ""))
        if rearmed:
            notes.append(f"{_thresholds(rearmed)} armed again")
        detail = f" ({'; '.join(notes)})" if notes else ""
        return [Event("correction", f"Correction: pressure {before} → {value}{detail}",
                      {"correction": "set-pressure", "before": before, "after": value,
                       "passed": passed, "rearmed": rearmed})]

    def do_adjust_mastery(self, player: int, delta: int) -> list[Event]:
        name = self.players[player]
        if player == self.exploded:
            raise IllegalCommand(f"{name} exploded and is out of the game; undo the command "
                                 "that made them explode if it was a mistake",
                                 rule="eliminated")
        before = self.mastery[player]
        after = min(MAX_MASTERY, max(0, before + delta))
        if after == before:
            raise BadArgument(f"{name}'s Mastery is {before} and stays within 0..{MAX_MASTERY}: "
                              f"a change of {delta:+d} corrects nothing", rule="no-change")
        self.mastery[player] = after
        events = [Event("correction", f"Correction: {name}'s Mastery {before} → {after}",
                        {"correction": "adjust-mastery", "player": player,
                         "before": before, "after": after})]
        # The table's counter at 0 is the explosion, however it got there: the
        # correction fires no threshold, but a player at 0 during play is out
        # and the game ends.  At the End of Game, 0 is just a score.
        if after == 0 and self.exploded is None:
            events += self._explode(player, "by correction")
        return events

    def do_skip(self) -> list[Event]:
        self._check_correction("skip")
        name = self.players[self.active]
        message = f"Correction: {name} is skipped"
        if self.respite is not None:
            message += f" (no Respite roll at {self.respite['pressure']})"
            self.respite = None
        return [Event("correction", message, {"correction": "skip", "player": self.active})] \
            + self._pass_turn()

    def do_reverse(self) -> list[Event]:
        self._check_correction("reverse")
        self.direction = -self.direction
        return [self._direction_event("Correction: ")]

    def do_new_round(self, player: int | None) -> list[Event]:
        self._check_correction("new-round")
        seat = self.active if player is None else player
        return [Event("correction", f"Correction: a new round starts by hand, "
                                    f"{self.players[seat]} starts it",
                      {"correction": "new-round", "player": seat})] \
            + self._new_round(seat, fired=False)

    def do_set_draw_pile(self, count: int) -> list[Event]:
        self._check_correction("set-draw-pile")
        if count == self.draw_pile:
            raise BadArgument(f"the draw pile already has {count} cards; nothing to correct",
                              rule="no-change")
        before = self.draw_pile
        self.draw_pile = count
        self.played_pile = self._cards_out_of_hands() - count
        return [Event("correction", f"Correction: draw pile {before} → {count} cards, "
                                    f"played pile {self.played_pile}",
                      {"correction": "set-draw-pile", "before": before, "after": count})]

    def do_note(self, text: str) -> list[Event]:
        return [Event("note", f"Note: {text}", {"text": text})]

    # -- the steps of a turn ---------------------------------------------

    def _check_turn(self, player: int | None) -> int:
        """The seat playing a card: the active player, who is not waiting on a roll."""
        if self.exploded is not None or self.respite is not None:
            wanted = "; ".join(e.prompt for e in self.expected())
            raise NotExpected(f"no card can be played now; the game waits for: {wanted}")
        self._check_actor(player, self.active, "a card")
        return self.active

    def _check_actor(self, player: int | None, seat: int, what: str) -> None:
        if player is not None and player != seat:
            raise WrongPlayer(f"it is not {self.players[player]}'s turn for {what}; "
                              f"waiting for {self.players[seat]}")

    def _check_correction(self, name: str) -> None:
        if self.exploded is not None and name not in END_PHASE_CORRECTIONS:
            raise NotExpected(
                f"the game is at its End of Game rolls: '{name}' no longer applies; "
                f"only {' and '.join(END_PHASE_CORRECTIONS)} can correct it now",
                rule="end-of-game",
            )

    def _fire_threshold(self, seat: int, threshold: int, loss: int) -> list[Event]:
        name = self.players[seat]
        before = self.mastery[seat]
        after = max(0, before - loss)
        self.mastery[seat] = after
        levels = "level" if loss == 1 else "levels"
        events = [
            Event("threshold-fired",
                  f"Threshold {threshold} fired: {name} loses {loss} Mastery "
                  f"({before} → {after})",
                  {"player": seat, "threshold": threshold, "loss": loss}, alert=True),
            Event("mastery-lost", f"{name}'s Mastery {before} → {after} "
                                  f"(-{loss} {levels} at {threshold})",
                  {"player": seat, "before": before, "after": after}),
        ]
        if after == 0:
            events += self._explode(seat, f"at threshold {threshold}")
        return events

    def _explode(self, seat: int, how: str) -> list[Event]:
        """Mastery 0: the player is out and the game ends at once."""
        self.exploded = seat
        self.respite = None
        n = len(self.players)
        # Survivors roll in seating order, clockwise from the exploded player.
        survivors = [(seat + step) % n for step in range(1, n)]
        if "no-end-roll" in self.setup.variants:
            self.end_rolls = []
        else:
            held = None if "threshold-cards-in-hand" in self.setup.variants else 0
            self.end_rolls = [{"player": s, "held": held, "dice": None} for s in survivors]
        name = self.players[seat]
        if self.end_rolls:
            then = (f"{_join([self.players[s] for s in survivors])} roll 2d6 for the End of "
                    f"Game, in that order")
        else:
            then = "no End of Game roll in this variant"
        events = [Event("player-eliminated",
                        f"{name}'s Mastery is 0 ({how}): {name} explodes and is out. "
                        f"The game ends: {then}",
                        {"player": seat}, alert=True)]
        return events + self._game_over_event()

    def _new_round(self, starter: int, *, fired: bool) -> list[Event]:
        ended = self.round_number
        self.round_number += 1
        self.pressure = 0
        self.respite = None
        self.active = starter
        self.deal()
        why = f"Threshold 91 ends round {ended}" if fired else f"Round {ended} ends"
        return [
            Event("round-ended",
                  f"{why}. Pressure back to 0, Mastery kept. Shuffle all {self.deck_size()} "
                  f"Pressure cards and deal {HAND_SIZE} to each player. "
                  f"{self.players[starter]} starts round {self.round_number}, "
                  f"{_direction_name(self.direction)}",
                  {"round": self.round_number, "player": starter}, alert=True),
            self._turn_event(),
        ]

    def deal(self) -> None:
        """Every card shuffled, four in each hand, the rest the draw pile."""
        self.draw_pile = self._cards_out_of_hands()
        self.played_pile = 0

    def _cards_out_of_hands(self) -> int:
        return self.deck_size() - HAND_SIZE * len(self.players)

    def _count_card_played(self) -> list[Event]:
        """The card goes on the played pile and its player draws back to four.

        The rulebook shuffles the played pile when someone must draw from an
        empty pile; the companion tells the table as soon as the last card is
        drawn, so that the new draw pile is ready before anyone needs it.
        """
        self.played_pile += 1
        self.draw_pile -= 1
        if self.draw_pile > 0:
            return []
        cards = self.played_pile
        self.draw_pile, self.played_pile = cards, 0
        return [Event("reshuffle-needed",
                      f"The draw pile is empty: shuffle the {cards} played cards into a new "
                      f"draw pile. The Pressure stays at {self.pressure}",
                      {"cards": cards, "pressure": self.pressure}, alert=True)]

    def _pass_turn(self) -> list[Event]:
        self.active = self._next_seat(self.active)
        return [self._turn_event()]

    def _next_seat(self, seat: int) -> int:
        n = len(self.players)
        for step in range(1, n + 1):
            candidate = (seat + step * self.direction) % n
            if candidate != self.exploded:
                return candidate
        raise AssertionError("no player left at the table")

    def _turn_event(self) -> Event:
        return Event("turn", f"{self.players[self.active]}'s turn (pressure {self.pressure})",
                     {"player": self.active})

    def _direction_event(self, cause: str) -> Event:
        direction = _direction_name(self.direction)
        return Event("direction-changed", f"{cause}Play now goes {direction}",
                     {"direction": direction})

    # -- rolls -------------------------------------------------------------

    def _respite_roll(self, values: list[int], player: int | None) -> list[Event]:
        seat = self.respite["player"]
        self._check_actor(player, seat, "the Respite roll")
        die = RESPITE_DIE.check(values)[0]
        name = self.players[seat]
        before = self.mastery[seat]
        gained = die > before and before < MAX_MASTERY
        after = before + 1 if gained else before
        if gained:
            message = (f"{name} rolls {die} for the Respite: more than Mastery {before}, "
                       f"wins 1 level back ({before} → {after})")
        else:
            message = (f"{name} rolls {die} for the Respite: not more than Mastery {before}, "
                       f"nothing happens")
        self.mastery[seat] = after
        self.respite = None
        return [Event("respite-rolled", message,
                      {"player": seat, "die": die, "gained": gained,
                       "before": before, "after": after})] + self._pass_turn()

    def _next_end_roll(self) -> dict:
        return next(r for r in self.end_rolls if r["dice"] is None)

    def _end_roll(self, values: list[int], player: int | None) -> list[Event]:
        entry = self._next_end_roll()
        seat = entry["player"]
        self._check_actor(player, seat, "the End of Game roll")
        if entry["held"] is None:
            raise NotExpected(f"{self.players[seat]} first says how many CRITICAL THRESHOLD! "
                              "cards they hold (held-thresholds)")
        dice = list(END_OF_GAME_DICE.check(values))
        entry["dice"] = dice
        outcome = self._end_roll_view(entry)
        before = self.mastery[seat]
        after = max(0, before - outcome["loss"])
        self.mastery[seat] = after
        name = self.players[seat]
        counted = f"{dice[0]}+{dice[1]} = {sum(dice)}"
        if entry["held"]:
            counted += (f", {2 * entry['held']} off for CRITICAL THRESHOLD! cards: "
                        f"{outcome['total']}")
        effect = (f"loses {outcome['loss']} Mastery ({before} → {after})" if outcome["loss"]
                  else f"keeps Mastery {after}")
        events = [Event("end-roll", f"{name} rolls {counted}. {outcome['verdict']} {name} {effect}",
                        {"player": seat, "dice": dice, "total": outcome["total"],
                         "loss": outcome["loss"], "before": before, "after": after})]
        return events + self._game_over_event()

    def _end_roll_view(self, entry: dict) -> dict:
        out = {"player": entry["player"], "held": entry["held"], "dice": entry["dice"],
               "total": None, "loss": None, "verdict": None}
        if entry["dice"] is not None:
            total = max(2, sum(entry["dice"]) - 2 * entry["held"])
            loss, verdict = END_OF_GAME_TABLE.get(total, SAVED)
            out.update(total=total, loss=loss, verdict=verdict)
        return out

    def _game_over_event(self) -> list[Event]:
        result = self.result()
        if result is None:
            return []
        return [Event("game-over", f"Game over: {result.message}", result.to_json(), alert=True)]


# -- small pure helpers -------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _option(options: Mapping[str, Any], name: str) -> Any:
    return options.get(name, DEFAULT_OPTIONS[name])


def _deck_size(setup: Setup) -> int:
    removed = {**DEFAULT_OPTIONS["removed_cards"], **setup.options.get("removed_cards", {})}
    # The beginners' list already holds the powerful cards: with both variants
    # the larger count comes out, not the sum.
    taken = max((removed[v] for v in setup.variants if v in DECK_VARIANTS), default=0)
    return _option(setup.options, "deck_size") - taken


def _direction_name(direction: int) -> str:
    return "clockwise" if direction == 1 else "counter-clockwise"


def _card_message(name: str, value: int, before: int, after: int) -> str:
    played = f"{name} plays {value:+d}"
    if after == before:
        return f"{played}: pressure stays {after}"
    if before + value < 0:
        return f"{played}: pressure {after} (it never goes below 0)"
    rearmed = [t for t in CRITICAL_THRESHOLDS if after < t <= before]
    if rearmed:
        return f"{played}: pressure {after} ({_thresholds(rearmed)} armed again)"
    return f"{played}: pressure {after}"


def _thresholds(values: list[int]) -> str:
    word = "threshold" if len(values) == 1 else "thresholds"
    return f"{word} {_join([str(v) for v in values])}"


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
