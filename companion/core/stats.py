"""Statistics over the games a table has finished, per game: games and wins
per player, win rate, streaks, records and head to head; and their export
as CSV.

A finished game is summed up once (:func:`summarise`) from its journal row
and the events of the commands still in effect (undone ones do not count),
when it ends: the journal keeps the summary (:meth:`Played.to_json`) in the
transaction that ends the game, and :func:`compute` adds the summaries up,
so statistics never replay a game.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .engine import Event

# The records, by game: the highest Pressure a player's card brought the
# table to without blowing them up (Call of Nature), the most cards one pile
# sent to the Décharge at once (OhShit!), the lowest score at the end of a
# game (Bathroom Rush).
RECORDS: dict[str, tuple[str, str]] = {
    "call-of-nature": ("highest-pressure-survived", "highest"),
    "ohshit": ("biggest-flush", "highest"),
    "bathroom-rush": ("lowest-score", "lowest"),
}


@dataclass(frozen=True)
class Record:
    """One record: what (``kind``), how much, by whom, in which game."""

    kind: str
    value: int
    player: str
    game_id: int
    at: float | None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": self.value, "player": self.player,
                "game_id": self.game_id, "at": self.at}


@dataclass(frozen=True)
class Played:
    """A finished game, summed up: who played, who won, the scores, and its
    best try at its game's record (``None`` when nothing counts)."""

    game_id: int
    game: str
    players: tuple[str, ...]
    winners: frozenset[int]
    scores: tuple[int | None, ...]
    started: float
    ended: float | None
    record: Record | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "game": self.game, "players": list(self.players),
                "winners": sorted(self.winners), "scores": list(self.scores),
                "started": self.started, "ended": self.ended,
                "record": None if self.record is None else self.record.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Played:
        """A summary as :meth:`to_json` wrote it."""
        record = data.get("record")
        return cls(
            game_id=int(data["game_id"]),
            game=str(data["game"]),
            players=tuple(str(p) for p in data["players"]),
            winners=frozenset(int(s) for s in data["winners"]),
            scores=tuple(None if s is None else int(s) for s in data["scores"]),
            started=float(data["started"]),
            ended=None if data.get("ended") is None else float(data["ended"]),
            record=None if record is None else Record(
                str(record["kind"]), int(record["value"]), str(record["player"]),
                int(record["game_id"]),
                None if record.get("at") is None else float(record["at"])),
        )


def in_effect(history: Iterable[tuple[str, Sequence[Event]]]) -> list[Sequence[Event]]:
    """The events of the commands still in effect, one group per command,
    from ``(action, events)`` in the order they happened: an undo takes the
    last group back, a redo plays one again (with its events)."""
    groups: list[Sequence[Event]] = []
    for action, events in history:
        if action == "undo":
            if groups:
                groups.pop()
        else:
            groups.append(events)
    return groups


def summarise(game_id: int, game: str, setup: Mapping[str, Any],
              result: Mapping[str, Any] | None, started: float, ended: float | None,
              groups: Sequence[Sequence[Event]]) -> Played:
    """A finished game's summary; see :class:`Played`."""
    players = tuple(str(p) for p in setup.get("players", []))
    result = result or {}
    winners = frozenset(int(s) for s in result.get("winners", []))
    scores = tuple(None if s is None else int(s) for s in result.get("scores", []))
    record = _record(game_id, game, players, scores, ended, groups)
    return Played(game_id, game, players, winners, scores, started, ended, record)


def _name(players: Sequence[str], seat: object) -> str | None:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return None


def _record(game_id: int, game: str, players: Sequence[str],
            scores: Sequence[int | None], ended: float | None,
            groups: Sequence[Sequence[Event]]) -> Record | None:
    best: tuple[int, str] | None = None
    if game == "call-of-nature":
        for events in groups:
            out = {e.data.get("player") for e in events if e.kind == "player-eliminated"}
            for e in events:
                if e.kind != "pressure-changed" or e.data.get("player") in out:
                    continue
                name, after = _name(players, e.data.get("player")), e.data.get("after")
                if name is not None and isinstance(after, int) and (best is None
                                                                    or after > best[0]):
                    best = (after, name)
    elif game == "ohshit":
        for events in groups:
            for e in events:
                cards = e.data.get("cards")
                if e.kind not in ("flushed", "toilette") or not isinstance(cards, dict):
                    continue
                size = sum(n for n in cards.values() if isinstance(n, int))
                whose = e.data.get("target", e.data.get("player"))
                name = _name(players, whose)
                if name is not None and size > 0 and (best is None or size > best[0]):
                    best = (size, name)
    elif game == "bathroom-rush":
        for seat, score in enumerate(scores):
            name = _name(players, seat)
            if name is not None and score is not None and (best is None or score < best[0]):
                best = (score, name)
    if best is None or game not in RECORDS:
        return None
    return Record(RECORDS[game][0], best[0], best[1], game_id, ended)


@dataclass
class _Player:
    """One player's games, wins and streaks."""

    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"played": self.played, "won": self.won,
                "rate": round(100 * self.won / self.played) if self.played else 0,
                "streak": self.streak, "best_streak": self.best_streak}


@dataclass
class _Pair:
    """Two players' games together, and who won them."""

    games: int = 0
    won: dict[str, int] = field(default_factory=dict)


def compute(games: Sequence[Played]) -> dict[str, Any]:
    """Every statistic, as JSON: totals (``games_played``, ``by_game``,
    ``players`` over every game) and ``games``: per game key, its games,
    players (played, won, rate in percent, current and best win streak,
    in order of wins), record and head to head (each pair of players who
    played together: games, and wins of each over the other)."""
    ordered = sorted(games, key=lambda g: g.game_id)
    overall: dict[str, _Player] = {}
    per_game: dict[str, dict[str, Any]] = {}
    for played in ordered:
        entry = per_game.setdefault(played.game, {"players": {}, "pairs": {}, "games": 0,
                                                  "record": None})
        entry["games"] += 1
        for seat, name in enumerate(played.players):
            won = seat in played.winners
            for table in (overall, entry["players"]):
                who = table.setdefault(name, _Player())
                who.played += 1
                who.won += won
                who.streak = who.streak + 1 if won else 0
                who.best_streak = max(who.best_streak, who.streak)
        seats = sorted(set(range(len(played.players))), key=lambda s: played.players[s])
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                names = (played.players[a], played.players[b])
                if names[0] == names[1]:
                    continue
                pair = entry["pairs"].setdefault(names, _Pair())
                pair.games += 1
                for me, other in ((a, b), (b, a)):
                    beat = me in played.winners and other not in played.winners
                    name = played.players[me]
                    pair.won[name] = pair.won.get(name, 0) + beat
        record = played.record
        if record is not None:
            kept: Record | None = entry["record"]
            lowest = RECORDS[played.game][1] == "lowest"
            if kept is None or (record.value < kept.value if lowest
                                else record.value > kept.value):
                entry["record"] = record
    return {
        "games_played": len(ordered),
        "by_game": {key: e["games"] for key, e in per_game.items()},
        "players": {name: {"played": p.played, "won": p.won}
                    for name, p in overall.items()},
        "games": {key: _game_json(e) for key, e in sorted(per_game.items())},
    }


def _game_json(entry: Mapping[str, Any]) -> dict[str, Any]:
    players: dict[str, _Player] = entry["players"]
    ranked = sorted(players.items(), key=lambda kv: (-kv[1].won, -kv[1].played, kv[0]))
    record: Record | None = entry["record"]
    pairs: dict[tuple[str, str], _Pair] = entry["pairs"]
    return {
        "games": entry["games"],
        "players": [{"name": name, **p.to_json()} for name, p in ranked],
        "record": record.to_json() if record else None,
        "head_to_head": [
            {"a": a, "b": b, "games": pair.games, "a_won": pair.won.get(a, 0),
             "b_won": pair.won.get(b, 0)}
            for (a, b), pair in sorted(pairs.items())
        ],
    }


CSV_COLUMNS = ("game", "player", "played", "won", "win_rate_percent", "current_streak",
               "best_streak")


def to_csv(stats: Mapping[str, Any]) -> str:
    """The per-game, per-player table of :func:`compute` as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for key, game in stats.get("games", {}).items():
        for p in game["players"]:
            writer.writerow((key, _cell(p["name"]), p["played"], p["won"], p["rate"],
                             p["streak"], p["best_streak"]))
    return out.getvalue()


def _cell(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula: "=1+1" is
    written "'=1+1"."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
