"""How a game is said in a terminal (``companion state``): its figures in
sentences and its players' table, in the table's language.  A game folder
that has its own way exports a :class:`Terminal` as ``TERMINAL``; any other
game is said field by field (:mod:`companion.language.state_text`).

Pure: dicts in, strings out, the words from :mod:`companion.core.text`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .text import phrase, say

# A column of the players' table: its title, and what a row shows in it.
Column = tuple[str, Callable[[dict[str, Any]], str]]


class Say:
    """Says a key in the table's language, the game's texts before the
    common ones."""

    def __init__(self, lang: str, game: str | None) -> None:
        self.lang = lang
        self.game = game

    def __call__(self, key: str, **fields: Any) -> str:
        return say(key, self.lang, game=self.game, **fields)

    def word(self, field: str, value: Any) -> Any:
        """A value that is a word (a phase, a direction, a colour), in the
        table's language; anything else as it is."""
        if not isinstance(value, str) or self.lang == "en":
            return value
        for key in (f"state.{field}.{value}", f"choice.{value}", f"card.{value}"):
            found = phrase(key, self.lang, self.game)
            if found is not None:
                return found
        return value


Figures = Callable[[dict[str, Any], Say], list[str]]
Columns = Callable[[list[dict[str, Any]], Say], list[Column]]


@dataclass(frozen=True)
class Terminal:
    """How a game is said in a terminal: ``figures(state, say)``, its
    figures as lines of sentences, and ``columns(rows, say)``, the columns
    of its players' table (a row per player of the view)."""

    figures: Figures
    columns: Columns


def flags(row: dict[str, Any], notes: Sequence[tuple[str, str, bool]]) -> str:
    """The notes a row deserves: (note, field, when) for each flag."""
    return ", ".join(note for note, field, when in notes if bool(row.get(field)) == when
                     and field in row)


def sentences(parts: Sequence[str]) -> str:
    return " ".join(sentence(part) for part in parts)


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
