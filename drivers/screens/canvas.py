"""Drawing on a 128x64 1-bit screen: fonts, text that fits, small icons.

Text is drawn with FreeType's monochrome rasteriser (``fontmode "1"``), whose
hinting gives crisp 1-bit glyphs; the result depends only on the font files
shipped in ``drivers/fonts`` and the Pillow version.

Rasterising is most of the cost of a screen, and a slow one on a Pi Zero,
while the table shows the same few strings over and over: each string's ink
is rasterised once, kept in a bounded cache, and stamped onto later screens
through a mask, which lights exactly the pixels ``ImageDraw.text`` would.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

from PIL import Image, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
ON = 255  # a lit pixel: mode "1" stores 0 or 255
OFF = 0

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = "DejaVuSansCondensed.ttf"
BOLD = "DejaVuSansCondensed-Bold.ttf"
ELLIPSIS = "…"
# Cache bounds: the sizes the screens use, and the strings of a few games'
# screens (an inked string's mask is a byte per pixel of its ink: a few
# hundred bytes for a word, 8 kB for a whole-screen line of large type).
FONT_FACES = 32
INKED_STRINGS = 256
MEASURED_STRINGS = 2048
# Room around a string's measured box when it is rasterised, so no ink is lost.
INK_MARGIN = 2


@lru_cache(maxsize=FONT_FACES)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / (BOLD if bold else REGULAR)), size)


@lru_cache(maxsize=MEASURED_STRINGS)
def text_length(text: str, size: int, bold: bool = False) -> float:
    """The advance of ``text`` in pixels, to 1/64 of a pixel."""
    return font(size, bold).getlength(text)


def text_width(text: str, size: int, bold: bool = False) -> int:
    return int(round(text_length(text, size, bold)))


@lru_cache(maxsize=MEASURED_STRINGS)
def advances(text: str, size: int, bold: bool = False) -> tuple[float, ...]:
    """Where each character of ``text`` starts, from the start of the string."""
    face = font(size, bold)
    return tuple(face.getlength(text[:i]) for i in range(len(text)))


@lru_cache(maxsize=INKED_STRINGS)
def ink(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int] | None:
    """``text`` rasterised as a mask (255 where lit), and where its top left
    corner sits from the anchor point; None for text with no ink."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text, mode="1", anchor=anchor)
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
    if text_width(text, size, bold) <= width:
        return text
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

        ``steady`` draws glyph by glyph.  Pillow places a whole string by its
        ink's extent, so "12" and "15" put the same "1" a pixel apart; glyph by
        glyph, a digit that stays the same keeps its pixels, and the display
        is sent only the digit that changed.
        """
        if width is not None:
            text = fit(text, width, size, bold)
        if not steady:
            self._stamp(xy, text, size, bold, anchor, fill)
            return
        x, y = xy
        x -= {"l": 0.0, "m": text_length(text, size, bold) / 2,
              "r": text_length(text, size, bold)}[anchor[0]]
        for glyph, advance in zip(text, advances(text, size, bold)):
            if not glyph.isspace():
                self._stamp((round(x + advance), y), glyph, size, bold, "l" + anchor[1], fill)

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
        inked = ink(text, size, bold, anchor)
        if inked is not None:
            mask, left, top = inked
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
        ascent, descent = font(size, bold).getmetrics()
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
