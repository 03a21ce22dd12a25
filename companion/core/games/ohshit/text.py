"""The labels and sentences of OhShit! in every language the companion speaks.  The cards' names
are those printed on the French cards (the rulebook's "épicé", "précieux",
"Licorne"), and their English names.

Keys follow :mod:`companion.core.text`; ``board.*`` are the panel board's
phrases.  Italian falls back to English until it is written.
"""

from __future__ import annotations

from ...text import Phrases
from .caller import CALLER
from .refusals import REFUSALS

TEXT: Phrases = {
    "en": {
        "option.deck": "The deck, card by card",
        "option.deck.help": (
            "The rulebook prints no card list: how many cards of each kind your deck "
            "holds (every player is dealt a Toilette and a Suppositoire)."
        ),
        "board.chart": "Piles",
        "board.constipated": "constipated",
        "board.dead": "dead",
        "board.decharge": "Décharge {n}",
        "board.drain": "Drain {n}",
        "board.draw": "Draw pile {n}",
        "board.hand": "{n, plural, one {# card} other {# cards}} in hand",
        "board.legend": "Poop colours",
        "board.limit": "{n}: full",
        "board.pile_total": "cards in the pile, of {n}",
        "board.poops_only": "poops only",
        "board.turn": "Turn {n}",
        "card.constipation": "Constipation",
        "card.frosty": "Frosty",
        "card.fruity": "Fruity",
        "card.grassy": "Grassy",
        "card.precious": "Precious",
        "card.spicy": "Spicy",
        "card.suppositoire": "Suppositoire",
        "card.toilette": "Toilette",
        "card.unicorn": "Unicorn",
        "command.constipation": "Constipation",
        "command.kill": "A player is out",
        "command.poop": "Poop",
        "command.revive": "Bring a player back",
        "command.set-constipated": "Set a Constipation",
        "command.set-pile": "Set a pile",
        "command.set-hand": "Set a hand",
        "command.set-decharge": "Set the Décharge",
        "command.set-drain": "Set the Drain",
        "command.set-deck": "Set the deck",
        "command.suppositoire": "Suppositoire",
        "command.toilette": "Toilette",
        "param.constipated": "Constipated",
        "param.target": "On whose pile",
        # The events' sentences, as the game says them in English (the
        # engines write their own; these are the translators' source).
        "event.constipated": "{player} constipates {target}",
        "event.constipation-lifted": "{target}'s Constipation is lifted",
        "event.flushed": (
            "{player}'s pile flushes: {count, plural, one {# card goes} other {# cards go}}"
            " to the Décharge, {left} left"
        ),
        "event.flushed.other": "{player}'s pile goes to the Décharge",
        "event.player-died": "{player} dies: their pile goes to the Décharge",
        "event.poop-played": "{player} puts a {colour} poop on {target}'s pile",
        "event.reshuffle": (
            "Draw pile empty: shuffle the {cards} poops of the Décharge into a new draw pile"
        ),
        "event.toilette": "{player} flushes {target}'s pile",
        # A correction's forms, tried in turn: the first its data fill.
        "event.correction.1": "Correction: {player}'s pile holds {count} {colour}, not {before}",
        "event.correction.2": (
            "Correction: {player}'s hand holds {count, plural, one {# card} other {# cards}},"
            " not {before}"
        ),
        "event.correction.true": "Correction: {player} is constipated",
        "event.correction.false": "Correction: {player} is no longer constipated",
        "event.correction.3": "Correction: {count} {kind}, not {before}",
        "event.correction.4": "Correction: the deck holds {count} {card}, not {before}",
        "event.correction.5": "Correction for {player}",
        "event.correction.kill": "Correction: {player} is out of the game",
        "event.correction.revive": (
            "Correction: {player} is back in the game with an empty pile and the cards set aside "
            "at their death"
        ),
        "event.correction.skip": "Correction: {player}'s turn ends without a card",
        "event.draw.false": "{player} draws a card",
        "event.draw.true": "Draw pile and Décharge empty: {player} draws nothing",
        "event.game-over": "Game over: {winners} wins",
        "event.note": "Note: {text}",
        "event.suppository": "{player} gives {target} a Suppositoire",
        "event.turn": "{player}'s turn",
        "title": "OhShit!",
        # The game's record, as the statistics name it.
        "record": "biggest flush",
        # The command line's sentences and columns of the state (companion state).
        "state.line.cards": (
            "{draw, plural, one {# card} other {# cards}} in the draw pile, {decharge} in the "
            "Décharge, {drain} in the Drain"
        ),
        "state.line.turn": "Turn {turn}",
        "state.line.constipations": (
            "{n, plural, one {# Constipation} other {# Constipations}} on the table"
        ),
        "state.line.reshuffles": (
            "the draw pile has been made again {n, plural, one {# time} other {# times}}"
        ),
        "state.line.set-aside": "{n, plural, one {# card} other {# cards}} set aside",
        "state.line.full-pile": "A pile of {n} poops takes no more",
        "state.column.pile": "Pile",
        "state.column.hand": "Hand",
        "state.flag.constipated": "constipated",
        "state.flag.out": "out",
        "state.phase.play": "play",
        "state.phase.over": "over",
        # The button menu's short names of commands.
        "label.constipation": "Constipation",
        "label.set-hand": "Set hand",
        "label.set-decharge": "Set decharge",
        "label.set-drain": "Set drain",
        "label.set-deck": "Set deck",
        "label.toilette": "Toilette",
        "label.suppositoire": "Suppositoire",
        "label.set-pile": "Set pile",
        "label.set-constipated": "Constipated",
        "label.kill": "Player out",
        "label.revive": "Bring back",
        "label.skip": "Skip turn",
    },
    "fr": {
        "option.deck": "Le paquet, carte par carte",
        "option.deck.help": (
            "La règle ne donne pas la liste des cartes : combien de cartes de chaque "
            "sorte votre paquet contient (chaque joueur reçoit une Toilette et un "
            "Suppositoire)."
        ),
        "board.chart": "Les piles",
        "board.constipated": "constipé",
        "board.dead": "mort",
        "board.decharge": "Décharge {n}",
        "board.drain": "Égout {n}",
        "board.draw": "Pioche {n}",
        "board.hand": "{n, plural, one {# carte} other {# cartes}} en main",
        "board.legend": "Couleurs des cacas",
        "board.limit": "{n} : pleine",
        "board.pile_total": "cartes dans la pile, sur {n}",
        "board.poops_only": "cacas seulement",
        "board.turn": "Tour {n}",
        "card.constipation": "Constipation",
        "card.frosty": "Givré",
        "card.fruity": "Fruité",
        "card.grassy": "Herbeux",
        "card.precious": "Précieux",
        "card.spicy": "Épicé",
        "card.suppositoire": "Suppositoire",
        "card.toilette": "Toilette",
        "help.poop": "Poser un caca sur une pile (la sienne comprise)",
        "help.toilette": "Vider une pile dans la Décharge (pas celle d'un joueur constipé)",
        "help.constipation": "Constiper un joueur : sa pile ne se vide plus",
        "help.suppositoire": (
            "Retirer un caca d'une pile, puis lever sa Constipation"
        ),
        "card.unicorn": "Licorne",
        "command.constipation": "Constipation",
        "command.kill": "Un joueur est éliminé",
        "command.note": "Écrire une note",
        "command.poop": "Caca",
        "command.revive": "Faire revenir un joueur",
        "command.set-constipated": "Fixer une Constipation",
        "command.set-pile": "Fixer une pile",
        "command.set-hand": "Fixer une main",
        "command.set-decharge": "Fixer la Décharge",
        "command.set-drain": "Fixer l'Égout",
        "command.set-deck": "Fixer le paquet",
        "command.skip": "Passer le tour",
        "command.suppositoire": "Suppositoire",
        "command.toilette": "Toilette",
        "event.constipated": "{player} constipe {target}",
        "event.constipation-lifted": "La Constipation de {target} est levée",
        "event.flushed": (
            "La pile de {player} se vide : {count, plural, one {# carte part}"
            " other {# cartes partent}} à la Décharge, il en reste {left}"
        ),
        "event.flushed.other": "La pile de {player} part à la Décharge",
        "event.player-died": "{player} meurt : sa pile part à la Décharge",
        "event.poop-played": "{player} pose un caca {colour} sur la pile de {target}",
        "event.reshuffle": (
            "Pioche vide : mélangez les {cards} cacas de la Décharge en une nouvelle pioche"
        ),
        "event.toilette": "{player} tire la chasse de la pile de {target}",
        "param.constipated": "Constipé",
        "param.target": "Sur la pile de",
        # The commands' help, as the panel's sheets show it.
        "help.set-pile": "Fixer combien de cacas d'une couleur une pile contient ; rien ne part",
        "help.set-constipated": "Poser ou retirer une Constipation à la main ; rien ne part",
        "help.set-hand": (
            "Fixer combien de cartes une main contient ; la pioche compense la différence"
        ),
        "help.set-decharge": (
            "Fixer combien de cacas d'une couleur la Décharge contient ; la pioche compense la "
            "différence"
        ),
        "help.set-drain": (
            "Fixer combien de cartes action d'une sorte l'Égout contient ; la pioche compense la "
            "différence"
        ),
        "help.set-deck": (
            "La boîte contient un autre nombre d'une sorte que celui de la mise en place : les "
            "cartes trouvées vont dans la pioche, les manquantes en sortent (cela corrige une "
            "pioche fausse quand tous les autres comptes sont justes)"
        ),
        "help.kill": "Un joueur est éliminé : sa pile part à la Décharge",
        "help.revive": "Ramener un joueur mort, avec une pile vide",
        "help.skip": "Finir le tour du joueur actif sans carte ; le joueur suivant pioche et joue",
        "help.note": "Écrire une note dans l'historique",
        "title": "OhShit!",
        # The game's record, as the statistics name it.
        "record": "plus grosse chasse",
        # The command line's sentences and columns of the state (companion state).
        "state.line.cards": (
            "{draw, plural, one {# carte} other {# cartes}} dans la pioche, {decharge} dans la "
            "Décharge, {drain} dans l'Égout"
        ),
        "state.line.turn": "Tour {turn}",
        "state.line.constipations": (
            "{n, plural, one {# Constipation} other {# Constipations}} sur la table"
        ),
        "state.line.reshuffles": "la pioche a été refaite {n, plural, one {# fois} other {# fois}}",
        "state.line.set-aside": "{n, plural, one {# carte mise} other {# cartes mises}} de côté",
        "state.line.full-pile": "Une pile de {n} cacas n'en prend plus",
        "state.column.pile": "Pile",
        "state.column.hand": "Main",
        "state.flag.constipated": "constipé",
        "state.flag.out": "mort",
        "state.phase.play": "jeu",
        "state.phase.over": "finie",
        "event.correction.1": (
            "Correction : la pile de {player} compte {count} {colour}, pas {before}"
        ),
        "event.correction.2": (
            "Correction : la main de {player} compte"
            " {count, plural, one {# carte} other {# cartes}}, pas {before}"
        ),
        "event.correction.true": "Correction : {player} est constipé",
        "event.correction.false": "Correction : {player} n'est plus constipé",
        "event.correction.3": "Correction : {count} {kind}, pas {before}",
        "event.correction.4": "Correction : le paquet compte {count} {card}, pas {before}",
        "event.correction.5": "Correction pour {player}",
        "event.correction.kill": "Correction : {player} est hors jeu",
        "event.correction.revive": (
            "Correction : {player} revient en jeu avec une pile vide et les cartes mises de côté"
            " à sa mort"
        ),
        "event.correction.skip": "Correction : le tour de {player} finit sans carte",
        "event.draw.false": "{player} pioche une carte",
        "event.draw.true": "Pioche et Décharge vides : {player} ne pioche rien",
        "event.game-over": "Fin de partie : {winners} gagne",
        "event.note": "Note : {text}",
        "event.suppository": "{player} donne un Suppositoire à {target}",
        "event.turn": "Au tour de {player}",
        # The button menu's short names of commands.
        "label.constipation": "Constipation",
        "label.set-hand": "Fixer une main",
        "label.set-decharge": "Fixer la Décharge",
        "label.set-drain": "Fixer l'Égout",
        "label.set-deck": "Fixer la pioche",
        "label.toilette": "Toilette",
        "label.suppositoire": "Suppositoire",
        "label.set-pile": "Fixer une pile",
        "label.set-constipated": "Constipé",
        "label.kill": "Joueur éliminé",
        "label.revive": "Faire revenir",
        "label.skip": "Passer le tour",
    },
    "it": {
        "option.deck": "Il mazzo, carta per carta",
        "option.deck.help": (
            "Il regolamento non dà l'elenco delle carte: quante carte di ogni tipo ha il "
            "tuo mazzo (ogni giocatore riceve una Toilette e una Supposta)."
        ),
        "board.chart": "Le pile",
        "board.constipated": "stitico",
        "board.dead": "morto",
        "board.decharge": "Discarica {n}",
        "board.drain": "Fogna {n}",
        "board.draw": "Mazzo {n}",
        "board.hand": "{n, plural, one {# carta} other {# carte}} in mano",
        "board.legend": "Colori delle cacche",
        "board.limit": "{n}: piena",
        "board.pile_total": "carte nella pila, su {n}",
        "board.poops_only": "solo cacche",
        "board.turn": "Turno {n}",
        "card.constipation": "Stitichezza",
        "card.frosty": "Ghiacciata",
        "card.fruity": "Fruttata",
        "card.grassy": "Erbosa",
        "card.precious": "Preziosa",
        "card.spicy": "Piccante",
        "card.suppositoire": "Supposta",
        "card.toilette": "Toilette",
        "help.poop": "Mettere una cacca su una pila (anche la propria)",
        "help.toilette": "Svuotare una pila nella Discarica (non quella di un giocatore stitico)",
        "help.constipation": "Far diventare stitico un giocatore: la sua pila non si svuota più",
        "help.suppositoire": "Togliere una cacca da una pila, poi la sua Stitichezza",
        "card.unicorn": "Unicorno",
        "command.constipation": "Stitichezza",
        "command.kill": "Un giocatore è eliminato",
        "command.note": "Scrivi una nota",
        "command.poop": "Cacca",
        "command.revive": "Fai tornare un giocatore",
        "command.set-constipated": "Fissa una Stitichezza",
        "command.set-pile": "Fissa una pila",
        "command.set-hand": "Fissa una mano",
        "command.set-decharge": "Fissa la Discarica",
        "command.set-drain": "Fissa la Fogna",
        "command.set-deck": "Fissa il mazzo",
        "command.skip": "Salta il turno",
        "command.suppositoire": "Supposta",
        "command.toilette": "Toilette",
        "event.constipated": "{player} fa venire la stitichezza a {target}",
        "event.constipation-lifted": "La Stitichezza di {target} è tolta",
        "event.flushed": (
            "La pila di {player} si svuota: {count, plural, one {# carta va}"
            " other {# carte vanno}} in Discarica; nella pila: {left}"
        ),
        "event.flushed.other": "La pila di {player} va in Discarica",
        "event.player-died": "{player} muore: la sua pila va in Discarica",
        "event.poop-played": "{player} mette una cacca {colour} sulla pila di {target}",
        "event.reshuffle": (
            "Mazzo vuoto: mescolate le {cards} cacche della Discarica in un nuovo mazzo"
        ),
        "event.toilette": "{player} tira lo sciacquone della pila di {target}",
        "event.correction.1": "Correzione: la pila di {player} ha {count} {colour}, non {before}",
        "event.correction.2": (
            "Correzione: la mano di {player} ha {count, plural, one {# carta} other {# carte}},"
            " non {before}"
        ),
        "event.correction.true": "Correzione: {player} è stitico",
        "event.correction.false": "Correzione: {player} non è più stitico",
        "event.correction.3": "Correzione: {count} {kind}, non {before}",
        "event.correction.4": "Correzione: il mazzo ha {count} {card}, non {before}",
        "event.correction.5": "Correzione per {player}",
        "event.correction.kill": "Correzione: {player} è fuori dal gioco",
        "event.correction.revive": (
            "Correzione: {player} torna in gioco con una pila vuota e le carte messe da parte"
            " alla sua morte"
        ),
        "event.correction.skip": "Correzione: il turno di {player} finisce senza carte",
        "event.draw.false": "{player} pesca una carta",
        "event.draw.true": "Mazzo e Discarica vuoti: {player} non pesca niente",
        "event.game-over": "Fine della partita: vince {winners}",
        "event.note": "Nota: {text}",
        "event.suppository": "{player} dà una Supposta a {target}",
        "event.turn": "Tocca a {player}",
        "param.constipated": "Stitico",
        "param.target": "Sulla pila di",
        # The commands' help, as the panel's sheets show it.
        "help.set-pile": "Fissare quante cacche di un colore ha una pila; niente parte",
        "help.set-constipated": "Mettere o togliere una Stitichezza a mano; niente parte",
        "help.set-hand": "Fissare quante carte ha una mano; il mazzo compensa la differenza",
        "help.set-decharge": (
            "Fissare quante cacche di un colore ha la Discarica; il mazzo compensa la differenza"
        ),
        "help.set-drain": (
            "Fissare quante carte azione di un tipo ha la Fogna; il mazzo compensa la differenza"
        ),
        "help.set-deck": (
            "La scatola ha un altro numero di un tipo rispetto alla preparazione: le carte trovate "
            "vanno nel mazzo, quelle mancanti ne escono (questo corregge un mazzo sbagliato quando "
            "tutti gli altri conti sono giusti)"
        ),
        "help.kill": "Un giocatore è eliminato: la sua pila va nella Discarica",
        "help.revive": "Riportare in gioco un giocatore morto, con una pila vuota",
        "help.skip": (
            "Finire il turno del giocatore attivo senza carte; il giocatore seguente pesca e gioca"
        ),
        "help.note": "Scrivere una nota nella cronologia",
        "title": "OhShit!",
        # The game's record, as the statistics name it.
        "record": "sciacquone più grande",
        # The command line's sentences and columns of the state (companion state).
        "state.line.cards": (
            "{draw, plural, one {# carta} other {# carte}} nel mazzo, {decharge} nella Discarica, "
            "{drain} nella Fogna"
        ),
        "state.line.turn": "Turno {turn}",
        "state.line.constipations": (
            "{n, plural, one {# Stitichezza} other {# Stitichezze}} sul tavolo"
        ),
        "state.line.reshuffles": (
            "il mazzo è stato rifatto {n, plural, one {# volta} other {# volte}}"
        ),
        "state.line.set-aside": "{n, plural, one {# carta messa} other {# carte messe}} da parte",
        "state.line.full-pile": "Una pila di {n} cacche non ne prende altre",
        "state.column.pile": "Pila",
        "state.column.hand": "Mano",
        "state.flag.constipated": "stitico",
        "state.flag.out": "morto",
        "state.phase.play": "gioco",
        "state.phase.over": "finita",
        # The button menu's short names of commands.
        "label.constipation": "Stitichezza",
        "label.set-hand": "Fissa una mano",
        "label.set-decharge": "Fissa la Discarica",
        "label.set-drain": "Fissa la Fogna",
        "label.set-deck": "Fissa il mazzo",
        "label.toilette": "Toilette",
        "label.suppositoire": "Supposta",
        "label.set-pile": "Fissa una pila",
        "label.set-constipated": "Stitico",
        "label.kill": "Giocatore eliminato",
        "label.revive": "Fai tornare",
        "label.skip": "Salta il turno",
    },
}

# What the game says when it refuses something.
TEXT = {lang: {**TEXT.get(lang, {}), **REFUSALS[lang], **CALLER[lang]} for lang in REFUSALS}
