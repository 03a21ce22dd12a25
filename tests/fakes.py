"""Stand-ins for the daemon's services, for the panel's tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from companion.core.engine import Command
from companion.core.table import ANY_GAME, ANY_SEAT


class FixedDice:
    """The dice service as the daemon lends it to the panel, rolling the
    given faces (repeated for as many dice as the game waits for)."""

    sources = ("button", "manual", "serial")

    def __init__(self, table, values: list[int] = (6,)) -> None:
        self.table = table
        self.values = list(values)
        self.source = "button"
        self.status = "ready"

    def roll(self, expected_version: int | None = None, *,
             expected_game: Any = ANY_GAME, seat: Any = ANY_SEAT) -> list[int]:
        waiting = next(e for e in self.table.current().expected if e.dice)
        values = (self.values * waiting.dice.count)[:waiting.dice.count]
        self.table.submit(Command(waiting.command, {"values": values}),
                          expected_game=expected_game, expected_version=expected_version,
                          source="dice", seat=seat)
        return values


@dataclass
class FakeDie:
    address: str
    name: str
    role: str | None = None
    connected: bool = False
    battery: int | None = None


class FakeSmartDice:
    """Smart dice in memory (a :class:`~companion.core.ports.SmartDice`):
    a look hears ``heard`` at once; paired dice are connected."""

    roles = ("red", "blue", "d6")
    looking = False

    def __init__(self, heard: Sequence[FakeDie] = ()) -> None:
        self.heard = list(heard)
        self.paired: dict[str, FakeDie] = {}
        self.seen: list[FakeDie] = []

    def dice(self) -> list[FakeDie]:
        return list(self.paired.values())

    def in_reach(self) -> list[FakeDie]:
        return [d for d in self.seen if d.address not in self.paired]

    def look(self) -> bool:
        self.seen = list(self.heard)
        return True

    def pair(self, address: str, name: str = "", role: str | None = None) -> None:
        self.paired[address] = FakeDie(address, name or address, role, True, 50)

    def assign(self, address: str, role: str | None) -> None:
        self.paired[address].role = role

    def forget(self, address: str) -> None:
        del self.paired[address]
