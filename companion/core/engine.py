"""The one interface every game engine speaks.

A game is a pure rules engine: it starts from a :class:`Setup`, takes
:class:`Command` objects, refuses illegal ones with an
:class:`~companion.core.errors.IllegalCommand` that names the rule (and changes
nothing), and returns the :class:`Event` list of what happened.  It says what
it is waiting for next as :class:`Expectation` objects, so that buttons, the
panel and the dice sources offer exactly that.  There is no clock, no
randomness and no I/O in an engine: a die result is command data, so
replaying the same commands always gives the same state.

Each game declares its commands as :class:`CommandSpec` objects.  The specs
are the single description that the CLI parses words with, the panel builds
its forms and API description from, and the table UI builds its menus from.
"""

from __future__ import annotations

import copy
import functools
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar, Literal, Mapping, Sequence

from .errors import (
    BadArgument,
    BadSetup,
    GameIsOver,
    NotExpected,
    UnknownCommand,
    WrongPlayer,
)
from .text import Word, Words, command_word, param_word, term

MAX_NAME = 24
MAX_TEXT = 200

# -- value objects ---------------------------------------------------------


@dataclass(frozen=True)
class Dice:
    """The dice a roll needs: ``count`` dice of ``sides`` faces.

    ``name`` is what players call them ("d6", "2d6", "red", "blue").
    """

    sides: int
    count: int = 1
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(
                self, "name", f"{self.count if self.count > 1 else ''}d{self.sides}"
            )

    @property
    def word(self) -> Word:
        """The dice's name as a word of the players' language."""
        return Word(f"dice.{self.name}", default=self.name)

    def check(self, values: Sequence[int]) -> tuple[int, ...]:
        """Validate one roll of these dice; return the values as a tuple."""
        if isinstance(values, (int, str)):
            values = [values]
        try:
            values = tuple(_as_int(v) for v in values)
        except (TypeError, ValueError):
            raise BadArgument("refusal.roll-not-numbers", dice=self.word, count=self.count,
                              sides=self.sides, raw=repr(values)) from None
        if len(values) != self.count:
            raise BadArgument("refusal.roll-count", dice=self.word, count=self.count,
                              given=len(values))
        for v in values:
            if not 1 <= v <= self.sides:
                raise BadArgument("refusal.die-face", rule="die-range", value=v,
                                  sides=self.sides, dice=self.word)
        return values

    def to_json(self) -> dict[str, Any]:
        return {"sides": self.sides, "count": self.count, "name": self.name}


def _count_numbers(words: Sequence[str]) -> int:
    """How many of ``words``, from the first, are whole numbers."""
    count = 0
    for word in words:
        try:
            _as_int(word)
        except ValueError:
            break
        count += 1
    return count


def _take_positional(params: Sequence[Param], words: list[str], args: dict[str, Any]
                     ) -> list[str]:
    """Give the words written without a name to ``params`` in order (into
    ``args``); what is left over."""
    for i, param in enumerate(params):
        if not words:
            break
        last = i == len(params) - 1
        if param.kind == ParamKind.TEXT and last:
            args[param.name] = " ".join(words)
            words = []
        elif param.kind == ParamKind.DICE:
            # A roll is several words ("roll 3 5"): the run of numbers, or
            # every word left when no parameter follows it.
            take = len(words) if last else max(1, _count_numbers(words))
            args[param.name] = words[:take]
            words = words[take:]
        else:
            args[param.name] = words.pop(0)
    return words


def _as_int(raw: Any) -> int:
    if isinstance(raw, bool):
        raise TypeError("bool is not a number")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("+"):
            text = text[1:]
        if text.lstrip("-").isdigit():
            return int(text)
    raise ValueError(f"{raw!r} is not a whole number")


class ParamKind(StrEnum):
    """What a :class:`Param` takes.  The values are the words the specs,
    the API description and the panel use."""

    INT = "int"  # a whole number within ``low``..``high``
    PLAYER = "player"  # a seat number (0-based) or a player's name
    CHOICE = "choice"  # one of ``choices``
    DICE = "dice"  # the values of one roll (checked against what is expected)
    TEXT = "text"  # free text of at most ``MAX_TEXT`` characters
    BOOL = "bool"  # yes or no


# A kind as a spec may write it: the enum, or its word.
KindWord = Literal["int", "player", "choice", "dice", "text", "bool"]


@dataclass(frozen=True, init=False)
class Param:
    """One argument of a command, of a :class:`ParamKind` (given as the
    enum or its word: ``Param("card", "int", -5, 30)``)."""

    name: str
    kind: ParamKind
    low: int | None
    high: int | None
    choices: tuple[str, ...]
    optional: bool
    default: Any
    help: str
    # Given only by name (``name=value``), never asked of a player: what a
    # phone saw when it moved (see a game's expectations' ``args``).
    named: bool

    def __init__(self, name: str, kind: ParamKind | KindWord = ParamKind.INT,
                 low: int | None = None, high: int | None = None,
                 choices: tuple[str, ...] = (), optional: bool = False, default: Any = None,
                 help: str = "", named: bool = False) -> None:
        # A word that is no kind fails here, when the game is defined, not
        # when a player first uses the command.
        for field_name, value in (("name", name), ("kind", ParamKind(kind)), ("low", low),
                                  ("high", high), ("choices", choices),
                                  ("optional", optional), ("default", default),
                                  ("help", help), ("named", named)):
            object.__setattr__(self, field_name, value)

    def coerce(self, raw: Any, game: Game, command: str = "") -> Any:
        label = param_word(game.key, command, self.name)
        match self.kind:
            case ParamKind.PLAYER:
                return game.seat_of(raw)
            case ParamKind.INT:
                return self._int(raw, game, label)
            case ParamKind.CHOICE:
                return self._choice(raw, game.key, label)
            case ParamKind.TEXT:
                return self._text(raw, game.key, label)
            case ParamKind.BOOL:
                return self._bool(raw, game.key, label)
            case ParamKind.DICE:
                return self._dice(raw, game.key, label)
        raise AssertionError(f"unknown parameter kind {self.kind}")

    def _int(self, raw: Any, game: Game, label: Word) -> int:
        try:
            value = _as_int(raw)
        except (TypeError, ValueError):
            raise BadArgument("refusal.not-a-number", game=game.key, param=label,
                              raw=repr(raw)) from None
        low, high = game.param_range(self)
        if (low is not None and value < low) or (high is not None and value > high):
            raise BadArgument("refusal.out-of-range", rule="out-of-range", game=game.key,
                              param=label, value=value, low=low, high=high)
        return value

    def _choice(self, raw: Any, key: str, label: Word) -> str:
        text = str(raw).strip().lower()
        if text not in self.choices:
            raise BadArgument("refusal.not-a-choice", game=key, param=label, raw=repr(raw),
                              choices=Words(term(c, f"choice.{c}") for c in self.choices))
        return text

    def _text(self, raw: Any, key: str, label: Word) -> str:
        if not isinstance(raw, str):
            raise BadArgument("refusal.not-text", game=key, param=label)
        text = " ".join(raw.split())
        if not text or len(text) > MAX_TEXT:
            raise BadArgument("refusal.text-length", game=key, param=label, most=MAX_TEXT)
        return text

    def _bool(self, raw: Any, key: str, label: Word) -> bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("yes", "y", "true", "1", "on"):
            return True
        if text in ("no", "n", "false", "0", "off"):
            return False
        raise BadArgument("refusal.not-yes-no", game=key, param=label, raw=repr(raw))

    def _dice(self, raw: Any, key: str, label: Word) -> list[int]:
        if isinstance(raw, str):
            raw = raw.replace(",", " ").split()
        if isinstance(raw, (int, str)):
            raw = [raw]
        try:
            return [_as_int(v) for v in raw]
        except (TypeError, ValueError):
            raise BadArgument("refusal.not-dice", game=key, param=label,
                              raw=repr(raw)) from None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "optional": self.optional}
        if self.low is not None:
            out["low"] = self.low
        if self.high is not None:
            out["high"] = self.high
        if self.choices:
            out["choices"] = list(self.choices)
        if self.help:
            out["help"] = self.help
        if self.named:
            out["named"] = True
        return out


@dataclass(frozen=True)
class CommandSpec:
    """What a command is called, what it takes, and how it is offered.

    ``correction`` marks the commands that fix the table's state by hand (they
    go in the corrections menu and never fire rules).  ``params`` are taken
    in order when a command is written as words (``card +5``).
    """

    name: str
    params: tuple[Param, ...] = ()
    help: str = ""
    correction: bool = False
    aliases: tuple[str, ...] = ()

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "help": self.help,
            "correction": self.correction,
            "params": [p.to_json() for p in self.params],
        }


@dataclass(frozen=True)
class Command:
    """A command for a game: a name and JSON-compatible arguments."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Command:
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise UnknownCommand("refusal.command-shape")
        args = data.get("args", {})
        if not isinstance(args, Mapping):
            raise BadArgument("refusal.command-args")
        return cls(data["name"], dict(args))

    def text(self) -> str:
        """The command as words, the way the CLI reads it back."""
        parts = [self.name]
        for key, value in self.args.items():
            if isinstance(value, (list, tuple)):
                value = " ".join(str(v) for v in value)
            parts.append(f"{key}={value}")
        return " ".join(parts)


@dataclass(frozen=True)
class Event:
    """Something that happened: ``kind`` (``threshold-fired``...), data, and a
    sentence for people.  ``alert`` events are worth a beep and a flash."""

    kind: str
    message: str
    data: Mapping[str, Any] = field(default_factory=dict)
    alert: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "data": dict(self.data),
                "alert": self.alert}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(data["kind"], data["message"], dict(data.get("data", {})),
                   bool(data.get("alert", False)))


@dataclass(frozen=True)
class Expectation:
    """One thing the game waits for now.

    ``command`` is the command that answers it, ``player`` the seat who must
    act (``None``: anyone), ``dice`` the dice to roll when it is a roll,
    ``args`` the arguments already decided, and ``prompt`` what to show.
    """

    command: str
    prompt: str
    player: int | None = None
    dice: Dice | None = None
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "prompt": self.prompt,
            "player": self.player,
            "dice": self.dice.to_json() if self.dice else None,
            "args": dict(self.args),
        }


@dataclass(frozen=True)
class Setup:
    """How a game starts: the players in seating order (clockwise from the
    first player), the chosen variants and game-specific options."""

    players: tuple[str, ...]
    variants: frozenset[str] = frozenset()
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "variants": sorted(self.variants),
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping):
            raise BadSetup("refusal.setup-shape")
        players = data.get("players")
        if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
            raise BadSetup("refusal.setup-players")
        variants = data.get("variants", [])
        if not isinstance(variants, (list, tuple, set, frozenset)) or not all(
            isinstance(v, str) for v in variants
        ):
            raise BadSetup("refusal.setup-variants")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise BadSetup("refusal.setup-options")
        return cls(tuple(" ".join(p.split()) for p in players), frozenset(variants), dict(options))


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning seats (ties share), scores per seat
    (what "best" means is the game's), and a sentence."""

    winners: tuple[int, ...]
    scores: tuple[int | None, ...]
    message: str
    # Each seat's place (1 = won), when the game knows more than its scores
    # tell (OhShit!: the order of deaths); None: by the scores.
    ranks: tuple[int, ...] | None = None
    # The sentence in the other languages, for a game that says how it
    # ended from more than its winners (language -> sentence).
    said: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winners": list(self.winners), "scores": list(self.scores),
                               "message": self.message}
        if self.ranks is not None:
            out["ranks"] = list(self.ranks)
        if self.said:
            out["said"] = dict(self.said)
        return out


def chosen(game: type[Game], setup: Setup) -> Setup:
    """The setup a table starts from the one the players chose: a variant
    that comes on top of others turns them on too (``game.implies``).  The
    journal keeps the setup it returns, so a game replays with the variants
    it was played with."""
    implied = {v for picked in setup.variants for v in game.implies.get(picked, ())}
    if implied <= setup.variants:
        return setup
    return replace(setup, variants=setup.variants | frozenset(implied))


# -- the engine base ------------------------------------------------------


class Game(ABC):
    """Base of every game engine.

    A subclass declares ``key``, ``title``, ``min_players``, ``max_players``,
    ``variants`` (name -> description), ``commands`` (a tuple of
    :class:`CommandSpec`), and implements one ``do_<command>`` method per
    command (dashes become underscores) that receives the coerced arguments
    as keywords and returns the events.

    ``apply`` checks everything it can before calling ``do_*``; a ``do_*``
    method must itself check before it mutates, raising ``IllegalCommand``
    with the state untouched (the table also restores a snapshot if an
    engine ever breaks that promise).
    """

    key: ClassVar[str]
    title: ClassVar[str]
    # Where the game stands in the menus: the lower, the earlier.
    menu_order: ClassVar[int] = 100
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    variants: ClassVar[Mapping[str, str]] = {}
    # A variant that turns others on too (see :func:`chosen`).
    implies: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    commands: ClassVar[tuple[CommandSpec, ...]] = ()

    # The engine's whole state lives in plain attributes named in
    # ``state_fields``; to_json/from_json serialise exactly those.
    state_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, setup: Setup) -> None:
        self.setup = self.check_setup(setup)
        self.players: tuple[str, ...] = self.setup.players
        self.start()

    # -- to implement -----------------------------------------------------

    @abstractmethod
    def start(self) -> None:
        """Lay out the starting state from ``self.setup``."""

    @abstractmethod
    def expected(self) -> list[Expectation]:
        """What the game waits for now; empty once the game is over."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the game has ended; every command is then refused."""

    @abstractmethod
    def result(self) -> Result | None:
        """The outcome once the game is over, else ``None``."""

    @abstractmethod
    def view(self) -> dict[str, Any]:
        """The public state for people: JSON-compatible, with derived facts
        (next threshold, piles' totals...) that a screen should not compute."""

    def prompts_in(self, lang: str) -> list[str] | None:
        """The prompts of ``expected()`` said in ``lang``, in its order, for
        a game that says them in several languages; ``None`` (the default)
        when its prompts are English only."""
        return None

    # -- setup -------------------------------------------------------------

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        names = setup.players
        if not cls.min_players <= len(names) <= cls.max_players:
            raise BadSetup("refusal.player-count", title=cls.title, least=cls.min_players,
                           most=cls.max_players, count=len(names))
        for name in names:
            if not name or len(name) > MAX_NAME:
                raise BadSetup("refusal.name-length", most=MAX_NAME, name=repr(name))
        if len({n.casefold() for n in names}) != len(names):
            raise BadSetup("refusal.same-name")
        unknown = set(setup.variants) - set(cls.variants)
        if unknown:
            allowed = (Words(term(v, f"variant.{v}") for v in sorted(cls.variants))
                       if cls.variants else Word("refusal.none"))
            raise BadSetup("refusal.unknown-variant", game=cls.key, title=cls.title,
                           unknown=", ".join(sorted(unknown)), n=len(unknown), allowed=allowed)
        return setup

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """Everything a UI needs to set up and drive this game."""
        return {
            "key": cls.key,
            "title": cls.title,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "variants": dict(cls.variants),
            "implies": {name: list(more) for name, more in cls.implies.items()},
            "commands": [c.to_json() for c in cls.commands],
        }

    # -- commands ----------------------------------------------------------

    @classmethod
    def spec(cls, name: str) -> CommandSpec:
        wanted = name.strip().lower()
        for spec in cls.commands:
            if spec.name == wanted or wanted in spec.aliases:
                return spec
        raise UnknownCommand("refusal.unknown-command", game=cls.key, title=cls.title, name=name,
                             allowed=Words(command_word(s.name) for s in cls.commands))

    def parse(self, command: Command) -> tuple[CommandSpec, dict[str, Any]]:
        """Check a command's name and arguments (not the rules): return its
        spec and coerced arguments."""
        spec = self.spec(command.name)
        raw = dict(command.args)
        args: dict[str, Any] = {}
        for param in spec.params:
            if param.name in raw and raw[param.name] is not None:
                args[param.name] = param.coerce(raw.pop(param.name), self, spec.name)
            elif param.optional:
                raw.pop(param.name, None)
                args[param.name] = param.default
            else:
                raise BadArgument("refusal.missing-argument", game=self.key,
                                  command=command_word(spec.name),
                                  param=param_word(self.key, spec.name, param.name))
        if raw:
            takes = (Words(param_word(self.key, spec.name, p.name) for p in spec.params)
                     if spec.params else Word("refusal.nothing"))
            raise BadArgument("refusal.extra-argument", game=self.key,
                              command=command_word(spec.name),
                              extra=", ".join(sorted(map(str, raw))), takes=takes)
        return spec, args

    def parse_words(self, words: Sequence[str] | str) -> Command:
        """Read a command written as words: ``card +5``, ``roll 3 5``,
        ``adjust-mastery Ana -1``, ``note U-TURN played``, or ``name=value``."""
        if isinstance(words, str):
            words = words.split()
        if not words:
            raise UnknownCommand("refusal.no-command")
        spec = self.spec(words[0])
        rest = list(words[1:])
        args: dict[str, Any] = {}
        positional = [w for w in rest if "=" not in w]
        for w in rest:
            if "=" in w:
                key, _, value = w.partition("=")
                args[key] = value
        params = [p for p in spec.params if p.name not in args and not p.named]
        positional = _take_positional(params, positional, args)
        if positional:
            takes = (Words((p.name for p in spec.params), sep=" ") if spec.params
                     else Word("refusal.nothing"))
            raise BadArgument("refusal.too-many-words", command=spec.name,
                              words=repr(" ".join(positional)), takes=takes)
        return Command(spec.name, args)

    def apply(self, command: Command) -> list[Event]:
        """Play one command; return the events.  Refused: nothing changed."""
        if self.over:
            raise GameIsOver("refusal.game-over")
        spec, args = self.parse(command)
        self.check_expected(spec, args)
        handler = getattr(self, "do_" + spec.name.replace("-", "_"))
        return list(handler(**args))

    def check_expected(self, spec: CommandSpec, args: dict[str, Any]) -> None:
        """Refuse a rules command that the game is not waiting for, and fill
        in or check the acting player.  Corrections are always accepted."""
        if spec.correction:
            return
        waits = [e for e in self.expected() if e.command == spec.name]
        if not waits:
            raise NotExpected("refusal.not-expected", game=self.key,
                              command=command_word(spec.name), now=self._waits_for())
        if any(p.name == "player" for p in spec.params):
            self._check_player(spec, args, {e.player for e in waits})
        dice = next((e.dice for e in waits if e.dice), None)
        if dice is not None:
            for p in spec.params:
                if p.kind == ParamKind.DICE:
                    args[p.name] = list(dice.check(args[p.name]))

    def _check_player(self, spec: CommandSpec, args: dict[str, Any],
                      seats: set[int | None]) -> None:
        """Fill in the acting player when only one may act, or refuse one
        the game does not wait on."""
        if args.get("player") is None:
            if len(seats) == 1:
                args["player"] = next(iter(seats))
        elif None not in seats and args["player"] not in seats:
            who = ", ".join(self.players[s] for s in sorted(s for s in seats if s is not None))
            raise WrongPlayer("refusal.wrong-player", game=self.key,
                              player=self.players[args["player"]],
                              command=command_word(spec.name), waiting=who)

    def actor(self, command: Command) -> int | None:
        """The seat that acts with ``command`` now: its ``player`` (filled
        in as :meth:`check_expected` fills it), else the one seat the game
        waits on for it; ``None`` when anyone may act, and for corrections
        (which fix the table, not play a turn).  Nothing is changed; a
        command the game would refuse raises the error it would raise."""
        if self.over:
            return None
        spec, args = self.parse(command)
        if spec.correction:
            return None
        self.check_expected(spec, args)
        player = args.get("player")
        if isinstance(player, int) and not isinstance(player, bool):
            return player
        seats = {e.player for e in self.expected() if e.command == spec.name}
        if len(seats) == 1:
            return next(iter(seats))
        return None

    # -- helpers for subclasses and UIs -----------------------------------

    def _waits_for(self) -> Word | Words:
        """What the game waits for, as words for a refusal: in English the
        engine's prompts, elsewhere who acts and the command's label."""
        waits = [Word("refusal.waits-player", prompt=e.prompt,
                      player=self.players[e.player], command=command_word(e.command))
                 if e.player is not None else
                 Word("refusal.waits-anyone", prompt=e.prompt, command=command_word(e.command))
                 for e in self.expected()]
        return Words(waits, sep="; ", unique=True) if waits else Word("refusal.nothing")

    def param_range(self, param: Param) -> tuple[int | None, int | None]:
        """The range of an int parameter; a game may narrow it by option."""
        return param.low, param.high

    def seat_of(self, raw: Any) -> int:
        """A seat from a seat number or a player's name (any case)."""
        if isinstance(raw, int) and not isinstance(raw, bool):
            if 0 <= raw < len(self.players):
                return raw
        elif isinstance(raw, str):
            text = raw.strip()
            for seat, name in enumerate(self.players):
                if name.casefold() == text.casefold():
                    return seat
            if text.isdigit() and 0 <= int(text) < len(self.players):
                return int(text)
        names = ", ".join(f"{i}={n}" for i, n in enumerate(self.players))
        raise BadArgument("refusal.unknown-player", rule="unknown-player", raw=repr(raw),
                          players=names)

    # -- serialisation -----------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        state = {name: _plain(getattr(self, name)) for name in self.state_fields}
        return {"game": self.key, "setup": self.setup.to_json(), "state": state}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        if data.get("game") != cls.key:
            raise BadSetup("refusal.state-of-other-game", found=repr(data.get("game")),
                           wanted=repr(cls.key))
        game = cls.__new__(cls)
        game.setup = Setup.from_json(data["setup"])
        game.players = game.setup.players
        for name in cls.state_fields:
            setattr(game, name, copy.deepcopy(data["state"][name]))
        return game

    def dumps(self) -> str:
        """A compact, lossless text form (sorted keys, so equal states give
        equal text).  Serialises straight from the attributes: it runs before
        every command, for undo."""
        state = {name: getattr(self, name) for name in self.state_fields}
        # Keys in sorted order, the setup's text made once per game.
        return (f'{{"game":"{self.key}","setup":{self._setup_text},'
                f'"state":{_ENCODER.encode(state)}}}')

    @functools.cached_property
    def _setup_text(self) -> str:
        return _ENCODER.encode(self.setup.to_json())

    @classmethod
    def loads(cls, text: str) -> Game:
        return cls.from_json(json.loads(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) \
            and self.dumps() == other.dumps()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.dumps()}>"


def _plain(value: Any) -> Any:
    """A JSON-compatible deep copy of engine state (tuples become lists)."""
    kind = type(value)
    if kind is dict:
        return {str(k): _plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_plain(v) for v in value]
    if kind in (int, str, float, bool) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    return value


def _json_default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"engine state holds a {type(value).__name__}, which JSON cannot keep")


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=_json_default)
