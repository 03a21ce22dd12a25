"""The production WSGI server for the panel: waitress.

Each open live stream holds one waitress thread while it waits for the next
update, so the server gets a thread per phone plus a few for ordinary
requests, and the panel refuses live streams beyond that (503) rather than
starving the other requests.

``python -m web.server --db FILE --port N`` runs a panel alone on a journal,
without drivers (for measurements and trying the pages).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from typing import Any

import waitress
from waitress import wasyncore
from waitress.server import BaseWSGIServer

# Threads kept free of live streams for page loads and commands.
SPARE_THREADS = 4
DEFAULT_PHONES = 32
# waitress reads a whole request before the panel sees it (by default up to
# 1 GiB, spilled to temporary files): a phone on the Wi-Fi could fill the
# Pi's memory or card.  Bodies a few times the panel's own limit still reach
# it, for its JSON 413; beyond that waitress refuses them as they start.
BODY_MARGIN = 4
MAX_HEADERS = 32 * 1024


class PanelServer:
    """A running waitress server for the panel: ``run()`` serves until
    ``close()`` (which may be called from another thread)."""

    def __init__(self, app, server: BaseWSGIServer) -> None:
        self.app = app
        self._server = server
        self._closed = threading.Event()
        self._running = False
        self._stopped = threading.Event()

    @property
    def host(self) -> str:
        return self._server.effective_host

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def run(self) -> None:
        if self._closed.is_set():
            return
        self._running = True
        try:
            self._server.run()
        finally:
            self._stopped.set()

    def close(self) -> None:
        """Stop serving: end every live stream first, so that no thread
        waits on one, then close every connection and the listening socket."""
        if self._closed.is_set():
            return
        self._closed.set()
        self.app.extensions["companion"].live.close()
        server = self._server
        if self._running and not self._stopped.is_set():
            # The sockets belong to run()'s loop: close them from inside it,
            # which empties its map and so ends it.
            try:
                server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
            except OSError:
                # The loop woke for another reason and ran the queued close
                # before this write: the trigger is closed already.
                pass
            self._stopped.wait(5)
        else:
            wasyncore.close_all(server._map)
        server.task_dispatcher.shutdown(timeout=2)


def serve(app, host: str = "0.0.0.0", port: int = 8080,
          threads: int = DEFAULT_PHONES + SPARE_THREADS) -> PanelServer:
    """Bind the panel's server (port 0 picks a free one); call ``run()``
    (in a thread, if you like) to serve and ``close()`` to stop."""
    if threads <= SPARE_THREADS:
        raise ValueError(f"the panel needs more than {SPARE_THREADS} threads: "
                         f"{SPARE_THREADS} for requests and one per live phone")
    live = app.extensions["companion"].live
    live.max_streams = threads - SPARE_THREADS
    server = waitress.create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        # Lets a stream notice a phone that went away while it waits.
        channel_request_lookahead=1,
        connection_limit=max(100, threads * 3),
        max_request_body_size=BODY_MARGIN * int(app.config["MAX_CONTENT_LENGTH"]),
        max_request_header_size=MAX_HEADERS,
        ident="companion",
        clear_untrusted_proxy_headers=True,
        expose_tracebacks=False,
    )
    if not isinstance(server, BaseWSGIServer):
        server.close()
        raise ValueError(f"{host!r} names several addresses; give the panel one to listen on")
    live.open()
    return PanelServer(app, server)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.server",
                                     description="serve the phone panel on a journal")
    parser.add_argument("--db", required=True, help="the journal (created if missing)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--threads", type=int, default=DEFAULT_PHONES + SPARE_THREADS)
    args = parser.parse_args(argv)

    from companion.core.journal import Journal
    from companion.core.table import Table

    from . import create_app

    table = Table(Journal.open(args.db))
    app = create_app(table)
    server = serve(app, args.host, args.port, args.threads)
    access = app.extensions["companion"].access
    ready: dict[str, Any] = {"url": server.url, "pin": access.pin,
                             "join_url": access.join_url(server.url)}
    print(json.dumps(ready), flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
