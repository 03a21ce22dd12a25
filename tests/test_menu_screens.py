"""The menu on the OLED: each kind of view drawn as the committed reference
frame, pixel for pixel.

Regenerate the references after an intended change of the drawing with
``UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/test_menu_screens.py``
and look at them before committing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.core.engine import Command
from companion.core.menu import KEYS_CONFIRM, MenuView
from drivers.menu_screens import render
from drivers.screens import game_screen, idle_screen

REFERENCE = Path(__file__).parent / "reference" / "menu"
JOIN_URL = "http://192.168.1.20:8000/join/k3Yt0k"

VIEWS = {
    "list": MenuView("list", "Menu", ("Undo", "Redo", "Actions", "Corrections",
                                      "Dice: manual", "Join (QR code)", "New game"), 0),
    "list-scrolled": MenuView("list", "Menu", ("Undo", "Redo", "Actions", "Corrections",
                                               "Dice: manual", "Join (QR code)", "New game"), 5),
    "value": MenuView("value", "Ana plays a card", value=3, low=-30, high=30, signed=True),
    "value-unsigned": MenuView("value", "Reveal: pipì", value=2, low=0, high=9),
    "dice-one": MenuView("dice", "Ana rolls a d6 for the Respite at 50", ("4",), 0, value=4,
                         low=1, high=6, unit="d6"),
    "dice-second": MenuView("dice", "Ben rolls 2d6 for the End of Game", ("3", "1"), 1,
                            value=1, low=1, high=6, unit="2d6"),
    "confirm": MenuView("confirm", "Undo", text="Undo: card value=3?", footer=KEYS_CONFIRM),
    "message": MenuView("message", "Refused",
                        text="Ana's Mastery is 7 and stays within 0..7: a change of +1 "
                             "corrects nothing"),
    "qr": MenuView("qr", "Join", url=JOIN_URL, pin="4711"),
    "keys": MenuView("keys", "Reveal", ("Signora ×9", "Raga Turi Mana Bamb",
                                        "Anzi Mamm Dist Avid", "Impren Infame Giovan"),
                     text="queue 1, place 6"),
    "keys-three": MenuView("keys", "Reveal", ("Imprenditore ×2", "Infame ×2",
                                              "Giovane smarrito ×1", ""),
                           text="Impren Infame Giovan"),
}


LARGE = Path(__file__).parent / "reference" / "4x" / "menu"


def assert_same_as_reference(name: str, image: Image.Image) -> None:
    path = REFERENCE / f"{name}.png"
    if os.environ.get("UPDATE_REFERENCE"):
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        LARGE.mkdir(parents=True, exist_ok=True)
        image.convert("L").resize((512, 256), Image.Resampling.NEAREST).save(
            LARGE / f"{name}.png", optimize=True)
    with Image.open(LARGE / f"{name}.png") as large:
        assert image.convert("L").resize((512, 256), Image.Resampling.NEAREST).tobytes() \
            == large.convert("L").tobytes(), f"{LARGE / name}.png is not the frame at 4x"
    with Image.open(path) as stored:
        reference = stored.convert("1")
    assert image.size == reference.size
    assert ImageChops.difference(image, reference).getbbox() is None, (
        f"{name} differs from {path}; if the change is intended, regenerate with "
        "UPDATE_REFERENCE=1 and look at the new image"
    )


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_each_view_is_drawn_as_its_reference_frame(name):
    image = render(VIEWS[name])
    assert (image.mode, image.size) == ("1", (128, 64))
    assert_same_as_reference(name, image)


def test_a_long_list_scrolls_so_that_the_highlighted_line_shows():
    top, scrolled = render(VIEWS["list"]), render(VIEWS["list-scrolled"])
    assert ImageChops.difference(top, scrolled).getbbox() is not None


def test_the_game_view_is_the_games_own_screen(table):
    update = table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    update = table.submit(Command("card", {"value": 7}))
    image = render(MenuView("game", "Call of Nature", footer="Ben plays a card"), update)
    assert ImageChops.difference(image, game_screen(update)).getbbox() is None


def test_before_any_game_the_game_view_is_the_idle_screen():
    image = render(MenuView("game", "Tabletop Companion"))
    assert ImageChops.difference(image, idle_screen()).getbbox() is None


def test_home_shows_the_pin_in_the_tables_language():
    view = MenuView("game", "Tabletop Companion", url="http://192.168.1.20:8080/?join=x",
                    pin="482193")
    image = render(view, None, "it")
    expected = idle_screen("http://192.168.1.20:8080/?join=x", "482193", "it")
    assert ImageChops.difference(image, expected).getbbox() is None
    assert ImageChops.difference(image, idle_screen()).getbbox() is not None


def test_the_qr_code_is_drawn_module_for_module_two_pixels_a_module():
    image = render(VIEWS["qr"])
    from drivers.screens.common import qr_code

    code = qr_code(JOIN_URL)
    modules = len(code.modules)
    # The code sits on a lit square at the left; its dark modules are unlit.
    left, top, right, bottom = Image.eval(image.crop((0, 0, 64, 64)), lambda v: 255 - v
                                          ).getbbox()
    scale = (right - left) // modules
    assert scale >= 2 and right - left == bottom - top == modules * scale
    for row, line in enumerate(code.modules):
        for col, dark in enumerate(line):
            block = image.crop((left + col * scale, top + row * scale,
                                left + (col + 1) * scale, top + (row + 1) * scale))
            assert block.getextrema() == ((0, 0) if dark else (255, 255)), (row, col)


def test_a_view_of_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="'popup' is not a valid ViewKind"):
        render(MenuView("popup"))


def test_drawing_the_menu_does_not_load_the_display_driver():
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys, drivers.menu_screens; print(sorted(m for m in sys.modules "
         "if m.split('.')[0] in ('luma', 'gpiozero', 'serial')))"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent,
    )
    assert out.stdout.strip() == "[]"
