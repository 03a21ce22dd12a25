"""The screens every game shares: alerts, menus, entering a value, dice,
joining from a phone, the result, idle and off."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator, NamedTuple, Sequence

from PIL import Image, ImageDraw

from .canvas import (
    HEIGHT,
    OFF,
    ON,
    WIDTH,
    Canvas,
    fit,
    fit_lines,
    glyph_edges,
    pen_length,
    text_width,
    wrap,
)
from .words import word

MENU_ROWS = 4
MENU_ROW_HEIGHT = 12
MENU_TITLE_SIZE = 10
# The QR code takes the left square of the screen, modules of 2 pixels at
# least when the address fits a version 3 code (29 modules).
QR_SIDE = HEIGHT
QR_MIN_MODULE = 2
PIN_SIZE = 22
# The panel's addresses a companion shows: its own, on one or two networks.
QR_CODES = 4
# QR error correction levels, weakest first (7, 15, 25 and 30 % of the code
# can be lost and still read).
QR_LEVELS = "lmqh"
# Alert text: (size, lines, bold), tried in order.
ALERT_TYPE = ((13, 3, True), (11, 3, False), (10, 4, False))
ALERT_TITLE_SIZE = 12


def alert_screen(message: str, title: str = "") -> Image.Image:
    """An event worth a look (a threshold fired, a Respite, an elimination):
    a framed box with a title bar and the message wrapped to fit."""
    c = Canvas()
    top = c.title_bar(title or "!", ALERT_TITLE_SIZE)
    c.draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=ON)
    # The biggest type that holds the whole message; the smallest cuts it.
    for size, rows, bold in ALERT_TYPE:
        if _too_long(message, WIDTH - 6, rows, size, bold):
            continue  # no need to wrap it to know (wrapping costs 40 µs a word)
        if len(wrap(message, WIDTH - 6, size, bold)) <= rows:
            break
    lines = fit_lines(message, WIDTH - 6, rows, size, bold)
    c.centred_lines(lines, size, top + 1, HEIGHT - 2, bold=bold)
    return c.image


# The glyphs an alert is mostly written with.
ALERT_GLYPHS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                "'.,:;!?+-()/%éèàùçêâôîÉÀ")


def warm_alert_glyphs() -> Iterator[None]:
    """Measure the alerts' glyphs ahead, one glyph a step (a step is a tenth
    of a millisecond here, a millisecond on a Pi Zero): an alert's first
    appearance otherwise rasterises each glyph it meets to measure it, a
    few milliseconds on a development machine, tens on a Pi Zero, while
    the player waits for the frame.  Drawn frames are unchanged."""
    sizes = {(size, bold) for size, _rows, bold in ALERT_TYPE} | {(ALERT_TITLE_SIZE, True)}
    for size, bold in sorted(sizes):
        for glyph in ALERT_GLYPHS:
            glyph_edges(glyph, size, bold)
            yield


def _too_long(message: str, width: int, rows: int, size: int, bold: bool) -> bool:
    """True when ``message`` cannot wrap into ``rows`` lines of ``width``
    at this size, from its length alone: every wrapped line is at most
    ``width`` wide (its length half a pixel more, before rounding), and
    the breaks drop one space each (a space and a pixel, with the kerning
    on either side)."""
    room = rows * (width + 0.5) + (rows - 1) * (pen_length(" ", size, bold) + 1)
    return pen_length(message, size, bold) > room + 1


def event_screen(event: Any) -> Image.Image:
    """An engine :class:`~companion.core.engine.Event` as an alert: its kind as
    the title ("threshold-fired" -> "Threshold fired"), its message below."""
    return alert_screen(event.message, event.kind.replace("-", " ").capitalize())


def menu_screen(title: str, items: Sequence[str], selected: int,
                lang: str = "en") -> Image.Image:
    """A titled list with the selected line highlighted, scrolled so that it
    shows, with a bar on the right when the list is longer than the screen."""
    c = Canvas()
    top = c.title_bar(title, MENU_TITLE_SIZE) + 1
    if not items:
        c.centred_lines([word("nothing-here", lang)], 12, top, HEIGHT)
        return c.image
    selected = max(0, min(selected, len(items) - 1))
    first = max(0, min(selected - 1, len(items) - MENU_ROWS))
    shown = items[first:first + MENU_ROWS]
    long_list = len(items) > MENU_ROWS
    right = WIDTH - (5 if long_list else 1)
    for row, item in enumerate(shown):
        y = top + 1 + row * MENU_ROW_HEIGHT
        index = first + row
        if index == selected:
            c.draw.rectangle((0, y, right, y + MENU_ROW_HEIGHT - 1), fill=ON)
        c.text((3, y + MENU_ROW_HEIGHT - 3), item, 11, bold=index == selected,
               fill=OFF if index == selected else ON, width=right - 5)
    c.scroll_bar(top + 1, HEIGHT - 1, first, len(shown), len(items))
    return c.image


def value_screen(label: str, value: int, low: int | None = None, high: int | None = None,
                 signed: bool = False, lang: str = "en") -> Image.Image:
    """Entering a number with the buttons: what it is for, the value big,
    and the allowed range."""
    c = Canvas()
    c.text((WIDTH // 2, 11), label, 12, anchor="ms", width=WIDTH - 2)
    text = f"{value:+d}" if signed and value else str(value)
    size = 36
    while size > 16 and text_width(text, size, True) > WIDTH - 4:
        size -= 4
    c.text((WIDTH // 2, 47), text, size, bold=True, anchor="ms", steady=True)
    if low is not None and high is not None:
        low_text = f"{low:+d}" if signed and low else str(low)
        high_text = f"{high:+d}" if signed and high else str(high)
        c.text((1, 62), low_text, 10)
        c.text((WIDTH - 1, 62), high_text, 10, anchor="rs")
        room = WIDTH - 6 - text_width(low_text, 10) - text_width(high_text, 10)
        c.text((WIDTH // 2, 62), word("ok-to-confirm", lang), 10, anchor="ms", width=room)
    return c.image


def dice_screen(values: Sequence[int], label: str = "") -> Image.Image:
    """A roll: each die as a face with pips (a number past 6) and the total
    of several dice."""
    c = Canvas()
    if label:
        c.text((WIDTH // 2, 11), label, 12, anchor="ms", width=WIDTH - 2)
    top = 14 if label else 2
    values = list(values)
    gap = 6
    total = f"= {sum(values)}" if len(values) > 1 else ""
    total_width = text_width(total, 20, True) + gap if total else 0
    room = WIDTH - total_width - gap * (len(values) - 1)
    side = min(HEIGHT - top - 2, 44, room // max(1, len(values)))
    if side < 20:
        # Too many dice for faces: the numbers and the total.
        numbers = " ".join(str(v) for v in values)
        c.text((WIDTH // 2, top + 24), fit(numbers, WIDTH - 2, 20, True), 20, bold=True,
               anchor="ms")
        c.text((WIDTH // 2, HEIGHT - 3), f"total {sum(values)}", 14, bold=True, anchor="ms")
        return c.image
    row_width = len(values) * side + gap * (len(values) - 1) + total_width
    x = (WIDTH - row_width) // 2
    y = top + (HEIGHT - top - side) // 2
    for value in values:
        c.die_face(x, y, side, value)
        x += side + gap
    if total:
        c.text((x, y + side // 2), total, 20, bold=True, anchor="lm")
    return c.image


def join_screen(url: str, pin: str | None = None, lang: str = "en") -> Image.Image:
    """Joining from a phone: a QR code of the panel's address filling the
    left square (dark modules unlit on a lit square, as printed codes are,
    2 pixels a module), the PIN big on the right, and the address."""
    c = Canvas()
    c.image.paste(qr_backdrop(url), (0, 0))
    right = QR_SIDE + (WIDTH - QR_SIDE) // 2
    room = WIDTH - QR_SIDE - 2
    if pin:
        c.text((right, 11), word("pin", lang), 11, anchor="ms", width=room)
        size = PIN_SIZE if text_width(pin, PIN_SIZE, True) <= room else 16
        c.text((right, 35), pin, size, bold=True, anchor="ms", width=room)
    else:
        c.text((right, 26), word("scan-to", lang), 12, anchor="ms", width=room)
        c.text((right, 40), word("join", lang), 12, anchor="ms", width=room)
    # The address too, for a phone that cannot scan: on two lines if need be.
    host = url.split("://", 1)[-1].split("/", 1)[0]
    if text_width(host, 9) <= room or ":" not in host:
        c.text((right, 61), host, 9, anchor="ms", width=room)
    else:
        name, _, port = host.rpartition(":")
        size = 9 if text_width(name, 9) <= room else 8
        c.text((right, 52), name, size, anchor="ms", width=room)
        c.text((right, 62), ":" + port, size, anchor="ms", width=room)
    return c.image


def wifi_qr_text(ssid: str, passphrase: str) -> str:
    """What a phone camera joins a WPA2 network by: ``WIFI:T:WPA;S:<name>;P:<password>;;``,
    with ``\\``, ``;``, ``,``, ``:`` and ``"`` escaped by a backslash (the
    format's special characters)."""

    def escaped(value: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in value)

    return f"WIFI:T:WPA;S:{escaped(ssid)};P:{escaped(passphrase)};;"


def wifi_screen(ssid: str, passphrase: str, lang: str = "en") -> Image.Image:
    """Joining the companion's own Wi-Fi: its QR code on the left (a phone
    camera joins by it), the name and the password in words on the right,
    to type by hand, in ``lang``; then any key shows the panel's QR code."""
    c = Canvas()
    c.image.paste(qr_backdrop(wifi_qr_text(ssid, passphrase), error="l"), (0, 0))
    right = QR_SIDE + (WIDTH - QR_SIDE) // 2
    room = WIDTH - QR_SIDE - 2
    c.text((right, 9), word("wifi", lang), 9, bold=True, anchor="ms", width=room)
    name_size = next((n for n in (9, 8) if text_width(ssid, n) <= room), 0)
    if name_size:
        c.text((right, 20), ssid, name_size, anchor="ms", width=room)
    else:
        # On two lines: between words, else after a dash (Companion-1234).
        cut = ssid.rfind("-", 1, len(ssid) - 1) + 1 or len(ssid) // 2
        lines = fit_lines(ssid, room, 2, 8) if " " in ssid.strip() else [ssid[:cut], ssid[cut:]]
        for row, line in enumerate(lines):
            c.text((right, 19 + 9 * row), line, 8, anchor="ms", width=room)
    c.text((right, 40), word("password", lang), 9, bold=True, anchor="ms", width=room)
    size = next((n for n in (10, 9) if text_width(passphrase, n, True) <= room), 8)
    c.text((right, 53), passphrase, size, bold=True, anchor="ms", width=room, steady=True)
    c.text((right, 63), word("ok-panel", lang), 8, anchor="ms", width=room)
    return c.image


def result_screen(message: str, lines: Sequence[str] = (), lang: str = "en") -> Image.Image:
    """The end of a game: who won (the engine's sentence) and a line of scores."""
    c = Canvas()
    top = c.title_bar(word("game-over", lang), 10)
    y = top + 11
    for row in fit_lines(message, WIDTH - 4, 3, 11, bold=True):
        c.text((WIDTH // 2, y), row, 11, bold=True, anchor="ms")
        y += 12
    for line in lines[: max(0, (HEIGHT + 9 - y) // 11)]:
        c.text((WIDTH // 2, y), line, 10, anchor="ms", width=WIDTH - 2)
        y += 11
    return c.image


def idle_screen(panel_url: str | None = None, pin: str | None = None,
                lang: str = "en") -> Image.Image:
    """Home: no game at the table yet.  The PIN a phone types to join, big,
    and the keys: OK starts a game, UP shows the QR code."""
    c = Canvas()
    c.text((WIDTH // 2, 11), word("home-title", lang), 12, bold=True, anchor="ms",
           width=WIDTH - 2)
    if pin:
        label = word("pin", lang)
        gap = 5
        width = text_width(label, 12) + gap + text_width(pin, PIN_SIZE, True)
        left = (WIDTH - width) // 2
        c.text((left, 38), label, 12)
        c.text((left + text_width(label, 12) + gap, 38), pin, PIN_SIZE, bold=True)
        c.text((WIDTH // 2, 51), panel_url.split("://", 1)[-1].split("/", 1)[0]
               if panel_url else "", 10, anchor="ms", width=WIDTH - 2)
        c.text((WIDTH // 2, 62), word("home-keys", lang), 10, anchor="ms", width=WIDTH - 2)
        return c.image
    c.text((WIDTH // 2, 38), word("home-keys-no-panel", lang), 12, anchor="ms", width=WIDTH - 2)
    if panel_url:
        c.text((WIDTH // 2, 60), panel_url.split("://", 1)[-1].rstrip("/"), 10, anchor="ms",
               width=WIDTH - 2)
    return c.image


def off_screen(message: str | None = None, lang: str = "en") -> Image.Image:
    """The last screen, left lit when the companion stops."""
    c = Canvas()
    c.draw.rounded_rectangle((2, 2, WIDTH - 3, HEIGHT - 3), radius=6, outline=ON)
    message = word("off", lang) if message is None else message
    c.centred_lines(fit_lines(message, WIDTH - 12, 3, 13, bold=True), 13, 4, HEIGHT - 4,
                    bold=True)
    return c.image


class QrCode(NamedTuple):
    """A QR code: its version (its size: 17 + 4 x version modules a side),
    its error correction level (``"l"``, ``"m"``, ``"q"`` or ``"h"``) and
    its modules, row by row, True where dark, with no quiet zone."""

    version: int
    error: str
    modules: tuple[tuple[bool, ...], ...]


def qr_segments(url: str) -> list[tuple[str, int]]:
    """``url`` as QR segments: the scheme and host, which are not case
    sensitive, in upper case as alphanumeric (5.5 bits a character), the
    rest as bytes.  A panel address with its join token then fits a
    version 3 code (29 modules), which 2-pixel modules fit on 64 rows."""
    from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, RE_ALPHA_NUM

    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    head = f"{scheme}{sep}{host}{slash}".upper()
    if not sep or not RE_ALPHA_NUM.match(head.encode()):
        return [(url, MODE_8BIT_BYTE)]
    return [(head, MODE_ALPHA_NUM)] + ([(path, MODE_8BIT_BYTE)] if path else [])


def qr_code(text: str, error: str = "l") -> QrCode:
    """The smallest QR code of ``text`` at error correction ``error`` (L by
    default), its correction then raised as far as the same size allows: a
    screen of 64 rows must show it in modules of 2 pixels.  An address is
    encoded in :func:`qr_segments`; other text (a Wi-Fi network's) in the
    most compact mode it allows, as UTF-8 bytes where it needs bytes."""
    from qrcode.exceptions import DataOverflowError

    smallest = _qr_code(text, error, None)
    for stronger in reversed(QR_LEVELS[QR_LEVELS.index(error) + 1:]):
        try:
            return _qr_code(text, stronger, smallest.version)
        except DataOverflowError:
            continue
    return smallest


def _qr_code(text: str, error: str, version: int | None) -> QrCode:
    """``text`` at ``error``, in the smallest code or in ``version``
    (qrcode's DataOverflowError when it does not fit)."""
    from qrcode import constants
    from qrcode.main import QRCode
    from qrcode.util import QRData

    level = {"l": constants.ERROR_CORRECT_L, "m": constants.ERROR_CORRECT_M,
             "q": constants.ERROR_CORRECT_Q, "h": constants.ERROR_CORRECT_H}[error]
    code = QRCode(version=version, error_correction=level, border=0)
    segments = qr_segments(text)
    if len(segments) == 1 and segments[0][0] == text:
        code.add_data(QRData(text))
    else:
        for content, mode in segments:
            code.add_data(QRData(content, mode=mode))
    code.make(fit=version is None)
    return QrCode(code.version, error, tuple(tuple(bool(m) for m in row)
                                             for row in code.get_matrix()))


@lru_cache(maxsize=QR_CODES)
def qr_backdrop(url: str, error: str = "l") -> Image.Image:
    """A blank screen but for ``url`` as a QR code on its left square, dark
    modules unlit on a lit square.  Encoding and drawing it module by module
    takes milliseconds, and the address seldom changes."""
    backdrop = Image.new("1", (WIDTH, HEIGHT), OFF)
    draw = ImageDraw.Draw(backdrop)
    qr = qr_code(url, error)
    modules = len(qr.modules)
    # The widest quiet zone that still lets each module be a whole number of pixels.
    scale = max(1, (QR_SIDE - 4) // modules)
    border = (QR_SIDE - modules * scale) // 2
    draw.rectangle((0, 0, QR_SIDE - 1, QR_SIDE - 1), fill=ON)
    for row, line in enumerate(qr.modules):
        for col, dark in enumerate(line):
            if dark:
                left, top = border + col * scale, border + row * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=OFF)
    return backdrop
