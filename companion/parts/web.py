"""The phone panel and its mDNS name, as components of the daemon."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from companion.components import Component, Retrying
from companion.config import Config
from companion.core.errors import CompanionError
from companion.core.table import Table
from companion.storage import ACCESS_FILE, keep_file, panel_secret

if TYPE_CHECKING:
    from web import PanelSettings, Services

log = logging.getLogger(__name__)

# How long READY=1 waits for the panel to answer its first request.
PANEL_START_TIMEOUT = 10.0


def panel_settings(config: Config, directory: Path) -> PanelSettings:
    """The panel's settings from the companion's config: its secret, PIN
    and colours kept durably in the data directory."""
    from web import PanelSettings

    return PanelSettings(secret_key=panel_secret(directory), language=config.language,
                         access_file=directory / ACCESS_FILE, keep_file=keep_file,
                         session_hours=config.web.session_hours, bgg_ids=config.bgg.ids())


class PanelCannotListen(CompanionError, OSError):
    """The panel's address and port cannot be listened on."""


class WebPart(Retrying):
    """The phone panel: the Flask app served by waitress on its own thread.
    A port that is taken is tried again, like missing hardware."""

    name = "panel"
    what = "panel"

    def __init__(self, config: Config, table: Table, directory: Path,
                 services: Services) -> None:
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

        self.app = create_app(self.table, panel_settings(self.config, self.directory),
                              services=self.services)

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


class DiscoveryPart(Component):
    """The panel's mDNS name, at the address phones reach."""

    name = "mdns"

    def __init__(self, config: Config, port: Callable[[], int],
                 address: Callable[[], str], *, simulate: bool = False) -> None:
        self.config = config
        self.enabled = config.web.mdns is True or (config.web.mdns == "auto" and not simulate)
        self._port = port
        self._address = address
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
