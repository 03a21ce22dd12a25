"""A venue on a real Mosquitto: 20 companions in simulation and 200 tables
through the same publishing code, the venue board watching them all.

    .venv/bin/python benchmarks/bench_venue.py [--companions 20] [--tables 200]
        [--changes 400] [--outage 10] [--latency-tables 20] [--disk-ms 20]

Starts Debian's mosquitto on a free loopback port (a password file, an ACL
giving each table its own topics), ``companion venue`` (the board, its own
process) and ``companion serve --simulate`` ``--companions`` times, each
with ``[venue]`` on the broker; and, in this process, ``--tables`` tables
(each a real :class:`~companion.core.table.Table` on its own journal file
with a real :class:`~companion.parts.venue.VenuePart` and its own MQTT
connection).  It prints:

- from a table's commit (``Table.submit`` returning, its journal written)
  to the board's page having it (the board's live stream said so and its
  ``/api/tables`` holds that version), p50 and p99, for ``--changes`` cards
  played on random tables (target p99 ≤ 250 ms);
- the same for ``--latency-tables`` tables (20) of their own, beside all the
  others (target p99 ≤ 100 ms), then for as many on a 20 ms disk
  (``--disk-ms``): every journal commit of their process (the table's own
  writes and the venue part's cursor) holds its journal 20 ms longer after
  SQLite's COMMIT, as a slow SD card's fsync would;
- the board's memory (VmRSS) with every table on it (target ≤ 150 MB);
- a card's OK press on one table (``Table.submit``: the journal's write and
  the listeners) with the venue off, on, and on with its broker dead, p50
  (target: the same within 1 ms);
- the broker stopped for ``--outage`` seconds while every companion and
  table goes on playing: how many of their events a subscriber of its own
  (a persistent session) is missing once the broker is back (target 0).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.core.engine import Command  # noqa: E402
from companion.core.journal import Journal  # noqa: E402
from companion.core.table import Table  # noqa: E402
from companion.host.config import Venue  # noqa: E402
from companion.parts.venue import VenuePart  # noqa: E402
from drivers.mqtt import Link  # noqa: E402
from tests.mosquitto import Broker, free_port, table_acl  # noqa: E402

VENUE = "bench"
PASSWORD = "pw"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Tables:
    """``count`` tables, each publishing on the broker, in worker processes
    of at most ``PER_PROCESS`` tables each (paho waits on its sockets with
    select(), which takes no descriptor above 1,023: one process of 200
    tables, their journals and connections would pass it; a companion has
    one table)."""

    PER_PROCESS = 40

    def __init__(self, folder: Path, broker: Broker, count: int, prefix: str = "t",
                 disk_delay: float = 0.0) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.count, self.prefix = count, prefix
        self.workers = []
        for first in range(0, count, self.PER_PROCESS):
            names = [f"{prefix}{n:03d}"
                     for n in range(first, min(count, first + self.PER_PROCESS))]
            mine, theirs = context.Pipe()
            process = context.Process(target=_worker, args=(theirs, str(folder), broker.port,
                                                           names, disk_delay), daemon=True)
            process.start()
            mine.recv()  # its tables are there
            self.workers.append((mine, process, names))

    def _ask(self, n: int, *request: Any) -> Any:
        pipe, _, names = self.workers[n // self.PER_PROCESS]
        pipe.send((names.index(f"{self.prefix}{n:03d}"), *request))
        return pipe.recv()

    def card(self, n: int, value: int) -> tuple[int, int, float]:
        """A card on table ``n``: its game, version and when it committed."""
        found: tuple[int, int, float] = self._ask(n, "card", value)
        return found

    def versions(self, n: int) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = self._ask(n, "versions")
        return found

    def status(self, n: int) -> tuple[bool, Any, int, str | None]:
        found: tuple[bool, Any, int, str | None] = self._ask(n, "status")
        return found

    def stop(self) -> None:
        for pipe, process, _ in self.workers:
            pipe.send((0, "stop"))
            process.join(60)


def _worker(pipe: Any, folder: str, port: int, names: list[str], disk_delay: float) -> None:
    """A worker process: its tables, each with its venue part, playing on
    request; with ``disk_delay``, on a disk whose every sync takes that long."""
    logging.getLogger("drivers.mqtt").setLevel(logging.ERROR)
    if disk_delay:
        slow_disk(disk_delay)
    tables, parts = [], []
    for name in names:
        table = Table(Journal.open(Path(folder) / f"{name}.db"))
        table.new_game("call-of-nature", ["Ana", "Ben", "Cy"], variants=["no-end-roll"])
        settings = Venue(broker="127.0.0.1", port=port, username=name, password=PASSWORD,
                         venue=VENUE, table=name, home_assistant=False)
        part = VenuePart(settings, table, table._journal, table_name=name, version="bench")
        part.start()
        tables.append(table)
        parts.append(part)
    pipe.send("ready")
    while True:
        index, what, *args = pipe.recv()
        table, part = tables[index], parts[index]
        if what == "card":
            done = card(table, args[0])
            now = table.current()
            pipe.send((now.game_id, now.version, done))
        elif what == "versions":
            pipe.send(_versions(table))
        elif what == "status":
            pipe.send((part.link.connected, part._cursor, part.sent, part.link.last_error))
        else:
            for each in parts:
                each.stop()
            for each in tables:
                each.close()
            return


def slow_disk(delay: float) -> None:
    """Every journal commit of this process holds its journal ``delay``
    seconds longer after SQLite's COMMIT (its fsync on a slow SD card)."""
    from companion.core import journal

    end = journal._Transaction._end

    def slow_end(self: Any, exc_type: Any, exc: Any) -> None:
        end(self, exc_type, exc)
        if exc_type is None:
            time.sleep(delay)

    journal._Transaction._end = slow_end  # type: ignore[method-assign]


def commit_to_board(tables: Tables, watcher: Watcher, changes: int,
                    ) -> tuple[list[float], int]:
    """``changes`` cards on random tables of ``tables``, 20 ms apart: each
    one's delay from its commit to the board's page, and how many the page
    never showed (a later version came first)."""
    commits: list[tuple[str, int, int, float]] = []
    for n in range(changes):
        i = random.randrange(tables.count)
        game_id, version, done = tables.card(i, 1 + n % 3)
        commits.append((f"{tables.prefix}{i:03d}", game_id, version, done))
        time.sleep(0.02)
    time.sleep(3)
    delays = [seen - done for name, gid, version, done in commits
              if (seen := watcher.when(name, gid, version)) is not None]
    return delays, len(commits) - len(delays)


def waits_for_a_card(table: Table) -> bool:
    now = table.current()
    return not now.over and bool(now.expected) and now.expected[0].command == "card"


def card(table: Table, value: int) -> float:
    """Play a card (a new game when this one is over or waits for something
    else, a Respite's roll); when it committed."""
    if not waits_for_a_card(table):
        table.new_game("call-of-nature", ["Ana", "Ben", "Cy"], variants=["no-end-roll"])
    table.submit(Command("card", {"value": value}))
    return time.perf_counter()


class Watcher:
    """The board's page as a browser has it: at each change its live stream
    announces, the tables are read again; each (table, version) seen is
    marked with the time it was first there."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: dict[tuple[str, int, int], float] = {}
        self.lock = threading.Lock()
        self.changed = threading.Event()
        threading.Thread(target=self._listen, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()

    def _listen(self) -> None:
        with urllib.request.urlopen(self.url + "api/stream", timeout=3600) as stream:
            for line in stream:
                if line.startswith(b"event: change"):
                    self.changed.set()

    def _read(self) -> None:
        while True:
            self.changed.wait()
            self.changed.clear()
            try:
                with urllib.request.urlopen(self.url + "api/tables", timeout=60) as answer:
                    tables = json.load(answer)["tables"]
            except OSError:  # the board stopped: the bench is over
                return
            now = time.perf_counter()
            with self.lock:
                for t in tables:
                    state = t.get("state") or {}
                    if "version" in state:
                        self.seen.setdefault((t["table"], state["game_id"], state["version"]), now)

    def when(self, table: str, game_id: int, version: int) -> float | None:
        with self.lock:
            return self.seen.get((table, game_id, version))


def press_costs(folder: Path, broker: Broker, presses: int) -> dict[str, float]:
    """A card's OK press on one table, venue off, on, and on with no broker."""
    out: dict[str, float] = {}
    for label in ("off", "on", "broker dead"):
        table = Table(Journal.open(folder / f"press-{label.replace(' ', '-')}.db"))
        table.new_game("call-of-nature", ["Ana", "Ben", "Cy"], variants=["no-end-roll"])
        part = None
        if label != "off":
            port = broker.port if label == "on" else free_port()
            part = VenuePart(Venue(broker="127.0.0.1", port=port, username="press",
                                   password=PASSWORD, venue=VENUE, table="press",
                                   home_assistant=False),
                             table, table._journal, table_name="press", version="bench")
            part.start()
            time.sleep(1.0)
        took = []
        for n in range(presses):
            if not waits_for_a_card(table):
                table.new_game("call-of-nature", ["Ana", "Ben", "Cy"],
                               variants=["no-end-roll"])
            started = time.perf_counter()
            table.submit(Command("card", {"value": 1 + n % 3}))
            took.append(time.perf_counter() - started)
            time.sleep(0.01)
        out[label] = statistics.median(took)
        if part is not None:
            part.stop()
        table.close()
    return out


def start_companions(folder: Path, broker: Broker, count: int) -> list[subprocess.Popen]:
    made = []
    for n in range(count):
        name = f"c{n:02d}"
        home = folder / name
        home.mkdir()
        (home / "config.toml").write_text(
            f'data_dir = "{home / "data"}"\n[web]\nhost = "127.0.0.1"\nport = {free_port()}\n'
            f'mdns = false\n[venue]\nbroker = "127.0.0.1"\nport = {broker.port}\n'
            f'username = "{name}"\npassword = "{PASSWORD}"\nvenue = "{VENUE}"\n'
            f'table = "{name}"\nhome_assistant = false\n')
        made.append(subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--simulate", "--config",
             str(home / "config.toml")], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True))
    return made


def play_companions(processes: list[subprocess.Popen], rounds: int) -> int:
    """Each companion's first phone joins, starts a game and plays
    ``rounds`` cards; returns how many changes that made."""
    changes = 0
    for process in processes:
        assert process.stdout is not None
        port = pin = None
        for line in process.stdout:
            if match := re.search(r"http://127\.0\.0\.1:(\d+)/\?join=.*\(PIN (\d+)\)", line):
                port, pin = match[1], match[2]
                break
        threading.Thread(target=lambda p=process: [None for _ in p.stdout or ()],
                         daemon=True).start()
        jar = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        base = f"http://127.0.0.1:{port}"
        with jar.open(base + "/api/session", timeout=60) as answer:
            csrf = json.load(answer)["csrf"]

        def post(path: str, body: dict, jar=jar, base=base, csrf=csrf) -> dict:
            request = urllib.request.Request(base + path, json.dumps(body).encode(),
                                             method="POST", headers={
                                                 "Content-Type": "application/json",
                                                 "X-CSRF-Token": csrf})
            with jar.open(request, timeout=60) as answer:
                return json.load(answer)

        post("/api/join", {"pin": pin})
        state = post("/api/new-game", {"game": "call-of-nature", "players": ["Ana", "Ben"],
                                       "variants": ["no-end-roll"], "game_id": None,
                                       "version": 0})
        for n in range(rounds):
            state = post("/api/command", {"command": {"name": "card",
                                                      "args": {"value": 1 + n % 3}},
                                          "game_id": state["game_id"],
                                          "version": state["version"]})
            changes += 1
    return changes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companions", type=int, default=20)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--changes", type=int, default=400)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--outage", type=float, default=10.0)
    parser.add_argument("--latency-tables", type=int, default=20)
    parser.add_argument("--disk-ms", type=float, default=20.0)
    args = parser.parse_args()
    # Each of the tables here would say the broker's going and coming.
    logging.getLogger("drivers.mqtt").setLevel(logging.ERROR)
    random.seed(20261201)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        names = [f"t{n:03d}" for n in range(args.tables)] + \
                [f"{p}{n:03d}" for p in "fs" for n in range(args.latency_tables)] + \
                [f"c{n:02d}" for n in range(args.companions)] + ["press", "out-t"]
        acl = "".join(table_acl(name, VENUE, name) for name in names)
        acl += "user board\ntopic read companion/#\n"
        (folder / "broker").mkdir()
        broker = Broker(folder / "broker", {**dict.fromkeys(names, PASSWORD),
                                            "board": PASSWORD}, acl)
        broker.start()
        (folder / "board-password").write_text(PASSWORD)
        board_port = free_port()
        board = subprocess.Popen(
            [sys.executable, "-m", "companion", "venue", "--broker", f"127.0.0.1:{broker.port}",
             "--username", "board", "--password-file", str(folder / "board-password"),
             "--host", "127.0.0.1", "--port", str(board_port), "--db",
             str(folder / "board.db")], cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        counted = Link("127.0.0.1", broker.port, client_id="bench-counter", username="board",
                       password=PASSWORD, subscriptions=(f"companion/{VENUE}/+/event",),
                       session_seconds=3600, on_message=lambda t, p: heard(t, p))
        events: dict[str, set[str]] = {}
        events_lock = threading.Lock()

        def heard(topic: str, payload: bytes) -> None:
            with events_lock:
                events.setdefault(topic.split("/")[2], set()).add(json.loads(payload)["id"])

        counted.start()
        companions = start_companions(folder, broker, args.companions)
        tables = Tables(folder, broker, args.tables)
        few = Tables(folder, broker, args.latency_tables, prefix="f")
        slow = Tables(folder, broker, args.latency_tables, prefix="s",
                      disk_delay=args.disk_ms / 1000)
        try:
            time.sleep(3)
            url = f"http://127.0.0.1:{board_port}/"
            watcher = Watcher(url)
            delays, missing = commit_to_board(tables, watcher, args.changes)
            print(f"a commit to the board's page, {len(delays)} changes on {args.tables} "
                  f"tables: p50 {ms(statistics.median(delays))}, p99 "
                  f"{ms(percentile(delays, 0.99))} (target p99 250 ms); "
                  f"not seen (a later version came first): {missing}")
            for label, group in ((f", on a {args.disk_ms:.0f} ms disk", slow), ("", few)):
                delays, missing = commit_to_board(group, watcher, args.changes)
                print(f"a commit to the board's page, {len(delays)} changes on "
                      f"{args.latency_tables} tables{label} (beside the others): p50 "
                      f"{ms(statistics.median(delays))}, p99 {ms(percentile(delays, 0.99))} "
                      f"(target p99 100 ms); not seen: {missing}")
            played = play_companions(companions, 5)
            time.sleep(3)
            print(f"the board's memory with {args.tables + args.companions} tables: "
                  f"{memory_mb(board.pid):.1f} MB (target 150 MB)")
            broker.stop()
            during = time.monotonic()
            changes_away = 0
            while time.monotonic() - during < args.outage:
                tables.card(random.randrange(args.tables), 2)
                changes_away += 1
                time.sleep(0.05)
            broker.start()
            expected = {f"t{i:03d}": {f"{gid}:{v}" for gid, v in tables.versions(i)}
                        for i in range(args.tables)}
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with events_lock:
                    lost = sum(len(want - events.get(name, set()))
                               for name, want in expected.items())
                if lost == 0:
                    break
                time.sleep(0.5)
            if lost and os.environ.get("BENCH_DEBUG"):
                with events_lock:
                    for name, want in expected.items():
                        if want - events.get(name, set()):
                            print(name, sorted(want - events.get(name, set())),
                                  sorted(events.get(name, set()))[:5],
                                  *tables.status(int(name[1:])))
            print(f"the broker away {args.outage:.0f} s, {changes_away} changes meanwhile "
                  f"(and {played} from the companions before): events lost "
                  f"{lost} of {sum(len(w) for w in expected.values())} (target 0)")
        finally:
            for group in (tables, few, slow):
                group.stop()
            for process in companions:
                process.terminate()
            for process in companions:
                process.wait(30)
            board.terminate()
            board.wait(30)
            counted.stop()
        costs = press_costs(folder, broker, args.presses)
        print("a card's OK press on one table (journal write and listeners), p50: " +
              ", ".join(f"venue {label} {ms(value)}" for label, value in costs.items()) +
              " (target: the same within 1 ms)")
        broker.stop()
    return 0


def _versions(table: Table) -> list[tuple[int, int]]:
    """Every (game, version) the table's journal holds."""
    out = []
    for game in table.games():
        out += [(game["id"], entry.version) for entry in table.history(game["id"])]
    return out


if __name__ == "__main__":
    sys.exit(main())
