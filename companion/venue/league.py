"""The venue's league: results across its tables, for an evening or a season.

Wins, games, win rate and head to head per game are the companion's own
statistics (:func:`companion.core.stats.compute`) over every table's
results; each game's ratings come from OpenSkill's Plackett-Luce model
(the winners ranked first, everyone else after), in the order the games
ended, shown as its ordinal (a conservative skill: mu - 3 sigma).
"""

from __future__ import annotations

import csv
import io
from typing import Any, Mapping, Sequence

from openskill.models import PlackettLuce

from companion.core.stats import compute, spreadsheet_safe
from companion.core.venue import played_of

CSV_COLUMNS = ("game", "player", "played", "won", "win_rate_percent", "rating", "mu", "sigma")


def league(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics and the ratings of ``results`` (the board's results)."""
    stats = compute(played_of(results))
    ratings = rate(results)
    for key, game in stats["games"].items():
        for player in game["players"]:
            player["rating"] = ratings.get(key, {}).get(player["name"])
    stats["results"] = [dict(r) for r in results]
    stats["titles"] = {str(r["game"]): str(r.get("title") or r["game"]) for r in results}
    return stats


def rate(results: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """Per game, each player's rating after every result, in order."""
    model = PlackettLuce()
    kept: dict[str, dict[str, Any]] = {}
    for result in results:
        players = [str(p) for p in result["players"]]
        if len(set(players)) < 2:
            continue
        game = kept.setdefault(str(result["game"]), {})
        ratings = [game.get(name) or model.rating(name=name) for name in players]
        winners = set(result["winners"])
        ranks = [0.0 if name in winners else 1.0 for name in players]
        rated = model.rate([[r] for r in ratings], ranks=ranks)
        for name, [after] in zip(players, rated, strict=True):
            game[name] = after
    return {key: {name: {"ordinal": round(r.ordinal(), 2), "mu": round(r.mu, 2),
                         "sigma": round(r.sigma, 2)} for name, r in game.items()}
            for key, game in kept.items()}


def to_csv(table: Mapping[str, Any]) -> str:
    """The league, one line per game and player, as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for key, game in table.get("games", {}).items():
        for p in game["players"]:
            rating = p.get("rating") or {}
            writer.writerow((key, spreadsheet_safe(p["name"]), p["played"], p["won"], p["rate"],
                             rating.get("ordinal", ""), rating.get("mu", ""),
                             rating.get("sigma", "")))
    return out.getvalue()

