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
machine: 99th percentile 5 ms at most for UP), the process's CPU time per
press (every thread's, from the press to the frame: what a slower CPU
would stretch), and for OK the journal's write apart (SQLite's commit and
its fsync, which wait on the disk rather than the CPU) and the press
without it; then the bytes one UP
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

from companion.daemon import Daemon
from companion.host.config import Config, Web
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
        self.daemon = Daemon(config, simulate=True, environ={}, out=io.StringIO(), i2c=self.bus)
        self.daemon.start()
        gc.freeze()  # as companion serve does once started
        self.pins = {key: self.daemon.setup.pin_factory().pin(getattr(config.buttons, key))
                     for key in ("up", "ok", "back")}
        self.ticks = 1000.0
        self.frames: queue.SimpleQueue = queue.SimpleQueue()
        self.journal_writes: list[float] = []
        self.written_at = 0.0
        journal = self.daemon.table_part.table._journal
        append = journal.append

        def timed_append(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return append(*args, **kwargs)
            finally:
                self.written_at = time.perf_counter()
                self.journal_writes.append(self.written_at - started)

        journal.append = timed_append
        display = self.daemon.part("display").display
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
        latency, _, report = self.timed_press(key)
        return latency, report

    def timed_press(self, key: str, writes: bool = False) -> tuple[float, float, Any]:
        """As :meth:`press`, with the process's CPU seconds (all threads)
        from the press until the frame was sent.  With ``writes``, the frame
        is the first one sent after the press wrote the journal (on a slow
        CPU a frame asked for before may still be on its way)."""
        pin = self.pins[key]
        self.ticks += 1.0  # a second apart, on the edges' clock
        cpu = time.process_time()
        pressed = time.perf_counter()
        pin.drive_low(ticks=self.ticks)
        pin.drive_high(ticks=self.ticks + DOWN_FOR)
        sent_at, report = self.frames.get(timeout=FRAME_TIMEOUT)
        while writes and (self.written_at < pressed or sent_at < self.written_at):
            sent_at, report = self.frames.get(timeout=FRAME_TIMEOUT)
        used = time.process_time() - cpu
        if report.writes == 0:
            raise RuntimeError(f"{key.upper()} changed nothing on the display")
        return sent_at - pressed, used, report

    def full_frame_bytes(self) -> tuple[int, int]:
        """Data and wire bytes of luma's own full frame (its clear() at start)."""
        writes = list(self.bus.writes)
        at = next(i for i, (kind, _) in enumerate(writes) if kind == "data")
        command, data = writes[at - 1][1], writes[at][1]
        return len(data), len(command) + len(data) + 2 * I2C_WRITE_OVERHEAD

    def close(self) -> None:
        self.daemon.stop()


class Run:
    """What one run measured, in seconds: each UP and OK press to its frame,
    the CPU each used, the journal's write of each OK; UP's frame reports
    and the full frame's bytes."""

    def __init__(self) -> None:
        self.up: list[float] = []
        self.up_cpu: list[float] = []
        self.reports: list[Any] = []
        self.ok: list[float] = []
        self.ok_cpu: list[float] = []
        self.ok_journal: list[float] = []
        self.full: tuple[int, int] = (0, 0)


def run(presses: int) -> Run:
    """Presses UP and OK ``presses`` times each (after a warm-up)."""
    out = Run()
    latencies, reports, oks = out.up, out.reports, out.ok
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
                    latency, cpu, report = bench.timed_press("up")
                    latencies.append(latency)
                    out.up_cpu.append(cpu)
                    reports.append(report)
                bench.press("back")  # back to the game screen
            while len(oks) < presses + warm_up:
                bench.press("ok")  # opens the card's entry at +0
                written = len(bench.journal_writes)
                # Plays it: the journal, the next turn.
                latency, cpu, _ = bench.timed_press("ok", writes=True)
                if len(bench.journal_writes) != written + 1:
                    raise RuntimeError("OK did not write the journal once")
                oks.append(latency)
                out.ok_cpu.append(cpu)
                out.ok_journal.append(bench.journal_writes[-1])
                bench.settle()
            out.full = bench.full_frame_bytes()
        finally:
            bench.close()
    for name in ("up", "up_cpu", "reports", "ok", "ok_cpu", "ok_journal"):
        setattr(out, name, getattr(out, name)[warm_up:])
    return out


def percentiles(latencies: list[float]) -> dict[str, float]:
    ms = sorted(latency * 1000 for latency in latencies)
    return {"p50": statistics.median(ms), "p99": statistics.quantiles(ms, n=100)[98],
            "max": ms[-1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=400)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    measured = run(args.presses)
    latencies, reports, oks = measured.up, measured.reports, measured.ok
    full_data, full_wire = measured.full
    up, ok = percentiles(latencies), percentiles(oks)
    ok_journal = percentiles(measured.ok_journal)
    ok_rest = percentiles([press - write
                           for press, write in zip(oks, measured.ok_journal, strict=True)])
    up_cpu, ok_cpu = percentiles(measured.up_cpu), percentiles(measured.ok_cpu)
    if args.json:
        print(json.dumps({"up": up, "ok": ok, "up_cpu": up_cpu, "ok_cpu": ok_cpu,
                          "ok_journal": ok_journal, "ok_without_journal": ok_rest,
                          "presses": len(latencies)}))
        return 0
    data = [report.data_bytes for report in reports]
    wire = [report.wire_bytes for report in reports]
    print(f"press to the frame's last byte on the bus, {len(latencies)} presses of each, "
          f"Python {sys.version.split()[0]}")
    print(f"UP on the value entry: p50 {up['p50']:.2f} ms, p99 {up['p99']:.2f} ms, "
          f"max {up['max']:.2f} ms (target p99 <= {P99_TARGET_MS} ms)")
    print(f"OK playing a card (journal write, next turn): p50 {ok['p50']:.2f} ms, "
          f"p99 {ok['p99']:.2f} ms, max {ok['max']:.2f} ms")
    print(f"  of which the journal's write (commit, fsync): p50 {ok_journal['p50']:.2f} ms, "
          f"p99 {ok_journal['p99']:.2f} ms; the press without it: p50 {ok_rest['p50']:.2f} ms, "
          f"p99 {ok_rest['p99']:.2f} ms")
    print(f"CPU per press (all threads): UP p50 {up_cpu['p50']:.2f} ms, p99 "
          f"{up_cpu['p99']:.2f} ms; OK p50 {ok_cpu['p50']:.2f} ms, p99 {ok_cpu['p99']:.2f} ms")
    print(f"bytes per UP update: median {statistics.median(data):.0f} data "
          f"({statistics.median(wire):.0f} on the wire), max {max(data)} data "
          f"({max(wire)} on the wire)")
    print(f"full frame (luma's ssd1306 display()): {full_data} data "
          f"({full_wire} on the wire)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
