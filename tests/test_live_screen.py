"""The table's screen on the live stream: each new frame pushed to every
phone as a ``screen`` event (its number and, when small, the PNG itself),
read and encoded once for all of them, and not at all with no phone
watching."""

from __future__ import annotations

import base64
import json

from companion.core.journal import Journal
from companion.core.table import Table
from web.live import SMALL_FRAME, Broadcast

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 100


class Screen:
    """A stand-in screen: numbered frames, listeners told of each."""

    def __init__(self, png: bytes = PNG) -> None:
        self.number = 1
        self.png = png
        self.read = 0
        self.listeners: list = []

    def frame(self) -> tuple[int, bytes]:
        self.read += 1
        return self.number, self.png

    def news(self, listener):
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def change(self) -> None:
        self.number += 1
        for listener in self.listeners:
            listener()


def messages(feed, count: int) -> list[tuple[str, dict]]:
    out = []
    while len(out) < count:
        chunk = next(feed).decode()
        if chunk.startswith("event: "):
            head, data = chunk.split("\n", 1)
            out.append((head[len("event: "):], json.loads(data[len("data: "):])))
    return out


def test_each_new_frame_goes_to_every_stream_read_once():
    table = Table(Journal.open(":memory:"))
    live = Broadcast(table, render=lambda update: {})
    screen = Screen()
    live.follow_screen(screen.news, screen.frame)
    # Nobody watches: a new frame costs no read of it.
    screen.change()
    assert screen.read == 0
    feeds = [live.stream([]) for _ in range(3)]
    screen.change()
    for feed in feeds:
        [(event, data)] = messages(feed, 1)
        assert event == "screen"
        assert data == {"frame": 3,
                        "png": "data:image/png;base64," + base64.b64encode(PNG).decode()}
    assert screen.read == 1
    for feed in feeds:
        feed.close()
    live.close()
    table.close()


def test_a_large_frame_goes_as_its_number():
    table = Table(Journal.open(":memory:"))
    live = Broadcast(table, render=lambda update: {})
    screen = Screen(png=b"\x89PNG" + b"\x00" * (SMALL_FRAME + 1))
    live.follow_screen(screen.news, screen.frame)
    feed = live.stream([])
    screen.change()
    assert messages(feed, 1) == [("screen", {"frame": 2})]
    feed.close()
    live.close()
    table.close()
