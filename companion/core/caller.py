"""The caller: one spoken line for each change of the table.

Darts players have a caller who says each score so that nobody looks at a
board; the companion says whose turn it is, what just happened and what to
do, in the table's language, from the Pi's speaker or a phone.  This module
turns an :class:`~companion.core.updates.Update` into that one line:

- a new game says its title, its players and who starts;
- a command (or a redo) says its events, the most important first: each
  game says its own in ``companion/core/games/<folder>/caller.py``
  (``said(events, state, players, lang)``, a list of :class:`Said`), and
  a game without one is heard by its turns and its winner only;
- an undo says what it took back ("Taken back: Ana's +5");
- the table as it is (a phone that reconnects, the start) says nothing, so
  nothing is ever said twice.

Each part of a line belongs to a *moment* (:data:`MOMENTS`), and the table's
settings choose the moments the caller says; a line keeps at most
:data:`MOST_PARTS` parts.  Pure: no clock, no sound, the same update gives
the same line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any, Callable, Final, Iterable, Mapping, Sequence

from .engine import Event
from .text import Word, Words, event_sentence, say
from .updates import Action, Update

# What the caller may say: whose turn it is, a game's start and its winner,
# an undo, and the game's own moments (a threshold, a death, a cleanup...).
MOMENTS: Final = ("turn", "game", "undo", "play")

# How important a part is: the lower, the earlier in the line.
ENDING: Final = 0      # the winner
BIG: Final = 10        # an explosion, a death, an elimination
ALERT: Final = 20      # a threshold, a Respite, a flush, a pile at four
PLAY: Final = 30       # a card's effect, a cleanup
TURN: Final = 90       # whose turn it is, last

# A line says the most important parts of a change, not all of them.
MOST_PARTS: Final = 3


@dataclass(frozen=True)
class Said:
    """One part of a line: its text, its ``moment`` and its ``rank``
    (the lower, the more important)."""

    text: str
    moment: str = "play"
    rank: int = PLAY


GameCaller = Callable[[Sequence[Event], Mapping[str, Any], Sequence[str], str], list[Said]]


@cache
def game_caller(game_key: str) -> GameCaller | None:
    """The game's own caller (its folder's ``caller.said``), if it has one."""
    folder = game_key.replace("-", "_")
    try:
        module = import_module(f"companion.core.games.{folder}.caller")
    except ImportError:
        return None
    found: GameCaller | None = getattr(module, "said", None)
    return found


def line(update: Update, lang: str, moments: Iterable[str] = MOMENTS) -> str | None:
    """What the caller says of ``update`` in ``lang``, keeping only the
    parts of ``moments``; ``None`` when it says nothing."""
    wanted = frozenset(moments)
    parts = [part for part in parts_of(update, lang) if part.moment in wanted]
    if not parts:
        return None
    parts.sort(key=lambda part: part.rank)
    return joined([part.text for part in parts[:MOST_PARTS]], lang)


def parts_of(update: Update, lang: str) -> list[Said]:
    """Every part the caller could say of ``update``, in no order."""
    if not update.game_key or update.action == Action.CURRENT:
        return []
    if update.action == Action.NEW:
        return _new_game(update, lang)
    if update.action == Action.UNDO:
        return _taken_back(update, lang)
    return events_said(update.game_key, update.events, update.state, update.players, lang)


def events_said(game_key: str, events: Sequence[Event], state: Mapping[str, Any],
                players: Sequence[str], lang: str) -> list[Said]:
    """The parts a batch of events makes: the game's own, else its turns
    and its winner said the common way."""
    own = game_caller(game_key)
    if own is not None:
        return own(events, state, players, lang)
    return common_said(events, players, lang)


def common_said(events: Sequence[Event], players: Sequence[str], lang: str) -> list[Said]:
    """Whose turn it is and who won, for any game."""
    out: list[Said] = []
    for event in events:
        if event.kind == "turn":
            name = seat_name(event.data.get("player"), players)
            if name is not None:
                out.append(turn(name, lang))
        elif event.kind == "game-over":
            out.append(winners(event.data.get("winners", ()), players, lang))
    return out


def turn(name: str, lang: str) -> Said:
    return Said(say("caller.turn", lang, player=name), "turn", TURN)


def winners(seats: Iterable[Any], players: Sequence[str], lang: str) -> Said:
    """Who won (``seats``), or that nobody did."""
    names = [name for seat in seats if (name := seat_name(seat, players)) is not None]
    if not names:
        return Said(say("caller.no-winner", lang), "game", ENDING)
    return Said(say("caller.winner", lang, winners=names_list(names)), "game", ENDING)


def seat_name(seat: Any, players: Sequence[str]) -> str | None:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return players[seat]
    return None


def names_list(names: Sequence[str]) -> Words:
    """Names said as a list: "Ana, Ben and Cy"."""
    return Words(names, last=Word("refusal.and"))


def joined(texts: Sequence[str], lang: str) -> str:
    """Parts as one line: sentences, each closed once."""
    out = []
    for text in texts:
        text = text.strip()
        if text and text[-1] not in ".!?…":
            text += "."
        out.append(text[:1].upper() + text[1:])
    return " ".join(out)


def _new_game(update: Update, lang: str) -> list[Said]:
    starter = next((e.player for e in update.expected if e.player is not None), None)
    name = seat_name(starter, update.players)
    said = say("caller.new-game", lang, title=update.title,
               players=names_list(update.players))
    parts = [Said(said, "game", ENDING)]
    if name is not None:
        parts.append(Said(say("caller.starts", lang, player=name), "turn", TURN))
    return parts


def _taken_back(update: Update, lang: str) -> list[Said]:
    """"Taken back: Ana's +5": the most important part the undone command
    made, else its first event's sentence."""
    undid = [e for e in update.undid if e.kind != "turn"]
    if not undid:
        return [Said(say("caller.taken-back-nothing", lang), "undo", BIG)]
    parts = [p for p in events_said(update.game_key, undid, update.state, update.players, lang)
             if p.moment != "turn"]
    taken = (game_taken(update.game_key, undid, update.players, lang)
             or (min(parts, key=lambda p: p.rank).text if parts else None)
             or _sentence(update.game_key, undid[0], update.players, lang))
    return [Said(say("caller.taken-back", lang, what=taken.rstrip(".")), "undo", BIG)]


def _sentence(game_key: str, event: Event, players: Sequence[str], lang: str) -> str:
    """An event's sentence in ``lang``: the game's own telling where it says
    its events from their data, else from its kind and data."""
    from .errors import CompanionError
    from .games import game_class

    try:
        tell = getattr(game_class(game_key), "event_text", None)
    except CompanionError:
        tell = None
    if callable(tell):
        return str(tell(event, lang))
    return event_sentence(event.kind, event.message, event.data, lang, game_key, players)


def game_taken(game_key: str, events: Sequence[Event], players: Sequence[str],
               lang: str) -> str | None:
    """How the game names a command it took back ("Ana's +5"), if it does."""
    folder = game_key.replace("-", "_")
    try:
        module = import_module(f"companion.core.games.{folder}.caller")
    except ImportError:
        return None
    taken: Callable[[Sequence[Event], Sequence[str], str], str | None] | None = getattr(
        module, "taken", None)
    return taken(events, players, lang) if taken is not None else None

