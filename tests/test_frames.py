"""The table screen's frames as the panel's mirror reads them: numbered,
and sent as PNG files."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

from companion.parts.frames import Frames, png_of

ROOT = Path(__file__).resolve().parent.parent


def a_frame(text: str) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((4, 4), text, fill=255)
    return image


def test_a_frames_png_is_the_png_pillow_saves():
    frame = a_frame("Pressure 12")
    saved = io.BytesIO()
    frame.save(saved, "PNG")

    assert png_of(frame) == saved.getvalue()
    read = Image.open(io.BytesIO(png_of(frame)))
    assert (read.format, read.mode, read.size) == ("PNG", "1", (128, 64))
    assert read.tobytes() == frame.tobytes()


def test_the_mirrors_png_loads_no_other_image_formats():
    # Pillow's save() loads the plugins of five formats before it writes
    # one; the companion keeps whatever it loads for as long as it runs.
    script = """
import sys
from PIL import Image
from companion.parts.frames import png_of
png_of(Image.new("1", (128, 64)))
print(sorted(name for name in sys.modules if name.endswith("ImagePlugin")))
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "['PIL.PngImagePlugin']"


def test_each_new_frame_is_numbered_and_its_png_made_once():
    frames = Frames()
    assert frames.numbered_png(lambda: a_frame("idle"))[0] == 0
    assert frames.shown(a_frame("one")) == 1
    assert frames.shown(a_frame("one")) is None  # the same pixels: no new frame
    number, png = frames.numbered_png(lambda: a_frame("idle"))
    assert number == 1
    assert Image.open(io.BytesIO(png)).tobytes() == a_frame("one").tobytes()
    assert frames.numbered_png(lambda: a_frame("idle"))[1] is png
    assert frames.shown(a_frame("two")) == 2
    assert Image.open(io.BytesIO(frames.numbered_png(lambda: a_frame("idle"))[1])).tobytes() \
        == a_frame("two").tobytes()
