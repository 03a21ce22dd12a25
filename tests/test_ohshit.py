"""OhShit! (mode normal), situation by situation, as the rulebook tells it.

Positions are written as literals, one player after another, separated by
"/": ``"Ana*: 2 spicy, 1 unicorn / Ben: 5 precious, constipated / Cy: dead"``
(the star marks whose turn it is).  Every card the literal does not place
lies in the draw pile, so the counts always add up to the deck.
"""

from __future__ import annotations

import json
import re

import pytest

from companion.core.engine import Command, Setup
from companion.core.errors import (
    BadArgument,
    BadSetup,
    GameIsOver,
    IllegalCommand,
    WrongPlayer,
)
from companion.core.games import game_class
from companion.core.games.ohshit.game import OhShit
from companion.core.games.ohshit.model import (
    ACTIONS,
    COLOURS,
    DEFAULT_DECK,
    KINDS,
    POOPS,
    flush_of,
)
from companion.core.text import say
from tests.words import kinds, play

ANA, BEN, CY = 0, 1, 2
EMPTY = dict.fromkeys(POOPS, 0)


def cards(text: str) -> dict[str, int]:
    """'2 spicy, 1 unicorn' -> {'spicy': 2, 'unicorn': 1}."""
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        count, kind = part.split()
        assert kind in KINDS, f"no card kind {kind!r}"
        out[kind] = out.get(kind, 0) + int(count)
    return out


def position(literal: str, *, deck: dict | None = None, hands: dict | None = None,
             decharge: str = "", drain: str = "") -> OhShit:
    """A game in the position the literal describes (see the module docstring).

    ``deck`` is the setup's deck option; ``hands`` maps names to hand sizes
    (default 5, and 6 for the active player, who has drawn).
    """
    players, piles, constipated, alive, active = [], [], [], [], None
    for seat, entry in enumerate(p.strip() for p in literal.split("/")):
        name, _, rest = entry.partition(":")
        if name.endswith("*"):
            name, active = name[:-1], seat
        players.append(name.strip())
        words = [w.strip() for w in rest.split(",")]
        constipated.append("constipated" in words)
        alive.append("dead" not in words)
        poops = cards(", ".join(w for w in words if w not in ("constipated", "dead")))
        piles.append({**EMPTY, **poops})
    assert active is not None, "mark the active player with a star"
    game = OhShit(Setup(tuple(players), options={"deck": deck} if deck else {}))
    data = game.to_json()
    state = data["state"]
    hand_sizes = [5] * len(players)
    hand_sizes[active] = 6
    for name, size in (hands or {}).items():
        hand_sizes[players.index(name)] = size
    state.update(
        piles=piles, constipated=constipated, alive=alive, active=active,
        hands=hand_sizes,
        decharge={**EMPTY, **cards(decharge)},
        drain={**dict.fromkeys(ACTIONS, 0), **cards(drain)},
    )
    placed = (sum(sum(p.values()) for p in piles) + sum(hand_sizes) + sum(constipated)
              + sum(cards(decharge).values())
              + sum(cards(drain).values()))
    state["draw_pile"] = sum(state["deck"].values()) - placed
    assert state["draw_pile"] >= 0, "the literal places more cards than the deck holds"
    return OhShit.from_json(data)


def small_deck(**counts: int) -> dict[str, int]:
    """A deck of exactly these cards (every other kind: none)."""
    return {kind: counts.get(kind, 0) for kind in KINDS}


def pile(game, seat):
    return {kind: n for kind, n in game.piles[seat].items() if n}


def refused(game, words, error=IllegalCommand, rule=None):
    """Play ``words``, expect them refused with ``error``, and check that the
    game did not change at all.  Returns the error's message."""
    before = game.dumps()
    with pytest.raises(error) as caught:
        play(game, words)
    assert game.dumps() == before
    if rule is not None:
        assert caught.value.rule == rule
    return str(caught.value)


# -- the rulebook's own example -----------------------------------------------


def test_two_spicy_two_precious_and_a_unicorn_flush_all_five():
    game = position("Ana*: / Ben: 2 spicy, 2 precious / Cy:")
    events = play(game, "poop Ben unicorn")
    assert pile(game, BEN) == {}
    assert game.decharge == {**EMPTY, "spicy": 2, "precious": 2, "unicorn": 1}
    flushed = events[1]
    assert flushed.kind == "flushed" and flushed.alert
    assert flushed.message == ("Ben's pile flushes: 2 spicy, 2 precious and 1 Unicorn "
                               "go to the Décharge (0 cards left)")


# -- the colours ----------------------------------------------------------------


def test_five_colours_with_the_rulebooks_spicy_and_precious():
    assert COLOURS == ("spicy", "precious", "grassy", "frosty", "fruity")
    assert [say(f"card.{c}", "en", game="ohshit") for c in COLOURS[:2]] == ["Spicy", "Precious"]
    assert [say(f"card.{c}", "fr", game="ohshit") for c in COLOURS[:2]] == ["Épicé", "Précieux"]


def test_every_card_has_its_name_in_english_and_as_printed_on_the_french_cards():
    for kind in KINDS:
        assert say(f"card.{kind}", "en", game="ohshit") != f"card.{kind}"
        assert say(f"card.{kind}", "fr", game="ohshit") != f"card.{kind}"
    assert say("card.unicorn", "fr", game="ohshit") == "Licorne"
    assert say("card.frosty", "fr", game="ohshit") == "Givré"


def test_the_view_names_the_cards_by_slug_and_says_the_pile_limits():
    view = OhShit(Setup(("Ana", "Ben"))).view()
    assert view["colours"] == list(COLOURS)
    assert view["unicorn"] == "unicorn"
    assert view["actions"] == list(ACTIONS)
    assert (view["full_pile"], view["max_pile"]) == (5, 6)
    assert "#" not in json.dumps(view)


# -- flushing -----------------------------------------------------------------


def test_a_third_poop_of_a_colour_flushes_the_three_at_once():
    game = position("Ana*: / Ben: 2 spicy, 1 precious / Cy:")
    play(game, "poop Ben spicy")
    assert pile(game, BEN) == {"precious": 1}
    assert game.decharge["spicy"] == 3


def test_two_of_a_colour_and_a_unicorn_flush_together():
    game = position("Ana*: / Ben: 2 grassy, 1 frosty / Cy:")
    play(game, "poop Ben unicorn")
    assert pile(game, BEN) == {"frosty": 1}
    assert game.decharge == {**EMPTY, "grassy": 2, "unicorn": 1}


def test_a_colour_needing_two_unicorns_takes_both_and_the_other_colour_goes_too():
    game = position("Ana*: / Ben: 1 spicy, 1 precious, 1 unicorn / Cy:")
    play(game, "poop Ben unicorn")
    assert pile(game, BEN) == {}
    assert game.decharge == {**EMPTY, "spicy": 1, "precious": 1, "unicorn": 2}


def test_three_unicorns_are_three_of_a_kind():
    game = position("Ana*: / Ben: 2 unicorn / Cy:")
    play(game, "poop Ben unicorn")
    assert pile(game, BEN) == {}
    assert game.decharge["unicorn"] == 3


def test_unicorns_that_no_colour_needs_stay_on_the_pile():
    # Constipation kept 4 spicy and a Unicorn together; the Suppositoire takes one
    # spicy, lifts the Constipation, and 3 spicy flush without needing the Unicorn.
    game = position("Ana*: / Ben: 4 spicy, 1 unicorn, constipated / Cy:")
    play(game, "suppositoire Ben spicy")
    assert pile(game, BEN) == {"unicorn": 1}
    assert game.decharge == {**EMPTY, "spicy": 4}


@pytest.mark.parametrize("on_the_pile, flushed", [
    ("2 spicy", ""),
    ("3 spicy", "3 spicy"),
    ("2 spicy, 1 unicorn", "2 spicy, 1 unicorn"),
    ("2 spicy, 2 precious, 1 unicorn", "2 spicy, 2 precious, 1 unicorn"),
    ("1 spicy, 2 precious, 2 unicorn", "1 spicy, 2 precious, 2 unicorn"),
    ("4 spicy, 1 unicorn", "4 spicy"),
    ("2 spicy, 1 precious, 1 unicorn", "2 spicy, 1 unicorn"),
    ("2 spicy, 3 unicorn", "2 spicy, 1 unicorn"),
    ("2 spicy, 4 unicorn", "2 spicy, 4 unicorn"),
    ("1 spicy, 5 unicorn", "1 spicy, 5 unicorn"),
    ("3 unicorn", "3 unicorn"),
    ("2 unicorn", ""),
    ("1 spicy, 1 precious, 1 grassy, 1 frosty, 1 fruity", ""),
    ("1 spicy, 1 precious, 1 grassy, 1 frosty, 1 fruity, 1 unicorn", ""),
])
def test_the_flush_rule_case_by_case(on_the_pile, flushed):
    assert flush_of(cards(on_the_pile)) == cards(flushed)


def test_a_constipated_pile_never_flushes():
    game = position("Ana*: / Ben: 2 spicy, constipated / Cy:")
    events = play(game, "poop Ben spicy")
    assert pile(game, BEN) == {"spicy": 3}
    assert "flushed" not in kinds(events)


# -- the five-card limit ----------------------------------------------------------


def test_a_pile_of_five_refuses_another_poop():
    game = position("Ana*: / Ben: 2 spicy, 2 precious, 1 grassy / Cy:")
    message = refused(game, "poop Ben frosty", rule="pile-full")
    assert message == ("Ben's pile holds 5 poops and takes no more; only Ben may add a "
                       "sixth, on their own turn")


def test_the_active_player_may_put_a_sixth_on_their_own_pile_to_make_a_set():
    game = position("Ana*: 2 spicy, 2 precious, 1 grassy / Ben: / Cy:")
    events = play(game, "poop Ana spicy")
    assert kinds(events)[:2] == ["poop-played", "flushed"]
    assert pile(game, ANA) == {"precious": 2, "grassy": 1}
    assert game.alive[ANA]


def test_a_sixth_poop_that_makes_no_set_buries_its_player():
    game = position("Ana*: 2 spicy, 2 precious, 1 grassy / Ben: / Cy:")
    events = play(game, "poop Ana frosty")
    assert events[0].message == "Ana puts a frosty poop on their own pile (6 cards)"
    assert "player-died" in kinds(events)
    assert not game.alive[ANA]


def test_a_seventh_poop_on_ones_own_pile_is_refused():
    game = position("Ana*: 2 spicy, 2 precious, 1 grassy, 1 frosty / Ben: / Cy:")
    message = refused(game, "poop Ana fruity", rule="pile-limit")
    assert message == "Ana's pile holds 6 poops: a pile never holds more than 6"


def test_a_pile_of_five_refuses_the_owner_outside_their_turn():
    game = position("Ana*: / Ben: 2 spicy, 2 precious, 1 grassy / Cy:")
    refused(game, "poop Ben frosty player=Ben", WrongPlayer)


# -- Toilette -----------------------------------------------------------------


def test_a_toilette_empties_a_pile_into_the_decharge():
    game = position("Ana*: / Ben: 2 spicy, 1 unicorn, 1 fruity / Cy:")
    events = play(game, "toilette Ben")
    assert pile(game, BEN) == {}
    assert game.decharge == {**EMPTY, "spicy": 2, "unicorn": 1, "fruity": 1}
    assert game.drain["toilette"] == 1
    assert events[0].message == ("Ana flushes Ben's pile with a Toilette: 2 spicy, "
                                 "1 fruity and 1 Unicorn go to the Décharge")


def test_a_toilette_on_ones_own_pile():
    game = position("Ana*: 2 precious, 2 grassy / Ben: / Cy:")
    play(game, "toilette Ana")
    assert pile(game, ANA) == {}
    assert game.hands[ANA] == 5


def test_a_toilette_on_an_empty_pile_is_a_wasted_card_but_a_card_played():
    game = position("Ana*: / Ben: / Cy:")
    events = play(game, "toilette Ben")
    assert events[0].message == "Ana flushes Ben's pile with a Toilette: the pile was already empty"
    assert game.drain["toilette"] == 1 and game.active == BEN


def test_a_toilette_cannot_be_played_on_a_constipated_player():
    game = position("Ana*: / Ben: 2 spicy, constipated / Cy:")
    message = refused(game, "toilette Ben", rule="constipated")
    assert "Ben is constipated" in message and "Suppositoire" in message


# -- Constipation ---------------------------------------------------------------


def test_a_constipation_stays_in_front_of_its_target_turn_after_turn():
    game = position("Ana*: / Ben: / Cy:")
    play(game, "constipation Ben", "poop Ana spicy", "poop Ana spicy", "poop Ben fruity")
    assert game.constipated == [False, True, False]
    assert game.view()["constipations_on_table"] == 1
    assert game.drain["constipation"] == 0


def test_a_second_constipation_on_a_constipated_player_is_refused():
    game = position("Ana*: / Ben: constipated / Cy:")
    message = refused(game, "constipation Ben", rule="already-constipated")
    assert message.startswith("Ben is already constipated")


# -- Suppositoire -------------------------------------------------------------------


def test_a_suppositoire_removes_the_chosen_poop_then_lifts_the_constipation_then_flushes():
    game = position("Ana*: / Ben: 3 spicy, 1 precious, constipated / Cy:")
    events = play(game, "suppositoire Ben precious")
    assert kinds(events)[:3] == ["suppository", "constipation-lifted", "flushed"]
    assert events[0].message == ("Ana gives Ben a Suppositoire: 1 precious poop goes to "
                                 "the Décharge (3 cards left)")
    assert pile(game, BEN) == {}
    assert game.constipated[BEN] is False
    assert game.drain == {"toilette": 0, "constipation": 1, "suppositoire": 1}
    assert game.decharge == {**EMPTY, "spicy": 3, "precious": 1}


def test_a_suppositoire_on_a_constipated_player_with_one_poop_removes_it_and_lifts_it():
    game = position("Ana*: / Ben: 1 grassy, constipated / Cy:")
    events = play(game, "suppositoire Ben grassy")
    assert kinds(events)[:2] == ["suppository", "constipation-lifted"]
    assert pile(game, BEN) == {} and not game.constipated[BEN]
    assert game.decharge == {**EMPTY, "grassy": 1}
    assert game.drain == {"toilette": 0, "constipation": 1, "suppositoire": 1}
    assert game.alive[BEN] and game.active == BEN


def test_a_suppositoire_on_a_player_who_is_not_constipated_only_removes_a_poop():
    game = position("Ana*: / Ben: 2 spicy, 1 precious / Cy:")
    play(game, "suppositoire Ben spicy")
    assert pile(game, BEN) == {"spicy": 1, "precious": 1}
    assert game.drain == {"toilette": 0, "constipation": 0, "suppositoire": 1}


def test_a_suppositoire_on_oneself():
    game = position("Ana*: 2 spicy, 2 precious, constipated / Ben: / Cy:")
    play(game, "suppositoire Ana spicy")
    assert pile(game, ANA) == {"spicy": 1, "precious": 2}
    assert not game.constipated[ANA]


def test_a_suppositoire_on_a_constipated_empty_pile_only_lifts_the_constipation():
    game = position("Ana*: / Ben: constipated / Cy:")
    events = play(game, "suppositoire Ben")
    assert events[0].message == "Ana gives Ben a Suppositoire: nothing to remove"
    assert not game.constipated[BEN]
    assert sum(game.decharge.values()) == 0
    assert game.drain == {"toilette": 0, "constipation": 1, "suppositoire": 1}


def test_a_suppositoire_naming_a_colour_the_pile_does_not_hold_is_refused():
    game = position("Ana*: / Ben: 2 spicy, 1 unicorn, constipated / Cy:")
    message = refused(game, "suppositoire Ben precious", rule="colour-not-in-pile")
    assert message == "Ben's pile holds no precious poop; it holds 2 spicy and 1 Unicorn"


def test_a_suppositoire_on_a_pile_with_poops_must_name_one():
    game = position("Ana*: / Ben: 2 spicy / Cy:")
    refused(game, "suppositoire Ben", BadArgument, rule="colour-needed")


def test_a_suppositoire_on_an_empty_pile_without_constipation_is_refused():
    game = position("Ana*: / Ben: / Cy:")
    refused(game, "suppositoire Ben spicy", rule="nothing-to-remove")


# -- death and winning ----------------------------------------------------------------


def test_a_player_who_ends_their_turn_with_five_poops_dies():
    game = position("Ana*: 2 spicy, 2 precious / Ben: / Cy:")
    events = play(game, "poop Ana grassy")
    died = events[1]
    assert died.kind == "player-died" and died.alert
    assert died.message == ("Ana ends the turn with 5 poops and dies: 2 spicy, 2 precious "
                            "and 1 grassy to the Décharge, the 5 cards in hand leave the "
                            "game face down")
    assert game.alive == [False, True, True]
    assert pile(game, ANA) == {}
    assert game.decharge == {**EMPTY, "spicy": 2, "precious": 2, "grassy": 1}
    assert game.active == BEN


def test_a_dead_players_constipation_goes_to_the_drain():
    game = position("Ana*: 2 spicy, 2 precious, 1 grassy, constipated / Ben: / Cy:")
    play(game, "constipation Ben")
    assert not game.alive[ANA] and not game.constipated[ANA]
    assert game.drain["constipation"] == 1
    assert game.constipated[BEN]


def test_a_fifth_poop_from_someone_else_waits_for_its_owners_turn():
    game = position("Ana*: / Ben: 2 spicy, 2 precious / Cy:")
    play(game, "poop Ben grassy")
    assert game.alive[BEN] and game.view()["players"][BEN]["pile_total"] == 5
    play(game, "toilette Ben")
    assert game.alive[BEN] and pile(game, BEN) == {}


def test_a_player_with_five_who_plays_elsewhere_dies_at_the_end_of_the_turn():
    game = position("Ana: / Ben*: 2 spicy, 2 precious, 1 grassy / Cy:")
    play(game, "poop Cy spicy")
    assert not game.alive[BEN]
    assert game.active == CY


def test_a_suppositoire_on_oneself_at_five_saves_the_player():
    game = position("Ana*: 2 spicy, 2 precious, 1 grassy / Ben: / Cy:")
    play(game, "suppositoire Ana grassy")
    assert game.alive[ANA] and pile(game, ANA) == {"spicy": 2, "precious": 2}


def test_the_turn_order_skips_the_dead():
    game = position("Ana*: / Ben: dead / Cy:")
    events = play(game, "poop Cy spicy")
    assert game.active == CY
    assert events[1].message == "Cy's turn"


def test_a_card_on_a_dead_player_is_refused():
    game = position("Ana*: / Ben: dead / Cy:")
    message = refused(game, "poop Ben spicy", rule="dead-player")
    assert message == "Ben is dead: a spicy poop needs a living player (Ana, Cy)"


def test_a_dead_player_cannot_play_a_card():
    game = position("Ana*: / Ben: dead / Cy:")
    refused(game, "poop Cy spicy player=Ben", WrongPlayer)


def test_a_player_out_of_turn_cannot_play_a_card():
    game = position("Ana*: / Ben: / Cy:")
    message = refused(game, "toilette Ana player=Cy", WrongPlayer)
    assert message == "it is not Cy's turn for 'toilette'; waiting for Ana"


def test_the_last_survivor_wins():
    game = position("Ana*: 2 spicy, 2 precious / Ben:")
    events = play(game, "poop Ana fruity")
    assert kinds(events) == ["poop-played", "player-died", "game-over"]
    assert events[-1].message == "Ben is the last survivor and wins" and events[-1].alert
    assert game.over and game.expected() == []
    result = game.result()
    assert (result.winners, result.scores) == ((BEN,), (0, 1))
    assert game.view()["winner"] == BEN and game.view()["active"] is None


def test_nothing_is_accepted_once_the_game_is_over():
    game = position("Ana*: 2 spicy, 2 precious / Ben:")
    play(game, "poop Ana fruity")
    refused(game, "poop Ben spicy", GameIsOver)
    refused(game, "note too late", GameIsOver)


def test_there_is_no_result_before_the_end():
    assert position("Ana*: / Ben:").result() is None


# -- turns and the draw ------------------------------------------------------------


def test_the_deal_gives_five_cards_each_and_the_first_player_draws_a_sixth():
    game = OhShit(Setup(("Ana", "Ben", "Cy")))
    assert game.hands == [6, 5, 5]
    assert game.draw_pile == 76 - 15 - 1
    assert game.active == ANA


def test_a_turn_begins_with_its_draw():
    game = position("Ana*: / Ben: / Cy:")
    before = game.draw_pile
    events = play(game, "poop Cy spicy")
    assert kinds(events) == ["poop-played", "turn", "draw"]
    assert game.hands == [5, 6, 5]
    assert game.draw_pile == before - 1
    assert events[2].message == f"Ben draws a card (6 in hand, {before - 1} left in the draw pile)"


def test_the_active_player_is_expected_to_play_one_of_the_four_cards():
    game = position("Ana: / Ben*: / Cy:")
    assert [(e.command, e.player) for e in game.expected()] == [
        ("poop", BEN), ("toilette", BEN), ("constipation", BEN), ("suppositoire", BEN)]


def test_a_card_can_be_written_as_words_with_a_colour_in_any_case():
    game = position("Ana*: / Ben: / Cy:")
    game.apply(Command("poop", {"target": "ben", "colour": "Spicy"}))
    assert pile(game, BEN) == {"spicy": 1}


def test_an_unknown_colour_is_refused():
    game = position("Ana*: / Ben: / Cy:")
    message = refused(game, "poop Ben brown", BadArgument)
    assert "spicy, precious, grassy, frosty, fruity, unicorn" in message


# -- counting the cards ---------------------------------------------------------------


def test_an_empty_draw_pile_is_rebuilt_from_the_decharge_with_poops_only():
    deck = small_deck(toilette=3, suppositoire=3, spicy=12, precious=3)
    game = position("Ana*: / Ben: / Cy:", deck=deck, decharge="3 spicy, 2 precious")
    assert game.draw_pile == 0
    events = play(game, "poop Cy spicy")
    reshuffle = events[2]
    assert reshuffle.kind == "reshuffle" and reshuffle.alert
    assert reshuffle.message == ("The draw pile is empty: shuffle the Décharge's 5 poops "
                                 "into a new draw pile (poops only from now on)")
    assert game.draw_pile == 4 and game.hands[BEN] == 6
    assert sum(game.decharge.values()) == 0
    assert game.view()["poops_only"] is True


def test_with_no_draw_pile_and_no_decharge_the_draw_is_skipped():
    deck = small_deck(toilette=3, suppositoire=3, spicy=10)
    game = position("Ana*: / Ben: / Cy:", deck=deck)
    events = play(game, "poop Cy spicy")
    assert events[2].kind == "draw" and events[2].data["skipped"]
    assert events[2].message == ("The draw pile and the Décharge are empty: Ben draws "
                                 "nothing (5 cards in hand)")
    assert game.hands[BEN] == 5 and game.active == BEN


def test_a_card_that_is_all_face_up_cannot_be_in_a_hand():
    game = position("Ana*: / Ben: constipated / Cy: constipated",
                    deck={"constipation": 2})
    message = refused(game, "constipation Ana", rule="no-card-left")
    assert message == ("no Constipation card can be in Ana's hand: all 2 of the deck are "
                       "on the table, in the Décharge or in the Drain; Ana plays another "
                       "card, or, if the box holds more, correct the deck (Corrections, Set "
                       "the deck)")


def test_a_colour_whose_cards_are_all_in_the_decharge_cannot_be_played():
    game = position("Ana*: / Ben: 1 spicy / Cy:", decharge="9 spicy")
    refused(game, "poop Cy spicy", rule="no-card-left")


def test_when_nobody_holds_a_card_and_nothing_can_be_drawn_the_survivors_share_the_win():
    deck = small_deck(toilette=2, suppositoire=2, spicy=2, precious=2, grassy=3)
    game = position("Ana*: 1 spicy, 1 precious, 1 grassy / Ben: 1 spicy, 1 precious, 1 grassy",
                    deck=deck, hands={"Ana": 1, "Ben": 0},
                    drain="2 toilette, 2 suppositoire")
    assert game.draw_pile == 0
    events = play(game, "poop Ben grassy")
    assert game.over
    assert events[-1].message == "no card is left to play: Ana and Ben survive and share the win"
    assert game.result().winners == (ANA, BEN)


def test_every_card_is_counted_once():
    game = position("Ana*: 2 spicy / Ben: 1 unicorn, constipated / Cy: dead",
                    decharge="3 precious", drain="2 toilette")
    view = game.view()
    counted = (sum(p["pile_total"] for p in view["players"])
               + sum(p["hand"] for p in view["players"])
               + view["draw_pile"] + view["decharge"] + view["drain"]
               + view["constipations_on_table"])
    assert counted == view["deck_total"] == sum(DEFAULT_DECK.values())
    assert view["set_aside"] == 5


def test_the_view_is_json_for_screens():
    game = position("Ana*: 2 spicy / Ben: 1 unicorn, constipated / Cy: dead")
    view = json.loads(json.dumps(game.view()))
    assert view["players"][BEN] == {
        "seat": 1, "name": "Ben",
        "pile": {**EMPTY, "unicorn": 1}, "pile_total": 1,
        "constipated": True, "alive": True, "hand": 5,
    }
    assert view["active"] == ANA and view["deck"] == DEFAULT_DECK


# -- the deck at setup ----------------------------------------------------------------


def test_the_default_deck():
    game = OhShit(Setup(("Ana", "Ben")))
    assert game.deck == DEFAULT_DECK
    assert sum(game.deck.values()) == 76


def test_the_table_sets_its_own_deck():
    game = OhShit(Setup(("Ana", "Ben"), options={"deck": {"unicorn": 2, "fruity": 0}}))
    assert game.deck == {**DEFAULT_DECK, "unicorn": 2, "fruity": 0}
    assert game.draw_pile == 76 - 12 - 10 - 1


@pytest.mark.parametrize("options, says", [
    ({"deck": {"brown": 3}}, "unknown card kind(s) brown"),
    ({"deck": {"spicy": -1}}, "spicy must be a whole number from 0 to 40"),
    ({"deck": {"spicy": True}}, "spicy must be a whole number"),
    ({"deck": {"spicy": "ten"}}, "spicy must be a whole number"),
    ({"deck": {"toilette": 2}}, "3 players need at least 3"),
    ({"deck": small_deck(toilette=3, suppositoire=3, spicy=8)}, "needs at least 15"),
    ({"deck": [1, 2]}, "option 'deck' maps card kinds to counts"),
    ({"speed": 3}, "unknown option speed"),
])
def test_bad_deck_options_are_refused_at_setup(options, says):
    with pytest.raises(BadSetup, match=re.escape(says)):
        OhShit(Setup(("Ana", "Ben", "Cy"), options=options))


@pytest.mark.parametrize("players", [("Ana",), tuple("ABCDEFG")])
def test_two_to_six_players(players):
    with pytest.raises(BadSetup, match="2 to 6 players"):
        OhShit(Setup(players))


def test_the_registry_finds_the_game_by_key_and_alias():
    assert game_class("ohshit") is OhShit and game_class("oh-shit") is OhShit
    assert OhShit.title == "OhShit!"


def test_the_commands_the_menus_are_built_from():
    described = OhShit.describe()["commands"]
    rules = [c["name"] for c in described if not c["correction"]]
    corrections = [c["name"] for c in described if c["correction"]]
    assert rules == ["poop", "toilette", "constipation", "suppositoire"]
    assert corrections == ["set-pile", "set-constipated", "set-hand", "set-decharge",
                           "set-drain", "set-deck", "kill", "revive", "skip", "note"]
    poop = described[0]["params"]
    assert [(p["name"], p["kind"]) for p in poop] == [
        ("target", "player"), ("colour", "choice"), ("player", "player")]
    assert poop[1]["choices"] == list(POOPS)


# -- corrections ------------------------------------------------------------------------


def test_a_corrected_pile_never_flushes_and_the_draw_pile_makes_up_the_difference():
    game = position("Ana*: / Ben: 2 spicy / Cy:")
    before = game.draw_pile
    events = play(game, "set-pile Ben spicy 3")
    assert pile(game, BEN) == {"spicy": 3}
    assert game.draw_pile == before - 1
    assert kinds(events) == ["correction"]
    assert game.active == ANA


def test_a_corrected_pile_never_holds_more_than_six():
    game = position("Ana*: / Ben: 2 spicy, 2 precious / Cy:")
    refused(game, "set-pile Ben grassy 3", rule="pile-limit")


def test_a_correction_that_changes_nothing_is_refused():
    game = position("Ana*: / Ben: 2 spicy / Cy:")
    refused(game, "set-pile Ben spicy 2", rule="no-change")
    refused(game, "set-constipated Ben no", rule="no-change")


def test_lifting_a_constipation_by_correction_does_not_flush():
    game = position("Ana*: / Ben: 3 spicy, constipated / Cy:")
    events = play(game, "set-constipated Ben no")
    assert kinds(events) == ["correction"]
    assert pile(game, BEN) == {"spicy": 3} and not game.constipated[BEN]


def test_constipating_by_correction():
    game = position("Ana*: / Ben: / Cy:")
    play(game, "set-constipated Cy yes")
    assert game.constipated == [False, False, True]
    assert game.active == ANA


def test_killing_the_active_player_by_correction_passes_the_turn():
    game = position("Ana*: 2 spicy, constipated / Ben: / Cy:")
    events = play(game, "kill Ana")
    assert kinds(events) == ["correction", "player-died", "turn", "draw"]
    assert game.alive == [False, True, True] and game.active == BEN
    assert game.decharge["spicy"] == 2 and game.drain["constipation"] == 1


def test_killing_the_last_opponent_by_correction_ends_the_game():
    game = position("Ana*: / Ben:")
    play(game, "kill Ben")
    assert game.result().winners == (ANA,)


def test_a_dead_player_can_be_revived_and_takes_turns_again():
    game = position("Ana*: / Ben: dead / Cy:")
    play(game, "revive Ben", "poop Cy spicy")
    assert game.alive == [True, True, True] and game.active == BEN


def test_skipping_a_turn_by_hand_never_kills():
    game = position("Ana*: 2 spicy, 2 precious, 1 grassy / Ben: / Cy:")
    events = play(game, "skip")
    assert kinds(events) == ["correction", "turn", "draw"]
    assert game.alive[ANA] and game.active == BEN


def test_a_corrected_pile_never_holds_more_of_a_colour_than_the_deck():
    game = position("Ana*: / Ben: / Cy:", decharge="4 unicorn")
    message = refused(game, "set-pile Ben unicorn 1", rule="more-than-the-deck")
    assert message == ("Ben's pile can hold at most 0 Unicorn: the deck holds 4 and 4 are "
                       "face up elsewhere; if the box holds more, correct the deck first "
                       "(Corrections, Set the deck)")


def test_constipating_by_correction_needs_a_constipation_that_is_not_face_up():
    game = position("Ana*: / Ben: constipated / Cy:", deck={"constipation": 2},
                    drain="1 constipation")
    message = refused(game, "set-constipated Cy yes", rule="more-than-the-deck")
    assert message.startswith("all 2 Constipation cards of the deck are face up")
    assert message.endswith("correct the deck first (Corrections, Set the deck)")


# -- correcting the counts: hands, Décharge, Drain, deck ------------------------------


def counted(game) -> int:
    """Every card of the table, zone by zone, as the view shows them."""
    view = game.view()
    return (sum(p["pile_total"] + p["hand"] for p in view["players"]) + view["draw_pile"]
            + view["decharge"] + view["drain"] + view["constipations_on_table"])


def test_a_mis_entered_colour_in_the_decharge_is_fixed_and_the_card_it_blocked_is_playable():
    # A precious poop went down as spicy and flushed: the Décharge shows 9 spicy,
    # so with Ben's spicy all 10 look face up and Ana's spicy is refused.
    game = position("Ana*: / Ben: 1 spicy / Cy:", decharge="9 spicy")
    refused(game, "poop Cy spicy", rule="no-card-left")
    before = game.draw_pile
    events = play(game, "set-decharge spicy 8")
    assert kinds(events) == ["correction"]
    assert events[0].message == (f"Correction: the Décharge holds 8 spicy, not 9 (8 cards in "
                                 f"all); 1 spicy goes back to the draw pile ({before + 1} in it)")
    play(game, "set-decharge precious 1")
    assert game.decharge == {**EMPTY, "spicy": 8, "precious": 1}
    assert game.draw_pile == before and game.active == ANA
    play(game, "poop Cy spicy")
    assert pile(game, CY) == {"spicy": 1}


def test_the_decharge_never_holds_more_of_a_colour_than_the_deck_leaves_for_it():
    game = position("Ana*: / Ben: 1 spicy / Cy:", decharge="8 spicy")
    message = refused(game, "set-decharge spicy 10", rule="more-than-the-deck")
    assert message == ("the Décharge can hold at most 9 spicy: the deck holds 10 and 1 is "
                       "face up elsewhere; if the box holds more, correct the deck first "
                       "(Corrections, Set the deck)")


def test_a_constipation_wrongly_sent_to_the_drain_is_taken_out_and_can_be_played_again():
    game = position("Ana*: / Ben: constipated / Cy:", deck={"constipation": 2},
                    drain="1 constipation")
    refused(game, "constipation Cy", rule="no-card-left")
    events = play(game, "set-drain constipation 0")
    assert events[0].message == (f"Correction: the Drain holds 0 Constipation, not 1 (0 cards "
                                 f"in all); 1 Constipation goes back to the draw pile "
                                 f"({game.draw_pile} in it)")
    play(game, "constipation Cy")
    assert game.constipated == [False, True, True]


def test_the_drain_counts_the_constipations_in_front_of_players_against_the_deck():
    game = position("Ana*: / Ben: constipated / Cy:", deck={"constipation": 2})
    message = refused(game, "set-drain constipation 2", rule="more-than-the-deck")
    assert message.startswith("the Drain can hold at most 1 Constipation: the deck holds 2 "
                              "and 1 is face up elsewhere")


def test_a_hand_counted_at_the_table_is_set_and_the_draw_pile_makes_up_the_difference():
    game = position("Ana*: / Ben: / Cy:")
    before = game.draw_pile
    events = play(game, "set-hand Ben 7")
    assert game.hands == [6, 7, 5] and game.draw_pile == before - 2
    assert events[0].message == (f"Correction: Ben's hand holds 7 cards, not 5; 2 cards come "
                                 f"from the draw pile ({before - 2} left)")
    assert counted(game) == sum(DEFAULT_DECK.values())


def test_a_player_counted_with_an_empty_hand_is_given_back_the_card_they_hold():
    game = position("Ana*: / Ben: / Cy:", hands={"Ana": 0})
    message = refused(game, "poop Ben spicy", rule="empty-hand")
    assert message == ("Ana has no card in hand by the companion's count: if Ana holds "
                       "cards, correct the count of their hand (Corrections, Set a hand); if "
                       "not, skip the turn")
    play(game, "set-hand Ana 1", "poop Ben spicy")
    assert pile(game, BEN) == {"spicy": 1} and game.hands[ANA] == 0


def test_a_hand_can_only_take_the_cards_that_the_draw_pile_holds():
    deck = small_deck(toilette=3, suppositoire=3, spicy=10)
    game = position("Ana*: / Ben: / Cy:", deck=deck)
    assert game.draw_pile == 0
    message = refused(game, "set-hand Ben 6", rule="draw-pile-short")
    assert message == ("the draw pile holds 0 cards, so 1 card cannot come from it (every "
                       "card is counted once): lower a count that is too high first, or, if "
                       "the box holds more cards, correct the deck (Corrections, Set the deck)")


def test_a_dead_players_set_aside_hand_is_corrected_and_comes_back_with_them():
    game = position("Ana*: / Ben: dead / Cy:")
    events = play(game, "set-hand Ben 2")
    assert events[0].message.startswith("Correction: the hand Ben set aside at their death "
                                        "holds 2 cards, not 5; 3 cards go back")
    assert game.view()["set_aside"] == 2
    play(game, "revive Ben")
    assert game.hands[BEN] == 2


def test_a_card_the_box_holds_beyond_its_setup_count_is_added_by_set_deck():
    game = position("Ana*: / Ben: constipated / Cy: constipated", deck={"constipation": 2})
    refused(game, "constipation Ana", rule="no-card-left")
    before = game.draw_pile
    events = play(game, "set-deck constipation 3")
    assert kinds(events) == ["correction"]
    assert events[0].message == (f"Correction: the deck holds 3 Constipation, not 2 (73 cards "
                                 f"in all); the 1 card found goes into the draw pile "
                                 f"({before + 1} in it)")
    assert game.deck["constipation"] == 3 and game.view()["deck_total"] == 73
    assert counted(game) == 73 and OhShit.loads(game.dumps()).deck == game.deck
    play(game, "constipation Ana")
    assert game.constipated == [True, True, True]


def test_a_draw_pile_one_short_with_every_other_count_right_is_fixed_by_set_deck():
    game = position("Ana*: / Ben: / Cy:")
    before = game.draw_pile
    events = play(game, "set-deck fruity 9")
    assert game.draw_pile == before - 1 and counted(game) == 75
    assert events[0].message.endswith(f"the 1 card missing leaves the draw pile "
                                      f"({before - 1} left)")


def test_the_deck_never_holds_fewer_of_a_kind_than_are_face_up():
    game = position("Ana*: / Ben: 2 grassy / Cy:", decharge="1 grassy")
    message = refused(game, "set-deck grassy 2", rule="fewer-than-face-up")
    assert message == ("3 grassy are face up on the table, in the Décharge or in the Drain, "
                       "so the deck holds at least 3; if one of those counts is wrong, "
                       "correct it first")


def test_cards_missing_from_the_box_that_the_draw_pile_cannot_lose_are_in_the_hands():
    deck = small_deck(toilette=3, suppositoire=3, spicy=10)
    game = position("Ana*: / Ben: / Cy:", deck=deck)
    message = refused(game, "set-deck spicy 9", rule="draw-pile-short")
    assert message == ("the draw pile holds 0 cards, so 1 missing spicy cannot have left it: "
                       "the hands hold the rest of the deck, so correct them first "
                       "(Corrections, Set a hand)")


@pytest.mark.parametrize("words, says", [
    ("set-hand Ben 5", "Ben's hand already holds 5 cards: nothing to correct"),
    ("set-decharge spicy 0", "the Décharge already holds 0 spicy: nothing to correct"),
    ("set-drain toilette 0", "the Drain already holds 0 Toilette: nothing to correct"),
    ("set-deck unicorn 4", "the deck already holds 4 Unicorn: nothing to correct"),
])
def test_a_count_correction_that_changes_nothing_is_refused(words, says):
    game = position("Ana*: / Ben: / Cy:")
    assert refused(game, words, rule="no-change") == says


@pytest.mark.parametrize("words, says", [
    ("set-decharge spicy -1", "'count' is -1, outside the allowed range 0..40"),
    ("set-drain toilette 41", "'count' is 41, outside the allowed range 0..40"),
    ("set-drain spicy 1", "'card' must be one of toilette, constipation, suppositoire, "
                          "not 'spicy'"),
    ("set-hand Ben 77", "'count' is 77, outside the allowed range 0..76"),
])
def test_impossible_count_corrections_are_refused_naming_what_is_allowed(words, says):
    game = position("Ana*: / Ben: / Cy:")
    assert refused(game, words, BadArgument) == says


def test_the_hand_counts_the_menus_offer_run_to_the_size_of_the_deck():
    game = position("Ana*: / Ben: / Cy:")
    count = OhShit.spec("set-hand").param("count")
    assert game.param_range(count) == (0, 76)
    play(game, "set-deck unicorn 5")
    assert game.param_range(count) == (0, 77)


@pytest.mark.parametrize("words", [
    "set-pile Ben unicorn 1", "set-constipated Cy yes", "set-hand Cy 3",
    "set-decharge precious 2", "set-drain suppositoire 3", "set-deck spicy 12",
    "set-deck toilette 7",
])
def test_every_count_correction_keeps_every_card_counted_once(words):
    game = position("Ana*: / Ben: 1 spicy / Cy:", decharge="1 unicorn", drain="1 toilette")
    play(game, words)
    assert counted(game) == sum(game.deck.values())
    assert all(game.face_up(kind) <= game.deck[kind] for kind in KINDS)


def test_a_note_goes_in_the_history():
    game = position("Ana*: / Ben:")
    assert play(game, "note Ben dropped a card")[0].message == "Ben dropped a card"


# -- saving ----------------------------------------------------------------------------


def test_the_json_form_is_lossless():
    game = position("Ana: 2 spicy / Ben*: 1 unicorn, constipated / Cy: dead",
                    decharge="3 precious", drain="1 toilette")
    copy = OhShit.loads(game.dumps())
    assert copy.dumps() == game.dumps()
    assert play(copy, "poop Ana unicorn")[1].message == play(game, "poop Ana unicorn")[1].message


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_no_refusal_shows_a_command_as_the_command_line_types_it(lang):
    """A refusal says what to do at the table (where a correction is on
    the panel), never a command's name as typed ("set-deck")."""
    from companion.core.games.ohshit.commands import COMMANDS
    from companion.core.games.ohshit.refusals import REFUSALS

    names = [spec.name for spec in COMMANDS if "-" in spec.name]
    assert "set-deck" in names
    for key, sentence in REFUSALS[lang].items():
        for name in names:
            assert name not in sentence, (key, name)
