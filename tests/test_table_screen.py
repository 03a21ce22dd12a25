"""The table's screen thread: alerts, dice results and faults shown for a
moment, and the table's own faults again while they last."""

from __future__ import annotations

import io
import threading
import time

import pytest
from PIL import Image, ImageChops

from companion.core.engine import Command
from companion.core.text import say
from companion.host.config import Config
from companion.parts.bus import Bus, FaultsNow, NetworkChanged
from companion.parts.lifecycle import PartContext
from companion.parts.screen import (
    ALERT_SECONDS,
    FAULT_AGAIN_SECONDS,
    FAULT_SECONDS,
    ScreenPart,
    fault_screen,
)
from drivers.dice import DiceTray
from drivers.menu_screens import render
from drivers.screens import alert_screen, dice_screen, event_screen


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Dice:
    """What the screen needs of the dice service: a source, and its ROLL key
    (a real tray at the table, rolling the faces it is given)."""

    source = "manual"

    def __init__(self, table, *faces: int) -> None:
        self.faces = list(faces)
        self.tray = DiceTray.at_table(table, source="button", rng=self)

    def randint(self, low: int, high: int) -> int:
        return self.faces.pop(0)

    def set_source(self, name: str) -> None:
        self.source = name

    def roll_button(self):
        return self.tray.on_roll_button()


class NoDisplay:
    display = None


class Address:
    """Where phones reach the panel, as the join screens say it."""

    def __init__(self, url: str = "http://192.0.2.7:8080/", pin: str = "1") -> None:
        self.url, self.pin = url, pin

    def join_info(self) -> tuple[str, str]:
        return self.url, self.pin

    def sign_out(self) -> tuple[str, str]:
        return self.join_info()


def screen_part(table, display=None, dice=None, *, pin: str = "1", language: str = "en",
                clock=time.monotonic, bus=None) -> ScreenPart:
    """The screen part, as the daemon makes it, on ``display`` (none)."""
    setup = PartContext(config=Config(language=language), bus=bus or Bus())
    return ScreenPart(setup, table=table, display=display or NoDisplay(),
                      dice=dice or Dice(table), pixels=None, network=None,
                      address=Address(pin=pin), venue=None, clock=clock)


@pytest.fixture
def screen(table):
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    clock = Clock()
    part = screen_part(table, dice=Dice(table, 3), pin="123456", clock=clock)
    part.clock = clock
    part.start()
    yield part
    part.stop()


def shown(part: ScreenPart) -> Image.Image:
    return Image.open(io.BytesIO(part.png())).convert("1")


def wait_for(part: ScreenPart, expected, timeout: float = 10) -> None:
    """Wait until the screen shows ``expected`` (an image, or a function
    giving it, for a frame that depends on what the thread has done)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = expected() if callable(expected) else expected
        if ImageChops.difference(shown(part), frame.convert("1")).getbbox() is None:
            return
        time.sleep(0.01)
    raise AssertionError("the screen never showed the expected frame")


def menu_frame(part: ScreenPart):
    return lambda: render(part.menu.view(), part.menu.update)


def test_a_threshold_fired_is_shown_then_the_game_comes_back(screen, table):
    update = table.submit(Command("card", {"value": 30}))
    update = table.submit(Command("card", {"value": 5}))
    alerts = [e for e in update.events if e.alert]
    assert alerts and alerts[0].kind == "threshold-fired"
    wait_for(screen, event_screen(alerts[0]))
    for _ in alerts:
        screen.clock.now += ALERT_SECONDS + 0.1
        screen.redraw()
    wait_for(screen, menu_frame(screen))


def test_a_key_puts_the_alert_away_and_still_does_its_work(screen, table):
    table.submit(Command("card", {"value": 30}))
    update = table.submit(Command("card", {"value": 1}))
    wait_for(screen, event_screen(next(e for e in update.events if e.alert)))
    screen.key("up")
    wait_for(screen, menu_frame(screen))
    assert screen.menu.view().kind == "value" and screen.menu.view().value == 1


def test_an_undo_is_not_news(screen, table):
    table.submit(Command("card", {"value": 30}))
    table.submit(Command("card", {"value": 1}))
    screen.key("back")  # put the alert away
    update = table.undo()
    wait_for(screen, menu_frame(screen))
    assert update.action == "undo"


def test_the_roll_key_rolls_through_the_dice_service_and_the_roll_is_shown(screen, table):
    table.submit(Command("card", {"value": 30}))
    table.submit(Command("card", {"value": 20}))  # 50: a Respite, the d6
    screen.dice.source = "button"
    played = []
    rolled = threading.Event()
    table.subscribe(lambda update: (played.append(update), rolled.set()))
    screen.key("roll")
    assert rolled.wait(10)
    (update,) = played
    assert update.command == Command("roll", {"values": [3]}) and update.source == "dice"
    for alert in [e for e in update.events if e.alert]:
        wait_for(screen, event_screen(alert))
        screen.clock.now += ALERT_SECONDS + 0.1
        screen.redraw()
    wait_for(screen, dice_screen([3], "d6"))
    screen.clock.now += 10
    screen.redraw()
    wait_for(screen, menu_frame(screen))


def test_the_screen_thread_sleeps_until_something_happens(screen):
    # With nothing on screen for a moment, the thread waits without a timeout.
    assert screen._time_left() is None
    assert isinstance(screen._thread, threading.Thread) and screen.alive


UNPLUGGED = "dice device: waiting for /dev/ttyUSB0: not plugged in"
NO_GPIO = "buttons: no GPIO found"


def test_a_fault_is_shown_with_what_is_missing_as_its_title():
    assert ImageChops.difference(
        fault_screen(UNPLUGGED),
        alert_screen("waiting for /dev/ttyUSB0: not plugged in", "Dice device")).getbbox() is None


def test_a_new_fault_is_shown_for_a_moment_then_the_game_comes_back(screen):
    screen.show_faults([UNPLUGGED])
    wait_for(screen, fault_screen(UNPLUGGED))
    screen.clock.now += FAULT_SECONDS + 0.1
    screen.redraw()
    wait_for(screen, menu_frame(screen))


def test_a_fault_already_shown_is_not_shown_again(screen):
    screen.show_faults([UNPLUGGED])
    wait_for(screen, fault_screen(UNPLUGGED))
    screen.clock.now += FAULT_SECONDS + 0.1
    screen.redraw()
    wait_for(screen, menu_frame(screen))
    screen.show_faults([UNPLUGGED])
    screen.show_faults([UNPLUGGED, NO_GPIO])
    # Shown again, the old fault would hold the screen: the clock stands still.
    wait_for(screen, fault_screen(NO_GPIO))


def test_a_fault_that_went_and_came_back_is_shown_again(screen):
    screen.show_faults([UNPLUGGED])
    screen.show_faults([])
    screen.key("back")  # a key puts the moment away
    wait_for(screen, menu_frame(screen))
    screen.show_faults([UNPLUGGED])
    wait_for(screen, fault_screen(UNPLUGGED))


# The table's faults as it tells them (companion.parts.table): a capital first.
FULL = "T" + say("refusal.card-full", "en")[1:]
DATE = say("menu.date-unknown", "en")


def test_a_fault_whose_first_words_would_not_fit_the_title_is_shown_whole():
    assert ImageChops.difference(fault_screen(FULL), alert_screen(FULL)).getbbox() is None
    date = say("menu.date-unknown", "fr")
    assert date.startswith("Date inconnue : ")
    assert ImageChops.difference(
        fault_screen(date), alert_screen(date[len("Date inconnue : "):], "Date inconnue")
    ).getbbox() is None


def settled(part: ScreenPart, timeout: float = 10) -> None:
    """Wait until the screen thread has nothing due: no moment on screen, no
    page to turn, no fault to show again."""
    deadline = time.monotonic() + timeout
    while part._time_left() is not None or not part._notes.empty():
        assert time.monotonic() < deadline, "the screen still has something to show"
        time.sleep(0.01)


def test_a_fault_that_lasts_comes_back_while_it_lasts_and_goes_once_it_is_over(screen):
    # The daemon tells the table's faults as lasting, the others once.
    screen.bus.tell(FaultsNow((UNPLUGGED, FULL), (FULL,)))
    wait_for(screen, fault_screen(UNPLUGGED))
    screen.clock.now += FAULT_SECONDS + 0.1
    screen.redraw()
    wait_for(screen, fault_screen(FULL))
    screen.clock.now += FAULT_SECONDS + 0.1
    screen.redraw()
    wait_for(screen, menu_frame(screen))
    # A minute on: the card's fault again, the dice device's not.
    screen.clock.now += FAULT_AGAIN_SECONDS
    screen.redraw()
    wait_for(screen, fault_screen(FULL))
    screen.clock.now += FAULT_SECONDS + 0.1
    screen.redraw()
    wait_for(screen, menu_frame(screen))
    screen.key("ok")  # a key puts it away; it comes back all the same
    screen.clock.now += FAULT_AGAIN_SECONDS
    screen.redraw()
    wait_for(screen, fault_screen(FULL))
    # Room again: the fault goes at once, and does not come back.
    screen.bus.tell(FaultsNow((UNPLUGGED,)))
    wait_for(screen, menu_frame(screen))
    settled(screen)
    for _ in range(3):
        screen.clock.now += FAULT_AGAIN_SECONDS
        screen.redraw()
        wait_for(screen, menu_frame(screen))
    settled(screen)


def test_the_date_unknown_comes_back_until_the_clock_is_set(screen):
    screen.bus.tell(FaultsNow((DATE,), (DATE,)))
    wait_for(screen, fault_screen(DATE))
    screen.clock.now += FAULT_SECONDS + 0.1
    screen.redraw()
    wait_for(screen, menu_frame(screen))
    screen.clock.now += FAULT_AGAIN_SECONDS
    screen.redraw()
    wait_for(screen, fault_screen(DATE))
    # The card fills: the table says it instead of the date, at once; once
    # the card has room again, the date instead of it.
    screen.bus.tell(FaultsNow((FULL,), (FULL,)))
    wait_for(screen, fault_screen(FULL))
    screen.bus.tell(FaultsNow((DATE,), (DATE,)))
    wait_for(screen, fault_screen(DATE))
    screen.clock.now += FAULT_SECONDS + 0.1
    screen.redraw()
    wait_for(screen, menu_frame(screen))
    screen.bus.tell(FaultsNow(()))  # the clock is set
    settled(screen)
    screen.clock.now += FAULT_AGAIN_SECONDS
    screen.redraw()
    wait_for(screen, menu_frame(screen))
    settled(screen)


def test_a_card_played_with_the_keys_on_a_full_memory_card_is_refused_on_the_screen(
        table, caplog):
    from tests.test_menu import fill_the_card

    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    version = fill_the_card(table)
    part = screen_part(table, clock=Clock())
    part.start()
    try:
        wait_for(part, menu_frame(part))
        part.key("ok")
        part.key("ok")  # a +0 card: the card cannot take it
        wait_for(part, alert_screen(say("refusal.card-full", "en"), "Refused"))
    finally:
        part.stop()
    assert table.version == version
    assert not [r for r in caplog.records if r.name == "companion.parts.screen"]


def _bathroom_rush_turn(table):
    table.new_game("bathroom-rush", ["Ana", "Ben", "Cy"])
    for queue in (2, 3, 4):
        table.submit(Command("choose-queue", {"queue": queue}))
    while (update := table.current()).expected and update.expected[0].command == "reveal":
        args = dict(update.expected[0].args)
        args.update(pipi=1, popo=0, colour="neutral")
        table.submit(Command("reveal", args))
    return table.current()


def test_bathroom_rush_shows_the_active_player_then_every_queue_in_turn(screen, table):
    from companion.parts.screen import PAGE_SECONDS

    update = _bathroom_rush_turn(table)
    assert update.expected[0].player == 0
    player_page = render(screen.menu.view(), update, "en", 0)
    queues_page = render(screen.menu.view(), update, "en", 1)
    assert ImageChops.difference(player_page, queues_page).getbbox() is not None
    wait_for(screen, player_page)
    screen.clock.now += PAGE_SECONDS[0] + 0.1
    screen.redraw()
    wait_for(screen, queues_page)
    screen.clock.now += PAGE_SECONDS[1] + 0.1
    screen.redraw()
    wait_for(screen, player_page)
    # After any change the first page comes back at once: Ana passes, Ben's turn.
    screen.clock.now += PAGE_SECONDS[0] + 0.1
    screen.redraw()
    wait_for(screen, queues_page)
    table.submit(Command("pass", {}))
    wait_for(screen, lambda: render(screen.menu.view(), table.current(), "en", 0))
    ben = render(screen.menu.view(), table.current(), "en", 0)
    assert ImageChops.difference(ben, player_page).getbbox() is not None


def test_a_game_of_one_page_never_turns(screen, table):
    from companion.parts.screen import PAGE_SECONDS

    wait_for(screen, menu_frame(screen))
    before = shown(screen)
    screen.clock.now += PAGE_SECONDS[0] + 0.1
    screen.redraw()
    wait_for(screen, before)
    assert screen._paging.page == 0


class RecordingDisplay:
    """A display that keeps each frame offered, with the table's version
    the menu knew when it was drawn."""

    def __init__(self) -> None:
        self.display = self
        self.part: ScreenPart | None = None
        self.frames: list[int] = []
        self.drawn = threading.Condition()

    def show(self, image) -> bool:
        with self.drawn:
            self.frames.append(self.part.menu.update.version)
            self.drawn.notify_all()
        return True

    def wait_for_version(self, version: int) -> None:
        with self.drawn:
            assert self.drawn.wait_for(lambda: version in self.frames, timeout=10)


def test_a_key_that_plays_a_command_draws_one_frame_with_its_update(table):
    # The table's update reaches the screen thread while it handles the key:
    # it is drawn with the key, not once more after it (a frame is about a
    # millisecond of a Pi Zero's CPU).
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    display = RecordingDisplay()
    part = watched(table, display)
    try:
        version = table.current().version
        part.key("ok")  # the card's value, at +0
        with display.drawn:
            assert display.drawn.wait_for(lambda: part.menu.view().kind == "value", timeout=10)
        part.key("ok")  # plays it: the table's update comes back to the screen
        display.wait_for_version(version + 1)
    finally:
        part.stop()
    assert table.current().version == version + 1
    assert display.frames.count(version + 1) == 1


def test_while_idle_the_screen_measures_the_alerts_glyphs_ahead(table):
    from drivers.screens import canvas
    from drivers.screens.common import ALERT_GLYPHS, ALERT_TYPE

    canvas.glyph_edges.cache_clear()
    canvas.ink.cache_clear()
    part = screen_part(table)
    part.start()
    try:
        wanted = len(ALERT_GLYPHS) * len({(s, b) for s, _r, b in ALERT_TYPE} | {(12, True)})
        deadline = time.monotonic() + 30
        while canvas.glyph_edges.cache_info().currsize < wanted and time.monotonic() < deadline:
            time.sleep(0.01)
        assert canvas.glyph_edges.cache_info().currsize >= wanted
        misses = canvas.glyph_edges.cache_info().misses
        canvas.layout.cache_clear()
        canvas.layout("Shuffle the discard pile", 10)
        assert canvas.glyph_edges.cache_info().misses == misses  # every glyph measured already
        # Measured, not drawn: their masks are kept as bytes; images are
        # made only of what the screen drew.
        assert canvas.ink.cache_info().currsize < wanted / 4
    finally:
        part.stop()


def watched(table, display: RecordingDisplay) -> ScreenPart:
    """The screen part started on ``display``, once it has drawn the table
    as it is."""
    part = screen_part(table, display)
    display.part = part
    part.start()
    display.wait_for_version(table.current().version)
    return part


class KeepingDisplay(RecordingDisplay):
    """A recording display that keeps the images too."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[Image.Image] = []

    def show(self, image) -> bool:
        with self.drawn:
            self.images.append(image.copy())
        return super().show(image)


def test_a_card_that_fires_an_alert_is_shown_landing_first_then_its_alert(table):
    # The card's frame (the pressure it made) goes out before the alert's
    # large type is drawn: a player sees the card land at once.
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    table.submit(Command("card", {"value": 30}))
    display = KeepingDisplay()
    part = watched(table, display)
    try:
        version = table.current().version
        update = table.submit(Command("card", {"value": 5}))
        alert = next(e for e in update.events if e.alert)
        with display.drawn:
            assert display.drawn.wait_for(
                lambda: display.frames.count(version + 1) >= 2, timeout=10)
            first = display.frames.index(version + 1)
            landing, then = display.images[first], display.images[first + 1]
        game = render(part.menu.view(), update)
    finally:
        part.stop()
    assert ImageChops.difference(landing.convert("1"), game.convert("1")).getbbox() is None
    assert ImageChops.difference(then.convert("1"),
                                 event_screen(alert).convert("1")).getbbox() is None


WIFI_NEWS = ("menu.wifi-in-reach", "menu.wifi-lost", "menu.wifi-join-failed",
             "menu.wifi-why-wrong-password", "menu.wifi-why-not-found",
             "menu.wifi-why-timeout", "menu.wifi-why-failed")


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_the_wifi_news_is_said_in_the_tables_language(table, lang):
    from companion.core.menu import ViewKind
    from companion.core.text import say

    if lang != "en":
        fields = {"ssid": "Home", "reason": "?"}
        assert all(say(key, lang, **fields) != say(key, "en", **fields) for key in WIFI_NEWS)
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    clock = Clock()
    part = screen_part(table, clock=clock, language=lang)
    part.start()
    try:
        title = say("menu.wifi", lang)
        part.bus.tell(NetworkChanged("offer", "Home"))
        wait_for(part, alert_screen(say("menu.wifi-in-reach", lang, ssid="Home"), title))
        clock.now += ALERT_SECONDS + 0.1
        part.bus.tell(NetworkChanged("lost"))
        wait_for(part, fault_screen(say("menu.wifi-lost", lang)))
        clock.now += FAULT_SECONDS + 0.1
        part.bus.tell(NetworkChanged("join-failed", "Home", "wrong-password"))
        said = say("menu.wifi-join-failed", lang, ssid="Home",
                   reason=say("menu.wifi-why-wrong-password", lang))
        wait_for(part, menu_frame(part))
        view = part.menu.view()
        assert (view.kind, view.title, view.text) == (ViewKind.MESSAGE, title, said)
        assert "Home" in said and say("menu.wifi-why-wrong-password", lang) in said
    finally:
        part.stop()
