"""What the Wi-Fi part costs: the ``nmcli`` runs of each periodic look.

    .venv/bin/python benchmarks/bench_network.py [--looks 5]

Drives the network part through the tests' stand-in ``nmcli``
(tests/nmcli_stand_in.py, put first on PATH) and prints, for each thing the
Wi-Fi may be doing, how many times ``nmcli`` runs per look and how often the
part looks, so the cost per hour follows: on a Pi Zero 2 W one ``nmcli``
run costs some tens of milliseconds of CPU.  The time per look printed is
this machine's, with the stand-in (a Python start per run), not a Pi's.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.host.config import Config, Network  # noqa: E402
from companion.parts import network as part_module  # noqa: E402
from companion.parts.lifecycle import Setup  # noqa: E402
from companion.parts.network import NetworkPart  # noqa: E402
from drivers.network import Nmcli  # noqa: E402

HOME = {"ssid": "Home", "signal": 80, "security": "WPA2", "password": "at-home-2024"}
CAFE = {"ssid": "Cafe", "signal": 64, "security": "WPA2", "password": "croissant"}


def world(folder: Path, connected: bool) -> None:
    home = {"name": "Home", "uuid": "00000000-aaaa-4bbb-8ccc-dddddddddddd", "ssid": "Home",
            "mode": "infrastructure", "secure": True, "psk": HOME["password"], "settings": {}}
    state = {"running": True, "address": "192.168.1.23" if connected else "",
             "active": home["uuid"] if connected else None, "connectivity": "full",
             "device": {"name": "wlan0", "state": "connected" if connected else "disconnected",
                        "connection": "Home" if connected else ""},
             "in_reach": [HOME, CAFE] if connected else [CAFE], "connections": [home]}
    (folder / "world.json").write_text(json.dumps(state))


def calls(folder: Path) -> int:
    return len((folder / "calls.jsonl").read_text().splitlines())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--looks", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        program = folder / "bin" / "nmcli"
        program.parent.mkdir()
        program.write_text(f"#!/bin/sh\nexec {sys.executable} "
                           f"{ROOT / 'tests' / 'nmcli_stand_in.py'} \"$@\"\n")
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
        os.environ["PATH"] = f"{program.parent}{os.pathsep}{os.environ['PATH']}"
        os.environ["NMCLI_WORLD"] = str(folder / "world.json")
        os.environ["NMCLI_CALLS"] = str(folder / "calls.jsonl")
        print(f"Wi-Fi part through a stand-in nmcli, {args.looks} looks each")
        for label, connected, settings, every in (
                ("on a known network", True, Network(), part_module.CONNECTED_CHECK),
                ("its own hotspot", False, Network(wait=0), part_module.HOTSPOT_CHECK)):
            world(folder, connected)
            (folder / "calls.jsonl").write_text("")
            setup = Setup(config=Config(network=settings), directory=folder / "data")
            part = NetworkPart(setup, manager=Nmcli(), machine_id=folder / "no-machine-id")
            part.start()
            part.settled(60)  # its first look is its thread's
            before = calls(folder)
            started = time.perf_counter()
            for _ in range(args.looks):
                part.check_now()
                part.settled(60)
            spent = (time.perf_counter() - started) / args.looks
            per_look = (calls(folder) - before) / args.looks
            part.stop()
            print(f"{label}: {per_look:.1f} nmcli runs per look, a look every {every:.0f} s "
                  f"({per_look * 3600 / every:.0f} runs an hour); {spent * 1000:.0f} ms a look "
                  "here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
