"""A year of play at the table: what a journal of thousands of games costs.

    .venv/bin/python benchmarks/bench_growth.py [--sizes 1000 5000] [--commands 40]

For an empty journal and for journals of each size (built by copying games
played through the real table: a long Call of Nature and an OhShit! to its
end, about 75 journal entries a game, their summaries and the statistics'
tally included as this version keeps them, each game counted as it ends),
the script starts ``companion serve --simulate`` on it and prints:

- the start, from the process's launch until the panel answers
  ``/api/health`` (target: within 0.1 s of the empty journal);
- the first ``GET /api/stats`` after the start, and the median of the later
  ones (target: 50 ms at 5,000 games), at a start and at the next;
- a card played from a phone (``POST /api/command``, its journal write
  included), median and 90th percentile, alone and while another phone
  reads the statistics over and over (target: unchanged);
- the process's memory after the statistics (VmRSS, VmHWM; target 60 MB);
- ``companion stats --db`` on the journal, a whole process (target 1 s);
- once per size, the same journal as an earlier version left it (no
  summaries): the upkeep that sums its games up after the start, timed
  by ``companion stats`` doing it (once; later starts find it done); and
  the companion started on it: the start, the first ``GET /api/stats``
  (it answers at once with the games counted so far, and how far the
  count is), a card while the games are counted, and the time until all
  are.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_daemon import ROOT, free_port, memory, read_pin, start, wait_for_health

from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table


def play_templates(path: Path) -> None:
    """Two games played through the table into the journal at ``path``."""
    table = Table(Journal.open(path))
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Di"], variants=["no-end-roll"])
    for n in range(70):
        if table.current().over:
            break
        table.submit(Command("card", {"value": 1 + (n * 7) % 9}))
    while not table.current().over:
        table.submit(Command("adjust-mastery", {"player": "Di", "delta": -7}))
    table.new_game("ohshit", ["Ana", "Ben", "Cy"])
    for colour in ("grassy", "grassy", "grassy"):
        table.submit(Command("poop", {"target": "Ben", "colour": colour}))
    table.submit(Command("kill", {"player": "Ben"}))
    table.submit(Command("kill", {"player": "Cy"}))
    table.close()


def build(path: Path, games: int, templates: Path, summaries: bool = True) -> None:
    """A journal of ``games`` finished games, copies of the templates."""
    source = sqlite3.connect(templates)
    rows = source.execute("SELECT id, game, setup, started, status, ended, result "
                          "FROM games ORDER BY id").fetchall()
    entries = {gid: source.execute("SELECT version, action, command, source, at FROM entries "
                                   "WHERE game_id = ? ORDER BY seq", (gid,)).fetchall()
               for gid, *_ in rows}
    kept = dict(source.execute("SELECT game_id, summary FROM summaries").fetchall())
    source.close()
    Journal.open(path).close()  # the schema, as the companion makes it
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous=OFF")
    with db:
        for n in range(games):
            gid, game, setup, started, status, ended, result = rows[n % len(rows)]
            shift = n * 3600.0
            new = db.execute("INSERT INTO games (game, setup, started, status, ended, result) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (game, setup, started + shift, status, ended + shift,
                              result)).lastrowid
            db.executemany(
                "INSERT INTO entries (game_id, version, action, command, source, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(new, v, a, c, s, at + shift) for v, a, c, s, at in entries[gid]])
            if summaries:
                summary = json.loads(kept[gid])
                summary.update(game_id=new, started=started + shift, ended=ended + shift)
                if summary.get("record"):
                    summary["record"].update(game_id=new, at=ended + shift)
                db.execute("INSERT INTO summaries (game_id, summary) VALUES (?, ?)",
                           (new, json.dumps(summary)))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    if summaries:
        # The statistics' tally, as the companion keeps it up to date when
        # each game ends.
        table = Table(Journal.open(path))
        table.stats()
        table.close()


class Phone:
    """A controller's phone: joined with the PIN, its cookie and CSRF token."""

    def __init__(self, port: int, pin: str) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with self.jar.open(self.base + "/api/session", timeout=30) as answer:
            self.csrf = json.load(answer)["csrf"]
        self.post("/api/join", {"pin": pin})

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.base + path, json.dumps(body).encode(),
                                         method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "X-CSRF-Token": self.csrf})
        with self.jar.open(request, timeout=120) as answer:
            return json.load(answer)

    def state(self) -> dict:
        """The game the phone shows (an empty one before the first game)."""
        try:
            with self.jar.open(self.base + "/api/state", timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError:
            return {}

    def get(self, path: str) -> float:
        return self.read(path)[0]

    def read(self, path: str) -> tuple[float, dict]:
        """Seconds the answer took, and the answer."""
        started = time.perf_counter()
        with self.jar.open(self.base + path, timeout=300) as answer:
            body = answer.read()
        return time.perf_counter() - started, json.loads(body)


def cards(phone: Phone, state: dict, count: int) -> list[float]:
    """``count`` cards played one after another; each one's round trip (a
    game that ends, or waits for something else than a card, is replaced)."""
    took = []
    for n in range(count):
        if state.get("over") or (state.get("expected") or [{}])[0].get("command") != "card":
            state = new_game(phone)
        started = time.perf_counter()
        state = phone.post("/api/command", {"command": {"name": "card",
                                                        "args": {"value": 1 + n % 3}},
                                            "game_id": state["game_id"],
                                            "version": state["version"]})
        took.append(time.perf_counter() - started)
    return took


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def spread(took: list[float]) -> str:
    ordered = sorted(took)
    return f"p50 {ms(statistics.median(ordered))}, p90 {ms(ordered[int(0.9 * len(ordered))])}"


class Started(NamedTuple):
    process: subprocess.Popen
    launched: float  # time.perf_counter() at the launch
    answered: float  # seconds from the launch until the panel answered
    port: int
    pin: str
    phone: Phone  # a controller's


@contextmanager
def companion_on(data: Path) -> Iterator[Started]:
    """``companion serve --simulate`` on the data directory ``data``, once
    the panel answers, with a controller's phone; stopped at the end."""
    port = free_port()
    config = data.parent / f"{data.name}.toml"
    config.write_text(f'data_dir = "{data}"\n[web]\nhost = "127.0.0.1"\n'
                      f"port = {port}\nmdns = false\n")
    launched = time.perf_counter()
    process = start(config)
    printed = read_pin(process)
    try:
        wait_for_health(port, timeout=300)
        answered = time.perf_counter() - launched
        if not printed.wait(30):
            raise RuntimeError("the companion printed no PIN")
        pin: str = printed.pin  # type: ignore[attr-defined]
        yield Started(process, launched, answered, port, pin, Phone(port, pin))
    finally:
        process.terminate()
        process.wait(60)


def new_game(phone: Phone) -> dict:
    """A Call of Nature started from the phone, over the game it shows."""
    shown = phone.state()
    return phone.post("/api/new-game", {"game": "call-of-nature",
                                        "players": ["Ana", "Ben", "Cy"],
                                        "variants": ["no-end-roll"],
                                        "game_id": shown.get("game_id"),
                                        "version": shown.get("version", 0)})


def measure(folder: Path, label: str, commands: int) -> None:
    with companion_on(folder / "data") as started:
        phone = started.phone
        first = phone.get("/api/stats")
        later = statistics.median(phone.get("/api/stats") for _ in range(5))
        alone = cards(phone, new_game(phone), commands)
        reading, done = Phone(started.port, started.pin), threading.Event()

        def read_stats() -> None:
            while not done.is_set():
                try:
                    reading.get("/api/stats")
                except OSError:
                    return  # the companion stopped

        reader = threading.Thread(target=read_stats, daemon=True)
        reader.start()
        busy = cards(phone, phone.state(), commands)
        done.set()
        reader.join(300)
        used = memory(started.process.pid)
    print(f"{label:>12}: start {ms(started.answered)}; /api/stats first {ms(first)}, later "
          f"{ms(later)}")
    print(f"{'':>12}  a card: alone {spread(alone)}; while statistics are read "
          f"{spread(busy)}")
    print(f"{'':>12}  memory after the statistics: VmRSS {used['VmRSS'] / 1024:.1f} MB, "
          f"VmHWM {used['VmHWM'] / 1024:.1f} MB")


def measure_earlier(folder: Path, earlier: Path, commands: int) -> None:
    """The companion started on a journal an earlier version left: its
    start, its first statistics while it counts the past games, a card
    meanwhile, and how long the count takes."""
    data = folder / "earlier-data"
    data.mkdir()
    shutil.copy(earlier, data / "companion.db")
    with companion_on(data) as started:
        phone = started.phone
        first, stats = phone.read("/api/stats")
        counting = stats.get("counting")
        meanwhile = cards(phone, new_game(phone), commands)
        still = phone.read("/api/stats")[1].get("counting")
        while phone.read("/api/stats")[1].get("counting"):
            time.sleep(0.2)
        counted = time.perf_counter() - started.launched
    so_far = (f"{counting['summed']} of {counting['of']} counted" if counting
              else "all counted already")
    print(f"{'':>12}  started on it: start {ms(started.answered)}; /api/stats first "
          f"{ms(first)} ({so_far}); a card meanwhile {spread(meanwhile)}"
          f"{'' if still else ' (the count ended first)'}; every game counted "
          f"{counted:.1f} s after the launch")


def cli_stats(db: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "companion", "--db", str(db), "stats"], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--commands", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        templates = root / "templates.db"
        play_templates(templates)
        for size in [0, *args.sizes]:
            folder = root / f"games-{size}"
            (folder / "data").mkdir(parents=True)
            db = folder / "data" / "companion.db"
            if size:
                build(db, size, templates)
                print(f"{size} games: {db.stat().st_size / 1e6:.1f} MB, "
                      f"{sqlite3.connect(db).execute('SELECT count(*) FROM entries').fetchone()[0]}"
                      f" entries")
            # A start on it, then the next.
            measure(folder, f"{size} games", args.commands)
            if size:
                measure(folder, "next start", args.commands)
            if size:
                print(f"{'':>12}  companion stats: {ms(cli_stats(db))}")
                old = folder / "earlier.db"
                build(old, size, templates, summaries=False)
                kept = folder / "earlier-kept.db"
                shutil.copy(old, kept)
                print(f"{'':>12}  an earlier version's journal, summed up once: "
                      f"{ms(cli_stats(old))} (then {ms(cli_stats(old))})")
                measure_earlier(folder, kept, args.commands)
            shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
