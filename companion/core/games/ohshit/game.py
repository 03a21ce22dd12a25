"""OhShit! (mode normal): poop piles, flushes, Unicorns and three action cards.

The companion keeps the public table: each player's pile of poops, who is
constipated, who is still alive, and how many cards lie in each hand, the
draw pile, the Décharge (discarded poops) and the Drain (discarded action
cards).  It never knows which card is in which hand: it refuses a play only
when the counts make it impossible (every card of that kind is already face
up on the table, in the Décharge or in the Drain).  Where the rulebook is
open it follows the rules notes.

How a pile flushes (the rulebook's Unicorn rule, made exact):

* A colour flushes when the pile holds at least one card of it and, with the
  Unicorns filling in, at least three.  All its cards go to the Décharge.
* The same Unicorns fill in for every colour at once ("one Unicorn completes
  every colour it can"), so a flush uses as many Unicorns as the colour that
  needs the most: 2 spicy + 2 precious + 1 Unicorn uses one Unicorn and
  flushes all five; 1 spicy + 2 precious + 2 Unicorns uses two.  Unicorns
  that no colour needed stay on the pile (4 spicy + 1 Unicorn keeps its
  Unicorn).
* Unicorns are every colour, so three or more Unicorns on their own are three
  of a kind and all of them flush.  This is checked after the colours, so
  1 spicy + 5 Unicorns (a sixth card on one's own pile) flushes all six.
* A constipated pile never flushes.

A player who dies leaves their hand face down out of the game: the companion
cannot know which of those cards are poops, so it cannot send them to the
Décharge or the Drain and still count exactly.  The message says so.

Corrections fix the table by hand and never flush, kill or start anything on
their own, except the two whose whole point is that: ``kill`` (a death the
table has seen; when one player is left the game ends) and ``skip`` (the
next player's turn starts, with its draw).

Every count the companion keeps can be corrected, and every card stays
counted once, because the draw pile is the balance of the table:

* ``set-pile``, ``set-constipated``, ``set-hand``, ``set-decharge`` and
  ``set-drain`` move cards between the zone they correct and the draw pile:
  the cards a zone gains come from the draw pile, the cards it loses go back
  to it.  A zone can only gain what the draw pile holds, and a kind can
  never be face up more times than the deck holds it.
* ``set-deck`` is the one correction that changes the deck composition: it
  says the box holds a different number of cards of a kind than was set at
  setup.  The cards found go into the draw pile, the cards missing leave it.
  This is also how a wrong draw pile is fixed when every other count is
  right: there is no correction that sets the draw pile alone, because it
  could not say which zone, or which kind in the box, the difference
  belongs to.

The event of each correction says what changed and where the difference
went.

The folder: :mod:`.model` (the cards, the flush rule, the state and the view
as types), :mod:`.commands` (the command specs), this module (the rules),
:mod:`.text` (the labels and sentences in every language) and :mod:`.hints`
(how the button menu offers the commands).  Every rule returns the list of
its events; a step that leads to others returns its events followed by
theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import Event, Expectation, Game, Param, Result, Setup
from ...errors import BadArgument, IllegalCommand
from ...text import Word
from ..views import plain, state_fields
from .commands import COMMANDS, HAND_COUNT
from .model import (
    ACTIONS,
    COLOURS,
    DEFAULT_DECK,
    FULL_PILE,
    HAND_SIZE,
    KINDS,
    MAX_PILE,
    POOPS,
    UNICORN,
    Phase,
    PlayerView,
    State,
    View,
    cards_text,
    cards_word,
    cards_words,
    deck_of,
    describe_cards,
    flush_of,
    kind_word,
    poop_term,
    poop_word,
)

__all__ = ["OhShit", "deck_of", "flush_of"]


class OhShit(Game, State):
    key = "ohshit"
    title = "OhShit!"
    menu_order = 2
    # The rulebook gives no player count; two to six keeps every player's
    # Toilette and Suppositoire in a box-sized deck.
    min_players = 2
    max_players = 6
    commands = COMMANDS
    state_fields = state_fields(State)

    # -- setup -------------------------------------------------------------

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        setup = super().check_setup(setup)
        deck_of(setup)
        return setup

    @classmethod
    def describe(cls) -> dict[str, Any]:
        # The rulebook prints no card list: the deck is the table's to
        # describe, kind by kind (the setup page offers a count for each).
        return {**super().describe(),
                "options": {"deck": {"default": dict(DEFAULT_DECK),
                                     "help": "how many cards of each kind the deck holds"}}}

    def start(self) -> None:
        seats = len(self.players)
        self.deck = deck_of(self.setup)
        self.piles = [dict.fromkeys(POOPS, 0) for _ in range(seats)]
        self.constipated = [False] * seats
        self.alive = [True] * seats
        self.dead = []
        # One Toilette and one Suppositoire each, then three from the shuffled rest.
        self.hands = [HAND_SIZE] * seats
        self.draw_pile = sum(self.deck.values()) - HAND_SIZE * seats
        self.decharge = dict.fromkeys(POOPS, 0)
        self.drain = dict.fromkeys(ACTIONS, 0)
        self.active = 0
        self.turn_number = 0
        self.reshuffles = 0
        self.winners: list[int] = []
        self._begin_turn(0)

    # -- state queries -----------------------------------------------------

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def pile_total(self, seat: int) -> int:
        return sum(self.piles[seat].values())

    def living(self) -> list[int]:
        return [seat for seat, alive in enumerate(self.alive) if alive]

    def face_up(self, kind: str) -> int:
        """How many cards of a kind are face up: on piles and in the Décharge
        (poops), in the Drain and in front of players (actions)."""
        if kind in POOPS:
            return sum(pile[kind] for pile in self.piles) + self.decharge[kind]
        return self.drain[kind] + (sum(self.constipated) if kind == "constipation" else 0)

    def unseen(self, kind: str) -> int:
        """How many cards of a kind are not face up anywhere: in hands, in the
        draw pile, or set aside with a dead player's hand."""
        return max(0, self.deck[kind] - self.face_up(kind))

    def param_range(self, param: Param) -> tuple[int | None, int | None]:
        if param == HAND_COUNT:
            return 0, sum(self.deck.values())
        return super().param_range(param)

    # -- what the game waits for ------------------------------------------

    def expected(self) -> list[Expectation]:
        if self.over:
            return []
        seat = self.active
        name = self.players[seat]
        args = {"player": seat}
        return [
            Expectation("poop", f"{name}: put a poop on a pile", seat, args=args),
            Expectation("toilette", f"{name}: play a Toilette on a pile", seat, args=args),
            Expectation("constipation", f"{name}: constipate a player", seat, args=args),
            Expectation("suppositoire", f"{name}: give a player a Suppositoire", seat,
                        args=args),
        ]

    def result(self) -> Result | None:
        if not self.over:
            return None
        scores = tuple(1 if seat in self.winners else 0 for seat in range(len(self.players)))
        if len(self.winners) == 1:
            message = f"{self.players[self.winners[0]]} is the last survivor and wins"
        else:
            each = [self.players[s] for s in self.winners]
            names = ", ".join(each[:-1]) + " and " + each[-1]
            message = f"no card is left to play: {names} survive and share the win"
        # The survivors first, then the dead, the last to die first.
        ranks = [1] * len(self.players)
        for place, seat in enumerate(reversed(self.dead), len(self.winners) + 1):
            ranks[seat] = place
        return Result(tuple(self.winners), scores, message, tuple(ranks))

    def state_view(self) -> View:
        """The public table as a :class:`~.model.View`."""
        return View(
            phase=Phase.OVER if self.over else Phase.PLAY,
            colours=list(COLOURS),
            unicorn=UNICORN,
            actions=list(ACTIONS),
            full_pile=FULL_PILE,
            max_pile=MAX_PILE,
            players=[
                PlayerView(seat=seat, name=name,
                           pile={kind: self.piles[seat][kind] for kind in POOPS},
                           pile_total=self.pile_total(seat),
                           constipated=self.constipated[seat],
                           alive=self.alive[seat],
                           hand=self.hands[seat])
                for seat, name in enumerate(self.players)
            ],
            active=None if self.over else self.active,
            turn=self.turn_number,
            draw_pile=self.draw_pile,
            poops_only=self.reshuffles > 0,
            reshuffles=self.reshuffles,
            decharge=sum(self.decharge.values()),
            decharge_cards={kind: self.decharge[kind] for kind in POOPS},
            drain=sum(self.drain.values()),
            drain_cards={kind: self.drain[kind] for kind in ACTIONS},
            constipations_on_table=sum(self.constipated),
            unseen={kind: self.unseen(kind) for kind in KINDS},
            set_aside=sum(h for s, h in enumerate(self.hands) if not self.alive[s]),
            deck={kind: self.deck[kind] for kind in KINDS},
            deck_total=sum(self.deck.values()),
            over=self.over,
            winner=self.winners[0] if len(self.winners) == 1 else None,
            winners=list(self.winners),
        )

    def view(self) -> dict[str, Any]:
        found: dict[str, Any] = plain(self.state_view())
        return found

    # -- the four cards ----------------------------------------------------

    def do_poop(self, target: int, colour: str, player: int | None = None) -> list[Event]:
        player = self._player(player)
        self._check_card(player, colour)
        self._check_living(target, Word("refusal.what-poop", card=poop_term(colour)))
        total = self.pile_total(target)
        own = target == player
        if total >= MAX_PILE:
            raise IllegalCommand("refusal.pile-limit", rule="pile-limit", game=self.key,
                                 player=self.players[target], total=total, most=MAX_PILE)
        if total >= FULL_PILE and not own:
            raise IllegalCommand("refusal.pile-full", rule="pile-full", game=self.key,
                                 player=self.players[target], total=total)
        self.hands[player] -= 1
        self.piles[target][colour] += 1
        where = "their own pile" if own else f"{self.players[target]}'s pile"
        events = [Event(
            "poop-played",
            f"{self.players[player]} puts a {poop_word(colour)} poop on {where} "
            f"({cards_text(self.pile_total(target))})",
            {"player": player, "target": target, "colour": colour},
        )]
        events += self._flush(target)
        return events + self._end_turn()

    def do_toilette(self, target: int, player: int | None = None) -> list[Event]:
        player = self._player(player)
        self._check_card(player, "toilette")
        self._check_living(target, Word("refusal.what-card", card=Word("card.toilette")))
        if self.constipated[target]:
            raise IllegalCommand("refusal.toilette-constipated", rule="constipated",
                                 game=self.key, player=self.players[target])
        flushed = self._poops_on(target)
        self.hands[player] -= 1
        self.drain["toilette"] += 1
        self._discard(target, flushed)
        whose = "their own" if target == player else f"{self.players[target]}'s"
        what = (f"{describe_cards(flushed)} go to the Décharge" if flushed
                else "the pile was already empty")
        events = [Event("toilette",
                        f"{self.players[player]} flushes {whose} pile with a Toilette: {what}",
                        {"player": player, "target": target, "cards": flushed})]
        return events + self._end_turn()

    def do_constipation(self, target: int, player: int | None = None) -> list[Event]:
        player = self._player(player)
        self._check_card(player, "constipation")
        self._check_living(target, Word("refusal.what-card", card=Word("card.constipation")))
        if self.constipated[target]:
            raise IllegalCommand("refusal.already-constipated", rule="already-constipated",
                                 game=self.key, player=self.players[target])
        self.hands[player] -= 1
        self.constipated[target] = True
        who = "themselves" if target == player else self.players[target]
        events = [Event("constipated",
                        f"{self.players[player]} constipates {who}: "
                        f"{self._pile_of(target)} cannot flush until a Suppositoire",
                        {"player": player, "target": target})]
        return events + self._end_turn()

    def do_suppositoire(self, target: int, colour: str | None = None,
                        player: int | None = None) -> list[Event]:
        player = self._player(player)
        self._check_card(player, "suppositoire")
        self._check_living(target, Word("refusal.what-card", card=Word("card.suppositoire")))
        pile = self.piles[target]
        empty = not any(pile.values())
        if empty and not self.constipated[target]:
            raise IllegalCommand("refusal.nothing-to-remove", rule="nothing-to-remove",
                                 game=self.key, player=self.players[target])
        if not empty and colour is None:
            raise BadArgument("refusal.colour-needed", rule="colour-needed", game=self.key,
                              player=self.players[target], holds=cards_words(pile))
        if colour is not None and not empty and pile[colour] == 0:
            raise IllegalCommand("refusal.colour-not-in-pile", rule="colour-not-in-pile",
                                 game=self.key, player=self.players[target],
                                 card=poop_term(colour), holds=cards_words(pile))
        self.hands[player] -= 1
        self.drain["suppositoire"] += 1
        who = "themselves" if target == player else self.players[target]
        if empty or colour is None:
            removed = "nothing to remove"
        else:
            self._discard(target, {colour: 1})
            removed = (f"1 {poop_word(colour)} poop goes to the Décharge "
                       f"({cards_text(self.pile_total(target))} left)")
        events = [Event("suppository",
                        f"{self.players[player]} gives {who} a Suppositoire: {removed}",
                        {"player": player, "target": target,
                         "colour": None if empty else colour})]
        if self.constipated[target]:
            self.constipated[target] = False
            self.drain["constipation"] += 1
            events.append(Event(
                "constipation-lifted",
                f"{self.players[target]}'s Constipation is lifted: it goes to the Drain "
                f"with the Suppositoire",
                {"target": target}))
        events += self._flush(target)
        return events + self._end_turn()

    # -- corrections -------------------------------------------------------

    def do_set_pile(self, player: int, colour: str, count: int) -> list[Event]:
        self._check_living(player, Word("refusal.what-pile-correction"))
        now = self.piles[player][colour]
        self._check_change(now, count, "refusal.pile-same", player=self.players[player],
                           what=kind_word(count, colour))
        total = self.pile_total(player) + count - now
        if total > MAX_PILE:
            raise IllegalCommand("refusal.pile-would-exceed", rule="pile-limit", game=self.key,
                                 player=self.players[player], total=total, most=MAX_PILE)
        self._check_within_deck(colour, now, count,
                                Word("refusal.pile-of", player=self.players[player]))
        moved = self._move_with_draw_pile(count - now, colour)
        self.piles[player][colour] = count
        return [Event(
            "correction",
            f"Correction: {self._pile_of(player)} holds {count} {poop_word(colour)}, not "
            f"{now} ({cards_text(total)}); {moved}",
            {"player": player, "colour": colour, "count": count, "before": now})]

    def do_set_constipated(self, player: int, constipated: bool) -> list[Event]:
        self._check_living(player, Word("refusal.what-constipation-correction"))
        name = self.players[player]
        if self.constipated[player] == constipated:
            raise IllegalCommand("refusal.constipated-already" if constipated
                                 else "refusal.constipated-not", rule="no-change",
                                 game=self.key, player=name)
        if constipated and self.unseen("constipation") == 0:
            raise IllegalCommand("refusal.constipations-face-up", rule="more-than-the-deck",
                                 game=self.key, deck=self.deck["constipation"], player=name)
        moved = self._move_with_draw_pile(1 if constipated else -1, "constipation")
        self.constipated[player] = constipated
        state = "is constipated" if constipated else "is no longer constipated"
        return [Event("correction", f"Correction: {name} {state}; {moved}",
                      {"player": player, "constipated": constipated})]

    def do_set_hand(self, player: int, count: int) -> list[Event]:
        now = self.hands[player]
        name = self.players[player]
        if self.alive[player]:
            hand = f"{name}'s hand"
        else:
            hand = f"the hand {name} set aside at their death"
        self._check_change(now, count, "refusal.hand-same" if self.alive[player]
                           else "refusal.hand-aside-same", player=name, what=cards_word(count))
        moved = self._move_with_draw_pile(count - now, None)
        self.hands[player] = count
        return [Event("correction",
                      f"Correction: {hand} holds {cards_text(count)}, not {now}; {moved}",
                      {"player": player, "count": count, "before": now})]

    def do_set_decharge(self, colour: str, count: int) -> list[Event]:
        return self._set_discards(self.decharge, "the Décharge", colour, count,
                                  Word("refusal.the-decharge"))

    def do_set_drain(self, card: str, count: int) -> list[Event]:
        return self._set_discards(self.drain, "the Drain", card, count,
                                  Word("refusal.the-drain"))

    def do_set_deck(self, card: str, count: int) -> list[Event]:
        now = self.deck[card]
        word = poop_word(card)
        self._check_change(now, count, "refusal.deck-same", what=kind_word(count, card))
        face_up = self.face_up(card)
        if count < face_up:
            raise IllegalCommand("refusal.fewer-than-face-up.one" if face_up == 1
                                 else "refusal.fewer-than-face-up",
                                 rule="fewer-than-face-up", game=self.key,
                                 what=kind_word(face_up, card), count=face_up)
        change = count - now
        if -change > self.draw_pile:
            raise IllegalCommand("refusal.deck-draw-pile-short", rule="draw-pile-short",
                                 game=self.key, draw=cards_word(self.draw_pile),
                                 count=-change, card=poop_term(card))
        self.deck[card] = count
        self.draw_pile += change
        one = abs(change) == 1
        if change > 0:
            moved = (f"the {cards_text(change)} found {'goes' if one else 'go'} into the draw "
                     f"pile ({self.draw_pile} in it)")
        else:
            moved = (f"the {cards_text(-change)} missing {'leaves' if one else 'leave'} the draw "
                     f"pile ({self.draw_pile} left)")
        return [Event("correction",
                      f"Correction: the deck holds {count} {word}, not {now} "
                      f"({cards_text(sum(self.deck.values()))} in all); {moved}",
                      {"card": card, "count": count, "before": now})]

    def _set_discards(self, zone: dict[str, int], where: str, kind: str,
                      count: int, place: Word) -> list[Event]:
        """Correct the Décharge or the Drain: ``zone`` is the one to change,
        ``where`` its name in the event, ``place`` in a refusal."""
        now = zone[kind]
        word = poop_word(kind)
        self._check_change(now, count, "refusal.zone-same", where=place,
                           what=kind_word(count, kind))
        self._check_within_deck(kind, now, count, place)
        moved = self._move_with_draw_pile(count - now, kind)
        zone[kind] = count
        held = cards_text(sum(zone.values()))
        return [Event("correction",
                      f"Correction: {where} holds {count} {word}, not {now} ({held} in all); "
                      f"{moved}",
                      {"kind": kind, "count": count, "before": now})]

    def do_kill(self, player: int) -> list[Event]:
        if not self.alive[player]:
            raise IllegalCommand("refusal.already-dead", rule="dead-player", game=self.key,
                                 player=self.players[player])
        events = [Event("correction", f"Correction: {self.players[player]} is out of the game",
                        {"player": player, "correction": "kill"})]
        events += self._bury(player, "is out of the game")
        if not self.over and player == self.active:
            events += self._begin_turn(self._next_living(player))
        return events

    def do_revive(self, player: int) -> list[Event]:
        if self.alive[player]:
            raise IllegalCommand("refusal.not-dead", rule="not-dead", game=self.key,
                                 player=self.players[player])
        self.alive[player] = True
        if player in self.dead:
            self.dead.remove(player)
        return [Event("correction",
                      f"Correction: {self.players[player]} is back in the game with an empty "
                      f"pile and the {cards_text(self.hands[player])} set aside at their death",
                      {"player": player, "correction": "revive"})]

    def do_skip(self) -> list[Event]:
        events = [Event("correction",
                        f"Correction: {self.players[self.active]}'s turn ends without a card",
                        {"player": self.active, "correction": "skip"})]
        return events + self._begin_turn(self._next_living(self.active))

    def do_note(self, text: str) -> list[Event]:
        return [Event("note", text)]

    # -- checks (they never change anything) --------------------------------

    def _player(self, player: int | None) -> int:
        return self.active if player is None else player

    def _check_card(self, player: int, kind: str) -> None:
        name = self.players[player]
        if self.hands[player] == 0:
            raise IllegalCommand("refusal.empty-hand", rule="empty-hand", game=self.key,
                                 player=name)
        if self.unseen(kind) == 0:
            raise IllegalCommand("refusal.no-card-left", rule="no-card-left", game=self.key,
                                 card=Word(f"card.{kind}"), player=name, deck=self.deck[kind])

    def _check_living(self, seat: int, what: Word) -> None:
        if not self.alive[seat]:
            names = ", ".join(self.players[s] for s in self.living())
            raise IllegalCommand("refusal.dead-player", rule="dead-player", game=self.key,
                                 player=self.players[seat], what=what, living=names)

    def _check_change(self, now: int, count: int, key: str, **fields: Any) -> None:
        """Refuse a correction that changes nothing (``key``: what already is)."""
        if count == now:
            raise IllegalCommand(key, rule="no-change", game=self.key, **fields)

    def _check_within_deck(self, kind: str, now: int, count: int, where: Word) -> None:
        """A kind is never face up more times than the deck holds it.  Only a
        rise is checked, so that a count can always be brought back down."""
        if count <= now:
            return
        elsewhere = self.face_up(kind) - now
        room = max(0, self.deck[kind] - elsewhere)
        if count > room:
            raise IllegalCommand("refusal.more-than-the-deck.one" if elsewhere == 1
                                 else "refusal.more-than-the-deck", rule="more-than-the-deck",
                                 game=self.key, where=where, most=kind_word(room, kind),
                                 deck=self.deck[kind], elsewhere=elsewhere)

    def _move_with_draw_pile(self, gained: int, kind: str | None) -> str:
        """Balance a corrected zone against the draw pile: the ``gained``
        cards (of ``kind``; ``None`` for a hand's unknown cards) come from it,
        or go back to it when negative.  Returns what moved, for the event."""
        n = abs(gained)
        what = cards_text(n) if kind is None else f"{n} {poop_word(kind)}"
        if gained > self.draw_pile:
            raise IllegalCommand("refusal.draw-pile-short", rule="draw-pile-short",
                                 game=self.key, draw=cards_word(self.draw_pile),
                                 what=cards_word(n) if kind is None else kind_word(n, kind))
        self.draw_pile -= gained
        if gained > 0:
            verb = "comes" if n == 1 else "come"
            return f"{what} {verb} from the draw pile ({self.draw_pile} left)"
        verb = "goes" if n == 1 else "go"
        return f"{what} {verb} back to the draw pile ({self.draw_pile} in it)"

    # -- rules that follow a card --------------------------------------------

    def _pile_of(self, seat: int) -> str:
        return f"{self.players[seat]}'s pile"

    def _poops_on(self, seat: int) -> dict[str, int]:
        return {kind: self.piles[seat][kind] for kind in POOPS if self.piles[seat][kind]}

    def _discard(self, seat: int, cards: Mapping[str, int]) -> None:
        for kind, n in cards.items():
            self.piles[seat][kind] -= n
            self.decharge[kind] += n

    def _flush(self, seat: int) -> list[Event]:
        if self.constipated[seat]:
            return []
        gone = flush_of(self.piles[seat])
        if not gone:
            return []
        self._discard(seat, gone)
        return [Event(
            "flushed",
            f"{self._pile_of(seat)} flushes: {describe_cards(gone)} go to the Décharge "
            f"({cards_text(self.pile_total(seat))} left)",
            {"player": seat, "cards": gone, "count": sum(gone.values()),
             "left": self.pile_total(seat)}, alert=True)]

    def _end_turn(self) -> list[Event]:
        seat = self.active
        events = self._death_check(seat)
        if self.over:
            return events
        return events + self._begin_turn(self._next_living(seat))

    def _death_check(self, seat: int) -> list[Event]:
        total = self.pile_total(seat)
        if total < FULL_PILE:
            return []
        return self._bury(seat, f"ends the turn with {total} poops and dies")

    def _bury(self, seat: int, how: str) -> list[Event]:
        cards = self._poops_on(seat)
        self._discard(seat, cards)
        parts = [f"{describe_cards(cards)} to the Décharge"] if cards else []
        if self.constipated[seat]:
            self.constipated[seat] = False
            self.drain["constipation"] += 1
            parts.append("the Constipation to the Drain")
        if self.hands[seat]:
            parts.append(f"the {cards_text(self.hands[seat])} in hand leave the game face down")
        self.alive[seat] = False
        self.dead.append(seat)
        name = self.players[seat]
        events = [Event("player-died", f"{name} {how}: " + ", ".join(parts or ["nothing left"]),
                        {"player": seat, "cards": cards}, alert=True)]
        survivors = self.living()
        if len(survivors) == 1:
            self.winners = survivors
            events += self._game_over_event()
        return events

    def _game_over_event(self) -> list[Event]:
        result = self.result()
        if result is None:
            return []
        return [Event("game-over", result.message, {"winners": list(result.winners)},
                      alert=True)]

    def _next_living(self, seat: int) -> int:
        seats = len(self.players)
        for step in range(1, seats + 1):
            nxt = (seat + step) % seats
            if self.alive[nxt]:
                return nxt
        raise AssertionError("no living player")

    def _begin_turn(self, seat: int) -> list[Event]:
        """Start a turn with its draw.  A player with an empty hand and nothing
        to draw cannot play: their turn ends at once (and they die if buried);
        when that happens to every survivor in a row, nobody can ever play
        again and the survivors share the win."""
        events: list[Event] = []
        stuck = 0
        while True:
            self.active = seat
            self.turn_number += 1
            name = self.players[seat]
            events.append(Event("turn", f"{name}'s turn", {"player": seat,
                                                            "turn": self.turn_number}))
            events += self._draw(seat)
            if self.hands[seat]:
                return events
            events.append(Event("turn", f"{name} has no card and nothing to draw: "
                                        f"the turn passes", {"player": seat}))
            died = self._death_check(seat)
            events += died
            if self.over:
                return events
            stuck = 0 if died else stuck + 1
            if stuck >= len(self.living()):
                self.winners = self.living()
                return events + self._game_over_event()
            seat = self._next_living(seat)

    def _draw(self, seat: int) -> list[Event]:
        events: list[Event] = []
        name = self.players[seat]
        if self.draw_pile == 0 and any(self.decharge.values()):
            poops = sum(self.decharge.values())
            self.draw_pile = poops
            self.decharge = dict.fromkeys(POOPS, 0)
            self.reshuffles += 1
            events.append(Event(
                "reshuffle",
                f"The draw pile is empty: shuffle the Décharge's {poops} poops into a new "
                f"draw pile (poops only from now on)",
                {"cards": poops}, alert=True))
        if self.draw_pile == 0:
            events.append(Event(
                "draw",
                f"The draw pile and the Décharge are empty: {name} draws nothing "
                f"({cards_text(self.hands[seat])} in hand)",
                {"player": seat, "skipped": True}))
            return events
        self.draw_pile -= 1
        self.hands[seat] += 1
        events.append(Event(
            "draw",
            f"{name} draws a card ({self.hands[seat]} in hand, {self.draw_pile} left in "
            f"the draw pile)",
            {"player": seat, "skipped": False}))
        return events
