"""The table screen's frames, numbered: one copy of the frame on the
display (its pixels), which the screen writes and the panel's mirror reads,
with its PNG made once, when a phone asks."""

from __future__ import annotations

import io
import threading
from typing import Any, Callable


class Frames:
    """The frame shown (from the screen's thread), its number (0: none yet;
    one more for each that differs from the one before) and its PNG, made
    once when asked (from the panel's threads).

    The frame is kept once, as its pixels: what the next frame is compared
    with and what the PNG is made from."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pixels: tuple[str, tuple[int, int], bytes] | None = None
        self._png: tuple[int, bytes] | None = None
        self._number = 0

    @property
    def number(self) -> int:
        with self._lock:
            return self._number

    def shown(self, image: Any) -> int | None:
        """``image`` is on the display now: its new number, or None when its
        pixels are the last frame's."""
        pixels = (image.mode, image.size, image.tobytes())
        with self._lock:
            if pixels == self._pixels:
                return None
            self._pixels = pixels
            self._number += 1
            return self._number

    def numbered_png(self, idle: Callable[[], Any]) -> tuple[int, bytes]:
        """The frame's number and PNG (``idle()``'s before the first)."""
        with self._lock:
            pixels, cached, number = self._pixels, self._png, self._number
        if pixels is None:
            return number, png_of(idle())
        if cached is not None and cached[0] == number:
            return number, cached[1]
        from PIL import Image

        data = png_of(Image.frombytes(*pixels))
        with self._lock:
            if self._number == number:
                self._png = (number, data)
        return number, data


# Every PNG file's first eight bytes.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_of(image: Any) -> bytes:
    """``image`` as a PNG file, made by Pillow's PNG plugin alone:
    ``Image.save`` first loads the plugins of five formats (BMP, GIF, JPEG,
    PPM and PNG), a third of a megabyte kept for as long as the companion
    runs, for the one format the mirror sends."""
    from PIL import PngImagePlugin

    out = io.BytesIO()
    out.write(PNG_SIGNATURE)
    for kind, data, _crc in PngImagePlugin.getchunks(image):
        PngImagePlugin.putchunk(out, kind, data)
    return out.getvalue()
