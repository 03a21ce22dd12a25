"""The table's keys, story by story: what players press and what happens.

Every story drives a real table on a temporary journal with the real
engines.  Keys are written as words: ``up``, ``down``, ``ok``, ``back``,
``roll``; ``hold-ok`` is OK held down (its press, then its long press: one
press for the player).
"""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from companion.core.errors import CardFull
from companion.core.menu import FAST_AFTER, MenuView, TableMenu, UnknownKey
from companion.core.text import LANGUAGES, say

ANA, BEN, CY = 0, 1, 2
JOIN = ("http://192.168.1.20:8000/join/k3Yt0k", "4711")


def press(menu: TableMenu, keys: str) -> int:
    """Press ``keys`` in order; return how many presses that was."""
    words = keys.split()
    for word in words:
        if word.startswith("hold-"):
            menu.on_key(word[5:], "press")
            menu.on_key(word[5:], "long")
        else:
            menu.on_key(word, "press")
    return len(words)


def hold(menu: TableMenu, key: str, repeats: int) -> None:
    menu.on_key(key, "press")
    for _ in range(repeats):
        menu.on_key(key, "repeat")


@pytest.fixture
def menu_for(table):
    """A menu on the table, listening to it as the daemon wires it."""

    def make(game: str, players=("Ana", "Ben", "Cy"), variants=(), **kwargs) -> TableMenu:
        if game:
            table.new_game(game, list(players), variants)
        kwargs.setdefault("dice_source", "manual")
        kwargs.setdefault("join_info", lambda: JOIN)
        menu = TableMenu(table, **kwargs)
        table.subscribe(menu.on_update)
        return menu

    return make


def last_command(table) -> str:
    return table.history()[-1].text


# -- Call of Nature: the common turn -----------------------------------------


def test_the_game_screen_says_what_the_game_waits_for(menu_for):
    menu = menu_for("call-of-nature")
    assert menu.view() == MenuView("game", "Call of Nature", footer="Ana plays a card")


def test_a_plus_three_card_takes_four_presses(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up up up")
    assert table.version == 0
    assert menu.view().value == 3
    assert press(menu, "ok") == 1
    assert table.game.pressure == 3
    assert last_command(table) == "card value=3"
    assert menu.view().footer == "Ben plays a card"


def test_a_plus_zero_card_takes_two_presses(table, menu_for):
    menu = menu_for("call-of-nature")
    assert press(menu, "ok ok") == 2
    assert last_command(table) == "card value=0"
    assert table.game.pressure == 0
    assert table.game.active == BEN


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5])
def test_every_card_from_plus_one_to_plus_five_takes_at_most_six_presses(table, menu_for,
                                                                          value):
    menu = menu_for("call-of-nature")
    presses = press(menu, "up " * value + "ok")
    assert presses == value + 1 <= 6
    assert table.game.pressure == value


def test_a_minus_two_card_is_entered_with_down(table, menu_for):
    menu = menu_for("call-of-nature")
    table.submit(Command("card", {"value": 10}))
    press(menu, "down down ok")
    assert last_command(table) == "card value=-2"
    assert table.game.pressure == 8


def test_a_held_key_steps_by_five_after_a_few_repeats(menu_for):
    menu = menu_for("call-of-nature")
    hold(menu, "up", FAST_AFTER)
    assert menu.view().value == 1 + FAST_AFTER
    menu.on_key("up", "repeat")
    assert menu.view().value == 5
    menu.on_key("up", "repeat")
    assert menu.view().value == 10


def test_a_card_value_stops_at_the_decks_highest_card(menu_for):
    menu = menu_for("call-of-nature")
    hold(menu, "up", 20)
    assert menu.view() == MenuView("value", "Ana plays a card", value=30, low=-30, high=30,
                                   signed=True, text="Ana plays a card",
                                   footer="OK: enter  BACK: back")


def test_back_during_a_card_goes_back_to_the_game_and_sends_nothing(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up up back")
    assert menu.view().kind == "game"
    assert table.version == 0


def test_holding_ok_offers_the_special_cards(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "hold-ok")
    view = menu.view()
    assert (view.kind, view.title) == ("list", "Actions")
    assert view.items == ("Ana plays a card", "Ana plays a special card", "Corrections")
    press(menu, "down ok")
    assert menu.view().items[:2] == ("U-TURN!", "CRITICAL THRESHOLD!")
    press(menu, "ok")
    assert last_command(table) == "special card=u-turn"
    assert table.game.direction == -1
    assert menu.view().footer == "Cy plays a card"


def test_special_cards_taken_out_by_a_variant_are_not_offered(menu_for):
    menu = menu_for("call-of-nature", variants=["beginners-deck"])
    press(menu, "hold-ok down ok")
    assert menu.view().items == ("U-TURN!", "CRITICAL THRESHOLD!")


# -- Call of Nature: rolls entered by hand -----------------------------------------


def respite_for_ana(table) -> None:
    table.submit(Command("set-pressure", {"value": 45}))
    table.submit(Command("card", {"value": 5}))


def test_a_respite_roll_of_four_is_entered_with_four_presses(table, menu_for):
    menu = menu_for("call-of-nature")
    respite_for_ana(table)
    assert menu.view().footer == "Ana rolls a d6 for the Respite at 50"
    press(menu, "up up up")
    assert menu.view().items == ("4",)
    assert press(menu, "ok") == 1
    assert last_command(table) == "roll values=4"


def test_a_respite_six_takes_two_presses_because_the_die_wraps_round(table, menu_for):
    menu = menu_for("call-of-nature")
    respite_for_ana(table)
    assert press(menu, "down ok") == 2
    assert last_command(table) == "roll values=6"


def test_roll_opens_the_roll_when_the_dice_are_entered_by_hand(table, menu_for):
    menu = menu_for("call-of-nature")
    respite_for_ana(table)
    press(menu, "roll")
    assert (menu.view().kind, menu.view().unit) == ("dice", "d6")


def test_the_end_of_game_roll_takes_each_die_in_turn_and_back_returns_to_the_first(
        table, menu_for):
    menu = menu_for("call-of-nature", players=("Ana", "Ben"))
    table.submit(Command("adjust-mastery", {"player": "Ana", "delta": -7}))
    assert menu.view().footer == "Ben rolls 2d6 for the End of Game"
    press(menu, "up up ok")
    assert menu.view().items == ("3", "1")
    assert menu.view().index == 1
    press(menu, "back")
    assert (menu.view().items, menu.view().index) == (("3", "?"), 0)
    press(menu, "ok up ok")
    assert last_command(table) == "roll values=3 2"
    assert table.game.over


def test_with_the_roll_button_the_menu_says_to_press_roll(table, menu_for):
    menu = menu_for("call-of-nature", dice_source="button")
    respite_for_ana(table)
    assert menu.view().footer == "ROLL: Ana rolls a d6 for the Respite at 50"
    press(menu, "ok")
    view = menu.view()
    assert view.kind == "message"
    assert "press ROLL" in view.text
    press(menu, "roll")
    assert menu.view().kind == "message"  # ROLL belongs to the dice driver
    press(menu, "ok")
    assert menu.view().kind == "game"
    assert table.version == 2


def test_with_the_roll_button_the_roll_key_asks_the_dice_service_whatever_is_open(
        table, menu_for):
    asked = []
    menu = menu_for("call-of-nature", dice_source="button",
                    roll=lambda: asked.append(menu.view().kind))
    respite_for_ana(table)
    press(menu, "roll")
    press(menu, "back")  # the main menu is open: ROLL still rolls
    press(menu, "roll")
    assert asked == ["game", "list"]
    assert table.version == 2  # the dice service submits, not the menu


def test_with_dice_entered_by_hand_the_roll_key_never_asks_the_dice_service(table, menu_for):
    asked = []
    menu = menu_for("call-of-nature", dice_source="manual", roll=lambda: asked.append(1))
    respite_for_ana(table)
    press(menu, "roll")
    assert menu.view().kind == "dice" and asked == []


def test_choosing_manual_dice_in_the_menu_tells_the_dice_driver(menu_for):
    chosen = []
    menu = menu_for("call-of-nature", dice_source="button", set_dice_source=chosen.append)
    press(menu, "back")
    assert menu.view().items[4] == "Dice: button"
    press(menu, "down down down down ok")
    view = menu.view()
    assert (view.title, view.items, view.index) == ("Dice source",
                                                    ("button", "manual", "serial", "pixels"), 0)
    press(menu, "down ok")
    assert chosen == ["manual"]
    assert menu.dice_source == "manual"
    assert menu.view().kind == "game"


# -- undo and redo ------------------------------------------------------------------


def test_back_then_undo_shows_what_it_will_undo_and_ok_undoes_it(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up up up ok")
    press(menu, "back")
    assert menu.view().items[0] == "Undo"
    press(menu, "ok")
    assert menu.view() == MenuView("confirm", "Undo", text=f"Undo: {table.undo_preview()}?",
                                   footer="OK: yes  BACK: no")
    assert "3" in table.undo_preview() and "value=" not in table.undo_preview()
    press(menu, "ok")
    assert table.game.pressure == 0
    assert menu.view().footer == "Ana plays a card"
    assert table.history()[-1].action == "undo"


def test_back_at_the_undo_question_undoes_nothing(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up ok")
    press(menu, "back ok back")
    assert menu.view().title == "Menu"
    assert table.game.pressure == 1


def test_redo_from_the_menu_plays_the_undone_card_again(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up up ok")
    press(menu, "back ok ok")
    press(menu, "back down ok")
    assert table.game.pressure == 2
    assert table.history()[-1].action == "redo"


def test_undo_at_the_start_of_a_game_says_there_is_nothing_to_undo(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back ok")
    assert menu.view().kind == "message"
    assert menu.view().text == "Nothing to undo: the game is at its setup"


def test_an_undo_question_is_withdrawn_when_a_phone_plays_meanwhile(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up ok back ok")
    table.submit(Command("card", {"value": 4}), source="phone")
    view = menu.view()
    assert (view.kind, view.title) == ("list", "Menu")
    press(menu, "ok")
    assert menu.view().text.startswith("Undo: Ben plays +4")


# -- refused commands, stale states, phones ----------------------------------------


def test_a_refused_command_shows_the_rules_message_and_changes_nothing(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back down down down ok")  # Corrections
    press(menu, "down ok ok")              # Adjust Mastery, Ana
    press(menu, "up up ok")                # +1: Ana already has 7
    assert menu.view().text == "Adjust Mastery Ana +1?"
    press(menu, "ok")
    view = menu.view()
    assert (view.kind, view.title) == ("message", "Refused")
    assert view.text == ("Ana's Mastery is 7 and stays within 0..7: a change of +1 "
                         "corrects nothing")
    assert table.version == 0
    press(menu, "ok")
    assert menu.view().kind == "game"


@pytest.mark.parametrize(("lang", "title", "text"), [
    ("fr", "Refusé", "la Maîtrise d'Ana est à 7 et reste entre 0 et 7 : un changement de +1 "
                     "ne corrige rien"),
    ("it", "Rifiutato", "il Controllo di Ana è 7 e resta fra 0 e 7: un cambio di +1 non "
                        "corregge niente"),
])
def test_a_refused_command_is_shown_in_the_tables_language(table, menu_for, lang, title,
                                                            text):
    menu = menu_for("call-of-nature", language=lang)
    press(menu, "back down down down ok")  # Corrections
    press(menu, "down ok ok")              # Adjust Mastery, Ana
    press(menu, "up up ok ok")             # +1: Ana already has 7
    view = menu.view()
    assert (view.kind, view.title, view.text) == ("message", title, text)
    assert table.version == 0


def test_a_setup_the_game_refuses_is_shown_in_the_tables_language(table, menu_for):
    from companion.core.errors import BadSetup

    menu = menu_for("", language="it")
    with pytest.raises(BadSetup) as refusal:
        table.new_game("call-of-nature", ["Ana"])
    menu._start_game("call-of-nature", ("Ana",), (), {})
    view = menu.view()
    assert view.text == refusal.value.say("it") == (
        "Call of Nature si gioca da 2 a 6 giocatori, non 1")


# SQLite's default for a journal's most pages: no limit but the card's room.
MOST_PAGES = 1_073_741_823
# A Call of Nature card that changes nothing but whose turn it is.
ZERO_CARD = Command("card", {"value": 0})


def fill_the_card(table) -> int:
    """Fill the journal's memory card as SQLite meets a full one
    (``SQLITE_FULL``): the journal may take no page more than it has, and
    +0 cards are played until one is refused (a +0 card from the keys is
    then refused too: it needs as much room, and its source's name more).
    Returns the version the table stays at."""
    db = table._journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    for _ in range(10_000):
        try:
            table.submit(ZERO_CARD)
        except CardFull:
            return table.version
    raise AssertionError("the card never filled")


def free_the_card(table) -> None:
    table._journal._db.execute(f"PRAGMA max_page_count = {MOST_PAGES}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_played_on_a_full_memory_card_is_refused_on_screen_and_plays_once_freed(
        table, menu_for, lang):
    menu = menu_for("call-of-nature", language=lang)
    version = fill_the_card(table)
    press(menu, "ok ok")  # a +0 card: the card cannot take it
    view = menu.view()
    assert (view.kind, view.title, view.text) == (
        "message", say("menu.refused", lang), say("refusal.card-full", lang))
    assert table.version == version
    free_the_card(table)
    press(menu, "ok ok ok")  # the message put away, then the +0 card
    assert table.version == version + 1
    assert menu.view().kind == "game"


def test_on_a_card_turned_read_only_every_key_that_writes_is_refused_on_screen(
        table, db_path):
    from companion.core.journal import Journal
    from companion.core.table import Table
    from drivers.dice import DiceTray

    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    respite_for_ana(table)
    table.close()
    # The companion started on a card that had turned read-only.
    read_only = Table(Journal.open_read_only(db_path))
    try:
        tray = DiceTray.at_table(read_only, source="button")
        menu = TableMenu(read_only, dice_source="button", roll=tray.on_roll_button)
        failing = say("refusal.card-failing", "en")
        press(menu, "roll")  # the dice service's roll
        assert (menu.view().kind, menu.view().title, menu.view().text) == (
            "message", "Refused", failing)
        press(menu, "ok back ok ok")  # the message put away; the main menu's Undo, confirmed
        assert menu.view().text == failing
        press(menu, "ok back up ok ok ok")  # its last line, New game: a rematch, confirmed
        assert menu.view().text == failing
        assert read_only.version == 2 and read_only.game.expected()[0].command == "roll"
    finally:
        read_only.close()


def test_a_state_change_from_a_phone_resets_the_entry_in_progress(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up up")
    table.submit(Command("card", {"value": 5}), source="phone")
    assert menu.view() == MenuView("game", "Call of Nature", footer="Ben plays a card")
    press(menu, "ok ok")
    assert last_command(table) == "card value=0"
    assert table.game.pressure == 5


def test_a_note_from_a_phone_does_not_disturb_the_card_being_entered(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "up up")
    table.submit(Command("note", {"text": "snack break"}), source="phone")
    assert menu.view().value == 2
    press(menu, "ok")
    assert last_command(table) == "card value=2"


def test_a_menu_that_missed_a_change_refreshes_and_says_so(table):
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    menu = TableMenu(table)  # not listening: it cannot know
    press(menu, "up")
    table.submit(Command("card", {"value": 5}), source="phone")
    press(menu, "ok")
    view = menu.view()
    assert (view.kind, view.title) == ("message", "Changed meanwhile")
    assert table.game.pressure == 5
    press(menu, "ok")
    assert menu.view().footer == "Ben plays a card"


# -- corrections ---------------------------------------------------------------------


def test_corrections_list_every_correction_of_the_game(menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back down down down ok")
    assert menu.view().items == ("Set pressure", "Adjust Mastery", "Skip player",
                                 "Reverse direction", "New round", "Set draw pile", "Note")


def test_a_mastery_correction_is_entered_step_by_step_and_applied(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back down down down ok down ok")
    assert menu.view().items == ("Ana", "Ben", "Cy")
    press(menu, "down ok")
    view = menu.view()
    assert (view.title, view.value) == ("Adjust Mastery: delta", -1)
    press(menu, "down ok")
    assert menu.view().text == "Adjust Mastery Ben -2?"
    press(menu, "ok")
    assert table.game.mastery == [7, 5, 7]
    assert menu.view().kind == "game"


def test_set_pressure_starts_at_the_pressure_the_table_has(table, menu_for):
    menu = menu_for("call-of-nature")
    table.submit(Command("card", {"value": 12}))
    press(menu, "back down down down ok ok")
    assert menu.view().value == 12
    press(menu, "up up ok ok")
    assert table.game.pressure == 14


def test_a_correction_with_nothing_to_enter_asks_first(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back down down down ok down down ok")
    assert menu.view().text == "Skip player?"
    press(menu, "ok")
    assert table.game.active == BEN


def test_a_note_is_chosen_from_a_short_list(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back down down down ok up ok")
    assert menu.view().items[0] == "CRITICAL THRESHOLD! applied"
    press(menu, "ok ok")
    assert last_command(table) == "note text=CRITICAL THRESHOLD! applied"


# -- OhShit! ---------------------------------------------------------------------------


def test_a_poop_on_the_next_player_takes_four_presses(table, menu_for):
    menu = menu_for("ohshit")
    assert menu.view().footer == "Ana: put a poop on a pile"
    press(menu, "ok")
    assert menu.view().items == ("Ben", "Cy", "Ana")
    press(menu, "ok")
    assert menu.view().items[:2] == ("Spicy", "Precious")
    press(menu, "down ok")
    assert last_command(table) == "poop target=Ben colour=precious player=Ana"
    assert table.game.piles[BEN]["precious"] == 1


def test_down_on_the_game_screen_goes_straight_to_the_player_after_next(table, menu_for):
    menu = menu_for("ohshit")
    assert press(menu, "down ok ok") == 3
    assert table.game.piles[CY]["spicy"] == 1


def test_players_who_are_dead_are_not_offered_as_targets(table, menu_for):
    menu = menu_for("ohshit")
    table.submit(Command("kill", {"player": "Ben"}))
    press(menu, "ok")
    assert menu.view().items == ("Cy", "Ana")


def test_a_toilette_is_offered_on_ones_own_pile_first(table, menu_for):
    menu = menu_for("ohshit")
    press(menu, "hold-ok down ok")
    view = menu.view()
    assert view.items[view.index] == "Ana"


OHSHIT_CORRECTIONS = "back down down down ok"


def test_correcting_bens_spicy_count_starts_at_his_current_2(table, menu_for):
    menu = menu_for("ohshit")
    table.submit(Command("set-pile", {"player": "Ben", "colour": "spicy", "count": 2}))
    press(menu, OHSHIT_CORRECTIONS + " ok down ok ok")
    view = menu.view()
    assert (view.title, view.value) == ("Set pile: count", 2)
    press(menu, "up ok ok")
    assert table.game.piles[BEN]["spicy"] == 3


def test_correcting_bens_hand_starts_at_the_five_cards_he_holds(table, menu_for):
    menu = menu_for("ohshit")
    press(menu, OHSHIT_CORRECTIONS + " down down ok down ok")
    view = menu.view()
    assert (view.title, view.value) == ("Set hand: count", 5)


def test_correcting_the_deck_starts_at_the_four_unicorns_of_the_box(table, menu_for):
    menu = menu_for("ohshit")
    press(menu, OHSHIT_CORRECTIONS + " down down down down down ok")
    press(menu, "down down down down down ok")
    view = menu.view()
    assert (view.title, view.value) == ("Set deck: count", 4)


# -- the join code, new games ---------------------------------------------------------


def test_join_shows_the_qr_code_and_the_pin(menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back up up ok")
    assert menu.view() == MenuView("qr", "Join", url=JOIN[0], pin=JOIN[1],
                                   text="Scan to open the table on your phone", footer="OK")
    press(menu, "ok")
    assert menu.view().title == "Menu"


def test_sign_out_asks_first_then_shows_the_new_qr_code_and_pin(menu_for):
    signed_out = []

    def sign_out():
        signed_out.append(True)
        return ("http://192.168.1.20:8000/?join=n3wT0k", "1234")

    menu = menu_for("call-of-nature", sign_out=sign_out)
    press(menu, "back up up")
    assert menu.view().items[menu.view().index] == "Sign out phones"
    press(menu, "ok")
    assert menu.view().title == "Sign out phones" and not signed_out
    press(menu, "back")
    assert not signed_out
    press(menu, "ok ok")
    assert signed_out == [True]
    view = menu.view()
    assert (view.kind, view.url, view.pin) == ("qr", "http://192.168.1.20:8000/?join=n3wT0k",
                                               "1234")


def test_without_a_panel_the_menu_offers_no_sign_out(menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back")
    assert "Sign out phones" not in menu.view().items


def choose(menu: TableMenu, label: str) -> None:
    """UP until the list's line ``label`` is chosen, then OK."""
    for _ in range(len(menu.view().items)):
        if menu.view().items[menu.view().index] == label:
            press(menu, "ok")
            return
        press(menu, "down")
    raise AssertionError(f"{label!r} is not in {menu.view().items}")


def test_the_caller_is_turned_off_and_its_moments_chosen_from_the_menu(menu_for, table):
    menu = menu_for("call-of-nature", speaker=True, caller_moments=("turn", "play"))
    press(menu, "back")
    choose(menu, "Caller: on")
    assert menu.view().title == "Caller"
    assert menu.view().items == ("Caller: on", "Turns: on", "Start, winner: off", "Undo: off",
                                 "Play: on")
    press(menu, "ok")
    assert table.settings().caller is False
    assert menu.view().items[0] == "Caller: off" and menu.view().index == 0
    press(menu, "down ok")  # Turns: off
    assert table.settings().caller_moments == ("play",)
    assert menu.view().items[1] == "Turns: off" and menu.view().index == 1
    press(menu, "down ok")  # Start, winner: on
    assert table.settings().caller_moments == ("game", "play")


def test_without_a_speaker_the_menu_offers_no_caller(menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back")
    assert not [item for item in menu.view().items if item.startswith("Caller")]


def test_a_rematch_confirmed_as_a_phone_starts_a_game_starts_none(table):
    # The menu has not heard of the phone's game yet (its update is on the
    # way): the table refuses the rematch, made against the game it replaced.
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    menu = TableMenu(table, dice_source="manual")
    press(menu, "back up ok")
    assert menu.view().items[0].startswith("Rematch")
    press(menu, "ok")
    assert menu.view().title == "Rematch"
    phone_game = table.new_game("call-of-nature", ["Dee", "Eve"])
    press(menu, "ok")
    assert menu.view().title == "Changed meanwhile"
    assert [g["id"] for g in table.games()][-1] == phone_game.game_id
    assert table.current().players == ("Dee", "Eve")


def test_a_rematch_starts_the_same_game_with_the_same_players(table, tally_game, menu_for):
    menu = menu_for(tally_game, players=("Zoé", "Ben"), variants=["short"])
    for amount in (3, 3):
        table.submit(Command("add", {"amount": amount}))
    assert menu.view().footer == "Ben wins"
    press(menu, "ok")
    assert menu.view().items[0] == "Rematch: Tally"
    press(menu, "ok")
    assert menu.view().text == "New Tally with Zoé, Ben?"
    press(menu, "ok")
    assert (table.version, table.game.players) == (0, ("Zoé", "Ben"))
    assert table.game.setup.variants == {"short"}
    assert menu.view().footer == "Zoé adds"


def test_with_no_game_yet_ok_starts_one_from_the_configured_names(table, tally_game,
                                                                   menu_for):
    menu = menu_for("", player_names=["Ana", "Ben", "Cy"])
    assert menu.view().footer == "No game: OK to start one"
    press(menu, "ok")
    assert menu.view().items[-1] == "Tally"
    press(menu, "up ok")
    assert menu.view().items == ("2: Ana, Ben", "3: Ana, Ben, Cy")
    press(menu, "down ok ok")
    assert table.game.players == ("Ana", "Ben", "Cy")
    assert menu.view().footer == "Ana adds"


# -- the keys themselves ----------------------------------------------------------------


def test_holding_back_goes_home_from_deep_in_the_menu(menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back down down down ok down ok")
    press(menu, "hold-back")
    assert menu.view().kind == "game"


def test_holding_back_on_the_game_screen_leaves_the_menu_open(menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "hold-back")
    assert menu.view().title == "Menu"


def test_a_key_the_table_does_not_have_is_refused(menu_for):
    menu = menu_for("call-of-nature")
    with pytest.raises(UnknownKey, match="keys are up, down, ok, back, roll"):
        menu.on_key("left", "press")


# -- Bathroom Rush ----------------------------------------------------------------------


def queues_chosen(table) -> None:
    for queue in (1, 2, 3):
        table.submit(Command("choose-queue", {"queue": queue}))


def personas_revealed(table, colours=None, *, named=True) -> None:
    """Reveal every Persona waiting, with 1 pipì; ``colours`` maps a
    (queue, position) to another colour than neutral, an Elderly Man
    unless not ``named`` (a Persona whose effect the table applies)."""
    colours = colours or {}
    while table.current().expected[0].command == "reveal":
        args = dict(table.current().expected[0].args)
        colour = colours.get((args["queue"], args["position"]), "neutral")
        name = {"name": "Elderly Man"} if colour != "neutral" and named else {}
        table.submit(Command("reveal", {**args, "pipi": 1, "popo": 0, "colour": colour,
                                        **name}))


def test_choosing_a_queue_at_setup_takes_two_presses(table, menu_for):
    menu = menu_for("bathroom-rush")
    assert press(menu, "ok ok") == 2
    assert last_command(table) == "choose-queue queue=1"
    press(menu, "ok ok")
    assert last_command(table) == "choose-queue queue=2"


def test_a_neutral_persona_is_revealed_in_three_presses_without_its_name(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    view = menu.view()
    assert (view.kind, view.title, view.text) == ("keys", "Reveal", "queue 1, bathroom")
    assert view.items == ("light blue", "orange", "red", "yellow")
    presses = press(menu, "up")
    assert menu.view().items == ("1 pipì", "2 pipì", "1 pipì and 1 popò", "1 popò")
    presses += press(menu, "up")
    assert menu.view().text == "light blue, 1 pipì?"
    presses += press(menu, "ok")
    assert presses == 3
    assert last_command(table) == "reveal queue=1 position=1 persona=0 pipi=1 popo=0 colour=neutral"


BOX = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 40},
       {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 4},
       {"name": "Avido lettore", "colour": "orange", "pipi": 1, "popo": 0, "copies": 1}]


def test_with_a_small_box_a_reveal_is_its_kind_beside_a_key_then_ok(table, menu_for):
    table.new_game("bathroom-rush", ["Ana", "Ben", "Cy"], options={"box": BOX})
    menu = menu_for("")
    queues_chosen(table)
    assert menu.view().items == ("Signora ×40", "Anziano ×4", "Avido lettore ×1", "")
    assert press(menu, "down") == 1
    assert menu.view().text == "Anziano: 2 pipì?"
    assert press(menu, "ok") == 1
    assert last_command(table) == "reveal-kind queue=1 position=1 persona=0 kind=Anziano"


def test_a_kind_all_seen_is_no_longer_offered(table, menu_for):
    table.new_game("bathroom-rush", ["Ana", "Ben", "Cy"], options={"box": BOX})
    menu = menu_for("")
    queues_chosen(table)
    table.submit(Command("reveal-kind", {"queue": 1, "position": 1, "kind": "Avido lettore"}))
    assert menu.view().items == ("Signora ×40", "Anziano ×4", "", "")
    version = table.version
    press(menu, "ok")  # nothing beside OK
    assert table.version == version and menu.view().kind == "keys"


def test_an_orange_persona_is_named_through_the_full_reveal_held_ok_lists(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    press(menu, "hold-ok")
    assert menu.view().title == "Actions"
    press(menu, "ok up ok ok down ok")
    assert menu.view().items[:2] == ("Elderly Man", "Mother with Baby")
    press(menu, "ok")
    assert last_command(table) == ("reveal queue=1 position=1 pipi=1 popo=0 colour=orange "
                                   "name=Elderly Man persona=0")


def test_back_from_the_colour_returns_to_the_popo_and_skips_nothing(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    press(menu, "hold-ok ok up ok up ok")
    press(menu, "back")
    view = menu.view()
    assert (view.title, view.value) == ("Reveal: popò", 1)


def test_decompressing_is_chosen_from_the_actions_then_the_red_die_entered(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    personas_revealed(table)
    assert menu.view().footer == "Ana: play an Action card, decompress or pass?"
    press(menu, "hold-ok down ok")
    assert last_command(table) == "decompress"
    view = menu.view()
    assert (view.kind, view.unit, view.high) == ("game", "", None)
    assert view.footer == "Ana decompresses: roll the red die"
    press(menu, "up")
    assert (menu.view().kind, menu.view().unit, menu.view().high) == ("dice", "red", 4)
    press(menu, "ok")
    assert last_command(table) == "roll values=2"


def test_an_action_card_is_chosen_by_its_name(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    personas_revealed(table)
    press(menu, "ok")
    assert menu.view().items[:3] == ("Give Up Your Place", "Cunning", "Change Queue")
    press(menu, "down down ok")
    assert last_command(table) == "play card=change-queue"


def test_the_queue_operations_are_listed_by_their_names(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    personas_revealed(table, {(1, 8): "orange"}, named=False)
    press(menu, "hold-ok")
    assert menu.view().items[2:6] == ("A player swaps with the Persona behind",
                                      "The Persona behind passes in front",
                                      "The Persona in front leaves", "The Persona behind leaves")
    press(menu, "down down down ok")
    assert menu.view().items == ("Ana", "Ben", "Cy")
    press(menu, "ok")
    assert last_command(table) == "pass-in-front player=Ana"


def test_a_persona_effect_asks_first_and_holding_ok_sends_nothing(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    personas_revealed(table, {(1, 8): "orange"})
    version = table.version
    press(menu, "ok")
    assert menu.view().text == "Effect happens: Ana?"
    press(menu, "back hold-ok")
    assert menu.view().title == "Actions"
    assert table.version == version
    press(menu, "back ok ok")
    assert last_command(table) == "effect"


def test_a_queue_defence_against_a_persona_is_the_second_choice(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    personas_revealed(table, {(1, 8): "orange"})
    press(menu, "hold-ok down ok ok")
    assert last_command(table) == "defend"


BATHROOM_RUSH_CORRECTIONS = "back down down down ok"


def test_correcting_bens_reserve_starts_at_his_2_pipi(table, menu_for):
    menu = menu_for("bathroom-rush")
    table.submit(Command("set-reserve", {"player": "Ben", "pipi": 2, "popo": 1}))
    press(menu, BATHROOM_RUSH_CORRECTIONS + " ok down ok")
    view = menu.view()
    assert (view.title, view.value) == ("Set reserve: pipì", 2)
    press(menu, "ok")
    assert menu.view().value == 1


def test_correcting_a_persona_starts_at_what_was_revealed(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    personas_revealed(table)
    press(menu, BATHROOM_RUSH_CORRECTIONS + " down down ok")
    press(menu, "ok ok ok ok ok ok")
    assert menu.view().text == "Set Persona 1 1 1 0 Neutral (none)?"


def test_turning_a_persona_back_up_starts_where_it_lies_turned_over(table, menu_for):
    menu = menu_for("bathroom-rush")
    queues_chosen(table)
    personas_revealed(table, {(1, 8): "orange"}, named=False)
    table.submit(Command("flip", {"queue": 2, "position": 8}))
    press(menu, BATHROOM_RUSH_CORRECTIONS + " up up ok")
    press(menu, "ok ok")
    assert menu.view().text == "Unflip 2 8?"
    press(menu, "ok")
    assert last_command(table) == "unflip queue=2 position=8"


def test_a_suppositoire_starts_on_the_biggest_heap_of_ones_own_pile(table, menu_for):
    menu = menu_for("ohshit")
    for colour, count in (("grassy", 2), ("spicy", 1)):
        table.submit(Command("set-pile", {"player": "Ana", "colour": colour, "count": count}))
    press(menu, "hold-ok down down down ok ok")
    view = menu.view()
    assert view.items[view.index] == "Grassy"
    press(menu, "ok")
    assert last_command(table) == "suppositoire target=Ana colour=grassy player=Ana"


def test_a_suppositoire_on_an_empty_pile_asks_no_colour(table, menu_for):
    menu = menu_for("ohshit")
    table.submit(Command("set-constipated", {"player": "Ana", "constipated": True}))
    press(menu, "hold-ok down down down ok ok")
    assert last_command(table) == "suppositoire target=Ana player=Ana"
    assert not table.game.constipated[0]


def test_a_suppositoire_offers_only_the_colours_on_the_pile(table, menu_for):
    menu = menu_for("ohshit")
    for colour, count in (("frosty", 1), ("unicorn", 1), ("spicy", 2)):
        table.submit(Command("set-pile", {"player": "Ana", "colour": colour, "count": count}))
    press(menu, "hold-ok down down down ok ok")
    view = menu.view()
    assert view.items == ("Spicy", "Frosty", "Unicorn")
    assert view.items[view.index] == "Spicy"


def test_a_dead_player_is_never_offered_as_a_target(table, menu_for):
    menu = menu_for("ohshit", players=("Ana", "Ben", "Cy", "Dee"))
    table.submit(Command("kill", {"player": "Cy"}))
    for down in range(4):  # a poop, a Toilette, a Constipation, a Suppositoire
        press(menu, "hold-ok" + " down" * down + " ok")
        view = menu.view()
        assert "Cy" not in " ".join(view.items), view
        assert set(view.items) <= {"Ana", "Ben", "Dee"}
        press(menu, "back back back")


def test_a_toilette_is_not_offered_on_a_constipated_pile(table, menu_for):
    menu = menu_for("ohshit")
    table.submit(Command("set-constipated", {"player": "Ben", "constipated": True}))
    press(menu, "hold-ok down ok")
    assert menu.view().items == ("Cy", "Ana")


def test_back_at_a_corrections_question_returns_to_the_last_value(table, menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back down down down ok down ok down ok ok")
    assert menu.view().text == "Adjust Mastery Ben -1?"
    press(menu, "back")
    view = menu.view()
    assert (view.title, view.value) == ("Adjust Mastery: delta", -1)
    press(menu, "down ok ok")
    assert table.game.mastery == [7, 5, 7]


def test_with_no_game_the_menu_offers_dice_join_and_a_new_game(menu_for):
    menu = menu_for("")
    press(menu, "back")
    assert menu.view().items == ("Dice: manual", "Join (QR code)", "New game")


def test_home_shows_the_pin_and_one_key_shows_the_qr_code(menu_for):
    menu = menu_for("")
    home = menu.view()
    assert (home.kind, home.pin, home.url) == ("game", JOIN[1], JOIN[0])
    press(menu, "up")
    assert menu.view() == MenuView("qr", "Join", url=JOIN[0], pin=JOIN[1],
                                   text="Scan to open the table on your phone", footer="OK")
    press(menu, "ok")
    assert menu.view() == home


@pytest.mark.parametrize(("lang", "items", "keys"), [
    ("fr", ("Annuler", "Rétablir", "Actions", "Corrections", "Dés : à la main",
            "Rejoindre (QR code)", "Nouvelle partie"), "OK : choisir  RETOUR : revenir"),
    ("it", ("Annulla", "Ripeti", "Azioni", "Correzioni", "Dadi: a mano", "Entra (codice QR)",
            "Nuova partita"), "OK: scegli  INDIETRO: torna"),
])
def test_the_menu_speaks_the_tables_language(table, lang, items, keys):
    from companion.core.text import COMMON

    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    menu = TableMenu(table, dice_source="manual", language=lang)
    press(menu, "back")
    view = menu.view()
    assert (view.title, view.items, view.footer) == ("Menu", items, keys)
    press(menu, "ok")
    assert menu.view().text == COMMON[lang]["menu.nothing-to-undo"]
    # Every word of the menu is said in each language, with the same fields.
    assert set(COMMON[lang]) == set(COMMON["en"])

    from companion.core.refusals import ENGLISH_READS_OTHER_FIELDS
    from companion.language.catalogs import placeholders as fields
    assert {k: fields(v) for k, v in COMMON[lang].items()
            if k not in ENGLISH_READS_OTHER_FIELDS} == {
        k: fields(v) for k, v in COMMON["en"].items() if k not in ENGLISH_READS_OTHER_FIELDS}


def test_venue_settings_are_allowed_to_a_phone_only_after_ok_at_the_table(menu_for):
    allowed = []
    menu = menu_for("call-of-nature", sign_out=lambda: JOIN,
                    allow_venue=lambda: allowed.append(True))
    press(menu, "back")
    items = menu.view().items
    assert items.index("Venue") == items.index("Sign out phones") + 1
    press(menu, "up up")
    assert menu.view().items[menu.view().index] == "Venue"
    press(menu, "ok")
    view = menu.view()
    assert (view.title, view.text) == ("Venue", "Allow a phone to change it for 5 min?")
    press(menu, "back")  # BACK: no
    assert not allowed and menu.view().title == "Menu"
    press(menu, "ok ok")
    assert allowed == [True]
    assert menu.view().text == "A controller may change it for 5 minutes."


def test_without_a_venue_the_menu_offers_no_venue_settings(menu_for):
    menu = menu_for("call-of-nature")
    press(menu, "back")
    assert "Venue" not in menu.view().items
