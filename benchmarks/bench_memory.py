"""How much memory a long game costs: the panel's server after 10,000 commands.

Runs the panel as its own process (``python -m web.server``, waitress on
loopback) on a fresh journal, keeps one phone's live stream open and read
(the panel open on a phone), joins as a controller with the PIN, and plays
10,000 cards of Call of Nature through POST /api/command, each naming the
game and version it was made against.  Every 1,000 commands it reads the
server's resident memory (VmRSS) from /proc; at the end it also loads the
game's history (GET /api/history, the panel's History page) and prints the
memory again with its peak (VmHWM).

    .venv/bin/python benchmarks/bench_memory.py [--commands 10000]

``--trace`` instead plays the commands on a table in this process under
tracemalloc and prints what the table holds after them, by the line that
allocated it: the measure to look at before making a game's memory smaller.

Target on a development machine: RSS <= 60 MB after 10,000 commands.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_web import Controller, free_port  # noqa: E402  (the panel benchmark's phone)

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]


def card(step: int) -> dict:
    # The Pressure stays at 0 or 1: a game that never ends.
    return {"name": "card", "args": {"value": 1 if step % 2 == 0 else -1}}


class Watcher:
    """A phone with the panel open: its live stream, read to the end."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Accept: text/event-stream\r\n\r\n")
        self.received = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                return
            if not data:
                return
            self.received += len(data)

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def memory(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of a process, in MB."""
    found = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return found


def serve(commands: int) -> int:
    port = free_port()
    with tempfile.TemporaryDirectory() as directory:
        server = subprocess.Popen(
            [sys.executable, "-m", "web.server", "--db", os.path.join(directory, "bench.db"),
             "--port", str(port), "--threads", "8"],
            cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            ready = json.loads(server.stdout.readline())
            controller = Controller(port, ready["pin"])
            state = controller.call("POST", "/api/new-game", {
                "game": "call-of-nature", "players": PLAYERS, "game_id": None, "version": 0})
            watcher = Watcher(port)
            start = memory(server.pid)["VmRSS"]
            print(f"panel: one phone watching, {commands} commands (POST /api/command)")
            print(f"  after      0 commands: RSS {start:5.1f} MB")
            for step in range(commands):
                state = controller.call("POST", "/api/command", {
                    "command": card(step), "game_id": state["game_id"],
                    "version": state["version"]})
                if (step + 1) % 1000 == 0:
                    print(f"  after {step + 1:6d} commands: RSS "
                          f"{memory(server.pid)['VmRSS']:5.1f} MB", flush=True)
            history = controller.call("GET", "/api/history")
            assert len(history["entries"]) == commands, len(history["entries"])
            undone = controller.call("POST", "/api/undo", {
                "game_id": state["game_id"], "version": state["version"]})
            assert undone["version"] == commands + 1
            used = memory(server.pid)
            watcher.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"  with the history loaded and an undo: RSS {used['VmRSS']:5.1f} MB "
          f"(peak {used['VmHWM']:5.1f} MB)")
    print("  target   RSS <= 60 MB after 10,000 commands")
    return 0


def trace(commands: int) -> int:
    from companion.core.engine import Command
    from companion.core.journal import Journal
    from companion.core.table import Table

    table = Table(Journal.open(":memory:"))
    table.new_game("call-of-nature", PLAYERS)
    tracemalloc.start(1)
    before = tracemalloc.take_snapshot()
    for step in range(commands):
        table.submit(Command(**card(step)))
    after = tracemalloc.take_snapshot()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    print(f"table: {commands} commands of Call of Nature in this process")
    print(f"  held after them: {grown / 1e6:.1f} MB ({grown / commands:.0f} B per command), "
          f"{table.snapshots_kept()} snapshots kept")
    for stat in after.compare_to(before, "lineno")[:10]:
        frame = stat.traceback[0]
        where = os.path.relpath(frame.filename, ROOT)
        print(f"  {stat.size_diff / 1e6:6.2f} MB  {stat.count_diff:7d} blocks  "
              f"{where}:{frame.lineno}")
    table.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=10_000)
    parser.add_argument("--trace", action="store_true",
                        help="what the table holds, by line (tracemalloc, in this process)")
    args = parser.parse_args()
    return trace(args.commands) if args.trace else serve(args.commands)


if __name__ == "__main__":
    sys.exit(main())
