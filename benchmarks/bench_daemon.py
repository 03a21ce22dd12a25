"""How fast the companion starts and how much memory it holds.

    .venv/bin/python benchmarks/bench_daemon.py [--runs 5] [--mdns] [--imports]

Starts ``companion serve --simulate`` on a temporary data directory and
prints:

- the time from starting the process until the panel answers /api/health
  (target on a development machine: 1.5 s at most), and the CPU time the
  process had used by then (every thread; in ticks of the kernel's clock);
- the daemon's resident memory (VmRSS, and its peak VmHWM) with the panel
  open: a game started from a phone and a live stream (SSE) connected
  (target: 60 MB at most).

``--mdns`` advertises the panel over mDNS as the appliance does (it
multicasts on this machine's networks).  ``--imports`` lists the slowest
imports of a start, from ``python -X importtime``.
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
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START_TARGET = 1.5
MEMORY_TARGET_MB = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_config(folder: Path, port: int, mdns: bool) -> Path:
    path = folder / "config.toml"
    # Advertising needs the panel on the network, as on a Pi.
    host = "0.0.0.0" if mdns else "127.0.0.1"
    path.write_text(f'data_dir = "{folder / "data"}"\n[web]\nhost = "{host}"\n'
                    f"port = {port}\nmdns = {'true' if mdns else 'false'}\n")
    return path


def service_environment() -> dict[str, str]:
    """This environment with the service unit's ``Environment=`` lines, so
    that the companion measured runs as systemd runs it."""
    unit = (ROOT / "systemd" / "companion.service").read_text(encoding="utf-8")
    found = dict(line.removeprefix("Environment=").split("=", 1)
                 for line in unit.splitlines() if line.startswith("Environment="))
    return {**os.environ, **found}


def start(config: Path, importtime_log: Path | None = None) -> subprocess.Popen:
    """The daemon, as the service unit runs it, its output on a pipe (and,
    with ``importtime_log``, the interpreter's import timings in that file)."""
    command = [sys.executable, "-m", "companion", "serve", "--simulate", "--config", str(config)]
    if importtime_log is None:
        return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=service_environment())
    with open(importtime_log, "w") as log:
        return subprocess.Popen([command[0], "-X", "importtime", *command[1:]], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=log, text=True,
                                env=service_environment())


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process has used (every thread)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_health(port: int, timeout: float = 30.0) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        try:
            connection.request("GET", "/api/health")
            if connection.getresponse().status == 200:
                return time.perf_counter() - started
        except OSError:
            time.sleep(0.005)
        finally:
            connection.close()
    raise RuntimeError(f"the panel did not answer on port {port} within {timeout} s")


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in kB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found


def open_panel(port: int) -> threading.Event:
    """A phone with the panel open: the live stream stays connected until
    the returned event is set."""
    connected = threading.Event()
    done = threading.Event()

    def listen() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        response.fp.readline()
        connected.set()
        done.wait()
        connection.close()

    threading.Thread(target=listen, daemon=True).start()
    connected.wait(10)
    return done


def play_a_game(port: int, pin: str, timeout: float = 10) -> None:
    """Join with the PIN and start a game, as the first phone at the table
    does (each request given ``timeout`` seconds)."""
    jar = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    base = f"http://127.0.0.1:{port}"
    with jar.open(base + "/api/session", timeout=timeout) as answer:
        csrf = json.load(answer)["csrf"]

    def post(path: str, body: dict) -> None:
        request = urllib.request.Request(base + path, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "X-CSRF-Token": csrf})
        jar.open(request, timeout=timeout).close()

    post("/api/join", {"pin": pin})
    post("/api/new-game", {"game": "call-of-nature", "players": ["Ana", "Ben", "Cy"],
                           "game_id": None, "version": 0})


def read_pin(process: subprocess.Popen) -> threading.Event:
    """Collect the daemon's output; the returned event is set once the PIN
    it prints in simulation has been seen (kept on the event as .pin)."""
    seen = threading.Event()

    def read() -> None:
        for line in process.stdout:
            if match := re.search(r"\(PIN (\d+)\)", line):
                seen.pin = match[1]  # type: ignore[attr-defined]
                seen.set()

    threading.Thread(target=read, daemon=True).start()
    return seen


def one_run(folder: Path, mdns: bool) -> tuple[float, float, dict[str, int]]:
    port = free_port()
    config = write_config(folder, port, mdns)
    process = start(config)
    pin = read_pin(process)
    try:
        answered = wait_for_health(port)
        cpu = cpu_seconds(process.pid)
        pin.wait(10)
        play_a_game(port, pin.pin)
        stream_done = open_panel(port)
        time.sleep(1.0)  # let the screen thread draw and the stream settle
        used = memory(process.pid)
        stream_done.set()
        return answered, cpu, used
    finally:
        process.terminate()
        process.wait(30)


def slowest_imports(folder: Path, count: int = 15) -> list[tuple[int, str]]:
    port = free_port()
    timings = folder / "importtime.log"
    process = start(write_config(folder, port, False), timings)
    read_pin(process)
    try:
        wait_for_health(port)
    finally:
        process.terminate()
        process.wait(30)
    rows = []
    for line in timings.read_text().splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name.rstrip()))
    return sorted(rows, reverse=True)[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mdns", action="store_true", help="advertise over mDNS as on a Pi")
    parser.add_argument("--imports", action="store_true", help="list the slowest imports")
    args = parser.parse_args()

    times, cpus, rss, peak = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-daemon-") as tmp:
        for n in range(args.runs):
            folder = Path(tmp) / f"run{n}"
            folder.mkdir()
            answered, cpu, used = one_run(folder, args.mdns)
            times.append(answered)
            cpus.append(cpu)
            rss.append(used["VmRSS"] / 1024)
            peak.append(used["VmHWM"] / 1024)
        print(f"companion serve --simulate{' (mDNS on)' if args.mdns else ''}, "
              f"{args.runs} runs, Python {sys.version.split()[0]}")
        print(f"start until /api/health answers: median {statistics.median(times):.3f} s, "
              f"min {min(times):.3f} s, max {max(times):.3f} s (target <= {START_TARGET} s)")
        print(f"  its CPU time by then (user+sys, every thread): median "
              f"{statistics.median(cpus):.2f} s, max {max(cpus):.2f} s")
        print(f"resident memory with the panel open: median {statistics.median(rss):.1f} MB, "
              f"peak {max(peak):.1f} MB (target <= {MEMORY_TARGET_MB} MB)")
        if args.imports:
            folder = Path(tmp) / "imports"
            folder.mkdir()
            print("slowest imports (cumulative, ms):")
            for micros, name in slowest_imports(folder):
                print(f"  {micros / 1000:8.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
