"""The table menu on the OLED: a :class:`~companion.core.menu.MenuView` as a
128x64 1-bit image.

The game screen, lists, value entry, messages and the join screen are the
shared screens of :mod:`drivers.screens`; this module adds the two that only
the menu has (a roll being entered die by die, and a yes/no question) and
picks the right one for a view.  PIL only, no luma: the phone panel can show
the very same frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from PIL import Image

from companion.core.menu import MenuView

from .screens import (
    alert_screen,
    game_screen,
    idle_screen,
    join_screen,
    menu_screen,
    value_screen,
    wifi_screen,
    word,
)
from .screens.canvas import HEIGHT, OFF, ON, WIDTH, Canvas, fit_lines, text_width

if TYPE_CHECKING:
    from companion.core.table import Update

DIE_SIDE = 30
DIE_GAP = 6
FOOTER_SIZE = 10


def render(view: MenuView, update: Update | None = None, lang: str = "en",
           page: int = 0) -> Image.Image:
    """The frame for ``view``; ``update`` (the table's last Update, or None
    before any game) is drawn for the game screen, in ``lang``, at its
    ``page`` (see :func:`~drivers.screens.game_pages`)."""
    kind = view.kind
    if kind == "game":
        if update is not None:
            return game_screen(update, lang, page)
        return idle_screen(view.url or None, view.pin or None, lang)
    if kind == "list":
        return menu_screen(view.title, list(view.items), view.index, lang)
    if kind == "value":
        return value_screen(view.title, view.value or 0, view.low, view.high, view.signed,
                            lang)
    if kind == "dice":
        return roll_entry_screen(view, lang)
    if kind == "confirm":
        return confirm_screen(view.title, view.text, view.footer, lang)
    if kind == "message":
        return alert_screen(view.text, view.title)
    if kind == "qr":
        return join_screen(view.url, view.pin or None, lang)
    if kind == "wifi":
        return wifi_screen(view.title, view.pin, lang)
    if kind == "keys":
        return keys_screen(view.title, view.text, view.items)
    raise ValueError(f"no screen for a menu view of kind {kind!r}; kinds are "
                     "game, list, value, dice, confirm, message, qr, wifi, keys")


KEY_TAG_WIDTH = 22
KEY_ROW_HEIGHT = 13
KEYS_TITLE_SIZE = 9


def keys_screen(title: str, text: str, labels: Sequence[str]) -> Image.Image:
    """Answers beside the keys: a title bar (what is answered, and where),
    then one row per key, top to bottom UP, DOWN, OK and ROLL, each with the
    key's tag at the left (the buttons' order on the box) and what it
    does beside it.  A key that offers nothing has no row."""
    c = Canvas()
    top = c.title_bar(f"{title}: {text}" if title and text else title or text,
                      KEYS_TITLE_SIZE)
    for row, label in enumerate(labels[:4]):
        if not label:
            continue
        y = top + row * KEY_ROW_HEIGHT + 1
        c.draw.rectangle((0, y, KEY_TAG_WIDTH - 1, y + KEY_ROW_HEIGHT - 3), fill=ON)
        middle = KEY_TAG_WIDTH // 2
        if row == 0:
            c.draw.polygon([(middle - 4, y + 8), (middle + 4, y + 8), (middle, y + 2)], fill=OFF)
        elif row == 1:
            c.draw.polygon([(middle - 4, y + 2), (middle + 4, y + 2), (middle, y + 8)], fill=OFF)
        else:
            c.text((middle, y + 9), ("OK", "ROLL")[row - 2], 8, bold=True, anchor="ms",
                   fill=OFF)
        room = WIDTH - KEY_TAG_WIDTH - 4
        size = 11 if text_width(label, 11) <= room else 10
        c.text((KEY_TAG_WIDTH + 3, y + 10), label, size, width=room)
    return c.image


def confirm_screen(title: str, question: str, keys: str = "",
                   lang: str = "en") -> Image.Image:
    """A question before something is done: a title bar, the question, and
    what the keys do."""
    c = Canvas()
    top = c.title_bar(title or word("sure", lang), 12)
    bottom = HEIGHT - (FOOTER_SIZE + 2 if keys else 0)
    c.centred_lines(fit_lines(question, WIDTH - 4, 3, 12, bold=True), 12, top, bottom,
                    bold=True)
    if keys:
        c.draw.line((0, bottom, WIDTH - 1, bottom), fill=ON)
        c.text((WIDTH // 2, HEIGHT - 2), keys, FOOTER_SIZE, anchor="ms", width=WIDTH - 2)
    return c.image


def roll_entry_screen(view: MenuView, lang: str = "en") -> Image.Image:
    """A roll entered by hand: the dice entered so far, the die being
    entered (underlined; UP and DOWN turn it), a ``?`` for the dice to come."""
    c = Canvas()
    c.text((WIDTH // 2, 11), view.title or view.unit, 12, anchor="ms", width=WIDTH - 2)
    count = max(1, len(view.items))
    side = DIE_SIDE if count <= 3 else (WIDTH - (count - 1) * 3) // count
    gap = DIE_GAP if count <= 3 else 3
    x = (WIDTH - count * side - (count - 1) * gap) // 2
    y = 16
    for index, shown in enumerate(view.items or ("?",)):
        if shown.isdigit() and 1 <= int(shown) <= 6:
            c.die_face(x, y, side, int(shown))
        else:
            c.draw.rounded_rectangle((x, y, x + side - 1, y + side - 1),
                                     radius=max(2, side // 8), outline=ON, fill=OFF, width=2)
            c.text((x + side // 2, y + side // 2), shown, side // 2, bold=True, anchor="mm")
        if index == view.index:
            c.draw.rectangle((x, y + side + 2, x + side - 1, y + side + 3), fill=ON)
        x += side + gap
    if view.unit:
        c.text((WIDTH // 2, HEIGHT - 2), word("die-range", lang, die=view.unit, high=view.high)
               if view.high
               else view.unit, FOOTER_SIZE, anchor="ms", width=WIDTH - 2)
    return c.image
