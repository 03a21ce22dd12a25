"""Bathroom Rush's Action cards by name, as the rulebook's "Action Card
Effects" tell them: the card is picked from the list, the companion applies
it and asks only for the place or the die it leaves open; a Queue or
Bathroom Defence is offered to the player struck, when it can answer."""

from __future__ import annotations

import sqlite3

import pytest

from companion.core.engine import Command
from companion.core.errors import BadArgument, IllegalCommand, NotExpected, WrongPlayer
from companion.core.games.bathroom_rush import RED_DIE, BathroomRush
from tests.test_bathroom_rush import (
    ANA,
    BEN,
    THREE,
    commands,
    light,
    line,
    position,
    refused,
    reserve,
)
from tests.words import kinds, play

# Ana plays; Ben and Cy each have a Persona behind them; queue 4 is free.
TABLE = ["n1 n2 Ana n3", "n2 Ben n1", "n1 Cy o1", "n3 n1"]


def waits(game, command):
    return [e for e in game.expected() if e.command == command]


def test_the_action_cards_are_offered_by_name_before_the_other_choices():
    game = position(TABLE)
    assert commands(game)[0] == "play"
    spec = next(c for c in BathroomRush.commands if c.name == "play")
    card = spec.params[0]
    assert card.kind == "choice"
    assert set(card.choices) >= {"give-up-your-place", "cunning", "change-queue", "cleaner",
                                 "empty-bottle", "concentration", "swap", "sneeze"}
    assert "bathroom-defence" not in card.choices and "queue-defence" not in card.choices


def test_a_card_not_in_the_list_is_refused_and_nothing_changes():
    game = position(TABLE)
    refused(game, "play card=banana", BadArgument)


# -- Give Up Your Place: "the struck player must swap their position with that
# of the Persona behind them" -----------------------------------------------------


def test_give_up_your_place_asks_who_among_the_players_with_a_persona_behind():
    game = position(TABLE)
    play(game, "play card=give-up-your-place")
    assert [(e.args["queue"], e.args["position"]) for e in waits(game, "target")] == [
        (1, 3), (2, 2), (3, 2)]
    assert all(e.player == ANA for e in waits(game, "target"))


def test_give_up_your_place_against_another_player_offers_them_a_queue_defence():
    game = position(TABLE)
    play(game, "play card=give-up-your-place", "target queue=2 position=2")
    assert {(e.command, e.player) for e in game.expected()} == {("defend", BEN),
                                                                ("effect", BEN)}
    assert "Queue Defence" in waits(game, "defend")[0].prompt
    events = play(game, "effect")
    assert line(game, 2) == "n2 n1 Ben"
    assert "persona-moved" in kinds(events)
    assert game.active() == BEN


def test_a_queue_defence_cancels_give_up_your_place():
    game = position(TABLE)
    play(game, "play card=give-up-your-place", "target queue=2 position=2")
    events = play(game, "defend")
    assert line(game, 2) == "n2 Ben n1"
    assert "card-blocked" in kinds(events)
    assert "Ben plays a Queue Defence: Ana's Give Up Your Place is cancelled" in [
        e.message for e in events]
    assert game.active() == BEN


def test_only_the_player_struck_may_answer_with_a_defence():
    game = position(TABLE)
    play(game, "play card=give-up-your-place", "target queue=2 position=2")
    refused(game, "defend player=Cy", WrongPlayer)
    refused(game, "defend player=Ana", WrongPlayer)


def test_give_up_your_place_on_oneself_takes_effect_at_once_without_defence():
    game = position(["n1 Ana n2", "n1 Ben", "n1 Cy", "n1 n1"])
    events = play(game, "play card=give-up-your-place")
    assert line(game, 1) == "n1 n2 Ana"
    assert "card-blocked" not in kinds(events) and game.active() == BEN


def test_give_up_your_place_with_nobody_to_strike_is_refused():
    game = position(["n1 Ana", "n1 Ben", "n1 Cy", "n1 n1"])
    error = refused(game, "play card=give-up-your-place")
    assert error.rule == "no-target"


def test_a_place_the_card_cannot_strike_is_refused():
    game = position(TABLE)
    play(game, "play card=give-up-your-place")
    error = refused(game, "target queue=4 position=1")
    assert error.rule == "no-target"
    refused(game, "target queue=1 position=1")


# -- Cunning: "remove from the queue a Persona card in front of you or behind
# you ... If in front of you, move forward; if behind, replace it with a new card
# (if it was the last) or move the queue forward behind you" ------------------------


def test_cunning_asks_which_of_the_two_neighbours_leaves():
    game = position(TABLE)
    play(game, "play card=cunning")
    assert [(e.args["queue"], e.args["position"]) for e in waits(game, "target")] == [
        (1, 2), (1, 4)]
    assert not waits(game, "defend")


def test_cunning_on_the_persona_in_front_moves_the_player_up():
    game = position(TABLE)
    play(game, "play card=cunning", "target queue=1 position=2")
    assert line(game, 1) == "n1 Ana n3"
    assert game.persona_discard == 1 and game.active() == BEN


def test_cunning_on_the_last_persona_behind_draws_a_new_one():
    game = position(TABLE)
    deck = game.persona_deck
    play(game, "play card=cunning", "target queue=1 position=4")
    assert line(game, 1) == "n1 n2 Ana ?"
    assert game.persona_deck == deck - 1


def test_cunning_on_a_persona_behind_moves_the_queue_behind_up():
    game = position(["n1 Ana n2 n3", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "play card=cunning", "target queue=1 position=3")
    assert line(game, 1) == "n1 Ana n3"


def test_cunning_with_one_neighbour_asks_nothing():
    game = position(["Ana n1 n2", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "play card=cunning")
    assert line(game, 1) == "Ana n2" and game.active() == BEN


def test_cunning_with_no_persona_around_is_refused():
    game = position(["n1 Ana", "n1 Ben n1", "n1 Cy n1", "n1"])
    game.queues[0]["slots"] = [{"player": ANA}]
    assert refused(game, "play card=cunning").rule == "no-target"


def test_a_place_that_does_not_exist_is_refused_with_the_journal_untouched(table, db_path):
    table.new_game("bathroom-rush", list(THREE))
    for q in (1, 2, 3):
        table.submit(Command("choose-queue", {"queue": q}))
    while (reveal := next((e for e in table.current().expected if e.command == "reveal"),
                          None)):
        table.submit(Command("reveal", {**reveal.args, "pipi": 1, "popo": 0,
                                        "colour": "neutral"}))
    table.submit(Command("play", {"card": "give-up-your-place"}))
    before = (table.game.dumps(), table.version)
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    with pytest.raises(IllegalCommand, match="cannot strike position 9 of queue 2"):
        table.submit(Command("target", {"queue": 2, "position": 9}))
    assert (table.game.dumps(), table.version) == before
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == rows


# -- Change Queue: "the Persona that was behind you moves forward, taking your old
# place; draw a new Persona card to place behind you in your new queue" -------------


def test_change_queue_moves_the_player_to_the_free_queue_without_asking():
    game = position(TABLE)
    play(game, "play card=change-queue")
    assert line(game, 1) == "n1 n2 n3"
    assert line(game, 4) == "n3 n1 Ana ?"
    assert game.active() == BEN


def test_change_queue_without_a_free_queue_is_refused():
    game = position(["n1 Ana n1", "n1 Ben n1", "n1 Cy n1", "-"])
    refused(game, "play card=change-queue")


# -- Cleaner: "adds 1 to 4 pipì tokens to the bathroom in which it is played, and
# removes all red cards present in the bathrooms. Only the player against whom it is
# played may use a Bathroom Defence" --------------------------------------------------

PERMANENTS = {2: [("Blocco", 1, 0)], 3: [("Tappo", 2, 0)]}


def test_the_cleaner_asks_which_bathroom_then_the_player_struck_may_defend_before_the_roll():
    game = position(TABLE, permanents=PERMANENTS)
    play(game, "play card=cleaner")
    assert [(e.args["queue"], e.args["position"]) for e in waits(game, "target")] == [
        (1, 1), (2, 1), (3, 1), (4, 1)]
    play(game, "target queue=2 position=1")
    assert {(e.command, e.player) for e in game.expected()} == {("defend", BEN),
                                                                ("roll", ANA)}
    assert waits(game, "roll")[0].dice == RED_DIE
    assert "Bathroom Defence" in waits(game, "defend")[0].prompt


def test_the_cleaner_puts_the_roll_on_the_bathroom_persona_and_discards_the_red_cards():
    game = position(TABLE, permanents=PERMANENTS)
    before = list(game.queues[1]["slots"][0]["tokens"])
    play(game, "play card=cleaner", "target queue=2 position=1")
    events = play(game, "roll 3")
    assert game.queues[1]["slots"][0]["tokens"] == [before[0] + 3, before[1]]
    assert all(q["permanents"] == [] for q in game.queues)
    assert any("Blocco and Tappo discarded" in e.message for e in events)
    assert game.active() == BEN


def test_a_bathroom_defence_cancels_the_cleaner():
    game = position(TABLE, permanents=PERMANENTS)
    before = [list(q["slots"][0].get("tokens", [])) for q in game.queues]
    play(game, "play card=cleaner", "target queue=2 position=1")
    events = play(game, "defend")
    assert "card-blocked" in kinds(events)
    assert [list(q["slots"][0].get("tokens", [])) for q in game.queues] == before
    assert len(game.queues[1]["permanents"]) == 1 and len(game.queues[2]["permanents"]) == 1
    assert game.active() == BEN


def test_the_cleaner_on_the_free_queue_or_ones_own_offers_no_defence():
    for target in ("target queue=4 position=1", "target queue=1 position=1"):
        game = position(TABLE)
        play(game, "play card=cleaner", target)
        assert commands(game) == ["roll"]
        refused(game, "defend", NotExpected)


def test_the_cleaner_with_no_persona_in_any_bathroom_is_refused():
    game = position(["Ana n1", "Ben n1", "Cy n1", "-"])
    assert refused(game, "play card=cleaner").rule == "no-target"


# -- Empty Bottle: "always has an effect exclusively on your own reserve" --------------


def test_the_empty_bottle_discards_the_roll_from_the_players_reserve():
    game = position(TABLE, reserves={ANA: (3, 1)})
    play(game, "play card=empty-bottle")
    assert [(e.command, e.player, e.dice) for e in game.expected()] == [("roll", ANA, RED_DIE)]
    play(game, "roll 2")
    assert reserve(game, ANA) == (1, 1) and game.active() == BEN


def test_the_empty_bottle_never_takes_a_reserve_below_zero():
    game = position(TABLE, reserves={ANA: (1, 0)})
    events = play(game, "play card=empty-bottle", "roll 4")
    assert reserve(game, ANA) == (0, 0)
    assert any("discards 1 pipì" in e.message for e in events)


# -- Concentration: a Decompression roll where a 4 discards the pipì -----------------


def test_concentration_is_a_decompression_where_a_4_discards_the_pipi():
    game = position(TABLE, reserves={ANA: (4, 0)})
    play(game, "play card=concentration")
    assert commands(game) == ["roll"]
    play(game, "roll 4")
    assert reserve(game, ANA) == (0, 0)


# -- the cards whose effect the rulebook does not print ----------------------------


@pytest.mark.parametrize("card,name", [("swap", "Swap"), ("sneeze", "Sneeze")])
def test_a_card_the_table_applies_by_hand_is_named_then_its_queue_operations(card, name):
    game = position(TABLE)
    play(game, f"play card={card}")
    assert game.action_card == name
    assert "end-turn" in commands(game) and "swap-behind" in commands(game)


# -- words -----------------------------------------------------------------------


def test_the_cards_are_said_in_french_and_italian_with_their_printed_names():
    game = position(TABLE)
    events = play(game, "play card=give-up-your-place", "target queue=2 position=2", "defend")
    blocked = next(e for e in events if e.kind == "card-blocked")
    assert BathroomRush.event_text(blocked, "fr") == (
        "Ben joue une Défense de file : le Cedi il posto d'Ana est annulé")
    assert "Difesa fila" in BathroomRush.event_text(blocked, "it")


def test_the_prompts_name_the_player_and_the_card_in_the_players_language():
    game = position(TABLE)
    play(game, "play card=give-up-your-place", "target queue=2 position=2")
    prompts = {e.command: e.prompt for e in game.expected("it")}
    assert prompts["defend"] == "Ben: Difesa fila contro Cedi il posto di Ana?"


def test_the_view_shows_the_places_the_card_may_strike():
    game = position(TABLE)
    play(game, "play card=cunning")
    attack = game.view()["attack"]
    assert attack["card"] == "cunning" and attack["step"] == "target"
    assert attack["targets"] == [{"queue": 1, "position": 2}, {"queue": 1, "position": 4}]


def test_a_card_being_applied_is_kept_by_the_journal_and_a_game_without_one_reads_as_before():
    game = position(TABLE)
    assert "attack" not in game.dumps() and "attack" not in game.view()
    play(game, "play card=give-up-your-place", "target queue=2 position=2")
    again = BathroomRush.loads(game.dumps())
    assert again.dumps() == game.dumps()
    assert [(e.command, e.player) for e in again.expected()] == [("effect", BEN),
                                                                 ("defend", BEN)]
    play(again, "effect")
    assert line(again, 2) == "n2 n1 Ben" and "attack" not in again.dumps()


# -- the cards offered: those the engine would take now ---------------------------


@pytest.mark.parametrize("queues", [
    ["n1 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"],          # every card
    ["n1 Ana", "n1 Ben n1", "n1 Cy n1", "-"],              # no free queue
    ["Ana n1", "n1 Ben", "n1 Cy", "n1"],                   # nobody with a Persona behind
])
def test_the_cards_said_playable_are_those_the_engine_takes(queues):
    game = position(queues)
    offered = game.view()["playable"]
    for card in ("give-up-your-place", "cunning", "change-queue", "cleaner", "empty-bottle",
                 "concentration", "swap", "sneeze", "desperate-scream"):
        trial = position(queues)
        try:
            trial.apply(Command("play", {"card": card}))
            taken = True
        except IllegalCommand:
            taken = False
        assert (card in offered) == taken, card


def test_the_view_says_no_card_playable_when_none_may_be_played():
    game = position(["n1 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "decompress")
    assert "playable" not in game.view()


def test_light_tracking_offers_only_the_cards_on_the_reserve():
    game = light(THREE)
    assert game.view()["playable"] == ["concentration", "empty-bottle"]
