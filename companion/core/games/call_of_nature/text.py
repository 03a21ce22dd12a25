"""The labels and sentences of Call of Nature in every language the companion speaks.

Keys follow :mod:`companion.core.text`; ``board.*`` are the panel board's
phrases.  Italian falls back to English until it is written.
"""

from __future__ import annotations

from ...text import Phrases
from .caller import CALLER
from .refusals import REFUSALS

TEXT: Phrases = {
    "en": {
        "board.chart": "Pressure over the game",
        "board.chart_axis": "{n, plural, one {# change} other {# changes}}",
        "board.clockwise": "clockwise",
        "board.counter": "counter-clockwise",
        "choice.clockwise": "clockwise",
        "choice.counter-clockwise": "counter-clockwise",
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
        # The events' sentences, as the game says them in English (the
        # engines write their own; these are the translators' source).
        "event.direction-changed": "The direction of play reverses",
        "event.mastery-lost": "{player}'s Mastery {before} → {after}",
        "event.player-eliminated": "{player} explodes and is out of the game. End of the game!",
        "event.pressure-changed": "{player} plays {value:+d}: pressure {after}",
        "event.reshuffle-needed": (
            "Draw pile empty: shuffle the {cards} played cards. The pressure stays {pressure}."
        ),
        "event.respite": (
            "Respite at {pressure}: {player} rolls a d6; more than their Mastery {mastery} gives 1 "
            "level back"
        ),
        "event.round-ended": (
            "New round ({round}): pressure back to 0, shuffle and deal. {player} starts."
        ),
        "event.special-played": "{player} plays {card}: pressure stays {pressure}",
        "event.threshold-fired": (
            "Threshold {threshold} fired: {player} loses {loss} Mastery ({before} → {after})"
        ),
        "event.threshold-fired.other": "Threshold {threshold} fired: {player} loses {loss} Mastery",
        "event.correction.set-pressure": "Correction: pressure {before} → {after}",
        "event.correction.adjust-mastery": "Correction: {player}'s Mastery {before} → {after}",
        "event.correction.skip": "Correction: {player} is skipped",
        "event.correction.new-round": "Correction: a new round starts by hand, {player} starts",
        "event.correction.set-draw-pile": "Correction: draw pile {before} → {after} cards",
        "event.end-roll": (
            "{player} rolls {dice}: total {total}. {total, select, 2 {It's a disaster!} 3 {Bad "
            "luck!} 4 {Too bad!} 5 {Ohhh...} other {Bravo, you have saved your dignity!}} {loss, "
            "plural, =0 {{player} keeps Mastery {after}} one {{player} loses # level of Mastery "
            "({before} → {after})} other {{player} loses # levels of Mastery ({before} → {after})}}"
        ),
        "event.end-roll.other": (
            "{player} holds {held, plural, =0 {no CRITICAL THRESHOLD! card} one {# CRITICAL "
            "THRESHOLD! card} other {# CRITICAL THRESHOLD! cards}}"
        ),
        "event.game-over": "Game over: {winners} wins",
        "event.note": "Note: {text}",
        "event.respite-rolled.true": (
            "{player} rolls {die} at the Respite: more than their Mastery {before}, 1 level back "
            "({before} → {after})"
        ),
        "event.respite-rolled.false": (
            "{player} rolls {die} at the Respite: not more than their Mastery {before}, nothing "
            "happens"
        ),
        "event.turn": "{player}'s turn",
        "title": "Call of Nature",
        # The game's record, as the statistics name it.
        "record": "highest Pressure survived",
        # The command line's sentences and columns of the state (companion state).
        "state.line.pressure": "Pressure {pressure}",
        "state.line.next-threshold": "the next threshold, at {threshold}, costs {cost} Mastery",
        "state.line.next-respite": "the next Respite is at {respite}",
        "state.line.round": "Round {round}",
        "state.line.round-direction": "Round {round}, play goes {direction}",
        "state.line.piles": (
            "{draw, plural, one {# card} other {# cards}} in the draw pile, {played} played"
        ),
        "state.line.phase": "Phase: {phase}",
        "state.column.mastery": "Mastery",
        "state.flag.out": "out",
        "state.phase.play": "play",
        "state.phase.respite": "respite",
        "state.phase.end-rolls": "end rolls",
        "state.phase.over": "over",
        "state.direction.clockwise": "clockwise",
        "state.direction.counter-clockwise": "counter-clockwise",
        "variant.beginners-deck": "Beginners' deck",
        "variant.no-end-roll": "No End of Game roll",
        "variant.no-powerful-cards": "No powerful cards",
        "variant.threshold-cards-in-hand": "Thresholds in hand",
        # The button menu's short names of commands.
        "label.card": "Pressure card",
        "label.special": "Special card",
        "label.held-thresholds": "Thresholds held",
        "label.set-pressure": "Set pressure",
        "label.adjust-mastery": "Adjust Mastery",
        "label.set-draw-pile": "Set draw pile",
        "label.skip": "Skip player",
        "label.reverse": "Reverse direction",
        "label.note": "Note",
    },
    "fr": {
        "board.chart": "La Pression pendant la partie",
        "board.chart_axis": "{n, plural, one {# changement} other {# changements}}",
        "board.clockwise": "sens horaire",
        "board.counter": "sens antihoraire",
        "choice.clockwise": "sens horaire",
        "choice.counter-clockwise": "sens antihoraire",
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
        "event.player-eliminated.rolls": (
            "{player} explose et sort du jeu. Fin de partie : {order} lancent 2d6 pour la fin, "
            "dans cet ordre ({direction})"
        ),
        "event.player-eliminated.no-roll": (
            "{player} explose et sort du jeu. Fin de partie, sans lancer de fin (variante)"
        ),
        "event.pressure-changed": "{player} joue {value:+d} : Pression {after}",
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
        "event.threshold-fired": (
            "Seuil {threshold} franchi : {player} perd {loss} de Maîtrise ({before} → {after})"
        ),
        "event.threshold-fired.other": (
            "Seuil {threshold} franchi : {player} perd {loss} de Maîtrise"
        ),
        "help.adjust-mastery": "Changer la Maîtrise d'un joueur ; 0 est une explosion",
        "help.card": "Jouer une carte Pression : la Pression change de sa valeur",
        "help.new-round": "Nouvelle manche à la main : Pression 0, paquet redistribué",
        "help.note": "Écrire une note dans l'historique",
        "help.reverse": "Inverser le sens du jeu",
        "help.set-draw-pile": "Fixer le nombre de cartes de la pioche",
        "help.set-pressure": "Fixer la Pression ; aucun seuil ni Répit ne se déclenche",
        "help.roll": "Le résultat d'un d6 de Répit ou des 2d6 de fin de partie",
        "help.held-thresholds": (
            "Combien de cartes SEUIL CRITIQUE ! un joueur a en main à la fin"
        ),
        "help.skip": "Le joueur actif passe : le tour continue",
        "help.special": "Jouer une carte spéciale : la Pression ne change pas",
        "title": "Call of Nature",
        # The game's record, as the statistics name it.
        "record": "plus haute Pression tenue",
        # The command line's sentences and columns of the state (companion state).
        "state.line.pressure": "Pression {pressure}",
        "state.line.next-threshold": "le prochain seuil, à {threshold}, coûte {cost} de Maîtrise",
        "state.line.next-respite": "le prochain Répit est à {respite}",
        "state.line.round": "Manche {round}",
        "state.line.round-direction": "Manche {round}, le jeu tourne dans le sens {direction}",
        "state.line.piles": (
            "{draw, plural, one {# carte} other {# cartes}} dans la pioche,"
            " {played, plural, one {# jouée} other {# jouées}}"
        ),
        "state.line.phase": "Phase : {phase}",
        "state.column.mastery": "Maîtrise",
        "state.flag.out": "éliminé",
        "state.phase.play": "jeu",
        "state.phase.respite": "répit",
        "state.phase.end-rolls": "lancers de fin de partie",
        "state.phase.over": "finie",
        "state.direction.clockwise": "horaire",
        "state.direction.counter-clockwise": "antihoraire",
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
        "event.correction.set-pressure": "Correction : Pression {before} → {after}",
        "event.correction.adjust-mastery": "Correction : Maîtrise de {player} {before} → {after}",
        "event.correction.skip": "Correction : {player} est passé",
        "event.correction.new-round": "Correction : nouvelle manche à la main, {player} commence",
        "event.correction.set-draw-pile": "Correction : pioche {before} → {after} cartes",
        # The End of Game roll, and before it the CRITICAL THRESHOLD! cards held.
        "event.end-roll": (
            "{player} lance {dice} : total {total}. {total, select, 2 {C'est la catastrophe !}"
            " 3 {Pas de chance !} 4 {Dommage !} 5 {Ohhh...}"
            " other {Bravo, vous avez sauvé votre dignité !}}"
            " {loss, plural, =0 {{player} garde sa Maîtrise {after}}"
            " other {{player} perd # de Maîtrise ({before} → {after})}}"
        ),
        "event.end-roll.other": (
            "{held, plural, =0 {{player} n'a aucune carte SEUIL CRITIQUE ! en main}"
            " one {{player} a # carte SEUIL CRITIQUE ! en main}"
            " other {{player} a # cartes SEUIL CRITIQUE ! en main}}"
        ),
        "event.game-over": "Fin de partie : {winners} gagne",
        "event.note": "Note : {text}",
        "event.respite-rolled.true": (
            "{player} tire {die} au Répit : plus que sa Maîtrise {before}, regagne 1 niveau "
            "({before} → {after})"
        ),
        "event.respite-rolled.false": (
            "{player} tire {die} au Répit : pas plus que sa Maîtrise {before}, rien ne se "
            "passe"
        ),
        "event.turn": "Au tour de {player}",
        # The button menu's short names of commands.
        "label.card": "Carte Pression",
        "label.special": "Carte spéciale",
        "label.held-thresholds": "Seuils gardés",
        "label.set-pressure": "Fixer la Pression",
        "label.adjust-mastery": "Changer la Maîtrise",
        "label.set-draw-pile": "Fixer la pioche",
        "label.skip": "Passer le joueur",
        "label.reverse": "Inverser le sens",
        "label.note": "Note",
    },
    "it": {
        "board.chart": "La Pressione durante la partita",
        "board.chart_axis": "{n, plural, one {# cambio} other {# cambi}}",
        "board.clockwise": "senso orario",
        "board.counter": "senso antiorario",
        "choice.clockwise": "senso orario",
        "choice.counter-clockwise": "senso antiorario",
        "board.end_of_game": "{name} è esploso: i sopravvissuti tirano per la fine della partita.",
        "board.end_rolled": "ha tirato {dice}: totale {total}, perde {loss}",
        "board.end_waiting": "tira 2d6 per la fine della partita",
        "board.exploded": "è esploso: fuori dal gioco",
        "board.gauge": "La Pressione rispetto alle soglie {thresholds} e alle Tregue {respites}",
        "board.mastery": "Controllo",
        "board.mastery_is": "Controllo {n} su {max}",
        "board.next_respite": "Tregua a {n}",
        "board.next_threshold": "Prossima soglia {n}",
        "board.no_threshold": "Tutte le soglie sono passate",
        "board.piles": "Mazzo {draw} · giocate {played}",
        "board.pressure": "Pressione",
        "board.pressure_is": "Pressione {n}",
        "board.respite_now": "Tregua a {at}: {name} tira un d6",
        "board.round": "Mano {n}",
        "card.critical-threshold": "SOGLIA CRITICA!",
        "card.little-trip-in-the-bushes": "Un giretto tra i cespugli?",
        "card.move-over": "Spostati!",
        "card.perseverance": "PERSEVERANZA!",
        "card.suspense": "Suspense!",
        "card.tighten-the-sphincters": "Stringete gli sfinteri!",
        "card.u-turn": "INVERSIONE!",
        "card.we-are-all-the-same": "Ma sì, siamo tutti uguali!",
        "card.we-are-friends": "Siamo amici, VERO?",
        "command.adjust-mastery": "Cambia un Controllo",
        "command.card": "Gioca",
        "command.held-thresholds": "Carte SOGLIA CRITICA! in mano",
        "command.new-round": "Nuova mano",
        "command.note": "Scrivi una nota",
        "command.reverse": "Inverti il senso",
        "command.roll": "Tira",
        "command.set-draw-pile": "Conta il mazzo",
        "command.set-pressure": "Fissa la Pressione",
        "command.skip": "Salta il giocatore di turno",
        "command.special": "Carta speciale",
        "help.adjust-mastery": "Cambia il Controllo di un giocatore; 0 è un'esplosione",
        "help.card": "Gioca una carta Pressione: la Pressione cambia del suo valore",
        "help.new-round": "Nuova mano a mano: Pressione 0, mazzo ridistribuito",
        "help.note": "Scrivi una nota nella cronologia",
        "help.reverse": "Inverti il senso di gioco",
        "help.set-draw-pile": "Fissa il numero di carte del mazzo",
        "help.set-pressure": "Fissa la Pressione; nessuna soglia né Tregua scatta",
        "help.roll": "Il risultato di un d6 di Tregua o dei 2d6 di fine partita",
        "help.held-thresholds": "Quante carte SOGLIA CRITICA! ha in mano un giocatore alla fine",
        "help.skip": "Il giocatore di turno passa: il turno continua",
        "help.special": "Gioca una carta speciale: la Pressione non cambia",
        "title": "Call of Nature",
        # The game's record, as the statistics name it.
        "record": "Pressione più alta superata",
        # The command line's sentences and columns of the state (companion state).
        "state.line.pressure": "Pressione {pressure}",
        "state.line.next-threshold": "la prossima soglia, a {threshold}, costa {cost} di Controllo",
        "state.line.next-respite": "la prossima Tregua è a {respite}",
        "state.line.round": "Mano {round}",
        "state.line.round-direction": "Mano {round}, si gioca in senso {direction}",
        "state.line.piles": (
            "{draw, plural, one {# carta} other {# carte}} nel mazzo,"
            " {played, plural, one {# giocata} other {# giocate}}"
        ),
        "state.line.phase": "Fase: {phase}",
        "state.column.mastery": "Controllo",
        "state.flag.out": "eliminato",
        "state.phase.play": "gioco",
        "state.phase.respite": "tregua",
        "state.phase.end-rolls": "tiri di fine partita",
        "state.phase.over": "finita",
        "state.direction.clockwise": "orario",
        "state.direction.counter-clockwise": "antiorario",
        "variant.beginners-deck": "Mazzo per principianti",
        "variant.beginners-deck.help": (
            "Togli dal mazzo le sette carte indicate per i principianti."
        ),
        "variant.no-end-roll": "Senza tiro finale",
        "variant.no-end-roll.help": (
            "Nessun tiro di fine partita: decidono i segnalini Controllo così come sono."
        ),
        "variant.no-powerful-cards": "Senza carte potenti",
        "variant.no-powerful-cards.help": (
            "Togli dal mazzo «Un giretto tra i cespugli?» e «Ma sì, siamo tutti uguali!»."
        ),
        "variant.threshold-cards-in-hand": "Soglie in mano",
        "variant.threshold-cards-in-hand.help": (
            "Ogni carta SOGLIA CRITICA! in mano all'esplosione toglie 2 al tiro finale del "
            "suo giocatore (minimo 2)."
        ),
        "event.direction-changed": "Il senso di gioco si inverte",
        "event.mastery-lost": "Controllo di {player}: {before} → {after}",
        "event.player-eliminated": "{player} esplode ed esce dal gioco. Fine della partita!",
        "event.player-eliminated.rolls": (
            "{player} esplode ed esce dal gioco. Fine della partita: {order} tirano 2d6 per la "
            "fine, in quest'ordine ({direction})"
        ),
        "event.player-eliminated.no-roll": (
            "{player} esplode ed esce dal gioco. Fine della partita, senza tiro finale (variante)"
        ),
        "event.pressure-changed": "{player} gioca {value:+d}: Pressione {after}",
        "event.reshuffle-needed": (
            "Mazzo vuoto: mescolate le {cards} carte giocate. La Pressione resta a "
            "{pressure}."
        ),
        "event.respite": (
            "Tregua a {pressure}: {player} tira un d6; più del suo Controllo {mastery} fa "
            "recuperare 1 livello"
        ),
        "event.round-ended": (
            "Nuova mano ({round}): Pressione a 0, mescolate e distribuite. Inizia {player}."
        ),
        "event.special-played": "{player} gioca {card}: la Pressione resta a {pressure}",
        "event.threshold-fired": (
            "Soglia {threshold} superata: {player} perde {loss} di Controllo ({before} → {after})"
        ),
        "event.threshold-fired.other": (
            "Soglia {threshold} superata: {player} perde {loss} di Controllo"
        ),
        "event.correction.set-pressure": "Correzione: Pressione {before} → {after}",
        "event.correction.adjust-mastery": "Correzione: Controllo di {player} {before} → {after}",
        "event.correction.skip": "Correzione: {player} è saltato",
        "event.correction.new-round": "Correzione: nuova mano a mano, inizia {player}",
        "event.correction.set-draw-pile": "Correzione: mazzo {before} → {after} carte",
        # The End of Game roll, and before it the CRITICAL THRESHOLD! cards held.
        "event.end-roll": (
            "{player} tira {dice}: totale {total}. {total, select, 2 {È un disastro!}"
            " 3 {Che sfortuna!} 4 {Peccato!} 5 {Ohhh...}"
            " other {Bravo, hai salvato la tua dignità!}}"
            " {loss, plural, =0 {{player} mantiene il Controllo a {after}}"
            " one {{player} perde # livello di Controllo ({before} → {after})}"
            " other {{player} perde # livelli di Controllo ({before} → {after})}}"
        ),
        "event.end-roll.other": (
            "{held, plural, =0 {{player} non ha nessuna carta SOGLIA CRITICA! in mano}"
            " one {{player} ha # carta SOGLIA CRITICA! in mano}"
            " other {{player} ha # carte SOGLIA CRITICA! in mano}}"
        ),
        "event.game-over": "Fine della partita: vince {winners}",
        "event.note": "Nota: {text}",
        "event.respite-rolled.true": (
            "{player} tira {die} alla Tregua: più del suo Controllo {before}, recupera 1 "
            "livello ({before} → {after})"
        ),
        "event.respite-rolled.false": (
            "{player} tira {die} alla Tregua: non più del suo Controllo {before}, non succede "
            "niente"
        ),
        "event.turn": "Tocca a {player}",
        # The button menu's short names of commands.
        "label.card": "Carta Pressione",
        "label.special": "Carta speciale",
        "label.held-thresholds": "Soglie tenute",
        "label.set-pressure": "Fissa la Pressione",
        "label.adjust-mastery": "Cambia il Controllo",
        "label.set-draw-pile": "Fissa il mazzo",
        "label.skip": "Salta il giocatore",
        "label.reverse": "Inverti il senso",
        "label.note": "Nota",
    },
}

# What the game says when it refuses something.
TEXT = {lang: {**TEXT.get(lang, {}), **REFUSALS[lang], **CALLER[lang]} for lang in REFUSALS}
