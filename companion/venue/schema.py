"""What the venue board takes from the broker: one JSON Schema for every
message a table publishes, and the bounds that come before it.

A message is read in this order, and the first step that fails refuses it
with a cause (counted by cause on the board's health page):

1. its topic: ``companion/<venue>/<table>/<kind>`` of a known kind, its
   venue and its table each a level :func:`~companion.venue.names.topic_level`
   makes (``bad-topic``);
2. its size: at most :data:`MAX_PAYLOAD` bytes (``too-large``);
3. its bytes: UTF-8 (``bad-unicode``), JSON (``not-json``), numbers finite
   and whole numbers of at most 16 digits (``not-finite``, ``huge-number``),
   at most :data:`MAX_DEPTH` arrays and objects deep (``too-deep``), strings
   without lone surrogates (``bad-unicode``);
4. :data:`SCHEMA`, compiled by fastjsonschema (``invalid-<kind>``): every
   field the board keeps or shows, its type, its range, its length; nothing
   else;
5. the table it names is its topic's (``other-table``).

Only then does the board store it, in one transaction.  Availability is
``online`` or ``offline`` as plain text (``bad-availability``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable, Mapping, cast

from companion.core.errors import BadMessage
from companion.core.venue import OFFLINE, ONLINE, ROOT, VenueMessage

from .names import MAX_NAME, topic_level

# The largest message the board reads: a state of six players is about 1 kB.
MAX_PAYLOAD = 64 * 1024
# How deep arrays and objects nest in a message, at most (an event's data is
# the deepest: message → events → event → data → list).
MAX_DEPTH = 6
# The largest whole number a message holds (JavaScript's safe integers, and
# within SQLite's): anything longer is refused before it is even made.
MAX_INT = 2**53 - 1
_MAX_DIGITS = 16
KINDS = ("state", "event", "result", "alert", "availability")


class MessageRefused(BadMessage):
    """A message the board does not keep: ``cause`` is its counted cause."""

    def __init__(self, cause: str, why: str) -> None:
        super().__init__(f"{cause}: {why}")
        self.cause = cause


def _text(most: int, least: int = 0) -> dict[str, Any]:
    return {"type": "string", "minLength": least, "maxLength": most}


_NAME = _text(60, 1)
_GAME = {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,39}$"}
_GAME_ID = {"type": "integer", "minimum": 1, "maximum": MAX_INT}
_VERSION = {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}
_FIGURE = {"type": ["integer", "null"], "minimum": -10**9, "maximum": 10**9}
_TIME = {"type": "number", "minimum": 0, "maximum": 10**11}
_SCALAR = {"type": ["string", "number", "boolean", "null"], "maxLength": 500}
_NAMES = {"type": "array", "items": _NAME, "maxItems": 12}

# One document for every kind of message (JSON Schema draft 7): each kind's
# definition, chosen by the topic.
DRAFT = "http://json-schema.org/draft-07/schema#"
SCHEMA: dict[str, Any] = {
    "$schema": DRAFT,
    "definitions": {
        "state": {
            "type": "object", "additionalProperties": False,
            "required": ["table", "game", "title", "game_id", "version", "players", "over"],
            "properties": {
                "table": _NAME, "game": _GAME, "title": _text(80, 1), "game_id": _GAME_ID,
                "version": _VERSION, "figure": {"type": ["string", "null"], "maxLength": 40},
                "players": {"type": "array", "maxItems": 12, "items": {
                    "type": "object", "additionalProperties": False, "required": ["name"],
                    "properties": {"name": _NAME, "figure": _FIGURE, "in": {"type": "boolean"}}}},
                "turn": {"type": ["string", "null"], "maxLength": 60},
                "leader": {"type": ["string", "null"], "maxLength": 60},
                "over": {"type": "boolean"}, "winners": _NAMES,
            },
        },
        "event": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "table", "game", "game_id", "version", "action", "said"],
            "properties": {
                "id": {"type": "string", "pattern": "^[0-9]{1,16}:[0-9]{1,10}$"},
                "table": _NAME, "game": _GAME, "game_id": _GAME_ID, "version": _VERSION,
                "action": _text(20, 1), "said": _text(1000), "at": _TIME,
                "alerts": {"type": "array", "maxItems": 20, "items": _text(40, 1)},
                "events": {"type": "array", "maxItems": 50, "items": {
                    "type": "object", "additionalProperties": False, "required": ["kind"],
                    "properties": {
                        "kind": _text(40, 1), "message": _text(500), "alert": {"type": "boolean"},
                        "data": {"type": "object", "maxProperties": 20,
                                 "propertyNames": {"maxLength": 40},
                                 "additionalProperties": {"anyOf": [
                                     _SCALAR, {"type": "array", "maxItems": 20,
                                               "items": _SCALAR}]}}}}},
            },
        },
        "result": {
            "type": "object", "additionalProperties": False,
            "required": ["table", "game", "game_id", "players", "winners"],
            "properties": {
                "id": _GAME_ID, "table": _NAME, "game": _GAME, "title": _text(80),
                "game_id": _GAME_ID, "players": {**_NAMES, "minItems": 1}, "winners": _NAMES,
                "scores": {"type": "array", "maxItems": 12, "items": _FIGURE},
                "message": _text(500), "started": _TIME,
                "ended": {"type": ["number", "null"], "minimum": 0, "maximum": 10**11},
            },
        },
        "alert": {
            "type": "object", "additionalProperties": False, "required": ["event_type"],
            "properties": {"event_type": _text(40, 1), "said": _text(500),
                           "player": {"type": ["string", "null"], "maxLength": 60},
                           "id": _text(40)},
        },
    },
}


@cache
def _validator(kind: str) -> Callable[[Any], Any]:
    """The validator of one kind: fastjsonschema's code for its definition,
    compiled when its first message comes (a few milliseconds; a message
    then takes some 20 µs, where an interpreting validator takes over a
    millisecond on a small machine).  The table never loads it."""
    import fastjsonschema

    return cast(Callable[[Any], Any],
                fastjsonschema.compile({"$schema": DRAFT, **SCHEMA["definitions"][kind]}))


def _problem(kind: str, body: Any) -> str | None:
    """Why ``body`` is not a ``kind`` of :data:`SCHEMA`, or None."""
    from fastjsonschema import JsonSchemaValueException

    try:
        _validator(kind)(body)
    except JsonSchemaValueException as exc:
        return str(exc.message)[:160]
    return None


@dataclass(frozen=True)
class Topic:
    venue: str
    table: str
    kind: str
    game_id: int | None = None


def read_topic(topic: str) -> Topic:
    """A table's topic, or :class:`MessageRefused` (``bad-topic``)."""
    levels = topic.split("/")
    if len(levels) < 4 or levels[0] != ROOT or not levels[1] or not levels[2]:
        raise MessageRefused("bad-topic", f"not a table's topic: {topic[:80]!r}")
    venue, table, kind = levels[1], levels[2], "/".join(levels[3:])
    for what, level in (("venue", venue), ("table", table)):
        if not _is_level(level):
            raise MessageRefused("bad-topic", f"a {what} level as a name makes it, "
                                              f"not {level[:40]!r}")
    if kind.startswith("result/"):
        game_id = kind.partition("/")[2]
        if not (game_id.isascii() and game_id.isdigit() and len(game_id) <= _MAX_DIGITS
                and 0 < int(game_id) <= MAX_INT):
            raise MessageRefused("bad-topic", f"a result's topic ends with its game's id, "
                                       f"not {game_id[:20]!r}")
        return Topic(venue, table, "result", int(game_id))
    if kind not in KINDS:
        raise MessageRefused("bad-topic", f"no such message: {kind[:40]!r}")
    return Topic(venue, table, kind)


def read(topic: str, payload: bytes) -> VenueMessage:
    """The message of ``topic`` as the board keeps it, or :class:`MessageRefused`."""
    where = read_topic(topic)
    if len(payload) > MAX_PAYLOAD:
        raise MessageRefused("too-large", f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise MessageRefused("bad-unicode", "not UTF-8") from None
    if where.kind == "availability":
        if text not in (ONLINE, OFFLINE):
            raise MessageRefused("bad-availability", f"online or offline, not {text[:20]!r}")
        return VenueMessage(where.venue, where.table, "availability", text)
    body = parse(text)
    if not isinstance(body, dict):
        raise MessageRefused(f"invalid-{where.kind}", "not a JSON object")
    problem = _problem(where.kind, body)
    if problem is not None:
        raise MessageRefused(f"invalid-{where.kind}", problem)
    if where.kind != "alert":
        named = topic_level(body["table"]) if _has_level(body["table"]) else None
        if named != where.table:
            raise MessageRefused("other-table", f"the message names table {body['table']!r}, "
                                         f"its topic {where.table!r}")
    if where.kind == "result":
        if body["game_id"] != where.game_id:
            raise MessageRefused("invalid-result", "its game id is not its topic's")
        if not set(body["winners"]) <= set(body["players"]):
            raise MessageRefused("invalid-result", "its winners are among its players")
    return VenueMessage(where.venue, where.table, where.kind, body)


def _is_level(level: str) -> bool:
    """``level`` is one that :func:`topic_level` makes: its own topic level,
    and no longer than :data:`~companion.venue.names.MAX_NAME`."""
    return len(level) <= MAX_NAME and _has_level(level) and topic_level(level) == level


def _has_level(name: str) -> bool:
    try:
        topic_level(name)
    except ValueError:
        return False
    return True


def parse(text: str) -> Any:
    """JSON of finite numbers, short whole numbers, valid strings, and at
    most :data:`MAX_DEPTH` deep; or :class:`MessageRefused`."""
    if _depth(text) > MAX_DEPTH:
        raise MessageRefused("too-deep", f"arrays and objects nested more than {MAX_DEPTH} deep")
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_int=_whole,
                           parse_float=_finite)
    except MessageRefused:
        raise
    except (ValueError, RecursionError) as exc:
        raise MessageRefused("not-json", str(exc)[:80]) from None
    _check_strings(value)
    return value


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """How deep arrays and objects nest (outside strings), without parsing."""
    deepest = depth = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise MessageRefused("not-finite", f"{name} is not a number JSON allows")


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        raise MessageRefused("huge-number", f"a whole number of {len(digits)} digits")
    return int(digits)


def _finite(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise MessageRefused("not-finite", f"{digits[:20]} is out of range")
    return value


def _check_strings(value: Any) -> None:
    """Every string (keys too) is text UTF-8 can carry: no lone surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _valid_text(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                _valid_text(key)
                stack.append(inner)


def _valid_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MessageRefused("bad-unicode", "a string holds a lone surrogate") from None
