"""What the table screen keeps over an evening: the memory of its measures.

    .venv/bin/python benchmarks/bench_screens_memory.py [--alerts 2000]

Every alert is a sentence the screen has not shown before (a name, a
number), and wrapping it measures a few hundred prefixes; the screen keeps
its measures in bounded caches (``drivers/screens/canvas.py``).  This draws
``--alerts`` alerts, each followed by a value and a menu screen, as a game
brings them (after the alerts' glyphs were measured ahead, as the screen's
thread does while idle), and prints, every few hundred alerts, how much the
process's memory (VmRSS) and what Python holds (tracemalloc, in a second
pass) grew, with each cache's size and the CPU an alert took.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drivers.screens import alert_screen, canvas, common, menu_screen, value_screen

NAMES = ("Ana", "Benoît", "Cyrille", "Dominique", "Éloïse", "Francesca", "Giulia", "Hugo")
CACHES = (canvas.pen_length, canvas.layout, canvas.text_length, canvas._wrapped, canvas.inked,
          canvas.ink, canvas.glyph_edges)


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def evening(alerts: int, report: set[int], measure) -> None:
    chance = random.Random(1)
    for _ in common.warm_alert_glyphs():
        pass
    gc.collect()
    start, cpu = measure(), time.process_time()
    for i in range(1, alerts + 1):
        name = chance.choice(NAMES)
        alert_screen(chance.choice((
            f"La pression a atteint {chance.randint(10, 99)} : {name} passe son tour",
            (f"Threshold {chance.randint(10, 99)} fired: {name} loses {chance.randint(1, 3)} "
             f"Mastery ({chance.randint(2, 9)} → {chance.randint(1, 8)})"),
            f"{name} pesca {chance.randint(1, 5)} carte e il mazzo ne ha {chance.randint(5, 60)}",
        )), "Seuil")
        value_screen("Pression", chance.randint(0, 99))
        menu_screen("Menu", ["Nouvelle partie", "Annuler", name], i % 3)
        if i in report:
            gc.collect()
            sizes = ", ".join(f"{c.__name__} {c.cache_info().currsize}" for c in CACHES)
            print(f"  {i:5d} alerts: +{(measure() - start) / 1024:.1f} MB; "
                  f"{(time.process_time() - cpu) * 1000 / i:.2f} ms of CPU an alert; {sizes}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alerts", type=int, default=2000)
    args = parser.parse_args()
    report = {n for n in (100, 500, 1000, 2000, 5000) if n < args.alerts} | {args.alerts}
    print(f"the process's memory (VmRSS) over {args.alerts} alerts:")
    evening(args.alerts, report, rss_kb)
    for cache in CACHES:
        cache.cache_clear()
    print("what Python holds (tracemalloc), the same alerts again from empty caches:")
    tracemalloc.start()
    evening(args.alerts, report, lambda: tracemalloc.get_traced_memory()[0] // 1024)
    tracemalloc.stop()


if __name__ == "__main__":
    main()
