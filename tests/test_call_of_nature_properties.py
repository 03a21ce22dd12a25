"""Call of Nature played at random: what must hold after every command.

``legal_commands(game)`` draws a command the game accepts now, from what it
says it expects; table-level tests reuse it.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from companion.core.engine import Command, Setup
from companion.core.errors import GameIsOver, IllegalCommand
from companion.core.games.call_of_nature.game import CallOfNature
from companion.core.games.call_of_nature.model import HAND_SIZE, MAX_MASTERY, MAX_SET_PRESSURE

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
MAX_STEPS = 300
JUNK_EVERY = 4  # steps between two junk commands tried on a copy


def legal_commands(game: CallOfNature, *, corrections: bool = False) -> SearchStrategy[Command]:
    """A command that ``game`` accepts now: an answer to one of its
    expectations, or with ``corrections`` (one time in ten) a correction
    that changes something.  Nothing once the game is over."""
    if game.over:
        return st.nothing()
    return _legal_command(game, corrections)


# Built as one composite of plain integer draws: strategies made afresh at
# every step would be validated afresh, which dominates a random game's time.
@st.composite
def _legal_command(draw, game: CallOfNature, corrections: bool) -> Command:
    waits = game.expected()
    # One draw picks the answer: mostly the first expectation (a Pressure card
    # during play), sometimes another, one time in ten a correction.
    pick = draw(st.integers(0, 9))
    if corrections and pick == 9:
        return _correction(draw, game)
    wait = waits[0] if pick < 7 else waits[pick % len(waits)]
    # The acting player is named or left for the game to fill in.
    player = draw(st.sampled_from((wait.player, None)))
    if wait.command == "card":
        low, high = game.card_values()
        # The simplest draw is the highest card, so that the simplest game
        # ends soon; upward cards weigh double so that random games end.
        raw = draw(st.integers(0, high + (high - low + 1)))
        value = high - raw if raw <= high else low + raw - high - 1
        return Command("card", {"value": value, "player": player})
    if wait.command == "special":
        card = draw(st.sampled_from(game.specials_in_deck()))
        return Command("special", {"card": card, "player": player})
    if wait.command == "roll":
        values = [draw(st.integers(1, wait.dice.sides)) for _ in range(wait.dice.count)]
        return Command("roll", {"values": values, "player": player})
    if wait.command == "held-thresholds":
        return Command("held-thresholds", {"count": draw(st.integers(0, HAND_SIZE)),
                                           "player": player})
    raise AssertionError(f"no strategy for {wait.command}")


CORRECTIONS_DURING_PLAY = ("adjust-mastery", "note", "set-pressure", "skip", "reverse",
                           "new-round", "set-draw-pile")
CORRECTIONS_AT_THE_END = CORRECTIONS_DURING_PLAY[:2]


def _correction(draw, game: CallOfNature) -> Command:
    names = CORRECTIONS_AT_THE_END if game.exploded is not None else CORRECTIONS_DURING_PLAY
    name = draw(st.sampled_from(names))
    seats = len(game.players)
    if name == "adjust-mastery":
        living = [s for s in range(seats) if s != game.exploded]
        seat = living[draw(st.integers(0, len(living) - 1))]
        deltas = [d for d in range(-MAX_MASTERY, MAX_MASTERY + 1)
                  if min(MAX_MASTERY, max(0, game.mastery[seat] + d)) != game.mastery[seat]]
        delta = deltas[draw(st.integers(0, len(deltas) - 1))]
        return Command(name, {"player": seat, "delta": delta})
    if name == "note":
        return Command(name, {"text": "U-TURN was played"})
    if name == "set-pressure":
        # Any pressure but the current one.
        value = draw(st.integers(0, MAX_SET_PRESSURE - 1))
        return Command(name, {"value": value + (value >= game.pressure)})
    if name == "new-round":
        return Command(name, {"player": draw(st.integers(0, seats - 1))})
    if name == "set-draw-pile":
        cards_out = game.deck_size() - HAND_SIZE * seats
        count = draw(st.integers(1, cards_out - 1))
        return Command(name, {"count": count + (count >= game.draw_pile)})
    return Command(name)


def _any_command() -> SearchStrategy[Command]:
    names = st.sampled_from([spec.name for spec in CallOfNature.commands] + ["flush", ""])
    keys = st.sampled_from(["value", "player", "card", "values", "count", "delta", "text", "x"])
    values = st.one_of(st.none(), st.integers(-300, 300), st.text(max_size=5),
                       st.lists(st.integers(-2, 9), max_size=3), st.booleans())
    return st.builds(Command, names, st.dictionaries(keys, values, max_size=3))


# Anything a button, the panel or a typo could send.
ANY_COMMAND = _any_command()


@st.composite
def setups(draw) -> Setup:
    count = draw(st.integers(CallOfNature.min_players, CallOfNature.max_players))
    variants = draw(st.frozensets(st.sampled_from(sorted(CallOfNature.variants))))
    return Setup(NAMES[:count], variants)


def check_invariants(game: CallOfNature) -> None:
    n = len(game.players)
    assert all(0 <= m <= MAX_MASTERY for m in game.mastery)
    assert game.pressure >= 0
    assert game.draw_pile >= 1
    assert game.draw_pile + game.played_pile + HAND_SIZE * n == game.deck_size()
    waits = game.expected()
    assert game.over == (not waits)
    for wait in waits:
        assert wait.player is not None and wait.player != game.exploded
    acting = game.view()["active"]
    assert (acting is None) == game.over
    assert acting != game.exploded
    # Lossless and plain: through real JSON text and back.
    copy = CallOfNature.from_json(json.loads(json.dumps(game.to_json())))
    assert copy == game and copy.dumps() == game.dumps()
    view = game.view()
    assert json.loads(json.dumps(view)) == view
    assert view["next_threshold"] == next((t for t in (31, 61, 91) if game.pressure < t), None)


def check_refusal_changes_nothing(game: CallOfNature, command: Command) -> None:
    trial = CallOfNature.loads(game.dumps())
    before = trial.dumps()
    try:
        trial.apply(command)
    except IllegalCommand:
        assert trial.dumps() == before
    else:
        check_invariants(trial)


def check_effect(before: CallOfNature, command: Command, after: CallOfNature) -> None:
    """What one accepted command may change."""
    changed = [s for s in range(len(after.players)) if before.mastery[s] != after.mastery[s]]
    name = command.name
    if name in ("card", "special", "held-thresholds"):
        actor = before.expected()[0].player
        assert set(changed) <= {actor}
    if name == "card":
        value = command.args["value"]
        assert after.mastery[actor] <= before.mastery[actor]
        if after.round_number == before.round_number:
            assert after.pressure == max(0, before.pressure + value)
    if name in ("special", "set-pressure", "skip", "reverse", "new-round", "set-draw-pile",
                "note"):
        assert changed == []
    if name == "special" and command.args["card"] != "u-turn":
        assert after.direction == before.direction
    if name in ("special", "set-pressure", "skip", "reverse", "set-draw-pile", "note"):
        assert after.round_number == before.round_number
    if name == "set-pressure":
        assert after.respite == before.respite


@given(setup=setups(), data=st.data())
def test_random_legal_games_keep_every_invariant(setup, data):
    game = CallOfNature(setup)
    check_invariants(game)
    for step in range(MAX_STEPS):
        if game.over:
            break
        command = data.draw(legal_commands(game, corrections=True), label="command")
        before = CallOfNature.loads(game.dumps())
        game.apply(command)
        check_invariants(game)
        check_effect(before, command, game)
        if step % JUNK_EVERY == 0:
            check_refusal_changes_nothing(game, data.draw(ANY_COMMAND, label="junk"))
    if game.over:
        result = game.result()
        assert game.exploded not in result.winners
        best = max(m for s, m in enumerate(game.mastery) if s != game.exploded)
        assert all(game.mastery[s] == best for s in result.winners)
        frozen = game.dumps()
        for command in (Command("card", {"value": 0}), Command("roll", {"values": [3, 3]}),
                        Command("note", {"text": "late"})):
            try:
                game.apply(command)
            except GameIsOver:
                pass
            else:
                raise AssertionError(f"{command} was accepted after the game was over")
            assert game.dumps() == frozen


def check_events(before: CallOfNature, events, after: CallOfNature) -> None:
    """The events of one rules command tell exactly what changed."""
    seats = range(len(after.players))
    moved = [0] * len(after.players)
    for event in events:
        if event.kind in ("threshold-fired", "respite-rolled", "end-roll") \
                and "after" in event.data:
            moved[event.data["player"]] += event.data["after"] - event.data["before"]
    assert moved == [after.mastery[s] - before.mastery[s] for s in seats]
    fired = [e.data["threshold"] for e in events if e.kind == "threshold-fired"]
    assert fired == sorted(fired)
    played = [e for e in events if e.kind == "pressure-changed"]
    if played:
        start, end = played[0].data["before"], played[0].data["after"]
        assert fired == [t for t in (31, 61, 91) if start < t <= end][:len(fired)]
    ended = any(e.kind == "round-ended" for e in events)
    assert ended == (after.round_number == before.round_number + 1)
    assert ended == (91 in fired and after.exploded is None)
    assert any(e.kind == "player-eliminated" for e in events) == (
        before.exploded is None and after.exploded is not None)
    assert any(e.kind == "game-over" for e in events) == after.over
    assert all(e.message for e in events)


@given(setup=setups(), data=st.data())
def test_events_of_random_games_tell_exactly_what_changed(setup, data):
    game = CallOfNature(setup)
    for _ in range(MAX_STEPS):
        if game.over:
            break
        before = CallOfNature.loads(game.dumps())
        events = game.apply(data.draw(legal_commands(game), label="command"))
        check_events(before, events, game)
