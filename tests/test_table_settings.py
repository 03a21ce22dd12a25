"""The table's own settings (its language; turns only from the player's own
phone), kept in the journal, and a phone's seat checked inside the lock."""

from __future__ import annotations

import sqlite3

import pytest

from companion.core.engine import Command
from companion.core.errors import BadSetting, NotYourSeat, WrongPlayer
from companion.core.table import ANY_SEAT, Settings, Table


def journal_rows(table: Table) -> int:
    with sqlite3.connect(table.journal_path) as db:
        return db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]


def test_the_settings_start_at_their_defaults(table):
    assert table.settings() == Settings(seat_only=False, language=None)


def test_settings_are_kept_across_a_restart(table, reopen):
    table.change_setting("seat_only", True)
    table.change_setting("language", "fr")
    again = reopen()
    assert again.settings() == Settings(seat_only=True, language="fr")
    again.change_setting("language", None)  # back to the configured one
    assert reopen().settings() == Settings(seat_only=True, language=None)


@pytest.mark.parametrize("name, value", [("seat_only", "yes"), ("seat_only", 1),
                                         ("language", "de"), ("language", 3),
                                         ("colour", True)])
def test_a_bad_setting_is_refused_and_nothing_changes(table, reopen, name, value):
    table.change_setting("language", "it")
    with pytest.raises(BadSetting):
        table.change_setting(name, value)
    assert table.settings() == Settings(seat_only=False, language="it")
    assert reopen().settings() == Settings(seat_only=False, language="it")


def test_settings_listeners_hear_each_change(table):
    heard: list[Settings] = []
    unsubscribe = table.subscribe_settings(heard.append)
    table.change_setting("language", "fr")
    unsubscribe()
    table.change_setting("language", "en")
    assert heard == [Settings(seat_only=False, language="fr")]


@pytest.fixture
def seat_only(table):
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    table.change_setting("seat_only", True)
    return table


def test_with_seat_only_another_seats_phone_cannot_play_the_turn(seat_only):
    table = seat_only
    before = table.current()
    rows = journal_rows(table)
    with pytest.raises(NotYourSeat) as refused:
        table.submit(Command("card", {"value": 6}), seat="Ben")
    assert refused.value.player == "Ana" and refused.value.seat == "Ben"
    assert refused.value.rule == "not-your-seat"
    with pytest.raises(NotYourSeat):
        table.submit(Command("card", {"value": 6, "player": 0}), seat=None)
    with pytest.raises(NotYourSeat):
        table.preview(Command("card", {"value": 6}), seat="Ben")
    now = table.current()
    assert (now.version, now.state) == (before.version, before.state)
    assert journal_rows(table) == rows and table.history() == []


def test_with_seat_only_the_seats_own_phone_plays_it(seat_only):
    update = seat_only.submit(Command("card", {"value": 6}), seat="ana")
    assert update.version == 1
    # And now it is Ben's turn: Ana's phone may not play it.
    with pytest.raises(NotYourSeat):
        seat_only.submit(Command("card", {"value": 2}), seat="Ana")


def test_the_tables_buttons_and_cli_act_for_anyone(seat_only):
    assert seat_only.submit(Command("card", {"value": 6})).version == 1
    assert seat_only.submit(Command("card", {"value": 4}), seat=ANY_SEAT).version == 2


def test_corrections_undo_and_redo_stay_open_to_every_phone(seat_only):
    seat_only.submit(Command("card", {"value": 6}), seat="Ana")
    seat_only.submit(Command("set-pressure", {"value": 12}), seat="Cy")
    seat_only.undo()
    seat_only.redo()
    assert seat_only.game.view()["pressure"] == 12


def test_with_seat_only_off_anyone_plays(table):
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    assert table.submit(Command("card", {"value": 6}), seat="Ben").version == 1


def test_a_command_the_game_refuses_gets_the_games_reason(seat_only):
    with pytest.raises(WrongPlayer):
        seat_only.submit(Command("card", {"value": 6, "player": "Ben"}), seat="Ben")


def test_the_callers_settings_are_kept_across_a_restart(table, reopen):
    assert (table.settings().caller, table.settings().caller_moments) == (None, None)
    table.change_setting("caller", False)
    table.change_setting("caller_moments", ["play", "turn", "play"])
    again = reopen()
    assert again.settings().caller is False
    # Kept in the caller's own order, each once.
    assert again.settings().caller_moments == ("turn", "play")


@pytest.mark.parametrize(("name", "value"), [("caller", "yes"), ("caller_moments", ["shout"]),
                                             ("caller_moments", "turn")])
def test_a_bad_caller_setting_is_refused(table, name, value):
    with pytest.raises(BadSetting):
        table.change_setting(name, value)
    assert table.settings().caller is None and table.settings().caller_moments is None
