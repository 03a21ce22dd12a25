"""Bathroom Rush's record (the lowest score at the end of a game) and
standing (each score)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...records import Groups, RecordRule, ScoreRule, Standing, best_of


def lowest_score(scores: Sequence[int | None], groups: Groups) -> tuple[int, int] | None:
    return best_of(((score, seat) for seat, score in enumerate(scores) if score is not None),
                   lowest=True)


RECORD = RecordRule("lowest-score", lowest_score, lowest=True)


def scores(view: Mapping[str, Any]) -> list[tuple[int | None, bool]]:
    return [(r.get("score"), not r.get("eliminated")) for r in view.get("reserves", ())]


STANDING = Standing("score", scores, lowest=True)

# The kinds of this game's alert events (worth a beep, a flash, a board's line).
ALERTS = ("reached", "final-round", "limit-reached", "player-eliminated", "tie-break",
          "game-over")

# How a play is logged (BG Stats): the lowest score wins.
SCORING = ScoreRule(highest_wins=False)
