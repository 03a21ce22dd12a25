"""The memory card full or failing, with the real companion on a real
file system: a small ext4 image on a loop device, filled during play, or
turned read-only by an ext4 error (``errors=remount-ro``, as Raspberry Pi
OS mounts its root).  A command that cannot be written is refused with
503 ``journal`` and a sentence the players understand; nothing acknowledged
is lost; reads and the live stream go on; play resumes once there is room;
and a companion started on a read-only card shows the game and stays up.

Mounting needs root: CI runs these tests as root, and a user with
passwordless sudo runs them too, mounting, checking and breaking the card
through ``sudo -n``; the card's root is then that user's, as the companion
runs as that user and keeps its journal there.  Where neither root nor
``sudo -n`` works, these tests say so and are skipped."""

from __future__ import annotations

import errno
import json
import os
import queue
import shutil
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.core.journal import Journal
from tests.test_daemon import Companion, Phone, joined, wait_for, write_config

pytestmark = pytest.mark.slow

FULL = "the memory card is full"
FAILING = "the memory card can no longer be written"


def said(fault: str) -> str:
    """A fault as the table says it, from its first letter (a capital)."""
    return fault[:1].lower() + fault[1:]


TOOLS = ("mkfs.ext4", "mount", "umount", "e2fsck", "findmnt", "tee")
SBIN = ("/usr/sbin", "/sbin")
# What mounts, checks and breaks the card: root itself, or sudo for a user
# who may use it without a password.
AS_ROOT: tuple[str, ...] = () if os.geteuid() == 0 else ("sudo", "-n")


def _tool(name: str) -> str | None:
    """Where ``name`` is: on the PATH, or in the sbin folders that a user's
    PATH leaves out (mkfs.ext4 and e2fsck are there)."""
    return shutil.which(name, path=os.pathsep.join((os.environ.get("PATH", os.defpath), *SBIN)))


def _run(*command: str, root: bool = False, check: bool = False,
         stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``command``, as root where ``root`` is set (through ``AS_ROOT``)."""
    return subprocess.run([*(AS_ROOT if root else ()), _tool(command[0]) or command[0],
                           *command[1:]],
                          input=stdin, capture_output=True, text=True, check=check)


def _cannot_mount() -> str | None:
    if AS_ROOT and (_tool("sudo") is None or _run("sudo", "-n", "true").returncode):
        return ("mounting a loop device needs root: this user is not root, and 'sudo -n true' "
                "fails (CI runs these tests as root)")
    for tool in TOOLS:
        if _tool(tool) is None:
            return f"{tool} is not installed (e2fsprogs, mount, util-linux, coreutils)"
    return None


class Card:
    """A small ext4 file system on a loop device, mounted as Raspberry Pi
    OS mounts its card (``errors=remount-ro``), its root this user's: the
    companion runs as the user the tests run as."""

    def __init__(self, folder: Path, megabytes: int = 16) -> None:
        self.image = folder / "card.img"
        self.mountpoint = folder / "card"
        self.mountpoint.mkdir()
        with open(self.image, "wb") as image:
            image.truncate(megabytes * 1024 * 1024)
        # No blocks kept for root: filled by this user or by root (as in CI),
        # the card has no block left for anyone, as a full card at the table.
        _run("mkfs.ext4", "-q", "-m", "0", "-E", f"root_owner={os.getuid()}:{os.getgid()}",
             str(self.image), check=True)
        self.mount()

    def mount(self, *options: str) -> None:
        found = _run("mount", "-o", ",".join(("loop", "errors=remount-ro", *options)),
                     str(self.image), str(self.mountpoint), root=True)
        if found.returncode:
            pytest.skip(f"this machine cannot mount a loop device: {found.stderr.strip()}")

    def _shown(self, column: str) -> str:
        return _run("findmnt", "-n", "-o", column, str(self.mountpoint),
                    check=True).stdout.strip()

    @property
    def device(self) -> str:
        return self._shown("SOURCE")

    def options(self) -> set[str]:
        return set(self._shown("OPTIONS").split(","))

    def fail(self) -> None:
        """A real ext4 error (the kernel's own test hook): the file system
        aborts its journal and remounts itself read-only."""
        name = os.path.basename(self.device)
        _run("tee", f"/sys/fs/ext4/{name}/trigger_fs_error", root=True, check=True,
             stdin="the card failed\n")
        # Newer kernels say "emergency_ro" and keep "rw" in the options.
        assert self.options() & {"ro", "emergency_ro"}
        # This user meets it as the companion does: refused as read-only,
        # not for want of permission.
        with pytest.raises(OSError) as refused:
            (self.mountpoint / "written-after-the-error").touch()
        assert refused.value.errno == errno.EROFS

    def fill(self) -> Path:
        """Fill every free block, durably: the last write is refused for
        want of room, not of permission."""
        filler = self.mountpoint / "filler"
        chunk = b"\0" * 65536
        with open(filler, "wb", buffering=0) as out:
            with pytest.raises(OSError) as full:
                while True:
                    out.write(chunk)
            assert full.value.errno == errno.ENOSPC
            try:
                os.fsync(out.fileno())
            except OSError:
                pass
        return filler

    def repair(self) -> None:
        """Unmount, check (e2fsck repairs what the error left), mount again."""
        self.unmount()
        _run("e2fsck", "-fy", str(self.image), root=True)
        self.mount()

    def unmount(self) -> None:
        if _run("umount", str(self.mountpoint), root=True).returncode:
            # Still busy (a process just killed): detached once it lets go,
            # so no loop device is left behind.
            _run("umount", "-l", str(self.mountpoint), root=True)

    def close(self) -> None:
        self.unmount()
        assert _run("findmnt", str(self.mountpoint)).returncode, "the card is still mounted"


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Card]:
    why = _cannot_mount()
    if why:
        pytest.skip(why)
    made = Card(tmp_path)
    yield made
    made.close()


class Stream:
    """A phone's live stream, read on a thread: its events in a queue."""

    def __init__(self, phone: Phone) -> None:
        self.events: queue.Queue = queue.Queue()
        self.answer = phone.opener.open(phone.base + "/api/events", timeout=60)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind = None
        try:
            for raw in self.answer:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    self.events.put((kind, json.loads(line[6:])))
        except (OSError, ValueError):
            pass

    def until(self, check, timeout: float = 40.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                kind, data = self.events.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if check(kind, data):
                return data
        raise AssertionError("the live stream did not bring it")


def refused(phone: Phone, path: str, body: dict) -> tuple[int, dict]:
    try:
        phone.post(path, body)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
    return 200, {}


def play_until_refused(phone: Phone, acknowledged: list[int], most: int = 5000) -> dict:
    """Play until the table refuses; ``acknowledged`` gets every version
    the table answered."""
    for _ in range(most):
        state = phone.get("/api/state")
        value = 1 if state["state"]["pressure"] <= 0 else -1
        status, body = refused(phone, "/api/command", {
            "command": {"name": "card", "args": {"value": value}},
            "game_id": state["game_id"], "version": state["version"]})
        if status != 200:
            return {"status": status, **body}
        acknowledged.append(state["version"] + 1)
    raise AssertionError("the card never filled")


def play_one(phone: Phone) -> int:
    state = phone.get("/api/state")
    value = 1 if state["state"]["pressure"] <= 0 else -1
    return phone.play("card", state["version"], value=value)["version"]


def faults(phone: Phone) -> list[str]:
    return phone.get("/api/session")["companion"]["faults"]


def kept_versions(database: Path, game_id: int) -> list[int]:
    journal = Journal.open_read_only(database)
    try:
        return [entry.version for entry in journal.entries(game_id)]
    finally:
        journal.close()


def integrity(database: Path) -> str:
    db = sqlite3.connect(database)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


def test_a_card_filled_during_play_refuses_with_a_sentence_and_play_resumes_once_freed(
        tmp_path, card):
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace(
        str(tmp_path / "data"), str(card.mountpoint / "data")))
    companion = Companion(config, "--simulate")
    try:
        phone = joined(companion)
        phone.new_game()
        stream = Stream(phone)
        acknowledged: list[int] = []
        for _ in range(5):
            acknowledged.append(play_one(phone))
        filler = card.fill()
        answer = play_until_refused(phone, acknowledged)
        assert (answer["status"], answer["error"]) == (503, "journal")
        assert answer["message"].startswith(FULL)
        assert "the game so far is safe" in answer["message"]
        # Reads go on, at the version last acknowledged.
        state = phone.get("/api/state")
        assert state["version"] == acknowledged[-1]
        assert len(phone.get("/api/history")["entries"]) == len(acknowledged)
        # The phones and the table screen are told (the screen shows the faults).
        assert any(said(f).startswith(FULL) for f in faults(phone))
        stream.until(lambda kind, data: kind == "companion"
                     and any(said(f).startswith(FULL) for f in data["faults"]))
        # Room again: play resumes, without a restart.
        filler.unlink()
        os.sync()
        acknowledged.append(play_one(phone))
        stream.until(lambda kind, data: kind == "update"
                     and data["version"] == acknowledged[-1])
        assert wait_for(lambda: not faults(phone))
        assert companion.terminate() == 0
    finally:
        companion.kill()
    database = card.mountpoint / "data" / "companion.db"
    assert kept_versions(database, phone.game_id) == acknowledged
    assert integrity(database) == "ok"
    assert "Traceback" not in companion.log()


def test_a_card_that_fails_during_play_keeps_what_was_acknowledged_and_a_restart_shows_it(
        tmp_path, card):
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace(
        str(tmp_path / "data"), str(card.mountpoint / "data")))
    companion = Companion(config, "--simulate")
    try:
        phone = joined(companion)
        phone.new_game()
        acknowledged = [play_one(phone) for _ in range(6)]
        card.fail()
        status, body = refused(phone, "/api/command", {
            "command": {"name": "card", "args": {"value": 1}},
            "game_id": phone.game_id, "version": acknowledged[-1]})
        assert (status, body["error"]) == (503, "journal")
        assert body["message"].startswith(FAILING)
        assert phone.get("/api/state")["version"] == acknowledged[-1]
        # Stopped on the failed card, it stops cleanly.
        assert companion.terminate() == 0
    finally:
        companion.kill()

    # Started again on the card still read-only: it starts, shows the game
    # so far, says why nothing can be played, and stays up (no crash loop).
    again = Companion(config, "--simulate")
    try:
        watcher = Phone(again.url)
        assert watcher.get("/api/state")["version"] == acknowledged[-1]
        player = joined(again)
        status, body = refused(player, "/api/command", {
            "command": {"name": "card", "args": {"value": 1}},
            "game_id": watcher.game_id, "version": acknowledged[-1]})
        assert (status, body["error"]) == (503, "journal")
        assert body["message"].startswith(FAILING)
        assert any(said(f).startswith(FAILING) for f in faults(player))
        time.sleep(2)
        assert again.process.poll() is None
        assert again.terminate() == 0
    finally:
        again.kill()
    assert "read-only" in again.log()

    # The card checked and mounted again: nothing acknowledged was lost.
    card.repair()
    database = card.mountpoint / "data" / "companion.db"
    assert kept_versions(database, phone.game_id) == acknowledged
    assert integrity(database) == "ok"


def test_a_companion_stopped_cleanly_starts_on_the_card_turned_read_only_since(
        tmp_path, card):
    # Stopped cleanly, the journal has no write-ahead log left: SQLite cannot
    # make its shared-memory file on a read-only card, and reads it as it is.
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace(
        str(tmp_path / "data"), str(card.mountpoint / "data")))
    companion = Companion(config, "--simulate")
    try:
        phone = joined(companion)
        phone.new_game()
        acknowledged = [play_one(phone) for _ in range(3)]
        assert companion.terminate() == 0
    finally:
        companion.kill()
    card.fail()
    again = Companion(config, "--simulate")
    try:
        watcher = Phone(again.url)
        assert watcher.get("/api/state")["version"] == acknowledged[-1]
        assert len(watcher.get("/api/history")["entries"]) == 3
        assert any(said(f).startswith(FAILING) for f in faults(watcher))
        assert again.process.poll() is None
        assert again.terminate() == 0
    finally:
        again.kill()


def test_the_doctor_says_to_back_up_the_journal_from_a_read_only_card(tmp_path, card):
    from companion.commands.doctor import FAIL, check_data_dir

    data = card.mountpoint / "data"
    data.mkdir()
    (data / "companion.db").write_bytes(b"")
    card.fail()
    found = check_data_dir(data)
    assert found.level == FAIL and "read-only" in found.what
    # Root's shell finds the journal, and its write-ahead log if a stop left one.
    assert f'sudo sh -c "cp --preserve=timestamps {data}/companion.db* ' in found.fix
    assert "replace the card" in found.fix
