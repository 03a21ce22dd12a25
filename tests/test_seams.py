"""The words the seams' enums stand for: the journal, the API and the phones
read them, so they never change, and a word that is no kind is refused when
it is written, not when a player first meets it."""

from __future__ import annotations

import json

import pytest

from companion.core.engine import Command, Param, ParamKind
from companion.core.menu import MenuView, ViewKind
from companion.core.table import Action


def test_the_kinds_and_actions_keep_their_words():
    assert [k.value for k in ParamKind] == ["int", "player", "choice", "dice", "text", "bool"]
    assert [a.value for a in Action] == ["new", "command", "undo", "redo", "current"]
    assert [v.value for v in ViewKind] == [
        "game", "list", "value", "confirm", "message", "qr", "dice", "wifi", "keys"]


def test_a_kind_given_by_its_word_is_the_kind():
    assert Param("card", "int", -5, 30).kind is ParamKind.INT
    assert MenuView("qr").kind is ViewKind.QR


def test_a_word_that_is_no_kind_is_refused_where_it_is_written():
    with pytest.raises(ValueError, match="'number' is not a valid ParamKind"):
        Param("card", "number")


def test_an_update_goes_to_the_phones_and_the_journal_in_plain_words(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    update = table.submit(Command("add", {"amount": 2}))
    assert update.action is Action.COMMAND
    sent = json.loads(json.dumps(update.to_json()))
    assert sent["action"] == "command"
    assert table.history()[-1].to_json()["action"] == "command"
    described = json.loads(json.dumps(table.game.describe()))
    assert described["commands"][0]["params"][0]["kind"] == "int"
