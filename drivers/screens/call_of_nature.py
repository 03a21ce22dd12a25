"""Call of Nature: the Pressure big, what comes next, whose turn, every Mastery.

    +--------------------------------+
    | 47          next 61 -2         |   the Pressure; the next critical
    |             (>) Ben            |   threshold and its cost; the turn
    |--------------------------------|   order (a circular arrow) and who acts
    |  Ana     >Ben      Cy          |   every Mastery, a pointer at the
    |   7        6        5          |   acting player, an exploded one struck
    +--------------------------------+

During a Respite or the End of Game rolls the first line says which roll
the table waits for instead of the next threshold.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from PIL import Image

from .canvas import ON, WIDTH, Canvas, fit, text_width
from .words import word

RIGHT = 72  # left edge of the column beside the Pressure
PHASE_LINE = {"respite": "respite", "end-rolls": "end-rolls", "over": "game-over"}


def call_of_nature_screen(state: Mapping[str, Any], players: Sequence[str],
                          expected: Sequence[Any] = (), lang: str = "en") -> Image.Image:
    """The table during a Call of Nature game, from ``CallOfNature.view()``."""
    c = Canvas()
    _pressure(c, int(state.get("pressure", 0)))
    c.text((RIGHT, 11), _next_line(state, lang), 11, width=WIDTH - RIGHT)
    acting = state.get("active")
    clockwise = state.get("direction", "clockwise") == "clockwise"
    c.turn_arrow(RIGHT, 16, clockwise)
    if acting is not None:
        c.text((RIGHT + 17, 28), _name(state, players, acting), 13, bold=True,
               width=WIDTH - RIGHT - 17)
    c.draw.line((0, 32, WIDTH - 1, 32), fill=ON)
    _masteries(c, state, players, acting)
    return c.image


def _pressure(c: Canvas, pressure: int) -> None:
    text = str(pressure)
    size = 36 if text_width(text, 36, True) <= RIGHT - 6 else 28
    c.text((0, 30), text, size, bold=True, steady=True)


def _next_line(state: Mapping[str, Any], lang: str = "en") -> str:
    phase = state.get("phase", "play")
    if phase in PHASE_LINE:
        return word(PHASE_LINE[phase], lang)
    threshold = state.get("next_threshold")
    if threshold is None:
        return word("all-passed", lang)
    line = word("next", lang, threshold=threshold)
    cost = state.get("next_threshold_cost")
    return f"{line} −{cost}" if cost else line


def _name(state: Mapping[str, Any], players: Sequence[str], seat: int) -> str:
    for player in state.get("players", ()):
        if player.get("seat") == seat:
            return str(player.get("name", players[seat] if seat < len(players) else seat))
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def _masteries(c: Canvas, state: Mapping[str, Any], players: Sequence[str],
               acting: int | None) -> None:
    table = list(state.get("players", ())) or [
        {"seat": s, "name": n, "mastery": None, "eliminated": False}
        for s, n in enumerate(players)
    ]
    per_row = 3
    cell = WIDTH // min(per_row, len(table))
    if len(table) <= per_row:
        # One row: the name above, the Mastery big below it.
        for i, player in enumerate(table):
            left = i * cell
            middle = left + cell // 2
            name = fit(str(player["name"]), cell - 10, 11)
            c.text((middle, 45), name, 11, anchor="ms")
            c.text((middle, 62), _mastery_text(player), 16, bold=True, anchor="ms", steady=True)
            if player.get("seat") == acting:
                c.pointer(middle - (text_width(name, 11) + 1) // 2 - 6, 45)
            if player.get("eliminated"):
                c.draw.line((left + 4, 54, left + cell - 5, 54), fill=ON, width=2)
        return
    # Two rows of "Name 7".
    for i, player in enumerate(table):
        left = (i % per_row) * cell
        baseline = 46 if i < per_row else 61
        mastery = _mastery_text(player)
        number_width = text_width(mastery, 13, True)
        c.text((left + 6, baseline), str(player["name"]), 11, width=cell - number_width - 9)
        c.text((left + cell - 2, baseline), mastery, 13, bold=True, anchor="rs", steady=True)
        if player.get("seat") == acting:
            c.pointer(left, baseline)
        if player.get("eliminated"):
            c.draw.line((left + 5, baseline - 4, left + cell - 2, baseline - 4), fill=ON, width=2)


def _mastery_text(player: Mapping[str, Any]) -> str:
    mastery = player.get("mastery")
    return "?" if mastery is None else str(mastery)
