"""The OLED driver, through luma's real ssd1306 and sh1106 classes.

The device classes talk to a recording serial interface; a model of each
controller (its display RAM and address pointers, set by the same commands
the chip obeys) turns the recorded bytes back into the picture a panel
would show, and that picture must be the screen, pixel for pixel.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from luma.core.error import DeviceNotFoundError, DevicePermissionError
from luma.core.interface.serial import i2c
from PIL import Image, ImageChops, ImageDraw

from companion.core.backoff import BACKOFF
from companion.core.engine import Command, Setup
from companion.core.games.call_of_nature.game import CallOfNature
from drivers.oled import Display, DisplaySettingError, RecordingInterface
from drivers.screens import call_of_nature_screen, menu_screen, off_screen

# luma.oled 3.16 calls Image.getdata(), which Pillow 12 marks deprecated.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Image.Image.getdata is deprecated:DeprecationWarning")

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("UPDATE_REFERENCE") == "1"
NO_DISPLAY = ("no display at 0x3C on I2C bus 1: check the wiring and that I2C is enabled "
              "(raspi-config)")


# -- models of the two controllers ---------------------------------------------


class Ssd1306Model:
    """The SSD1306's 128x8-page RAM and pointers, per its datasheet."""

    ARGUMENTS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1,
                 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
    COLUMNS = 128

    def __init__(self) -> None:
        self.ram = bytearray(self.COLUMNS * 8)
        self.mode = 2  # page addressing after reset
        self.column = self.page = 0
        self.column_range = (0, 127)
        self.page_range = (0, 7)
        self.lit = False

    def feed(self, writes) -> Ssd1306Model:
        for kind, payload in writes:
            if kind == "command":
                self.commands(payload)
            else:
                for byte in payload:
                    self.write(byte)
        return self

    def commands(self, payload: bytes) -> None:
        i = 0
        while i < len(payload):
            op = payload[i]
            count = self.ARGUMENTS.get(op, 0)
            args = payload[i + 1:i + 1 + count]
            assert len(args) == count, f"command {op:#04x} cut short in {payload.hex(' ')}"
            self.command(op, args)
            i += 1 + count

    def command(self, op: int, args: bytes) -> None:
        if op == 0x20:
            self.mode = args[0] & 3
        elif op == 0x21:
            self.column_range = (args[0] & 0x7F, args[1] & 0x7F)
            self.column = self.column_range[0]
        elif op == 0x22:
            self.page_range = (args[0] & 7, args[1] & 7)
            self.page = self.page_range[0]
        elif 0xB0 <= op <= 0xB7:
            assert self.mode == 2, "page start address only works in page addressing mode"
            self.page = op & 7
        elif op <= 0x0F:
            assert self.mode == 2, "lower column start only works in page addressing mode"
            self.column = (self.column & 0xF0) | op
        elif op <= 0x1F:
            assert self.mode == 2, "higher column start only works in page addressing mode"
            self.column = (self.column & 0x0F) | ((op & 0x0F) << 4)
        elif op in (0xAE, 0xAF):
            self.lit = op == 0xAF

    def write(self, byte: int) -> None:
        self.ram[self.page * self.COLUMNS + self.column] = byte
        first_column, last_column = self.column_range
        first_page, last_page = self.page_range
        if self.mode == 0:  # horizontal
            self.column += 1
            if self.column > last_column:
                self.column = first_column
                self.page = first_page if self.page >= last_page else self.page + 1
        elif self.mode == 1:  # vertical
            self.page += 1
            if self.page > last_page:
                self.page = first_page
                self.column = first_column if self.column >= last_column else self.column + 1
        else:
            self.column = 0 if self.column >= self.COLUMNS - 1 else self.column + 1

    def picture(self, first_column: int = 0) -> Image.Image:
        image = Image.new("1", (128, 64))
        pixels = image.load()
        for page in range(8):
            for x in range(128):
                byte = self.ram[page * self.COLUMNS + first_column + x]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 255
        return image


class Sh1106Model(Ssd1306Model):
    """The SH1106: 132 RAM columns, page addressing only, and a 128-pixel
    panel wired to columns 2..129."""

    ARGUMENTS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
    COLUMNS = 132
    PANEL_OFFSET = 2

    def command(self, op: int, args: bytes) -> None:
        if 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.column = (self.column & 0xF0) | op
        elif op <= 0x1F:
            self.column = (self.column & 0x0F) | ((op & 0x0F) << 4)
        elif op in (0xAE, 0xAF):
            self.lit = op == 0xAF

    def write(self, byte: int) -> None:
        assert self.column < self.COLUMNS, f"data written past RAM column {self.COLUMNS - 1}"
        self.ram[self.page * self.COLUMNS + self.column] = byte
        self.column += 1

    def picture(self, first_column: int = PANEL_OFFSET) -> Image.Image:
        return super().picture(first_column)


MODELS = {"ssd1306": Ssd1306Model, "sh1106": Sh1106Model}


def lit(image: Image.Image) -> Image.Image:
    """Every pixel that is on as 255, whatever value a drawing stored for it."""
    return image.convert("L").point(lambda v: 255 if v else 0)


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(lit(a), lit(b)).getbbox() is None


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class ManualTimer:
    """The display's retry timer, fired by the test: no thread, no sleep."""

    def __init__(self) -> None:
        self.pending: list[list] = []  # [delay, action, cancelled]

    def __call__(self, delay, action):
        entry = [delay, action, False]
        self.pending.append(entry)
        timer = self

        class Handle:
            def cancel(self) -> None:
                entry[2] = True
                if entry in timer.pending:
                    timer.pending.remove(entry)

        return Handle()

    def fire(self) -> float:
        """Run the next retry; returns the delay it was set for."""
        delay, action, _ = self.pending.pop(0)
        action()
        return delay


def opened(controller: str, **kwargs):
    serial = RecordingInterface()
    clock = Clock()
    kwargs.setdefault("timer", ManualTimer())
    display = Display(controller, serial_interface=serial, clock=clock, **kwargs)
    return display, serial, clock


def call_of_nature_after(*values: int) -> tuple[CallOfNature, Image.Image]:
    game = CallOfNature(Setup(("Ana", "Ben", "Cy")))
    for value in values:
        game.apply(Command("card", {"value": value}))
    return game, call_of_nature_screen(game.view(), game.players, game.expected())


def written(serial: RecordingInterface, start: int) -> list[tuple[str, bytes]]:
    return list(serial.writes)[start:]


# -- frames on the panel --------------------------------------------------------


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_a_first_frame_is_sent_whole_and_the_panel_shows_the_screen(controller):
    display, serial, _ = opened(controller)
    _, screen = call_of_nature_after(5, 7)

    assert display.show(screen) is True

    panel = MODELS[controller]().feed(serial.writes)
    assert same(panel.picture(), screen)
    assert panel.lit
    assert display.last_sent.full and display.last_sent.data_bytes == 1024


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_pressure_plus_3_sends_under_a_quarter_of_a_frame_and_the_panel_follows(controller):
    display, serial, _ = opened(controller)
    game, before = call_of_nature_after(5, 7)
    display.show(before)
    start = len(serial.writes)

    game.apply(Command("card", {"value": 3}))
    after = call_of_nature_screen(game.view(), game.players, game.expected())
    display.show(after)

    update = written(serial, start)
    assert sum(len(p) for kind, p in update if kind == "data") < 1024 // 4
    assert not display.last_sent.full
    assert same(MODELS[controller]().feed(serial.writes).picture(), after)


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_pressure_plus_3_sends_exactly_the_reference_bytes(controller):
    display, serial, _ = opened(controller)
    game, before = call_of_nature_after(5, 7)
    display.show(before)
    start = len(serial.writes)
    game.apply(Command("card", {"value": 3}))
    display.show(call_of_nature_screen(game.view(), game.players, game.expected()))

    text = "".join(f"{kind} {payload.hex(' ')}\n" for kind, payload in written(serial, start))
    reference = REFERENCE / f"oled-{controller}-pressure-12-to-15.txt"
    if UPDATE or not reference.exists():
        reference.parent.mkdir(exist_ok=True)
        reference.write_text(text)
        if not UPDATE:
            pytest.fail(f"wrote missing reference {reference.name}; check it and commit it")
    assert text == reference.read_text()


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_an_unchanged_frame_sends_nothing(controller):
    display, serial, _ = opened(controller)
    _, screen = call_of_nature_after(5)
    display.show(screen)
    start = len(serial.writes)

    assert display.show(screen.copy()) is True

    assert written(serial, start) == []
    assert display.frames_unchanged == 1


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_a_display_mounted_upside_down_shows_the_screen_turned(controller):
    display, serial, _ = opened(controller, rotate=2)
    _, screen = call_of_nature_after(5)

    display.show(screen)

    shown = MODELS[controller]().feed(serial.writes).picture()
    assert same(shown, screen.rotate(180))


@st.composite
def frames(draw):
    """A few frames, each the last one with some rectangles flipped."""
    count = draw(st.integers(2, 5))
    image = Image.new("1", (128, 64))
    out = []
    for _ in range(count):
        image = image.copy()
        pen = ImageDraw.Draw(image)
        for _ in range(draw(st.integers(0, 4))):
            x0, y0 = draw(st.integers(0, 127)), draw(st.integers(0, 63))
            x1, y1 = draw(st.integers(x0, 127)), draw(st.integers(y0, 63))
            pen.rectangle((x0, y0, x1, y1), fill=draw(st.integers(0, 1)))
        out.append(image)
    return out


@given(frames(), st.sampled_from(["ssd1306", "sh1106"]))
def test_after_any_sequence_of_frames_the_panel_shows_the_last(sequence, controller):
    display, serial, _ = opened(controller)
    for image in sequence:
        display.show(image)
        assert same(MODELS[controller]().feed(serial.writes).picture(), image)


def test_a_frame_of_the_wrong_size_is_refused_with_the_size_it_needs():
    display, _, _ = opened("ssd1306")

    with pytest.raises(ValueError, match="128x64 image of mode '1', not 64x32"):
        display.show(Image.new("1", (64, 32)))


def test_an_unknown_controller_is_refused_with_the_ones_we_drive():
    with pytest.raises(DisplaySettingError, match="ssd1306, sh1106"):
        Display("ssd1327", serial_interface=RecordingInterface())


# -- faults -------------------------------------------------------------------------


class SilentBus:
    """An SMBus with nothing at the address: every write is not acknowledged,
    until ``answering`` is set."""

    def __init__(self) -> None:
        self.answering = False
        self.writes = 0

    def write_i2c_block_data(self, address, register, data):
        if not self.answering:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.writes += 1


def test_no_display_on_the_bus_at_start_says_so_and_drops_frames():
    bus = SilentBus()
    display = Display("ssd1306", serial_interface=i2c(bus=bus, address=0x3C), clock=Clock(),
                      timer=ManualTimer())

    assert display.status == NO_DISPLAY
    assert "DeviceNotFoundError" in display.last_error
    assert display.show(off_screen()) is False
    assert display.ok is False and display.frames_dropped == 1


def test_a_pi_without_that_i2c_bus_says_so_through_lumas_own_i2c():
    display = Display("ssd1306", port=99, clock=Clock(), timer=ManualTimer())

    assert display.status == ("no display at 0x3C on I2C bus 99: check the wiring and that I2C "
                              "is enabled (raspi-config)")
    assert display.last_error == "DeviceNotFoundError: I2C device not found: /dev/i2c-99"
    assert display.show(off_screen()) is False


def test_a_display_plugged_in_later_is_found_by_the_next_frame_after_the_backoff():
    bus = SilentBus()
    clock = Clock()
    display = Display("ssd1306", serial_interface=i2c(bus=bus, address=0x3C), clock=clock,
                      timer=ManualTimer())
    bus.answering = True
    _, screen = call_of_nature_after(5)

    early = display.show(screen)
    clock.now += 1.0
    later = display.show(screen)

    assert (early, later) == (False, True)
    assert display.status == "SSD1306 at 0x3C on I2C bus 1"
    assert display.last_sent.full


def test_an_io_error_mid_game_drops_frames_then_recovery_sends_a_full_frame():
    display, serial, clock = opened("ssd1306")
    game, before = call_of_nature_after(5)
    display.show(before)
    serial.fault = OSError(errno.EIO, "Input/output error")
    game.apply(Command("card", {"value": 3}))
    during = call_of_nature_screen(game.view(), game.players, game.expected())

    assert display.show(during) is False
    assert display.status == NO_DISPLAY

    serial.fault = None
    game.apply(Command("card", {"value": 4}))
    after = call_of_nature_screen(game.view(), game.players, game.expected())
    clock.now += BACKOFF.first / 2
    assert display.show(after) is False  # still waiting out the backoff
    clock.now += BACKOFF.first / 2
    start = len(serial.writes)
    assert display.show(after) is True

    assert display.last_sent.full and display.last_sent.data_bytes == 1024
    # Reopening runs luma's init again, which blanks the RAM first: the
    # picture must come from this frame alone.
    panel = Ssd1306Model().feed(written(serial, start))
    assert same(panel.picture(), after)


def test_retries_come_further_apart_while_the_display_stays_away():
    display, serial, clock = opened("sh1106", probe_every=60.0)
    serial.fault = DeviceNotFoundError("I2C device not found on address: 0x3C")
    display.show(off_screen())  # fails, and schedules a retry
    attempts = []
    for _ in range(240):
        clock.now += 0.25
        before = serial.refused
        display.show(off_screen())
        if serial.refused > before:
            attempts.append(clock.now - 100.0)

    # The companion's backoff: 0.5 s, then twice as long each time up to 30 s.
    assert attempts == [0.5, 1.5, 3.5, 7.5, 15.5, 31.5]


def test_the_display_tries_again_by_the_backoff_but_at_most_2_s_apart():
    display, serial, clock = opened("ssd1306")
    serial.fault = DeviceNotFoundError("I2C device not found on address: 0x3C")
    delays = []
    for _ in range(10):
        display.show(off_screen())
        delays.append(display._retry_at - clock.now)
        clock.now = display._retry_at
    assert delays[:3] == [0.5, 1.0, 2.0] and max(delays) == 2.0


def test_the_picture_returns_on_the_retry_timer_with_no_frame_offered():
    timer = ManualTimer()
    display, serial, _ = opened("ssd1306", timer=timer)
    _, screen = call_of_nature_after(5)
    display.show(screen)
    serial.fault = OSError(errno.EIO, "Input/output error")
    assert display.show(off_screen()) is False  # the bus stops answering mid-game

    # Tries while the bus stays silent change nothing and come again.
    delays = [timer.fire() for _ in range(4)]
    assert display.ok is False and len(timer.pending) == 1
    serial.fault = None
    start = len(serial.writes)
    delays.append(timer.fire())

    assert max(delays) <= 3.0
    assert display.ok and timer.pending == []
    panel = Ssd1306Model().feed(written(serial, start))
    assert same(panel.picture(), off_screen())  # the last frame offered, in full


def test_closing_cancels_the_retry_timer():
    timer = ManualTimer()
    display, serial, _ = opened("ssd1306", timer=timer)
    serial.fault = OSError(errno.EIO, "Input/output error")
    display.show(off_screen())
    assert len(timer.pending) == 1
    display.close()
    assert timer.pending == []


def test_thirty_reopenings_keep_at_most_two_devices():
    # luma's exit hook holds its device: a device freed is a hook removed.
    import gc
    import tracemalloc
    import weakref

    from luma.oled.device import ssd1306

    timer = ManualTimer()
    display, serial, _ = opened("ssd1306", timer=timer)
    devices = weakref.WeakSet()
    tracemalloc.start()
    try:
        gc.collect()
        memory_before = tracemalloc.get_traced_memory()[0]
        for round_ in range(30):
            devices.add(display._device)
            serial.fault = OSError(errno.EIO, "Input/output error")
            display.show(off_screen(f"outage {round_}"))
            serial.fault = None
            timer.fire()
            assert display.ok
        gc.collect()
        growth = tracemalloc.get_traced_memory()[0] - memory_before
    finally:
        tracemalloc.stop()

    devices.add(display._device)
    assert all(isinstance(d, ssd1306) for d in devices)
    assert len(devices) <= 2  # of the 31 built
    assert growth < 2_000_000


def test_no_permission_on_the_bus_says_how_to_get_it():
    serial = RecordingInterface()
    serial.fault = DevicePermissionError("I2C device permission denied: /dev/i2c-1")

    display = Display("ssd1306", serial_interface=serial, clock=Clock(), timer=ManualTimer())

    assert display.status == ("no permission to use I2C bus 1: add the companion's user to "
                              "the 'i2c' group")


def test_the_status_names_the_configured_bus_and_address():
    serial = RecordingInterface()
    serial.fault = OSError(errno.EREMOTEIO, "Remote I/O error")

    display = Display("sh1106", port=3, address="0x3D", serial_interface=serial, clock=Clock(),
                      timer=ManualTimer())

    assert display.status.startswith("no display at 0x3D on I2C bus 3:")


# -- switching off ------------------------------------------------------------------


def test_off_leaves_the_off_screen_lit_and_releases_the_bus():
    display, serial, _ = opened("ssd1306")
    display.show(menu_screen("Menu", ["One", "Two"], 0))

    display.off("Companion is off")

    panel = Ssd1306Model().feed(serial.writes)
    assert same(panel.picture(), off_screen("Companion is off"))
    assert panel.lit and serial.cleaned_up
    assert display.show(menu_screen("Menu", ["One"], 0)) is False


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_close_blanks_and_switches_the_display_off(controller):
    display, serial, _ = opened(controller)
    _, screen = call_of_nature_after(5)
    display.show(screen)

    display.close()

    panel = MODELS[controller]().feed(serial.writes)
    assert not panel.lit and serial.cleaned_up
    assert panel.picture().getbbox() is None
    assert display.status == "closed"


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_an_open_display_keeps_little_memory_and_still_shows_each_frame(controller):
    # luma's ssd1306 builds tables of 8,192 ints for its display(), which
    # the patches sent here never use: a third of a megabyte.
    import tracemalloc

    opened(controller)[0].show(menu_screen("Menu", ["New game", "Undo"], 0))  # luma's modules
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        display, serial, _ = opened(controller)
        display.show(menu_screen("Menu", ["New game", "Undo"], 0))
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 100_000
    _, frame = call_of_nature_after(5, 7)
    assert display.show(frame) is True
    assert same(MODELS[controller]().feed(serial.writes).picture(), frame)
