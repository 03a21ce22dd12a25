# ruff: noqa: F811  (the browser fixture comes from tests.test_web_e2e)
"""The real companion (``companion serve --simulate``) while its wall clock
steps, as NTP steps a Raspberry Pi's once it finds the internet: +7 days,
then -1 day, in the middle of a game, with two phones joined and their
live streams open.  Nobody is signed out, commands go on, a game's length
stays right, a PIN lock-out lasts its minute, and the connections'
clean-up goes on.

The step: Debian's libfaketime (0.9.10) cannot step the wall clock alone
under Python 3.11 (with ``FAKETIME_DONT_FAKE_MONOTONIC=1`` every
``time.sleep`` fails with EINVAL, its upstream issue #426; without it the
monotonic clock steps too, and a thread's timed wait hangs), and
upstream's fixed release is not packaged.  So the companion runs through
:data:`LAUNCHER`: Python's wall clock (``time.time``, which every part of
the companion reads) is the real one plus an offset read from a file the
test writes, and then the real ``companion serve`` starts.  The monotonic
clock, the kernel's, is left alone, as NTP leaves it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.parse
from pathlib import Path

import pytest

from companion.core.journal import Journal
from tests.test_card import Stream, play_one
from tests.test_daemon import (
    PLAYERS,
    ROOT,
    Companion,
    Phone,
    joined,
    wait_for,
    write_config,
)
from tests.test_web_e2e import browser  # noqa: F401

pytestmark = pytest.mark.slow

DAY = 86400.0

LAUNCHER = textwrap.dedent(
    """
    import os, sys, time

    real_time, offset_file = time.time, sys.argv[1]
    seen = [None, 0.0]

    def stepped_time():
        # The offset is read again whenever the test rewrites the file.
        try:
            stamp = os.stat(offset_file).st_mtime_ns
            if stamp != seen[0]:
                seen[:] = [stamp, float(open(offset_file).read() or 0)]
        except (OSError, ValueError):
            pass
        return real_time() + seen[1]

    time.time = stepped_time
    from companion.commands.cli import main

    sys.exit(main(["serve", "--simulate", "--config", sys.argv[2]]))
    """
)


class SteppedCompanion(Companion):
    """The companion, its wall clock offset by what ``step`` says."""

    def __init__(self, config: Path, offset_file: Path, env: dict | None = None,
                 offset: float = 0.0) -> None:
        self.offset_file = offset_file
        self.offset = 0.0
        self.step(offset)
        self.lines = []
        self.port = self.pin = None
        self._ready = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(offset_file), str(config)], cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(30) or self.port is None or self.pin is None:
            self.kill()
            raise AssertionError("the companion did not greet:\n" + "\n".join(self.lines))

    def step(self, seconds: float) -> None:
        self.offset += seconds
        temporary = self.offset_file.with_suffix(".new")
        temporary.write_text(repr(self.offset))
        os.replace(temporary, self.offset_file)


@pytest.fixture
def stepped(tmp_path):
    running = SteppedCompanion(write_config(tmp_path), tmp_path / "offset")
    yield running
    running.kill()


def role(phone: Phone) -> str:
    return phone.get("/api/session")["role"]


def wrong_pin(phone: Phone, pin: str) -> tuple[int, dict]:
    wrong = "000000" if pin != "000000" else "111111"
    try:
        phone.post("/api/join", {"pin": wrong})
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)
    return 200, {}


def game_times(phone: Phone, game_id: int) -> tuple[float, float]:
    found = next(g for g in phone.get("/api/past-games") if g["id"] == game_id)
    return found["started"], found["ended"]


def hold_connections(count: int) -> list[socket.socket]:
    """Connections from 127.0.0.2 that start a request and never end it."""
    held = []
    for _ in range(count):
        conn = socket.socket()
        conn.bind(("127.0.0.2", 0))
        held.append(conn)
    return held


def served_from_another_address(port: int) -> bool:
    conn = socket.create_connection(("127.0.0.1", port), timeout=5,
                                    source_address=("127.0.0.2", 0))
    try:
        conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return conn.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False
    finally:
        conn.close()


def finished(phone: Phone) -> None:
    """The game ends: its last player explodes (no End of Game roll)."""
    state = phone.get("/api/state")
    phone.play("adjust-mastery", state["version"], player=PLAYERS[-1], delta=-7)
    assert phone.get("/api/state")["over"]


def new_game(phone: Phone) -> None:
    """A game of Call of Nature that a loser's explosion ends."""
    shown = phone.get("/api/state")
    phone.game_id = phone.post("/api/new-game", {
        "game": "call-of-nature", "players": PLAYERS, "variants": ["no-end-roll"],
        "game_id": shown["game_id"], "version": shown["version"]})["game_id"]


def bgstats_minutes(phone: Phone, game_id: int) -> int:
    """The game's length as BG Stats gets it, in its play and its link."""
    answer = phone.get(f"/api/bgstats?game={game_id}")
    link = urllib.parse.unquote(answer["link"].split("?data=", 1)[1])
    assert json.loads(link) == answer["play"]
    return answer["play"]["durationMin"]


def test_clock_steps_mid_game_sign_nobody_out_and_lengths_stay_right(stepped):
    first, second = joined(stepped), joined(stepped)
    new_game(first)
    began = time.monotonic()
    second.game_id = first.game_id
    streams = [Stream(first), Stream(second)]
    for _ in range(3):
        play_one(first)
    opening = first.game_id

    stepped.step(7 * DAY)
    for phone in (first, second):
        assert role(phone) == "controller"
    version = play_one(second)
    for stream in streams:
        stream.until(lambda kind, data, v=version: kind == "update" and data["version"] == v)
    # The game ends, and lasted seconds, not a week: for BG Stats too (its
    # shortest length is a minute).
    finished(first)
    real_minutes = (time.monotonic() - began) / 60
    started, ended = game_times(first, opening)
    assert 0 <= ended - started < 600
    assert 1 <= bgstats_minutes(first, opening) <= real_minutes + 1
    # A new game, left unfinished for the next: it lasted seconds too.
    new_game(first)
    second.game_id = first.game_id
    play_one(first)
    left = first.game_id
    new_game(first)
    began = time.monotonic()
    second.game_id = first.game_id
    started, ended = game_times(first, left)
    assert 0 <= ended - started < 600

    stepped.step(-8 * DAY)  # a day behind the real time
    for phone in (first, second):
        assert role(phone) == "controller"
    version = play_one(first)
    for stream in streams:
        stream.until(lambda kind, data, v=version: kind == "update" and data["version"] == v)
    second_game = first.game_id
    finished(second)
    real_minutes = (time.monotonic() - began) / 60
    new_game(first)
    started, ended = game_times(first, second_game)
    assert 0 <= ended - started < 600
    assert 1 <= bgstats_minutes(first, second_game) <= real_minutes + 1
    # Every game's length in the past games and BG Stats' plays: none
    # negative, none a week.
    assert all(0 <= g["ended"] - g["started"] < 600
               for g in first.get("/api/past-games") if g["ended"] is not None)
    plays = first.get("/api/plays.json")
    assert len(plays) == 2
    assert all(1 <= p["durationMin"] <= real_minutes + 1 for p in plays)
    assert "stepped" in stepped.log()


def test_a_lock_out_lasts_its_minute_and_the_clean_up_goes_on_after_a_step_back(stepped):
    guesser = Phone(stepped.url)
    answers = [wrong_pin(guesser, stepped.pin) for _ in range(6)]
    assert answers[-1][0] == 429
    stepped.step(-DAY)
    status, headers = wrong_pin(guesser, stepped.pin)
    assert status == 429
    assert 0 < int(headers["Retry-After"]) <= 60

    # Sixteen requests from one address that never finish arriving: the
    # address is refused until the server closes them (10 s), as before
    # the step.
    held = hold_connections(16)
    try:
        for conn in held:
            conn.connect(("127.0.0.1", stepped.port))
            conn.sendall(b"GET /api/health HTTP/1.1\r\n")
        assert not served_from_another_address(stepped.port)
        assert wait_for(lambda: served_from_another_address(stepped.port), timeout=40)
    finally:
        for conn in held:
            conn.close()
    assert json.loads(json.dumps(role(guesser))) == "spectator"


def test_the_session_cookie_lasts_by_max_age_whatever_the_clock_says(stepped):
    # Two years behind: the cookie's Expires date is long past for the phone;
    # Max-Age, counted from when the phone gets it, keeps it a game night.
    import urllib.request

    stepped.step(-730 * DAY)
    phone = Phone(stepped.url)
    request = urllib.request.Request(
        stepped.url + "/api/join", data=json.dumps({"pin": stepped.pin}).encode(),
        method="POST", headers={"Content-Type": "application/json",
                                "X-CSRF-Token": phone.csrf})
    with phone.opener.open(request, timeout=10) as answer:
        cookies = answer.headers.get_all("Set-Cookie")
    assert any(c.startswith("companion=") and "Max-Age=43200" in c for c in cookies)
    assert role(phone) == "controller"


# -- a place without internet: the date from a controller's phone ------------------------


def raw(phone: Phone, path: str) -> str:
    with phone.opener.open(phone.base + path, timeout=10) as answer:
        return answer.read().decode()


def near_now(when: float) -> bool:
    return abs(when - time.time()) < 3600


@pytest.mark.browser
def test_two_years_behind_and_unsynchronized_the_date_kept_is_the_controllers_phones(
        tmp_path, browser):
    from tests.test_web_e2e import expect, live, play_card

    # The Pi starts with its clock two years behind, and no internet.
    stepped = SteppedCompanion(write_config(tmp_path), tmp_path / "offset",
                               env={"COMPANION_CLOCK_SYNCED": "0"}, offset=-730 * DAY)
    try:
        table = joined(stepped)
        assert any(f.startswith("Date unknown") for f in
                   table.get("/api/session")["companion"]["faults"])
        shown = table.get("/api/state")
        table.post("/api/new-game", {"game": "call-of-nature", "players": ["Ana", "Ben"],
                                     "variants": ["no-end-roll"],
                                     "game_id": shown["game_id"], "version": shown["version"]})
        game_id = table.get("/api/state")["game_id"]
        table.game_id = game_id
        assert not near_now(table.get("/api/past-games")[-1]["started"])

        # A controller's Chromium (its clock is right) joins and plays a card.
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True)
        try:
            page = context.new_page()
            page.goto(f"{stepped.url}/?join={_token(stepped)}")
            live(page)
            expect(page.locator("#faults")).to_contain_text("Date unknown")
            play_card(page, 10)
            expect(page.locator("#faults")).to_be_hidden()
        finally:
            context.close()

        # The game ends (Ben explodes) and every export has today's date.
        state = table.get("/api/state")
        table.play("adjust-mastery", state["version"], player="Ben", delta=-7)
        assert table.get("/api/state")["over"]
        past = next(g for g in table.get("/api/past-games") if g["id"] == game_id)
        assert near_now(past["started"]) and near_now(past["ended"])
        today = time.strftime("%Y-%m-%d")
        play = table.get(f"/api/bgstats?game={game_id}")["play"]
        assert play["playDate"].startswith(today)
        assert 0 < play["durationMin"] < 60
        assert [p["playDate"][:10] for p in table.get("/api/plays.json")] == [today]
        assert today in raw(table, "/api/stats-data.csv")
        stats = table.get("/api/stats")
        players = stats["games"]["call-of-nature"]["players"]
        assert all(near_now(p["first_played"]) for p in players)
        assert not any(f.startswith("Date unknown") for f in
                       table.get("/api/session")["companion"]["faults"])
        assert stepped.terminate() == 0
    finally:
        stepped.kill()
    journal = Journal.open_read_only(tmp_path / "data" / "companion.db")
    try:
        row = journal.game(game_id)
        assert near_now(row.started) and near_now(row.ended)
        assert all(near_now(entry.at) for entry in journal.entries(game_id))
    finally:
        journal.close()


def _token(companion: Companion) -> str:
    join = next(line for line in companion.lines if Companion.JOIN.match(line))
    return Companion.JOIN.match(join)[1].split("?join=", 1)[1]
