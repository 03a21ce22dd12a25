"""A command acts on what its phone showed: a reveal names the Persona
card, a target what stood at the place; the table refuses it, in its lock,
when that is no longer what the game waits for there."""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from companion.core.errors import MovedOn
from companion.core.games.bathroom_rush import BathroomRush
from tests.test_bathroom_rush import ANA, new_game, position
from tests.words import play

TABLE = ["n1 n2 Ana n3", "n2 Ben n1", "n1 Cy o1", "n3 n1"]


def reveals(game):
    return [e for e in game.expected() if e.command == "reveal"]


def revealed(exp, pipi=1):
    return Command("reveal", {**exp.args, "pipi": pipi, "popo": 0, "colour": "neutral"})


def started():
    game = new_game()
    play(game, "choose-queue 1", "choose-queue 2", "choose-queue 3")
    assert len(reveals(game)) >= 2
    return game


def test_each_reveal_waited_for_names_its_persona_card():
    game = started()
    waits = reveals(game)
    cards = [e.args["persona"] for e in waits]
    assert len(set(cards)) == len(cards)
    for e in waits:
        assert game.persona(e.args["queue"], e.args["position"])["id"] == e.args["persona"]


def test_a_second_reveal_of_the_same_persona_is_refused_and_says_what_waits_now():
    game = started()
    first = reveals(game)[0]
    game.apply(revealed(first))
    before = game.dumps()
    with pytest.raises(MovedOn) as caught:
        game.apply(revealed(first, pipi=2))
    assert game.dumps() == before
    now = reveals(game)[0]
    assert str(caught.value).startswith(
        f"another move came first: the game no longer waits for that at queue "
        f"{first.args['queue']}, place {first.args['position']}; it waits for: ")
    assert now.prompt in str(caught.value)
    assert caught.value.rule == "moved-on"
    # In the phone's language too.
    assert caught.value.say("fr").startswith("un autre coup est passé avant")
    assert caught.value.say("it").startswith("un'altra mossa è arrivata prima")


def test_a_reveal_naming_another_card_than_the_one_at_the_place_is_refused():
    game = started()
    first, second = reveals(game)[:2]
    wrong = Command("reveal", {**revealed(second).args, "persona": first.args["persona"]})
    before = game.dumps()
    with pytest.raises(MovedOn):
        game.apply(wrong)
    assert game.dumps() == before
    game.apply(revealed(second))
    assert game.persona(second.args["queue"], second.args["position"])["revealed"]


def test_a_reveal_without_a_card_named_still_plays_as_before():
    game = started()
    first = reveals(game)[0]
    args = {k: v for k, v in revealed(first).args.items() if k != "persona"}
    game.apply(Command("reveal", args))
    assert game.persona(first.args["queue"], first.args["position"])["revealed"]


def test_a_target_names_who_stood_at_the_place():
    game = position(TABLE)
    play(game, "play card=give-up-your-place")
    waits = [e for e in game.expected() if e.command == "target"]
    assert [e.args["aimed"] for e in waits] == ["player 0", "player 1", "player 2"]
    # Aimed at Ben, at a place Cy holds: refused; at Ben's own, accepted.
    ben, cy = waits[1], waits[2]
    before = game.dumps()
    with pytest.raises(MovedOn):
        game.apply(Command("target", {**cy.args, "aimed": ben.args["aimed"]}))
    assert game.dumps() == before
    game.apply(Command("target", dict(ben.args)))
    assert game.attack["target"] == [2, 2]


def test_what_a_phone_showed_is_never_read_from_words():
    game = position(TABLE)
    spec = BathroomRush.spec("target")
    assert [p.name for p in spec.params if p.named] == ["aimed"]
    play(game, "play card=give-up-your-place", "target 2 2")
    assert game.active() == ANA
