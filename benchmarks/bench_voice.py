"""The caller's voice on the Pi's path: from a committed change to the
first audio sample, and what the caller costs a key press.

    .venv/bin/python benchmarks/bench_voice.py [--lines 60] [--presses 100]
    sudo .venv/bin/python benchmarks/bench_voice.py --quota 10   # also at 10 % of a core

Runs the companion as ``companion serve --simulate`` wires it, with
``[voice]`` on: each change of the table is made into the caller's line on
the speaker's thread, synthesized by the real ``espeak-ng`` and piped to the
player.  The player here stands in for ``aplay``: it notes the moment the
first audio sample reaches it (the WAV's 44-byte header and one sample),
then reads the rest, so the figure is the time from the journal's commit
to the first sample a sound card would get, without the card's own buffer.
Prints its median and 99th percentile over ``--lines`` changes (a card of
Call of Nature each), at full speed and, with ``--quota`` (root: a control
group, as ``benchmarks/bench_pi_zero.py`` makes it, 10 ms periods, CPU 0),
at that share of one core, the Pi Zero 2 W's stand-in.

Then the OK key's press to its frame (``benchmarks/bench_latency.py``'s
measure, a card played and journaled) with the caller off and on (on:
espeak-ng playing each line to ALSA's ``null`` device beside the presses);
the target: the caller on is no worse than off within 1 ms at the median.
``--json`` prints the figures as one JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_latency
from bench_pi_zero import NoQuota, cpu_quota

from companion.daemon import Daemon
from companion.host.config import Config, Voice, Web

OK_TARGET_MS = 1.0
FIRST_SAMPLE_BYTES = 44 + 2
LINE_TIMEOUT = 60.0


def stand_in_player(stamps: Path) -> list[str]:
    """A player that notes (wall clock, ns) when the first sample arrives."""
    script = (f"head -c {FIRST_SAMPLE_BYTES} >/dev/null && date +%s%N >>{stamps}; "
              "cat >/dev/null")
    return ["sh", "-c", script]


def first_samples(lines: int) -> list[float]:
    """Seconds from each change's commit to its line's first audio sample."""
    with tempfile.TemporaryDirectory(prefix="bench-voice-") as folder:
        stamps = Path(folder) / "stamps"
        stamps.touch()
        config = Config(data_dir=folder, web=Web(host="127.0.0.1", port=0, mdns=False),
                        voice=Voice(enabled=True, device="null"))
        daemon = Daemon(config, simulate=True, environ={}, out=io.StringIO())
        daemon.start()
        try:
            speaker = daemon.part("voice").speaker
            speaker.player = stand_in_player(stamps)
            table = daemon.table_part.table
            journal = table._journal
            append = journal.append
            committed: list[float] = []

            def timed_append(*args: Any, **kwargs: Any) -> Any:
                done = append(*args, **kwargs)
                committed.append(time.time())
                return done

            journal.append = timed_append
            table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
            speaker.wait_idle(LINE_TIMEOUT)
            out: list[float] = []
            warm_up = 3
            for n in range(lines + warm_up):
                heard = len(stamps.read_text().split())
                table.submit_words("card +0" if n % 2 else "card +1")
                if not speaker.wait_idle(LINE_TIMEOUT):
                    raise RuntimeError("a line did not end")
                said = stamps.read_text().split()
                if len(said) != heard + 1:
                    raise RuntimeError(f"the player heard {len(said) - heard} lines, not 1 "
                                       f"({speaker.fault})")
                if n >= warm_up:
                    out.append(int(said[-1]) / 1e9 - committed[-1])
            return out
        finally:
            daemon.stop()


def ok_presses(presses: int, caller: bool) -> list[float]:
    """bench_latency's OK presses (seconds), with the caller off or on."""
    voice = Voice(enabled=caller, device="null")

    def config(**kwargs: Any) -> Config:
        return Config(voice=voice, **kwargs)

    made = bench_latency.Config
    bench_latency.Config = config  # type: ignore[misc,assignment]
    try:
        return bench_latency.run(presses).ok
    finally:
        bench_latency.Config = made  # type: ignore[misc]


def percentiles(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {"p50": statistics.median(ms),
            "p99": statistics.quantiles(ms, n=100, method="inclusive")[98],
            "max": ms[-1], "n": len(ms)}


def measure(lines: int, presses: int) -> dict[str, Any]:
    out: dict[str, Any] = {"first_sample": percentiles(first_samples(lines))}
    if presses:
        # Off, on, off, on: each side's median of two runs, so that the
        # machine's drift between runs falls on both.
        runs = {"off": [], "on": []}  # type: dict[str, list[float]]
        for caller in (False, True, False, True):
            runs["on" if caller else "off"] += ok_presses(presses, caller)
        out["ok_off"] = percentiles(runs["off"])
        out["ok_on"] = percentiles(runs["on"])
    return out


def inside_quota(percent: int, lines: int) -> dict[str, Any]:
    """This script's first-sample measure run in a control group of
    ``percent`` % of one core (espeak-ng and the player in it too)."""
    with cpu_quota(percent) as (how, enter):
        done = subprocess.run([sys.executable, __file__, "--lines", str(lines), "--presses",
                               "0", "--json"], preexec_fn=enter, capture_output=True,
                              text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"the run at {percent} % failed:\n{done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout)
    figures["how"] = how
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=60)
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--quota", type=int, default=0,
                        help="also measure the first sample at this %% of one core (root)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed (apt-get install espeak-ng alsa-utils)",
              file=sys.stderr)
        return 1
    figures = measure(args.lines, args.presses)
    if args.quota:
        try:
            figures["quota"] = {"percent": args.quota, **inside_quota(args.quota, args.lines)}
        except NoQuota as exc:
            figures["quota"] = {"percent": args.quota, "error": str(exc)}
    if args.json:
        print(json.dumps(figures))
        return 0
    first = figures["first_sample"]
    print(f"commit to the first audio sample (espeak-ng, {first['n']} lines, Python "
          f"{sys.version.split()[0]}): p50 {first['p50']:.1f} ms, p99 {first['p99']:.1f} ms, "
          f"max {first['max']:.1f} ms")
    quota = figures.get("quota")
    if quota and "error" in quota:
        print(f"at {quota['percent']} % of a core: not measured ({quota['error']})")
    elif quota:
        at = quota["first_sample"]
        print(f"at {quota['percent']} % of a core ({quota['how']}): p50 {at['p50']:.1f} ms, "
              f"p99 {at['p99']:.1f} ms, max {at['max']:.1f} ms")
    if "ok_off" in figures:
        off, on = figures["ok_off"], figures["ok_on"]
        worse = on["p50"] - off["p50"]
        print(f"OK playing a card, press to frame ({off['n']} presses each): caller off p50 "
              f"{off['p50']:.2f} ms, p99 {off['p99']:.2f} ms; caller on p50 {on['p50']:.2f} ms, "
              f"p99 {on['p99']:.2f} ms ({worse:+.2f} ms at p50; target within "
              f"{OK_TARGET_MS:.0f} ms: {'met' if worse <= OK_TARGET_MS else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
