"""Any game without a screen of its own: its title, what the table waits
for, and the players, the one who acts marked.

    +--------------------------------+
    |############ Tally #############|   the game's title
    |      Ana adds                  |   what the game waits for
    |                                |
    |  >Ana   Ben   Cy               |   the players, a pointer at who acts
    +--------------------------------+
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from .canvas import HEIGHT, WIDTH, Canvas, fit_lines

PROMPT_SIZE = 11
NAME_SIZE = 11


def generic_screen(state: Mapping[str, Any], players: Sequence[str],
                   expected: Sequence[Any] = (), title: str = "") -> Image.Image:
    """The table from what every game says: its expectations and players."""
    c = Canvas()
    top = c.title_bar(title or "Game", 12)
    prompt = expected[0].prompt if expected else ""
    c.centred_lines(fit_lines(prompt, WIDTH - 4, 2, PROMPT_SIZE), PROMPT_SIZE, top, HEIGHT - 16)
    acting = {e.player for e in expected if getattr(e, "player", None) is not None}
    if players:
        cell = WIDTH // len(players)
        for seat, name in enumerate(players):
            left = seat * cell
            c.text((left + 7, HEIGHT - 3), name, NAME_SIZE, width=cell - 8)
            if seat in acting:
                c.pointer(left, HEIGHT - 3)
    return c.image



