"""The Wi-Fi: NetworkManager through a stand-in ``nmcli`` first on PATH
(tests/nmcli_stand_in.py, which records every call and answers in nmcli's
formats), the network part's decisions, and the panel's Wi-Fi routes."""

from __future__ import annotations

import json
import logging
import os
import stat
import sys
from pathlib import Path

import pytest

from companion.host.config import Config, Network
from companion.parts.bus import Bus, NetworkChanged
from companion.parts.lifecycle import Setup
from companion.parts.network import HOTSPOT_CHECK, NetworkPart, hotspot_identity
from drivers.network import (
    HOTSPOT_ADDRESS,
    BadPassphrase,
    Nmcli,
    SimulatedNetwork,
    check_passphrase,
    split_terse,
    unescape,
)

STAND_IN = Path(__file__).with_name("nmcli_stand_in.py")
HOME = {"ssid": "Home", "signal": 80, "security": "WPA2", "password": "at-home-2024"}
CAFE = {"ssid": "Café: Libre", "signal": 64, "security": "WPA1 WPA2", "password": "croissant"}
LIBRARY = {"ssid": "Library", "signal": 31, "security": "", "password": None}


class World:
    """The stand-in's world, and what the companion asked of it."""

    def __init__(self, folder: Path) -> None:
        self.file = folder / "world.json"
        self.calls_file = folder / "calls.jsonl"
        self.calls_file.write_text("")
        self.write({"running": True, "address": "", "active": None, "connectivity": "none",
                    "device": {"name": "wlan0", "state": "disconnected", "connection": ""},
                    "in_reach": [CAFE, LIBRARY], "connections": []})

    def read(self) -> dict:
        return json.loads(self.file.read_text())

    def write(self, world: dict) -> None:
        self.file.write_text(json.dumps(world))

    def change(self, **values) -> None:
        world = self.read()
        world.update(values)
        self.write(world)

    def remember(self, place: dict) -> None:
        world = self.read()
        world["connections"].append({
            "name": place["ssid"], "uuid": f"0000000{len(world['connections'])}-aaaa-4bbb-8ccc-"
                                          "dddddddddddd",
            "ssid": place["ssid"], "mode": "infrastructure", "secure": bool(place["password"]),
            "psk": place["password"], "settings": {}})
        self.write(world)

    def calls(self) -> list[dict]:
        return [json.loads(line) for line in self.calls_file.read_text().splitlines()]

    def argv_text(self) -> str:
        return "\n".join(" ".join(call["args"]) for call in self.calls())

    def saved(self, ssid: str) -> list[dict]:
        return [c for c in self.read()["connections"] if c["ssid"] == ssid]


@pytest.fixture
def world(tmp_path, monkeypatch) -> World:
    folder = tmp_path / "nm"
    folder.mkdir()
    program = folder / "bin" / "nmcli"
    program.parent.mkdir()
    program.write_text(f"#!/bin/sh\nexec {sys.executable} {STAND_IN} \"$@\"\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{program.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("NMCLI_WORLD", str(folder / "world.json"))
    monkeypatch.setenv("NMCLI_CALLS", str(folder / "calls.jsonl"))
    return World(folder)


@pytest.fixture
def machine_id(tmp_path) -> Path:
    path = tmp_path / "machine-id"
    path.write_text("3f1c9b2e5d7a4c8e9f0a1b2c3d4e5f60\n")
    return path


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def make_part(tmp_path, machine_id):
    made = []

    def make(settings: Network | None = None, manager=None, clock=None) -> NetworkPart:
        told: list[tuple[str, str, str]] = []
        bus = Bus()
        bus.subscribe(NetworkChanged, lambda news: told.append(tuple(news)))
        setup = Setup(config=Config(network=settings or Network()), directory=tmp_path / "data",
                      bus=bus)
        part = NetworkPart(setup, manager=manager or Nmcli(), clock=clock or Clock(),
                           machine_id=machine_id)
        part.told = told
        made.append(part)
        return part

    yield make
    for part in made:
        part.stop()


def hotspot_calls(world: World) -> list[dict]:
    return [c for c in world.calls() if c["args"][:2] == ["connection", "add"]
            and "ap" in c["args"]]


# -- nmcli's terse output ---------------------------------------------------------------------


def test_a_terse_line_splits_at_unescaped_colons_only():
    assert split_terse(r"*:Café\: Libre:64:WPA1 WPA2") == ["*", "Café: Libre", "64", "WPA1 WPA2"]
    assert split_terse(r"a\\:b") == ["a\\", "b"]
    assert split_terse(r" :C\\\:D:1:") == [" ", "C\\:D", "1", ""]


def test_a_single_value_is_unescaped():
    assert unescape(r"Caf\:e") == "Caf:e"
    assert unescape("plain") == "plain"


def test_the_networks_in_reach_come_parsed_and_strongest_first(world):
    world.remember(CAFE)
    networks = Nmcli().networks()
    assert [(n.ssid, n.signal, n.secure, n.known) for n in networks] == [
        ("Café: Libre", 64, True, True), ("Library", 31, False, False)]


def test_a_wpa2_passphrase_is_8_to_63_printable_characters_and_never_repeated():
    assert check_passphrase("croissant") == "croissant"
    with pytest.raises(BadPassphrase) as short:
        check_passphrase("secret7")
    assert "secret7" not in str(short.value)
    with pytest.raises(BadPassphrase):
        check_passphrase("x" * 64)
    with pytest.raises(BadPassphrase):
        check_passphrase("naïve-password")


# -- the fallback hotspot -------------------------------------------------------------------


def test_with_no_known_network_the_hotspot_opens_with_its_name_and_passphrase(
        world, make_part, tmp_path):
    part = make_part()
    part.start()
    part.settled()
    identity = hotspot_identity(tmp_path / "data", machine_id=tmp_path / "machine-id")
    assert part.status()["mode"] == "hotspot"
    assert part.status()["hotspot"] == identity.ssid
    assert identity.ssid.startswith("Companion-") and len(identity.ssid) == len("Companion-1234")
    (added,) = hotspot_calls(world)
    settings = dict(zip(added["args"][2::2], added["args"][3::2], strict=True))
    assert settings["ssid"] == identity.ssid
    assert settings["802-11-wireless.mode"] == "ap"
    assert settings["ipv4.method"] == "shared"
    assert settings["ipv4.addresses"] == f"{HOTSPOT_ADDRESS}/24"
    assert (settings["wifi-sec.key-mgmt"], settings["wifi-sec.proto"]) == ("wpa-psk", "rsn")
    (up,) = [c for c in world.calls() if "up" in c["args"]]
    assert up["secrets"] == {"802-11-wireless-security.psk": identity.passphrase}
    # Never on a command line, where every user of the machine could read it.
    assert identity.passphrase not in world.argv_text()
    assert part.told == [("hotspot", identity.ssid, "")]
    assert part.wifi_join() == (identity.ssid, identity.passphrase)


def test_the_passphrase_is_made_once_and_kept_private(tmp_path, machine_id):
    first = hotspot_identity(tmp_path, machine_id=machine_id)
    again = hotspot_identity(tmp_path, machine_id=machine_id)
    assert first == again
    assert stat.S_IMODE((tmp_path / "hotspot.json").stat().st_mode) == 0o600
    check_passphrase(first.passphrase)


def test_the_name_is_stable_per_device_and_may_be_chosen(tmp_path, machine_id):
    one = hotspot_identity(tmp_path / "a", machine_id=machine_id)
    other = hotspot_identity(tmp_path / "b", machine_id=machine_id)
    assert one.ssid == other.ssid  # a fresh data directory keeps the name
    assert one.passphrase != other.passphrase
    assert hotspot_identity(tmp_path / "a", "Games table", machine_id=machine_id).ssid == \
        "Games table"


def test_a_known_network_gets_the_configured_wait_before_the_hotspot(world, make_part):
    world.remember(HOME)
    world.change(in_reach=[CAFE])  # Home is out of reach
    clock = Clock()
    part = make_part(Network(wait=30), clock=clock)
    part.start()
    part.settled()
    assert part.status()["mode"] == "waiting"
    assert hotspot_calls(world) == []
    clock.now += 29
    part.check_now()
    assert part.settled() and part.status()["mode"] == "waiting"
    clock.now += 2
    part.check_now()
    assert part.settled() and part.status()["mode"] == "hotspot"
    assert len(hotspot_calls(world)) == 1


def test_a_known_network_that_connects_keeps_the_hotspot_closed(world, make_part):
    world.remember(HOME)
    world.change(in_reach=[HOME])
    world.change(active=world.read()["connections"][0]["uuid"], address="192.168.1.23",
                 device={"name": "wlan0", "state": "connected", "connection": "Home"})
    part = make_part()
    part.start()
    part.settled()
    assert (part.status()["mode"], part.status()["ssid"], part.status()["address"]) == (
        "connected", "Home", "192.168.1.23")
    assert hotspot_calls(world) == []
    assert part.wifi_join() is None


def test_hotspot_off_never_opens_it(world, make_part):
    part = make_part(Network(hotspot=False))
    part.start()
    part.settled()
    assert part.status()["mode"] == "disconnected"
    assert hotspot_calls(world) == []


def test_hotspot_on_opens_it_even_when_a_network_is_known(world, make_part):
    world.remember(HOME)
    world.change(in_reach=[HOME])
    part = make_part(Network(hotspot=True))
    part.start()
    part.settled()
    assert part.status()["mode"] == "hotspot"


def test_a_known_network_coming_back_is_offered_not_switched_to(world, make_part):
    world.remember(HOME)
    world.change(in_reach=[CAFE])
    clock = Clock()
    part = make_part(Network(wait=0), clock=clock)
    part.start()
    part.settled()
    assert part.status()["mode"] == "hotspot" and part.offered() is None
    world.change(in_reach=[CAFE, HOME])
    clock.now += HOTSPOT_CHECK
    part.check_now()
    assert part.settled()
    assert part.offered() == "Home"
    assert ("offer", "Home", "") in part.told
    assert part.status()["mode"] == "hotspot"  # phones are on it: never on its own
    # The player accepts: the saved connection comes up, no password asked.
    assert part.switch() == "Home"
    assert part.settled()
    assert (part.status()["mode"], part.status()["ssid"]) == ("connected", "Home")
    last_up = [c for c in world.calls() if "up" in c["args"]][-1]
    assert last_up["secrets"] == {}


def test_without_networkmanager_the_wifi_is_a_fault_that_says_so(world, make_part):
    world.change(running=False)
    part = make_part()
    part.start()
    part.settled()
    assert part.status()["mode"] == "unavailable"
    assert "NetworkManager" in part.fault()


def test_without_nmcli_the_wifi_is_a_fault(monkeypatch, tmp_path, make_part):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    part = make_part()
    part.start()
    part.settled()
    assert part.status()["mode"] == "unavailable"
    assert part.fault() == "Wi-Fi: NetworkManager is missing (nmcli is not installed)"


def test_without_a_wifi_device_the_wifi_is_a_fault(world, make_part):
    world.change(device=None)
    part = make_part()
    part.start()
    part.settled()
    assert part.fault() == "Wi-Fi: no Wi-Fi device"


# -- joining from the panel -----------------------------------------------------------------


@pytest.fixture
def panel(table, make_part, world):
    from web import PanelSettings, Services, create_app

    part = make_part(Network(wait=0))
    part.start()
    part.settled()
    app = create_app(table, PanelSettings(secret_key="k" * 64), services=Services(network=part))
    controller = app.test_client()
    csrf = controller.get("/api/session").json["csrf"]
    pin = app.extensions["companion"].access.pin
    assert controller.post("/api/join", json={"pin": pin},
                           headers={"X-CSRF-Token": csrf}).status_code == 200

    class Phone:
        def post(self, path, body):
            return controller.post(path, json=body, headers={"X-CSRF-Token": csrf})

        def get(self, path):
            return controller.get(path)

    phone = Phone()
    phone.app, phone.part = app, part
    return phone


def test_a_controller_sees_the_networks_in_reach(panel):
    answer = panel.get("/api/network/networks")
    assert answer.status_code == 200
    assert [(n["ssid"], n["signal"], n["secure"]) for n in answer.json["networks"]] == [
        ("Café: Libre", 64, True), ("Library", 31, False)]


def test_a_spectator_sees_where_the_companion_is_but_not_the_networks(panel):
    watcher = panel.app.test_client()
    assert watcher.get("/api/network").json["mode"] == "hotspot"
    assert watcher.get("/api/network/networks").status_code == 403
    csrf = watcher.get("/api/session").json["csrf"]
    refused = watcher.post("/api/network/join", json={"ssid": "Library"},
                           headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 403


def test_joining_with_the_right_password_connects_and_remembers(panel, world):
    answer = panel.post("/api/network/join", {"ssid": "Café: Libre", "password": "croissant"})
    assert answer.status_code == 202
    assert panel.part.settled()
    status = panel.get("/api/network").json
    assert (status["mode"], status["ssid"], status["address"], status["error"],
            status["failed"]) == ("connected", "Café: Libre", "192.168.1.23", None, None)
    (saved,) = world.saved("Café: Libre")
    assert saved["psk"] == "croissant" and saved["settings"]["connection.autoconnect"] == "yes"
    assert "croissant" not in world.argv_text()
    assert ("joined", "Café: Libre", "") in panel.part.told


def test_a_wrong_password_goes_back_to_the_hotspot_and_says_why(panel, world):
    answer = panel.post("/api/network/join", {"ssid": "Café: Libre", "password": "baguette"})
    assert answer.status_code == 202
    assert panel.part.settled()
    status = panel.get("/api/network").json
    assert status["mode"] == "hotspot"
    assert status["error"] == "Could not join Café: Libre: the password is wrong"
    assert status["failed"] == {"ssid": "Café: Libre", "reason": "wrong-password"}
    assert world.saved("Café: Libre") == []  # a wrong password is not remembered
    assert world.read()["address"] == HOTSPOT_ADDRESS
    assert panel.part.told[-1] == ("join-failed", "Café: Libre", "wrong-password")
    # The next join starts afresh, and a success forgets the failure.
    assert panel.post("/api/network/join", {"ssid": "Café: Libre",
                                            "password": "croissant"}).status_code == 202
    assert panel.part.settled()
    status = panel.get("/api/network").json
    assert (status["mode"], status["error"], status["failed"]) == ("connected", None, None)


def test_an_open_network_needs_no_password(panel):
    assert panel.post("/api/network/join", {"ssid": "Library"}).status_code == 202
    assert panel.part.settled()
    assert panel.get("/api/network").json["ssid"] == "Library"


def test_a_password_wpa2_cannot_take_is_refused_at_once_without_repeating_it(panel, world):
    before = len(world.calls())
    answer = panel.post("/api/network/join", {"ssid": "Library", "password": "short7"})
    assert answer.status_code == 400
    assert "short7" not in answer.get_data(as_text=True)
    assert len(world.calls()) == before


def test_forgetting_a_network_is_one_request(panel, world):
    world.remember(HOME)
    assert panel.post("/api/network/forget", {"ssid": "Home"}).status_code == 202
    assert panel.part.settled()
    assert world.saved("Home") == []
    assert any(c["args"][:2] == ["connection", "delete"] for c in world.calls())


def test_switching_with_nothing_on_offer_is_refused(panel):
    answer = panel.post("/api/network/switch", {})
    assert answer.status_code == 409 and answer.json["error"] == "no-offer"


def test_no_password_reaches_a_log_or_an_answer(panel, world, caplog):
    caplog.set_level(logging.DEBUG)
    identity = panel.part.identity
    answers = [panel.post("/api/network/join", {"ssid": "Café: Libre", "password": "baguette"})]
    panel.part.settled()
    answers.append(panel.post("/api/network/join", {"ssid": "Café: Libre",
                                                     "password": "croissant"}))
    panel.part.settled()
    answers += [panel.get("/api/network"), panel.get("/api/network/networks"),
                panel.get("/api/session"), panel.get("/api/state")]
    said = caplog.text + "".join(a.get_data(as_text=True) for a in answers)
    assert "Café: Libre" in caplog.text  # the log does speak of the join
    for secret in ("baguette", "croissant", identity.passphrase):
        assert secret not in said
        assert secret not in world.argv_text()


# -- the simulation's stand-in --------------------------------------------------------------


def test_the_simulation_shows_the_hotspot_flow(make_part):
    part = make_part(manager=SimulatedNetwork())
    part.start()
    part.settled()
    assert part.status()["mode"] == "hotspot"
    part.join("Café Libre", "wrong-password")
    assert part.settled() and part.status()["mode"] == "hotspot"
    assert "password is wrong" in part.status()["error"]
    part.join("Café Libre", "croissant")
    assert part.settled() and part.status()["ssid"] == "Café Libre"
    part.forget("Café Libre")
    assert part.settled() and part.manager.known() == []


# -- companion doctor ---------------------------------------------------------------------------


def test_the_doctor_says_which_network_the_wifi_is_on(world):
    from companion.commands import doctor

    world.remember(HOME)
    world.change(in_reach=[HOME], active=world.read()["connections"][0]["uuid"],
                 address="192.168.1.23",
                 device={"name": "wlan0", "state": "connected", "connection": "Home"})
    finding = doctor.check_wifi()
    assert (finding.level, finding.what) == (
        "OK", "Wi-Fi connected to Home (192.168.1.23; internet: none)")
    world.change(connectivity="full")
    assert doctor.check_wifi().what == "Wi-Fi connected to Home (192.168.1.23; internet: full)"


def test_the_doctor_says_when_the_companion_is_its_own_wifi(world):
    from companion.commands import doctor

    Nmcli().hotspot("Companion-4821", "k7m2q9txhc")
    finding = doctor.check_wifi()
    assert finding.level == "OK"
    assert "its own Wi-Fi 'Companion-4821' at 10.42.0.1" in finding.what


@pytest.mark.parametrize("change, level, said, fix", [
    ({"running": False}, "WARN", "no NetworkManager", "systemctl enable --now NetworkManager"),
    ({"device": None}, "WARN", "no Wi-Fi device", "rfkill unblock wifi"),
    ({}, "WARN", "on no network; the companion opens its own", "nmcli --ask device wifi"),
])
def test_the_doctor_says_what_is_wrong_with_the_wifi_and_how_to_fix_it(world, change, level,
                                                                       said, fix):
    from companion.commands import doctor

    world.change(**change)
    finding = doctor.check_wifi()
    assert finding.level == level and said in finding.what and fix in finding.fix


def test_the_doctor_without_nmcli_says_to_install_networkmanager(monkeypatch, tmp_path):
    from companion.commands import doctor

    monkeypatch.setenv("PATH", str(tmp_path))
    finding = doctor.check_wifi()
    assert finding.level == "WARN" and "nmcli is not installed" in finding.what
    assert "network-manager" in finding.fix


# -- NetworkManager as it really speaks ---------------------------------------------------------
# Each output below is what the real nmcli prints (tests/test_network_manager.py checks
# the stand-in's formats against it where NetworkManager can run).


class Replay:
    """A ``run`` for :class:`Nmcli` answering each command with what the
    real nmcli printed for it (bytes, as a pipe carries them)."""

    def __init__(self, answers: dict[str, bytes]) -> None:
        self.answers = answers
        self.calls: list[dict] = []

    def __call__(self, argv, **options):
        import subprocess

        self.calls.append({"argv": argv, **options})
        command = " ".join(argv[1:])
        for start, out in self.answers.items():
            if command.startswith(start):
                return subprocess.CompletedProcess(argv, 0, out, b"")
        raise AssertionError(f"no answer for nmcli {command}")


THREE_PROFILES = Replay({
    "-t -f NAME,UUID,TYPE connection show":
        "Café 🎲 Wi-Fi:d3f08e04-d38a-4afe-86e9-2b7986748734:802-11-wireless\n"
        "Home:906b7ad8-6172-4d2e-aa31-0d0242e89123:802-11-wireless\n"
        "Wired connection 1:5f2c9a8e-0000-4000-8000-000000000001:802-3-ethernet\n"
        "Companion hotspot:529b7b8b-96e0-4480-9bdf-d606192a6a07:802-11-wireless\n".encode(),
    "-g connection.uuid,802-11-wireless.ssid,802-11-wireless.mode connection show":
        "d3f08e04-d38a-4afe-86e9-2b7986748734\nCafé 🎲 Wi-Fi\ninfrastructure\n\n"
        "906b7ad8-6172-4d2e-aa31-0d0242e89123\nHome\ninfrastructure\n\n"
        "529b7b8b-96e0-4480-9bdf-d606192a6a07\nCompanion\\:4821\nap\n".encode(),
})


def test_several_saved_profiles_are_each_read_with_their_own_name_and_mode():
    saved = Nmcli(path=sys.executable, run=THREE_PROFILES).connections()
    assert [(c.name, c.ssid, c.mode) for c in saved] == [
        ("Café 🎲 Wi-Fi", "Café 🎲 Wi-Fi", "infrastructure"),
        ("Home", "Home", "infrastructure"),
        ("Companion hotspot", "Companion:4821", "ap")]


def test_with_several_profiles_a_restart_on_the_hotspot_knows_it_is_the_hotspot(world,
                                                                                  make_part):
    world.remember(HOME)
    world.remember(CAFE)
    Nmcli().hotspot("Companion-4821", "k7m2q9txhc")
    world.change(in_reach=[CAFE, HOME])
    part = make_part(Network(wait=0))
    part.start()
    assert part.settled()
    status = part.status()
    assert (status["mode"], status["ssid"]) == ("hotspot", "Companion-4821")
    assert part.wifi_join() is not None  # the table's screen shows the Wi-Fi QR code
    assert part.offered() == "Home"  # a known network in reach is offered
    # Opening the hotspot again replaces its profile rather than adding one.
    Nmcli().hotspot("Companion-4821", "k7m2q9txhc")
    assert len([c for c in world.read()["connections"] if c["mode"] == "ap"]) == 1


NAME = "Café 🎲 Wi-Fi"


def test_names_that_are_not_ascii_come_through_whole(world):
    place = {"ssid": NAME, "signal": 70, "security": "WPA2", "password": "croissant"}
    world.change(in_reach=[place])
    world.remember(place)
    assert [(n.ssid, n.known) for n in Nmcli().networks()] == [(NAME, True)]
    assert Nmcli().known() == [NAME]


def test_nmcli_runs_in_a_utf8_locale_with_english_messages(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "fr")
    monkeypatch.setenv("LC_ALL", "fr_FR.ISO-8859-1")
    replay = Replay({"-t -f RUNNING general status": b"running\n"})
    assert Nmcli(path=sys.executable, run=replay).running()
    env = replay.calls[0]["env"]
    assert env["LC_ALL"] == "C.UTF-8" and "LANGUAGE" not in env


@pytest.mark.parametrize("password", [
    "back\\slash-pass", "  spaces at both ends  ", "ends in a backslash\\",
    "#hash:colon=equals", " \\ \\\\ \\ ", "\\n is not a line break"])
def test_a_password_reaches_networkmanager_as_it_was_typed(world, password):
    Nmcli().hotspot("Companion-4821", password)
    (up,) = [c for c in world.calls() if "up" in c["args"]]
    assert up["secrets"] == {"802-11-wireless-security.psk": password}
    assert password not in world.argv_text()


class Hanging:
    """A network manager that records the thread of each call."""

    def __init__(self) -> None:
        import threading

        self.threads: list[str] = []
        self.release = threading.Event()

    def state(self):
        import threading

        from drivers.network import WifiState

        self.threads.append(threading.current_thread().name)
        self.release.wait(30)
        return WifiState("disconnected", device="wlan0")

    def known(self):
        return []

    def hotspot(self, ssid, passphrase):
        from drivers.network import WifiState

        return WifiState("hotspot", ssid, "wlan0", HOTSPOT_ADDRESS)

    def networks(self, rescan="auto"):
        return []


def test_the_parts_start_asks_networkmanager_nothing_on_the_callers_thread(make_part):
    import threading

    manager = Hanging()
    part = make_part(manager=manager)
    part.start()  # returns while the first look waits on a hung NetworkManager
    caller = threading.current_thread().name
    manager.release.set()
    assert part.settled()
    assert manager.threads and caller not in manager.threads
    assert set(manager.threads) == {"network"}
    assert part.status()["mode"] == "hotspot"


def test_a_hung_nmcli_is_a_network_error_after_its_own_timeout(tmp_path):
    from companion.commands import doctor
    from drivers.network import NetworkError

    program = tmp_path / "nmcli"
    program.write_text("#!/bin/sh\nexec sleep 600\n")
    program.chmod(0o755)
    nmcli = Nmcli(str(program), query_timeout=0.2)
    with pytest.raises(NetworkError) as hung:
        nmcli.connections()
    assert "did not answer within" in str(hung.value)
    assert hung.value.fix == "sudo systemctl restart NetworkManager"
    finding = doctor.check_wifi(manager=nmcli)
    assert finding.level == "FAIL" and "did not answer" in finding.what
    assert finding.fix == "sudo systemctl restart NetworkManager"


def test_output_that_is_not_utf8_is_read_not_a_crash(world, make_part):
    from companion.commands import doctor

    world.remember(HOME)
    world.change(garbled=["connection show", "device wifi list"])
    assert [c.name for c in Nmcli().connections()] == []  # the garbled line is no Wi-Fi
    assert doctor.check_wifi().level in ("OK", "WARN", "FAIL")
    part = make_part(Network(wait=0))
    part.start()
    assert part.settled()
    assert part.join("Library") is None
    assert part.settled()
    status = part.status()
    assert status["joining"] is None and status["mode"] != "joining"


def test_a_join_that_fails_in_an_unforeseen_way_ends_the_join(make_part):
    manager = SimulatedNetwork()

    def broken(*args, **kwargs):
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    manager.connect = broken
    part = make_part(manager=manager)
    part.start()
    assert part.settled()
    part.join("Library guests")
    assert part.settled()
    status = part.status()
    assert status["joining"] is None and status["mode"] == "hotspot"
    assert status["failed"] == {"ssid": "Library guests", "reason": "failed"}


def test_the_doctor_names_the_system_dbus_when_it_does_not_answer(world):
    from companion.commands import doctor

    world.change(running="no-dbus")
    finding = doctor.check_wifi()
    assert finding.level == "WARN" and "D-Bus" in finding.what
    assert "sudo systemctl start dbus" in finding.fix
    assert "install-pi.sh" not in finding.fix


def test_the_doctor_never_ends_in_a_traceback():
    from companion.commands import doctor

    class Broken:
        def state(self):
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    finding = doctor.check_wifi(manager=Broken())
    assert finding.level == "FAIL" and "could not be checked" in finding.what


LONG_ACCENTED = "é" * 17  # 17 characters, 34 bytes: more than Wi-Fi allows


@pytest.mark.parametrize("path, body, status", [
    # 32 characters or fewer, as the document's schema allows, over 32 bytes: the rule's 422.
    ("/api/network/forget", {"ssid": LONG_ACCENTED}, 422),
    ("/api/network/join", {"ssid": LONG_ACCENTED}, 422),
    # Over 32 characters: malformed, as the schema says.
    ("/api/network/join", {"ssid": "x" * 33}, 400),
])
def test_a_name_over_32_bytes_is_a_clear_4xx(panel, path, body, status):
    answer = panel.post(path, body)
    assert answer.status_code == status
    assert "32 bytes" in answer.json["message"]


def test_a_name_of_32_bytes_is_taken_by_the_panel_and_the_driver(panel, world):
    name = "é" * 16
    world.remember({"ssid": name, "password": None})
    assert panel.post("/api/network/forget", {"ssid": name}).status_code == 202
    assert panel.part.settled()
    assert world.saved(name) == []


def test_the_panels_description_says_the_rule_in_bytes(panel):
    schema = panel.get("/api/openapi.json").json
    text = json.dumps(schema)
    assert "32 bytes" in text and "1 to 32 characters" not in text


def test_every_driver_error_is_a_clear_4xx(panel):
    from drivers.network import NoNetworkManager

    def refuse(ssid):
        raise NoNetworkManager("NetworkManager is not running")

    panel.part.forget = refuse
    answer = panel.post("/api/network/forget", {"ssid": "Home"})
    assert answer.status_code == 409 and answer.json["error"] == "network-error"
    assert "sudo systemctl enable --now NetworkManager" in answer.json["message"]


def test_a_connection_that_does_not_come_up_in_time_is_a_timeout(tmp_path):
    from drivers.network import JoinFailed

    program = tmp_path / "nmcli"
    program.write_text("#!/bin/sh\nexec sleep 600\n")
    program.chmod(0o755)
    with pytest.raises(JoinFailed) as late:
        Nmcli(str(program), timeout=0.2)._up("0000000a-aaaa-4bbb-8ccc-dddddddddddd", None)
    assert late.value.reason == "timeout"
