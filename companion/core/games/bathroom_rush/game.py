"""Bathroom Rush: the queues at the bathroom doors, as they lie on the table.

The companion keeps the public table: who stands where in which queue, the
Personas (face down, or with the values printed on them), the tokens lying on
the cards, the permanent Action cards behind the doors, each player's reserve,
whose turn it is and in which phase.  It never knows a hand.  Where the
rulebook is open it follows the rules notes, and the decisions listed at the
end of this docstring.

Data model
----------
The state is :class:`.model.State` (every field plain JSON; ``state_fields``
serialises them all, in its order): the queues (:class:`.model.Queue`, one
per bathroom door, numbered from 1, their slots bathroom first), the
reserves, the turn, the :class:`.model.Phase` and its step, phase D's
effects, the Persona deck and the box.  The view screens read is
:class:`.model.View`.

Decisions where the rulebook is open
------------------------------------
- Phase B puts the printed tokens on every revealed bathroom Persona that
  has none yet: all of them at the start of a round, and a Persona that
  entered a bathroom during the round at the next turn.
- Phase D lists exactly the Personas whose condition holds as the phase
  begins (:mod:`.effects`), in the rulebook's order: in the first turn of
  a round the free queue's (only yellow ones can act there: no player is
  adjacent), then the player's queue from the bathroom down (the
  bathroom, in front, behind).  They are resolved one at a time: the
  effect happens (``effect``; the Avid Reader's is the blue die) or a
  defensive card blocks it (``defend``).  The companion applies the
  effects the rulebook describes (the Elderly Man and the Mother with
  Baby pass in front, the Distracted gives a pipì, the Avid Reader's
  newspaper, a Persona from the deck on top of the Infamous Person); any
  other the table applies with the queue commands before ``effect``.
  When a listed Persona's turn comes and its condition no longer holds
  (the player moved away from it), it is passed over and keeps its
  effect for a later turn.  A Persona arriving next to the player during
  phase D acts at their next turn.
- A Persona is turned over only once its effect is resolved or blocked:
  an orange one, and the Elderly Man, the Mother with Baby, the Avid
  Reader and the Distracted whatever colour was entered.  A red Persona
  (and a yellow one) is never turned over by the companion: a Queue
  Defence blocks it for this turn and it acts again at the next while
  its condition holds.
- A card's own condition is the one that counts for a named Persona: the
  Avid Reader acts from the bathroom of the player's queue even when he
  is not adjacent; the Entrepreneur's effect (he stays in the bathroom)
  waits for nothing in phase D.
- The Persona put on top of the Infamous Person comes from the Persona
  deck and lies face up on him, in the bathroom (``covers`` in the
  state): its reveal is the next command, and its printed tokens go on it
  at once.  At the cleanup the queue's player takes the tokens of both
  cards, and both leave the bathroom: the queue moves up one place as
  usual, so what a player collects never depends on their seat in the
  round's order.
- The permanent Action cards behind the active player's door are
  recalled at the start of the turn (an event); the table applies what
  they repeat with the queue commands.
- ``pass`` and the decompression roll end the turn; an Action card is
  followed by its queue operations and ``end-turn``.
- The Empty Bottle: the rulebook says only that it acts on the player's
  own reserve, not which die; the companion asks for the red die (1-4, as
  "the result of rolling a die equals the number of pipì tokens to add or
  subtract") and discards that many pipì, never below zero.  Its event
  says so.
- Concentration is an Action card picked by name (``play``); decompressing
  is ``decompress`` then the red die.  In light tracking the red die rolled
  at the player's choice is the decompression (one tap); a die device
  there reads a roll of the red die before a card is named as one, so an
  Empty Bottle is named before its die is rolled.
- Decompressing with Concentration and rolling 4 discards every pipì of the
  reserve (at most 4: five would already be a popò).  With no Persona
  behind, nobody is replaced.
- At the final count the tokens are taken into the reserve, so five pipì
  become a popò and a player reaching the popò limit is eliminated.  The
  modifiers of the permanent cards behind a queuing player's door are added
  once to what they take (never below zero).
- Only the tied players roll in the tie-break, but after each round of
  rolls everyone still in the game is compared again, those who did not
  roll included: the fewest wins, a shared fewest rolls again, and nobody
  wins only when nobody is left; the last player standing wins at once;
  when the Persona deck runs out, the discard pile is shuffled into a new
  deck.

Words
-----
Every event and prompt is a sentence players say, in English, French and
Italian (:mod:`.sentences`, found by :mod:`companion.core.text` through
:mod:`.text`): an event carries its kind and plain data (names, places,
tokens, the Persona as a card id or a colour), its English message is said
from them, and :meth:`BathroomRush.event_text` says it again in another
language; ``expected(lang)`` and ``view(lang)`` speak the language asked,
and the view says phase D's list again in French and Italian
(``effects_said``), as the table says each prompt again (``said``).

The engine is built in layers, each a class the next one extends:
:mod:`.places` (who stands where, the checks before a change, the Persona
deck), :mod:`.scoring` (reserves, elimination, the final count, the
tie-break), :mod:`.rounds` (the flow of turns and rounds, phase D's list),
then the commands: :mod:`.turn`, :mod:`.operations` and
:mod:`.corrections`, as :mod:`.commands` declares them.  This module puts
them together and says what the game waits for and shows.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...engine import Command, CommandSpec, Event, Expectation, Game, Param, Result, Setup
from ...errors import BadSetup, MovedOn, UnknownCommand, WrongPlayer
from ...text import LANGUAGES, command_word
from ..views import plain, state_fields
from .actions import CARD_NAMES, ActionCards
from .box import box_cards, check_box, without_lost_young_man
from .cards import (
    AVID_READER,
    BLUE_DIE,
    LOST_YOUNG_MEN,
    MAX_PERSONA_DECK,
    MIN_DECK_PER_QUEUE,
    PERSONA_CARDS,
    QUEUE_LENGTH,
    RED_DIE,
    card_key,
)
from .commands import (
    COMMANDS,
    CONCENTRATION_PARAM,
    MAX_KEPT_POPO,
    OPERATIONS,
    REPLAYED_ONLY,
    RESERVE_POPO,
)
from .corrections import Corrections
from .effects import applied_by_companion
from .light import LightTracking
from .model import (
    Kind,
    PermanentView,
    Phase,
    QueueView,
    ReserveView,
    State,
    TieBreakView,
    View,
)
from .queues import slot_view
from .sentences import effect_line, event_key, render

# ``action``: an Action card as free text, replayed only (see ``parse``).
REPLAYED_ACTION = REPLAYED_ONLY[0]


class BathroomRush(ActionCards, Corrections, LightTracking):
    key = "bathroom-rush"
    title = "Bathroom Rush"
    menu_order = 3
    min_players = 2
    max_players = 4
    variants: ClassVar[dict[str, str]] = {
        "first-game": "Tips for first games: orange and red Personas have no special effect.",
        "no-yellow": "For new players: yellow Personas have no special effect either, and the "
                     "Lost Young Man is taken out of the Persona deck.",
        "keep-playing": "Nobody leaves the game: reaching the popò limit no longer eliminates; "
                        "everyone keeps playing until the end.",
        "keep-behind": "Decompressing does not replace the Persona behind the player.",
        "light-tracking": "A scorekeeper, not a referee: the queues stay on the table; the "
                          "companion keeps the reserves, the rolls, the cleanup's tokens (one "
                          "entry per player), the end, the count and the tie-break.",
    }
    # Setup options: how many Persona cards the deck holds (the box's 50
    # unless the table plays with fewer or more).
    # Setup options, with their defaults: how many Persona cards the deck
    # holds, and the box described by its owner (none by default).
    options: ClassVar[dict[str, dict[str, Any]]] = {
        "persona_deck": {"default": PERSONA_CARDS,
                         "help": f"Persona cards in the deck ({MIN_DECK_PER_QUEUE} per queue "
                                 f"and one per player at least; {PERSONA_CARDS} in the box)"},
        "box": {"default": None,
                "help": "the box described by its owner: a list of the kinds of Persona, each "
                        "{name, colour, pipi, popo, copies}; a reveal is then the choice of a "
                        "kind still unseen"},
    }
    commands = COMMANDS
    state_fields = state_fields(State)

    # -- the starting table -------------------------------------------------

    # A variant that comes on top of others: "no yellow" is the rulebook's
    # "you may *also* avoid" the yellow cards, after the first game's tips
    # (a table starts with both; see ``Game.chosen``).
    implies: ClassVar[Mapping[str, tuple[str, ...]]] = {"no-yellow": ("first-game",)}

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        setup = super().check_setup(setup)
        unknown = set(setup.options) - set(cls.options)
        if unknown:
            raise BadSetup("refusal.takes-no-option", game=cls.key, title=cls.title,
                           unknown=", ".join(sorted(unknown)),
                           allowed=", ".join(sorted(cls.options)))
        players = len(setup.players)
        least = (players + 1) * QUEUE_LENGTH + players
        if setup.options.get("box") is not None:
            kinds = check_box(setup.options["box"])
            in_box = box_cards(kinds)
            if setup.options.get("persona_deck", in_box) != in_box:
                raise BadSetup("refusal.box-deck-disagree", game=cls.key, in_box=in_box,
                               deck=setup.options["persona_deck"])
            if "no-yellow" in setup.variants:
                in_box = box_cards(without_lost_young_man(kinds))
            if in_box < least:
                raise BadSetup("refusal.box-too-small", game=cls.key, in_box=in_box,
                               players=players, least=least)
            return setup
        deck = setup.options.get("persona_deck", PERSONA_CARDS)
        if (not isinstance(deck, int) or isinstance(deck, bool)
                or not least <= deck <= MAX_PERSONA_DECK):
            raise BadSetup("refusal.deck-range", game=cls.key, players=players, least=least,
                           most=MAX_PERSONA_DECK, queues=players + 1, raw=repr(deck))
        if "no-yellow" in setup.variants and deck - LOST_YOUNG_MEN < least:
            raise BadSetup("refusal.no-yellow-deck", game=cls.key, least=least)
        return setup

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {**super().describe(),
                "options": {name: dict(option) for name, option in cls.options.items()}}

    @property
    def starting_deck(self) -> int:
        """The Persona cards shuffled at setup: the deck chosen, without the
        Lost Young Man for beginners without yellow effects."""
        if self.setup.options.get("box") is not None:
            return box_cards(self._box_kinds())
        deck: int = self.setup.options.get("persona_deck", PERSONA_CARDS)
        if "no-yellow" in self.setup.variants:
            deck -= LOST_YOUNG_MEN
        return deck

    def _box_kinds(self) -> list[Kind]:
        """The kinds of the box played with (none without a box)."""
        if self.setup.options.get("box") is None:
            return []
        kinds = check_box(self.setup.options["box"])
        if "no-yellow" in self.setup.variants:
            kinds = without_lost_young_man(kinds)
        return kinds

    def start(self) -> None:
        self.box = self._box_kinds()
        self.box_seen = [0] * len(self.box)
        self.persona_deck = self.starting_deck
        self.persona_discard = 0
        self.next_id = 0
        self.queues = [] if self.light else [
            {"door": True, "slots": [self._draw([]) for _ in range(QUEUE_LENGTH)],
             "permanents": []}
            for _ in range(len(self.players) + 1)
        ]
        self.reserves = [{"pipi": 0, "popo": 0, "eliminated": False} for _ in self.players]
        self.first_player = 0
        self.round = 0
        self.round_order = []
        self.turn = 0
        self.phase = Phase.SETUP
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
        self.pending = []
        self.attack = None
        if self.light:
            # No queue to choose: the first round starts at once.
            self._start_round([])

    # -- commands -------------------------------------------------------------

    def apply(self, command: Command) -> list[Event]:
        events = super().apply(command)
        # After any command of phase D (a queue operation too), the next
        # effect whose condition still holds is the one waited for.
        self._advance_effects(events)
        return events

    def _check_aimed(self, spec: CommandSpec, args: dict[str, Any]) -> None:
        """A reveal or a target names what its phone showed at the place
        (``persona``, ``aimed``): refused when the game no longer waits for
        that there.  Taken out of the arguments: the rules need only the
        place."""
        persona = args.pop("persona", None) if spec.name in ("reveal", "reveal-kind") else None
        aimed = args.pop("aimed", None) if spec.name == "target" else None
        if persona is None and aimed is None:
            return
        queue, position = args["queue"], args["position"]
        wanted = (persona if aimed is None else aimed)
        waiting = [e for e in self.expected() if e.command == spec.name
                   and e.args.get("queue") == queue and e.args.get("position") == position]
        held = [e.args.get("persona" if aimed is None else "aimed") for e in waiting]
        if str(wanted).strip().lower() not in {str(h).lower() for h in held}:
            raise MovedOn("refusal.moved-on", game=self.key, queue=queue, position=position,
                          now=self._waits_for())

    @classmethod
    def spec(cls, name: str) -> CommandSpec:
        """A command's spec; ``action``, no longer offered, is still found so
        that the journals holding it replay (see :meth:`parse`)."""
        try:
            return super().spec(name)
        except UnknownCommand:
            if name.strip().lower() == REPLAYED_ACTION.name:
                return REPLAYED_ACTION
            raise

    def parse(self, command: Command) -> tuple[CommandSpec, dict[str, Any]]:
        """Check a command's name and arguments, the commands of earlier
        versions included, so that every game already in a journal replays
        to the same table.  Nothing offers those any more (they are not in
        ``commands``, hence not in the CLI's list, the panel, the button
        menu or the API's description):

        - ``action card=<free text>``: any Action card named as text, its
          effect applied by hand with the queue commands, then ``end-turn``.
          Every card the rulebook names is now picked by name with ``play``
          (free text is a ``note``); it is accepted when ``play`` is.
        - ``decompress concentration=yes``: Concentration before it was a
          card of ``play``; it decompresses with Concentration.
        - ``decompress`` in light tracking, where the red die rolled at the
          player's choice is now the decompression: accepted when that roll
          is, and the red die comes next as it did.
        """
        if command.name.strip().lower() == "decompress" and "concentration" in command.args:
            args = dict(command.args)
            raw = args.pop("concentration")
            spec, parsed = super().parse(Command(command.name, args))
            if raw is not None and CONCENTRATION_PARAM.coerce(raw, self):
                parsed["concentration"] = True
            return spec, parsed
        return super().parse(command)

    def _check_tie_break_order(self, spec: CommandSpec, args: dict[str, Any]) -> None:
        """A tie-break roll comes in seating order: one for a player whose
        turn to roll is still to come is refused, naming who rolls next."""
        player = args.get("player")
        if (self.phase == Phase.TIE_BREAK and spec.name == "roll"
                and isinstance(player, int) and player in self.tie_pending[1:]):
            raise WrongPlayer("refusal.tie-break-order", game=self.key,
                              player=self.players[player],
                              next=self.players[self.tie_pending[0]])

    def check_expected(self, spec: CommandSpec, args: dict[str, Any]) -> None:
        """Besides what every game checks: a reveal or a target that names
        what is no longer waited for at its place, and a tie-break roll out
        of seating order, are refused."""
        self._check_aimed(spec, args)
        self._check_tie_break_order(spec, args)
        if spec is REPLAYED_ACTION:
            return super().check_expected(self.spec("play"), args)
        if (spec.name == "decompress" and self.light and self.phase == Phase.E
                and self.step != "decompress"):
            # The light choice waits for the roll that decompresses: the
            # same player, the same moment.
            waits = self.expected()
            if any(e.command == "roll" for e in waits):
                player = args.get("player")
                seat = self._turn_seat()
                if player is not None and player != seat:
                    raise WrongPlayer("refusal.wrong-player", game=self.key,
                                      player=self.players[player],
                                      command=command_word(spec.name),
                                      waiting=self.players[seat])
                args["player"] = seat
                return None
        return super().check_expected(spec, args)

    def parse_words(self, words: Sequence[str] | str) -> Command:
        """``play Give Up Your Place`` (or its Italian name, ``play Cedi il
        posto``): every word but ``name=value`` ones is the card's name.
        The same for ``action``, which only replays (see :meth:`parse`)."""
        if isinstance(words, str):
            words = words.split()
        words = list(words)
        first = words[0].strip().lower() if words else ""
        if first in ("action", "play"):
            named = [w for w in words[1:] if "=" in w]
            card = " ".join(w for w in words[1:] if "=" not in w)
            if card and first == "play":
                card = card_key(card).replace(" ", "-")
            if card:
                words = [words[0], "card=" + card, *named]
        return super().parse_words(words)

    # -- what the table can ask --------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    def param_range(self, param: Param) -> tuple[int | None, int | None]:
        if param.name == "queue":
            return 1, len(self.queues)
        if param is RESERVE_POPO:
            return 0, (MAX_KEPT_POPO if self.keep_playing else self.popo_limit - 1)
        return param.low, param.high

    def expected(self, lang: str = "en") -> list[Expectation]:
        """What the game waits for, its prompts in ``lang``."""
        def wait(command: str, key: str, data: dict[str, Any], **more: Any) -> Expectation:
            return Expectation(command, render(key, lang, data), **more)

        if self.phase == Phase.SETUP:
            seat = self.chooser
            free = ", ".join(str(q) for q in self.free_queues())
            return [wait("choose-queue", "prompt.choose-queue", {**self._who(seat), "free": free},
                         player=seat)]
        if self.light:
            return self._light_waits(lang)
        covering = self._covering_reveals()
        if self.phase in (Phase.A, Phase.COUNT) or covering:
            key = ("prompt.reveal.on-top" if covering else
                   "prompt.reveal.count" if self.phase == Phase.COUNT else "prompt.reveal")
            # With a box, every reveal as a kind comes first (one tap each);
            # the same places with what is printed follow, for a card the
            # box does not hold.
            kinds = []
            printed = []
            for q, i in covering or self._pending_reveals():
                args = {"queue": q, "position": i + 1, "persona": self.card_at(q, i + 1)}
                if self.box:
                    asked = "prompt.reveal-kind.on-top" if covering else "prompt.reveal-kind"
                    kinds.append(wait("reveal-kind", asked, self._at(q, i), args=args))
                printed.append(wait("reveal", key, self._at(q, i), args=args))
            return kinds + printed
        if self.phase == Phase.TIE_BREAK:
            return [wait("roll", "prompt.roll.tie-break", self._who(s), player=s, dice=RED_DIE)
                    for s in self.tie_pending[:1]]
        turn = self.active()
        if turn is None:
            return []
        seat = turn
        who = self._who(seat)
        if self.phase == Phase.D:
            return self._effect_waits(seat, lang)
        if self.phase != Phase.E:
            return []
        if self.step == "decompress":
            return [wait("roll", "prompt.roll.decompress", who, player=seat, dice=RED_DIE)]
        if self.attack is not None:
            return self._card_waits(seat, lang)
        if self.step == "action":
            card = {"card": self.action_card}
            named = next((k for k, v in CARD_NAMES.items() if v == self.action_card), None)
            if named is not None:
                # A card of the list is said by its name in ``lang``.
                card["card_id"] = named
            return ([wait("end-turn", "prompt.end-turn", {**who, **card}, player=seat)]
                    + self._operation_waits(lang))
        # The turn's three choices, asked as one question.
        return [self._play_wait(seat, lang, "prompt.choose")] + [
            wait(name, f"prompt.{name}", who, player=seat) for name in ("decompress", "pass")]

    def prompts_in(self, lang: str) -> list[str] | None:
        return [e.prompt for e in self.expected(lang)]

    def _light_waits(self, lang: str) -> list[Expectation]:
        """Light tracking waits for the end of a turn (or a decompression),
        one entry per player at the cleanup and at the final count."""
        def wait(command: str, key: str, seat: int, **more: Any) -> Expectation:
            return Expectation(command, render(key, lang, self._who(seat)), player=seat,
                               **more)

        if self.phase == Phase.TIE_BREAK:
            return [wait("roll", "prompt.roll.tie-break", s, dice=RED_DIE)
                    for s in self.tie_pending[:1]]
        if self.phase == Phase.CLEANUP:
            return ([wait("bathroom-tokens", "prompt.bathroom-tokens", s, args={"player": s})
                     for s in self.pending]
                    + [self._reached_wait(s, lang) for s in self.live_clockwise(self.first_player)
                       if s not in self.arrived])
        if self.phase == Phase.COUNT:
            return [wait("count-tokens", "prompt.count-tokens", s, args={"player": s})
                    for s in self.pending]
        seat = self.active()
        if self.phase != Phase.E or seat is None:
            return []
        if self.step == "decompress":
            return [wait("roll", "prompt.roll.decompress", seat, dice=RED_DIE)]
        if self.attack is not None:
            return self._card_waits(seat, lang)
        others = [s for s in self.live_clockwise(self.first_player) if s not in self.arrived]
        # A decompression is its die, one tap: the red die rolled at the
        # player's choice is the decompression.  Concentration and the Empty
        # Bottle, which act on the reserve, are picked by name.
        return ([wait("end-turn", "prompt.end-turn.light", seat),
                 wait("roll", "prompt.roll.decompress.light", seat, dice=RED_DIE),
                 self._play_wait(seat, lang),
                 Expectation("take-tokens", render("prompt.take-tokens", lang, {}))]
                + [self._reached_wait(s, lang) for s in others])

    def _reached_wait(self, seat: int, lang: str) -> Expectation:
        """Anyone may say a player reached the bathroom, at any moment: the
        player is the command's argument, not whose turn it is (the panel
        keeps it among the other moves, not as a turn of every player)."""
        return Expectation("reached", render("prompt.reached", lang, self._who(seat)),
                           args={"player": seat})

    def _effect_waits(self, seat: int, lang: str) -> list[Expectation]:
        """Phase D waits for one effect at a time: it happens (a roll of
        the blue die for the Avid Reader) or a Queue Defence blocks it."""
        current = self._current_effect()
        if current is None:
            return []
        _, q, i, p = current
        data = {**self._who(seat), **self._of(p, q, i)}
        ref = data["persona"]
        if self._reader_pending():
            happen = Expectation("roll", render("prompt.effect.avid-reader", lang, data),
                                 player=seat, dice=BLUE_DIE)
        elif card_key(p["name"]) == AVID_READER:
            happen = Expectation("effect", render("prompt.effect.avid-reader.nobody", lang, data),
                                 player=seat)
        elif applied_by_companion(p):
            happen = Expectation("effect", render(f"prompt.effect.{ref}", lang, data),
                                 player=seat)
        else:
            # Without a box the companion cannot name the card: the table
            # is told what to do, and how to have every card named.
            key = "prompt.effect.other" if self.box else "prompt.effect.other.no-box"
            happen = Expectation("effect", render(key, lang, data), player=seat)
        block = Expectation("defend", render("prompt.defend", lang, data), player=seat)
        waits = [happen, block]
        if not applied_by_companion(p):
            waits += self._operation_waits(lang)
        return waits

    def _operation_waits(self, lang: str) -> list[Expectation]:
        return [Expectation(name, render(f"prompt.{name}", lang, {})) for name in OPERATIONS]

    @classmethod
    def event_text(cls, event: Event, lang: str) -> str:
        """An event said again in ``lang``, from its kind and data."""
        return render(event_key(event.kind, event.data), lang, event.data)

    def result(self) -> Result | None:
        if not self.over:
            return None
        return Result(tuple(self.winners), tuple(self.scores or ()), self.outcome,
                      said=self._outcome_said())

    def _outcome_said(self) -> dict[str, str]:
        """How the game ended in the other languages: the English sentence's
        data found again among the ways a game ends."""
        ways: list[dict[str, Any]] = [{"how": "nobody"}, {"how": "no-winner"}]
        for seat in self.winners[:1]:
            ways += [{**self._who(seat), "how": "last"},
                     {**self._who(seat), "score": self.score(seat), "how": "wins"}]
        for data in ways:
            key = event_key("game-over", data)
            if render(key, "en", data) == self.outcome:
                return {lang: render(key, lang, data) for lang in LANGUAGES if lang != "en"}
        return {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        game = super().from_json(data)
        assert isinstance(game, BathroomRush)
        game.phase = Phase(game.phase)
        game.attack = copy.deepcopy(data["state"].get("attack"))
        return game

    def view(self, lang: str = "en") -> dict[str, Any]:
        found: dict[str, Any] = plain(self.state_view(lang))
        if self.attack is not None:
            # The Action card being applied, for the picture of the queues.
            found["attack"] = self._attack_view()
        play = next((e for e in self.expected(lang) if e.command == "play"), None)
        if play is not None and play.player is not None:
            # The Action cards that can be played now (kept only while one
            # may be, so that the other views read as before).
            found["playable"] = self.playable(play.player)
        # The Infamous Person under the Persona placed on him (kept only
        # while there is one, so that the views of other games read as before).
        for q, queue in enumerate(self.queues):
            for i, slot in enumerate(queue["slots"]):
                if "covers" in slot:
                    found["queues"][q]["slots"][i]["covers"] = plain(
                        slot_view(self.players, i, slot["covers"]))
        return found

    # -- the Action card being applied: kept only while there is one, so
    # that the journals of games without one read as before -------------------

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.attack is not None:
            data["state"]["attack"] = copy.deepcopy(self.attack)
        return data

    def dumps(self) -> str:
        if self.attack is None:
            return super().dumps()
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False)

    def state_view(self, lang: str = "en") -> View:
        """The public table, as :class:`.model.View`."""
        fq = self.free_queue()
        queues = []
        permanents = []
        for q, queue in enumerate(self.queues, 1):
            queues.append(QueueView(
                index=q,
                door=queue["door"],
                player=self.player_in(q) if queue["door"] else None,
                free=q == fq,
                slots=[slot_view(self.players, i, slot) for i, slot in enumerate(queue["slots"])],
                permanents=[c.copy() for c in queue["permanents"]],
            ))
            permanents += [PermanentView(q, c["card"], c["pipi"], c["popo"])
                           for c in queue["permanents"]]
        reserves = []
        for seat, r in enumerate(self.reserves):
            place = self.locate(seat)
            reserves.append(ReserveView(
                seat=seat, name=self.players[seat],
                pipi=r["pipi"], popo=r["popo"], eliminated=r["eliminated"],
                popo_limit=self.popo_limit, score=self.score(seat),
                over_limit=r["popo"] >= self.popo_limit,
                queue=place[0] if place else None,
                position=place[1] if place else None,
                in_bathroom=bool(place and place[1] == 1),
            ))
        # Phase D's list, as data; each line is said in ``lang``, and again
        # in every other language (``effects_said``), so that a screen in
        # French or Italian shows the game's own sentences.
        effects = self._effect_data() if self.phase == Phase.D else []
        return View(
            phase=self.phase,
            phase_name=render(f"phase.{self.phase}", lang, {}),
            step=self.step,
            round=self.round,
            active=self.active(),
            first_player=self.first_player,
            free_queue=fq,
            queues=queues,
            permanents=permanents,
            reserves=reserves,
            effects=[effect_line(e, lang) for e in effects],
            effects_said={other: [effect_line(e, other) for e in effects]
                          for other in LANGUAGES if other != "en" and effects},
            action_card=self.action_card,
            final_round=self.final_round,
            arrived=list(self.arrived),
            tie_break=(TieBreakView(list(self.tie_group), list(self.tie_pending))
                       if self.phase == Phase.TIE_BREAK else None),
            persona_deck=self.persona_deck,
            popo_limit=self.popo_limit,
            eliminates=not self.keep_playing,
            persona_discard=self.persona_discard,
            box=self.box_view() if self.box else None,
            scores=list(self.scores or ()) if self.over else None,
            winners=list(self.winners) if self.over else [],
            message=self.outcome,
        )
