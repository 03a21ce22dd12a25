"""A finished game as a play for BG Stats (Board Game Stats), the app many
players keep their plays in.

BG Stats takes a play from another app as a link,
``https://app.bgstatsapp.com/createPlay.html?data=<data>``, where ``<data>``
is the URL-encoded JSON of the play: ``sourceName`` (the app it comes
from), ``playDate`` (``YYYY-MM-DD HH:MM:SS``, local time), ``durationMin``,
``game`` (``name``, ``bggId``, ``highestWins``, ``noPoints``,
``sourceGameId``) and ``players`` (each with ``name``, ``score``,
``winner``, ``rank``, ``startPlayer``, ``sourcePlayerId``).  Opening the
link on a phone with BG Stats opens its import dialog, where the game and
the players are matched to the phone's own.  The same plays, as a JSON
list, are the export of every play.

How each game is scored (``highestWins``, ``noPoints``) is the game's own
word (its folder's ``SCORING``, :func:`companion.core.games.scoring_of`): a
game that does not say is refused, never logged by a guess.
BoardGameGeek's id of each game (``bggId``) comes from the configuration
(``[bgg]``, its defaults from the games' folders): BG Stats matches the game
by it, else by its name.
"""

from __future__ import annotations

import json
import time
import urllib.parse
from typing import Any, Callable, Mapping, Sequence

from .clock import game_seconds

SOURCE_NAME = "Tabletop Companion"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
PLAY_DATE = "%Y-%m-%d %H:%M:%S"

def source_play_id(game: Mapping[str, Any]) -> str:
    """One game's id for BG Stats, the same at every export: its number in
    the journal and when it started (two journals never share both)."""
    return f"companion-{int(game['id'])}-{int(float(game['started']))}"


def play(game: Mapping[str, Any], title: str, *, bgg_id: int | None = None,
         local: Callable[[float], time.struct_time] = time.localtime,
         variant: Callable[[str], str] = str) -> dict[str, Any]:
    """The play of a finished game, in BG Stats' shape.  ``game`` is a past
    game as the table lists it (``id``, ``game``, ``players``, ``started``,
    ``ended``, ``result``, ``variants``); ``title`` its printed name;
    ``local`` turns a time into the table's local time; ``variant`` names a
    variant in the table's language."""
    from .games import scoring_of

    key = str(game["game"])
    scoring = scoring_of(key)
    highest_wins, no_points = scoring.highest_wins, not scoring.points
    players: Sequence[str] = game.get("players") or ()
    result = game.get("result") or {}
    winners = {int(seat) for seat in result.get("winners", ())}
    scores: Sequence[int | None] = result.get("scores") or ()
    ranks = _places(result, len(players), winners, scores, highest_wins, no_points)
    described: dict[str, Any] = {"name": title, "highestWins": highest_wins,
                                 "noPoints": no_points, "sourceGameId": key}
    if bgg_id:
        described["bggId"] = bgg_id
    out: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": source_play_id(game),
        "playDate": time.strftime(PLAY_DATE, local(float(game["started"]))),
        "durationMin": _minutes(game.get("started"), game.get("ended")),
        "game": described,
        "players": [],
    }
    variants = list(game.get("variants") or ())
    if variants:
        out["board"] = ", ".join(variant(str(v)) for v in variants)
    for seat, name in enumerate(players):
        player: dict[str, Any] = {"name": name, "winner": seat in winners,
                                  "rank": ranks[seat], "startPlayer": seat == 0,
                                  "sourcePlayerId": name}
        score = scores[seat] if seat < len(scores) else None
        if not no_points and score is not None:
            player["score"] = score
        out["players"].append(player)
    return out


def link(data: Mapping[str, Any]) -> str:
    """The link that opens ``data`` (a :func:`play`) in BG Stats."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={urllib.parse.quote(text, safe='')}"


def _minutes(started: Any, ended: Any) -> int:
    """The game's length in minutes; 0 (unknown) when its times cannot say
    (a game the journal kept across a reboot onto a wrong clock)."""
    seconds = game_seconds(started, ended)
    return 0 if seconds is None else max(1, round(seconds / 60))


def _places(result: Mapping[str, Any], count: int, winners: set[int],
            scores: Sequence[int | None], highest_wins: bool, no_points: bool) -> list[int]:
    """Each seat's place: the game's own when it knows them (OhShit!: the
    order of deaths), else by the scores."""
    known = result.get("ranks")
    if isinstance(known, list) and len(known) == count:
        return [int(r) for r in known]
    return _ranks(count, winners, scores, highest_wins, no_points)


def _ranks(count: int, winners: set[int], scores: Sequence[int | None],
           highest_wins: bool, no_points: bool) -> list[int]:
    """Each seat's place: the winners first (rank 1), then the others by
    score, the best first; equal scores share a place, and the next place
    counts them (1, 2, 2, 4).  Without points, every other seat is second."""
    def score(seat: int) -> int | None:
        return scores[seat] if seat < len(scores) else None

    others = [s for s in range(count) if s not in winners]
    ranks = [1] * count
    if no_points:
        for seat in others:
            ranks[seat] = 2
        return ranks

    def order(seat: int) -> tuple[int, int]:
        value = score(seat)
        if value is None:
            return (1, 0)
        return (0, -value if highest_wins else value)

    others.sort(key=order)
    place = len(winners) + 1
    for position, seat in enumerate(others):
        if position and order(seat) == order(others[position - 1]):
            ranks[seat] = ranks[others[position - 1]]
        else:
            ranks[seat] = place + position
    return ranks


__all__ = ["CREATE_PLAY", "SOURCE_NAME", "link", "play", "source_play_id"]
