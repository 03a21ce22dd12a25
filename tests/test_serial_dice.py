"""The dice device's line protocol, and the reader over pyserial: a
pseudo-terminal pair, ``loop://``, an unplugged and replugged device."""

from __future__ import annotations

import errno
import logging
import os
import threading
import time

import pytest
import serial
from hypothesis import given
from hypothesis import strategies as st

from companion.core.backoff import Backoff
from drivers.dice import DiceTray
from drivers.serial_dice import (
    MAX_LINE,
    BadDiceLine,
    IgnoredLines,
    LineSplitter,
    PortNotFound,
    Roll,
    SerialDiceReader,
    SimulatedDiceDevice,
    find_dice_port,
    parse_line,
    resolve_port,
)

WAIT = 10.0  # generous: threads on a shared machine


# -- parse_line: good lines --------------------------------------------------


@pytest.mark.parametrize(
    "line, roll",
    [
        (b"ROLL 6 4\n", Roll(6, (4,))),
        (b"ROLL 6 3 5\r\n", Roll(6, (3, 5))),
        (b"ROLL 4 2\n", Roll(4, (2,))),
        (b"ROLL 2 1", Roll(2, (1,))),
        ("roll 6 6\n", Roll(6, (6,))),
        ("Roll 4 1\r\n", Roll(4, (1,))),
        (b"ROLL   6  1   2 ", Roll(6, (1, 2))),
        (b"ROLL 20 20\n", Roll(20, (20,))),
        (b"ROLL 6 06\n", Roll(6, (6,))),
    ],
)
def test_a_roll_line_is_read(line, roll):
    assert parse_line(line) == roll


@pytest.mark.parametrize("line", [b"", b"\n", b"\r\n", "   ", " \t \r\n"])
def test_a_blank_line_is_no_roll_and_no_fault(line):
    assert parse_line(line) is None


# -- parse_line: bad lines, by reason -----------------------------------------


@pytest.mark.parametrize(
    "line, reason",
    [
        (b"HELLO\n", "not-a-roll"),
        (b"ROLLS 6 4\n", "not-a-roll"),
        (b"6 4\n", "not-a-roll"),
        (b"\x00ROLL 6 4\n", "not-a-roll"),
        (b"ROLL\n", "malformed"),
        (b"ROLL 6\n", "malformed"),
        (b"ROLL six 4\n", "malformed"),
        (b"ROLL 6 4.0\n", "malformed"),
        (b"ROLL 6 -1\n", "malformed"),
        (b"ROLL 6 +4\n", "malformed"),
        (b"ROLL 6 4,5\n", "malformed"),
        (b"ROLL 1 1\n", "malformed"),
        (b"ROLL 0 1\n", "malformed"),
        (b"ROLL 6 \xff\n", "malformed"),
        ("ROLL 6 \uff14\n", "malformed"),  # a full-width 4
        (b"ROLL 6 7\n", "out-of-range"),
        (b"ROLL 6 0\n", "out-of-range"),
        (b"ROLL 4 5\n", "out-of-range"),
        (b"ROLL 2 3\n", "out-of-range"),
        (b"ROLL 6 3 9\n", "out-of-range"),
        (b"ROLL 6" + b" 1" * MAX_LINE + b"\n", "too-long"),
    ],
)
def test_a_bad_line_is_refused_with_its_reason(line, reason):
    with pytest.raises(BadDiceLine) as refused:
        parse_line(line)
    assert refused.value.reason == reason


def test_a_value_off_the_die_says_which_value_and_which_faces():
    with pytest.raises(ValueError, match=r"7 is not a face of a 6-sided die \(1 to 6\)"):
        parse_line(b"ROLL 6 7\n")


def test_a_line_that_is_no_roll_shows_what_a_roll_looks_like():
    with pytest.raises(BadDiceLine, match=r"'HELLO' is not a roll; a roll reads 'ROLL <sides>"):
        parse_line(b"HELLO\r\n")


@given(
    sides=st.integers(2, 120),
    data=st.data(),
    keyword=st.sampled_from(["ROLL", "roll", "Roll", "rOlL"]),
    gap=st.sampled_from([" ", "  ", "   "]),
    ending=st.sampled_from(["", "\n", "\r\n"]),
)
def test_every_well_formed_roll_reads_back(sides, data, keyword, gap, ending):
    values = data.draw(st.lists(st.integers(1, sides), min_size=1, max_size=5))
    line = gap.join([keyword, str(sides), *map(str, values)]) + ending
    assert parse_line(line.encode("ascii")) == Roll(sides, tuple(values))


@given(st.binary(max_size=200))
def test_any_bytes_give_a_roll_nothing_or_a_bad_line(raw):
    try:
        roll = parse_line(raw)
    except BadDiceLine as bad:
        assert bad.reason in {"not-a-roll", "malformed", "out-of-range", "too-long"}
    else:
        assert roll is None or all(1 <= v <= roll.sides for v in roll.values)


# -- cutting the byte stream into lines ---------------------------------------


def test_a_line_in_pieces_comes_out_whole():
    lines = LineSplitter()
    assert lines.feed(b"RO") == []
    assert lines.feed(b"LL 6 ") == []
    assert lines.feed(b"2\r\nROLL 4 1\nRO") == [b"ROLL 6 2\r", b"ROLL 4 1"]


def test_an_endless_line_comes_out_once_too_long_and_its_end_is_dropped():
    lines = LineSplitter()
    endless = lines.feed(b"ROLL 6 " + b"5 " * MAX_LINE)
    assert len(endless) == 1
    with pytest.raises(BadDiceLine) as refused:
        parse_line(endless[0])
    assert refused.value.reason == "too-long"
    assert lines.feed(b"5 " * MAX_LINE) == []
    assert lines.feed(b"6\nROLL 6 3\n") == [b"ROLL 6 3"]


# -- the reader: helpers ------------------------------------------------------


class Rolls:
    """Records on_roll calls and lets a test wait for them."""

    def __init__(self) -> None:
        self.rolls: list[tuple[int, list[int]]] = []
        self._changed = threading.Condition()

    def __call__(self, sides: int, values: list[int]) -> None:
        with self._changed:
            self.rolls.append((sides, values))
            self._changed.notify_all()

    def wait_for(self, count: int) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.rolls) >= count, WAIT)


class Plug:
    """An opener for a port that can be unplugged: it opens whatever device is
    plugged in, or fails as pyserial does when the port is missing."""

    def __init__(self, target: str | None = None) -> None:
        self.target = target
        self.links: list[serial.SerialBase] = []
        self.failures = 0
        self._changed = threading.Condition()

    def __call__(self, port: str, **settings) -> serial.SerialBase:
        with self._changed:
            try:
                if self.target is None:
                    raise serial.SerialException(
                        errno.ENOENT, f"could not open port {port}: no such file")
                link = serial.serial_for_url(self.target, **settings)
                self.links.append(link)
                return link
            except serial.SerialException:
                self.failures += 1
                raise
            finally:
                self._changed.notify_all()

    def wait_for_links(self, count: int) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.links) >= count, WAIT)

    def wait_for_failures(self, count: int) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self.failures >= count, WAIT)


@pytest.fixture
def rolls():
    return Rolls()


@pytest.fixture
def device():
    with SimulatedDiceDevice() as device:
        yield device


def wait_until(condition, timeout: float = WAIT) -> bool:
    """Wait for ``condition`` (the reader's status has no event to wait on)."""
    done = threading.Event()
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        done.wait(0.01)
    return True


def reader_for(on_roll, plug: Plug, port: str = "dice", **options) -> SerialDiceReader:
    options.setdefault("backoff", Backoff(0.01, 0.05))
    return SerialDiceReader(on_roll, port=port, opener=plug, **options)


# -- the reader over a pseudo-terminal --------------------------------------


def test_a_roll_written_to_a_pty_reaches_the_listener(rolls):
    device_end, terminal_end = os.openpty()
    plug = Plug(os.ttyname(terminal_end))
    try:
        with reader_for(rolls, plug) as reader:
            assert plug.wait_for_links(1)
            os.write(device_end, b"ROLL 6 4\r\n")
            assert rolls.wait_for(1)
            assert reader.status == "connected"
    finally:
        os.close(device_end)
        os.close(terminal_end)
    assert rolls.rolls == [(6, [4])]


def test_the_reader_opens_9600_8n1(rolls, device):
    plug = Plug(device.port)
    with reader_for(rolls, plug):
        assert plug.wait_for_links(1)
        link = plug.links[0]
        assert (link.baudrate, link.bytesize, link.parity, link.stopbits) == (9600, 8, "N", 1)


def test_an_idle_reader_sleeps_in_its_read_instead_of_waking_on_a_timeout(rolls, device):
    plug = Plug(device.port)
    with reader_for(rolls, plug) as reader:
        assert plug.wait_for_links(1)
        assert plug.links[0].timeout is None
        device.roll(6, [2])
        assert rolls.wait_for(1)
    assert not reader.running  # stop() woke the read


def test_rolls_from_the_simulated_device_arrive_in_order(rolls, device):
    plug = Plug(device.port)
    with reader_for(rolls, plug):
        assert plug.wait_for_links(1)
        device.roll(6, [3, 5])
        device.roll(4, [2])
        device.roll(2, [1])
        assert rolls.wait_for(3)
    assert rolls.rolls == [(6, [3, 5]), (4, [2]), (2, [1])]


def test_a_line_split_across_writes_is_one_roll(rolls, device):
    plug = Plug(device.port)
    with reader_for(rolls, plug):
        assert plug.wait_for_links(1)
        device.write(b"RO")
        device.write(b"LL 6 ")
        device.write(b"2\n")
        assert rolls.wait_for(1)
    assert rolls.rolls == [(6, [2])]


def test_bad_lines_are_counted_by_reason_and_good_ones_still_arrive(rolls, device, caplog):
    plug = Plug(device.port)
    with caplog.at_level(logging.WARNING, logger="drivers.serial_dice"):
        with reader_for(rolls, plug) as reader:
            assert plug.wait_for_links(1)
            device.write(b"HELLO\r\nROLL 6 9\nROLL 6\n\r\nROLL 6 7\r\nROLL 6 1\n")
            assert rolls.wait_for(1)
    assert rolls.rolls == [(6, [1])]
    assert reader.ignored == {"not-a-roll": 1, "out-of-range": 2, "malformed": 1}
    # The first at once, the rest summed up (here when the reader stops).
    assert "line ignored (1 not-a-roll): 'HELLO' is not a roll" in caplog.text
    assert ("3 lines ignored (1 malformed, 2 out-of-range), the last: 7 is not a face"
            in caplog.text)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_flood_of_bad_lines_is_summed_up_at_most_once_a_minute(caplog):
    clock = Clock()
    ignored = IgnoredLines("/dev/ttyUSB0", clock=clock)
    garbage = BadDiceLine("malformed", "'\\xf3' is not ASCII")
    with caplog.at_level(logging.WARNING, logger="drivers.serial_dice"):
        for _ in range(480):  # a wrong baud rate: eight lines a second for a minute
            ignored.add(garbage)
            clock.now += 0.125
        ignored.add(garbage)

    assert len(caplog.records) == 2
    assert caplog.records[0].getMessage().endswith("line ignored (1 malformed): "
                                                   "'\\xf3' is not ASCII")
    assert "480 lines ignored (480 malformed)" in caplog.records[1].getMessage()
    assert ignored.total == {"malformed": 481}


def test_auto_finds_the_one_dice_device_under_by_id(tmp_path):
    device = tmp_path / "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
    device.touch()
    assert find_dice_port(tmp_path) == str(device)
    assert resolve_port("/dev/ttyAMA0", tmp_path) == "/dev/ttyAMA0"


def test_auto_with_none_or_several_devices_says_what_it_found(tmp_path):
    with pytest.raises(PortNotFound, match="no dice device under"):
        find_dice_port(tmp_path / "missing")
    (tmp_path / "usb-a").touch()
    (tmp_path / "usb-b").touch()
    with pytest.raises(PortNotFound,
                       match=r"2 serial devices .*usb-a, usb-b.*set \[serial\] port"):
        find_dice_port(tmp_path)


def test_an_auto_reader_opens_the_device_plugged_in_later_under_its_stable_name(rolls, device,
                                                                                tmp_path):
    plug = Plug(device.port)
    opened = []

    def opener(port, **settings):
        opened.append(port)
        return plug(port, **settings)

    with SerialDiceReader(rolls, port="auto", by_id=tmp_path, opener=opener,
                          backoff=Backoff(0.01, 0.05)) as reader:
        def waiting():
            return reader.status == (f"waiting for a dice device under {tmp_path}/: "
                                     f"no dice device under {tmp_path}/ (not plugged in)")
        assert wait_until(waiting)
        (tmp_path / "usb-dice-if00").touch()
        assert plug.wait_for_links(1)
        device.roll(6, [4])
        assert rolls.wait_for(1)
    assert opened == [str(tmp_path / "usb-dice-if00")]
    assert rolls.rolls == [(6, [4])]


def test_an_endless_line_is_dropped_up_to_its_end(rolls, device):
    plug = Plug(device.port)
    with reader_for(rolls, plug) as reader:
        assert plug.wait_for_links(1)
        device.write(b"ROLL 6 " + b"5 " * (2 * MAX_LINE))
        device.write(b"6\nROLL 6 3\n")
        assert rolls.wait_for(1)
    assert rolls.rolls == [(6, [3])]
    assert reader.ignored == {"too-long": 1}


def test_a_failing_listener_does_not_stop_the_reader(device, caplog):
    delivered = Rolls()

    def on_roll(sides, values):
        delivered(sides, values)
        if len(delivered.rolls) == 1:
            raise RuntimeError("table busy")

    plug = Plug(device.port)
    with caplog.at_level(logging.ERROR, logger="drivers.serial_dice"):
        with SerialDiceReader(on_roll, port="dice", opener=plug, backoff=Backoff(0.01, 0.05)):
            assert plug.wait_for_links(1)
            device.roll(6, [1])
            device.roll(6, [2])
            assert delivered.wait_for(2)
    assert delivered.rolls == [(6, [1]), (6, [2])]
    assert "table busy" in caplog.text


# -- the reader over loop:// --------------------------------------------------


def test_a_roll_over_loop_reaches_the_listener(rolls):
    plug = Plug("loop://")
    with reader_for(rolls, plug):
        assert plug.wait_for_links(1)
        plug.links[0].write(b"roll 6 5 5\r\nROLL 4 4\n")
        assert rolls.wait_for(2)
    assert rolls.rolls == [(6, [5, 5]), (4, [4])]


# -- unplugged and plugged back -----------------------------------------------


def test_a_device_unplugged_and_plugged_back_delivers_the_next_roll(rolls):
    first = SimulatedDiceDevice()
    plug = Plug(first.port)
    with reader_for(rolls, plug) as reader:
        assert plug.wait_for_links(1)
        first.roll(6, [1])
        assert rolls.wait_for(1)

        plug.target = None
        first.close()
        assert plug.wait_for_failures(2)
        assert reader.status == "waiting for dice: not plugged in"

        with SimulatedDiceDevice() as second:
            plug.target = second.port
            assert plug.wait_for_links(2)
            second.roll(6, [6])
            assert rolls.wait_for(2)
            assert reader.status == "connected"
    assert rolls.rolls == [(6, [1]), (6, [6])]


def test_a_lost_connection_shows_in_the_status(rolls):
    device = SimulatedDiceDevice()
    plug = Plug(device.port)
    with reader_for(rolls, plug) as reader:
        assert plug.wait_for_links(1)
        plug.target = None
        device.close()
        assert plug.wait_for_failures(2)
        assert reader.status.startswith("waiting for dice: ")
        assert reader.running


def test_retries_wait_twice_as_long_each_time_up_to_the_cap(rolls, device):
    plug = Plug(None)
    delays: list[float] = []

    def failing_then_working(port, **settings):
        delays.append(reader.retry_delay)
        if len(delays) == 6:
            plug.target = device.port
        return plug(port, **settings)

    reader = SerialDiceReader(rolls, port="dice", opener=failing_then_working,
                              backoff=Backoff(0.01, 0.04))
    with reader:
        assert plug.wait_for_links(1)
        device.roll(6, [2])
        assert rolls.wait_for(1)
        assert reader.retry_delay == 0.01
    assert delays == [0.01, 0.02, 0.04, 0.04, 0.04, 0.04]


def test_a_port_missing_from_the_start_is_waited_for(rolls, device):
    plug = Plug(None)
    with reader_for(rolls, plug) as reader:
        assert plug.wait_for_failures(2)
        assert reader.status == "waiting for dice: not plugged in"
        plug.target = device.port
        assert plug.wait_for_links(1)
        device.roll(4, [3])
        assert rolls.wait_for(1)
    assert rolls.rolls == [(4, [3])]


def test_a_port_the_service_may_not_open_says_so(rolls):
    def denied(port, **settings):
        raise serial.SerialException(errno.EPERM, f"could not open port {port}: "
                                                   "[Errno 1] Operation not permitted")

    reader = SerialDiceReader(rolls, port="/dev/ttyXYZ0", opener=denied,
                              backoff=Backoff(60.0, 60.0))
    with reader:
        deadline = time.monotonic() + WAIT
        while "opening" in reader.status and time.monotonic() < deadline:
            time.sleep(0.01)
        assert reader.status == ("waiting for /dev/ttyXYZ0: not permitted to open it "
                                 "(is it a serial port the service may use?)")


# -- stopping -----------------------------------------------------------------


def test_stop_wakes_a_blocked_read(rolls, device):
    plug = Plug(device.port)
    reader = reader_for(rolls, plug, read_timeout=60.0).start()
    assert plug.wait_for_links(1)
    device.roll(6, [1])
    assert rolls.wait_for(1)  # the reader is back in its read, for a minute
    reader.stop(timeout=WAIT)
    assert not reader.running
    assert reader.status == "stopped"
    assert not plug.links[0].is_open


def test_stop_ends_a_retry_wait(rolls):
    plug = Plug(None)
    reader = reader_for(rolls, plug, backoff=Backoff(60.0, 60.0)).start()
    assert plug.wait_for_failures(1)
    reader.stop(timeout=WAIT)
    assert not reader.running


def test_a_reader_starts_only_once(rolls):
    with reader_for(rolls, Plug(None)) as reader:
        with pytest.raises(RuntimeError, match="already started"):
            reader.start()


# -- the simulated device alone -----------------------------------------------


def test_a_simulated_device_nobody_reads_drops_rolls_instead_of_blocking(caplog):
    with SimulatedDiceDevice() as device:
        with caplog.at_level(logging.WARNING, logger="drivers.serial_dice"):
            for _ in range(5000):
                device.roll(6, [1, 2])
    assert "nobody reads" in caplog.text


def test_a_simulated_device_writes_the_protocol_line(device):
    with serial.serial_for_url(device.port, timeout=WAIT) as link:
        device.roll(6, [3, 5])
        assert link.read_until(b"\n") == b"ROLL 6 3 5\r\n"


# -- end to end -------------------------------------------------------------------


def test_a_roll_of_the_simulated_device_is_played_at_the_table(table, tally_game, device):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit_words("add 2")
    table.submit_words("add 3")  # 5: the game waits for a d6
    tray = DiceTray.at_table(table, source="serial")
    played = threading.Event()
    table.subscribe(lambda update: played.set())
    plug = Plug(device.port)
    with reader_for(tray.on_serial_roll, plug):
        assert plug.wait_for_links(1)
        device.roll(4, [2])  # the red die: not what the game waits for
        device.roll(6, [5])
        assert played.wait(WAIT)
    assert table.current().state["rolls"] == [5]
    assert tray.ignored == {"wrong-dice": 1}
