"""How long a key press takes to reach the display: from the press to the
last byte of the frame that answers it.

    .venv/bin/python benchmarks/bench_latency.py [--presses 400] [--json]

Runs the daemon as ``companion serve --simulate`` wires it (keys on
gpiozero's mock pins, the screen's queue and thread, the table menu, the
screens, and the display driver on luma's real ssd1306 class over a
recording bus), with a game of Call of Nature on a temporary journal.  Two
kinds of presses are measured:

- UP on the value entry of a Pressure card, which changes the value shown;
- OK confirming a +0 card: the table writes it to the SQLite journal before
  the next player's turn is drawn.

A press is timed from its edges on the mock pins, which carry their times
as lgpio's do: the key is down 7.5 ms, and the debouncer counts the press at
the release edge (a finger held down is counted by its settle timer 5 ms
after the press; that wait comes on top of these figures).

Prints each kind's median and 99th percentile (target on a development
machine: 99th percentile 5 ms at most for UP), then the bytes one UP
update puts on the bus against a full frame, the one luma's ssd1306 sends
on every ``display()``.  ``--json`` prints the figures as one JSON object.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.config import Config, Web
from companion.daemon import Daemon
from drivers.oled import I2C_WRITE_OVERHEAD, RecordingInterface

P99_TARGET_MS = 5.0
# How long a key stays down: longer than the keypad's 5 ms debounce.
DOWN_FOR = 0.0075
FRAME_TIMEOUT = 5.0


class TimedBus(RecordingInterface):
    """A recording bus that notes when each data write arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.last_data_at = 0.0

    def data(self, data: Any) -> None:
        super().data(data)
        self.last_data_at = time.perf_counter()


class Bench:
    """A simulated companion whose display reports each frame it sends."""

    def __init__(self, folder: Path) -> None:
        config = Config(data_dir=str(folder), web=Web(host="127.0.0.1", port=0, mdns=False))
        self.bus = TimedBus()
        self.daemon = Daemon(config, simulate=True, environ={}, out=io.StringIO())
        self.daemon.display.bus = self.bus
        self.daemon.start()
        gc.freeze()  # as companion serve does once started
        self.pins = {key: self.daemon.pin_factory.pin(getattr(config.buttons, key))
                     for key in ("up", "ok", "back")}
        self.ticks = 1000.0
        self.frames: queue.SimpleQueue = queue.SimpleQueue()
        display = self.daemon.display.display
        show = display.show

        def show_and_report(image: Any) -> bool:
            shown = show(image)
            self.frames.put((self.bus.last_data_at, display.last_sent))
            return shown

        display.show = show_and_report

    def settle(self) -> None:
        """Let the frames already asked for go out."""
        try:
            while True:
                self.frames.get(timeout=0.3)
        except queue.Empty:
            pass

    def press(self, key: str) -> tuple[float, Any]:
        """Press and release ``key``: seconds from the press to the last data
        byte of the frame it caused, and what that frame sent."""
        pin = self.pins[key]
        self.ticks += 1.0  # a second apart, on the edges' clock
        pressed = time.perf_counter()
        pin.drive_low(ticks=self.ticks)
        pin.drive_high(ticks=self.ticks + DOWN_FOR)
        sent_at, report = self.frames.get(timeout=FRAME_TIMEOUT)
        if report.writes == 0:
            raise RuntimeError(f"{key.upper()} changed nothing on the display")
        return sent_at - pressed, report

    def full_frame_bytes(self) -> tuple[int, int]:
        """Data and wire bytes of luma's own full frame (its clear() at start)."""
        writes = list(self.bus.writes)
        at = next(i for i, (kind, _) in enumerate(writes) if kind == "data")
        command, data = writes[at - 1][1], writes[at][1]
        return len(data), len(command) + len(data) + 2 * I2C_WRITE_OVERHEAD

    def close(self) -> None:
        self.daemon.stop()


def run(presses: int) -> tuple[list[float], list[Any], list[float], tuple[int, int]]:
    """UP latencies and their reports, OK latencies, and the full frame."""
    latencies: list[float] = []
    reports: list[Any] = []
    oks: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as folder:
        bench = Bench(Path(folder))
        try:
            table = bench.daemon.table_part.table
            table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
            _, high = table.current().state["card_values"]
            bench.settle()
            warm_up = 10
            while len(latencies) < presses + warm_up:
                bench.press("up")  # opens the card's entry at +1
                for _ in range(min(high - 1, presses + warm_up - len(latencies))):
                    latency, report = bench.press("up")
                    latencies.append(latency)
                    reports.append(report)
                bench.press("back")  # back to the game screen
            while len(oks) < presses + warm_up:
                bench.press("ok")  # opens the card's entry at +0
                latency, _ = bench.press("ok")  # plays it: the journal, the next turn
                oks.append(latency)
                bench.settle()
            full = bench.full_frame_bytes()
        finally:
            bench.close()
    return latencies[warm_up:], reports[warm_up:], oks[warm_up:], full


def percentiles(latencies: list[float]) -> dict[str, float]:
    ms = sorted(latency * 1000 for latency in latencies)
    return {"p50": statistics.median(ms), "p99": statistics.quantiles(ms, n=100)[98],
            "max": ms[-1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=400)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    latencies, reports, oks, (full_data, full_wire) = run(args.presses)
    up, ok = percentiles(latencies), percentiles(oks)
    if args.json:
        print(json.dumps({"up": up, "ok": ok, "presses": len(latencies)}))
        return 0
    data = [report.data_bytes for report in reports]
    wire = [report.wire_bytes for report in reports]
    print(f"press to the frame's last byte on the bus, {len(latencies)} presses of each, "
          f"Python {sys.version.split()[0]}")
    print(f"UP on the value entry: p50 {up['p50']:.2f} ms, p99 {up['p99']:.2f} ms, "
          f"max {up['max']:.2f} ms (target p99 <= {P99_TARGET_MS} ms)")
    print(f"OK playing a card (journal write, next turn): p50 {ok['p50']:.2f} ms, "
          f"p99 {ok['p99']:.2f} ms, max {ok['max']:.2f} ms")
    print(f"bytes per UP update: median {statistics.median(data):.0f} data "
          f"({statistics.median(wire):.0f} on the wire), max {max(data)} data "
          f"({max(wire)} on the wire)")
    print(f"full frame (luma's ssd1306 display()): {full_data} data "
          f"({full_wire} on the wire)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
