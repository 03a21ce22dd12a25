"""What changed between two frames, and how few I2C writes rewrite it.

A frame is kept as the controller's own RAM layout (8 pages of 128 column
bytes).  :func:`changed_segments` finds the runs of changed columns in each
page; :func:`rectangle_patches` gathers them into rectangles where that
costs fewer bytes on the wire (the SSD1306's horizontal addressing), and
:func:`page_patches` keeps one patch per run (the SH1106's page addressing).
Pure functions of bytes: no device, no bus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from PIL import Image

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8
FRAME_BYTES = WIDTH * PAGES


@dataclass(frozen=True)
class Patch:
    """A rectangle of display RAM to rewrite: pages and columns, inclusive."""

    first_page: int
    last_page: int
    first_column: int
    last_column: int

    @property
    def size(self) -> int:
        return (self.last_page - self.first_page + 1) * (self.last_column - self.first_column + 1)


# -- frames as controller RAM ------------------------------------------------


def frame_bytes(image: Image.Image) -> bytes:
    """A 128x64 mode-"1" image as the controller's RAM: page after page, each
    128 column bytes whose bit 0 is the page's top row.

    Transposing makes each image column a row of 64 pixels, which "1;R"
    packs least significant bit first: 8 bytes per column, one per page.
    Slicing every 8th byte then gathers a page, all in C.
    """
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return b"".join(columns[page::PAGES] for page in range(PAGES))


def _run_pattern(join_gap: int) -> re.Pattern[bytes]:
    """Runs of changed (non-zero) bytes, taking in gaps of up to ``join_gap``
    unchanged bytes: resending a short gap is cheaper than a new write."""
    return re.compile(rb"[^\x00](?:\x00{0,%d}[^\x00])*" % join_gap)


def changed_segments(old: bytes | None, new: bytes, join_gap: int) -> list[list[tuple[int, int]]]:
    """Per page, the changed column runs (first, last), as few as pays.

    One XOR of the two frames read as integers marks every changed byte,
    and a regular expression finds the runs: no Python loop over pixels.
    """
    if old is None:
        return [[(0, WIDTH - 1)] for _ in range(PAGES)]
    if old == new:
        return [[] for _ in range(PAGES)]
    diff = (int.from_bytes(old, "little") ^ int.from_bytes(new, "little")).to_bytes(
        FRAME_BYTES, "little")
    runs = _run_pattern(join_gap)
    return [
        [(m.start() - p * WIDTH, m.end() - 1 - p * WIDTH)
         for m in runs.finditer(diff, p * WIDTH, (p + 1) * WIDTH)]
        for p in range(PAGES)
    ]


def page_patches(segments: Sequence[Sequence[tuple[int, int]]]) -> list[Patch]:
    """One patch per changed run of each page: what page addressing sends."""
    return [Patch(p, p, first, last) for p, runs in enumerate(segments) for first, last in runs]


def rectangle_patches(segments: Sequence[Sequence[tuple[int, int]]],
                      write_cost: int) -> list[Patch]:
    """Changed runs gathered into rectangles, where that costs fewer bytes on the wire.

    Horizontal addressing rewrites a rectangle of pages and columns in one
    write: stretching a rectangle down over the next page's run saves
    ``write_cost`` and costs the unchanged bytes it also covers.  Going down
    the pages, each run stretches the rectangle above it that wastes least,
    if that pays, or starts its own: a digit 4 pages tall becomes one write.
    """
    done: list[Patch] = []
    open_above: list[Patch] = []
    for page, runs in enumerate(segments):
        here: list[Patch] = []
        for first, last in runs:
            run = Patch(page, page, first, last)
            best, best_waste = None, write_cost
            for rectangle in open_above:
                stretched = _bounding((rectangle, run))
                waste = stretched.size - rectangle.size - run.size
                if waste < best_waste:
                    best, best_waste = rectangle, waste
            if best is None:
                here.append(run)
            else:
                open_above.remove(best)
                here.append(_bounding((best, run)))
        done += open_above
        open_above = here
    return sorted(done + open_above, key=lambda p: (p.first_page, p.first_column))


def _bounding(patches: Sequence[Patch]) -> Patch:
    return Patch(min(p.first_page for p in patches), max(p.last_page for p in patches),
                 min(p.first_column for p in patches), max(p.last_column for p in patches))
