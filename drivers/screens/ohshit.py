"""OhShit!: the pile of the player who acts, large; the others in a row.

    +--------------------------------+
    | >Ana                total 3/7 C|   who acts, their pile of the full one
    |  Sp  Pr  Gr  Fro Fru  U        |   the colours and the Unicorns
    |  1   ·   2   ·   ·    ·        |   that player's pile, 18-pixel type
    |--------------------------------|
    | Ben 2C  Cy 0  Zoé 4  Eve †     |   everyone else: pile total, C, † dead
    +--------------------------------+

Zero counts are dots, so that what lies on the pile stands out.  The row of
the others is in table order from the player after the one who acts; a dead
player stays in it, struck through, so that nobody wonders where they went.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from PIL import Image

from .canvas import HEIGHT, OFF, ON, WIDTH, Canvas, fit, text_width
from .words import game_word, word

GAME = "ohshit"
NAME_SIZE = 13
LABEL_SIZE = 10
COUNT_SIZE = 18
OTHERS_SIZE = 10
LABEL_BASELINE = 25
COUNT_BASELINE = 44
RULE = 46
DEAD = "†"


def ohshit_screen(state: Mapping[str, Any], players: Sequence[str],
                  expected: Sequence[Any] = (), lang: str = "en") -> Image.Image:
    """The table during an OhShit! game, from ``OhShit.view()``."""
    c = Canvas()
    table = list(state.get("players", ()))
    if not table:
        return c.image
    active = state.get("active")
    seats = [p.get("seat") for p in table]
    shown = table[seats.index(active)] if active in seats else table[0]

    _header(c, state, shown, lang, acting=active is not None)
    _pile(c, state, shown, lang)
    c.draw.line((0, RULE, WIDTH - 1, RULE), fill=ON)
    start = seats.index(shown.get("seat"))
    others = table[start + 1:] + table[:start]
    _others(c, others, lang)
    return c.image


def _header(c: Canvas, state: Mapping[str, Any], player: Mapping[str, Any], lang: str,
            acting: bool) -> None:
    pile_total = player.get("pile_total", sum(player.get("pile", {}).values()))
    total = word("total", lang, total=pile_total)
    if full := state.get("full_pile"):
        total += f"/{full}"
    right = WIDTH - 1
    if player.get("constipated"):
        mark = word("constipated", lang)
        box = text_width(mark, NAME_SIZE, True) + 4
        c.draw.rectangle((right - box + 1, 0, right, 15), fill=ON)
        c.text((right - box // 2 + 1, 13), mark, NAME_SIZE, bold=True, anchor="ms", fill=OFF)
        right -= box + 2
    c.text((right, 13), total, NAME_SIZE, bold=True, anchor="rs")
    room = right - text_width(total, NAME_SIZE, True) - 12
    name = str(player.get("name", ""))
    if acting:
        c.pointer(1, 13, 9)
    c.text((9 if acting else 1, 13), name, NAME_SIZE, bold=True, width=room)
    if not player.get("alive", True):
        c.draw.line((9, 8, 9 + text_width(fit(name, room, NAME_SIZE, True), NAME_SIZE, True),
                     8), fill=ON, width=2)


def colour_labels(state: Mapping[str, Any], lang: str) -> list[tuple[str, str]]:
    """(kind, short label) for each colour and the Unicorns, in the table's
    language: the shortest starts that tell the names apart."""
    kinds = [str(colour) for colour in state.get("colours", ())]
    kinds.append(str(state.get("unicorn", "unicorn")))
    names = [game_word(f"card.{kind}", lang, GAME, kind.title()) for kind in kinds]
    return list(zip(kinds, short_labels(names, minimum=2), strict=True))


def _pile(c: Canvas, state: Mapping[str, Any], player: Mapping[str, Any], lang: str) -> None:
    labels = colour_labels(state, lang)
    cell = WIDTH // max(1, len(labels))
    pile = player.get("pile", {})
    for i, (kind, label) in enumerate(labels):
        middle = i * cell + cell // 2
        c.text((middle, LABEL_BASELINE), label, LABEL_SIZE, anchor="ms", width=cell - 1)
        count = pile.get(kind, 0)
        c.text((middle, COUNT_BASELINE), str(count) if count else "·", COUNT_SIZE,
               bold=bool(count), anchor="ms")


def _others(c: Canvas, others: Sequence[Mapping[str, Any]], lang: str) -> None:
    """Each other player as "Name 3" (C when constipated, † when dead),
    on one row, two when they do not fit."""
    if not others:
        return
    rows = 1 if len(others) <= 3 else 2
    per_row = -(-len(others) // rows)
    cell = WIDTH // per_row
    # The second row's descenders end on the last row of pixels.
    baselines = (HEIGHT - 4,) if rows == 1 else (HEIGHT - 10, HEIGHT - 2)
    size = OTHERS_SIZE if rows == 1 else 9
    for i, player in enumerate(others):
        left = (i % per_row) * cell
        baseline = baselines[i // per_row]
        alive = player.get("alive", True)
        if not alive:
            tail = DEAD
        else:
            tail = str(player.get("pile_total", 0))
            if player.get("constipated"):
                tail += word("constipated", lang)
        tail_width = text_width(tail, size, True)
        name = fit(str(player.get("name", "")), cell - tail_width - 4, size)
        c.text((left + 1, baseline), name, size)
        c.text((left + cell - 2, baseline), tail, size, bold=True, anchor="rs")
        if not alive:
            c.draw.line((left + 1, baseline - 3, left + 1 + text_width(name, size), baseline - 3),
                        fill=ON)


def short_labels(names: Sequence[str], minimum: int = 1) -> list[str]:
    """The shortest start (``minimum`` letters at least) that tells each
    name from the others ("Frosty", "Fruity" -> "Fro", "Fru")."""
    labels = []
    for name in names:
        others = [n.casefold() for n in names if n != name]
        length = min(minimum, len(name))
        while length < len(name) and any(o.startswith(name[:length].casefold()) for o in others):
            length += 1
        labels.append(name[:length])
    return labels
