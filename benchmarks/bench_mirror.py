"""What the OLED mirror costs the live stream, with 32 phones watching.

Runs the simulated companion (its real screen and panel, waitress on
loopback) on a fresh journal.  32 phones, each from its own address
(127.0.1.x: Linux answers on all of 127/8), open the live stream
(/api/events) and read it on threads.  The table's menu is moved with its
keys (up, down), so that the screen shows a new frame without the table
changing: each frame goes out as a ``screen`` event alone.  For each frame:
the time from the screen drawing it to the last of the 32 phones having it.
Then the bytes of one screen event, the bytes a frame costs for 32 phones,
and the process's CPU time per frame (the server and the readers), against
the same frames with no phone watching (the cost when nobody looks).  For
comparison, the requests the former polling made: one PNG per phone every
2.5 s while the mirror was in sight.

    .venv/bin/python benchmarks/bench_mirror.py [--phones 32] [--frames 60]

Target: every phone has each frame within 300 ms of the screen.
"""

from __future__ import annotations

import argparse
import io
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POLL_SECONDS = 2.5


class Phone:
    """A phone reading its live stream: when each screen frame arrived."""

    def __init__(self, port: int, address: str) -> None:
        self.sock = socket.socket()
        self.sock.bind((address, 0))
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(b"GET /api/events HTTP/1.0\r\nHost: companion\r\n"
                          b"Accept: text/event-stream\r\n\r\n")
        self.arrived: dict[int, float] = {}
        self.event_bytes: list[int] = []
        self.ready = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            at = time.perf_counter()
            buffer += chunk
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                if message.startswith(b"event: screen"):
                    data = message.split(b"data: ", 1)[1]
                    frame = json.loads(data)["frame"]
                    self.arrived.setdefault(frame, at)
                    self.event_bytes.append(len(message) + 2)
                    self.ready.set()

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def frames(screen, count: int, drawn: dict[int, float]) -> float:
    """Move the menu ``count`` times, one frame each, waiting for each to be
    drawn; the process's CPU seconds it took."""
    cpu = time.process_time()
    for i in range(count):
        before = screen.frame_number
        screen.key("down" if i % 2 == 0 else "up")
        deadline = time.monotonic() + 5
        while screen.frame_number == before and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(0.05)  # the frame's way out to the phones
    return time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=32)
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()

    from companion.daemon import Daemon
    from companion.host.config import Config

    with tempfile.TemporaryDirectory() as directory:
        config = Config(data_dir=str(Path(directory) / "data")).with_web(
            host="127.0.0.1", port=0)
        companion = Daemon(config, simulate=True, environ={}, out=io.StringIO())
        companion.start()
        try:
            return run(companion, args.phones, args.frames)
        finally:
            companion.stop()


def run(companion, phones_count: int, frame_count: int) -> int:
    from companion.parts.bus import FrameShown

    screen = companion.part("screen")
    drawn: dict[int, float] = {}
    companion.setup.bus.subscribe(
        FrameShown, lambda shown: drawn.setdefault(shown.number, time.perf_counter()))
    # Settle: the screen's first frames (the greeting, the join screen).
    time.sleep(1.0)

    alone = frames(screen, frame_count, drawn) / frame_count

    phones = [Phone(companion.part("panel").port, f"127.0.1.{i + 1}") for i in range(phones_count)]
    for phone in phones:
        if not phone.ready.wait(10):
            print("a phone got no first frame", file=sys.stderr)
            return 1
    first = screen.frame_number + 1
    watched = frames(screen, frame_count, drawn) / frame_count
    time.sleep(0.3)
    for phone in phones:
        phone.close()

    last = max(drawn)
    slowest = []
    missing = 0
    for number in range(first, last + 1):
        if number not in drawn:
            continue
        arrivals = [p.arrived.get(number) for p in phones]
        if any(a is None for a in arrivals):
            missing += sum(a is None for a in arrivals)
            continue
        slowest.append((max(arrivals) - drawn[number]) * 1000)  # type: ignore[type-var]
    sizes = [size for phone in phones for size in phone.event_bytes]
    size = statistics.median(sizes)
    slowest.sort()

    def pct(p: float) -> float:
        return slowest[min(len(slowest) - 1, int(p / 100 * len(slowest)))]

    print(f"phones: {phones_count}, frames: {len(slowest)} "
          f"(the menu moved with its keys, no table change)")
    print(f"screen frame to the last phone: median {statistics.median(slowest):.1f} ms, "
          f"p95 {pct(95):.1f} ms, max {slowest[-1]:.1f} ms (target 300 ms)")
    if missing:
        print(f"frames a phone never got (a newer one came in its stead): {missing}")
    print(f"one screen event: {size:.0f} bytes; a frame for {phones_count} phones: "
          f"{size * phones_count / 1024:.1f} KiB")
    print(f"CPU per frame (server and readers): {watched * 1000:.2f} ms watched by "
          f"{phones_count} phones, {alone * 1000:.2f} ms with no phone watching")
    print(f"the polling it replaces: {phones_count / POLL_SECONDS:.1f} PNG requests a second "
          f"while in sight, and a frame up to {POLL_SECONDS:.1f} s late")
    return 0 if slowest and slowest[-1] <= 300 else 1


if __name__ == "__main__":
    sys.exit(main())
