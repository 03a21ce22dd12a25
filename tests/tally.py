"""A tiny game for testing the table's mechanics apart from any real rules.

Players take turns adding 1..3 to a shared tally; a d6 is rolled when the
tally is a multiple of 5; the game ends at 12.  Registered as ``tally`` by
the ``tally_game`` fixture.
"""

from __future__ import annotations

from companion.core.engine import CommandSpec, Dice, Event, Expectation, Game, Param, Result
from companion.core.errors import BadArgument


class Tally(Game):
    key = "tally"
    title = "Tally"
    min_players = 2
    max_players = 4
    variants = {"short": "the game ends at 6"}
    commands = (
        CommandSpec("add", (Param("amount", "int", 1, 3),
                            Param("player", "player", optional=True))),
        CommandSpec("roll", (Param("values", "dice"), Param("player", "player", optional=True))),
        CommandSpec("set", (Param("total", "int", 0, 50),), correction=True),
    )
    state_fields = ("total", "turn", "rolling", "rolls")

    def start(self) -> None:
        self.total = 0
        self.turn = 0
        self.rolling = False
        self.rolls = []

    @property
    def goal(self) -> int:
        return 6 if "short" in self.setup.variants else 12

    @property
    def over(self) -> bool:
        return self.total >= self.goal

    def result(self):
        if not self.over:
            return None
        winner = (self.turn - 1) % len(self.players)
        return Result((winner,), tuple(0 for _ in self.players), f"{self.players[winner]} wins")

    def expected(self):
        if self.over:
            return []
        if self.rolling:
            return [Expectation("roll", "roll a d6", self.turn, Dice(6))]
        return [Expectation("add", f"{self.players[self.turn]} adds", self.turn)]

    def view(self) -> dict:
        return {"total": self.total, "turn": self.turn, "rolls": list(self.rolls)}

    def do_add(self, amount: int, player: int):
        self.total += amount
        if self.total % 5 == 0:
            self.rolling = True
        else:
            self.turn = (self.turn + 1) % len(self.players)
        events = [Event("added", f"{self.players[player]} adds {amount}: {self.total}")]
        if self.over:
            events.append(Event("game-over", "over", alert=True))
        return events

    def do_roll(self, values, player: int):
        self.rolls.append(values[0])
        self.rolling = False
        self.turn = (self.turn + 1) % len(self.players)
        return [Event("rolled", f"rolled {values[0]}")]

    def do_set(self, total: int):
        if total == 13:
            raise BadArgument("13 is unlucky")
        self.total = total
        return [Event("correction", f"tally set to {total}")]
