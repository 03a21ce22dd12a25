"""What the companion says to people, in the table's language.

Every sentence the table shows (a prompt, an event, a command's label, a
card's name) has a key and a template per language.  A game keeps its own
in ``companion/core/games/<folder>/text.py`` as ``TEXT``, a mapping from a
language to ``{key: template}``; what every game shares is in
:data:`COMMON`.  Templates are :meth:`str.format` strings whose fields come
from the event's data or the caller (``"{name} crosses {threshold}"``).

Keys, by convention: ``command.<name>`` (a command's label),
``param.<command>.<param>``, ``prompt.<name>``, ``event.<kind>`` (an
event's sentence, filled from its data), ``card.<id>``, ``variant.<name>``.

A key or field missing in a language falls back to English, then to the
text the caller gives (an event's own ``message``): a screen never shows a
key to a player.
"""

from __future__ import annotations

import string
from functools import cache
from importlib import import_module
from typing import Any, Mapping

LANGUAGES = ("en", "fr", "it")
DEFAULT_LANGUAGE = "en"

Phrases = Mapping[str, Mapping[str, str]]

# What every game shares; a game's own TEXT may override a key.
COMMON: Phrases = {
    "en": {},
    "fr": {},
    "it": {},
}


class _Fields(dict[str, Any]):
    """Fields for a template; a missing one makes the template unusable."""

    def __missing__(self, key: str) -> Any:
        raise KeyError(key)


@cache
def game_phrases(game_key: str) -> Phrases:
    """A game's own phrases (``{}`` when the game has none)."""
    folder = game_key.replace("-", "_")
    try:
        module = import_module(f"companion.core.games.{folder}.text")
    except ImportError:
        return {}
    found: Phrases = getattr(module, "TEXT", {})
    return found


def template(key: str, lang: str, game: str | None = None) -> str | None:
    """The template for ``key`` in ``lang`` (English when ``lang`` has
    none), the game's own before the common one; ``None`` when unknown."""
    sources = [game_phrases(game)] if game else []
    sources.append(COMMON)
    for language in (lang, DEFAULT_LANGUAGE):
        for phrases in sources:
            found = phrases.get(language, {}).get(key)
            if found is not None:
                return found
    return None


def say(key: str, lang: str, *, game: str | None = None, default: str | None = None,
        **fields: Any) -> str:
    """The sentence for ``key`` in ``lang`` with ``fields`` filled in.

    Falls back to English, then to ``default``, then to the key itself.
    """
    for language in (lang, DEFAULT_LANGUAGE):
        found = template(key, language, game)
        if found is None:
            continue
        try:
            return string.Formatter().vformat(found, (), _Fields(fields))
        except (KeyError, IndexError, ValueError):
            continue
    return default if default is not None else key


def language(wanted: str | None) -> str:
    """``wanted`` when the companion speaks it, else the default."""
    if wanted and wanted.split("-")[0].lower() in LANGUAGES:
        return wanted.split("-")[0].lower()
    return DEFAULT_LANGUAGE
