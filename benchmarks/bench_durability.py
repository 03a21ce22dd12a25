"""What durability costs, per kind of change the companion keeps.

    .venv/bin/python benchmarks/bench_durability.py [--changes 200] [--dir PATH]

Each kind of change is made ``--changes`` times as the companion makes it
(durable before it is answered), then as many times with its syncs taken
away (SQLite at ``synchronous=OFF``; :func:`companion.host.storage.keep_file`
without its fsyncs), and the medians are printed in ms, with their
difference: the price of surviving a power cut.

- a sign-out: the panel's keys (``panel-access.db``, WAL, ``synchronous=FULL``)
- a colour change: a new game's colours and the players' profiles
  (``companion-colours.json`` through ``keep_file``: the file and its folder synced)
- a settings change: the table's language, in the journal
- a journal command: a Call of Nature card, through the table

Run it on the disk the companion will use (--dir): a sync waits for the
disk, so the figures are the disk's as much as the code's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core.access import AccessStore
from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table
from companion.host import storage
from web.colours import PALETTE, PlayerColours


def median_ms(change: Callable[[int], object], count: int) -> float:
    times = []
    for n in range(count):
        start = time.perf_counter()
        change(n)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def sign_outs(folder: Path, count: int, durable: bool) -> float:
    store = AccessStore(folder / "panel-access.db")
    if not durable:
        store._db.execute("PRAGMA synchronous=OFF")
    try:
        return median_ms(lambda n: store.sign_out(), count)
    finally:
        store.close()


def colour_changes(folder: Path, count: int, durable: bool) -> float:
    sync = storage._sync_file
    if not durable:
        storage._sync_file = lambda fd: None
    try:
        colours = PlayerColours(folder / "companion-colours.json", storage.keep_file)
        names = ["Ana", "Ben", "Cy", "Dee"]
        return median_ms(lambda n: colours.choose(
            n, [PALETTE[(n + s) % len(PALETTE)] for s in range(len(names))], names), count)
    finally:
        storage._sync_file = sync


def table(folder: Path, durable: bool) -> Table:
    opened = Table(Journal.open(folder / "companion.db"))
    if not durable:
        opened._journal._db.execute("PRAGMA synchronous=OFF")
    return opened


def settings_changes(folder: Path, count: int, durable: bool) -> float:
    kept = table(folder, durable)
    try:
        return median_ms(lambda n: kept.change_setting("language", ("fr", "it")[n % 2]), count)
    finally:
        kept.close()


def commands(folder: Path, count: int, durable: bool) -> float:
    kept = table(folder, durable)
    try:
        kept.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
        pressure = [0]

        def card(_n: int) -> None:
            value = 7 if pressure[0] < 22 else -22
            pressure[0] += value
            kept.submit(Command("card", {"value": value}))

        return median_ms(card, count)
    finally:
        kept.close()


KINDS = (("sign-out", sign_outs), ("colour change", colour_changes),
         ("settings change", settings_changes), ("journal command", commands))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=200, help="changes of each kind timed")
    parser.add_argument("--dir", default=None, help="where to keep the files (a temporary "
                                                     "folder there)")
    args = parser.parse_args()
    print(f"median ms per change, {args.changes} changes of each kind")
    print(f"{'change':<16} {'durable':>8} {'no sync':>8} {'cost':>8}")
    for name, measure in KINDS:
        figures = []
        for durable in (True, False):
            with tempfile.TemporaryDirectory(dir=args.dir) as folder:
                figures.append(measure(Path(folder), args.changes, durable))
        durable_ms, loose_ms = figures
        print(f"{name:<16} {durable_ms:>8.2f} {loose_ms:>8.2f} {durable_ms - loose_ms:>8.2f}")


if __name__ == "__main__":
    main()
