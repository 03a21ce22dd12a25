"""Whether the companion's clock knows the date (companion/host/timesync.py),
and the date taken from a controller's phone while it does not: read
through the real panel (Flask's test client) on a real table and journal,
with a wall clock and a monotonic clock the test moves."""

from __future__ import annotations

import ctypes
import json
import time

import pytest

from companion.core.clock import LabelClock
from companion.core.journal import Journal
from companion.core.table import Table
from companion.host import timesync
from companion.host.timesync import TableTime, synced_reader
from tests.test_clock import DAY, Clocks
from tests.test_web_api import CON, NO_GAME_SHOWN, Phone, joined, made_against
from web import PanelSettings, Services, create_app

# A Pi at a place without internet: its clock two years behind.
BEHIND = 730 * DAY


class Pi:
    """The table, its journal and its panel on a Pi whose clock is
    ``BEHIND`` and not synchronized until :meth:`ntp`."""

    def __init__(self, tmp_path) -> None:
        self.clocks = Clocks()
        self.clocks.wall_now -= BEHIND
        self.synced = False
        self.time = TableTime(LabelClock(self.clocks.wall, self.clocks.steady),
                              lambda: self.synced, self.clocks.wall)
        self.path = tmp_path / "companion.db"
        self.table = Table(Journal.open(self.path), clock=self.time.clock)
        self.time.table = self.table
        self.time.tick()
        self.app = create_app(self.table, PanelSettings(secret_key="timesync"),
                              services=Services(phone_time=self.time.phone_said))

    def right(self) -> float:
        """The right time now."""
        return self.clocks.wall_now + (0.0 if self.synced else BEHIND)

    def ntp(self) -> None:
        """A network with internet: NTP steps the wall clock right."""
        self.clocks.wall_now += BEHIND
        self.synced = True


@pytest.fixture
def pi(tmp_path):
    running = Pi(tmp_path)
    yield running
    running.table.close()


def told(when: float) -> dict:
    """The header a phone's page sends: its clock, in milliseconds."""
    return {"X-Phone-Time": str(int(when * 1000))}


def new_game(phone: Phone, shown: dict, headers: dict | None = None):
    return phone.post("/api/new-game", {"game": CON, "players": ["Ana", "Ben"],
                                        "variants": ["no-end-roll"], **shown},
                      headers=headers or {})


def command(phone: Phone, shown: dict, name: str, headers: dict | None = None, **args):
    return phone.post("/api/command", {"command": {"name": name, "args": args},
                                       **made_against(shown)}, headers=headers or {})


# -- a spectator's phone is not trusted, a controller's is -------------------------------


def test_a_spectators_phone_time_is_ignored_and_a_controllers_is_taken(pi):
    controller = joined(pi.app)
    spectator = Phone(pi.app, address="192.168.1.30")
    assert not pi.time.known()

    # A spectator's phone says a date (any date): read nowhere, a change
    # refused, the table's clock and date unknown as they were.
    wrong = pi.right() + 3 * DAY
    assert spectator.get("/api/state", headers=told(wrong)).status_code == 200
    assert new_game(spectator, NO_GAME_SHOWN, told(wrong)).status_code == 403
    assert not pi.time.known()
    assert abs(pi.time.clock() - pi.clocks.wall_now) < 1

    # A controller's phone whose clock is not set (1970), or says nothing
    # that is a time: ignored too.
    shown = NO_GAME_SHOWN
    for nonsense in ("0", "12345", "soon", "-1700000000000", "9" * 17):
        shown = new_game(controller, made_against(shown) if shown["game_id"] else shown,
                         {"X-Phone-Time": nonsense}).json
        assert shown["game_id"] is not None
        assert not pi.time.known()
    started_behind = next(g for g in pi.table.games()
                          if g["id"] == shown["game_id"])["started"]
    assert abs(started_behind - pi.clocks.wall_now) < 1

    # A controller's phone with the right date: taken, and the game being
    # played (started two years behind) is dated from it.
    pi.clocks.run(60)
    assert command(controller, shown, "card", told(pi.right()), value=10).status_code == 200
    assert pi.time.known()
    assert abs(pi.time.clock() - pi.right()) < 1
    game = next(g for g in pi.table.games() if g["id"] == shown["game_id"])
    assert game["started"] == pytest.approx(started_behind + BEHIND, abs=1)
    past = {g["id"]: g for g in controller.get("/api/past-games").json}
    assert past[game["id"]]["started"] == game["started"]

    # Once the date is known, a spectator's still moves nothing.
    assert new_game(spectator, made_against(controller.get("/api/state").json),
                    told(wrong)).status_code == 403
    assert abs(pi.time.clock() - pi.right()) < 1


def test_a_controllers_phone_time_is_not_taken_once_the_clock_is_synchronized(pi):
    pi.ntp()
    pi.time.tick()
    controller = joined(pi.app)
    shown = new_game(controller, NO_GAME_SHOWN, told(pi.right() + 3 * DAY)).json
    assert abs(pi.time.clock() - pi.right()) < 1
    assert abs(pi.table.games()[0]["started"] - pi.right()) < 1
    assert shown["game_id"] is not None


# -- whether the clock is synchronized ---------------------------------------------------


@pytest.mark.parametrize("said, synced", [
    ("1", True), ("yes", True), ("true", True), (" TRUE ", True),
    ("0", False), ("no", False), ("false", False), ("No", False),
])
def test_the_environment_says_whether_the_clock_is_synchronized(monkeypatch, said, synced):
    def kernel_not_asked():
        raise AssertionError("the kernel is not asked when the environment says")

    monkeypatch.setattr(timesync, "_kernel_synced", kernel_not_asked)
    for simulate in (False, True):
        reader = synced_reader({timesync.ENVIRONMENT: said}, simulate=simulate)
        assert reader() is synced


def test_a_simulation_takes_its_computers_clock_as_synchronized(monkeypatch):
    monkeypatch.setattr(timesync, "_kernel_synced", lambda: False)
    assert synced_reader({}, simulate=True)() is True
    assert synced_reader({timesync.ENVIRONMENT: ""}, simulate=True)() is True
    # COMPANION_CLOCK_SYNCED=0: a Pi at a place without internet, simulated.
    assert synced_reader({timesync.ENVIRONMENT: "0"}, simulate=True)() is False


def test_the_process_environment_is_read_when_none_is_given(monkeypatch):
    monkeypatch.setenv(timesync.ENVIRONMENT, "0")
    assert synced_reader(simulate=True)() is False
    monkeypatch.setenv(timesync.ENVIRONMENT, "1")
    assert synced_reader()() is True


def test_on_a_pi_the_kernel_is_asked_each_time_and_a_failure_counts_as_synchronized(
        monkeypatch):
    answers = iter([False, True, None, False])
    monkeypatch.setattr(timesync, "_kernel_synced", lambda: next(answers))
    reader = synced_reader({})
    # Not synchronized, then NTP: read again at each call, not once.
    assert reader() is False
    assert reader() is True
    # The kernel cannot tell (not Linux): taken as synchronized, as the
    # module says, so that a computer never waits for a phone's date.
    assert reader() is True
    assert reader() is False
    # A value the companion does not know is no answer: the kernel is asked.
    monkeypatch.setattr(timesync, "_kernel_synced", lambda: False)
    assert synced_reader({timesync.ENVIRONMENT: "maybe"}, simulate=True)() is False


class FakeLibc:
    """The C library, its ``adjtimex`` answering ``state``."""

    def __init__(self, state: int) -> None:
        self.state = state
        self.modes: list[int] = []

    def adjtimex(self, pointer) -> int:
        self.modes.append(ctypes.cast(pointer, ctypes.POINTER(timesync._Timex))[0].modes)
        return self.state


@pytest.mark.parametrize("state, synced", [
    (0, True),    # TIME_OK
    (1, True),    # TIME_INS: a leap second to come
    (2, True),    # TIME_DEL
    (3, True),    # TIME_OOP
    (4, True),    # TIME_WAIT
    (5, False),   # TIME_ERROR: not synchronized
    (-1, None),   # the call failed: nobody can tell
])
def test_adjtimex_state_is_read_right(monkeypatch, state, synced):
    libc = FakeLibc(state)
    monkeypatch.setattr(timesync.ctypes, "CDLL", lambda *args, **kwargs: libc)
    assert timesync._kernel_synced() is synced
    assert libc.modes == [0]  # only read: the clock is never set


def test_without_adjtimex_the_kernel_cannot_tell(monkeypatch):
    def no_library(*args, **kwargs):
        raise OSError("no C library")

    monkeypatch.setattr(timesync.ctypes, "CDLL", no_library)
    assert timesync._kernel_synced() is None
    monkeypatch.setattr(timesync.ctypes, "CDLL", lambda *args, **kwargs: object())
    assert timesync._kernel_synced() is None
    assert synced_reader({})() is True


def test_this_machines_kernel_answers():
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("adjtimex is Linux's")
    assert isinstance(timesync._kernel_synced(), bool)


# -- the clock synchronized at last: the dates kept are set right, once ------------------


def play_game(pi: Pi, phone: Phone, minutes: int, phone_off: float | None) -> int:
    """A game of ``minutes`` minutes, from ``phone``; its page sends its
    clock (the right time plus ``phone_off``) unless ``phone_off`` is None."""
    def headers() -> dict:
        return {} if phone_off is None else told(pi.right() + phone_off)

    shown = new_game(phone, made_against(phone.get("/api/state").json), headers()).json
    pi.clocks.run(minutes * 30)
    shown = command(phone, shown, "card", headers(), value=10).json
    pi.clocks.run(minutes * 30)
    assert command(phone, shown, "adjust-mastery", headers(), player="Ben",
                   delta=-7).status_code == 200
    assert phone.get("/api/state").json["over"]
    return shown["game_id"]


def dates_kept(pi: Pi, phone: Phone) -> dict[int, dict]:
    """Every date the companion keeps of each game: in the journal, its
    past games, its history, its statistics and its BG Stats plays."""
    kept: dict[int, dict] = {}
    plays = {p["sourcePlayId"]: p for p in json.loads(phone.get("/api/plays.json").data)}
    for game in phone.get("/api/past-games").json:
        play = phone.get(f"/api/bgstats?game={game['id']}").json["play"]
        kept[game["id"]] = {
            "started": game["started"], "ended": game["ended"],
            "entries": [e.at for e in pi.table.history(game["id"])],
            "playDate": play["playDate"], "durationMin": play["durationMin"],
            "plays.json": {k: plays[play["sourcePlayId"]][k] for k in ("playDate",
                                                                      "durationMin")},
        }
    stats = phone.get("/api/stats").json["games"][CON]["players"]
    kept[0] = {"first_played": min(p["first_played"] for p in stats),
               "last_played": max(p["last_played"] for p in stats)}
    return kept


def local(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(when))


def test_once_synchronized_the_dates_kept_meanwhile_are_set_right_once(pi, caplog):
    controller = joined(pi.app)
    # Before any phone says the date: a game dated two years behind.
    behind_start = pi.right()
    behind = play_game(pi, controller, 20, phone_off=None)
    assert not pi.time.known()
    assert abs(pi.table.games()[0]["started"] - (behind_start - BEHIND)) < 1
    # A controller's phone, its clock ten minutes ahead: its date is taken,
    # for the game so far too, ten minutes off.
    pi.clocks.run(600)
    phoned_start = pi.right()
    phoned = play_game(pi, controller, 30, phone_off=600)
    assert pi.time.known()
    pi.time.tick()  # still not synchronized: nothing moves
    kept = dates_kept(pi, controller)
    assert kept[phoned]["started"] == pytest.approx(phoned_start + 600, abs=1)
    assert kept[behind]["started"] == pytest.approx(behind_start + 600, abs=1)

    # A network with internet: NTP sets the clock right, and the next look
    # sets right, once, every date kept meanwhile.
    pi.clocks.run(120)
    pi.ntp()
    pi.time.tick()
    for _ in range(3):
        pi.clocks.run(5)
        pi.time.tick()
    assert pi.time.known()
    assert pi.time.clock() == pi.clocks.wall_now
    kept = dates_kept(pi, controller)
    for game, start, minutes in ((behind, behind_start, 20), (phoned, phoned_start, 30)):
        dates = kept[game]
        assert dates["started"] == pytest.approx(start, abs=1)
        assert dates["ended"] == pytest.approx(start + minutes * 60, abs=1)
        assert dates["entries"][-1] == dates["ended"]
        assert dates["entries"][0] == pytest.approx(start + minutes * 30, abs=1)
        assert dates["playDate"] == local(dates["started"])
        assert dates["durationMin"] == minutes
        assert dates["plays.json"] == {"playDate": dates["playDate"], "durationMin": minutes}
    assert kept[0]["first_played"] == kept[behind]["started"]
    assert kept[0]["last_played"] == kept[phoned]["started"]
    assert len([r for r in caplog.records if "set from the synchronized clock" in r.message]) == 1

    # A game played after: dated right, and nothing moves again.
    after_start = pi.right()
    after = play_game(pi, controller, 10, phone_off=None)
    pi.time.tick()
    again = dates_kept(pi, controller)
    assert again[after]["started"] == pytest.approx(after_start, abs=1)
    assert {k: again[k] for k in (behind, phoned)} == {k: kept[k] for k in (behind, phoned)}

    # The journal holds them so, for the next start.
    journal = Journal.open_read_only(pi.path)
    try:
        for game in (behind, phoned, after):
            row = journal.game(game)
            assert (row.started, row.ended) == (again[game]["started"], again[game]["ended"])
            assert [e.at for e in journal.entries(game)] == again[game]["entries"]
    finally:
        journal.close()


def test_a_game_dated_from_the_phone_right_is_not_moved_once_synchronized(pi):
    controller = joined(pi.app)
    start = pi.right()
    game = play_game(pi, controller, 15, phone_off=0)
    before = dates_kept(pi, controller)
    pi.ntp()
    pi.time.tick()
    assert dates_kept(pi, controller) == before
    assert before[game]["started"] == pytest.approx(start, abs=1)
    assert before[game]["durationMin"] == 15
