"""The phone panel, where phones reach it, and its mDNS name, as parts of
the daemon; and the panel's mirror of the table's screen."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from companion.core.errors import CompanionError
from companion.core.table import Table
from companion.host.config import Config
from companion.host.storage import ACCESS_FILE, keep_file, panel_secret
from companion.parts.bus import FrameShown, NetworkChanged
from companion.parts.lifecycle import Component, Retrying, Setup

if TYPE_CHECKING:
    from companion.core.ports import DiceService, SmartDice
    from companion.host.timesync import TableTime
    from web import PanelSettings, Services

    from .hardware import KeypadPart
    from .network import NetworkPart
    from .venue import VenueService

log = logging.getLogger(__name__)

# How long READY=1 waits for the panel to answer its first request.
PANEL_START_TIMEOUT = 10.0


def panel_settings(config: Config, directory: Path) -> PanelSettings:
    """The panel's settings from the companion's config: its secret, PIN
    and colours kept durably in the data directory."""
    from web import PanelSettings

    return PanelSettings(secret_key=panel_secret(directory), language=config.language,
                         access_file=directory / ACCESS_FILE, keep_file=keep_file,
                         session_hours=config.web.session_hours, bgg_ids=config.bgg.ids(),
                         caller_moments=config.voice.moments, speaker=config.voice.enabled)


class PanelCannotListen(CompanionError, OSError):
    """The panel's address and port cannot be listened on."""


class WebPart(Retrying):
    """The phone panel: the Flask app served by waitress on its own thread.
    A port that is taken is tried again, like missing hardware."""

    name = "panel"
    what = "panel"
    needs = ("table", "time", "dice", "pixels", "keypad", "network", "venue")
    provides = ("panel",)
    early = True

    def __init__(self, setup: Setup, *, table: Table, time: TableTime | None,
                 dice: DiceService | None, pixels: SmartDice | None,
                 keypad: KeypadPart | None, network: NetworkPart | None,
                 venue: VenueService | None) -> None:
        super().__init__()
        self.config = setup.config
        self.table = table
        self.directory = setup.directory
        self.services = services(setup, dice=dice, pixels=pixels, keypad=keypad,
                                 network=network, venue=venue,
                                 phone_time=None if time is None else time.phone_said)
        self.app: Any = None
        self.server: Any = None
        self._thread: threading.Thread | None = None
        self.port: int = self.config.web.port

    def start(self) -> None:
        # The app exists before it serves: the screen's join view needs its
        # PIN and join token even while the port is tried again.
        if self.app is None:
            from web import create_app

            self.app = create_app(self.table, panel_settings(self.config, self.directory),
                                  services=self.services)
        super().start()

    @property
    def access(self) -> Any:
        """The panel's PIN and join token; ``None`` while the panel could not
        be made (its data directory refused it): the others go on without."""
        if self.app is None:
            return None
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
        failures = 0
        while time.monotonic() < deadline and self.serving:
            connection = http.client.HTTPConnection(host, self.port, timeout=2)
            try:
                connection.request("GET", "/api/health")
                response = connection.getresponse()
                response.read()  # all of it: a close mid-answer is logged by the server
                if response.status == 200:
                    return True
            except (OSError, http.client.HTTPException):
                pass
            finally:
                connection.close()
            # Not yet (an error status, or the server thread not started):
            # ask again after the companion's backoff, within the deadline.
            failures += 1
            time.sleep(min(self.backoff.delay(failures), max(0.0, deadline - time.monotonic())))
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


class AddressPart(Component):
    """Where phones reach the panel: the address phones reach (followed on
    every tick of the main loop, and at once when the Wi-Fi changes, so
    that the QR code carries the new one), the panel's URL there, and the
    join link and PIN the table's screen shows."""

    name = "address"
    needs = ("panel",)
    provides = ("address",)

    def __init__(self, setup: Setup, *, panel: WebPart) -> None:
        self.listen = setup.config.web.host
        self.bus = setup.bus
        self.panel = panel
        self.host = "127.0.0.1"
        self._unsubscribe: Callable[[], None] = lambda: None

    def start(self) -> None:
        self.refresh()
        self._unsubscribe = self.bus.subscribe(NetworkChanged, self._network_changed)

    def stop(self) -> None:
        self._unsubscribe()

    def tick(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        from web.discovery import reachable_host

        host = reachable_host(self.listen)
        if host != self.host:
            log.info("phones reach the panel at %s", self.panel_url(host))
            self.host = host

    def panel_url(self, host: str | None = None) -> str:
        from web.discovery import panel_url

        return panel_url(host or self.host, self.panel.port)

    def join_info(self) -> tuple[str, str]:
        """The link that joins as a player, and the PIN."""
        access = self.panel.access
        if access is None:  # no panel (yet): the screen draws without it
            return "", ""
        return access.join_url(self.panel_url()), access.pin

    def sign_out(self) -> tuple[str, str]:
        """The menu's "Sign out phones": every phone a spectator, and the
        new link and PIN to show."""
        access = self.panel.access
        if access is None:
            return "", ""
        access.sign_out()
        log.info("every phone signed out of the panel from the table's menu")
        return self.join_info()

    def _network_changed(self, news: NetworkChanged) -> None:
        if news.what in ("hotspot", "joined", "join-failed"):
            self.refresh()


class DiscoveryPart(Component):
    """The panel's mDNS name, at the address phones reach."""

    name = "mdns"
    needs = ("panel", "address")

    def __init__(self, setup: Setup, *, panel: WebPart, address: AddressPart) -> None:
        config = self.config = setup.config
        self.enabled = config.web.mdns is True or (config.web.mdns == "auto"
                                                   and not setup.simulate)
        self._port = lambda: panel.port
        self._address = lambda: address.host
        self.advertiser: Any = None

    def start(self) -> None:
        if not self.enabled:
            log.info("mDNS is off (web.mdns = %r%s)", self.config.web.mdns,
                     ", simulation" if self.config.web.mdns == "auto" else "")
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


def services(setup: Setup, *, dice: DiceService | None, pixels: SmartDice | None,
             keypad: KeypadPart | None, network: NetworkPart | None,
             venue: VenueService | None,
             phone_time: Callable[[float], bool] | None = None) -> Services:
    """What the panel is lent: the parts it drives, the mirror of the
    table's screen (from the bus), the virtual table's buttons in
    simulation, the faults and the drawing of the wiring."""
    from functools import partial

    from web import Services

    mirror = Mirror(setup.bus)
    return Services(screen_png=mirror.png, screen_frame=mirror.numbered_png,
                    screen_news=mirror.subscribe,
                    press_key=keypad.press if setup.simulate and keypad is not None else None,
                    dice=dice, faults=setup.faults, network=network, pixels=pixels,
                    wiring_svg=partial(wiring_svg, setup.config), venue=venue,
                    phone_time=phone_time)


def wiring_svg(config: Config, lang: str) -> str:
    from companion.commands import wiring

    return wiring.svg(config, lang)


class Mirror:
    """The table screen's frame as the panel mirrors it: each frame the
    screen tells on the bus (:class:`~companion.parts.bus.FrameShown`), with its
    number, and its PNG made once when a phone asks (a blank frame, number
    0, before the screen's first)."""

    def __init__(self, bus: Any) -> None:
        from companion.parts.frames import Frames

        self.bus = bus
        self._frames = Frames()
        bus.subscribe(FrameShown, lambda shown: self._frames.put(*shown))

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` at each new frame; returns what stops it."""
        return self.bus.subscribe(FrameShown, lambda shown: listener())

    def png(self) -> bytes:
        return self.numbered_png()[1]

    def numbered_png(self) -> tuple[int, bytes]:
        return self._frames.numbered_png(blank)


def blank() -> Any:
    from PIL import Image

    return Image.new("1", (128, 64))
