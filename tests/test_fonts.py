"""The OLED's fonts, cut down to the scripts its screens can set
(``drivers/fonts/README.md``), still hold a glyph of their own for every
character a screen may draw: every word of every catalog in every language,
and players' names in each script kept.  The README's checksums are the
files'."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from drivers.screens import canvas
from drivers.screens.bathroom_rush import PAGE_WORDS
from drivers.screens.words import WORDS

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "drivers" / "fonts"
# A character no font holds (the Unicode private use area): its glyph is the
# font's "no such glyph" box.
ABSENT = "\ue000"
NAMES = ["Zoé", "José", "Björn", "Łukasz", "Ørjan", "Şule", "Ærø", "Œdipe", "Nguyễn",
         "Žofia", "Ζωή", "Дмитрий", "Ґанна", "Արամ", "ნინო", "Ǆemal"]
SIZES = (9, 10, 11, 12, 13, 16)


def catalog_characters() -> set[str]:
    """Every character of every message of the catalogs (the templates'
    English and each language's translation) and of the screens' words."""
    text = []
    for path in sorted((ROOT / "locale").rglob("*.po*")):
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.match(r'(?:msgid|msgstr(?:\[\d\])?|msgid_plural)?\s*"(.*)"$', line)
            if found:
                text.append(found.group(1).replace('\\"', '"').replace("\\n", " "))
    text.extend(str(word) for word in _words(WORDS))
    text.extend(str(word) for word in _words(PAGE_WORDS))
    return {ch for line in text for ch in line if ch.isprintable()}


def _words(found: object) -> list[object]:
    if isinstance(found, dict):
        return [word for value in found.values() for word in _words(value)]
    if isinstance(found, (list, tuple)):
        return [word for value in found for word in _words(value)]
    return [found]


@cache
def drawn(size: int, bold: bool, text: str) -> tuple[float, bytes]:
    font = canvas.font(size, bold)
    image = Image.new("1", (4 * size, 2 * size))
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    draw.text((size, 0), text, font=font, fill=255)
    return font.getlength(text), image.tobytes()


def missing(characters: set[str]) -> dict[tuple[int, bool], list[str]]:
    out = {}
    for size in SIZES:
        for bold in (False, True):
            box = drawn(size, bold, ABSENT)
            lacking = sorted(ch for ch in characters if drawn(size, bold, ch) == box)
            if lacking:
                out[size, bold] = lacking
    return out


def test_the_absent_glyph_is_seen_as_absent():
    # (The check can fail: a character outside the kept scripts is found.)
    assert missing({"\u05d0", "\u0627"}) == {(size, bold): ["\u05d0", "\u0627"]
                                             for size in SIZES for bold in (False, True)}


def test_every_character_of_every_catalog_has_its_glyph():
    characters = catalog_characters()
    assert {"é", "è", "à", "ù", "ç", "’", "…", "«", "»"} <= characters
    assert missing(characters) == {}


@pytest.mark.parametrize("name", NAMES)
def test_a_players_name_in_each_kept_script_has_its_glyphs(name):
    assert missing(set(name)) == {}


def test_the_readme_gives_each_fonts_checksum():
    readme = (FONTS / "README.md").read_text(encoding="utf-8")
    for path in sorted(FONTS.glob("*.ttf")):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert f"{digest}  {path.name}" in readme


# A game's screens, drawn in a fresh interpreter: the greeting, a menu, a
# value, alerts at each of their sizes, a result; then the font files'
# mappings in the process, one per face left open.
SCREENS = """
from drivers.screens import canvas, common
common.idle_screen("http://companion.local:8080", pin="309906")
common.menu_screen("Nouvelle partie", ["Call of Nature", "OhShit!", "Bathroom Rush"], 1)
common.value_screen("Pression", 1234)
common.value_screen("Points", 7, 0, 10)
for message in ("Zoé", "La pression a atteint 12 : Björn passe son tour", "x " * 60):
    common.alert_screen(message, "Seuil")
for _ in common.warm_alert_glyphs():
    pass
common.result_screen("Zoé gagne", ["Zoé 12", "Björn 9"])
maps = [line for line in open("/proc/self/maps") if line.rstrip().endswith(".ttf")]
print(canvas.font.cache_info().misses, len(maps))
"""


def test_the_screens_keep_few_font_faces_open():
    # Each open face maps the font file and keeps FreeType's state for its
    # size (150 to 350 kB): faces not used lately are closed.
    done = subprocess.run([sys.executable, "-c", SCREENS], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    opened, mapped = map(int, done.stdout.split())
    assert opened >= 8  # the screens drew with more sizes than are kept
    assert 1 <= mapped <= 2


def _drawn_now(size: int, bold: bool, text: str) -> bytes:
    image = Image.new("1", (8 * size, 2 * size))
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    draw.text((0, 0), text, font=canvas.font(size, bold), fill=255)
    return image.tobytes()


def test_a_face_opened_again_draws_the_same_pixels():
    canvas.font.cache_clear()
    first = canvas.font(13, True)
    image = _drawn_now(13, True, "Zoé Björn")
    for size in range(8, 8 + 2 * canvas.FONT_FACES):  # the face above is closed
        canvas.font(size)
    assert canvas.font.cache_info().currsize == canvas.FONT_FACES
    assert canvas.font(13, True) is not first
    assert _drawn_now(13, True, "Zoé Björn") == image


def test_a_screen_drawn_again_opens_no_face():
    # Its strings were measured and inked the first time: the faces closed
    # since are not opened again (a face is opened only for new text).
    from drivers.screens import common

    def screens() -> list[bytes]:
        return [common.alert_screen("La pression a atteint 12 : Björn passe son tour",
                                    "Seuil").tobytes(),
                common.menu_screen("Nouvelle partie", ["Call of Nature", "OhShit!"], 1).tobytes(),
                common.result_screen("Zoé gagne", ["Zoé 12", "Björn 9"]).tobytes()]

    first = screens()
    canvas.font.cache_clear()
    again = screens()
    assert canvas.font.cache_info().misses == 0
    assert again == first
