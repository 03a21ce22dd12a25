"""Stand-ins for the daemon's services, for the panel's tests."""

from __future__ import annotations

from typing import Any

from companion.core.engine import Command
from companion.core.table import ANY_GAME


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
             expected_game: Any = ANY_GAME) -> list[int]:
        waiting = next(e for e in self.table.current().expected if e.dice)
        values = (self.values * waiting.dice.count)[:waiting.dice.count]
        self.table.submit(Command(waiting.command, {"values": values}),
                          expected_game=expected_game, expected_version=expected_version,
                          source="dice")
        return values
