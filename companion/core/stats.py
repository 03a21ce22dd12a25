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
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from .engine import Event
from .records import Groups, RecordRule


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


def _record(game_id: int, game: str, players: Sequence[str],
            scores: Sequence[int | None], ended: float | None,
            groups: Groups) -> Record | None:
    rule = record_rule(game)
    found = None if rule is None else rule.best(scores, groups)
    if rule is None or found is None or not 0 <= found[1] < len(players):
        return None
    return Record(rule.kind, found[0], players[found[1]], game_id, ended)


def record_rule(game: str) -> RecordRule | None:
    """The record of the game of key ``game`` (``None``: it has none)."""
    from .games import record_of

    return record_of(game)


@dataclass
class _Player:
    """One player's games, wins and streaks."""

    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    # When their first and their last game started.
    first: float | None = None
    last: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"played": self.played, "won": self.won,
                "rate": round(100 * self.won / self.played) if self.played else 0,
                "streak": self.streak, "best_streak": self.best_streak,
                "first_played": self.first, "last_played": self.last}


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
    tally = Tally()
    for played in sorted(games, key=lambda g: g.game_id):
        tally.add(played)
    return tally.to_json()


class Tally:
    """The statistics of finished games added one at a time, in the order of
    their ids (streaks follow that order): what :func:`compute` returns,
    kept up to date as games end without keeping the games themselves."""

    def __init__(self) -> None:
        self.count = 0
        self.overall: dict[str, _Player] = {}
        self.per_game: dict[str, dict[str, Any]] = {}

    def add(self, played: Played) -> None:
        self.count += 1
        entry = self.per_game.setdefault(played.game, {"players": {}, "pairs": {}, "games": 0,
                                                       "record": None})
        entry["games"] += 1
        for seat, name in enumerate(played.players):
            won = seat in played.winners
            for table in (self.overall, entry["players"]):
                who = table.setdefault(name, _Player())
                who.played += 1
                who.won += won
                who.streak = who.streak + 1 if won else 0
                who.best_streak = max(who.best_streak, who.streak)
                who.first = played.started if who.first is None else who.first
                who.last = played.started
        _add_pairs(entry["pairs"], played)
        record = played.record
        rule = None if record is None else record_rule(played.game)
        if record is not None and rule is not None:
            kept: Record | None = entry["record"]
            if kept is None or (record.value < kept.value if rule.lowest
                                else record.value > kept.value):
                entry["record"] = record

    def copy(self) -> Tally:
        """A copy to go back to (the last game's end taken back)."""
        import copy

        return copy.deepcopy(self)

    def dump(self) -> dict[str, Any]:
        """The tally as JSON, to keep and :meth:`load` again."""
        def players(table: Mapping[str, _Player]) -> dict[str, list[Any]]:
            return {n: [p.played, p.won, p.streak, p.best_streak, p.first, p.last]
                    for n, p in table.items()}

        return {"count": self.count, "overall": players(self.overall), "games": {
            key: {"games": e["games"], "players": players(e["players"]),
                  "pairs": [[a, b, pair.games, pair.won] for (a, b), pair in e["pairs"].items()],
                  "record": e["record"].to_json() if e["record"] else None}
            for key, e in self.per_game.items()}}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Tally:
        """A tally as :meth:`dump` wrote it."""
        def players(table: Mapping[str, list[Any]]) -> dict[str, _Player]:
            return {n: _Player(*values) for n, values in table.items()}

        tally = cls()
        tally.count = int(data["count"])
        tally.overall = players(data["overall"])
        for key, e in data["games"].items():
            record = e["record"]
            tally.per_game[key] = {
                "games": int(e["games"]), "players": players(e["players"]),
                "pairs": {(a, b): _Pair(games, dict(won)) for a, b, games, won in e["pairs"]},
                "record": None if record is None else Record(
                    record["kind"], record["value"], record["player"], record["game_id"],
                    record["at"])}
        return tally

    def to_json(self) -> dict[str, Any]:
        return {
            "games_played": self.count,
            "by_game": {key: e["games"] for key, e in self.per_game.items()},
            "players": {name: {"played": p.played, "won": p.won}
                        for name, p in self.overall.items()},
            "games": {key: _game_json(e) for key, e in sorted(self.per_game.items())},
        }


def _add_pairs(pairs: dict[tuple[str, str], _Pair], played: Played) -> None:
    """Head to head: each pair of players of ``played``, who beat whom."""
    seats = sorted(set(range(len(played.players))), key=lambda s: played.players[s])
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            names = (played.players[a], played.players[b])
            if names[0] == names[1]:
                continue
            pair = pairs.setdefault(names, _Pair())
            pair.games += 1
            for me, other in ((a, b), (b, a)):
                beat = me in played.winners and other not in played.winners
                name = played.players[me]
                pair.won[name] = pair.won.get(name, 0) + beat


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
               "best_streak", "first_played", "last_played")
CSV_DATE = "%Y-%m-%d"


def to_csv(stats: Mapping[str, Any], *, headers: Sequence[str] = CSV_COLUMNS,
           names: Mapping[str, str] | None = None,
           local: Callable[[float], time.struct_time] = time.localtime) -> str:
    """The per-game, per-player table of :func:`compute` as CSV text: one
    row per game and player, dates as ``YYYY-MM-DD`` in the table's local
    time (``local``).  ``headers`` name the columns (the machine keys,
    :data:`CSV_COLUMNS`, by default; a person's file has them in their
    language), ``names`` the games (their keys by default)."""
    def date(at: Any) -> str:
        return time.strftime(CSV_DATE, local(float(at))) if at is not None else ""

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([spreadsheet_safe(h) for h in headers])
    for key, game in stats.get("games", {}).items():
        title = (names or {}).get(key, key)
        for p in game["players"]:
            writer.writerow((spreadsheet_safe(title), spreadsheet_safe(p["name"]), p["played"],
                             p["won"], p["rate"], p["streak"], p["best_streak"],
                             date(p.get("first_played")), date(p.get("last_played"))))
    return out.getvalue()


def spreadsheet_safe(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula: "=1+1" is
    written "'=1+1"."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
