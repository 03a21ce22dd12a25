"""``companion doctor``: the checks of what a Pi set-up most often gets wrong.

Each check gives one :class:`Finding`: OK, WARN or FAIL, what was found, and
for anything not OK the one thing to do about it.  Every path, probe and pin
factory is a parameter, so that the tests run each check against temporary
files and gpiozero's mock pins.

Run it as the user the service runs as, so that permissions are the
service's:  ``sudo -u companion /opt/companion/venv/bin/companion doctor``.
"""

from __future__ import annotations

import errno
import fcntl
import grp
import os
import shutil
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

OK, WARN, FAIL = "OK", "WARN", "FAIL"

# linux/i2c-dev.h: use this 7-bit address for the following reads and writes.
I2C_SLAVE = 0x0703
FAST_MODE_HZ = 400_000
STANDARD_MODE_HZ = 100_000
BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
# Names the Pi firmware accepts for the ARM I2C bus and its speed.
I2C_ON_PARAMS = ("i2c_arm", "i2c1", "i2c")
I2C_BAUD_PARAMS = ("i2c_arm_baudrate", "i2c1_baudrate", "i2c_baudrate")
STOP_THE_SERVICE = "is the companion service running? 'sudo systemctl stop companion' first"


@dataclass(frozen=True)
class Finding:
    level: str
    what: str
    fix: str = ""

    def line(self) -> str:
        text = f"{self.level:<4} {self.what}"
        return f"{text} -> {self.fix}" if self.fix else text


@dataclass(frozen=True)
class Paths:
    """Where the checks look; tests point these at temporary files."""

    dev: Path = Path("/dev")
    boot_configs: tuple[Path, ...] = BOOT_CONFIGS

    def i2c_device(self, bus: int) -> Path:
        return self.dev / f"i2c-{bus}"


# -- the Pi's boot configuration ------------------------------------------------


def boot_config(paths: Paths) -> Path | None:
    """The config.txt the firmware reads: /boot/firmware on Bookworm, /boot
    before it."""
    for path in paths.boot_configs:
        if path.is_file():
            return path
    return None


def dtparams(path: Path) -> dict[str, str]:
    """Every ``dtparam=`` setting of a config.txt (a later line wins, as for
    the firmware).  ``dtparam=a=on,b=1`` sets two."""
    found: dict[str, str] = {}
    for raw in path.read_text(errors="replace").splitlines():
        line = raw.split("#", 1)[0].strip()
        key, sep, value = line.partition("=")
        if not sep or key.strip() != "dtparam":
            continue
        for setting in value.split(","):
            name, _, val = setting.strip().partition("=")
            if name:
                found[name.strip()] = val.strip() or "on"
    return found


def _first(params: Mapping[str, str], names: Iterable[str]) -> str | None:
    for name in names:
        if name in params:
            return params[name]
    return None


# -- the checks -----------------------------------------------------------------------


def check_i2c_enabled(bus: int, paths: Paths = Paths()) -> Finding:
    device = paths.i2c_device(bus)
    if device.exists():
        return Finding(OK, f"I2C bus {bus} is enabled ({device})")
    config = boot_config(paths)
    if config and (_first(dtparams(config), I2C_ON_PARAMS) or "off") == "on":
        return Finding(FAIL, f"I2C is on in {config} but {device} is missing",
                       "reboot the Pi so that the setting takes effect")
    return Finding(FAIL, f"I2C is not enabled ({device} is missing)",
                   "run 'sudo ./scripts/install-pi.sh' again (it switches I2C on at 400 kHz), "
                   "or 'sudo raspi-config nonint do_i2c 0', and reboot")


def check_i2c(bus: int, paths: Paths = Paths()) -> list[Finding]:
    """Whether the bus is there, and at what speed it runs; its speed only
    once it is there (a bus that is not there runs at no speed), and what
    the speed needs then said with how to switch it on."""
    enabled = check_i2c_enabled(bus, paths)
    speed = check_i2c_speed(paths)
    if enabled.level == OK:
        return [enabled, speed]
    if speed.level != OK and boot_config(paths) is not None:
        return [Finding(enabled.level, enabled.what,
                        f"{enabled.fix}; before rebooting, {speed.fix.split(' and reboot')[0]}")]
    return [enabled]


def check_i2c_speed(paths: Paths = Paths()) -> Finding:
    config = boot_config(paths)
    setting = f"dtparam=i2c_arm_baudrate={FAST_MODE_HZ}"
    if config is None:
        where = " or ".join(str(p) for p in paths.boot_configs)
        return Finding(WARN, f"no config.txt at {where}: the I2C bus speed is unknown",
                       f"on a Raspberry Pi, add {setting} to config.txt and reboot")
    raw = _first(dtparams(config), I2C_BAUD_PARAMS)
    try:
        speed = int(raw) if raw is not None else STANDARD_MODE_HZ
    except ValueError:
        return Finding(WARN, f"the I2C speed in {config} is not a number ({raw!r})",
                       f"write {setting} there and reboot")
    if speed >= FAST_MODE_HZ:
        return Finding(OK, f"the I2C bus runs at {speed // 1000} kHz")
    return Finding(WARN, f"the I2C bus runs at {speed // 1000} kHz: a full screen takes "
                         f"about {round(1034 * 9 / speed * 1000)} ms to send, the screen lags",
                   f"add {setting} to {config} and reboot (scripts/install-pi.sh does it)")


def probe_i2c(device: Path, address: int) -> None:
    """Address ``address`` on the bus and read one byte; raises OSError when
    nothing answers (the byte itself means nothing)."""
    fd = os.open(device, os.O_RDWR)
    try:
        fcntl.ioctl(fd, I2C_SLAVE, address)
        os.read(fd, 1)
    finally:
        os.close(fd)


def check_display(bus: int, address: int, controller: str = "ssd1306",
                  paths: Paths = Paths(),
                  probe: Callable[[Path, int], None] = probe_i2c) -> Finding:
    device = paths.i2c_device(bus)
    where = f"0x{address:02X} on I2C bus {bus}"
    if not device.exists():
        return Finding(FAIL, f"cannot look for the display at {where}: no {device}",
                       "enable I2C first (see above)")
    try:
        probe(device, address)
    except PermissionError:
        return Finding(FAIL, f"no permission to use {device}",
                       "add the user to the 'i2c' group: 'sudo usermod -aG i2c $USER', "
                       "then log in again")
    except OSError as exc:
        if exc.errno == errno.EBUSY:
            return Finding(FAIL, f"{where} is held by a kernel driver",
                           "remove the dtoverlay that claims it from config.txt and reboot")
        return Finding(FAIL, f"no display answers at {where} ({exc.strerror or exc})",
                       "check the wiring (SDA pin 3, SCL pin 5, VCC 3.3 V, GND) and the "
                       f"address with 'i2cdetect -y {bus}', then set [display] address")
    return Finding(OK, f"a display answers at {where} (set up as {controller})")


def _cwd_writable() -> bool:
    try:
        return os.access(os.getcwd(), os.W_OK | os.X_OK)
    except OSError:  # the working directory is gone or cannot be read
        return False


def give_lgpio_a_working_directory(environ: Any = None,
                                   cwd_writable: Callable[[], bool] | None = None) -> None:
    """lgpio, gpiozero's pin library on a Pi, makes a notification pipe in
    ``$LG_WD``, else in the working directory, as it loads.  Run as the
    service's user from a directory that user cannot write (the usual
    ``sudo -u companion companion doctor``), it would fail to load and the
    GPIO would look absent: give it a directory of its own.  (The service
    has one: ``WorkingDirectory=/run/companion``.)"""
    environ = os.environ if environ is None else environ
    if environ.get("LG_WD") or (cwd_writable or _cwd_writable)():
        return
    environ["LG_WD"] = tempfile.mkdtemp(prefix="companion-doctor-")


def _pin(pin: int, role: str) -> str:
    """A GPIO as a person finds it: its number, its header pin and its role."""
    from companion.host.config import HEADER_PIN_OF_GPIO

    header = HEADER_PIN_OF_GPIO.get(pin)
    return f"GPIO {pin} (pin {header}, {role})" if header else f"GPIO {pin} ({role})"


def check_pins(pins: Mapping[str, int], pin_factory: Any = None,
               claim: Callable[[str, int, Any], None] | None = None) -> list[Finding]:
    """Claim every configured pin and release it: a pin another program (or
    the running service) holds is named with its role."""
    findings = []
    free = []
    if pin_factory is None:
        give_lgpio_a_working_directory()
    if claim is None:
        from drivers.gpio import claim_pin

        claim = claim_pin
    for role, pin in pins.items():
        try:
            claim(role, pin, pin_factory)
        except PermissionError as exc:
            return [Finding(FAIL, f"no permission to use the GPIO ({exc})",
                            "add the user to the 'gpio' group: 'sudo usermod -aG gpio $USER', "
                            "then log in again")]
        except Exception as exc:
            if type(exc).__name__ == "NoGpio":
                return [Finding(FAIL, exc.what, exc.fix)]  # type: ignore[attr-defined]
            if type(exc).__name__ in ("BadPinFactory", "PinFactoryFallback"):
                return [Finding(FAIL, f"no GPIO on this machine ({exc})",
                                "run on a Raspberry Pi, or try 'companion serve --simulate'")]
            findings.append(Finding(FAIL, f"{_pin(pin, role)} is in use: {exc}",
                                    f"{STOP_THE_SERVICE}, or wire the {role} to another pin "
                                    "and change the config"))
        else:
            free.append(_pin(pin, role).removeprefix("GPIO "))
    if free:
        findings.insert(0, Finding(OK, f"GPIO pins free: {', '.join(free)}"))
    return findings


def check_serial(port: str, dice_source: str,
                 access: Callable[[str, int], bool] = os.access,
                 by_id: Path | None = None) -> Finding:
    from drivers.serial_dice import AUTO, BY_ID, PortNotFound, find_dice_port

    used = dice_source == "serial"
    if port == AUTO:
        try:
            port = find_dice_port(by_id or BY_ID)
        except PortNotFound as missing:
            if not used:
                return Finding(OK, f"{missing.strerror}; dice come from the "
                                   f"{dice_source}, so none is needed")
            return Finding(FAIL, str(missing.strerror),
                           "plug the dice device in, or set [serial] port to its "
                           "name under /dev/serial/by-id/")
        found = f"the dice device found: {port}"
    else:
        found = f"the serial port {port} is there"
    if not os.path.exists(port):
        if not used:
            return Finding(OK, f"no dice device at {port}; dice come from the "
                               f"{dice_source}, so none is needed")
        return Finding(FAIL, f"no dice device at {port}",
                       "plug it in; 'ls /dev/serial/by-id/' shows a name that survives "
                       "replugging, to set as [serial] port")
    if access(port, os.R_OK | os.W_OK):
        return Finding(OK, f"{found} and can be opened")
    group = _group_of(port)
    return Finding(FAIL if used else WARN,
                   f"no permission to open {port} (group {group})",
                   f"add the user to the '{group}' group: 'sudo usermod -aG {group} $USER', "
                   "then log in again")


def _group_of(path: str) -> str:
    gid = os.stat(path).st_gid
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def check_data_dir(path: Path) -> Finding:
    path = Path(path)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    fix = (f"make it the service user's: 'sudo install -d -o companion -g companion {path}' "
           "(the service's StateDirectory= does this for /var/lib/companion)")
    if not existing.is_dir():
        return Finding(FAIL, f"the data directory {path} is not a directory ({existing})", fix)
    if existing != path:
        if os.access(existing, os.W_OK | os.X_OK):
            return Finding(OK, f"the data directory {path} will be created in {existing}")
        return Finding(FAIL, f"the data directory {path} is missing and cannot be created", fix)
    card = card_finding(path)
    if card is not None:
        return card
    try:
        with tempfile.NamedTemporaryFile(dir=path, prefix=".doctor-"):
            pass
    except OSError as exc:
        if exc.errno in (errno.EROFS, errno.EIO, errno.ENOSPC):
            return card_finding(path, exc.errno) or Finding(FAIL, str(exc))
        return Finding(FAIL, f"the data directory {path} is not writable ({exc.strerror})", fix)
    return Finding(OK, f"the data directory {path} is writable")


# Below this, the card is as good as full: a game's commands need little,
# but SQLite needs room for its write-ahead log.
CARD_LOW_BYTES = 1024 * 1024


def copy_journal_off(path: Path) -> str:
    """The command that copies the journal off the card, to a USB stick: its
    file and its write-ahead log (the latest commands) when there is one (a
    clean stop leaves none).  The data directory is the service's alone
    (0750), so root's shell, not the user's, finds the files."""
    return (f'sudo sh -c "cp --preserve=timestamps {path}/companion.db* /media/$USER/<stick>/" '
            f"(or from a computer: ssh pi@companion.local \"sudo sh -c 'cd {path} && "
            "tar -cf - companion.db*'\" | tar -xf -)")


def card_finding(path: Path, error: int | None = None) -> Finding | None:
    """A card turned read-only (after an error) or full: what to do."""
    try:
        found = os.statvfs(path)
    except OSError:
        return None
    if error in (errno.EROFS, errno.EIO) or found.f_flag & os.ST_RDONLY:
        return Finding(
            FAIL, f"the memory card holding {path} is read-only: it has failed (or its file "
            "system found an error) and nothing more can be recorded; the games so far can "
            "still be read",
            f"back up the journal now: {copy_journal_off(path)}; then replace the card, and "
            "put the copy in the new card's data directory")
    if error == errno.ENOSPC or found.f_bavail * found.f_frsize < CARD_LOW_BYTES:
        return Finding(
            FAIL, f"the memory card holding {path} is full: nothing more can be recorded",
            "free some space ('sudo journalctl --vacuum-size=50M', 'sudo apt-get clean', "
            f"old files), or back up the journal ({copy_journal_off(path)}) and move to a "
            "larger card; play goes on by itself once there is room")
    return None


def check_port(host: str, port: int) -> Finding:
    if port == 0:
        return Finding(OK, "the web port is chosen at start (port 0)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except PermissionError:
            return Finding(FAIL, f"port {port} needs privilege to listen on",
                           "use [web] port = 8080, or give the service "
                           "AmbientCapabilities=CAP_NET_BIND_SERVICE (see config.example.toml)")
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return Finding(FAIL, f"the web port {port} is taken",
                               f"{STOP_THE_SERVICE}, or choose another [web] port")
            return Finding(FAIL, f"cannot listen on {host}:{port} ({exc.strerror})",
                           "set [web] host to \"0.0.0.0\" or one of this machine's addresses")
    return Finding(OK, f"the web port {port} is free")


def check_phone_address(host: str, port: int,
                        finder: Callable[[str], str] | None = None) -> Finding:
    from web.discovery import is_loopback, panel_url, reachable_host

    if is_loopback(host):
        return Finding(WARN, f"the panel listens on {host} only: phones cannot reach it",
                       "set [web] host = \"0.0.0.0\"")
    address = (finder or reachable_host)(host)
    if is_loopback(address):
        return Finding(WARN, "this machine has no network address: phones cannot reach the panel",
                       "connect the Pi to the Wi-Fi ('sudo nmtui', or "
                       "'sudo raspi-config nonint do_wifi_ssid_passphrase SSID PASSWORD')")
    return Finding(OK, f"phones reach the panel at {panel_url(address, port)}")


def check_wifi(hotspot: bool | str = "auto", manager: Any = None) -> Finding:
    """Where the Wi-Fi is, through NetworkManager: on a network, the
    companion's own hotspot, or why neither.  A probe that fails (nmcli
    hung, output it cannot read, anything it raises) is a finding, never
    the end of the doctor."""
    from drivers.network import NetworkError

    fallback = ("the companion opens its own Wi-Fi when no known one connects"
                if hotspot is not False else "[network] hotspot = false: it will not open its own")
    try:
        if manager is None:
            from drivers.network import Nmcli

            manager = Nmcli()
        state = manager.state()
    except NetworkError as exc:
        return Finding(FAIL, f"NetworkManager cannot be asked about the Wi-Fi ({exc})",
                       exc.fix or "'nmcli general status' says more; "
                                  "'sudo systemctl restart NetworkManager' may help")
    except Exception as exc:
        return Finding(FAIL, f"the Wi-Fi could not be checked ({type(exc).__name__}: {exc})",
                       "'nmcli general status' says more; "
                       "'sudo systemctl restart NetworkManager' may help")
    return _wifi_finding(state, manager, fallback)


def _wifi_finding(state: Any, manager: Any, fallback: str) -> Finding:
    """What the Wi-Fi's state says, as a finding."""
    if state.kind == "no-manager":
        detail = state.detail or "NetworkManager is not running"
        return Finding(WARN, f"no NetworkManager ({detail}): the companion cannot open "
                             "its own Wi-Fi at a place it knows none",
                       _no_manager_fix(detail))
    if state.kind == "no-device":
        return Finding(WARN, "no Wi-Fi device" + (f": {state.detail}" if state.detail else ""),
                       "'rfkill unblock wifi' and set the Wi-Fi country: "
                       "'sudo raspi-config nonint do_wifi_country GB' (your country's code)")
    if state.kind == "connected":
        where = state.address or "no address yet"
        try:
            internet = manager.connectivity() if hasattr(manager, "connectivity") else None
        except Exception:
            internet = None
        if internet:
            where += f"; internet: {internet}"
        return Finding(OK, f"Wi-Fi connected to {state.ssid} ({where})")
    if state.kind == "hotspot":
        return Finding(OK, f"the companion is its own Wi-Fi '{state.ssid}' at {state.address}: "
                           "its table screen shows how to join")
    if state.kind == "connecting":
        return Finding(OK, f"Wi-Fi connecting to {state.ssid or 'a known network'}")
    return Finding(WARN, f"the Wi-Fi is on no network; {fallback}",
                   "join one from the panel's Wi-Fi page, or 'sudo nmcli --ask device wifi "
                   "connect NAME'")


def _no_manager_fix(detail: str) -> str:
    """The command that fixes what keeps NetworkManager from answering."""
    if "nmcli is not installed" in detail:
        return ("'sudo apt install network-manager' (Raspberry Pi OS Bookworm has it), "
                "then 'sudo systemctl enable --now NetworkManager'")
    if "D-Bus" in detail:
        return ("start the system D-Bus: 'sudo systemctl start dbus', then "
                "'sudo systemctl restart NetworkManager' (or reboot)")
    return "'sudo systemctl enable --now NetworkManager'"


def check_speaker(voice: Any, paths: Paths = Paths(),
                  which: Callable[[str], str | None] = shutil.which) -> Finding:
    """The caller's speaker (``[voice]``): espeak-ng and aplay installed and,
    with an I2S amplifier, its overlay in config.txt."""
    if not voice.enabled:
        return Finding(OK, "no speaker ([voice] enabled = false): phones may speak instead")
    missing = [program for program in ("espeak-ng", "aplay") if which(program) is None]
    if missing:
        return Finding(FAIL, f"the speaker needs {' and '.join(missing)}, not installed",
                       "'sudo apt-get install espeak-ng alsa-utils'")
    if voice.amplifier != "none":
        config = boot_config(paths)
        overlay = f"dtoverlay={voice.amplifier}"
        lines = config.read_text(errors="replace").splitlines() if config else []
        if not any(line.strip().split("#")[0].strip() == overlay for line in lines):
            return Finding(WARN, f"the I2S amplifier's overlay is not in config.txt ({overlay})",
                           f"add {overlay} to config.txt (the installer does), then reboot")
    return Finding(OK, f"the speaker: espeak-ng and aplay on ALSA device {voice.device!r}"
                       " (try: speaker-test -D " + voice.device + " -t wav -c 1 -l 1)")


# -- all of them --------------------------------------------------------------------


def run_checks(config: Any, data_dir: Path, *, paths: Paths = Paths(),
               pin_factory: Any = None,
               probe: Callable[[Path, int], None] = probe_i2c,
               claim: Callable[[str, int, Any], None] | None = None,
               serial_access: Callable[[str, int], bool] = os.access,
               finder: Callable[[str], str] | None = None,
               network: Any = None) -> list[Finding]:
    """Every check, in the order a set-up is built; ``config`` is a
    :class:`companion.host.config.Config`."""
    display = config.display
    return [
        *check_i2c(display.i2c_bus, paths),
        check_display(display.i2c_bus, display.address, display.controller, paths, probe),
        *check_pins(config.pins(), pin_factory, claim),
        check_serial(config.serial.port, config.dice.source, serial_access),
        check_data_dir(data_dir),
        check_port(config.web.host, config.web.port),
        check_phone_address(config.web.host, config.web.port, finder),
        check_wifi(config.network.hotspot, network),
        check_speaker(config.voice, paths),
    ]


def report(findings: Iterable[Finding]) -> str:
    return "\n".join(f.line() for f in findings)


def exit_status(findings: Iterable[Finding]) -> int:
    """Non-zero when anything failed: scripts can run the doctor."""
    return 1 if any(f.level == FAIL for f in findings) else 0
