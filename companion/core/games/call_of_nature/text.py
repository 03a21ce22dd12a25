"""The labels and sentences of Call of Nature in every language the companion speaks.

Keys follow :mod:`companion.core.text`; ``board.*`` are the panel board's
phrases.  Italian falls back to English until it is written.
"""

from __future__ import annotations

from ...text import Phrases

TEXT: Phrases = {
    "en": {
        "board.chart": "Pressure over the game",
        "board.chart_axis": "{n} changes",
        "board.clockwise": "clockwise",
        "board.counter": "counter-clockwise",
        "board.end_of_game": "{name} exploded: the survivors roll for the End of Game.",
        "board.end_rolled": "rolled {dice}: total {total}, loses {loss}",
        "board.end_waiting": "rolls 2d6 for the End of Game",
        "board.exploded": "exploded: out of the game",
        "board.gauge": "Pressure against the thresholds {thresholds} and the Respites {respites}",
        "board.mastery": "Mastery",
        "board.mastery_is": "Mastery {n} of {max}",
        "board.next_respite": "Respite at {n}",
        "board.next_threshold": "Next threshold {n}",
        "board.no_threshold": "Every threshold is passed",
        "board.piles": "Draw {draw} · played {played}",
        "board.pressure": "Pressure",
        "board.pressure_is": "Pressure {n}",
        "board.respite_now": "Respite at {at}: {name} rolls a d6",
        "board.round": "Round {n}",
        "card.critical-threshold": "CRITICAL THRESHOLD!",
        "card.little-trip-in-the-bushes": "A Little Trip in the Bushes?",
        "card.move-over": "Move Over!",
        "card.perseverance": "PERSEVERANCE!",
        "card.suspense": "Suspense!",
        "card.tighten-the-sphincters": "Tighten the Sphincters!",
        "card.u-turn": "U-TURN!",
        "card.we-are-all-the-same": "But Yes, We Are All the Same!",
        "card.we-are-friends": "We're Friends, RIGHT?",
        "command.adjust-mastery": "Change a Mastery",
        "command.card": "Play",
        "command.held-thresholds": "CRITICAL THRESHOLD! cards held",
        "command.new-round": "Start a new round",
        "command.reverse": "Reverse the direction",
        "command.roll": "Roll",
        "command.set-draw-pile": "Count the draw pile",
        "command.set-pressure": "Set the Pressure",
        "command.skip": "Skip the active player",
        "command.special": "Special card",
        "title": "Call of Nature",
        "variant.beginners-deck": "Beginners' deck",
        "variant.no-end-roll": "No End of Game roll",
        "variant.no-powerful-cards": "No powerful cards",
        "variant.threshold-cards-in-hand": "Thresholds in hand",
    },
    "fr": {
        "board.chart": "La Pression pendant la partie",
        "board.chart_axis": "{n} changements",
        "board.clockwise": "sens horaire",
        "board.counter": "sens antihoraire",
        "board.end_of_game": "{name} a explosé : les survivants lancent pour la fin de partie.",
        "board.end_rolled": "a tiré {dice} : total {total}, perd {loss}",
        "board.end_waiting": "lance 2d6 pour la fin de partie",
        "board.exploded": "a explosé : hors jeu",
        "board.gauge": "La Pression face aux seuils {thresholds} et aux Répits {respites}",
        "board.mastery": "Maîtrise",
        "board.mastery_is": "Maîtrise {n} sur {max}",
        "board.next_respite": "Répit à {n}",
        "board.next_threshold": "Prochain seuil {n}",
        "board.no_threshold": "Tous les seuils sont passés",
        "board.piles": "Pioche {draw} · jouées {played}",
        "board.pressure": "Pression",
        "board.pressure_is": "Pression {n}",
        "board.respite_now": "Répit à {at} : {name} lance un d6",
        "board.round": "Manche {n}",
        "card.critical-threshold": "SEUIL CRITIQUE !",
        "card.little-trip-in-the-bushes": "Un petit tour dans les buissons ?",
        "card.move-over": "Pousse-toi !",
        "card.perseverance": "PERSÉVÉRANCE !",
        "card.suspense": "Suspense !",
        "card.tighten-the-sphincters": "Serrez les sphincters !",
        "card.u-turn": "DEMI-TOUR !",
        "card.we-are-all-the-same": "Mais oui, on est tous pareils !",
        "card.we-are-friends": "On est amis, HEIN ?",
        "command.adjust-mastery": "Changer une Maîtrise",
        "command.card": "Jouer",
        "command.held-thresholds": "Cartes SEUIL CRITIQUE ! en main",
        "command.new-round": "Nouvelle manche",
        "command.note": "Écrire une note",
        "command.reverse": "Inverser le sens",
        "command.roll": "Lancer",
        "command.set-draw-pile": "Compter la pioche",
        "command.set-pressure": "Fixer la Pression",
        "command.skip": "Passer le joueur actif",
        "command.special": "Carte spéciale",
        "event.direction-changed": "Le sens du jeu s'inverse",
        "event.mastery-lost": "Maîtrise de {player} : {before} → {after}",
        "event.player-eliminated": "{player} explose et sort du jeu. Fin de partie !",
        "event.pressure-changed": "{player} joue {value} : Pression {after}",
        "event.reshuffle-needed": (
            "Pioche vide : mélangez les {cards} cartes jouées. La Pression reste à {pressure}."
        ),
        "event.respite": (
            "Répit à {pressure} : {player} lance un d6 ; plus que sa Maîtrise {mastery} rend 1 "
            "niveau"
        ),
        "event.round-ended": (
            "Nouvelle manche ({round}) : Pression à 0, mélangez et distribuez. {player} commence."
        ),
        "event.special-played": "{player} joue {card} : la Pression reste à {pressure}",
        "event.threshold-fired": "Seuil {threshold} franchi : {player} perd {loss} de Maîtrise",
        "help.adjust-mastery": "Changer la Maîtrise d'un joueur ; 0 est une explosion",
        "help.card": "Jouer une carte Pression : la Pression change de sa valeur",
        "help.new-round": "Nouvelle manche à la main : Pression 0, paquet redistribué",
        "help.note": "Écrire une note dans l'historique",
        "help.reverse": "Inverser le sens du jeu",
        "help.set-draw-pile": "Fixer le nombre de cartes de la pioche",
        "help.set-pressure": "Fixer la Pression ; aucun seuil ni Répit ne se déclenche",
        "help.skip": "Le joueur actif passe : le tour continue",
        "help.special": "Jouer une carte spéciale : la Pression ne change pas",
        "title": "Call of Nature",
        "variant.beginners-deck": "Paquet débutant",
        "variant.beginners-deck.help": (
            "Retirer du paquet les sept cartes listées pour les débutants."
        ),
        "variant.no-end-roll": "Sans lancer de fin",
        "variant.no-end-roll.help": (
            "Pas de lancer de fin de partie : les compteurs de Maîtrise décident tels quels."
        ),
        "variant.no-powerful-cards": "Sans cartes puissantes",
        "variant.no-powerful-cards.help": (
            "Retirer « Un petit tour dans les buissons ? » et « Mais oui, on est tous pareils ! » "
            "du paquet."
        ),
        "variant.threshold-cards-in-hand": "Seuils en main",
        "variant.threshold-cards-in-hand.help": (
            "Chaque carte SEUIL CRITIQUE ! en main à l'explosion retire 2 au lancer de fin de son "
            "joueur (minimum 2)."
        ),
    },
    "it": {},
}
