"""The Wi-Fi driver against the real NetworkManager and the real nmcli
(tests/real_network_manager.py: a private daemon on a private system bus),
and the stand-in nmcli's formats (tests/nmcli_stand_in.py) checked against
what the real one prints.  Skipped, with the reason, where NetworkManager
cannot run (not root, not installed, no namespaces)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from drivers.network import Nmcli, passwd_file_text, split_terse, unescape
from tests import nmcli_stand_in
from tests import real_network_manager as real

WHY = real.unavailable()
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")

STAND_IN = Path(__file__).with_name("nmcli_stand_in.py")
WIRED_UUID = "5f2c9a8e-0000-4000-8000-000000000001"  # the stand-in's wired profile
CAFE = "Café 🎲 Wi-Fi"
# name, ssid, mode: a colon and a backslash in each, a name that is not ASCII.
PROFILES = [
    ("Home", "Home", "infrastructure"),
    (CAFE, CAFE, "infrastructure"),
    ("a:b\\c", "x:y\\z", "infrastructure"),
    ("Companion hotspot", "Companion-4821", "ap"),
]


@pytest.fixture(scope="module")
def manager():
    # A short path: a unix socket's path has at most 107 bytes.
    folder = Path(tempfile.mkdtemp(prefix="companion-nm-"))
    try:
        started = real.start(folder)
    except RuntimeError as exc:
        pytest.skip(f"the private NetworkManager did not start: {exc}")
    yield started
    started.stop()
    subprocess.run(["rm", "-rf", str(folder)], check=False)


@pytest.fixture
def nm(manager, monkeypatch):
    """The private NetworkManager with no profile, nmcli talking to it."""
    manager.clear()
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", manager.address)
    # The driver runs the nmcli the private daemon answers (see real.as_root).
    monkeypatch.setenv("PATH", f"{manager.bin}{os.pathsep}{os.environ.get('PATH', '')}")
    yield manager
    manager.clear()


def add_profiles(nm) -> dict[str, str]:
    """The PROFILES and a wired one; their uuids by name."""
    uuids = {}
    for name, ssid, mode in PROFILES:
        said = nm.out("connection", "add", "type", "wifi", "ifname", "*", "con-name", name,
                      "ssid", ssid, "802-11-wireless.mode", mode, "connection.autoconnect", "no")
        uuids[name] = re.search(r"\(([0-9a-f-]{36})\)", said).group(1)
    nm.out("connection", "add", "type", "ethernet", "ifname", "*", "con-name",
           "Wired connection 1", "connection.uuid", WIRED_UUID, "connection.autoconnect", "no")
    return uuids


# -- the driver against the real thing ---------------------------------------------------------


def test_the_driver_reads_every_saved_profile_with_its_own_name_and_mode(nm):
    uuids = add_profiles(nm)
    saved = sorted((c.name, c.uuid, c.ssid, c.mode) for c in Nmcli().connections())
    assert saved == sorted((name, uuids[name], ssid, mode) for name, ssid, mode in PROFILES)
    assert Nmcli().known() == sorted([CAFE, "Home", "x:y\\z"])


def test_several_profiles_come_in_blocks_with_an_empty_line_between(nm):
    uuids = add_profiles(nm)
    home, odd = uuids["Home"], uuids["a:b\\c"]
    out = nm.out("-g", "connection.uuid,802-11-wireless.ssid,802-11-wireless.mode",
                 "connection", "show", "uuid", home, "uuid", odd)
    assert out == (home + "\nHome\ninfrastructure\n\n" +
                   odd + "\nx\\:y\\\\z\ninfrastructure\n")


def test_terse_output_escapes_colons_and_backslashes(nm):
    uuids = add_profiles(nm)
    rows = [split_terse(line) for line in
            nm.out("-t", "-f", "NAME,UUID,TYPE", "connection", "show").splitlines()]
    assert ["a:b\\c", uuids["a:b\\c"], "802-11-wireless"] in rows
    assert unescape(nm.out("-g", "802-11-wireless.ssid", "connection", "show", "uuid",
                           uuids["a:b\\c"]).strip()) == "x:y\\z"


def test_in_the_c_locale_nmcli_prints_a_name_that_is_not_ascii_as_question_marks(nm):
    add_profiles(nm)
    as_c = nm.nmcli("-t", "-f", "NAME", "connection", "show",
                    env={**nm.env, "LC_ALL": "C"}).stdout.decode()
    assert "Caf? ? Wi-Fi" in as_c.splitlines()
    assert CAFE in [c.name for c in Nmcli().connections()]  # the driver's locale keeps it


def test_forgetting_deletes_every_profile_of_that_network(nm):
    add_profiles(nm)
    nm.out("connection", "add", "type", "wifi", "ifname", "*", "con-name", "Home (2)",
           "ssid", "Home", "connection.autoconnect", "no")
    assert Nmcli().forget("Home") is True
    left = sorted(c.name for c in Nmcli().connections())
    assert left == sorted(["Companion hotspot", CAFE, "a:b\\c"])
    assert "Wired connection 1" in nm.out("-t", "-f", "NAME", "connection", "show")
    assert Nmcli().forget("Home") is False


def test_a_profile_deleted_meanwhile_is_left_out_not_an_error(nm):
    uuids = add_profiles(nm)
    ids = ["uuid", uuids["Home"], "uuid", "00000000-0000-4000-8000-00000000dead"]
    done = nm.nmcli("-g", "connection.uuid,802-11-wireless.ssid,802-11-wireless.mode",
                    "connection", "show", *ids, check=False)
    assert done.returncode == 10  # what the driver takes as "gone"
    assert done.stdout.decode() == f"{uuids['Home']}\nHome\ninfrastructure\n"


SECRETS = ["back\\slash-pass", "  spaces at both ends  ", "ends in a backslash\\",
           "#hash:colon=equals", " \\ \\\\ \\ ", "\\n is not a line break", "tab\tand é"]
# The saved secret is read back over D-Bus, not with nmcli --show-secrets
# (PrivateNetworkManager.saved_secrets says why).
reads_secrets = pytest.mark.skipif(real.no_secrets_reader() is not None,
                                   reason=real.no_secrets_reader() or "")


def add_8021x_profile(nm: real.PrivateNetworkManager, name: str) -> str:
    """A wired 802.1X profile on the veth device, without its password; its uuid."""
    said = nm.out("connection", "add", "type", "ethernet", "ifname", real.DEVICE,
                  "con-name", name, "connection.autoconnect", "no",
                  "802-1x.eap", "peap", "802-1x.phase2-auth", "mschapv2",
                  "802-1x.identity", "player", "ipv4.method", "disabled",
                  "ipv6.method", "disabled")
    found = re.search(r"\(([0-9a-f-]{36})\)", said)
    assert found is not None, said
    return found.group(1)


def assert_past_the_secret(said: str) -> None:
    """``nmcli connection up`` failed for want of a supplicant (none runs
    here): the daemon had asked nmcli's agent for the secret and saved the
    one it gave before the activation went on (get_secrets_done_cb in
    nm-settings-connection.c), so the profile holds it now."""
    assert "802.1X supplicant" in said, f"the activation stopped before the secret: {said}"


@reads_secrets
def test_a_passwd_file_is_read_by_nmcli_as_the_driver_meant_it(nm):
    """NetworkManager asks nmcli's agent for the 802.1X password of a wired
    profile on the veth device; nmcli answers from the driver's passwd-file,
    and the daemon saves it: what it saved is the secret, exactly."""
    uuid = None
    for secret in SECRETS:
        if uuid is not None:
            nm.nmcli("connection", "delete", "uuid", uuid)
        uuid = add_8021x_profile(nm, "secret")
        # No supplicant runs here: the activation fails once the secret is in.
        # nmcli waits for that (a machine under load may ask for the secret
        # later than a second after the start).
        done = Nmcli()._run("--wait", "20", "connection", "up", "uuid", uuid, check=False,
                            passwords={"802-1x.identity": "player", "802-1x.password": secret},
                            timeout=30)
        assert_past_the_secret(done.stderr)
        assert nm.saved_secrets(uuid, "802-1x").get("password") == secret
        # The stand-in reads the file as the real nmcli does.
        assert nmcli_stand_in.read_passwd_file(passwd_file_text(
            {"802-1x.password": secret})) == {"802-1x.password": secret}


@reads_secrets
def test_a_password_written_raw_is_not_read_back_by_nmcli(nm):
    """The control: written as it is, a backslash is lost."""
    uuid = add_8021x_profile(nm, "raw")
    file = nm.folder / "raw-passwords"
    file.write_text("802-1x.identity:player\n802-1x.password: back\\slash \n")
    done = nm.nmcli("--wait", "20", "connection", "up", "uuid", uuid, "passwd-file", str(file),
                    check=False)
    assert_past_the_secret(done.stderr.decode(errors="replace"))
    assert nm.saved_secrets(uuid, "802-1x").get("password") == "backslash"


def test_networkmanager_answers_and_the_driver_sees_no_wifi_device(nm):
    nmcli = Nmcli()
    assert nmcli.running()
    assert nmcli.wifi_device() is None
    assert nmcli.state().kind == "no-device"
    assert nmcli.connectivity() in ("none", "unknown", "limited", "portal", "full")


def test_without_networkmanager_or_without_the_bus_the_driver_says_which(nm, monkeypatch,
                                                                         tmp_path):
    from companion.commands import doctor

    folder = Path(tempfile.mkdtemp(prefix="companion-bus-"))
    config = folder / "bus.conf"
    config.write_text(real.BUS_CONFIG.format(socket=folder / "bus"))
    bus = subprocess.Popen([*real.as_root(), real.programs()["dbus-daemon"],
                            f"--config-file={config}", "--nofork", "--print-address"],
                           stdout=subprocess.PIPE, text=True)
    try:
        monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", bus.stdout.readline().strip())
        state = Nmcli().state()
        assert (state.kind, state.detail) == ("no-manager", "NetworkManager is not running")
        finding = doctor.check_wifi()
        assert finding.fix == "'sudo systemctl enable --now NetworkManager'"
    finally:
        bus.terminate()
        bus.wait(10)
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", f"unix:path={folder}/bus")  # nobody there
    state = Nmcli().state()
    assert state.kind == "no-manager" and "D-Bus" in state.detail
    finding = doctor.check_wifi()
    assert "D-Bus" in finding.what and "sudo systemctl start dbus" in finding.fix
    subprocess.run(["rm", "-rf", str(folder)], check=False)


# -- the stand-in's formats against the real nmcli -----------------------------------------------


@pytest.fixture
def stand_in(tmp_path):
    """Runs the stand-in nmcli over a world that holds the same profiles."""
    world = tmp_path / "world.json"
    env = {**os.environ, "NMCLI_WORLD": str(world), "NMCLI_CALLS": str(tmp_path / "calls"),
           "LC_ALL": "C.UTF-8"}

    def run(*args: str, locale: str = "C.UTF-8") -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, str(STAND_IN), *args], capture_output=True,
                              env={**env, "LC_ALL": locale}, timeout=30, check=False)

    def load(uuids: dict[str, str]) -> None:
        world.write_text(json.dumps({
            "running": True, "address": "", "active": None, "connectivity": "none",
            "device": {"name": "wlan0", "state": "disconnected", "connection": ""},
            "in_reach": [],
            "connections": [{"name": name, "uuid": uuids[name], "ssid": ssid, "mode": mode,
                             "secure": False, "psk": None, "settings": {}}
                            for name, ssid, mode in PROFILES]}))

    run.load = load
    return run


def both(nm, stand_in, *args: str, locale: str = "C.UTF-8"):
    mine = stand_in(*args, locale=locale)
    theirs = nm.nmcli(*args, check=False, env={**nm.env, "LC_ALL": locale})
    return mine, theirs


def test_the_stand_ins_profile_list_is_the_real_one(nm, stand_in):
    stand_in.load(add_profiles(nm))
    for locale in ("C.UTF-8", "C"):
        mine, theirs = both(nm, stand_in, "-t", "-f", "NAME,UUID,TYPE", "connection", "show",
                            locale=locale)
        assert (mine.returncode, sorted(mine.stdout.splitlines())) == \
            (theirs.returncode, sorted(theirs.stdout.splitlines()))


def test_the_stand_ins_profile_settings_are_the_real_ones(nm, stand_in):
    uuids = add_profiles(nm)
    stand_in.load(uuids)
    ids = [word for name, _, _ in PROFILES for word in ("uuid", uuids[name])]
    for fields in ("connection.uuid,802-11-wireless.ssid,802-11-wireless.mode",
                   "802-11-wireless.ssid,802-11-wireless.mode", "connection.id"):
        mine, theirs = both(nm, stand_in, "-g", fields, "connection", "show", *ids)
        assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout)
    gone = [*ids[:2], "uuid", "00000000-0000-4000-8000-00000000dead"]
    mine, theirs = both(nm, stand_in, "-g", "connection.uuid,802-11-wireless.ssid",
                        "connection", "show", *gone)
    assert (mine.returncode, mine.stdout, mine.stderr) == \
        (theirs.returncode, theirs.stdout, theirs.stderr)


def test_the_stand_ins_messages_are_the_real_ones(nm, stand_in):
    uuids = add_profiles(nm)
    stand_in.load(uuids)
    mine, theirs = both(nm, stand_in, "-t", "-f", "RUNNING", "general", "status")
    assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout)
    mine, theirs = both(nm, stand_in, "connection", "delete", "uuid", uuids[CAFE])
    assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout)
    mine, theirs = both(nm, stand_in, "connection", "add", "type", "wifi", "ifname", "*",
                        "con-name", "Library", "ssid", "Library")
    shape = re.compile(rb"^Connection 'Library' \([0-9a-f-]{36}\) successfully added\.\n$")
    assert shape.match(mine.stdout) and shape.match(theirs.stdout)
    # Device and connectivity: the same fields and values, whatever the devices.
    mine, theirs = both(nm, stand_in, "-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device",
                        "status")
    for out in (mine.stdout, theirs.stdout):
        assert {len(split_terse(line)) for line in out.decode().splitlines()} == {4}
    assert b"lo:loopback:" in theirs.stdout and b"lo:loopback:" in mine.stdout
    mine, theirs = both(nm, stand_in, "networking", "connectivity")
    assert mine.stdout == theirs.stdout == b"none\n"
    # A connection that is not there, to bring up, down or delete.
    unknown = "00000000-0000-4000-8000-00000000dead"
    for verb in ("up", "down", "delete"):
        mine, theirs = both(nm, stand_in, "connection", verb, "uuid", unknown)
        assert (mine.returncode, mine.stdout, mine.stderr) == \
            (theirs.returncode, theirs.stdout, theirs.stderr)
    # No network in reach: nothing at all (the real one has no Wi-Fi device here).
    mine, theirs = both(nm, stand_in, "-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY", "device",
                        "wifi", "list", "--rescan", "auto")
    assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout) == (0, b"")
    # A device's address, and a device with none.
    theirs = nm.nmcli("-g", "IP4.ADDRESS", "device", "show", "lo").stdout
    assert re.fullmatch(rb"127\.0\.0\.1/8\n", theirs)
    assert nm.nmcli("-g", "IP4.ADDRESS", "device", "show", real.DEVICE).stdout == b"\n"
    assert stand_in("-g", "IP4.ADDRESS", "device", "show", "wlan0").stdout == b"\n"


def test_the_stand_in_says_networkmanager_is_not_running_as_the_real_one(stand_in, tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="companion-bus-"))
    config = folder / "bus.conf"
    config.write_text(real.BUS_CONFIG.format(socket=folder / "bus"))
    bus = subprocess.Popen([*real.as_root(), real.programs()["dbus-daemon"],
                            f"--config-file={config}", "--nofork", "--print-address"],
                           stdout=subprocess.PIPE, text=True)
    try:
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": bus.stdout.readline().strip()}
        theirs = subprocess.run(["nmcli", "-t", "-f", "RUNNING", "general", "status"],
                                capture_output=True, env=env, check=False, timeout=30)
    finally:
        bus.terminate()
        bus.wait(10)
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={folder}/bus"}
    no_bus = subprocess.run(["nmcli", "-t", "-f", "RUNNING", "general", "status"],
                            capture_output=True, env=env, check=False, timeout=30)
    subprocess.run(["rm", "-rf", str(folder)], check=False)
    stand_in.load({name: "0" * 36 for name, _, _ in PROFILES})
    world = json.loads((tmp_path / "world.json").read_text())
    for running, real_answer in ((False, theirs), ("no-dbus", no_bus)):
        world["running"] = running
        (tmp_path / "world.json").write_text(json.dumps(world))
        mine = stand_in("-t", "-f", "RUNNING", "general", "status")
        assert (mine.returncode, mine.stdout, mine.stderr) == \
            (real_answer.returncode, real_answer.stdout, real_answer.stderr)
