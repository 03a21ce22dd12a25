"""Call of Nature (CHIPATSU): the common Pressure, Mastery counters and deck count.

The companion keeps the public state of the table: the Pressure, each
player's Mastery, whose turn it is and in which direction, and how many
Pressure cards are in the draw pile and the played pile.  It never knows a
hand.  Where the rulebook is open it follows the rules decisions
(docs/rules.md), and says what it decided in its events.

The folder: :mod:`.model` (the rulebook's numbers, the state and the view as
types), :mod:`.commands` (the command specs), this module (the rules),
:mod:`.text` (the labels and sentences in every language) and :mod:`.hints`
(how the button menu offers the commands).  Every rule returns the list of
its events; a step that leads to others returns its events followed by
theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import Event, Expectation, Game, Param, Result, Setup
from ...errors import BadArgument, BadSetup, IllegalCommand, NotExpected, WrongPlayer
from ...text import Word, Words, command_word, term
from ..views import plain, state_fields
from .commands import CARD_VALUE, COMMANDS, DRAW_PILE_COUNT, VARIANTS
from .model import (
    CRITICAL_THRESHOLDS,
    DECK_VARIANTS,
    DEFAULT_OPTIONS,
    END_OF_GAME_DICE,
    END_PHASE_CORRECTIONS,
    HAND_SIZE,
    MAX_CARD_VALUE,
    MAX_DECK,
    MAX_MASTERY,
    OPTION_HELP,
    RESPITE_DIE,
    RESPITES,
    ROUND_END,
    SPECIAL_CARDS,
    Direction,
    EndRoll,
    Phase,
    PlayerView,
    Respite,
    State,
    ThresholdView,
    View,
    deck_size,
    end_roll_view,
    is_int,
    option,
    roll_outcome,
)

__all__ = ["HAND_SIZE", "MAX_MASTERY", "CallOfNature"]


class CallOfNature(Game, State):
    key = "call-of-nature"
    title = "Call of Nature"
    menu_order = 1
    # 24 Mastery cards make 6 counters of 4 cards.
    min_players = 2
    max_players = 6
    variants = VARIANTS
    commands = COMMANDS
    state_fields = state_fields(State)

    # -- setup -------------------------------------------------------------

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        setup = super().check_setup(setup)
        options = dict(setup.options)
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise BadSetup("refusal.unknown-option", title=cls.title, n=len(unknown),
                           unknown=", ".join(sorted(unknown)), allowed=", ".join(DEFAULT_OPTIONS))
        for name in ("min_value", "max_value", "deck_size"):
            if name in options and not is_int(options[name]):
                raise BadSetup("refusal.option-not-a-number", name=name,
                               raw=repr(options[name]))
        low, high = option(options, "min_value"), option(options, "max_value")
        if not -MAX_CARD_VALUE <= low <= 0 <= high <= MAX_CARD_VALUE:
            raise BadSetup("refusal.card-values", game=cls.key, low=low, high=high,
                           most=MAX_CARD_VALUE, least=-MAX_CARD_VALUE)
        removed = options.get("removed_cards", {})
        if not isinstance(removed, Mapping) or not all(
            name in DECK_VARIANTS and is_int(count) and count >= 0
            for name, count in removed.items()
        ):
            raise BadSetup("refusal.removed-cards", game=cls.key,
                           variants=", ".join(DECK_VARIANTS), raw=repr(removed))
        deck = deck_size(setup)
        least = HAND_SIZE * len(setup.players) + 1
        if not least <= deck <= MAX_DECK:
            raise BadSetup("refusal.deck-size", game=cls.key, deck=deck, hand=HAND_SIZE,
                           players=len(setup.players), least=least, most=MAX_DECK)
        return setup

    @classmethod
    def describe(cls) -> dict[str, Any]:
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
        self.respite = None
        self.exploded: int | None = None
        self.end_rolls = []

    # -- what the setup decides ---------------------------------------------

    def deck_size(self) -> int:
        """Pressure cards in play once the deck variants have taken theirs out."""
        return deck_size(self.setup)

    def card_values(self) -> tuple[int, int]:
        """The lowest and highest value a Pressure card may have."""
        options = self.setup.options
        return option(options, "min_value"), option(options, "max_value")

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

    def phase(self) -> Phase:
        if self.over:
            return Phase.OVER
        if self.exploded is not None:
            return Phase.END_ROLLS
        if self.respite is not None:
            return Phase.RESPITE
        return Phase.PLAY

    def acting(self) -> int | None:
        """The seat the table waits for (``None`` once the game is over)."""
        phase = self.phase()
        if phase is Phase.OVER:
            return None
        if phase is Phase.END_ROLLS:
            return self._next_end_roll()["player"]
        if self.respite is not None:
            return self.respite["player"]
        return self.active

    def state_view(self) -> View:
        """The public table as a :class:`~.model.View`."""
        armed = self.armed_thresholds()
        result = self.result()
        following = armed[0] if armed else None
        return View(
            phase=self.phase(),
            pressure=self.pressure,
            next_threshold=following,
            next_threshold_cost=None if following is None else CRITICAL_THRESHOLDS[following],
            armed_thresholds=armed,
            thresholds=[ThresholdView(at, cost, at in armed)
                        for at, cost in CRITICAL_THRESHOLDS.items()],
            respites=list(RESPITES),
            next_respite=next((r for r in RESPITES if r > self.pressure), None),
            round=self.round_number,
            active=self.acting(),
            direction=Direction.of(self.direction),
            players=[PlayerView(s, name, self.mastery[s], s == self.exploded)
                     for s, name in enumerate(self.players)],
            max_mastery=MAX_MASTERY,
            draw_pile=self.draw_pile,
            played_pile=self.played_pile,
            deck_size=self.deck_size(),
            card_values=list(self.card_values()),
            specials_in_deck=list(self.specials_in_deck()),
            respite=None if self.respite is None else {
                "player": self.respite["player"], "pressure": self.respite["pressure"]},
            end_rolls=[end_roll_view(r) for r in self.end_rolls],
            result=result.to_json() if result else None,
        )

    def view(self) -> dict[str, Any]:
        found: dict[str, Any] = plain(self.state_view())
        return found

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
            raise BadArgument("refusal.card-not-in-deck", rule="card-not-in-deck", game=self.key,
                              card=Word(f"card.{card}"),
                              variants=Words(term(v, f"variant.{v}") for v in removed_by),
                              cards=Words(term(c, f"card.{c}") for c in self.specials_in_deck()))
        name = self.players[seat]
        printed = SPECIAL_CARDS[card]
        data = {"player": seat, "card": card, "pressure": self.pressure}
        if card == "u-turn":
            events = [Event("special-played", f"{name} plays {printed}: pressure stays "
                                              f"{self.pressure}", data)]
            self.direction = -self.direction
            events += self._direction_event(f"{printed} ")
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
            raise NotExpected("refusal.no-roll-now", game=self.key)
        return self._respite_roll(self.respite, values, player)

    def do_held_thresholds(self, count: int, player: int | None) -> list[Event]:
        entry = self._next_end_roll() if self.exploded is not None else None
        if entry is None or entry["held"] is not None:
            raise NotExpected("refusal.held-not-now", game=self.key)
        self._check_actor(player, entry["player"], "command.held-thresholds")
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
            raise BadArgument("refusal.pressure-same", rule="no-change", game=self.key,
                              value=value)
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
            raise IllegalCommand("refusal.exploded", rule="eliminated", game=self.key,
                                 player=name)
        before = self.mastery[player]
        after = min(MAX_MASTERY, max(0, before + delta))
        if after == before:
            raise BadArgument("refusal.mastery-same", rule="no-change", game=self.key,
                              player=name, value=before, most=MAX_MASTERY, change=f"{delta:+d}")
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
        return self._direction_event("Correction: ")

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
            raise BadArgument("refusal.draw-pile-same", rule="no-change", game=self.key,
                              count=count)
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
            raise NotExpected("refusal.no-card-now", game=self.key, now=self._waits_for())
        self._check_actor(player, self.active, "refusal.for-a-card")
        return self.active

    def _check_actor(self, player: int | None, seat: int, what: str) -> None:
        if player is not None and player != seat:
            raise WrongPlayer("refusal.not-their-turn", game=self.key,
                              player=self.players[player], what=Word(what),
                              waiting=self.players[seat])

    def _check_correction(self, name: str) -> None:
        if self.exploded is not None and name not in END_PHASE_CORRECTIONS:
            raise NotExpected("refusal.end-rolls-correction", rule="end-of-game", game=self.key,
                              command=command_word(name),
                              allowed=Words((command_word(c) for c in END_PHASE_CORRECTIONS),
                                            sep=" / "))

    def _fire_threshold(self, seat: int, threshold: int, loss: int) -> list[Event]:
        name = self.players[seat]
        before = self.mastery[seat]
        after = max(0, before - loss)
        self.mastery[seat] = after
        # One line says the threshold and the Mastery it cost, once.
        events = [
            Event("threshold-fired",
                  f"Threshold {threshold} fired: {name} loses {loss} Mastery "
                  f"({before} → {after})",
                  {"player": seat, "threshold": threshold, "loss": loss,
                   "before": before, "after": after}, alert=True),
        ]
        if after == 0:
            events += self._explode(seat, f"at threshold {threshold}")
        return events

    def _explode(self, seat: int, how: str) -> list[Event]:
        """Mastery 0: the player is out and the game ends at once."""
        self.exploded = seat
        self.respite = None
        n = len(self.players)
        # Survivors roll in the direction of play, from the player after the
        # exploded one (counter-clockwise once a U-TURN! has turned it).
        survivors = [(seat + step * self.direction) % n for step in range(1, n)]
        if "no-end-roll" in self.setup.variants:
            self.end_rolls = []
        else:
            held = None if "threshold-cards-in-hand" in self.setup.variants else 0
            self.end_rolls = [{"player": s, "held": held, "dice": None} for s in survivors]
        name = self.players[seat]
        direction = Direction.of(self.direction).value
        if self.end_rolls:
            then = (f"{_join([self.players[s] for s in survivors])} roll 2d6 for the End of "
                    f"Game, in that order ({direction})")
        else:
            then = "no End of Game roll in this variant"
        events = [Event("player-eliminated",
                        f"{name}'s Mastery is 0 ({how}): {name} explodes and is out. "
                        f"The game ends: {then}",
                        {"player": seat, "end": "rolls" if self.end_rolls else "no-roll",
                         "order": [r["player"] for r in self.end_rolls],
                         "direction": direction}, alert=True)]
        return events + self._game_over_event()

    def _new_round(self, starter: int, *, fired: bool) -> list[Event]:
        ended = self.round_number
        self.round_number += 1
        self.pressure = 0
        self.respite = None
        self.active = starter
        self.deal()
        why = f"Threshold {ROUND_END} ends round {ended}" if fired else f"Round {ended} ends"
        return [
            Event("round-ended",
                  f"{why}. Pressure back to 0, Mastery kept. Shuffle all {self.deck_size()} "
                  f"Pressure cards and deal {HAND_SIZE} to each player. "
                  f"{self.players[starter]} starts round {self.round_number}, "
                  f"{Direction.of(self.direction).value}",
                  {"round": self.round_number, "player": starter}, alert=True),
        ] + self._turn_event()

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
        return self._turn_event()

    def _next_seat(self, seat: int) -> int:
        n = len(self.players)
        for step in range(1, n + 1):
            candidate = (seat + step * self.direction) % n
            if candidate != self.exploded:
                return candidate
        raise AssertionError("no player left at the table")

    def _turn_event(self) -> list[Event]:
        return [Event("turn", f"{self.players[self.active]}'s turn (pressure {self.pressure})",
                      {"player": self.active})]

    def _direction_event(self, cause: str) -> list[Event]:
        direction = Direction.of(self.direction).value
        return [Event("direction-changed", f"{cause}Play now goes {direction}",
                      {"direction": direction})]

    # -- rolls -------------------------------------------------------------

    def _respite_roll(self, respite: Respite, values: list[int],
                      player: int | None) -> list[Event]:
        seat = respite["player"]
        self._check_actor(player, seat, "refusal.for-respite-roll")
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

    def _next_end_roll(self) -> EndRoll:
        return next(r for r in self.end_rolls if r["dice"] is None)

    def _end_roll(self, values: list[int], player: int | None) -> list[Event]:
        entry = self._next_end_roll()
        seat = entry["player"]
        self._check_actor(player, seat, "refusal.for-end-roll")
        held = entry["held"]
        if held is None:
            raise NotExpected("refusal.held-first", game=self.key, player=self.players[seat])
        dice = list(END_OF_GAME_DICE.check(values))
        entry["dice"] = dice
        total, loss, verdict = roll_outcome(dice, held)
        before = self.mastery[seat]
        after = max(0, before - loss)
        self.mastery[seat] = after
        name = self.players[seat]
        counted = f"{dice[0]}+{dice[1]} = {sum(dice)}"
        if held:
            counted += f", {2 * held} off for CRITICAL THRESHOLD! cards: {total}"
        effect = (f"loses {loss} Mastery ({before} → {after})" if loss
                  else f"keeps Mastery {after}")
        events = [Event("end-roll", f"{name} rolls {counted}. {verdict} {name} {effect}",
                        {"player": seat, "dice": dice, "total": total,
                         "loss": loss, "before": before, "after": after})]
        return events + self._game_over_event()

    def _game_over_event(self) -> list[Event]:
        result = self.result()
        if result is None:
            return []
        return [Event("game-over", f"Game over: {result.message}", result.to_json(), alert=True)]


# -- small pure helpers -------------------------------------------------------


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
