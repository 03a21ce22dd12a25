"""What the caller says of Bathroom Rush (see :mod:`companion.core.caller`):
whose turn it is and in which queue, the Persona that acts and on whom, an
elimination, the cleanup, a player reaching the bathroom, the final count
and the winner.  The Personas and places are said by the game's own words
(:func:`.sentences.render`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...caller import ALERT, BIG, ENDING, PLAY, TURN, Said, seat_name
from ...engine import Event
from ...text import Phrases
from .sentences import event_key, render

# The events said as the game says them everywhere (its event sentence).
_AS_THE_GAME_SAYS: Mapping[str, tuple[str, int]] = {
    "player-eliminated": ("play", BIG),
    "final-round": ("play", ALERT),
    "reached": ("play", ALERT),
    "tie-break": ("play", ALERT),
}


def said(events: Sequence[Event], state: Mapping[str, Any], players: Sequence[str],
         lang: str) -> list[Said]:
    out: list[Said] = []
    for event in events:
        data = event.data
        if event.kind == "turn":
            name = seat_name(data.get("player"), players) or ""
            queue = _queue_of(state, data.get("player"))
            key = "caller.turn" if queue is not None else "caller.turn.nowhere"
            out.append(Said(render(key, lang, {"name": name, "queue": queue}), "turn", TURN))
        elif event.kind == "effect-applied" and data.get("how") != "nobody":
            key = "caller.acts.on" if data.get("beside") else "caller.acts"
            out.append(Said(render(key, lang, data), "play", PLAY))
        elif event.kind == "cleanup":
            out.append(Said(render("caller.cleanup", lang, data), "play", PLAY))
        elif event.kind in _AS_THE_GAME_SAYS:
            moment, rank = _AS_THE_GAME_SAYS[event.kind]
            out.append(Said(render(event_key(event.kind, data), lang, data), moment, rank))
        elif event.kind == "game-over":
            out += _game_over(data, players, lang)
    return out


def _queue_of(state: Mapping[str, Any], seat: Any) -> int | None:
    for queue in state.get("queues", ()):
        if queue.get("player") == seat and seat is not None:
            index: int = queue["index"]
            return index
    return None


def _game_over(data: Mapping[str, Any], players: Sequence[str], lang: str) -> list[Said]:
    scores = data.get("scores") or ()
    counted = [f"{players[seat]} {score}" for seat, score in enumerate(scores)
               if isinstance(score, int) and seat < len(players)]
    out = [Said(render(event_key("game-over", data), lang, data), "game", ENDING + 1)]
    if counted:
        out.append(Said(render("caller.count", lang, {"scores": ", ".join(counted)}),
                        "game", ENDING))
    return out


CALLER: Phrases = {
    "en": {
        "caller.turn": "{name}'s turn, queue {queue}",
        "caller.turn.nowhere": "{name}'s turn",
        "caller.acts": "{Persona} acts, {place}",
        "caller.acts.on": "{Persona} acts on {beside}",
        "caller.cleanup": "Cleanup: round {round} is over",
        "caller.count": "The final count: {scores}",
    },
    "fr": {
        "caller.turn": "À {name} de jouer, file {queue}",
        "caller.turn.nowhere": "À {name} de jouer",
        "caller.acts": "{Persona} agit, {place}",
        "caller.acts.on": "{Persona} agit sur {beside}",
        "caller.cleanup": "Nettoyage : la manche {round} est finie",
        "caller.count": "Le décompte final : {scores}",
    },
    "it": {
        "caller.turn": "Tocca a {name}, fila {queue}",
        "caller.turn.nowhere": "Tocca a {name}",
        "caller.acts": "{Persona} agisce, {place}",
        "caller.acts.on": "{Persona} agisce su {beside}",
        "caller.cleanup": "Pulizia: il giro {round} è finito",
        "caller.count": "Il conto finale: {scores}",
    },
}
