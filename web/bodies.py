"""What the API takes: one description that both checks request bodies and
writes their part of the OpenAPI document (``web/openapi.py``).

A request body is a dataclass whose fields carry a :class:`Shape` in their
metadata; a command's arguments are shaped from the games' own
:class:`~companion.core.engine.CommandSpec` parameters.  :func:`read` turns a
JSON body into the dataclass or refuses it with a 400 that says what is
wrong; :func:`schema_of` gives the JSON Schema that refuses exactly the same
bodies.  A body the schema accepts may still be refused by the table or the
game (409, 422), never as malformed.

Text from a phone goes to the journal, the OLED and every other phone: no
string anywhere may hold control characters (tab and line breaks are
spaces to the engines) or lone surrogates, which cannot even be stored,
and a name may not hold text-direction controls, which would turn the rest
of a line around wherever the name is shown.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence, TypeVar

from companion.core.caller import MOMENTS
from companion.core.engine import MAX_NAME, MAX_TEXT, Command, Param
from companion.core.games import GAMES, aliases, available
from companion.core.keys import DICE_SOURCES
from companion.core.text import LANGUAGES

from .colours import HEX
from .errors import ApiError

MAX_PLAYERS = 12
MAX_VARIANTS = 16
MAX_OPTIONS = 16
MAX_WORD = 64
MAX_PIN = 12
MAX_DICE = 16
# Whole numbers in a request: far beyond any count or score at a table.
MAX_INT = 10**9
# Bodies nest a few levels at most; this refuses deeper ones before anything
# else looks at them (and keeps the JSON parser's recursion small).
MAX_DEPTH = 16

_UNSAFE = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f"
_DIRECTION = "\\u202a-\\u202e\\u2066-\\u2069"
UNSAFE_TEXT = re.compile(f"[{_UNSAFE}\\ud800-\\udfff]")
DIRECTION_CONTROLS = re.compile(f"[{_DIRECTION}]")
# The patterns of the document (the server checks the same ones).
SAFE = f"^[^{_UNSAFE}]*$"
# Spaces, named one by one: regular expression engines (Python's, ECMA's,
# the validators') do not agree on what \s is.
_SPACES = ("\\t\\n\\u000b\\u000c\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029"
           "\\u202f\\u205f\\u3000\\ufeff")
SAFE_WORDS = f"^[^{_UNSAFE}]*[^{_UNSAFE}{_SPACES}][^{_UNSAFE}]*$"
SAFE_NAME = (f"^[^{_UNSAFE}{_DIRECTION}]*[^{_UNSAFE}{_DIRECTION}{_SPACES}]"
             f"[^{_UNSAFE}{_DIRECTION}]*$")


class Refused(ApiError):
    """A body that does not fit its description: 400."""

    def __init__(self, message: str) -> None:
        super().__init__(400, "bad-request", message)


class UnknownCommandName(ApiError):
    """A command no game has (422, like the game's own refusal)."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        super().__init__(422, "unknown-command",
                         f"there is no command '{name}'; the commands are: {', '.join(known)}")
        self.name = name


# -- shapes -----------------------------------------------------------------------


class Shape(ABC):
    """One kind of JSON value: checks it and describes it."""

    #: what a right value is, for messages ("text of 1 to 64 characters")
    phrase: str = "a value"

    @abstractmethod
    def schema(self) -> dict:
        """The JSON Schema of the values this shape takes."""

    @abstractmethod
    def check(self, value: Any, where: str) -> Any:
        """The value as the API uses it, or :class:`Refused`."""

    def refuse(self, value: Any, where: str) -> Refused:
        return Refused(f"{where} must be {self.phrase}, not {_shown(value)}")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


class Text(Shape):
    """A string of ``low`` to ``high`` characters: not only spaces unless
    ``blank``; a person's name (no direction controls) if ``name``; one of
    ``choices`` if given."""

    def __init__(self, low: int = 1, high: int = MAX_WORD, *, blank: bool = False,
                 name: bool = False,
                 choices: Sequence[str] | Callable[[], Sequence[str]] = (),
                 phrase: str = "", unknown: str | Callable[[str], str] = "") -> None:
        self.low, self.high, self.blank, self.name = low, high, blank, name
        # The refusal of a word not among the choices.
        self.unknown = unknown
        # Choices may be looked up when needed (the games installed now).
        self._choices = choices
        self.pattern = SAFE_NAME if name else SAFE if blank else SAFE_WORDS
        self._regex = re.compile(self.pattern)
        if phrase:
            self.phrase = phrase
        elif callable(choices):
            self.phrase = "one of the names the API lists"
        elif choices:
            self.phrase = f"one of {', '.join(choices)}"
        else:
            self.phrase = f"text of {low} to {high} characters"

    @property
    def choices(self) -> tuple[str, ...]:
        found = self._choices() if callable(self._choices) else self._choices
        return tuple(found)

    def schema(self) -> dict:
        if self.choices:
            return {"type": "string", "enum": list(self.choices)}
        return {"type": "string", "minLength": self.low, "maxLength": self.high,
                "pattern": self.pattern}

    def check(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.refuse(value, where)
        if self.choices:
            if value not in self.choices:
                if self.unknown:
                    raise Refused(self.unknown(value) if callable(self.unknown)
                                  else self.unknown.format(value=value))
                raise self.refuse(value, where)
            return value
        _check_safe(value)
        if not self.low <= len(value) <= self.high:
            raise self.refuse(value, where)
        if self.name and DIRECTION_CONTROLS.search(value):
            raise Refused(f"{where} may not hold text-direction controls "
                          "(U+202A to U+202E, U+2066 to U+2069)")
        if not self._regex.search(value):
            raise Refused(f"{where} must be {self.phrase}, and not only spaces")
        return value


class Integer(Shape):
    """A whole number within ``low``..``high`` (``null`` too if ``nullable``)."""

    def __init__(self, low: int = -MAX_INT, high: int = MAX_INT, *, nullable: bool = False,
                 phrase: str = "") -> None:
        self.low, self.high, self.nullable = low, high, nullable
        self.phrase = phrase or (f"a whole number from {low} to {high}"
                                 + (" or null" if nullable else ""))

    def schema(self) -> dict:
        return {"type": ["integer", "null"] if self.nullable else "integer",
                "minimum": self.low, "maximum": self.high}

    def check(self, value: Any, where: str) -> int | None:
        if value is None and self.nullable:
            return None
        if isinstance(value, float) and value.is_integer():
            # JSON has one kind of number: 3.0 is the whole number 3.
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.refuse(value, where)
        if not self.low <= value <= self.high:
            raise self.refuse(value, where)
        return value


class Boolean(Shape):
    phrase = "true or false"

    def schema(self) -> dict:
        return {"type": "boolean"}

    def check(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.refuse(value, where)
        return value


class Null(Shape):
    phrase = "null"

    def schema(self) -> dict:
        return {"type": "null"}

    def check(self, value: Any, where: str) -> None:
        if value is not None:
            raise self.refuse(value, where)
        return None


class ListOf(Shape):
    def __init__(self, item: Shape, low: int = 0, high: int = 16, *, phrase: str = "") -> None:
        self.item, self.low, self.high = item, low, high
        self.phrase = phrase or f"a list of {low} to {high} items, each {item.phrase}"

    def schema(self) -> dict:
        return {"type": "array", "items": self.item.schema(), "minItems": self.low,
                "maxItems": self.high}

    def check(self, value: Any, where: str) -> list:
        if not isinstance(value, list) or not self.low <= len(value) <= self.high:
            raise self.refuse(value, where)
        return [self.item.check(v, f"{where}[{i}]") for i, v in enumerate(value)]


class MapOf(Shape):
    """An object of up to ``high`` members named by short text."""

    def __init__(self, value: Shape, high: int = 16, *, phrase: str = "") -> None:
        self.value, self.high = value, high
        self.key = Text(1, MAX_WORD)
        self.phrase = phrase or f"a JSON object of at most {high} members"

    def schema(self) -> dict:
        return {"type": "object", "maxProperties": self.high,
                "propertyNames": self.key.schema(), "additionalProperties": self.value.schema()}

    def check(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict) or len(value) > self.high:
            raise self.refuse(value, where)
        return {self.key.check(k, f"a name in {where}"): self.value.check(v, f"{where}.{k}")
                for k, v in value.items()}


class AnyOf(Shape):
    """The first of ``shapes`` that takes the value."""

    def __init__(self, *shapes: Shape, phrase: str = "") -> None:
        self.shapes = shapes
        self.phrase = phrase or " or ".join(s.phrase for s in shapes)

    def schema(self) -> dict:
        return {"anyOf": [s.schema() for s in self.shapes]}

    def check(self, value: Any, where: str) -> Any:
        for shape in self.shapes:
            try:
                return shape.check(value, where)
            except Refused:
                continue
        raise self.refuse(value, where)


class Players(Shape):
    """The players in seating order: names, or ``{name, colour}``."""

    phrase = f"a list of 1 to {MAX_PLAYERS} players in seating order"

    def __init__(self) -> None:
        self.name = Text(1, MAX_NAME, name=True)

    def schema(self) -> dict:
        name = self.name.schema()
        return {
            "type": "array", "minItems": 1, "maxItems": MAX_PLAYERS,
            "description": "in seating order, clockwise from the first player",
            "items": {"anyOf": [
                name,
                {"type": "object", "required": ["name"], "additionalProperties": False,
                 "properties": {"name": name,
                                "colour": {"type": "string", "pattern": HEX.pattern}}},
            ]},
        }

    def check(self, value: Any, where: str) -> tuple[list[str], list[str | None]]:
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAYERS:
            raise Refused(f"{where} must be {self.phrase}")
        names, colours = [], []
        for seat, player in enumerate(value):
            colour = None
            if isinstance(player, dict):
                extra = set(player) - {"name", "colour"}
                if extra:
                    raise Refused(f"player {seat + 1} is a name and a colour, with nothing "
                                  f"else ({', '.join(sorted(map(str, extra)))})")
                if "colour" in player:
                    colour = player["colour"]
                    if not isinstance(colour, str) or not HEX.fullmatch(colour):
                        raise Refused(f"player {seat + 1}'s colour must look like #1d6fd6, "
                                      f"not {_shown(colour)}")
                player = player.get("name")
            if not isinstance(player, str):
                raise Refused(f"player {seat + 1} needs a name")
            if not 1 <= len(player) <= MAX_NAME or not player.strip():
                raise Refused(f"player {seat + 1}'s name must be 1 to {MAX_NAME} characters")
            names.append(" ".join(self.name.check(player, f"player {seat + 1}'s name").split()))
            colours.append(colour)
        return names, colours


def _param_shape(param: Param) -> Shape:
    if param.kind == "int":
        return Integer(phrase=f"a whole number{_range(param)}")
    if param.kind == "player":
        return AnyOf(Integer(0, MAX_PLAYERS - 1), Text(1, MAX_NAME, name=True),
                     phrase="a seat number (0 for the first player) or a player's name")
    if param.kind == "choice":
        return Text(choices=param.choices)
    if param.kind == "dice":
        return ListOf(Integer(), 1, MAX_DICE,
                      phrase=f"a list of 1 to {MAX_DICE} die values")
    if param.kind == "text":
        return Text(1, MAX_TEXT)
    if param.kind == "bool":
        return Boolean()
    raise AssertionError(f"unknown parameter kind {param.kind}")


def _range(param: Param) -> str:
    if param.low is not None and param.high is not None:
        return f" (usually {param.low} to {param.high}; the game says)"
    return ""


class Arguments(Shape):
    """One command's arguments, from its parameters.  An optional one may be
    ``null`` (not given); a value outside the game's range is the game's to
    refuse (422)."""

    def __init__(self, command: str, params: Sequence[Param]) -> None:
        self.command = command
        self.params = {p.name: (p, _param_shape(p)) for p in params}
        self.required = [p.name for p in params if not p.optional]
        self.phrase = (f"an object of {', '.join(self.params)}" if self.params
                       else "an empty object")

    def schema(self) -> dict:
        properties = {}
        for name, (param, shape) in self.params.items():
            schema = shape.schema()
            if param.help:
                schema = {**schema, "description": param.help}
            properties[name] = ({"anyOf": [schema, {"type": "null"}]} if param.optional
                                else schema)
        out: dict[str, Any] = {"type": "object", "properties": properties,
                               "additionalProperties": False}
        if self.required:
            out["required"] = list(self.required)
        return out

    def check(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise Refused(f"the command's 'args' must be an object, not {_shown(value)}")
        unknown = set(value) - set(self.params)
        if unknown:
            raise Refused(f"'{self.command}' takes no argument named "
                          f"{', '.join(sorted(map(str, unknown)))}; it takes: "
                          f"{', '.join(self.params) or 'nothing'}")
        out: dict[str, Any] = {}
        for name, (param, shape) in self.params.items():
            if name not in value:
                if not param.optional:
                    raise Refused(f"'{self.command}' needs '{name}'"
                                  + (f" ({param.help})" if param.help else ""))
                continue
            raw = value[name]
            if raw is None and param.optional:
                out[name] = None
                continue
            out[name] = shape.check(raw, f"'{name}' of '{self.command}'")
        return out


class CommandShape(Shape):
    """``{name, args}``: a command of one of the games, its arguments shaped
    by that game's parameters (a name two games share takes either's)."""

    phrase = "an object {name, args}"

    def __init__(self, games: Callable[[], Sequence[Any]]) -> None:
        self.name = Text(1, MAX_WORD, phrase=f"text of 1 to {MAX_WORD} characters")
        self._games = games
        self._shaped: tuple[tuple[Any, ...], dict[str, list[Arguments]]] = ((), {})

    @property
    def commands(self) -> dict[str, list[Arguments]]:
        """Each command name of the games installed now, with the shapes of
        its arguments (one per distinct parameter list)."""
        games = tuple(self._games())
        if games != self._shaped[0]:
            variants: dict[str, list[Arguments]] = {}
            seen: dict[str, list[tuple[Param, ...]]] = {}
            for game in games:
                for spec in game.commands:
                    for name in (spec.name, *spec.aliases):
                        if spec.params not in seen.setdefault(name, []):
                            seen[name].append(spec.params)
                            variants.setdefault(name, []).append(Arguments(name, spec.params))
            self._shaped = (games, variants)
        return self._shaped[1]

    def schema(self) -> dict:
        alternatives = []
        for name, forms in sorted(self.commands.items()):
            args = forms[0].schema() if len(forms) == 1 else {
                "anyOf": [f.schema() for f in forms]}
            needs_args = all(f.required for f in forms)
            alternatives.append({
                "type": "object",
                "properties": {"name": {"const": name}, "args": args},
                "required": ["name", "args"] if needs_args else ["name"],
                "additionalProperties": False,
            })
        return {"description": "a command of the current game (GET /api/games lists each "
                               "game's); another game's is refused (422)",
                "anyOf": alternatives}

    def check(self, value: Any, where: str) -> Command:
        if not isinstance(value, dict):
            raise Refused(f"{where} must be {self.phrase}, not {_shown(value)}")
        extra = set(value) - {"name", "args"}
        if extra:
            raise Refused(f"{where} holds only 'name' and 'args', not "
                          f"{', '.join(sorted(map(str, extra)))}")
        name = self.name.check(value.get("name"), "the command's 'name'")
        commands = self.commands
        forms = commands.get(name)
        if forms is None:
            raise UnknownCommandName(name, sorted(commands))
        args = value.get("args", {})
        if not isinstance(args, dict):
            raise Refused(f"the command's 'args' must be an object, not {_shown(args)}")
        first: Refused | None = None
        for form in forms:
            try:
                checked = form.check(args, where)
            except Refused as exc:
                first = first or exc
                continue
            # Only what the phone sent: an absent optional stays absent.
            return Command(name, {k: v for k, v in checked.items() if k in args})
        assert first is not None
        raise first


# Items in a list option: a box describes at most 60 kinds of Persona.
MAX_OPTION_ITEMS = 64


class OptionValue(Shape):
    """A setup option: a number, yes/no, a word, a short object of those
    (``removed_cards``), or a list of those or of such objects (a box of
    Persona kinds, each ``{name, colour, pipi, popo, copies}``)."""

    phrase = ("a number, true or false, text, an object of those, or a list of those "
              "or of such objects")

    def __init__(self) -> None:
        scalar = AnyOf(Integer(), Boolean(), Text(0, MAX_WORD, blank=True), Null())
        record = MapOf(scalar, MAX_OPTIONS)
        self.alternatives = AnyOf(scalar, ListOf(AnyOf(scalar, record), 0, MAX_OPTION_ITEMS),
                                  record, phrase=self.phrase)

    def schema(self) -> dict:
        return self.alternatives.schema()

    def check(self, value: Any, where: str) -> Any:
        return self.alternatives.check(value, where)


def _check_safe(text: str) -> None:
    unsafe = UNSAFE_TEXT.search(text)
    if unsafe:
        raise Refused(f"text may not hold control characters or lone surrogates, "
                      f"and U+{ord(unsafe.group()):04X} is one")


# -- request bodies -----------------------------------------------------------------


def member(shape: Shape, description: str) -> dict[str, Any]:
    """A field of a request body, as the metadata of its dataclass field: its
    shape and what it is for."""
    return {"shape": shape, "description": description}


GAME_ID = ("the game the phone shows (game_id of the state); a request made against "
           "another game is refused (409), even at the same version")
NO_GAME_ID = ("the game the phone shows (game_id of the state), or null when it shows "
              "none; a request made against another game is refused (409)")
VERSION = "the version of the state the phone shows"


def _game_keys() -> tuple[str, ...]:
    # The games' keys and aliases, known without importing any engine.
    return tuple(sorted({*GAMES, *aliases()}))


def _no_such_game(value: str) -> str:
    return f"no game '{value}'; the games are: {', '.join(g.key for g in available())}"



_VERSION = member(Integer(0, MAX_INT, phrase="a whole number of 0 or more"), VERSION)
_GAME_ID = member(Integer(1, MAX_INT, phrase="a game's id (a whole number of 1 or more)"),
                  GAME_ID)


@dataclass(frozen=True)
class VersionRequest:
    """Undo, redo or a roll: against the game and version the phone shows."""

    game_id: int = field(metadata=_GAME_ID)
    version: int = field(metadata=_VERSION)


@dataclass(frozen=True)
class CommandRequest:
    """One command of the current game, against the game and version the
    phone shows."""

    command: Command = field(metadata=member(CommandShape(available),
                                             "the command and its arguments"))
    game_id: int = field(metadata=_GAME_ID)
    version: int = field(metadata=_VERSION)


@dataclass(frozen=True)
class NewGameRequest:
    """A new game (the current one is kept as abandoned)."""

    game: str = field(metadata=member(
        Text(choices=_game_keys, phrase="a game's key from GET /api/games",
             unknown=_no_such_game),
        "a key from GET /api/games (or a common alias)"))
    players: tuple[list[str], list[str | None]] = field(metadata=member(
        Players(), "in seating order, clockwise from the first player"))
    game_id: int | None = field(metadata=member(
        Integer(1, MAX_INT, nullable=True,
                phrase="a game's id (a whole number of 1 or more) or null"), NO_GAME_ID))
    version: int = field(metadata=member(
        Integer(0, MAX_INT, phrase="a whole number of 0 or more"),
        "the version shown (0 when no game is shown); with game_id, a new game "
        "replaces only the state the phone saw, so two phones tapping Play again "
        "start one game"))
    variants: list[str] = field(default_factory=list, metadata=member(
        ListOf(Text(1, MAX_WORD), 0, MAX_VARIANTS,
               phrase=f"a list of at most {MAX_VARIANTS} names"),
        "variant names from the game's description"))
    options: dict[str, Any] = field(default_factory=dict, metadata=member(
        MapOf(OptionValue(), MAX_OPTIONS, phrase="a JSON object"),
        "setup options by name (the game's description lists them)"))


@dataclass(frozen=True)
class JoinRequest:
    """The PIN shown on the table's screen."""

    pin: str = field(metadata=member(
        Text(1, MAX_PIN, blank=True, phrase=f"the digits shown on the table's screen "
                                            f"(text of 1 to {MAX_PIN} characters)"),
        "the PIN on the table's screen"))


@dataclass(frozen=True)
class DiceSourceRequest:
    """Where dice results come from."""

    source: str = field(metadata=member(
        Text(choices=DICE_SOURCES, unknown="no dice source '{value}'; the sources are: "
                                           + ", ".join(DICE_SOURCES)),
        "one of the companion's dice sources"))


# A saved option may be a list of small objects besides what a setup takes:
# a Bathroom Rush box, each kind of Persona with its name, colour, pipì, popò
# and copies.
MAX_SAVED_ITEMS = 60


@dataclass(frozen=True)
class SavedOptionRequest:
    """A setup option kept for every new game of a kind (a described box)."""

    game: str = field(metadata=member(
        Text(choices=_game_keys, phrase="a game's key from GET /api/games",
             unknown=_no_such_game),
        "a key from GET /api/games (or a common alias)"))
    name: str = field(metadata=member(
        Text(1, MAX_WORD), "an option from the game's description"))
    value: Any = field(metadata=member(
        AnyOf(OptionValue(),
              ListOf(MapOf(AnyOf(Integer(), Text(0, MAX_WORD, blank=True)), MAX_OPTIONS),
                     0, MAX_SAVED_ITEMS),
              phrase="a setup option's value, a list of small objects, or null"),
        "the value every new game of that kind starts with; null forgets it"))


@dataclass(frozen=True)
class SeatRequest:
    """Whose phone this is ("I am Ana"), against the game and version the
    phone shows: a player of that game, or null for no one's."""

    player: str | None = field(metadata=member(
        AnyOf(Text(1, MAX_NAME, name=True), Null(),
              phrase=f"a player's name (1 to {MAX_NAME} characters) or null"),
        "the player this phone belongs to; null: no one's.  A seat another phone "
        "holds passes to this one, and that phone is told"))
    game_id: int = field(metadata=_GAME_ID)
    version: int = field(metadata=_VERSION)


class _Unset:
    """A setting the request leaves as it is."""

    def __repr__(self) -> str:
        return "unset"


UNSET: Any = _Unset()


@dataclass(frozen=True)
class SettingsRequest:
    """The table's settings to change (at least one); those left out stay."""

    # The body names at least this many fields.
    min_fields: ClassVar[int] = 1

    seat_only: bool = field(default=UNSET, metadata=member(
        Boolean(), "turns only from the player's own phone: a seat's turn is refused "
                   "from any other phone (the table's buttons and CLI still act for "
                   "anyone; corrections, undo and redo stay open to every controller)"))
    language: str | None = field(default=UNSET, metadata=member(
        AnyOf(Text(choices=LANGUAGES, unknown="the panel does not speak '{value}'; its "
                                              "languages are: " + ", ".join(LANGUAGES)),
              Null(), phrase="one of " + ", ".join(LANGUAGES) + " or null"),
        "the table's language: the table's screen and every phone without a language "
        "of its own follow it; null: back to the companion's configured language"))
    caller: bool | None = field(default=UNSET, metadata=member(
        AnyOf(Boolean(), Null()),
        "the caller on the table's speaker: on or off (null: back to on)"))
    caller_moments: list[str] | None = field(default=UNSET, metadata=member(
        AnyOf(ListOf(Text(choices=MOMENTS), 0, len(MOMENTS)), Null()),
        "the moments the caller says, on the table's speaker and the phones that speak: "
        + ", ".join(MOMENTS) + " (null: back to the configured ones)"))


REQUESTS: tuple[type, ...] = (VersionRequest, CommandRequest, NewGameRequest, JoinRequest,
                              DiceSourceRequest, SavedOptionRequest, SeatRequest,
                              SettingsRequest)

T = TypeVar("T")


def read(kind: Callable[..., T], raw: bytes) -> T:
    """The request ``kind`` from a JSON body, or :class:`Refused`."""
    try:
        data = json.loads(raw or b"null", parse_constant=_no_constant)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise Refused("the body must be a JSON object")
    _check_tree(data, 0)
    fields = dataclasses.fields(kind)  # type: ignore[arg-type]
    known = {f.name for f in fields}
    unknown = [str(k) for k in data if k not in known]
    if unknown:
        raise Refused(f"this request takes no field {', '.join(map(repr, sorted(unknown)))}; "
                      f"it takes: {', '.join(sorted(known))}")
    least = getattr(kind, "min_fields", 0)
    if len(data) < least:
        raise Refused(f"give at least {least} of: {', '.join(sorted(known))}")
    values = {}
    for f in fields:
        if f.name not in data:
            if _required(f):
                raise Refused(f"'{f.name}' is required: {f.metadata['description']}")
            continue
        values[f.name] = f.metadata["shape"].check(data[f.name], f"'{f.name}'")
    return kind(**values)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _too_deep() -> Refused:
    return Refused(f"the body nests deeper than the {MAX_DEPTH} levels allowed")


def _check_tree(value: Any, depth: int) -> None:
    """No string anywhere unsafe, nothing nested too deep, no number that is
    not finite."""
    if depth > MAX_DEPTH:
        raise _too_deep()
    if isinstance(value, str):
        _check_safe(value)
    elif isinstance(value, float) and not math.isfinite(value):
        raise Refused("numbers must be finite")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_tree(key, depth + 1)
            _check_tree(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_tree(item, depth + 1)


def schema_of(kind: type) -> dict:
    """The JSON Schema of the request ``kind``: what :func:`read` takes."""
    properties = {}
    for f in dataclasses.fields(kind):
        properties[f.name] = {**f.metadata["shape"].schema(),
                              "description": f.metadata["description"]}
    out = {
        "type": "object",
        "description": (kind.__doc__ or "").strip(),
        "required": [f.name for f in dataclasses.fields(kind) if _required(f)],
        "properties": properties,
        "additionalProperties": False,
    }
    if getattr(kind, "min_fields", 0):
        out["minProperties"] = kind.min_fields  # type: ignore[attr-defined]
    return out


def schemas() -> Mapping[str, dict]:
    """Every request body's schema, by its name."""
    return {kind.__name__: schema_of(kind) for kind in REQUESTS}


__all__ = ["REQUESTS", "UNSET", "CommandRequest", "DiceSourceRequest", "JoinRequest",
           "NewGameRequest", "Refused", "SeatRequest", "SettingsRequest", "UnknownCommandName",
           "VersionRequest", "read", "schema_of", "schemas"]
