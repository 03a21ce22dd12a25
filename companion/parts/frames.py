"""The table screen's frames, numbered: the screen keeps the one on its
display and the panel's mirror the last it was told of, each with its PNG
made once, when a phone asks."""

from __future__ import annotations

import io
import threading
from typing import Any, Callable


class Frames:
    """The frame shown (from the screen's thread), its number (0: none yet;
    one more for each that differs from the one before) and its PNG, made
    once when asked (from the panel's threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frame: Any = None
        self._png: tuple[Any, bytes] | None = None
        self._number = 0
        self._pixels: bytes | None = None

    @property
    def number(self) -> int:
        with self._lock:
            return self._number

    def shown(self, image: Any) -> int | None:
        """``image`` is on the display now: its new number, or None when its
        pixels are the last frame's."""
        pixels = image.tobytes()
        with self._lock:
            self._frame = image
            if pixels == self._pixels:
                return None
            self._pixels = pixels
            self._number += 1
            return self._number

    def put(self, number: int, image: Any) -> None:
        """The ``number``-th frame, numbered where it was shown."""
        with self._lock:
            self._frame, self._number = image, number

    def numbered_png(self, idle: Callable[[], Any]) -> tuple[int, bytes]:
        """The frame's number and PNG (``idle()``'s before the first)."""
        with self._lock:
            frame, cached, number = self._frame, self._png, self._number
        if frame is None:
            frame = idle()
        if cached is not None and cached[0] is frame:
            return number, cached[1]
        data = png_of(frame)
        with self._lock:
            if self._frame is frame:
                self._png = (frame, data)
        return number, data


def png_of(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
