"""The panel's venue settings, against a real Mosquitto: a controller points
the table at the venue's broker and the table starts publishing there, once
the owner allowed it at the table; a spectator cannot; a controller without
the owner's key press cannot, and nobody can send the kept password to
another broker; the password is kept durably, privately, and never said
back; taking the table out of its venue stops it and forgets it."""

from __future__ import annotations

import json
import stat

import pytest

from companion.core.engine import Command
from companion.host.config import Config, Venue
from companion.parts.lifecycle import Setup
from companion.parts.venue import SETTINGS_FILE, VenueService
from tests.test_venue_broker import Listener, broker  # noqa: F401  (fixtures)


def venue_service(table, directory, venue=None) -> VenueService:
    """The venue part as the daemon makes it, as table-a."""
    setup = Setup(config=Config(venue=venue or Venue()), directory=directory)
    return VenueService(setup, table=table, journal=table._journal, table_name="table-a",
                        version=lambda: "test")


def joined(table, service):
    """A panel over ``service`` and a phone that joined it with the PIN (a
    controller): the phone and its CSRF token."""
    from web import PanelSettings, Services, create_app

    app = create_app(table, PanelSettings(secret_key="k" * 64), services=Services(venue=service))
    phone = app.test_client()
    csrf = phone.get("/api/session").json["csrf"]
    pin = app.extensions["companion"].access.pin
    assert phone.post("/api/join", json={"pin": pin},
                      headers={"X-CSRF-Token": csrf}).status_code == 200
    return phone, csrf


@pytest.fixture
def panel(table, tmp_path, broker):  # noqa: F811
    from web import PanelSettings, Services, create_app

    service = venue_service(table, tmp_path)
    service.start()
    service.allow_changes()  # the owner's key press at the table (Menu → Venue)
    app = create_app(table, PanelSettings(secret_key="k" * 64), services=Services(venue=service))
    controller, spectator = app.test_client(), app.test_client()
    csrf = controller.get("/api/session").json["csrf"]
    pin = app.extensions["companion"].access.pin
    assert controller.post("/api/join", json={"pin": pin},
                           headers={"X-CSRF-Token": csrf}).status_code == 200
    spectator_csrf = spectator.get("/api/session").json["csrf"]

    class Panel:
        def post(self, body, *, as_spectator=False):
            client, token = (spectator, spectator_csrf) if as_spectator else (controller, csrf)
            return client.post("/api/venue", json=body, headers={"X-CSRF-Token": token})

        def get(self):
            return spectator.get("/api/venue")

    made = Panel()
    made.service, made.broker = service, broker
    yield made
    service.stop()


def settings(running, **more):
    return {"broker": "127.0.0.1", "port": running.port, "venue": "Cafe", "table": "Table A",
            "username": "table-a", "password": "pw-a", **more}


def test_a_controller_points_the_table_at_the_venue_and_it_publishes_there(panel, table,
                                                                          tmp_path):
    listener = Listener(panel.broker)
    try:
        assert panel.get().json["enabled"] is False
        answer = panel.post(settings(panel.broker))
        assert answer.status_code == 202
        assert answer.json["has_password"] is True and "pw-a" not in answer.get_data(True)
        table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
        table.submit(Command("card", {"value": 4}))
        listener.until(lambda: len(listener.events("table-a")) == 1, "the table's event")
        status = panel.get().json
        assert status["connected"] and status["topic"] == "companion/cafe/table-a"
        assert status["source"] == "panel" and "pw-a" not in json.dumps(status)
        kept = tmp_path / SETTINGS_FILE
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        assert json.loads(kept.read_text())["password"] == "pw-a"
    finally:
        listener.link.stop()


def test_a_spectator_cannot_point_the_table_anywhere(panel, tmp_path):
    answer = panel.post(settings(panel.broker), as_spectator=True)
    assert answer.status_code == 403
    assert not (tmp_path / SETTINGS_FILE).exists() and panel.get().json["enabled"] is False


def test_a_password_left_out_is_kept_and_an_empty_broker_leaves_the_venue(panel, tmp_path):
    assert panel.post(settings(panel.broker)).status_code == 202
    changed = {k: v for k, v in settings(panel.broker, table="Table 9").items()
               if k != "password"}
    assert panel.post(changed).json["has_password"] is True
    assert json.loads((tmp_path / SETTINGS_FILE).read_text())["password"] == "pw-a"
    off = panel.post({"broker": ""}).json
    assert off["enabled"] is False and off["has_password"] is False
    assert json.loads((tmp_path / SETTINGS_FILE).read_text())["password"] == ""


@pytest.mark.parametrize("body, status", [
    ({"broker": "evil/host"}, 400), ({"broker": "127.0.0.1", "port": 0}, 400),
    ({"broker": "h", "password": "a\u0000b"}, 400), ({"broker": "h", "password": "a\u0015b"}, 400),
    ({"broker": "127.0.0.1", "venue": "!!!"}, 422),
    # Host names the network's resolver cannot take (a label over 63
    # characters made paho's thread die on an idna error).
    ({"broker": "a" * 64 + ".example"}, 400), ({"broker": "a..b"}, 400),
    ({"broker": "-broker"}, 400), ({"broker": "[::1]"}, 400), ({"broker": "café.local"}, 400),
    ({"broker": "1::2::3"}, 400), ({"broker": ("a" * 63 + ".") * 4}, 400),
])
def test_settings_the_table_cannot_use_are_refused_and_nothing_changes(panel, body, status,
                                                                        tmp_path):
    answer = panel.post(body)
    assert answer.status_code == status
    assert "a\u0015b" not in answer.get_data(True)
    assert not (tmp_path / SETTINGS_FILE).exists()


@pytest.mark.parametrize("host", ["broker.local", "mosquitto_1", "192.168.4.1", "fd00::1",
                                  "a" * 63 + ".example.", "1:2:3:4:5:6:7:8", ""])
def test_every_host_the_document_allows_is_taken(panel, host):
    import re

    from companion.core.venue import HOST_PATTERN

    assert re.fullmatch(HOST_PATTERN, host)
    answer = panel.post({"broker": host, "port": 1})
    assert answer.status_code == 202 and answer.json["broker"] == host
    panel.post({"broker": ""})


@pytest.mark.parametrize("kept", [
    {"broker": "a" * 64}, {"broker": "127.0.0.1", "port": "1883"}, {"password": 5}, [1, 2],
])
def test_settings_file_the_table_cannot_use_is_set_aside_for_the_config(table, tmp_path, kept,
                                                                        caplog):
    (tmp_path / SETTINGS_FILE).write_text(json.dumps(kept))
    config = Venue(broker="127.0.0.1", port=1884)
    service = venue_service(table, tmp_path, config)
    assert (service.settings, service.source) == (config, "config")
    assert f"{SETTINGS_FILE} is not used" in caplog.text


class Doorman:
    """A port that only counts who knocks: where a stolen password would go."""

    def __init__(self) -> None:
        import socket

        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(4)
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]

    def knocked(self) -> bool:
        try:
            self.socket.accept()[0].close()
        except OSError:
            return False
        return True


@pytest.mark.parametrize("allowed, status, error", [
    (False, 403, "venue-locked"),   # the PIN alone: nobody allowed it at the table
    (True, 422, "password-needed"),  # allowed, but the kept password stays with its broker
])
def test_a_controller_cannot_send_the_kept_password_to_another_host(
        table, tmp_path, broker, allowed, status, error):  # noqa: F811
    """The repro: a table publishing on the venue's broker with its kept
    password; a controller (the PIN) points it at another host without a
    password.  Refused, nothing changes, and nothing reaches that host."""
    service = venue_service(table, tmp_path)
    service.allow_changes()
    service.configure({"broker": "127.0.0.1", "port": broker.port, "venue": "Cafe",
                       "table": "Table A", "username": "table-a", "password": "pw-a"})
    service._allowed_until = float("-inf")  # the owner's minutes are over
    if allowed:
        service.allow_changes()
    phone, csrf = joined(table, service)
    kept = (tmp_path / SETTINGS_FILE).read_text()
    elsewhere = Doorman()
    for body in ({"broker": "127.0.0.1", "port": elsewhere.port, "venue": "Cafe des Jeux",
                  "table": "Table 1", "username": "table-1"},
                 {"broker": "127.0.0.1", "port": elsewhere.port, "venue": "Cafe",
                  "table": "Table A", "username": "table-a"},
                 {"broker": "127.0.0.1", "port": broker.port, "tls": True, "venue": "Cafe",
                  "table": "Table A", "username": "table-a"}):
        answer = phone.post("/api/venue", json=body, headers={"X-CSRF-Token": csrf})
        assert (answer.status_code, answer.json["error"]) == (status, error)
        assert "pw-a" not in answer.get_data(True)
    assert (tmp_path / SETTINGS_FILE).read_text() == kept
    assert service.settings.port == broker.port and service.settings.password == "pw-a"
    service.stop()
    assert not elsewhere.knocked()


def test_without_the_owners_key_press_a_controller_changes_nothing(table, tmp_path, broker):  # noqa: F811
    clock = [1000.0]
    service = VenueService(Setup(config=Config(), directory=tmp_path), table=table,
                           journal=table._journal, table_name="table-a",
                           version=lambda: "test", monotonic=lambda: clock[0])
    phone, csrf = joined(table, service)

    def post(body):
        return phone.post("/api/venue", json=body, headers={"X-CSRF-Token": csrf})

    assert post(settings(broker)).json["error"] == "venue-locked"
    assert phone.get("/api/venue").json["changes_allowed"] is False
    service.allow_changes()
    assert phone.get("/api/venue").json["changes_allowed"] is True
    clock[0] += 299
    assert post(settings(broker)).status_code == 202
    clock[0] += 2  # five minutes after the key press
    assert post({"broker": ""}).json["error"] == "venue-locked"
    assert service.settings.broker == "127.0.0.1"
    service.stop()
