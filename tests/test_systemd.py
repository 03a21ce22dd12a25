"""The service: its unit file, and the notification protocol the daemon
speaks to systemd (READY=1 once the panel answers, WATCHDOG=1 from a live
main loop)."""

from __future__ import annotations

import io
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from companion import daemon
from companion.host.config import Config

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "companion.service"
INSTALLER = ROOT / "scripts" / "install-pi.sh"


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    """A unit file as section -> key -> every value given (keys repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def service() -> dict[str, list[str]]:
    return unit_settings(UNIT.read_text())["Service"]


# -- the unit file ------------------------------------------------------------------


def test_the_service_tells_systemd_when_it_is_ready(service):
    assert service["Type"] == ["notify"]


def test_a_hang_is_caught_by_the_watchdog_and_restarted(service):
    assert service["WatchdogSec"] == ["30"]
    assert service["Restart"] == ["on-failure"]


def test_it_runs_the_installed_companion_with_the_system_config(service):
    assert service["ExecStart"] == [
        "/opt/companion/venv/bin/companion serve --config /etc/companion/config.toml"]


def test_it_runs_as_its_own_user_with_the_hardware_groups(service):
    assert service["User"] == ["companion"]
    assert set(" ".join(service["SupplementaryGroups"]).split()) >= {"gpio", "i2c", "dialout"}


def test_it_writes_only_its_data_directory(service):
    assert service["ProtectSystem"] == ["strict"]
    assert service["StateDirectory"] == ["companion"]
    assert service["ReadWritePaths"] == ["-/var/lib/companion"]
    assert service["ProtectHome"] == ["yes"]
    assert service["PrivateTmp"] == ["yes"]
    assert service["NoNewPrivileges"] == ["yes"]


def test_it_reaches_the_gpio_the_i2c_bus_and_serial_ports_only(service):
    assert service["DevicePolicy"] == ["closed"]
    assert {"char-gpiochip rw", "char-i2c rw", "char-ttyUSB rw"} <= set(service["DeviceAllow"])


def test_a_dice_device_on_the_pis_own_uart_may_be_opened(service):
    # /dev/serial0 is ttyAMA0 (the PL011) or ttyS0 (the mini UART), by model.
    assert {"char-ttyAMA rw", "char-ttyS rw"} <= set(service["DeviceAllow"])


def test_it_keeps_only_the_capability_to_listen_on_port_80(service):
    # The captive portal's port: phones on the companion's own Wi-Fi are led
    # to the panel.  Not root, and no other capability.
    assert service["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"]
    assert service["AmbientCapabilities"] == ["CAP_NET_BIND_SERVICE"]
    assert "User" in service and service["User"] != ["root"]


def test_it_does_not_wait_for_a_network_that_may_never_come(tmp_path):
    unit = unit_settings(UNIT.read_text())["Unit"]
    assert "network-online.target" not in " ".join(unit.get("After", []) + unit.get("Wants", []))


def test_lgpio_gets_a_writable_working_directory(service):
    # lgpio makes its notification pipes in the working directory.
    assert service["WorkingDirectory"] == ["/run/companion"]
    assert service["RuntimeDirectory"] == ["companion"]


def verifier() -> list[str]:
    """How this user runs ``systemd-analyze verify`` as systemd checks a
    system unit.  It makes /run/systemd/, which only root may make where no
    systemd runs (a container, a root entered with pivot_root): there a user
    who is not root verifies through passwordless sudo, or the test is
    skipped and says why."""
    if os.geteuid() == 0 or os.path.isdir("/run/systemd"):
        return ["systemd-analyze", "verify"]
    if shutil.which("sudo") is None or subprocess.run(
            ["sudo", "-n", "true"], capture_output=True, timeout=30).returncode:
        pytest.skip("no systemd runs here and this user is not root: systemd-analyze "
                    "cannot make /run/systemd/ (and 'sudo -n true' fails)")
    return ["sudo", "-n", "systemd-analyze", "verify"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_accepts_the_unit_file(tmp_path):
    # verify also checks that ExecStart's program exists: point it at one that does.
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/companion/venv/bin/companion", sys.executable))
    done = subprocess.run([*verifier(), str(unit)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if str(unit) in line]
    assert done.returncode == 0, done.stderr
    assert complaints == []


def test_the_installer_is_valid_bash():
    subprocess.run(["bash", "-n", str(INSTALLER)], check=True, timeout=30)


# -- sd_notify --------------------------------------------------------------------------


@pytest.fixture
def notify_socket(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(10)
    yield path, sock
    sock.close()


def test_a_notification_is_one_datagram_to_the_socket(notify_socket):
    path, sock = notify_socket
    assert daemon.sd_notify("READY=1", {"NOTIFY_SOCKET": str(path)})
    assert sock.recv(4096) == b"READY=1"


def test_an_abstract_socket_name_starts_with_at():
    name = f"companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert daemon.sd_notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent():
    assert daemon.sd_notify("READY=1", {}) is False


def test_the_watchdog_interval_comes_from_systemd():
    assert daemon.watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert daemon.watchdog_interval({}) is None
    assert daemon.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None


def test_a_signal_sets_the_stop_event_while_the_loop_waits():
    stop = daemon.StopEvent()
    threading.Timer(0.05, stop.set).start()
    started = time.monotonic()
    assert stop.wait(10) is True
    assert time.monotonic() - started < 5
    stop.close()


# -- the daemon and systemd ---------------------------------------------------------------


def write_config(tmp_path: Path, port: int = 0) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'data_dir = "{tmp_path / "data"}"\n'
                   f'[web]\nhost = "127.0.0.1"\nport = {port}\nmdns = false\n')
    return cfg


def start_daemon(cfg: Path, notify: Path, watchdog_usec: int) -> subprocess.Popen:
    env = {**os.environ, "NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": str(watchdog_usec)}
    env.pop("WATCHDOG_PID", None)
    return subprocess.Popen([sys.executable, "-m", "companion", "serve", "--simulate",
                             "--config", str(cfg)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_daemon(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.slow
def test_ready_comes_once_the_panel_answers_then_the_watchdog_is_fed(tmp_path, notify_socket):
    path, sock = notify_socket
    process = start_daemon(write_config(tmp_path), path, watchdog_usec=300_000)
    try:
        first = sock.recv(4096).decode()
        assert first.startswith("READY=1\n")
        port = int(first.rsplit(" ", 1)[1])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as answer:
            assert answer.status == 200
        fed = [sock.recv(4096) for _ in range(3)]
        assert fed == [b"WATCHDOG=1"] * 3
    finally:
        stop_daemon(process)


@pytest.mark.slow
def test_a_panel_that_cannot_listen_never_says_ready(tmp_path, notify_socket):
    path, sock = notify_socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        process = start_daemon(write_config(tmp_path, taken.getsockname()[1]), path,
                               watchdog_usec=300_000)
        try:
            sock.settimeout(3)
            with pytest.raises(socket.timeout):
                sock.recv(4096)
            assert process.poll() is None  # the rest of the companion goes on
        finally:
            stop_daemon(process)


def test_a_panel_answering_with_an_error_is_asked_again_after_a_pause_not_in_a_spin(tmp_path):
    import http.server

    from companion.parts.lifecycle import PartContext
    from companion.parts.web import WebPart

    asked = []

    class Unwell(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append(self.path)
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Unwell)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        config = Config().with_web(host="127.0.0.1", port=server.server_address[1])
        panel = WebPart(PartContext(config=config, directory=tmp_path), table=None, time=None,
                        dice=None,
                        pixels=None, keypad=None, network=None, venue=None)
        panel.server, panel._thread = server, serving
        assert panel.answers(timeout=0.5) is False
    finally:
        server.shutdown()
        server.server_close()
    # A pause of 50 ms between questions: about ten in half a second, not hundreds.
    assert 1 <= len(asked) <= 20


@pytest.mark.slow
def test_a_stuck_table_stops_the_feeding(tmp_path, notify_socket):
    path, sock = notify_socket
    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    env = {"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "200000"}
    appliance = daemon.Daemon(config, simulate=True, environ=env, out=io.StringIO())
    try:
        appliance.start()
        assert appliance.ready()
        assert sock.recv(4096).startswith(b"READY=1")
        appliance._tick()
        assert sock.recv(4096) == b"WATCHDOG=1"
        held = threading.Event()
        release = threading.Event()

        def hold_the_table():
            with appliance.table_part.table._lock:
                held.set()
                release.wait(10)

        threading.Thread(target=hold_the_table).start()
        held.wait(5)
        appliance._tick()
        release.set()
        sock.settimeout(0.5)
        with pytest.raises(socket.timeout):
            sock.recv(4096)
    finally:
        appliance.stop()


# -- logging to the journal ----------------------------------------------------------------


def log_line(tmp_path: Path, environ_for) -> str:
    import logging

    path = tmp_path / "stdout"
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    with open(path, "w") as stream:
        st = os.fstat(stream.fileno())
        try:
            daemon.configure_logging(stream, environ_for(st))
            logging.getLogger("companion.test").warning("the display is missing")
        finally:
            root.handlers[:], root.level = handlers, level
            logging.captureWarnings(False)
    return path.read_text()


def test_under_journald_a_line_has_its_priority_and_no_time(tmp_path):
    line = log_line(tmp_path, lambda st: {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
    assert line == "<4>companion.test: the display is missing\n"


def test_at_a_terminal_a_line_has_its_time_and_level(tmp_path):
    line = log_line(tmp_path, lambda st: {"JOURNAL_STREAM": "1:2"})  # another stream's
    assert re.fullmatch(r"\d\d:\d\d:\d\d WARNING companion.test: the display is missing\n", line)


# -- the installer's edit of config.txt ------------------------------------------------------


def set_i2c_speed(config_txt: Path) -> str:
    done = subprocess.run(["bash", "-c", f'source "{INSTALLER}" && set_i2c_speed "$1" 400000',
                           "bash", str(config_txt)],
                          capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.strip()


def test_the_installer_adds_the_bus_speed_once(tmp_path):
    config_txt = tmp_path / "config.txt"
    config_txt.write_text("dtparam=audio=on\n[pi4]\narm_boost=1\n")
    assert set_i2c_speed(config_txt) == "changed"
    assert set_i2c_speed(config_txt) == ""
    assert config_txt.read_text() == ("dtparam=audio=on\n[pi4]\narm_boost=1\n"
                                      "\n[all]\ndtparam=i2c_arm_baudrate=400000\n")


def test_the_installer_raises_a_slower_bus_speed_in_place(tmp_path):
    config_txt = tmp_path / "config.txt"
    config_txt.write_text("#dtparam=i2c_arm_baudrate=50000\ndtparam=i2c_arm_baudrate=100000\n")
    assert set_i2c_speed(config_txt) == "changed"
    assert config_txt.read_text() == ("#dtparam=i2c_arm_baudrate=50000\n"
                                      "dtparam=i2c_arm_baudrate=400000\n")


# -- the installer's system packages ------------------------------------------------------


def system_packages(architecture: str, machine: str) -> list[str]:
    """What the installer installs on a system of that Debian architecture
    whose kernel says ``machine``."""
    script = (f'source "{INSTALLER}"; dpkg() {{ echo {architecture}; }}; '
              f'uname() {{ echo {machine}; }}; system_packages')
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          timeout=30, check=True)
    return done.stdout.split()


def test_a_32_bit_system_on_a_64_bit_kernel_gets_the_libraries_pillow_needs():
    # Raspberry Pi OS (32-bit) boots a 64-bit kernel on a Pi 4: uname says aarch64.
    assert "libopenjp2-7" in system_packages("armhf", "aarch64")


def test_a_64_bit_system_needs_only_python_the_i2c_tools_networkmanager_and_the_voice():
    assert system_packages("arm64", "aarch64") == ["python3-venv", "python3-dev", "i2c-tools",
                                                   "network-manager", "dnsmasq-base",
                                                   "espeak-ng", "alsa-utils"]


# -- the installer's Wi-Fi files ---------------------------------------------------------------


def test_the_installer_makes_every_name_resolve_to_the_hotspot_and_lets_the_service_manage_wifi(
        tmp_path):
    from drivers.network import HOTSPOT_ADDRESS

    subprocess.run(["bash", "-c", f'source "{INSTALLER}" && install_network_files "$1"',
                    "bash", str(tmp_path)], check=True, timeout=30)
    dns = (tmp_path / "etc/NetworkManager/dnsmasq-shared.d/companion-portal.conf").read_text()
    assert f"address=/#/{HOTSPOT_ADDRESS}" in dns.splitlines()
    rule = (tmp_path / "etc/polkit-1/rules.d/50-companion-network.rules").read_text()
    assert 'subject.user === "companion"' in rule
    assert '"org.freedesktop.NetworkManager."' in rule
