"""A phone's seat ("I am Ana") known on the server, the table's settings
from the panel, and the table's screen following the table's language."""

from __future__ import annotations

import io
import sqlite3
import time

import pytest

from companion.core.engine import Command
from tests.fakes import FixedDice
from tests.test_web_api import Phone, joined
from web import PanelSettings, Services, create_app

PLAYERS = ["Ana", "Ben", "Cy"]


@pytest.fixture
def app(table):
    table.new_game("call-of-nature", PLAYERS)
    return create_app(table, PanelSettings(secret_key="test-secret"),
                      services=Services(dice=FixedDice(table, [6])))


def rows(table) -> int:
    with sqlite3.connect(table.journal_path) as db:
        return db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]


def sit(phone: Phone, table, name):
    now = table.current()
    return phone.post("/api/seat", {"player": name, "game_id": now.game_id,
                                    "version": now.version})


def play(phone: Phone, table, value: int):
    now = table.current()
    return phone.post("/api/command", {"command": {"name": "card", "args": {"value": value}},
                                       "game_id": now.game_id, "version": now.version})


def test_a_phone_says_whose_it_is_and_the_session_knows(app, table):
    phone = joined(app)
    answer = sit(phone, table, "ana")
    assert answer.status_code == 200
    assert answer.json["seat"] == "Ana" and answer.json["taken"] is False
    assert phone.get("/api/session").json["seat"] == "Ana"
    assert phone.get("/api/session").json["companion"]["seats"] == {"Ana": answer.json["claim"]}
    assert sit(phone, table, None).json["seat"] is None
    assert phone.get("/api/session").json["companion"]["seats"] == {}


def test_a_name_that_is_not_a_player_is_refused_and_nothing_changes(app, table):
    phone = joined(app)
    sit(phone, table, "Ben")
    answer = sit(phone, table, "Zoé")
    assert answer.status_code == 422 and answer.json["error"] == "not-a-player"
    assert "Ana, Ben, Cy" in answer.json["message"]
    assert phone.get("/api/session").json["seat"] == "Ben"


def test_a_seat_claimed_against_an_old_version_is_refused(app, table):
    phone = joined(app)
    now = table.current()
    table.submit(Command("card", {"value": 3}))
    answer = phone.post("/api/seat", {"player": "Ana", "game_id": now.game_id,
                                      "version": now.version})
    assert answer.status_code == 409 and answer.json["error"] == "stale-version"
    assert phone.get("/api/session").json["seat"] is None


def test_a_spectator_cannot_take_a_seat(app, table):
    answer = sit(Phone(app, "192.168.1.40"), table, "Ana")
    assert answer.status_code == 403 and answer.json["error"] == "spectator"


def test_the_newer_claim_takes_the_seat_and_the_older_phone_holds_none(app, table):
    older, newer = joined(app), joined(app, "192.168.1.21")
    sit(older, table, "Ana")
    answer = sit(newer, table, "Ana")
    assert answer.json["taken"] is True
    assert older.get("/api/session").json["seat"] is None
    assert newer.get("/api/session").json["seat"] == "Ana"
    # Every phone is told who holds it: the older one sees its claim gone.
    assert older.get("/api/session").json["companion"]["seats"] == {"Ana": answer.json["claim"]}


def test_seat_only_refuses_another_seats_turn_from_a_phone(app, table):
    ana, ben = joined(app), joined(app, "192.168.1.21")
    sit(ana, table, "Ana")
    sit(ben, table, "Ben")
    assert ben.post("/api/settings", {"seat_only": True}).json["seat_only"] is True
    version, count = table.version, rows(table)
    refused = play(ben, table, 6)
    assert refused.status_code == 403
    assert refused.json["error"] == "not-your-seat"
    assert refused.json["player"] == "Ana" and refused.json["seat"] == "Ben"
    assert table.version == version and rows(table) == count
    preview = ben.post("/api/preview", {"command": {"name": "card", "args": {"value": 6}},
                                        "game_id": table.current().game_id,
                                        "version": version})
    assert preview.status_code == 403
    assert play(ana, table, 6).status_code == 200
    # Off: anyone plays for the table again.
    ben.post("/api/settings", {"seat_only": False})
    assert play(ana, table, 4).status_code == 200


def test_seat_only_refuses_a_roll_for_another_seat(app, table):
    phone = joined(app)
    sit(phone, table, "Cy")
    table.submit(Command("card", {"value": 30}))
    table.submit(Command("card", {"value": 20}))  # 50: a Respite, Ben rolls
    phone.post("/api/settings", {"seat_only": True})
    now = table.current()
    refused = phone.post("/api/dice/roll", {"game_id": now.game_id, "version": now.version})
    assert refused.status_code == 403 and refused.json["player"] == "Ben"
    assert table.version == now.version


def test_settings_are_validated_and_need_a_controller(app, table):
    phone = joined(app)
    assert phone.post("/api/settings", {}).status_code == 400
    assert phone.post("/api/settings", {"language": "de"}).status_code == 400
    assert phone.post("/api/settings", {"seat_only": "yes"}).status_code == 400
    assert phone.post("/api/settings", {"colour": "red"}).status_code == 400
    spectator = Phone(app, "192.168.1.40")
    assert spectator.post("/api/settings", {"language": "fr"}).status_code == 403
    assert table.settings().language is None and table.settings().seat_only is False
    assert spectator.get("/api/settings").json == {
        "seat_only": False, "language": "en", "language_set": False,
        "configured_language": "en", "caller": True,
        "caller_moments": ["turn", "game", "undo", "play"], "speaker": False}


def test_the_tables_language_is_the_pages_default(app, table):
    phone = joined(app)
    page = Phone(app, "192.168.1.41")
    headers = {"Accept-Language": "en-GB,en"}
    assert '<html lang="en"' in page.get("/", headers=headers).text
    answer = phone.post("/api/settings", {"language": "fr"})
    assert answer.json["language"] == "fr" and answer.json["language_set"] is True
    assert '<html lang="fr"' in page.get("/", headers=headers).text
    # A phone's own choice still wins for that phone.
    page.client.set_cookie("lang", "it")
    assert '<html lang="it"' in page.get("/", headers=headers).text


# -- the table's screen --------------------------------------------------------------------


@pytest.fixture
def appliance(tmp_path):
    from companion.daemon import Daemon
    from companion.host.config import Config

    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    yield running
    running.stop()


def test_the_table_screen_switches_to_the_tables_language_at_once(appliance):
    from PIL import Image, ImageChops

    from drivers.menu_screens import render

    app = appliance.part("panel").app
    table = appliance.table_part.table
    table.new_game("call-of-nature", PLAYERS)
    screen = appliance.part("screen")

    def shows(lang: str) -> bool:
        expected = render(screen.menu.view(), screen.menu.update, lang)
        shown = Image.open(io.BytesIO(screen.png())).convert("1")
        return ImageChops.difference(shown, expected.convert("1")).getbbox() is None

    wait(lambda: shows("en"))
    assert not shows("fr")  # the frames differ: the test can tell the languages apart
    phone = joined(app)
    assert phone.post("/api/settings", {"language": "fr"}).status_code == 200
    wait(lambda: shows("fr"))
    assert screen.menu.language == "fr"
    # The display's last words are in it too.
    assert appliance.part("display").farewell != "Companion is off"


def wait(check, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting")
