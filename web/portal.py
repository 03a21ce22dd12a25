"""The captive portal: phones that join the companion's own Wi-Fi are taken
to the panel.

While the companion is the hotspot, NetworkManager's dnsmasq answers every
name with the companion's address (``address=/#/10.42.0.1`` in
``/etc/NetworkManager/dnsmasq-shared.d/``, installed by
``scripts/install-pi.sh``).  A phone joining a Wi-Fi checks it has the
internet by fetching a known page over plain HTTP (port 80): Android
``/generate_204``, Apple ``/hotspot-detect.html``, Windows
``/connecttest.txt``...  Any answer but the expected one says "sign in to
this network", and the phone opens what it got: here a redirect to the
panel.  The panel listens on its own port (8080); :func:`create_portal_app`
is the small app served on port 80 (:func:`serve_portal`), which the
service may bind thanks to its unit's ``CAP_NET_BIND_SERVICE``, not by
running as root.  The same answers are registered on the panel itself, for
a panel configured on port 80.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from flask import Blueprint, Flask, current_app, redirect

log = logging.getLogger(__name__)

bp = Blueprint("portal", __name__)

# The pages operating systems fetch to learn whether a network is captive.
CHECKS = {
    "android": ("/generate_204", "/gen_204"),
    "apple": ("/hotspot-detect.html", "/library/test/success.html"),
    "windows": ("/connecttest.txt", "/ncsi.txt", "/redirect"),
    "firefox": ("/canonical.html", "/success.txt"),
    "kindle": ("/kindle-wifi/wifistub.html",),
}
CHECK_PATHS = tuple(path for paths in CHECKS.values() for path in paths)
PORTAL_THREADS = 2


def _panel_url() -> str:
    target: Callable[[], str] | None = current_app.config.get("PORTAL_TARGET")
    if target is None:
        return "/"
    return target()


def _to_panel():
    # 302 with no caching: a phone must ask again on its next network.
    response = redirect(_panel_url(), code=302)
    response.headers["Cache-Control"] = "no-store"
    return response


for _path in CHECK_PATHS:
    bp.add_url_rule(_path, f"check{_path.replace('/', '_').replace('.', '_')}", _to_panel)


def create_portal_app(panel_url: Callable[[], str]) -> Flask:
    """The app on port 80: every check page and every other address lead
    to ``panel_url()`` (the panel on the hotspot's address)."""
    app = Flask(__name__, static_folder=None)
    app.config.update(PORTAL_TARGET=panel_url, MAX_CONTENT_LENGTH=1024)
    app.register_blueprint(bp)

    @app.route("/", defaults={"path": ""}, methods=["GET", "HEAD", "POST"])
    @app.route("/<path:path>", methods=["GET", "HEAD", "POST"])
    def anything(path: str):
        return _to_panel()

    @app.after_request
    def no_referrer(response):
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    return app


class PortalServer:
    """waitress serving the portal app on its own thread."""

    def __init__(self, server: Any) -> None:
        self._server = server
        self._thread = threading.Thread(target=self._run, name="portal", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    def _run(self) -> None:
        try:
            self._server.run()
        except OSError as exc:  # a socket closed under it while stopping
            log.debug("the portal's server stopped: %s", exc)

    def start(self) -> None:
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def close(self) -> None:
        from waitress import wasyncore

        server = self._server
        try:
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        except OSError:
            wasyncore.close_all(server._map)
        self._thread.join(5)
        server.task_dispatcher.shutdown(timeout=2)


def serve_portal(app: Flask, host: str = "0.0.0.0", port: int = 80) -> PortalServer:
    """Bind the portal (raises OSError when the port cannot be had, e.g.
    without the capability) and serve it on a thread."""
    import waitress

    server = waitress.create_server(app, host=host, port=port, threads=PORTAL_THREADS,
                                    ident="companion", expose_tracebacks=False,
                                    max_request_body_size=1024)
    portal = PortalServer(server)
    portal.start()
    return portal
