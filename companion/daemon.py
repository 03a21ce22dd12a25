"""``companion serve``: the appliance, and ``companion doctor``.

This is the composition root: the one module of ``companion/`` (besides the
CLI that calls it) that wires ``drivers/`` and ``web/`` around the table.

Components start in a fixed order and stop in the reverse order, whatever
happens (Mopidy's way).  Only the journal and the table are essential.  A
component that fails at start (no display, no serial port, no GPIO) is
logged by name, shown to the players as a fault on the panel, and tried
again from the main loop, while everything else goes on.

The main thread waits on a stop event with a timeout of half the systemd
watchdog interval.  Each time it wakes it checks that the table answers
(its lock can be taken) and that the web server's thread lives, and only
then sends ``WATCHDOG=1``: a hang anywhere stops the feeding and systemd
restarts the service.  SIGTERM and SIGINT set the stop event; stopping then
waits for the command in progress (the table's lock), closes the journal
and leaves "Companion is off" on the display.

``--simulate`` runs the whole companion on any computer: gpiozero's mock
pins for the keys and outputs, the real display driver over a recording
interface (the panel mirrors its frames), a simulated dice device on a
pseudo-terminal read by the real serial reader, and a virtual table page
whose buttons drive the mock pins.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import queue
import select
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping, TextIO

from . import config as config_module
from .config import Config, ConfigError, MissingConfig
from .errors import JournalError, NoGame, NotExpected

log = logging.getLogger("companion")

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_CONFIG = 2

JOURNAL_FILE = "companion.db"
SECRET_FILE = "panel-secret"
# How often the main loop wakes when no watchdog asks for more: failed
# components are retried and the phones' address followed.
IDLE_TICK = 5.0
# Waits before trying a failed component again; the last one repeats.
RETRY_DELAYS = (5.0, 10.0, 30.0, 60.0)
# How long the panel's roll waits for the simulated dice device's roll to be played.
SIMULATED_ROLL_TIMEOUT = 2.0
# How long READY=1 waits for the panel to answer its first request.
PANEL_START_TIMEOUT = 10.0


# -- systemd's notification protocol ---------------------------------------------


def sd_notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` ("READY=1", "WATCHDOG=1"...) to systemd: one datagram
    to ``$NOTIFY_SOCKET`` (``@`` starts an abstract socket name).  Returns
    False when not run by systemd; never raises."""
    address = (os.environ if environ is None else environ).get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("cannot notify systemd (%s): %s", message.split("=")[0], exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds systemd's watchdog allows between two WATCHDOG=1, or None."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds if seconds > 0 else None


class StopEvent:
    """A stop event that a signal handler may set.

    ``threading.Event.set()`` takes a lock that the main thread may be
    holding inside ``wait()`` when the signal lands, which would deadlock.
    Here ``set()`` is a flag and a byte written to a pipe, and ``wait()``
    is a ``select()`` on that pipe.
    """

    def __init__(self) -> None:
        self._read, self._write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._set = False

    def set(self) -> None:
        self._set = True
        if self._write < 0:
            return  # closed: a late signal must not write to a reused descriptor
        try:
            os.write(self._write, b"x")
        except OSError:
            pass  # the pipe is full: the flag alone is enough

    def is_set(self) -> bool:
        return self._set

    def wait(self, timeout: float | None = None) -> bool:
        if not self._set and self._read >= 0:
            select.select([self._read], [], [], timeout)
        return self._set

    def close(self) -> None:
        descriptors, self._read, self._write = (self._read, self._write), -1, -1
        for fd in descriptors:
            if fd >= 0:
                os.close(fd)


# -- logging -------------------------------------------------------------------------


class _JournaldFormatter(logging.Formatter):
    """journald adds the time; a ``<N>`` prefix gives each line its priority."""

    PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4,
                logging.ERROR: 3, logging.CRITICAL: 2}

    def format(self, record: logging.LogRecord) -> str:
        priority = self.PRIORITY.get(record.levelno, 6)
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines())


def under_journald(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """True when ``stream`` is the journal stream systemd gave us."""
    value = environ.get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    try:
        st = os.fstat(stream.fileno())
        return (st.st_dev, st.st_ino) == (int(device), int(inode))
    except (ValueError, OSError, AttributeError, io.UnsupportedOperation):
        return False


def configure_logging(stream: TextIO | None = None,
                      environ: Mapping[str, str] | None = None,
                      level: int = logging.INFO) -> None:
    stream = stream or sys.stdout
    environ = os.environ if environ is None else environ
    handler = logging.StreamHandler(stream)
    if under_journald(stream, environ):
        handler.setFormatter(_JournaldFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s",
                                               "%H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # gpiozero warns of each pin library it cannot load: into the log, once.
    logging.captureWarnings(True)
    # One line per request would drown the journal of a Pi on an SD card.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


# -- where things are -----------------------------------------------------------------


def data_dir(config: Config, simulate: bool, environ: Mapping[str, str] | None = None) -> Path:
    """The config's data directory; else systemd's state directory; else
    /var/lib/companion, unless this is a simulation or a user who cannot
    write there (the companion started by hand): their own data directory,
    the one the CLI uses too."""
    env = os.environ if environ is None else environ
    if config.data_dir:
        return Path(config.data_dir).expanduser()
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    service = config_module.SERVICE_DATA_DIR
    if not simulate and _can_write(service):
        return service
    from platformdirs import user_data_dir

    own = Path(user_data_dir("companion", appauthor=False))
    if not simulate:
        log.warning("cannot write %s: keeping the journal in %s (set data_dir in the "
                    "config to choose)", service, own)
    return own


def _can_write(directory: Path) -> bool:
    """True when ``directory`` is writable, or can be created."""
    while not directory.exists():
        if directory == directory.parent:
            return False
        directory = directory.parent
    return directory.is_dir() and os.access(directory, os.W_OK | os.X_OK)


def panel_secret(directory: Path) -> str:
    """The key that signs the phones' session cookies, kept in the data
    directory so that joined phones stay joined across restarts."""
    path = directory / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        secret = path.read_text().strip()
        if len(secret) >= 32:
            return secret
        path.unlink()
        return panel_secret(directory)
    import secrets

    secret = secrets.token_hex(32)
    with os.fdopen(fd, "w") as file:
        file.write(secret + "\n")
        file.flush()
        os.fsync(file.fileno())
    return secret


def table_answers(table: Any, timeout: float) -> bool:
    """True when the table's lock can be taken within ``timeout``: no
    command is stuck inside it."""
    lock = table._lock  # every command holds it; taking it means none is stuck
    if not lock.acquire(timeout=timeout):
        return False
    lock.release()
    return True


# -- components ---------------------------------------------------------------------------


class Component:
    """One part of the appliance.  ``start()`` raising means it is not
    there; the daemon logs it by name, shows ``fault()`` on the panel and,
    unless ``essential``, goes on.  ``tick()`` runs on every wake of the
    main loop (retries live there)."""

    name = "component"
    essential = False

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def fault(self) -> str | None:
        return None

    def tick(self) -> None:
        pass


class Retrying(Component):
    """A component whose hardware may be missing: ``open()`` is tried at
    start and again, with a growing wait, until it works."""

    what = "hardware"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._failures = 0
        self._retry_at = 0.0
        self._fault: str | None = None
        self._opened = False
        self._stopped = False

    def open(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def start(self) -> None:
        self._attempt()

    def tick(self) -> None:
        if not self._opened and not self._stopped and self._clock() >= self._retry_at:
            self._attempt()

    def stop(self) -> None:
        self._stopped = True
        if self._opened:
            self._opened = False
            self.close()

    def fault(self) -> str | None:
        return self._fault

    def _attempt(self) -> None:
        try:
            self.open()
        except Exception as exc:
            message = f"{self.what}: {exc}"
            delay = RETRY_DELAYS[min(self._failures, len(RETRY_DELAYS) - 1)]
            if message != self._fault:
                log.error("%s failed to start (%s); the companion goes on without it and "
                          "tries again in %.0f s", self.name, exc, delay)
            self._failures += 1
            self._retry_at = self._clock() + delay
            self._fault = message
            return
        if self._failures:
            log.info("%s started after %d failed attempt(s)", self.name, self._failures)
        self._opened = True
        self._failures = 0
        self._fault = None


class DisplayPart(Component):
    """The OLED (or, in simulation, the real driver over a recording bus)."""

    name = "display"

    def __init__(self, config: Config, simulate: bool) -> None:
        self.config = config
        self.simulate = simulate
        self.display: Any = None
        # The last screen, left lit once the companion has stopped.
        self.farewell = "Companion is off"

    def start(self) -> None:
        from drivers.oled import Display, RecordingInterface

        settings = self.config.display
        fake_bus = RecordingInterface(keep=0) if self.simulate else None
        self.display = Display(settings.controller, port=settings.i2c_bus,
                               address=settings.address, rotate=settings.rotate,
                               serial_interface=fake_bus)

    def fault(self) -> str | None:
        if self.display is None:
            return "display: not started"
        return None if self.display.ok else f"display: {self.display.status}"

    def stop(self) -> None:
        if self.display is not None:
            self.display.off(self.farewell)


class TablePart(Component):
    """The journal and the table: without them there is nothing to play."""

    name = "table"
    essential = True

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.table: Any = None

    def start(self) -> None:
        from .journal import Journal
        from .table import Table

        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"cannot use the data directory {self.directory} ({exc.strerror}); set "
                f"data_dir in the config, or try 'companion serve --simulate', which keeps "
                f"its data in your own data directory"
            ) from None
        self.table = Table(Journal.open(self.directory / JOURNAL_FILE))
        where = self.table.journal_path
        if self.table.has_game:
            log.info("journal %s: game of %s at version %d", where,
                     self.table.game.title, self.table.version)
        else:
            log.info("journal %s: no game yet", where)

    def stop(self) -> None:
        if self.table is not None:
            # close() takes the table's lock: the command in progress ends first.
            self.table.close()


class ScreenPart(Component):
    """The table UI on its own thread: keys in, menu, frames out.

    Keys come from gpiozero's threads and table updates from inside the
    table's lock; both only put a note on a queue.  The thread handles
    keys with the menu, then draws the newest view once.
    """

    name = "screen"

    def __init__(self, table: Any, display_part: DisplayPart, dice: "DicePart",
                 join_info: Callable[[], tuple[str, str]]) -> None:
        self.table = table
        self.display_part = display_part
        self.dice = dice
        self.join_info = join_info
        self.menu: Any = None
        self._notes: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._frame: Any = None
        self._png: tuple[Any, bytes] | None = None
        self._frame_lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        from .menu import TableMenu

        self.menu = TableMenu(self.table, join_info=self.join_info,
                              dice_source=lambda: self.dice.source,
                              set_dice_source=self.dice.set_source)
        self._unsubscribe = self.table.subscribe(self._on_update)
        self._thread = threading.Thread(target=self._run, name="screen", daemon=True)
        self._thread.start()
        self.redraw()

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._thread is not None:
            self._notes.put(None)
            self._thread.join(5)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- from any thread --------------------------------------------------

    def key(self, key: str, kind: str = "press") -> None:
        self._notes.put(("key", key, kind))

    def redraw(self) -> None:
        self._notes.put(("draw",))

    def png(self) -> bytes:
        """The frame on the display now, as PNG (the panel's mirror)."""
        with self._frame_lock:
            frame, cached = self._frame, self._png
        if frame is None:
            from drivers.screens import idle_screen

            frame = idle_screen()
        if cached is not None and cached[0] is frame:
            return cached[1]
        out = io.BytesIO()
        frame.save(out, "PNG")
        data = out.getvalue()
        with self._frame_lock:
            self._png = (frame, data)
        return data

    def _on_update(self, update: Any) -> None:
        self.menu.on_update(update)
        self._notes.put(("draw",))

    # -- the screen thread ----------------------------------------------

    def _run(self) -> None:
        while True:
            note = self._notes.get()
            notes = [note]
            while True:  # take what piled up: draw once for all of it
                try:
                    notes.append(self._notes.get_nowait())
                except queue.Empty:
                    break
            for note in notes:
                if note is None:
                    return
                if note[0] == "key":
                    self._key(note[1], note[2])
            self._draw()

    def _key(self, key: str, kind: str) -> None:
        try:
            if key == "roll" and kind == "press" and self.dice.source == "button":
                reason = self.dice.roll_button()
                if reason:
                    log.info("ROLL: %s", reason)
                return
            self.menu.on_key(key, kind)
        except Exception:
            log.exception("the %s key (%s) failed; the table goes on", key, kind)

    def _draw(self) -> None:
        try:
            from drivers.menu_screens import render

            image = render(self.menu.view(), self.menu.update)
        except Exception:
            log.exception("drawing the screen failed")
            return
        with self._frame_lock:
            self._frame = image
        display = self.display_part.display
        if display is not None:
            display.show(image)


class KeypadPart(Retrying):
    """The five buttons (or the encoder): their presses go to the screen."""

    name = "buttons"
    what = "buttons"

    def __init__(self, config: Config, screen: ScreenPart, pin_factory: Any) -> None:
        super().__init__()
        self.config = config
        self.screen = screen
        self.pin_factory = pin_factory
        self.keypad: Any = None

    def open(self) -> None:
        from drivers.buttons import EncoderPins, Keypad

        buttons, encoder = self.config.buttons, self.config.encoder
        self.keypad = Keypad(
            self.screen.key,
            pins={"up": buttons.up, "down": buttons.down, "ok": buttons.ok,
                  "back": buttons.back, "roll": buttons.roll},
            encoder=EncoderPins(encoder.a, encoder.b, encoder.push) if encoder.enabled else None,
            pin_factory=self.pin_factory,
        )

    def close(self) -> None:
        self.keypad.close()

    def press(self, key: str) -> None:
        """The virtual table's buttons: drive the mock pins."""
        if self.keypad is None:
            raise RuntimeError("the buttons are not running")
        self.keypad.press(key)


class OutputsPart(Retrying):
    """The buzzer and the die-face LEDs, when wired."""

    name = "outputs"
    what = "buzzer and LEDs"

    def __init__(self, config: Config, table: Any, dice: "DicePart", pin_factory: Any) -> None:
        super().__init__()
        self.config = config
        self.table = table
        self.dice = dice
        self.pin_factory = pin_factory
        self._devices: list[Any] = []
        self._unsubscribes: list[Callable[[], None]] = []

    def open(self) -> None:
        from drivers.alerts import AlertBuzzer, DieFace

        try:
            if self.config.buzzer.enabled:
                buzzer = AlertBuzzer(self.config.buzzer.pin, pin_factory=self.pin_factory)
                self._devices.append(buzzer)
                self._unsubscribes.append(self.table.subscribe(buzzer.on_update))
            if self.config.leds.enabled:
                face = DieFace(self.config.leds.pins, pin_factory=self.pin_factory)
                self._devices.append(face)
                self._unsubscribes.append(self.dice.subscribe(face.show_roll))
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
    """The dice sources: the ROLL button, hand entry, and the serial device
    (a simulated one on a pseudo-terminal in simulation).  It is also what
    the panel gets as ``services.dice``."""

    name = "dice"

    def __init__(self, config: Config, table: Any, simulate: bool) -> None:
        from drivers.dice import SOURCES

        self.config = config
        self.table = table
        self.simulate = simulate
        self.sources = SOURCES
        self.tray: Any = None
        self.reader: Any = None
        self.device: Any = None
        self._initial = config.dice.source
        # The tray tells its listeners of the rolls it plays; the panel's
        # rolls are told to the same listeners here.
        self._listeners: list[Callable[[Any, list[int]], None]] = []
        # Called when the source changes (the screen's prompt says it).
        self.on_change: Callable[[], None] = lambda: None

    def start(self) -> None:
        from drivers.dice import DiceTray, awaited_dice
        from drivers.serial_dice import SerialDiceReader

        from .engine import Command

        def waiting():
            return awaited_dice(self.table.game.expected()) if self.table.has_game else None

        def submit(values: list[int]) -> None:
            self.table.submit(Command("roll", {"values": values}), source="dice")

        self.tray = DiceTray(waiting, submit, source=self._initial)
        port = self.config.serial.port
        if self.simulate:
            from drivers.serial_dice import SimulatedDiceDevice

            self.device = SimulatedDiceDevice()
            port = self.device.port
        self.reader = SerialDiceReader(self.tray.on_serial_roll, port=port,
                                       baudrate=self.config.serial.baud).start()

    def stop(self) -> None:
        if self.reader is not None:
            self.reader.stop()
        if self.device is not None:
            self.device.close()

    def fault(self) -> str | None:
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
        self.on_change()

    @property
    def status(self) -> str:
        if self.source == "button":
            return "ROLL rolls the dice"
        if self.source == "manual":
            return "players roll their own dice and enter them"
        return f"dice device {self.reader.status}" if self.reader else "dice device not started"

    def subscribe(self, listener: Callable[[Any, list[int]], None]) -> Callable[[], None]:
        """Hear ``(dice, values)`` of every roll played, whatever its source."""
        from_tray = self.tray.subscribe(listener)
        self._listeners.append(listener)

        def unsubscribe() -> None:
            from_tray()
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def roll_button(self) -> str | None:
        return self.tray.on_roll_button()

    def roll(self) -> list[int]:
        """The panel's roll: roll what the game waits for with the system's
        randomness and play it (through the simulated device when that is
        the source, so that the serial path runs)."""
        from drivers.dice import awaited_dice, roll

        from .engine import Command

        if not self.table.has_game:
            raise NoGame("no game at the table yet: start one first")
        dice = awaited_dice(self.table.game.expected())
        if dice is None:
            raise NotExpected("the game is not waiting for a roll", rule="not-waiting")
        values = roll(dice)
        if self.source == "serial" and self.device is not None:
            played = threading.Event()
            unsubscribe = self.table.subscribe(lambda update: played.set())
            try:
                self.device.roll(dice.sides, values)
                # The reader thread plays it; answer once the table has it.
                played.wait(SIMULATED_ROLL_TIMEOUT)
            finally:
                unsubscribe()
            return values
        self.table.submit(Command("roll", {"values": values}), source="panel")
        for listener in list(self._listeners):
            try:
                listener(dice, values)
            except Exception:
                log.exception("dice result listener %r failed", listener)
        return values


class PanelCannotListen(OSError):
    """The panel's address and port cannot be listened on."""


class WebPart(Retrying):
    """The phone panel: the Flask app served by waitress on its own thread.
    A port that is taken is tried again, like missing hardware."""

    name = "panel"
    what = "panel"

    def __init__(self, config: Config, table: Any, directory: Path, services: Any) -> None:
        super().__init__()
        self.config = config
        self.table = table
        self.directory = directory
        self.services = services
        self.app: Any = None
        self.server: Any = None
        self._thread: threading.Thread | None = None
        self.port: int = config.web.port

    def create(self) -> None:
        """The app exists before it serves: the screen's join view needs
        its PIN and join token."""
        from web import create_app

        self.app = create_app(self.table, config={
            "SECRET_KEY": panel_secret(self.directory),
            "LANGUAGE": self.config.language,
        }, services=self.services)

    @property
    def access(self) -> Any:
        return self.app.extensions["companion"].access

    def open(self) -> None:
        from web.server import serve

        host = self.config.web.host
        try:
            self.server = serve(self.app, host, self.port)
        except OSError as exc:
            raise PanelCannotListen(
                f"cannot listen on {host}:{self.port} ({exc.strerror or exc})") from exc
        self.port = self.server.port
        self._thread = threading.Thread(target=self._run, name="panel", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except Exception:
            log.exception("the panel's server stopped")

    @property
    def serving(self) -> bool:
        return self.server is not None and self.alive

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def answers(self, timeout: float = PANEL_START_TIMEOUT) -> bool:
        """True once the panel has answered /api/health over the network."""
        import http.client

        host = self.config.web.host
        host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.serving:
            connection = http.client.HTTPConnection(host, self.port, timeout=2)
            try:
                connection.request("GET", "/api/health")
                if connection.getresponse().status == 200:
                    return True
            except OSError:
                time.sleep(0.05)
            finally:
                connection.close()
        return False

    def tick(self) -> None:
        if self.server is not None and not self.alive:
            log.error("the panel's server thread ended; starting it again")
            self.stop_serving()
        super().tick()

    def stop_serving(self) -> None:
        self._opened = False
        self.close()

    def close(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            server.close()
        if self._thread is not None:
            self._thread.join(5)


class DiscoveryPart(Component):
    """The panel's mDNS name, at the address phones reach."""

    name = "mdns"

    def __init__(self, config: Config, port: Callable[[], int],
                 address: Callable[[], str]) -> None:
        self.config = config
        self._port = port
        self._address = address
        self.advertiser: Any = None

    def start(self) -> None:
        if not self.config.web.mdns:
            log.info("mDNS is off in the config")
            return
        from web.discovery import PanelAdvertiser

        self.advertiser = PanelAdvertiser(self.config.web.name, self._port())
        self.advertiser.advertise(self._address())

    def tick(self) -> None:
        if self.advertiser is not None:
            self.advertiser.advertise(self._address())

    def stop(self) -> None:
        if self.advertiser is not None:
            self.advertiser.close()


# -- the appliance --------------------------------------------------------------------------


class Daemon:
    """Starts the components in order, runs the main loop, stops them in
    reverse.  ``environ`` gives systemd's variables; ``out`` gets the
    simulation's greeting."""

    def __init__(self, config: Config, *, simulate: bool = False,
                 environ: Mapping[str, str] | None = None,
                 out: TextIO | None = None) -> None:
        self.config = config
        self.simulate = simulate
        self.environ = dict(os.environ if environ is None else environ)
        self.out = out or sys.stdout
        self.stop_event = StopEvent()
        self.directory = data_dir(config, simulate, self.environ)
        self.watchdog = watchdog_interval(self.environ)
        self.tick_interval = self.watchdog / 2 if self.watchdog else IDLE_TICK
        self.started: list[Component] = []
        self.is_ready = False
        self.phone_host = "127.0.0.1"
        self.pin_factory: Any = None
        self.display = DisplayPart(config, simulate)
        self.table_part = TablePart(self.directory)
        self.dice: DicePart | None = None
        self.screen: ScreenPart | None = None
        self.keypad: KeypadPart | None = None
        self.web: WebPart | None = None

    # -- start ----------------------------------------------------------------

    def start(self) -> None:
        """Start everything; raises only when an essential part fails."""
        self._start(self.display)
        self._start(self.table_part)
        table = self.table_part.table
        if self.simulate:
            from gpiozero.pins.mock import MockFactory

            self.pin_factory = MockFactory()
        self._refresh_address()
        self.dice = DicePart(self.config, table, self.simulate)
        self.web = WebPart(self.config, table, self.directory, self._services())
        self.screen = ScreenPart(table, self.display, self.dice, self._join_info)
        self.dice.on_change = self.screen.redraw
        self.keypad = KeypadPart(self.config, self.screen, self.pin_factory)
        outputs = OutputsPart(self.config, table, self.dice, self.pin_factory)
        self._start(self.dice)
        self.web.create()
        self._start(self.screen)
        self._start(self.keypad)
        self._start(outputs)
        self._start(self.web)
        self._start(DiscoveryPart(self.config, lambda: self.web.port, lambda: self.phone_host))

    def _start(self, part: Component) -> None:
        try:
            part.start()
        except Exception as exc:
            if part.essential:
                log.critical("%s failed to start: %s", part.name, exc)
                raise
            log.exception("%s failed to start; the companion goes on without it", part.name)
        self.started.append(part)

    def _services(self) -> Any:
        from web import Services

        return Services(
            screen_png=lambda: self.screen.png(),
            press_key=self._press if self.simulate else None,
            dice=self.dice,
            faults=self.faults,
        )

    def _press(self, key: str) -> None:
        self.keypad.press(key)

    def _join_info(self) -> tuple[str, str]:
        access = self.web.access
        from web.discovery import panel_url

        return access.join_url(panel_url(self.phone_host, self.web.port)), access.pin

    def _refresh_address(self) -> None:
        from web.discovery import reachable_host

        host = reachable_host(self.config.web.host)
        if host != self.phone_host:
            if self.web is not None:
                log.info("phones reach the panel at http://%s:%d/", host, self.web.port)
            self.phone_host = host

    def faults(self) -> list[str]:
        """What is missing now, for the players."""
        return [fault for part in self.started if (fault := part.fault())]

    # -- run -------------------------------------------------------------------

    def ready(self) -> bool:
        """Tell systemd (and the person at the terminal) that the panel
        answers; False when it does not."""
        if not self.web.answers():
            return False
        sd_notify(f"READY=1\nSTATUS=Panel on port {self.web.port}", self.environ)
        self.is_ready = True
        self._greet()
        return True

    def _greet(self) -> None:
        port = self.web.port
        access = self.web.access
        from web.discovery import panel_url

        if self.simulate:
            local = panel_url("127.0.0.1", port)
            print(f"Open {local}virtual", file=self.out, flush=True)
            print(f"Join as a player: {access.join_url(local.rstrip('/'))} (PIN {access.pin})",
                  file=self.out, flush=True)
        log.info("panel at %s (PIN on the table's screen)", panel_url(self.phone_host, port))
        for fault in self.faults():
            log.warning("running without: %s", fault)

    def run(self) -> int:
        """The main loop: wake every half watchdog interval, check, feed."""
        self.ready()
        while not self.stop_event.wait(self.tick_interval):
            self._tick()
            if not self.is_ready:
                self.ready()
        return EXIT_OK

    def _tick(self) -> None:
        healthy = True
        if not table_answers(self.table_part.table, timeout=min(self.tick_interval, 5.0)):
            log.error("the table has not answered for %.1f s", min(self.tick_interval, 5.0))
            healthy = False
        if self.is_ready and not self.web.serving:
            log.error("the panel's server is not running")
            healthy = False
        if healthy and self.watchdog and self.is_ready:
            sd_notify("WATCHDOG=1", self.environ)
        self._refresh_address()
        for part in self.started:
            try:
                part.tick()
            except Exception:
                log.exception("%s failed while retrying", part.name)
        display = self.display.display
        if display is not None and not display.ok:
            self.screen.redraw()  # each frame offered is a chance to reopen it

    # -- stop --------------------------------------------------------------------

    def stop(self, message: str | None = None) -> None:
        """Stop every started part, in reverse order; the display last, with
        ``message`` (default "Companion is off")."""
        sd_notify("STOPPING=1", self.environ)
        if message:
            self.display.farewell = message
        while self.started:
            part = self.started.pop()
            try:
                part.stop()
            except Exception:
                log.exception("%s did not stop cleanly", part.name)
        self.stop_event.close()

    def handle_signals(self) -> None:
        def stop(signum: int, frame: Any) -> None:
            # Only the flag and a pipe write: safe whatever the main thread holds.
            self.stop_event.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)


# -- the commands -------------------------------------------------------------------------


def load_config(path: Path | None, *, host: str | None = None,
                port: int | None = None) -> Config:
    return config_module.load(path).with_web(host=host, port=port)


def serve(args: argparse.Namespace) -> int:
    configure_logging()
    try:
        config = load_config(args.config, host=getattr(args, "host", None),
                             port=getattr(args, "port", None))
    except (ConfigError, MissingConfig) as exc:
        log.critical("%s", exc)
        print(f"companion: {exc}", file=sys.stderr)
        return EXIT_BAD_CONFIG
    daemon = Daemon(config, simulate=bool(getattr(args, "simulate", False)))
    daemon.handle_signals()
    log.info("starting%s; data in %s", " in simulation" if daemon.simulate else "",
             daemon.directory)
    message = None
    try:
        try:
            daemon.start()
        except Exception as exc:
            # Only the journal and the table are essential; without them
            # there is nothing to play.
            message = "Companion stopped: see the log"
            log.critical("cannot start: %s", exc)
            return EXIT_FAILED
        status = daemon.run()
        log.info("stopping")
        return status
    finally:
        daemon.stop(message)
        log.info("stopped")


def doctor(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from drivers import doctor as checks

    out = out or sys.stdout
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        config = config_module.load(args.config)
    except (ConfigError, MissingConfig) as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return EXIT_BAD_CONFIG
    # The service's data directory, as the service's user sees it.
    directory = Path(config.data_dir) if config.data_dir else config_module.SERVICE_DATA_DIR
    findings = checks.run_checks(config, directory)
    print(checks.report(findings), file=out, flush=True)
    return checks.exit_status(findings)


def main(args: argparse.Namespace) -> int:
    if args.action == "doctor":
        return doctor(args)
    return serve(args)
