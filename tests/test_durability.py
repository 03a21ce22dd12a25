"""Power cuts and crashes: whatever was acknowledged is kept (the journal,
and everything else the companion keeps, on a disk that loses what was not
synced)."""

from __future__ import annotations

import errno
import json
import os
import queue
import random
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from companion.core.journal import Journal
from companion.core.table import Table

ROOT = Path(__file__).resolve().parent.parent
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


# -- a power cut: the whole companion on a disk that loses what was not synced --------------
#
# The real daemon (``companion serve --simulate``) keeps its data on a FUSE
# mount (tests/lazyfs.py) that holds every write until its file is synced,
# and every create, rename and delete until its directory is.  At moments
# drawn from a seeded generator, each right after an acknowledged answer,
# the daemon is killed and the disk cut to what was synced; the companion
# must start again with everything it acknowledged.

# Dice that a look "hears" in the daemon's simulation (no Bluetooth here):
# they can be paired and given roles but never connect.
PIXELS = ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02", "C0:FF:EE:00:00:03"]

DAEMON = textwrap.dedent(
    """
    import asyncio, json, os, sys

    from companion.parts import hardware

    DICE = json.loads(sys.argv[2])

    async def scanner(seconds, seen):
        for n, address in enumerate(DICE):
            seen(address, f"Die {n + 1}", 90)

    class Client:
        async def connect(self):
            await asyncio.Event().wait()  # never in reach

    original = hardware.PixelsPart.__init__

    def pixels_part(self, setup, *, factory=None, scanner=scanner):
        original(self, setup, factory=lambda address, dropped: Client(), scanner=scanner)

    hardware.PixelsPart.__init__ = pixels_part

    # The control runs: one write put back as it was before it was made durable.
    fault = os.environ.get("COMPANION_DURABILITY_FAULT", "")
    if fault == "colours":  # written and renamed, never synced
        from pathlib import Path
        import companion.parts.web

        def keep_file(path, text, **_):
            temporary = Path(path).with_name(Path(path).name + ".tmp")
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, path)

        companion.parts.web.keep_file = keep_file
    elif fault == "hotspot":  # synced and renamed, its folder never synced
        import companion.parts.network

        def write_private(path, text):
            temporary = path.with_name(path.name + ".new")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)

        companion.parts.network._write_private = write_private
    elif fault == "access":  # SQLite's rollback journal at synchronous=FULL
        import companion.core.access

        companion.core.access.JOURNAL_MODE = "DELETE"

    from companion.commands.cli import main

    sys.exit(main(["serve", "--simulate", "--config", sys.argv[1]]))
    """
)


def _fuse_missing() -> str | None:
    """Why no FUSE file system can be mounted here, or None."""
    import shutil

    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse on this machine"
    if shutil.which("fusermount3") is None:
        return "no fusermount3 (Debian's fuse3)"
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:
        return f"mfusepy cannot load libfuse3 ({exc})"
    return None


class LazyDisk:
    """tests/lazyfs.py on ``mountpoint``, its image in ``image``."""

    def __init__(self, mountpoint, image, *, links: bool = True) -> None:
        self.mountpoint = mountpoint
        self.log = Path(str(image) + ".log")
        env = {**os.environ, "LAZYFS_NO_LINKS": "0" if links else "1"}
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.lazyfs", str(mountpoint), str(image)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT,
                env=env)
        self.said: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._expect("mounted")

    def _read(self) -> None:
        for line in self.process.stdout:
            self.said.put(line.strip())
        self.said.put("")

    def _expect(self, word: str) -> None:
        try:
            line = self.said.get(timeout=60)
        except queue.Empty:
            line = "(nothing)"
        if line != word:
            self.close()
            raise OSError(f"the lazy disk did not say {word!r} ({line!r}): "
                          f"{self.log.read_text()[-2000:]}")

    def cut(self) -> None:
        """Keep what was synced, and mount that again."""
        self.process.stdin.write("cut\n")
        self.process.stdin.flush()
        self._expect("cut")
        self._expect("mounted")

    def close(self) -> None:
        from tests.lazyfs import unmount

        if self.process.poll() is None:
            try:
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                unmount(self.mountpoint)
                self.process.kill()
                self.process.wait(10)
        unmount(self.mountpoint)


@pytest.fixture
def lazy_disk(tmp_path):
    reason = _fuse_missing()
    if reason:
        pytest.skip(reason)
    mountpoint = tmp_path / "disk"
    mountpoint.mkdir()
    try:
        disk = LazyDisk(mountpoint, tmp_path / "disk.image")
    except OSError as exc:
        pytest.skip(f"cannot mount a FUSE file system here: {exc}")
    yield disk
    disk.close()


class Daemon:
    """``companion serve --simulate`` (through DAEMON) with its data on the
    lazy disk; its greeting gives the port and the PIN."""

    def __init__(self, config, fault: str = "") -> None:
        from tests.test_daemon import Companion

        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_DURABILITY_FAULT": fault}
        self.process = subprocess.Popen(
            [sys.executable, "-c", DAEMON, str(config), json.dumps(PIXELS)], cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: list[str] = []
        self.port = self.pin = None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            if match := Companion.GREETING.match(self.lines[-1]):
                self.port = int(match[1])
            elif match := Companion.JOIN.match(self.lines[-1]):
                self.pin = match[2]
                break
        if self.pin is None:
            self.kill()
            raise AssertionError("the companion did not start after the cut:\n"
                                 + "\n".join(self.lines))
        # The log is not read any more: it goes where it cannot fill a pipe.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(30)


def controller(daemon: Daemon):
    from tests.test_daemon import Phone

    phone = Phone(daemon.url)
    phone.join(daemon.pin)
    return phone


def kept(phone, data) -> dict:
    """What the companion keeps, as its panel and its data directory show it."""
    state = phone.get("/api/state")
    pixels = phone.get("/api/pixels")
    return {
        "state": {key: state.get(key) for key in ("game_id", "version", "players", "state",
                                                   "can_undo", "can_redo", "over", "colours")},
        # Each entry's time as the journal keeps it may differ by a few ms
        # from the one the table answered with.
        "history": [{k: v for k, v in entry.items() if k != "at"}
                    for entry in phone.get("/api/history")["entries"]],
        "profiles": phone.get("/api/profiles"),
        "settings": phone.get("/api/settings"),
        "saved": phone.get("/api/saved-options"),
        "pixels": sorted((d["address"], d["role"]) for d in pixels["dice"]),
        "hotspot": json.loads((data / "hotspot.json").read_text())["passphrase"],
    }


class Player:
    """Acknowledged changes of every kind, drawn from ``rng``."""

    KINDS = ("command", "command", "command", "undo", "redo", "new-game", "settings", "box",
             "pixels", "sign-out")
    LANGUAGES = ("en", "fr", "it")
    COLOURS = ("#d62828", "#1d6fd6", "#2a9d3f", "#e89a00", "#8e44ad", "#00a3a3")
    NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Flo")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def change(self, phone, kind: str) -> str:
        """One change of ``kind`` (or another when it cannot be made), answered;
        the kind made."""
        state = phone.get("/api/state")
        made = {"game_id": state.get("game_id"), "version": state.get("version")}
        if state.get("game_id") is None or state.get("over"):
            kind = "new-game" if kind in ("command", "undo", "redo") else kind
        if kind == "redo" and not state["can_redo"] and state["can_undo"]:
            # Something to play again: take the last command back first.
            state = phone.post("/api/undo", made)
            made = {"game_id": state["game_id"], "version": state["version"]}
        if kind == "command":
            value = 1 if state["state"]["pressure"] == 0 else -1
            phone.post("/api/command", {"command": {"name": "card", "args": {"value": value}},
                                        **made})
        elif kind in ("undo", "redo") and state[f"can_{kind}"]:
            phone.post(f"/api/{kind}", made)
        elif kind == "new-game":
            names = self.rng.sample(self.NAMES, 3)
            players = [{"name": n, "colour": self.rng.choice(self.COLOURS)} for n in names]
            phone.game_id = phone.post("/api/new-game", {"game": "call-of-nature",
                                                         "players": players, **made})["game_id"]
        elif kind == "box":
            phone.post("/api/saved-options", {"game": "bathroom-rush", "name": "persona_deck",
                                              "value": self.rng.randint(40, 60)})
        elif kind == "pixels":
            self.pixels(phone)
        elif kind == "sign-out":
            phone.post("/api/sign-out")
        else:
            # (Not seat_only: the test's phone holds no seat.)
            phone.post("/api/settings", {"language": self.rng.choice(self.LANGUAGES)})
            kind = "settings"
        return kind

    def pixels(self, phone) -> None:
        paired = [d["address"] for d in phone.get("/api/pixels")["dice"]]
        role = self.rng.choice(["red", "blue", "d6", None])
        heard = [] if len(paired) == len(PIXELS) else look(phone)
        if paired and (not heard or self.rng.random() < 0.5):
            if self.rng.random() < 0.4:
                phone.post("/api/pixels/forget", {"address": self.rng.choice(paired)})
            else:
                phone.post("/api/pixels/role", {"address": self.rng.choice(paired),
                                                "role": role})
        else:
            phone.post("/api/pixels/pair", {"address": self.rng.choice(heard), "role": role})


def look(phone) -> list[str]:
    """The dice a look hears and are not paired (the simulation's scanner
    hears every one of PIXELS at once)."""
    import time

    phone.post("/api/pixels/look")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        dice = phone.get("/api/pixels")
        if not dice["looking"]:
            return [d["address"] for d in dice["in_reach"]]
        time.sleep(0.01)  # (pacing the questions only)
    raise AssertionError("the look for dice did not end")


def power_cuts(tmp_path, disk: LazyDisk, seed: int, cuts: int, fault: str = "",
               script: list[list[str]] | None = None) -> tuple[list[str], set[str]]:
    """Play, cut right after an answer, start again, ``cuts`` times (the
    changes of each drawn from ``seed``, or given by ``script``); what was
    acknowledged and is missing after a cut, one line each, and the kinds
    of change made."""
    data = disk.mountpoint / "data"
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{data}"\n[web]\nhost = "127.0.0.1"\nport = 0\n'
                      f'mdns = false\n')
    rng = random.Random(seed)
    player = Player(rng)
    lost: list[str] = []
    kinds: set[str] = set()
    daemon = Daemon(config, fault)
    try:
        phone = controller(daemon)
        for cut in range(cuts):
            wanted = script[cut] if script else [rng.choice(Player.KINDS)
                                                 for _ in range(rng.randint(0, 4))]
            # A sign-out ends the changes: the new PIN is on the table's screen.
            signs_out = "sign-out" in wanted
            wanted = wanted[:wanted.index("sign-out")] if signs_out else wanted
            made = [player.change(phone, kind) for kind in wanted]
            before = kept(phone, data)
            if signs_out:
                made.append(player.change(phone, "sign-out"))
            kinds.update(made)
            pin = daemon.pin
            daemon.kill()
            disk.cut()
            daemon = Daemon(config, fault)
            again = controller(daemon)
            after = kept(again, data)
            lost += [f"cut {cut} after {made}: {key} was {before[key]!r:.300}, "
                     f"is {after[key]!r:.300}" for key in before if before[key] != after[key]]
            phone.base = daemon.url  # the same phone (its cookie) on the new port
            role = phone.get("/api/session")["role"]
            if signs_out and (role != "spectator" or daemon.pin == pin):
                lost.append(f"cut {cut} after {made}: the sign-out was undone (a phone signed "
                            f"out is a {role}; PIN {pin}, then {daemon.pin})")
            elif not signs_out and role != "controller":
                lost.append(f"cut {cut} after {made}: a joined phone is a {role}")
            phone = again
    finally:
        daemon.kill()
    return lost, kinds


@pytest.mark.slow
def test_nothing_acknowledged_is_lost_in_power_cuts(tmp_path, lazy_disk):
    lost, kinds = power_cuts(tmp_path, lazy_disk, seed=20261201, cuts=32)
    assert lost == []
    assert kinds == set(Player.KINDS) | {"settings"}, "a kind of change was never made"


@pytest.mark.slow
@pytest.mark.parametrize(("fault", "script"), [
    ("colours", [["new-game"]]),
    ("hotspot", [[]]),
    ("access", [["sign-out"]]),
])
def test_the_power_cuts_find_a_write_that_is_not_synced(tmp_path, lazy_disk, fault, script):
    """The control: each of three writes put back as it was before (the
    colours never synced, the hotspot's folder never synced, the panel's
    keys in SQLite's rollback journal), a cut right after it loses it."""
    lost, _ = power_cuts(tmp_path, lazy_disk, seed=1, cuts=1, fault=fault, script=script)
    assert lost, f"a cut after a change whose {fault} write is not synced lost nothing"


# -- the one way a file is kept ------------------------------------------------------------


def test_keep_file_syncs_the_file_then_renames_it_then_syncs_its_folder(tmp_path, monkeypatch):
    from companion.host import storage

    done: list[tuple[str, str]] = []
    real_sync = storage._sync_file

    def sync(fd: int) -> None:
        target = os.readlink(f"/proc/self/fd/{fd}")
        done.append(("sync", "folder" if os.path.isdir(target) else Path(target).suffix))
        real_sync(fd)

    real_replace = os.replace

    def replace(source, target) -> None:
        done.append(("rename", Path(target).name))
        real_replace(source, target)

    monkeypatch.setattr(storage, "_sync_file", sync)
    monkeypatch.setattr(storage.os, "replace", replace)
    path = tmp_path / "made" / "colours.json"
    storage.keep_file(path, '{"1": ["#d62828"]}')
    # The new folder is synced into its parent first; then the file's turn.
    assert done == [("sync", "folder"), ("sync", ".new"), ("rename", "colours.json"),
                    ("sync", "folder")]
    assert path.read_text() == '{"1": ["#d62828"]}'
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert os.listdir(path.parent) == ["colours.json"]


def test_keep_file_exclusive_leaves_what_is_there(tmp_path):
    from companion.host.storage import keep_file

    path = tmp_path / "panel-secret"
    keep_file(path, "first\n", exclusive=True)
    with pytest.raises(FileExistsError):
        keep_file(path, "second\n", exclusive=True)
    assert path.read_text() == "first\n"
    assert os.listdir(tmp_path) == ["panel-secret"]


def test_keep_file_exclusive_works_where_the_file_system_has_no_hard_links(tmp_path,
                                                                            monkeypatch):
    from companion.host.storage import keep_file

    def no_links(source, target):  # as FAT and exFAT answer (a USB stick)
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "panel-secret"
    keep_file(path, "first\n", exclusive=True)
    with pytest.raises(FileExistsError):
        keep_file(path, "second\n", exclusive=True)
    assert path.read_text() == "first\n"
    assert os.listdir(tmp_path) == ["panel-secret"]


@pytest.mark.slow
def test_the_companion_plays_with_its_data_on_a_file_system_without_hard_links(tmp_path):
    """The real companion with its data directory on a FUSE file system that
    refuses hard links as FAT does: its panel starts, a phone plays, and no
    part raises for want of another."""
    from tests.test_daemon import Companion, joined, write_config

    reason = _fuse_missing()
    if reason:
        pytest.skip(reason)
    mountpoint = tmp_path / "stick"
    mountpoint.mkdir()
    try:
        disk = LazyDisk(mountpoint, tmp_path / "stick.image", links=False)
    except OSError as exc:
        pytest.skip(f"cannot mount a FUSE file system here: {exc}")
    try:
        with pytest.raises(PermissionError):
            _link_on(mountpoint)
        config = write_config(tmp_path)
        config.write_text(config.read_text().replace(str(tmp_path / "data"),
                                                     str(mountpoint / "data")))
        companion = Companion(config, "--simulate")
        try:
            phone = joined(companion)
            phone.new_game()
            assert phone.play("card", 0, value=5)["version"] == 1
            assert companion.terminate() == 0
        finally:
            companion.kill()
        assert "Traceback" not in companion.log()
    finally:
        disk.close()


def _link_on(folder: Path) -> None:
    (folder / "probe").write_text("")
    try:
        os.link(folder / "probe", folder / "probe-link")
    finally:
        (folder / "probe").unlink()


def test_the_panels_keys_are_kept_in_wal_mode_with_full_syncs(tmp_path):
    """A sign-out is the WAL synced: SQLite's rollback journal, at FULL,
    deletes its file at a commit without syncing the folder (a power cut
    brings it back and rolls the sign-out back)."""
    import sqlite3

    from companion.core.access import AccessStore

    store = AccessStore(tmp_path / "panel-access.db")
    try:
        store.sign_out()
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    finally:
        store.close()
    db = sqlite3.connect(tmp_path / "panel-access.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
