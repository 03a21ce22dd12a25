"""The box a table plays with: each kind of Persona card, as its owner
describes it once (name, colour, pipì, popò, copies), so that a reveal is
the choice of a kind still unseen.

The rulebook does not print the cards' values; the printed cards do, so a
box is the table's own description, given as the setup's ``box`` option:
``[{"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0,
"copies": 3}, ...]``.  A kind is unseen while fewer of its copies are face
up on the table or discarded since the last reshuffle than the box holds.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...errors import BadSetup
from ...text import Word, Words
from .cards import COLOURS, LOST_YOUNG_MAN, card_key
from .model import Kind
from .sentences import GAME

MAX_KINDS = 60
MAX_COPIES = 50
MAX_PRINTED = 9
MAX_NAME = 40


def check_box(raw: Any) -> list[Kind]:
    """A box description made plain and checked, or :class:`BadSetup`
    saying what is wrong."""
    if not isinstance(raw, (list, tuple)) or not raw or len(raw) > MAX_KINDS:
        raise BadSetup("refusal.box-shape", game=GAME, most=MAX_KINDS)
    kinds: list[Kind] = []
    names: set[str] = set()
    for n, item in enumerate(raw, 1):
        if not isinstance(item, dict):
            raise BadSetup("refusal.box-kind-shape", game=GAME, n=n)
        name = item.get("name")
        if not isinstance(name, str) or not 1 <= len(" ".join(name.split())) <= MAX_NAME:
            raise BadSetup("refusal.box-kind-name", game=GAME, n=n, most=MAX_NAME)
        name = " ".join(name.split())
        if card_key(name) in names:
            raise BadSetup("refusal.box-twice", game=GAME, name=name)
        names.add(card_key(name))
        colour = item.get("colour")
        if colour not in COLOURS:
            raise BadSetup("refusal.box-colour", game=GAME, name=name, raw=repr(colour),
                           colours=Words(Word(f"colour.{c}", default=c) for c in COLOURS))
        values = _numbers(item, name)
        extra = set(item) - {"name", "colour", "pipi", "popo", "copies"}
        if extra:
            raise BadSetup("refusal.box-extra", game=GAME, name=name,
                           extra=", ".join(sorted(map(str, extra))))
        kinds.append(Kind(name=name, colour=colour, pipi=values["pipi"], popo=values["popo"],
                          copies=values["copies"]))
    return kinds


def _numbers(item: dict[str, Any], name: str) -> dict[str, int]:
    """A kind's printed values and copies, each checked within its range."""
    values = {}
    for field, low, high in (("pipi", 0, MAX_PRINTED), ("popo", 0, MAX_PRINTED),
                             ("copies", 1, MAX_COPIES)):
        value = item.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise BadSetup("refusal.box-number", game=GAME, name=name,
                           field=Word(f"refusal.field.{field}"), low=low, high=high,
                           raw=repr(value))
        values[field] = value
    return values


def without_lost_young_man(kinds: Sequence[Kind]) -> list[Kind]:
    """The box for beginners without yellow effects."""
    return [k for k in kinds if card_key(k["name"]) != LOST_YOUNG_MAN]


def box_cards(kinds: Sequence[Kind]) -> int:
    return sum(int(k["copies"]) for k in kinds)


def find_kind(kinds: Sequence[Kind], wanted: str) -> int | None:
    """The index of a kind by its name (English or Italian, any case) or
    its number from 1."""
    text = wanted.strip()
    if text.isdigit() and 1 <= int(text) <= len(kinds):
        return int(text) - 1
    for index, kind in enumerate(kinds):
        if card_key(kind["name"]) == card_key(text):
            return index
    return None
