"""Bathroom Rush's record: the lowest score at the end of a game."""

from __future__ import annotations

from typing import Sequence

from ...stats import Groups, RecordRule, best_of


def lowest_score(scores: Sequence[int | None], groups: Groups) -> tuple[int, int] | None:
    return best_of(((score, seat) for seat, score in enumerate(scores) if score is not None),
                   lowest=True)


RECORD = RecordRule("lowest-score", lowest_score, lowest=True)
