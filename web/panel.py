"""The panel's shared objects: what the composition root lends it
(:class:`Services`), what every request reaches through ``panel()``
(:class:`Panel`), and the state every phone is sent."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from flask import current_app

from companion.core.access import AccessStore
from companion.core.caller import MOMENTS, line
from companion.core.engine import Event
from companion.core.errors import CompanionError
from companion.core.games import game_class
from companion.core.ports import DiceService, SmartDice, TablePort
from companion.core.table import Update
from companion.core.text import LANGUAGES
from companion.core.updates import Preview

from .access import SESSION_HOURS, Access
from .colours import PlayerColours
from .live import HEARTBEAT, MAX_PER_PHONE, MAX_STALL, MAX_UNSENT, Broadcast
from .seats import Seats

# What a phone is told while no game is set up.
NO_GAME = {"game": None, "game_id": None, "version": 0}


@dataclass(frozen=True)
class Services:
    """What the composition root lends the panel; every field is optional.

    ``screen_png()`` is the OLED's current frame as PNG; ``press_key(key)``
    presses a simulated button ("up", "down", "ok", "back", "roll");
    ``dice`` is the :class:`~companion.core.ports.DiceService`; ``faults()``
    lists hardware problems to show the players; ``network`` is the Wi-Fi
    (``status()``, ``networks()``, ``join(ssid, password)``, ``switch()``,
    ``forget(ssid)``: see web/network.py); ``pixels`` the smart dice to pair
    (a :class:`~companion.core.ports.SmartDice`: see web/pixels.py);
    ``wiring_svg(lang)`` the drawing of the wiring the config describes.
    ``screen_frame()`` is the OLED's current frame as ``(number, PNG)``, its
    number growing by one each time the frame changes, and
    ``screen_news(listener)`` calls ``listener()`` at each change (returning
    the function that stops it): the live stream pushes the frame to the
    phones' mirrors.
    """

    screen_png: Callable[[], bytes] | None = None
    press_key: Callable[[str], None] | None = None
    dice: DiceService | None = None
    faults: Callable[[], list[str]] | None = None
    network: Any | None = None
    pixels: SmartDice | None = None
    # The wiring of the companion's config, as an SVG document in a language.
    wiring_svg: Callable[[str], str] | None = None
    # The table in its venue (``status()``, ``configure(settings)``: web/venue.py).
    venue: Any | None = None
    screen_frame: Callable[[], tuple[int, bytes]] | None = None
    screen_news: Callable[[Callable[[], None]], Callable[[], None]] | None = None
    # Told the time a controller's phone sends (seconds since the epoch):
    # the table takes its date from it while its own clock is not set;
    # True when that made the date known.
    phone_time: Callable[[float], bool] | None = None


@dataclass(frozen=True)
class PanelSettings:
    """How the panel is set up; every field has the panel's default.

    ``secret_key`` signs the controllers' session cookies (generated when
    None: pass a persisted one to keep phones joined across restarts);
    ``language`` (``en``/``fr``/``it``) is used when the browser says
    nothing and until a controller sets the table's language;
    ``access_file`` (a path or an open
    :class:`~companion.core.access.AccessStore`) keeps the PIN, the join
    token, the generation of controller sessions and the wrong PINs (in
    memory when None); ``colours_file`` keeps the players' colours (default
    beside the journal), written by ``keep_file(path, text)`` durably
    (:func:`companion.host.storage.keep_file`; without it they are kept in memory
    only); ``pin_attempts`` wrong PINs in ``pin_window`` seconds are
    allowed; a controller stays one ``session_hours``; ``max_streams``
    open live connections (None: as many as the server's threads allow),
    ``max_streams_per_phone`` from one address (its newest ends its oldest;
    the loopback is not limited; None for no limit); ``live_heartbeat``
    seconds between heartbeats on a quiet live stream, ``live_max_unsent``
    bytes and ``live_max_stall`` seconds a live stream may hold unsent
    before it ends as unread; ``bgg_ids`` each game's BoardGameGeek id for
    the plays exported to BG Stats; ``caller_moments`` the moments the
    caller says until a controller chooses, ``speaker`` whether the table
    speaks them itself.  The companion makes one from its
    config (:func:`companion.parts.web.panel_settings`)."""

    secret_key: str | None = None
    language: str = "en"
    access_file: Path | AccessStore | None = None
    colours_file: Path | None = None
    keep_file: Callable[..., None] | None = None
    session_hours: float = SESSION_HOURS
    pin_attempts: int = 5
    pin_window: float = 60.0
    max_streams: int | None = None
    max_streams_per_phone: int | None = MAX_PER_PHONE
    live_heartbeat: float = HEARTBEAT
    live_max_unsent: int = MAX_UNSENT
    live_max_stall: float = MAX_STALL
    bgg_ids: Mapping[str, int] = field(default_factory=dict)
    # The caller's moments until a controller chooses them (the config's
    # ``[voice] moments``), and whether the table has a speaker.
    caller_moments: tuple[str, ...] = MOMENTS
    speaker: bool = False

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, "
                             f"not {self.language!r}")
        if self.colours_file is not None and self.keep_file is None:
            raise ValueError("colours_file needs keep_file, the way to write it durably")


@dataclass
class Panel:
    """The panel's shared objects, kept in ``app.extensions["companion"]``."""

    table: TablePort
    services: Services
    access: Access
    live: Broadcast
    colours: PlayerColours
    strings: Mapping[str, Mapping[str, str]]
    # Per language: the page strings with every game's phrases (GET /api/text).
    text: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Held while a phone's ROLL is on its way to the table (see api.dice_roll).
    rolling: threading.Lock = field(default_factory=threading.Lock)
    # Whose phone is whose (see web/seats.py).
    seats: Seats = field(default_factory=Seats)
    # How the panel was set up (its language is the table's until a
    # controller sets another: see table_language).
    settings: PanelSettings = field(default_factory=lambda: PanelSettings())

    @property
    def language(self) -> str:
        """The companion's configured language."""
        return self.settings.language

    def table_language(self) -> str:
        """The table's language: the one a controller set, else the
        configured one."""
        return self.table.settings().language or self.language

    def caller_moments(self) -> tuple[str, ...]:
        return caller_moments(self.table, self.settings)

    def settings_json(self) -> dict[str, Any]:
        settings = self.table.settings()
        return {"seat_only": settings.seat_only,
                "language": settings.language or self.language,
                "language_set": settings.language is not None,
                "configured_language": self.language,
                "caller": settings.caller is not False,
                "caller_moments": list(self.caller_moments()),
                "speaker": self.settings.speaker}



def caller_moments(table: TablePort, settings: PanelSettings) -> tuple[str, ...]:
    """The moments the caller says: the table's choice, else the config's."""
    chosen = table.settings().caller_moments
    return settings.caller_moments if chosen is None else chosen


def caller_json(update: Update, table: TablePort, settings: PanelSettings) -> dict[str, Any]:
    """What the caller says of ``update`` (``line``: ``None`` for nothing)
    in the table's language (``lang``), for the phones that speak: the
    same words as the table's speaker."""
    lang = table.settings().language or settings.language
    return {"line": line(update, lang, caller_moments(table, settings)), "lang": lang}


def panel() -> Panel:
    """The panel of the app handling the current request."""
    found: Panel = current_app.extensions["companion"]
    return found


def state_json(update: Update, colours: PlayerColours) -> dict[str, Any]:
    """The table's state as every phone gets it: the update (with the
    game's setup, from which a phone offers the same game again), plus the
    players' colours that only the panel keeps."""
    out = update.to_json()
    out["colours"] = colours.of(update.game_id, len(update.players))
    if update.game_key:
        say_events(update.game_key, update.events, out["events"])
        say_events(update.game_key, update.undo_events, out["undo_events"])
    return out


def preview_json(game: str, preview: Preview) -> dict[str, Any]:
    """What a command would do, as a phone gets it: its events said in
    every other language by the game, as a live change's are."""
    out = preview.to_json()
    say_events(game, preview.events, out["events"])
    return out


def entry_text(game: str, text: str) -> str:
    """A history entry's JSON text, its events (and those it undid) said
    in every other language when its game says them (``said``)."""
    if getattr(_game_or_none(game), "event_text", None) is None:
        return text
    entry = json.loads(text)
    for field_name in ("events", "undid"):
        if entry.get(field_name):
            say_events(game, [Event.from_json(e) for e in entry[field_name]], entry[field_name])
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=False)


def _game_or_none(game: str) -> type | None:
    try:
        return game_class(game)
    except CompanionError:
        return None


def say_events(game: str, events: Sequence[Event], shown: list[dict[str, Any]]) -> None:
    """Each event said in every other language by its game, when the game
    says its events from their data (``event_text``): ``said`` maps a
    language to the sentence, so that a phone in French never reads the
    English message of an event its templates cannot fill."""
    event_text = getattr(_game_or_none(game), "event_text", None)
    if event_text is None:
        return
    for event, out in zip(events, shown, strict=True):
        out["said"] = {lang: event_text(event, lang) for lang in LANGUAGES if lang != "en"}


def current_state() -> dict[str, Any]:
    table = panel().table
    if not table.has_game:
        return dict(NO_GAME)
    return state_json(table.current(), panel().colours)
