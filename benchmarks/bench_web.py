"""How fast a change reaches every phone, and what the panel's server costs,
even when some phones stop reading or one device misbehaves.

Runs the panel as its own process (``python -m web.server``, waitress on
loopback) on a fresh journal.  Each phone has its own address (127.0.1.x,
127.0.2.x: Linux answers on all of 127/8), as on the Wi-Fi.

1. 32 phones open live streams (/api/events) read by threads; a controller
   joins with the PIN and plays 50 cards of Call of Nature through POST
   /api/command.  For each change: the time from just before the POST until
   the last of the 32 streams has that version.  Then the server's memory
   (VmRSS, peak VmHWM) and threads from /proc.
2. 32 more phones open live streams and never read them (a phone asleep
   with the page open), while 700 more changes go out: the same latency for
   the reading phones, the server's memory, and how many streams are left.
3. One address (127.0.3.1) holds 120 half-sent requests; another address's
   GET /api/state: how long until it is answered.

    .venv/bin/python benchmarks/bench_web.py [--phones 32] [--changes 50]
        [--sleepers 32] [--more-changes 700]

Targets on a development machine: p99 <= 20 ms, RSS <= 60 MB with the
sleepers, the request beside 120 half-sent ones answered within 1 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = re.compile(rb'"version":(\d+),"action"')


def connect_from(address: str, port: int, *, rcvbuf: int | None = None,
                 timeout: float | None = None) -> socket.socket:
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(timeout)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    return sock


class Sleeper:
    """A phone that opened its live stream and stopped reading it."""

    def __init__(self, port: int, address: str) -> None:
        self.sock = connect_from(address, port, rcvbuf=4096)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Accept: text/event-stream\r\n\r\n")

    def close(self) -> None:
        self.sock.close()


def beside_half_sent(port: int, held: int = 120) -> float:
    """Seconds until 127.0.0.1's GET /api/state is answered while 127.0.3.1
    holds ``held`` half-sent requests."""
    hog = []
    for _ in range(held):
        try:
            sock = connect_from("127.0.3.1", port, timeout=5)
            sock.sendall(b"POST /api/command HTTP/1.1\r\nHost: companion\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            hog.append(sock)
        except OSError:
            pass
    try:
        start = time.perf_counter()
        with connect_from("127.0.0.1", port, timeout=120) as sock:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: companion\r\n"
                         b"Connection: close\r\n\r\n")
            answer = sock.recv(64)
        took = time.perf_counter() - start
        if not answer.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"GET /api/state beside the hog: {answer!r}")
        return took
    finally:
        for sock in hog:
            sock.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Phone:
    """One phone's live stream, read by a thread: notes when each version
    first arrives."""

    def __init__(self, port: int, arrivals: Arrivals, address: str) -> None:
        self.sock = connect_from(address, port)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Accept: text/event-stream\r\n\r\n")
        self.arrivals = arrivals
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        tail = b""
        seen = -1
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                return
            if not data:
                return
            now = time.perf_counter()
            tail += data
            for match in VERSION.finditer(tail):
                version = int(match.group(1))
                if version > seen:
                    seen = version
                    self.arrivals.arrived(version, now)
            tail = tail[-256:]  # a version number never spans more than this

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class Arrivals:
    """When each version reached each phone; wakes the player once every
    phone has it."""

    def __init__(self, phones: int) -> None:
        self.phones = phones
        self.times: dict[int, list[float]] = {}
        self.ready = threading.Condition()

    def arrived(self, version: int, at: float) -> None:
        with self.ready:
            self.times.setdefault(version, []).append(at)
            if len(self.times[version]) == self.phones:
                self.ready.notify_all()

    def wait_all(self, version: int, timeout: float = 5.0) -> float:
        with self.ready:
            if not self.ready.wait_for(
                    lambda: len(self.times.get(version, ())) == self.phones, timeout):
                raise TimeoutError(f"version {version} reached "
                                   f"{len(self.times.get(version, ()))} of {self.phones} phones")
            return max(self.times[version])


class Controller:
    """The phone that plays: a session cookie and the CSRF token."""

    def __init__(self, port: int, pin: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""
        self.csrf = ""
        self.csrf = self.call("GET", "/api/session")["csrf"]
        self.call("POST", "/api/join", {"pin": pin})

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        headers = {"Accept": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None
        if method != "GET":
            headers["Content-Type"] = "application/json"
            headers["X-CSRF-Token"] = self.csrf
            data = json.dumps(body or {})
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        payload = json.loads(response.read())
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: {response.status} {payload}")
        return payload


def process_status(pid: int) -> dict[str, str]:
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return fields


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=32)
    parser.add_argument("--changes", type=int, default=50)
    parser.add_argument("--sleepers", type=int, default=32)
    parser.add_argument("--more-changes", type=int, default=700)
    args = parser.parse_args()

    port = free_port()
    with tempfile.TemporaryDirectory() as directory:
        server = subprocess.Popen(
            [sys.executable, "-m", "web.server", "--db", os.path.join(directory, "bench.db"),
             "--port", str(port), "--threads",
             str(args.phones + args.sleepers + 4)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True)
        # Room for the sleepers' streams too (until they are dropped).
        try:
            ready = json.loads(server.stdout.readline())
            idle = process_status(server.pid)
            controller = Controller(port, ready["pin"])
            state = controller.call("POST", "/api/new-game", {
                "game": "call-of-nature", "players": ["Ana", "Ben", "Cy", "Dee"],
                "game_id": None, "version": 0})
            arrivals = Arrivals(args.phones)
            phones = [Phone(port, arrivals, f"127.0.1.{n + 1}") for n in range(args.phones)]
            arrivals.wait_all(state["version"])
            health = controller.call("GET", "/api/health")
            assert health["streams"] == args.phones, health

            def play(changes: int) -> list[float]:
                latencies = []
                shown = controller.call("GET", "/api/state")
                game_id, version = shown["game_id"], shown["version"]
                for _ in range(changes):
                    value = 1 if version % 2 == 0 else -1  # the Pressure stays at 0 or 1
                    sent = time.perf_counter()
                    state = controller.call("POST", "/api/command", {
                        "command": {"name": "card", "args": {"value": value}},
                        "game_id": game_id, "version": version})
                    version = state["version"]
                    latencies.append(arrivals.wait_all(version) - sent)
                return latencies

            latencies = play(args.changes)
            busy = process_status(server.pid)

            sleepers = [Sleeper(port, f"127.0.2.{n + 1}") for n in range(args.sleepers)]
            deadline = time.monotonic() + 10
            while controller.call("GET", "/api/health")["streams"] < args.phones + args.sleepers:
                if time.monotonic() > deadline:
                    raise TimeoutError("the sleepers' streams did not open")
                time.sleep(0.01)
            slept = play(args.more_changes)
            asleep = process_status(server.pid)
            left = controller.call("GET", "/api/health")["streams"]
            for phone in [*phones, *sleepers]:
                phone.close()
            beside = beside_half_sent(port)
        finally:
            server.terminate()
            server.wait(10)

    def latency(seconds: list[float]) -> str:
        ms = [1000 * s for s in seconds]
        return (f"p50 {percentile(ms, 0.50):6.2f} ms   p99 {percentile(ms, 0.99):6.2f} ms   "
                f"mean {statistics.mean(ms):6.2f} ms   max {max(ms):6.2f} ms")

    print(f"panel: {args.phones} live phones, {args.changes} changes (POST /api/command "
          f"until every phone has the new state)")
    print(f"  latency  {latency(latencies)}")
    print(f"  server   RSS {busy['VmRSS']} (peak {busy['VmHWM']}; idle {idle['VmRSS']}), "
          f"{busy['Threads']} threads")
    print(f"then {args.sleepers} more phones that never read their stream, "
          f"{args.more_changes} more changes")
    print(f"  latency  {latency(slept)}")
    print(f"  server   RSS {asleep['VmRSS']} (peak {asleep['VmHWM']}), "
          f"{left} streams left of {args.phones + args.sleepers}")
    print(f"one address holding 120 half-sent requests: another address answered in "
          f"{1000 * beside:.1f} ms")
    print("  targets  p99 <= 20 ms, RSS <= 60 MB, answered beside the hog within 1 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
