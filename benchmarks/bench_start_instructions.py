"""The CPU work of the companion's start, counted in instructions: from the
process's start until the panel first answers ``/api/health``.

    .venv/bin/python benchmarks/bench_start_instructions.py [--runs 2] [--root DIR ...]

A start's CPU seconds on a shared machine vary by a third within the hour
(``benchmarks/bench_pi_zero.py`` measures the same code at 0.25 s and,
minutes later, 0.33 s); the instructions it executes do not.  valgrind's
callgrind counts every instruction of every thread of
``companion serve --simulate`` (installed as ``scripts/install-pi.sh``
leaves it on the Pi, :func:`bench_pi_zero.install_like_pip`, with the
service unit's environment), the counts are dumped the moment the panel
first answers, and the total is printed: the figure a change to the start
is judged by, whatever else the machine does (a Pi Zero 2 W runs the same
instructions, more slowly).

``--root`` names checkouts to measure instead of this one, each a folder
holding ``companion``, ``drivers`` and ``web``: the code before a change
and after, measured in turn, round after round.  Needs Debian's valgrind.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_daemon
import bench_pi_zero
from bench_daemon import (
    ROOT,
    free_port,
    read_pin,
    service_environment,
    wait_for_health,
    write_config,
)

# Under callgrind the start runs some fifty times slower.
ANSWER_TIMEOUT = 600.0


def installed(root: Path, folder: Path) -> list[str]:
    """The companion of checkout ``root``, installed in ``folder`` as on the Pi."""
    bench_pi_zero.ROOT = root
    try:
        return bench_pi_zero.install_like_pip(folder)
    finally:
        bench_pi_zero.ROOT = ROOT


def instructions_to_answer(companion: list[str], folder: Path) -> int:
    """Instructions every thread of one start executed until the panel answered."""
    port = free_port()
    config = write_config(folder, port, mdns=False)
    python = str(Path(companion[0]).parent / "python")
    counts = folder / "callgrind"
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={counts}.%p", python,
         *companion, "serve", "--simulate", "--config", str(config)],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=service_environment())
    read_pin(process)
    try:
        wait_for_health(port, timeout=ANSWER_TIMEOUT)
        subprocess.run(["callgrind_control", "--dump", str(process.pid)],
                       capture_output=True, check=True, timeout=60)
        dump = Path(f"{counts}.{process.pid}.1")
        deadline = time.monotonic() + 60
        while not _total(dump):
            if time.monotonic() > deadline:
                raise RuntimeError(f"callgrind wrote no counts to {dump}")
            time.sleep(0.2)
        return _total(dump) or 0
    finally:
        process.terminate()
        process.wait(120)


def _total(dump: Path) -> int | None:
    """The total a callgrind dump gives, once it is whole."""
    try:
        text = dump.read_text()
    except FileNotFoundError:
        return None
    for line in text.splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="rounds (each checkout once a round)")
    parser.add_argument("--root", type=Path, action="append",
                        help="a checkout to measure (repeat for several); this one by default")
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind is not installed (Debian's valgrind): nothing measured")
        return 1
    roots = [root.resolve() for root in (args.root or [ROOT])]
    found: dict[Path, list[int]] = {root: [] for root in roots}
    with tempfile.TemporaryDirectory(prefix="bench-start-") as tmp:
        installs = {root: installed(root, Path(tmp) / f"install{n}")
                    for n, root in enumerate(roots)}
        for run in range(args.runs):
            # The order turns each round, so that neither always goes first.
            for n, root in enumerate(roots[run % len(roots):] + roots[:run % len(roots)]):
                folder = Path(tmp) / f"run{run}-{n}"
                folder.mkdir()
                found[root].append(instructions_to_answer(installs[root], folder))
    print(f"instructions until the panel first answers (valgrind's callgrind, every thread, "
          f"{args.runs} runs each, Python {sys.version.split()[0]}):")
    for root, counts in found.items():
        print(f"  {root}: median {statistics.median(counts) / 1e6:.1f} M "
              f"(min {min(counts) / 1e6:.1f} M, max {max(counts) / 1e6:.1f} M)")
    return 0


if __name__ == "__main__":
    assert bench_daemon.ROOT == ROOT
    sys.exit(main())
