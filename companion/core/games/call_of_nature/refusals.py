"""What Call of Nature says when it refuses a command or a setup, in every
language (``refusal.<name>``; see :mod:`companion.core.errors`).  Merged
into the game's ``TEXT``."""

from __future__ import annotations

from typing import Mapping

REFUSALS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "refusal.not-their-turn": "it is not {player}'s turn for {what}; waiting for {waiting}",
        "refusal.card-values": (
            "card values {low}..{high} must run from {least}..0 up to 0..{most} "
            "(the deck has +0 cards)"
        ),
        "refusal.removed-cards": (
            "option 'removed_cards' maps deck variants ({variants}) to a number of cards, "
            "not {raw}"
        ),
        "refusal.deck-size": (
            "a deck of {deck} Pressure cards cannot deal {hand} to each of {players} players "
            "and leave a draw pile: it needs {least} to {most} cards"
        ),
        "refusal.card-not-in-deck": (
            "{card} is not in this deck (taken out by {variants}); the special cards in play "
            "are: {cards}"
        ),
        "refusal.no-roll-now": (
            "no roll is expected now: a roll answers a Respite or the End of Game"
        ),
        "refusal.held-not-now": (
            "CRITICAL THRESHOLD! cards in hand are counted only at the End of Game, once per "
            "player, before their roll"
        ),
        "refusal.held-first": (
            "{player} first says how many CRITICAL THRESHOLD! cards they hold"
        ),
        "refusal.pressure-same": "the pressure is already {value}; nothing to correct",
        "refusal.exploded": (
            "{player} exploded and is out of the game; undo the command that made them "
            "explode if it was a mistake"
        ),
        "refusal.mastery-same": (
            "{player}'s Mastery is {value} and stays within 0..{most}: a change of {change} "
            "corrects nothing"
        ),
        "refusal.draw-pile-same": (
            "the draw pile already has {count, plural, one {# card} other {# cards}};"
            " nothing to correct"
        ),
        "refusal.no-card-now": "no card can be played now; the game waits for: {now}",
        "refusal.for-a-card": "a card",
        "refusal.for-respite-roll": "the Respite roll",
        "refusal.for-end-roll": "the End of Game roll",
        "refusal.end-rolls-correction": (
            "the game is at its End of Game rolls: '{command}' no longer applies; only "
            "{allowed} can correct it now"
        ),
    },
    "fr": {
        "refusal.not-their-turn": (
            "ce n'est pas le tour de {player} pour {what} ; on attend {waiting}"
        ),
        "refusal.card-values": (
            "les valeurs des cartes {low} à {high} doivent aller de {least} à 0 jusqu'à "
            "0 à {most} (le paquet a des cartes +0)"
        ),
        "refusal.removed-cards": (
            "l'option « removed_cards » associe les variantes du paquet ({variants}) à un "
            "nombre de cartes, pas {raw}"
        ),
        "refusal.deck-size": (
            "un paquet de {deck} cartes Pression ne peut pas donner {hand} cartes à chacun des "
            "{players} joueurs et garder une pioche : il lui faut de {least} à {most} cartes"
        ),
        "refusal.card-not-in-deck": (
            "{card} n'est pas dans ce paquet (retirée par {variants}) ; les cartes spéciales "
            "en jeu sont : {cards}"
        ),
        "refusal.no-roll-now": (
            "aucun lancer n'est attendu maintenant : un lancer répond à un Répit ou à la fin "
            "de partie"
        ),
        "refusal.held-not-now": (
            "les cartes SEUIL CRITIQUE ! en main ne se comptent qu'à la fin de partie, une "
            "fois par joueur, avant son lancer"
        ),
        "refusal.held-first": (
            "{player} dit d'abord combien de cartes SEUIL CRITIQUE ! il a en main"
        ),
        "refusal.pressure-same": "la Pression est déjà à {value} ; rien à corriger",
        "refusal.exploded": (
            "{player} a explosé et est hors jeu ; annulez la commande qui l'a fait exploser "
            "si c'était une erreur"
        ),
        "refusal.mastery-same": (
            "la Maîtrise de {player} est à {value} et reste entre 0 et {most} : un changement "
            "de {change} ne corrige rien"
        ),
        "refusal.draw-pile-same": (
            "la pioche a déjà {count, plural, one {# carte} other {# cartes}} ; rien à corriger"
        ),
        "refusal.no-card-now": (
            "aucune carte ne peut être jouée maintenant ; la partie attend : {now}"
        ),
        "refusal.for-a-card": "une carte",
        "refusal.for-respite-roll": "le lancer du Répit",
        "refusal.for-end-roll": "le lancer de fin de partie",
        "refusal.end-rolls-correction": (
            "la partie en est aux lancers de fin : « {command} » ne s'applique plus ; seul "
            "{allowed} peut corriger maintenant"
        ),
    },
    "it": {
        "refusal.not-their-turn": "non è il turno di {player} per {what}; si aspetta {waiting}",
        "refusal.card-values": (
            "i valori delle carte da {low} a {high} devono andare da {least}..0 fino a "
            "0..{most} (il mazzo ha carte +0)"
        ),
        "refusal.removed-cards": (
            "l'opzione 'removed_cards' associa le varianti del mazzo ({variants}) a un numero "
            "di carte, non {raw}"
        ),
        "refusal.deck-size": (
            "un mazzo di {deck} carte Pressione non può dare {hand} carte a ciascuno dei "
            "{players} giocatori e lasciare un mazzo da cui pescare: servono da {least} a "
            "{most} carte"
        ),
        "refusal.card-not-in-deck": (
            "{card} non è in questo mazzo (tolta da {variants}); le carte speciali in gioco "
            "sono: {cards}"
        ),
        "refusal.no-roll-now": (
            "nessun lancio è atteso ora: un lancio risponde a una Tregua o alla fine della "
            "partita"
        ),
        "refusal.held-not-now": (
            "le carte SOGLIA CRITICA! in mano si contano solo alla fine della partita, una "
            "volta per giocatore, prima del suo lancio"
        ),
        "refusal.held-first": (
            "{player} dice prima quante carte SOGLIA CRITICA! ha in mano"
        ),
        "refusal.pressure-same": "la Pressione è già {value}; niente da correggere",
        "refusal.exploded": (
            "{player} è esploso ed è fuori dal gioco; annulla il comando che l'ha fatto "
            "esplodere se era un errore"
        ),
        "refusal.mastery-same": (
            "il Controllo di {player} è {value} e resta fra 0 e {most}: un cambio di {change} "
            "non corregge niente"
        ),
        "refusal.draw-pile-same": (
            "il mazzo ha già {count, plural, one {# carta} other {# carte}}; niente da correggere"
        ),
        "refusal.no-card-now": "nessuna carta si può giocare ora; la partita aspetta: {now}",
        "refusal.for-a-card": "una carta",
        "refusal.for-respite-roll": "il lancio della Tregua",
        "refusal.for-end-roll": "il lancio di fine partita",
        "refusal.end-rolls-correction": (
            "la partita è ai lanci di fine partita: '{command}' non vale più; solo {allowed} "
            "può correggere ora"
        ),
    },
}
