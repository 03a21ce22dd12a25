"""How fast a change reaches every phone, and what the panel's server costs.

Runs the panel as its own process (``python -m web.server``, waitress on
loopback) on a fresh journal, opens 32 live streams (/api/events) from
threads with raw sockets, joins as a controller with the PIN, then plays 50
cards of Call of Nature through POST /api/command.  For each change it
measures the time from just before the POST is sent until the last of the 32
streams has received that version.  Then it reads the server process's
memory (VmRSS and its peak VmHWM) and thread count from /proc.

    .venv/bin/python benchmarks/bench_web.py [--phones 32] [--changes 50]

Targets on a development machine: p99 <= 20 ms, RSS <= 60 MB.
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Phone:
    """One phone's live stream, read by a thread: notes when each version
    first arrives."""

    def __init__(self, port: int, arrivals: Arrivals) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
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
        self.csrf = self.call("GET", "/api/session")["csrf"]
        self.call("POST", "/api/join", {"pin": pin})

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        headers = {"Accept": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None
        if method != "GET":
            headers["Content-Type"] = "application/json"
            headers["X-CSRF-Token"] = getattr(self, "csrf", "")
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
    args = parser.parse_args()

    port = free_port()
    with tempfile.TemporaryDirectory() as directory:
        server = subprocess.Popen(
            [sys.executable, "-m", "web.server", "--db", os.path.join(directory, "bench.db"),
             "--port", str(port), "--threads", str(args.phones + 4)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            ready = json.loads(server.stdout.readline())
            idle = process_status(server.pid)
            controller = Controller(port, ready["pin"])
            state = controller.call("POST", "/api/new-game", {
                "game": "call-of-nature", "players": ["Ana", "Ben", "Cy", "Dee"],
                "version": None})
            arrivals = Arrivals(args.phones)
            phones = [Phone(port, arrivals) for _ in range(args.phones)]
            arrivals.wait_all(state["version"])
            health = controller.call("GET", "/api/health")
            assert health["streams"] == args.phones, health

            latencies = []
            version = state["version"]
            for change in range(args.changes):
                value = 1 if change % 2 == 0 else -1  # the Pressure stays at 0 or 1
                sent = time.perf_counter()
                state = controller.call("POST", "/api/command", {
                    "command": {"name": "card", "args": {"value": value}},
                    "version": version})
                version = state["version"]
                latencies.append(arrivals.wait_all(version) - sent)

            busy = process_status(server.pid)
            for phone in phones:
                phone.close()
        finally:
            server.terminate()
            server.wait(10)

    ms = [1000 * s for s in latencies]
    print(f"panel: {args.phones} live phones, {args.changes} changes (POST /api/command "
          f"until every phone has the new state)")
    print(f"  latency  p50 {percentile(ms, 0.50):6.2f} ms   p99 {percentile(ms, 0.99):6.2f} ms   "
          f"mean {statistics.mean(ms):6.2f} ms   max {max(ms):6.2f} ms")
    print(f"  server   RSS {busy['VmRSS']} (peak {busy['VmHWM']}; idle {idle['VmRSS']}), "
          f"{busy['Threads']} threads")
    print("  targets  p99 <= 20 ms, RSS <= 60 MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
