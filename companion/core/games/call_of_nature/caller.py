"""What the caller says of Call of Nature (see :mod:`companion.core.caller`):
the Pressure with whose turn it is, a threshold crossed and what it cost,
a Respite and its roll, an explosion, the End-of-Game rolls and the winner.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ...caller import ALERT, BIG, PLAY, TURN, Said, seat_name, winners
from ...engine import Event
from ...text import Phrases, say

GAME = "call-of-nature"


def said(events: Sequence[Event], state: Mapping[str, Any], players: Sequence[str],
         lang: str) -> list[Said]:
    out: list[Said] = []
    for event in events:
        data = event.data
        if event.kind == "game-over":
            out.append(winners(data.get("winners", ()), players, lang))
            continue
        heard = _HEARD.get(event.kind)
        if heard is None:
            continue
        name = seat_name(data.get("player"), players) or ""
        found = heard(data, name, state, lang)
        if found is not None:
            out.append(found)
    return out


def _turn(data: Mapping[str, Any], name: str, state: Mapping[str, Any], lang: str) -> Said:
    return Said(_say("caller.turn", lang, player=name, pressure=state.get("pressure", 0)),
                "turn", TURN)


def _threshold(data: Mapping[str, Any], name: str, state: Mapping[str, Any],
               lang: str) -> Said:
    return Said(_say("caller.threshold", lang, player=name, **_fields(data)), "play", ALERT)


def _respite(data: Mapping[str, Any], name: str, state: Mapping[str, Any], lang: str) -> Said:
    return Said(_say("caller.respite", lang, player=name, pressure=data.get("pressure", 0),
                     mastery=data.get("mastery", 0)), "play", ALERT)


def _respite_rolled(data: Mapping[str, Any], name: str, state: Mapping[str, Any],
                    lang: str) -> Said:
    key = "caller.respite-won" if data.get("gained") else "caller.respite-lost"
    return Said(_say(key, lang, player=name, die=data.get("die", 0), after=data.get("after", 0)),
                "play", ALERT)


def _explodes(data: Mapping[str, Any], name: str, state: Mapping[str, Any], lang: str) -> Said:
    key = "caller.explodes.rolls" if data.get("end") == "rolls" else "caller.explodes"
    return Said(_say(key, lang, player=name), "play", BIG)


def _end_roll(data: Mapping[str, Any], name: str, state: Mapping[str, Any], lang: str) -> Said:
    if "total" not in data:
        return Said(_say("caller.end-roll.held", lang, player=name, held=data.get("held", 0)),
                    "play", PLAY)
    key = "caller.end-roll.loss" if data.get("loss") else "caller.end-roll.kept"
    return Said(_say(key, lang, player=name, total=data.get("total", 0),
                     loss=data.get("loss", 0), after=data.get("after", 0)), "play", ALERT)


def _round(data: Mapping[str, Any], name: str, state: Mapping[str, Any], lang: str) -> Said:
    return Said(_say("caller.round", lang, player=name, round=data.get("round", 0)),
                "play", PLAY)


def _direction(data: Mapping[str, Any], name: str, state: Mapping[str, Any],
               lang: str) -> Said | None:
    key = f"caller.direction.{data.get('direction')}"
    return Said(_say(key, lang), "play", PLAY) if data.get("direction") in DIRECTIONS else None


def _reshuffle(data: Mapping[str, Any], name: str, state: Mapping[str, Any], lang: str) -> Said:
    return Said(_say("caller.reshuffle", lang), "play", PLAY)


DIRECTIONS = ("clockwise", "counter-clockwise")
_HEARD: Mapping[str, Callable[[Mapping[str, Any], str, Mapping[str, Any], str], Said | None]] = {
    "turn": _turn,
    "threshold-fired": _threshold,
    "respite": _respite,
    "respite-rolled": _respite_rolled,
    "player-eliminated": _explodes,
    "end-roll": _end_roll,
    "round-ended": _round,
    "direction-changed": _direction,
    "reshuffle-needed": _reshuffle,
}


def taken(events: Sequence[Event], players: Sequence[str], lang: str) -> str | None:
    """A card taken back as players name it: "Ana's +5"."""
    for event in events:
        if event.kind == "pressure-changed":
            name = seat_name(event.data.get("player"), players) or ""
            return _say("caller.card", lang, player=name, value=event.data.get("value", 0))
    return None


def _fields(data: Mapping[str, Any]) -> dict[str, Any]:
    return {name: data.get(name, 0) for name in ("threshold", "loss", "after")}


def _say(key: str, lang: str, **fields: Any) -> str:
    return say(key, lang, game=GAME, **fields)


CALLER: Phrases = {
    "en": {
        "caller.turn": "{player}'s turn, pressure {pressure}",
        "caller.card": "{player}'s {value:+d}",
        "caller.threshold": (
            "Threshold {threshold}! {player} loses {loss, plural, one {# level} other "
            "{# levels}} of Mastery, down to {after}"
        ),
        "caller.respite": "Respite at {pressure}: {player}, roll a d6 and beat {mastery}",
        "caller.respite-won": "{player} rolls {die}: one level back, Mastery {after}",
        "caller.respite-lost": "{player} rolls {die}: no luck",
        "caller.explodes": "{player} explodes! The game is over",
        "caller.explodes.rolls": "{player} explodes! Time for the End-of-Game rolls",
        "caller.end-roll.loss": (
            "{player} rolls {total}: {loss, plural, one {# level} other {# levels}} lost, "
            "Mastery {after}"
        ),
        "caller.end-roll.kept": "{player} rolls {total}: Mastery kept at {after}",
        "caller.end-roll.held": (
            "{player} holds {held, plural, =0 {no CRITICAL THRESHOLD! card} one {# CRITICAL "
            "THRESHOLD! card} other {# CRITICAL THRESHOLD! cards}}"
        ),
        "caller.round": "Round {round}: shuffle and deal; {player} starts",
        "caller.direction.clockwise": "Play goes clockwise",
        "caller.direction.counter-clockwise": "Play goes counter-clockwise",
        "caller.reshuffle": "Shuffle the played cards into a new draw pile",
    },
    "fr": {
        "caller.turn": "Au tour de {player}, Pression {pressure}",
        "caller.card": "le {value:+d} de {player}",
        "caller.threshold": (
            "Seuil {threshold} ! {player} perd {loss, plural, one {# niveau} other "
            "{# niveaux}} de Maîtrise, il lui en reste {after}"
        ),
        "caller.respite": "Répit à {pressure} : {player}, lancez un d6 pour battre {mastery}",
        "caller.respite-won": "{player} fait {die} : un niveau de regagné, Maîtrise {after}",
        "caller.respite-lost": "{player} fait {die} : pas de chance",
        "caller.explodes": "{player} explose ! La partie est finie",
        "caller.explodes.rolls": "{player} explose ! Place aux lancers de fin de partie",
        "caller.end-roll.loss": (
            "{player} fait {total} : {loss, plural, one {# niveau perdu} other "
            "{# niveaux perdus}}, Maîtrise {after}"
        ),
        "caller.end-roll.kept": "{player} fait {total} : Maîtrise gardée à {after}",
        "caller.end-roll.held": (
            "{held, plural, =0 {{player} n'a aucune carte SEUIL CRITIQUE !} one {{player} a "
            "# carte SEUIL CRITIQUE !} other {{player} a # cartes SEUIL CRITIQUE !}}"
        ),
        "caller.round": "Manche {round} : mélangez et distribuez ; {player} commence",
        "caller.direction.clockwise": "Le jeu tourne dans le sens des aiguilles d'une montre",
        "caller.direction.counter-clockwise": (
            "Le jeu tourne dans le sens inverse des aiguilles d'une montre"
        ),
        "caller.reshuffle": "Mélangez les cartes jouées en une nouvelle pioche",
    },
    "it": {
        "caller.turn": "Tocca a {player}, Pressione {pressure}",
        "caller.card": "il {value:+d} di {player}",
        "caller.threshold": (
            "Soglia {threshold}! {player} perde {loss, plural, one {# livello} other "
            "{# livelli}} di Controllo, ne restano {after}"
        ),
        "caller.respite": "Tregua a {pressure}: {player}, tira un d6 e batti {mastery}",
        "caller.respite-won": "{player} fa {die}: recupera un livello, Controllo {after}",
        "caller.respite-lost": "{player} fa {die}: niente da fare",
        "caller.explodes": "{player} esplode! La partita è finita",
        "caller.explodes.rolls": "{player} esplode! Ora i tiri di fine partita",
        "caller.end-roll.loss": (
            "{player} fa {total}: {loss, plural, one {# livello perso} other "
            "{# livelli persi}}, Controllo {after}"
        ),
        "caller.end-roll.kept": "{player} fa {total}: il Controllo resta a {after}",
        "caller.end-roll.held": (
            "{held, plural, =0 {{player} non ha nessuna carta SOGLIA CRITICA!} one {{player} ha"
            " # carta SOGLIA CRITICA!} other {{player} ha # carte SOGLIA CRITICA!}}"
        ),
        "caller.round": "Mano {round}: mescolate e distribuite; inizia {player}",
        "caller.direction.clockwise": "Si gioca in senso orario",
        "caller.direction.counter-clockwise": "Si gioca in senso antiorario",
        "caller.reshuffle": "Mescolate le carte giocate in un nuovo mazzo",
    },
}
