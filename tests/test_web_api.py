"""The phone panel's API, through Flask's test client, on a real table
playing Call of Nature.

Each phone is its own test client (its own cookies).  A controller has
joined with the PIN; a spectator has only opened the panel.
"""

from __future__ import annotations

import json
import queue
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.core.access import AccessStore
from companion.core.clock import Instant
from companion.core.engine import Command
from companion.core.table import Table
from companion.host.storage import keep_file
from tests.fakes import FixedDice
from web import PanelSettings, Services, create_app
from web.access import Access, PinThrottled
from web.live import BACKLOG, Broadcast

CON = "call-of-nature"
# What a phone that shows no game names in a change.
NO_GAME_SHOWN = {"game_id": None, "version": 0}
PLAYERS = [{"name": "Ana", "colour": "#d62828"}, {"name": "Ben", "colour": "#1d6fd6"},
           {"name": "Cy", "colour": "#2a9d3f"}]


# -- fixtures -------------------------------------------------------------------


class Phone:
    """One phone on the panel: a test client with its session's CSRF token."""

    def __init__(self, app, address: str = "192.168.1.20") -> None:
        self.client = app.test_client()
        self.address = address
        self.csrf = self.get("/api/session").json["csrf"]

    def get(self, path: str, **kwargs):
        return self.client.get(path, environ_base={"REMOTE_ADDR": self.address}, **kwargs)

    def post(self, path: str, body=None, *, csrf: str | None = "session", **kwargs):
        headers = kwargs.pop("headers", {})
        if csrf == "session":
            headers["X-CSRF-Token"] = self.csrf
        elif csrf is not None:
            headers["X-CSRF-Token"] = csrf
        return self.client.post(path, json=body, headers=headers,
                                environ_base={"REMOTE_ADDR": self.address}, **kwargs)

    def join(self, pin: str):
        return self.post("/api/join", {"pin": pin})


def joined(app, address: str = "192.168.1.20") -> Phone:
    """A phone that has typed the PIN shown by this app's table."""
    phone = Phone(app, address)
    assert phone.join(app.extensions["companion"].access.pin).status_code == 200
    return phone


@pytest.fixture
def make_app(table):
    def make(services: Services | None = None, *, flask=None, **settings):
        settings.setdefault("secret_key", "test-secret")
        return create_app(table, PanelSettings(**settings), services=services, flask=flask)

    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def pin(app) -> str:
    return app.extensions["companion"].access.pin


@pytest.fixture
def controller(app, pin) -> Phone:
    phone = Phone(app)
    assert phone.join(pin).status_code == 200
    return phone


@pytest.fixture
def spectator(app) -> Phone:
    return Phone(app, address="192.168.1.30")


@pytest.fixture
def playing(controller) -> dict:
    """A game of Call of Nature for Ana, Ben and Cy, just started."""
    response = controller.post("/api/new-game", {"game": CON, "players": PLAYERS,
                                                 **NO_GAME_SHOWN})
    assert response.status_code == 200
    return response.json


def made_against(state: dict) -> dict:
    """What a change made from ``state`` names: its game and version."""
    return {"game_id": state["game_id"], "version": state["version"]}


def card(phone: Phone, value: int, version: int, game_id: int = 1):
    """Play a card against ``game_id`` at ``version`` (a fresh journal's
    first game is game 1)."""
    return phone.post("/api/command", {"command": {"name": "card", "args": {"value": value}},
                                       "game_id": game_id, "version": version})


# -- joining --------------------------------------------------------------------


def test_a_phone_that_opens_the_panel_is_a_spectator(app):
    session = Phone(app).get("/api/session").json
    assert session["role"] == "spectator"
    assert len(session["csrf"]) >= 16


def test_the_pin_on_the_screen_makes_the_phone_a_controller(app, pin):
    phone = Phone(app)
    response = phone.join(pin)
    assert response.status_code == 200
    assert response.json["role"] == "controller"
    assert phone.get("/api/session").json["role"] == "controller"


def test_a_wrong_pin_is_refused_and_the_phone_stays_a_spectator(app, pin):
    phone = Phone(app)
    wrong = "000000" if pin != "000000" else "111111"
    response = phone.join(wrong)
    assert (response.status_code, response.json["error"]) == (403, "wrong-pin")
    assert phone.get("/api/session").json["role"] == "spectator"


def test_the_qr_code_link_makes_the_phone_a_controller_and_leaves_the_address_bar(app):
    access = app.extensions["companion"].access
    phone = Phone(app)
    response = phone.get(f"/?join={access.token}")
    assert response.status_code == 303
    assert response.headers["Location"] == "/?joined=1"
    assert phone.get("/api/session").json["role"] == "controller"


def test_an_out_of_date_join_link_leaves_the_phone_a_spectator(app):
    phone = Phone(app)
    response = phone.get("/?join=an-old-token")
    assert response.headers["Location"] == "/?joined=0"
    assert phone.get("/api/session").json["role"] == "spectator"


def test_the_join_url_holds_the_token_for_the_qr_code(app):
    access = app.extensions["companion"].access
    assert access.join_url("http://192.168.1.5:8080/") == \
        f"http://192.168.1.5:8080/?join={access.token}"
    assert len(access.pin) == 6 and access.pin.isdigit()


def test_the_sixth_wrong_pin_in_a_minute_is_throttled_even_if_right(app, pin):
    phone = Phone(app, address="192.168.1.66")
    wrong = "000000" if pin != "000000" else "111111"
    for _ in range(5):
        assert phone.join(wrong).status_code == 403
    response = phone.join(pin)
    assert response.status_code == 429
    assert response.json["error"] == "too-many-attempts"
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert phone.get("/api/session").json["role"] == "spectator"


def test_the_pin_throttle_is_per_address(app, pin):
    guesser = Phone(app, address="192.168.1.66")
    wrong = "000000" if pin != "000000" else "111111"
    for _ in range(6):
        guesser.join(wrong)
    assert Phone(app, address="192.168.1.67").join(pin).status_code == 200


def test_the_pin_throttle_forgets_failures_older_than_its_window():
    now = [1000.0]
    access = Access(attempts=2, window=60, clock=lambda: now[0])
    access.try_pin("10.0.0.9", "bad")
    access.try_pin("10.0.0.9", "bad")
    assert access.retry_after("10.0.0.9") == 60
    now[0] += 45
    assert access.retry_after("10.0.0.9") == 15
    now[0] += 15
    assert access.retry_after("10.0.0.9") == 0


def test_a_throttled_address_is_refused_by_the_same_call_that_checks_its_pin():
    # One step, so guesses fired all at once cannot slip past the limit
    # between checking the throttle and counting the guess.
    access = Access(attempts=2, window=60, clock=lambda: 1000.0)
    assert access.try_pin("10.0.0.9", "bad") is False
    assert access.try_pin("10.0.0.9", "bad") is False
    with pytest.raises(PinThrottled) as refused:
        access.try_pin("10.0.0.9", access.pin)
    assert refused.value.wait == 60


def test_a_pin_that_is_not_valid_unicode_is_400(app):
    phone = Phone(app)
    response = phone.client.post("/api/join", data='{"pin": "\\ud800"}',
                                 headers={"X-CSRF-Token": phone.csrf,
                                          "Content-Type": "application/json"})
    assert (response.status_code, response.json["error"]) == (400, "bad-request")
    assert "U+D800" in response.json["message"]


# -- signing every phone out ------------------------------------------------------------


def test_signing_out_makes_every_controller_a_spectator_with_a_new_pin_and_qr_code(app, pin):
    access = app.extensions["companion"].access
    old_token = access.token
    first, second = joined(app), joined(app, address="192.168.1.21")
    answer = first.post("/api/sign-out")
    assert answer.status_code == 200
    assert answer.json["role"] == "spectator"
    assert (access.pin, access.token) != (pin, old_token)
    for phone in (first, second):
        assert phone.get("/api/session").json["role"] == "spectator"
        refused = phone.post("/api/new-game", {"game": CON, "players": PLAYERS,
                                               **NO_GAME_SHOWN})
        assert (refused.status_code, refused.json["error"]) == (403, "spectator")
    assert first.join(pin).status_code == 403
    assert Phone(app).get(f"/?join={old_token}").headers["Location"] == "/?joined=0"
    assert first.join(access.pin).status_code == 200
    assert first.get("/api/session").json["role"] == "controller"
    assert second.get("/api/session").json["role"] == "spectator"


def test_a_spectator_cannot_sign_the_phones_out(app, pin, spectator):
    controller = joined(app)
    response = spectator.post("/api/sign-out")
    assert (response.status_code, response.json["error"]) == (403, "spectator")
    assert app.extensions["companion"].access.pin == pin
    assert controller.get("/api/session").json["role"] == "controller"


def test_a_controller_is_one_for_the_configured_hours(make_app):
    app = make_app(session_hours=3)
    access = app.extensions["companion"].access
    now = [1_000_000.0]
    # The wall clock stands still: the session's hours are counted on the
    # clock that never steps.
    access._now = lambda: Instant("boot-1", now[0], 5.0)
    phone = joined(app)
    now[0] += 3 * 3600 - 1
    assert phone.get("/api/session").json["role"] == "controller"
    now[0] += 1
    assert phone.get("/api/session").json["role"] == "spectator"
    assert phone.post("/api/undo", {"game_id": 1, "version": 0}).json["error"] == "spectator"


def test_the_pin_and_the_qr_code_stay_the_same_across_a_restart(make_app, tmp_path):
    first = make_app(access_file=tmp_path / "panel-access.db")
    phone = joined(first)
    keys = first.extensions["companion"].access.keys
    again = make_app(access_file=tmp_path / "panel-access.db")
    assert again.extensions["companion"].access.keys == keys
    # The same cookie, the same secret: still a controller after the restart.
    phone.client.application = again
    assert phone.get("/api/session").json["role"] == "controller"


def test_a_pin_lockout_survives_a_restart(make_app, tmp_path):
    first = make_app(access_file=tmp_path / "panel-access.db")
    pin = first.extensions["companion"].access.pin
    wrong = "000000" if pin != "000000" else "111111"
    guesser = Phone(first, address="192.168.1.66")
    for _ in range(5):
        assert guesser.join(wrong).status_code == 403
    again = make_app(access_file=tmp_path / "panel-access.db")
    response = Phone(again, address="192.168.1.66").join(pin)
    assert (response.status_code, response.json["error"]) == (429, "too-many-attempts")
    assert Phone(again, address="192.168.1.67").join(pin).status_code == 200


def test_signing_out_from_another_process_reaches_the_running_panel(make_app, tmp_path):
    app = make_app(access_file=tmp_path / "panel-access.db")
    phone = joined(app)
    # What `companion sign-out` does: its own connection to the same file.
    other = AccessStore(tmp_path / "panel-access.db")
    keys = other.sign_out()
    other.close()
    assert phone.get("/api/session").json["role"] == "spectator"
    assert app.extensions["companion"].access.pin == keys.pin


# -- starting a game -----------------------------------------------------------------


def test_a_new_game_starts_with_the_players_in_seating_order_and_their_colours(playing):
    assert playing["game"] == CON
    assert playing["players"] == ["Ana", "Ben", "Cy"]
    assert playing["colours"] == ["#d62828", "#1d6fd6", "#2a9d3f"]
    assert playing["version"] == 0
    assert playing["state"]["pressure"] == 0
    assert [e["command"] for e in playing["expected"]] == ["card", "special"]


def test_a_player_without_a_colour_gets_one_from_the_palette(controller):
    response = controller.post("/api/new-game", {"game": CON, "players": ["Ana", "Ben"],
                                                 **NO_GAME_SHOWN})
    assert response.json["colours"] == ["#d62828", "#1d6fd6"]


def test_a_new_game_takes_variants(controller):
    response = controller.post("/api/new-game", {"game": CON, "players": PLAYERS,
                                                 "variants": ["beginners-deck"],
                                                 **NO_GAME_SHOWN})
    assert response.status_code == 200
    assert "suspense" not in response.json["state"]["specials_in_deck"]


@pytest.mark.parametrize("body, says", [
    ({"game": "chess", "players": ["Ana", "Ben"], **NO_GAME_SHOWN}, "no game 'chess'"),
    ({"game": CON, "players": "Ana, Ben", **NO_GAME_SHOWN}, "'players' must be a list"),
    ({"game": CON, "players": ["Ana", ""], **NO_GAME_SHOWN}, "player 2's name must be 1 to 24"),
    ({"game": CON, "players": ["Ana", "B" * 25], **NO_GAME_SHOWN},
     "player 2's name must be 1 to 24"),
    ({"game": CON, "players": ["Ana", {"name": "Ben", "colour": "red"}], **NO_GAME_SHOWN},
     "player 2's colour must look like #1d6fd6"),
    ({"game": CON, "players": ["Ana", "Ben"], "variants": "fast", **NO_GAME_SHOWN},
     "'variants' must be a list"),
    ({"game": CON, "players": ["Ana", "Ben"], "options": [1], **NO_GAME_SHOWN},
     "'options' must be a JSON object"),
    ({"game": CON, "players": ["Ana", "Ben"], "game_id": None, "version": "0"},
     "'version' must be"),
    ({"game": CON, "players": ["Ana", "Ben"], "game_id": None}, "'version' is required"),
    ({"game": CON, "players": ["Ana", "Ben"], "version": 0}, "'game_id' is required"),
    ({"game": CON, "players": ["Ana", "Ben"], "game_id": -1, "version": 0},
     "'game_id' must be a game's id (a whole number of 1 or more) or null"),
    ({"game": CON, "players": ["Ana\x00", "Ben"], **NO_GAME_SHOWN},
     "control characters or lone surrogates, and U+0000 is one"),
    ({"game": CON, "players": ["\u202eAna", "Ben"], **NO_GAME_SHOWN},
     "player 1's name may not hold text-direction controls"),
])
def test_a_malformed_setup_is_400_and_says_what_is_wrong(controller, body, says):
    response = controller.post("/api/new-game", body)
    assert response.status_code == 400
    assert response.json["error"] == "bad-request"
    assert says in response.json["message"]


@pytest.mark.parametrize("body, says", [
    ({"players": ["Ana"]}, "2 to 6 players, not 1"),
    ({"players": ["Ana", "ana"]}, "same name"),
    ({"players": ["Ana", "Ben"], "variants": ["fast"]}, "unknown variant"),
    ({"players": ["Ana", "Ben"], "options": {"deck_size": "lots"}}, "deck_size"),
])
def test_a_setup_the_game_refuses_is_422(controller, body, says):
    response = controller.post("/api/new-game", {"game": CON, **NO_GAME_SHOWN, **body})
    assert (response.status_code, response.json["error"]) == (422, "bad-setup")
    assert says in response.json["message"]


def test_a_new_game_against_a_game_the_phone_has_not_seen_is_stale(controller, playing):
    response = controller.post("/api/new-game", {"game": CON, "players": PLAYERS,
                                                 **NO_GAME_SHOWN})
    assert (response.status_code, response.json["error"]) == (409, "stale-version")
    assert response.json["state"]["game_id"] == playing["game_id"]


def test_a_new_game_replaces_the_one_seen(controller, playing):
    response = controller.post("/api/new-game", {"game": CON, "players": ["Dee", "Eve"],
                                                 **made_against(playing)})
    assert response.status_code == 200
    assert response.json["game_id"] == playing["game_id"] + 1
    assert response.json["players"] == ["Dee", "Eve"]


# -- the same game again ----------------------------------------------------------------

# Colours other than the palette's first three, so that keeping them shows.
CHOSEN = [{"name": "Ana", "colour": "#8e44ad"}, {"name": "Ben", "colour": "#e89a00"},
          {"name": "Cy", "colour": "#00a3a3"}]


@pytest.fixture
def finished(controller) -> dict:
    """Ana, Ben and Cy's Call of Nature, with a variant and narrower cards,
    just ended: Ben exploded, as the phone shows it."""
    started = controller.post("/api/new-game", {
        "game": CON, "players": CHOSEN, "variants": ["no-end-roll"],
        "options": {"min_value": -20, "max_value": 20}, **NO_GAME_SHOWN}).json
    ended = controller.post("/api/command", {
        "command": {"name": "adjust-mastery", "args": {"player": "Ben", "delta": -7}},
        **made_against(started)})
    assert ended.json["over"] is True
    return controller.get("/api/state").json


def play_again(shown: dict) -> dict:
    """What the result card's "Play again" sends for the state a phone shows."""
    setup = shown["setup"]
    return {
        "game": shown["game"],
        "players": [{"name": name, "colour": colour}
                    for name, colour in zip(setup["players"], shown["colours"], strict=True)],
        "variants": setup["variants"],
        "options": setup["options"],
        **made_against(shown),
    }


def test_the_state_carries_the_setup_the_game_was_started_with(finished):
    assert finished["setup"] == {"players": ["Ana", "Ben", "Cy"],
                                 "variants": ["no-end-roll"],
                                 "options": {"min_value": -20, "max_value": 20}}
    assert finished["colours"] == ["#8e44ad", "#e89a00", "#00a3a3"]


def test_play_again_starts_the_same_game_with_the_same_seats_and_colours(controller, finished,
                                                                        table):
    response = controller.post("/api/new-game", play_again(finished))
    assert response.status_code == 200
    again = response.json
    assert again["game_id"] == finished["game_id"] + 1
    assert (again["game"], again["version"], again["over"]) == (CON, 0, False)
    assert again["setup"] == finished["setup"]
    assert again["colours"] == ["#8e44ad", "#e89a00", "#00a3a3"]
    assert again["state"]["active"] == 0
    assert table.game.setup.options == {"min_value": -20, "max_value": 20}
    assert controller.get("/api/state").json["colours"] == again["colours"]


def test_two_phones_tapping_play_again_start_one_game(app, pin, controller, finished, table):
    other = joined(app, address="192.168.1.21")
    first = controller.post("/api/new-game", play_again(finished))
    second = other.post("/api/new-game", play_again(finished))
    assert first.status_code == 200
    assert (second.status_code, second.json["error"]) == (409, "stale-version")
    assert second.json["state"]["game_id"] == first.json["game_id"]
    assert [(g["id"], g["status"]) for g in table.games()] == \
        [(finished["game_id"], "over"), (first.json["game_id"], "playing")]


def test_thirty_two_phones_tapping_play_again_at_once_start_one_game(app, finished, table):
    phones = [joined(app, address=f"192.168.1.{100 + n}") for n in range(32)]
    barrier = threading.Barrier(len(phones))
    answers: list = []

    def tap(phone: Phone) -> None:
        barrier.wait()
        answers.append(phone.post("/api/new-game", play_again(finished)))

    threads = [threading.Thread(target=tap, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    started = [a.json for a in answers if a.status_code == 200]
    refused = [a.json for a in answers if a.status_code == 409]
    assert (len(started), len(refused)) == (1, 31)
    assert {r["error"] for r in refused} == {"stale-version"}
    assert [(g["id"], g["status"]) for g in table.games()] == \
        [(finished["game_id"], "over"), (started[0]["game_id"], "playing")]


def test_a_change_made_against_a_replaced_game_is_409_and_changes_nothing(controller, playing):
    replaced = controller.post("/api/new-game", {"game": CON, "players": ["Dee", "Eve"],
                                                 "game_id": playing["game_id"],
                                                 "version": playing["version"]}).json
    assert (replaced["game_id"], replaced["version"]) == (playing["game_id"] + 1, 0)
    old = {"game_id": playing["game_id"], "version": 0}
    for path, body in [
        ("/api/command", {"command": {"name": "note", "args": {"text": "U-turn"}}, **old}),
        ("/api/command", {"command": {"name": "set-pressure", "args": {"value": 20}}, **old}),
        ("/api/undo", old),
        ("/api/redo", old),
        ("/api/new-game", {"game": CON, "players": PLAYERS, **old}),
    ]:
        response = controller.post(path, body)
        assert (response.status_code, response.json["error"]) == (409, "stale-version"), path
        said = (f"made against game {playing['game_id']} at version 0, but the table is at "
                f"game {replaced['game_id']} at version 0")
        assert said in response.json["message"]
        assert response.json["state"]["game_id"] == replaced["game_id"]
    now = controller.get("/api/state").json
    assert (now["game_id"], now["version"], now["players"]) == \
        (replaced["game_id"], 0, ["Dee", "Eve"])
    assert controller.get("/api/history").json["entries"] == []


# -- playing ----------------------------------------------------------------------------


def test_a_card_played_from_a_phone_raises_the_pressure_and_passes_the_turn(controller, playing):
    response = card(controller, 5, playing["version"])
    assert response.status_code == 200
    assert response.json["version"] == 1
    assert response.json["state"]["pressure"] == 5
    assert response.json["state"]["active"] == 1
    assert response.json["events"][0]["kind"] == "pressure-changed"


def test_two_phones_tapping_the_same_card_apply_it_once(app, pin, controller, playing):
    other = Phone(app, address="192.168.1.21")
    other.join(pin)
    first = card(controller, 5, playing["version"])
    second = card(other, 5, playing["version"])
    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json["error"] == "stale-version"
    assert second.json["state"]["version"] == 1
    assert second.json["state"]["state"]["pressure"] == 5
    history = controller.get("/api/history").json
    assert [e["text"] for e in history["entries"]] == ["card value=5"]


def test_a_card_out_of_the_deck_range_is_422_with_the_rule(controller, playing):
    response = card(controller, 99, playing["version"])
    assert (response.status_code, response.json["error"]) == (422, "out-of-range")
    assert "-30..30" in response.json["message"]
    assert controller.get("/api/state").json["version"] == 0


def test_a_roll_nobody_waits_for_is_422_not_expected(controller, playing):
    response = controller.post("/api/command", {
        "command": {"name": "roll", "args": {"values": [4]}}, **made_against(playing)})
    assert (response.status_code, response.json["error"]) == (422, "not-expected")


def test_an_unknown_command_is_422_and_lists_the_commands(controller, playing):
    response = controller.post("/api/command", {"command": {"name": "dance"},
                                                **made_against(playing)})
    assert (response.status_code, response.json["error"]) == (422, "unknown-command")
    assert "card" in response.json["message"]


def test_a_correction_is_accepted_whoever_plays(controller, playing):
    response = controller.post("/api/command", {
        "command": {"name": "set-pressure", "args": {"value": 45}},
        **made_against(playing)})
    assert response.status_code == 200
    assert response.json["state"]["pressure"] == 45


@pytest.mark.parametrize("body, says", [
    ({"command": {"name": "card", "args": {"value": 5}}, "game_id": 1}, "'version' is required"),
    ({"command": {"name": "card", "args": {"value": 5}}, "version": 0}, "'game_id' is required"),
    ({"command": {"name": "card", "args": {"value": 5}}, "game_id": 1, "version": "0"},
     "'version' must be"),
    ({"command": {"name": "card", "args": {"value": 5}}, "game_id": 1, "version": True},
     "'version' must be"),
    ({"command": {"name": "card", "args": {"value": 5}}, "game_id": 1, "version": -1},
     "'version' must be"),
    ({"command": {"name": "card", "args": {"value": 5}}, **NO_GAME_SHOWN},
     "'game_id' must be a game's id"),
    ({"command": {"name": "card", "args": {"value": 5}}, "game_id": "1", "version": 0},
     "'game_id' must be a game's id"),
    ({"command": {"name": "card", "args": {"value": 5}}, "game_id": 0, "version": 0},
     "'game_id' must be a game's id"),
    ({"command": "card +5", "game_id": 1, "version": 0}, "'command' must be an object"),
    ({"command": {"name": "card", "args": [5]}, "game_id": 1, "version": 0},
     "'args' must be an object"),
    ({"command": {"name": "", "args": {}}, "game_id": 1, "version": 0}, "'name' must be text"),
    ({"command": {"name": "x" * 65}, "game_id": 1, "version": 0}, "'name' must be text"),
])
def test_a_malformed_command_is_400(controller, playing, body, says):
    response = controller.post("/api/command", body)
    assert (response.status_code, response.json["error"]) == (400, "bad-request")
    assert says in response.json["message"]


def test_a_body_that_is_not_a_json_object_is_400(controller, playing):
    response = controller.client.post("/api/command", data="card +5",
                                      headers={"X-CSRF-Token": controller.csrf,
                                               "Content-Type": "application/json"})
    assert (response.status_code, response.json["error"]) == (400, "bad-request")


def test_a_note_with_a_lone_surrogate_is_400_and_changes_nothing(controller, playing):
    # Such text cannot be stored in the journal.
    response = controller.post("/api/command", {"command": {"name": "note", "args": {
        "text": "U-TURN \ud800 played"}}, "game_id": 1, "version": 0})
    assert (response.status_code, response.json["error"]) == (400, "bad-request")
    assert "U+D800" in response.json["message"]
    assert controller.get("/api/state").json["version"] == 0


@pytest.mark.parametrize("depth", [20, 5000])
def test_a_body_nested_too_deep_is_400(controller, playing, depth):
    body = '{"game_id": 1, "version": 0, "command": ' + "[" * depth + "]" * depth + "}"
    response = controller.client.post("/api/command", data=body,
                                      headers={"X-CSRF-Token": controller.csrf,
                                               "Content-Type": "application/json"})
    assert (response.status_code, response.json["error"]) == (400, "bad-request")
    assert "nests deeper than the 16 levels allowed" in response.json["message"]


def test_a_command_before_any_game_is_409_no_game(controller):
    response = card(controller, 5, 0)
    assert (response.status_code, response.json["error"]) == (409, "no-game")
    assert response.json["state"] == {"game": None, **NO_GAME_SHOWN}


def test_undo_takes_back_the_card_and_redo_plays_it_again(controller, playing):
    card(controller, 5, 0)
    undone = controller.post("/api/undo", {"game_id": 1, "version": 1})
    assert undone.status_code == 200
    assert (undone.json["version"], undone.json["state"]["pressure"]) == (2, 0)
    assert undone.json["can_redo"] is True
    redone = controller.post("/api/redo", {"game_id": 1, "version": 2})
    assert redone.status_code == 200
    assert (redone.json["version"], redone.json["state"]["pressure"]) == (3, 5)


def test_undo_at_the_setup_is_422_nothing_to_undo(controller, playing):
    response = controller.post("/api/undo", {"game_id": 1, "version": 0})
    assert (response.status_code, response.json["error"]) == (422, "nothing-to-undo")


def test_redo_with_nothing_undone_is_422_nothing_to_redo(controller, playing):
    response = controller.post("/api/redo", {"game_id": 1, "version": 0})
    assert (response.status_code, response.json["error"]) == (422, "nothing-to-redo")


def test_an_undo_against_a_stale_version_is_409_and_undoes_nothing(controller, playing):
    card(controller, 5, 0)
    response = controller.post("/api/undo", {"game_id": 1, "version": 0})
    assert response.status_code == 409
    assert response.json["state"]["state"]["pressure"] == 5


# -- spectators and CSRF --------------------------------------------------------------------


CHANGES = [
    ("/api/new-game", {"game": CON, "players": ["Ana", "Ben"], "game_id": 1, "version": 0}),
    ("/api/command", {"command": {"name": "card", "args": {"value": 5}}, "game_id": 1,
                      "version": 0}),
    ("/api/undo", {"game_id": 1, "version": 0}),
    ("/api/redo", {"game_id": 1, "version": 0}),
    ("/api/dice", {"source": "manual"}),
    ("/api/dice/roll", {"game_id": 1, "version": 0}),
    ("/api/keys/ok", {}),
]


@pytest.mark.parametrize("path, body", CHANGES)
def test_a_spectator_cannot_change_the_table(make_app, table, path, body):
    app = make_app(Services(press_key=lambda key: None, dice=FixedDice(table, [6])))
    table.new_game(CON, ["Ana", "Ben"])
    spectator = Phone(app)
    response = spectator.post(path, body)
    assert (response.status_code, response.json["error"]) == (403, "spectator")
    assert "PIN" in response.json["message"]
    assert table.version == 0


@pytest.mark.parametrize("path, body", CHANGES + [("/api/join", {"pin": "123456"})])
@pytest.mark.parametrize("token", [None, "not-the-token"])
def test_a_change_without_the_sessions_csrf_token_is_403(controller, playing, path, body, token):
    response = controller.post(path, body, csrf=token)
    assert (response.status_code, response.json["error"]) == (403, "csrf")
    assert controller.get("/api/state").json["version"] == 0


def test_another_phones_csrf_token_is_refused(app, controller, playing):
    other = Phone(app, address="192.168.1.21")
    response = controller.post("/api/command", {"command": {"name": "card",
                                                            "args": {"value": 5}},
                                                "version": 0}, csrf=other.csrf)
    assert (response.status_code, response.json["error"]) == (403, "csrf")


def test_a_method_the_address_does_not_take_is_405_whatever_the_token(controller):
    for response in (controller.client.put("/api/command"),
                     controller.client.delete("/api/command")):
        assert (response.status_code, response.headers["Allow"]) == (405, "OPTIONS, POST")


def test_a_wrong_method_with_the_token_is_405_json(controller):
    response = controller.client.put("/api/command", headers={"X-CSRF-Token": controller.csrf})
    assert (response.status_code, response.json["error"]) == (405, "method-not-allowed")
    assert response.headers["Allow"] == "OPTIONS, POST"


def test_a_405_says_which_methods_the_address_takes(controller):
    headers = {"X-CSRF-Token": controller.csrf}
    response = controller.client.post("/api/state", headers=headers)
    assert (response.status_code, response.headers["Allow"]) == (405, "GET, HEAD, OPTIONS")
    page = controller.client.post("/", headers=headers)
    assert (page.status_code, page.headers["Allow"]) == (405, "GET, HEAD, OPTIONS")
    assert page.content_type.startswith("text/html")


# -- limits and failures -------------------------------------------------------------------------


def test_a_body_over_16_kib_is_413_json(controller, playing):
    response = controller.post("/api/command", {"command": {"name": "note", "args": {
        "text": "x" * 20_000}}, "game_id": 1, "version": 0})
    assert (response.status_code, response.json["error"]) == (413, "too-large")
    assert "16384 bytes" in response.json["message"]


def test_a_failing_service_gives_a_plain_500_without_a_stack_trace(make_app):
    def broken_screen() -> bytes:
        raise RuntimeError("i2c bus 1 at /dev/i2c-1 went away")

    app = make_app(Services(screen_png=broken_screen))
    response = Phone(app).get("/api/screen.png")
    assert response.status_code == 500
    assert response.json["error"] == "internal-error"
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and "i2c" not in body and "broken_screen" not in body


def test_a_failing_fault_check_gives_a_500_without_its_details(make_app):
    def broken_faults() -> list[str]:
        raise KeyError("secret detail")

    app = make_app(Services(faults=broken_faults))
    response = app.test_client().get("/api/session")
    assert (response.status_code, response.json["error"]) == (500, "internal-error")
    assert "secret detail" not in response.get_data(as_text=True)


def test_debug_mode_stays_off_whatever_the_config_says(make_app):
    app = make_app(flask={"DEBUG": True, "PROPAGATE_EXCEPTIONS": True})
    assert app.debug is False
    assert app.config["PROPAGATE_EXCEPTIONS"] is False


def test_an_unknown_api_address_is_404_json(app):
    response = Phone(app).get("/api/nothing-here")
    assert (response.status_code, response.json["error"]) == (404, "not-found")


def test_an_unknown_page_is_an_html_404(app):
    response = app.test_client().get("/nothing-here")
    assert response.status_code == 404
    assert response.content_type.startswith("text/html")
    assert "nothing at this address" in response.get_data(as_text=True)


# -- dice, keys, screen ---------------------------------------------------------------------------


def respite_for_ana(phone: Phone, game_id: int = 1) -> int:
    """The Pressure is set to 20 and Ana plays +30: it lands on 50, a Respite."""
    phone.post("/api/command", {"command": {"name": "set-pressure", "args": {"value": 20}},
                                "game_id": game_id, "version": 0})
    response = card(phone, 30, 1, game_id)
    assert response.json["expected"][0]["dice"]["name"] == "d6"
    return response.json["version"]


def test_the_roll_button_on_a_phone_rolls_the_respite_die(make_app, table):
    app = make_app(Services(dice=FixedDice(table, [6])))
    phone = joined(app)
    phone.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    version = respite_for_ana(phone)
    response = phone.post("/api/dice/roll", {"game_id": 1, "version": version})
    assert response.status_code == 200
    assert response.json["values"] == [6]
    assert response.json["state"]["version"] == version + 1
    assert response.json["state"]["state"]["respite"] is None
    # The answer is the roll's own change, as the live stream tells it: the
    # phone that rolled says the die and what it did whichever comes first.
    assert response.json["state"]["action"] == "command"
    assert response.json["state"]["command"]["args"] == {"values": [6]}
    assert [e["kind"] for e in response.json["state"]["events"] if e["kind"] != "turn"]


class DiceThenAnotherChange(FixedDice):
    """Dice after whose roll another change reaches the table before the
    rolling phone is answered."""

    def roll(self, expected_version=None, **kwargs):
        values = super().roll(expected_version, **kwargs)
        self.table.submit(Command("set-pressure", {"value": 12}))
        return values


def test_a_rolls_answer_is_the_roll_even_when_the_table_moved_on(make_app, table):
    app = make_app(Services(dice=DiceThenAnotherChange(table, [6])))
    phone = joined(app)
    phone.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    version = respite_for_ana(phone)
    response = phone.post("/api/dice/roll", {"game_id": 1, "version": version})
    assert response.status_code == 200
    state = response.json["state"]
    assert (state["version"], state["action"]) == (version + 1, "command")
    assert state["command"]["args"] == {"values": [6]}
    assert table.version == version + 2  # the change after it comes by the live stream


def test_a_roll_against_a_replaced_game_at_the_same_version_rolls_nothing(make_app, table):
    app = make_app(Services(dice=FixedDice(table, [6])))
    phone = joined(app)
    first = phone.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    version = respite_for_ana(phone, first.json["game_id"])
    second = phone.post("/api/new-game", {"game": CON, "players": PLAYERS,
                                          "game_id": first.json["game_id"], "version": version})
    assert respite_for_ana(phone, second.json["game_id"]) == version
    response = phone.post("/api/dice/roll", {"game_id": first.json["game_id"],
                                             "version": version})
    assert (response.status_code, response.json["error"]) == (409, "stale-version")
    now = phone.get("/api/state").json
    assert (now["game_id"], now["version"]) == (second.json["game_id"], version)
    assert now["state"]["respite"] is not None


def test_a_roll_against_a_stale_version_rolls_nothing(make_app, table):
    dice = FixedDice(table, [6])
    app = make_app(Services(dice=dice))
    phone = joined(app)
    phone.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    version = respite_for_ana(phone)
    response = phone.post("/api/dice/roll", {"game_id": 1, "version": version - 1})
    assert (response.status_code, response.json["error"]) == (409, "stale-version")
    assert table.version == version


class DiceTappedTwice(FixedDice):
    """Dice whose first roll is still on its way when another phone taps
    ROLL (its request is made from inside the first roll)."""

    def __init__(self, table: Table, values: list[int]) -> None:
        super().__init__(table, values)
        self.other_phone: Phone | None = None
        self.second_tap = None

    def roll(self, expected_version: int | None = None, **kwargs: Any) -> list[int]:
        phone, self.other_phone = self.other_phone, None
        if phone is not None:
            self.second_tap = phone.post("/api/dice/roll", {"game_id": 1,
                                                            "version": self.table.version})
        return super().roll(expected_version, **kwargs)


def test_two_phones_tapping_roll_at_once_roll_once(make_app, table):
    # Ana explodes: Ben rolls 2d6, then Cy does.  Both phones tap ROLL for Ben.
    dice = DiceTappedTwice(table, [3, 4])
    app = make_app(Services(dice=dice))
    first, other = joined(app, "192.168.1.20"), joined(app, "192.168.1.21")
    first.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    first.post("/api/command", {"command": {"name": "adjust-mastery",
                                            "args": {"player": "Ana", "delta": -7}},
                                "game_id": 1, "version": 0})
    dice.other_phone = other
    response = first.post("/api/dice/roll", {"game_id": 1, "version": 1})
    assert response.status_code == 200
    assert (dice.second_tap.status_code, dice.second_tap.json["error"]) == (409, "rolling")
    assert dice.second_tap.json["state"]["version"] == 1
    assert table.version == 2
    assert table.current().expected[0].player == 2  # Cy still has to roll


def test_the_roll_button_when_no_roll_is_awaited_is_422_and_rolls_nothing(make_app, table):
    dice = FixedDice(table, [6])
    app = make_app(Services(dice=dice))
    phone = joined(app)
    phone.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    response = phone.post("/api/dice/roll", {"game_id": 1, "version": 0})
    assert (response.status_code, response.json["error"]) == (422, "not-waiting")
    assert table.version == 0


def test_choosing_the_dice_source_tells_every_phone(make_app, table):
    dice = FixedDice(table, [6])
    app = make_app(Services(dice=dice))
    phone = joined(app)
    response = phone.post("/api/dice", {"source": "manual"})
    assert response.status_code == 200
    assert response.json["dice"] == {"source": "manual", "sources": list(FixedDice.sources),
                                     "status": "ready"}
    assert dice.source == "manual"


def test_an_unknown_dice_source_is_400(make_app, table):
    app = make_app(Services(dice=FixedDice(table, [6])))
    phone = joined(app)
    response = phone.post("/api/dice", {"source": "telepathy"})
    assert response.status_code == 400
    assert "button, manual, serial" in response.json["message"]


def test_without_a_dice_service_the_dice_endpoints_are_404(controller):
    response = controller.post("/api/dice", {"source": "manual"})
    assert (response.status_code, response.json["error"]) == (404, "no-dice")


def test_a_key_pressed_on_the_virtual_table_reaches_the_simulated_buttons(make_app):
    pressed = []
    app = make_app(Services(press_key=pressed.append))
    phone = joined(app)
    response = phone.post("/api/keys/down", {})
    assert response.status_code == 200
    assert response.json == {"pressed": "down"}
    assert pressed == ["down"]


def test_an_unknown_key_is_404(make_app):
    pressed = []
    app = make_app(Services(press_key=pressed.append))
    phone = joined(app)
    assert phone.post("/api/keys/left", {}).status_code == 404
    assert pressed == []


def test_keys_and_the_virtual_table_exist_only_in_simulation(app, controller):
    assert controller.post("/api/keys/ok", {}).json["error"] == "no-virtual-table"
    assert app.test_client().get("/virtual").status_code == 404


def test_the_virtual_table_page_is_served_in_simulation(make_app):
    app = make_app(Services(press_key=lambda key: None))
    response = app.test_client().get("/virtual")
    assert response.status_code == 200
    assert 'data-key="roll"' in response.get_data(as_text=True)


def test_the_oled_mirror_is_the_screens_png(make_app):
    png = b"\x89PNG\r\n\x1a\nframe"
    app = make_app(Services(screen_png=lambda: png))
    response = app.test_client().get("/api/screen.png")
    assert response.status_code == 200
    assert response.content_type == "image/png"
    assert response.data == png
    assert response.headers["Cache-Control"] == "no-store"


def test_hardware_faults_are_shown_to_every_phone(make_app):
    app = make_app(Services(faults=lambda: ["no display at 0x3C on I2C bus 1"]))
    session = Phone(app).get("/api/session").json
    assert session["companion"]["faults"] == ["no display at 0x3C on I2C bus 1"]


# -- reading --------------------------------------------------------------------------------------


def test_the_state_before_any_game_says_there_is_none(app):
    assert Phone(app).get("/api/state").json == {"game": None, **NO_GAME_SHOWN}


def test_the_games_list_describes_every_engine(app):
    games = {g["key"]: g for g in Phone(app).get("/api/games").json}
    assert {"call-of-nature", "ohshit", "bathroom-rush"} <= set(games)
    card_spec = next(c for c in games[CON]["commands"] if c["name"] == "card")
    assert card_spec["params"][0] == {"name": "value", "kind": "int", "optional": False,
                                      "low": -30, "high": 30,
                                      "help": "the value printed on the card: +5, -10, 0..."}


def test_the_history_lists_each_change_in_order(controller, playing):
    card(controller, 5, 0)
    controller.post("/api/undo", {"game_id": 1, "version": 1})
    history = controller.get("/api/history").json
    assert [(e["version"], e["action"], e["source"]) for e in history["entries"]] == \
        [(1, "command", "panel"), (2, "undo", "panel")]
    assert history["can_redo"] is True


def test_statistics_count_wins_per_player(controller, table):
    controller.post("/api/new-game", {"game": CON, "players": ["Ana", "Ben"], **NO_GAME_SHOWN,
                                      "variants": ["no-end-roll"]})
    controller.post("/api/command", {"command": {"name": "adjust-mastery",
                                                 "args": {"player": "Ben", "delta": -7}},
                                     "game_id": 1, "version": 0})
    stats = controller.get("/api/stats").json
    assert stats["games_played"] == 1
    assert stats["players"] == {"Ana": {"played": 1, "won": 1}, "Ben": {"played": 1, "won": 0}}
    past = controller.get("/api/past-games").json
    assert past[0]["status"] == "over"
    assert past[0]["result"]["winners"] == [0]


def test_the_health_check_counts_live_phones(app):
    assert Phone(app).get("/api/health").json == {"status": "ok", "game": None, "version": 0,
                                                  "streams": 0}


# -- pages, languages and headers -----------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/setup", "/history", "/stats", "/api/state"])
def test_every_response_carries_the_security_headers(app, path):
    response = app.test_client().get(path)
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_the_session_cookie_is_httponly_and_samesite_lax(app):
    # Lax: a phone that opens the panel from a link (the QR code) sends it;
    # see the end-to-end test of a join from another site.
    response = app.test_client().get("/api/session")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_pages_load_no_inline_script_and_nothing_from_elsewhere(app):
    for path in ("/", "/setup", "/history", "/stats"):
        html = app.test_client().get(path).get_data(as_text=True)
        assert "<script>" not in html and "style=" not in html
        assert "http://" not in html and "https://" not in html


def test_a_french_browser_gets_the_page_in_french(app):
    html = app.test_client().get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}) \
        .get_data(as_text=True)
    assert '<html lang="fr"' in html
    assert "Historique" in html


def test_the_language_switch_cookie_wins_over_the_browser(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    html = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="en"' in html
    assert "History" in html


def test_a_languages_page_strings_are_read_when_a_phone_first_asks_for_them(make_app,
                                                                          monkeypatch):
    import web

    read = []
    real = web.panel_strings
    monkeypatch.setattr(web, "panel_strings", lambda lang: read.append(lang) or real(lang))
    app = make_app()
    assert read == []
    client = app.test_client()
    client.set_cookie("lang", "it")
    assert '<html lang="it"' in client.get("/").get_data(as_text=True)
    assert sorted(read) == ["en", "it"]  # English stands in for a missing string
    client.set_cookie("lang", "fr")
    client.get("/")
    client.set_cookie("lang", "it")
    client.get("/")
    assert sorted(read) == ["en", "fr", "it"]  # each read once


def test_every_english_string_has_its_french_one(app):
    strings = app.extensions["companion"].strings
    assert set(strings["en"]) - set(strings["fr"]) == set()


# -- live updates ---------------------------------------------------------------------------------


class StreamReader:
    """Reads SSE messages from a streamed response in a thread, so that a
    test waits with a timeout and never hangs.  ``close()`` asks the reading
    thread to close the response, as the server does when a phone goes."""

    def __init__(self, response) -> None:
        self.response = response
        self.messages: queue.Queue = queue.Queue()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            for chunk in self.response.response:
                if self._closing.is_set():
                    break
                buffer += chunk
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    self.messages.put(message.decode())
        finally:
            self.response.close()

    def ended(self, timeout: float = 5.0) -> bool:
        """Whether the server ended the stream (within ``timeout``)."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self, timeout: float = 5.0) -> None:
        self._closing.set()
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the stream did not end"

    def next_event(self, kind: str, timeout: float = 5.0) -> dict:
        while True:
            message = self.messages.get(timeout=timeout)
            lines = dict(line.split(": ", 1) for line in message.splitlines()
                         if ": " in line and not line.startswith(":"))
            if lines.get("event") == kind:
                return json.loads(lines["data"])

    def next_comment(self, timeout: float = 5.0) -> str:
        while True:
            message = self.messages.get(timeout=timeout)
            if message.startswith(":"):
                return message


@pytest.fixture
def live_app(make_app):
    return make_app(live_heartbeat=0.2)


def test_a_phone_watching_live_gets_the_state_at_once_then_every_change(live_app):
    controller = joined(live_app)
    controller.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    watcher = Phone(live_app, address="192.168.1.40")
    response = watcher.get("/api/events", buffered=False)
    assert response.content_type.startswith("text/event-stream")
    stream = StreamReader(response)
    assert stream.next_event("update")["version"] == 0
    assert stream.next_event("companion")["faults"] == []
    card(controller, 5, 0)
    update = stream.next_event("update")
    assert (update["version"], update["state"]["pressure"]) == (1, 5)
    assert update["colours"] == ["#d62828", "#1d6fd6", "#2a9d3f"]
    stream.close()
    assert live_app.extensions["companion"].live.open_streams == 0


def test_a_quiet_stream_sends_heartbeats(live_app):
    response = Phone(live_app).get("/api/events", buffered=False)
    stream = StreamReader(response)
    assert stream.next_comment() == ": heartbeat"
    stream.close()


def test_a_changed_dice_source_reaches_the_live_phones(make_app, table):
    app = make_app(Services(dice=FixedDice(table, [6])), live_heartbeat=0.2)
    phone = joined(app)
    response = phone.get("/api/events", buffered=False)
    stream = StreamReader(response)
    assert stream.next_event("companion")["dice"]["source"] == "button"
    phone.post("/api/dice", {"source": "serial"})
    assert stream.next_event("companion")["dice"]["source"] == "serial"
    stream.close()


def test_a_new_hardware_fault_reaches_the_live_phones_at_the_next_heartbeat(make_app):
    faults: list[str] = []
    app = make_app(Services(faults=lambda: list(faults)), live_heartbeat=0.2)
    stream = StreamReader(Phone(app).get("/api/events", buffered=False))
    assert stream.next_event("companion")["faults"] == []
    faults.append("dice device: no answer on /dev/ttyACM0")
    assert stream.next_event("companion")["faults"] == ["dice device: no answer on /dev/ttyACM0"]
    stream.close()


def test_phones_beyond_the_live_limit_are_told_to_come_back(make_app):
    app = make_app(max_streams=1, live_heartbeat=0.2)
    first = StreamReader(Phone(app).get("/api/events", buffered=False))
    second = Phone(app, address="192.168.1.41").get("/api/events")
    assert (second.status_code, second.json["error"]) == (503, "too-many-phones")
    assert second.headers["Retry-After"] == "10"
    first.close()


def test_one_phone_cannot_take_every_live_slot(make_app):
    app = make_app(max_streams=3, max_streams_per_phone=2, live_heartbeat=0.2)
    hog = [StreamReader(Phone(app, address="192.168.1.50").get("/api/events", buffered=False))
           for _ in range(3)]
    # Its third stream ended its first: a slot is left for another phone.
    assert hog[0].ended()
    assert app.extensions["companion"].live.open_streams == 2
    other = StreamReader(Phone(app, address="192.168.1.51").get("/api/events", buffered=False))
    assert other.response.status_code == 200
    assert other.next_event("update")["game"] is None
    for stream in [*hog[1:], other]:
        stream.close()


def test_the_companions_own_loopback_is_not_limited_per_phone(make_app):
    app = make_app(max_streams_per_phone=1, live_heartbeat=0.2)
    streams = [StreamReader(Phone(app, address="127.0.0.1").get("/api/events", buffered=False))
               for _ in range(2)]
    assert [s.response.status_code for s in streams] == [200, 200]
    for stream in streams:
        stream.close()


class SubscribableTable:
    def __init__(self) -> None:
        self.listeners = []

    def subscribe(self, listener):
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)


def test_a_slow_phone_keeps_only_the_newest_updates():
    table = SubscribableTable()
    live = Broadcast(table, render=lambda n: {"version": n}, heartbeat=0.1)
    feed = live.stream([])
    assert next(feed).startswith(b"retry:")
    for version in range(BACKLOG + 5):
        live.on_update(version)
    got = [json.loads(next(feed).split(b"data: ")[1]) ["version"] for _ in range(BACKLOG)]
    assert got == list(range(5, BACKLOG + 5))
    feed.close()
    assert live.open_streams == 0


def test_the_table_is_never_held_up_by_a_phone_that_reads_nothing():
    table = SubscribableTable()
    rendered = []
    live = Broadcast(table, render=lambda n: rendered.append(n) or {"version": n})
    feeds = [live.stream([]) for _ in range(32)]
    for version in range(100):
        live.on_update(version)
    # Nothing was encoded for phones that read nothing: the listener only queues.
    assert rendered == []
    for feed in feeds:
        feed.close()
    assert live.open_streams == 0


def test_closing_the_broadcast_ends_every_stream():
    table = SubscribableTable()
    live = Broadcast(table, render=lambda n: {"version": n}, heartbeat=30)
    feed = live.stream([])
    next(feed)
    live.close()
    assert list(feed) == []
    assert table.listeners == []


def test_a_closed_broadcast_serves_again_once_reopened():
    table = SubscribableTable()
    live = Broadcast(table, render=lambda n: {"version": n}, heartbeat=30)
    live.close()
    live.open()
    feed = live.stream([])
    next(feed)
    live.on_update(7)
    assert json.loads(next(feed).split(b"data: ")[1]) == {"version": 7}
    feed.close()
    assert len(table.listeners) == 1


def test_the_server_stops_with_its_live_streams_and_serves_again_with_the_same_app(make_app):
    import http.client

    from web.server import serve

    app = make_app()
    port = 0
    for run in range(2):
        server = serve(app, "127.0.0.1", port, threads=6)
        port = server.port
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        stream.request("GET", "/api/events")
        answer = stream.getresponse()
        assert answer.status == 200, f"run {run}"
        assert answer.readline() == b"retry: 1500\n"
        server.close()
        thread.join(5)
        assert not thread.is_alive()
        stream.close()
        assert app.extensions["companion"].live.open_streams == 0


def test_the_server_keeps_threads_for_requests_beyond_the_live_phones(make_app):
    from web.server import SPARE_THREADS, serve

    app = make_app()
    server = serve(app, "127.0.0.1", 0, threads=SPARE_THREADS + 3)
    assert app.extensions["companion"].live.max_streams == 3
    server.close()
    with pytest.raises(ValueError, match="more than 4 threads"):
        serve(app, "127.0.0.1", 0, threads=SPARE_THREADS)


def test_urls_built_from_the_panels_routes_are_werkzeugs_own_though_built_later(
        make_app, monkeypatch):
    from werkzeug.routing import Map, Rule

    compiled = []
    compile_builder = Rule._compile_builder

    def counting(rule, append_unknown=True):
        compiled.append((id(rule), append_unknown))
        return compile_builder(rule, append_unknown)

    monkeypatch.setattr(Rule, "_compile_builder", counting)
    app = make_app()
    # Adding the panel's routes compiled no URL builder.
    assert compiled == []
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 40
    plain = Map([Rule(rule.rule, endpoint=rule.endpoint, methods=rule.methods)
                 for rule in rules]).bind("companion.local")
    compiled.clear()  # werkzeug's own rules compile theirs as they are added
    ours = app.url_map.bind("companion.local")
    for rule in rules:
        values = {name: ("ok" if name == "key" else "a b/c.png") for name in rule.arguments}
        for extra in ({}, {"lang": "fr", "n": 2}):
            for method in sorted(rule.methods):
                for unknown in (True, False):
                    asked = {"values": {**values, **extra}, "method": method,
                             "append_unknown": unknown}
                    assert ours.build(rule.endpoint, **asked) == plain.build(rule.endpoint,
                                                                             **asked)
    # Both builders of every route were compiled, each once.
    assert sorted(compiled) == sorted({(id(rule), unknown) for rule in rules
                                       for unknown in (False, True)})


def _open_stream(port: int):
    """A raw live stream on the real server: the socket and its status line."""
    import socket

    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: companion\r\n\r\n")
    return sock, sock.recv(64).split(b"\r\n")[0]


def test_the_slots_of_phones_that_went_away_serve_new_phones_at_once(make_app):
    import time

    from web.server import SPARE_THREADS, serve

    # A heartbeat far away: the gone phones' threads would hold their slots
    # until then, were the slots not taken back when needed.
    app = make_app(live_heartbeat=60)
    server = serve(app, "127.0.0.1", 0, threads=SPARE_THREADS + 2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        gone = [_open_stream(server.port) for _ in range(2)]
        assert [status for _, status in gone] == [b"HTTP/1.1 200 OK"] * 2
        for sock, _ in gone:
            sock.close()
        # The server notices the closed sockets in its own loop, soon after.
        deadline = time.monotonic() + 10
        while True:
            sock, status = _open_stream(server.port)
            sock.close()
            if status == b"HTTP/1.1 200 OK" or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == b"HTTP/1.1 200 OK"
    finally:
        server.close()
        thread.join(5)


def test_the_server_refuses_a_huge_body_before_reading_it(make_app):
    import socket

    from web.server import serve

    app = make_app()
    server = serve(app, "127.0.0.1", 0, threads=6)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        # Announces 1 GB and sends none of it: the answer must not wait for it.
        sock.sendall(b"POST /api/command HTTP/1.1\r\nHost: companion\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.1 413")
        sock.close()
    finally:
        server.close()
        thread.join(5)


# -- preview: what a card would do, before it is played -----------------------------


def test_a_preview_says_what_the_card_would_do_and_changes_nothing(controller, spectator,
                                                                    playing):
    body = {"command": {"name": "card", "args": {"value": 9}}, **made_against(playing)}
    seen = controller.post("/api/preview", body)
    assert seen.status_code == 200, seen.json
    preview = seen.json
    assert preview["version"] == playing["version"] == 0
    assert preview["state"]["pressure"] == 9
    assert "9" in preview["text"] and preview["events"]
    # Nothing changed: the table is where it was.
    assert controller.get("/api/state").json["version"] == 0
    assert controller.get("/api/history").json["entries"] == []
    # Played for real, the card does what the preview said.
    played = controller.post("/api/command", body).json
    assert played["events"] == preview["events"]
    assert played["state"] == preview["state"]


def test_a_preview_is_refused_as_the_command_would_be(controller, spectator, playing):
    stale = controller.post("/api/preview", {
        "command": {"name": "card", "args": {"value": 3}}, "game_id": 1, "version": 7})
    assert stale.status_code == 409 and stale.json["error"] == "stale-version"
    refused = controller.post("/api/preview", {
        "command": {"name": "card", "args": {"value": 99}}, **made_against(playing)})
    assert refused.status_code in (400, 422)
    unknown = controller.post("/api/preview", {
        "command": {"name": "fly", "args": {}}, **made_against(playing)})
    assert unknown.status_code == 422 and "card" in unknown.json["message"]
    watcher = spectator.post("/api/preview", {
        "command": {"name": "card", "args": {"value": 3}}, **made_against(playing)})
    assert watcher.status_code == 403
    assert controller.get("/api/state").json["version"] == 0


def test_undo_names_in_words_what_it_takes_back(controller, playing):
    played = card(controller, 6, 0).json
    assert "value=" not in played["undo_text"] and "6" in played["undo_text"]
    assert played["undo_events"] == played["events"]
    history = controller.get("/api/history").json
    assert history["undo_text"] == played["undo_text"]
    undone = controller.post("/api/undo", made_against(played)).json
    assert undone["undo_text"] is None
    last = controller.get("/api/history").json["entries"][-1]
    assert last["action"] == "undo" and last["undid"] == played["events"]
    assert last["said"] == f"Undone: {played['undo_text']}"


def test_statistics_are_exported_as_csv_and_json(controller, table):
    from companion.core.engine import Command

    table.new_game(CON, ["Ana", "Ben", "Cy"], variants=["no-end-roll"])
    table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}))
    stats = controller.get("/api/stats").json
    assert stats["games"][CON]["games"] == 1
    file = controller.get("/api/stats.json")
    assert file.headers["Content-Disposition"].startswith("attachment")
    assert json.loads(file.data) == stats
    rows = controller.get("/api/stats-data.csv")
    assert rows.mimetype == "text/csv"
    lines = rows.data.decode().splitlines()
    assert lines[0].startswith("game,player,played,won")
    assert {line.split(",")[1] for line in lines[1:]} == {"Ana", "Ben", "Cy"}


def test_statistics_files_wait_for_an_earlier_journal_to_be_counted(controller, table,
                                                                     monkeypatch):
    from tests.test_stats import call_of_nature, counting_paused_at_the_second_game

    for loser in ("Ben", "Ana", "Ben"):
        call_of_nature(table, ["Ana", "Ben"], [10], loser=loser)
    table.archive._tally = None  # as at a start
    upkeep, release = counting_paused_at_the_second_game(table, monkeypatch)
    try:
        so_far = controller.get("/api/stats").json
        assert so_far["counting"] == {"summed": 1, "of": 3}
        assert so_far["games_played"] == 1
        for path in ("/api/stats.json", "/api/stats.csv", "/api/stats-data.csv"):
            refused = controller.get(path)
            assert (refused.status_code, refused.json["error"]) == (503, "counting"), path
            assert refused.headers["Retry-After"] == "5"
    finally:
        release.set()
        upkeep.join(10)
    stats = controller.get("/api/stats").json
    assert "counting" not in stats and stats["games_played"] == 3
    assert json.loads(controller.get("/api/stats.json").data) == stats


def test_players_are_remembered_as_profiles_with_their_colours(make_app, tmp_path):
    from companion.core.journal import Journal

    colours = tmp_path / "colours.json"
    app = make_app(colours_file=colours, keep_file=keep_file)
    phone = joined(app)
    assert phone.get("/api/profiles").json == []
    phone.post("/api/new-game", {"game": CON, "players": PLAYERS, **NO_GAME_SHOWN})
    first = phone.get("/api/state").json
    phone.post("/api/new-game", {"game": CON, "players": [
        {"name": "Dee", "colour": "#7a5c3e"}, {"name": "ana", "colour": "#00a3a3"}],
        **made_against(first)})
    expected = [{"name": "Dee", "colour": "#7a5c3e"}, {"name": "ana", "colour": "#00a3a3"},
                {"name": "Ben", "colour": "#1d6fd6"}, {"name": "Cy", "colour": "#2a9d3f"}]
    assert phone.get("/api/profiles").json == expected
    # Kept beside the journal: a restarted panel offers them again.
    table = Table(Journal.open(tmp_path / "other.db"))
    again = create_app(table, PanelSettings(secret_key="x", colours_file=colours,
                                            keep_file=keep_file))
    assert Phone(again).get("/api/profiles").json == expected
    table.close()


def test_a_bathroom_rush_box_is_taken_as_a_list_of_kinds(controller):
    box = [{"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 20}]
    started = controller.post("/api/new-game", {
        "game": "bathroom-rush", "players": PLAYERS[:2], "options": {"box": box},
        **NO_GAME_SHOWN})
    assert started.status_code == 200, started.json
    assert started.json["setup"]["options"]["box"] == box
    deep = controller.post("/api/new-game", {
        "game": "bathroom-rush", "players": PLAYERS[:2],
        "options": {"box": [{"name": {"too": "deep"}}]}, **made_against(started.json)})
    assert deep.status_code == 400


@pytest.mark.parametrize("settings, refused", [
    ({"language": "de"}, "language must be one of en, fr, it, not 'de'"),
    ({"colours_file": Path("colours.json")}, "colours_file needs keep_file"),
])
def test_panel_settings_the_panel_cannot_use_are_refused_when_made(settings, refused):
    with pytest.raises(ValueError, match=refused):
        PanelSettings(**settings)


def test_the_companion_sets_the_panel_up_from_its_config(tmp_path):
    from companion.host.config import parse
    from companion.host.storage import ACCESS_FILE, keep_file, panel_secret
    from companion.parts.web import panel_settings

    config = parse('language = "it"\n[web]\nsession_hours = 3\n[bgg]\nohshit = 4242\n')
    settings = panel_settings(config, tmp_path)
    assert (settings.language, settings.session_hours) == ("it", 3)
    assert settings.bgg_ids == {"ohshit": 4242}
    assert settings.access_file == tmp_path / ACCESS_FILE and settings.keep_file is keep_file
    assert settings.secret_key == panel_secret(tmp_path)  # kept: phones stay joined
