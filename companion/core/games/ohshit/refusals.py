"""What OhShit! says when it refuses a card, a correction or a setup, in
every language (``refusal.<name>``; see :mod:`companion.core.errors`).
Merged into the game's ``TEXT``.  Cards are named as printed, a count of
them as ``2 x Épicé`` so that no sentence has to agree with a colour."""

from __future__ import annotations

from typing import Mapping

REFUSALS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "poop.spicy": "spicy",
        "poop.precious": "precious",
        "poop.grassy": "grassy",
        "poop.frosty": "frosty",
        "poop.fruity": "fruity",
        "poop.unicorn": "Unicorn",
        "poop.toilette": "Toilette",
        "poop.constipation": "Constipation",
        "poop.suppositoire": "Suppositoire",
        "refusal.one-card": "1 card",
        "refusal.cards": "{count, plural, one {# card} other {# cards}}",
        "refusal.n-of": "{count} {card}",
        "refusal.pile-of": "{player}'s pile",
        "refusal.the-decharge": "the Décharge",
        "refusal.the-drain": "the Drain",
        "refusal.what-poop": "a {card} poop",
        "refusal.what-card": "a {card}",
        "refusal.what-pile-correction": "a pile correction",
        "refusal.what-constipation-correction": "a Constipation correction",
        "refusal.pile-limit": (
            "{player}'s pile holds {total} poops: a pile never holds more than {most}"
        ),
        "refusal.pile-full": (
            "{player}'s pile holds {total} poops and takes no more; only {player} may add a "
            "sixth, on their own turn"
        ),
        "refusal.pile-would-exceed": (
            "{player}'s pile would hold {total} poops: a pile never holds more than {most}"
        ),
        "refusal.toilette-constipated": (
            "{player} is constipated: a Toilette cannot be played on a constipated player "
            "(a Suppositoire lifts the Constipation)"
        ),
        "refusal.already-constipated": (
            "{player} is already constipated: a second Constipation does nothing; constipate "
            "someone else or play another card"
        ),
        "refusal.nothing-to-remove": (
            "{player}'s pile is empty and {player} is not constipated: a Suppositoire there "
            "has nothing to remove"
        ),
        "refusal.colour-needed": (
            "name the poop the Suppositoire removes: {player}'s pile holds {holds}"
        ),
        "refusal.colour-not-in-pile": (
            "{player}'s pile holds no {card} poop; it holds {holds}"
        ),
        "refusal.pile-same": "{player}'s pile already holds {what}: nothing to correct",
        "refusal.hand-same": "{player}'s hand already holds {what}: nothing to correct",
        "refusal.hand-aside-same": (
            "the hand {player} set aside at their death already holds {what}: nothing to "
            "correct"
        ),
        "refusal.deck-same": "the deck already holds {what}: nothing to correct",
        "refusal.zone-same": "{where} already holds {what}: nothing to correct",
        "refusal.constipated-already": "{player} is already constipated",
        "refusal.constipated-not": "{player} is not constipated",
        "refusal.constipations-face-up": (
            "all {deck} Constipation cards of the deck are face up (in front of players or in "
            "the Drain), so none can be in front of {player}; if the box holds more, correct "
            "the deck first (Corrections, Set the deck)"
        ),
        "refusal.fewer-than-face-up": (
            "{what} are face up on the table, in the Décharge or in the Drain, so the deck "
            "holds at least {count}; if one of those counts is wrong, correct it first"
        ),
        "refusal.fewer-than-face-up.one": (
            "{what} is face up on the table, in the Décharge or in the Drain, so the deck "
            "holds at least {count}; if one of those counts is wrong, correct it first"
        ),
        "refusal.deck-draw-pile-short": (
            "the draw pile holds {draw}, so {count} missing {card} cannot have left it: the "
            "hands hold the rest of the deck, so correct them first (Corrections, Set a hand)"
        ),
        "refusal.already-dead": "{player} is already dead",
        "refusal.not-dead": "{player} is alive; only the dead come back",
        "refusal.empty-hand": (
            "{player} has no card in hand by the companion's count: if {player} holds cards, "
            "correct the count of their hand (Corrections, Set a hand); if not, skip the turn"
        ),
        "refusal.no-card-left": (
            "no {card} card can be in {player}'s hand: all {deck} of the deck are on the "
            "table, in the Décharge or in the Drain; {player} plays another card, or, if the "
            "box holds more, correct the deck (Corrections, Set the deck)"
        ),
        "refusal.dead-player": "{player} is dead: {what} needs a living player ({living})",
        "refusal.more-than-the-deck": (
            "{where} can hold at most {most}: the deck holds {deck} and {elsewhere} are face "
            "up elsewhere; if the box holds more, correct the deck first (Corrections, Set "
            "the deck)"
        ),
        "refusal.more-than-the-deck.one": (
            "{where} can hold at most {most}: the deck holds {deck} and {elsewhere} is face "
            "up elsewhere; if the box holds more, correct the deck first (Corrections, Set "
            "the deck)"
        ),
        "refusal.draw-pile-short": (
            "the draw pile holds {draw}, so {what} cannot come from it (every card is counted "
            "once): lower a count that is too high first, or, if the box holds more cards, "
            "correct the deck (Corrections, Set the deck)"
        ),
        "refusal.deck-not-a-map": "option 'deck' maps card kinds to counts, not {raw}",
        "refusal.unknown-kinds": (
            "unknown card kind(s) {unknown} in option 'deck'; the kinds are: {kinds}"
        ),
        "refusal.kind-count": (
            "option 'deck': {kind} must be a whole number from 0 to {most}, not {raw}"
        ),
        "refusal.one-each": (
            "every player is dealt one {card}: {players} players need at least {players}, "
            "and the deck has {count}"
        ),
        "refusal.deck-too-small": (
            "a deck of {deck} cards cannot deal {hand} to each of {players} players: it needs "
            "at least {least}"
        ),
    },
    "fr": {
        "poop.spicy": "épicé",
        "poop.precious": "précieux",
        "poop.grassy": "herbeux",
        "poop.frosty": "givré",
        "poop.fruity": "fruité",
        "poop.unicorn": "Licorne",
        "poop.toilette": "Toilette",
        "poop.constipation": "Constipation",
        "poop.suppositoire": "Suppositoire",
        "refusal.one-card": "1 carte",
        "refusal.cards": "{count, plural, one {# carte} other {# cartes}}",
        "refusal.n-of": "{count} × {card}",
        "refusal.pile-of": "la pile de {player}",
        "refusal.the-decharge": "la Décharge",
        "refusal.the-drain": "l'Égout",
        "refusal.what-poop": "un caca {card}",
        "refusal.what-card": "une carte {card}",
        "refusal.what-pile-correction": "une correction de pile",
        "refusal.what-constipation-correction": "une correction de Constipation",
        "refusal.pile-limit": (
            "la pile de {player} a {total} cacas : une pile n'en a jamais plus de {most}"
        ),
        "refusal.pile-full": (
            "la pile de {player} a {total} cacas et n'en prend plus ; seul(e) {player} peut "
            "y poser un sixième, à son propre tour"
        ),
        "refusal.pile-would-exceed": (
            "la pile de {player} aurait {total} cacas : une pile n'en a jamais plus de {most}"
        ),
        "refusal.toilette-constipated": (
            "{player} est constipé(e) : on ne joue pas de Toilette sur un joueur constipé "
            "(un Suppositoire lève la Constipation)"
        ),
        "refusal.already-constipated": (
            "{player} est déjà constipé(e) : une deuxième Constipation ne fait rien ; "
            "constipez quelqu'un d'autre ou jouez une autre carte"
        ),
        "refusal.nothing-to-remove": (
            "la pile de {player} est vide et {player} n'est pas constipé(e) : un Suppositoire "
            "n'y a rien à retirer"
        ),
        "refusal.colour-needed": (
            "dites quel caca le Suppositoire retire : la pile de {player} contient {holds}"
        ),
        "refusal.colour-not-in-pile": (
            "la pile de {player} n'a pas de caca {card} ; elle contient {holds}"
        ),
        "refusal.pile-same": "la pile de {player} contient déjà {what} : rien à corriger",
        "refusal.hand-same": "la main de {player} a déjà {what} : rien à corriger",
        "refusal.hand-aside-same": (
            "la main mise de côté à la mort de {player} a déjà {what} : rien à corriger"
        ),
        "refusal.deck-same": "le paquet contient déjà {what} : rien à corriger",
        "refusal.zone-same": "{where} contient déjà {what} : rien à corriger",
        "refusal.constipated-already": "{player} est déjà constipé(e)",
        "refusal.constipated-not": "{player} n'est pas constipé(e)",
        "refusal.constipations-face-up": (
            "les {deck} cartes Constipation du paquet sont toutes visibles (devant des joueurs "
            "ou dans l'Égout), aucune ne peut donc être devant {player} ; si la boîte en a "
            "plus, corrigez d'abord le paquet (Corrections, Fixer le paquet)"
        ),
        "refusal.fewer-than-face-up": (
            "{what} sont visibles sur la table, dans la Décharge ou dans l'Égout : le paquet "
            "en contient donc au moins {count} ; si l'un de ces comptes est faux, corrigez-le "
            "d'abord"
        ),
        "refusal.fewer-than-face-up.one": (
            "{what} est visible sur la table, dans la Décharge ou dans l'Égout : le paquet "
            "en contient donc au moins {count} ; si ce compte est faux, corrigez-le d'abord"
        ),
        "refusal.deck-draw-pile-short": (
            "la pioche a {draw} : {count} × {card} manquants ne peuvent pas en être sortis ; "
            "les mains ont le reste du paquet, corrigez-les d'abord (Corrections, Fixer une main)"
        ),
        "refusal.already-dead": "{player} est déjà mort(e)",
        "refusal.not-dead": "{player} est vivant(e) ; seuls les morts reviennent",
        "refusal.empty-hand": (
            "{player} n'a aucune carte en main selon le compagnon : si {player} a des cartes, "
            "corrigez le compte de sa main (Corrections, Fixer une main) ; sinon, passez son tour"
        ),
        "refusal.no-card-left": (
            "aucune carte {card} ne peut être dans la main de {player} : les {deck} du paquet "
            "sont sur la table, dans la Décharge ou dans l'Égout ; {player} joue une autre "
            "carte ou, si la boîte en a plus, corrigez le paquet (Corrections, Fixer le paquet)"
        ),
        "refusal.dead-player": (
            "{player} est mort(e) : {what} demande un joueur vivant ({living})"
        ),
        "refusal.more-than-the-deck": (
            "{where} peut contenir au plus {most} : le paquet en a {deck} et {elsewhere} sont "
            "déjà visibles ailleurs ; si la boîte en a plus, corrigez d'abord le paquet "
            "(Corrections, Fixer le paquet)"
        ),
        "refusal.more-than-the-deck.one": (
            "{where} peut contenir au plus {most} : le paquet en a {deck} et {elsewhere} est "
            "déjà visible ailleurs ; si la boîte en a plus, corrigez d'abord le paquet "
            "(Corrections, Fixer le paquet)"
        ),
        "refusal.draw-pile-short": (
            "la pioche a {draw} : {what} ne peuvent pas en venir (chaque carte compte une "
            "fois) ; baissez d'abord un compte trop haut ou, si la boîte a plus de cartes, "
            "corrigez le paquet (Corrections, Fixer le paquet)"
        ),
        "refusal.deck-not-a-map": (
            "l'option « deck » associe des sortes de cartes à des nombres, pas {raw}"
        ),
        "refusal.unknown-kinds": (
            "sorte(s) de carte inconnue(s) {unknown} dans l'option « deck » ; les sortes "
            "sont : {kinds}"
        ),
        "refusal.kind-count": (
            "option « deck » : {kind} doit être un nombre entier de 0 à {most}, pas {raw}"
        ),
        "refusal.one-each": (
            "chaque joueur reçoit une carte {card} : {players} joueurs en demandent au moins "
            "{players}, et le paquet en a {count}"
        ),
        "refusal.deck-too-small": (
            "un paquet de {deck} cartes ne peut pas en donner {hand} à chacun des {players} "
            "joueurs : il en faut au moins {least}"
        ),
    },
    "it": {
        "poop.spicy": "piccante",
        "poop.precious": "preziosa",
        "poop.grassy": "erbosa",
        "poop.frosty": "ghiacciata",
        "poop.fruity": "fruttata",
        "poop.unicorn": "Unicorno",
        "poop.toilette": "Toilette",
        "poop.constipation": "Stitichezza",
        "poop.suppositoire": "Supposta",
        "refusal.one-card": "1 carta",
        "refusal.cards": "{count, plural, one {# carta} other {# carte}}",
        "refusal.n-of": "{count} × {card}",
        "refusal.pile-of": "la pila di {player}",
        "refusal.the-decharge": "la Discarica",
        "refusal.the-drain": "la Fogna",
        "refusal.what-poop": "una cacca {card}",
        "refusal.what-card": "una carta {card}",
        "refusal.what-pile-correction": "una correzione di pila",
        "refusal.what-constipation-correction": "una correzione di Stitichezza",
        "refusal.pile-limit": (
            "la pila di {player} ha {total} cacche: una pila non ne ha mai più di {most}"
        ),
        "refusal.pile-full": (
            "la pila di {player} ha {total} cacche e non ne prende altre; solo {player} può "
            "aggiungere la sesta, nel proprio turno"
        ),
        "refusal.pile-would-exceed": (
            "la pila di {player} avrebbe {total} cacche: una pila non ne ha mai più di {most}"
        ),
        "refusal.toilette-constipated": (
            "{player} è stitico: una Toilette non si gioca su un giocatore stitico (una "
            "Supposta toglie la Stitichezza)"
        ),
        "refusal.already-constipated": (
            "{player} è già stitico: una seconda Stitichezza non fa niente; rendi stitico "
            "qualcun altro o gioca un'altra carta"
        ),
        "refusal.nothing-to-remove": (
            "la pila di {player} è vuota e {player} non è stitico: una Supposta lì non ha "
            "niente da togliere"
        ),
        "refusal.colour-needed": (
            "di' quale cacca toglie la Supposta: la pila di {player} ha {holds}"
        ),
        "refusal.colour-not-in-pile": (
            "la pila di {player} non ha nessuna cacca {card}; ha {holds}"
        ),
        "refusal.pile-same": "la pila di {player} ha già {what}: niente da correggere",
        "refusal.hand-same": "la mano di {player} ha già {what}: niente da correggere",
        "refusal.hand-aside-same": (
            "la mano messa da parte alla morte di {player} ha già {what}: niente da correggere"
        ),
        "refusal.deck-same": "il mazzo ha già {what}: niente da correggere",
        "refusal.zone-same": "{where} ha già {what}: niente da correggere",
        "refusal.constipated-already": "{player} è già stitico",
        "refusal.constipated-not": "{player} non è stitico",
        "refusal.constipations-face-up": (
            "tutte le {deck} carte Stitichezza del mazzo sono scoperte (davanti ai giocatori o "
            "nella Fogna), quindi nessuna può essere davanti a {player}; se la scatola ne ha "
            "di più, correggi prima il mazzo (Correzioni, Fissa il mazzo)"
        ),
        "refusal.fewer-than-face-up": (
            "{what} sono scoperte sul tavolo, in Discarica o nella Fogna, quindi il mazzo ne "
            "ha almeno {count}; se uno di questi conti è sbagliato, correggilo prima"
        ),
        "refusal.fewer-than-face-up.one": (
            "{what} è scoperta sul tavolo, in Discarica o nella Fogna, quindi il mazzo ne "
            "ha almeno {count}; se questo conto è sbagliato, correggilo prima"
        ),
        "refusal.deck-draw-pile-short": (
            "il mazzo da pesca ha {draw}: {count} × {card} mancanti non possono esserne "
            "uscite; le mani hanno il resto del mazzo, correggile prima (Correzioni, Fissa una "
            "mano)"
        ),
        "refusal.already-dead": "{player} è già morto",
        "refusal.not-dead": "{player} è vivo; solo i morti tornano",
        "refusal.empty-hand": (
            "{player} non ha carte in mano secondo il compagno: se {player} ha delle carte, "
            "correggi il conto della mano (Correzioni, Fissa una mano); altrimenti salta il turno"
        ),
        "refusal.no-card-left": (
            "nessuna carta {card} può essere in mano a {player}: tutte le {deck} del mazzo "
            "sono sul tavolo, in Discarica o nella Fogna; {player} gioca un'altra carta o, se "
            "la scatola ne ha di più, correggi il mazzo (Correzioni, Fissa il mazzo)"
        ),
        "refusal.dead-player": (
            "{player} è morto: {what} richiede un giocatore vivo ({living})"
        ),
        "refusal.more-than-the-deck": (
            "{where} può avere al massimo {most}: il mazzo ne ha {deck} e {elsewhere} sono già "
            "scoperte altrove; se la scatola ne ha di più, correggi prima il mazzo "
            "(Correzioni, Fissa il mazzo)"
        ),
        "refusal.more-than-the-deck.one": (
            "{where} può avere al massimo {most}: il mazzo ne ha {deck} e {elsewhere} è già "
            "scoperta altrove; se la scatola ne ha di più, correggi prima il mazzo "
            "(Correzioni, Fissa il mazzo)"
        ),
        "refusal.draw-pile-short": (
            "il mazzo da pesca ha {draw}, quindi {what} non possono venire da lì (ogni carta "
            "conta una volta): abbassa prima un conto troppo alto o, se la scatola ha più "
            "carte, correggi il mazzo (Correzioni, Fissa il mazzo)"
        ),
        "refusal.deck-not-a-map": (
            "l'opzione 'deck' associa tipi di carta a quantità, non {raw}"
        ),
        "refusal.unknown-kinds": (
            "tipo/i di carta sconosciuto/i {unknown} nell'opzione 'deck'; i tipi sono: {kinds}"
        ),
        "refusal.kind-count": (
            "opzione 'deck': {kind} deve essere un numero intero da 0 a {most}, non {raw}"
        ),
        "refusal.one-each": (
            "ogni giocatore riceve una carta {card}: {players} giocatori ne richiedono almeno "
            "{players}, e il mazzo ne ha {count}"
        ),
        "refusal.deck-too-small": (
            "un mazzo di {deck} carte non può darne {hand} a ciascuno dei {players} giocatori: "
            "ne servono almeno {least}"
        ),
    },
}
