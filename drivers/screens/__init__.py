"""Screens: pure functions from the table's state to a 1-bit 128x64 image.

Nothing here imports luma or touches hardware (PIL only), so the phone
panel can render the very images the OLED shows, as a live mirror.  The game
screens take ``update.state`` (the engine's ``view()``), ``update.players``
and ``update.expected``; :func:`game_screen` picks the right one for an
:class:`~companion.core.table.Update`.
"""

from __future__ import annotations

import inspect
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from PIL import Image

from .bathroom_rush import bathroom_rush_screen
from .call_of_nature import call_of_nature_screen
from .canvas import HEIGHT, WIDTH
from .common import (
    alert_screen,
    dice_screen,
    event_screen,
    idle_screen,
    join_screen,
    menu_screen,
    off_screen,
    result_screen,
    value_screen,
    wifi_qr_text,
    wifi_screen,
)
from .generic import generic_screen
from .ohshit import ohshit_screen
from .words import word

if TYPE_CHECKING:
    from companion.core.table import Update

GameScreen = Callable[[Mapping[str, Any], Sequence[str], Sequence[Any]], Image.Image]

# The modules here that draw no game.
SHARED_MODULES = ("canvas", "common", "generic")


def screen_for(key: str) -> GameScreen | None:
    """A game's own screen, found by its key: ``<folder>_screen`` in the
    module named after the game's folder (``call-of-nature``:
    :mod:`.call_of_nature`); ``None`` when the game has none."""
    folder = key.replace("-", "_")
    if not folder.isidentifier() or folder in SHARED_MODULES:
        return None
    name = f"{__name__}.{folder}"
    try:
        module = import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None
    found: GameScreen | None = getattr(module, f"{folder}_screen", None)
    return found


class _GameScreens(Mapping[str, GameScreen]):
    """Every game's own screen by key, found by :func:`screen_for`."""

    def __getitem__(self, key: str) -> GameScreen:
        found = screen_for(key)
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[str]:
        from companion.core.games import GAMES

        return (key for key in GAMES if screen_for(key) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


GAME_SCREENS: Mapping[str, GameScreen] = _GameScreens()

__all__ = [
    "GAME_SCREENS",
    "HEIGHT",
    "WIDTH",
    "alert_screen",
    "bathroom_rush_screen",
    "call_of_nature_screen",
    "dice_screen",
    "event_screen",
    "game_pages",
    "game_screen",
    "generic_screen",
    "idle_screen",
    "join_screen",
    "menu_screen",
    "off_screen",
    "ohshit_screen",
    "result_screen",
    "screen_for",
    "value_screen",
    "wifi_qr_text",
    "wifi_screen",
    "word",
]


@cache
def _speaks(screen: GameScreen) -> bool:
    """Whether a game's screen takes the table's language (``lang=``)."""
    return "lang" in inspect.signature(screen).parameters


def game_screen(update: Update, lang: str = "en", page: int = 0) -> Image.Image:
    """The screen for a table :class:`~companion.core.table.Update` (or anything
    with ``game_key``, ``title``, ``state``, ``players``, ``expected``,
    ``over`` and ``result``): the game's own screen (the generic one for a
    game without), in ``lang`` when it takes one, or the result once the
    game is over."""
    if update.over and update.result is not None:
        result = update.result
        scores = getattr(result, "scores", ())
        lines = [
            f"{name}: {score}" for name, score in zip(update.players, scores, strict=False)
            if score is not None
        ]
        return result_screen(result.message, [", ".join(lines)] if lines else (), lang)
    screen = screen_for(update.game_key)
    if screen is None:
        return generic_screen(update.state, update.players, update.expected, update.title)
    if "page" in inspect.signature(screen).parameters:
        return screen(update.state, update.players, update.expected,  # type: ignore[call-arg]
                      lang=lang, page=page)
    if _speaks(screen):
        return screen(update.state, update.players, update.expected, lang=lang)  # type: ignore[call-arg]
    return screen(update.state, update.players, update.expected)


def game_pages(update: Update) -> int:
    """How many pages the game's screen has now (``<folder>_pages(state)``
    in its module; 1 for a game without).  The table's screen shows them in
    turn (page 0 the longest)."""
    if update.over:
        return 1
    folder = update.game_key.replace("-", "_")
    screen = screen_for(update.game_key)
    if screen is None:
        return 1
    pages = getattr(import_module(screen.__module__), f"{folder}_pages", None)
    return max(1, int(pages(update.state))) if pages is not None else 1
