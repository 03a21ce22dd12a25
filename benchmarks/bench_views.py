"""What a game's view costs: the table makes one after every command, for
the screen, the panel and the menu.  Each game is measured mid-game, best of
five runs.

    .venv/bin/python benchmarks/bench_views.py
"""

from __future__ import annotations

import json
import time

from companion.core.engine import Command, Setup
from companion.core.games import available

ROUNDS = 5_000
PLAYERS = ("Ana", "Ben", "Cy", "Di")


def per_call_us(action, rounds: int = ROUNDS) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(rounds):
            action()
        best = min(best, time.perf_counter() - start)
    return best / rounds * 1e6


def mid_game(cls):
    """A game a few commands in: every answer the game waits for first,
    with the values its parameters start from."""
    game = cls(Setup(PLAYERS))
    for _ in range(6):
        expected = game.expected()
        if not expected:
            break
        wanted = expected[0]
        args = dict(wanted.args)
        spec = cls.spec(wanted.command)
        for param in spec.params:
            if param.name in args or param.optional:
                continue
            if param.kind == "dice" and wanted.dice is not None:
                args[param.name] = [1] * wanted.dice.count
            elif param.kind == "int":
                args[param.name] = max(param.low or 0, min(1, param.high or 1))
            elif param.kind == "choice":
                args[param.name] = param.choices[0]
            elif param.kind == "player":
                args[param.name] = 0
        try:
            game.apply(Command(wanted.command, args))
        except Exception:  # a refused move leaves the game as it was
            break
    return game


def main() -> None:
    for cls in available():
        game = mid_game(cls)
        view = per_call_us(game.view)
        size = len(json.dumps(game.view()))
        print(f"{cls.key}: view {view:.1f} us ({size} bytes of JSON)")


if __name__ == "__main__":
    main()
