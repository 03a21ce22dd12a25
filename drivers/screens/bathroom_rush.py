"""Bathroom Rush: every queue from its door, and every player's reserve.

    +--------------------------------+
    |Round 1              pipì popò  |
    |1|#[][][][][]         free      |   a row per queue: its number, the door
    |2|#[][][][]#A#  Ana    3   1/4  |   (gone with an eliminated player), the
    |3|#[][][][]#B#  Ben    0   0/4  |   line from the bathroom (face-down and
    +--------------------------------+   revealed Personas, the player's initial),
                                         and the reserve of the one standing in it

The active player's name is inverted; the popò count shows the limit (3 in a
two-player game).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from PIL import Image

from .canvas import HEIGHT, OFF, ON, Canvas

HEADER = 9
LINE_LEFT = 12          # the first slot, just behind the door
RESERVE_LEFT = 69       # the reserve columns
PERSONA_WIDTH = 6
PLAYER_WIDTH = 9
NAME_WIDTH = 20
PIPI_X = 98             # centre of the pipì column
POPO_X = 118            # centre of the popò column


def bathroom_rush_screen(state: Mapping[str, Any], players: Sequence[str],
                         expected: Sequence[Any] = ()) -> Image.Image:
    """The table during a Bathroom Rush game, from ``BathroomRush.view()``."""
    c = Canvas()
    queues = list(state.get("queues", ()))
    reserves = {r["seat"]: r for r in state.get("reserves", ())}
    active = state.get("active")
    pipi_x, popo_x = PIPI_X, POPO_X

    round_number = state.get("round")
    setup = state.get("phase") == "setup"
    if setup and active is not None and 0 <= active < len(players):
        title = f"{players[active]}: choose"
    elif round_number:
        title = f"Round {round_number}"
    else:
        title = str(state.get("phase_name", ""))
    c.text((0, HEADER - 2), title, 9, width=RESERVE_LEFT - 2)
    c.text((pipi_x, HEADER - 2), "pipì", 9, anchor="ms")
    c.text((popo_x, HEADER - 2), "popò", 9, anchor="ms")

    # An eliminated player's queue has lost its door and its player; their
    # reserve is shown on the door-less queues, in seat order.
    out = [r for r in reserves.values() if r.get("eliminated")]
    row_height = min(13, (HEIGHT - HEADER) // max(1, len(queues)))
    size = 10 if row_height >= 11 else 9
    cap = round(size * 0.73)
    for row, queue in enumerate(queues):
        top = HEADER + row * row_height
        baseline = top + (row_height + cap) // 2
        middle = top + row_height // 2
        c.text((0, baseline), str(queue.get("index", row + 1)), size, bold=True)
        if queue.get("door", True):
            c.draw.rectangle((8, top + 1, 9, top + row_height - 2), fill=ON)
        else:
            c.draw.line((7, middle - 2, 11, middle + 2), fill=ON)
            c.draw.line((7, middle + 2, 11, middle - 2), fill=ON)
        _line(c, queue.get("slots", ()), players, top, row_height)

        seat = queue.get("player")
        reserve = reserves.get(seat) if seat is not None else None
        if reserve is None and not queue.get("door", True) and out:
            reserve = out.pop(0)
        if reserve is not None:
            _reserve(c, reserve, seat == active and active is not None, top, row_height,
                     baseline, size, pipi_x, popo_x)
        elif queue.get("free") and not setup:
            c.text((RESERVE_LEFT + 1, baseline), "free", size)
    return c.image


def _line(c: Canvas, slots: Sequence[Mapping[str, Any]], players: Sequence[str], top: int,
          row_height: int) -> None:
    room = RESERVE_LEFT - 2 - LINE_LEFT
    personas = sum(1 for slot in slots if "player" not in slot)
    # A long queue squeezes its Personas, never the player.
    width = max(3, min(PERSONA_WIDTH, (room - PLAYER_WIDTH) // max(1, personas)))
    box_top, box_bottom = top + 2, top + row_height - 3
    left = LINE_LEFT
    for slot in slots:
        if "player" in slot:
            right = left + PLAYER_WIDTH - 2
            name = str(slot.get("name") or players[slot["player"]])
            c.draw.rectangle((left, top + 1, right, top + row_height - 2), fill=ON)
            c.text(((left + right + 1) // 2, top + row_height - 3), name[:1].upper(), 9,
                   bold=True, anchor="ms", fill=OFF)
            left += PLAYER_WIDTH
            continue
        right = left + width - 2
        if slot.get("revealed") and not slot.get("flipped"):
            c.draw.rectangle((left, box_top, right, box_bottom), fill=ON)
        else:
            c.draw.rectangle((left, box_top, right, box_bottom), outline=ON)
            if slot.get("flipped"):
                c.draw.line((left, box_bottom, right, box_top), fill=ON)
        left += width


def _reserve(c: Canvas, reserve: Mapping[str, Any], active: bool, top: int, row_height: int,
             baseline: int, size: int, pipi_x: int, popo_x: int) -> None:
    name = str(reserve.get("name", ""))
    if active:
        c.draw.rectangle((RESERVE_LEFT, top, RESERVE_LEFT + NAME_WIDTH + 1,
                          top + row_height - 1), fill=ON)
    c.text((RESERVE_LEFT + 1, baseline), name, size, bold=active, fill=OFF if active else ON,
           width=NAME_WIDTH)
    if reserve.get("eliminated"):
        c.text((pipi_x - 4, baseline), "out", size, bold=True)
        return
    c.text((pipi_x, baseline), str(reserve.get("pipi", 0)), size, bold=True, anchor="ms",
           steady=True)
    popo = f"{reserve.get('popo', 0)}/{reserve.get('popo_limit', 4)}"
    c.text((popo_x, baseline), popo, size, bold=True, anchor="ms", steady=True)
