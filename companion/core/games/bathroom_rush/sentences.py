"""What Bathroom Rush says at the table, in English, French and Italian.

Every event and every prompt is a sentence players say, built from a key
and plain data through :func:`companion.core.text.say`, so that a screen
can say it again in its own language from the event's kind and data
(:func:`event_text`).  The data name things, and :func:`render` puts them
into words in the language asked:

- ``persona``: a Persona as :func:`persona_ref` names it: a card's id
  (``elderly-man``), ``colour:orange``, ``name:<as entered>`` or
  ``face-down``; it gives the fields ``{persona}`` and ``{Persona}``;
- ``queue`` and ``position`` (from 1), with ``beside`` (a player's name)
  and ``side`` (``front`` or ``behind``): the field ``{place}``;
- ``pipi`` and ``popo``: ``{tokens}``; ``took_pipi`` and ``took_popo``:
  ``{took}``; ``reserve_pipi`` and ``reserve_popo``: ``{reserve}``.

The cards are named as printed, in Italian, in French too (the cards in the
players' hands are Italian); English names follow the rulebook's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...text import Word, say, term
from .cards import PERSONA_IDS

GAME = "bathroom-rush"

_EN: dict[str, str] = {
    # Persona cards and colours.
    "card.elderly-man": "Elderly Man",
    "card.mother-with-baby": "Mother with Baby",
    "card.avid-reader": "Avid Reader",
    "card.distracted": "Distracted",
    "card.entrepreneur": "Entrepreneur",
    "card.infamous-person": "Infamous Person",
    "card.lost-young-man": "Lost Young Man",
    "colour.neutral": "neutral",
    "colour.orange": "orange",
    "colour.red": "red",
    "colour.yellow": "yellow",
    "persona.face-down": "the face-down Persona",
    "persona.colour": "the {colour} Persona",
    # Places and tokens.
    "place.bathroom": "in the bathroom of queue {queue}",
    "place.position": "at position {position} of queue {queue}",
    "place.front": "{place}, in front of {beside}",
    "place.behind": "{place}, behind {beside}",
    "tokens.pipi": "{n} pipì",
    "tokens.popo": "{n} popò",
    "tokens.and": "{first} and {second}",
    "tokens.none": "no token",
    "tokens.empty": "empty",
    "list.and": "{first} and {last}",
    # Persona effects, as phase D says them.
    "hint.elderly-man": "passes in front of the player he stands behind unless a Queue "
                        "Defence blocks him",
    "hint.mother-with-baby": "passes in front of the player she stands behind unless a "
                             "Queue Defence blocks her",
    "hint.avid-reader": "roll the blue die: that many pipì go on the Persona after him, "
                        "unless a Queue Defence blocks him",
    "hint.distracted": "the player takes a pipì unless a Queue Defence blocks him",
    "hint.entrepreneur": "stays in the bathroom the whole turn; any Action card may be "
                         "played on him",
    "hint.infamous-person": "a Persona card goes on top of it, unless a defensive card is "
                            "played",
    "effect.line": "{persona} {place}",
    "effect.line.hint": "{persona} {place}: {hint}",
    "effect.state.applied": "{line} (done)",
    "effect.state.blocked": "{line} (blocked)",
    "effect.state.passed": "{line} (waits)",
    "effects.resolve": "resolve, in order: {lines}",
    "effects.none": "nothing left",
    # Prompts: what the game waits for.
    "prompt.choose-queue": "{name}: choose a queue ({free}) and stand at its end",
    "prompt.reveal": "Reveal the Persona {place}: enter its pipì, popò and colour",
    "prompt.reveal-kind": "Which Persona is {place}?",
    "prompt.reveal-kind.on-top": "Which Persona lies on top of the Infamous Person {place}?",
    "prompt.reveal.on-top": "Turn up the Persona on top of the Infamous Person {place}: enter "
                            "its pipì, popò and colour",
    "prompt.reveal.count": "Final count: reveal the Persona {place}: enter its pipì, popò "
                           "and colour",
    "prompt.effect.elderly-man": "{name}: {persona} behind you passes in front of you",
    "prompt.effect.mother-with-baby": "{name}: {persona} behind you passes in front of you",
    "prompt.effect.distracted": "{name}: {persona} next to you makes you take a pipì",
    "prompt.effect.avid-reader": "{name}: {persona} {place} leaves his newspaper: roll the "
                                 "blue die for the pipì on the Persona after him",
    "prompt.effect.avid-reader.nobody": "{name}: {persona} {place} leaves his newspaper, but a "
                                        "player is right after him: no effect",
    "prompt.effect.infamous-person": "{name}: a Persona from the deck goes on top of "
                                     "{persona} {place}",
    "prompt.effect.other": "{name}: {persona} {place} acts: do what its card says; the "
                           "tokens it moves with “The effect happens”, the queue under More",
    "prompt.effect.other.no-box": "{name}: {persona} {place} acts: do what its card says; "
                                  "the tokens it moves with “The effect happens”, the queue "
                                  "under More (a box described names each effect)",
    "prompt.defend": "{name}: Queue Defence against {persona}?",
    "prompt.decompress": "{name}: decompress (red die)",
    "prompt.pass": "{name}: pass",
    "prompt.roll.decompress": "{name} decompresses: roll the red die",
    "prompt.end-turn": "{name}: apply {card} with the queue operations, then end the turn",
    "prompt.roll.tie-break": "Tie-break: {name} makes a Decompression roll (red die)",
    "prompt.swap-behind": "A player swaps with the Persona behind",
    "prompt.pass-in-front": "The Persona behind passes in front",
    "prompt.remove-front": "The Persona in front leaves",
    "prompt.remove-behind": "The Persona behind leaves",
    "prompt.change-queue": "A player changes to the free queue",
    "prompt.add-tokens": "Tokens onto a bathroom Persona",
    "prompt.place-permanent": "A permanent card behind a door",
    "prompt.remove-permanent": "A permanent card is discarded",
    "prompt.flip": "A Persona is turned over",
    "prompt.take-tokens": "Tokens into or out of a reserve",
    # Phases.
    "phase.setup": "Choose queues",
    "phase.A": "Reveal Personas",
    "phase.D": "Persona effects",
    "phase.E": "Action, decompress or pass",
    "phase.count": "Final count",
    "phase.tie-break": "Tie-break",
    "phase.over": "Game over",
    # Events: what happened.
    "event.queue-chosen": "{name} stands at the end of queue {queue}",
    "event.persona-drawn": "One more Persona goes behind each player; queue {free_queue} is "
                           "the free queue",
    "event.round": "Round {round}: {name} holds the first-player token",
    "event.turn": "{name}'s turn",
    "event.phase.A": "A: reveal the Personas in the bathrooms and next to the players "
                     "({count} face down)",
    "event.phase.C": "C: {name} draws Action cards up to 4",
    "event.phase.D": "D: {effects}",
    "event.phase.E": "E: {name} plays an Action card, decompresses or passes",
    "event.phase.E.no-effect": "D: no Persona effect to resolve. E: {name} plays an Action "
                               "card, decompresses or passes",
    "event.phase.count": "The final turns are over: final count",
    "event.phase.count.reveal": "Final count: reveal the {count} face-down Personas between "
                                "the players and the doors",
    "event.tokens-placed": "B: {placed}",
    "event.tokens-placed.one": "queue {queue}: {tokens} on {persona}",
    "event.permanent-acts": "{card} behind the door of queue {queue} acts again at the start "
                            "of {name}'s turn",
    "event.revealed": "Revealed {place}: {persona}, {tokens}",
    "event.effect-passed": "{Persona} {place} no longer acts this turn: its effect waits for "
                           "a later turn",
    "event.flipped": "{Persona} ({place}) is turned over: its effect is spent",
    "event.flipped.by-hand": "{Persona} {place} is turned over",
    "event.persona-moved.in-front": "{Persona} passes in front of {name} in queue {queue}",
    "event.persona-moved.gave-up": "{name} gives up their place: {persona} moves ahead in "
                                   "queue {queue}",
    "event.effect-applied": "The effect of {persona} {place} is applied",
    "event.effect-applied.nobody": "{Persona} leaves his newspaper, but a player is right "
                                   "after him: no effect",
    "event.persona-on-top": "A Persona from the deck goes face up on top of {persona} in the "
                            "bathroom of queue {queue}: at the cleanup both cards leave and "
                            "their tokens go to the queue's player",
    "event.tokens-placed.on-top": "Queue {queue}: {tokens} on {persona}, on top of {under}",
    "event.effect-blocked": "{name} plays a Queue Defence: {persona} {place} is blocked",
    "event.action": "{name} plays {card}: apply it with the queue operations, then end the "
                    "turn",
    "event.action.concentration": "{name} plays {card}",
    "event.decompress": "{name} decompresses: roll the red die",
    "event.decompress.concentration": "{name} decompresses with Concentration: roll the red "
                                      "die",
    "event.passed": "{name} passes and discards down to 3 Action cards",
    "event.turn-ended": "{name} discards down to 3 Action cards; the turn is over",
    "event.turn-ended.roll": "{name}'s turn is over; discard down to 3 Action cards",
    "event.persona-replaced": "{Persona} behind {name} leaves the queue; a new face-down "
                              "Persona takes the place",
    "event.tokens-added.reader": "{Persona} leaves his newspaper: {tokens} on {after} at "
                                 "position {position} of queue {queue}",
    "event.tokens-added": "{tokens} added on {persona} {place}: {on_card} on the card",
    "event.decompressed.pipi": "{name} rolls {roll}: discards {gone} pipì",
    "event.decompressed.concentration": "{name} rolls {roll} with Concentration: discards "
                                        "{gone} pipì",
    "event.decompressed.popo": "{name} rolls {roll}: takes one popò",
    "event.reserve-changed.bathroom": "{name} takes {took} from the bathroom of queue "
                                      "{queue}: reserve {reserve}",
    "event.reserve-changed.bathroom.none": (
        "{name} takes no token from the bathroom of queue {queue}: reserve {reserve}"
    ),
    "event.reserve-changed.discards": "{name} discards {gone} pipì: reserve {reserve}",
    "event.reserve-changed.popo": "{name} takes one popò: reserve {reserve}",
    "event.reserve-changed.distracted": "{name} takes a pipì because of {persona}: reserve "
                                        "{reserve}",
    "event.reserve-changed.count": "{name} takes {took} for the {personas} between them and "
                                   "the door of queue {queue}: reserve {reserve}",
    "event.reserve-changed.count.none": (
        "{name} takes no token for the {personas} between them and the door of queue {queue}: "
        "reserve {reserve}"
    ),
    "event.reserve-changed.count-cards": "{name} takes {took} for the {personas} between them "
                                         "and the door of queue {queue} and the permanent "
                                         "cards: reserve {reserve}",
    "event.reserve-changed.count-cards.none": (
        "{name} takes no token for the {personas} between them and the door of queue {queue} and "
        "the permanent cards: reserve {reserve}"
    ),
    "event.reserve-changed.take": "{name} takes {took}: reserve {reserve}",
    "event.reserve-changed.take.none": "{name} takes no token: reserve {reserve}",
    "event.reserve-changed.give": "{name} discards {given}: reserve {reserve}",
    "event.reserve-changed.give.none": "{name} discards no token: reserve {reserve}",
    "event.reserve-changed.both": "{name} takes {took} and discards {given}: reserve "
                                  "{reserve}",
    "event.popo-converted": "Five of {name}'s pipì become one popò",
    "event.popo-converted.many": "Five of {name}'s pipì become one popò ({count} times)",
    "event.player-eliminated": "{name} has {limit} popò and is eliminated",
    "event.player-eliminated.queue": "{name} has {limit} popò and is eliminated: queue "
                                     "{queue} is closed, its door removed and its {personas} "
                                     "discarded",
    "event.limit-reached": "{name} reaches {limit} popò and keeps playing",
    "event.cleanup": "End of round {round}: the players take the tokens of their bathroom; "
                     "the free queue's are discarded",
    "event.tokens-discarded": "Queue {queue} is free: {tokens} discarded",
    "event.queue-advanced": "The {left} bathroom Personas leave and every queue moves up one "
                            "place",
    "event.first-player": "The first-player token passes to {name}",
    "event.final-round.cleanup": "{names} reaches the bathroom as the queues move up: the "
                                 "game ends at once",
    "event.final-round.cleanup-many": "{names} reach the bathroom as the queues move up: the "
                                      "game ends at once",
    "event.final-round": "{name} reaches the bathroom of queue {queue}: the rest of this "
                         "round is the final turns, and only Give Up Your Place, Swap and "
                         "Sneeze may be played against {name}",
    "event.final-round.too": "{name} reaches the bathroom of queue {queue} too",
    "event.tie-break": "{names} are tied at {score}: each makes a Decompression roll (red "
                       "die)",
    "event.tie-break.roll": "Tie-break: {name} rolls {roll}",
    "event.game-over.wins": "{name} wins with {score} (pipì + 5 × popò)",
    "event.game-over.last": "{name} is the last player standing and wins",
    "event.game-over.nobody": "Every player was eliminated: the game has no winner",
    "event.game-over.no-winner": "Every player in contention was eliminated: the game has "
                                 "no winner",
    "event.persona-removed.front": "{Persona} in front of {name} leaves queue {queue}; {name} "
                                   "moves up into the bathroom",
    "event.persona-removed.front-up": "{Persona} in front of {name} leaves queue {queue}; "
                                      "{name} moves up to position {position}",
    "event.persona-removed.behind": "{Persona} behind {name} leaves queue {queue}; the queue "
                                    "behind moves up",
    "event.persona-removed.behind-new": "{Persona} behind {name} leaves queue {queue}; a new "
                                        "face-down Persona takes its place",
    "event.queue-changed": "{name} leaves queue {from} for the end of queue {to}, with a new "
                           "face-down Persona behind; queue {from} is now the free queue",
    "event.permanent-placed": "{card} goes behind the door of queue {queue} ({modifier} at "
                              "the final count)",
    "event.permanent-removed": "{card} is removed from behind the door of queue {queue}",
    "event.deck-reshuffled": "The Persona deck is empty: the {deck} discarded Personas are "
                             "shuffled into a new deck",
    "event.correction.reserve": "Correction: {name}'s reserve is {reserve}",
    "event.correction.tokens": "Correction: {tokens} on {persona} {place}",
    "event.correction.persona": "Correction: the Persona {place} is {persona}, {tokens}",
    "event.correction.unflip": "Correction: {persona} {place} is turned back up",
    "event.note": "{text}",
    "modifier.none": "no change",
    "personas.one": "{n} Persona",
    "personas.many": "{n} Personas",
    "phase.cleanup": "Cleanup",
    "event.phase.cleanup": "End of round {round}: each player takes the tokens of their bathroom",
    "event.phase.count.light": "Final count: each player still queuing takes the tokens between "
                               "them and the door",
    "event.reserve-changed.cleanup": "{name} takes {took} from their bathroom: reserve {reserve}",
    "event.reserve-changed.cleanup.none": (
        "{name} takes no token from their bathroom: reserve {reserve}"
    ),
    "event.reserve-changed.count-light": "{name} takes {took} for the Personas between them and "
                                         "the door: reserve {reserve}",
    "event.reserve-changed.count-light.none": (
        "{name} takes no token for the Personas between them and the door: reserve {reserve}"
    ),
    "event.reached.turn": "{name} reaches the bathroom: the rest of this round is the final turns",
    "event.reached.too": "{name} reaches the bathroom too",
    "event.reached.cleanup": "{name} reaches the bathroom as the queues move up: the game ends "
                             "once the cleanup is done",
    "prompt.end-turn.light": "{name}: end your turn (a card or a pass) or decompress?",
    "prompt.roll.decompress.light": "{name} decompresses? Roll the red die",
    "prompt.bathroom-tokens": "{name}: the tokens you take from your bathroom",
    "prompt.count-tokens": "{name}: the tokens between you and the door",
    "prompt.reached": "{name} reaches the bathroom",
}

_FR: dict[str, str] = {
    "card.elderly-man": "Anziano",
    "card.mother-with-baby": "Mamma con pupo",
    "card.avid-reader": "Avido lettore",
    "card.distracted": "Distratto",
    "card.entrepreneur": "Imprenditore",
    "card.infamous-person": "Infame",
    "card.lost-young-man": "Ragazzo sperduto",
    "colour.neutral": "neutre",
    "colour.orange": "orange",
    "colour.red": "rouge",
    "colour.yellow": "jaune",
    "persona.face-down": "la Persona face cachée",
    "persona.colour": "la Persona {colour}",
    "place.bathroom": "aux toilettes de la file {queue}",
    "place.position": "à la place {position} de la file {queue}",
    "place.front": "{place}, devant {beside}",
    "place.behind": "{place}, derrière {beside}",
    "tokens.pipi": "{n} pipì",
    "tokens.popo": "{n} popò",
    "tokens.and": "{first} et {second}",
    "tokens.none": "aucun jeton",
    "tokens.empty": "vide",
    "list.and": "{first} et {last}",
    "hint.elderly-man": "passe devant le joueur derrière qui il se trouve, sauf Défense de "
                        "file",
    "hint.mother-with-baby": "passe devant le joueur derrière qui elle se trouve, sauf "
                             "Défense de file",
    "hint.avid-reader": "lancez le dé bleu : autant de pipì sur la Persona après lui, sauf "
                        "Défense de file",
    "hint.distracted": "le joueur prend un pipì, sauf Défense de file",
    "hint.entrepreneur": "reste aux toilettes tout le tour ; toute carte Action peut être "
                         "jouée sur lui",
    "hint.infamous-person": "une Persona est posée sur elle, sauf carte de défense",
    "effect.line": "{persona} {place}",
    "effect.line.hint": "{persona} {place} : {hint}",
    "effect.state.applied": "{line} (fait)",
    "effect.state.blocked": "{line} (bloqué)",
    "effect.state.passed": "{line} (attend)",
    "effects.resolve": "à résoudre, dans l'ordre : {lines}",
    "effects.none": "plus rien",
    "prompt.choose-queue": "{name} : choisis une file ({free}) et place-toi au bout",
    "prompt.reveal": "Révélez la Persona {place} : ses pipì, popò et sa couleur",
    "prompt.reveal-kind": "Quelle Persona est {place} ?",
    "prompt.reveal-kind.on-top": "Quelle Persona est posée sur l'Infame {place} ?",
    "prompt.reveal.on-top": "Retournez la Persona posée sur l'Infame {place} : ses pipì, popò "
                            "et sa couleur",
    "prompt.reveal.count": "Décompte final : révélez la Persona {place} : ses pipì, popò et "
                           "sa couleur",
    "prompt.effect.elderly-man": "{name} : {persona} derrière toi passe devant toi",
    "prompt.effect.mother-with-baby": "{name} : {persona} derrière toi passe devant toi",
    "prompt.effect.distracted": "{name} : {persona} à côté de toi te fait prendre un pipì",
    "prompt.effect.avid-reader": "{name} : {persona} {place} laisse son journal : lancez le "
                                 "dé bleu pour les pipì sur la Persona après lui",
    "prompt.effect.avid-reader.nobody": "{name} : {persona} {place} laisse son journal, mais "
                                        "un joueur le suit : aucun effet",
    "prompt.effect.infamous-person": "{name} : une Persona de la pioche est posée sur "
                                     "{persona} {place}",
    "prompt.effect.other": "{name} : {persona} {place} agit : faites ce que dit sa carte ; "
                           "les jetons qu'elle déplace avec « L'effet a lieu », la file sous "
                           "Plus",
    "prompt.effect.other.no-box": "{name} : {persona} {place} agit : faites ce que dit sa "
                                  "carte ; les jetons qu'elle déplace avec « L'effet a lieu », "
                                  "la file sous Plus (une boîte décrite dit chaque effet)",
    "prompt.defend": "{name} : Défense de file contre {persona} ?",
    "prompt.decompress": "{name} : décompresse (dé rouge)",
    "prompt.pass": "{name} : passe",
    "prompt.roll.decompress": "{name} décompresse : lancez le dé rouge",
    "prompt.end-turn": "{name} : applique {card} dans les files, puis finis ton tour",
    "prompt.roll.tie-break": "Départage : {name} fait un jet de Décompression (dé rouge)",
    "prompt.swap-behind": "Un joueur échange avec la Persona derrière",
    "prompt.pass-in-front": "La Persona derrière passe devant",
    "prompt.remove-front": "La Persona devant s'en va",
    "prompt.remove-behind": "La Persona derrière s'en va",
    "prompt.change-queue": "Un joueur passe à la file libre",
    "prompt.add-tokens": "Des jetons sur une Persona aux toilettes",
    "prompt.place-permanent": "Une carte permanente derrière une porte",
    "prompt.remove-permanent": "Une carte permanente est défaussée",
    "prompt.flip": "Une Persona est retournée",
    "prompt.take-tokens": "Des jetons dans ou hors d'une réserve",
    "phase.setup": "Choix des files",
    "phase.A": "Révélation des Personas",
    "phase.D": "Effets des Personas",
    "phase.E": "Action, décompression ou passe",
    "phase.count": "Décompte final",
    "phase.tie-break": "Départage",
    "phase.over": "Partie terminée",
    "event.queue-chosen": "{name} se place au bout de la file {queue}",
    "event.persona-drawn": "Une Persona de plus derrière chaque joueur ; la file "
                           "{free_queue} est la file libre",
    "event.round": "Manche {round} : {name} a le jeton de premier joueur",
    "event.turn": "À {name} de jouer",
    "event.phase.A": "A : révélez les Personas aux toilettes et à côté des joueurs ({count} "
                     "face cachée)",
    "event.phase.C": "C : {name} pioche des cartes Action jusqu'à 4",
    "event.phase.D": "D : {effects}",
    "event.phase.E": "E : {name} joue une carte Action, décompresse ou passe",
    "event.phase.E.no-effect": "D : aucun effet de Persona. E : {name} joue une carte "
                               "Action, décompresse ou passe",
    "event.phase.count": "Les derniers tours sont joués : décompte final",
    "event.phase.count.reveal": "Décompte final : révélez les {count} Personas face cachée "
                                "entre les joueurs et les portes",
    "event.tokens-placed": "B : {placed}",
    "event.tokens-placed.one": "file {queue} : {tokens} sur {persona}",
    "event.permanent-acts": "{card} derrière la porte de la file {queue} agit encore au "
                            "début du tour de {name}",
    "event.revealed": "Révélée {place} : {persona}, {tokens}",
    "event.effect-passed": "{Persona} {place} n'agit plus ce tour-ci : son effet attend un "
                           "prochain tour",
    "event.flipped": "{Persona} ({place}) est retournée : son effet est épuisé",
    "event.flipped.by-hand": "{Persona} {place} est retournée",
    "event.persona-moved.in-front": "{Persona} passe devant {name} dans la file {queue}",
    "event.persona-moved.gave-up": "{name} cède sa place : {persona} avance dans la file "
                                   "{queue}",
    "event.effect-applied": "L'effet de {persona} {place} est appliqué",
    "event.effect-applied.nobody": "{Persona} laisse son journal, mais un joueur le suit : "
                                   "aucun effet",
    "event.persona-on-top": "Une Persona de la pioche est posée face visible sur {persona} "
                            "aux toilettes de la file {queue} : au nettoyage les deux cartes "
                            "s'en vont et leurs jetons vont au joueur de la file",
    "event.tokens-placed.on-top": "File {queue} : {tokens} sur {persona}, posée sur {under}",
    "event.effect-blocked": "{name} joue une Défense de file : {persona} {place} est bloqué",
    "event.action": "{name} joue {card} : appliquez-la dans les files, puis finissez le tour",
    "event.action.concentration": "{name} joue {card}",
    "event.decompress": "{name} décompresse : lancez le dé rouge",
    "event.decompress.concentration": "{name} décompresse avec Concentrazione : lancez le dé "
                                      "rouge",
    "event.passed": "{name} passe et défausse jusqu'à 3 cartes Action",
    "event.turn-ended": "{name} défausse jusqu'à 3 cartes Action ; le tour est fini",
    "event.turn-ended.roll": "Le tour de {name} est fini ; défaussez jusqu'à 3 cartes Action",
    "event.persona-replaced": "{Persona} derrière {name} quitte la file ; une nouvelle "
                              "Persona face cachée prend sa place",
    "event.tokens-added.reader": "{Persona} laisse son journal : {tokens} sur {after} à la "
                                 "place {position} de la file {queue}",
    "event.tokens-added": "{tokens} ajoutés sur {persona} {place} : {on_card} sur la carte",
    "event.decompressed.pipi": "{name} fait {roll} : défausse {gone} pipì",
    "event.decompressed.concentration": "{name} fait {roll} avec Concentrazione : défausse "
                                        "{gone} pipì",
    "event.decompressed.popo": "{name} fait {roll} : prend un popò",
    "event.reserve-changed.bathroom": "{name} prend {took} aux toilettes de la file {queue} : "
                                      "réserve {reserve}",
    "event.reserve-changed.bathroom.none": (
        "{name} ne prend aucun jeton aux toilettes de la file {queue} : réserve {reserve}"
    ),
    "event.reserve-changed.discards": "{name} défausse {gone} pipì : réserve {reserve}",
    "event.reserve-changed.popo": "{name} prend un popò : réserve {reserve}",
    "event.reserve-changed.distracted": "{name} prend un pipì à cause de {persona} : "
                                        "réserve {reserve}",
    "event.reserve-changed.count": "{name} prend {took} pour les {personas} entre lui et la "
                                   "porte de la file {queue} : réserve {reserve}",
    "event.reserve-changed.count.none": (
        "{name} ne prend aucun jeton pour les {personas} entre lui et la porte de la file {queue} "
        ": réserve {reserve}"
    ),
    "event.reserve-changed.count-cards": "{name} prend {took} pour les {personas} entre lui et "
                                         "la porte de la file {queue} et les cartes "
                                         "permanentes : réserve {reserve}",
    "event.reserve-changed.count-cards.none": (
        "{name} ne prend aucun jeton pour les {personas} entre lui et la porte de la file {queue} "
        "et les cartes permanentes : réserve {reserve}"
    ),
    "event.reserve-changed.take": "{name} prend {took} : réserve {reserve}",
    "event.reserve-changed.take.none": "{name} ne prend aucun jeton : réserve {reserve}",
    "event.reserve-changed.give": "{name} défausse {given} : réserve {reserve}",
    "event.reserve-changed.give.none": "{name} ne défausse aucun jeton : réserve {reserve}",
    "event.reserve-changed.both": "{name} prend {took} et défausse {given} : réserve "
                                  "{reserve}",
    "event.popo-converted": "Cinq pipì de {name} deviennent un popò",
    "event.popo-converted.many": "Cinq pipì de {name} deviennent un popò ({count} fois)",
    "event.player-eliminated": "{name} a {limit} popò et est éliminé",
    "event.player-eliminated.queue": "{name} a {limit} popò et est éliminé : la file {queue} "
                                     "est fermée, sa porte retirée et ses {personas} "
                                     "défaussées",
    "event.limit-reached": "{name} atteint {limit} popò et continue de jouer",
    "event.cleanup": "Fin de la manche {round} : chacun prend les jetons de ses toilettes ; "
                     "ceux de la file libre sont défaussés",
    "event.tokens-discarded": "La file {queue} est libre : {tokens} défaussés",
    "event.queue-advanced": "Les {left} Personas aux toilettes s'en vont et chaque file "
                            "avance d'une place",
    "event.first-player": "Le jeton de premier joueur passe à {name}",
    "event.final-round.cleanup": "{names} arrive aux toilettes quand les files avancent : la "
                                 "partie s'arrête aussitôt",
    "event.final-round.cleanup-many": "{names} arrivent aux toilettes quand les files "
                                      "avancent : la partie s'arrête aussitôt",
    "event.final-round": "{name} arrive aux toilettes de la file {queue} : le reste de la "
                         "manche est le dernier tour, et seules Cedi il posto, Scambio et "
                         "Starnuto peuvent être jouées contre {name}",
    "event.final-round.too": "{name} arrive aussi aux toilettes de la file {queue}",
    "event.tie-break": "{names} sont à égalité à {score} : chacun fait un jet de "
                       "Décompression (dé rouge)",
    "event.tie-break.roll": "Départage : {name} fait {roll}",
    "event.game-over.wins": "{name} gagne avec {score} (pipì + 5 × popò)",
    "event.game-over.last": "{name} est le dernier en jeu et gagne",
    "event.game-over.nobody": "Tous les joueurs sont éliminés : la partie n'a pas de gagnant",
    "event.game-over.no-winner": "Tous les joueurs en lice sont éliminés : la partie n'a pas "
                                 "de gagnant",
    "event.persona-removed.front": "{Persona} devant {name} quitte la file {queue} ; {name} "
                                   "entre aux toilettes",
    "event.persona-removed.front-up": "{Persona} devant {name} quitte la file {queue} ; "
                                      "{name} avance à la place {position}",
    "event.persona-removed.behind": "{Persona} derrière {name} quitte la file {queue} ; la "
                                    "file derrière avance",
    "event.persona-removed.behind-new": "{Persona} derrière {name} quitte la file {queue} ; "
                                        "une nouvelle Persona face cachée prend sa place",
    "event.queue-changed": "{name} quitte la file {from} pour le bout de la file {to}, avec "
                           "une nouvelle Persona face cachée derrière ; la file {from} est "
                           "maintenant libre",
    "event.permanent-placed": "{card} va derrière la porte de la file {queue} ({modifier} "
                              "au décompte final)",
    "event.permanent-removed": "{card} est retirée de derrière la porte de la file {queue}",
    "event.deck-reshuffled": "La pioche de Personas est vide : les {deck} Personas "
                             "défaussées forment une nouvelle pioche",
    "event.correction.reserve": "Correction : la réserve de {name} est {reserve}",
    "event.correction.tokens": "Correction : {tokens} sur {persona} {place}",
    "event.correction.persona": "Correction : la Persona {place} est {persona}, {tokens}",
    "event.correction.unflip": "Correction : {persona} {place} est remise à l'endroit",
    "event.note": "{text}",
    "modifier.none": "aucun changement",
    "personas.one": "{n} Persona",
    "personas.many": "{n} Personas",
    "phase.cleanup": "Fin de manche",
    "event.phase.cleanup": "Fin de la manche {round} : chacun prend les jetons de ses toilettes",
    "event.phase.count.light": "Décompte final : chaque joueur encore dans la file prend les "
                               "jetons entre lui et la porte",
    "event.reserve-changed.cleanup": "{name} prend {took} à ses toilettes : réserve {reserve}",
    "event.reserve-changed.cleanup.none": (
        "{name} ne prend aucun jeton à ses toilettes : réserve {reserve}"
    ),
    "event.reserve-changed.count-light": "{name} prend {took} pour les Personas entre lui et la "
                                         "porte : réserve {reserve}",
    "event.reserve-changed.count-light.none": (
        "{name} ne prend aucun jeton pour les Personas entre lui et la porte : réserve {reserve}"
    ),
    "event.reached.turn": "{name} arrive aux toilettes : le reste de la manche est le dernier "
                          "tour",
    "event.reached.too": "{name} arrive aussi aux toilettes",
    "event.reached.cleanup": "{name} arrive aux toilettes quand les files avancent : la partie "
                             "s'arrête une fois la manche close",
    "prompt.end-turn.light": "{name} : finir ton tour (carte ou passe) ou décompresser ?",
    "prompt.roll.decompress.light": "{name} décompresse ? Lancez le dé rouge",
    "prompt.bathroom-tokens": "{name} : les jetons que tu prends à tes toilettes",
    "prompt.count-tokens": "{name} : les jetons entre toi et la porte",
    "prompt.reached": "{name} arrive aux toilettes",
}

_IT: dict[str, str] = {
    "card.elderly-man": "Anziano",
    "card.mother-with-baby": "Mamma con pupo",
    "card.avid-reader": "Avido lettore",
    "card.distracted": "Distratto",
    "card.entrepreneur": "Imprenditore",
    "card.infamous-person": "Infame",
    "card.lost-young-man": "Ragazzo sperduto",
    "colour.neutral": "neutra",
    "colour.orange": "arancione",
    "colour.red": "rossa",
    "colour.yellow": "gialla",
    "persona.face-down": "la Persona coperta",
    "persona.colour": "la Persona {colour}",
    "place.bathroom": "in bagno nella fila {queue}",
    "place.position": "al posto {position} della fila {queue}",
    "place.front": "{place}, davanti a {beside}",
    "place.behind": "{place}, dietro a {beside}",
    "tokens.pipi": "{n} pipì",
    "tokens.popo": "{n} popò",
    "tokens.and": "{first} e {second}",
    "tokens.none": "nessun segnalino",
    "tokens.empty": "vuota",
    "list.and": "{first} e {last}",
    "hint.elderly-man": "passa davanti al giocatore dietro cui si trova, salvo Difesa fila",
    "hint.mother-with-baby": "passa davanti al giocatore dietro cui si trova, salvo Difesa "
                             "fila",
    "hint.avid-reader": "tira il dado blu: tante pipì sulla Persona dopo di lui, salvo "
                        "Difesa fila",
    "hint.distracted": "il giocatore prende una pipì, salvo Difesa fila",
    "hint.entrepreneur": "resta in bagno per tutto il turno; gli si può giocare contro "
                         "qualsiasi carta Azione",
    "hint.infamous-person": "una Persona viene messa sopra di lui, salvo carta di difesa",
    "effect.line": "{persona} {place}",
    "effect.line.hint": "{persona} {place}: {hint}",
    "effect.state.applied": "{line} (fatto)",
    "effect.state.blocked": "{line} (bloccato)",
    "effect.state.passed": "{line} (aspetta)",
    "effects.resolve": "da risolvere, in ordine: {lines}",
    "effects.none": "più niente",
    "prompt.choose-queue": "{name}: scegli una fila ({free}) e mettiti in fondo",
    "prompt.reveal": "Scoprite la Persona {place}: pipì, popò e colore",
    "prompt.reveal-kind": "Quale Persona è {place}?",
    "prompt.reveal-kind.on-top": "Quale Persona sta sopra l'Infame {place}?",
    "prompt.reveal.on-top": "Scoprite la Persona messa sopra l'Infame {place}: pipì, popò e "
                            "colore",
    "prompt.reveal.count": "Conteggio finale: scoprite la Persona {place}: pipì, popò e "
                           "colore",
    "prompt.effect.elderly-man": "{name}: {persona} dietro di te ti passa davanti",
    "prompt.effect.mother-with-baby": "{name}: {persona} dietro di te ti passa davanti",
    "prompt.effect.distracted": "{name}: {persona} accanto a te ti fa prendere una pipì",
    "prompt.effect.avid-reader": "{name}: {persona} {place} lascia il giornale: tira il dado "
                                 "blu per le pipì sulla Persona dopo di lui",
    "prompt.effect.avid-reader.nobody": "{name}: {persona} {place} lascia il giornale, ma "
                                        "dopo di lui c'è un giocatore: nessun effetto",
    "prompt.effect.infamous-person": "{name}: una Persona dal mazzo va sopra {persona} "
                                     "{place}",
    "prompt.effect.other": "{name}: {persona} {place} agisce: fate ciò che dice la carta; "
                           "i gettoni che sposta con «L'effetto avviene», la fila sotto Altro",
    "prompt.effect.other.no-box": "{name}: {persona} {place} agisce: fate ciò che dice la "
                                  "carta; i gettoni che sposta con «L'effetto avviene», la fila "
                                  "sotto Altro (una scatola descritta dice ogni effetto)",
    "prompt.defend": "{name}: Difesa fila contro {persona}?",
    "prompt.decompress": "{name}: decomprimi (dado rosso)",
    "prompt.pass": "{name}: passa",
    "prompt.roll.decompress": "{name} decomprime: tira il dado rosso",
    "prompt.end-turn": "{name}: applica {card} nelle file, poi finisci il turno",
    "prompt.roll.tie-break": "Spareggio: {name} fa un tiro di Decompressione (dado rosso)",
    "prompt.swap-behind": "Un giocatore scambia con la Persona dietro",
    "prompt.pass-in-front": "La Persona dietro passa davanti",
    "prompt.remove-front": "La Persona davanti se ne va",
    "prompt.remove-behind": "La Persona dietro se ne va",
    "prompt.change-queue": "Un giocatore passa alla fila libera",
    "prompt.add-tokens": "Segnalini su una Persona in bagno",
    "prompt.place-permanent": "Una carta permanente dietro una porta",
    "prompt.remove-permanent": "Una carta permanente viene scartata",
    "prompt.flip": "Una Persona viene girata",
    "prompt.take-tokens": "Segnalini dentro o fuori da una riserva",
    "phase.setup": "Scelta delle file",
    "phase.A": "Scoprire le Persone",
    "phase.D": "Effetti delle Persone",
    "phase.E": "Azione, decompressione o passo",
    "phase.count": "Conteggio finale",
    "phase.tie-break": "Spareggio",
    "phase.over": "Partita finita",
    "event.queue-chosen": "{name} si mette in fondo alla fila {queue}",
    "event.persona-drawn": "Una Persona in più dietro ogni giocatore; la fila {free_queue} "
                           "è la fila libera",
    "event.round": "Giro {round}: {name} ha il segnalino di primo giocatore",
    "event.turn": "Tocca a {name}",
    "event.phase.A": "A: scoprite le Persone in bagno e accanto ai giocatori ({count} "
                     "coperte)",
    "event.phase.C": "C: {name} pesca carte Azione fino ad averne 4",
    "event.phase.D": "D: {effects}",
    "event.phase.E": "E: {name} gioca una carta Azione, decomprime o passa",
    "event.phase.E.no-effect": "D: nessun effetto di Persona. E: {name} gioca una carta "
                               "Azione, decomprime o passa",
    "event.phase.count": "Gli ultimi turni sono finiti: conteggio finale",
    "event.phase.count.reveal": "Conteggio finale: scoprite le {count} Persone coperte tra i "
                                "giocatori e le porte",
    "event.tokens-placed": "B: {placed}",
    "event.tokens-placed.one": "fila {queue}: {tokens} su {persona}",
    "event.permanent-acts": "{card} dietro la porta della fila {queue} agisce di nuovo "
                            "all'inizio del turno di {name}",
    "event.revealed": "Scoperta {place}: {persona}, {tokens}",
    "event.effect-passed": "{Persona} {place} non agisce più in questo turno: il suo effetto "
                           "aspetta un turno successivo",
    "event.flipped": "{Persona} ({place}) viene girata: il suo effetto è esaurito",
    "event.flipped.by-hand": "{Persona} {place} viene girata",
    "event.persona-moved.in-front": "{Persona} passa davanti a {name} nella fila {queue}",
    "event.persona-moved.gave-up": "{name} cede il posto: {persona} avanza nella fila "
                                   "{queue}",
    "event.effect-applied": "L'effetto di {persona} {place} è applicato",
    "event.effect-applied.nobody": "{Persona} lascia il giornale, ma dopo di lui c'è un "
                                   "giocatore: nessun effetto",
    "event.persona-on-top": "Una Persona dal mazzo va scoperta sopra {persona} in bagno nella "
                            "fila {queue}: a fine round le due carte escono e i loro segnalini "
                            "vanno al giocatore della fila",
    "event.tokens-placed.on-top": "Fila {queue}: {tokens} su {persona}, sopra {under}",
    "event.effect-blocked": "{name} gioca una Difesa fila: {persona} {place} è bloccato",
    "event.action": "{name} gioca {card}: applicatela nelle file, poi finite il turno",
    "event.action.concentration": "{name} gioca {card}",
    "event.decompress": "{name} decomprime: tira il dado rosso",
    "event.decompress.concentration": "{name} decomprime con Concentrazione: tira il dado "
                                      "rosso",
    "event.passed": "{name} passa e scarta fino a 3 carte Azione",
    "event.turn-ended": "{name} scarta fino a 3 carte Azione; il turno è finito",
    "event.turn-ended.roll": "Il turno di {name} è finito; scarta fino a 3 carte Azione",
    "event.persona-replaced": "{Persona} dietro {name} lascia la fila; una nuova Persona "
                              "coperta prende il posto",
    "event.tokens-added.reader": "{Persona} lascia il giornale: {tokens} su {after} al posto "
                                 "{position} della fila {queue}",
    "event.tokens-added": "{tokens} aggiunti su {persona} {place}: {on_card} sulla carta",
    "event.decompressed.pipi": "{name} fa {roll}: scarta {gone} pipì",
    "event.decompressed.concentration": "{name} fa {roll} con Concentrazione: scarta {gone} "
                                        "pipì",
    "event.decompressed.popo": "{name} fa {roll}: prende una popò",
    "event.reserve-changed.bathroom": "{name} prende {took} dal bagno della fila {queue}: "
                                      "riserva {reserve}",
    "event.reserve-changed.bathroom.none": (
        "{name} non prende nessun segnalino dal bagno della fila {queue}: riserva {reserve}"
    ),
    "event.reserve-changed.discards": "{name} scarta {gone} pipì: riserva {reserve}",
    "event.reserve-changed.popo": "{name} prende una popò: riserva {reserve}",
    "event.reserve-changed.distracted": "{name} prende una pipì per colpa di {persona}: "
                                        "riserva {reserve}",
    "event.reserve-changed.count": "{name} prende {took} per le {personas} tra sé e la porta "
                                   "della fila {queue}: riserva {reserve}",
    "event.reserve-changed.count.none": (
        "{name} non prende nessun segnalino per le {personas} tra sé e la porta della fila "
        "{queue}: riserva {reserve}"
    ),
    "event.reserve-changed.count-cards": "{name} prende {took} per le {personas} tra sé e la "
                                         "porta della fila {queue} e le carte permanenti: "
                                         "riserva {reserve}",
    "event.reserve-changed.count-cards.none": (
        "{name} non prende nessun segnalino per le {personas} tra sé e la porta della fila {queue} "
        "e le carte permanenti: riserva {reserve}"
    ),
    "event.reserve-changed.take": "{name} prende {took}: riserva {reserve}",
    "event.reserve-changed.take.none": "{name} non prende nessun segnalino: riserva {reserve}",
    "event.reserve-changed.give": "{name} scarta {given}: riserva {reserve}",
    "event.reserve-changed.give.none": "{name} non scarta nessun segnalino: riserva {reserve}",
    "event.reserve-changed.both": "{name} prende {took} e scarta {given}: riserva {reserve}",
    "event.popo-converted": "Cinque pipì di {name} diventano una popò",
    "event.popo-converted.many": "Cinque pipì di {name} diventano una popò ({count} volte)",
    "event.player-eliminated": "{name} ha {limit} popò ed è eliminato",
    "event.player-eliminated.queue": "{name} ha {limit} popò ed è eliminato: la fila {queue} "
                                     "è chiusa, la sua porta tolta e le sue {personas} "
                                     "scartate",
    "event.limit-reached": "{name} arriva a {limit} popò e continua a giocare",
    "event.cleanup": "Fine del giro {round}: ognuno prende i segnalini del proprio bagno; "
                     "quelli della fila libera si scartano",
    "event.tokens-discarded": "La fila {queue} è libera: {tokens} scartati",
    "event.queue-advanced": "Le {left} Persone in bagno escono e ogni fila avanza di un "
                            "posto",
    "event.first-player": "Il segnalino di primo giocatore passa a {name}",
    "event.final-round.cleanup": "{names} entra in bagno mentre le file avanzano: la partita "
                                 "finisce subito",
    "event.final-round.cleanup-many": "{names} entrano in bagno mentre le file avanzano: la "
                                      "partita finisce subito",
    "event.final-round": "{name} entra in bagno nella fila {queue}: il resto del giro è "
                         "l'ultimo turno, e contro {name} si possono giocare solo Cedi il "
                         "posto, Scambio e Starnuto",
    "event.final-round.too": "Anche {name} entra in bagno nella fila {queue}",
    "event.tie-break": "{names} sono a pari merito con {score}: ognuno fa un tiro di "
                       "Decompressione (dado rosso)",
    "event.tie-break.roll": "Spareggio: {name} fa {roll}",
    "event.game-over.wins": "{name} vince con {score} (pipì + 5 × popò)",
    "event.game-over.last": "{name} è l'ultimo rimasto e vince",
    "event.game-over.nobody": "Tutti i giocatori sono eliminati: la partita non ha vincitori",
    "event.game-over.no-winner": "Tutti i giocatori in gara sono eliminati: la partita non "
                                 "ha vincitori",
    "event.persona-removed.front": "{Persona} davanti a {name} lascia la fila {queue}; {name} "
                                   "entra in bagno",
    "event.persona-removed.front-up": "{Persona} davanti a {name} lascia la fila {queue}; "
                                      "{name} avanza al posto {position}",
    "event.persona-removed.behind": "{Persona} dietro {name} lascia la fila {queue}; la fila "
                                    "dietro avanza",
    "event.persona-removed.behind-new": "{Persona} dietro {name} lascia la fila {queue}; una "
                                        "nuova Persona coperta prende il suo posto",
    "event.queue-changed": "{name} lascia la fila {from} per il fondo della fila {to}, con "
                           "una nuova Persona coperta dietro; la fila {from} ora è libera",
    "event.permanent-placed": "{card} va dietro la porta della fila {queue} ({modifier} al "
                              "conteggio finale)",
    "event.permanent-removed": "{card} viene tolta da dietro la porta della fila {queue}",
    "event.deck-reshuffled": "Il mazzo delle Persone è finito: le {deck} Persone scartate "
                             "formano un nuovo mazzo",
    "event.correction.reserve": "Correzione: la riserva di {name} è {reserve}",
    "event.correction.tokens": "Correzione: {tokens} su {persona} {place}",
    "event.correction.persona": "Correzione: la Persona {place} è {persona}, {tokens}",
    "event.correction.unflip": "Correzione: {persona} {place} torna scoperta",
    "event.note": "{text}",
    "modifier.none": "nessun cambiamento",
    "personas.one": "{n} Persona",
    "personas.many": "{n} Persone",
    "phase.cleanup": "Fine del giro",
    "event.phase.cleanup": "Fine del giro {round}: ognuno prende i segnalini del proprio bagno",
    "event.phase.count.light": "Conteggio finale: chi è ancora in fila prende i segnalini tra sé "
                               "e la porta",
    "event.reserve-changed.cleanup": "{name} prende {took} dal suo bagno: riserva {reserve}",
    "event.reserve-changed.cleanup.none": (
        "{name} non prende nessun segnalino dal suo bagno: riserva {reserve}"
    ),
    "event.reserve-changed.count-light": "{name} prende {took} per le Persone tra sé e la porta: "
                                         "riserva {reserve}",
    "event.reserve-changed.count-light.none": (
        "{name} non prende nessun segnalino per le Persone tra sé e la porta: riserva {reserve}"
    ),
    "event.reached.turn": "{name} entra in bagno: il resto del giro è l'ultimo turno",
    "event.reached.too": "Anche {name} entra in bagno",
    "event.reached.cleanup": "{name} entra in bagno mentre le file avanzano: la partita finisce a"
                             " giro chiuso",
    "prompt.end-turn.light": "{name}: finire il turno (carta o passo) o decomprimere?",
    "prompt.roll.decompress.light": "{name} decomprime? Tira il dado rosso",
    "prompt.bathroom-tokens": "{name}: i segnalini che prendi dal tuo bagno",
    "prompt.count-tokens": "{name}: i segnalini tra te e la porta",
    "prompt.reached": "{name} entra in bagno",
}

# The Action cards by name (:mod:`.actions`): the cards, the choices they
# leave open, the defences that can answer them, what they did.
_EN_ACTIONS: dict[str, str] = {
    "command.play": "Action card",
    "command.target": "The card strikes",
    "param.play.card": "Card",
    "card.give-up-your-place": "Give Up Your Place",
    "card.cunning": "Cunning",
    "card.change-queue": "Change Queue",
    "card.cleaner": "Cleaner",
    "card.empty-bottle": "Empty Bottle",
    "card.concentration": "Concentration",
    "card.swap": "Swap",
    "card.sneeze": "Sneeze",
    "card.desperate-scream": "Desperate Scream",
    "prompt.play": "{name}: which Action card?",
    "prompt.choose": "{name}: play an Action card, decompress or pass?",
    "prompt.target.give-up-your-place": "{name}: {card} on {target}, queue {queue}?",
    "prompt.target.cunning": "{name}: {card} on {persona} {place}?",
    "prompt.target.cleaner": "{name}: {card} on the bathroom of queue {queue}?",
    "board.tap-target": "Tap the place the card strikes",
    "prompt.defend.give-up-your-place": "{target}: Queue Defence against {name}'s {card}?",
    "prompt.effect.give-up-your-place": "{target}: {name}'s {card}: {persona} behind you "
                                        "passes in front of you — Queue Defence?",
    "prompt.defend.cleaner": "{target}: Bathroom Defence against {name}'s {card}?",
    "prompt.roll.cleaner": "{name}: roll the red die: that many pipì on {persona} in the "
                           "bathroom of queue {queue}, and the permanent cards are discarded",
    "prompt.roll.empty-bottle": "{name}: roll the red die: that many pipì leave your reserve",
    "event.card-played": "{name} plays {card}",
    "event.card-aimed": "{name} plays {card} {place}",
    "event.card-blocked.queue-defence": "{name} plays a Queue Defence: {by}'s {card} is "
                                        "cancelled",
    "event.card-blocked.bathroom-defence": "{name} plays a Bathroom Defence: {by}'s {card} is "
                                           "cancelled",
    "event.cleaned": "The {card} strikes the bathroom of queue {queue}: {name} rolls {roll}, "
                     "{tokens} on {persona} ({on_card} on the card)",
    "event.cleaned.cards": "The {card} strikes the bathroom of queue {queue}: {name} rolls "
                           "{roll}, {tokens} on {persona} ({on_card} on the card); "
                           "{names} discarded from the bathrooms",
    "event.reserve-changed.bottle": "{name} empties a bottle: red die {roll} (the rulebook "
                                    "names no die; the red one is used), discards {gone} "
                                    "pipì: reserve {reserve}",
}

_FR_ACTIONS: dict[str, str] = {
    "command.play": "Carte Action",
    "command.target": "La carte frappe",
    "param.play.card": "Carte",
    "card.give-up-your-place": "Cedi il posto",
    "card.cunning": "Astuzia",
    "card.change-queue": "Cambia fila",
    "card.cleaner": "Addetto alle pulizie",
    "card.empty-bottle": "Bottiglietta vuota",
    "card.concentration": "Concentrazione",
    "card.swap": "Scambio",
    "card.sneeze": "Starnuto",
    "card.desperate-scream": "Urlo disperato",
    "prompt.play": "{name} : quelle carte Action ?",
    "prompt.choose": "{name} : jouer une carte Action, décompresser ou passer ?",
    "prompt.target.give-up-your-place": "{name} : {card} sur {target}, file {queue} ?",
    "prompt.target.cunning": "{name} : {card} sur {persona} {place} ?",
    "prompt.target.cleaner": "{name} : {card} sur les toilettes de la file {queue} ?",
    "board.tap-target": "Touche la place que la carte frappe",
    "prompt.defend.give-up-your-place": "{target} : Défense de file contre le {card} de "
                                        "{name} ?",
    "prompt.effect.give-up-your-place": "{target} : {card} de {name} : {persona} derrière toi "
                                        "passe devant — Défense de file ?",
    "prompt.defend.cleaner": "{target} : Défense des toilettes contre le {card} de {name} ?",
    "prompt.roll.cleaner": "{name} : lance le dé rouge : autant de pipì sur {persona} aux "
                           "toilettes de la file {queue}, et les cartes permanentes sont "
                           "défaussées",
    "prompt.roll.empty-bottle": "{name} : lance le dé rouge : autant de pipì quittent ta "
                                "réserve",
    "event.card-played": "{name} joue {card}",
    "event.card-aimed": "{name} joue {card} {place}",
    "event.card-blocked.queue-defence": "{name} joue une Défense de file : le {card} de {by} "
                                        "est annulé",
    "event.card-blocked.bathroom-defence": "{name} joue une Défense des toilettes : le {card} "
                                           "de {by} est annulé",
    "event.cleaned": "{card} frappe les toilettes de la file {queue} : {name} fait {roll}, "
                     "{tokens} sur {persona} ({on_card} sur la carte)",
    "event.cleaned.cards": "{card} frappe les toilettes de la file {queue} : {name} fait "
                           "{roll}, {tokens} sur {persona} ({on_card} sur la carte) ; {names} "
                           "défaussées des toilettes",
    "event.reserve-changed.bottle": "{name} vide une bouteille : dé rouge {roll} (la règle ne "
                                    "nomme aucun dé ; le rouge est utilisé), défausse {gone} "
                                    "pipì : réserve {reserve}",
}

_IT_ACTIONS: dict[str, str] = {
    "command.play": "Carta Azione",
    "command.target": "La carta colpisce",
    "param.play.card": "Carta",
    "card.give-up-your-place": "Cedi il posto",
    "card.cunning": "Astuzia",
    "card.change-queue": "Cambia fila",
    "card.cleaner": "Addetto alle pulizie",
    "card.empty-bottle": "Bottiglietta vuota",
    "card.concentration": "Concentrazione",
    "card.swap": "Scambio",
    "card.sneeze": "Starnuto",
    "card.desperate-scream": "Urlo disperato",
    "prompt.play": "{name}: quale carta Azione?",
    "prompt.choose": "{name}: giocare una carta Azione, decomprimere o passare?",
    "prompt.target.give-up-your-place": "{name}: {card} su {target}, fila {queue}?",
    "prompt.target.cunning": "{name}: {card} su {persona} {place}?",
    "prompt.target.cleaner": "{name}: {card} sul bagno della fila {queue}?",
    "board.tap-target": "Tocca il posto che la carta colpisce",
    "prompt.defend.give-up-your-place": "{target}: Difesa fila contro {card} di {name}?",
    "prompt.effect.give-up-your-place": "{target}: {card} di {name}: {persona} dietro di te "
                                        "passa davanti — Difesa fila?",
    "prompt.defend.cleaner": "{target}: Difesa bagno contro {card} di {name}?",
    "prompt.roll.cleaner": "{name}: tira il dado rosso: altrettanti pipì su {persona} nel bagno "
                           "della fila {queue}, e le carte permanenti sono scartate",
    "prompt.roll.empty-bottle": "{name}: tira il dado rosso: altrettanti pipì lasciano la tua "
                                "riserva",
    "event.card-played": "{name} gioca {card}",
    "event.card-aimed": "{name} gioca {card} {place}",
    "event.card-blocked.queue-defence": "{name} gioca una Difesa fila: {card} di {by} è "
                                        "annullata",
    "event.card-blocked.bathroom-defence": "{name} gioca una Difesa bagno: {card} di {by} è "
                                           "annullata",
    "event.cleaned": "{card} colpisce il bagno della fila {queue}: {name} tira {roll}, "
                     "{tokens} su {persona} ({on_card} sulla carta)",
    "event.cleaned.cards": "{card} colpisce il bagno della fila {queue}: {name} tira {roll}, "
                           "{tokens} su {persona} ({on_card} sulla carta); {names} scartate dai "
                           "bagni",
    "event.reserve-changed.bottle": "{name} svuota una bottiglietta: dado rosso {roll} (il "
                                    "regolamento non indica il dado; si usa il rosso), scarta "
                                    "{gone} pipì: riserva {reserve}",
}

SENTENCES: dict[str, dict[str, str]] = {"en": {**_EN, **_EN_ACTIONS},
                                        "fr": {**_FR, **_FR_ACTIONS},
                                        "it": {**_IT, **_IT_ACTIONS}}


# -- putting the data into words ---------------------------------------------------


def _say(key: str, lang: str, **fields: Any) -> str:
    return say(key, lang, game=GAME, **fields)


def persona_ref(p: Mapping[str, Any]) -> str:
    """How the data names a Persona (see the module's docstring)."""
    if not p.get("revealed"):
        return "face-down"
    name = p.get("name")
    if name:
        known = PERSONA_IDS.get(_key(name))
        return known if known else f"name:{name}"
    return f"colour:{p.get('colour')}"


def persona_word(p: Mapping[str, Any]) -> Word | str:
    """A Persona as a word of the players' language (for a refusal)."""
    ref = persona_ref(p)
    if ref == "face-down":
        return Word("persona.face-down")
    kind, _, value = ref.partition(":")
    if kind == "colour":
        return Word("persona.colour", colour=Word(f"colour.{value}", default=value))
    if kind == "name":
        return value
    return Word(f"card.{ref}", default=ref)


def spot_word(queue: int, position: int) -> Word:
    """A place in a queue (position 1 is the bathroom) as a word."""
    return Word("place.bathroom" if position == 1 else "place.position", queue=queue,
                position=position)


def card_word(name: str) -> Word:
    """A card a player named, as a word: as named in English (the command
    line's), elsewhere its printed name where it is known."""
    from .cards import card_key

    key = card_key(name).replace("defense", "defence").replace(" ", "-")
    return term(name, f"card.{key}")


def _key(name: str) -> str:
    from .cards import card_key

    return card_key(name)


def persona_words(ref: str, lang: str) -> str:
    if ref == "face-down":
        return _say("persona.face-down", lang)
    kind, _, value = ref.partition(":")
    if kind == "colour":
        return _say("persona.colour", lang, colour=_say(f"colour.{value}", lang))
    if kind == "name":
        return value
    return _say(f"card.{ref}", lang, default=ref)


def place_words(queue: int, position: int, lang: str, *, beside: str | None = None,
                side: str | None = None) -> str:
    key = "place.bathroom" if position == 1 else "place.position"
    text = _say(key, lang, queue=queue, position=position)
    if beside and side in ("front", "behind"):
        text = _say(f"place.{side}", lang, place=text, beside=beside)
    return text


def tokens_words(pipi: int, popo: int, lang: str, *, zero: str = "tokens.none") -> str:
    parts = []
    if pipi:
        parts.append(_say("tokens.pipi", lang, n=pipi))
    if popo:
        parts.append(_say("tokens.popo", lang, n=popo))
    if len(parts) == 2:
        return _say("tokens.and", lang, first=parts[0], second=parts[1])
    return parts[0] if parts else _say(zero, lang)


def names_words(names: list[str], lang: str) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _say("list.and", lang, first=", ".join(names[:-1]), last=names[-1])


def modifier_words(pipi: int, popo: int, lang: str) -> str:
    parts = [f"{v:+d} {word}" for v, word in ((pipi, "pipì"), (popo, "popò")) if v]
    return ", ".join(parts) or _say("modifier.none", lang)


def personas_words(count: int, lang: str) -> str:
    return _say("personas.one" if count == 1 else "personas.many", lang, n=count)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def render(key: str, lang: str, data: Mapping[str, Any]) -> str:
    """The sentence ``key`` in ``lang``, with the words the data name."""
    fields: dict[str, Any] = dict(data)
    if isinstance(data.get("persona"), str):
        fields["persona"] = persona_words(data["persona"], lang)
        fields["Persona"] = cap(fields["persona"])
    if isinstance(data.get("card_id"), str):
        fields["card"] = _say(f"card.{data['card_id']}", lang, default=data.get("card") or "")
    if isinstance(data.get("after"), str):
        fields["after"] = persona_words(data["after"], lang)
    if isinstance(data.get("under"), str):
        fields["under"] = persona_words(data["under"], lang)
    if isinstance(data.get("queue"), int) and isinstance(data.get("position"), int):
        fields["place"] = place_words(data["queue"], data["position"], lang,
                                      beside=data.get("beside"), side=data.get("side"))
    if "pipi" in data or "popo" in data:
        fields["tokens"] = tokens_words(int(data.get("pipi") or 0), int(data.get("popo") or 0),
                                        lang)
    if "took_pipi" in data or "took_popo" in data:
        fields["took"] = tokens_words(max(0, int(data.get("took_pipi") or 0)),
                                      max(0, int(data.get("took_popo") or 0)), lang)
        fields["given"] = tokens_words(max(0, -int(data.get("took_pipi") or 0)),
                                       max(0, -int(data.get("took_popo") or 0)), lang)
        took = (int(data.get("took_pipi") or 0), int(data.get("took_popo") or 0))
        fields["nothing_taken"] = max(took) <= 0
        fields["nothing_given"] = min(took) >= 0
    if "reserve_pipi" in data:
        fields["reserve"] = tokens_words(data["reserve_pipi"], data["reserve_popo"], lang,
                                         zero="tokens.empty")
    if "on_card" in data:
        on_card = data["on_card"]
        fields["on_card"] = tokens_words(int(on_card[0]), int(on_card[1]), lang)
    if isinstance(data.get("names"), list):
        fields["names"] = names_words(data["names"], lang)
    if isinstance(data.get("count_personas"), int):
        fields["personas"] = personas_words(data["count_personas"], lang)
    if "modifier" in data:
        modifier = data["modifier"]
        fields["modifier"] = modifier_words(int(modifier[0]), int(modifier[1]), lang)
    if isinstance(data.get("placed"), list):
        fields["placed"] = "; ".join(render("event.tokens-placed.one", lang, one)
                                     for one in data["placed"])
    if isinstance(data.get("effects"), list):
        fields["effects"] = effects_words(data["effects"], lang)
    # Nothing taken (or given): "Cy takes no token", said as its own
    # sentence (French "ne prend aucun jeton", Italian "non prende nessun...").
    nothing = fields.get("nothing_given" if key.endswith(".give") else "nothing_taken")
    if nothing and key.startswith("event.reserve-changed.") and key + ".none" in _EN:
        key = f"{key}.none"
    return _say(key, lang, **fields)


def effect_line(entry: Mapping[str, Any], lang: str) -> str:
    """One line of phase D's list: the Persona, its place, what it does."""
    ref = entry["persona"]
    hint = _say(f"hint.{ref}", lang, default="") if ":" not in ref else ""
    line = render("effect.line.hint" if hint else "effect.line", lang, {**entry, "hint": hint})
    if entry.get("done"):
        line = _say(f"effect.state.{entry['done']}", lang, line=line)
    return line


def effects_words(lines: list[Mapping[str, Any]], lang: str) -> str:
    listed = "; ".join(effect_line(e, lang) for e in lines) or _say("effects.none", lang)
    return _say("effects.resolve", lang, lines=listed)


def event_key(kind: str, data: Mapping[str, Any]) -> str:
    """The sentence an event says: ``event.<kind>``, or
    ``event.<kind>.<how>`` when its data say how it happened."""
    if kind == "phase":
        how = data.get("how")
        return f"event.phase.{data['phase']}" + (f".{how}" if how else "")
    how = data.get("how")
    return f"event.{kind}.{how}" if how else f"event.{kind}"
