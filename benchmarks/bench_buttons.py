"""What a key press costs: the debouncer alone, and an edge on a mock pin
through gpiozero's event machinery to ``on_key``; plus the threads a keypad
keeps.

    .venv/bin/python benchmarks/bench_buttons.py
"""

from __future__ import annotations

import statistics
import threading
import time

from gpiozero.pins.mock import MockFactory

from drivers.buttons import DEFAULT_PINS, Debouncer, Keypad

ROUNDS = 20_000


def per_call_us(action, rounds: int = ROUNDS) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        action()
    return (time.perf_counter() - start) / rounds * 1e6


def bench_debouncer() -> None:
    debouncer = Debouncer()
    ticks = [0.0]

    def edges() -> None:
        ticks[0] += 0.1
        debouncer.fall(ticks[0])
        debouncer.rise(ticks[0] + 0.05)

    print(f"Debouncer fall and rise: {per_call_us(edges):.2f} us per press")


def bench_press_to_on_key() -> None:
    factory = MockFactory()
    received = []
    # debounce=0: every press counts, so each round is a full press.
    keypad = Keypad(lambda key, kind: received.append(time.perf_counter()),
                    debounce=0.0, pin_factory=factory)
    pin = factory.pin(DEFAULT_PINS["up"])
    delays = []
    for _ in range(ROUNDS // 10):
        start = time.perf_counter()
        pin.drive_low()
        delays.append(received[-1] - start)
        pin.drive_high()
    keypad.close()
    delays_us = sorted(d * 1e6 for d in delays)
    print(f"edge on a mock pin to on_key: median {statistics.median(delays_us):.1f} us, "
          f"99th percentile {delays_us[int(len(delays_us) * 0.99)]:.1f} us")


def bench_threads() -> None:
    before = threading.active_count()
    keypad = Keypad(lambda key, kind: None, pin_factory=MockFactory())
    print(f"threads a five-button keypad keeps: {threading.active_count() - before} "
          f"(one hold timer, asleep until a held key is due)")
    keypad.close()


if __name__ == "__main__":
    bench_debouncer()
    bench_press_to_on_key()
    bench_threads()
