"""What the OLED driver puts on the I2C bus, and how long a frame takes.

    .venv/bin/python benchmarks/bench_oled.py [--frames N]

Prints, for the SSD1306 and the SH1106 (luma's real device classes over a
recording serial interface):
- the bytes of a full frame and of a typical update (Pressure +3 on the Call
  of Nature screen, which also passes the turn), and what that is on a
  100 kHz and a 400 kHz bus (9 clock cycles per byte with its ACK);
- the bytes per update over a game of cards played one after another;
- the time to render + diff + send one update (p50 / p99), against luma's
  own display() of the same frame.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core.engine import Command, Setup
from companion.core.games.call_of_nature.game import CallOfNature
from drivers.oled import Display, RecordingInterface
from drivers.screens import call_of_nature_screen

PLAYERS = ("Ana", "Ben", "Cy")


def bus_ms(wire_bytes: int, hz: int) -> float:
    return wire_bytes * 9 / hz * 1000


def screen(game: CallOfNature):
    return call_of_nature_screen(game.view(), game.players, game.expected())


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def game_moves(seed: int):
    """An endless, repeatable game: cards from -10 to +12, a roll when one is
    awaited, a new game when one ends."""
    rng = random.Random(seed)
    game = CallOfNature(Setup(PLAYERS))
    while True:
        if game.over:
            game = CallOfNature(Setup(PLAYERS))
        wait = game.expected()[0]
        if wait.command == "roll":
            values = [rng.randint(1, 6) for _ in range(wait.dice.count)]
            command = Command("roll", {"values": values})
        elif wait.command == "held-thresholds":
            command = Command("held-thresholds", {"count": 0})
        else:
            command = Command("card", {"value": rng.randint(-10, 12)})
        game.apply(command)
        yield game


def typical_update(controller: str) -> None:
    serial = RecordingInterface()
    display = Display(controller, serial_interface=serial)
    game = CallOfNature(Setup(PLAYERS))
    for value in (5, 7):
        game.apply(Command("card", {"value": value}))
    display.show(screen(game))
    full = display.last_sent
    game.apply(Command("card", {"value": 3}))
    display.show(screen(game))
    update = display.last_sent
    print(f"{controller.upper()}")
    print(f"  full frame        : {full.data_bytes:5d} data + {full.command_bytes:3d} command bytes"
          f" = {full.wire_bytes:5d} on the wire ({full.writes} writes)"
          f"  {bus_ms(full.wire_bytes, 100_000):5.1f} ms @100 kHz,"
          f" {bus_ms(full.wire_bytes, 400_000):4.1f} ms @400 kHz")
    print(f"  pressure 12 -> 15 : {update.data_bytes:5d} data + {update.command_bytes:3d} command"
          f" bytes = {update.wire_bytes:5d} on the wire ({update.writes} writes)"
          f"  {bus_ms(update.wire_bytes, 100_000):5.1f} ms @100 kHz,"
          f" {bus_ms(update.wire_bytes, 400_000):4.1f} ms @400 kHz")
    print(f"  typical update / full frame: {update.wire_bytes / full.wire_bytes:.1%} of the wire"
          f" bytes, {update.data_bytes / full.data_bytes:.1%} of the data bytes")


def game_of_updates(controller: str, frames: int) -> None:
    serial = RecordingInterface(keep=64)
    display = Display(controller, serial_interface=serial)
    moves = game_moves(seed=7)
    display.show(screen(next(moves)))
    wire, render_times, send_times = [], [], []
    for _ in range(frames):
        game = next(moves)
        started = time.perf_counter()
        image = screen(game)
        rendered = time.perf_counter()
        display.show(image)
        sent = time.perf_counter()
        render_times.append((rendered - started) * 1000)
        send_times.append((sent - rendered) * 1000)
        wire.append(display.last_sent.wire_bytes)
    totals = [r + s for r, s in zip(render_times, send_times, strict=True)]
    print(f"  {frames} moves of a game: wire bytes per update p50 {percentile(wire, 50):.0f},"
          f" mean {statistics.mean(wire):.0f}, max {max(wire)}"
          f" (mean {statistics.mean(wire) / 1034:.1%} of a full frame)")
    print(f"  render + diff + send: p50 {percentile(totals, 50):.2f} ms,"
          f" p99 {percentile(totals, 99):.2f} ms"
          f"  (render p50 {percentile(render_times, 50):.2f} ms,"
          f" diff + send p50 {percentile(send_times, 50):.2f} ms, p99"
          f" {percentile(send_times, 99):.2f} ms)")


def luma_own_display(controller: str, frames: int) -> None:
    from luma.oled.device import sh1106, ssd1306

    device = {"ssd1306": ssd1306, "sh1106": sh1106}[controller](RecordingInterface(keep=8))
    moves = game_moves(seed=7)
    times = []
    for _ in range(frames):
        image = screen(next(moves))
        started = time.perf_counter()
        device.display(image)
        times.append((time.perf_counter() - started) * 1000)
    print(f"  luma's display() of the same frames (full frame every time): p50"
          f" {percentile(times, 50):.2f} ms, p99 {percentile(times, 99):.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="updates to time")
    args = parser.parse_args()
    import warnings

    # luma 3.16 calls Image.getdata(), which Pillow 12 marks deprecated.
    warnings.simplefilter("ignore", DeprecationWarning)
    for controller in ("ssd1306", "sh1106"):
        typical_update(controller)
        game_of_updates(controller, args.frames)
        luma_own_display(controller, min(args.frames, 100))
        print()


if __name__ == "__main__":
    main()
