"""The OLED in three parts: :mod:`.diff` (what changed between two frames
and how few writes rewrite it), :mod:`.device` (the luma device, sent only
the changes, that recovers on its own timer) and :mod:`.fakebus` (a serial
interface that records, for tests and the simulation)."""

from drivers.oled.device import (
    CONTROLLERS,
    DEFAULT_ADDRESS,
    DEFAULT_PORT,
    NOTHING_SENT,
    OFF_MESSAGE,
    PROBE_EVERY,
    Display,
    DisplaySettingError,
    SendReport,
    thread_timer,
)
from drivers.oled.diff import FRAME_BYTES, HEIGHT, PAGES, WIDTH, Patch, frame_bytes
from drivers.oled.fakebus import I2C_WRITE_OVERHEAD, RecordingInterface

__all__ = [
    "CONTROLLERS", "DEFAULT_ADDRESS", "DEFAULT_PORT", "FRAME_BYTES", "HEIGHT",
    "I2C_WRITE_OVERHEAD", "NOTHING_SENT", "OFF_MESSAGE", "PAGES", "PROBE_EVERY",
    "WIDTH", "Display", "DisplaySettingError", "Patch", "RecordingInterface",
    "SendReport", "frame_bytes", "thread_timer",
]
