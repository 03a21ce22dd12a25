"""The game engines, one folder each, found by key.

A game is a package here whose ``__init__`` exports ``GAME`` (its
:class:`~companion.core.engine.Game` class) and may export ``ALIASES``,
``RECORD`` (its record for the statistics, a
:class:`~companion.core.records.RecordRule`), ``SCORING`` (how a play of
it is logged, a :class:`~companion.core.records.ScoreRule`: every game has
one), ``BGG_ID`` (BoardGameGeek's id of the game, the config's default),
``TERMINAL`` (how ``companion state`` says it, a
:class:`~companion.core.terminal.Terminal`), ``STANDING`` (each player's
figure and who leads, a :class:`~companion.core.records.Standing`) and
``ALERTS`` (the kinds of its alert events), and may hold a ``hints``
module (how the button menu offers its commands: :func:`hints_of`); its
key is the folder's name with dashes (``call_of_nature`` is
``call-of-nature``).  Adding a game is adding a folder: nothing else lists
them.  Engines are imported on first use, so that starting the companion for
one game does not pay for the others: a folder's ``__init__`` may hold only
its names (``ALIASES``, ``BGG_ID``) and name its engine with :func:`exports`,
the rest read from its modules when first asked for, so that knowing a name
(checking a phone's game, an alias) imports no engine.
"""

from __future__ import annotations

import pkgutil
import sys
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..engine import Game
from ..errors import BadSetup, NoScoring
from ..hints import CommandHint, GameHints

if TYPE_CHECKING:
    from ..records import RecordRule, ScoreRule, Standing
    from ..terminal import Terminal


# Where a game folder keeps what it exports besides its engine, unless its
# ``__init__`` says otherwise (a name whose module the folder lacks is not
# exported).
CONVENTIONAL = {"ALERTS": "records", "RECORD": "records", "SCORING": "records",
                "STANDING": "records", "TERMINAL": "terminal"}


def exports(package: str, engine: str, **where: str) -> Callable[[str], Any]:
    """A game folder's module ``__getattr__``: its engine (``engine``,
    ``"game:CallOfNature"``) as ``GAME`` and by its class's name, the names
    of :data:`CONVENTIONAL` and those of ``where`` (``RED_DIE="cards"``), each
    read from its module the first time it is asked for, then kept on the
    folder's module."""
    module, _, engine_class = engine.partition(":")
    found = {**CONVENTIONAL, **where, "GAME": module, engine_class: module}

    def __getattr__(name: str) -> Any:
        if name not in found:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        try:
            source = import_module(f"{package}.{found[name]}")
        except ModuleNotFoundError as missing:
            if missing.name != f"{package}.{found[name]}":
                raise
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(source, engine_class if name == "GAME" else name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def _found() -> dict[str, str]:
    return {info.name.replace("_", "-"): f"{__name__}.{info.name}:GAME"
            for info in pkgutil.iter_modules(__path__) if info.ispkg}


GAMES: dict[str, str] = _found()


def aliases() -> dict[str, str]:
    """Other names players use for the games (``chipatsu``, ``br``), each
    mapped to its game's key."""
    out: dict[str, str] = {}
    for key, spec in GAMES.items():
        module = import_module(spec.partition(":")[0])
        out.update(dict.fromkeys(getattr(module, "ALIASES", ()), key))
    return out


def exported(key: str, name: str) -> Any:
    """What the game of ``key`` exports as ``name`` (``RECORD``,
    ``STANDING``, ``ALERTS``...), or ``None``."""
    spec = GAMES.get(canonical_key(key))
    if spec is None:
        return None
    return getattr(import_module(spec.partition(":")[0]), name, None)


def record_of(key: str) -> RecordRule | None:
    """The record the game of ``key`` brings to the statistics, if any."""
    found: RecordRule | None = exported(key, "RECORD")
    return found


def scoring_of(key: str) -> ScoreRule:
    """How a play of the game of ``key`` is scored; a game that does not
    say is an error, never a guess."""
    found: ScoreRule | None = exported(key, "SCORING")
    if found is None:
        raise NoScoring(f"the game {key!r} does not say how it is scored "
                        f"(SCORING in its folder)")
    return found


def bgg_id_of(key: str) -> int:
    """BoardGameGeek's id of the game of ``key`` as its folder gives it
    (0: none); the config's ``[bgg]`` may give another."""
    found: int = exported(key, "BGG_ID") or 0
    return found


def terminal_of(key: str) -> Terminal | None:
    """How the command line says the game of ``key`` (None: field by field)."""
    found: Terminal | None = exported(key, "TERMINAL")
    return found


def standing_of(key: str) -> Standing | None:
    """How the players of the game of ``key`` stand, for a board."""
    found: Standing | None = exported(key, "STANDING")
    return found


def alert_kinds() -> list[str]:
    """The kinds of the alert events the installed games raise (each
    game's ``ALERTS``): what a board or Home Assistant is told of."""
    kinds = {kind for game in available() for kind in exported(game.key, "ALERTS") or ()}
    return sorted(kinds)


def record_kinds() -> list[str]:
    """The kinds of record the installed games bring, in menu order."""
    return [rule.kind for rule in (record_of(game.key) for game in available()) if rule]


def canonical_key(key: str) -> str:
    """The key a name stands for: a key as it is, an alias as its game's key."""
    wanted = key.strip().lower()
    if wanted in GAMES:
        return wanted
    return aliases().get(wanted, wanted)


def game_class(key: str) -> type[Game]:
    """The engine class for a game key (or a common alias)."""
    wanted = canonical_key(key)
    try:
        module_name, _, attribute = GAMES[wanted].partition(":")
    except KeyError:
        raise BadSetup("refusal.unknown-game", name=key, games=", ".join(GAMES)) from None
    found: type[Game] = getattr(import_module(module_name), attribute)
    return found


def available() -> list[type[Game]]:
    """Every engine that is installed, in menu order."""
    out = []
    for key in GAMES:
        try:
            out.append(game_class(key))
        except (ImportError, AttributeError):
            continue
    return sorted(out, key=lambda game: (game.menu_order, game.key))


# -- how the button menu offers a game ----------------------------------------------


@cache
def hints_of(game_key: str) -> GameHints:
    """A game's hints by command name (``{}`` when the game has none)."""
    folder = canonical_key(game_key).replace("-", "_")
    try:
        module = import_module(f"{__name__}.{folder}.hints")
    except ImportError:
        return {}
    found: GameHints = getattr(module, "HINTS", {})
    return found


class _EveryGame(Mapping[tuple[str, str], CommandHint]):
    """Every game's hints keyed by ``(game key, command)``, read from the
    games' folders on first use."""

    def __getitem__(self, key: tuple[str, str]) -> CommandHint:
        game_key, command = key
        return hints_of(game_key)[command]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for game_key in GAMES:
            for command in hints_of(game_key):
                yield game_key, command

    def __len__(self) -> int:
        return sum(1 for _ in self)


HINTS: Mapping[tuple[str, str], CommandHint] = _EveryGame()
