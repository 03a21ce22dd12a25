"""``companion wiring``: the Pi's header drawn from the config, every pin the
config uses named with its role and no other, in the order a person wires
them; the same drawing on the panel's setup page."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.commands import wiring
from companion.commands.cli import main
from companion.host import config
from scripts import docs_pictures
from web import PanelSettings, Services, create_app

SVG = "{http://www.w3.org/2000/svg}"
CONFIGS = docs_pictures.wiring_configs()


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def named_gpios(svg: str) -> set[int]:
    return {int(n) for text in texts(svg) for n in re.findall(r"GPIO (\d+)", text)}


def labelled_pins(svg: str) -> set[int]:
    """The header's pins with a label beside them (a line to it)."""
    return {int(n) for text in texts(svg)
            for n in re.findall(r"→ pin (\d+) ", text)}


def configured(cfg: config.Config) -> set[int]:
    return {gpio for gpio, _role in wiring.pin_roles(cfg)}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_diagram_names_every_configured_pin_and_no_other(name):
    cfg = config.parse(CONFIGS[name])
    drawn = wiring.svg(cfg)
    assert named_gpios(drawn) == configured(cfg) == set(cfg.pins().values()) | {2, 3}
    # Each wire's pin is the header's pin of its GPIO, power and ground apart.
    for wire in wiring.wires(cfg):
        assert wire.gpio is None or wiring.PHYSICAL[wire.gpio] == wire.pin
    assert labelled_pins(drawn) == {w.pin for w in wiring.wires(cfg)}


def test_a_part_switched_off_is_not_drawn_and_a_moved_key_moves():
    cfg = config.parse("[buzzer]\nenabled = false\n[buttons]\nroll = 4\n")
    drawn = wiring.svg(cfg)
    assert 12 not in named_gpios(drawn) and 26 not in named_gpios(drawn)
    assert "4 Keys: ROLL · GPIO 4" not in " ".join(texts(drawn))  # the step is 2
    assert "2 Keys: ROLL · GPIO 4" in texts(drawn)
    assert "ROLL → pin 7 (GPIO 4)" in [t.strip() for t in texts(drawn)]


def test_the_wires_come_in_the_order_a_person_wires_them():
    cfg = config.parse(CONFIGS["example"])
    parts = [w.part for w in wiring.wires(cfg)]
    order = list(dict.fromkeys(parts))
    assert order == ["Display (SSD1306)", "Keys", "Die-face LEDs", "Buzzer"]
    display = [(w.lead, w.pin) for w in wiring.wires(cfg) if w.part.startswith("Display")]
    assert display == [("VCC", 1), ("GND", 6), ("SDA", 3), ("SCL", 5)]
    leds = [w for w in wiring.wires(cfg) if w.part == "Die-face LEDs" and w.gpio is not None]
    assert [w.gpio for w in leds] == list(cfg.leds.pins)  # top-left first, as the config
    assert leds[0].lead == "LED top-left"


def test_an_encoder_replaces_up_down_and_ok_and_takes_the_second_3v3():
    cfg = config.parse(CONFIGS["encoder"])
    keys = [w.lead for w in wiring.wires(cfg) if w.part == "Keys"]
    assert keys == ["GND", "BACK", "ROLL"]
    encoder = {w.lead: w.pin for w in wiring.wires(cfg) if w.part == "Rotary encoder"}
    assert encoder == {"VCC": 17, "GND": 9, "CLK (A)": 11, "DT (B)": 13, "SW (push)": 15}


def test_grounds_are_shared_out_so_no_pin_has_two_parts_while_one_is_free():
    cfg = config.parse(CONFIGS["encoder"])
    grounds = [w.pin for w in wiring.wires(cfg) if w.lead == "GND"]
    assert len(grounds) == len(set(grounds))
    assert all(wiring.HEADER[p] == "GND" for p in grounds)


def test_a_serial_dice_device_on_the_header_uart_is_wired_crossed():
    cfg = config.parse('[serial]\nport = "/dev/serial0"\n')
    serial = {w.lead: (w.pin, w.gpio) for w in wiring.wires(cfg)
              if w.part == "Serial dice device"}
    assert serial["TX"] == (10, 15) and serial["RX"] == (8, 14)
    assert {14, 15} <= named_gpios(wiring.svg(cfg))
    usb = wiring.diagram(config.Config())
    assert not [w for w in usb.wires if w.part == "Serial dice device"]
    assert any("USB" in note for note in usb.notes)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_reference_drawings_are_what_the_code_draws(name, tmp_path):
    made = {p.name: p for p in docs_pictures.wiring(tmp_path)}
    pictures = docs_pictures.PICTURES
    svg, png = f"wiring-{name}.svg", f"wiring-{name}.png"
    assert (pictures / svg).read_text() == made[svg].read_text(), \
        f"docs/pictures/{svg} is stale: run scripts/docs-pictures"
    from PIL import Image, ImageChops

    with Image.open(pictures / png) as kept, Image.open(made[png]) as drawn:
        assert kept.size == drawn.size
        assert ImageChops.difference(kept.convert("RGB"), drawn.convert("RGB")).getbbox() \
            is None, f"docs/pictures/{png} is stale: run scripts/docs-pictures"


def test_companion_wiring_writes_svg_or_png_and_refuses_another_kind(tmp_path, capsys):
    example = Path(docs_pictures.ROOT / "config.example.toml")
    out = tmp_path / "wiring.svg"
    assert main(["wiring", "--config", str(example), "--output", str(out)]) == 0
    assert out.read_text() == wiring.svg(config.load(example))
    assert "20 wires" in capsys.readouterr().out
    png = tmp_path / "wiring.png"
    assert main(["wiring", "--config", str(example), "--output", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["wiring", "--config", str(example), "--output", str(tmp_path / "w.txt")]) == 2
    assert ".svg or .png" in capsys.readouterr().err
    assert main(["wiring", "--config", str(example)]) == 0
    assert capsys.readouterr().out.startswith("<svg")


def test_companion_wiring_refuses_a_bad_config_with_its_message(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[buttons]\nup = 12\n")  # the buzzer's pin
    assert main(["wiring", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "GPIO 12" in err and "buzzer" in err


def test_companion_wiring_json_lists_the_wires(tmp_path, capsys):
    import json

    example = str(docs_pictures.ROOT / "config.example.toml")
    assert main(["wiring", "--json", "--config", example]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["wires"][0] == {"step": 1, "part": "Display (SSD1306)", "lead": "VCC",
                                  "pin": 1, "gpio": None, "header": "3V3"}


def test_the_setup_page_shows_the_wiring_served_as_svg(table):
    cfg = config.parse(CONFIGS["encoder"])
    app = create_app(table, PanelSettings(secret_key="x"),
                     services=Services(wiring_svg=lambda lang: wiring.svg(cfg, lang)))
    client = app.test_client()
    answer = client.get("/wiring.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert named_gpios(answer.get_data(as_text=True)) == configured(cfg)
    assert "Wire in this order" in answer.get_data(as_text=True)
    assert b'src="/wiring.svg?lang=en"' in client.get("/setup").data
    # In the page's language: the phone's own choice, else the browser's.
    french = client.get("/wiring.svg?lang=fr").get_data(as_text=True)
    assert "Câbler dans cet ordre" in french and named_gpios(french) == configured(cfg)
    client.set_cookie("lang", "it")
    assert b'src="/wiring.svg?lang=it"' in client.get("/setup").data
    assert "Collegare in quest'ordine" in client.get("/wiring.svg?lang=it").get_data(
        as_text=True)


def test_without_a_drawing_there_is_no_wiring_page(table):
    client = create_app(table, PanelSettings(secret_key="x")).test_client()
    assert client.get("/wiring.svg").status_code == 404
    assert b"/wiring.svg" not in client.get("/setup").data


# A line every language says alike: a pin's number, or a lead's label (UP, GND,
# CLK (A), +) to a pin, where "pin" is Italian too.
KEPT = r"[\d ]*|([A-Z]+( \([A-Z]\))?|\+) → pin \d+ \((GPIO \d+|GND|3V3|5V)\)"


@pytest.mark.parametrize("lang", ["fr", "it"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_word_of_the_drawing_is_said_in_french_and_italian(lang, name):
    cfg = config.parse(CONFIGS[name])
    cfg = dataclasses.replace(cfg, pixels=config.Pixels(dice=(("F0:12:34:56:78:9A", "d6"),)))
    english, said = texts(wiring.svg(cfg)), texts(wiring.svg(cfg, lang))
    assert len(english) == len(said)
    assert named_gpios(wiring.svg(cfg, lang)) == configured(cfg)
    # Only the numbers, the pins' names and the keys' labels stay as they are
    # (and "Buzzer", which is French too).
    unchanged = [e for e, s in zip(english, said, strict=True) if e == s
                 and not (lang == "fr" and "Buzzer" in e)
                 and not re.fullmatch(KEPT, e)]
    assert unchanged == []


def test_an_i2s_amplifier_on_the_first_examples_pins_is_refused_by_name(tmp_path, capsys):
    clash = tmp_path / "clash.toml"
    clash.write_text('[voice]\nenabled = true\namplifier = "max98357a"\n')
    assert main(["wiring", "--config", str(clash)]) == 2
    err = capsys.readouterr().err
    assert "GPIO 18" in err and "led 7" in err and "amplifier BCLK" in err


def test_the_speaker_examples_amplifier_is_drawn_on_its_i2s_pins():
    cfg = config.load(docs_pictures.ROOT / "config.speaker.example.toml")
    amplifier = {w.lead: (w.pin, w.gpio) for w in wiring.wires(cfg)
                 if w.part.startswith("Amplifier")}
    assert amplifier == {"VIN": (2, None), "GND": (14, None), "BCLK": (12, 18),
                         "LRCLK": (35, 19), "DIN": (40, 21)}
    # Without [voice] enabled, an amplifier named takes no pin.
    off = config.parse('[voice]\namplifier = "max98357a"\n')
    assert not [w for w in wiring.wires(off) if w.part.startswith("Amplifier")]
