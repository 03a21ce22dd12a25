"""The box a table describes once: kept in the journal's database, checked
like a setup option, given to every new Bathroom Rush game unless its setup
says otherwise, and read and written by the panel's API."""

from __future__ import annotations

import pytest

from companion.core.errors import BadSetup
from companion.core.journal import Journal
from companion.core.table import Table
from web import PanelSettings, create_app

BR = "bathroom-rush"
BOX = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 40},
       {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 3},
       {"name": "Avido lettore", "colour": "orange", "pipi": 1, "popo": 1, "copies": 2}]


def test_a_saved_box_is_kept_in_the_journal_across_a_restart(db_path, table):
    table.save_option(BR, "box", BOX)
    table.close()
    again = Table(Journal.open(db_path))
    try:
        assert again.saved_options(BR) == {"box": BOX}
        assert again.saved_options("call-of-nature") == {}
    finally:
        again.close()


def test_a_journal_written_before_saved_options_opens_and_keeps_them(db_path):
    import sqlite3

    Journal.open(db_path).close()
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TABLE saved_options")
    journal = Journal.open(db_path)
    try:
        journal.save_option(BR, "box", BOX)
        assert journal.saved_options(BR) == {"box": BOX}
    finally:
        journal.close()


def test_a_bad_box_is_refused_and_the_saved_one_kept(table):
    table.save_option(BR, "box", BOX)
    bad = [{**BOX[0], "colour": "purple"}]
    with pytest.raises(BadSetup, match="colour"):
        table.save_option(BR, "box", bad)
    with pytest.raises(BadSetup, match="no setup option"):
        table.save_option(BR, "boxes", BOX)
    assert table.saved_options(BR) == {"box": BOX}


def test_every_new_game_starts_with_the_saved_box(table):
    table.save_option(BR, "box", BOX)
    update = table.new_game(BR, ["Ana", "Ben", "Cy"])
    assert [k["name"] for k in update.state["box"]] == ["Signora", "Anziano", "Avido lettore"]


def test_a_setup_may_play_without_the_saved_box(table):
    table.save_option(BR, "box", BOX)
    update = table.new_game(BR, ["Ana", "Ben"], options={"box": None})
    assert update.state["box"] is None


def test_forgetting_the_box_leaves_the_game_being_played_with_its_own(table, reopen):
    table.save_option(BR, "box", BOX)
    table.new_game(BR, ["Ana", "Ben"])
    table.save_option(BR, "box", None)
    assert table.saved_options(BR) == {}
    assert table.current().state["box"] is not None
    # The journal holds the setup as played: a restart replays the same box.
    again = reopen()
    assert again.current().state["box"][0]["name"] == "Signora"
    assert again.new_game(BR, ["Ana", "Ben"]).state["box"] is None


# -- the API ------------------------------------------------------------------------------


@pytest.fixture
def app(table):
    return create_app(table, PanelSettings(secret_key="test"))


def _client(app, pin: str | None):
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    if pin is not None:
        assert client.post("/api/join", json={"pin": pin},
                           headers={"X-CSRF-Token": csrf}).status_code == 200
    return client, csrf


def test_a_controller_saves_the_box_and_every_phone_reads_it(app, table):
    controller, csrf = _client(app, app.extensions["companion"].access.pin)
    answer = controller.post("/api/saved-options", json={"game": BR, "name": "box",
                                                         "value": BOX},
                             headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 200, answer.json
    assert answer.json[BR] == {"box": BOX}
    spectator, _ = _client(app, None)
    assert spectator.get("/api/saved-options").json[BR] == {"box": BOX}
    assert table.saved_options(BR) == {"box": BOX}


def test_a_spectator_cannot_change_the_box(app, table):
    spectator, csrf = _client(app, None)
    answer = spectator.post("/api/saved-options", json={"game": BR, "name": "box",
                                                        "value": BOX},
                            headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 403
    assert table.saved_options(BR) == {}


def test_a_bad_box_from_a_phone_is_refused_with_nothing_kept(app, table):
    controller, csrf = _client(app, app.extensions["companion"].access.pin)
    table.save_option(BR, "box", BOX)
    bad = [{**BOX[0], "copies": 0}]
    answer = controller.post("/api/saved-options", json={"game": BR, "name": "box",
                                                         "value": bad},
                             headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 422
    assert "copies" in answer.json["message"]
    nested = controller.post("/api/saved-options",
                             json={"game": BR, "name": "box", "value": [{"name": [1]}]},
                             headers={"X-CSRF-Token": csrf})
    assert nested.status_code == 400
    assert table.saved_options(BR) == {"box": BOX}
