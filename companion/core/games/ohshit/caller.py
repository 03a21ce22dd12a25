"""What the caller says of OhShit! (see :mod:`companion.core.caller`): a
pile one poop from full ("Ben has four: careful"), a flush, a death, a
Suppositoire, a Constipation, a Toilette, whose turn it is and the winner.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...caller import ALERT, BIG, PLAY, TURN, Said, seat_name, winners
from ...engine import Event
from ...text import Phrases, say

GAME = "ohshit"


def said(events: Sequence[Event], state: Mapping[str, Any], players: Sequence[str],
         lang: str) -> list[Said]:
    out: list[Said] = []
    warned: set[int] = set()
    for event in events:
        data = event.data
        name = seat_name(data.get("player"), players) or ""
        target = seat_name(data.get("target"), players) or ""
        if event.kind == "poop-played":
            seat = data.get("target")
            if isinstance(seat, int) and seat not in warned and _one_from_full(state, seat):
                warned.add(seat)
                out.append(Said(_say("caller.four", lang, player=target, n=_full(state) - 1),
                                "play", ALERT))
        elif event.kind == "game-over":
            out.append(winners(data.get("winners", ()), players, lang))
        elif event.kind in _SAID and (event.kind != "turn" or "turn" in data):
            key, moment, rank = _SAID[event.kind]
            out.append(Said(_say(key, lang, player=name, target=target), moment, rank))
    return out


# The events said by one sentence of their player and target: its key,
# moment and rank.  (A turn whose player has nothing left passes unsaid.)
_SAID: Mapping[str, tuple[str, str, int]] = {
    "turn": ("caller.turn", "turn", TURN),
    "flushed": ("caller.flush", "play", ALERT),
    "player-died": ("caller.dies", "play", BIG),
    "toilette": ("caller.toilette", "play", PLAY),
    "constipated": ("caller.constipated", "play", ALERT),
    "suppository": ("caller.suppositoire", "play", ALERT),
}


def _full(state: Mapping[str, Any]) -> int:
    full: int = state.get("full_pile", 5)
    return full


def _one_from_full(state: Mapping[str, Any], seat: int) -> bool:
    """The pile of ``seat`` takes one more poop before it is full."""
    seats = state.get("players", ())
    if not 0 <= seat < len(seats):
        return False
    player = seats[seat]
    return bool(player.get("alive")) and player.get("pile_total") == _full(state) - 1


def _say(key: str, lang: str, **fields: Any) -> str:
    return say(key, lang, game=GAME, **fields)


CALLER: Phrases = {
    "en": {
        "caller.turn": "{player}'s turn",
        "caller.four": "{player} has {n}: careful",
        "caller.flush": "Flush! {player}'s pile goes to the Décharge",
        "caller.dies": "{player} dies",
        "caller.toilette": "{player} flushes {target}'s pile",
        "caller.constipated": "{player} constipates {target}",
        "caller.suppositoire": "{player} gives {target} a Suppositoire",
    },
    "fr": {
        "caller.turn": "Au tour de {player}",
        "caller.four": "{player} en a {n} : attention",
        "caller.flush": "Chasse d'eau ! La pile de {player} part à la Décharge",
        "caller.dies": "{player} meurt",
        "caller.toilette": "{player} tire la chasse de la pile de {target}",
        "caller.constipated": "{player} constipe {target}",
        "caller.suppositoire": "{player} donne un Suppositoire à {target}",
    },
    "it": {
        "caller.turn": "Tocca a {player}",
        "caller.four": "{player} ne ha {n}: attenzione",
        "caller.flush": "Sciacquone! La pila di {player} va in Discarica",
        "caller.dies": "{player} muore",
        "caller.toilette": "{player} tira lo sciacquone della pila di {target}",
        "caller.constipated": "{player} fa venire la stitichezza a {target}",
        "caller.suppositoire": "{player} dà una Supposta a {target}",
    },
}
