"""``companion doctor``: each check against temporary files, fake devices and
gpiozero's mock pins; one line per finding, with the fix."""

from __future__ import annotations

import errno
import grp
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from companion.commands import doctor
from companion.commands.doctor import FAIL, OK, WARN, Finding, Paths
from companion.host.config import Config

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pi(tmp_path):
    """A Bookworm Pi laid out in a temporary folder: /dev and /boot/firmware."""
    (tmp_path / "dev").mkdir()
    (tmp_path / "boot" / "firmware").mkdir(parents=True)
    return Paths(dev=tmp_path / "dev",
                 boot_configs=(tmp_path / "boot" / "firmware" / "config.txt",
                               tmp_path / "boot" / "config.txt"))


def write_config_txt(paths: Paths, text: str, which: int = 0) -> Path:
    path = paths.boot_configs[which]
    path.write_text(text)
    return path


def enable_bus(paths: Paths, bus: int = 1) -> Path:
    device = paths.i2c_device(bus)
    device.write_bytes(b"")
    return device


# -- I2C ------------------------------------------------------------------------


def test_an_i2c_bus_device_means_i2c_is_enabled(pi):
    enable_bus(pi)
    assert doctor.check_i2c_enabled(1, pi) == Finding(OK, f"I2C bus 1 is enabled ({pi.dev}/i2c-1)")


def test_i2c_never_enabled_says_to_run_raspi_config(pi):
    finding = doctor.check_i2c_enabled(1, pi)
    assert finding.level == FAIL
    assert "sudo raspi-config nonint do_i2c 0" in finding.fix


def test_i2c_enabled_in_config_txt_but_no_device_says_to_reboot(pi):
    write_config_txt(pi, "[all]\ndtparam=i2c_arm=on\n")
    finding = doctor.check_i2c_enabled(1, pi)
    assert (finding.level, finding.fix) == (FAIL, "reboot the Pi so that the setting takes effect")


def test_a_bus_at_400_khz_is_fine(pi):
    write_config_txt(pi, "dtparam=audio=on\ndtparam=i2c_arm=on,i2c_arm_baudrate=400000\n")
    assert doctor.check_i2c_speed(pi) == Finding(OK, "the I2C bus runs at 400 kHz")


def test_the_default_100_khz_bus_is_a_warning_with_the_line_to_add(pi):
    path = write_config_txt(pi, "dtparam=i2c_arm=on\n#dtparam=i2c_arm_baudrate=400000\n")
    finding = doctor.check_i2c_speed(pi)
    assert finding.level == WARN
    assert "runs at 100 kHz" in finding.what and "93 ms" in finding.what
    assert finding.fix.startswith(f"add dtparam=i2c_arm_baudrate=400000 to {path}")


def test_an_older_image_keeps_config_txt_in_boot(pi):
    write_config_txt(pi, "dtparam=i2c_arm_baudrate=400000\n", which=1)
    assert doctor.check_i2c_speed(pi).level == OK


def test_no_config_txt_at_all_is_a_warning(pi):
    assert doctor.check_i2c_speed(pi).level == WARN


def test_a_display_that_answers_is_ok(pi):
    enable_bus(pi)
    asked = []
    finding = doctor.check_display(1, 0x3C, "ssd1306", pi,
                                   probe=lambda device, address: asked.append((device, address)))
    assert asked == [(pi.i2c_device(1), 0x3C)]
    assert finding == Finding(OK, "a display answers at 0x3C on I2C bus 1 (set up as ssd1306)")


def test_a_silent_address_is_a_failure_that_points_at_the_wiring(pi):
    enable_bus(pi)

    def nobody(device, address):
        raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))

    finding = doctor.check_display(1, 0x3C, "ssd1306", pi, probe=nobody)
    assert finding.level == FAIL
    assert finding.what.startswith("no display answers at 0x3C on I2C bus 1")
    assert "i2cdetect -y 1" in finding.fix


def test_the_real_probe_on_something_that_is_not_a_bus_fails(pi):
    enable_bus(pi)  # a plain file: the I2C_SLAVE ioctl is refused
    finding = doctor.check_display(1, 0x3C, "ssd1306", pi)
    assert finding.level == FAIL and "no display answers at 0x3C" in finding.what


def test_no_permission_on_the_bus_says_to_join_the_i2c_group(pi):
    enable_bus(pi)

    def denied(device, address):
        raise PermissionError(errno.EACCES, "Permission denied")

    finding = doctor.check_display(1, 0x3C, "ssd1306", pi, probe=denied)
    assert finding.level == FAIL and "'i2c' group" in finding.fix


def test_no_bus_means_the_display_cannot_be_looked_for(pi):
    finding = doctor.check_display(1, 0x3C, "ssd1306", pi)
    assert finding.level == FAIL and "no " + str(pi.i2c_device(1)) in finding.what


# -- GPIO -------------------------------------------------------------------------


def test_free_pins_are_claimed_released_and_listed():
    factory = MockFactory()
    findings = doctor.check_pins({"button up": 5, "buzzer": 12}, factory)
    assert findings == [Finding(OK, "GPIO pins free: 5 (pin 29, button up), "
                                    "12 (pin 32, buzzer)")]
    Button(5, pin_factory=factory).close()  # released: it can be claimed again


def test_a_pin_in_use_is_named_with_its_role():
    factory = MockFactory()
    holder = Button(5, pin_factory=factory)
    try:
        findings = doctor.check_pins({"button up": 5, "button down": 6}, factory)
    finally:
        holder.close()
    assert findings[0] == Finding(OK, "GPIO pins free: 6 (pin 31, button down)")
    assert findings[1].level == FAIL
    assert findings[1].what.startswith("GPIO 5 (pin 29, button up) is in use")
    assert "sudo systemctl stop companion" in findings[1].fix


def test_a_machine_without_gpio_is_one_failure():
    from gpiozero.exc import BadPinFactory

    def no_gpio(role, pin, factory):
        raise BadPinFactory("Unable to load any default pin factory!")

    findings = doctor.check_pins({"button up": 5, "button down": 6}, claim=no_gpio)
    assert [f.level for f in findings] == [FAIL]
    assert "no GPIO on this machine" in findings[0].what


def test_run_from_a_directory_the_user_cannot_write_lgpio_still_gets_one(monkeypatch):
    # 'sudo -u companion companion doctor' from the checkout: lgpio would
    # make its pipe there, fail, and the GPIO would look absent.
    monkeypatch.setenv("LG_WD", "")
    monkeypatch.setattr(doctor, "_cwd_writable", lambda: False)
    seen = []

    def claim(role, pin, factory):
        seen.append(os.environ["LG_WD"])

    doctor.check_pins({"button up": 5}, claim=claim)
    assert seen and os.path.isdir(seen[0]) and os.access(seen[0], os.W_OK)
    os.rmdir(seen[0])


def test_a_working_directory_already_given_to_lgpio_is_kept():
    environ = {"LG_WD": "/run/companion"}
    doctor.give_lgpio_a_working_directory(environ, cwd_writable=lambda: False)
    assert environ == {"LG_WD": "/run/companion"}


def test_a_writable_working_directory_is_left_to_lgpio():
    environ: dict[str, str] = {}
    doctor.give_lgpio_a_working_directory(environ, cwd_writable=lambda: True)
    assert environ == {}


# -- serial, data, network --------------------------------------------------------


def test_a_missing_dice_device_fails_when_it_is_the_dice_source(tmp_path):
    finding = doctor.check_serial(str(tmp_path / "ttyUSB0"), "serial")
    assert finding.level == FAIL and "/dev/serial/by-id/" in finding.fix


def test_a_missing_dice_device_is_fine_when_the_roll_button_rolls(tmp_path):
    assert doctor.check_serial(str(tmp_path / "ttyUSB0"), "button").level == OK


def test_auto_reports_the_one_dice_device_found_under_by_id(tmp_path):
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    device = by_id / "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
    device.write_bytes(b"")
    finding = doctor.check_serial("auto", "serial", by_id=by_id)
    assert finding == Finding(OK, f"the dice device found: {device} and can be opened")


def test_auto_without_a_dice_device_fails_when_it_is_the_dice_source(tmp_path):
    finding = doctor.check_serial("auto", "serial", by_id=tmp_path / "by-id")
    assert finding.level == FAIL and "no dice device under" in finding.what
    assert doctor.check_serial("auto", "button", by_id=tmp_path / "by-id").level == OK


def test_a_port_without_permission_names_the_group_to_join(tmp_path):
    port = tmp_path / "ttyUSB0"
    port.write_bytes(b"")
    group = grp.getgrgid(os.stat(port).st_gid).gr_name
    finding = doctor.check_serial(str(port), "serial", access=lambda path, mode: False)
    assert finding.what == f"no permission to open {port} (group {group})"
    assert finding.fix.startswith(f"add the user to the '{group}' group")


def test_a_port_that_opens_is_ok(tmp_path):
    port = tmp_path / "ttyUSB0"
    port.write_bytes(b"")
    assert doctor.check_serial(str(port), "serial").level == OK


def test_a_writable_data_directory_is_ok(tmp_path):
    assert doctor.check_data_dir(tmp_path) == Finding(
        OK, f"the data directory {tmp_path} is writable")


def test_a_data_directory_still_to_create_is_ok(tmp_path):
    assert doctor.check_data_dir(tmp_path / "companion").level == OK


def test_a_data_directory_under_a_file_fails(tmp_path):
    (tmp_path / "journal").write_text("")
    finding = doctor.check_data_dir(tmp_path / "journal" / "companion")
    assert finding.level == FAIL and "install -d -o companion" in finding.fix


def copies_advised(fix: str, stick: Path, computer: Path) -> None:
    """Run the two copies a finding advises, as written but for ``sudo``
    (the tests' user reads its own folders), the stick's folder and the
    Pi's address: onto ``stick``, and from a computer into ``computer``."""
    onto_stick = re.search(r'sudo (sh -c "[^"]*")', fix)[1]
    from_a_computer = re.search(r"ssh \S+ \"sudo (sh -c '[^']*')\" \| (tar -xf -)", fix)
    for command, where in ((onto_stick.replace("/media/$USER/<stick>/", f"{stick}/"), ROOT),
                           (f"{from_a_computer[1]} | {from_a_computer[2]}", computer)):
        done = subprocess.run(command, shell=True, cwd=where, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)


@pytest.mark.parametrize("stop", ["clean", "crashed"])
def test_the_copy_a_full_card_advises_takes_every_acknowledged_command_after_any_stop(
        tmp_path, stop):
    from companion.core.engine import Command
    from companion.core.journal import Journal
    from companion.core.table import Table

    data, stick, computer = tmp_path / "data", tmp_path / "stick", tmp_path / "computer"
    for folder in (data, stick, computer):
        folder.mkdir()
    table = Table(Journal.open(data / "companion.db"))
    table.new_game("call-of-nature", ["Ana", "Ben"])
    for value in (3, 5, 7):
        table.submit(Command("card", {"value": value}))
    if stop == "clean":
        table.close()  # the write-ahead log goes with the last connection
    assert (data / "companion.db-wal").exists() == (stop == "crashed")
    try:
        finding = doctor.card_finding(data, errno.ENOSPC)
        assert finding.level == FAIL and "is full" in finding.what
        copies_advised(finding.fix, stick, computer)
    finally:
        table.close()
    for copy in (stick, computer):
        journal = Journal.open_read_only(copy / "companion.db")
        try:
            assert [entry.version for entry in journal.entries(1)] == [1, 2, 3]
        finally:
            journal.close()


def test_a_taken_web_port_fails():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        finding = doctor.check_port("127.0.0.1", port)
    assert finding == Finding(FAIL, f"the web port {port} is taken",
                              f"{doctor.STOP_THE_SERVICE}, or choose another [web] port")


def test_a_free_web_port_is_ok():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert doctor.check_port("127.0.0.1", port).level == OK


def test_phones_reach_the_wifi_address():
    finding = doctor.check_phone_address("0.0.0.0", 8080, finder=lambda host: "192.168.1.20")
    assert finding == Finding(OK, "phones reach the panel at http://192.168.1.20:8080/")


def test_only_loopback_warns_to_join_the_wifi():
    finding = doctor.check_phone_address("0.0.0.0", 8080, finder=lambda host: "127.0.0.1")
    assert finding.level == WARN and "Wi-Fi" in finding.fix


def test_a_panel_listening_on_loopback_warns():
    finding = doctor.check_phone_address("127.0.0.1", 8080)
    assert finding.level == WARN and 'host = "0.0.0.0"' in finding.fix


# -- all together ------------------------------------------------------------------


def test_a_well_set_up_pi_passes(pi, tmp_path):
    enable_bus(pi)
    write_config_txt(pi, "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    findings = doctor.run_checks(Config().with_web(host="127.0.0.1", port=0), tmp_path,
                                 paths=pi, pin_factory=MockFactory(),
                                 probe=lambda device, address: None,
                                 network=OnTheWifi())
    assert [f.level for f in findings if f.level != OK] == [WARN]  # loopback only
    assert doctor.exit_status(findings) == 0


class OnTheWifi:
    def state(self):
        from drivers.network import WifiState

        return WifiState("connected", "Home", "wlan0", "192.168.1.23")


def test_any_failure_makes_the_exit_status_non_zero():
    assert doctor.exit_status([Finding(OK, "a"), Finding(WARN, "b")]) == 0
    assert doctor.exit_status([Finding(OK, "a"), Finding(FAIL, "b", "c")]) == 1


def test_a_finding_is_one_line_with_its_fix():
    assert Finding(FAIL, "no display", "wire it").line() == "FAIL no display -> wire it"
    assert Finding(OK, "fine").line() == "OK   fine"


@pytest.mark.slow
def test_the_doctor_command_prints_one_line_per_check_and_fails_off_a_pi(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'data_dir = "{tmp_path}"\n[web]\nhost = "127.0.0.1"\nport = 0\n')
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    done = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(cfg)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr
    assert lines[0].startswith("FAIL I2C is not enabled") or lines[0].startswith("OK   I2C bus 1")
    assert any(line.startswith(f"OK   the data directory {tmp_path} is writable") for line in lines)
    assert all(line.split()[0] in (OK, WARN, FAIL) for line in lines)


@pytest.mark.slow
def test_the_doctor_refuses_a_bad_config_with_status_2(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text("[buttons]\nup = 99\n")
    done = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(cfg)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "[buttons] up must be a BCM GPIO number from 0 to 27, not 99" in done.stderr


# -- the speaker -------------------------------------------------------------------


def test_the_speaker_is_checked_only_when_the_config_has_one(pi):
    from companion.host.config import Voice

    assert doctor.check_speaker(Voice(), pi).level == OK
    missing = doctor.check_speaker(Voice(enabled=True), pi, which=lambda program: None)
    assert missing.level == FAIL and "espeak-ng and aplay" in missing.what
    assert "apt-get install espeak-ng alsa-utils" in missing.fix
    amplifier = Voice(enabled=True, amplifier="max98357a")
    write_config_txt(pi, "dtparam=i2c_arm=on\n")
    found = doctor.check_speaker(amplifier, pi, which=lambda program: f"/usr/bin/{program}")
    assert found.level == WARN and "dtoverlay=max98357a" in found.fix
    write_config_txt(pi, "dtparam=i2c_arm=on\n[all]\ndtoverlay=max98357a\n")
    found = doctor.check_speaker(amplifier, pi, which=lambda program: f"/usr/bin/{program}")
    assert found.level == OK and "'default'" in found.what
