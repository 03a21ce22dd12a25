"""The OLED: a luma device that is sent only what changed.

luma's ``ssd1306.display()`` sends the whole 1,024-byte buffer on every
frame, about 93 ms on a 100 kHz I2C bus.  :class:`Display` keeps the last
frame it sent as the controller's own RAM layout (8 pages of 128 column
bytes), sends nothing for an unchanged frame, and otherwise only the runs
of changed columns in each page, addressed the way the controller wants
(rectangles in the SSD1306's horizontal mode, one page at a time on the
SH1106), through the real luma device's ``command()`` and ``data()``.

A display that is missing or stops answering never stops the companion:
frames are dropped, :attr:`Display.status` says what is wrong, and the
display is opened again with a backoff driven by calls to :meth:`show`.
The first frame after opening is always sent in full, because the panel
may have been power-cycled and its RAM holds anything.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from PIL import Image

from companion.core.backoff import BACKOFF, Backoff
from companion.core.errors import CompanionError

log = logging.getLogger(__name__)

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8
# The reference wiring (HARDWARE.md): I2C bus 1, address 0x3C.
DEFAULT_PORT = 1
DEFAULT_ADDRESS = 0x3C
CONTROLLERS = ("ssd1306", "sh1106")

# SSD1306 commands used for partial updates (horizontal addressing mode,
# which luma's init selects with MEMORYMODE 0x00).
COLUMNADDR = 0x21
PAGEADDR = 0x22
# SH1106 (and SSD1306 page mode) commands.
SETPAGE = 0xB0
SETLOWCOLUMN = 0x00
SETHIGHCOLUMN = 0x10
# A no-operation on both controllers: lets a retry ask "is anyone there?"
# without building a luma device, whose constructor registers an atexit hook
# that can never be removed.
NOP = 0xE3
# The SH1106 has 132 RAM columns; 128-pixel modules show columns 2..129.
SH1106_COLUMN_OFFSET = 2

# On the wire each command() or data() call is one I2C write: the address
# byte and a control byte, then the payload.
I2C_WRITE_OVERHEAD = 2
FRAME_BYTES = WIDTH * PAGES

OFF_MESSAGE = "Companion is off"


class DisplaySettingError(CompanionError, ValueError):
    """The display's configuration (controller, rotation) is not one we drive."""


@dataclass(frozen=True)
class Patch:
    """A rectangle of display RAM to rewrite: pages and columns, inclusive."""

    first_page: int
    last_page: int
    first_column: int
    last_column: int

    @property
    def size(self) -> int:
        return (self.last_page - self.first_page + 1) * (self.last_column - self.first_column + 1)


@dataclass(frozen=True)
class SendReport:
    """What one :meth:`Display.show` put on the bus."""

    patches: tuple[Patch, ...]
    command_bytes: int
    data_bytes: int
    writes: int
    full: bool

    @property
    def wire_bytes(self) -> int:
        """Bytes on the I2C bus, address and control bytes included."""
        return self.command_bytes + self.data_bytes + self.writes * I2C_WRITE_OVERHEAD


NOTHING_SENT = SendReport((), 0, 0, 0, False)


# -- frames as controller RAM ------------------------------------------------


def frame_bytes(image: Image.Image) -> bytes:
    """A 128x64 mode-"1" image as the controller's RAM: page after page, each
    128 column bytes whose bit 0 is the page's top row.

    Transposing makes each image column a row of 64 pixels, which "1;R"
    packs least significant bit first: 8 bytes per column, one per page.
    Slicing every 8th byte then gathers a page, all in C.
    """
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return b"".join(columns[page::PAGES] for page in range(PAGES))


def _run_pattern(join_gap: int) -> re.Pattern[bytes]:
    """Runs of changed (non-zero) bytes, taking in gaps of up to ``join_gap``
    unchanged bytes: resending a short gap is cheaper than a new write."""
    return re.compile(rb"[^\x00](?:\x00{0,%d}[^\x00])*" % join_gap)


def changed_segments(old: bytes | None, new: bytes, join_gap: int) -> list[list[tuple[int, int]]]:
    """Per page, the changed column runs (first, last), as few as pays.

    One XOR of the two frames read as integers marks every changed byte,
    and a regular expression finds the runs: no Python loop over pixels.
    """
    if old is None:
        return [[(0, WIDTH - 1)] for _ in range(PAGES)]
    if old == new:
        return [[] for _ in range(PAGES)]
    diff = (int.from_bytes(old, "little") ^ int.from_bytes(new, "little")).to_bytes(
        FRAME_BYTES, "little")
    runs = _run_pattern(join_gap)
    return [
        [(m.start() - p * WIDTH, m.end() - 1 - p * WIDTH)
         for m in runs.finditer(diff, p * WIDTH, (p + 1) * WIDTH)]
        for p in range(PAGES)
    ]


def page_patches(segments: Sequence[Sequence[tuple[int, int]]]) -> list[Patch]:
    """One patch per changed run of each page: what page addressing sends."""
    return [Patch(p, p, first, last) for p, runs in enumerate(segments) for first, last in runs]


def rectangle_patches(segments: Sequence[Sequence[tuple[int, int]]],
                      write_cost: int) -> list[Patch]:
    """Changed runs gathered into rectangles, where that costs fewer bytes on the wire.

    Horizontal addressing rewrites a rectangle of pages and columns in one
    write: stretching a rectangle down over the next page's run saves
    ``write_cost`` and costs the unchanged bytes it also covers.  Going down
    the pages, each run stretches the rectangle above it that wastes least,
    if that pays, or starts its own: a digit 4 pages tall becomes one write.
    """
    done: list[Patch] = []
    open_above: list[Patch] = []
    for page, runs in enumerate(segments):
        here: list[Patch] = []
        for first, last in runs:
            run = Patch(page, page, first, last)
            best, best_waste = None, write_cost
            for rectangle in open_above:
                stretched = _bounding((rectangle, run))
                waste = stretched.size - rectangle.size - run.size
                if waste < best_waste:
                    best, best_waste = rectangle, waste
            if best is None:
                here.append(run)
            else:
                open_above.remove(best)
                here.append(_bounding((best, run)))
        done += open_above
        open_above = here
    return sorted(done + open_above, key=lambda p: (p.first_page, p.first_column))


def _bounding(patches: Sequence[Patch]) -> Patch:
    return Patch(min(p.first_page for p in patches), max(p.last_page for p in patches),
                 min(p.first_column for p in patches), max(p.last_column for p in patches))


# -- how each controller is addressed ---------------------------------------


def _patch_data(frame: bytes, patch: Patch) -> bytes:
    return b"".join(
        frame[p * WIDTH + patch.first_column:p * WIDTH + patch.last_column + 1]
        for p in range(patch.first_page, patch.last_page + 1)
    )


class _HorizontalAddressing:
    """SSD1306: a column range and a page range, then the rectangle's bytes."""

    write_cost = I2C_WRITE_OVERHEAD + 6 + I2C_WRITE_OVERHEAD

    def plan(self, segments: Sequence[Sequence[tuple[int, int]]]) -> list[Patch]:
        return rectangle_patches(segments, self.write_cost)

    def send(self, device: Any, frame: bytes, patch: Patch) -> tuple[int, int]:
        device.command(COLUMNADDR, patch.first_column, patch.last_column,
                       PAGEADDR, patch.first_page, patch.last_page)
        data = _patch_data(frame, patch)
        device.data(data)
        return 6, len(data)


class _PageAddressing:
    """SH1106: one page at a time, from a column of its 132-column RAM."""

    write_cost = I2C_WRITE_OVERHEAD + 3 + I2C_WRITE_OVERHEAD

    def __init__(self, column_offset: int) -> None:
        self.column_offset = column_offset

    def plan(self, segments: Sequence[Sequence[tuple[int, int]]]) -> list[Patch]:
        return page_patches(segments)

    def send(self, device: Any, frame: bytes, patch: Patch) -> tuple[int, int]:
        column = patch.first_column + self.column_offset
        device.command(SETPAGE | patch.first_page,
                       SETLOWCOLUMN | (column & 0x0F),
                       SETHIGHCOLUMN | (column >> 4))
        data = _patch_data(frame, patch)
        device.data(data)
        return 3, len(data)


def _open_luma_device(controller: str, serial: Any, rotate: int) -> Any:
    from luma.oled.device import sh1106, ssd1306

    kind = {"ssd1306": ssd1306, "sh1106": sh1106}[controller]
    return kind(serial, width=WIDTH, height=HEIGHT, rotate=rotate)


def _display_errors() -> tuple[type[BaseException], ...]:
    """What a missing or unplugged display raises: the OS's I/O errors and
    luma's own (DeviceNotFoundError for a silent address)."""
    try:
        from luma.core.error import Error as LumaError
    except ImportError:  # pragma: no cover - luma is a dependency
        return (OSError,)
    return (OSError, LumaError)


# -- the display --------------------------------------------------------------


class Display:
    """A 128x64 SSD1306 or SH1106 that is sent only what changed.

    ``serial_interface`` is any object with luma's serial interface methods
    (``command(*bytes)``, ``data(bytes)``, ``cleanup()``); without it a luma
    ``i2c(port, address)`` is opened.  ``clock`` gives seconds (monotonic)
    for the retry backoff.  Call :meth:`show` from one thread at a time;
    :meth:`off` may come from another (a signal handler), so both take a lock.
    """

    def __init__(
        self,
        controller: str = "ssd1306",
        *,
        port: int = DEFAULT_PORT,
        address: int | str = DEFAULT_ADDRESS,
        rotate: int = 0,
        serial_interface: Any = None,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff = BACKOFF,
    ) -> None:
        controller = controller.strip().lower()
        if controller not in CONTROLLERS:
            raise DisplaySettingError(
                f"no display controller {controller!r}; the controllers are: "
                f"{', '.join(CONTROLLERS)}"
            )
        if rotate not in (0, 2):
            raise DisplaySettingError(
                f"rotate is {rotate!r}; it must be 0, or 2 for a display mounted upside "
                "down (the screens are drawn landscape)"
            )
        try:
            address = int(str(address), 0)  # 60 or "0x3C", as a config file writes it
        except ValueError:
            raise DisplaySettingError(
                f"the display's I2C address is {address!r}; write it as a number such as 0x3C"
            ) from None
        self.controller = controller
        self.port = port
        self.address = address
        self.rotate = rotate
        self._serial = serial_interface
        self._serial_given = serial_interface is not None
        self._clock = clock
        self._backoff = backoff
        self._errors = _display_errors()
        self._addressing: _HorizontalAddressing | _PageAddressing = (
            _HorizontalAddressing() if controller == "ssd1306"
            else _PageAddressing(SH1106_COLUMN_OFFSET)
        )
        self._lock = threading.Lock()
        self._device: Any = None
        self._previous: bytes | None = None
        self._failures = 0
        self._retry_at = float("-inf")
        self._closed = False
        self.status = "not opened yet"
        self.last_error: str | None = None
        self.last_sent = NOTHING_SENT
        self.frames_sent = 0
        self.frames_unchanged = 0
        self.frames_dropped = 0
        with self._lock:
            self._open()

    # -- public ---------------------------------------------------------------

    @property
    def ok(self) -> bool:
        """True while a display answers."""
        return self._device is not None

    @property
    def where(self) -> str:
        return f"0x{self.address:02X} on I2C bus {self.port}"

    def show(self, image: Image.Image) -> bool:
        """Put ``image`` on the display, sending only what changed.

        Returns True when the display now shows it, False when the frame was
        dropped (no display, an I/O error, or closed).
        """
        _check_frame(image)
        with self._lock:
            self.last_sent = NOTHING_SENT
            if self._closed:
                self.frames_dropped += 1
                return False
            if self._device is None and not self._retry():
                self.frames_dropped += 1
                return False
            frame = frame_bytes(self._device.preprocess(image))
            if frame == self._previous:
                self.frames_unchanged += 1
                return True
            try:
                self.last_sent = self._send(frame)
            except self._errors as error:
                self._failed(error)
                self.frames_dropped += 1
                return False
            self._previous = frame
            self.frames_sent += 1
            return True

    def off(self, message: str = OFF_MESSAGE) -> None:
        """Leave a last screen that says the companion is off, then close."""
        from drivers.screens import off_screen

        with self._lock:
            # One last attempt whatever the backoff says: this is the last frame.
            self._retry_at = float("-inf")
        self.show(off_screen(message))
        with self._lock:
            if self._device is not None:
                # luma's cleanup (and its atexit hook) would blank the panel.
                self._device.persist = True
            self._close()

    def close(self) -> None:
        """Switch the display off and release the bus.  Later frames are dropped."""
        with self._lock:
            self._close()

    # -- opening, losing and sending ----------------------------------------

    def _retry(self) -> bool:
        if self._clock() < self._retry_at:
            return False
        return self._open()

    def _open(self) -> bool:
        try:
            if self._serial is None:
                self._serial = self._open_i2c()
            self._serial.command(NOP)
            self._device = _open_luma_device(self.controller, self._serial, self.rotate)
        except self._errors as error:
            self._failed(error)
            return False
        except ImportError as error:
            self._failed(error, f"cannot drive the display: {error} (install luma.oled and smbus2)")
            return False
        if self._failures:
            log.info("display at %s answers again", self.where)
        self._failures = 0
        self.last_error = None
        self.status = f"{self.controller.upper()} at {self.where}"
        return True

    def _open_i2c(self) -> Any:
        from luma.core.interface.serial import i2c

        return i2c(port=self.port, address=self.address)

    def _failed(self, error: BaseException, status: str | None = None) -> None:
        # Opening again sends a full frame: the panel may have lost power.
        self._device = None
        self._previous = None
        if status is None:
            status = self._diagnosis(error)
        if self._failures == 0 or status != self.status:
            log.warning("%s (%s); frames are dropped until it answers", status, error)
        self._failures += 1
        self._retry_at = self._clock() + self._backoff.delay(self._failures)
        self.status = status
        self.last_error = f"{type(error).__name__}: {error}"

    def _diagnosis(self, error: BaseException) -> str:
        if type(error).__name__ == "DevicePermissionError" or isinstance(error, PermissionError):
            return (f"no permission to use I2C bus {self.port}: "
                    "add the companion's user to the 'i2c' group")
        return (f"no display at {self.where}: check the wiring and that I2C is enabled "
                "(raspi-config)")

    def _send(self, frame: bytes) -> SendReport:
        segments = changed_segments(self._previous, frame, self._addressing.write_cost)
        patches = self._addressing.plan(segments)
        command_bytes = data_bytes = 0
        for patch in patches:
            sent_commands, sent_data = self._addressing.send(self._device, frame, patch)
            command_bytes += sent_commands
            data_bytes += sent_data
        return SendReport(tuple(patches), command_bytes, data_bytes, 2 * len(patches),
                          full=self._previous is None)

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        device, self._device = self._device, None
        self.status = "closed"
        try:
            if device is not None:
                device.cleanup()
            elif self._serial is not None and not self._serial_given:
                self._serial.cleanup()
        except self._errors as error:
            log.info("display at %s did not close cleanly: %s", self.where, error)


def _check_frame(image: Image.Image) -> None:
    if image.mode != "1" or image.size != (WIDTH, HEIGHT):
        raise ValueError(
            f"a frame is a {WIDTH}x{HEIGHT} image of mode '1', not "
            f"{image.size[0]}x{image.size[1]} of mode {image.mode!r}"
        )


# -- a serial interface that records, for tests and the simulation ------------


class RecordingInterface:
    """A stand-in for luma's ``i2c`` that records what a device sends.

    ``writes`` holds ``("command", bytes)`` and ``("data", bytes)`` in order
    (the last ``keep`` of them, all when ``keep`` is None).  Setting
    ``fault`` to an exception makes every write raise it, as an unplugged
    display does; ``refused`` counts those writes.
    """

    def __init__(self, keep: int | None = None) -> None:
        self.writes: deque[tuple[str, bytes]] = deque(maxlen=keep)
        self.fault: BaseException | None = None
        self.refused = 0
        self.cleaned_up = False

    def command(self, *cmd: int) -> None:
        if len(cmd) > 32:
            # luma's i2c sends commands in one SMBus block, which holds 32 bytes.
            raise ValueError(f"{len(cmd)} command bytes in one write; I2C takes at most 32")
        self._write("command", bytes(cmd))

    def data(self, data: Sequence[int] | bytes) -> None:
        self._write("data", bytes(data))

    def cleanup(self) -> None:
        self.cleaned_up = True

    def _write(self, kind: str, payload: bytes) -> None:
        if self.fault is not None:
            self.refused += 1
            raise self.fault
        self.writes.append((kind, payload))

    def clear(self) -> None:
        self.writes.clear()

    @property
    def command_bytes(self) -> int:
        return sum(len(p) for kind, p in self.writes if kind == "command")

    @property
    def data_bytes(self) -> int:
        return sum(len(p) for kind, p in self.writes if kind == "data")

    @property
    def wire_bytes(self) -> int:
        """Bytes on an I2C bus: each write adds the address and control bytes."""
        return sum(len(p) + I2C_WRITE_OVERHEAD for _, p in self.writes)
