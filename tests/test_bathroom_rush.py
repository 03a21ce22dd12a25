"""Bathroom Rush, situation by situation, as the rulebook tells it."""

from __future__ import annotations

import re

import pytest

from companion.core.engine import Command, Setup
from companion.core.errors import (
    BadArgument,
    BadSetup,
    GameIsOver,
    IllegalCommand,
    NotExpected,
    WrongPlayer,
)
from companion.core.games import game_class
from companion.core.games.bathroom_rush import BLUE_DIE, RED_DIE, BathroomRush
from tests.words import kinds, play

ANA, BEN, CY, DEE = 0, 1, 2, 3
THREE = ("Ana", "Ben", "Cy")
COLOUR_LETTERS = {"n": "neutral", "o": "orange", "r": "red", "y": "yellow"}
PERSONA = re.compile(r"^([nory])(\d+)(?:\.(\d+))?(?:\+(\d+)(?:\.(\d+))?)?(\*)?(?:@(\S+))?$")


def position(queues, *, players=THREE, turn=None, first=ANA, reserves=None, step="choose",
             card=None, final_round=False, arrived=(), permanents=None, variants=(), deck=None,
             discard=0):
    """A game in phase E of ``turn``'s turn (the first player's unless
    given), the queues written bathroom first, one string each:

    ``Ana``  a player;  ``?``  a face-down Persona;  ``-``  a queue without
    its door;  ``o2.1``  a revealed Persona: colour (n, o, r, y), printed
    pipì, then ``.popò``; suffixes: ``+1.0`` tokens lying on the card
    besides the printed ones (which a bathroom Persona already holds),
    ``*`` turned over, ``@Avid_Reader`` its name.

    ``reserves`` maps a seat to (pipì, popò), or to None for an
    eliminated player; ``deck`` and ``discard`` count the Persona cards off
    the table (by default all of them are in the deck).  The game is set
    through its lossless JSON form.
    """
    game = BathroomRush(Setup(tuple(players), frozenset(variants)))
    data = game.to_json()
    state = data["state"]
    next_id = 0
    built = []
    for text in queues:
        if text == "-":
            built.append({"door": False, "slots": [], "permanents": []})
            continue
        slots = []
        for word in text.split():
            if word in players:
                slots.append({"player": players.index(word)})
                continue
            persona = {"id": next_id, "revealed": False, "pipi": None, "popo": None,
                       "colour": None, "name": None, "flipped": False, "tokens": [0, 0],
                       "placed": False}
            next_id += 1
            if word != "?":
                m = PERSONA.match(word)
                assert m, f"cannot read {word!r}"
                colour, pipi, popo, extra_pipi, extra_popo, flipped, name = m.groups()
                persona.update(revealed=True, pipi=int(pipi), popo=int(popo or 0),
                               colour=COLOUR_LETTERS[colour], flipped=bool(flipped),
                               name=name.replace("_", " ") if name else None,
                               tokens=[int(extra_pipi or 0), int(extra_popo or 0)])
                if not slots:
                    persona["placed"] = True
                    persona["tokens"][0] += persona["pipi"]
                    persona["tokens"][1] += persona["popo"]
            slots.append(persona)
        built.append({"door": True, "slots": slots, "permanents": []})
    for q, cards in (permanents or {}).items():
        built[q - 1]["permanents"] = [{"card": c, "pipi": p, "popo": o} for c, p, o in cards]
    res = [{"pipi": 0, "popo": 0, "eliminated": False} for _ in players]
    for seat, value in (reserves or {}).items():
        res[seat] = ({"pipi": 0, "popo": 0, "eliminated": True} if value is None
                     else {"pipi": value[0], "popo": value[1], "eliminated": False})
    n = len(players)
    order = [(first + k) % n for k in range(n) if not res[(first + k) % n]["eliminated"]]
    turn = first if turn is None else turn
    on_table = sum(1 for q in built for s in q["slots"] if "player" not in s)
    state.update(
        queues=built, reserves=res, first_player=first, round=1, round_order=order,
        turn=order.index(turn), phase="E", step=step, chooser=n, action_card=card,
        final_round=final_round, arrived=list(arrived),
        persona_deck=50 - on_table if deck is None else deck, persona_discard=discard,
        next_id=next_id,
    )
    return BathroomRush.from_json(data)


def refused(game, words, error=IllegalCommand):
    """The command is refused with ``error`` and the game is unchanged."""
    before = game.dumps()
    with pytest.raises(error) as caught:
        play(game, words)
    assert game.dumps() == before
    return caught.value


def card(slot):
    if not slot["revealed"]:
        return "?"
    popo = f".{slot['popo']}" if slot["popo"] else ""
    return f"{slot['colour'][0]}{slot['pipi']}{popo}"


def line(game, q):
    """A queue written back the way ``position`` reads it (no suffixes); a
    Persona lying on another is written ``top/under``."""
    out = []
    for slot in game.queues[q - 1]["slots"]:
        if "player" in slot:
            out.append(game.players[slot["player"]])
        else:
            out.append(card(slot) + (f"/{card(slot['covers'])}" if "covers" in slot else ""))
    return " ".join(out)


def reserve(game, seat):
    r = game.reserves[seat]
    return None if r["eliminated"] else (r["pipi"], r["popo"])


def commands(game):
    return [e.command for e in game.expected()]


def new_game(players=THREE, variants=()):
    return BathroomRush(Setup(tuple(players), frozenset(variants)))


# -- setup ---------------------------------------------------------------------


def test_the_registry_finds_the_game_by_key_and_alias():
    assert game_class("bathroom-rush") is BathroomRush
    assert game_class("br") is BathroomRush


def test_three_players_lay_out_four_queues_of_six_face_down_personas():
    game = new_game()
    assert [line(game, q) for q in (1, 2, 3, 4)] == ["? ? ? ? ? ?"] * 4
    assert all(queue["door"] for queue in game.queues)
    assert game.persona_deck == 50 - 24


def test_two_players_lay_out_three_queues():
    assert len(new_game(("Ana", "Ben")).queues) == 3


def test_four_players_choose_among_five_queues_and_the_last_one_left_is_free():
    game = new_game(("Ana", "Ben", "Cy", "Dee"))
    play(game, "choose-queue 5", "choose-queue 3", "choose-queue 1")
    assert game.expected()[0].player == DEE
    assert game.expected()[0].prompt == "Dee: choose a queue (2, 4) and stand at its end"
    play(game, "choose-queue 4")
    assert game.free_queue() == 2


@pytest.mark.parametrize("players", [("Ana",), ("Ana", "Ben", "Cy", "Dee", "Eli")])
def test_a_game_is_for_two_to_four_players(players):
    with pytest.raises(BadSetup, match="2 to 4 players"):
        new_game(players)


def test_an_unknown_variant_or_option_is_refused_at_setup():
    with pytest.raises(BadSetup, match="unknown variant"):
        new_game(variants=("speed",))
    with pytest.raises(BadSetup, match="takes no option deck; its options are: box, persona_deck"):
        BathroomRush(Setup(THREE, frozenset(), {"deck": 40}))


# -- the Persona deck, an option of the setup -----------------------------------


def test_the_persona_deck_holds_the_boxs_50_cards_unless_the_setup_says_otherwise():
    assert new_game().persona_deck == 50 - 24
    game = BathroomRush(Setup(THREE, frozenset(), {"persona_deck": 40}))
    assert game.persona_deck == 40 - 24
    assert game.view()["persona_deck"] == 16


@pytest.mark.parametrize("deck", [26, 121, "40", True, None])
def test_a_persona_deck_too_small_to_deal_or_not_a_number_is_refused(deck):
    # Three players: 4 queues of 6 and one behind each player need 27 cards.
    with pytest.raises(BadSetup, match="holds 27 to 120 cards"):
        BathroomRush(Setup(THREE, frozenset(), {"persona_deck": deck}))


def test_the_options_are_described_for_the_setup_screens():
    assert "persona_deck" in BathroomRush.describe()["options"]


# -- the box described by its owner: a reveal is one kind still unseen -----------


BOX = [
    {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 2},
    {"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 40},
    {"name": "Avido lettore", "colour": "orange", "pipi": 1, "popo": 1, "copies": 1},
    {"name": "Lost Young Man", "colour": "yellow", "pipi": 0, "popo": 0, "copies": 1},
]


def boxed(variants=(), box=BOX):
    game = BathroomRush(Setup(THREE, frozenset(variants), {"box": box}))
    play(game, "choose-queue 1", "choose-queue 2", "choose-queue 3")
    return game


def unseen(game):
    return {k["name"]: k["unseen"] for k in game.view()["box"]}


def test_with_a_box_the_deck_is_the_boxs_cards_and_every_kind_is_unseen():
    game = boxed()
    assert game.persona_deck == 44 - 27
    assert unseen(game) == {"Anziano": 2, "Signora": 40, "Avido lettore": 1,
                            "Lost Young Man": 1}


def test_a_reveal_is_the_choice_of_a_kind_with_its_printed_values():
    game = boxed()
    waits = game.expected()
    places = [(e.args["queue"], e.args["position"]) for e in waits]
    # Every reveal as a kind first, then the same places as printed values.
    half = len(waits) // 2
    assert [e.command for e in waits] == ["reveal-kind"] * half + ["reveal"] * half
    assert places[:half] == places[half:] and len(set(places[:half])) == half
    assert game.expected()[0].prompt == "Which Persona is in the bathroom of queue 1?"
    events = play(game, "reveal-kind 1 1 Anziano")
    assert events[0].message == "Revealed in the bathroom of queue 1: Elderly Man, 2 pipì"
    p = game.persona(1, 1)
    assert (p["pipi"], p["popo"], p["colour"], p["name"]) == (2, 0, "orange", "Anziano")
    assert unseen(game)["Anziano"] == 1


def test_a_kind_may_be_named_in_english_or_by_its_number():
    game = boxed()
    play(game, "reveal-kind 1 1 elderly man", "reveal-kind 2 1 3")
    assert unseen(game)["Anziano"] == 1 and unseen(game)["Avido lettore"] == 0


def test_a_reveal_of_a_persona_the_box_no_longer_holds_is_refused(table, db_path):
    import sqlite3

    from companion.core.engine import Command

    table.new_game("bathroom-rush", list(THREE), options={"box": BOX})
    for q in (1, 2, 3):
        table.submit(Command("choose-queue", {"queue": q}))
    table.submit(Command("reveal-kind", {"queue": 1, "position": 1, "kind": "Avido lettore"}))
    before = (table.game.dumps(), table.version)
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    with pytest.raises(IllegalCommand, match="all 1 Avido lettore of the box are already "
                                             "face up or discarded"):
        table.submit(Command("reveal-kind", {"queue": 2, "position": 1,
                                             "kind": "Avido lettore"}))
    assert (table.game.dumps(), table.version) == before
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == rows


def test_a_kind_the_box_does_not_have_is_refused():
    game = boxed()
    assert refused(game, "reveal-kind 1 1 Nonno").rule == "no-such-kind"


def test_a_kind_seen_and_discarded_stays_seen_until_the_deck_is_reshuffled():
    game = boxed()
    play(game, "reveal-kind 1 1 Anziano")
    game.box_seen = [0, 0, 0, 0]
    slot = game.queues[0]["slots"].pop(0)
    game._discard([slot])
    assert game.box_seen == [1, 0, 0, 0] and unseen(game)["Anziano"] == 1
    game.persona_deck = 0
    game._draw([])
    assert unseen(game)["Anziano"] == 2


def test_beginners_without_yellow_effects_take_the_lost_young_man_out_of_the_box():
    game = boxed(variants=("no-yellow",))
    assert "Lost Young Man" not in unseen(game)
    assert game.persona_deck == 43 - 27


@pytest.mark.parametrize("box, why", [
    ([], "a box is a list"),
    ([{"name": "Anziano", "colour": "pink", "pipi": 1, "popo": 0, "copies": 50}],
     "the colour is one of"),
    ([{"name": "Anziano", "colour": "orange", "pipi": 1, "popo": 0, "copies": 0}],
     "copies is a whole number from 1"),
    ([{"name": "Anziano", "colour": "orange", "pipi": 1, "popo": 0, "copies": 20},
      {"name": "anziano", "colour": "orange", "pipi": 1, "popo": 0, "copies": 20}],
     "names anziano twice"),
    ([{"name": "Anziano", "colour": "orange", "pipi": 1, "popo": 0, "copies": 10}],
     "holds 10 Persona cards to play with"),
])
def test_a_box_badly_described_is_refused_at_setup(box, why):
    with pytest.raises(BadSetup, match=why):
        BathroomRush(Setup(THREE, frozenset(), {"box": box}))


def test_a_deck_size_that_disagrees_with_the_box_is_refused():
    with pytest.raises(BadSetup, match="the box described holds 44 Persona cards, not 50"):
        BathroomRush(Setup(THREE, frozenset(), {"box": BOX, "persona_deck": 50}))


# -- the variants: tips for first games -------------------------------------------


def test_beginners_without_yellow_effects_take_the_lost_young_man_out_of_the_deck():
    game = new_game(variants=("no-yellow",))
    assert game.persona_deck == 50 - 1 - 24


def test_without_yellow_effects_a_yellow_persona_does_nothing():
    game = position(["n2 Ana n1", "y1@Infamous_Person n1 Ben y1", "n1 n1 Cy n1", "n1 n3"],
                    variants=("no-yellow",))
    play(game, "pass")
    assert game.phase == "E"
    assert line(game, 2) == "y1 n1 Ben y1"


def test_without_yellow_effects_orange_and_red_still_act():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"],
                    variants=("no-yellow",))
    play(game, "pass")
    assert game.phase == "D"


def test_first_game_and_no_yellow_together_leave_no_persona_effect():
    game = position(["n2 Ana n1", "y1 o1 Ben r1 n1", "n1 n1 Cy n1", "n1 n3"],
                    variants=("first-game", "no-yellow"))
    play(game, "pass")
    assert game.phase == "E"


def test_the_lost_young_man_must_leave_enough_cards_to_deal():
    with pytest.raises(BadSetup, match="without the Lost Young Man"):
        BathroomRush(Setup(THREE, frozenset({"no-yellow"}), {"persona_deck": 27}))


def test_keep_playing_a_player_reaching_the_popo_limit_stays_in_the_game():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (0, 3)},
                    variants=("keep-playing",))
    events = play(game, "decompress", "roll 4")
    assert reserve(game, ANA) == (0, 4)
    assert "player-eliminated" not in kinds(events)
    assert "Ana reaches 4 popò and keeps playing" in [e.message for e in events]
    assert line(game, 1) == "n2 Ana ?"
    assert game.active() == BEN


def test_keep_playing_the_limit_is_said_once_and_popo_keep_counting():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (0, 4)},
                    variants=("keep-playing",))
    events = play(game, "decompress", "roll 4")
    assert reserve(game, ANA) == (0, 5)
    assert "limit-reached" not in kinds(events)
    assert game.score(ANA) == 25


def test_keep_playing_a_reserve_may_be_corrected_beyond_the_limit():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], variants=("keep-playing",))
    play(game, "set-reserve Ben 2 6")
    assert reserve(game, BEN) == (2, 6)
    refused(new_game(), "set-reserve Ben 2 4", BadArgument)


def test_keep_playing_the_player_over_the_limit_can_still_win_the_final_count():
    game = position(["Ana n1", "n2 Ben n1", "n1"], players=("Ana", "Ben"), turn=BEN,
                    final_round=True, arrived=[ANA], reserves={ANA: (0, 3), BEN: (0, 4)},
                    variants=("keep-playing",))
    play(game, "pass")
    assert game.over
    assert game.result().winners == (ANA,)
    assert game.result().scores == (15, 22)


def test_players_choose_their_queue_in_turn_order_from_the_first_player():
    game = new_game()
    assert game.expected()[0].player == ANA
    refused(game, "choose-queue 2 Ben", WrongPlayer)
    play(game, "choose-queue 2")
    assert line(game, 2) == "? ? ? ? ? ? Ana"
    assert game.expected()[0].player == BEN


def test_a_queue_already_taken_is_refused():
    game = new_game()
    play(game, "choose-queue 2")
    error = refused(game, "choose-queue 2")
    assert error.rule == "queue-taken"
    assert "taken by Ana" in str(error) and "1, 3, 4" in str(error)


def test_once_all_have_chosen_one_more_persona_goes_behind_each_player():
    game = new_game()
    events = play(game, "choose-queue 2", "choose-queue 4", "choose-queue 1")
    assert [line(game, q) for q in (1, 2, 3, 4)] == [
        "? ? ? ? ? ? Cy ?", "? ? ? ? ? ? Ana ?", "? ? ? ? ? ?", "? ? ? ? ? ? Ben ?"]
    assert game.free_queue() == 3
    assert game.first_player == ANA
    assert "queue 3 is the free queue" in events[1].message


def test_after_setup_the_bathrooms_and_the_personas_next_to_players_are_revealed():
    game = new_game(("Ana", "Ben"))
    play(game, "choose-queue 1", "choose-queue 2")
    assert {(e.args["queue"], e.args["position"]) for e in game.expected()} == {
        (1, 1), (1, 6), (1, 8), (2, 1), (2, 6), (2, 8), (3, 1)}
    assert set(commands(game)) == {"reveal"}


# -- the queues: revealing and turning over --------------------------------------


def test_revealing_a_persona_enters_its_printed_tokens_colour_and_name():
    game = new_game(("Ana", "Ben"))
    play(game, "choose-queue 1", "choose-queue 2")
    events = play(game, "reveal 1 8 1 0 orange Elderly Man")
    persona = game.persona(1, 8)
    assert (persona["pipi"], persona["popo"], persona["colour"], persona["name"]) == (
        1, 0, "orange", "Elderly Man")
    assert events[0].message == ("Revealed at position 8 of queue 1, behind Ana: "
                                 "Elderly Man, 1 pipì")


def test_a_persona_far_from_the_players_stays_face_down():
    game = new_game(("Ana", "Ben"))
    play(game, "choose-queue 1", "choose-queue 2")
    error = refused(game, "reveal 1 3 1 0 neutral")
    assert error.rule == "not-revealable"


def test_a_revealed_persona_cannot_be_revealed_again():
    game = new_game(("Ana", "Ben"))
    play(game, "choose-queue 1", "choose-queue 2", "reveal 1 1 2 0 neutral")
    assert refused(game, "reveal 1 1 3 0 neutral").rule == "already-revealed"


def test_flip_turns_over_a_persona_whose_effect_is_spent():
    game = position(["n1 o1 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1 ?"], step="action",
                    card="Bathroom Defence")
    play(game, "flip 1 2")
    assert game.persona(1, 2)["flipped"] is True
    assert refused(game, "flip 1 2").rule == "already-flipped"
    assert refused(game, "flip 4 2").rule == "face-down"


# -- reserves ------------------------------------------------------------------


def test_five_pipi_become_one_popo_at_once():
    game = position(["n1 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], step="action",
                    card="Distracted", reserves={ANA: (3, 1)})
    events = play(game, "take-tokens Ana 2 0")
    assert reserve(game, ANA) == (0, 2)
    assert kinds(events) == ["reserve-changed", "popo-converted"]
    assert events[1].message == "Five of Ana's pipì become one popò"


def test_a_fourth_popo_eliminates_the_player_and_removes_their_queue():
    game = position(["n1.1 n1 Ana n1", "n1 n1 Ben n1", "n2 n1 n1 Cy n1", "n1 n1"], turn=CY,
                    reserves={ANA: (0, 3)})
    events = play(game, "pass")
    assert reserve(game, ANA) is None
    assert game.queues[0] == {"door": False, "slots": [], "permanents": []}
    eliminated = next(e for e in events if e.kind == "player-eliminated")
    assert eliminated.alert
    assert eliminated.message == ("Ana has 4 popò and is eliminated: queue 1 is closed, its "
                                  "door removed and its 3 Personas discarded")
    assert game.view()["queues"][0]["door"] is False


def test_in_a_two_player_game_the_third_popo_eliminates():
    game = position(["n1 Ana n1", "n1 Ben n1", "n1"], players=("Ana", "Ben"),
                    reserves={BEN: (4, 2)}, step="action", card="Distracted")
    play(game, "take-tokens Ben 1 0")
    assert reserve(game, BEN) is None
    assert game.view()["reserves"][ANA]["popo_limit"] == 3


def test_the_limit_is_four_popo_with_three_players():
    game = position(["n1 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={BEN: (4, 2)},
                    step="action", card="Distracted")
    play(game, "take-tokens Ben 1 0")
    assert reserve(game, BEN) == (0, 3)


def test_the_last_player_standing_wins_at_once():
    game = position(["n1 Ana n1", "n1 Ben n1", "n1"], players=("Ana", "Ben"),
                    reserves={ANA: (1, 2), BEN: (3, 1)})
    events = play(game, "decompress", "roll 4")
    assert game.over
    assert game.result().winners == (BEN,)
    assert game.result().scores == (None, 8)
    assert events[-1].message == "Ben is the last player standing and wins"


def test_an_eliminated_player_has_no_more_turns_nor_the_first_player_token():
    game = position(["-", "n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n1"], reserves={ANA: None},
                    first=CY)
    assert game.round_order == [CY, BEN]
    play(game, "pass", "pass")
    assert game.round == 2
    assert game.first_player == BEN
    assert game.round_order == [BEN, CY]


def test_a_decompression_that_eliminates_ends_the_turn_and_replaces_nobody():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (0, 3)})
    events = play(game, "decompress", "roll 4")
    assert reserve(game, ANA) is None
    assert "persona-replaced" not in kinds(events)
    assert game.active() == BEN and not game.over


def test_a_player_eliminated_during_their_own_turn_hands_the_turn_on():
    game = position(["n2 Ana o1@Distracted", "n1 Ben n1", "n1 Cy n1", "n1"], turn=CY,
                    first=CY, reserves={ANA: (4, 3)})
    play(game, "pass")
    assert game.phase == "D" and game.active() == ANA
    play(game, "effect")
    assert reserve(game, ANA) is None
    assert game.active() == BEN


# -- the turn --------------------------------------------------------------------


def test_a_new_round_first_reveals_the_personas_that_came_into_the_bathrooms():
    game = position(["n1 ? Ana n1", "n1 n1 Ben n1", "n1 n1 n1 Cy n1", "n1 ?"], turn=CY)
    play(game, "pass")
    assert game.phase == "A"
    assert [(e.args["queue"], e.args["position"]) for e in game.expected()] == [(1, 1), (4, 1)]


def test_phase_b_puts_the_printed_tokens_on_the_bathroom_personas():
    # The Avid Reader left 2 pipì on the Persona after him last round.
    game = position(["n1 n2+2 Ana n1", "n1 n1.1 Ben n1", "n1 n1 n1 Cy n1", "n1 n3"], turn=CY)
    events = play(game, "pass")
    assert [game.persona(q, 1)["tokens"] for q in (1, 2, 3, 4)] == [
        [4, 0], [1, 1], [1, 0], [3, 0]]
    placed = next(e for e in events if e.kind == "tokens-placed")
    assert placed.message.startswith("B: queue 1: 4 pipì on the neutral Persona")


def test_phase_b_does_not_place_tokens_twice_in_a_round():
    game = position(["n2 Ana n1", "n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.persona(1, 1)["tokens"] == [2, 0]


def test_phase_c_draw_is_announced_and_needs_no_press():
    game = position(["n2 Ana n1", "n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    events = play(game, "pass")
    assert "C: Ben draws Action cards up to 4" in [e.message for e in events]
    assert commands(game) == ["play", "decompress", "pass"]


def test_phase_d_is_skipped_when_no_persona_has_an_effect():
    game = position(["n2 Ana n1", "n1 r1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    events = play(game, "pass")
    assert game.phase == "E"
    assert any(e.message.startswith("D: no Persona effect to resolve") for e in events)


def effects_of(game):
    """Phase D's list as the players read it."""
    return game.view()["effects"]


def test_phase_d_follows_the_rulebook_order_bathroom_front_behind():
    game = position(["n2 Ana n1",
                     "y1@Infamous_Person r1 n1 o1 Ben o2@Elderly_Man n1 y0 n2",
                     "n1 n1 Cy n1", "n1 n3"],
                    permanents={2: [("Clogged Toilet", 1, 0)]})
    events = play(game, "pass")
    assert game.phase == "D"
    assert effects_of(game) == [
        ("Infamous Person in the bathroom of queue 2: a Persona card goes on top of it, "
        "unless a defensive card is played"),
        "the orange Persona at position 4 of queue 2, in front of Ben",
        ("Elderly Man at position 6 of queue 2, behind Ben: passes in front of the player he "
        "stands behind unless a Queue Defence blocks him"),
        "the yellow Persona at position 8 of queue 2",
    ]
    assert "Clogged Toilet behind the door of queue 2 acts again at the start of Ben's turn" \
        in [e.message for e in events]
    assert commands(game) == ["effect", "defend"]


def test_phase_d_waits_for_one_effect_at_a_time_in_order():
    game = position(["n2 Ana n1", "n1 n1 o1 Ben o2@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    first = game.expected()[0]
    assert first.prompt == (
        "Ben: the orange Persona at position 3 of queue 2, in front of Ben acts: do what its "
        "card says; the tokens it moves with “The effect happens”, the queue under More (a box "
        "described names each effect)")
    play(game, "effect")
    assert [e.prompt for e in game.expected()] == [
        "Ben: Elderly Man behind you passes in front of you",
        "Ben: Queue Defence against Elderly Man?"]
    play(game, "defend")
    assert game.phase == "E"


def test_an_effect_applied_by_hand_records_the_tokens_it_gives_to_whose_reserve():
    """Without its name the companion cannot apply a Persona's effect: the
    table does, and says which tokens went to whose reserve, so that the
    count stays right."""
    game = position(["n2 Ana n1", "n1 n1 o1 Ben n1", "n1 n1 Cy n1", "n1 n3"],
                    reserves={ANA: (4, 0)})
    play(game, "pass")
    assert commands(game)[:2] == ["effect", "defend"]
    events = play(game, "effect pipi=2 popo=1 to=Ana")
    # Four pipì and two more make a popò and a pipì left.
    assert reserve(game, ANA) == (1, 2)
    kinds = [e.kind for e in events]
    assert kinds[0] == "effect-applied" and "reserve-changed" in kinds
    assert game.phase == "E"


def test_an_effect_applied_by_hand_may_take_tokens_never_below_zero():
    game = position(["n2 Ana n1", "n1 n1 o1 Ben n1", "n1 n1 Cy n1", "n1 n3"],
                    reserves={BEN: (1, 0)})
    play(game, "pass")
    play(game, "effect pipi=-2")
    assert reserve(game, BEN) == (0, 0)


def test_tokens_are_refused_for_an_effect_the_companion_applies_itself():
    game = position(["n2 Ana n1", "n1 n1 Ben o2@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert refused(game, "effect pipi=1").rule == "effect-tokens"
    play(game, "effect")


# Persona by Persona, each condition met and not met.


def test_a_red_or_orange_persona_not_adjacent_never_acts():
    game = position(["n2 Ana n1", "n1 o1 r1 n1 Ben n1 r1 o1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E"


def test_a_red_or_orange_persona_in_the_bathroom_but_not_adjacent_never_acts():
    game = position(["n2 Ana n1", "r1 n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E"


@pytest.mark.parametrize("colour", ["o", "r"])
def test_a_red_or_orange_persona_in_the_bathroom_acts_when_the_player_is_right_behind_it(
        colour):
    game = position(["n2 Ana n1", f"{colour}1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert effects_of(game) == [(f"the {COLOUR_LETTERS[colour]} Persona in the bathroom of "
                                f"queue 2, in front of Ben")]


@pytest.mark.parametrize("queue_2", ["n1 n1 y1 n1 Ben n1 n1", "n1 n1 n1 n1 Ben n1 n1 y1",
                                     "y1 n1 n1 Ben n1"])
def test_a_yellow_persona_acts_wherever_it_stands_in_the_players_queue(queue_2):
    game = position(["n2 Ana n1", queue_2, "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert [line.split(" at ")[0].split(" in ")[0] for line in effects_of(game)] == [
        "the yellow Persona"]


def test_a_yellow_persona_acts_only_in_the_turn_of_the_player_concerned():
    game = position(["n2 Ana n1", "n1 n1 Ben n1", "n1 y1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E" and game.active() == BEN


def test_the_elderly_man_behind_the_player_passes_in_front_and_is_turned_over():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert commands(game) == ["effect", "defend"]
    events = play(game, "effect")
    assert line(game, 2) == "n1 n1 o0 Ben n1"
    assert game.persona(2, 3)["flipped"] is True
    assert kinds(events)[:2] == ["persona-moved", "flipped"]
    assert events[0].message == "Elderly Man passes in front of Ben in queue 2"
    assert game.phase == "E"


def test_an_elderly_man_moved_away_by_a_correction_cannot_pass_in_front():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    game.queues[1]["slots"].insert(3, game.queues[1]["slots"].pop(2))
    assert refused(game, "effect").rule == "not-behind"


def test_the_mother_with_baby_behind_the_player_passes_in_front():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Mother_with_Baby n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "effect")
    assert line(game, 2) == "n1 n1 o0 Ben n1"
    assert game.persona(2, 3)["flipped"] is True


@pytest.mark.parametrize("name", ["Elderly_Man", "Mother_with_Baby"])
def test_the_elderly_man_or_the_mother_in_front_of_the_player_does_not_act(name):
    game = position(["n2 Ana n1", f"n1 o0@{name} Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E"
    assert game.persona(2, 2)["flipped"] is False


def test_an_elderly_man_blocked_by_a_queue_defence_stays_behind_and_is_turned_over():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    events = play(game, "pass", "defend")
    assert line(game, 2) == "n1 n1 Ben o0 n1"
    assert game.persona(2, 4)["flipped"] is True
    assert events[0].message == ("Ben plays a Queue Defence: Elderly Man at position 4 of "
                                 "queue 2, behind Ben is blocked")


def test_an_elderly_man_turned_over_never_acts_again():
    game = position(["n2 Ana n1", "n1 n1 Ben o0*@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E"


def test_a_persona_arriving_behind_after_the_elderly_man_acts_next_turn_not_now():
    game = position(["n2 n1 Ana n1", "n1 n1 Ben o0@Elderly_Man o1@Distracted n1",
                     "n1 n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "effect")
    assert line(game, 2) == "n1 n1 o0 Ben o1 n1"
    assert game.phase == "E"
    assert game.persona(2, 5)["flipped"] is False


def test_a_red_persona_stays_face_up_and_acts_every_turn():
    game = position(["n2 Ana n1", "n1 n1 Ben r0 n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "effect")
    assert game.persona(2, 4)["flipped"] is False
    assert game.phase == "E"


def test_a_red_persona_blocked_acts_again_the_next_turn():
    game = position(["n2 n1 Ana n1", "n1 n1 Ben r0 n1", "n1 n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "defend")
    assert game.persona(2, 4)["flipped"] is False


@pytest.mark.parametrize("queue_2, place", [("n1 o1@Distracted Ben n1", 2),
                                            ("n1 n1 Ben o1@Distracted n1", 4)])
def test_the_distracted_adjacent_makes_the_player_take_a_pipi(queue_2, place):
    game = position(["n2 Ana n1", queue_2, "n1 n1 Cy n1", "n1 n3"], reserves={BEN: (1, 0)})
    play(game, "pass", "effect")
    assert reserve(game, BEN) == (2, 0)
    assert game.persona(2, place)["flipped"] is True


def test_the_distracted_not_adjacent_does_nothing():
    game = position(["n2 Ana n1", "o1@Distracted n1 Ben n1", "n1 n1 Cy n1", "n1 n3"],
                    reserves={BEN: (1, 0)})
    play(game, "pass")
    assert game.phase == "E" and reserve(game, BEN) == (1, 0)


def test_the_distracted_blocked_gives_no_pipi_and_is_turned_over():
    game = position(["n2 Ana n1", "n1 o1@Distracted Ben n1", "n1 n1 Cy n1", "n1 n3"],
                    reserves={BEN: (1, 0)})
    play(game, "pass", "defend")
    assert reserve(game, BEN) == (1, 0)
    assert game.persona(2, 2)["flipped"] is True


def test_the_free_queue_personas_act_before_the_first_players_own():
    game = position(["n2 n1 Ana n1", "n1 n1 Ben o0 n1", "n1 n1 n1 Cy n1",
                     "n1 y0@Infamous_Person n1"], turn=CY)
    play(game, "pass")
    assert game.active() == BEN
    assert effects_of(game) == [
        ("Infamous Person in the bathroom of queue 4: a Persona card goes on top of it, "
        "unless a defensive card is played"),
        "the orange Persona at position 3 of queue 2, behind Ben"]


def test_a_red_or_orange_persona_in_the_free_queue_never_acts():
    game = position(["n2 n1 Ana n1", "n1 n1 Ben n1", "n1 n1 n1 Cy n1", "r0 o1 n1"], turn=CY)
    play(game, "pass")
    assert game.active() == BEN and game.phase == "E"


def test_the_free_queue_is_not_resolved_again_later_in_the_round():
    game = position(["n2 n1 Ana n1", "n1 n1 Ben n1", "n1 n1 n1 Cy n1", "y0 n1"])
    play(game, "pass")
    assert game.phase == "E"


def test_the_infamous_person_in_the_bathroom_gets_a_persona_on_top_from_the_deck():
    game = position(["n2 Ana n1", "y1@Infamous_Person n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    deck = game.persona_deck
    events = play(game, "pass", "effect")
    # On top of him, in the bathroom: nobody in the queue moves.
    assert line(game, 2) == "?/y1 n1 Ben n1"
    assert game.persona_deck == deck - 1
    assert game.persona(2, 1)["covers"]["tokens"] == [1, 0]
    assert events[-1].message == (
        "A Persona from the deck goes face up on top of Infamous Person in the bathroom of "
        "queue 2: at the cleanup both cards leave and their tokens go to the queue's player")


def test_the_persona_on_the_infamous_person_is_turned_up_at_once_with_its_tokens():
    game = position(["n2 Ana n1", "y1@Infamous_Person n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "effect")
    assert [(e.command, e.args) for e in game.expected()] == [
        ("reveal", {"queue": 2, "position": 1})]
    assert game.expected()[0].prompt == ("Turn up the Persona on top of the Infamous Person in "
                                         "the bathroom of queue 2: enter its pipì, popò and "
                                         "colour")
    refused(game, "pass", NotExpected)
    events = play(game, "reveal 2 1 2 1 neutral")
    assert game.persona(2, 1)["tokens"] == [2, 1]
    assert [e.message for e in events[1:]] == [
        "Queue 2: 2 pipì and 1 popò on the neutral Persona, on top of Infamous Person",
        "E: Ben plays an Action card, decompresses or passes"]
    assert game.phase == "E" and game.active() == BEN


# The Infamous Person's queue, Ben's, with Ben first and then last in the
# round's order: what Ben takes never depends on where he sits.
INFAMOUS_FIRST = {"queues": ["n2 n1 n1 Ana n1", "n1 y1@Infamous_Person n1 Ben n1",
                              "n1 n1 n1 Cy n1", "n1 n3 n1"], "first": ANA, "turn": CY}
INFAMOUS_LAST = {"queues": ["n2 n1 n1 Ana n1", "y1@Infamous_Person n1 Ben n1",
                             "n1 n1 n1 Cy n1", "n1 n3 n1"], "first": CY, "turn": ANA}


@pytest.mark.parametrize("setting", [INFAMOUS_FIRST, INFAMOUS_LAST], ids=["first", "last"])
def test_the_owner_takes_both_cards_tokens_and_the_queue_moves_up(setting):
    setting = dict(setting)
    game = position(setting.pop("queues"), **setting)
    play(game, "pass")
    if setting["first"] == ANA:
        # The round ends; Ben opens the next with the Infamous Person in
        # his bathroom.
        assert game.round == 2 and game.round_order[0] == BEN
    assert game.active() == BEN and game.phase == "D"
    before = reserve(game, BEN)
    discard = game.persona_discard
    this_round = game.round
    play(game, "effect", "reveal 2 1 2 0 neutral", "pass")
    while game.round == this_round:
        play(game, "pass")
    # The round's cleanup is over: Ben took 1 pipì (the Infamous Person's)
    # and 2 (the Persona on top), and both cards left.
    assert reserve(game, BEN) == (before[0] + 3, before[1])
    assert line(game, 2) == "n1 Ben n1"
    assert game.persona_discard == discard + 5  # four bathrooms, one with two cards
    assert all("covers" not in slot for q in game.queues for slot in q["slots"])


def test_in_the_free_queue_both_cards_tokens_are_discarded_and_the_queue_moves_up():
    game = position(["n2 n1 n1 Ana n1", "n1 n1 Ben n1", "n1 n1 n1 Cy n1",
                     "n1 y1@Infamous_Person n1"], first=ANA, turn=CY)
    play(game, "pass")
    # Round 2: the free queue's Infamous Person acts before Ben's turn.
    assert game.round == 2 and game.phase == "D"
    play(game, "effect", "reveal 4 1 2 0 neutral")
    assert line(game, 4) == "n2/y1 n1"
    events = play(game, "pass", "pass", "pass")
    assert "Queue 4 is free: 3 pipì discarded" in [e.message for e in events]
    assert line(game, 4) == "n1"


def test_with_a_box_the_persona_on_top_is_turned_up_as_a_kind():
    game = BathroomRush(BathroomRush.check_setup(Setup(THREE, frozenset(), {"box": [
        {"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 40},
        {"name": "Infame", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 6}]})))
    for queue in (1, 2, 3):
        play(game, f"choose-queue {queue}")
    while game.phase == "A":
        wait = game.expected()[0]
        kind = "Infame" if (wait.args["queue"], wait.args["position"]) == (1, 1) else "Signora"
        play(game, f"reveal-kind {wait.args['queue']} {wait.args['position']} {kind}")
    play(game, "effect")
    assert [(e.command, e.args) for e in game.expected()] == [
        ("reveal-kind", {"queue": 1, "position": 1}), ("reveal", {"queue": 1, "position": 1})]
    assert game.expected()[0].prompt == ("Which Persona lies on top of the Infamous Person in "
                                         "the bathroom of queue 1?")
    play(game, "reveal-kind 1 1 Signora")
    assert line(game, 1) == "n1/y1 ? ? ? ? n1 Ana n1"
    assert game.persona(1, 1)["tokens"] == [1, 0]


def test_the_infamous_person_not_in_the_bathroom_does_nothing():
    game = position(["n2 Ana n1", "n1 y1@Infamous_Person Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E"


def test_the_infamous_person_blocked_gets_nothing_on_top():
    game = position(["n2 Ana n1", "y1@Infamous_Person n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "defend")
    assert line(game, 2) == "y1 n1 Ben n1"


def test_the_entrepreneur_waits_for_nothing():
    game = position(["n2 Ana n1", "o0@Entrepreneur Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E"


def test_the_avid_reader_rolls_the_blue_die_onto_the_persona_after_him():
    game = position(["n2 Ana n1", "o1@Avid_Reader n2 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    roll = game.expected()[0]
    assert (roll.command, roll.dice, roll.player) == ("roll", BLUE_DIE, BEN)
    play(game, "roll 2")
    assert game.persona(2, 2)["tokens"] == [2, 0]
    assert game.persona(2, 1)["flipped"] is True
    assert game.phase == "E"


def test_the_avid_reader_acts_from_the_bathroom_even_when_not_adjacent():
    game = position(["n2 Ana n1", "o1@Avid_Reader n2 n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert commands(game) == ["roll", "defend"]


def test_the_avid_reader_not_in_the_bathroom_does_nothing():
    game = position(["n2 Ana n1", "n1 o1@Avid_Reader Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.phase == "E"
    assert game.persona(2, 2)["flipped"] is False


def test_the_avid_reader_blocked_leaves_nothing_and_is_turned_over():
    game = position(["n2 Ana n1", "o1@Avid_Reader n2 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "defend")
    assert game.persona(2, 2)["tokens"] == [0, 0]
    assert game.persona(2, 1)["flipped"] is True


def test_the_avid_readers_pipi_join_the_next_personas_printed_ones_in_the_bathroom():
    game = position(["n2 n1 Ana n1", "o1@Avid_Reader n2 n1 Ben n1", "n1 n1 n1 Cy n1", "n1 n3"])
    play(game, "pass", "roll 1", "pass", "pass")
    assert game.round == 2
    assert game.persona(2, 1)["tokens"] == [3, 0]


def test_the_avid_reader_has_no_effect_when_a_player_is_right_after_him():
    game = position(["n2 Ana n1", "o1@Avid_Reader Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert commands(game) == ["effect", "defend"]
    play(game, "effect")
    assert game.persona(2, 1)["flipped"] is True
    assert game.persona(2, 1)["tokens"] == [1, 0]


def test_a_persona_the_player_moved_away_from_keeps_its_effect_for_later():
    # The orange Persona in front sends Ben two places back (the table
    # applies it by hand): the Distracted is no longer adjacent when his
    # turn in phase D comes.
    game = position(["n2 Ana n1", "n1 n1 o1 Ben o1@Distracted n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    events = play(game, "swap-behind", "swap-behind", "effect")
    assert line(game, 2) == "n1 n1 o1 o1 n1 Ben"
    assert game.phase == "E"
    assert game.persona(2, 3)["flipped"] is True
    assert game.persona(2, 4)["flipped"] is False
    assert "effect-passed" in kinds(events)


def test_a_listed_persona_is_turned_over_only_once_resolved():
    game = position(["n2 Ana n1", "n1 n1 o1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert game.persona(2, 5)["flipped"] is False
    play(game, "effect")
    assert game.persona(2, 3)["flipped"] is True
    assert game.persona(2, 5)["flipped"] is False
    assert game.phase == "D"


def test_the_first_game_variant_ignores_orange_and_red_personas():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"],
                    variants=("first-game",))
    play(game, "pass")
    assert game.phase == "E"


def test_an_action_card_is_followed_by_its_queue_operations_and_end_turn():
    game = position(["n2 n1 Ana n1 n3", "n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "action Cunning")
    assert commands(game)[0] == "end-turn"
    assert "remove-behind" in commands(game)
    play(game, "remove-behind", "end-turn")
    assert line(game, 1) == "n2 n1 Ana n3"
    assert game.active() == BEN


def test_queue_operations_wait_for_the_action_card():
    game = position(["n2 n1 Ana n1 n3", "n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    assert refused(game, "remove-behind", NotExpected).rule == "not-expected"


def test_passing_ends_the_turn():
    game = position(["n2 Ana n1", "n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    events = play(game, "pass")
    assert events[0].message == "Ana passes and discards down to 3 Action cards"
    assert game.active() == BEN


@pytest.mark.parametrize("card", ["Bathroom Defence", "Difesa bagno", "Queue Defence"])
def test_a_defensive_card_is_never_the_action_card_of_the_turn(card):
    game = position(["n2 Ana n1", "n1 n1 Ben n1", "n1 n1 Cy n1", "n1 n3"])
    error = refused(game, f"action {card}")
    assert error.rule == "defensive-card"
    assert str(error) == (f"{card} is a defensive card: it is played together with the attack "
                          f"or the Persona effect it blocks and is never the Action card of "
                          f"the turn; Ana plays another Action card, decompresses or passes")


def test_the_cleanup_gives_each_player_their_bathroom_tokens_and_moves_the_queues_up():
    game = position(["n2+1 n1 Ana n1", "n1.1 n2 Ben n1", "y3 n1 Cy n2", "n4 n1 n1"], turn=CY,
                    reserves={ANA: (1, 0)})
    events = play(game, "pass")
    assert [reserve(game, s) for s in (ANA, BEN, CY)] == [(4, 0), (1, 1), (3, 0)]
    assert [line(game, q) for q in (1, 2, 3, 4)] == ["n1 Ana n1", "n2 Ben n1", "n1 Cy n2",
                                                     "n1 n1"]
    assert "Queue 4 is free: 4 pipì discarded" in [e.message for e in events]
    assert game.persona_discard == 4


def test_the_first_player_token_moves_on_clockwise_after_the_cleanup():
    game = position(["n2 n1 Ana n1", "n1 n2 Ben n1", "y3 n1 Cy n2", "n4 n1 n1"], turn=CY)
    events = play(game, "pass")
    assert game.first_player == BEN
    assert game.round == 2
    assert "The first-player token passes to Ben" in [e.message for e in events]
    assert game.active() == BEN


# -- decompression ------------------------------------------------------------------


@pytest.mark.parametrize("pipi, roll, left", [(3, 1, 2), (3, 2, 1), (3, 3, 0), (1, 3, 0),
                                              (0, 2, 0)])
def test_decompressing_1_to_3_discards_that_many_pipi_never_below_zero(pipi, roll, left):
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (pipi, 1)})
    play(game, "decompress")
    wait = game.expected()[0]
    assert (wait.command, wait.dice, wait.player) == ("roll", RED_DIE, ANA)
    play(game, f"roll {roll}")
    assert reserve(game, ANA) == (left, 1)


def test_decompressing_4_gives_a_popo():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (3, 1)})
    events = play(game, "decompress", "roll 4")
    assert reserve(game, ANA) == (3, 2)
    assert events[0].message == "Ana rolls 4: takes one popò"


def test_with_concentration_a_4_discards_the_pipi_instead():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (4, 1)})
    play(game, "play concentration", "roll 4")
    assert reserve(game, ANA) == (0, 1)


def test_playing_concentration_is_decompressing_with_it():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (4, 1)})
    play(game, "action Concentrazione", "roll 4")
    assert reserve(game, ANA) == (0, 1)


def test_whatever_the_roll_the_persona_behind_is_replaced_by_a_face_down_one():
    game = position(["n2 Ana o1@Elderly_Man n3", "n1 Ben n1", "n1 Cy n1", "n1"])
    events = play(game, "decompress", "roll 1")
    assert line(game, 1) == "n2 Ana ? n3"
    assert game.persona_discard == 1
    assert ("Elderly Man behind Ana leaves the queue; a new face-down Persona takes the place"
            in [e.message for e in events])
    # Ben's turn starts by revealing it: it is next to a player.
    assert game.active() == BEN
    assert [(e.command, e.args) for e in game.expected()] == [
        ("reveal", {"queue": 1, "position": 3})]


def test_the_keep_behind_variant_leaves_the_persona_behind_in_place():
    game = position(["n2 Ana o1 n3", "n1 Ben n1", "n1 Cy n1", "n1"], variants=("keep-behind",))
    play(game, "decompress", "roll 1")
    assert line(game, 1) == "n2 Ana o1 n3"


def test_decompressing_with_nobody_behind_replaces_nobody():
    game = position(["n2 n1 Ana", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "decompress", "roll 2")
    assert line(game, 1) == "n2 n1 Ana"


def test_a_red_die_shows_no_5():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], reserves={ANA: (3, 0)})
    play(game, "decompress")
    error = refused(game, "roll 5", BadArgument)
    assert error.rule == "die-range"
    assert "a red roll gives 1 to 4" in str(error)


# -- queue operations ---------------------------------------------------------------


def operations(queues, card="Cunning", **kwargs):
    return position(queues, step="action", card=card, **kwargs)


def test_give_up_your_place_swaps_a_player_with_the_persona_behind():
    game = operations(["n2 Ana n1", "n1 n2 Ben o3 n1", "n1 Cy n1", "n1"],
                      card="Give Up Your Place")
    events = play(game, "swap-behind Ben")
    assert line(game, 2) == "n1 n2 o3 Ben n1"
    assert events[0].message == ("Ben gives up their place: the orange Persona moves ahead in "
                                 "queue 2")


def test_cunning_removes_the_persona_in_front_and_the_player_moves_up():
    game = operations(["n2 n1 n3 Ana n1 n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "remove-front")
    assert line(game, 1) == "n2 n1 Ana n1 n1"
    assert game.persona_discard == 1


def test_cunning_removes_the_persona_behind_and_the_queue_behind_moves_up():
    game = operations(["n2 Ana n1 n3", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "remove-behind")
    assert line(game, 1) == "n2 Ana n3"


def test_cunning_on_the_last_persona_behind_draws_a_new_one():
    game = operations(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    deck = game.persona_deck
    play(game, "remove-behind")
    assert line(game, 1) == "n2 Ana ?"
    assert game.persona_deck == deck - 1


def test_change_queue_the_persona_behind_takes_the_old_place_and_a_new_one_comes_behind():
    game = operations(["n2 n1 Ana o1 n3", "n1 Ben n1", "n1 Cy n1", "n1 n2"], card="Change Queue")
    events = play(game, "change-queue")
    assert line(game, 1) == "n2 n1 o1 n3"
    assert line(game, 4) == "n1 n2 Ana ?"
    assert game.free_queue() == 1
    assert events[0].message == ("Ana leaves queue 1 for the end of queue 4, with a new "
                                 "face-down Persona behind; queue 1 is now the free queue")


def test_changing_into_an_empty_free_queue_reaches_the_bathroom():
    game = operations(["n2 n1 Ana o1 n3", "n1 Ben n1", "n1 Cy n1", ""], card="Change Queue")
    events = play(game, "change-queue 4")
    assert line(game, 4) == "Ana ?"
    assert game.final_round and game.arrived == [ANA]
    assert events[-1].kind == "final-round"


def test_change_queue_to_a_queue_with_a_player_is_refused():
    game = operations(["n2 n1 Ana o1 n3", "n1 Ben n1", "n1 Cy n1", "n1 n2"], card="Change Queue")
    error = refused(game, "change-queue 2")
    assert error.rule == "queue-taken"
    assert "two players never share a queue" in str(error)


def test_the_cleaner_adds_pipi_on_a_bathroom_persona():
    game = operations(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], card="Cleaner")
    play(game, "add-tokens 2 3 0")
    assert game.persona(2, 1)["tokens"] == [4, 0]


def test_a_permanent_card_goes_behind_a_door_and_can_be_removed():
    game = operations(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], card="Clogged Toilet")
    play(game, "place-permanent 2 1 0 Clogged Toilet")
    assert game.view()["permanents"] == [{"queue": 2, "card": "Clogged Toilet", "pipi": 1,
                                          "popo": 0}]
    play(game, "remove-permanent 2")
    assert game.queues[1]["permanents"] == []
    assert refused(game, "remove-permanent 2").rule == "no-permanent"


def test_when_the_persona_deck_runs_out_the_discard_pile_is_shuffled_into_it():
    game = operations(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], deck=0, discard=12)
    events = play(game, "remove-behind")
    assert line(game, 1) == "n2 Ana ?"
    assert (game.persona_deck, game.persona_discard) == (12, 0)
    assert events[1].message == ("The Persona deck is empty: the 13 discarded Personas are "
                                 "shuffled into a new deck")


def test_a_draw_with_no_persona_left_anywhere_is_refused():
    game = operations(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], deck=0, discard=0)
    assert refused(game, "change-queue").rule == "deck-empty"


def test_empty_bottle_takes_tokens_out_of_a_reserve_never_below_zero():
    game = operations(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], card="Empty Bottle",
                      reserves={ANA: (1, 1)})
    events = play(game, "take-tokens Ana -3 0")
    assert reserve(game, ANA) == (0, 1)
    assert events[0].message == "Ana discards 1 pipì: reserve 1 popò"


@pytest.mark.parametrize("words, why", [
    ("swap-behind", "there is no Persona behind Ana in queue 1 to swap with"),
    ("pass-in-front", "there is no Persona behind Ana in queue 1 to pass"),
    ("remove-behind", "there is no Persona behind Ana in queue 1 to remove"),
    ("remove-front Ben", ("Ben is in the bathroom of queue 2: there is no Persona in front of "
                         "Ben to remove")),
    ("add-tokens 2 1 0", "position 1 of queue 2 is Ben, not a Persona"),
    ("add-tokens 1 1 0 5", "queue 1 has 3 places: there is no Persona at position 5"),
    ("flip 1 3", "position 3 of queue 1 is Ana, not a Persona"),
])
def test_a_queue_operation_with_no_persona_to_act_on_is_refused(words, why):
    game = operations(["n2 n1 Ana", "Ben n1", "n1 Cy n1", "n1"])
    error = refused(game, words)
    assert error.rule == "no-persona"
    assert str(error) == why


def test_a_queue_operation_on_a_removed_queue_is_refused():
    game = operations(["-", "n1 Ben n1", "n1 Cy n1", "n1"], turn=BEN, first=BEN,
                      reserves={ANA: None})
    no_door = refused(game, "add-tokens 1 1 0")
    assert no_door.rule == "no-door"
    assert str(no_door) == ("queue 1 has no door any more: its player was eliminated; the "
                            "queues in play are 2, 3 and 4")
    eliminated = refused(game, "swap-behind Ana")
    assert eliminated.rule == "eliminated"
    assert str(eliminated) == ("Ana was eliminated and stands in no queue; the players still "
                               "in the game are Ben and Cy")


# -- the end of the game ------------------------------------------------------------


def test_reaching_the_bathroom_at_the_cleanup_ends_the_game_at_once():
    game = position(["n2 Ana n1", "n1 n3 Ben n1", "n1 n1.1 n1 Cy n1", "n1 n1"], turn=CY,
                    reserves={ANA: (1, 0), CY: (2, 0)})
    events = play(game, "pass")
    assert game.over
    # Ana took 2 at the cleanup; Ben takes the Persona now in his bathroom (3);
    # Cy took 1 at the cleanup and takes 2 pipì and a popò: five pipì are a popò.
    assert [reserve(game, s) for s in (ANA, BEN, CY)] == [(3, 0), (4, 0), (0, 2)]
    assert game.result().scores == (3, 4, 10)
    assert game.result().winners == (ANA,)
    assert "Ana reaches the bathroom as the queues move up: the game ends at once" in [
        e.message for e in events]
    assert events[-1].kind == "game-over" and events[-1].alert


def test_the_final_count_reveals_face_down_personas_in_front_of_players_first():
    game = position(["n2 Ana n1", "n1 ? Ben n1", "n1 n1 n1 Cy ?", "n1 ?"], turn=CY)
    play(game, "pass")
    assert game.phase == "count"
    assert [(e.command, e.args) for e in game.expected()] == [
        ("reveal", {"queue": 2, "position": 1})]
    play(game, "reveal 2 1 2 0 neutral")
    assert game.over
    assert game.result().scores == (2, 3, 3)


def test_permanent_bathroom_cards_apply_to_the_final_count():
    game = position(["n2 Ana n1", "n1 n3 Ben n1", "n1 n1 n1 Cy n1", "n1 n1"], turn=CY,
                    permanents={2: [("Clogged Toilet", 2, 0), ("Fresh Air", -1, 0)]})
    play(game, "pass")
    assert game.result().scores == (2, 1 + 3 + 1, 1 + 2)


def test_reaching_the_bathroom_through_a_card_gives_the_rest_of_the_round_final_turns():
    game = operations(["n1 Ana n1", "n2 n1 Ben n1", "n1 n1 n1 Cy n1", "n1 n1"],
                      reserves={ANA: (4, 0), CY: (1, 0)})
    events = play(game, "remove-front")
    assert events[-1].kind == "final-round" and events[-1].alert
    assert game.final_round and game.arrived == [ANA]
    play(game, "end-turn")
    assert game.active() == BEN
    play(game, "pass")
    assert game.active() == CY
    play(game, "pass")
    # No cleanup: Ben counts his bathroom Persona (2) and the one after (1).
    assert game.over
    assert game.result().scores == (4, 3, 4)
    assert game.result().winners == (BEN,)


def test_in_the_final_turns_only_three_cards_may_be_played_against_the_arrived_player():
    game = position(["Ana n1", "n2 n1 Ben n1", "n1 n1 n1 Cy n1", "n1 n1"], turn=BEN,
                    final_round=True, arrived=[ANA])
    play(game, "action Cleaner")
    error = refused(game, "swap-behind Ana")
    assert error.rule == "final-turns"
    assert str(error) == ("Ana reached the bathroom through an Action card: in the final turns "
                          "only Give Up Your Place, Swap and Sneeze may be played against Ana, "
                          "and the card played is Cleaner")
    assert refused(game, "take-tokens Ana 1 0").rule == "final-turns"
    assert refused(game, "place-permanent 1 1 0 Clogged Toilet").rule == "final-turns"


@pytest.mark.parametrize("card", ["Give Up Your Place", "Cedi il posto", "Swap", "Sneeze"])
def test_give_up_your_place_swap_and_sneeze_may_still_be_played_against_them(card):
    game = position(["Ana n1", "n2 n1 Ben n1", "n1 n1 n1 Cy n1", "n1 n1"], turn=BEN,
                    final_round=True, arrived=[ANA])
    play(game, f"action {card}", "swap-behind Ana")
    assert line(game, 1) == "n1 Ana"


def test_an_arrived_player_pushed_back_counts_the_persona_in_front_at_the_end():
    game = position(["Ana n1", "n2 n1 Ben n1", "n1 n1 n1 Cy n1", "n1 n1"], turn=BEN,
                    final_round=True, arrived=[ANA])
    play(game, "action Give Up Your Place", "swap-behind Ana", "end-turn", "pass")
    assert game.over
    assert game.result().scores == (1, 3, 3)


def test_a_tie_is_broken_by_decompression_rolls():
    game = position(["Ana n1", "n2 Ben n1", "n1"], players=("Ana", "Ben"), turn=BEN,
                    final_round=True, arrived=[ANA], reserves={ANA: (2, 0)})
    events = play(game, "pass")
    assert game.phase == "tie-break"
    assert events[-1].message == ("Ana and Ben are tied at 2: each makes a Decompression roll "
                                  "(red die)")
    assert events[-1].alert
    assert [(e.command, e.player, e.dice) for e in game.expected()] == [
        ("roll", ANA, RED_DIE), ("roll", BEN, RED_DIE)]
    play(game, "roll 1 Ana", "roll 2 Ben")
    assert game.over
    assert game.result().winners == (BEN,)
    assert game.result().scores == (1, 0)


def test_a_tie_that_remains_is_rolled_again():
    game = position(["Ana n1", "n2 Ben n1", "n1"], players=("Ana", "Ben"), turn=BEN,
                    final_round=True, arrived=[ANA], reserves={ANA: (2, 0)})
    play(game, "pass", "roll 3", "roll 3")
    assert game.phase == "tie-break"
    assert game.tie_pending == [ANA, BEN]
    play(game, "roll 2", "roll 4")
    assert game.result().winners == (ANA,)


def test_a_tie_where_everyone_is_eliminated_has_no_winner():
    game = position(["Ana n1", "n2 Ben n1", "n1"], players=("Ana", "Ben"), turn=BEN,
                    final_round=True, arrived=[ANA], reserves={ANA: (2, 2), BEN: (0, 2)})
    play(game, "pass", "roll 4", "roll 4")
    assert game.over
    assert game.result().winners == ()
    assert game.result().scores == (None, None)
    assert game.result().message == ("Every player in contention was eliminated: the game has "
                                     "no winner")


def test_only_the_tied_players_roll():
    game = position(["Ana n1", "n2 Ben n1", "n1 n1 Cy n1", "n3 n1"], turn=CY,
                    final_round=True, arrived=[ANA], reserves={ANA: (2, 0), CY: (4, 0)})
    play(game, "pass")
    assert [e.player for e in game.expected()] == [ANA, BEN]
    refused(game, "roll 1 Cy", WrongPlayer)


ANN_BOB_CY = ("Ann", "Bob", "Cy")


def tied_ann_and_bob(ann, bob, cy):
    """Cy passes the last turn of the final round: Ann is in the bathroom,
    Bob takes 2 pipì and Cy 2 at the count, so the reserves given become
    the scores the count leaves."""
    game = position(["Ann n1", "n2 Bob n1", "n1 n1 Cy n1", "n3 n1"], players=ANN_BOB_CY,
                    turn=CY, final_round=True, arrived=[ANA],
                    reserves={ANA: ann, BEN: bob, CY: cy})
    play(game, "pass")
    return game


def test_the_tie_break_compares_everyone_still_in_the_game():
    # Ann 5, Bob 5, Cy 8: Ann and Bob roll.
    game = tied_ann_and_bob((0, 1), (3, 0), (1, 1))
    assert [game.score(s) for s in (ANA, BEN, CY)] == [5, 5, 8]
    assert game.tie_pending == [ANA, BEN]
    # Both roll 4: 10 each, and Cy, who did not roll, has the fewest.
    play(game, "roll 4 Ann", "roll 4 Bob")
    assert game.over
    assert game.result().winners == (CY,)
    assert game.result().scores == (10, 10, 8)


def test_the_tie_break_goes_on_among_the_fewest_whoever_rolled():
    # Ann 5, Bob 5, Cy 6: Ann rolls 1 (4), Bob 4 (10): Ann has the fewest.
    game = tied_ann_and_bob((0, 1), (3, 0), (4, 0))
    play(game, "roll 1 Ann", "roll 4 Bob")
    assert game.result().winners == (ANA,)


def test_when_every_tied_player_is_eliminated_the_one_left_wins():
    # Ann 15, Bob 15, Cy 17: both tied players roll 4 and reach 4 popò.
    game = tied_ann_and_bob((0, 3), (3, 2), (0, 3))
    assert [game.score(s) for s in (ANA, BEN, CY)] == [15, 15, 17]
    play(game, "roll 4 Ann", "roll 4 Bob")
    assert game.over
    assert reserve(game, ANA) is None and reserve(game, BEN) is None
    assert game.result().winners == (CY,)
    assert game.result().scores == (None, None, 17)


def test_nothing_is_accepted_after_the_game_is_over():
    game = position(["n2 Ana n1", "n1 n3 Ben n1", "n1 n1 n1 Cy n1", "n1 n1"], turn=CY)
    play(game, "pass")
    assert game.over and game.expected() == []
    for words in ("pass", "note too late", "set-reserve Ana 1 0"):
        refused(game, words, GameIsOver)


# -- bad input and corrections ------------------------------------------------------


def test_a_command_not_expected_now_is_refused():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    assert "the game waits for" in str(refused(game, "effect", NotExpected))


# Who acts: every turn command carries the acting player, filled in when left out.


@pytest.mark.parametrize("words, step", [
    ("pass player=Ben", "choose"),
    ("action Cunning player=Ben", "choose"),
    ("decompress player=Ben", "choose"),
    ("end-turn player=Cy", "action"),
])
def test_a_turn_command_from_another_player_is_refused(words, step):
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"], step=step,
                    card="Cunning" if step == "action" else None)
    error = refused(game, words, WrongPlayer)
    assert "it is not" in str(error) and "waiting for Ana" in str(error)


@pytest.mark.parametrize("words", ["effect player=Ana", "defend player=Cy"])
def test_a_persona_effect_answered_by_another_player_is_refused(words):
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    refused(game, words, WrongPlayer)


def test_the_acting_player_is_filled_in_when_left_out_and_accepted_when_named():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    command = game.parse_words("pass")
    game.check_expected(*game.parse(command))
    events = play(game, "pass player=Ana")
    assert events[0].data["player"] == ANA
    play(game, "action Give Up Your Place player=Ben")
    assert game.action_card == "Give Up Your Place"


def test_a_command_from_the_wrong_player_leaves_the_table_and_its_journal_untouched(table,
                                                                                   db_path):
    import sqlite3

    from companion.core.engine import Command

    table.new_game("bathroom-rush", ["Ana", "Ben"])
    table.submit(Command("choose-queue", {"queue": 1}))
    table.submit(Command("choose-queue", {"queue": 2}))
    while table.current().expected[0].command == "reveal":
        args = dict(table.current().expected[0].args)
        table.submit(Command("reveal", {**args, "pipi": 1, "popo": 0, "colour": "neutral"}))
    before = (table.game.dumps(), table.version)
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    with pytest.raises(WrongPlayer):
        table.submit(Command("pass", {"player": "Ben"}))
    assert (table.game.dumps(), table.version) == before
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == rows


def test_a_queue_number_beyond_the_doors_is_refused():
    game = operations(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    error = refused(game, "add-tokens 5 1 0", BadArgument)
    assert "outside the allowed range 1..4" in str(error)


def test_set_reserve_corrects_a_reserve_within_the_limits():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "set-reserve Ben 4 3")
    assert reserve(game, BEN) == (4, 3)
    refused(game, "set-reserve Ben 5 0", BadArgument)
    refused(game, "set-reserve Ben 0 4", BadArgument)


def test_corrections_fix_the_tokens_and_the_printed_values_of_a_persona():
    game = position(["n2 Ana o1 n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "set-tokens 1 1 5 1", "set-persona 1 3 2 1 red Elderly Man")
    assert game.persona(1, 1)["tokens"] == [5, 1]
    persona = game.persona(1, 3)
    assert (persona["pipi"], persona["popo"], persona["colour"], persona["name"]) == (
        2, 1, "red", "Elderly Man")
    assert game.phase == "E" and game.step == "choose"


def test_a_face_down_persona_is_revealed_not_corrected():
    game = position(["n2 Ana ?", "n1 Ben n1", "n1 Cy n1", "n1"])
    assert refused(game, "set-persona 1 3 2 0 red").rule == "face-down"


def test_unflip_turns_a_persona_back_up():
    game = position(["n2 Ana o1* n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    play(game, "unflip 1 3")
    assert game.persona(1, 3)["flipped"] is False
    assert refused(game, "unflip 1 3").rule == "not-flipped"


def test_a_note_goes_in_the_history_and_changes_nothing():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    before = game.dumps()
    events = play(game, "note Ben played Sneeze by mistake")
    assert events[0].message == "Ben played Sneeze by mistake"
    assert game.dumps() == before


# -- what the screens read -------------------------------------------------------


def test_the_view_shows_phase_queues_reserves_and_the_free_queue():
    game = position(["n2+1 Ana o1@Elderly_Man", "n1 Ben ?", "n1 Cy n1", "y0.1"],
                    reserves={BEN: (2, 1)}, permanents={3: [("Clogged Toilet", 1, 0)]})
    view = game.view()
    assert (view["phase"], view["phase_name"], view["round"]) == (
        "E", "Action, decompress or pass", 1)
    assert (view["active"], view["first_player"], view["free_queue"]) == (ANA, ANA, 4)
    first = view["queues"][0]
    assert (first["index"], first["door"], first["player"], first["free"]) == (1, True, ANA, False)
    assert first["slots"] == [
        {"position": 1, "revealed": True, "pipi": 2, "popo": 0, "colour": "neutral", "name": None,
         "flipped": False, "tokens_on_card": {"pipi": 3, "popo": 0}, "tokens_placed": True},
        {"position": 2, "player": ANA, "name": "Ana"},
        {"position": 3, "revealed": True, "pipi": 1, "popo": 0, "colour": "orange",
         "name": "Elderly Man", "flipped": False, "tokens_on_card": {"pipi": 0, "popo": 0},
         "tokens_placed": False},
    ]
    assert view["queues"][1]["slots"][2]["revealed"] is False
    assert view["queues"][1]["slots"][2]["pipi"] is None
    assert view["reserves"][BEN] == {"seat": BEN, "name": "Ben", "pipi": 2, "popo": 1,
                                     "eliminated": False, "popo_limit": 4, "score": 7,
                                     "over_limit": False,
                                     "queue": 2, "position": 2, "in_bathroom": False}
    assert (view["popo_limit"], view["eliminates"]) == (4, True)
    assert view["permanents"] == [{"queue": 3, "card": "Clogged Toilet", "pipi": 1, "popo": 0}]
    assert view["scores"] is None


def test_the_view_shows_the_scores_once_over():
    game = position(["n2 Ana n1", "n1 n3 Ben n1", "n1 n1 n1 Cy n1", "n1 n1"], turn=CY)
    play(game, "pass")
    view = game.view()
    assert (view["phase"], view["scores"], view["winners"]) == ("over", [2, 4, 3], [ANA])


def test_a_saved_game_loads_back_identical():
    game = position(["n2+1 Ana o1@Elderly_Man", "n1 Ben ?", "n1 Cy n1", "y0.1"],
                    reserves={BEN: (2, 1)}, permanents={3: [("Clogged Toilet", 1, 0)]})
    again = BathroomRush.loads(game.dumps())
    assert again == game and again.view() == game.view()
    assert again.expected() == game.expected()


# -- light tracking: a scorekeeper, not a referee ----------------------------------


def light(players=THREE, variants=()):
    return BathroomRush(Setup(tuple(players), frozenset({"light-tracking", *variants})))


def test_light_tracking_keeps_no_queue_and_starts_at_the_first_turn():
    game = light()
    assert game.queues == [] and game.phase == "E" and game.active() == ANA
    assert commands(game)[:4] == ["end-turn", "roll", "play", "take-tokens"]
    assert game.expected()[0].prompt == "Ana: end your turn (a card or a pass) or decompress?"


def test_light_tracking_a_typical_turn_is_one_command():
    game = light()
    play(game, "end-turn")
    assert game.active() == BEN


def test_light_tracking_decompression_rolls_the_red_die_and_replaces_nobody():
    game = light()
    game.reserves[ANA]["pipi"] = 3
    roll = game.expected()[1]
    assert (roll.command, roll.dice, roll.player) == ("roll", RED_DIE, ANA)
    assert roll.prompt == "Ana decompresses? Roll the red die"
    events = play(game, "roll 2")
    assert kinds(events)[:2] == ["decompress", "decompressed"]
    assert reserve(game, ANA) == (1, 0)
    assert "persona-replaced" not in kinds(events)
    assert game.active() == BEN


def test_light_tracking_decompress_then_its_die_as_journals_of_earlier_versions_hold_it():
    game = light()
    game.reserves[ANA]["pipi"] = 3
    assert "decompress" not in commands(game)
    refused(game, "decompress player=Ben", WrongPlayer)
    play(game, "decompress", "roll 2")
    assert reserve(game, ANA) == (1, 0)
    assert game.active() == BEN


def test_light_tracking_concentration_and_the_empty_bottle_are_picked_by_name():
    game = light()
    game.reserves[ANA]["pipi"] = 4
    play(game, "play concentration", "roll 4")
    assert reserve(game, ANA) == (0, 0)
    game.reserves[BEN]["pipi"] = 3
    events = play(game, "play empty-bottle", "roll 2")
    assert reserve(game, BEN) == (1, 0)
    assert ("Ben empties a bottle: red die 2 (the rulebook names no die; the red one is used), "
            "discards 2 pipì: reserve 1 pipì") in [e.message for e in events]
    assert game.active() == CY


def test_light_tracking_a_card_played_on_the_queues_is_refused_by_name():
    game = light()
    error = refused(game, "play cunning")
    assert "queues stay on the table" in str(error)


def test_light_tracking_the_cleanup_is_one_entry_per_player_then_the_token_moves_on():
    game = light()
    play(game, "end-turn", "end-turn", "end-turn")
    assert game.phase == "cleanup"
    assert [e.args for e in game.expected() if e.command == "bathroom-tokens"] == [
        {"player": ANA}, {"player": BEN}, {"player": CY}]
    play(game, "bathroom-tokens Ben 3 0")
    refused(game, "bathroom-tokens Ben 1 0", WrongPlayer)
    play(game, "bathroom-tokens Ana 6 0", "bathroom-tokens Cy 0 1")
    assert [reserve(game, s) for s in (ANA, BEN, CY)] == [(1, 1), (3, 0), (0, 1)]
    assert game.round == 2 and game.first_player == BEN and game.active() == BEN


def test_light_tracking_the_popo_limit_eliminates_at_the_cleanup():
    game = light()
    game.reserves[CY]["popo"] = 3
    play(game, "end-turn", "end-turn", "end-turn", "bathroom-tokens Cy 5 0")
    assert reserve(game, CY) is None
    play(game, "bathroom-tokens Ana 0 0", "bathroom-tokens Ben 0 0")
    assert game.round_order == [BEN, ANA]


def test_light_tracking_keep_playing_nobody_is_eliminated():
    game = light(variants=("keep-playing",))
    game.reserves[CY]["popo"] = 3
    play(game, "end-turn", "end-turn", "end-turn", "bathroom-tokens Cy 5 0")
    assert reserve(game, CY) == (0, 4)


def test_light_tracking_reaching_the_bathroom_through_a_card_gives_final_turns_then_the_count():
    game = light()
    events = play(game, "reached Ana")
    assert events[0].message == ("Ana reaches the bathroom: the rest of this round is the "
                                 "final turns")
    play(game, "end-turn", "end-turn", "end-turn")
    assert game.phase == "count"
    assert [e.args for e in game.expected()] == [{"player": BEN}, {"player": CY}]
    play(game, "count-tokens Ben 2 0", "count-tokens Cy 1 0")
    assert game.over
    assert game.result().winners == (ANA,)
    assert game.result().scores == (0, 2, 1)


def test_light_tracking_reaching_the_bathroom_at_the_cleanup_ends_the_game_after_it():
    game = light()
    play(game, "end-turn", "end-turn", "end-turn", "bathroom-tokens Ana 2 0", "reached Ben")
    assert game.phase == "cleanup"
    play(game, "bathroom-tokens Ben 1 0", "bathroom-tokens Cy 1 0")
    assert game.phase == "count"
    play(game, "count-tokens Ana 0 0", "count-tokens Cy 3 0")
    assert game.result().winners == (BEN,)


def test_light_tracking_a_tie_is_broken_by_decompression_rolls():
    game = light(("Ana", "Ben"))
    play(game, "reached Ana", "end-turn", "end-turn", "count-tokens Ben 0 0")
    assert game.phase == "tie-break"
    play(game, "roll 4", "roll 1")
    assert game.result().winners == (BEN,)


def test_light_tracking_an_entry_made_twice_is_refused():
    game = light()
    play(game, "end-turn", "end-turn", "end-turn", "bathroom-tokens Ana 1 0")
    refused(game, "bathroom-tokens Ana 1 0", WrongPlayer)
    play(game, "reached Ben")
    assert "Ben is already in the bathroom" in str(refused(game, "reached Ben"))


def test_light_tracking_anyone_may_say_a_player_reached_the_bathroom_no_turn_is_given():
    game = light()
    reached = [e for e in game.expected() if e.command == "reached"]
    assert [(e.player, e.args) for e in reached] == [
        (None, {"player": ANA}), (None, {"player": BEN}), (None, {"player": CY})]
    play(game, "reached Cy")
    assert game.arrived == [CY] and game.active() == ANA


# -- free text is a note; the journals of earlier versions still replay ---------


def test_free_text_is_offered_only_as_a_note():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    names = [spec.name for spec in BathroomRush.commands]
    assert "action" not in names and "action" not in commands(game)
    assert [p.kind for p in BathroomRush.spec("note").params] == ["text"]
    assert "concentration" not in [p.name for p in BathroomRush.spec("decompress").params]
    play(game, "note Ben's cat walked over the queues")
    assert game.active() == ANA


def test_a_card_as_free_text_in_an_earlier_journal_replays(table, reopen):
    """``action <free text>`` and ``decompress concentration=yes``, as the
    journals of earlier versions hold them, give the same table after a
    restart (the journal is replayed)."""
    def to_the_choice():
        while table.game.phase != "E":
            wait = table.game.expected()[0]
            if wait.command == "reveal":
                table.submit(Command("reveal", {**wait.args, "pipi": 1, "popo": 0,
                                                "colour": "neutral"}))
            else:
                table.submit(Command("defend", {}))

    table.new_game("bathroom-rush", list(THREE))
    for q in (1, 2, 3):
        table.submit(Command("choose-queue", {"queue": q}))
    to_the_choice()
    table.submit(Command("action", {"card": "Clogged Toilet"}))
    assert table.game.step == "action" and table.game.action_card == "Clogged Toilet"
    table.submit(Command("end-turn", {}))
    to_the_choice()
    seat = table.game.active()
    table.submit(Command("set-reserve", {"player": seat, "pipi": 4, "popo": 0}))
    table.submit(Command("decompress", {"concentration": True}))
    table.submit(Command("roll", {"values": [4]}))
    assert table.game.reserves[seat]["pipi"] == 0
    again = reopen()
    assert again.game.dumps() == table.game.dumps()
    assert [h.text for h in again.history()] == [h.text for h in table.history()]


def test_a_card_as_free_text_is_refused_out_of_turn_like_a_card_by_name():
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    refused(game, "action Swap player=Ben", WrongPlayer)


@pytest.mark.parametrize("words", ["play Give Up Your Place", "play Cedi il posto",
                                   "play give-up-your-place"])
def test_a_card_is_named_in_words_by_its_name_in_english_or_italian(words):
    game = position(["n2 Ana n1", "n1 Ben n1", "n1 Cy n1", "n1"])
    assert game.parse_words(words).args["card"] == "give-up-your-place"
