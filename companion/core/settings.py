"""The table's own settings, and the setup options it saved for every new
game of a kind (its described box), all kept in the journal.

The table's settings are its language, which the table's screen and the
phones without a language of their own follow, "turns only from the
player's own phone" (``seat_only``: see :mod:`companion.core.table`), and
the caller's (see :mod:`companion.core.caller`): whether the table's
speaker speaks (``caller``) and which moments it says (``caller_moments``).
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Final, Iterator, Mapping

from .caller import MOMENTS
from .engine import Setup
from .errors import BadSetting, BadSetup
from .games import game_class
from .journal import Journal
from .listeners import Teller, add_listener
from .text import LANGUAGES, Word

log = logging.getLogger(__name__)

# The journal keeps the table's settings as the saved options of this name,
# which no game has.
TABLE_SETTINGS: Final = "(table)"


@dataclass(frozen=True)
class Settings:
    """The table's own settings, kept in the journal across restarts.

    ``seat_only``: a seat's turn is playable only from that seat's phone
    (the table's buttons and CLI still act for anyone).  ``language``: the
    table's language (``None`` until a controller sets one: the companion's
    configured language is used meanwhile)."""

    seat_only: bool = False
    language: str | None = None
    # The caller: ``None`` until a controller sets them (the configured
    # ``[voice]`` is used meanwhile).
    caller: bool | None = None
    caller_moments: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat_only": self.seat_only, "language": self.language,
                "caller": self.caller,
                "caller_moments": None if self.caller_moments is None
                else list(self.caller_moments)}


# The settings and the values each takes (``None`` sets it back to its default).
SETTINGS: Final[Mapping[str, str]] = {
    "seat_only": "true or false",
    "language": " or ".join(LANGUAGES),
    "caller": "true or false",
    "caller_moments": "a list of moments among " + ", ".join(MOMENTS),
}

SettingsListener = Callable[[Settings], object]


class TableSettings:
    """The table's settings and saved options, in the journal."""

    def __init__(self, journal: Journal) -> None:
        self._journal = journal
        self._lock = threading.Lock()
        self._listeners: list[SettingsListener] = []
        self._teller = Teller()
        self._settings = self._read()

    def now(self) -> Settings:
        """The table's settings now.  Read without a lock (one immutable
        value, replaced whole): every page and live stream asks, and none
        waits for a change being made."""
        return self._settings

    def change(self, name: str, value: Any) -> Settings:
        """Set one of the table's settings (``None``: back to its default),
        keep it in the journal and tell the settings' listeners.  A setting
        that does not exist, or a value it does not take, raises
        :class:`BadSetting` and nothing changes."""
        if name not in SETTINGS:
            raise BadSetting(f"the table has no setting {name!r}; its settings are: "
                             f"{', '.join(SETTINGS)}")
        checked = _setting_value(name, value)
        with self._changing():
            self._journal.save_option(TABLE_SETTINGS, name, checked)
            self._settings = _settings({**self._settings.to_json(), name: checked})
            self._teller.later(self._listeners, self._settings)
            return self._settings

    def subscribe(self, listener: SettingsListener) -> Callable[[], None]:
        """Call ``listener(settings)`` after every change of the table's
        settings, outside the lock, in order."""
        return add_listener(self._listeners, listener, self._lock)

    def saved_options(self, key: str) -> dict[str, Any]:
        """The setup options kept for every new game of ``key`` (a game's
        key or alias), as :meth:`save_option` left them."""
        return self._journal.saved_options(game_class(key).key)

    def save_option(self, key: str, name: str, value: Any) -> None:
        """Keep ``value`` as the setup option ``name`` of every new game of
        ``key`` unless its setup gives another (``None`` forgets it).  The
        value is checked as the game checks it at setup (on a table of the
        fewest players), so a bad one raises :class:`BadSetup` and nothing
        is kept.  The game being played keeps the setup it started with."""
        cls = game_class(key)
        declared: Mapping[str, Any] = getattr(cls, "options", {})
        if name not in declared:
            raise BadSetup("refusal.no-such-option", title=cls.title, name=repr(name),
                           options=", ".join(sorted(declared)) if declared else Word(
                               "refusal.none"))
        if value is not None:
            players = tuple(f"Player {n}" for n in range(1, cls.min_players + 1))
            cls.check_setup(Setup(players, frozenset(), {name: value}))
        self._journal.save_option(cls.key, name, value)

    @contextmanager
    def _changing(self) -> Iterator[None]:
        try:
            with self._lock:
                yield
        finally:
            self._teller.tell()

    def _read(self) -> Settings:
        kept = self._journal.saved_options(TABLE_SETTINGS)
        values: dict[str, Any] = {}
        for name, value in kept.items():
            try:
                values[name] = _setting_value(name, value) if name in SETTINGS else None
            except BadSetting:
                log.warning("the journal's table setting %s=%r is not one the table "
                            "takes; its default is used", name, value)
        return _settings(values)


def _settings(values: Mapping[str, Any]) -> Settings:
    moments = values.get("caller_moments")
    return Settings(seat_only=bool(values.get("seat_only") or False),
                    language=values.get("language"), caller=values.get("caller"),
                    caller_moments=None if moments is None else tuple(moments))


def _setting_value(name: str, value: Any) -> Any:
    """``value`` as setting ``name`` takes it, or :class:`BadSetting`."""
    if value is None:
        return None
    if name in ("seat_only", "caller") and isinstance(value, bool):
        return value
    if (name == "caller_moments" and isinstance(value, (list, tuple))
            and all(isinstance(m, str) and m in MOMENTS for m in value)):
        # Kept in the order the caller knows them, each once.
        return [m for m in MOMENTS if m in value]
    if name == "language" and isinstance(value, str) and value in LANGUAGES:
        return value
    raise BadSetting(f"the table's setting {name!r} takes {SETTINGS[name]}, not {value!r}")
