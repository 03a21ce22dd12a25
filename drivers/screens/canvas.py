"""Drawing on a 128x64 1-bit screen: fonts, text that fits, small icons.

Text is drawn with FreeType's monochrome rasteriser (``fontmode "1"``), whose
hinting gives crisp 1-bit glyphs; the result depends only on the font files
shipped in ``drivers/fonts`` and the Pillow version.

Text is set glyph by glyph (:func:`layout`): each glyph at its advance,
rounded to a whole pixel, and one pixel further wherever its ink would
touch the glyph before it.  At 9 to 11 pixels a hinted "rg" otherwise
reads "m" ("Décharge" as "Déchamge"); every string in every language keeps
at least one unlit column between neighbouring glyphs, and a digit that
stays keeps its pixels when the one after it changes.

Rasterising is most of the cost of a screen, and a slow one on a Pi Zero,
while the table shows the same few glyphs over and over: each glyph's ink
is rasterised once, kept in a bounded cache, and stamped onto later screens
through a mask, which lights exactly the pixels ``ImageDraw.text`` would.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from pathlib import Path
from typing import Iterable, NamedTuple

from PIL import Image, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
ON = 255  # a lit pixel: mode "1" stores 0 or 255
OFF = 0

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = "DejaVuSansCondensed.ttf"
BOLD = "DejaVuSansCondensed-Bold.ttf"
ELLIPSIS = "…"
# Cache bounds.  Faces: the few a screen draws with.  Each open face maps
# the font file and keeps FreeType's state for its size, 150 to 350 kB, and
# the screens use a dozen sizes over a game (the greeting's PIN, the alerts,
# the menus); a face is needed only for a string not measured or inked
# before (both kept below, as are each size's metrics), and opening one
# again takes 0.04 ms here (under a millisecond on a Pi Zero), so only the
# two used last stay open: a card's press costs the same CPU, an alert
# among other screens some 0.1 ms more.  Inked strings: those of a few games' screens
# (an inked string's mask is a byte per pixel of its ink: a few hundred
# bytes for a word, 8 kB for a whole-screen line of large type).  Measures:
# a few screens' strings and their prefixes.  Each alert is a string never
# shown before, and wrapping it measures a few hundred prefixes, seldom
# asked again: 2,000 alerts over an evening kept 4.3 MB of measures with
# room for 2,048 strings and 8,192 prefixes, 1.2 MB with these bounds, for
# some 0.3 ms more of a development machine's CPU an alert
# (benchmarks/bench_screens_memory.py).
FONT_FACES = 2
INKED_STRINGS = 2048
# Of which kept as images, ready to stamp: a screen's worth and more.
STAMPED_STRINGS = 256
MEASURED_STRINGS = 512
MEASURED_PREFIXES = 2048
# Room around a string's measured box when it is rasterised, so no ink is lost.
INK_MARGIN = 2


@lru_cache(maxsize=FONT_FACES)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / (BOLD if bold else REGULAR)), size)


@cache
def metrics(size: int, bold: bool = False) -> tuple[int, int]:
    """The font's ascent and descent at ``size``, in pixels."""
    ascent, descent = font(size, bold).getmetrics()
    return ascent, descent


@lru_cache(maxsize=MEASURED_STRINGS)
def text_length(text: str, size: int, bold: bool = False) -> float:
    """The width of ``text`` as :func:`layout` sets it, in pixels."""
    return float(layout(text, size, bold)[1])


def text_width(text: str, size: int, bold: bool = False) -> int:
    return round(text_length(text, size, bold))


@lru_cache(maxsize=MEASURED_STRINGS)
def advances(text: str, size: int, bold: bool = False) -> tuple[float, ...]:
    """Where each character of ``text`` starts, from the start of the string."""
    return tuple(float(x) for x in layout(text, size, bold)[0])


# Column offsets are kept as bytes with this added (a glyph is far narrower
# than 64 pixels); NO_INK marks a row without ink.
EDGE_BIAS = 64
NO_INK = 255


class Edges(NamedTuple):
    """A glyph's ink, row by row: its first row (from the baseline, negative
    above it), then each row's leftmost and rightmost lit columns from the
    pen, as bytes with :data:`EDGE_BIAS` added (:data:`NO_INK` for a row
    without ink); and the leftmost and rightmost columns of the whole.

    Every glyph set is measured so, and the alerts' glyphs ahead: a hundred
    bytes a glyph, where a dict of rows, with an int object for each row
    above the baseline, took a kilobyte."""

    top: int
    lefts: bytes
    rights: bytes
    leftmost: int
    rightmost: int


@lru_cache(maxsize=INKED_STRINGS)
def glyph_edges(glyph: str, size: int, bold: bool) -> Edges | None:
    """The edges of a glyph's ink (drawn from the left end of its baseline);
    None for a glyph without ink."""
    kept = inked(glyph, size, bold, "ls")
    if kept is None:
        return None
    lefts = bytearray()
    rights = bytearray()
    for y in range(len(kept.pixels) // kept.width):
        row = kept.pixels[y * kept.width:(y + 1) * kept.width]
        lit = row.strip(b"\0")
        first = kept.width - len(row.lstrip(b"\0"))
        lefts.append(kept.left + first + EDGE_BIAS if lit else NO_INK)
        rights.append(kept.left + first + len(lit) - 1 + EDGE_BIAS if lit else NO_INK)
    inked_rows = [i for i, edge in enumerate(lefts) if edge != NO_INK]
    return Edges(kept.top, bytes(lefts), bytes(rights),
                 min(lefts[i] for i in inked_rows) - EDGE_BIAS,
                 max(rights[i] for i in inked_rows) - EDGE_BIAS)


# Unlit columns at least between two words: the font's space leaves one or
# two at 8 to 10 pixels, where letters stand one apart ("Wi-Fidel").
WORD_GAP = 3


def _gap_needed(before: Edges, after: Edges, distance: int) -> int:
    """How many pixels to move the later glyph so that one unlit column at
    least parts it from the earlier one, in every row and from the rows
    above and below: ink that meets only at a corner reads as one shape
    ("Café" as "Caté")."""
    push = 0
    lefts, first, rows = after.lefts, after.top, len(after.lefts)
    for i, right in enumerate(before.rights):
        if right == NO_INK:
            continue
        y = before.top + i
        for near in range(y - 1 - first, y + 2 - first):
            if 0 <= near < rows and lefts[near] != NO_INK:
                # Both carry EDGE_BIAS: their difference is the pixels'.
                push = max(push, right + 2 - (distance + lefts[near]))
    return push


def _word_gap_needed(before: Edges, after: Edges, distance: int) -> int:
    """How many pixels to move a word's first glyph so that :data:`WORD_GAP`
    unlit columns part it from the ink of the word before."""
    return before.rightmost + 1 + WORD_GAP - (distance + after.leftmost)


@lru_cache(maxsize=MEASURED_STRINGS)
def layout(text: str, size: int, bold: bool = False) -> tuple[tuple[int, ...], int]:
    """Where each glyph of ``text`` starts (whole pixels from the pen's
    start) and the width of the whole: the font's advances, with a pixel
    more wherever two neighbouring glyphs would touch, and a word at least
    :data:`WORD_GAP` pixels from the one before."""
    starts: list[int] = []
    shift = 0
    previous: Edges | None = None
    previous_x = 0
    spaced = False
    for i, glyph in enumerate(text):
        x = round(pen_length(text[:i], size, bold)) + shift
        edges = glyph_edges(glyph, size, bold) if not glyph.isspace() else None
        if previous is not None and edges is not None:
            push = max(0, _gap_needed(previous, edges, x - previous_x))
            if spaced:
                push = max(push, _word_gap_needed(previous, edges, x - previous_x))
            x += push
            shift += push
        starts.append(x)
        if edges is not None:
            previous, previous_x, spaced = edges, x, False
        elif glyph.isspace():
            spaced = True
    return tuple(starts), round(pen_length(text, size, bold)) + shift


@lru_cache(maxsize=MEASURED_PREFIXES)
def pen_length(text: str, size: int, bold: bool) -> float:
    """The font's length of ``text``.  :func:`layout` asks it of every
    prefix of a string, and word wrapping lays out a line again with each
    word it adds: the prefixes repeat, and each measure costs some 40 µs
    (HarfBuzz shapes the text), so a long alert took 50 ms of a development
    machine's CPU, half a second of a Pi Zero's, before they were kept."""
    return float(font(size, bold).getlength(text))


# Glyphs whose dot or accent the hinting can weld to the stem at some sizes
# ("i" as "l" in 9-pixel type), and the glyph without it.
WELDED = {"i": "ı", "j": "ȷ", "í": "ı", "ì": "ı", "î": "ı", "Î": "I", "Í": "I", "Ì": "I"}


class Inked(NamedTuple):
    """A string's ink as it is kept: its mask's pixels (a byte each, 255
    where lit, row after row), the mask's width, and where its top left
    corner sits from the anchor point."""

    pixels: bytes
    width: int
    left: int
    top: int


@lru_cache(maxsize=INKED_STRINGS)
def inked(text: str, size: int, bold: bool, anchor: str) -> Inked | None:
    """``text`` rasterised (see :func:`_welded_ink`), kept as bytes: a few
    hundred bytes less than an image, for each of the many glyphs measured
    and never drawn (the alerts' are measured ahead); None for text with
    no ink."""
    found = _welded_ink(text, size, bold, anchor)
    if found is None:
        return None
    mask, left, top = found
    return Inked(mask.tobytes(), mask.size[0], left, top)


@lru_cache(maxsize=STAMPED_STRINGS)
def ink(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int] | None:
    """``text`` rasterised as a mask (255 where lit), and where its top left
    corner sits from the anchor point; None for text with no ink.  The
    masks of the strings drawn lately are kept as images."""
    kept = inked(text, size, bold, anchor)
    if kept is None:
        return None
    mask = Image.frombytes("L", (kept.width, len(kept.pixels) // kept.width), kept.pixels)
    return mask, kept.left, kept.top


def _welded_ink(text: str, size: int, bold: bool,
                anchor: str) -> tuple[Image.Image, int, int] | None:
    """``text`` rasterised as a mask, and where its top left corner sits
    from the anchor point.  A dot or accent that the hinting welds to its
    stem is lifted a pixel."""
    raw = _raw_ink(text, size, bold, anchor)
    if raw is None or text not in WELDED:
        return raw
    stem = _raw_ink(WELDED[text], size, bold, anchor)
    mask, left, top = raw
    if stem is None:
        return raw
    if stem[2] <= top and text in "ij":
        # The hinting dropped the dot: put one back, a row above the stem.
        width, height = mask.size
        dotted = Image.new("L", (width, height + 2), 0)
        dotted.paste(mask, (0, 2))
        for x in range(width):
            if mask.getpixel((x, 0)):
                dotted.putpixel((x, 0), 255)
        return dotted, left, top - 2
    if stem[2] <= top:
        return raw
    split = stem[2] - top  # the mask's first row of the stem
    rows = [mask.crop((0, y, mask.size[0], y + 1)).getbbox() is not None
            for y in range(mask.size[1])]
    if not all(rows[:split + 1]):
        return raw  # a row parts them already
    lifted = Image.new("L", (mask.size[0], mask.size[1] + 1), 0)
    lifted.paste(mask.crop((0, 0, mask.size[0], split)), (0, 0))
    lifted.paste(mask.crop((0, split, mask.size[0], mask.size[1])), (0, split + 1))
    return lifted, left, top - 1  # the stem stays, the dot goes up a row


def _raw_ink(text: str, size: int, bold: bool,
             anchor: str) -> tuple[Image.Image, int, int] | None:
    face = font(size, bold)
    # A bitmap's box is whole pixels (Pillow types it as floats).
    box_ = face.getbbox(text, mode="1", anchor=anchor)
    left, top = math.floor(box_[0]), math.floor(box_[1])
    right, bottom = math.ceil(box_[2]), math.ceil(box_[3])
    scratch = Image.new("L", (right - left + 2 * INK_MARGIN, bottom - top + 2 * INK_MARGIN), 0)
    draw = ImageDraw.Draw(scratch)
    draw.fontmode = "1"
    draw.text((INK_MARGIN - left, INK_MARGIN - top), text, font=face, anchor=anchor, fill=255)
    box = scratch.getbbox()
    if box is None:
        return None
    return scratch.crop(box), box[0] + left - INK_MARGIN, box[1] + top - INK_MARGIN


@lru_cache(maxsize=MEASURED_STRINGS)
def fit(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width``."""
    # Every glyph advances a pixel at least: a text longer than ``width``
    # characters cannot fit, nor can any longer prefix (a long message is
    # not measured whole, nor once per character it loses).
    if len(text) <= width and text_width(text, size, bold) <= width:
        return text
    text = text[:width]
    while text and text_width(text + ELLIPSIS, size, bold) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """Greedy word wrap; a word wider than a line is cut across lines."""
    return list(_wrapped(text, width, size, bold))


@lru_cache(maxsize=MEASURED_STRINGS)
def _wrapped(text: str, width: int, size: int, bold: bool) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, size, bold) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while text_width(word, size, bold) > width:
                cut = len(word) - 1
                while cut > 1 and text_width(word[:cut], size, bold) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return tuple(lines)


def fit_lines(text: str, width: int, max_lines: int, size: int, bold: bool = False) -> list[str]:
    """Wrapped lines, at most ``max_lines``; the last shows an ellipsis if cut."""
    lines = wrap(text, width, size, bold)
    if len(lines) <= max_lines:
        return lines
    kept = lines[:max_lines]
    # The rest joined to the last line is wider than a line, so fit() cuts it
    # with an ellipsis: readers see that the text goes on.
    kept[-1] = fit(" ".join([kept[-1], *lines[max_lines:]]), width, size, bold)
    return kept


class Canvas:
    """One screen being drawn: a blank 1-bit image and its ImageDraw."""

    def __init__(self) -> None:
        self.image = Image.new("1", (WIDTH, HEIGHT), OFF)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"

    def text(self, xy: tuple[float, float], text: str, size: int, *, bold: bool = False,
             anchor: str = "ls", fill: int = ON, width: int | None = None,
             steady: bool = False) -> None:
        """Text at ``xy`` (by default the left end of its baseline), cut to ``width``.

        Every string is set by :func:`layout`, glyph by glyph: neighbouring
        glyphs never touch, and a digit that stays the same keeps its pixels,
        so the display is sent only the digit that changed.  (``steady`` is
        kept for the callers that ask for it; all text is steady now.)
        """
        if width is not None:
            text = fit(text, width, size, bold)
        if "\n" in text:
            self._stamp(xy, text, size, bold, anchor, fill)
            return
        x, y = xy
        x -= {"l": 0.0, "m": text_length(text, size, bold) / 2,
              "r": text_length(text, size, bold)}[anchor[0]]
        x = round(x)
        for glyph, start in zip(text, layout(text, size, bold)[0], strict=True):
            if not glyph.isspace():
                self._stamp((x + start, y), glyph, size, bold, "l" + anchor[1], fill)

    def _stamp(self, xy: tuple[float, float], text: str, size: int, bold: bool, anchor: str,
               fill: int) -> None:
        """``text`` as ``ImageDraw.text`` draws it, from the cache of inked strings.

        Only whole-pixel positions of single lines are cached: elsewhere FreeType
        starts the pen between pixels, and Pillow splits lines.
        """
        x, y = xy
        if "\n" in text or not (float(x).is_integer() and float(y).is_integer()):
            self.draw.text(xy, text, font=font(size, bold), anchor=anchor, fill=fill)
            return
        stamp = ink(text, size, bold, anchor)
        if stamp is not None:
            mask, left, top = stamp
            self.image.paste(fill, (int(x) + left, int(y) + top), mask)

    def title_bar(self, title: str, size: int = 12) -> int:
        """An inverted bar across the top with a centred title; returns its height."""
        height = size + 3
        self.draw.rectangle((0, 0, WIDTH - 1, height - 1), fill=ON)
        self.text((WIDTH // 2, height - 3), title, size, bold=True, anchor="ms", fill=OFF,
                  width=WIDTH - 4)
        return height

    def centred_lines(self, lines: Iterable[str], size: int, top: int, bottom: int,
                      bold: bool = False, gap: int = 1) -> None:
        """Lines centred horizontally and as a block between ``top`` and ``bottom``."""
        lines = list(lines)
        ascent, descent = metrics(size, bold)
        step = ascent + descent + gap - 2
        block = step * len(lines) - gap
        y = top + max(0, (bottom - top - block) // 2) + ascent - 1
        for line in lines:
            self.text((WIDTH // 2, y), line, size, bold=bold, anchor="ms")
            y += step

    def turn_arrow(self, x: int, y: int, clockwise: bool, size: int = 13) -> None:
        """A circular arrow for the turn order, in a ``size`` square at ``x, y``:
        an open circle whose head, at twelve o'clock, points the way play goes."""
        d = self.draw
        box = (x, y + 1, x + size - 1, y + size)
        mid = x + size // 2
        if clockwise:
            d.arc(box, start=335, end=270 + 360, fill=ON, width=2)
            d.polygon([(mid, y - 2), (mid, y + 5), (mid + 4, y + 1)], fill=ON)
        else:
            d.arc(box, start=270, end=205 + 360, fill=ON, width=2)
            d.polygon([(mid, y - 2), (mid, y + 5), (mid - 4, y + 1)], fill=ON)

    def pointer(self, x: int, baseline: int, height: int = 7) -> None:
        """A small solid triangle pointing right, sitting on ``baseline``:
        marks the player who acts."""
        top = baseline - height
        self.draw.polygon([(x, top), (x, baseline - 1), (x + height // 2 + 1, top + height // 2)],
                          fill=ON)

    def die_face(self, x: int, y: int, size: int, value: int) -> None:
        """A die face with pips for 1 to 6 (a number for other values)."""
        d = self.draw
        d.rounded_rectangle((x, y, x + size - 1, y + size - 1), radius=max(2, size // 8),
                            outline=ON, fill=OFF, width=2)
        if not 1 <= value <= 6:
            self.text((x + size // 2, y + size // 2), str(value), size // 2, bold=True,
                      anchor="mm")
            return
        r = max(2, size // 10)
        lo, mid, hi = x + size // 4, x + size // 2, x + size - 1 - size // 4
        top, centre, bottom = y + size // 4, y + size // 2, y + size - 1 - size // 4
        spots = {
            1: [(mid, centre)],
            2: [(lo, top), (hi, bottom)],
            3: [(lo, top), (mid, centre), (hi, bottom)],
            4: [(lo, top), (hi, top), (lo, bottom), (hi, bottom)],
            5: [(lo, top), (hi, top), (mid, centre), (lo, bottom), (hi, bottom)],
            6: [(lo, top), (hi, top), (lo, centre), (hi, centre), (lo, bottom), (hi, bottom)],
        }[value]
        for cx, cy in spots:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ON)

    def scroll_bar(self, top: int, bottom: int, first: int, shown: int, total: int) -> None:
        """A thin bar on the right edge: where the shown lines sit in the list."""
        if total <= shown:
            return
        span = bottom - top + 1
        start = top + span * first // total
        end = top + max(span * (first + shown) // total, span * first // total + 3) - 1
        self.draw.line((WIDTH - 1, top, WIDTH - 1, bottom), fill=ON)
        self.draw.rectangle((WIDTH - 3, start, WIDTH - 1, min(end, bottom)), fill=ON)
