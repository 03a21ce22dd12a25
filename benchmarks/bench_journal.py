"""How fast the table makes a command durable, and how fast it replays.

    .venv/bin/python benchmarks/bench_journal.py [--commands 10000] [--dir PATH]

Prints the median and p99 time for one durable command through the table
(engine + SQLite commit with synchronous=FULL), and the time to open a
journal of N commands and replay it.  Targets on a development machine: at
most 2 ms for the append, at most 0.5 s to replay 10,000 commands.

Run it on the disk the companion will use (--dir): the commit waits for
fsync, so the figure is the disk's as much as the code's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table


def cards():
    """An endless legal Call of Nature game: pressure wanders 0..29."""
    pressure = 0
    while True:
        value = 7 if pressure < 22 else -22
        pressure += value
        yield Command("card", {"value": value})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=10_000)
    parser.add_argument("--timed", type=int, default=500, help="appends to time one by one")
    parser.add_argument("--dir", default=None, help="where to put the journal")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = Path(tmp) / "bench.db"
        table = Table(Journal.open(db))
        table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Di"])
        source = cards()
        times = []
        for _ in range(args.commands):
            command = next(source)
            start = time.perf_counter()
            table.submit(command)
            times.append(time.perf_counter() - start)
        table.close()
        times.sort()
        median = statistics.median(times) * 1000
        p99 = times[int(len(times) * 0.99)] * 1000
        print(f"durable append, one command through the table: median {median:.3f} ms, "
              f"p99 {p99:.3f} ms over {len(times)} commands (target: median <= 2 ms)")

        start = time.perf_counter()
        table = Table(Journal.open(db))
        elapsed = time.perf_counter() - start
        assert table.version == args.commands
        table.close()
        print(f"replay of a {args.commands}-command journal: {elapsed:.3f} s "
              f"(target: <= 0.5 s for 10,000)")


if __name__ == "__main__":
    main()
