"""Bathroom Rush played at random: what must hold after every command.

``legal_commands(game)`` draws a command the game accepts now, from what it
says it expects; table-level tests reuse it.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from companion.core.engine import Command, Expectation, Setup
from companion.core.errors import GameIsOver, IllegalCommand
from companion.core.games.bathroom_rush import BathroomRush

NAMES = ("Ana", "Ben", "Cy", "Dee")
MAX_STEPS = 250
MAX_FINISH = 3000

PERSONA_NAMES = (None, "Avid Reader", "Elderly Man", "Mother with Baby", "Distracted",
                 "Infamous Person")

# The turn moves on when these are answered; the queue operations do not.
PROGRESS = ("choose-queue", "reveal", "roll", "effect", "defend", "pass", "end-turn",
            "decompress", "play", "target")
# How often each answer is drawn: mostly moving on, and often enough moving
# a player up that some games end through a card.
WEIGHTS = {**dict.fromkeys(PROGRESS, 6), "remove-front": 4, "bathroom-tokens": 6,
           "count-tokens": 6, "reached": 1}
COLOURS = ("neutral", "orange", "red", "yellow")
# What light tracking asks for besides (a player reaching the bathroom ends
# the game soon: drawn rarely).
LIGHT = ("bathroom-tokens", "count-tokens", "reached")


def legal_commands(game: BathroomRush, *, corrections: bool = False) -> SearchStrategy[Command]:
    """A command that ``game`` accepts now: an answer to one of its
    expectations, or with ``corrections`` also a correction.  Answers that
    move the turn on are drawn more often than queue operations, so that
    random games end.  Nothing once the game is over."""
    waits = [w for w in game.expected() if _available(game, w)]
    if not waits:
        return st.nothing()
    weighted = [w for w in waits for _ in range(WEIGHTS.get(w.command, 1))]
    if corrections:
        weighted.append(None)
    return _legal(game, weighted)


@st.composite
def _legal(draw, game: BathroomRush, weighted: list[Expectation | None]) -> Command:
    wait = draw(st.sampled_from(weighted))
    if wait is None:
        return _correction(draw, game)
    return _answer(draw, game, wait)


def _answer(draw, game: BathroomRush, wait: Expectation) -> Command:
    name = wait.command
    if name == "choose-queue":
        free = [q for q in range(1, len(game.queues) + 1) if game.player_in(q) is None]
        return Command(name, {"queue": draw(st.sampled_from(free)),
                              "player": draw(st.sampled_from([wait.player, None]))})
    if name == "reveal":
        return Command(name, {**wait.args, "pipi": draw(st.integers(0, 3)),
                              "popo": draw(st.sampled_from([0, 0, 0, 1])),
                              "colour": draw(st.sampled_from(COLOURS)),
                              "name": draw(st.sampled_from(PERSONA_NAMES))})
    if name == "roll":
        return Command(name, {"values": [draw(st.integers(1, wait.dice.sides))],
                              "player": draw(st.sampled_from([wait.player, None]))})
    if name in ("effect", "defend", "pass", "end-turn"):
        return Command(name, {"player": draw(st.sampled_from([wait.player, None]))})
    if name == "play":
        return Command(name, {"card": draw(st.sampled_from(_playable(game))),
                              "player": draw(st.sampled_from([wait.player, None]))})
    if name == "target":
        return Command(name, dict(wait.args))
    if name in ("bathroom-tokens", "count-tokens"):
        return Command(name, {**wait.args, "pipi": draw(st.integers(0, 4)),
                              "popo": draw(st.sampled_from([0, 0, 0, 1]))})
    if name == "reached":
        return Command(name, dict(wait.args))
    if name == "decompress":
        return Command(name, {"concentration": draw(st.booleans())})
    return _operation(draw, game, name)


def _playable(game: BathroomRush) -> list[str]:
    """The Action cards by name that have something to strike now."""
    if game.light:
        return ["concentration", "empty-bottle"]
    seat = game.active()
    can_draw = game.persona_deck + game.persona_discard > 0
    cards = ["swap", "sneeze", "desperate-scream", "concentration", "empty-bottle"]
    if can_draw and game.free_queue() is not None:
        cards.append("change-queue")
    cards += [card for card in ("give-up-your-place", "cunning", "cleaner")
              if game._targets(card, seat)]
    return cards


def _targets(game: BathroomRush, name: str) -> list:
    """Whom or where a queue operation can act now: players it may be
    played against with a Persona to act on, or (queue, ...) places."""
    movable = [s for s in game.live_seats() if not game.protected(s)]
    places = {s: game.locate(s) for s in movable}
    can_draw = game.persona_deck + game.persona_discard > 0
    doors = [q for q in range(1, len(game.queues) + 1) if game.queues[q - 1]["door"]]
    open_doors = [q for q in doors
                  if game.player_in(q) is None or not game.protected(game.player_in(q))]
    if name in ("swap-behind", "pass-in-front"):
        return [s for s, (q, p) in places.items() if game.persona(q, p + 1)]
    if name == "remove-front":
        return [s for s, (q, p) in places.items() if p > 1]
    if name == "remove-behind":
        return [s for s, (q, p) in places.items()
                if game.persona(q, p + 1) and (can_draw or game.persona(q, p + 2))]
    if name == "change-queue":
        return movable if can_draw and game.free_queue() else []
    if name == "add-tokens":
        return [q for q in open_doors if game.persona(q, 1)]
    if name == "place-permanent":
        return open_doors
    if name == "remove-permanent":
        return [(q, c["card"]) for q in doors for c in game.queues[q - 1]["permanents"]]
    if name == "flip":
        return [(q, i) for q in doors for i in range(1, len(game.queues[q - 1]["slots"]) + 1)
                if (p := game.persona(q, i)) and p["revealed"] and not p["flipped"]]
    if name == "take-tokens":
        return movable
    raise AssertionError(f"no strategy for {name}")


def _available(game: BathroomRush, wait: Expectation) -> bool:
    return wait.command in PROGRESS + LIGHT or bool(
        _targets(game, wait.command))


def _operation(draw, game: BathroomRush, name: str) -> Command:
    target = draw(st.sampled_from(_targets(game, name)))
    if name in ("swap-behind", "pass-in-front", "remove-front", "remove-behind",
                "change-queue"):
        return Command(name, {"player": None if target == game.active() else target})
    if name == "add-tokens":
        return Command(name, {"queue": target, "pipi": draw(st.integers(1, 4)),
                              "popo": draw(st.sampled_from([0, 0, 1]))})
    if name == "place-permanent":
        return Command(name, {"queue": target, "pipi": draw(st.integers(-2, 2)),
                              "popo": draw(st.integers(-1, 1)), "card": "Clogged Toilet"})
    if name == "remove-permanent":
        return Command(name, {"queue": target[0], "card": target[1]})
    if name == "flip":
        return Command(name, {"queue": target[0], "position": target[1]})
    pipi = draw(st.integers(-2, 3))
    popo = draw(st.sampled_from([-1, 0, 0, 0, 1] if pipi else [-1, 1]))
    return Command(name, {"player": target, "pipi": pipi, "popo": popo})


def _correction(draw, game: BathroomRush) -> Command:
    if draw(st.booleans()):
        return Command("note", {"text": "the table checks the tokens"})
    return Command("set-reserve", {"player": draw(st.sampled_from(game.live_seats())),
                                   "pipi": draw(st.integers(0, 4)),
                                   "popo": draw(st.integers(0, game.popo_limit - 1))})


def _progress(game: BathroomRush, data) -> Command:
    """The answer that moves the game towards its end: pass, end the turn,
    resolve nothing; in a tie-break the first to roll takes the risk, so
    that a tie cannot last."""
    wait = game.expected()[0]
    if game.light and game.phase == "E" and game.step == "choose":
        if not game.final_round:
            return Command("reached", {"player": game.active()})
        return Command("end-turn", {})
    if game.light and game.phase in ("cleanup", "count"):
        name = "bathroom-tokens" if game.phase == "cleanup" else "count-tokens"
        return Command(name, {"player": game.pending[0], "pipi": 0, "popo": 0})
    if game.phase == "E" and game.step == "choose":
        return Command("pass", {})
    if game.phase == "E" and game.step == "action":
        return Command("end-turn", {})
    if game.phase == "D" and wait.command == "defend":
        # (Phase D may wait for a reveal first: the Persona put on the
        # Infamous Person; any legal answer to it moves on.)
        return Command("defend", {})
    if game.phase == "tie-break":
        return Command("roll", {"values": [4 if wait.player == game.tie_pending[0]
                                           and len(game.tie_pending) == len(game.tie_group)
                                           else 1], "player": wait.player})
    return data.draw(_legal(game, [wait]), label="progress")


def play_to_the_end(game: BathroomRush, data, check=lambda game: None) -> BathroomRush:
    """Random legal commands, then the shortest way to the end; ``check``
    looks at the game after every command."""
    check(game)
    for _ in range(data.draw(st.integers(0, MAX_STEPS), label="random steps")):
        if game.over:
            break
        game.apply(data.draw(legal_commands(game, corrections=True), label="command"))
        check(game)
    for _ in range(MAX_FINISH):
        if game.over:
            break
        game.apply(_progress(game, data))
        check(game)
    assert game.over, "a game played to its end must end"
    return game


def new_game(data) -> BathroomRush:
    players = data.draw(st.integers(2, 4), label="players")
    variants = data.draw(st.sets(st.sampled_from(sorted(BathroomRush.variants))), label="variants")
    return BathroomRush(Setup(NAMES[:players], frozenset(variants)))


@given(data=st.data())
def test_no_reserve_ever_holds_five_pipi(data):
    def check(game):
        for r in game.reserves:
            assert 0 <= r["pipi"] < 5 and r["popo"] >= 0
            assert r["eliminated"] or r["popo"] < game.popo_limit or game.keep_playing

    play_to_the_end(new_game(data), data, check)


@given(data=st.data())
def test_a_player_stands_in_one_queue_and_a_queue_holds_one_player(data):
    def check(state):
        seen = [slot["player"] for queue in state.queues for slot in queue["slots"]
                if "player" in slot]
        assert len(seen) == len(set(seen))
        if state.light:
            assert state.queues == []
        elif state.phase != "setup":
            assert sorted(seen) == state.live_seats()
            assert state.free_queue() is not None or state.over
        for queue in state.queues:
            assert sum("player" in slot for slot in queue["slots"]) <= 1
            assert queue["door"] or queue["slots"] == []

    play_to_the_end(new_game(data), data, check)


@given(data=st.data())
def test_every_state_loads_back_identical(data):
    game = new_game(data)
    for _ in range(data.draw(st.integers(1, MAX_STEPS), label="steps")):
        if game.over:
            break
        game.apply(data.draw(legal_commands(game, corrections=True), label="command"))
        again = BathroomRush.loads(game.dumps())
        assert again.dumps() == game.dumps()
        assert again.view() == game.view()
        assert again.expected() == game.expected()


@given(data=st.data())
def test_nothing_is_accepted_after_the_game_is_over(data):
    game = play_to_the_end(new_game(data), data)
    before = game.dumps()
    assert game.expected() == []
    assert game.result() is not None
    for command in (Command("pass", {}), Command("note", {"text": "late"}),
                    Command("roll", {"values": [1]}), Command("take-tokens",
                                                              {"player": 0, "pipi": 1,
                                                               "popo": 0})):
        with pytest.raises(GameIsOver):
            game.apply(command)
    assert game.dumps() == before


@given(data=st.data())
def test_a_refused_command_changes_nothing(data):
    game = new_game(data)
    for _ in range(data.draw(st.integers(1, 120), label="steps")):
        if game.over:
            break
        junk = data.draw(st.sampled_from([
            Command("roll", {"values": [5]}), Command("swap-behind", {"player": 0}),
            Command("remove-front", {"player": 1}), Command("choose-queue", {"queue": 1}),
            Command("add-tokens", {"queue": 1, "pipi": 1, "popo": 0, "position": 9}),
            Command("flip", {"queue": 2, "position": 3}), Command("effect", {}),
            Command("end-turn", {}), Command("reveal", {"queue": 1, "position": 4, "pipi": 1,
                                                        "popo": 0, "colour": "neutral"}),
        ]), label="maybe refused")
        before = game.dumps()
        try:
            game.apply(junk)
        except IllegalCommand:
            assert game.dumps() == before
        if not game.over:
            game.apply(data.draw(legal_commands(game), label="command"))


