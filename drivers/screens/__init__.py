"""Screens: pure functions from the table's state to a 1-bit 128x64 image.

Nothing here imports luma or touches hardware (PIL only), so the phone
panel can render the very images the OLED shows, as a live mirror.  The game
screens take ``update.state`` (the engine's ``view()``), ``update.players``
and ``update.expected``; :func:`game_screen` picks the right one for an
:class:`~companion.core.table.Update`.
"""

from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

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
)
from .ohshit import ohshit_screen
from .words import word

GameScreen = Callable[[Mapping[str, Any], Sequence[str], Sequence[Any]], Image.Image]

GAME_SCREENS: dict[str, GameScreen] = {
    "call-of-nature": call_of_nature_screen,
    "ohshit": ohshit_screen,
    "bathroom-rush": bathroom_rush_screen,
}

__all__ = [
    "WIDTH", "HEIGHT", "GAME_SCREENS", "game_screen",
    "call_of_nature_screen", "ohshit_screen", "bathroom_rush_screen",
    "alert_screen", "event_screen", "menu_screen", "value_screen", "dice_screen", "join_screen",
    "result_screen", "idle_screen", "off_screen", "word",
]


@lru_cache(maxsize=None)
def _speaks(screen: GameScreen) -> bool:
    """Whether a game's screen takes the table's language (``lang=``)."""
    return "lang" in inspect.signature(screen).parameters


def game_screen(update: Any, lang: str = "en") -> Image.Image:
    """The screen for a table :class:`~companion.core.table.Update` (or anything
    with ``game_key``, ``title``, ``state``, ``players``, ``expected``,
    ``over`` and ``result``): the game's own screen, in ``lang`` when it
    takes one, or the result once the game is over."""
    if update.over and update.result is not None:
        result = update.result
        scores = getattr(result, "scores", ())
        lines = [
            f"{name}: {score}" for name, score in zip(update.players, scores) if score is not None
        ]
        return result_screen(result.message, [", ".join(lines)] if lines else (), lang)
    screen = GAME_SCREENS.get(update.game_key)
    if screen is None:
        return alert_screen(f"No screen for the game '{update.game_key}'", update.title)
    if _speaks(screen):
        return screen(update.state, update.players, update.expected, lang=lang)
    return screen(update.state, update.players, update.expected)
