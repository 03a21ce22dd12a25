"""The table UI on its own thread: key presses and table updates in, frames
out through the menu (:class:`companion.core.menu.TableMenu`), the screens
(:func:`drivers.menu_screens.render`) and the display.  The frame shown is
kept, as PNG, and numbered: each frame that differs from the one before
gets the next number and is told on the bus (:class:`~companion.parts.bus.FrameShown`:
the panel pushes it to the phones' mirrors), so nothing has to ask for it
again and again.  Keys, the dice's and the Wi-Fi's news and the faults
come on the bus too.

Alerts (a threshold fired, a Respite, an elimination), dice results and
faults (a dice device unplugged, no GPIO) are shown for a moment over the
menu, one after another; any key puts them away and still does its work, so
a quick player loses no press.  A fault is shown when it appears, and put
away once it is over; the table's own (a memory card that cannot be
written, a date not known) come back every :data:`FAULT_AGAIN_SECONDS`
while they last (a game screen has no room to spare for them).  The panel
lists every fault while it lasts.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from companion.core.engine import Dice, Event
from companion.core.table import Settings, Table, Update
from companion.core.text import say
from companion.parts.bus import DiceChanged, FaultsNow, FrameShown, KeyPressed, NetworkChanged
from companion.parts.lifecycle import Component, PartContext

if TYPE_CHECKING:
    from companion.core.menu import TableMenu

    from .hardware import DicePart, DisplayPart, PixelsPart
    from .network import NetworkPart
    from .venue import VenueService
    from .web import AddressPart

log = logging.getLogger(__name__)

ALERT_SECONDS = 2.5
DICE_SECONDS = 2.0
FAULT_SECONDS = 4.0
# A fault that lasts (FaultsNow's ``lasting``) is shown again this long
# after it was last shown, until it is over.
FAULT_AGAIN_SECONDS = 60.0
# The alerts' glyphs are measured ahead while nothing is due sooner than this.
WARM_MARGIN = 0.05
# A game screen of two pages (Bathroom Rush: the active player, then every
# queue) shows the first this long, then the second, and again.
PAGE_SECONDS = (8.0, 4.0)
# Updates whose events are news; a replay, an undo or a new game are not.
NEWS = ("command", "redo")


# -- what the screen thread is told, from any thread ---------------------------


@dataclass(frozen=True)
class Redraw:
    """Draw the screen again (nothing changed)."""


@dataclass(frozen=True)
class TableChanged:
    """The table changed; ``alerts`` are its events to show over the menu."""

    alerts: tuple[Event, ...] = ()


@dataclass(frozen=True)
class LanguageChanged:
    """The table's language is now ``language``."""

    language: str


@dataclass(frozen=True)
class Rolled:
    """The dice service played a roll."""

    dice: Dice
    values: tuple[int, ...]


@dataclass(frozen=True)
class Faults:
    """The faults now: each ``new`` one is shown for a moment, the
    ``lasting`` ones again and again while they last; the moment of a fault
    no longer among ``now`` is put away."""

    new: tuple[str, ...]
    now: tuple[str, ...] = ()
    lasting: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stop:
    """The thread ends."""


# A key (the bus's KeyPressed) and the Wi-Fi's news (NetworkChanged) are
# queued as the bus told them.
Note = (Redraw | KeyPressed | TableChanged | LanguageChanged | Rolled | NetworkChanged | Faults
        | Stop)


class ScreenPart(Component):
    """The table UI on its own thread: keys in, menu, frames out.

    Keys come from gpiozero's threads and table updates from the table's
    listeners; both only put a :data:`Note` on a queue.  The thread handles
    keys with the menu, then draws the newest view once.
    """

    name = "screen"
    needs = ("table", "display", "dice", "pixels", "network", "address", "venue")
    provides = ("screen",)
    tells = (FrameShown,)
    hears = (KeyPressed, DiceChanged, NetworkChanged, FaultsNow,)

    def __init__(self, setup: PartContext, *, table: Table, display: DisplayPart, dice: DicePart,
                 pixels: PixelsPart | None, network: NetworkPart | None,
                 address: AddressPart, venue: VenueService | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.bus = setup.bus
        # The configured language, the table's until a controller sets one
        # (the table's settings); the screen follows the table's at once.
        self.configured_language = language = setup.config.language
        self.language = table.settings().language or language
        self.voice = setup.config.voice  # the menu's Caller section
        self._clock = clock
        self._moments = Moments(clock)
        # Alerts a batch of notes brought, shown once its frame is out.
        self._alerts: list[Event] = []
        self.display_part = display
        self.dice = dice
        self.pixels = pixels
        self.join_info = address.join_info
        self.sign_out = address.sign_out
        # The Wi-Fi part (companion.parts.network), when there is one.
        self.network = network
        self.venue = venue  # the owner allows a change of its settings from the menu
        self.menu: TableMenu | None = None
        self._notes: queue.SimpleQueue[Note] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._frames = setup.frames
        self._unsubscribes: list[Callable[[], None]] = []
        self._fault_times = FaultTimes()
        # A game screen of several pages shows them in turn: the page on
        # screen and until when (page 0 again after every change or key).
        self._paging = Paging()

    def start(self) -> None:
        from companion.core.menu import TableMenu
        from drivers.dice import RollListener

        network = self.network
        self.menu = menu = TableMenu(self.table, join_info=self.join_info, sign_out=self.sign_out,
                              dice_source=lambda: self.dice.source,
                              set_dice_source=self.dice.set_source,
                              roll=self.dice.roll_button,
                              wifi=network.wifi_join if network else None,
                              network_offer=network.offered if network else None,
                              switch_network=network.switch if network else None,
                              smart_dice=self.pixels,
                              allow_venue=self.venue.allow_changes if self.venue else None,
                              language=self.language,
                              speaker=self.voice.enabled,
                              caller_moments=self.voice.moments)
        self._unsubscribes = [
            self.table.subscribe_settings(self._on_settings),
            self.table.subscribe(self._on_update),
            self.table.subscribe(RollListener(self._on_roll, menu.update)),
            self.bus.subscribe(KeyPressed, self._notes.put),
            self.bus.subscribe(DiceChanged, lambda news: self.redraw()),
            self.bus.subscribe(NetworkChanged, self._notes.put),
            self.bus.subscribe(FaultsNow,
                               lambda news: self.show_faults(news.faults, news.lasting)),
        ]
        if self.language != self.configured_language:
            from drivers.screens.words import word

            self.display_part.farewell = word("off", self.language)
        self._thread = threading.Thread(target=self._run, name="screen", daemon=True)
        self._thread.start()
        self.redraw()

    def stop(self) -> None:
        for unsubscribe in self._unsubscribes:
            unsubscribe()
        self._unsubscribes = []
        if self._thread is not None:
            self._notes.put(Stop())
            self._thread.join(5)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- from any thread --------------------------------------------------

    def key(self, key: str, kind: str = "press") -> None:
        self._notes.put(KeyPressed(key, kind))

    def redraw(self) -> None:
        self._notes.put(Redraw())

    def show_faults(self, faults: Sequence[str], lasting: Sequence[str] = ()) -> None:
        """The faults now ("dice device: waiting for ..."), from one thread
        (the main loop): each one that is new is shown for a moment, those
        ``lasting`` again every FAULT_AGAIN_SECONDS, and one that is over
        goes from the screen."""
        news = self._fault_times.reported(tuple(faults), tuple(lasting))
        if news is not None:
            self._notes.put(news)

    def png(self) -> bytes:
        """The frame on the display now, as PNG (the panel's mirror)."""
        return self.numbered_png()[1]

    def numbered_png(self) -> tuple[int, bytes]:
        """The frame on the display now, with its number, as PNG."""
        return self._frames.numbered_png(self._idle)

    @property
    def frame_number(self) -> int:
        """The number of the frame on the display (0 before the first)."""
        return self._frames.number

    def tick(self) -> None:
        display = self.display_part.display
        if display is not None and not display.ok:
            self.redraw()  # each frame offered is a chance to reopen it

    def _idle(self) -> Any:
        from drivers.screens import idle_screen

        return idle_screen(lang=self.language)

    def _on_update(self, update: Update) -> None:
        self._the_menu().on_update(update)
        alerts = [e for e in update.events if e.alert] if update.action in NEWS else []
        self._notes.put(TableChanged(tuple(alerts)))

    def _on_settings(self, settings: Settings) -> None:
        # The table's language changed (from a phone): the next frame is in it.
        self._notes.put(LanguageChanged(settings.language or self.configured_language))

    def _on_roll(self, dice: Dice, values: list[int]) -> None:
        # The table's listener for the rolls the dice service played.
        self._notes.put(Rolled(dice, tuple(values)))

    # -- the screen thread ----------------------------------------------

    def _run(self) -> None:
        from drivers.screens.common import warm_alert_glyphs

        # While nothing happens, a glyph at a time, the alerts' type is
        # measured ahead: a key waits for one glyph at most.
        warming: Iterator[None] | None = warm_alert_glyphs()
        while True:
            if warming is not None and self._notes.empty() and free(self._time_left()):
                if next(warming, StopIteration) is StopIteration:
                    warming = None
                continue
            try:
                note = self._notes.get(timeout=self._time_left())
            except queue.Empty:
                self._time_up()
                continue
            # Take what piled up, and what taking it brought (a key's command
            # puts the table's update here), then draw once for all of it:
            # on a Pi Zero a frame costs about a millisecond of CPU.
            changed = False
            while True:
                if isinstance(note, Stop):
                    return
                self._handle(note)
                changed = changed or not isinstance(note, Redraw)
                try:
                    note = self._notes.get_nowait()
                except queue.Empty:
                    break
            if changed:
                self._paging.first()  # a change, a key: the first page again
            self._turn_page()
            self._draw()
            if self._alerts:
                # The card's frame went out first: a player sees the card
                # land at once, then its alert (drawing an alert's large
                # type costs a Pi Zero several times a game frame).
                from drivers.screens import event_screen

                for event in self._alerts:
                    self._moments.show(partial(event_screen, event), ALERT_SECONDS)
                self._alerts.clear()
                self._draw()

    def _handle(self, note: Note) -> None:
        match note:
            case LanguageChanged(language):
                from drivers.screens.words import word

                self.language = language
                self._the_menu().language = language
                self.display_part.farewell = word("off", language)
            case KeyPressed(key, kind):
                self._moments.clear()
                self._alerts.clear()
                self._key(key, kind)
            case TableChanged(alerts):
                self._alerts.extend(alerts)
            case Rolled(dice, values):
                from drivers.screens import dice_screen

                self._moments.show(lambda: dice_screen(list(values), dice.name), DICE_SECONDS)
            case NetworkChanged():
                self._network(note)
            case Faults(new, now, lasting):
                self._moments.put_away_faults_but(now)
                for fault in new:
                    self._show_fault(fault)
                self._fault_times.last(lasting, self._clock())

    def _time_up(self) -> None:
        """The moment or the page on screen is over, or the faults that last
        are due again (shown once nothing else is shown for a moment)."""
        if self._moments.until is not None:
            self._moments.next()
        for fault in () if self._moments else self._fault_times.due(self._clock()):
            self._show_fault(fault)
        self._turn_page()
        self._draw()

    def _show_fault(self, fault: str) -> None:
        self._moments.show(partial(fault_screen, fault), FAULT_SECONDS, fault=fault)

    def _network(self, news: NetworkChanged) -> None:
        if news.what not in ("hotspot", "joined", "join-failed"):
            moment = wifi_moment(news, self.language)
            if moment is not None:
                self._moments.show(*moment)
            return
        self._moments.clear()
        menu = self._the_menu()
        menu.show_join()
        if news.what == "join-failed":
            why = say(f"menu.wifi-why-{news.reason}", self.language)
            menu.say(say("menu.wifi", self.language), say(
                "menu.wifi-join-failed", self.language, ssid=news.ssid, reason=why))

    def _the_menu(self) -> TableMenu:
        assert self.menu is not None, "the menu is there from start() on"
        return self.menu

    def _time_left(self) -> float | None:
        """How long the thread may sleep: until the moment on screen is over,
        or the page of the game screen or the faults that last are due, or
        until something happens."""
        until = self._moments.until
        if until is None:
            due = [at for at in (self._paging.until, self._fault_times.again_at) if at is not None]
            until = min(due) if due else None
        if until is None:
            return None
        return max(0.0, until - self._clock())

    def _pages(self) -> int:
        """The pages of the game screen on show now (1 under the menu)."""
        menu = self.menu
        update = menu.update if menu is not None else None
        if menu is None or update is None or self._moments or menu.view().kind != "game":
            return 1
        from drivers.screens import game_pages

        return game_pages(update)

    def _turn_page(self) -> None:
        self._paging.turn(self._pages(), self._clock())

    def _key(self, key: str, kind: str) -> None:
        try:
            self._the_menu().on_key(key, kind)
        except Exception:
            log.exception("the %s key (%s) failed; the table goes on", key, kind)

    def _draw(self) -> None:
        try:
            if self._moments:
                image = self._moments.draw()
            else:
                from drivers.menu_screens import render

                menu = self._the_menu()
                image = render(menu.view(), menu.update, self.language, self._paging.page)
        except Exception:
            log.exception("drawing the screen failed")
            return
        number = self._frames.shown(image)
        display = self.display_part.display
        if display is not None:
            display.show(image)
        if number is not None:
            self.bus.tell(FrameShown(number, image))


def free(left: float | None) -> bool:
    """Whether nothing is due within WARM_MARGIN (``left``: the time until
    the next thing due): the screen's thread may do some work ahead."""
    return left is None or left > WARM_MARGIN


class Paging:
    """The page of a game screen of several pages on show (``page``), and
    until when (``until``; None: the first page, its time not counted yet)."""

    def __init__(self) -> None:
        self.page = 0
        self.until: float | None = None

    def first(self) -> None:
        self.page = 0
        self.until = None

    def turn(self, pages: int, now: float) -> None:
        """The next page once the one on show has had its time."""
        if pages <= 1:
            self.first()
        elif self.until is None:
            self.until = now + PAGE_SECONDS[0]
        elif now >= self.until:
            self.page = (self.page + 1) % pages
            self.until = now + PAGE_SECONDS[min(self.page, 1)]


class FaultTimes:
    """The faults as last reported (on the reporting thread's side), and the
    ones that last with when they are shown again (on the screen thread's)."""

    def __init__(self) -> None:
        self._reported: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self._lasting: tuple[str, ...] = ()
        self.again_at: float | None = None

    def reported(self, faults: tuple[str, ...], lasting: tuple[str, ...]) -> Faults | None:
        """The news for the screen of the faults now, or None when nothing
        changed."""
        before = self._reported[0]
        if (faults, lasting) == self._reported:
            return None
        self._reported = (faults, lasting)
        return Faults(tuple(fault for fault in faults if fault not in before), faults, lasting)

    def last(self, lasting: tuple[str, ...], now: float) -> None:
        """The faults that last now: shown again FAULT_AGAIN_SECONDS on."""
        self._lasting = lasting
        if not lasting:
            self.again_at = None
        elif self.again_at is None:
            self.again_at = now + FAULT_AGAIN_SECONDS

    def due(self, now: float) -> tuple[str, ...]:
        """The faults to show again now (and the next time set), if any."""
        if self.again_at is None or now < self.again_at:
            return ()
        self.again_at = now + FAULT_AGAIN_SECONDS
        return self._lasting


class Moments:
    """What to show over the menu for a moment (an alert, a roll, a fault),
    one after the other: each is what draws it, for how many seconds, and
    the fault it shows, if it is one; ``until`` is when the one on screen
    is over."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._queue: deque[tuple[Callable[[], Any], float, str | None]] = deque()
        self.until: float | None = None

    def __bool__(self) -> bool:
        return bool(self._queue)

    def show(self, draw: Callable[[], Any], seconds: float, fault: str | None = None) -> None:
        self._queue.append((draw, seconds, fault))
        if self.until is None:
            self.until = self._clock() + seconds

    def put_away_faults_but(self, faults: Sequence[str]) -> None:
        """Put away the moments of the faults that are over (not among
        ``faults``); the next moment starts if the one on screen went."""
        kept = deque(m for m in self._queue if m[2] is None or m[2] in faults)
        if len(kept) == len(self._queue):
            return
        shown = self._queue[0]
        self._queue = kept
        if not kept:
            self.until = None
        elif kept[0] is not shown:
            self.until = self._clock() + kept[0][1]

    def next(self) -> None:
        """The moment on screen is over: the next one, if any."""
        if self._queue:
            self._queue.popleft()
        self.until = (self._clock() + self._queue[0][1]) if self._queue else None

    def clear(self) -> None:
        self._queue.clear()
        self.until = None

    def draw(self) -> Any:
        """The frame of the moment on screen."""
        return self._queue[0][0]()


def fault_screen(fault: str) -> Any:
    """A fault as an alert: what is missing as the title ("dice device:
    waiting for ..." -> "Dice device"), what to check below.  A sentence
    whose first words would not fit the title ("The memory card is full:
    ...") is the message whole."""
    from drivers.screens import alert_screen
    from drivers.screens.canvas import WIDTH, text_width
    from drivers.screens.common import ALERT_TITLE_SIZE

    part, sep, trouble = fault.partition(": ")
    if not sep:
        return alert_screen(fault, "Check")
    part = part.rstrip()  # French sets a space before the colon
    if text_width(part, ALERT_TITLE_SIZE, True) > WIDTH - 4:
        return alert_screen(fault)
    return alert_screen(trouble, part[:1].upper() + part[1:])


def wifi_moment(news: NetworkChanged, lang: str) -> tuple[Callable[[], Any], float] | None:
    """A known network in reach, or the network lost, as a moment to show
    over the menu (what it draws, for how long)."""
    from drivers.screens import alert_screen

    if news.what == "offer":
        text = say("menu.wifi-in-reach", lang, ssid=news.ssid)
        return partial(alert_screen, text, say("menu.wifi", lang)), ALERT_SECONDS
    if news.what == "lost":
        return partial(fault_screen, say("menu.wifi-lost", lang)), FAULT_SECONDS
    return None
