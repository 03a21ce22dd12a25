"""The menu's words for a game in the table's language.

A command, a parameter or a choice is named on screen from the game's
sentences (``games/<folder>/text.py``): ``label.<command>`` and
``label.<command>.<param>`` (the menu's short names), then in a language
other than English the panel's names (``command.<name>``,
``param.<command>.<param>``, ``param.<param>``, ``choice.<value>``,
``card.<value>``, ``menu.param-<param>``).  English keeps the menu's own names, then a hint's label,
then the name itself made readable (:func:`~.view.humanize`).  What the game
waits for is its prompt in English; in another language, who acts and the
command's name ("Ana · Jouer"), as the panel says it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..engine import Expectation
from ..text import DEFAULT_LANGUAGE, phrase, say
from .view import humanize


@dataclass(frozen=True)
class MenuNames:
    """Names on screen for ``game`` (its key) in ``lang``."""

    lang: str = DEFAULT_LANGUAGE
    game: str | None = None

    def menu(self, key: str, **fields: Any) -> str:
        """The menu's own words (``menu.<key>``)."""
        return say(f"menu.{key}", self.lang, **fields)

    def _first(self, keys: Sequence[str], **fields: Any) -> str | None:
        for key in keys:
            found = phrase(key, self.lang, self.game, **fields)
            if found is not None:
                return found
        return None

    def _english(self, key: str) -> str | None:
        return phrase(key, DEFAULT_LANGUAGE, self.game)

    def command(self, name: str, hint_label: str = "") -> str:
        """A command's name in lists and titles."""
        english = self._english(f"label.{name}") or hint_label or humanize(name)
        if self.lang == DEFAULT_LANGUAGE:
            return english
        return self._first((f"label.{name}", f"command.{name}")) or english

    def param(self, command: str, name: str, hint_label: str = "") -> str:
        """A parameter's name beside its command's (``Set reserve: pipì``)."""
        english = (self._english(f"label.{command}.{name}") or hint_label
                   or humanize(name).lower())
        if self.lang == DEFAULT_LANGUAGE:
            return english
        found = self._first((f"label.{command}.{name}", f"param.{command}.{name}",
                             f"param.{name}", f"menu.param-{name}"))
        return found if found is not None else english

    def choice(self, value: str, labels: Mapping[str, str]) -> str:
        """A choice of a list (a colour, a card)."""
        english = labels.get(value) or humanize(value)
        if self.lang == DEFAULT_LANGUAGE:
            return english
        return self._first((f"choice.{value}", f"card.{value}")) or english

    def note(self, text: str) -> str:
        """A canned text offered for a text parameter (a card's name as the
        rules know it): the card's name in ``lang`` when the game has one."""
        if self.lang == DEFAULT_LANGUAGE:
            return text
        slug = "-".join(text.lower().replace("'", " ").split())
        return self._first((f"card.{slug}", f"choice.{slug}")) or text

    def prompt(self, expectation: Expectation, players: Sequence[str],
               hint_label: str = "") -> str:
        """What the game waits for (the engines' prompts are English)."""
        if self.lang == DEFAULT_LANGUAGE:
            return expectation.prompt
        parts = [self.command(expectation.command, hint_label)]
        seat = expectation.player
        if seat is not None and 0 <= seat < len(players):
            parts.insert(0, players[seat])
        # What the game already decided tells two of a kind apart (not what
        # a command only names for the table's check, such as the card aimed at).
        named = self._named(expectation.command)
        parts += [f"{self.param(expectation.command, name)} {value}"
                  for name, value in expectation.args.items()
                  if name != "player" and name not in named and isinstance(value, (int, str))]
        return " · ".join(parts)

    def _named(self, command: str) -> frozenset[str]:
        """The parameters of ``command`` sent only by name (never shown)."""
        if self.game is None:
            return frozenset()
        from ..games import game_class

        try:
            spec = next((s for s in game_class(self.game).commands if s.name == command), None)
        except LookupError:
            return frozenset()
        return frozenset(p.name for p in spec.params if p.named) if spec else frozenset()
