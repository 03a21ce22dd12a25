"""``companion serve``: the appliance, and ``companion doctor``.

This is the composition root: the one module of ``companion/`` (besides the
CLI that calls it) that wires ``drivers/`` and ``web/`` around the table.
The parts it wires live beside what they wrap: :mod:`companion.storage`
(the journal and the table), :mod:`companion.parts.hardware` (display, keys, buzzer
and LEDs, dice), :mod:`companion.parts.screen` (keys and updates to frames),
:mod:`companion.parts.web` (the panel and its mDNS name),
:mod:`companion.parts.network` (the Wi-Fi: a known network or its own
hotspot, and the captive portal on port 80); their life cycle is
:mod:`companion.components`, and systemd's side :mod:`companion.service`.

Components start in a fixed order and stop in the reverse order, whatever
happens (Mopidy's way).  Only the journal and the table are essential.  A
component that fails at start (no display, no serial port, no GPIO) is
logged by name, shown to the players as a fault on the panel and, when it
appears, on the table's screen, and tried again from the main loop, while
everything else goes on.

The main thread waits on a stop event with a timeout of half the systemd
watchdog interval.  Each time it wakes it checks that the table answers
and that the web server's thread lives, and only then sends
``WATCHDOG=1``: a hang anywhere stops the feeding and systemd restarts the
service.  SIGTERM and SIGINT set the stop event; stopping then waits for
the command in progress (the table's lock), closes the journal and leaves
"Companion is off" on the display.

``--simulate`` runs the whole companion on any computer: gpiozero's mock
pins for the keys and outputs, the real display driver over a recording
interface (the panel mirrors its frames), a simulated dice device on a
pseudo-terminal read by the real serial reader, and a virtual table page
whose buttons drive the mock pins.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import signal
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, TextIO, TypeVar

from companion.parts.hardware import DicePart, DisplayPart, KeypadPart, OutputsPart, PixelsPart

from . import config as config_module
from .components import Component, FaultLog, Retrying
from .config import Config, ConfigError, MissingConfig
from .service import (
    StopEvent,
    configure_logging,
    give_lgpio_a_working_directory,
    sd_notify,
    watchdog_interval,
)
from .storage import TablePart, data_dir

if TYPE_CHECKING:
    from companion.parts.network import NetworkPart
    from companion.parts.screen import ScreenPart
    from companion.parts.web import WebPart

log = logging.getLogger("companion")

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_CONFIG = 2

# How often the main loop wakes when no watchdog asks for more: failed
# components are retried and the phones' address followed.
IDLE_TICK = 5.0
# The longest the watchdog's check waits for the table's command in progress.
TABLE_ANSWER_TIMEOUT = 5.0


# -- the appliance --------------------------------------------------------------------------


_Part = TypeVar("_Part", bound=Component)


def _started(part: _Part | None) -> _Part:
    """A part that :meth:`Daemon.start` makes, once it has."""
    if part is None:
        raise RuntimeError("the companion has not started yet")
    return part


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
        # Each cause of a part's failed start is logged once, by the first part.
        self.fault_log = FaultLog()
        self.is_ready = False
        self.phone_host = "127.0.0.1"
        self.pin_factory: Any = None
        self.display = DisplayPart(config, simulate)
        self.table_part = TablePart(self.directory)
        self.dice: DicePart | None = None
        self.pixels: Any = None
        self.screen: ScreenPart | None = None
        self.keypad: KeypadPart | None = None
        self.web: WebPart | None = None
        self.network: NetworkPart | None = None
        self.venue: Any = None
        # Who hears of the screen's new frames (the panel's live stream).
        self._frame_news = FrameNews()

    # -- start ----------------------------------------------------------------

    def start(self) -> None:
        """Start everything; raises only when an essential part fails.

        The journal and the panel come first, and the companion is READY
        as soon as the panel answers: on a Pi Zero's one slow core every
        part started before that delays the first phone, and a part
        starting beside it shares the CPU with the panel's first answer.
        The dice, the display, the keys, the Wi-Fi and the mDNS name follow
        (their drivers, fonts and QR codes load then), and the greeting is
        said once they are all there."""
        self._start(self.table_part)
        table = self.table_part.table
        # The panel (Flask) loads here, not for ``companion doctor``.
        from companion.parts.network import NetworkPart
        from companion.parts.web import WebPart

        self._refresh_address()
        self.dice = DicePart(self.config, table, self.simulate)
        self.pixels = PixelsPart(self.config, self.dice, directory=self.directory,
                                 **simulated_pixels(self.simulate))
        self.dice.pixels = self.pixels
        # Its manager (nmcli's driver) is given when the part starts.
        self.network = NetworkPart(self.config.network, self.directory, None,
                                   on_change=self._network_changed)
        self.web = WebPart(self.config, table, self.directory, self._services())
        self.web.create()
        self._start(self.web)
        self.ready()
        self._start_the_rest()
        self.table_part.keep_up()
        if self.is_ready:
            self._greet()

    def _start_the_rest(self) -> None:
        """Every part after the panel, in order."""
        from companion.parts.screen import ScreenPart
        from companion.parts.web import DiscoveryPart

        table = self.table_part.table
        dice, network, web = _started(self.dice), _started(self.network), _started(self.web)
        self.screen = ScreenPart(table, self.display, dice, self._join_info,
                                 sign_out=self._sign_out, network=network,
                                 language=self.config.language)
        dice.on_change = self.screen.redraw
        self.screen.subscribe_frames(self._frame_news.tell)
        self._start(dice)
        # The Pixels dice: idle (one thread waiting) until dice are paired,
        # from the config, the menu or the panel.
        self._start(self.pixels)
        if self.simulate:
            from gpiozero.pins.mock import MockFactory

            from drivers.mockpins import TimedMockPin

            # Simulated presses carry their edges' times, as lgpio's do.
            self.pin_factory = MockFactory(pin_class=TimedMockPin)
        self.keypad = KeypadPart(self.config, self.screen, self.pin_factory)
        outputs = OutputsPart(self.config, table, self.pin_factory)
        self._start(self.display)
        self._start(self.screen)
        network.manager = network_manager(self.simulate)
        self._start(network)
        if self.simulate:
            # The made-up Wi-Fi answers at once: the virtual table starts on it.
            network.settled(5.0)
        self._start(self.keypad)
        self._start(outputs)
        if wants_portal(self.config, self.simulate):
            from companion.parts.network import PortalPart

            self._start(PortalPart(self.config.web.host, self._panel_url))
        self._start(DiscoveryPart(self.config, lambda: web.port, lambda: self.phone_host,
                                  simulate=self.simulate))
        self._start(self._venue())

    def _venue(self) -> Component:
        """The table in its venue: the config's ``[venue]``, or where the
        panel pointed it (off until either names a broker)."""
        if self.venue is None:
            import socket

            from companion.parts.venue import VenueService
            from companion.storage import keep_file
            from companion.version import program_version

            self.venue = VenueService(self.config.venue, self.table_part.table,
                                      self.table_part.journal, self.directory,
                                      table_name=socket.gethostname(),
                                      version=program_version, keep_file=keep_file)
        return self.venue

    def _start(self, part: Component) -> None:
        if isinstance(part, Retrying):
            part.fault_log = self.fault_log
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
            screen_png=lambda: _started(self.screen).png(),
            screen_frame=lambda: _started(self.screen).numbered_png(),
            screen_news=self._frame_news.subscribe,
            press_key=self._press if self.simulate else None,
            dice=self.dice,
            faults=self.faults,
            network=self.network,
            pixels=self.pixels,
            wiring_svg=partial(wiring_svg, self.config),
            venue=self._venue(),
        )

    def _network_changed(self, what: str, ssid: str, reason: str) -> None:
        if what in ("hotspot", "joined", "join-failed"):
            self._refresh_address()  # the QR code carries the new address
        if self.screen is not None:
            self.screen.network_news(what, ssid, reason)

    def _panel_url(self) -> str:
        from web.discovery import panel_url

        return panel_url(self.phone_host, _started(self.web).port)

    def _press(self, key: str) -> None:
        _started(self.keypad).press(key)

    def _join_info(self) -> tuple[str, str]:
        web = _started(self.web)
        from web.discovery import panel_url

        return web.access.join_url(panel_url(self.phone_host, web.port)), web.access.pin

    def _sign_out(self) -> tuple[str, str]:
        """The menu's "Sign out phones": every phone a spectator, and the
        new QR code and PIN to show."""
        _started(self.web).access.sign_out()
        log.info("every phone signed out of the panel from the table's menu")
        return self._join_info()

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
        """Tell systemd that the panel answers (once); False when it does not."""
        if self.is_ready:
            return True
        web = _started(self.web)
        if not web.answers():
            return False
        sd_notify(f"READY=1\nSTATUS=Panel on port {web.port}", self.environ)
        self.is_ready = True
        return True

    def _greet(self) -> None:
        """Say where the panel is (and, in simulation, its PIN) and what is
        missing."""
        web = _started(self.web)
        port, access = web.port, web.access
        from web.discovery import panel_url

        if self.simulate:
            local = panel_url("127.0.0.1", port)
            print(f"Open {local}virtual", file=self.out, flush=True)
            print(f"Join as a player: {access.join_url(local.rstrip('/'))} (PIN {access.pin})",
                  file=self.out, flush=True)
        log.info("panel at %s (PIN on the table's screen)", panel_url(self.phone_host, port))
        # Each fault was logged as it happened: here only what is missing.
        missing = [fault.split(":", 1)[0] for fault in self.faults()]
        if missing:
            log.warning("running without: %s", ", ".join(missing))

    def run(self) -> int:
        """The main loop: wake every half watchdog interval, check, feed."""
        self._report_faults()
        while not self.stop_event.wait(self.tick_interval):
            self._tick()
            if not self.is_ready and self.ready():
                self._greet()
        return EXIT_OK

    def _tick(self) -> None:
        healthy = True
        patience = min(self.tick_interval, TABLE_ANSWER_TIMEOUT)
        if not self.table_part.table.answers(patience):
            log.error("the table has not answered for %.1f s", patience)
            healthy = False
        if self.is_ready and not _started(self.web).serving:
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
            _started(self.screen).redraw()  # each frame offered is a chance to reopen it
        self._report_faults()

    def _report_faults(self) -> None:
        """Players at the table see a new fault on its screen (the panel
        lists them all), except the screen's own."""
        if self.screen is not None:
            self.screen.show_faults([fault for part in self.started
                                     if part is not self.display and (fault := part.fault())])

    # -- stop --------------------------------------------------------------------

    def stop(self, message: str | None = None) -> None:
        """Stop every started part, in reverse order; the display last, with
        ``message`` (default "Companion is off")."""
        sd_notify("STOPPING=1", self.environ)
        if message:
            self.display.farewell = message
        # The display starts after the panel but goes last, with the
        # journal closed: its farewell is the last word.
        if self.display in self.started:
            self.started.remove(self.display)
            self.started.insert(0, self.display)
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


class FrameNews:
    """Who hears of the screen's new frames: the panel subscribes before
    the screen starts, and the screen tells this."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def tell(self) -> None:
        for listener in list(self._listeners):
            listener()


def wiring_svg(config: Config, lang: str) -> str:
    from . import wiring

    return wiring.svg(config, lang)


def simulated_pixels(simulate: bool) -> dict[str, Any]:
    """In simulation, made-up Pixels dice in reach (no Bluetooth needed)."""
    if not simulate:
        return {}

    # Loaded when first used, after the panel answers, as the driver is.
    def factory(address: str, on_disconnect: Callable[[Any], None]) -> Any:
        from drivers.pixels import SimulatedClient

        return SimulatedClient(address, on_disconnect)

    async def scanner(seconds: float, seen: Callable[[str, str, int | None], None]) -> None:
        from drivers.pixels import simulated_scanner

        await simulated_scanner(seconds, seen)

    return {"factory": factory, "scanner": scanner}


def network_manager(simulate: bool) -> Any:
    """NetworkManager through nmcli; a made-up neighbourhood in simulation."""
    from drivers.network import Nmcli, SimulatedNetwork

    return SimulatedNetwork() if simulate else Nmcli()


def wants_portal(config: Config, simulate: bool) -> bool:
    """Port 80 answers the phones' checks while it is the hotspot; not
    in simulation (no capability to bind it), not when the panel itself
    is on 80 (it answers them) or the hotspot is off."""
    return (not simulate and config.web.port not in (0, 80)
            and config.network.hotspot is not False)


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
    # Before anything loads gpiozero (and lgpio with it).
    give_lgpio_a_working_directory(daemon.directory)
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
        finally:
            # What the start built (modules, the app, the parts) lives as
            # long as the process: the collector need not walk it again.
            # Without this, a collection of the older generations stalls
            # whatever runs then (a key press waits ~20 ms for its frame on
            # a development machine).  The CLI turned the collector off for
            # the start (see cli._main); it runs from here on.
            gc.freeze()
            gc.enable()
        status = daemon.run()
        log.info("stopping")
        return status
    finally:
        daemon.stop(message)
        log.info("stopped")


def doctor(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from companion import doctor as checks

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
