"""OhShit!'s record (the most cards one pile sent to the Décharge at once)
and standing (the cards on each pile)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...records import Groups, RecordRule, ScoreRule, Standing, best_of


def biggest_flush(scores: Sequence[int | None], groups: Groups) -> tuple[int, int] | None:
    """The biggest pile flushed (by its third card of a colour, or by a
    Toilette), credited to the player whose pile it was."""
    tries = []
    for events in groups:
        for e in events:
            cards, seat = e.data.get("cards"), e.data.get("target", e.data.get("player"))
            if e.kind not in ("flushed", "toilette") or not isinstance(cards, dict):
                continue
            size = sum(n for n in cards.values() if isinstance(n, int))
            if isinstance(seat, int) and size > 0:
                tries.append((size, seat))
    return best_of(tries)


RECORD = RecordRule("biggest-flush", biggest_flush)


def piles(view: Mapping[str, Any]) -> list[tuple[int | None, bool]]:
    return [(p.get("pile_total"), bool(p.get("alive"))) for p in view.get("players", ())]


STANDING = Standing("pile", piles, lowest=True)

# The kinds of this game's alert events (worth a beep, a flash, a board's line).
ALERTS = ("player-died", "game-over")

# How a play is logged (BG Stats): the last survivors win; no points.
SCORING = ScoreRule(highest_wins=True, points=False)
