"""``companion serve``: the appliance, and ``companion doctor``.

This is the composition root: the one module of ``companion/`` (besides the
CLI that calls it) that wires ``drivers/`` and ``web/`` around the table.
Its :data:`PLAN` lists the parts in the order they are made: each takes
the :class:`~companion.parts.lifecycle.PartContext` and the parts it ``needs``, by
name, from those made before it, and ``provides`` names for those after
it (Mopidy's extensions and gpiozero's pin factory work so).  The parts
live beside what they wrap: :mod:`companion.host.storage` (the journal and the
table), :mod:`companion.parts.hardware` (the Pixels dice, the dice, the
keys, the display, the buzzer and LEDs), :mod:`companion.parts.network`
(the Wi-Fi and the captive portal on port 80), :mod:`companion.parts.voice`
(the caller on the table's speaker), :mod:`companion.parts.venue`
(the table in its venue), :mod:`companion.parts.web` (the panel, the
address phones reach and its mDNS name) and :mod:`companion.parts.screen`
(keys and updates to frames).  Between them, news goes on one small bus
(:mod:`companion.parts.bus`) or through the table's listeners; their life cycle
is :mod:`companion.parts.lifecycle`, and systemd's side :mod:`companion.host.service`.

The table and the panel start as soon as they are made, and the companion
is READY once the panel answers: on a Pi Zero's one slow core every part
started before that delays the first phone.  The parts after the panel in
the plan are then made and started in order, and last those the panel
lends, made before it (the dice, the keys, the Wi-Fi, the venue): their
drivers load then, when every part that listens to them is there.  Parts
stop in the reverse order, whatever happens (Mopidy's way), the display
last with its farewell.  Only the journal and the table are essential.  A
part that fails at start (no display, no serial port, no GPIO) is logged
by name, shown to the players as a fault on the panel and, when it
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
pseudo-terminal read by the real serial reader, made-up Pixels dice and
Wi-Fi, and a virtual table page whose buttons drive the mock pins.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TextIO

from companion.host import config as config_module
from companion.host.config import Config, ConfigError, MissingConfig
from companion.host.service import (
    StopEvent,
    configure_logging,
    give_lgpio_a_working_directory,
    sd_notify,
    watchdog_interval,
)
from companion.host.storage import data_dir
from companion.parts.bus import Bus, FaultsNow
from companion.parts.lifecycle import Component, FaultLog, PartContext, Retrying, no_pin_factory

log = logging.getLogger("companion")

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_CONFIG = 2

# How often the main loop wakes when no watchdog asks for more: failed
# components are retried and the phones' address followed.
IDLE_TICK = 5.0
# The longest the watchdog's check waits for the table's command in progress.
TABLE_ANSWER_TIMEOUT = 5.0

# The parts, in the order they are made (``module:class``, imported when
# made).  The table and the panel start at once; see the module's docstring.
PLAN: tuple[str, ...] = (
    "companion.parts.table:TablePart",
    # What the panel lends (made before it, started last).
    "companion.parts.hardware:PixelsPart",
    "companion.parts.hardware:DicePart",
    "companion.parts.hardware:KeypadPart",
    "companion.parts.network:NetworkPart",
    "companion.parts.venue:VenueService",
    "companion.parts.web:WebPart",
    # Made and started once the panel answers.
    "companion.parts.web:AddressPart",
    "companion.parts.hardware:DisplayPart",
    "companion.parts.screen:ScreenPart",
    "companion.parts.hardware:OutputsPart",
    "companion.parts.voice:VoicePart",
    "companion.parts.network:PortalPart",
    "companion.parts.web:DiscoveryPart",
)


# -- the appliance --------------------------------------------------------------------------


def part_class(entry: str) -> Any:
    """The part's class named by a :data:`PLAN` entry (a Component)."""
    module, _, name = entry.partition(":")
    return getattr(importlib.import_module(module), name)


# What the daemon itself tells on the bus (the parts declare theirs).
TELLS: tuple[type, ...] = (FaultsNow,)


def picture() -> str:
    """The parts as :data:`PLAN` makes them and the bus's news between them,
    drawn from their declarations (``needs``, ``provides``, ``tells``,
    ``hears``): a table, and a Mermaid graph of who tells whom (the picture
    in docs/architecture.md)."""
    parts = [(entry, part_class(entry)) for entry in PLAN]
    rows = ["| part | made from | needs | provides | tells | hears |",
            "|---|---|---|---|---|---|"]

    def names(items: Sequence[Any]) -> str:
        return ", ".join(getattr(item, "__name__", str(item)) for item in items) or "-"

    for entry, cls in parts:
        rows.append(f"| {cls.name} | `{entry}` | {names(cls.needs)} | {names(cls.provides)} "
                    f"| {names(cls.tells)} | {names(cls.hears)} |")
    def node(name: str) -> str:
        return name.replace(" ", "_")

    tellers = [("daemon", TELLS), *((cls.name, cls.tells) for _, cls in parts)]
    graph = ["```mermaid", "flowchart LR"]
    graph += [f'    {node(cls.name)}["{cls.name}"]' for _, cls in parts]
    # A dotted arrow: made before, and given to (needs); a labelled one: news.
    edges: list[str] = []
    for _, cls in parts:
        for need in cls.needs:
            giver = next(c.name for _, c in parts if need in c.provides)
            edges.append(f"    {node(giver)} -.-> {node(cls.name)}")
    for teller, news in tellers:
        for kind in news:
            edges += [f"    {node(teller)} -- {kind.__name__} --> {node(cls.name)}"
                      for _, cls in parts if kind in cls.hears]
    graph += list(dict.fromkeys(edges))
    graph.append("```")
    return "\n".join([*rows, "", *graph]) + "\n"


class Daemon:
    """Makes the parts of :data:`PLAN`, runs the main loop, stops them in
    reverse.  ``environ`` gives systemd's variables; ``out`` gets the
    simulation's greeting; ``i2c`` replaces the display's I2C bus."""

    def __init__(self, config: Config, *, simulate: bool = False,
                 environ: Mapping[str, str] | None = None,
                 out: TextIO | None = None, i2c: Any = None) -> None:
        self.config = config
        self.simulate = simulate
        self.environ = dict(os.environ if environ is None else environ)
        self.out = out or sys.stdout
        self.stop_event = StopEvent()
        self.directory = data_dir(config, simulate, self.environ)
        self.watchdog = watchdog_interval(self.environ)
        self.tick_interval = self.watchdog / 2 if self.watchdog else IDLE_TICK
        self.setup = PartContext(config=config, directory=self.directory, simulate=simulate,
                           bus=Bus(), faults=self.faults, pin_factory=pin_factory(simulate),
                           i2c=i2c)
        # What each part provides, by name, as the parts are made.
        self.parts: dict[str, Any] = {}
        self.started: list[Component] = []
        # Each cause of a part's failed start is logged once, by the first part.
        self.fault_log = FaultLog()
        self.is_ready = False

    def part(self, name: str) -> Any:
        """What the part that provides ``name`` gives the others."""
        if name not in self.parts:
            raise RuntimeError(f"the companion has no {name} (yet)")
        return self.parts[name]

    # -- start ----------------------------------------------------------------

    def start(self) -> None:
        """Make and start every part of the plan; raises only when an
        essential part fails (see the module's docstring for the order)."""
        plan = iter(PLAN)
        lent: list[Component] = []
        for entry in plan:
            part = self._make(entry)
            if part.early:
                self._start(part)
            else:
                lent.append(part)
            if "panel" in part.provides:
                break
        self.ready()
        for entry in plan:
            self._start(self._make(entry))
        for part in lent:
            self._start(part)
        self.table_part.keep_up()
        if self.is_ready:
            self._greet()

    def _make(self, entry: str) -> Component:
        cls = part_class(entry)
        part: Component = cls(self.setup, **{name: self.part(name) for name in cls.needs})
        if not part.early:  # an early part's are there once it has started
            self.parts.update({name: part.provided(name) for name in cls.provides})
        if isinstance(part, Retrying):
            part.fault_log = self.fault_log
        return part

    def _start(self, part: Component) -> None:
        try:
            part.start()
        except Exception as exc:
            if part.essential:
                log.critical("%s failed to start: %s", part.name, exc)
                raise
            log.exception("%s failed to start; the companion goes on without it", part.name)
        if part.early:
            self.parts.update({name: part.provided(name) for name in part.provides})
        self.started.append(part)

    @property
    def table_part(self) -> Any:
        return next(part for part in self.started if "table" in part.provides)

    def faults(self) -> list[str]:
        """What is missing now, for the players."""
        return [fault for part in self.started if (fault := part.fault())]

    # -- run -------------------------------------------------------------------

    def ready(self) -> bool:
        """Tell systemd that the panel answers (once); False when it does not."""
        if self.is_ready:
            return True
        web = self.part("panel")
        if not web.answers():
            return False
        sd_notify(f"READY=1\nSTATUS=Panel on port {web.port}", self.environ)
        self.is_ready = True
        return True

    def _greet(self) -> None:
        """Say where the panel is (and, in simulation, its PIN) and what is
        missing."""
        access, address = self.part("panel").access, self.part("address")
        if self.simulate and access is not None:
            local = address.panel_url("127.0.0.1")
            # Each line in one write: print() writes its end apart, and
            # on an unbuffered stream shared with the log (a terminal, the
            # journal) another thread's line could land between the two.
            self.out.write(f"Open {local}virtual\n"
                           f"Join as a player: {access.join_url(local.rstrip('/'))} "
                           f"(PIN {access.pin})\n")
            self.out.flush()
        log.info("panel at %s (PIN on the table's screen)", address.panel_url())
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
        if not self.part("table").answers(patience):
            log.error("the table has not answered for %.1f s", patience)
            healthy = False
        if self.is_ready and not self.part("panel").serving:
            log.error("the panel's server is not running")
            healthy = False
        if healthy and self.watchdog and self.is_ready:
            sd_notify("WATCHDOG=1", self.environ)
        for part in self.started:
            try:
                part.tick()
            except Exception:
                log.exception("%s failed while retrying", part.name)
        self._report_faults()

    def _report_faults(self) -> None:
        """Players at the table see a new fault on its screen, and those of
        a part whose fault lasts (the table's) again while it lasts (the
        panel lists them all), except the screen's own."""
        found = [(part, fault) for part in self.started
                 if "display" not in part.provides and (fault := part.fault())]
        self.setup.bus.tell(FaultsNow(tuple(fault for _, fault in found),
                                      tuple(fault for part, fault in found if part.fault_lasts)))

    # -- stop --------------------------------------------------------------------

    def stop(self, message: str | None = None) -> None:
        """Stop every started part, in reverse order; the display last, with
        ``message`` (default "Companion is off")."""
        sd_notify("STOPPING=1", self.environ)
        display = self.parts.get("display")
        if message and display is not None:
            display.farewell = message
        # The display starts after the panel but goes last, with the
        # journal closed: its farewell is the last word.
        if display in self.started:
            self.started.remove(display)
            self.started.insert(0, display)
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


def pin_factory(simulate: bool) -> Callable[[], Any]:
    """gpiozero's pin factory for the parts: the board's own on a Pi; in
    simulation one MockFactory, made when the first device asks, whose
    pins carry their edges' times as lgpio's do."""
    if not simulate:
        return no_pin_factory
    made: list[Any] = []
    lock = threading.Lock()

    def mock_pins() -> Any:
        with lock:
            if not made:
                from gpiozero.pins.mock import MockFactory

                from drivers.mockpins import TimedMockPin

                made.append(MockFactory(pin_class=TimedMockPin))
            return made[0]

    return mock_pins


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
    from companion.commands import doctor as checks

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
