"""The hardware the daemon starts, each as a component of its life cycle.

Each part wraps one driver of this package: the display, the keys, the
buzzer and die-face LEDs, and the dice sources.  Drivers are imported when
a part starts, so that a missing library is a fault of that part (shown on
the panel, tried again) rather than the end of the companion.
"""

from __future__ import annotations

import json
import logging
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from companion.core.engine import Command
from companion.core.errors import CompanionError, NoGame, NotExpected
from companion.core.table import (
    ANY_GAME,
    ANY_SEAT,
    ExpectedGame,
    Seat,
    Table,
    Update,
    check_made_against,
)
from companion.parts.bus import DiceChanged, KeyPressed, PixelsRolled
from companion.parts.lifecycle import Component, Retrying, Setup

log = logging.getLogger(__name__)

# How long the panel's roll waits for the simulated dice device's roll to be played.
SIMULATED_ROLL_TIMEOUT = 2.0


class GpioUnavailable(CompanionError, OSError):
    """The GPIO cannot be used; the message says what to check."""


@contextmanager
def explained_gpio_failures() -> Iterator[None]:
    """Turn what gpiozero and the pin libraries raise when the GPIO cannot be
    used into a message that says what to check: players read it on the
    panel, and gpiozero's own ("Unable to load any default pin factory!",
    after a warning of several lines for each pin library it tried) names
    neither the cause nor a remedy.  The log gets one line."""
    from gpiozero.exc import BadPinFactory

    from drivers.gpio import no_gpio_reason, pin_factory_fallbacks

    with pin_factory_fallbacks() as fallbacks:
        try:
            yield
        except BadPinFactory as exc:
            raise GpioUnavailable(no_gpio_reason(fallbacks)) from exc
        except PermissionError as exc:
            raise GpioUnavailable(
                f"no permission to use the GPIO ({exc.filename or exc.strerror}): add the "
                "companion's user to the 'gpio' group") from exc
        except Exception as exc:
            # lgpio says "GPIO busy" for a line another program holds.
            if "busy" not in str(exc).lower():
                raise
            raise GpioUnavailable(
                f"a pin is held by another program ({exc}): stop that program, or wire "
                "to other pins and change them in the config") from exc
        if fallbacks.reasons:
            # A pin library further down gpiozero's list works: say what the
            # first ones lacked, once (gpiozero picks its library once).
            log.warning("the GPIO works through a fallback pin library (%s)", fallbacks.summary())


class DisplayPart(Component):
    """The OLED (or, in simulation, the real driver over a recording bus).
    The setup's ``i2c`` replaces the I2C bus with any serial interface luma
    drives."""

    name = "display"
    provides = ("display",)

    def __init__(self, setup: Setup) -> None:
        self.config = setup.config
        self.simulate = setup.simulate
        self.bus = setup.i2c
        self.display: Any = None
        # The last screen, left lit once the companion has stopped.
        self.farewell = "Companion is off"

    def start(self) -> None:
        from drivers.oled import Display, RecordingInterface
        from drivers.screens.words import word

        if self.farewell == "Companion is off":
            self.farewell = word("off", self.config.language)
        settings = self.config.display
        bus = self.bus
        if bus is None and self.simulate:
            bus = RecordingInterface(keep=0)
        self.display = Display(settings.controller, port=settings.i2c_bus,
                               address=settings.address, rotate=settings.rotate,
                               serial_interface=bus)

    def fault(self) -> str | None:
        if self.display is None:
            return "display: not started"
        return None if self.display.ok else f"display: {self.display.status}"

    def stop(self) -> None:
        if self.display is not None:
            self.display.off(self.farewell)


class KeypadPart(Retrying):
    """The five buttons (or the encoder): each press is told on the bus
    (:class:`~companion.parts.bus.KeyPressed`), where the table's screen hears it."""

    name = "buttons"
    what = "buttons"
    provides = ("keypad",)

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.config = setup.config
        self.bus = setup.bus
        self.pin_factory = setup.pin_factory
        self.keypad: Any = None

    def open(self) -> None:
        from drivers.buttons import EncoderPins, Keypad

        buttons, encoder = self.config.buttons, self.config.encoder
        with explained_gpio_failures():
            self.keypad = Keypad(
                lambda key, kind: self.bus.tell(KeyPressed(key, kind)),
                pins={"up": buttons.up, "down": buttons.down, "ok": buttons.ok,
                      "back": buttons.back, "roll": buttons.roll},
                encoder=(EncoderPins(encoder.a, encoder.b, encoder.push)
                         if encoder.enabled else None),
                debounce=buttons.debounce_ms / 1000,
                pin_factory=self.pin_factory(),
            )

    def close(self) -> None:
        self.keypad.close()

    def press(self, key: str) -> None:
        """The virtual table's buttons: drive the mock pins."""
        if self.keypad is None:
            raise RuntimeError("the buttons are not running")
        self.keypad.press(key)


class OutputsPart(Retrying):
    """The buzzer and the die-face LEDs, when wired: both listen to the
    table (the LEDs show the rolls the dice tray played)."""

    name = "outputs"
    what = "buzzer and LEDs"

    needs = ("table",)

    def __init__(self, setup: Setup, *, table: Table) -> None:
        super().__init__()
        self.config = setup.config
        self.table = table
        self.pin_factory = setup.pin_factory
        self._devices: list[Any] = []
        self._unsubscribes: list[Callable[[], None]] = []

    def open(self) -> None:
        from drivers.alerts import AlertBuzzer, DieFace
        from drivers.dice import RollListener

        pin_factory = self.pin_factory()
        try:
            with explained_gpio_failures():
                if self.config.buzzer.enabled:
                    buzzer = AlertBuzzer(self.config.buzzer.pin, pin_factory=pin_factory)
                    self._devices.append(buzzer)
                    self._unsubscribes.append(self.table.subscribe(buzzer.on_update))
                if self.config.leds.enabled:
                    face = DieFace(self.config.leds.pins, pin_factory=pin_factory)
                    self._devices.append(face)
                    current = self.table.current() if self.table.has_game else None
                    self._unsubscribes.append(
                        self.table.subscribe(RollListener(face.show_roll, current)))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        for unsubscribe in self._unsubscribes:
            unsubscribe()
        for device in self._devices:
            device.close()
        self._devices, self._unsubscribes = [], []


class DicePart(Component):
    """The dice service: the dice sources (the ROLL button, hand entry, and
    the serial device, a simulated one on a pseudo-terminal in simulation)
    and the one thing that submits rolls, whoever asked (the ROLL key, a
    phone, the device).  It is what the menu rolls with and what the panel
    gets as ``services.dice``; the rolls played are heard from the table."""

    name = "dice"
    needs = ("table", "pixels")
    provides = ("dice",)

    def __init__(self, setup: Setup, *, table: Table, pixels: PixelsPart | None) -> None:
        from drivers.dice import SOURCES

        self.config = setup.config
        self.table = table
        self.simulate = setup.simulate
        self.bus = setup.bus
        self.sources = SOURCES
        self.tray: Any = None
        self.reader: Any = None
        self.device: Any = None
        self._initial = self.config.dice.source
        # The Pixels dice (the "pixels" source), whose rolls come on the bus.
        self.pixels = pixels
        self._unsubscribe: Callable[[], None] = lambda: None

    def start(self) -> None:
        from drivers.dice import DiceTray
        from drivers.serial_dice import SerialDiceReader

        self.tray = DiceTray.at_table(self.table, source=self._initial)
        port = self.config.serial.port
        if self.simulate:
            from drivers.serial_dice import SimulatedDiceDevice

            self.device = SimulatedDiceDevice()
            port = self.device.port
        self.reader = SerialDiceReader(self.tray.on_serial_roll, port=port,
                                       baudrate=self.config.serial.baud).start()
        tray = self.tray
        self._unsubscribe = self.bus.subscribe(
            PixelsRolled, lambda rolled: tray.on_pixels_roll(*rolled))

    def stop(self) -> None:
        self._unsubscribe()
        if self.reader is not None:
            self.reader.stop()
        if self.device is not None:
            self.device.close()

    def fault(self) -> str | None:
        """The source in force that cannot roll: its device unplugged, or
        its Pixels dice out of reach."""
        if self.source == "pixels" and self.pixels is not None:
            away = self.pixels.away()
            return f"Pixels dice: {', '.join(away)} out of reach" if away else None
        if self.source != "serial" or self.reader is None:
            return None
        return None if self.reader.status == "connected" else f"dice device: {self.reader.status}"

    # -- what the menu and the panel use ----------------------------------

    @property
    def source(self) -> str:
        return self.tray.source if self.tray is not None else self._initial

    @source.setter
    def source(self, name: str) -> None:
        self.set_source(name)

    def set_source(self, name: str) -> None:
        self.tray.source = name  # ValueError names the sources
        log.info("dice source: %s", name)
        self.bus.tell(DiceChanged())

    @property
    def status(self) -> str:
        if self.source == "button":
            return "ROLL rolls the dice"
        if self.source == "manual":
            return "players roll their own dice and enter them"
        if self.source == "pixels":
            return pixels_status(self.pixels.dice() if self.pixels is not None else [])
        return f"dice device {self.reader.status}" if self.reader else "dice device not started"

    def roll_button(self) -> str | None:
        """The ROLL key (the menu calls it): ``None`` when the game took the
        roll, else why nothing was rolled."""
        return self.tray.on_roll_button()

    def roll(self, expected_version: int | None = None, *,
             expected_game: ExpectedGame = ANY_GAME, seat: Seat = ANY_SEAT) -> list[int]:
        """The panel's roll: roll what the game waits for with the system's
        randomness and play it (through the simulated device when that is
        the source, so that the serial path runs).  With ``expected_game``
        and ``expected_version`` it is refused (``StaleVersion``) if the
        table moved on meanwhile, say because someone pressed the table's
        ROLL button first, or started another game."""
        from drivers.dice import DICE_SOURCE, awaited_dice, roll

        if not self.table.has_game:
            raise NoGame("refusal.no-game")
        now = self.table.current()
        check_made_against(expected_game, expected_version, now.game_id, now.version)
        if self.tray is None:
            raise NotExpected("refusal.dice-starting", rule="starting")
        if self.source != "serial" or self.device is None:
            return self.tray.roll(expected_version, expected_game=expected_game, seat=seat)
        dice = awaited_dice(self.table.game.expected())
        if dice is None:
            raise NotExpected("refusal.not-waiting", rule="not-waiting")
        values = roll(dice)
        if seat is not ANY_SEAT:
            # The simulated device plays the roll as the table's dice do:
            # a phone of another seat is refused before it rolls.
            self.table.preview(Command("roll", {"values": values}),
                               expected_game=expected_game, expected_version=expected_version,
                               seat=seat)
        played = threading.Event()

        def heard(update: Update) -> None:
            if update.source == DICE_SOURCE and update.action == "command":
                played.set()

        unsubscribe = self.table.subscribe(heard)
        try:
            self.device.roll(dice.sides, values)
            # The reader thread plays it through the tray; answer once the table has it.
            played.wait(SIMULATED_ROLL_TIMEOUT)
        finally:
            unsubscribe()
        return values


def pixels_status(dice: list[Any]) -> str:
    """The Pixels dice as the panel shows them: each die's role, name,
    battery and whether it is in reach."""
    if not dice:
        return "no Pixels die paired: pair them from the menu or the panel"
    shown = []
    for die in dice:
        battery = f" {die.battery}%" if die.battery is not None else ""
        reach = "" if die.connected else " (out of reach)"
        shown.append(f"{die.role or 'no role'}: {die.name}{battery}{reach}")
    return "Pixels dice: " + "; ".join(shown)


class PixelsPart(Component):
    """Pixels smart dice (the "pixels" dice source): the dice of
    ``[pixels] dice`` and those paired at the table kept connected over
    Bluetooth LE, each settled roll handed to the dice tray as the serial
    device's are.  The menu and the panel look for dice in reach, pair
    them, give them roles and forget them (a
    :class:`~companion.core.ports.SmartDice`); what they pair is kept in
    ``directory``'s ``pixels.json`` and paired again at the next start.
    Bluetooth (and asyncio, and the hub's thread) starts with the first die
    to keep or to look for, not before."""

    name = "pixels"
    provides = ("pixels",)

    def __init__(self, setup: Setup, *, factory: Any = None, scanner: Any = None) -> None:
        self.config = setup.config
        self.bus = setup.bus
        if setup.simulate and factory is None:
            factory, scanner = simulated_pixels()
        self.factory = factory
        self.scanner = scanner
        self.saved = setup.directory / PAIRED_FILE
        self.hub: Any = None
        self._hub_lock = threading.Lock()
        self._stopped = False
        self._save_lock = threading.Lock()

    def start(self) -> None:
        """Pair the dice of the config and those paired before; with none,
        Bluetooth (and asyncio, and the hub's thread) waits for the first
        look or pairing."""
        configured = {address for address, _role in self.config.pixels.dice}
        before = [d for d in self.paired_before() if d[0] not in configured]
        if not configured and not before:
            return
        hub = self._hub()
        for address, role in self.config.pixels.dice:
            hub.pair(address, role=role)
        for address, name, role in before:
            hub.pair(address, name, role)

    def stop(self) -> None:
        with self._hub_lock:
            self._stopped = True
            if self.hub is not None:
                self.hub.stop()

    def away(self) -> list[str]:
        """The names of the dice given a role and out of reach."""
        return [d.name for d in self.dice() if not d.connected and d.role]

    # -- what the menu and the panel use (a SmartDice) --------------------

    @property
    def roles(self) -> tuple[str, ...]:
        from drivers.pixels import ROLES

        return ROLES

    @property
    def looking(self) -> bool:
        return self.hub is not None and self.hub.looking

    def look(self) -> bool:
        return self._hub().look()

    def in_reach(self) -> list[Any]:
        """The dice heard on the last look and not paired: name, battery."""
        return self.hub.in_reach() if self.hub is not None else []

    def pair(self, address: str, name: str = "", role: str | None = None) -> None:
        self._hub().pair(address, name, role)
        self._save()

    def assign(self, address: str, role: str | None) -> None:
        self._hub().assign(address, role)
        self._save()

    def forget(self, address: str) -> None:
        self._hub().forget(address)
        self._save()

    def dice(self) -> list[Any]:
        """Each die: name, role, battery, connected, last face."""
        return self.hub.dice() if self.hub is not None else []

    def _hub(self) -> Any:
        """The dice's hub, started when first needed."""
        with self._hub_lock:
            if self._stopped:
                raise RuntimeError("the Pixels dice are stopped")
            if self.hub is None:
                from drivers.pixels import PixelsDice

                options = {"factory": self.factory} if self.factory is not None else {}
                if self.scanner is not None:
                    options["scanner"] = self.scanner
                bus = self.bus
                self.hub = PixelsDice(
                    lambda role, sides, value: bus.tell(PixelsRolled(role, sides, value)),
                    on_change=lambda: bus.tell(DiceChanged()), **options).start()
            return self.hub

    # -- what was paired at the table ---------------------------------------

    def paired_before(self) -> list[tuple[str, str, str | None]]:
        """The dice paired at the table before, as ``(address, name, role)``;
        a file that cannot be read is logged and taken as none."""
        if self.saved is None or not self.saved.exists():
            return []
        try:
            found = json.loads(self.saved.read_text(encoding="utf-8"))
            return [(str(d["address"]), str(d.get("name") or ""),
                     d.get("role") if d.get("role") in self.roles else None)
                    for d in found["dice"]]
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("the paired Pixels dice in %s cannot be read (%s): none taken",
                        self.saved, error)
            return []

    def _save(self) -> None:
        if self.saved is None:
            return
        configured = {address for address, _role in self.config.pixels.dice}
        dice = [{"address": d.address, "name": d.name, "role": d.role}
                for d in self.dice() if d.address not in configured]
        from companion.host.storage import keep_file

        with self._save_lock:
            keep_file(self.saved, json.dumps({"dice": dice}, indent=1), mode=0o644)


# Where the dice paired at the table are kept, in the data directory.
PAIRED_FILE = "pixels.json"


def simulated_pixels() -> tuple[Any, Any]:
    """Made-up Pixels dice in reach, for the simulation (no Bluetooth
    needed): the client factory and the scanner."""

    # Loaded when first used, after the panel answers, as the driver is.
    def factory(address: str, on_disconnect: Callable[[Any], None]) -> Any:
        from drivers.pixels import SimulatedClient

        return SimulatedClient(address, on_disconnect)

    async def scanner(seconds: float, seen: Callable[[str, str, int | None], None]) -> None:
        from drivers.pixels import simulated_scanner

        await simulated_scanner(seconds, seen)

    return factory, scanner
