"""The companion's configuration: a TOML file, its defaults and its checks.

Every pin, bus, address and port of the table kit is a default here, never a
constant elsewhere (the defaults are the wiring of docs/build.md).  A file
names only what differs from them.  Loading is strict: an unknown section or
key, or a value of the wrong kind, is refused with an error that names the
key and says what is allowed, because a typo in a pin number that was
silently ignored would leave a button dead with no clue why.

Pure: no hardware, no third-party imports.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from companion.core.caller import MOMENTS
from companion.core.errors import CompanionError
from companion.core.keys import DICE_SOURCES, KEYS
from companion.core.text import LANGUAGES

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/companion/config.toml")
# Where the service keeps its journal; systemd's StateDirectory=companion.
SERVICE_DATA_DIR = Path("/var/lib/companion")

CONTROLLERS = ("ssd1306", "sh1106")
ROTATIONS = (0, 2)
BAUD_RATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
# BCM numbers of the 40-pin header's GPIO lines.
GPIO_RANGE = range(28)
# GPIO 2 and 3 are SDA and SCL of I2C bus 1, which the display uses.
I2C_PINS = {2: "SDA", 3: "SCL"}
# GPIO 14 and 15 are TXD and RXD of the Pi's own serial port (UART), which a
# dice device wired to the header uses; these names of the port mean it is.
UART_PINS = {14: "TXD", 15: "RXD"}
PI_UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
# The 40-pin header: the header pin of each BCM GPIO line, and its power pins.
HEADER_PIN_OF_GPIO = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18,
    10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32,
    13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}
HEADER_3V3 = (1, 17)
HEADER_5V = (2, 4)
HEADER_GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
# 7-bit I2C addresses outside the reserved ranges.
I2C_ADDRESSES = range(0x03, 0x78)
DIE_FACE_LEDS = 7
# An mDNS instance name is one DNS label.
MAX_SERVICE_NAME = 63


class ConfigError(CompanionError, ValueError):
    """The config file cannot be used: it says which key and what is allowed."""


class MissingConfig(CompanionError, FileNotFoundError):
    """The config file named on the command line does not exist."""


# -- value checks: each returns the value to keep or raises ValueError --------


def _int(value: Any, allowed: range | tuple[int, ...], what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise ValueError(f"{what}, not {value!r}")
    return value


def gpio_pin(value: Any) -> int:
    pin = _int(value, GPIO_RANGE, "a BCM GPIO number from 0 to 27")
    if pin in I2C_PINS:
        raise ValueError(
            f"a pin other than {pin} (GPIO {pin} is {I2C_PINS[pin]} of the display's I2C bus)"
        )
    return pin


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"true or false, not {value!r}")
    return value


def boolean_or_auto(value: Any) -> bool | str:
    if value == "auto" or isinstance(value, bool):
        return value
    raise ValueError(f'true, false or "auto", not {value!r}')


def one_of(choices: tuple) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or value not in choices:
            listed = ", ".join(repr(c) if isinstance(c, str) else str(c) for c in choices)
            raise ValueError(f"one of {listed}, not {value!r}")
        return value

    return check


def i2c_bus(value: Any) -> int:
    return _int(value, range(64), "an I2C bus number from 0 to 63 (1 on a Raspberry Pi)")


def i2c_address(value: Any) -> int:
    shown = f"{value:#04x}" if isinstance(value, int) and not isinstance(value, bool) else value
    if isinstance(value, bool) or not isinstance(value, int) or value not in I2C_ADDRESSES:
        raise ValueError(f"a 7-bit I2C address from 0x03 to 0x77 (0x3C or 0x3D), not {shown!s}")
    return value


def tcp_port(value: Any) -> int:
    return _int(value, range(65536), "a TCP port from 1 to 65535 (0: any free port)")


def listen_address(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"an IP address such as \"0.0.0.0\", not {value!r}")
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise ValueError(
            f"an IP address: \"0.0.0.0\" (every network), \"127.0.0.1\" (this machine "
            f"only) or one of the machine's addresses, not {value!r}"
        ) from None


def text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"a non-empty string, not {value!r}")
    return value.strip()


def service_name(value: Any) -> str:
    name = text(value)
    if len(name.encode()) > MAX_SERVICE_NAME or "." in name:
        raise ValueError(
            f"a name of at most {MAX_SERVICE_NAME} bytes without dots, not {value!r}"
        )
    return name


def die_face_pins(value: Any) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != DIE_FACE_LEDS:
        raise ValueError(
            f"a list of {DIE_FACE_LEDS} GPIO pins (top-left, top-right, middle-left, "
            f"centre, middle-right, bottom-left, bottom-right), not {value!r}"
        )
    return tuple(gpio_pin(pin) for pin in value)


def debounce_ms(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 50:
        raise ValueError(f"milliseconds from 0 to 50 (a few: 5), not {value!r}")
    return float(value)


PIXELS_ROLES = ("red", "blue", "d6")


def pixels_dice(value: Any) -> tuple[tuple[str, str | None], ...]:
    """Pixels dice as "AA:BB:CC:DD:EE:FF d6" (a Bluetooth address and the
    game's die it plays: red, blue or d6; without one, it is only shown)."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f'a list such as ["AA:BB:CC:DD:EE:FF d6"], not {value!r}')
    dice = []
    for entry in value:
        words = entry.split() if isinstance(entry, str) else []
        if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1] not in PIXELS_ROLES):
            raise ValueError(f'"<address> [red|blue|d6]" for each die, not {entry!r}')
        dice.append((words[0].upper(), words[1] if len(words) == 2 else None))
    return tuple(dice)


def session_hours(value: Any) -> int:
    return _int(value, range(1, 24 * 7 + 1),
                "a whole number of hours from 1 to 168 (a week)")


def optional_path(value: Any) -> str:
    return text(value)


def _key(check: Callable[[Any], Any], default: Any, doc: str = "") -> Any:
    return field(default=default, metadata={"check": check, "doc": doc})


# -- the sections ---------------------------------------------------------------


@dataclass(frozen=True)
class Buttons:
    """Momentary buttons to ground, read with the internal pull-ups."""

    up: int = _key(gpio_pin, 5)
    down: int = _key(gpio_pin, 6)
    ok: int = _key(gpio_pin, 13)
    back: int = _key(gpio_pin, 19)
    roll: int = _key(gpio_pin, 26)
    # How long a line must stay low for a press (a shorter glitch is none).
    debounce_ms: float = _key(debounce_ms, 5.0)


@dataclass(frozen=True)
class Encoder:
    """A KY-040 rotary encoder instead of UP/DOWN/OK."""

    enabled: bool = _key(boolean, False)
    a: int = _key(gpio_pin, 17)
    b: int = _key(gpio_pin, 27)
    push: int = _key(gpio_pin, 22)


@dataclass(frozen=True)
class Buzzer:
    """The buzzer that beeps for a game's alerts."""

    enabled: bool = _key(boolean, True)
    pin: int = _key(gpio_pin, 12)


@dataclass(frozen=True)
class Leds:
    """The seven LEDs that show a die's face."""

    enabled: bool = _key(boolean, True)
    pins: tuple[int, ...] = _key(die_face_pins, (16, 20, 21, 23, 24, 25, 18))


@dataclass(frozen=True)
class DisplaySettings:
    """The OLED on the I2C bus."""

    controller: str = _key(one_of(CONTROLLERS), "ssd1306")
    width: int = _key(one_of((128,)), 128)
    height: int = _key(one_of((64,)), 64)
    i2c_bus: int = _key(i2c_bus, 1)
    address: int = _key(i2c_address, 0x3C)
    rotate: int = _key(one_of(ROTATIONS), 0)


@dataclass(frozen=True)
class SerialSettings:
    """A dice device on a serial port (its protocol: docs/build.md)."""

    # "auto": the one dice device under /dev/serial/by-id/.
    port: str = _key(text, "auto")
    baud: int = _key(one_of(BAUD_RATES), 9600)


@dataclass(frozen=True)
class Dice:
    """Where the table's rolls come from."""

    source: str = _key(one_of(DICE_SOURCES), "button")


@dataclass(frozen=True)
class Pixels:
    """Pixels smart dice over Bluetooth LE (bleak; the "pixels" extra)."""

    dice: tuple[tuple[str, str | None], ...] = _key(pixels_dice, ())


@dataclass(frozen=True)
class Web:
    """The phones' panel."""

    host: str = _key(listen_address, "0.0.0.0")
    # 8080 needs no privilege: the service keeps an empty capability set.
    port: int = _key(tcp_port, 8080)
    # "auto": announced by the service on a Pi, not by a simulation on a laptop.
    mdns: bool | str = _key(boolean_or_auto, "auto")
    name: str = _key(service_name, "Tabletop Companion")
    # How long a phone that joined stays a controller: one game night.
    session_hours: int = _key(session_hours, 12)


# The I2S amplifiers the installer knows (the Pi's device tree overlay of
# each), and the pins every I2S amplifier takes: BCLK, LRCLK (LRC) and DIN.
AMPLIFIERS = ("none", "max98357a", "hifiberry-dac")
I2S_PINS = {18: "BCLK", 19: "LRCLK", 21: "DIN"}
# espeak-ng's words per minute and amplitude.
VOICE_SPEEDS = range(80, 451)
VOICE_VOLUMES = range(201)


def alsa_device(value: Any) -> str:
    found = text(value)
    if not found or any(c.isspace() for c in found):
        raise ValueError(f'an ALSA device name such as "default", "plughw:1,0" or "null", '
                         f'not {value!r}')
    return found


def voice_speed(value: Any) -> int:
    return _int(value, VOICE_SPEEDS, "words per minute from 80 to 450")


def voice_volume(value: Any) -> int:
    return _int(value, VOICE_VOLUMES, "a volume from 0 to 200 (100 is espeak-ng's own)")


def moments(value: Any) -> tuple[str, ...]:
    if isinstance(value, (list, tuple)) and all(m in MOMENTS for m in value):
        return tuple(m for m in MOMENTS if m in value)
    raise ValueError(f"a list of moments among {', '.join(MOMENTS)}, not {value!r}")


@dataclass(frozen=True)
class Voice:
    """The caller on the table's own speaker (espeak-ng through ALSA)."""

    enabled: bool = _key(boolean, False)
    # The ALSA device lines are played on ("default", "plughw:1,0"...).
    device: str = _key(alsa_device, "default")
    # An I2S amplifier on the header (its pins are then taken): the
    # installer enables its overlay.
    amplifier: str = _key(one_of(AMPLIFIERS), "none")
    speed: int = _key(voice_speed, 160)
    volume: int = _key(voice_volume, 100)
    moments: tuple[str, ...] = _key(moments, MOMENTS)


# How long a known Wi-Fi may take to connect before the hotspot opens.
NETWORK_WAIT = range(3601)


def hotspot_mode(value: Any) -> bool | str:
    if value == "auto" or isinstance(value, bool):
        return value
    raise ValueError(f'true (always its own Wi-Fi), false (never) or "auto" (when no '
                     f'known Wi-Fi connects), not {value!r}')


def seconds_to_wait(value: Any) -> int:
    return _int(value, NETWORK_WAIT, "a number of seconds from 0 to 3600")


def access_point_name(value: Any) -> str:
    """ "auto" (Companion-NNNN, a number of this device) or a Wi-Fi name:
    1 to 32 bytes, no control characters."""
    name = text(value)
    if name == "auto":
        return name
    if len(name.encode()) > 32 or any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise ValueError(f'"auto" or a Wi-Fi name of 1 to 32 bytes, not {value!r}')
    return name


@dataclass(frozen=True)
class Network:
    """The Wi-Fi: the companion's own access point when no known network
    connects (through NetworkManager)."""

    hotspot: bool | str = _key(hotspot_mode, "auto")
    wait: int = _key(seconds_to_wait, 45)
    name: str = _key(access_point_name, "auto")


def broker_host(value: Any) -> str:
    """A broker's host name or address ("" leaves the venue off)."""
    from companion.core.venue import host_problem

    host = value.strip() if isinstance(value, str) else value
    problem = host_problem(host)
    if problem is not None:
        raise ValueError(problem)
    return str(host)


def venue_name(value: Any) -> str:
    """A venue's or a table's name, as people read it ("Table 4"): its topic
    level is made of its letters and digits (transliterated: "Café" is
    ``cafe``)."""
    from companion.venue.names import topic_level

    name = text(value) if value != "" else ""
    if name:
        topic_level(name)  # raises ValueError for a name of no letter or digit
    if len(name) > 60:
        raise ValueError(f"a name of at most 60 characters, not {value!r}")
    return name


def credential(value: Any) -> str:
    """A broker's user name or password, as typed (spaces kept)."""
    if not isinstance(value, str) or len(value) > 256 or "\0" in value:
        raise ValueError("a string of at most 256 characters")
    return value


def queue_limit(value: Any) -> int:
    return _int(value, range(100, 1_000_001), "a number of messages from 100 to 1000000")


@dataclass(frozen=True)
class Venue:
    """A venue of tables on an MQTT broker: off while ``broker`` is empty.
    The table publishes its game, its events and its results there (see
    docs/venue.md); the password is never logged, shown or published."""

    broker: str = _key(broker_host, "")
    port: int = _key(tcp_port, 1883)
    tls: bool = _key(boolean, False)
    ca_file: str = _key(optional_path, "")
    cert_file: str = _key(optional_path, "")
    key_file: str = _key(optional_path, "")
    username: str = _key(credential, "")
    password: str = field(default="", repr=False, metadata={"check": credential, "doc": ""})
    venue: str = _key(venue_name, "venue")
    table: str = _key(venue_name, "")
    home_assistant: bool = _key(boolean, True)
    # What is kept for the broker while it is away, at most (oldest first out).
    queue: int = _key(queue_limit, 10_000)

    @property
    def enabled(self) -> bool:
        return bool(self.broker)


def bgg_id(value: Any) -> int:
    """BoardGameGeek's id of a game (the number in its page's address), or 0
    when it is not known."""
    return _int(value, range(10**9), "BoardGameGeek's id of the game (a whole number), "
                                     "or 0 for none")


@dataclass(frozen=True)
class Bgg:
    """BoardGameGeek's id of each game, given with a play logged in BG Stats
    so that it is matched to the right game (0: matched by its name)."""

    call_of_nature: int = _key(bgg_id, 0)
    ohshit: int = _key(bgg_id, 0)
    bathroom_rush: int = _key(bgg_id, 0)

    def ids(self) -> dict[str, int]:
        """The ids known, by game key."""
        found = {"call-of-nature": self.call_of_nature, "ohshit": self.ohshit,
                 "bathroom-rush": self.bathroom_rush}
        return {key: number for key, number in found.items() if number}


SECTIONS: dict[str, type] = {
    "buttons": Buttons,
    "encoder": Encoder,
    "buzzer": Buzzer,
    "leds": Leds,
    "display": DisplaySettings,
    "serial": SerialSettings,
    "dice": Dice,
    "pixels": Pixels,
    "web": Web,
    "network": Network,
    "venue": Venue,
    "bgg": Bgg,
    "voice": Voice,
}

TOP_LEVEL: dict[str, Callable[[Any], Any]] = {
    "language": one_of(LANGUAGES),
    "data_dir": optional_path,
}


@dataclass(frozen=True)
class Config:
    """The whole configuration.  ``data_dir`` is ``None`` unless the file
    names one: the daemon then chooses (the service's state directory, or
    the user's data directory in simulation)."""

    language: str = "en"
    data_dir: str | None = None
    buttons: Buttons = field(default_factory=Buttons)
    encoder: Encoder = field(default_factory=Encoder)
    buzzer: Buzzer = field(default_factory=Buzzer)
    leds: Leds = field(default_factory=Leds)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    serial: SerialSettings = field(default_factory=SerialSettings)
    dice: Dice = field(default_factory=Dice)
    pixels: Pixels = field(default_factory=Pixels)
    web: Web = field(default_factory=Web)
    network: Network = field(default_factory=Network)
    venue: Venue = field(default_factory=Venue)
    bgg: Bgg = field(default_factory=Bgg)
    voice: Voice = field(default_factory=Voice)

    def pins(self) -> dict[str, int]:
        """Every GPIO pin in use, by role ("button up", "led 3"...).  An
        encoder replaces the UP, DOWN and OK buttons: their pins are free."""
        buttons = ("back", "roll") if self.encoder.enabled else KEYS
        roles = {f"button {name}": getattr(self.buttons, name) for name in buttons}
        if self.encoder.enabled:
            roles.update({f"encoder {name}": getattr(self.encoder, name)
                          for name in ("a", "b", "push")})
        if self.buzzer.enabled:
            roles["buzzer"] = self.buzzer.pin
        if self.leds.enabled:
            roles.update({f"led {n}": pin for n, pin in enumerate(self.leds.pins, 1)})
        if self.uses_i2s():
            roles.update({f"amplifier {name}": pin for pin, name in I2S_PINS.items()})
        return roles

    def uses_i2s(self) -> bool:
        """An I2S amplifier is wired to the header (GPIO 18, 19 and 21)."""
        return self.voice.enabled and self.voice.amplifier != "none"

    def uses_pi_uart(self) -> bool:
        """The dice device is wired to the Pi's own serial port (GPIO 14 and 15)."""
        return self.serial.port in PI_UART_PORTS

    def with_web(self, *, host: str | None = None, port: int | None = None) -> Config:
        """The same config listening elsewhere (the --host and --port flags)."""
        web = self.web
        if host is not None:
            web = dataclasses.replace(
                web, host=_checked("web", "host", listen_address, host, "--host"))
        if port is not None:
            web = dataclasses.replace(web, port=_checked("web", "port", tcp_port, port, "--port"))
        return dataclasses.replace(self, web=web)


# -- loading ----------------------------------------------------------------------


def load(path: Path | str | None) -> Config:
    """The config at ``path``; ``None`` means the default file, and a missing
    default file means the built-in defaults (a fresh install works)."""
    explicit = path is not None
    path = Path(path) if path is not None else DEFAULT_PATH
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if explicit:
            raise MissingConfig(
                f"no config file at {path}; copy config.example.toml there, or leave "
                f"out --config to use {DEFAULT_PATH} (or the built-in defaults)"
            ) from None
        log.info("no config file at %s: using the built-in defaults", path)
        return Config()
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror}") from exc
    return parse(raw.decode("utf-8", errors="replace"), source=str(path))


def parse(text_: str, source: str = "config") -> Config:
    try:
        data = tomllib.loads(text_)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source} is not valid TOML: {exc}") from None
    return from_mapping(data, source)


def from_mapping(data: Mapping[str, Any], source: str = "config") -> Config:
    """Check every key of an already-parsed TOML document."""
    known = sorted([*TOP_LEVEL, *(f"[{s}]" for s in SECTIONS)])
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in TOP_LEVEL:
            values[key] = _checked(None, key, TOP_LEVEL[key], value, source)
        elif key in SECTIONS:
            if not isinstance(value, Mapping):
                raise ConfigError(f"{source}: {key} must be a section [{key}], not a value")
            values[key] = section(key, SECTIONS[key], value, source)
        else:
            raise ConfigError(
                f"{source}: unknown key {key!r}; the known keys and sections are: "
                f"{', '.join(known)}"
            )
    config = Config(**values)
    _check_pins_distinct(config, source)
    return config


def section(name: str, cls: type, data: Mapping[str, Any], source: str) -> Any:
    """The section ``[name]`` of ``cls`` from ``data``, every key checked
    (:class:`ConfigError` names the source, the key and what it must be)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values = {}
    for key, value in data.items():
        if key not in fields:
            raise ConfigError(
                f"{source}: unknown key {key!r} in [{name}]; the keys of [{name}] are: "
                f"{', '.join(fields)}"
            )
        values[key] = _checked(name, key, fields[key].metadata["check"], value, source)
    return cls(**values)


def _checked(section: str | None, key: str, check: Callable[[Any], Any], value: Any,
             source: str) -> Any:
    try:
        return check(value)
    except ValueError as exc:
        where = f"[{section}] {key}" if section else key
        raise ConfigError(f"{source}: {where} must be {exc}") from None


def _check_pins_distinct(config: Config, source: str) -> None:
    owner: dict[int, str] = {}
    if config.uses_pi_uart():
        owner.update({pin: f"{name} of the Pi's serial port, which [serial] port = "
                           f"\"{config.serial.port}\" uses"
                      for pin, name in UART_PINS.items()})
    for role, pin in config.pins().items():
        if pin in UART_PINS and pin in owner:
            raise ConfigError(
                f"{source}: GPIO {pin} is given to the {role}, but it is {owner[pin]}; "
                f"wire the {role} to another pin, or set [serial] port to a USB device"
            )
        if pin in owner:
            raise ConfigError(
                f"{source}: GPIO {pin} is given to both the {owner[pin]} and the {role}; "
                f"each pin can serve one role only"
            )
        owner[pin] = role


# -- the wiring ---------------------------------------------------------------------


def wiring_pins(config: Config) -> list[tuple[int, str]]:
    """Every header pin the config uses, as (header pin 1-40, role), in the
    order a person wires them: the display (3.3 V, SDA, SCL, GND), the keys
    or the encoder and their ground, the buzzer, the LEDs and their ground,
    then the dice device on the Pi's own serial port if it is wired there.
    A role names a GPIO's use as :meth:`Config.pins` does ("button up",
    "encoder a", "buzzer", "led 3"); :data:`HEADER_PIN_OF_GPIO` maps back."""
    display = config.display.controller.upper()
    wired: list[tuple[int, str]] = [
        (HEADER_3V3[0], f"display VCC ({display}, 3.3 V)"),
        (HEADER_PIN_OF_GPIO[2], "display SDA"),
        (HEADER_PIN_OF_GPIO[3], "display SCL"),
        (HEADER_GROUND[1], "display GND"),
    ]
    roles = config.pins()
    keys = [(pin, role) for role, pin in roles.items()
            if role.startswith(("button ", "encoder "))]
    outputs = [(pin, role) for role, pin in roles.items() if role == "buzzer"]
    leds = [(pin, role) for role, pin in roles.items() if role.startswith("led ")]
    wired += [(HEADER_PIN_OF_GPIO[pin], role) for pin, role in keys]
    if config.encoder.enabled:
        wired.append((HEADER_3V3[1], "encoder + (3.3 V)"))
    wired.append((HEADER_GROUND[-1], "keys' ground (GND)"))
    wired += [(HEADER_PIN_OF_GPIO[pin], role) for pin, role in outputs + leds]
    if outputs or leds:
        wired.append((HEADER_GROUND[-3], "ground of the buzzer and LEDs (GND)"))
    wired += _amplifier_wires(roles)
    if config.uses_pi_uart():
        wired += [(HEADER_PIN_OF_GPIO[14], "dice device RX (the Pi's TXD)"),
                  (HEADER_PIN_OF_GPIO[15], "dice device TX (the Pi's RXD)"),
                  (HEADER_GROUND[-2], "dice device GND")]
    return wired


def _amplifier_wires(roles: Mapping[str, int]) -> list[tuple[int, str]]:
    """An I2S amplifier's header pins: 5 V, its three signals, ground."""
    signals = [(HEADER_PIN_OF_GPIO[pin], role) for role, pin in roles.items()
               if role.startswith("amplifier ")]
    if not signals:
        return []
    return [(HEADER_5V[0], "amplifier VIN (5 V)"), *signals, (HEADER_GROUND[2], "amplifier GND")]


def header_pin(gpio: int) -> int:
    """The 40-pin header's pin of a BCM GPIO number."""
    return HEADER_PIN_OF_GPIO[gpio]
