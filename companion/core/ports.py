"""The seams between the core and what drives it: what the button menu, the
drivers and the panel use of the table (:class:`TablePort`) and of the dice
service (:class:`DiceService`).

They are Protocols: :class:`~companion.core.table.Table` is a
:class:`TablePort` without naming it, and so is any stand-in a test or a
benchmark hands in, as long as it has these members with these types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Protocol, Sequence

from .engine import Command, Game
from .table import (
    ANY_GAME,
    ANY_SEAT,
    ExpectedGame,
    HistoryEntry,
    Listener,
    Preview,
    Seat,
    Settings,
    SettingsListener,
    Table,
    Update,
)


class TablePort(Protocol):
    """The table as its users see it: read the game, play, undo and redo
    against a game and version, start a game against the one shown (see
    :data:`~companion.core.table.ANY_GAME`), listen, look back.

    ``game`` and ``version`` raise :class:`~companion.core.errors.NoGame`
    while ``has_game`` is false.
    """

    @property
    def has_game(self) -> bool: ...

    @property
    def game(self) -> Game: ...

    @property
    def version(self) -> int: ...

    def current(self) -> Update: ...

    def submit(self, command: Command | Mapping[str, Any], *,
               expected_game: ExpectedGame = ANY_GAME, expected_version: int | None = None,
               source: str = "", seat: Seat = ANY_SEAT) -> Update: ...

    def undo(self, *, expected_game: ExpectedGame = ANY_GAME,
             expected_version: int | None = None, source: str = "") -> Update: ...

    def redo(self, *, expected_game: ExpectedGame = ANY_GAME,
             expected_version: int | None = None, source: str = "") -> Update: ...

    def new_game(self, key: str, players: Sequence[str], variants: Iterable[str] = (),
                 options: Mapping[str, Any] | None = None, *,
                 expected_game: ExpectedGame = ANY_GAME,
                 expected_version: int | None = None) -> Update: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...

    def history(self, game_id: int | None = None) -> list[HistoryEntry]: ...

    def games(self) -> list[dict[str, Any]]: ...

    def stats(self) -> dict[str, Any]: ...

    def saved_options(self, key: str) -> dict[str, Any]: ...

    def save_option(self, key: str, name: str, value: Any) -> None: ...

    def preview(self, command: Command | Mapping[str, Any], *,
                expected_game: ExpectedGame = ANY_GAME, expected_version: int | None = None,
                seat: Seat = ANY_SEAT) -> Preview: ...

    def past(self, game_id: int) -> tuple[Update, list[HistoryEntry]]: ...

    def settings(self) -> Settings: ...

    def change_setting(self, name: str, value: Any) -> Settings: ...

    def subscribe_settings(self, listener: SettingsListener) -> Callable[[], None]: ...


class DiceService(Protocol):
    """Where rolls come from, as the screen, the menu and the panel use it:
    the source in force (one of ``sources``; setting another raises
    ``ValueError``), a sentence on its state, and a roll of what the game
    waits for, played at the table (refused with
    :class:`~companion.core.errors.StaleVersion` when ``expected_game`` and
    ``expected_version`` are no longer the table's)."""

    @property
    def source(self) -> str: ...

    @source.setter
    def source(self, name: str) -> None: ...

    @property
    def sources(self) -> Sequence[str]: ...

    @property
    def status(self) -> str: ...

    def roll(self, expected_version: int | None = None, *,
             expected_game: ExpectedGame = ANY_GAME, seat: Seat = ANY_SEAT) -> list[int]: ...


# The game's dice a smart die can be: the roles the players give it.
SMART_DIE_ROLES = ("red", "blue", "d6")


class SmartDie(Protocol):
    """A smart die as the menu and the panel show it: its address and
    name, the game's die it is (``red``, ``blue``, ``d6`` or ``None``),
    whether it is connected, its battery percent when known."""

    @property
    def address(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def role(self) -> str | None: ...

    @property
    def connected(self) -> bool: ...

    @property
    def battery(self) -> int | None: ...


class SmartDice(Protocol):
    """The table's smart dice (Pixels over Bluetooth LE) as the menu and the
    panel pair them: ``dice()`` are those paired, ``look()`` starts looking
    for dice in reach (False when a look is already on; ``looking`` says
    while it is), ``in_reach()`` the dice heard and not paired, ``pair`` one
    of them with a role or none, ``assign`` a paired die a role (``None``
    for none; ``ValueError`` for a role that is not ``roles``), ``forget``
    one (``KeyError`` for a die that is not paired)."""

    @property
    def roles(self) -> Sequence[str]: ...

    @property
    def looking(self) -> bool: ...

    def dice(self) -> Sequence[SmartDie]: ...

    def in_reach(self) -> Sequence[SmartDie]: ...

    def look(self) -> bool: ...

    def pair(self, address: str, name: str = "", role: str | None = None) -> None: ...

    def assign(self, address: str, role: str | None) -> None: ...

    def forget(self, address: str) -> None: ...


if TYPE_CHECKING:
    # The type checker holds the table to its port.
    def _table_is_a_port(table: Table) -> TablePort:
        return table
