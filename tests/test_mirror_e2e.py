"""The panel's OLED mirror on two phones in headless Chromium, against the
simulated companion (its real screen): each frame the table's screen shows
reaches both mirrors, pushed on the live stream, without a single request
for the screen's image.  The delays are measured (printed with -s);
benchmarks/bench_mirror.py gives the figures for 32 phones."""

from __future__ import annotations

import io
import threading
import time

import pytest

from companion.core.engine import Command
from companion.parts.bus import FrameShown
from tests.test_web_e2e import PHONE, browser  # noqa: F401  (the module's browser fixture)

pytestmark = pytest.mark.browser

RECORD = """() => {
    const img = document.querySelector('#oled');
    window.frames_seen = [];
    new MutationObserver(() => window.frames_seen.push(
        {frame: Number(img.dataset.frame), at: Date.now()}))
        .observe(img, {attributes: true, attributeFilter: ['data-frame']});
}"""


@pytest.fixture
def companion(tmp_path):
    from companion.daemon import Daemon
    from companion.host.config import Config

    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    assert running.ready()
    yield running
    running.stop()


def test_two_phones_mirrors_follow_the_screens_frames_pushed(browser, companion):  # noqa: F811
    table = companion.table_part.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    base = f"http://127.0.0.1:{companion.part('panel').port}"
    controller = browser.new_page(viewport=PHONE)
    spectator = browser.new_page(viewport=PHONE)
    pages = {"controller": controller, "spectator": spectator}
    asked: list[str] = []
    try:
        controller.goto(companion.part("panel").access.join_url(base))
        spectator.goto(base + "/")
        for page in pages.values():
            page.wait_for_selector("#conn[data-state=live]")
            page.wait_for_function("() => document.querySelector('#oled').dataset.frame")
            page.evaluate(RECORD)
            page.on("request", lambda request: asked.append(request.url))
        screen = companion.part("screen")
        drawn: dict[int, float] = {}
        lock = threading.Lock()
        new_frame = threading.Event()

        def heard(number: int) -> None:
            with lock:
                drawn.setdefault(number, time.time() * 1000)
            new_frame.set()

        stop = companion.setup.bus.subscribe(FrameShown, lambda shown: heard(shown.number))
        try:
            for value in (5, 7, -3, 9):
                new_frame.clear()
                table.submit(Command("card", {"value": value}))
                # The screen draws the card on its own thread: its frame
                # may come after submit() returned.
                assert new_frame.wait(30)
                now = screen.frame_number
                for page in pages.values():
                    page.wait_for_function(
                        "(n) => Number(document.querySelector('#oled').dataset.frame) >= n",
                        arg=now)
        finally:
            stop()
        # The last card's frame, or a newer one (its alert) in its stead.
        last = max(drawn)
        for name, page in pages.items():
            page.wait_for_function(
                "(n) => Number(document.querySelector('#oled').dataset.frame) >= n", arg=last)
            seen = page.evaluate("window.frames_seen")
            assert seen, name
            # Each frame the screen drew is shown, or a newer one in its stead.
            delays = []
            for number, at in sorted(drawn.items()):
                shown = next(s["at"] for s in seen if s["frame"] >= number)
                delays.append(shown - at)
            print(f"{name}: frames {sorted(drawn)} followed after "
                  f"{', '.join(f'{d:.0f}' for d in delays)} ms")
            # The image is the screen's frame itself.
            src = page.evaluate("document.querySelector('#oled').src")
            assert src.startswith("data:image/png;base64,")
        # Not one request for the screen's image: the frames came pushed.
        assert [url for url in asked if "/api/screen.png" in url] == []
    finally:
        controller.close()
        spectator.close()
