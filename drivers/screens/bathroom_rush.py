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

That is the second page.  The first is the player whose turn it is, large:

    +--------------------------------+
    |Ana                      queue 2 |   who acts and their queue
    | place      pipì      popò      |
    |   7         3        1/4       |   22-pixel figures (16 pixels high):
    |--------------------------------|   the place in the queue (WC in the
    |Play an Action card · decompress|   bathroom), the reserve, popò over
    |(red die) · pass                |   the limit; what the game waits for
    +--------------------------------+

The table's screen alternates between the two pages (:func:`bathroom_rush_pages`).

In light tracking the queues stay on the table: the second page lists every
reserve instead (a row per player, the active one inverted), and the first
shows no place (WC once the player said they reached the bathroom).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from PIL import Image

from companion.core.engine import Expectation
from companion.core.menu.words import MenuNames
from companion.core.text import DEFAULT_LANGUAGE

from .canvas import HEIGHT, OFF, ON, WIDTH, Canvas, fit_lines, text_width

HEADER = 9
LINE_LEFT = 12          # the first slot, just behind the door
RESERVE_LEFT = 69       # the reserve columns
PERSONA_WIDTH = 6
PLAYER_WIDTH = 9
NAME_WIDTH = 20
PIPI_X = 98             # centre of the pipì column
POPO_X = 118            # centre of the popò column


BIG = 22                # the figures of the active player: digits 16 pixels high
LABEL = 9
BIG_BASELINE = 38
RULE_Y = 41
COLUMNS = (21, 64, 107)  # centres of place, pipì and popò
WAITING_CHARACTERS = 40
GAME = "bathroom-rush"

# The first page's own words (the game's come from its sentences).
PAGE_WORDS: dict[str, dict[str, str]] = {
    "en": {"place": "place", "queue": "queue {q}", "bathroom": "WC",
           "out": "out", "choose": "{name}: choose", "round": "Round {n}", "free": "free"},
    "fr": {"place": "place", "queue": "file {q}", "bathroom": "WC",
           "out": "éliminé", "choose": "{name} : choisir", "round": "Tour {n}",
           "free": "libre"},
    "it": {"place": "posto", "queue": "fila {q}", "bathroom": "WC",
           "out": "fuori", "choose": "{name}: scegli", "round": "Giro {n}",
           "free": "libera"},
}


def _word(key: str, lang: str, **fields: Any) -> str:
    text = PAGE_WORDS.get(lang, {}).get(key) or PAGE_WORDS["en"][key]
    return text.format(**fields) if fields else text


def _light(state: Mapping[str, Any]) -> bool:
    """Light tracking: no queue is kept (they stay on the table)."""
    return not state.get("queues") and bool(state.get("reserves"))


def _active_reserve(state: Mapping[str, Any]) -> Mapping[str, Any] | None:
    active = state.get("active")
    if active is None or state.get("phase") == "setup":
        return None
    light = _light(state)
    for reserve in state.get("reserves", ()):
        if reserve.get("seat") == active and (light or reserve.get("queue") is not None):
            found = dict(reserve)
            if light:
                found["light"] = True
                found["in_bathroom"] = active in state.get("arrived", ())
            return found
    return None


def bathroom_rush_pages(state: Mapping[str, Any]) -> int:
    """How many pages the screen has: the active player's and the table's
    once someone's turn is under way; only the table's before."""
    return 2 if _active_reserve(state) is not None else 1


def bathroom_rush_screen(state: Mapping[str, Any], players: Sequence[str],
                         expected: Sequence[Any] = (), lang: str = "en",
                         page: int = 0) -> Image.Image:
    """The table during a Bathroom Rush game, from ``BathroomRush.view()``:
    page 0 the active player (when there is one), page 1 every queue."""
    reserve = _active_reserve(state)
    if page % bathroom_rush_pages(state) == 0 and reserve is not None:
        return _active_page(reserve, expected, lang)
    if _light(state):
        return _reserves_page(state, lang)
    return _table_page(state, players, lang)


def _active_page(reserve: Mapping[str, Any], expected: Sequence[Any],
                 lang: str) -> Image.Image:
    c = Canvas()
    limit = int(reserve.get("popo_limit", 4))
    right = "" if reserve.get("light") else _word("queue", lang, q=reserve.get("queue"))
    c.text((WIDTH - 1, 10), right, LABEL, anchor="rs")
    c.text((0, 10), str(reserve.get("name", "")), 11, bold=True,
           width=WIDTH - 4 - text_width(right, LABEL))
    for x, label in zip(COLUMNS, (_word("place", lang), "pipì", "popò"), strict=True):
        c.text((x, 19), label, LABEL, anchor="ms")
    place = (_word("bathroom", lang) if reserve.get("in_bathroom")
             else "-" if reserve.get("light") else str(reserve.get("position", "")))
    c.text((COLUMNS[0], BIG_BASELINE), place, BIG, bold=True, anchor="ms", steady=True)
    c.text((COLUMNS[1], BIG_BASELINE), str(reserve.get("pipi", 0)), BIG, bold=True,
           anchor="ms", steady=True)
    popo = int(reserve.get("popo", 0))
    c.text((COLUMNS[2] - 4, BIG_BASELINE), str(popo), BIG, bold=True, anchor="rs",
           steady=True)
    c.text((COLUMNS[2] - 3, BIG_BASELINE), f"/{limit}", 11, anchor="ls")
    c.draw.line((0, RULE_Y, WIDTH - 1, RULE_Y), fill=ON)
    waiting = _waiting(reserve, expected, lang)
    if waiting:
        for row, line in enumerate(fit_lines(waiting, WIDTH - 3, 2, 10)):
            # The second line's descenders end on the last row.
            # A pixel in: a "T" reaches past the pen.
            c.text((1, RULE_Y + 11 + row * 10), line, 10)
    return c.image


def _waiting(reserve: Mapping[str, Any], expected: Sequence[Any], lang: str = "en") -> str:
    """What the game waits for, in the words of its prompts (without the
    active player's name, which the page shows above); in another language
    than English, the names of the commands (the prompts are English)."""
    name = str(reserve.get("name", ""))
    said: list[str] = []
    words = MenuNames(lang, GAME)
    # Two lines hold three short choices at most (and never every reveal).
    for expectation in expected:
        if len(said) == 3 or (said and len(" · ".join(said)) > WAITING_CHARACTERS):
            break
        if lang != DEFAULT_LANGUAGE and isinstance(expectation, Expectation):
            prompt = words.prompt(expectation, ())
        else:
            prompt = str(getattr(expectation, "prompt", "") or "")
        for prefix in (f"{name}: ", f"{name} : "):
            if name and prompt.startswith(prefix):
                prompt = prompt[len(prefix):]
        if prompt and prompt not in said:
            said.append(prompt)
        if said and said[0].endswith("?"):
            break  # a question asks for every choice itself (phase E's three)
    text = " · ".join(said)
    return text[:1].upper() + text[1:]


def _table_page(state: Mapping[str, Any], players: Sequence[str], lang: str) -> Image.Image:
    c = Canvas()
    queues = list(state.get("queues", ()))
    reserves = {r["seat"]: r for r in state.get("reserves", ())}
    active = state.get("active")
    pipi_x, popo_x = PIPI_X, POPO_X

    round_number = state.get("round")
    setup = state.get("phase") == "setup"
    if setup and active is not None and 0 <= active < len(players):
        title = _word("choose", lang, name=players[active])
    elif round_number:
        title = _word("round", lang, n=round_number)
    else:
        title = str(state.get("phase_name", ""))
    # A pixel in from the left and top edges: a "T" and the accents of
    # "pipì" and "popò" reach past the pen; "popò" ends on the last column.
    c.text((1, HEADER - 1), title, 9, width=RESERVE_LEFT - 3)
    c.text((pipi_x, HEADER - 1), "pipì", 9, anchor="ms")
    c.text((min(popo_x, WIDTH - (text_width("popò", 9) + 1) // 2), HEADER - 1), "popò", 9,
           anchor="ms")

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
                     baseline, size, pipi_x, popo_x, lang)
        elif queue.get("free") and not setup:
            c.text((RESERVE_LEFT + 1, baseline), _word("free", lang), size)
    return c.image


def _reserves_page(state: Mapping[str, Any], lang: str) -> Image.Image:
    """Light tracking's table: every reserve, a row per player in seat
    order, the active player's name inverted."""
    c = Canvas()
    reserves = list(state.get("reserves", ()))
    active = state.get("active")
    round_number = state.get("round")
    title = (_word("round", lang, n=round_number) if round_number
             else str(state.get("phase_name", "")))
    c.text((1, HEADER - 1), title, 9, width=PIPI_X - 12)
    c.text((PIPI_X, HEADER - 1), "pipì", 9, anchor="ms")
    c.text((min(POPO_X, WIDTH - (text_width("popò", 9) + 1) // 2), HEADER - 1), "popò", 9,
           anchor="ms")
    row_height = min(13, (HEIGHT - HEADER) // max(1, len(reserves)))
    size = 10 if row_height >= 11 else 9
    cap = round(size * 0.73)
    for row, reserve in enumerate(reserves):
        top = HEADER + row * row_height
        baseline = top + (row_height + cap) // 2
        _reserve(c, reserve, reserve.get("seat") == active and active is not None, top,
                 row_height, baseline, size, PIPI_X, POPO_X, lang, left=0,
                 name_width=PIPI_X - 14)
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
             baseline: int, size: int, pipi_x: int, popo_x: int, lang: str,
             left: int = RESERVE_LEFT, name_width: int = NAME_WIDTH) -> None:
    name = str(reserve.get("name", ""))
    if active:
        c.draw.rectangle((left, top, left + name_width + 1, top + row_height - 1), fill=ON)
    c.text((left + 1, baseline), name, size, bold=active, fill=OFF if active else ON,
           width=name_width)
    if reserve.get("eliminated"):
        out, room = _word("out", lang), WIDTH - (pipi_x - 4)
        if text_width(out, size, True) > room:
            size = 9  # "éliminé"
        c.text((pipi_x - 4, baseline), out, size, bold=True, width=room)
        return
    c.text((pipi_x, baseline), str(reserve.get("pipi", 0)), size, bold=True, anchor="ms",
           steady=True)
    popo = f"{reserve.get('popo', 0)}/{reserve.get('popo_limit', 4)}"
    c.text((popo_x, baseline), popo, size, bold=True, anchor="ms", steady=True)
