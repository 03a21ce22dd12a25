"""``companion serve``: the whole appliance as a real process in simulation
mode, driven through its panel and its virtual buttons; stopped, killed and
started again with nothing acknowledged lost.  And how phones find it."""

from __future__ import annotations

import http.client
import http.cookiejar
import io
import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from web import discovery

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Ana", "Ben", "Cy"]

# Tests that start the companion as a process.
slow = pytest.mark.slow


# -- a companion process, and a phone -----------------------------------------------------


class Companion:
    """``python -m companion serve --simulate`` on a temporary data directory."""

    GREETING = re.compile(r"^Open http://127\.0\.0\.1:(\d+)/virtual$")
    JOIN = re.compile(r"^Join as a player: (\S+) \(PIN (\d+)\)$")

    def __init__(self, config: Path, *extra: str, env: dict | None = None) -> None:
        self.lines: list[str] = []
        self.port: int | None = None
        self.pin: str | None = None
        self._ready = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", *extra, "--config", str(config)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=env or {**os.environ, "PYTHONUNBUFFERED": "1"})
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(30) or self.port is None or self.pin is None:
            self.kill()
            raise AssertionError("the companion did not greet:\n" + "\n".join(self.lines))

    def _read(self) -> None:
        for line in self.process.stdout:
            line = line.rstrip("\n")
            self.lines.append(line)
            if match := self.GREETING.match(line):
                self.port = int(match[1])
            elif match := self.JOIN.match(line):
                self.pin = match[2]
                self._ready.set()
        self._ready.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def terminate(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(30)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(30)

    def log(self) -> str:
        return "\n".join(self.lines)


class Phone:
    """A browser session on the panel: its cookie and CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = self.get("/api/session")["csrf"]
        # The game a command names: the one at the table, or the one started.
        self.game_id = self.get("/api/state")["game_id"]

    def get(self, path: str):
        with self.opener.open(self.base + path, timeout=10) as answer:
            return json.load(answer)

    def post(self, path: str, body: dict | None = None):
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body or {}).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=10) as answer:
            return json.load(answer)

    def join(self, pin: str) -> None:
        assert self.post("/api/join", {"pin": pin})["role"] == "controller"

    def new_game(self) -> dict:
        shown = self.get("/api/state")
        started = self.post("/api/new-game", {"game": "call-of-nature", "players": PLAYERS,
                                              "game_id": shown["game_id"],
                                              "version": shown["version"]})
        self.game_id = started["game_id"]
        return started

    def play(self, name: str, version: int, **args) -> dict:
        return self.post("/api/command", {"command": {"name": name, "args": args},
                                          "game_id": self.game_id, "version": version})


def write_config(folder: Path, **extra: str) -> Path:
    lines = [f'data_dir = "{folder / "data"}"']
    lines += [f"{key} = {value}" for key, value in extra.items()]
    lines += ["[web]", 'host = "127.0.0.1"', "port = 0", "mdns = false"]
    path = folder / "config.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def config(tmp_path) -> Path:
    return write_config(tmp_path)


@pytest.fixture
def companion(config):
    running = Companion(config, "--simulate")
    yield running
    running.kill()


def joined(companion: Companion) -> Phone:
    phone = Phone(companion.url)
    phone.join(companion.pin)
    return phone


def wait_for(check, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


# -- playing ---------------------------------------------------------------------------------


@slow
def test_a_game_is_started_and_played_from_the_panel(companion):
    phone = joined(companion)
    started = phone.new_game()
    played = phone.play("card", started["version"], value=5)
    assert played["state"]["pressure"] == 5
    assert phone.get("/api/state")["version"] == started["version"] + 1


@slow
def test_a_spectator_cannot_press_the_virtual_buttons(companion):
    phone = Phone(companion.url)
    with pytest.raises(urllib.error.HTTPError) as refused:
        phone.post("/api/keys/ok")
    assert refused.value.code == 403


@slow
def test_the_virtual_buttons_play_a_card_through_the_mock_pins(companion):
    phone = joined(companion)
    # The companion's own Wi-Fi opens once its part has started (after the
    # panel answers) and puts its join screens up over the game: the keys
    # wait for it, as a player waits for the screen.
    wait_for(lambda: phone.get("/api/network")["mode"] == "hotspot")
    started = phone.new_game()
    for key in ("up", "up", "up", "ok"):  # a card of +3
        phone.post(f"/api/keys/{key}")
        time.sleep(0.05)  # further apart than the debounce window, as fingers are
    state = wait_for(lambda: (s := phone.get("/api/state"))["version"] > started["version"] and s)
    assert state["state"]["pressure"] == 3
    last = phone.get("/api/history")["entries"][-1]
    assert (last["text"], last["source"]) == ("card value=3", "buttons")


@slow
def test_the_panel_mirrors_the_display(companion):
    with urllib.request.urlopen(companion.url + "/api/screen.png", timeout=10) as answer:
        png = answer.read()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    from PIL import Image

    assert Image.open(io.BytesIO(png)).size == (128, 64)


@slow
def test_a_roll_from_the_panel_goes_through_the_simulated_dice_device(tmp_path):
    companion = Companion(write_config(tmp_path), "--simulate")
    try:
        phone = joined(companion)
        phone.post("/api/dice", {"source": "serial"})
        version = phone.new_game()["version"]
        # Pressure reaching 50 calls a Respite: Ben rolls a d6.
        for value in (30, 20):
            version = phone.play("card", version, value=value)["version"]
        rolled = phone.post("/api/dice/roll", {"game_id": phone.game_id, "version": version})
        entries = phone.get("/api/history")["entries"]
        assert entries[-1]["command"] == {"name": "roll", "args": {"values": rolled["values"]}}
        assert entries[-1]["source"] == "dice"
    finally:
        companion.kill()


# -- stopping and starting again -----------------------------------------------------------


@slow
def test_sigterm_stops_cleanly_and_a_restart_finds_the_game(config):
    first = Companion(config, "--simulate")
    phone = joined(first)
    version = phone.new_game()["version"]
    for value in (4, -2, 7):
        version = phone.play("card", version, value=value)["version"]
    before = phone.get("/api/state")
    assert first.terminate() == 0
    assert "stopped" in first.log()

    second = Companion(config, "--simulate")
    try:
        after = Phone(second.url).get("/api/state")
        assert (after["version"], after["state"]) == (before["version"], before["state"])
    finally:
        second.kill()


@slow
def test_a_joined_phone_stays_joined_across_a_restart(config):
    first = Companion(config, "--simulate")
    phone = joined(first)
    first.terminate()
    second = Companion(config, "--simulate")
    try:
        phone.base = second.url
        assert phone.get("/api/session")["role"] == "controller"
    finally:
        second.kill()


@slow
def test_sigkill_at_random_moments_loses_no_acknowledged_command(config):
    """A phone keeps sending notes and records each one the panel
    acknowledged; the process is killed at a random moment, three times."""
    acknowledged: dict[int, str] = {}
    rng = random.Random(20240601)
    companion = Companion(config, "--simulate")
    version = joined(companion).new_game()["version"]
    for round_ in range(3):
        phone = joined(companion)
        stop = threading.Event()

        def keep_playing(phone=phone, stop=stop, round_=round_):
            nonlocal version
            n = 0
            while not stop.is_set():
                text = f"round {round_} note {n}"
                try:
                    version = phone.play("note", version, text=text)["version"]
                except (OSError, http.client.HTTPException):
                    return  # killed: this one was never acknowledged
                acknowledged[version] = f"note text={text}"
                n += 1

        player = threading.Thread(target=keep_playing)
        player.start()
        time.sleep(rng.uniform(0.3, 1.2))
        companion.process.kill()
        companion.process.wait(30)
        stop.set()
        player.join(30)
        companion = Companion(config, "--simulate")
        version = Phone(companion.url).get("/api/state")["version"]
    try:
        history = Phone(companion.url).get("/api/history")["entries"]
        kept = {entry["version"]: entry["text"] for entry in history}
        assert len(acknowledged) > 10
        missing = {v: text for v, text in acknowledged.items() if kept.get(v) != text}
        assert missing == {}
    finally:
        companion.kill()


@slow
def test_the_roll_key_rolls_what_the_game_waits_for(companion):
    phone = joined(companion)
    version = phone.new_game()["version"]
    for value in (30, 20):  # pressure 50: Ben rolls a d6 for the Respite
        version = phone.play("card", version, value=value)["version"]
    phone.post("/api/keys/roll")
    wait_for(lambda: phone.get("/api/state")["version"] > version)
    last = phone.get("/api/history")["entries"][-1]
    assert last["command"]["name"] == "roll" and last["source"] == "dice"
    assert 1 <= last["command"]["args"]["values"][0] <= 6


# -- stopping, in the process ------------------------------------------------------------------


@pytest.fixture
def appliance(tmp_path):
    from companion.daemon import Daemon
    from companion.host.config import Config

    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    yield running
    running.stop()


class Writes(io.StringIO):
    """A stream that keeps each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


def test_the_greeting_writes_each_line_whole(appliance):
    # On a stream shared with the log (unbuffered: a terminal, the journal),
    # a line written in two parts can take another thread's log line
    # between its text and its end.
    appliance.out = out = Writes()
    appliance._greet()
    lines = [line for write in out.writes for line in write.splitlines(keepends=True)]
    assert [line.split(" ")[0] for line in lines] == ["Open", "Join"]
    assert all(write.endswith("\n") for write in out.writes)
    assert Companion.JOIN.match(lines[1].rstrip("\n"))


def test_stopping_closes_the_journal_before_the_display_says_off(appliance):
    happened = []
    table, display = appliance.table_part.table, appliance.part("display").display
    close_table, display_off = table.close, display.off
    table.close = lambda: (happened.append("journal closed"), close_table())
    display.off = lambda message: (happened.append(message), display_off(message))
    appliance.stop()
    assert happened == ["journal closed", "Companion is off"]
    assert display.status == "closed"


def test_stopping_lets_the_command_in_progress_finish(appliance):
    from companion.core.engine import Command

    table = appliance.table_part.table
    table.new_game("call-of-nature", PLAYERS)
    in_progress, finish = threading.Event(), threading.Event()

    def a_slow_command():
        with table._lock:  # what submit holds while it writes
            in_progress.set()
            finish.wait(10)
            table.submit(Command("card", {"value": 2}), source="test")

    worker = threading.Thread(target=a_slow_command)
    worker.start()
    in_progress.wait(5)
    stopper = threading.Thread(target=appliance.stop)
    stopper.start()
    stopper.join(0.5)
    assert stopper.is_alive()  # waiting for the command
    finish.set()
    worker.join(10)
    stopper.join(10)
    assert not stopper.is_alive()
    from companion.core.journal import Journal
    from companion.core.table import Table

    again = Table(Journal.open(appliance.directory / "companion.db"))
    try:
        assert again.history()[-1].text == "card value=2"
    finally:
        again.close()


# -- where the journal lives ------------------------------------------------------------------


def test_the_config_names_the_data_directory(tmp_path):
    from companion.host.config import Config
    from companion.host.storage import data_dir

    chosen = Config(data_dir=str(tmp_path))
    assert data_dir(chosen, simulate=True, environ={"STATE_DIRECTORY": "/x"}) == tmp_path


def test_the_service_keeps_its_journal_in_its_state_directory():
    from companion.host.config import Config
    from companion.host.storage import data_dir

    assert data_dir(Config(), False, {"STATE_DIRECTORY": "/var/lib/companion"}) == \
        Path("/var/lib/companion")


def test_a_simulation_keeps_its_journal_in_the_users_data_directory(monkeypatch, tmp_path):
    from companion.host.config import Config
    from companion.host.storage import data_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_dir(Config(), True, {}) == tmp_path / "companion"


def test_a_user_who_cannot_write_the_service_directory_uses_their_own(monkeypatch, tmp_path):
    from companion.host import config as config_module
    from companion.host.config import Config
    from companion.host.storage import data_dir

    (tmp_path / "file").write_text("")
    monkeypatch.setattr(config_module, "SERVICE_DATA_DIR", tmp_path / "file" / "companion")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    assert data_dir(Config(), False, {}) == tmp_path / "home" / "companion"


# -- hardware that is not there --------------------------------------------------------------


@slow
def test_without_display_gpio_or_dice_device_the_panel_still_plays(tmp_path):
    """Off a Pi, the real drivers find nothing: each is a fault on the
    panel, and the game goes on from the phones."""
    cfg = write_config(tmp_path)
    cfg.write_text(cfg.read_text().replace("[web]", '[dice]\nsource = "serial"\n[serial]\n'
                                           f'port = "{tmp_path / "ttyUSB0"}"\n[web]'))
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--config", str(cfg)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        for line in process.stdout:
            if match := re.search(r"panel at http://[^:]+:(\d+)/", line):
                port = int(match[1])
                break
        assert port is not None
        faults = Phone(f"http://127.0.0.1:{port}").get("/api/session")["companion"]["faults"]
        assert any(f.startswith("display: no display at 0x3C on I2C bus 1") for f in faults)
        assert any(f.startswith("buttons: ") for f in faults)
        assert any(f.startswith(f"dice device: waiting for {tmp_path / 'ttyUSB0'}") for f in faults)
    finally:
        process.kill()
        process.wait(30)


def test_a_fault_appearing_is_shown_on_the_table_screen_but_not_the_displays_own(appliance):
    from PIL import Image, ImageChops

    from companion.parts.screen import fault_screen

    unplugged = "dice device: waiting for /dev/ttyUSB0: not plugged in"
    appliance.part("display").fault = lambda: "display: no display at 0x3C on I2C bus 1"
    appliance.part("dice").fault = lambda: unplugged
    appliance._tick()
    expected = fault_screen(unplugged)

    def shows_the_fault() -> bool:
        shown = Image.open(io.BytesIO(appliance.part("screen").png())).convert("1")
        return ImageChops.difference(shown, expected).getbbox() is None

    wait_for(shows_the_fault, timeout=3.0)  # within the first moment


def test_a_memory_card_that_cannot_be_written_comes_back_on_the_table_screen_while_it_lasts(
        appliance, monkeypatch):
    from PIL import Image, ImageChops

    from companion.core.text import say
    from companion.parts import screen as screen_part
    from companion.parts.bus import FaultsNow, FrameShown
    from companion.parts.screen import fault_screen
    from tests.test_menu import ZERO_CARD, fill_the_card, free_the_card

    # A moment and a minute at the table, here a fraction of a second.
    monkeypatch.setattr(screen_part, "FAULT_SECONDS", 0.2)
    monkeypatch.setattr(screen_part, "FAULT_AGAIN_SECONDS", 0.6)
    told: list[FaultsNow] = []
    frames: list = []
    bus = appliance.setup.bus
    bus.subscribe(FaultsNow, told.append)
    bus.subscribe(FrameShown, lambda shown: frames.append(shown.image.copy()))
    table = appliance.table_part.table
    table.new_game("call-of-nature", PLAYERS)
    fill_the_card(table)
    appliance._tick()
    full = "T" + say("refusal.card-full", "en")[1:]
    assert told[-1].lasting == (full,) and full in told[-1].faults
    card = fault_screen(full)

    def is_card(frame) -> bool:
        return ImageChops.difference(frame.convert("1"), card).getbbox() is None

    def shown_times() -> int:
        """How many times the card's fault came on the screen."""
        marks = [is_card(frame) for frame in list(frames)]
        return sum(1 for before, now in zip([False, *marks], marks, strict=False)
                   if now and not before)

    wait_for(lambda: shown_times() >= 3)  # shown, and again, and again
    # Room again: the next move is written, and the fault is no more.
    free_the_card(table)
    table.submit(ZERO_CARD)
    appliance._tick()
    assert told[-1].lasting == () and full not in told[-1].faults
    wait_for(lambda: not is_card(Image.open(io.BytesIO(appliance.part("screen").png()))))
    after = len(frames)
    time.sleep(3 * 0.6)  # three times as long as it took to come back
    assert not any(is_card(frame) for frame in frames[after:])


def test_a_date_not_known_is_a_fault_of_the_table_that_lasts(tmp_path, monkeypatch):
    from companion.core.text import say
    from companion.daemon import Daemon
    from companion.host.config import Config
    from companion.parts.bus import FaultsNow

    monkeypatch.setenv("COMPANION_CLOCK_SYNCED", "0")
    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    try:
        told: list[FaultsNow] = []
        running.setup.bus.subscribe(FaultsNow, told.append)
        running._tick()
    finally:
        running.stop()
    assert told[-1].lasting == (say("menu.date-unknown", "en"),)


def pin_library_failing_with(monkeypatch, failure: Exception) -> None:
    """gpiozero finding no usable pin library, the way it looks for one."""
    from gpiozero import Device

    def no_pin_library():
        raise failure

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_pin_library))


def test_buttons_off_a_pi_say_to_run_the_simulation(monkeypatch):
    from gpiozero.exc import BadPinFactory

    from companion.parts.hardware import KeypadPart
    from companion.parts.lifecycle import PartContext

    pin_library_failing_with(monkeypatch, BadPinFactory("Unable to load any default pin factory!"))
    buttons = KeypadPart(PartContext())
    buttons.start()
    assert buttons.fault() == (
        "buttons: no GPIO found: on a Raspberry Pi, install lgpio in the companion's "
        "environment and check with 'companion doctor'; on another computer, run "
        "'companion serve --simulate'")


def test_outputs_without_permission_on_the_gpio_say_which_group_to_join(monkeypatch):
    from companion.parts.hardware import OutputsPart
    from companion.parts.lifecycle import PartContext

    pin_library_failing_with(monkeypatch, PermissionError(13, "Permission denied",
                                                          "/dev/gpiochip0"))
    outputs = OutputsPart(PartContext(), table=None)
    outputs.start()
    assert outputs.fault() == ("buzzer and LEDs: no permission to use the GPIO (/dev/gpiochip0): "
                               "add the companion's user to the 'gpio' group")


# -- the command line --------------------------------------------------------------------------


@slow
def test_a_missing_config_file_named_on_the_command_line_is_exit_status_2(tmp_path):
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--simulate",
                           "--config", str(tmp_path / "nowhere.toml")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"no config file at {tmp_path / 'nowhere.toml'}" in done.stderr


@slow
def test_a_bad_config_value_is_exit_status_2_naming_the_key(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text('[dice]\nsource = "cup"\n')
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--simulate",
                           "--config", str(cfg)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert ("[dice] source must be one of 'button', 'manual', 'serial', 'pixels', not 'cup'"
            in done.stderr)


# -- discovery ----------------------------------------------------------------------------------


class FakeZeroconf:
    def __init__(self) -> None:
        self.registered: list = []
        self.unregistered: list = []
        self.closed = False

    def register_service(self, info, allow_name_change=False):
        self.registered.append(info)

    def unregister_service(self, info):
        self.unregistered.append(info)

    def close(self):
        self.closed = True


def test_the_panel_is_advertised_by_name_with_its_path():
    info = discovery.service_info("Tabletop Companion", "192.168.1.20", 8080,
                                  server="companion.local.")
    assert info.type == "_http._tcp.local."
    assert info.name == "Tabletop Companion._http._tcp.local."
    assert (info.parsed_addresses(), info.port) == (["192.168.1.20"], 8080)
    assert info.properties == {b"path": b"/"}
    assert info.server == "companion.local."


def test_the_advertiser_registers_then_says_goodbye():
    fake = FakeZeroconf()
    advertiser = discovery.PanelAdvertiser("Tabletop Companion", 8080,
                                           zeroconf_factory=lambda: fake, server="pi.local.")
    advertiser.advertise("192.168.1.20", wait=True)
    advertiser.close()
    assert [i.parsed_addresses() for i in fake.registered] == [["192.168.1.20"]]
    assert fake.unregistered == fake.registered and fake.closed


def test_a_new_address_is_advertised_again():
    fake = FakeZeroconf()
    advertiser = discovery.PanelAdvertiser("T", 8080, zeroconf_factory=lambda: fake,
                                           server="pi.local.")
    advertiser.advertise("192.168.1.20", wait=True)
    assert advertiser.advertise("192.168.1.20") is None  # unchanged: nothing to do
    advertiser.advertise("10.0.0.7", wait=True)
    assert [i.parsed_addresses() for i in fake.registered] == [["192.168.1.20"], ["10.0.0.7"]]
    assert fake.unregistered == fake.registered[:1]


def test_loopback_is_never_advertised():
    fake = FakeZeroconf()
    advertiser = discovery.PanelAdvertiser("T", 8080, zeroconf_factory=lambda: fake)
    assert advertiser.advertise("127.0.0.1") is None
    assert fake.registered == [] and "no network address" in advertiser.status


def test_a_machine_without_network_is_warned_of_once_not_on_every_tick(caplog):
    advertiser = discovery.PanelAdvertiser("T", 8080, zeroconf_factory=FakeZeroconf)
    with caplog.at_level("WARNING", logger="web.discovery"):
        for _ in range(3):
            advertiser.advertise("127.0.0.1")
    assert len(caplog.records) == 1


def test_phones_get_the_address_of_the_route_to_the_local_network():
    routes = {"192.168.255.255": None, "10.255.255.255": "10.1.2.3"}
    assert discovery.phone_address(route=routes.get, by_hostname=lambda: None) == "10.1.2.3"


def test_a_pi_that_is_the_hotspot_gives_its_wifi_address():
    # NetworkManager's hotspot: no route beyond 10.42.0.0/24, and Debian maps
    # the host name to 127.0.1.1.
    interfaces = [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlan0", "10.42.0.1")]
    assert discovery.phone_address(route=lambda d: None, interfaces=lambda: interfaces,
                                   by_hostname=lambda: "127.0.1.1") == "10.42.0.1"


def test_the_interfaces_are_read_from_the_kernel_with_loopback_among_them():
    assert ("lo", "127.0.0.1") in discovery.interface_addresses()


def test_without_a_route_or_an_interface_the_host_name_decides():
    assert discovery.phone_address(route=lambda d: None, interfaces=list,
                                   by_hostname=lambda: "192.168.0.9") == "192.168.0.9"


def test_a_host_name_on_loopback_falls_back_to_loopback():
    # Debian maps the host name to 127.0.1.1: phones cannot use that.
    assert discovery.phone_address(route=lambda d: None, interfaces=lambda: [("lo", "127.0.0.1")],
                                   by_hostname=lambda: "127.0.1.1") == "127.0.0.1"


def test_a_panel_listening_everywhere_links_to_the_wifi_address():
    assert discovery.reachable_host("0.0.0.0", route=lambda d: "192.168.1.20") == "192.168.1.20"


def test_the_join_screen_carries_the_reachable_address_the_token_and_the_pin(appliance):
    appliance.part("address").host = "192.168.1.20"
    access = appliance.part("panel").access
    url, pin = appliance.part("address").join_info()
    assert url == f"http://192.168.1.20:{appliance.part('panel').port}/?join={access.token}"
    assert pin == access.pin and len(pin) == 6


def test_the_pin_survives_a_restart_until_the_menu_signs_every_phone_out(appliance, tmp_path):
    from companion.daemon import Daemon
    from companion.host.config import Config

    appliance.part("address").host = "192.168.1.20"
    url, pin = appliance.part("address").join_info()
    old_port = appliance.part("panel").port
    appliance.stop()
    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    again = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    again.start()
    try:
        again.part("address").host = "192.168.1.20"
        port = again.part("panel").port
        assert again.part("address").join_info() == (url.replace(f":{old_port}/", f":{port}/"),
                                                     pin)
        phone = Phone(f"http://127.0.0.1:{port}")
        phone.join(pin)
        new_url, new_pin = again.part("address").sign_out()  # the menu's "Sign out phones"
        assert new_pin != pin
        assert new_url.partition("?join=")[2] != url.partition("?join=")[2]
        assert (new_url, new_pin) == again.part("address").join_info()
        assert phone.get("/api/session")["role"] == "spectator"
        assert (tmp_path / "data" / "panel-access.db").stat().st_mode & 0o777 == 0o600
    finally:
        again.stop()


def test_a_panel_bound_to_one_address_links_to_it():
    assert discovery.reachable_host("192.168.1.5", route=lambda d: "10.0.0.1") == "192.168.1.5"


# -- the start on a slow core -----------------------------------------------------------------


def test_the_panel_answers_while_the_screen_is_still_starting(tmp_path, monkeypatch):
    """READY comes once the panel answers, before the parts behind it: the
    screen's start is held here, and a phone is answered meanwhile."""
    from companion import daemon as daemon_module
    from companion.daemon import Daemon
    from companion.host.config import Config
    from companion.parts.screen import ScreenPart

    starting, release = threading.Event(), threading.Event()
    start_screen = ScreenPart.start

    def held_start(self):
        starting.set()
        assert release.wait(30)
        start_screen(self)

    monkeypatch.setattr(ScreenPart, "start", held_start)
    notified = []
    monkeypatch.setattr(daemon_module, "sd_notify",
                        lambda message, environ=None: notified.append(message) or True)
    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    starter = threading.Thread(target=running.start)
    starter.start()
    try:
        assert starting.wait(30)
        assert running.is_ready and notified[0].startswith("READY=1")
        assert running.part("screen") is not None and not running.part("screen").alive
        with urllib.request.urlopen(f"http://127.0.0.1:{running.part('panel').port}/api/health",
                                    timeout=10) as answer:
            assert answer.status == 200
    finally:
        release.set()
        starter.join(30)
        running.stop()
    assert running.part("screen").alive is False  # stopped with the rest
    assert [m for m in notified if m.startswith("READY")] == [notified[0]]


READY_MODULES = """
import io, json, sys
from companion import daemon
from companion.host.config import Config

at_ready = []
daemon.sd_notify = lambda message, environ=None: (
    message.startswith("READY=1") and at_ready.append(sorted(sys.modules))) or True
running = daemon.Daemon(Config(data_dir=sys.argv[1]).with_web(host="127.0.0.1", port=0),
                        simulate=True, environ={}, out=io.StringIO())
try:
    running.start()
    print(json.dumps({"ready": at_ready[0], "started": sorted(sys.modules)}))
finally:
    running.stop()
"""

# What the panel's start does without: the display, the keys, the screens'
# fonts and QR codes, the dice drivers, the menu, the game engines.
NOT_BEFORE_READY = ("PIL", "luma", "gpiozero", "qrcode", "serial", "bleak", "zeroconf",
                    "drivers.oled", "drivers.screens", "drivers.buttons", "drivers.serial_dice",
                    "drivers.pixels", "drivers.network", "companion.core.menu",
                    "companion.parts.screen", "companion.core.games.call_of_nature",
                    "companion.core.games.ohshit", "companion.core.games.bathroom_rush")


def test_the_start_imports_only_what_the_panel_needs_before_ready(tmp_path):
    done = subprocess.run([sys.executable, "-c", READY_MODULES, str(tmp_path / "data")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout.strip().splitlines()[-1])

    def loaded(names):
        return {prefix for prefix in NOT_BEFORE_READY
                if any(name == prefix or name.startswith(prefix + ".") for name in names)}

    assert "flask" in modules["ready"] and loaded(modules["ready"]) == set()
    # They do load once the rest has started (the menu lists the games).
    assert {"PIL", "gpiozero", "drivers.oled", "companion.core.menu"} <= loaded(modules["started"])


def test_every_part_that_listens_starts_before_the_parts_whose_news_it_hears(appliance):
    """The table and the panel first; then the screen and the address,
    which hear the keys, the dice and the Wi-Fi on the bus, before the
    buttons, the dice and the Wi-Fi start telling."""
    order = [part.name for part in appliance.started]
    assert order[:2] == ["table", "panel"]
    for listener in ("screen", "address"):
        for teller in ("buttons", "dice", "pixels", "network"):
            assert order.index(listener) < order.index(teller), (listener, teller)
    assert order.index("display") < order.index("screen")


def test_the_screen_draws_without_the_panels_join_details_until_the_panel_is_there(tmp_path):
    # A panel that could not be made (its data directory refused it) has no
    # PIN yet: the screen's join view is drawn without it, nothing raises.
    from companion.host.config import Config
    from companion.parts.lifecycle import PartContext
    from companion.parts.web import AddressPart, WebPart

    setup = PartContext(config=Config(), directory=tmp_path)
    panel = WebPart(setup, table=None, time=None, dice=None, pixels=None, keypad=None,
                    network=None, venue=None)
    address = AddressPart(setup, panel=panel)
    assert panel.access is None
    assert address.join_info() == ("", "")
    assert address.sign_out() == ("", "")


# -- a port that is taken ----------------------------------------------------------


@pytest.mark.parametrize("simulate", [True, False])
def test_a_taken_port_is_said_in_one_line_with_how_to_choose_another(table, tmp_path, caplog,
                                                                     simulate):
    import dataclasses
    import socket

    from companion.host.config import Config
    from companion.parts.lifecycle import PartContext
    from companion.parts.web import WebPart

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    config = Config()
    config = dataclasses.replace(config, web=dataclasses.replace(config.web, host="127.0.0.1",
                                                                 port=port))
    part = WebPart(PartContext(config=config, directory=tmp_path, simulate=simulate),
                   table=table, time=None, dice=None, pixels=None, keypad=None, network=None,
                   venue=None)
    try:
        with caplog.at_level(logging.WARNING):
            part.start()
        said = [r.getMessage() for r in caplog.records if r.name.startswith("companion")]
        if simulate:
            # On a laptop: the next free port, said once.
            assert part.serving and part.port > port
            assert said == [f"port {port} is taken (another program listens there): the panel "
                            f"is on port {part.port} instead; choose one with --port"]
        else:
            # The appliance waits for its port (tried again), and says how to choose another.
            assert not part.serving
            assert "another program listens there" in part.fault()
            assert "--port or [web] port in the config" in part.fault()
    finally:
        part.stop()
        taken.close()
