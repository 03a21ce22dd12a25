"""A venue of companions on a real Mosquitto (Debian's ``mosquitto``, on a free
loopback port, with a password file and an ACL): real companions in
simulation publish their games, the board keeps them, the broker goes away
and comes back, a companion restarts while it is away, a table's
credentials cannot write another's topics, Home Assistant finds each table.

Skipped with its reason where mosquitto is not installed (under CI, where
scripts/test installs it, they fail instead)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from companion.core.venue import HA_STATUS
from companion.venue.board import Board
from companion.venue.schema import read
from drivers.mqtt import BrokerRefused, Link
from tests import mosquitto
from tests.mosquitto import Broker, free_port, table_acl

ROOT = Path(__file__).resolve().parent.parent
VENUE = "cafe"
TABLES = {"table-a": "pw-a", "table-b": "pw-b"}
WAIT = 30.0


@pytest.fixture
def broker(tmp_path):
    why = mosquitto.available()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    acl = "".join(table_acl(user, VENUE, user) for user in TABLES)
    acl += "user board\ntopic read companion/#\ntopic read homeassistant/#\n\n"
    acl += "user homeassistant\ntopic readwrite homeassistant/#\ntopic read companion/#\n"
    folder = tmp_path / "broker"
    folder.mkdir()
    running = Broker(folder, {**TABLES, "board": "pw-board", "homeassistant": "pw-ha"}, acl)
    running.start()
    yield running
    running.stop()


class Companion:
    """``companion serve --simulate`` with ``[venue]`` on the broker."""

    def __init__(self, folder: Path, broker: Broker, user: str, venue: bool = True) -> None:
        self.folder, self.broker, self.user = folder, broker, user
        self.port = free_port()
        folder.mkdir(exist_ok=True)
        self.config = folder / "config.toml"
        text = (f'data_dir = "{folder / "data"}"\n[web]\nhost = "127.0.0.1"\n'
                f'port = {self.port}\nmdns = false\n')
        if venue:
            text += (f'[venue]\nbroker = "127.0.0.1"\nport = {broker.port}\n'
                     f'username = "{user}"\npassword = "{TABLES[user]}"\nvenue = "Cafe"\n'
                     f'table = "{user.replace("-", " ").title()}"\n')
        self.config.write_text(text)
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self.state: dict = {}

    def start(self) -> None:
        self.output = []
        pin = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--simulate", "--config",
             str(self.config)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)

        def read_output() -> None:
            assert self.process is not None and self.process.stdout is not None
            for line in self.process.stdout:
                self.output.append(line)
                if match := re.search(r"\?join=(\S+) \(PIN (\d+)\)", line):
                    self.join_token, self.pin = match[1], match[2]
                    pin.set()

        threading.Thread(target=read_output, daemon=True).start()
        assert pin.wait(60), "".join(self.output)
        self.jar = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with self.jar.open(self._url("/api/session"), timeout=30) as answer:
            self.csrf = json.load(answer)["csrf"]
        self.post("/api/join", {"pin": self.pin})
        try:
            with self.jar.open(self._url("/api/state"), timeout=30) as answer:
                self.state = json.load(answer)
        except urllib.error.HTTPError:
            self.state = {}

    def _url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> dict:
        with self.jar.open(self._url(path), timeout=30) as answer:
            return json.load(answer)

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self._url(path), json.dumps(body).encode(),
                                         method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "X-CSRF-Token": self.csrf})
        with self.jar.open(request, timeout=30) as answer:
            return json.load(answer)

    def new_game(self, players: list[str]) -> None:
        self.state = self.post("/api/new-game", {
            "game": "call-of-nature", "players": players, "variants": ["no-end-roll"],
            "game_id": self.state.get("game_id"), "version": self.state.get("version", 0)})

    def play(self, name: str, **args) -> None:
        self.state = self.post("/api/command", {"command": {"name": name, "args": args},
                                                "game_id": self.state["game_id"],
                                                "version": self.state["version"]})

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None:
            self.process.send_signal(sig)
            self.process.wait(30)
            self.process = None


@pytest.fixture
def companions(tmp_path, broker):
    made: list[Companion] = []

    def make(user: str, venue: bool = True) -> Companion:
        made.append(Companion(tmp_path / user, broker, user, venue))
        return made[-1]

    yield make
    for companion in made:
        companion.stop(signal.SIGKILL)


class Listener:
    """The board's memory, fed by its own connection to the broker."""

    def __init__(self, broker: Broker) -> None:
        self.board = Board(":memory:")
        self.heard: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()

        def heard(topic: str, payload: bytes) -> None:
            with self.lock:
                self.heard.append((topic, payload))
            if payload:
                self.board.take(topic, payload)
            else:
                self.board.take_empty_result(topic)

        self.link = Link("127.0.0.1", broker.port, client_id="test-board", username="board",
                         password="pw-board", subscriptions=("companion/#", "homeassistant/#"),
                         on_message=heard, session_seconds=3600)
        self.link.start()
        assert self.link.wait_connected(WAIT)

    def until(self, condition, what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            assert time.monotonic() < deadline, f"{what}: not within {WAIT} s"
            time.sleep(0.05)

    def events(self, table: str) -> list[dict]:
        return self.board.events(VENUE, table)

    def messages(self, topic: str) -> list[bytes]:
        with self.lock:
            return [payload for t, payload in self.heard if t == topic]


@pytest.fixture
def listener(broker):
    made = Listener(broker)
    yield made
    made.link.stop()


def test_a_game_on_two_tables_reaches_the_board_with_their_state_and_results(
        companions, listener):
    a, b = companions("table-a"), companions("table-b")
    a.start()
    b.start()
    a.new_game(["Ana", "Ben"])
    b.new_game(["Cy", "Dee", "Eve"])
    for value in (10, 25):
        a.play("card", value=value)
    b.play("card", value=7)
    a.play("adjust-mastery", player="Ben", delta=-7)  # Ben explodes: Ana wins
    listener.until(lambda: len(listener.events("table-a")) == 3
                   and len(listener.events("table-b")) == 1, "every event")
    listener.until(lambda: len(listener.board.results()) == 1, "the result")
    [result] = listener.board.results()
    assert (result["table"], result["players"], result["winners"]) == \
        ("table-a", ["Ana", "Ben"], ["Ana"])
    tables = {t["table"]: t for t in listener.board.tables()}
    listener.until(lambda: {t["table"]: t for t in listener.board.tables()}["table-b"]
                   ["state"] is not None, "table B's state")
    tables = {t["table"]: t for t in listener.board.tables()}
    b_state = tables["table-b"]["state"]
    assert [p["name"] for p in b_state["players"]] == ["Cy", "Dee", "Eve"]
    assert b_state["turn"] == "Dee" and b_state["figure"] == "mastery"
    assert tables["table-a"]["online"] and tables["table-b"]["online"]


def test_the_broker_away_mid_game_loses_nothing_and_sends_it_once_in_order(
        companions, listener, broker):
    a = companions("table-a")
    a.start()
    a.new_game(["Ana", "Ben", "Cy"])
    a.play("card", value=3)
    listener.until(lambda: len(listener.events("table-a")) == 1, "the first event")
    broker.stop()
    for value in (4, 5, 6, 7):  # played while the broker is away: each acknowledged
        a.play("card", value=value)
    a.play("adjust-mastery", player="Cy", delta=-7)
    time.sleep(2)  # the table keeps its changes while the broker stays away
    broker.start()
    listener.until(lambda: listener.link.connected, "the board's connection back")
    listener.until(lambda: len(listener.events("table-a")) == 6, "the changes kept")
    versions = [e["version"] for e in listener.events("table-a")]
    assert versions == [1, 2, 3, 4, 5, 6]  # each once, in order
    ids = [json.loads(p)["id"] for p in listener.messages("companion/cafe/table-a/event")]
    assert sorted(set(ids)) == sorted(f"1:{v}" for v in versions)
    listener.until(lambda: len(listener.board.results()) == 1, "the result")


def test_a_companion_restarted_while_the_broker_is_away_sends_its_changes_after(
        companions, listener, broker):
    a = companions("table-a")
    a.start()
    a.new_game(["Ana", "Ben"])
    a.play("card", value=3)
    listener.until(lambda: len(listener.events("table-a")) == 1, "the first event")
    broker.stop()
    a.play("card", value=4)
    a.play("card", value=5)
    a.stop(signal.SIGKILL)  # a power cut, while the broker is away
    a.start()
    broker.start()
    listener.until(lambda: listener.link.connected, "the board's connection back")
    listener.until(lambda: len(listener.events("table-a")) == 3, "the changes of before")
    assert [e["version"] for e in listener.events("table-a")] == [1, 2, 3]


def test_a_table_cannot_write_another_tables_topics(broker, listener):
    intruder = Link("127.0.0.1", broker.port, client_id="intruder", username="table-a",
                    password="pw-a")
    intruder.start()
    assert intruder.wait_connected(WAIT)
    try:
        forged = {"table": "table-b", "game": "ohshit", "game_id": 1, "version": 9,
                  "players": [{"name": "Mallory"}]}
        with pytest.raises(BrokerRefused):
            intruder.publish("companion/cafe/table-b/state", json.dumps(forged).encode())
        # Its own topic goes through, so the board would have heard the forged one by now.
        own = {**forged, "table": "table-a"}
        assert intruder.publish("companion/cafe/table-a/state", json.dumps(own).encode())
        listener.until(lambda: listener.messages("companion/cafe/table-a/state"), "its own")
        assert listener.messages("companion/cafe/table-b/state") == []
    finally:
        intruder.stop()


def test_the_board_refuses_a_message_that_names_another_table_and_counts_it():
    board = Board(":memory:")
    forged = {"table": "Table B", "game": "ohshit", "title": "OhShit!", "game_id": 1,
              "version": 9, "players": [{"name": "Mallory"}], "over": False}
    assert board.take("companion/cafe/table-a/state", json.dumps(forged).encode()) is None
    assert board.take("companion/cafe/table-a/state", b"{not json") is None
    assert board.take("companion/cafe/table-a/event", b'{"id": 3}') is None
    assert board.refused == {"other-table": 1, "not-json": 1, "invalid-event": 1}
    assert board.tables() == []
    assert board.take("companion/cafe/table-b/state", json.dumps(forged).encode()) is not None
    assert [t["table"] for t in board.tables()] == ["table-b"]


def test_a_table_killed_is_said_offline_by_its_last_will(companions, listener):
    a = companions("table-a")
    a.start()
    topic = "companion/cafe/table-a/availability"
    listener.until(lambda: b"online" in listener.messages(topic), "online")
    a.stop(signal.SIGKILL)
    listener.until(lambda: listener.messages(topic)[-1:] == [b"offline"], "the last will")
    assert not {t["table"]: t for t in listener.board.tables()}["table-a"]["online"]


# What Home Assistant's MQTT sensor and event documents (home-assistant.io,
# integrations sensor.mqtt and event.mqtt, and the discovery page).
# ``object_id`` is deprecated since 2025.10 (and gone in 2026.4): never sent.
HA_COMMON = {"name", "unique_id", "default_entity_id", "state_topic", "value_template", "icon",
             "availability_topic", "payload_available", "payload_not_available", "device",
             "origin", "json_attributes_topic", "json_attributes_template",
             "unit_of_measurement", "device_class", "entity_category", "qos"}
HA_EVENT = HA_COMMON | {"event_types"}
HA_DEVICE = {"identifiers", "connections", "name", "manufacturer", "model", "sw_version",
             "hw_version", "suggested_area", "via_device", "configuration_url"}
HA_ORIGIN = {"name", "sw_version", "support_url"}


def test_home_assistant_finds_each_table_and_is_told_again_when_it_restarts(
        companions, listener):
    a = companions("table-a")
    a.start()
    prefix = "homeassistant/"
    listener.until(lambda: any(t.startswith(prefix) and t.endswith("/config")
                               for t, _ in listener.heard), "the discovery")
    listener.until(lambda: len(_configs(listener)) == 10, "every entity")
    configs = _configs(listener)
    for topic, payload in configs.items():
        component = topic.split("/")[1]
        assert component in ("sensor", "event")
        allowed = HA_EVENT if component == "event" else HA_COMMON
        assert set(payload) <= allowed, set(payload) - allowed
        assert {"state_topic", "unique_id", "availability_topic", "device"} <= set(payload)
        assert set(payload["device"]) <= HA_DEVICE and set(payload["origin"]) <= HA_ORIGIN
        assert payload["availability_topic"] == "companion/cafe/table-a/availability"
        assert payload["default_entity_id"] == f"{component}.{payload['unique_id']}"
    [event] = [p for t, p in configs.items() if t.startswith("homeassistant/event/")]
    assert {"threshold-fired", "player-eliminated", "game-over"} <= set(event["event_types"])
    before = len(listener.heard)
    home_assistant = Link("127.0.0.1", listener.link.port, client_id="home-assistant",
                          username="homeassistant", password="pw-ha")
    home_assistant.start()
    assert home_assistant.wait_connected(WAIT)
    try:
        assert home_assistant.publish(HA_STATUS, b"online")  # Home Assistant started again
    finally:
        home_assistant.stop()
    listener.until(lambda: sum(1 for t, _ in listener.heard[before:]
                               if t.startswith(prefix) and t.endswith("/config")) >= 10,
                   "the discovery again")


def _configs(listener: Listener) -> dict[str, dict]:
    with listener.lock:
        return {t: json.loads(p) for t, p in listener.heard
                if t.startswith("homeassistant/") and t.endswith("/config") and p}


def test_messages_read_by_the_board_keep_their_kinds():
    message = read("companion/cafe/table-a/availability", b"offline")
    assert (message.venue, message.table, message.kind, message.body) == \
        ("cafe", "table-a", "availability", "offline")


def test_the_documented_acl_lets_a_table_write_its_own_topics_only(tmp_path):
    """docs/venue/companion.acl, as a venue would copy it, on a real Mosquitto."""
    why = mosquitto.available()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    acl = (ROOT / "docs" / "venue" / "companion.acl").read_text()
    running = Broker(tmp_path, {"table-1": "one", "table-2": "two", "board": "b"}, acl)
    running.start()
    table = Link("127.0.0.1", running.port, client_id="table-1", username="table-1",
                 password="one")
    table.start()
    try:
        assert table.wait_connected(WAIT)
        assert table.publish("companion/cafe-des-jeux/table-1/state", b"{}")
        assert table.publish(
            "homeassistant/sensor/companion_cafe_des_jeux_table_1/game/config", b"{}")
        for elsewhere in ("companion/cafe-des-jeux/table-2/state",
                          "homeassistant/sensor/companion_cafe_des_jeux_table_2/game/config",
                          "homeassistant/status"):
            with pytest.raises(BrokerRefused):
                table.publish(elsewhere, b"{}")
    finally:
        table.stop()
        running.stop()


def test_a_table_publishes_over_tls_to_a_broker_its_ca_signed_and_no_other(tmp_path):
    """A broker with a certificate of the venue's CA: the table that trusts
    that CA publishes; a table given another CA does not connect."""
    import shutil

    why = mosquitto.available() or (None if shutil.which("openssl") else "no openssl here")
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    (tmp_path / "ca").mkdir()
    (tmp_path / "other").mkdir()
    ca, cert, key = mosquitto.certificates(tmp_path / "ca")
    other_ca, _, _ = mosquitto.certificates(tmp_path / "other")
    acl = table_acl("table-a", VENUE, "table-a") + "user board\ntopic read companion/#\n"
    (tmp_path / "broker").mkdir()
    running = Broker(tmp_path / "broker", {"table-a": "pw-a", "board": "b"}, acl,
                     tls=(ca, cert, key))
    running.start()
    links = []
    try:
        for trusted, expected in ((ca, True), (other_ca, False)):
            link = Link("127.0.0.1", running.port, client_id=f"t-{expected}",
                        username="table-a", password="pw-a", tls=True, ca_file=str(trusted))
            links.append(link)
            link.start()
            assert link.wait_connected(3 if not expected else WAIT) is expected
            if expected:
                assert link.publish("companion/cafe/table-a/state", b"{}")
    finally:
        for link in links:
            link.stop()
        running.stop()
