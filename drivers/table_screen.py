"""The table UI on its own thread: key presses and table updates in, frames
out through the menu (:class:`companion.menu.TableMenu`), the screens
(:func:`drivers.menu_screens.render`) and the display.  The frame shown is
kept, as PNG, for the panel's mirror.
"""

from __future__ import annotations

import io
import logging
import queue
import threading
from typing import TYPE_CHECKING, Any, Callable

from companion.components import Component

if TYPE_CHECKING:
    from .parts import DicePart, DisplayPart

log = logging.getLogger(__name__)


class ScreenPart(Component):
    """The table UI on its own thread: keys in, menu, frames out.

    Keys come from gpiozero's threads and table updates from inside the
    table's lock; both only put a note on a queue.  The thread handles
    keys with the menu, then draws the newest view once.
    """

    name = "screen"

    def __init__(self, table: Any, display_part: DisplayPart, dice: DicePart,
                 join_info: Callable[[], tuple[str, str]]) -> None:
        self.table = table
        self.display_part = display_part
        self.dice = dice
        self.join_info = join_info
        self.menu: Any = None
        self._notes: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._frame: Any = None
        self._png: tuple[Any, bytes] | None = None
        self._frame_lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        from companion.menu import TableMenu

        self.menu = TableMenu(self.table, join_info=self.join_info,
                              dice_source=lambda: self.dice.source,
                              set_dice_source=self.dice.set_source)
        self._unsubscribe = self.table.subscribe(self._on_update)
        self._thread = threading.Thread(target=self._run, name="screen", daemon=True)
        self._thread.start()
        self.redraw()

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._thread is not None:
            self._notes.put(None)
            self._thread.join(5)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- from any thread --------------------------------------------------

    def key(self, key: str, kind: str = "press") -> None:
        self._notes.put(("key", key, kind))

    def redraw(self) -> None:
        self._notes.put(("draw",))

    def png(self) -> bytes:
        """The frame on the display now, as PNG (the panel's mirror)."""
        with self._frame_lock:
            frame, cached = self._frame, self._png
        if frame is None:
            from .screens import idle_screen

            frame = idle_screen()
        if cached is not None and cached[0] is frame:
            return cached[1]
        out = io.BytesIO()
        frame.save(out, "PNG")
        data = out.getvalue()
        with self._frame_lock:
            self._png = (frame, data)
        return data

    def _on_update(self, update: Any) -> None:
        self.menu.on_update(update)
        self._notes.put(("draw",))

    # -- the screen thread ----------------------------------------------

    def _run(self) -> None:
        while True:
            note = self._notes.get()
            notes = [note]
            while True:  # take what piled up: draw once for all of it
                try:
                    notes.append(self._notes.get_nowait())
                except queue.Empty:
                    break
            for note in notes:
                if note is None:
                    return
                if note[0] == "key":
                    self._key(note[1], note[2])
            self._draw()

    def _key(self, key: str, kind: str) -> None:
        try:
            if key == "roll" and kind == "press" and self.dice.source == "button":
                reason = self.dice.roll_button()
                if reason:
                    log.info("ROLL: %s", reason)
                return
            self.menu.on_key(key, kind)
        except Exception:
            log.exception("the %s key (%s) failed; the table goes on", key, kind)

    def _draw(self) -> None:
        try:
            from .menu_screens import render

            image = render(self.menu.view(), self.menu.update)
        except Exception:
            log.exception("drawing the screen failed")
            return
        with self._frame_lock:
            self._frame = image
        display = self.display_part.display
        if display is not None:
            display.show(image)
