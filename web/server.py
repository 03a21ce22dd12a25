"""The production WSGI server for the panel: waitress, made fair.

Each open live stream holds one waitress thread while it waits for the next
update, so the server gets a thread per phone plus a few for ordinary
requests, and the panel refuses live streams beyond that (503) rather than
starving the other requests.  The threads start as requests wait for one
(:class:`GrowingDispatcher`), not all before the first answer.

No device on the Wi-Fi can take the panel from the others:

- one address keeps at most :data:`PER_ADDRESS` connections: a new one
  beyond that takes the place of the address's least recently used idle
  connection (one a browser keeps open between requests, which it opens
  again when it needs it), or is closed as soon as it is accepted if every
  one of them is busy;
- a request must arrive whole within :data:`ARRIVAL_DEADLINE` seconds of its
  first byte (or of the connection's opening), however slowly it trickles
  in, and an idle connection is closed after :data:`IDLE_TIMEOUT` seconds;
- when every connection is taken, a new one is still accepted and the
  address holding the most gives up its oldest connection that is not being
  answered: there is always room for a new phone;
- each connection's unsent answer, in waitress's buffers and the system's,
  is visible to the panel (``environ["companion.unsent"]``), so that a live
  stream nobody reads is ended and its connection closed (``web/live.py``)
  instead of piling up in memory.

``python -m web.server --db FILE --port N`` runs a panel alone on a journal,
without drivers (for measurements and trying the pages).

waitress's documented interface (``waitress.serve``, ``create_server`` and
its settings) has no hook for any of this, so the server, its connections,
their tasks and the thread pool here are subclasses of waitress's own, and
use some of their attributes: :data:`WAITRESS_INTERNALS` names every one,
and ``tests/test_waitress_internals.py`` checks that the installed waitress
still has them (``pyproject.toml`` keeps waitress below its next major).
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import threading
import time
from collections import Counter
from typing import Any

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher, WSGITask

try:
    import fcntl
    import termios

    _OUTQ: int | None = termios.TIOCOUTQ
except (ImportError, AttributeError):  # not a Unix: only waitress's own buffer counts
    _OUTQ = None

# Threads kept free of live streams for page loads and commands.
SPARE_THREADS = 4
DEFAULT_PHONES = 32
# waitress reads a whole request before the panel sees it (by default up to
# 1 GiB, spilled to temporary files): a phone on the Wi-Fi could fill the
# Pi's memory or card.  Bodies a few times the panel's own limit still reach
# it, for its JSON 413; beyond that waitress refuses them as they start.
BODY_MARGIN = 4
MAX_HEADERS = 32 * 1024
# A browser opens at most 6 connections to one server, plus its live stream;
# several tabs or a page reloading fit in this.
PER_ADDRESS = 16
# Open connections in all: beyond it the busiest address gives one up.
MAX_CONNECTIONS = 160
# Seconds a request may take to arrive whole (a phone sends a few hundred
# bytes; even a poor Wi-Fi link sends 64 KiB in far less).
ARRIVAL_DEADLINE = 10
# Seconds a kept-alive connection may wait for its next request.
IDLE_TIMEOUT = 30
# Seconds between checks of the deadlines.
CHECK_EVERY = 1
# Unsent bytes kept per connection in memory before waitress would spill
# them to a temporary file: never reached (a live stream is ended long
# before, and the largest answer, a long game's history, is far smaller),
# so nothing is ever written to the SD card.
OUTBUF_IN_MEMORY = 16 * 1024 * 1024


# What this module uses of waitress beyond its documented interface: for
# each of waitress's classes (and its wasyncore module), the attributes and
# methods read, called or overridden here.
WAITRESS_INTERNALS: dict[str, tuple[str, ...]] = {
    "waitress.server.TcpWSGIServer": (
        "accept", "set_socket_options", "fix_addr", "handle_accept", "readable",
        "maintenance", "channel_class", "adj", "_map", "accepting", "trigger",
        "task_dispatcher", "effective_host", "effective_port", "pull_trigger", "run",
        "next_channel_cleanup"),
    "waitress.channel.HTTPChannel": (
        "received", "requests", "request", "will_close", "creation_time", "last_activity",
        "total_outbufs_len", "handle_close", "addr", "socket", "server", "task_class"),
    "waitress.task.WSGITask": ("get_environment", "channel"),
    "waitress.task.ThreadedTaskDispatcher": (
        "add_task", "set_thread_count", "shutdown", "lock", "queue", "queue_cv", "threads",
        "stop_count", "active_count", "queue_logger"),
    "waitress.wasyncore": ("close_all",),
    "waitress.trigger.trigger": ("pull_trigger",),
}


class _PanelTask(WSGITask):
    """A request's task: tells the panel how much of its answer is unsent
    (``companion.unsent()``) and lets it close the connection at once
    (``companion.hang_up()``, for a phone that stopped reading)."""

    def get_environment(self) -> dict:
        environ = super().get_environment()
        channel = self.channel

        def hang_up() -> None:
            channel.will_close = True
            channel.server.pull_trigger()

        environ["companion.unsent"] = lambda: channel.total_outbufs_len + _kernel_queue(channel)
        environ["companion.hang_up"] = hang_up
        return environ


class _FairChannel(HTTPChannel):
    """A connection that notes since when its current request is arriving."""

    task_class = _PanelTask

    def __init__(self, server, sock, addr, adj, map=None) -> None:
        super().__init__(server, sock, addr, adj, map=map)
        # On the clock that never steps, as every time of this server.
        self.creation_time = time.monotonic()
        # A new connection owes its first request from the start.
        self.arriving_since: float | None = time.monotonic()
        # When the phone last sent on it (taken in the server's loop, in
        # the order the bytes came: its least recently used is the one a
        # new connection of the same phone replaces).
        self.sent_at = self.creation_time

    # waitress notes a connection's last activity on the wall clock, which
    # NTP steps: after a step back, no idle connection would be closed for
    # as long as the step.  The note is taken on the clock that never steps
    # instead (whatever waitress passes), and read by ``maintenance``.
    @property
    def last_activity(self) -> float:
        return self._active_at

    @last_activity.setter
    def last_activity(self, _wall: float) -> None:
        self._active_at = time.monotonic()

    @property
    def idle(self) -> bool:
        """Waiting for the phone's next request: none arriving, none being
        answered, nothing left to send."""
        return (not self.requests and self.arriving_since is None
                and not self.total_outbufs_len and not self.will_close)

    def received(self, data: bytes) -> bool:
        self.sent_at = time.monotonic()
        now = self.sent_at if self.arriving_since is None else None
        done_before = len(self.requests)
        result = super().received(data)
        if self.request is None:
            self.arriving_since = None
        elif now is not None or len(self.requests) > done_before:
            # A request began arriving (after a whole one, when pipelined).
            self.arriving_since = time.monotonic()
        return result


class FairServer(TcpWSGIServer):
    """waitress's TCP server with per-address limits and deadlines for
    requests still arriving (see the module's description)."""

    channel_class = _FairChannel
    next_channel_cleanup: float = 0

    def __init__(self, *args: Any, per_address: int = PER_ADDRESS,
                 max_connections: int = MAX_CONNECTIONS,
                 arrival_deadline: float = ARRIVAL_DEADLINE, **kwargs: Any) -> None:
        self.per_address = per_address
        self.max_connections = max_connections
        self.arrival_deadline = arrival_deadline
        super().__init__(*args, **kwargs)

    def _channels(self) -> list[_FairChannel]:
        return [c for c in self._map.values() if isinstance(c, _FairChannel)]

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            return
        addr = self.fix_addr(addr)
        channels = self._channels()
        host = addr[0] if isinstance(addr, tuple) else addr
        mine = sum(1 for c in channels if _host(c) == host)
        if mine >= self.per_address and not self._give_way(channels, host):
            _close_quietly(conn)
            return
        if len(channels) >= self.max_connections and not self._make_room(channels):
            _close_quietly(conn)
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def _give_way(self, channels: list[_FairChannel], host: Any) -> bool:
        """Close the least recently used :attr:`~_FairChannel.idle`
        connection of ``host``; ``False`` if there is none.

        A browser keeps up to six connections to a server open between
        requests: a phone reloading a page, or several tabs, would otherwise
        find its own idle connections holding its share, and its page's
        scripts refused.  Nothing was sent on an idle connection since its
        last answer, so a request the browser sends on it as it closes is
        sent again on a new one (as browsers do for a kept-alive connection
        that closes unanswered), never answered twice.
        """
        idle = [c for c in channels if _host(c) == host and c.idle]
        if not idle:
            return False
        min(idle, key=lambda c: c.sent_at).handle_close()
        return True

    def _make_room(self, channels: list[_FairChannel]) -> bool:
        """Close the oldest connection, not being answered, of the address
        holding the most connections; ``False`` if there is none."""
        counts = Counter(_host(c) for c in channels)
        for host, _count in counts.most_common():
            waiting = [c for c in channels if _host(c) == host and not c.requests]
            if waiting:
                oldest = min(waiting, key=lambda c: c.creation_time)
                oldest.handle_close()
                return True
        return False

    def readable(self) -> bool:
        # waitress stops accepting at its connection limit, which would keep
        # every new phone waiting: this server makes room instead.  Its
        # checks are timed on the clock that never steps (waitress's own, on
        # the wall clock, stop for a day after a step back of a day).
        now = time.monotonic()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return bool(self.accepting)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        cutoff = time.monotonic() - self.arrival_deadline
        for channel in self._channels():
            since = channel.arriving_since
            if not channel.requests and since is not None and since < cutoff:
                channel.will_close = True


def _kernel_queue(channel: HTTPChannel) -> int:
    """Bytes the system holds for the connection, not yet taken by the phone
    (Linux; 0 where it cannot say).  A phone asleep lets them pile up there
    first, in memory the Pi does not have to spare."""
    if _OUTQ is None:
        return 0
    try:
        answer = fcntl.ioctl(channel.socket.fileno(), _OUTQ, b"\0\0\0\0")
    except (OSError, ValueError, AttributeError):
        return 0
    return int(struct.unpack("i", answer)[0])


class GrowingDispatcher(ThreadedTaskDispatcher):
    """waitress's thread pool, started with a few threads and given one more
    whenever a request waits for a thread, up to ``most``.

    Starting the whole pool (one thread per phone the panel takes, 36)
    before the first answer cost some 5 ms of a development machine's CPU,
    half a tenth of a second at a tenth of its speed, and most tables never
    have that many phones.  Threads are never stopped before the server."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most
        # Tasks are added from the server's loop and from its threads (a
        # connection's next request): one grows the pool at a time, and
        # only upwards (set_thread_count stops threads beyond its count).
        self._growing = threading.Lock()

    def add_task(self, task: Any) -> None:
        with self.lock:
            self.queue.append(task)
            self.queue_cv.notify()
            running = len(self.threads) - self.stop_count
            # A thread just started counts as active until it first waits,
            # so this may start one more than needed, never beyond ``most``.
            waiting = len(self.queue) - (running - self.active_count)
        if waiting <= 0:
            return
        if running >= self.most:
            self.queue_logger.warning("Task queue depth is %d", waiting)
            return
        wanted = min(self.most, running + waiting)
        with self._growing:
            with self.lock:
                running = len(self.threads) - self.stop_count
            if running < wanted:
                self.set_thread_count(wanted)


def _host(channel: HTTPChannel) -> Any:
    addr = channel.addr
    return addr[0] if isinstance(addr, tuple) else addr


def _close_quietly(conn) -> None:
    try:
        conn.close()
    except OSError:
        pass


class PanelServer:
    """A running waitress server for the panel: ``run()`` serves until
    ``close()`` (which may be called from another thread)."""

    def __init__(self, app, server: FairServer) -> None:
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
        # The streams' threads finish their answers while the loop can still
        # be woken (an answer's last bytes pull its trigger): only then are
        # the sockets and the trigger closed.
        server.task_dispatcher.shutdown(timeout=2)
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


def serve(app, host: str = "0.0.0.0", port: int = 8080,
          threads: int = DEFAULT_PHONES + SPARE_THREADS, *,
          per_address: int = PER_ADDRESS, max_connections: int = MAX_CONNECTIONS,
          arrival_deadline: float = ARRIVAL_DEADLINE) -> PanelServer:
    """Bind the panel's server (port 0 picks a free one); call ``run()``
    (in a thread, if you like) to serve and ``close()`` to stop.

    ``per_address`` connections at most from one address, ``max_connections``
    in all (then the busiest address gives one up), ``arrival_deadline``
    seconds for a request to arrive whole."""
    if threads <= SPARE_THREADS:
        raise ValueError(f"the panel needs more than {SPARE_THREADS} threads: "
                         f"{SPARE_THREADS} for requests and one per live phone")
    live = app.extensions["companion"].live
    live.max_streams = threads - SPARE_THREADS
    if per_address < 1 or max_connections < per_address:
        raise ValueError("the panel needs 1 or more connections per address, and at least "
                         "as many in all")
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        # Lets a stream notice a phone that went away while it waits.
        channel_request_lookahead=1,
        # The server makes room itself (FairServer.handle_accept).
        connection_limit=max_connections + 1,
        channel_timeout=IDLE_TIMEOUT,
        cleanup_interval=CHECK_EVERY,
        outbuf_overflow=OUTBUF_IN_MEMORY,
        max_request_body_size=BODY_MARGIN * int(app.config["MAX_CONTENT_LENGTH"]),
        max_request_header_size=MAX_HEADERS,
        ident="companion",
        clear_untrusted_proxy_headers=True,
        expose_tracebacks=False,
    )
    if len(adj.listen) != 1:
        raise ValueError(f"{host!r} names several addresses; give the panel one to listen on")
    dispatcher = GrowingDispatcher(threads)
    dispatcher.set_thread_count(SPARE_THREADS)
    server = FairServer(app, {}, dispatcher=dispatcher, adj=adj, sockinfo=adj.listen[0],
                        per_address=per_address, max_connections=max_connections,
                        arrival_deadline=arrival_deadline)
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
