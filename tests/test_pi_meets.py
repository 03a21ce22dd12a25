"""What a real Pi meets: lgpio's working directory, the doctor's I2C lines
that agree with each other, and a companion started off a Pi that says each
fault once, in one line."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import warnings
from pathlib import Path

import pytest
from gpiozero.exc import BadPinFactory, PinFactoryFallback

from companion.commands import doctor
from companion.commands.doctor import FAIL, OK, Paths
from companion.host.service import give_lgpio_a_working_directory
from companion.parts.lifecycle import FaultLog, Retrying

# -- lgpio's working directory ----------------------------------------------------------


def test_the_service_gives_lgpio_its_runtime_directory(tmp_path):
    environ = {"RUNTIME_DIRECTORY": str(tmp_path / "run")}
    assert give_lgpio_a_working_directory(tmp_path / "data", environ) == str(tmp_path / "run")
    assert environ["LG_WD"] == str(tmp_path / "run")
    assert (tmp_path / "run").is_dir()


def test_started_by_hand_lgpio_works_in_the_data_directory(tmp_path):
    environ: dict[str, str] = {}
    give_lgpio_a_working_directory(tmp_path / "data", environ)
    assert environ == {"LG_WD": str(tmp_path / "data")}
    assert os.access(tmp_path / "data", os.W_OK)


def test_a_working_directory_given_to_lgpio_is_kept(tmp_path):
    environ = {"LG_WD": "/somewhere", "RUNTIME_DIRECTORY": "/run/companion"}
    give_lgpio_a_working_directory(tmp_path, environ)
    assert environ["LG_WD"] == "/somewhere"


def test_serve_sets_lg_wd_before_anything_loads_the_gpio(tmp_path, monkeypatch):
    from companion import daemon

    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    seen = {}

    def start(self):
        seen["LG_WD"] = os.environ.get("LG_WD")
        seen["gpiozero"] = "gpiozero" in sys.modules and "lgpio" in sys.modules
        raise RuntimeError("stop here")

    monkeypatch.setattr(daemon.Daemon, "start", start)
    monkeypatch.setattr(daemon.Daemon, "stop", lambda self, message=None: None)
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[web]\nport = 0\n')
    try:
        daemon.serve(argparse.Namespace(config=config, simulate=False, host=None, port=None))
    finally:
        logging.getLogger().handlers[:] = []
    assert seen == {"LG_WD": str(tmp_path / "data"), "gpiozero": False}


# -- gpiozero's fallbacks in one line ----------------------------------------------------


def fallbacks_then(error: Exception | None = None, *reasons: str):
    """What gpiozero does when it picks its pin library: a warning for each
    library that failed, then BadPinFactory when none is left."""
    for reason in reasons:
        warnings.warn(PinFactoryFallback(f"Falling back from {reason}"), stacklevel=2)
    if error is not None:
        raise error


OFF_A_PI = ("lgpio: No module named 'lgpio'", "rpigpio: No module named 'RPi'",
            "pigpio: No module named 'pigpio'",
            "native: unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo")


def test_off_a_pi_the_gpio_fault_says_it_is_not_a_pi_and_nothing_else(recwarn):
    from companion.parts.hardware import GpioUnavailable, explained_gpio_failures

    with pytest.raises(GpioUnavailable) as failed:
        with explained_gpio_failures():
            fallbacks_then(BadPinFactory("Unable to load any default pin factory!"), *OFF_A_PI)
    assert str(failed.value) == ("no GPIO: this computer is not a Raspberry Pi; run "
                                 "'companion serve --simulate' to play without one")
    assert [w for w in recwarn if issubclass(w.category, PinFactoryFallback)] == []


def test_on_a_pi_an_lgpio_that_cannot_start_is_the_cause_said(monkeypatch):
    from companion.parts.hardware import GpioUnavailable, explained_gpio_failures

    monkeypatch.setenv("LG_WD", "/run/companion")
    with pytest.raises(GpioUnavailable) as failed:
        with explained_gpio_failures():
            fallbacks_then(BadPinFactory("Unable to load any default pin factory!"),
                           "lgpio: can not open gpiochip", "rpigpio: No module named 'RPi'",
                           "pigpio: No module named 'pigpio'",
                           "native: [Errno 13] Permission denied: '/dev/gpiomem'")
    message = str(failed.value)
    assert message.startswith("no GPIO: lgpio cannot start (can not open gpiochip)")
    assert "LG_WD, here /run/companion" in message and "install lgpio" not in message


def test_a_pi_without_lgpio_is_told_to_install_it():
    from companion.parts.hardware import GpioUnavailable, explained_gpio_failures

    with pytest.raises(GpioUnavailable, match="lgpio is not installed"):
        with explained_gpio_failures():
            fallbacks_then(BadPinFactory("no"), "lgpio: No module named 'lgpio'",
                           "native: [Errno 13] Permission denied: '/dev/gpiomem'")


def test_a_fallback_that_works_is_one_line_in_the_log(caplog, recwarn):
    from companion.parts.hardware import explained_gpio_failures

    with caplog.at_level(logging.WARNING):
        with explained_gpio_failures():
            fallbacks_then(None, "lgpio: can not open gpiochip")
    assert caplog.messages == ["the GPIO works through a fallback pin library "
                               "(lgpio: can not open gpiochip)"]
    assert len(recwarn) == 0


def test_other_warnings_go_on_as_before():
    from drivers.gpio import pin_factory_fallbacks

    with pytest.warns(DeprecationWarning, match="old"):
        with pin_factory_fallbacks():
            warnings.warn("old", DeprecationWarning, stacklevel=2)


def test_the_doctor_says_why_there_is_no_gpio_in_one_finding():
    from drivers.gpio import claim_pin

    def claim(role, pin, factory):
        # The real claim, with gpiozero's choice of library as off a Pi.
        import gpiozero.devices

        def no_factory(*args, **kwargs):
            fallbacks_then(BadPinFactory("Unable to load any default pin factory!"), *OFF_A_PI)

        original = gpiozero.devices.Device._default_pin_factory
        gpiozero.devices.Device._default_pin_factory = staticmethod(no_factory)
        saved = gpiozero.devices.Device.pin_factory
        gpiozero.devices.Device.pin_factory = None
        try:
            claim_pin(role, pin, factory)
        finally:
            gpiozero.devices.Device._default_pin_factory = original
            gpiozero.devices.Device.pin_factory = saved

    findings = doctor.check_pins({"button up": 5, "buzzer": 12}, claim=claim)
    assert [(f.level, f.what, f.fix) for f in findings] == [
        (FAIL, "no GPIO: this computer is not a Raspberry Pi",
         "run 'companion serve --simulate' to play without one")]


# -- one line per fault -----------------------------------------------------------------


class NoGpioPart(Retrying):
    def __init__(self, name: str) -> None:
        super().__init__(clock=lambda: 0.0)
        self.name = name

    def open(self) -> None:
        raise OSError("no GPIO: this computer is not a Raspberry Pi")


def test_a_retry_says_its_wait_as_it_is(caplog):
    with caplog.at_level(logging.ERROR):
        NoGpioPart("buttons").start()
    assert caplog.messages[0].endswith("tries again in 0.5 s")
    assert "in 0 s" not in caplog.text


def test_the_same_cause_is_said_once_for_two_parts(caplog):
    shared = FaultLog()
    buttons, outputs = NoGpioPart("buttons"), NoGpioPart("outputs")
    buttons.fault_log = outputs.fault_log = shared
    with caplog.at_level(logging.ERROR):
        buttons.start()
        outputs.start()
        buttons.tick()  # the same failure again: said no more
    assert caplog.messages == [
        "buttons failed to start (no GPIO: this computer is not a Raspberry Pi); the "
        "companion goes on without it and tries again in 0.5 s",
        "outputs failed to start for the same reason as the buttons; tries again in 0.5 s",
    ]


@pytest.mark.slow
def test_serve_off_a_pi_says_each_fault_once_in_one_line(tmp_path):
    """The whole companion, started as on a laptop without --simulate."""
    import signal
    import subprocess

    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[web]\nhost = "127.0.0.1"\n'
                      "port = 0\nmdns = false\n[network]\nhotspot = false\n")
    env = {k: v for k, v in os.environ.items() if k not in ("GPIOZERO_PIN_FACTORY", "LG_WD")}
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--config",
                                str(config)], cwd=root, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if "running without:" in line or len(lines) > 60:
            break
    process.send_signal(signal.SIGINT)
    rest, _ = process.communicate(timeout=30)
    lines += rest.splitlines()
    log = "\n".join(lines)
    # Every line is a log line: no warning's source line, no traceback.
    assert all(line[:2].isdigit() for line in lines), log
    assert "PinFactoryFallback" not in log and "warnings.warn" not in log
    assert "in 0 s" not in log
    gpio = [line for line in lines if "not a Raspberry Pi" in line]
    assert len(gpio) == 1, log
    # The other part without GPIO refers to the first instead of saying it again.
    assert len([line for line in lines if "buttons failed to start for the same reason as the "
                                          "outputs" in line]) == 1, log
    assert sum("running without" in line for line in lines) == 1


# -- the doctor's I2C lines --------------------------------------------------------------


@pytest.fixture
def pi(tmp_path):
    (tmp_path / "dev").mkdir()
    return Paths(dev=tmp_path / "dev", boot_configs=(tmp_path / "config.txt",))


def test_i2c_off_with_its_speed_set_is_one_line_that_says_no_speed(pi, tmp_path):
    (tmp_path / "config.txt").write_text("dtparam=i2c_arm_baudrate=400000\n")
    findings = doctor.check_i2c(1, pi)
    assert len(findings) == 1
    assert findings[0].level == FAIL and findings[0].what.startswith("I2C is not enabled")
    assert "runs at" not in findings[0].what
    assert "sudo ./scripts/install-pi.sh" in findings[0].fix


def test_i2c_off_and_slow_says_both_fixes_in_one_line(pi, tmp_path):
    (tmp_path / "config.txt").write_text("dtparam=audio=on\n")
    [finding] = doctor.check_i2c(1, pi)
    assert finding.level == FAIL
    assert "dtparam=i2c_arm_baudrate=400000" in finding.fix and "runs at" not in finding.what


def test_i2c_on_gives_its_speed(pi, tmp_path):
    (tmp_path / "config.txt").write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    (pi.dev / "i2c-1").touch()
    assert [f.what for f in doctor.check_i2c(1, pi)] == [
        f"I2C bus 1 is enabled ({pi.dev}/i2c-1)", "the I2C bus runs at 400 kHz"]


def test_the_doctors_report_never_says_a_speed_for_a_bus_that_is_not_there(pi, tmp_path):
    from companion.host.config import Config

    (tmp_path / "config.txt").write_text("dtparam=i2c_arm_baudrate=400000\n")
    findings = doctor.run_checks(Config().with_web(host="127.0.0.1", port=0), tmp_path,
                                 paths=pi, claim=lambda role, pin, factory: None,
                                 network=_NoWifi())
    said = doctor.report(findings)
    assert "I2C is not enabled" in said and "runs at" not in said
    assert findings[0].level == FAIL and findings[1].what.startswith("cannot look for the display")


class _NoWifi:
    def state(self):
        from drivers.network import WifiState

        return WifiState("disconnected", "", "wlan0", "")


def test_a_free_pin_is_named_by_its_header_pin_and_role():
    [finding] = doctor.check_pins({"button roll": 26}, claim=lambda role, pin, factory: None)
    assert finding == doctor.Finding(OK, "GPIO pins free: 26 (pin 37, button roll)")
