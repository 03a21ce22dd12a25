"""The panel's smart dice: the Pixels dice paired (role, battery, in reach
or not), a look for the dice in reach, pairing one with a role, giving a
paired die another role or none, forgetting one.

All of it is for controllers, changes with the session's CSRF token (the
app-wide guard in :mod:`web.api`): a spectator sees the dice on the
companion's status, never pairs one.  Only a die heard on the last look can
be paired, so a phone cannot make the table connect to any address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, jsonify

from companion.core.ports import SMART_DIE_ROLES, SmartDice

from .api import controllers_only, takes
from .bodies import AnyOf, Null, Refused, Shape, Text, member
from .errors import ApiError
from .openapi import error_answer, json_answer, operation
from .panel import panel

bp = Blueprint("pixels", __name__, url_prefix="/api/pixels")

# BlueZ names a device by its MAC address.
ADDRESS = "^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$"


class Address(Shape):
    """A die's Bluetooth address, as BlueZ gives it (``F0:12:34:56:78:9A``)."""

    phrase = "a Bluetooth address: six pairs of hex digits joined by colons"
    _regex = re.compile(ADDRESS)

    def schema(self) -> dict:
        return {"type": "string", "pattern": ADDRESS, "examples": ["F0:12:34:56:78:9A"]}

    def check(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not self._regex.fullmatch(value):
            raise self.refuse(value, where)
        return value.upper()


_ROLE = AnyOf(Text(choices=SMART_DIE_ROLES), Null(),
              phrase=f"one of {', '.join(SMART_DIE_ROLES)}, or null for none")


@dataclass(frozen=True)
class DiePair:
    """A die heard on the last look, to pair, with its role or none."""

    address: str = field(metadata=member(Address(), "the die's address, from in_reach"))
    role: str | None = field(default=None, metadata=member(
        _ROLE, "the game's die it is; left out (or null) for none yet"))


@dataclass(frozen=True)
class DieRole:
    """A paired die's role, or none."""

    address: str = field(metadata=member(Address(), "a paired die's address"))
    role: str | None = field(default=None, metadata=member(_ROLE, "null for none"))


@dataclass(frozen=True)
class DieForget:
    """A paired die to forget."""

    address: str = field(metadata=member(Address(), "a paired die's address"))


REQUESTS: tuple[type, ...] = (DiePair, DieRole, DieForget)

_DIE = {
    "type": "object",
    "required": ["address", "name", "role", "connected", "battery"],
    "properties": {
        "address": {"type": "string"},
        "name": {"type": "string"},
        "role": {"enum": [*SMART_DIE_ROLES, None]},
        "connected": {"type": "boolean"},
        "battery": {"type": ["integer", "null"], "minimum": 0, "maximum": 100},
    },
}
_DICE = json_answer("the dice paired and the dice in reach", {
    "type": "object", "required": ["dice", "in_reach", "looking", "roles"],
    "properties": {
        "dice": {"type": "array", "items": _DIE, "description": "the dice paired"},
        "in_reach": {"type": "array", "items": _DIE,
                     "description": "the dice heard on the last look, not paired"},
        "looking": {"type": "boolean", "description": "a look for dice is on"},
        "roles": {"type": "array", "items": {"type": "string"}},
    }})
_NO_PIXELS = {"404": error_answer("no smart dice here (error 'no-pixels'), or no such die "
                            "(error 'not-in-reach' or 'not-paired')")}
_SPECTATOR = {"403": error_answer("no valid X-CSRF-Token, or a spectator's session")}


def _pixels() -> SmartDice:
    pixels = panel().services.pixels
    if pixels is None:
        raise ApiError(404, "no-pixels", "this companion has no smart dice")
    return pixels


def _die(die: Any) -> dict[str, Any]:
    return {"address": str(die.address), "name": str(die.name), "role": die.role,
            "connected": bool(die.connected), "battery": die.battery}


def _answer(pixels: SmartDice) -> dict[str, Any]:
    return {"dice": [_die(d) for d in pixels.dice()],
            "in_reach": [_die(d) for d in pixels.in_reach()],
            "looking": bool(pixels.looking), "roles": list(pixels.roles)}


def _paired(pixels: SmartDice, address: str) -> None:
    if all(die.address != address for die in pixels.dice()):
        raise ApiError(404, "not-paired", f"no die {address} is paired")


@bp.get("")
@operation("the smart dice paired and those in reach (controllers)",
           {"200": _DICE, **_SPECTATOR, **_NO_PIXELS})
@controllers_only
def dice():
    return jsonify(_answer(_pixels()))


@bp.post("/look")
@operation("look for dice in reach for a few seconds; they come in in_reach as they answer",
           {"202": _DICE, **_SPECTATOR, **_NO_PIXELS}, changes=True)
@controllers_only
def look():
    pixels = _pixels()
    pixels.look()
    return jsonify(_answer(pixels)), 202


@bp.post("/pair")
@operation("pair a die heard on the last look, with its role or none",
           {"200": _DICE, **_SPECTATOR, **_NO_PIXELS,
            "400": error_answer("no address, or a role that is not a die of the games")},
           changes=True)
@controllers_only
@takes(DiePair)
def pair(body: DiePair):
    pixels = _pixels()
    heard = {die.address: die.name for die in pixels.in_reach()}
    if body.address not in heard and all(d.address != body.address for d in pixels.dice()):
        raise ApiError(404, "not-in-reach", f"no die {body.address} was heard on the last "
                                            "look: look again")
    pixels.pair(body.address, heard.get(body.address, ""), body.role)
    return jsonify(_answer(pixels))


@bp.post("/role")
@operation("make a paired die the red, blue or d6 of the game, or none",
           {"200": _DICE, **_SPECTATOR, **_NO_PIXELS,
            "400": error_answer("no address, or a role that is not a die of the games")},
           changes=True)
@controllers_only
@takes(DieRole)
def role(body: DieRole):
    pixels = _pixels()
    _paired(pixels, body.address)
    try:
        pixels.assign(body.address, body.role)
    except KeyError:
        raise ApiError(404, "not-paired", f"no die {body.address} is paired") from None
    return jsonify(_answer(pixels))


@bp.post("/forget")
@operation("forget a paired die: it is disconnected and not paired again",
           {"200": _DICE, **_SPECTATOR, **_NO_PIXELS, "400": error_answer("no address")},
           changes=True)
@controllers_only
@takes(DieForget)
def forget(body: DieForget):
    pixels = _pixels()
    _paired(pixels, body.address)
    try:
        pixels.forget(body.address)
    except KeyError:
        raise ApiError(404, "not-paired", f"no die {body.address} is paired") from None
    return jsonify(_answer(pixels))


__all__ = ["REQUESTS", "DieForget", "DiePair", "DieRole", "Refused", "bp"]
