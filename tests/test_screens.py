"""The screens, drawn from real game states and compared pixel for pixel
with the committed reference images in tests/reference/.

After a deliberate change of a screen, regenerate the references with
``UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/test_screens.py`` and
look at them before committing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import segno
from PIL import Image, ImageChops

from companion.core.engine import Command, Setup
from companion.core.games.bathroom_rush import BathroomRush
from companion.core.games.call_of_nature.game import CallOfNature
from companion.core.games.ohshit.game import OhShit
from companion.core.table import Update
from drivers import screens
from drivers.screens.canvas import fit, text_width, wrap

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("UPDATE_REFERENCE") == "1"
ROOT = Path(__file__).resolve().parent.parent


def play(game, *commands):
    for name, args in commands:
        game.apply(Command(name, args))
    return game


def screen_of(game):
    return screens.GAME_SCREENS[game.key](game.view(), game.players, game.expected())


def call_of_nature(names=("Ana", "Ben", "Cy"), *commands):
    return screen_of(play(CallOfNature(Setup(tuple(names))), *commands))


def card(value):
    return ("card", {"value": value})


def ohshit(names, *commands):
    return screen_of(play(OhShit(Setup(tuple(names))), *commands))


def bathroom_rush(names, queues, *commands):
    game = BathroomRush(Setup(tuple(names)))
    for queue in queues:
        game.apply(Command("choose-queue", {"queue": queue}))
    # Reveal what phase A asks for: alternately a 2-pipì and a 2-pipì 1-popò neutral.
    revealed = 0
    while game.expected() and game.expected()[0].command == "reveal":
        args = dict(game.expected()[0].args)
        args.update(pipi=2, popo=revealed % 2, colour="neutral")
        game.apply(Command("reveal", args))
        revealed += 1
    return screen_of(play(game, *commands))


def finished_call_of_nature():
    game = play(CallOfNature(Setup(("Ana", "Ben", "Cy"))),
                ("adjust-mastery", {"player": 1, "delta": -6}), card(20), card(15))
    while not game.over:
        game.apply(Command("roll", {"values": [3, 4]}))
    return Update(game_id=1, game_key=game.key, title=game.title, version=9, action="command",
                  state=game.view(), expected=tuple(game.expected()), events=(),
                  over=True, result=game.result(), players=game.players,
                  can_undo=True, can_redo=False)


CASES = {
    # Call of Nature
    "con-start": lambda: call_of_nature(),
    "con-pressure-12-cys-turn": lambda: call_of_nature(("Ana", "Ben", "Cy"), card(5), card(7)),
    "con-pressure-15-anas-turn": lambda: call_of_nature(("Ana", "Ben", "Cy"),
                                                      card(5), card(7), card(3)),
    "con-ben-crossed-31": lambda: call_of_nature(("Ana", "Ben", "Cy"), card(20), card(15)),
    "con-respite-at-50": lambda: call_of_nature(("Ana", "Ben", "Cy"),
                                                card(20), card(20), card(10)),
    "con-ben-exploded-end-rolls": lambda: call_of_nature(
        ("Ana", "Ben", "Cy"), ("adjust-mastery", {"player": 1, "delta": -6}),
        card(20), card(15)),
    "con-six-players-after-u-turn": lambda: call_of_nature(
        ("Ana", "Benoît", "Cy", "Zoé", "Eve", "Fabrice"),
        card(7), ("special", {"card": "u-turn"}), card(30)),
    "con-pressure-set-to-120": lambda: call_of_nature(("Ana", "Ben"),
                                                      ("set-pressure", {"value": 120})),
    "con-game-over": lambda: screens.game_screen(finished_call_of_nature()),
    # OhShit!
    "ohshit-four-players": lambda: ohshit(
        ("Ana", "Ben", "Cy", "Zoé"),
        ("poop", {"target": 1, "colour": "spicy"}), ("poop", {"target": 1, "colour": "frosty"}),
        ("constipation", {"target": 3}), ("poop", {"target": 0, "colour": "unicorn"}),
        ("poop", {"target": 0, "colour": "fruity"})),
    "ohshit-six-players-one-dead": lambda: ohshit(
        ("Ana", "Ben", "Cy", "Zoé", "Eve", "Maximilien"),
        ("poop", {"target": 5, "colour": "grassy"}), ("constipation", {"target": 5}),
        ("poop", {"target": 5, "colour": "precious"}), ("kill", {"player": 2})),
    # Bathroom Rush
    "bathroom-rush-choosing-queues": lambda: screen_of(play(
        BathroomRush(Setup(("Ana", "Ben", "Cy"))), ("choose-queue", {"queue": 2}))),
    "bathroom-rush-three-players": lambda: bathroom_rush(("Ana", "Ben", "Cy"), (2, 3, 4)),
    "bathroom-rush-after-a-decompression": lambda: bathroom_rush(
        ("Ana", "Ben", "Cy"), (2, 3, 4), ("decompress", {}), ("roll", {"values": [4]})),
    "bathroom-rush-two-players-limit-3": lambda: bathroom_rush(("Ana", "Ben"), (1, 3)),
    "bathroom-rush-ana-eliminated": lambda: bathroom_rush(
        ("Ana", "Ben", "Cy", "Zoé"), (5, 1, 2, 3),
        ("set-reserve", {"player": 0, "pipi": 2, "popo": 3}), ("decompress", {}),
        ("roll", {"values": [4]})),
    # Shared screens
    "alert-threshold": lambda: screens.alert_screen(
        "Ben crosses 61: loses 2 Mastery (now 5)", "Threshold 61"),
    "alert-event-threshold-fired": lambda: screens.event_screen(next(
        e for e in play(CallOfNature(Setup(("Ana", "Ben", "Cy"))), card(20)).apply(
            Command("card", {"value": 15})) if e.kind == "threshold-fired")),
    "alert-long-message-cut": lambda: screens.alert_screen(
        "The draw pile is empty: shuffle the Décharge into a new draw pile of poops only, "
        "then keep playing; the companion keeps counting every card that comes back",
        "Draw pile"),
    "menu-top": lambda: screens.menu_screen(
        "New game", ["Call of Nature", "OhShit!", "Bathroom Rush"], 0),
    "menu-scrolled": lambda: screens.menu_screen(
        "Menu", ["Undo", "Redo", "Corrections", "Dice source", "Join from a phone",
                 "Statistics", "Shut down the companion and switch off"], 4),
    "menu-last": lambda: screens.menu_screen(
        "Menu", ["Undo", "Redo", "Corrections", "Dice source", "Join from a phone",
                 "Statistics", "Shut down the companion and switch off"], 6),
    "value-card": lambda: screens.value_screen("Card value", 5, -30, 30, signed=True),
    "value-count": lambda: screens.value_screen("Draw pile", 63, 1, 500),
    "dice-respite-d6": lambda: screens.dice_screen([4], "Ana: Respite"),
    "dice-end-2d6": lambda: screens.dice_screen([3, 5], "Ben rolls 2d6"),
    "dice-red-die": lambda: screens.dice_screen([2], "Red die"),
    "dice-many": lambda: screens.dice_screen([6, 1, 3, 5, 2]),
    "join-with-pin": lambda: screens.join_screen("http://192.168.1.23:8080/", "4821"),
    "join-without-pin": lambda: screens.join_screen("http://companion.local:8080/"),
    "idle": lambda: screens.idle_screen("http://192.168.1.23:8080/"),
    "idle-no-network": lambda: screens.idle_screen(),
    "off": lambda: screens.off_screen(),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_screen_matches_its_reference_image(name, tmp_path):
    image = CASES[name]()
    assert image.mode == "1" and image.size == (128, 64)
    reference = REFERENCE / f"{name}.png"
    if UPDATE or not reference.exists():
        reference.parent.mkdir(exist_ok=True)
        image.save(reference)
        if not UPDATE:
            pytest.fail(f"wrote missing reference {reference.name}; look at it and commit it")
    expected = Image.open(reference).convert("1")
    difference = ImageChops.difference(image, expected).getbbox()
    if difference is not None:
        image.save(tmp_path / f"{name}.png")
    assert difference is None, (
        f"{name} differs from its reference within {difference}; drawn: {tmp_path / name}.png")


def test_the_qr_code_is_drawn_module_for_module_as_segno_makes_it():
    url = "http://192.168.1.23:8080/"
    image = screens.join_screen(url, "4821")
    matrix = [list(row) for row in segno.make(url, error="m", micro=False).matrix_iter(border=0)]
    size = len(matrix)
    scale = (64 - 4) // size
    border = (64 - size * scale) // 2

    for row in range(size):
        for col in range(size):
            for dy in range(scale):
                for dx in range(scale):
                    lit = image.getpixel((border + col * scale + dx, border + row * scale + dy))
                    # Dark modules are unlit pixels on a lit square.
                    assert bool(lit) != bool(matrix[row][col]), (row, col)
    # The quiet zone around the code is lit.
    assert all(image.getpixel((x, 0)) for x in range(64))
    assert all(image.getpixel((0, y)) for y in range(64))


def test_a_pressure_digit_that_stays_keeps_its_pixels():
    twelve = call_of_nature(("Ana", "Ben", "Cy"), card(5), card(7))
    fifteen = call_of_nature(("Ana", "Ben", "Cy"), card(5), card(7), card(3))
    first_digit = (0, 0, 22, 32)

    assert ImageChops.difference(twelve.crop(first_digit), fifteen.crop(first_digit)).getbbox() \
        is None
    assert ImageChops.difference(twelve, fifteen).getbbox() is not None


def test_the_game_screen_follows_the_update_to_its_game():
    game = play(OhShit(Setup(("Ana", "Ben"))), ("poop", {"target": 1, "colour": "spicy"}))
    update = Update(game_id=1, game_key="ohshit", title=game.title, version=1, action="command",
                    state=game.view(), expected=tuple(game.expected()), events=(), over=False,
                    result=None, players=game.players, can_undo=True, can_redo=False)

    drawn = screens.game_screen(update)

    assert ImageChops.difference(drawn, screen_of(game)).getbbox() is None


def test_the_screens_never_import_luma_so_the_panel_can_draw_them():
    code = ("import sys, drivers.screens as s; s.off_screen(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('luma', 'smbus2')))")

    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)

    assert out.stdout.strip() == "[]"


def test_a_name_too_long_for_its_cell_ends_in_an_ellipsis_that_fits():
    cut = fit("Maximilien", 30, 11)

    assert cut.endswith("…") and text_width(cut, 11) <= 30
    assert fit("Cy", 30, 11) == "Cy"


def test_wrapping_keeps_whole_words_and_cuts_only_a_word_wider_than_the_line():
    line = text_width("Ben crosses", 12)

    assert wrap("Ben crosses 61", line, 12) == ["Ben crosses", "61"]
    assert wrap("Ben crosses 61", line - 1, 12) == ["Ben", "crosses 61"]
    assert all(text_width(line, 12) <= 40 for line in wrap("Supercalifragilistic", 40, 12))
