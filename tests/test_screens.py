"""The screens, drawn from real game states in each of the table's
languages and compared pixel for pixel with the committed reference images
in tests/reference/<language>/.  The same images at 4x scale, for review,
are in tests/reference/4x/<language>/.

After a deliberate change of a screen, regenerate both with
``UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/test_screens.py`` and
look at the 4x images before committing.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.core.engine import Command, Setup
from companion.core.games.bathroom_rush import BathroomRush
from companion.core.games.call_of_nature.game import CallOfNature
from companion.core.games.ohshit.game import OhShit
from companion.core.table import Update
from companion.core.text import LANGUAGES
from drivers import screens
from drivers.screens.canvas import fit, text_width, wrap

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("UPDATE_REFERENCE") == "1"
ROOT = Path(__file__).resolve().parent.parent


def play(game, *commands):
    for name, args in commands:
        game.apply(Command(name, args))
    return game


SCALE = 4


def update_of(game):
    return Update(
        game_id=1, game_key=game.key, title=game.title, version=1, action="command",
        state=game.view(), expected=tuple(game.expected()), events=(), over=False,
        result=None, players=game.players, can_undo=False, can_redo=False)


def screen_of(game, lang="en", page=0):
    return screens.game_screen(update_of(game), lang, page)


def call_of_nature(names=("Ana", "Ben", "Cy"), *commands, lang="en"):
    return screen_of(play(CallOfNature(Setup(tuple(names))), *commands), lang)


def card(value):
    return ("card", {"value": value})


def ohshit(names, *commands, lang="en"):
    return screen_of(play(OhShit(Setup(tuple(names))), *commands), lang)


def bathroom_rush(names, queues, *commands, lang="en", page=1):
    """The screen of a Bathroom Rush game: page 0 the active player, page 1
    every queue."""
    return screen_of(bathroom_rush_game(names, queues, *commands), lang, page)


def bathroom_rush_game(names, queues, *commands):
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
    return play(game, *commands)


def light_game():
    """Light tracking, three players: Ana took 3 pipì, Cy is near the limit,
    Ben's turn."""
    game = BathroomRush(Setup(("Ana", "Ben", "Cy"), frozenset({"light-tracking"})))
    return play(game, ("set-reserve", {"player": 0, "pipi": 3, "popo": 0}),
                ("set-reserve", {"player": 2, "pipi": 1, "popo": 3}), ("end-turn", {}))


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
    "con-start": lambda lang: call_of_nature(lang=lang),
    "con-pressure-12-cys-turn": lambda lang: call_of_nature(("Ana", "Ben", "Cy"), card(5),
                                                            card(7), lang=lang),
    "con-pressure-15-anas-turn": lambda lang: call_of_nature(
        ("Ana", "Ben", "Cy"), card(5), card(7), card(3), lang=lang),
    "con-ben-crossed-31": lambda lang: call_of_nature(("Ana", "Ben", "Cy"), card(20), card(15),
                                                      lang=lang),
    "con-respite-at-50": lambda lang: call_of_nature(("Ana", "Ben", "Cy"),
                                                     card(20), card(20), card(10), lang=lang),
    "con-ben-exploded-end-rolls": lambda lang: call_of_nature(
        ("Ana", "Ben", "Cy"), ("adjust-mastery", {"player": 1, "delta": -6}),
        card(20), card(15), lang=lang),
    "con-six-players-after-u-turn": lambda lang: call_of_nature(
        ("Ana", "Benoît", "Cy", "Zoé", "Eve", "Fabrice"),
        card(7), ("special", {"card": "u-turn"}), card(30), lang=lang),
    "con-pressure-set-to-120": lambda lang: call_of_nature(
        ("Ana", "Ben"), ("set-pressure", {"value": 120}), lang=lang),
    "con-all-thresholds-passed": lambda lang: call_of_nature(
        ("Ana", "Ben"), ("set-pressure", {"value": 95}), lang=lang),
    "con-game-over": lambda lang: screens.game_screen(finished_call_of_nature(), lang),
    # OhShit!
    "ohshit-two-players": lambda lang: ohshit(
        ("Ana", "Ben"), ("poop", {"target": 1, "colour": "spicy"}), lang=lang),
    "ohshit-four-players": lambda lang: ohshit(
        ("Ana", "Ben", "Cy", "Zoé"),
        ("poop", {"target": 1, "colour": "spicy"}), ("poop", {"target": 1, "colour": "frosty"}),
        ("constipation", {"target": 3}), ("poop", {"target": 0, "colour": "unicorn"}),
        ("poop", {"target": 0, "colour": "fruity"}), lang=lang),
    "ohshit-six-players-one-dead": lambda lang: ohshit(
        ("Ana", "Ben", "Cy", "Zoé", "Eve", "Maximilien"),
        ("poop", {"target": 5, "colour": "grassy"}), ("constipation", {"target": 5}),
        ("poop", {"target": 5, "colour": "precious"}), ("kill", {"player": 2}), lang=lang),
    "ohshit-constipated-player-acts": lambda lang: ohshit(
        ("Ana", "Ben", "Cy"), ("constipation", {"target": 1}),
        ("poop", {"target": 1, "colour": "precious"}), lang=lang),
    # Bathroom Rush
    "bathroom-rush-choosing-queues": lambda lang: screen_of(play(
        BathroomRush(Setup(("Ana", "Ben", "Cy"))), ("choose-queue", {"queue": 2})), lang),
    "bathroom-rush-three-players": lambda lang: bathroom_rush(("Ana", "Ben", "Cy"), (2, 3, 4),
                                                              lang=lang),
    "bathroom-rush-after-a-decompression": lambda lang: bathroom_rush(
        ("Ana", "Ben", "Cy"), (2, 3, 4), ("decompress", {}), ("roll", {"values": [4]}),
        lang=lang),
    "bathroom-rush-two-players-limit-3": lambda lang: bathroom_rush(("Ana", "Ben"), (1, 3),
                                                                    lang=lang),
    "bathroom-rush-ana-eliminated": lambda lang: bathroom_rush(
        ("Ana", "Ben", "Cy", "Zoé"), (5, 1, 2, 3),
        ("set-reserve", {"player": 0, "pipi": 2, "popo": 3}), ("decompress", {}),
        ("roll", {"values": [4]}), lang=lang),
    # Bathroom Rush, the first page: the active player large
    "bathroom-rush-player-ana-to-act": lambda lang: bathroom_rush(
        ("Ana", "Ben", "Cy"), (2, 3, 4), lang=lang, page=0),
    "bathroom-rush-player-reserve-near-the-limit": lambda lang: bathroom_rush(
        ("Ana", "Ben"), (1, 3), ("set-reserve", {"player": 0, "pipi": 3, "popo": 2}),
        lang=lang, page=0),
    "bathroom-rush-player-ben-after-ana-decompressed": lambda lang: bathroom_rush(
        ("Ana", "Ben", "Cy"), (2, 3, 4), ("decompress", {}), ("roll", {"values": [2]}),
        lang=lang, page=0),
    # Bathroom Rush in light tracking: the reserves listed, and the active player
    "bathroom-rush-light-reserves": lambda lang: screen_of(light_game(), lang, 1),
    "bathroom-rush-light-player-ben": lambda lang: screen_of(light_game(), lang, 0),
    "bathroom-rush-light-cleanup": lambda lang: screen_of(play(
        light_game(), ("end-turn", {}), ("end-turn", {})), lang),
    # Shared screens
    "alert-threshold": lambda lang: screens.alert_screen(
        "Ben crosses 61: loses 2 Mastery (now 5)", "Threshold 61"),
    "alert-event-threshold-fired": lambda lang: screens.event_screen(next(
        e for e in play(CallOfNature(Setup(("Ana", "Ben", "Cy"))), card(20)).apply(
            Command("card", {"value": 15})) if e.kind == "threshold-fired")),
    "alert-long-message-cut": lambda lang: screens.alert_screen(
        "The draw pile is empty: shuffle the Décharge into a new draw pile of poops only, "
        "then keep playing; the companion keeps counting every card that comes back",
        "Draw pile"),
    "menu-top": lambda lang: screens.menu_screen(
        "New game", ["Call of Nature", "OhShit!", "Bathroom Rush"], 0, lang),
    "menu-scrolled": lambda lang: screens.menu_screen(
        "Menu", ["Undo", "Redo", "Corrections", "Dice source", "Join from a phone",
                 "Statistics", "Shut down the companion and switch off"], 4, lang),
    "menu-last": lambda lang: screens.menu_screen(
        "Menu", ["Undo", "Redo", "Corrections", "Dice source", "Join from a phone",
                 "Statistics", "Shut down the companion and switch off"], 6, lang),
    "menu-empty": lambda lang: screens.menu_screen("Corrections", [], 0, lang),
    "value-card": lambda lang: screens.value_screen("Card value", 5, -30, 30, signed=True,
                                                    lang=lang),
    "value-count": lambda lang: screens.value_screen("Draw pile", 63, 1, 500, lang=lang),
    "dice-respite-d6": lambda lang: screens.dice_screen([4], "Ana: Respite"),
    "dice-end-2d6": lambda lang: screens.dice_screen([3, 5], "Ben rolls 2d6"),
    "dice-red-die": lambda lang: screens.dice_screen([2], "Red die"),
    "dice-many": lambda lang: screens.dice_screen([6, 1, 3, 5, 2]),
    "join-with-pin": lambda lang: screens.join_screen(JOIN_URL, "482193", lang),
    "join-without-pin": lambda lang: screens.join_screen("http://companion.local:8080/",
                                                         lang=lang),
    "home": lambda lang: screens.idle_screen("http://192.168.1.23:8080/", "482193", lang),
    "home-no-panel": lambda lang: screens.idle_screen(lang=lang),
    "off": lambda lang: screens.off_screen(lang=lang),
    "wifi-hotspot": lambda lang: screens.wifi_screen("Companion-4821", "table-7219-duck", lang),
    "menu-main": lambda lang: table_menu(lang, "back"),
    "bathroom-rush-reveal-colours": lambda lang: reveal_menu(lang, None),
    "bathroom-rush-reveal-colour-tokens": lambda lang: reveal_menu(lang, None, "down"),
    "bathroom-rush-reveal-box-of-12": lambda lang: reveal_menu(lang, BOX_12),
    "bathroom-rush-reveal-confirm": lambda lang: reveal_menu(lang, BOX_12, "ok", "down"),
    "menu-pixels": lambda lang: table_menu(lang, "back", "down", "down", "down", "down",
                                           "down", "ok"),
    "menu-die-roles": lambda lang: table_menu(lang, "back", "down", "down", "down", "down",
                                              "down", "ok", "ok"),
}
# A box of 12 kinds, as a table describes it.
BOX_12 = [{"name": name, "colour": colour, "pipi": pipi, "popo": popo, "copies": copies}
          for name, colour, pipi, popo, copies in (
              ("Signora", "neutral", 1, 0, 9), ("Ragazzo", "neutral", 2, 0, 7),
              ("Turista", "neutral", 1, 1, 6), ("Manager", "neutral", 3, 0, 5),
              ("Bambino", "neutral", 0, 1, 4), ("Anziano", "orange", 2, 0, 4),
              ("Mamma con pupo", "orange", 2, 1, 3), ("Distratto", "orange", 1, 0, 3),
              ("Avido lettore", "orange", 1, 1, 3), ("Imprenditore", "red", 0, 0, 2),
              ("Infame", "yellow", 1, 0, 2), ("Giovane smarrito", "yellow", 1, 0, 2))]


def reveal_menu(lang: str, box, *keys: str) -> Image.Image:
    """A Bathroom Rush reveal at the buttons in ``lang`` (with ``box``
    described, or none), after ``keys``."""
    from companion.core.journal import Journal
    from companion.core.menu import TableMenu
    from companion.core.table import Table
    from drivers.menu_screens import render

    table = Table(Journal.open(":memory:"))
    try:
        table.new_game("bathroom-rush", ["Ana", "Ben", "Cy"],
                       options={"box": box} if box else {})
        for queue in (1, 2, 3):
            table.submit(Command("choose-queue", {"queue": queue}))
        menu = TableMenu(table, dice_source="manual", language=lang)
        for key in keys:
            menu.on_key(key)
        return render(menu.view(), menu.update, lang)
    finally:
        table.close()


def table_menu(lang: str, *keys: str) -> Image.Image:
    """The button menu's own screens in ``lang``: a game of Call of Nature
    with a Pixels die paired, after ``keys``."""
    from companion.core.journal import Journal
    from companion.core.menu import TableMenu
    from companion.core.table import Table
    from drivers.menu_screens import render
    from tests.fakes import FakeSmartDice

    table = Table(Journal.open(":memory:"))
    try:
        table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
        smart = FakeSmartDice()
        smart.pair("F0:12:34:56:78:9A", "Pixel 42", "d6")
        menu = TableMenu(table, dice_source="pixels", smart_dice=smart, language=lang)
        for key in keys:
            menu.on_key(key)
        return render(menu.view(), menu.update, lang)
    finally:
        table.close()


# A panel address as the companion makes it: a private address, the port and
# the join token (24 characters).
JOIN_URL = "http://192.168.178.100:8080/?join=Qm9vZ2llV29vZ2llQm9vZ2ll"


def reference_paths(name: str, lang: str) -> tuple[Path, Path]:
    return REFERENCE / lang / f"{name}.png", REFERENCE / "4x" / lang / f"{name}.png"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_screen_matches_its_reference_image(name, lang, tmp_path):
    image = CASES[name](lang)
    assert image.mode == "1" and image.size == (128, 64)
    reference, large = reference_paths(name, lang)
    if UPDATE or not reference.exists():
        for path in (reference, large):
            path.parent.mkdir(parents=True, exist_ok=True)
        image.save(reference)
        image.convert("L").resize((128 * SCALE, 64 * SCALE), Image.Resampling.NEAREST) \
            .save(large, optimize=True)
        if not UPDATE:
            pytest.fail(f"wrote missing reference {reference}; look at it and commit it")
    expected = Image.open(reference).convert("1")
    difference = ImageChops.difference(image, expected).getbbox()
    if difference is not None:
        image.save(tmp_path / f"{name}.png")
    assert difference is None, (
        f"{name} ({lang}) differs from its reference within {difference}; "
        f"drawn: {tmp_path / name}.png")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_4x_review_images_are_the_references_scaled(lang):
    for name in CASES:
        reference, large = reference_paths(name, lang)
        scaled = Image.open(reference).convert("L").resize((128 * SCALE, 64 * SCALE),
                                                           Image.Resampling.NEAREST)
        assert ImageChops.difference(scaled, Image.open(large).convert("L")).getbbox() is None, \
            f"{large} is not {reference} at 4x: regenerate with UPDATE_REFERENCE=1"


def test_the_qr_code_is_drawn_module_for_module_in_two_pixel_modules():
    image = screens.join_screen(JOIN_URL, "482193")
    qr = screens.common.qr_code(JOIN_URL)
    matrix = qr.modules
    size = len(matrix)
    scale = (64 - 4) // size
    border = (64 - size * scale) // 2

    assert qr.version == 3 and scale == 2
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


def test_the_qr_code_holds_the_address_with_only_its_scheme_and_host_in_capitals():
    segments = screens.common.qr_segments(JOIN_URL)
    head, path = segments[0][0], segments[1][0]
    assert head == "HTTP://192.168.178.100:8080/"
    assert head.lower() + path == JOIN_URL  # the token keeps its case


def test_a_phone_reads_the_join_code_as_the_panels_address():
    zxingcpp = pytest.importorskip("zxingcpp")
    image = screens.join_screen(JOIN_URL, "482193").convert("L")
    read = [found.text for found in zxingcpp.read_barcodes(image)]
    assert read == ["HTTP://192.168.178.100:8080/?join=Qm9vZ2llV29vZ2llQm9vZ2ll"]


def test_a_host_name_too_long_for_a_version_3_code_still_gets_a_code():
    url = "http://tabletop-companion-in-the-kitchen.local:8080/?join=Qm9vZ2llV29vZ2llQm9vZ2ll"
    image = screens.join_screen(url, "482193")
    assert image.getpixel((0, 0))  # a lit quiet zone: a code was drawn, in 1-pixel modules


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


# -- the fonts' glyphs, in every language -------------------------------------

SIZES = (8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 28, 36)
NAMES = ("Benoît", "Zoé", "Maximilien", "Niccolò", "Françoise", "Jürgen", "Ilaria", "Jiří",
         "Café Libre")
GAME_WORDS = ("Décharge", "Épicé", "Précieux", "Herbeux", "Givré", "Fruité", "Licorne",
              "pipì", "popò", "Tregua", "Répit", "Pressione", "Maîtrise", "Padronanza")


# What the OLED shows of a game's sentences: the menu's names of commands,
# parameters and choices, the reveal by the keys, the waiting line.
SHOWN_PREFIXES = ("label.", "keys.", "command.", "param.", "choice.", "card.")


def all_words():
    from companion.core.games import GAMES
    from companion.core.text import COMMON, game_phrases
    from drivers.screens.bathroom_rush import PAGE_WORDS
    from drivers.screens.words import WORDS

    words = {w for phrases in WORDS.values() for w in phrases.values()}
    words |= {w.format(q=2, n=3, name="Ana") for phrases in PAGE_WORDS.values()
              for w in phrases.values()}
    sentences = list(COMMON.values())
    sentences += [{key: text for key, text in phrases.items() if key.startswith(SHOWN_PREFIXES)}
                  for game in GAMES for phrases in game_phrases(game).values()]
    # The menu's words, a word at a time (their fields as a player's name).
    words |= {w.strip("'«»?:.,") for phrases in sentences for phrase in phrases.values()
              for w in _filled(phrase).split()}
    return sorted({w.format_map(_Named(threshold=61, total=12, high=4)) for w in words}
                  | set(NAMES)
                  | set(GAME_WORDS))


class _Named(dict):
    def __missing__(self, key):
        return "Ana"


def _filled(phrase: str) -> str:
    """A template with a player's name in its fields, its counts at 2."""
    from companion.core.text import fill
    from companion.language.catalogs import placeholders

    counted = set(re.findall(r"\{\s*(\w+)\s*,\s*(?:plural|select)", phrase))
    return fill(phrase, "en", {name: 2 if name in counted else "Ana"
                               for name in placeholders(phrase)})


@functools.cache
def edges_of(glyph: str, size: int, bold: bool) -> dict[int, tuple[int, int]]:
    """Per row of a glyph's ink as the screens stamp it (from the left end
    of its baseline), its leftmost and rightmost lit columns."""
    from drivers.screens.canvas import ink

    inked = ink(glyph, size, bold, "ls")
    if inked is None:
        return {}
    mask, left, top = inked
    rows = {}
    for y in range(mask.size[1]):
        lit = [x for x in range(mask.size[0]) if mask.getpixel((x, y))]
        if lit:
            rows[top + y] = (left + lit[0], left + lit[-1])
    return rows


def touching_glyphs(text: str, size: int, bold: bool) -> list[str]:
    """Neighbouring glyphs of ``text`` whose ink meets, in a row or at a
    corner (a row above or below), with no unlit column between them, as
    the screens set it; and words less than three unlit columns apart."""
    from drivers.screens.canvas import layout

    starts = layout(text, size, bold)[0]
    inked = [(i, ch, x, edges_of(ch, size, bold))
             for i, (ch, x) in enumerate(zip(text, starts, strict=True))
             if not ch.isspace() and edges_of(ch, size, bold)]
    touching = []
    for (i, a, xa, ea), (j, b, xb, eb) in itertools.pairwise(inked):
        if text[i + 1:j].isspace() and j > i + 1:
            gap = xb + min(left for left, _ in eb.values()) - (
                xa + max(right for _, right in ea.values())) - 1
            if gap < 3:
                touching.append(f"{a} {b}")
            continue
        for y, (_, right) in ea.items():
            if any(near in eb and xb + eb[near][0] - (xa + right) < 2
                   for near in (y - 1, y, y + 1)):
                touching.append(a + b)
                break
    return touching


@pytest.mark.parametrize("bold", [False, True])
def test_no_two_glyphs_touch_in_any_word_of_any_language(bold):
    found = {(word, size): touching
             for word in all_words() for size in SIZES
             if (touching := touching_glyphs(word, size, bold))}
    assert found == {}


@pytest.mark.parametrize("bold", [False, True])
def test_words_stand_three_columns_apart_in_every_sentence_the_menu_says(bold):
    from companion.core.text import COMMON

    sentences = {_filled(text) for phrases in COMMON.values() for text in phrases.values()}
    found = {(sentence, size): touching
             for sentence in sentences for size in (8, 9, 10, 11, 12)
             if (touching := [pair for pair in touching_glyphs(sentence, size, bold)
                              if " " in pair])}
    assert found == {}


def islands(image: Image.Image) -> int:
    """Runs of lit columns parted by unlit ones: glyphs that stand apart."""
    columns = [image.crop((x, 0, x + 1, image.size[1])).getbbox() is not None
               for x in range(image.size[0])]
    return sum(1 for x, lit in enumerate(columns) if lit and (x == 0 or not columns[x - 1]))


def test_decharge_keeps_its_eight_letters_apart_where_the_font_alone_reads_dechamge():
    from PIL import ImageDraw

    from drivers.screens.canvas import Canvas, font

    alone = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(alone)
    draw.fontmode = "1"
    draw.text((2, 20), "Décharge", font=font(11), fill=255, anchor="ls")
    set_here = Canvas()
    set_here.text((2, 20), "Décharge", 11)

    assert islands(alone) < 8  # Pillow alone welds the r to the g
    assert islands(set_here.image) == 8


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("bold", [False, True])
def test_the_dot_of_an_i_or_j_stands_apart_from_its_stem(size, bold):
    from drivers.screens.canvas import ink

    for glyph in "ijíìÎ":
        mask, _, _ = ink(glyph, size, bold, "ls")
        rows = [mask.crop((0, y, mask.size[0], y + 1)).getbbox() is not None
                for y in range(mask.size[1])]
        assert not all(rows), f"{glyph!r} at {size} px: the dot touches the stem"


def test_bathroom_rush_shows_the_active_players_place_and_reserve_16_pixels_high():
    from drivers.screens.bathroom_rush import COLUMNS, RULE_Y, bathroom_rush_pages

    game = bathroom_rush_game(("Ana", "Ben"), (1, 3),
                              ("set-reserve", {"player": 0, "pipi": 3, "popo": 2}))
    assert bathroom_rush_pages(game.view()) == 2
    image = screen_of(game, "en", 0)
    for centre in COLUMNS:
        # Below the labels, above the rule: the figure alone.
        box = image.crop((centre - 20, 21, centre + 20, RULE_Y)).getbbox()
        assert box is not None and box[3] - box[1] >= 16, (centre, box)
    assert ImageChops.difference(image, screen_of(game, "en", 1)).getbbox() is not None
    # The pages alternate: page 2 is the first again.
    assert ImageChops.difference(image, screen_of(game, "en", 2)).getbbox() is None


def test_bathroom_rush_has_one_page_while_the_players_choose_their_queues():
    from drivers.screens.bathroom_rush import bathroom_rush_pages

    game = play(BathroomRush(Setup(("Ana", "Ben", "Cy"))), ("choose-queue", {"queue": 2}))
    assert bathroom_rush_pages(game.view()) == 1
    assert screens.game_pages(update_of(game)) == 1
    assert ImageChops.difference(screen_of(game, "en", 0), screen_of(game, "en", 1)).getbbox() \
        is None


def test_wrapping_a_long_alert_measures_each_piece_of_text_once(monkeypatch):
    # Word wrap lays each line out again with every word it adds, and a
    # layout measures every prefix: each measure shapes the text (some 40 µs,
    # ten times that on a Pi Zero), so none is made twice.
    from collections import Counter

    from drivers.screens import canvas

    measured: Counter[tuple[str, int, bool]] = Counter()
    real_font = canvas.font

    class CountingFont:
        def __init__(self, size: int, bold: bool) -> None:
            self.face, self.size, self.bold = real_font(size, bold), size, bold

        def getlength(self, text: str) -> float:
            measured[(text, self.size, self.bold)] += 1
            return self.face.getlength(text)

        def __getattr__(self, name: str):
            return getattr(self.face, name)

    for cached in (canvas.pen_length, canvas.layout, canvas.text_length, canvas._wrapped):
        cached.cache_clear()
    monkeypatch.setattr(canvas, "font", lambda size, bold=False: CountingFont(size, bold))
    text = ("The draw pile is empty: shuffle the discard pile to make a new draw pile, "
            "then Ana draws")
    lines = canvas.wrap(text, 120, 12)
    for cached in (canvas.pen_length, canvas.layout, canvas.text_length, canvas._wrapped):
        cached.cache_clear()
    assert len(lines) > 2 and " ".join(lines) == text
    assert measured and max(measured.values()) == 1


def test_an_evening_of_alerts_keeps_few_of_their_measures():
    # Every alert is a string never shown before, and wrapping it measures
    # a few hundred prefixes: the measures kept are bounded by a few
    # screens' worth, not by the thousands an evening brings.
    import gc
    import tracemalloc

    from drivers.screens import canvas

    names = ("Ana", "Benoît", "Cyrille", "Dominique", "Éloïse", "Francesca", "Giulia", "Hugo")

    def alert(i: int) -> str:
        name = names[i % len(names)]
        return (f"La pression a atteint {10 + i % 90} : {name} passe son tour",
                (f"Threshold {i} fired: {name} loses {1 + i % 3} Mastery ({2 + i % 7} → "
                 f"{1 + i % 6})"),
                f"{name} pesca {1 + i % 5} carte e il mazzo ne ha {i}")[i % 3]

    for cached in (canvas.pen_length, canvas.layout, canvas.text_length, canvas._wrapped,
                   canvas.fit, canvas.advances):
        cached.cache_clear()
    for i in range(50):  # every glyph and size met once
        screens.alert_screen(alert(i), "Seuil")
    gc.collect()
    tracemalloc.start()
    try:
        for i in range(50, 650):
            screens.alert_screen(alert(i), "Seuil")
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept < 1_500_000  # 2.2 MB when measures were kept by the thousands


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_screen_cuts_a_glyph_at_its_edge(lang, monkeypatch):
    from drivers.screens.canvas import HEIGHT, WIDTH, Canvas, ink

    cut: list[tuple[str, tuple[int, int, int, int]]] = []
    stamp = Canvas._stamp

    def watching(self, xy, text, size, bold, anchor, fill):
        x, y = xy
        inked = ink(text, size, bold, anchor)
        if inked is not None:
            mask, left, top = inked
            lit = mask.getbbox()
            if lit is not None:
                box = (round(x) + left + lit[0], round(y) + top + lit[1],
                       round(x) + left + lit[2], round(y) + top + lit[3])
                if box[0] < 0 or box[1] < 0 or box[2] > WIDTH or box[3] > HEIGHT:
                    cut.append((text, box))
        stamp(self, xy, text, size, bold, anchor, fill)

    monkeypatch.setattr(Canvas, "_stamp", watching)
    found = {}
    for name in sorted(CASES):
        cut.clear()
        CASES[name](lang)
        if cut:
            found[name] = cut[:]
    assert found == {}


def test_bathroom_rush_light_tracking_lists_every_reserve_on_the_second_page():
    from drivers.screens.bathroom_rush import PIPI_X, bathroom_rush_pages

    game = light_game()
    assert bathroom_rush_pages(game.view()) == 2
    reserves = screen_of(game, "en", 1)
    # A row per player below the header, each with its figures.
    rows = [reserves.crop((PIPI_X - 6, top, 128, top + 13)).getbbox()
            for top in (9, 22, 35)]
    assert all(row is not None for row in rows)
    # At the cleanup nobody is active: the reserves are the only page.
    play(game, ("end-turn", {}), ("end-turn", {}))
    assert game.phase == "cleanup"
    assert bathroom_rush_pages(game.view()) == 1
    assert screen_of(game, "en", 0).crop((PIPI_X - 6, 9, 128, 48)).getbbox() is not None


def test_a_qr_codes_error_correction_is_raised_as_far_as_its_size_allows():
    wifi = screens.wifi_qr_text("Companion-4821", "k7m2q9txhc")
    code = screens.common.qr_code(wifi)
    assert (code.version, code.error) == (3, "m")
    # One level more would need a larger code, which 64 rows show in 1-pixel modules.
    assert screens.common.qr_code(wifi, "q").version == 4
    assert screens.common.qr_code("HELLO").error == "h"
    assert screens.common.qr_code("HELLO", "h").version == 1
