"""The wiring of a config, drawn: the Pi's 40-pin header with each pin the
config uses labelled with its part and role, in the order a person wires
them (the display first, then the keys or the encoder, the LEDs, the
buzzer, the serial dice device).

``wires(config)`` lists the connections; ``svg(config)`` draws them as an
SVG document (text, no library) and ``png(config)`` as a PNG (Pillow, which
the display's driver brings).  ``companion wiring`` prints or saves either,
and the panel's setup page shows the SVG.

Pure apart from ``png``: no hardware.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from companion.host.config import (
    HEADER_3V3,
    HEADER_5V,
    HEADER_GROUND,
    HEADER_PIN_OF_GPIO,
    I2S_PINS,
    PI_UART_PORTS,
    UART_PINS,
    Config,
)

# The 40-pin header, by physical pin: its BCM GPIO number, or what the pin
# is (power, ground), from the config's map of the header (the same on every
# Pi with a 40-pin header).
_PINS: dict[int, int | str] = {pin: gpio for gpio, pin in HEADER_PIN_OF_GPIO.items()}
_PINS.update(dict.fromkeys(HEADER_3V3, "3V3"))
_PINS.update(dict.fromkeys(HEADER_5V, "5V"))
_PINS.update(dict.fromkeys(HEADER_GROUND, "GND"))
HEADER: dict[int, int | str] = dict(sorted(_PINS.items()))
PHYSICAL: dict[int, int] = dict(HEADER_PIN_OF_GPIO)
GROUNDS = HEADER_GROUND
POWER_3V3 = HEADER_3V3
# I2C bus 1 and the UART, by BCM number.
I2C1 = {"SDA": 2, "SCL": 3}
UART = {name: gpio for gpio, name in UART_PINS.items()}
# Serial ports that are the header's UART (GPIO 14 and 15); any other port
# (USB, /dev/serial/by-id/...) is a cable, not header pins.
UART_PORTS = PI_UART_PORTS
LED_NAMES = ("top-left", "top-right", "middle-left", "centre", "middle-right",
             "bottom-left", "bottom-right")
KEY_NAMES = ("up", "down", "ok", "back", "roll")


@dataclass(frozen=True)
class Wire:
    """One connection: a wire from a part's ``lead`` to the header's ``pin``."""

    step: int
    part: str
    lead: str
    pin: int

    @property
    def gpio(self) -> int | None:
        what = HEADER[self.pin]
        return what if isinstance(what, int) else None

    @property
    def header_name(self) -> str:
        """What the header's pin is: "GPIO 5", "3V3", "GND"."""
        return f"GPIO {self.gpio}" if self.gpio is not None else str(HEADER[self.pin])

    def as_json(self) -> dict[str, Any]:
        return {"step": self.step, "part": self.part, "lead": self.lead, "pin": self.pin,
                "gpio": self.gpio, "header": self.header_name}


@dataclass(frozen=True)
class Diagram:
    """The wires in wiring order, and notes on what is not on the header."""

    wires: tuple[Wire, ...]
    notes: tuple[str, ...]

    def gpios(self) -> set[int]:
        return {w.gpio for w in self.wires if w.gpio is not None}


def pin_roles(config: Config) -> list[tuple[int, str]]:
    """Each GPIO line the config gives a role, as (BCM number, role), the
    display's I2C lines and the header's UART included when used."""
    roles = [(I2C1["SDA"], "display SDA"), (I2C1["SCL"], "display SCL")] \
        if config.display.i2c_bus == 1 else []
    roles += [(pin, role) for role, pin in config.pins().items()]
    if _uart(config):
        roles += [(UART["RXD"], "dice device TX"), (UART["TXD"], "dice device RX")]
    return roles


def _uart(config: Config) -> bool:
    return config.serial.port in UART_PORTS


class _Grounds:
    """Hands out the header's ground pins, the one nearest each part first
    (parts may share one when all are taken)."""

    def __init__(self, pool: tuple[int, ...]) -> None:
        self.pool = pool
        self.taken: list[int] = []

    def near(self, pin: int) -> int:
        free = [p for p in self.pool if p not in self.taken] or list(self.pool)
        best = min(free, key=lambda p: (abs(p - pin), p))
        self.taken.append(best)
        return best


def _notes(config: Config, lang: str = "en") -> list[str]:
    """What is not on the header: a display on another bus, a USB dice
    device, Bluetooth dice."""
    notes = []
    if config.display.i2c_bus != 1:
        notes.append(_say(lang, "Display: on I2C bus {bus}, wired to that bus's SDA and SCL "
                                "(not drawn).", bus=config.display.i2c_bus))
    if not _uart(config):
        port = _say(lang, "found under /dev/serial/by-id/") if config.serial.port == "auto" \
            else _say(lang, "on {port}", port=config.serial.port)
        notes.append(_say(lang, "Serial dice device (optional): a USB cable to the Pi ({port}).",
                          port=port))
    if config.pixels.dice:
        notes.append(_say(lang, "Pixels dice: Bluetooth, no wires."))
    return notes


def diagram(config: Config) -> Diagram:
    """The connections of ``config``, in the order a person wires them."""
    wires: list[Wire] = []
    grounds = _Grounds(GROUNDS)
    power = list(POWER_3V3)

    def part(name: str, signals: list[tuple[str, int]], *, vcc: bool = False,
             vin: bool = False) -> None:
        step = len({w.step for w in wires}) + 1
        first = PHYSICAL[signals[0][1]] if signals else 1
        if vcc:
            wires.append(Wire(step, name, "VCC", power.pop(0) if power else POWER_3V3[-1]))
        if vin:
            wires.append(Wire(step, name, "VIN", HEADER_5V[0]))
        wires.append(Wire(step, name, "GND", grounds.near(first)))
        wires.extend(Wire(step, name, lead, PHYSICAL[gpio]) for lead, gpio in signals)

    if config.display.i2c_bus == 1:
        part(f"Display ({config.display.controller.upper()})",
             [("SDA", I2C1["SDA"]), ("SCL", I2C1["SCL"])], vcc=True)
    keys = ("back", "roll") if config.encoder.enabled else KEY_NAMES
    part("Keys", [(key.upper(), getattr(config.buttons, key)) for key in keys])
    if config.encoder.enabled:
        part("Rotary encoder", [("CLK (A)", config.encoder.a), ("DT (B)", config.encoder.b),
                                ("SW (push)", config.encoder.push)], vcc=True)
    if config.leds.enabled:
        part("Die-face LEDs", [(f"LED {name}", pin)
                               for name, pin in zip(LED_NAMES, config.leds.pins, strict=True)])
    if config.buzzer.enabled:
        part("Buzzer", [("+", config.buzzer.pin)])
    if config.uses_i2s():
        part(f"Amplifier ({config.voice.amplifier.upper()})",
             [(name, gpio) for gpio, name in I2S_PINS.items()], vin=True)
    if _uart(config):
        part("Serial dice device", [("TX", UART["RXD"]), ("RX", UART["TXD"])])
    return Diagram(tuple(wires), tuple(_notes(config)))


def wires(config: Config) -> list[Wire]:
    return list(diagram(config).wires)


# -- drawing: one list of shapes, two renderers -----------------------------------

PART_COLOURS = {
    "Display": "#1f6feb", "Keys": "#1a7f37", "Rotary encoder": "#8250df",
    "Die-face LEDs": "#cf222e", "Buzzer": "#9a6700", "Serial dice device": "#0f7b8a",
    "Amplifier": "#bf3989",
}
POWER_COLOURS = {"3V3": "#e36209", "5V": "#b35900", "GND": "#24292f"}
# What the wiring list says under each part's name.
HINTS = {
    "Display": "VCC to 3V3, never 5V.",
    "Keys": "One leg of each key to its pin, the other legs together to GND.",
    "Rotary encoder": "A KY-040 at 3V3: turning is UP and DOWN, pushing is OK.",
    "Die-face LEDs": "Each LED's + (long leg) through a 330 Ω resistor; every − to GND.",
    "Buzzer": "An active buzzer: + to its pin, − to GND.",
    "Serial dice device": "Its TX to the Pi's RXD and its RX to the Pi's TXD, at 3.3 V.",
    "Amplifier": "An I2S amplifier (MAX98357A): VIN to 5V; its speaker on its + and −.",
}
CAPTION = ("Raspberry Pi 40-pin header, seen from above, pin 1 (square pad) at the top left; "
           "each label: step, part, lead · pin.")
GREY = "#afb8c1"
INK = "#24292f"
FONT_SIZE = 13
FONT_FAMILY = "DejaVu Sans Condensed, DejaVu Sans, Arial Narrow, sans-serif"
ROW = 24
TOP = 84
LEFT_X = 470
RIGHT_X = 500
WIDTH = 970


@dataclass(frozen=True)
class _Shape:
    kind: str  # "rect", "circle", "text", "line"
    x: float
    y: float
    w: float = 0.0  # width, radius or the line's end x
    h: float = 0.0  # height or the line's end y
    fill: str = "none"
    stroke: str = "none"
    text: str = ""
    anchor: str = "start"  # "start", "middle", "end"
    bold: bool = False
    size: int = FONT_SIZE


def _colour(part: str) -> str:
    for name, colour in PART_COLOURS.items():
        if part.startswith(name):
            return colour
    return INK


def _title(config: Config, lang: str = "en") -> str:
    inputs = _say(lang, "a rotary encoder" if config.encoder.enabled else "five keys")
    extras = [_say(lang, name) for name, on in (("LEDs", config.leds.enabled),
                                                ("buzzer", config.buzzer.enabled),
                                                ("speaker", config.uses_i2s())) if on]
    return (_say(lang, "Wiring: {display} display, {inputs}",
                 display=config.display.controller.upper(), inputs=inputs)
            + (", " + _listed(extras, _say(lang, " and ")) if extras else ""))


def _listed(items: list[str], last: str) -> str:
    """"a, b and c" (``last`` joins the last two)."""
    return ", ".join(items[:-1]) + last + items[-1] if len(items) > 1 else "".join(items)


def _part(lang: str, part: str) -> str:
    """A part's name in ``lang`` ("Display (SSD1306)": "Écran (SSD1306)")."""
    for name in PART_COLOURS:
        if part.startswith(name):
            return _say(lang, name) + part[len(name):]
    return part


def _shapes(config: Config, lang: str = "en") -> tuple[list[_Shape], int]:
    d = diagram(config)
    by_pin: dict[int, list[Wire]] = {}
    for wire in d.wires:
        by_pin.setdefault(wire.pin, []).append(wire)
    out = [
        _Shape("text", 20, 32, text=_title(config, lang), bold=True, size=18, fill=INK),
        _Shape("text", 20, 56, fill=INK, text=_say(lang, CAPTION)),
        _Shape("rect", LEFT_X - 16, TOP - 16, RIGHT_X - LEFT_X + 32, 20 * ROW + 8,
               fill="#f6f8fa", stroke=INK),
    ]
    for pin, what in HEADER.items():
        out += _pin_shapes(pin, what, by_pin.get(pin), lang)
    y = TOP + 20 * ROW + 24
    out.append(_Shape("text", 20, y, text=_say(lang, "Wire in this order"), bold=True, size=15,
                      fill=INK))
    y = _step_shapes(d.wires, lang, y, out)
    for note in _notes(config, lang):
        y += 24
        out.append(_Shape("text", 20, y, text=note, fill=INK))
    return out, y + 24


def _pin_shapes(pin: int, what: Any, used: list[Wire] | None, lang: str) -> list[_Shape]:
    """A pin of the header: its dot, its number, and what is wired to it
    (the even pins' on the right, the odd pins' on the left)."""
    row, right = (pin - 1) // 2, pin % 2 == 0
    side, anchor = (1, "start") if right else (-1, "end")
    x, y = (RIGHT_X if right else LEFT_X), TOP + row * ROW
    if not used:
        fill, ink = "#ffffff", GREY
    else:
        fill = _colour(used[0].part) if isinstance(what, int) else POWER_COLOURS[str(what)]
        ink = INK
    out = [_Shape("rect", x - 8, y - 8, 16, 16, fill=fill, stroke=INK) if pin == 1
           else _Shape("circle", x, y, 8, fill=fill, stroke=ink),
           _Shape("text", x + side * 26, y + 4, text=str(pin), size=11, anchor=anchor,
                  fill=ink)]
    if used:
        label = "; ".join(f"{w.step} {_part(lang, w.part)}: {_say(lang, w.lead)}"
                          for w in used)
        label = f"{label} · {used[0].header_name}"
        colour = _colour(used[0].part) if len(used) == 1 else INK
        out.append(_Shape("line", x + side * 46, y, x + side * 58, y, stroke=colour))
        out.append(_Shape("text", x + side * 64, y + 4, text=label, anchor=anchor, fill=colour,
                          bold=len(used) == 1 and used[0].gpio is not None))
    return out


def _step_shapes(wires: tuple[Wire, ...], lang: str, y: int, out: list[_Shape]) -> int:
    """The wires in the order to wire them, below ``y`` (into ``out``);
    where they end."""
    step = 0
    for wire in wires:
        if wire.step != step:
            step = wire.step
            y += 24
            hint = next((h for name, h in HINTS.items() if wire.part.startswith(name)), "")
            out.append(_Shape("text", 20, y, text=f"{step}. {_part(lang, wire.part)}",
                              bold=True, fill=_colour(wire.part)))
            if hint:
                y += 19
                out.append(_Shape("text", 44, y, text=_say(lang, hint), fill=INK))
        y += 19
        out.append(_Shape("text", 44, y, fill=INK,
                          text=_say(lang, "{lead} → pin {pin} ({header})",
                                    lead=_say(lang, wire.lead), pin=wire.pin,
                                    header=wire.header_name)))
    return y


def svg(config: Config, lang: str = "en") -> str:
    """The wiring of ``config`` as an SVG document, its words in ``lang``."""
    shapes, height = _shapes(config, lang)
    lines = [
        (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
         f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT_FAMILY}" role="img">'),
        f"<title>{escape(_title(config, lang))}</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
    ]
    for s in shapes:
        if s.kind == "rect":
            lines.append(f'<rect x="{s.x:g}" y="{s.y:g}" width="{s.w:g}" height="{s.h:g}" '
                         f'fill="{s.fill}" stroke="{s.stroke}"/>')
        elif s.kind == "circle":
            lines.append(f'<circle cx="{s.x:g}" cy="{s.y:g}" r="{s.w:g}" fill="{s.fill}" '
                         f'stroke="{s.stroke}"/>')
        elif s.kind == "line":
            lines.append(f'<line x1="{s.x:g}" y1="{s.y:g}" x2="{s.w:g}" y2="{s.h:g}" '
                         f'stroke="{s.stroke}" stroke-width="2"/>')
        else:
            weight = ' font-weight="bold"' if s.bold else ""
            lines.append(f'<text x="{s.x:g}" y="{s.y:g}" font-size="{s.size}" '
                         f'text-anchor="{s.anchor}" fill="{s.fill}"{weight}>'
                         f"{escape(s.text)}</text>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


FONTS = Path(__file__).resolve().parents[2] / "drivers" / "fonts"


def png(config: Config, scale: int = 2, lang: str = "en") -> bytes:
    """The same drawing as a PNG, ``scale`` pixels a unit (for the docs)."""
    from PIL import Image, ImageDraw, ImageFont

    shapes, height = _shapes(config, lang)
    image = Image.new("RGB", (WIDTH * scale, height * scale), "#ffffff")
    draw = ImageDraw.Draw(image)
    fonts: dict[tuple[int, bool], Any] = {}

    def font(size: int, bold: bool) -> Any:
        if (size, bold) not in fonts:
            name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
            fonts[size, bold] = ImageFont.truetype(str(FONTS / name), size * scale)
        return fonts[size, bold]

    def at(*values: float) -> list[float]:
        return [v * scale for v in values]

    for s in shapes:
        fill = None if s.fill == "none" else s.fill
        outline = None if s.stroke == "none" else s.stroke
        if s.kind == "rect":
            draw.rectangle(at(s.x, s.y, s.x + s.w, s.y + s.h), fill=fill, outline=outline,
                           width=scale)
        elif s.kind == "circle":
            draw.ellipse(at(s.x - s.w, s.y - s.w, s.x + s.w, s.y + s.w), fill=fill,
                         outline=outline, width=scale)
        elif s.kind == "line":
            draw.line(at(s.x, s.y, s.w, s.h), fill=outline, width=2 * scale)
        else:
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[s.anchor]
            draw.text((s.x * scale, s.y * scale), s.text, fill=s.fill, font=font(s.size, s.bold),
                      anchor=anchor)
    out = io.BytesIO()
    # A few dozen colours are enough for flat colours and their text's edges.
    image.quantize(colors=48).save(out, "PNG", optimize=True)
    return out.getvalue()


# -- the drawing's words in French and Italian, by their English ----------------------

_LED_PLACES = {
    "fr": ("en haut à gauche", "en haut à droite", "au milieu à gauche", "au centre",
           "au milieu à droite", "en bas à gauche", "en bas à droite"),
    "it": ("in alto a sinistra", "in alto a destra", "al centro a sinistra", "al centro",
           "al centro a destra", "in basso a sinistra", "in basso a destra"),
}
WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "Display": "Écran", "Keys": "Touches", "Rotary encoder": "Encodeur rotatif",
        "Die-face LEDs": "LED du dé", "Buzzer": "Buzzer",
        "Serial dice device": "Appareil à dés série", "SW (push)": "SW (appui)",
        "Amplifier": "Amplificateur", "speaker": "haut-parleur",
        HINTS["Amplifier"]: "Un amplificateur I2S (MAX98357A) : VIN sur 5V ; son "
                            "haut-parleur sur ses + et −.",
        "Wiring: {display} display, {inputs}": "Câblage : écran {display}, {inputs}",
        "five keys": "cinq touches", "a rotary encoder": "un encodeur rotatif",
        "LEDs": "LED", "buzzer": "buzzer", " and ": " et ",
        CAPTION: "Connecteur 40 broches du Raspberry Pi vu de dessus, broche 1 (pastille "
                 "carrée) en haut à gauche ; chaque étiquette : étape, pièce, fil · broche.",
        "Wire in this order": "Câbler dans cet ordre",
        "{lead} → pin {pin} ({header})": "{lead} → broche {pin} ({header})",
        HINTS["Display"]: "VCC sur 3V3, jamais sur 5 V.",
        HINTS["Keys"]: "Une patte de chaque touche sur sa broche, les autres ensemble sur GND.",
        HINTS["Rotary encoder"]: "Un KY-040 en 3V3 : tourner fait UP et DOWN, appuyer fait OK.",
        HINTS["Die-face LEDs"]: "Le + de chaque LED (patte longue) par une résistance de "
                                "330 Ω ; tous les − sur GND.",
        HINTS["Buzzer"]: "Un buzzer actif : + sur sa broche, − sur GND.",
        HINTS["Serial dice device"]: "Son TX sur le RXD du Pi et son RX sur le TXD du Pi, "
                                     "en 3,3 V.",
        "Display: on I2C bus {bus}, wired to that bus's SDA and SCL (not drawn).":
            "Écran : sur le bus I2C {bus}, câblé aux SDA et SCL de ce bus (non dessinés).",
        "found under /dev/serial/by-id/": "trouvé sous /dev/serial/by-id/",
        "on {port}": "sur {port}",
        "Serial dice device (optional): a USB cable to the Pi ({port}).":
            "Appareil à dés série (facultatif) : un câble USB vers le Pi ({port}).",
        "Pixels dice: Bluetooth, no wires.": "Dés Pixels : Bluetooth, sans fil.",
    },
    "it": {
        "Display": "Schermo", "Keys": "Tasti", "Rotary encoder": "Encoder rotativo",
        "Die-face LEDs": "LED del dado", "Buzzer": "Cicalino",
        "Serial dice device": "Dispositivo dadi seriale", "SW (push)": "SW (pressione)",
        "Amplifier": "Amplificatore", "speaker": "altoparlante",
        HINTS["Amplifier"]: "Un amplificatore I2S (MAX98357A): VIN al 5V; il suo "
                            "altoparlante ai suoi + e −.",
        "Wiring: {display} display, {inputs}": "Cablaggio: schermo {display}, {inputs}",
        "five keys": "cinque tasti", "a rotary encoder": "un encoder rotativo",
        "LEDs": "LED", "buzzer": "cicalino", " and ": " e ",
        CAPTION: "Connettore a 40 pin del Raspberry Pi visto dall'alto, pin 1 (piazzola "
                 "quadrata) in alto a sinistra; ogni etichetta: passo, parte, filo · pin.",
        "Wire in this order": "Collegare in quest'ordine",
        "{lead} → pin {pin} ({header})": "{lead} → pin {pin} ({header})",
        HINTS["Display"]: "VCC al 3V3, mai al 5 V.",
        HINTS["Keys"]: "Un piedino di ogni tasto al suo pin, gli altri insieme a GND.",
        HINTS["Rotary encoder"]: "Un KY-040 a 3V3: girare è UP e DOWN, premere è OK.",
        HINTS["Die-face LEDs"]: "Il + di ogni LED (piedino lungo) tramite una resistenza da "
                                "330 Ω; tutti i − a GND.",
        HINTS["Buzzer"]: "Un cicalino attivo: + al suo pin, − a GND.",
        HINTS["Serial dice device"]: "Il suo TX all'RXD del Pi e il suo RX al TXD del Pi, "
                                     "a 3,3 V.",
        "Display: on I2C bus {bus}, wired to that bus's SDA and SCL (not drawn).":
            "Schermo: sul bus I2C {bus}, collegato a SDA e SCL di quel bus (non disegnati).",
        "found under /dev/serial/by-id/": "trovato in /dev/serial/by-id/",
        "on {port}": "su {port}",
        "Serial dice device (optional): a USB cable to the Pi ({port}).":
            "Dispositivo dadi seriale (facoltativo): un cavo USB al Pi ({port}).",
        "Pixels dice: Bluetooth, no wires.": "Dadi Pixels: Bluetooth, senza fili.",
    },
}
for _lang, _places in _LED_PLACES.items():
    WORDS[_lang].update({f"LED {en}": f"LED {said}"
                         for en, said in zip(LED_NAMES, _places, strict=True)})


def _say(lang: str, english: str, **values: Any) -> str:
    """``english`` in ``lang`` (English where ``lang`` has no words for it)."""
    return WORDS.get(lang, {}).get(english, english).format(**values)
