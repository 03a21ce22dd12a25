"""Call of Nature (CHIPATSU), situation by situation, as the rulebook tells it."""

from __future__ import annotations

import pytest

from companion.core.engine import Command, Setup
from companion.core.errors import (
    BadArgument,
    BadSetup,
    GameIsOver,
    IllegalCommand,
    NotExpected,
    UnknownCommand,
    WrongPlayer,
)
from companion.core.games import game_class
from companion.core.games.call_of_nature.game import CallOfNature
from tests.words import kinds, play

ANA, BEN, CY, DEE = 0, 1, 2, 3
CLOCKWISE, COUNTER_CLOCKWISE = 1, -1


def make_game(players=("Ana", "Ben", "Cy"), *, variants=(), options=None, **state):
    """A game in the position given by ``state`` (any of the engine's state
    fields), set through its lossless JSON form, the way a saved game loads."""
    game = CallOfNature(Setup(tuple(players), frozenset(variants), options or {}))
    data = game.to_json()
    unknown = set(state) - set(CallOfNature.state_fields)
    assert not unknown, f"not state fields: {unknown}"
    data["state"].update(state)
    return CallOfNature.from_json(data)


def exploded_game(mastery, *, exploder=ANA, players=("Ana", "Ben", "Cy"), variants=()):
    """``exploder`` sits at Mastery 1 and takes the pressure from 30 to 31."""
    mastery = list(mastery)
    mastery[exploder] = 1
    game = make_game(players, variants=variants, pressure=30, mastery=mastery, active=exploder)
    play(game, "card +1")
    assert game.exploded == exploder
    return game


# -- the rulebook's own examples ----------------------------------------------


def test_previous_player_announced_20_and_a_plus_3_card_makes_23():
    game = make_game(pressure=20)
    events = play(game, "card +3")
    assert game.pressure == 23
    assert events[0].message == "Ana plays +3: pressure 23"


def test_respite_roll_higher_than_mastery_4_turns_the_counter_to_5():
    game = make_game(pressure=45, mastery=[4, 7, 7])
    play(game, "card +5")
    events = play(game, "roll 5")
    assert game.mastery == [5, 7, 7]
    assert events[0].kind == "respite-rolled"
    assert events[0].data["gained"] is True


def test_respite_roll_equal_to_mastery_changes_nothing():
    game = make_game(pressure=45, mastery=[4, 7, 7])
    play(game, "card +5")
    events = play(game, "roll 4")
    assert game.mastery == [4, 7, 7]
    assert events[0].data["gained"] is False
    assert "nothing happens" in events[0].message


def test_faq_a_plus_0_card_that_keeps_the_pressure_at_50_gives_no_respite():
    game = make_game(pressure=45, mastery=[4, 4, 7])
    play(game, "card +5", "roll 2")  # Ana's Respite, no gain
    events = play(game, "card +0")  # Ben keeps it at 50
    assert game.pressure == 50
    assert game.respite is None
    assert "respite" not in kinds(events)
    assert [e.command for e in game.expected()] == ["card", "special"]
    assert game.active == CY


def test_faq_31_then_a_drop_to_21_then_back_above_30_costs_mastery_again():
    game = make_game(pressure=25)
    play(game, "card +6")  # Ana: 31
    play(game, "card -10")  # Ben: 21
    events = play(game, "card +12")  # Cy: 33
    assert game.mastery == [6, 7, 6]
    assert "threshold-fired" in kinds(events)


# -- critical thresholds --------------------------------------------------------


@pytest.mark.parametrize(
    "before, card, threshold, mastery_after",
    [(25, "+6", 31, 6), (55, "+6", 61, 5), (85, "+6", 91, 4)],
)
def test_critical_thresholds_cost_1_2_and_3_mastery(before, card, threshold, mastery_after):
    game = make_game(pressure=before)
    events = play(game, f"card {card}")
    assert game.mastery[ANA] == mastery_after
    fired = [e for e in events if e.kind == "threshold-fired"]
    assert [e.data["threshold"] for e in fired] == [threshold]
    assert fired[0].alert


def test_landing_exactly_on_31_fires_it():
    game = make_game(pressure=21)
    events = play(game, "card +10")
    assert game.mastery == [6, 7, 7]
    assert events[1].message == "Threshold 31 fired: Ana loses 1 Mastery (7 → 6)"


def test_going_from_30_to_31_fires_it():
    game = make_game(pressure=30)
    play(game, "card +1")
    assert game.mastery == [6, 7, 7]


def test_exceeding_31_fires_it():
    game = make_game(pressure=28)
    play(game, "card +10")
    assert (game.pressure, game.mastery) == (38, [6, 7, 7])


def test_plus_0_card_at_a_threshold_fires_nothing():
    game = make_game(pressure=31, mastery=[6, 7, 7])
    events = play(game, "card 0")
    assert game.mastery == [6, 7, 7]
    assert kinds(events) == ["pressure-changed", "turn"]
    assert events[0].message == "Ana plays +0: pressure stays 31"


def test_a_card_that_stays_above_a_passed_threshold_fires_nothing():
    game = make_game(pressure=40)
    play(game, "card +5")
    assert game.mastery == [7, 7, 7]


def test_dropping_below_61_and_coming_back_up_fires_61_again():
    game = make_game(pressure=65, mastery=[7, 5, 7])
    play(game, "card -10")  # Ana: 55, 61 armed again
    assert game.armed_thresholds() == [61, 91]
    play(game, "card +10")  # Ben: 65
    assert game.mastery == [7, 3, 7]


def test_dropping_back_to_exactly_31_does_not_rearm_it():
    game = make_game(pressure=40)
    play(game, "card -9")  # 31: still passed
    play(game, "card +5")
    assert game.mastery == [7, 7, 7]


def test_one_card_crossing_two_thresholds_applies_both_lowest_first():
    game = make_game(options={"max_value": 40}, pressure=30)
    events = play(game, "card +35")
    fired = [e.data["threshold"] for e in events if e.kind == "threshold-fired"]
    assert fired == [31, 61]
    assert game.mastery == [4, 7, 7]


def test_exploding_on_the_lower_of_two_thresholds_skips_the_higher_one():
    game = make_game(options={"max_value": 40}, pressure=30, mastery=[1, 7, 7])
    events = play(game, "card +35")
    assert [e.data["threshold"] for e in events if e.kind == "threshold-fired"] == [31]
    assert game.exploded == ANA


def test_pressure_never_goes_below_0():
    game = make_game(pressure=5)
    events = play(game, "card -10")
    assert game.pressure == 0
    assert events[0].message == "Ana plays -10: pressure 0 (it never goes below 0)"


# -- Respite ------------------------------------------------------------------


def test_reaching_exactly_50_asks_the_player_for_a_d6():
    game = make_game(pressure=45, mastery=[4, 7, 7])
    events = play(game, "card +5")
    assert "respite" in kinds(events)
    (wait,) = game.expected()
    assert (wait.command, wait.player, wait.dice.sides, wait.dice.count) == ("roll", ANA, 6, 1)


def test_respite_at_50_when_the_pressure_goes_down():
    game = make_game(pressure=55, mastery=[3, 7, 7])
    play(game, "card -5")
    assert game.respite == {"player": ANA, "pressure": 50}


def test_respite_at_80_going_up():
    game = make_game(pressure=70, mastery=[3, 7, 7])
    play(game, "card +10")
    assert game.respite == {"player": ANA, "pressure": 80}


def test_respite_at_80_when_the_pressure_goes_down():
    game = make_game(pressure=85, mastery=[3, 7, 7])
    play(game, "card -5")
    assert game.respite == {"player": ANA, "pressure": 80}
    assert game.mastery == [3, 7, 7]


def test_passing_through_50_without_landing_on_it_gives_no_respite():
    game = make_game(pressure=45)
    play(game, "card +6")
    assert game.respite is None


def test_card_crossing_31_onto_50_costs_mastery_then_gives_a_respite():
    game = make_game(pressure=25)
    events = play(game, "card +25")
    assert kinds(events)[:3] == ["pressure-changed", "threshold-fired", "respite"]
    assert game.mastery[ANA] == 6


@pytest.mark.parametrize("mastery", [6, 7])
def test_mastery_6_or_7_never_gains_from_a_respite_even_on_a_6(mastery):
    game = make_game(pressure=50, mastery=[mastery, 7, 7],
                     respite={"player": ANA, "pressure": 50})
    events = play(game, "roll 6")
    assert game.mastery[ANA] == mastery
    assert events[0].data["gained"] is False


def test_the_turn_passes_after_the_respite_roll():
    game = make_game(pressure=45, mastery=[3, 7, 7])
    play(game, "card +5")
    assert game.active == ANA
    play(game, "roll 1")
    assert game.active == BEN


# -- end of round --------------------------------------------------------------


def test_91_ends_the_round_and_its_player_starts_the_next_in_the_same_direction():
    game = make_game(pressure=85, active=BEN, direction=COUNTER_CLOCKWISE, draw_pile=20,
                     played_pile=44)
    events = play(game, "card +10")
    assert (game.pressure, game.round_number, game.active) == (0, 2, BEN)
    assert game.direction == COUNTER_CLOCKWISE
    assert game.mastery == [7, 4, 7]
    assert (game.draw_pile, game.played_pile) == (64, 0)
    assert game.armed_thresholds() == [31, 61, 91]
    assert "round-ended" in kinds(events)


def test_91_fired_by_a_player_at_mastery_2_explodes_them_and_no_round_follows():
    game = make_game(pressure=85, mastery=[2, 7, 7])
    events = play(game, "card +10")
    assert game.mastery[ANA] == 0
    assert game.exploded == ANA
    assert game.round_number == 1
    assert "round-ended" not in kinds(events)
    assert "player-eliminated" in kinds(events)
    assert [(e.command, e.player) for e in game.expected()] == [("roll", BEN)]


def test_91_hit_exactly_by_a_player_at_mastery_3_explodes_them_and_no_round_follows():
    game = make_game(pressure=85, mastery=[3, 7, 7])
    events = play(game, "card +6")
    assert (game.pressure, game.mastery, game.exploded) == (91, [0, 7, 7], ANA)
    assert game.round_number == 1
    assert kinds(events) == ["pressure-changed", "threshold-fired", "player-eliminated"]


# -- special cards ---------------------------------------------------------------


def test_u_turn_reverses_the_direction_and_the_turn_passes_the_new_way():
    game = make_game(pressure=40)
    events = play(game, "special u-turn")
    assert game.direction == COUNTER_CLOCKWISE
    assert game.active == CY
    assert game.pressure == 40
    assert kinds(events) == ["special-played", "direction-changed", "turn"]


def test_a_u_turn_in_a_two_player_game_passes_the_turn_to_the_other_player():
    game = make_game(("Ana", "Ben"), pressure=40)
    play(game, "special u-turn")
    assert (game.direction, game.active) == (COUNTER_CLOCKWISE, BEN)
    play(game, "card +1")
    assert game.active == ANA


def test_another_special_card_keeps_the_pressure_and_reminds_to_apply_its_effect():
    game = make_game(pressure=40)
    events = play(game, "special suspense")
    assert (game.pressure, game.active, game.played_pile) == (40, BEN, 1)
    assert "Apply its effect" in events[0].message


# -- deck counting ----------------------------------------------------------------


def test_three_players_leave_64_cards_in_the_draw_pile():
    game = make_game()
    assert (game.draw_pile, game.played_pile) == (64, 0)


def test_reshuffle_is_announced_when_the_64th_card_empties_the_draw_pile():
    game = make_game(pressure=12)
    for _ in range(63):
        assert "reshuffle-needed" not in kinds(play(game, "card 0"))
    events = play(game, "special move-over")
    (warning,) = [e for e in events if e.kind == "reshuffle-needed"]
    assert warning.alert
    assert warning.message == ("The draw pile is empty: shuffle the 64 played cards into a new "
                               "draw pile. The Pressure stays at 12")
    assert (game.draw_pile, game.played_pile, game.pressure) == (64, 0, 12)


# -- End of Game -----------------------------------------------------------------


def test_explosion_asks_the_survivors_to_roll_clockwise_from_the_exploded_player():
    game = exploded_game([7, 7, 7, 7], exploder=BEN, players=("Ana", "Ben", "Cy", "Dee"))
    order = []
    while game.expected():
        (wait,) = game.expected()
        order.append(wait.player)
        game.apply(Command("roll", {"values": [6, 6]}))
    assert order == [CY, DEE, ANA]


def test_after_a_u_turn_the_survivors_roll_in_the_direction_of_play():
    game = make_game(("Ana", "Ben", "Cy", "Dee"), pressure=30, mastery=[7, 1, 7, 7],
                     active=BEN, direction=COUNTER_CLOCKWISE)
    events = play(game, "card +1")
    order = []
    while game.expected():
        (wait,) = game.expected()
        order.append(wait.player)
        game.apply(Command("roll", {"values": [6, 6]}))
    assert order == [ANA, DEE, CY]
    (out,) = [e for e in events if e.kind == "player-eliminated"]
    assert out.data["order"] == [ANA, DEE, CY]
    assert out.data["direction"] == "counter-clockwise"
    assert out.message.endswith("Ana, Dee and Cy roll 2d6 for the End of Game, in that order "
                                "(counter-clockwise)")


def test_a_threshold_is_said_once_with_the_mastery_it_costs():
    game = make_game(pressure=25)
    events = play(game, "card +10")
    said = [e.message for e in events if "31" in e.message or "Mastery" in e.message]
    assert said == ["Threshold 31 fired: Ana loses 1 Mastery (7 → 6)"]
    (fired,) = [e for e in events if e.kind == "threshold-fired"]
    assert (fired.data["before"], fired.data["after"]) == (7, 6)


@pytest.mark.parametrize(
    "total, loss",
    [(2, 7), (3, 3), (4, 2), (5, 1), (6, 0), (7, 0), (8, 0), (9, 0), (10, 0), (11, 0), (12, 0)],
)
def test_end_of_game_card_for_every_sum(total, loss):
    game = exploded_game([0, 7], players=("Ana", "Ben"))
    first = max(1, total - 6)
    events = game.apply(Command("roll", {"values": [first, total - first]}))
    assert game.mastery[BEN] == 7 - loss
    assert events[0].data["total"] == total
    assert game.over


def test_highest_mastery_wins():
    game = exploded_game([0, 5, 6])
    play(game, "roll 6 6", "roll 6 6")
    assert game.result().winners == (CY,)
    assert game.result().scores == (0, 5, 6)
    assert game.result().message == "Cy wins with Mastery 6"


def test_tied_survivors_share_the_victory():
    game = exploded_game([0, 5, 6])
    events = play(game, "roll 3 3", "roll 1 4")  # Ben keeps 5, Cy 6 -> 5
    assert game.result().winners == (BEN, CY)
    assert events[-1].kind == "game-over"
    assert events[-1].message == "Game over: Ben and Cy share the victory with Mastery 5"


def test_the_exploded_player_loses_even_when_every_survivor_falls_to_0():
    game = exploded_game([0, 4, 7])
    play(game, "roll 1 1", "roll 1 1")
    assert game.mastery == [0, 0, 0]
    assert game.result().winners == (BEN, CY)


def test_nothing_is_accepted_once_the_game_is_over():
    game = exploded_game([0, 4], players=("Ana", "Ben"))
    play(game, "roll 6 6")
    before = game.dumps()
    with pytest.raises(GameIsOver):
        play(game, "note one more")
    assert game.dumps() == before
    assert game.expected() == []


# -- variants --------------------------------------------------------------------


def test_variant_no_end_roll_ends_the_game_at_the_explosion():
    game = exploded_game([0, 5, 6], variants=["no-end-roll"])
    assert game.over
    assert game.expected() == []
    assert game.result().winners == (CY,)


def test_variant_threshold_cards_in_hand_asks_for_the_count_before_the_roll():
    game = exploded_game([0, 7, 7], variants=["threshold-cards-in-hand"])
    (wait,) = game.expected()
    assert (wait.command, wait.player) == ("held-thresholds", BEN)
    with pytest.raises(NotExpected):
        play(game, "roll 6 6")


def test_variant_threshold_cards_in_hand_takes_2_off_the_roll_per_card():
    game = exploded_game([0, 7, 7], variants=["threshold-cards-in-hand"])
    events = play(game, "held-thresholds 2", "roll 5 4")  # 9 - 4 = 5
    assert events[0].data["total"] == 5
    assert game.mastery[BEN] == 6


def test_variant_threshold_cards_in_hand_never_takes_the_roll_below_2():
    game = exploded_game([0, 7, 7], variants=["threshold-cards-in-hand"])
    events = play(game, "held-thresholds 3", "roll 3 3")  # 6 - 6 = 0 -> 2
    assert events[0].data["total"] == 2
    assert game.mastery[BEN] == 0


def test_held_thresholds_is_refused_without_the_variant():
    game = exploded_game([0, 7, 7])
    with pytest.raises(NotExpected):
        play(game, "held-thresholds 1")


@pytest.mark.parametrize(
    "variants, options, deck",
    [
        ([], {}, 76),
        (["no-powerful-cards"], {}, 74),
        (["beginners-deck"], {}, 69),
        (["no-powerful-cards", "beginners-deck"], {}, 69),
        (["beginners-deck"], {"removed_cards": {"beginners-deck": 14}}, 62),
        ([], {"deck_size": 80}, 80),
    ],
)
def test_deck_variants_change_the_cards_counted(variants, options, deck):
    game = make_game(variants=variants, options=options)
    assert game.deck_size() == deck
    assert game.draw_pile == deck - 12


def test_variant_no_powerful_cards_refuses_a_little_trip_in_the_bushes():
    game = make_game(variants=["no-powerful-cards"])
    before = game.dumps()
    with pytest.raises(BadArgument, match="not in this deck"):
        play(game, "special little-trip-in-the-bushes")
    assert game.dumps() == before


def test_variant_beginners_deck_keeps_u_turn():
    game = make_game(variants=["beginners-deck"])
    with pytest.raises(BadArgument):
        play(game, "special move-over")
    play(game, "special u-turn")
    assert game.direction == COUNTER_CLOCKWISE


def test_card_values_range_is_a_setup_option():
    game = make_game(options={"min_value": -10, "max_value": 40})
    play(game, "card +40")
    with pytest.raises(BadArgument, match=r"-10\.\.40"):
        play(game, "card -11")


# -- corrections -----------------------------------------------------------------


def test_a_correction_crossing_two_thresholds_costs_no_mastery():
    game = make_game(pressure=20)
    events = play(game, "set-pressure 70")
    assert game.mastery == [7, 7, 7]
    assert kinds(events) == ["correction"]
    assert game.armed_thresholds() == [91]


def test_thresholds_passed_by_a_correction_do_not_fire_on_the_next_card():
    game = make_game(pressure=20)
    play(game, "set-pressure 70", "card +5")
    assert game.mastery == [7, 7, 7]


def test_setting_the_pressure_below_a_threshold_rearms_it():
    game = make_game(pressure=40, mastery=[6, 7, 7])
    play(game, "set-pressure 25", "card +6")
    assert game.mastery == [5, 7, 7]


def test_setting_the_pressure_to_50_gives_no_respite():
    game = make_game(pressure=40)
    play(game, "set-pressure 50")
    assert game.respite is None
    assert [e.command for e in game.expected()] == ["card", "special"]


def test_setting_the_pressure_above_91_does_not_end_the_round():
    game = make_game(pressure=40)
    play(game, "set-pressure 95")
    assert (game.round_number, game.pressure, game.mastery) == (1, 95, [7, 7, 7])
    assert game.view()["next_threshold"] is None


def test_adjust_mastery_moves_one_counter():
    game = make_game(mastery=[5, 7, 7])
    events = play(game, "adjust-mastery Ana -1")
    assert game.mastery == [4, 7, 7]
    assert events[0].message == "Correction: Ana's Mastery 5 → 4"


def test_adjust_mastery_stops_at_7():
    game = make_game(mastery=[5, 7, 7])
    play(game, "adjust-mastery Ana +3")
    assert game.mastery == [7, 7, 7]


def test_mastery_0_by_correction_is_still_an_explosion():
    game = make_game(pressure=40, mastery=[7, 2, 7])
    events = play(game, "adjust-mastery Ben -5")
    assert kinds(events) == ["correction", "player-eliminated"]
    assert game.exploded == BEN
    assert "by correction" in events[1].message
    assert [(e.command, e.player) for e in game.expected()] == [("roll", CY)]


def test_skip_passes_the_turn_to_the_next_player():
    game = make_game(active=BEN)
    play(game, "skip")
    assert game.active == CY


def test_skip_follows_the_direction():
    game = make_game(active=ANA, direction=COUNTER_CLOCKWISE)
    play(game, "skip")
    assert game.active == CY


def test_skip_during_a_respite_drops_the_roll():
    game = make_game(pressure=50, mastery=[3, 7, 7], respite={"player": ANA, "pressure": 50})
    events = play(game, "skip")
    assert (game.respite, game.active, game.mastery) == (None, BEN, [3, 7, 7])
    assert "no Respite roll at 50" in events[0].message


def test_reverse_flips_the_direction_and_keeps_the_turn():
    game = make_game(active=BEN)
    play(game, "reverse")
    assert (game.direction, game.active) == (COUNTER_CLOCKWISE, BEN)
    play(game, "card +1")
    assert game.active == ANA


def test_new_round_by_correction_costs_no_mastery():
    game = make_game(pressure=88, draw_pile=10, played_pile=54)
    play(game, "new-round Cy")
    assert (game.pressure, game.round_number, game.active) == (0, 2, CY)
    assert (game.draw_pile, game.played_pile, game.mastery) == (64, 0, [7, 7, 7])


def test_set_draw_pile_recounts_the_played_pile():
    game = make_game()
    play(game, "set-draw-pile 30")
    assert (game.draw_pile, game.played_pile) == (30, 34)


def test_note_records_the_text():
    game = make_game()
    events = play(game, "note U-TURN was played")
    assert events[0].message == "Note: U-TURN was played"


def test_only_mastery_and_notes_can_be_corrected_during_the_end_rolls():
    game = exploded_game([0, 5, 5])
    before = game.dumps()
    with pytest.raises(NotExpected, match="End of Game"):
        play(game, "set-pressure 10")
    assert game.dumps() == before
    play(game, "adjust-mastery Ben +1")
    assert game.mastery[BEN] == 6


# -- refused commands change nothing ----------------------------------------------


RESPITE_AT_50 = {"pressure": 50, "mastery": [3, 7, 7], "respite": {"player": ANA, "pressure": 50}}


@pytest.mark.parametrize(
    "position, words, error",
    [
        ({}, "card +31", BadArgument),
        ({}, "card -31", BadArgument),
        ({}, "card +5 Ben", WrongPlayer),
        ({}, "special u-turn Cy", WrongPlayer),
        ({}, "special double-flush", BadArgument),
        ({}, "roll 4", NotExpected),
        ({}, "flush", UnknownCommand),
        ({}, "card", BadArgument),
        ({}, "card five", BadArgument),
        ({}, "adjust-mastery Zoe -1", BadArgument),
        ({}, "adjust-mastery Ana +1", BadArgument),
        ({}, "set-pressure 0", BadArgument),
        ({}, "set-pressure 201", BadArgument),
        ({}, "set-draw-pile 0", BadArgument),
        ({}, "set-draw-pile 65", BadArgument),
        (RESPITE_AT_50, "roll 7", BadArgument),
        (RESPITE_AT_50, "roll 0", BadArgument),
        (RESPITE_AT_50, "roll 3 4", BadArgument),
        (RESPITE_AT_50, "roll 4 Ben", WrongPlayer),
        (RESPITE_AT_50, "card +1", NotExpected),
        (RESPITE_AT_50, "held-thresholds 1", NotExpected),
    ],
)
def test_a_refused_command_leaves_the_game_identical(position, words, error):
    game = make_game(**position)
    before = game.dumps()
    with pytest.raises(error):
        play(game, words)
    assert game.dumps() == before


def test_a_7_on_a_d6_is_refused_with_the_faces_allowed():
    game = make_game(**RESPITE_AT_50)
    with pytest.raises(BadArgument, match="1 to 6"):
        play(game, "roll 7")


def test_an_exploded_player_cannot_be_corrected_back_into_the_game():
    game = exploded_game([0, 5, 5])
    before = game.dumps()
    with pytest.raises(IllegalCommand, match="exploded"):
        play(game, "adjust-mastery Ana +1")
    assert game.dumps() == before


def test_an_end_roll_with_one_die_is_refused():
    game = exploded_game([0, 5, 5])
    before = game.dumps()
    with pytest.raises(BadArgument, match="2 value"):
        play(game, "roll 6")
    assert game.dumps() == before


# -- setup -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, variants, options",
    [
        (("Ana",), [], {}),
        (("A", "B", "C", "D", "E", "F", "G"), [], {}),
        (("Ana", "Ben"), ["speed"], {}),
        (("Ana", "Ben"), [], {"colour": "red"}),
        (("Ana", "Ben"), [], {"min_value": 5}),
        (("Ana", "Ben"), [], {"max_value": "high"}),
        (("Ana", "Ben"), [], {"deck_size": 8}),
        (("Ana", "Ben"), [], {"removed_cards": {"house-rules": 3}}),
    ],
)
def test_impossible_setups_are_refused(players, variants, options):
    with pytest.raises(BadSetup):
        CallOfNature(Setup(players, frozenset(variants), options))


def test_the_registry_finds_the_engine_by_key_and_alias():
    assert game_class("call-of-nature") is CallOfNature
    assert game_class("chipatsu") is CallOfNature


def test_a_new_game_starts_at_pressure_0_with_mastery_7_and_the_first_seat_clockwise():
    game = CallOfNature(Setup(("Ana", "Ben")))
    view = game.view()
    assert (view["pressure"], view["round"], view["active"]) == (0, 1, ANA)
    assert view["direction"] == "clockwise"
    assert [p["mastery"] for p in view["players"]] == [7, 7]
    assert view["next_threshold"] == 31


def test_the_view_shows_a_pending_respite_and_the_next_threshold():
    view = make_game(**RESPITE_AT_50).view()
    assert view["phase"] == "respite"
    assert view["respite"] == {"player": ANA, "pressure": 50}
    assert view["next_threshold"] == 61
    assert view["armed_thresholds"] == [61, 91]


def test_json_round_trip_keeps_a_respite_and_end_rolls():
    for game in (make_game(**RESPITE_AT_50), exploded_game([0, 5, 5])):
        copy = CallOfNature.loads(game.dumps())
        assert copy == game
        assert copy.expected() == game.expected()


# -- commands as words -------------------------------------------------------------


@pytest.mark.parametrize(
    "words, command",
    [
        ("card +5", Command("card", {"value": "+5"})),
        ("card -10", Command("card", {"value": "-10"})),
        ("roll 3 5", Command("roll", {"values": ["3", "5"]})),
        ("roll 4 Ben", Command("roll", {"values": ["4"], "player": "Ben"})),
        ("adjust-mastery Ana -1", Command("adjust-mastery", {"player": "Ana", "delta": "-1"})),
        ("note U-TURN was played", Command("note", {"text": "U-TURN was played"})),
        ("special u-turn", Command("special", {"card": "u-turn"})),
        ("held-thresholds 2", Command("held-thresholds", {"count": "2"})),
    ],
)
def test_commands_read_from_words(words, command):
    assert make_game().parse_words(words) == command


def test_roll_3_5_from_words_is_an_end_of_game_roll():
    game = exploded_game([0, 7, 7])
    events = play(game, "roll 3 5")
    assert events[0].data["dice"] == [3, 5]
