"""Power cuts and crashes: whatever was acknowledged is in the journal."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from companion.core.journal import Journal
from companion.core.table import Table

PLAYER = textwrap.dedent(
    """
    import sys
    from companion.core.engine import Command
    from companion.core.journal import Journal
    from companion.core.table import Table

    table = Table(Journal.open(sys.argv[1]))
    if not table.has_game:
        table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    step = 0
    while True:
        step += 1
        if step % 7 == 0:
            update = table.undo()
        else:
            value = 1 if table.game.view()["pressure"] == 0 else -1
            update = table.submit(Command("card", {"value": value}))
        print(update.version, update.action, update.state["pressure"], flush=True)
    """
)


def play_until_killed(db, acks_wanted: int) -> list[tuple[int, str, int]]:
    child = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(db)],
        stdout=subprocess.PIPE, text=True, cwd=os.getcwd(),
    )
    acks = []

    def read(line: str) -> None:
        version, action, pressure = line.split()
        acks.append((int(version), action, int(pressure)))

    try:
        for line in child.stdout:
            read(line)
            if len(acks) >= acks_wanted:
                child.send_signal(signal.SIGKILL)
                break
    finally:
        child.kill()
        child.wait(timeout=30)
        # The player runs ahead of this reader: what it printed before it
        # died was acknowledged too (each line is one write, whole or absent).
        for line in child.stdout:
            read(line)
        child.stdout.close()
    return acks


@pytest.mark.slow
def test_sigkill_mid_game_loses_no_acknowledged_command(tmp_path):
    db = tmp_path / "table.db"
    rng = random.Random(20261129)
    acknowledged: list[tuple[int, str, int]] = []
    for _ in range(3):
        acks = play_until_killed(db, rng.randint(5, 120))
        assert acks, "the player process acknowledged nothing"
        acknowledged.extend(acks)
        table = Table(Journal.open(db))
        try:
            history = {h.version: h for h in table.history()}
            for version, action, _pressure in acks:
                assert version in history, f"acknowledged version {version} was lost"
                assert history[version].action == action
            last_version, _, last_pressure = acks[-1]
            # Killed after the last acknowledgement, maybe mid-way through the
            # next command: the table is at the last ack or one further.
            assert table.version in (last_version, last_version + 1)
            if table.version == last_version:
                assert table.game.view()["pressure"] == last_pressure
        finally:
            table.close()
    versions = [v for v, _, _ in acknowledged]
    assert versions == sorted(versions)
