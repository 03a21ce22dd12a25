"""No device on the Wi-Fi can take the panel from the others: through the real
server and real sockets, one address (127.0.0.2 here) that holds many
half-sent requests, or a live stream it never reads, leaves every other
address (127.0.0.1) served."""

from __future__ import annotations

import itertools
import json
import select
import socket
import threading
import time

import pytest

from companion.core.engine import Command
from web import PanelSettings, create_app
from web.server import PER_ADDRESS, serve

HOG = "127.0.0.2"
# Waits far shorter than waitress's 120 s default for unfinished requests,
# and far longer than anything here should take.
PATIENCE = 30.0


@pytest.fixture
def running(table):
    """Start a real panel server on loopback: ``running(settings,
    **serve_args)`` returns the PanelServer, closed at the end."""
    servers = []

    def start(settings=None, **kwargs):
        app = create_app(table, settings or PanelSettings(secret_key="test"))
        server = serve(app, "127.0.0.1", 0, **kwargs)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        servers.append((server, thread))
        return server

    yield start
    for server, thread in servers:
        server.close()
        thread.join(5)


def connect(port: int, source: str = "127.0.0.1", *, rcvbuf: int | None = None,
            timeout: float = PATIENCE) -> socket.socket:
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def half_sent(port: int, source: str = HOG) -> socket.socket | None:
    """A connection holding a request whose body never finishes arriving;
    ``None`` if the server closed it at once."""
    try:
        sock = connect(port, source)
        sock.sendall(b"POST /api/command HTTP/1.1\r\nHost: companion\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        return sock
    except OSError:
        return None


def get(port: int, path: str, source: str = "127.0.0.1") -> tuple[int, bytes]:
    """A whole GET from ``source``: the status and the body."""
    with connect(port, source) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: companion\r\nConnection: close\r\n\r\n"
                     .encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def channels_from(server, address: str) -> int:
    return sum(1 for c in server._server._channels() if c.addr[0] == address)


def idle_from(server, address: str) -> int:
    """The address's connections waiting for their next request."""
    return sum(1 for c in server._server._channels() if c.addr[0] == address and c.idle)


def wait_until(condition, timeout: float = PATIENCE) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_120_half_sent_requests_from_one_address_leave_another_served(running, table):
    server = running()
    hog = [half_sent(server.port) for _ in range(120)]
    try:
        status, body = get(server.port, "/api/state")
        assert status == 200
        assert json.loads(body)["game"] is None
        # The buttons and the CLI go to the table, not through the panel.
        assert table.new_game("call-of-nature", ["Ana", "Ben"]).version == 0
        # The hog keeps no more than its share of the server.
        assert wait_until(lambda: channels_from(server, HOG) <= PER_ADDRESS)
    finally:
        for sock in hog:
            if sock is not None:
                sock.close()


def test_a_request_trickling_in_is_closed_at_its_deadline(running):
    server = running(arrival_deadline=1)
    sock = half_sent(server.port, "127.0.0.1")
    assert sock is not None
    # One byte every so often keeps waitress's idle timeout from ever firing:
    # only the deadline for the whole request can end this.
    closed = False
    for _ in range(200):
        readable, _, _ = select.select([sock], [], [], 0.2)
        if readable:
            try:
                closed = sock.recv(4096) == b""
            except ConnectionResetError:
                closed = True
            if closed:
                break
        try:
            sock.sendall(b" ")
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
    sock.close()
    assert closed


def test_with_every_connection_taken_a_new_phone_is_still_served(running):
    server = running(per_address=2, max_connections=4)
    held = [half_sent(server.port, address)
            for address in ("127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3")]
    assert wait_until(lambda: len(server._server._channels()) == 4)
    try:
        status, _ = get(server.port, "/api/health", source="127.0.0.4")
        assert status == 200
    finally:
        for sock in held:
            if sock is not None:
                sock.close()


def test_one_address_keeps_at_most_its_share_of_connections(running):
    server = running(per_address=3)
    held = [half_sent(server.port) for _ in range(8)]
    try:
        assert wait_until(lambda: channels_from(server, HOG) == 3)
        # Those beyond its share were closed at once.
        assert sum(closed_by_server(sock) for sock in held) == 5
    finally:
        for sock in held:
            sock.close()


def kept_alive_get(sock: socket.socket, path: str = "/api/health") -> int:
    """A GET on a connection kept open after its answer, as a browser's;
    the answer's status, read whole."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: companion\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(65536)
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1])


def closed_by_server(sock: socket.socket, wait: float = 0.5) -> bool:
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_phone_at_its_share_of_connections_is_served_its_least_used_idle_one_gives_way(
        running):
    # A browser keeps its connections open between requests: a phone
    # reloading holds its share with idle ones, and its next page still loads.
    server = running(per_address=3)
    kept = [connect(server.port, HOG) for _ in range(3)]
    try:
        for sock in kept:
            assert kept_alive_get(sock) == 200
        assert kept_alive_get(kept[0]) == 200  # the second is now the least used
        # Idle on the server's side too: an answer read whole may still be
        # its thread's until that thread ends the task.
        assert wait_until(lambda: idle_from(server, HOG) == 3)
        newest = connect(server.port, HOG)
        try:
            assert kept_alive_get(newest) == 200
            assert closed_by_server(kept[1])
            assert not closed_by_server(kept[0]) and not closed_by_server(kept[2])
            assert kept_alive_get(kept[0]) == 200 and kept_alive_get(kept[2]) == 200
            assert channels_from(server, HOG) == 3
        finally:
            newest.close()
    finally:
        for sock in kept:
            sock.close()


def test_a_connection_still_sending_or_being_answered_never_gives_way(running):
    # Connections busy with a request (here, each with one half sent) keep
    # their place: the address's new connection is refused instead.
    server = running(per_address=3)
    busy = [half_sent(server.port) for _ in range(3)]
    try:
        assert wait_until(lambda: channels_from(server, HOG) == 3)
        extra = connect(server.port, HOG)
        try:
            assert closed_by_server(extra, wait=PATIENCE)
        finally:
            extra.close()
        assert not any(closed_by_server(sock) for sock in busy)
    finally:
        for sock in busy:
            sock.close()


def read_until_closed(sock: socket.socket) -> bytes:
    sock.settimeout(PATIENCE)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def test_a_live_stream_that_is_not_read_is_dropped_and_the_phone_gets_the_state_again(
        running, table):
    server = running(PanelSettings(live_max_unsent=4096, live_heartbeat=0.2))
    live = server.app.extensions["companion"].live
    table.new_game("call-of-nature", ["Ana", "Ben"])
    sleeper = connect(server.port, HOG, rcvbuf=4096)
    sleeper.sendall(b"GET /api/events HTTP/1.1\r\nHost: companion\r\n\r\n")
    assert wait_until(lambda: live.open_streams == 1)
    # Changes go out while the phone reads nothing, until the server gives up
    # on it (its socket buffers fill first).
    notes = 0
    while live.dropped == 0 and notes < 20000:
        table.submit(Command("note", {"text": f"note {notes} " + "x" * 150}))
        notes += 1
    assert live.dropped == 1
    assert wait_until(lambda: live.open_streams == 0)
    # Reading again, the phone finds its connection closed, and reconnects...
    read_until_closed(sleeper)
    sleeper.close()
    table.submit(Command("card", {"value": 5}))
    again = connect(server.port, HOG)
    again.sendall(b"GET /api/events HTTP/1.1\r\nHost: companion\r\n\r\n")
    buffer = b""
    while b"event: update" not in buffer or b"\n\n" not in buffer.split(b"event: update")[1]:
        buffer += again.recv(65536)
    again.close()
    # ...to the whole state as it is now.
    data = buffer.split(b"event: update\ndata: ")[1].split(b"\n\n")[0]
    assert json.loads(data)["version"] == table.version == notes + 1


def test_a_phone_that_reads_its_stream_is_never_dropped(running, table):
    server = running(PanelSettings(live_max_unsent=4096))
    live = server.app.extensions["companion"].live
    table.new_game("call-of-nature", ["Ana", "Ben"])
    reader = connect(server.port, HOG)
    reader.sendall(b"GET /api/events HTTP/1.1\r\nHost: companion\r\n\r\n")
    received = bytearray()
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            try:
                chunk = reader.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            received.extend(chunk)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    assert wait_until(lambda: live.open_streams == 1)
    # A phone that keeps up: each change reaches it before the next is made,
    # so however busy the machine, its unsent data never builds up; the
    # changes add up to far more than the limit a sleeping phone is allowed.
    seen = 0
    for n in range(300):
        version = table.submit(Command("note", {"text": f"note {n} " + "x" * 150})).version
        mark = f'"version":{version},'.encode()
        def arrived(mark: bytes = mark, start: int = seen) -> bool:
            return received.find(mark, start) >= 0

        assert wait_until(arrived), f"change {n}"
        seen = received.find(mark, seen)
    assert len(received) > 20 * 4096
    assert live.dropped == 0 and live.open_streams == 1
    stop.set()
    reader.close()
    thread.join(5)


class _Table:
    def subscribe(self, listener):
        return lambda: None


def test_with_every_live_slot_taken_a_new_phone_gets_one_from_the_busiest():
    from web.live import Broadcast, TooManyStreams

    live = Broadcast(_Table(), render=lambda update: {}, max_streams=3, max_per_phone=6,
                     heartbeat=0.05)
    hog = [live.stream([], phone="192.168.1.50") for _ in range(2)]
    alone = live.stream([], phone="192.168.1.51")
    newcomer = live.stream([], phone="192.168.1.52")
    # The busiest phone gave up its oldest stream; the others kept theirs.
    assert live.open_streams == 3
    assert next(hog[0]).startswith(b"retry:")
    assert list(itertools.islice(hog[0], 5)) == []  # ended, not beating
    # A phone's only stream is never taken for another phone's.
    with pytest.raises(TooManyStreams):
        live.stream([], phone="192.168.1.53")
    for feed in (hog[1], alone, newcomer):
        feed.close()
    assert live.open_streams == 0


# -- threads: started as requests wait for one -----------------------------------


class _Held:
    """A task that holds its thread until released."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def service(self) -> None:
        self.started.set()
        self.release.wait(PATIENCE)

    def cancel(self) -> None:
        self.release.set()


def _idle(dispatcher) -> None:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        with dispatcher.lock:
            if dispatcher.active_count == 0:
                return
        time.sleep(0.001)
    raise AssertionError("the dispatcher's threads never went idle")


def test_the_server_starts_a_few_threads_and_one_more_for_each_request_that_waits(caplog):
    from web.server import GrowingDispatcher

    dispatcher = GrowingDispatcher(most=5)
    dispatcher.set_thread_count(2)
    held = [_Held() for _ in range(7)]
    try:
        _idle(dispatcher)
        assert len(dispatcher.threads) == 2
        counts = []
        for task in held[:5]:
            dispatcher.add_task(task)
            assert task.started.wait(PATIENCE)
            counts.append(len(dispatcher.threads))
        # Two idle threads took the first two; each later one started a thread.
        assert counts == [2, 2, 3, 4, 5]
        # At ``most``, a request waits in the queue (and the log says so).
        with caplog.at_level("WARNING", logger="waitress.queue"):
            dispatcher.add_task(held[5])
            dispatcher.add_task(held[6])
        assert len(dispatcher.threads) == 5
        assert "Task queue depth is 2" in caplog.text
        assert not held[5].started.wait(0.2)
        held[0].release.set()
        assert held[5].started.wait(PATIENCE)
        assert not held[6].started.is_set()
        assert len(dispatcher.threads) == 5
    finally:
        for task in held:
            task.release.set()
        dispatcher.shutdown(timeout=PATIENCE)
    assert not dispatcher.threads


def test_the_panel_server_starts_with_its_spare_threads_and_serves_more_phones(running):
    from web.server import SPARE_THREADS

    phones = SPARE_THREADS + 2
    server = running(threads=SPARE_THREADS + phones)
    dispatcher = server._server.task_dispatcher
    assert dispatcher.most == SPARE_THREADS + phones
    assert len(dispatcher.threads) == SPARE_THREADS
    streams = []
    try:
        for _ in range(phones):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: companion\r\n\r\n")
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
            streams.append(sock)
        # Each live stream holds a thread; a plain request is still answered.
        probe = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
        probe.sendall(b"GET /api/health HTTP/1.1\r\nHost: companion\r\nConnection: close\r\n\r\n")
        assert probe.recv(64).startswith(b"HTTP/1.1 200")
        probe.close()
        assert phones < len(dispatcher.threads) <= SPARE_THREADS + phones
    finally:
        for sock in streams:
            sock.close()


def _add_together(dispatcher, tasks) -> None:
    """Each task added from its own thread, all at once."""
    together = threading.Barrier(len(tasks))

    def add(task):
        together.wait(PATIENCE)
        dispatcher.add_task(task)

    adders = [threading.Thread(target=add, args=(task,)) for task in tasks]
    for adder in adders:
        adder.start()
    for adder in adders:
        adder.join(PATIENCE)


def test_requests_arriving_together_grow_the_pool_to_its_most_and_never_shrink_it():
    from web.server import GrowingDispatcher

    for _ in range(20):
        dispatcher = GrowingDispatcher(most=6)
        dispatcher.set_thread_count(2)
        held = [_Held() for _ in range(8)]
        try:
            _add_together(dispatcher, held)
            deadline = time.monotonic() + PATIENCE
            while sum(task.started.is_set() for task in held) < 6:
                assert time.monotonic() < deadline, "six tasks never ran"
                time.sleep(0.001)
            with dispatcher.lock:
                assert (len(dispatcher.threads), dispatcher.stop_count) == (6, 0)
                assert len(dispatcher.queue) == 2
        finally:
            for task in held:
                task.release.set()
            dispatcher.shutdown(timeout=PATIENCE)
