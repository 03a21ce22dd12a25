"""The game engines, found by key.

Engines are imported on first use, so that starting the companion for one
game does not pay for the others.
"""

from __future__ import annotations

from importlib import import_module

from ..engine import Game
from ..errors import BadSetup

GAMES: dict[str, str] = {
    "call-of-nature": "companion.games.call_of_nature:CallOfNature",
    "ohshit": "companion.games.ohshit:OhShit",
    "bathroom-rush": "companion.games.bathroom_rush:BathroomRush",
}

ALIASES = {
    "chipatsu": "call-of-nature",
    "con": "call-of-nature",
    "oh-shit": "ohshit",
    "br": "bathroom-rush",
}


def game_class(key: str) -> type[Game]:
    """The engine class for a game key (or a common alias)."""
    wanted = ALIASES.get(key.strip().lower(), key.strip().lower())
    try:
        module_name, _, class_name = GAMES[wanted].partition(":")
    except KeyError:
        raise BadSetup(f"no game '{key}'; the games are: {', '.join(GAMES)}") from None
    return getattr(import_module(module_name), class_name)


def available() -> list[type[Game]]:
    """Every engine that is installed, in menu order."""
    out = []
    for key in GAMES:
        try:
            out.append(game_class(key))
        except (ImportError, AttributeError):
            continue
    return out
