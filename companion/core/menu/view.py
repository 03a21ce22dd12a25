"""What the table menu gives the OLED: a :class:`MenuView`, and the words
its screens share."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ViewKind(StrEnum):
    """Which screen a :class:`MenuView` is (see its fields for each)."""

    GAME = "game"
    LIST = "list"
    VALUE = "value"
    CONFIRM = "confirm"
    MESSAGE = "message"
    QR = "qr"
    DICE = "dice"
    WIFI = "wifi"
    KEYS = "keys"


VIEW_KINDS = tuple(ViewKind)

KEYS_ENTER = "OK: enter  BACK: back"
KEYS_CONFIRM = "OK: yes  BACK: no"


@dataclass(frozen=True)
class MenuView:
    """What the OLED shows now.

    ``kind`` is a :class:`ViewKind`: ``game`` (the game's own screen;
    ``footer`` is the first thing the game waits for), ``list`` (``items``
    with ``index`` highlighted), ``value`` (a number being entered: ``value``
    within ``low``..``high``, with a sign when ``signed``), ``dice`` (a roll
    entered die by die: ``items`` the faces so far, ``?`` for dice to come,
    ``index`` the die being entered, ``unit`` the dice's name, ``high`` their
    sides), ``confirm`` and ``message`` (``text`` is the question or the
    message), ``qr`` (``url`` and ``pin`` to join from a phone), ``wifi``
    (the companion's own Wi-Fi to join: ``title`` its name, ``pin`` its
    password), ``keys`` (answers beside the keys: ``items`` the label beside
    UP, DOWN, OK and ROLL in that order, ``""`` beside a key that offers
    nothing).  Elsewhere
    ``text`` is a line of help; ``footer`` says what the keys do.
    """

    kind: ViewKind
    title: str = ""
    items: tuple[str, ...] = ()
    index: int = 0
    value: int | None = None
    low: int | None = None
    high: int | None = None
    signed: bool = False
    unit: str = ""
    text: str = ""
    footer: str = ""
    url: str = ""
    pin: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", ViewKind(self.kind))


def humanize(name: str) -> str:
    """``set-pressure`` -> ``Set pressure``: a command or parameter named on
    screen when no hint names it."""
    text = name.replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]
