"""Call of Nature's record (the highest Pressure a player's own card took
the table up to without blowing them up) and standing (each Mastery)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...records import Groups, RecordRule, ScoreRule, Standing, best_of


def highest_pressure_survived(scores: Sequence[int | None],
                              groups: Groups) -> tuple[int, int] | None:
    """A player survived a Pressure when their own card took the table up
    to it and did not blow them up: a card that brings the Pressure down
    (to a level someone else, or a correction, took it to) is not one."""
    tries = []
    for events in groups:
        out = {e.data.get("player") for e in events if e.kind == "player-eliminated"}
        for e in events:
            seat, before, after = (e.data.get(k) for k in ("player", "before", "after"))
            if (e.kind == "pressure-changed" and seat not in out and isinstance(seat, int)
                    and isinstance(after, int) and isinstance(before, int) and after > before):
                tries.append((after, seat))
    return best_of(tries)


RECORD = RecordRule("highest-pressure-survived", highest_pressure_survived)


def masteries(view: Mapping[str, Any]) -> list[tuple[int | None, bool]]:
    return [(p.get("mastery"), not p.get("eliminated")) for p in view.get("players", ())]


STANDING = Standing("mastery", masteries)

# The kinds of this game's alert events (worth a beep, a flash, a board's line).
ALERTS = ("threshold-fired", "player-eliminated", "reshuffle-needed", "game-over")

# How a play is logged (BG Stats): the highest Mastery among the survivors wins.
SCORING = ScoreRule(highest_wins=True)
