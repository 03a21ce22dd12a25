"""The OLED: a luma device that is sent only what changed, and that comes
back by itself after the bus stops answering.

luma's ``ssd1306.display()`` sends the whole 1,024-byte buffer on every
frame, about 93 ms on a 100 kHz I2C bus.  :class:`Display` keeps the last
frame it sent as the controller's own RAM layout, sends nothing for an
unchanged frame, and otherwise only the patches :mod:`drivers.oled.diff`
plans, addressed the way the controller wants (rectangles in the SSD1306's
horizontal mode, one page at a time on the SH1106), through the real luma
device's ``command()`` and ``data()``.

A display that is missing or stops answering never stops the companion:
frames are dropped, :attr:`Display.status` says what is wrong, and the
display is tried again on its own timer (at most 2 s apart, one no-operation
byte each), so the last frame offered comes back within seconds of the bus
answering, with no key pressed.  The first frame after opening is always
sent in full, because the panel may have been power-cycled and its RAM
holds anything.

Each luma device registers an exit hook that holds it; the hook is taken
over here and removed when the device is dropped, so reopening releases
the old device rather than keeping every one ever built.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable, Protocol, Sequence

from PIL import Image

from companion.core.backoff import BACKOFF, Backoff
from companion.core.errors import CompanionError
from drivers.oled.diff import (
    FRAME_BYTES,
    HEIGHT,
    PAGES,
    WIDTH,
    Patch,
    changed_segments,
    frame_bytes,
    page_patches,
    rectangle_patches,
)
from drivers.oled.fakebus import I2C_WRITE_OVERHEAD

log = logging.getLogger(__name__)

__all__ = [
    "CONTROLLERS",
    "FRAME_BYTES",
    "PAGES",
    "Display",
    "DisplaySettingError",
    "Patch",
    "SendReport",
]

# The reference wiring (docs/build.md): I2C bus 1, address 0x3C.
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
# without building a luma device (an init sequence and two 8,192-entry
# tables) for a bus that does not answer.
NOP = 0xE3
# The SH1106 has 132 RAM columns; 128-pixel modules show columns 2..129.
SH1106_COLUMN_OFFSET = 2

# The display's tries follow the companion's backoff, but come at most 2 s
# apart: a try is one byte on the bus, cheap enough to keep the picture's
# return within 2 s of the display answering again.
PROBE_EVERY = 2.0

OFF_MESSAGE = "Companion is off"


class Cancellable(Protocol):
    def cancel(self) -> None: ...


# ``timer(delay, action)`` runs ``action`` once, ``delay`` seconds from now,
# on some thread, unless cancelled.
Timer = Callable[[float, Callable[[], None]], Cancellable]


def thread_timer(delay: float, action: Callable[[], None]) -> Cancellable:
    """A sleeping thread that runs ``action`` once: the display's retries."""
    timer = threading.Timer(delay, action)
    timer.name = "display retry"
    timer.daemon = True
    timer.start()
    return timer


class DisplaySettingError(CompanionError, ValueError):
    """The display's configuration (controller, rotation) is not one we drive."""


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


class _HookCatcher:
    """Stands in for the ``atexit`` module in ``luma.core.device`` while a
    device is built, so that its exit hook is ours to remove."""

    def __init__(self) -> None:
        self.hooks: list[Callable[[], Any]] = []

    def register(self, hook: Callable[[], Any], *args: Any, **kwargs: Any) -> Callable[[], Any]:
        self.hooks.append(hook)
        return hook


_BUILDING = threading.Lock()
# The whole of the display's RAM, as one rectangle.
WHOLE_FRAME = Patch(0, PAGES - 1, 0, WIDTH - 1)


@dataclass
class _Opened:
    """A luma device and the exit hooks that hold it."""

    device: Any
    hooks: tuple[Callable[[], Any], ...]

    def release(self) -> None:
        for hook in self.hooks:
            atexit.unregister(hook)
        self.hooks = ()


@cache
def _ssd1306() -> type:
    """luma's SSD1306 device, whose ``display()`` sends a frame as this
    driver sends its patches (the frame's bytes, one rectangle).  luma's own
    reads two tables of 8,192 ints that it builds at the start, a third of
    a megabyte kept for as long as the companion runs; here only luma's
    ``clear()`` calls it (at the start, and when the display is closed),
    so the tables go once the device is built."""
    from luma.oled.device import ssd1306

    class Ssd1306(ssd1306):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # luma 3.16's names for them: a release that renames them costs
            # the memory, not the display.
            for table in ("_mask", "_offsets"):
                self.__dict__.pop(table, None)

        def display(self, image: Image.Image) -> None:
            frame = frame_bytes(self.preprocess(image).convert("1"))
            _HorizontalAddressing().send(self, frame, WHOLE_FRAME)

    return Ssd1306


def _open_luma_device(controller: str, serial: Any, rotate: int) -> _Opened:
    import luma.core.device as luma_device
    from luma.oled.device import sh1106

    kind = {"ssd1306": _ssd1306(), "sh1106": sh1106}[controller]
    catcher = _HookCatcher()
    with _BUILDING:
        luma_device.atexit = catcher
        try:
            device = kind(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
        finally:
            luma_device.atexit = atexit
    # luma's hook switches the panel off at exit (unless ``persist``): keep
    # that for the device in use, and only for it.
    for hook in catcher.hooks:
        atexit.register(hook)
    return _Opened(device, tuple(catcher.hooks))


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
    for the retry backoff, and ``timer`` runs the retries (a sleeping thread
    by default; tests hand in one they fire themselves).  Call :meth:`show`
    from one thread at a time; :meth:`off` may come from another (a signal
    handler), and the retries from the timer's, so they all take a lock.
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
        probe_every: float = PROBE_EVERY,
        timer: Timer = thread_timer,
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
        self._probe_every = probe_every
        self._errors = _display_errors()
        self._addressing: _HorizontalAddressing | _PageAddressing = (
            _HorizontalAddressing() if controller == "ssd1306"
            else _PageAddressing(SH1106_COLUMN_OFFSET)
        )
        self._timer = timer
        self._pending: Cancellable | None = None
        self._lock = threading.Lock()
        self._opened: _Opened | None = None
        self._device: Any = None
        # The one copy of the last frame offered, as the controller's RAM
        # layout, and whether the panel shows it (False after a failure: the
        # panel's RAM is unknown, so the next send is a full frame).
        self._frame: bytes | None = None
        self._on_panel = False
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
        if self.rotate:
            image = image.transpose(Image.Transpose.ROTATE_180)
        frame = frame_bytes(image)
        with self._lock:
            return self._show(frame)

    def _show(self, frame: bytes) -> bool:
        """Offer ``frame`` (the controller's RAM layout) and send what the
        panel lacks of it."""
        self.last_sent = NOTHING_SENT
        if self._closed:
            self.frames_dropped += 1
            return False
        shown = self._frame if self._on_panel else None
        self._frame, self._on_panel = frame, False
        if self._device is None and not self._retry():
            self.frames_dropped += 1
            return False
        try:
            self.last_sent = self._send(shown, frame)
        except self._errors as error:
            self._failed(error)
            self.frames_dropped += 1
            return False
        self._on_panel = True
        if self.last_sent.patches:
            self.frames_sent += 1
        else:
            self.frames_unchanged += 1
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

    def _retry_on_timer(self) -> None:
        """The timer's try: reopen, and show the last frame offered."""
        with self._lock:
            self._pending = None
            if self._closed or self._device is not None:
                return
            if self._open() and self._frame is not None:
                self._show(self._frame)

    def _open(self) -> bool:
        try:
            if self._serial is None:
                self._serial = self._open_i2c()
            self._serial.command(NOP)
            self._opened = _open_luma_device(self.controller, self._serial, self.rotate)
            self._device = self._opened.device
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
        self._drop_device()
        self._on_panel = False
        if status is None:
            status = self._diagnosis(error)
        if self._failures == 0 or status != self.status:
            # str(): a record kept by a handler must not hold the traceback, and
            # through it the dropped device.
            log.warning("%s (%s); frames are dropped until it answers", status, str(error))
        self._failures += 1
        delay = min(self._backoff.delay(self._failures), self._probe_every)
        self._retry_at = self._clock() + delay
        self.status = status
        self.last_error = f"{type(error).__name__}: {error}"
        if self._pending is not None:
            self._pending.cancel()
        if not self._closed:
            self._pending = self._timer(delay, self._retry_on_timer)

    def _drop_device(self) -> Any:
        """Forget the device and its exit hook, so that it can be freed;
        returns it for a last cleanup."""
        device, self._device = self._device, None
        if self._opened is not None:
            self._opened.release()
            self._opened = None
        return device

    def _diagnosis(self, error: BaseException) -> str:
        if type(error).__name__ == "DevicePermissionError" or isinstance(error, PermissionError):
            return (f"no permission to use I2C bus {self.port}: "
                    "add the companion's user to the 'i2c' group")
        return (f"no display at {self.where}: check the wiring and that I2C is enabled "
                "(raspi-config)")

    def _send(self, shown: bytes | None, frame: bytes) -> SendReport:
        """Send ``frame`` where it differs from ``shown`` (None: all of it)."""
        segments = changed_segments(shown, frame, self._addressing.write_cost)
        patches = self._addressing.plan(segments)
        command_bytes = data_bytes = 0
        for patch in patches:
            sent_commands, sent_data = self._addressing.send(self._device, frame, patch)
            command_bytes += sent_commands
            data_bytes += sent_data
        return SendReport(tuple(patches), command_bytes, data_bytes, 2 * len(patches),
                          full=shown is None)

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        device = self._drop_device()
        self._frame, self._on_panel = None, False
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
