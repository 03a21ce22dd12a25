"""The companion on a Pi Zero 2 W's budget: one core limited to 10 %.

    sudo .venv/bin/python benchmarks/bench_pi_zero.py [--runs 3] [--presses 100] [--quota 10]
        [--period-ms 10]

A Pi Zero 2 W's Cortex-A53 at 1 GHz does roughly a tenth of what a
development machine's core does; a CPU quota of 10 % of one core stands in
for it, given in periods of 10 ms (1 ms of CPU in each), not the kernel's
100 ms: with 100 ms, a burst longer than 10 ms runs at full speed, then
waits 90 ms, a stall a slow CPU does not make (see ``PERIOD_US``).  The
script makes a control group with that quota (cgroup v2:
``cpu.max``; cgroup v1: ``cpu.cfs_quota_us``; both pinned to CPU 0 where
cpusets are there) and runs each measured process inside it; without the
right to make one (not root) it says so and measures nothing.  It prints:

- ``companion serve --simulate`` (a temporary data directory and port) from
  the process's start until the panel answers ``/api/health``
  (target: 3 s), started as ``scripts/install-pi.sh`` leaves the companion
  on the Pi (:func:`install_like_pip`: a virtual environment holding a
  byte-compiled copy of its packages, started by its console script), not
  from this checkout's editable install, whose import hook alone costs
  some 0.3 s of the start at 10 %; and the CPU time (user and system, every
  thread) the process had used by then: at 10 % the wall time is at least
  ten times that, the rest is others' work on the shared CPU 0;
- its memory (VmRSS, VmHWM) with a game started from a phone and the live
  stream open, and beside it the memory of the libraries it stands on,
  imported alone (:data:`LIBRARIES`);
- a key press to the frame on the display's bus, UP on a card's value and OK
  playing the card (the journal's write included), from
  ``benchmarks/bench_latency.py`` run inside the same quota (target: a card's
  frame within 50 ms at the 99th percentile), with the CPU each press used
  and, for OK, the journal's write apart (SQLite's commit and its fsync:
  the disk's time, outside the quota) and the press without it.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_daemon import (
    ROOT,
    cpu_seconds,
    free_port,
    memory,
    open_panel,
    play_a_game,
    read_pin,
    service_environment,
    wait_for_health,
    write_config,
)

START_TARGET = 3.0
CARD_TARGET_MS = 50.0
CGROUP = Path("/sys/fs/cgroup")
# The quota's period: 10 ms (the share of it, 1 ms at 10 %), not the kernel's
# default 100 ms.  A slow CPU runs a burst of work slowly but without pause;
# a 10 % quota of a 100 ms period runs it at full speed for 10 ms, then
# stops the whole process for 90 ms, so any press whose work crosses the
# 10 ms mark waited 90 ms more: a stall no slow CPU makes.  With a 10 ms
# period the same share stops it at most 9 ms at a time, nearer to a CPU
# ten times slower.  (--period-ms 100 measures as before.)
PERIOD_US = 10_000


class NoQuota(RuntimeError):
    """This machine will not let us make a control group."""


def _write(path: Path, value: str) -> None:
    path.write_text(value)


@contextmanager
def cpu_quota(percent: int, period_us: int = PERIOD_US) -> Iterator[tuple[str, Callable[[], None]]]:
    """A control group limited to ``percent`` of one core in each period of
    ``period_us``: yields how it is made and the function that moves the
    calling process into it (for ``subprocess.Popen(preexec_fn=...)``)."""
    quota = percent * period_us // 100
    name = f"companion-bench-{os.getpid()}"
    made: list[Path] = []
    try:
        if (CGROUP / "cgroup.controllers").exists():  # cgroup v2
            group = CGROUP / name
            group.mkdir()
            made.append(group)
            _write(group / "cpu.max", f"{quota} {period_us}")
            if (group / "cpuset.cpus").exists():
                _write(group / "cpuset.cpus", "0")
            procs = [group / "cgroup.procs"]
            how = f"cgroup v2, cpu.max {quota} {period_us}"
        elif (CGROUP / "cpu" / "cpu.cfs_quota_us").exists():  # cgroup v1
            group = CGROUP / "cpu" / name
            group.mkdir()
            made.append(group)
            _write(group / "cpu.cfs_period_us", str(period_us))
            _write(group / "cpu.cfs_quota_us", str(quota))
            procs = [group / "cgroup.procs"]
            how = f"cgroup v1, cpu.cfs_quota_us {quota} of {period_us}"
            cpuset = CGROUP / "cpuset"
            if (cpuset / "cpuset.cpus").exists():
                pinned = cpuset / name
                pinned.mkdir()
                made.append(pinned)
                _write(pinned / "cpuset.mems", (cpuset / "cpuset.mems").read_text().strip())
                _write(pinned / "cpuset.cpus", "0")
                procs.append(pinned / "cgroup.procs")
                how += ", cpuset 0"
        else:
            raise NoQuota("no cgroup CPU controller under /sys/fs/cgroup")
    except OSError as error:
        for group in reversed(made):
            group.rmdir()
        raise NoQuota(f"cannot make a control group ({error}); run as root") from error

    def enter() -> None:
        for path in procs:
            path.write_text(str(os.getpid()))

    try:
        yield how, enter
    finally:
        for group in reversed(made):
            for _ in range(50):
                try:
                    group.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)  # its last process is still leaving


def install_like_pip(folder: Path) -> list[str]:
    """The companion as ``scripts/install-pi.sh`` leaves it on the Pi (``pip
    install`` of its wheel into a virtual environment), made in ``folder``
    without a network: a venv whose site-packages hold a copy of the
    ``companion``, ``drivers`` and ``web`` packages (their data files
    included), byte-compiled as pip compiles them, and the console script
    pip writes; its dependencies are this environment's, on its path.
    Returns the console script's path, the command that starts it."""
    venv = folder / "venv"
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv",
                    "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    for package in ("companion", "drivers", "web"):
        shutil.copytree(ROOT / package, site / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(site / package, quiet=1)
    # The dependencies (Flask, waitress...) from here, as a path only: a
    # .pth file's line adds a folder, whose own .pth files (this checkout's
    # editable install) are not read.
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    script = venv / "bin" / "companion"
    script.write_text(f"#!{python}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\n"
                      "from companion.commands.cli import main\nif __name__ == '__main__':\n"
                      "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
                      "    sys.exit(main())\n")
    script.chmod(0o755)
    return [str(script)]


def one_start(folder: Path, enter: Callable[[], None],
              companion: list[str]) -> tuple[float, float, dict[str, int]]:
    """Seconds from the start until the panel answers, the CPU seconds the
    process used by then, and its memory once a phone plays."""
    port = free_port()
    config = write_config(folder, port, mdns=False)
    command = [*companion, "serve", "--simulate", "--config", str(config)]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, preexec_fn=enter,
                               env=service_environment())
    pin = read_pin(process)
    try:
        wait_for_health(port, timeout=120)
        answered = time.perf_counter() - started
        cpu = cpu_seconds(process.pid)
        pin.wait(60)
        # The first game loads its engine: seconds at 10 %, more when CPU 0 is busy.
        play_a_game(port, pin.pin, timeout=120)  # type: ignore[attr-defined]
        stream_done = open_panel(port)
        time.sleep(5.0)  # at 10 %, let the screen thread draw and the stream settle
        used = memory(process.pid)
        stream_done.set()
        return answered, cpu, used
    finally:
        process.terminate()
        process.wait(60)


# The libraries the companion is built on, imported by themselves in the
# same interpreter as the companion (the installed venv), a Flask app made:
# nothing of the companion's own (its modules, fonts, threads, data).  What
# the companion's memory can never go under while it stands on them.
LIBRARIES = """
import hashlib, json, logging, secrets, sqlite3, threading
import flask, waitress
import gpiozero
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw, ImageFont
import qrcode, serial
flask.Flask("floor")
print(open("/proc/self/status").read())
"""


def libraries_alone(companion: list[str]) -> int:
    """VmRSS in kB of an interpreter of the companion's venv that imported
    only the libraries (:data:`LIBRARIES`)."""
    python = Path(companion[0]).parent / "python"
    done = subprocess.run([str(python), "-c", LIBRARIES], capture_output=True, text=True,
                          check=True, env=service_environment(), timeout=600)
    status = dict(line.split(":", 1) for line in done.stdout.splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0])


def latency(presses: int, enter: Callable[[], None]) -> dict:
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_latency.py"),
               "--presses", str(presses), "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=enter, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"bench_latency.py failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--quota", type=int, default=10, help="percent of one core")
    parser.add_argument("--period-ms", type=int, default=PERIOD_US // 1000,
                        help="the quota's period (the share is --quota percent of it)")
    args = parser.parse_args()
    try:
        with cpu_quota(args.quota, args.period_ms * 1000) as (how, enter):
            load = os.getloadavg()[0]
            print(f"one core limited to {args.quota} % ({how}), Python "
                  f"{sys.version.split()[0]}, load average {load:.1f} on {os.cpu_count()} cores "
                  f"(others' work on CPU 0 takes from the quota's share)")
            times, cpus, rss, peak, floor = [], [], [], [], []
            with tempfile.TemporaryDirectory(prefix="bench-pi-zero-") as tmp:
                companion = install_like_pip(Path(tmp))
                for n in range(args.runs):
                    folder = Path(tmp) / f"run{n}"
                    folder.mkdir()
                    answered, cpu, used = one_start(folder, enter, companion)
                    times.append(answered)
                    cpus.append(cpu)
                    rss.append(used["VmRSS"] / 1024)
                    peak.append(used["VmHWM"] / 1024)
                    floor.append(libraries_alone(companion) / 1024)
            print(f"companion serve --simulate start until the panel answers: median "
                  f"{statistics.median(times):.2f} s, max {max(times):.2f} s of {args.runs} "
                  f"(target {START_TARGET} s)")
            print(f"  its CPU time by then (user+sys, every thread): median "
                  f"{statistics.median(cpus):.2f} s, max {max(cpus):.2f} s; at {args.quota} % "
                  f"of a core that alone takes {statistics.median(cpus) * 100 / args.quota:.1f} s, "
                  f"the rest of the wall time is waiting for CPU 0")
            print(f"memory with the panel open: VmRSS {statistics.median(rss):.1f} MB, "
                  f"VmHWM {statistics.median(peak):.1f} MB (MiB: kB / 1024)")
            print(f"  the libraries alone (Flask, waitress, gpiozero, luma.oled, Pillow, qrcode, "
                  f"pyserial, sqlite3 imported, nothing of the companion's): VmRSS "
                  f"{statistics.median(floor):.1f} MB")
            figures = latency(args.presses, enter)
            up, ok = figures["up"], figures["ok"]
            journal, rest = figures["ok_journal"], figures["ok_without_journal"]
            up_cpu, ok_cpu = figures["up_cpu"], figures["ok_cpu"]
            print(f"press to frame, UP on a card's value: p50 {up['p50']:.1f} ms, "
                  f"p99 {up['p99']:.1f} ms ({figures['presses']} presses)")
            print(f"press to frame, OK playing the card (journal write): p50 {ok['p50']:.1f} ms, "
                  f"p99 {ok['p99']:.1f} ms, max {ok['max']:.1f} ms "
                  f"(target p99 {CARD_TARGET_MS:.0f} ms)")
            print(f"  the journal's write in it (SQLite commit and fsync, the disk's time): "
                  f"p50 {journal['p50']:.1f} ms, p99 {journal['p99']:.1f} ms; the press "
                  f"without it: p50 {rest['p50']:.1f} ms, p99 {rest['p99']:.1f} ms")
            print(f"  CPU per press (every thread, inside the quota): UP p50 "
                  f"{up_cpu['p50']:.2f} ms, p99 {up_cpu['p99']:.2f} ms; OK p50 "
                  f"{ok_cpu['p50']:.2f} ms, p99 {ok_cpu['p99']:.2f} ms")
    except NoQuota as reason:
        if shutil.which("systemd-run"):
            print(f"{reason}; as root, 'systemd-run --scope -p CPUQuota={args.quota}% "
                  f"{sys.executable} benchmarks/bench_daemon.py' measures the start alone")
        else:
            print(reason)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
