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

BoardGameGeek's id of each game (``bggId``) comes from the configuration
(``[bgg]``): BG Stats matches the game by it, else by its name.
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

# How each game is scored, as BG Stats asks: does the highest score win, and
# does the game have points at all.  Call of Nature: the highest Mastery
# among the survivors; OhShit!: the last survivors win, no points; Bathroom
# Rush: the lowest score.
SCORING: dict[str, tuple[bool, bool]] = {
    "call-of-nature": (True, False),
    "ohshit": (True, True),
    "bathroom-rush": (False, False),
}


def play(game: Mapping[str, Any], title: str, *, bgg_id: int | None = None,
         local: Callable[[float], time.struct_time] = time.localtime) -> dict[str, Any]:
    """The play of a finished game, in BG Stats' shape.  ``game`` is a past
    game as the table lists it (``id``, ``game``, ``players``, ``started``,
    ``ended``, ``result``, ``variants``); ``title`` its printed name;
    ``local`` turns a time into the table's local time."""
    key = str(game["game"])
    highest_wins, no_points = SCORING.get(key, (True, False))
    players: Sequence[str] = game.get("players") or ()
    result = game.get("result") or {}
    winners = {int(seat) for seat in result.get("winners", ())}
    scores: Sequence[int | None] = result.get("scores") or ()
    ranks = _ranks(len(players), winners, scores, highest_wins, no_points)
    described: dict[str, Any] = {"name": title, "highestWins": highest_wins,
                                 "noPoints": no_points, "sourceGameId": key}
    if bgg_id:
        described["bggId"] = bgg_id
    out: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "playDate": time.strftime(PLAY_DATE, local(float(game["started"]))),
        "durationMin": _minutes(game.get("started"), game.get("ended")),
        "game": described,
        "players": [],
    }
    variants = list(game.get("variants") or ())
    if variants:
        out["board"] = ", ".join(variants)
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


__all__ = ["CREATE_PLAY", "SCORING", "SOURCE_NAME", "link", "play"]
