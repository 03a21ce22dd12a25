"""OhShit!: every living player's pile, colour by colour.

    +--------------------------------+
    |        S  P  G Fro Fru U   Σ   |   the colours, the Unicorns, the total
    |>Ana    1  .  2  .   .  .   3   |   the active player's name inverted
    | Ben    .  .  .  1   .  1   2 C |   C: constipated
    +--------------------------------+

Zero counts are dots, so that what lies on a pile stands out.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from PIL import Image

from companion.core.text import say

from .canvas import HEIGHT, OFF, ON, WIDTH, Canvas, text_width

HEADER = 11
LABEL_SIZE = 10
CONSTIPATED = "C"
UNICORN_LABEL = "U"


def ohshit_screen(state: Mapping[str, Any], players: Sequence[str],
                  expected: Sequence[Any] = ()) -> Image.Image:
    """The table during an OhShit! game, from ``OhShit.view()``."""
    c = Canvas()
    colours = [str(colour) for colour in state.get("colours", ())]
    labels = short_labels([say(f"card.{colour}", "en", game="ohshit", default=colour.title())
                           for colour in colours])
    kinds = colours + [str(state.get("unicorn", "unicorn"))]
    labels = labels + [UNICORN_LABEL]
    living = [p for p in state.get("players", ()) if p.get("alive", True)]
    rows = max(1, len(living))
    # Five or six living players take 9-pixel rows in the smallest type.
    header = HEADER if rows <= 4 else HEADER - 1
    size = 10 if rows <= 4 else 9
    row_height = min(13, (HEIGHT - header) // rows)
    cap = round(size * 0.73)

    # Columns from the right: the Constipation mark, the total, the kinds.
    mark_width = text_width(CONSTIPATED, size, True) + 5
    total_width = text_width("00", size, True) + 2
    columns = [max(text_width(label, LABEL_SIZE), text_width("0", size, True)) + 4
               for label in labels]
    right = WIDTH - mark_width - 1
    total_x = right - total_width // 2
    xs = []
    x = right - total_width - 1
    for width in reversed(columns):
        xs.append(x - width // 2)
        x -= width
    xs.reverse()
    name_width = x - 2

    for label, cx in zip(labels, xs):
        c.text((cx, header - 2), label, LABEL_SIZE, anchor="ms")
    c.text((total_x, header - 2), "Σ", LABEL_SIZE, anchor="ms")
    c.draw.line((0, header - 1, WIDTH - 1, header - 1), fill=ON)

    active = state.get("active")
    for row, player in enumerate(living):
        top = header + row * row_height
        baseline = top + (row_height + cap) // 2
        name = str(player.get("name", ""))
        if player.get("seat") == active:
            c.draw.rectangle((0, top, name_width + 1, top + row_height - 1), fill=ON)
            c.text((1, baseline), name, size, bold=True, fill=OFF, width=name_width)
        else:
            c.text((1, baseline), name, size, width=name_width)
        pile = player.get("pile", {})
        for kind, cx in zip(kinds, xs):
            count = pile.get(kind, 0)
            c.text((cx, baseline), str(count) if count else "·", size, bold=bool(count),
                   anchor="ms", steady=True)
        total = player.get("pile_total", sum(pile.values()))
        c.text((total_x, baseline), str(total), size, bold=True, anchor="ms", steady=True)
        if player.get("constipated"):
            left = WIDTH - mark_width
            c.draw.rectangle((left, top, WIDTH - 1, top + row_height - 1), fill=ON)
            c.text((left + mark_width // 2, baseline), CONSTIPATED, size, bold=True,
                   anchor="ms", fill=OFF)
    return c.image


def short_labels(names: Sequence[str]) -> list[str]:
    """The shortest prefix that tells each name from the others
    ("Frosty", "Fruity" -> "Fro", "Fru")."""
    labels = []
    for name in names:
        others = [n.casefold() for n in names if n != name]
        length = 1
        while length < len(name) and any(o.startswith(name[:length].casefold()) for o in others):
            length += 1
        labels.append(name[:length])
    return labels
