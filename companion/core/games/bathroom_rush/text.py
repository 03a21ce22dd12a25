"""The labels and sentences of Bathroom Rush in every language the companion speaks.

Keys follow :mod:`companion.core.text`; ``board.*`` are the panel board's
phrases.  Italian falls back to English until it is written.

The sentences players say (prompts, events, the cards' names) are in
:mod:`.sentences`, merged in below.
"""

from __future__ import annotations

from ...text import Phrases
from .caller import CALLER
from .refusals import REFUSALS
from .sentences import SENTENCES

TEXT: Phrases = {
    "en": {
        "choice.neutral": "light blue",
        "choice.orange": "orange",
        "choice.red": "red",
        "choice.yellow": "yellow",
        "board.chart": "Reserves (pipì + 5 × popò)",
        "board.closed": "Queue {q} (closed)",
        "board.deck": "Personas left {n}",
        "board.door": "Bathroom door",
        "board.effects": "Resolve, in order",
        "board.eliminated": "out",
        "board.face_down": "face down",
        "board.final_round": "final round",
        "board.flipped": "turned over",
        "board.free_queue": "Queue {q} · free",
        "board.in_bathroom": "in the bathroom of queue {q}!",
        "board.in_queue": "queue {q}, place {n}",
        "board.limit": "limit {n} popò",
        "board.no_queue": "no queue yet",
        "board.reached": "in the bathroom",
        "board.nobody": "nobody",
        "board.pawn": "{name}, place {n}",
        "board.persona_is": "{pipi} pipì, {popo} popò printed",
        "board.phase.A": "A · reveal",
        "board.phase.D": "D · Persona effects",
        "board.phase.E": "E · action",
        "board.phase.count": "Final count",
        "board.phase.cleanup": "Cleanup",
        "board.phase.over": "Game over",
        "board.phase.setup": "Choosing queues",
        "board.phase.tie-break": "Tie-break",
        "board.queue": "Queue {q}",
        "board.stand_here": "{name}: stand here",
        "board.queues": "Queues, bathroom first",
        "board.reserve_is": "{pipi} pipì, {popo} popò of {limit}",
        "board.round": "Round {n}",
        "board.other_card": "Another card…",
        "board.other_values": "Other values…",
        "board.asks": "{name} — {ask}",
        "board.waiting_for": "Waiting for {names} to turn up a Persona",
        "board.enter_for": "Enter it for {name}",
        "board.cleanup_ask": "Cleanup: each player takes the tokens from their bathroom",
        "board.count_ask": "Final count: the tokens between each player and the door",
        "board.takes_pick": "{name}: how many pipì?",
        "board.takes": "{name} takes {pipi} pipì, {popo} popò",
        "board.entry_again": "Another entry came first: {name}'s is sent again",
        "board.reaches": "{name} reaches the bathroom",
        "board.on_whom": "{name}: {card} on whom?",
        "board.on_top_of": "on top of {name}",
        "board.which_card": "{name}: which Action card?",
        "board.effect_tokens": "Tokens it gives (− takes), if any:",
        "board.effect_gives": "It happens: {name} {pipi} pipì {popo} popò",
        "board.cunning_ask": "{name}: Cunning, which Persona leaves the queue?",
        "board.in_front": "In front of you",
        "board.behind": "Behind you",
        "board.cleaner_ask": "{name}: the Cleaner, on which bathroom?",
        "board.queue_of": "Queue {q} · {name}",
        "board.to_enter": "tokens?",
        "command.add-tokens": "Tokens onto a Persona",
        "command.change-queue": "Change queue",
        "command.choose-queue": "Choose a queue",
        "command.decompress": "Decompress",
        "command.effect": "The effect happens",
        "command.defend": "Queue Defence",
        "command.reveal-kind": "Reveal a kind of the box",
        "command.bathroom-tokens": "Tokens from one's bathroom",
        "command.count-tokens": "Tokens up to the door",
        "command.reached": "Reaches the bathroom",
        "command.end-turn": "End the turn",
        "command.flip": "Turn a Persona over",
        "command.pass": "Pass",
        "command.pass-in-front": "The one behind passes in front",
        "command.place-permanent": "Permanent card at a door",
        "command.remove-behind": "The one behind leaves",
        "command.remove-front": "The one in front leaves",
        "command.remove-permanent": "Discard a permanent card",
        "command.reveal": "Reveal",
        "keys.reveal-ask": "{colour}, {tokens}?",
        "keys.reveal-kind-ask": "{kind}: {tokens}?",
        "keys.place": "queue {queue}, place {position}",
        "keys.bathroom": "queue {queue}, bathroom",
        "command.set-persona": "Correct a Persona",
        "command.set-reserve": "Set a reserve",
        "command.set-tokens": "Set the tokens on a Persona",
        "command.swap-behind": "Swap with the one behind",
        "command.take-tokens": "Tokens into a reserve",
        "command.unflip": "Turn a Persona back",
        "param.name": "Name on the card",
        "param.pipi": "pipì",
        "param.popo": "popò",
        "param.effect.to": "Whose reserve",
        "param.position": "Place",
        "param.queue": "Queue",
        "title": "Bathroom Rush",
        # The game's record, as the statistics name it.
        "record": "lowest score",
        # The command line's sentences and columns of the state (companion state).
        "state.line.phase": "Phase: {phase}",
        "state.line.round-after": ", round {round}",
        "state.line.final-round": " (the final round)",
        "state.line.free-queue": "Queue {queue} is the free one",
        "state.line.limit-out": "A player who reaches {limit} popò is out",
        "state.line.limit-keep-playing": (
            "Reaching {limit} popò puts nobody out (everyone keeps playing)"
        ),
        "state.line.persona-deck": (
            "Persona deck: {deck, plural, one {# card} other {# cards}}, {discard} discarded"
        ),
        "state.column.queue": "Queue",
        "state.column.score": "Score",
        "state.cell.queue-place": "{queue}, place {place}",
        "state.flag.in-bathroom": "in the bathroom",
        "state.flag.over-limit": "over the limit",
        "state.flag.out": "out",
        "variant.first-game": "First game",
        "variant.keep-behind": "Keep the one behind",
        "variant.no-yellow": "No yellow effects",
        "variant.keep-playing": "Keep playing",
        "variant.light-tracking": "Light tracking",
        # The button menu's short names of commands.
        "card.bathroom-defence": "Bathroom Defence",
        "label.note": "Note",
        "label.roll": "Roll",
        "label.choose-queue": "Choose queue",
        "label.reveal": "Reveal",
        "label.set-persona": "Set Persona",
        "label.play": "Action card",
        "label.target": "The card strikes",
        "label.decompress": "Decompress",
        "label.reveal-kind": "Reveal",
        "label.effect": "Effect happens",
        "label.defend": "Queue Defence",
        "label.end-turn": "End turn",
        "label.add-tokens": "Add tokens",
        "label.take-tokens": "Take tokens",
        "label.set-reserve": "Set reserve",
        "label.set-tokens": "Set tokens",
        "label.place-permanent": "Permanent card",
        "label.remove-permanent": "Remove permanent",
    },
    "fr": {
        "board.chart": "Réserves (pipì + 5 × popò)",
        "board.closed": "File {q} (fermée)",
        "board.deck": "Personas restants {n}",
        "board.door": "Porte des toilettes",
        "board.effects": "À résoudre, dans l'ordre",
        "board.eliminated": "éliminé",
        "board.face_down": "face cachée",
        "board.final_round": "dernière manche",
        "board.flipped": "retourné",
        "board.free_queue": "File {q} · libre",
        "board.in_bathroom": "aux toilettes de la file {q} !",
        "board.in_queue": "file {q}, place {n}",
        "board.limit": "limite {n} popò",
        "board.no_queue": "pas encore de file",
        "board.reached": "aux toilettes",
        "board.nobody": "personne",
        "board.pawn": "{name}, place {n}",
        "board.persona_is": "{pipi} pipì, {popo} popò imprimés",
        "board.phase.A": "A · révélation",
        "board.phase.D": "D · effets des Personas",
        "board.phase.E": "E · action",
        "board.phase.count": "Décompte final",
        "board.phase.cleanup": "Nettoyage",
        "board.phase.over": "Partie terminée",
        "board.phase.setup": "Choix des files",
        "board.phase.tie-break": "Départage",
        "board.queue": "File {q}",
        "board.stand_here": "{name} : se placer ici",
        "board.queues": "Les files, toilettes en tête",
        "board.reserve_is": "{pipi} pipì, {popo} popò sur {limit}",
        "board.round": "Manche {n}",
        "board.other_card": "Une autre carte…",
        "board.other_values": "Autres valeurs…",
        "board.asks": "{name} — {ask}",
        "board.waiting_for": "On attend que {names} retourne une Persona",
        "board.enter_for": "Saisir pour {name}",
        "board.cleanup_ask": "Nettoyage : chacun prend les jetons de ses toilettes",
        "board.count_ask": "Décompte final : les jetons entre chacun et la porte",
        "board.takes_pick": "{name} : combien de pipì\u00a0?",
        "board.takes": "{name} prend {pipi} pipì, {popo} popò",
        "board.entry_again": "Une autre saisie est arrivée d'abord : celle de {name} est renvoyée",
        "board.reaches": "{name} arrive aux toilettes",
        "board.on_whom": "{name} : {card} sur qui\u00a0?",
        "board.on_top_of": "posée sur {name}",
        "board.which_card": "{name} : quelle carte Action ?",
        "board.effect_tokens": "Jetons qu'il donne (− retire), s'il y en a :",
        "board.effect_gives": "Il a lieu : {name} {pipi} pipì {popo} popò",
        "board.cunning_ask": "{name} : Astuzia, quelle Persona quitte la file\xa0?",
        "board.in_front": "Devant vous",
        "board.behind": "Derrière vous",
        "board.cleaner_ask": "{name} : Addetto alle pulizie, sur quelles toilettes\xa0?",
        "board.queue_of": "File {q} · {name}",
        "board.to_enter": "jetons\u00a0?",
        "choice.neutral": "neutre",
        "choice.orange": "orange",
        "choice.red": "rouge",
        "choice.yellow": "jaune",
        "command.add-tokens": "Jetons sur un Persona",
        "command.change-queue": "Changer de file",
        "command.choose-queue": "Choisir une file",
        "command.decompress": "Décompresser",
        "command.effect": "L'effet a lieu",
        "command.defend": "Défense de file",
        "command.reveal-kind": "Révéler une sorte de la boîte",
        "command.bathroom-tokens": "Jetons de ses toilettes",
        "command.count-tokens": "Jetons jusqu'à la porte",
        "command.reached": "Arrive aux toilettes",
        "command.end-turn": "Finir le tour",
        "command.flip": "Retourner un Persona",
        "command.note": "Écrire une note",
        "command.pass": "Passer",
        "command.pass-in-front": "Celui de derrière passe devant",
        "command.place-permanent": "Carte permanente à une porte",
        "command.remove-behind": "Celui de derrière s'en va",
        "command.remove-front": "Celui de devant s'en va",
        "command.remove-permanent": "Défausser une carte permanente",
        "command.reveal": "Révéler",
        "keys.reveal-ask": "{colour}, {tokens} ?",
        "keys.reveal-kind-ask": "{kind} : {tokens} ?",
        "keys.place": "file {queue}, place {position}",
        "keys.bathroom": "file {queue}, toilettes",
        "command.roll": "Lancer",
        "command.set-persona": "Corriger un Persona",
        "command.set-reserve": "Fixer une réserve",
        "command.set-tokens": "Fixer les jetons d'un Persona",
        "command.swap-behind": "Échanger avec celui de derrière",
        "command.take-tokens": "Jetons dans une réserve",
        "command.unflip": "Remettre un Persona",
        "event.queue-chosen": "{player} se place au bout de la file {queue}",
        "param.name": "Nom sur la carte",
        "param.pipi": "pipì",
        "param.popo": "popò",
        "param.effect.to": "Réserve de",
        "param.position": "Place",
        "param.queue": "File",
        # The commands' help, as the panel's sheets show it.
        "help.choose-queue": (
            "À la mise en place, un joueur se place au bout d'une file que personne ne tient"
        ),
        "help.reveal": "Une Persona face cachée est retournée : saisissez ce qui y est imprimé",
        "help.reveal-kind": (
            "Une Persona face cachée est retournée : l'une des sortes de la boîte décrite"
        ),
        "help.effect": (
            "L'effet de Persona qu'attend la phase D a lieu (le compagnon applique les effets "
            "qu'il connaît ; pour les autres, la table dit quels jetons vont dans quelle "
            "réserve, et fait d'abord les mouvements avec les commandes des files)"
        ),
        "help.defend": "Une Défense de file bloque l'effet de Persona qu'attend la phase D",
        "help.decompress": (
            "Le joueur actif décompresse : lancez ensuite le dé rouge (avec Concentrazione : jouez "
            "la carte)"
        ),
        "help.pass": "Le joueur actif passe ; le tour est fini",
        "help.end-turn": "La carte Action est résolue ; défaussez jusqu'à 3",
        "help.roll": (
            "Un résultat de dé : le dé rouge (décompression, départage) ou le dé bleu (Avido "
            "lettore)"
        ),
        "help.bathroom-tokens": (
            "Suivi léger, en fin de manche : les jetons qu'un joueur prend aux toilettes de sa file"
        ),
        "help.count-tokens": (
            "Suivi léger, au décompte final : les jetons entre un joueur et la porte (cartes "
            "permanentes comprises)"
        ),
        "help.reached": (
            "Suivi léger : un joueur atteint les toilettes (par une carte, ou quand les files "
            "avancent en fin de manche)"
        ),
        "help.swap-behind": "Un joueur échange sa place avec la Persona derrière lui",
        "help.pass-in-front": "La Persona derrière un joueur passe devant lui",
        "help.remove-front": "La Persona devant un joueur s'en va ; le joueur avance",
        "help.remove-behind": (
            "La Persona derrière un joueur s'en va ; la file derrière avance, ou une nouvelle "
            "Persona est piochée si c'était la dernière"
        ),
        "help.change-queue": (
            "Un joueur va au bout de la file libre ; la Persona derrière lui prend son ancienne "
            "place et une nouvelle est piochée derrière lui"
        ),
        "help.add-tokens": (
            "Des jetons sur une carte Persona (celle des toilettes sauf si une place est donnée)"
        ),
        "help.place-permanent": "Une carte Action permanente va derrière une porte de toilettes",
        "help.remove-permanent": "Une carte permanente derrière une porte est défaussée",
        "help.flip": "Une Persona dont l'effet est épuisé est retournée",
        "help.take-tokens": (
            "Des jetons entrent dans une réserve (Distratto) ou en sortent (Bottiglietta vuota)"
        ),
        "help.set-reserve": "Fixer une réserve comme la table l'a",
        "help.set-tokens": "Fixer les jetons posés sur une carte Persona",
        "help.set-persona": "Corriger ce qui a été saisi pour une Persona révélée",
        "help.unflip": "Retourner une Persona : son effet n'est pas épuisé",
        "help.note": "Écrire une ligne dans l'historique",
        "help.play": "Le joueur actif joue une carte Action de la liste : le compagnon l'applique",
        "help.target": (
            "La place que frappe la carte Action : un joueur, une Persona ou des toilettes"
        ),
        "title": "Bathroom Rush",
        # The game's record, as the statistics name it.
        "record": "score le plus bas",
        # The command line's sentences and columns of the state (companion state).
        "state.line.phase": "Phase : {phase}",
        "state.line.round-after": ", manche {round}",
        "state.line.final-round": " (la dernière manche)",
        "state.line.free-queue": "La file {queue} est la file libre",
        "state.line.limit-out": "Un joueur qui atteint {limit} popò est éliminé",
        "state.line.limit-keep-playing": (
            "Atteindre {limit} popò n'élimine personne (tout le monde continue)"
        ),
        "state.line.persona-deck": (
            "Pioche de Personas : {deck, plural, one {# carte} other {# cartes}},"
            " {discard, plural, one {# défaussée} other {# défaussées}}"
        ),
        "state.column.queue": "File",
        "state.column.score": "Score",
        "state.cell.queue-place": "{queue}, place {place}",
        "state.flag.in-bathroom": "aux toilettes",
        "state.flag.over-limit": "au-delà de la limite",
        "state.flag.out": "éliminé",
        "variant.first-game": "Première partie",
        "variant.first-game.help": (
            "Conseils pour débuter : les Personas orange et rouges n'ont pas d'effet spécial."
        ),
        "variant.keep-behind": "Garder celui de derrière",
        "variant.keep-behind.help": "Décompresser ne remplace pas le Persona derrière le joueur.",
        "variant.no-yellow": "Sans effets jaunes",
        "variant.no-yellow.help": (
            "Pour les nouveaux joueurs : les Personas jaunes n'ont pas d'effet spécial non plus,"
            " et le Ragazzo sperduto est retiré du paquet de Personas."
        ),
        "variant.keep-playing": "Tout le monde joue jusqu'au bout",
        "variant.keep-playing.help": (
            "Personne ne quitte la partie : atteindre la limite de popò n'élimine plus ;"
            " tout le monde joue jusqu'à la fin."
        ),
        "variant.light-tracking": "Suivi léger",
        "variant.light-tracking.help": (
            "Un marqueur, pas un arbitre : les files restent sur la table ; le compagnon tient"
            " les réserves, les lancers, les jetons de fin de manche (une saisie par joueur),"
            " la fin, le décompte et le départage."
        ),
        # The button menu's short names of commands.
        "card.bathroom-defence": "Défense des toilettes",
        "label.note": "Note",
        "label.roll": "Lancer",
        "label.choose-queue": "Choisir la file",
        "label.reveal": "Révéler",
        "label.set-persona": "Corriger Persona",
        "label.play": "Carte Action",
        "label.target": "La carte frappe",
        "label.decompress": "Décompresser",
        "label.reveal-kind": "Révéler",
        "label.effect": "L'effet a lieu",
        "label.defend": "Défense de file",
        "label.end-turn": "Finir le tour",
        "label.add-tokens": "Ajouter des jetons",
        "label.take-tokens": "Prendre des jetons",
        "label.set-reserve": "Fixer la réserve",
        "label.set-tokens": "Fixer les jetons",
        "label.place-permanent": "Carte permanente",
        "label.remove-permanent": "Retirer permanente",
    },
    "it": {
        "choice.neutral": "azzurro",
        "choice.orange": "arancione",
        "choice.red": "rosso",
        "choice.yellow": "giallo",
        "board.chart": "Riserve (pipì + 5 × popò)",
        "board.closed": "Fila {q} (chiusa)",
        "board.deck": "Persone rimaste {n}",
        "board.door": "Porta del bagno",
        "board.effects": "Da risolvere, in ordine",
        "board.eliminated": "eliminato",
        "board.face_down": "coperta",
        "board.final_round": "ultimo giro",
        "board.flipped": "girata",
        "board.free_queue": "Fila {q} · libera",
        "board.in_bathroom": "nel bagno della fila {q}!",
        "board.in_queue": "fila {q}, posto {n}",
        "board.limit": "limite {n} popò",
        "board.no_queue": "ancora nessuna fila",
        "board.reached": "in bagno",
        "board.nobody": "nessuno",
        "board.pawn": "{name}, posto {n}",
        "board.persona_is": "{pipi} pipì, {popo} popò stampati",
        "board.phase.A": "A · rivelazione",
        "board.phase.D": "D · effetti dei Persona",
        "board.phase.E": "E · azione",
        "board.phase.count": "Conteggio finale",
        "board.phase.cleanup": "Fine giro",
        "board.phase.over": "Partita finita",
        "board.phase.setup": "Scelta delle file",
        "board.phase.tie-break": "Spareggio",
        "board.queue": "Fila {q}",
        "board.stand_here": "{name}: mettiti qui",
        "board.queues": "Le file, il bagno in testa",
        "board.reserve_is": "{pipi} pipì, {popo} popò su {limit}",
        "board.round": "Giro {n}",
        "board.other_card": "Un'altra carta…",
        "board.other_values": "Altri valori…",
        "board.asks": "{name} — {ask}",
        "board.waiting_for": "Si aspetta che {names} scopra una Persona",
        "board.enter_for": "Inserisci per {name}",
        "board.cleanup_ask": "Fine giro: ognuno prende i segnalini del suo bagno",
        "board.count_ask": "Conteggio finale: i segnalini tra ognuno e la porta",
        "board.takes_pick": "{name}: quanti pipì?",
        "board.takes": "{name} prende {pipi} pipì, {popo} popò",
        "board.entry_again": "Un'altra voce è arrivata prima: quella di {name} viene rimandata",
        "board.reaches": "{name} arriva in bagno",
        "board.on_whom": "{name}: {card} su chi?",
        "board.on_top_of": "sopra {name}",
        "board.which_card": "{name}: quale carta Azione?",
        "board.effect_tokens": "Gettoni che dà (− toglie), se ce ne sono:",
        "board.effect_gives": "Avviene: {name} {pipi} pipì {popo} popò",
        "board.cunning_ask": "{name}: Astuzia, quale Persona lascia la fila?",
        "board.in_front": "Davanti a te",
        "board.behind": "Dietro di te",
        "board.cleaner_ask": "{name}: Addetto alle pulizie, su quale bagno?",
        "board.queue_of": "Fila {q} · {name}",
        "board.to_enter": "segnalini?",
        "command.add-tokens": "Segnalini su un Persona",
        "command.change-queue": "Cambia fila",
        "command.choose-queue": "Scegli una fila",
        "command.decompress": "Decomprimi",
        "command.effect": "L'effetto avviene",
        "command.defend": "Difesa della fila",
        "command.reveal-kind": "Rivela un tipo della scatola",
        "command.bathroom-tokens": "Segnalini dal proprio bagno",
        "command.count-tokens": "Segnalini fino alla porta",
        "command.reached": "Arriva al bagno",
        "command.end-turn": "Finisci il turno",
        "command.flip": "Gira un Persona",
        "command.pass": "Passa",
        "command.pass-in-front": "Quello dietro passa davanti",
        "command.place-permanent": "Carta permanente a una porta",
        "command.remove-behind": "Quello dietro se ne va",
        "command.remove-front": "Quello davanti se ne va",
        "command.remove-permanent": "Scarta una carta permanente",
        "command.reveal": "Rivela",
        "keys.reveal-ask": "{colour}, {tokens}?",
        "keys.reveal-kind-ask": "{kind}: {tokens}?",
        "keys.place": "fila {queue}, posto {position}",
        "keys.bathroom": "fila {queue}, bagno",
        "command.set-persona": "Correggi un Persona",
        "command.set-reserve": "Fissa una riserva",
        "command.set-tokens": "Fissa i segnalini su un Persona",
        "command.swap-behind": "Scambia con quello dietro",
        "command.take-tokens": "Segnalini in una riserva",
        "command.unflip": "Rigira un Persona",
        "param.name": "Nome sulla carta",
        "param.pipi": "pipì",
        "param.popo": "popò",
        "param.effect.to": "Riserva di",
        "param.position": "Posto",
        "param.queue": "Fila",
        # The commands' help, as the panel's sheets show it.
        "help.choose-queue": (
            "Alla preparazione, un giocatore si mette in fondo a una fila che nessuno tiene"
        ),
        "help.reveal": "Una Persona coperta viene girata: inserisci ciò che vi è stampato",
        "help.reveal-kind": (
            "Una Persona coperta viene girata: uno dei tipi della scatola descritta"
        ),
        "help.effect": (
            "Avviene l'effetto della Persona atteso dalla fase D (il compagno applica gli effetti "
            "che conosce; per gli altri il tavolo dice quali gettoni vanno in quale riserva, e "
            "fa prima gli spostamenti con i comandi delle file)"
        ),
        "help.defend": "Una Difesa fila blocca l'effetto della Persona atteso dalla fase D",
        "help.decompress": (
            "Il giocatore attivo decomprime: poi tira il dado rosso (con Concentrazione: gioca la "
            "carta)"
        ),
        "help.pass": "Il giocatore attivo passa; il turno è finito",
        "help.end-turn": "La carta Azione è risolta; scarta fino a 3",
        "help.roll": (
            "Un risultato di dado: il dado rosso (decompressione, spareggio) o il dado blu (Avido "
            "lettore)"
        ),
        "help.bathroom-tokens": (
            "Tracciamento leggero, a fine giro: i segnalini che un giocatore prende dal bagno "
            "della sua fila"
        ),
        "help.count-tokens": (
            "Tracciamento leggero, al conteggio finale: i segnalini tra un giocatore e la porta "
            "(carte permanenti comprese)"
        ),
        "help.reached": (
            "Tracciamento leggero: un giocatore arriva al bagno (con una carta, o quando le file "
            "avanzano a fine giro)"
        ),
        "help.swap-behind": "Un giocatore scambia il posto con la Persona dietro di lui",
        "help.pass-in-front": "La Persona dietro un giocatore gli passa davanti",
        "help.remove-front": "La Persona davanti a un giocatore se ne va; il giocatore avanza",
        "help.remove-behind": (
            "La Persona dietro un giocatore se ne va; la fila dietro avanza, o si pesca una nuova "
            "Persona se era l'ultima"
        ),
        "help.change-queue": (
            "Un giocatore va in fondo alla fila libera; la Persona dietro di lui prende il suo "
            "vecchio posto e se ne pesca una nuova dietro di lui"
        ),
        "help.add-tokens": (
            "Segnalini su una carta Persona (quella del bagno se non si dà una posizione)"
        ),
        "help.place-permanent": "Una carta Azione permanente va dietro la porta di un bagno",
        "help.remove-permanent": "Una carta permanente dietro una porta viene scartata",
        "help.flip": "Una Persona il cui effetto è esaurito viene girata",
        "help.take-tokens": (
            "Segnalini entrano in una riserva (Distratto) o ne escono (Bottiglietta vuota)"
        ),
        "help.set-reserve": "Fissare una riserva come ce l'ha il tavolo",
        "help.set-tokens": "Fissare i segnalini posati su una carta Persona",
        "help.set-persona": "Correggere ciò che è stato inserito per una Persona scoperta",
        "help.unflip": "Rigirare una Persona: il suo effetto non è esaurito",
        "help.note": "Scrivere una riga nella cronologia",
        "help.play": (
            "Il giocatore attivo gioca una carta Azione dall'elenco: il compagno la applica"
        ),
        "help.target": "Il posto colpito dalla carta Azione: un giocatore, una Persona o un bagno",
        "title": "Bathroom Rush",
        # The game's record, as the statistics name it.
        "record": "punteggio più basso",
        # The command line's sentences and columns of the state (companion state).
        "state.line.phase": "Fase: {phase}",
        "state.line.round-after": ", giro {round}",
        "state.line.final-round": " (l'ultimo giro)",
        "state.line.free-queue": "La fila {queue} è quella libera",
        "state.line.limit-out": "Chi arriva a {limit} popò è eliminato",
        "state.line.limit-keep-playing": (
            "Arrivare a {limit} popò non elimina nessuno (tutti continuano)"
        ),
        "state.line.persona-deck": (
            "Mazzo delle Persone: {deck, plural, one {# carta} other {# carte}},"
            " {discard, plural, one {# scartata} other {# scartate}}"
        ),
        "state.column.queue": "Fila",
        "state.column.score": "Punti",
        "state.cell.queue-place": "{queue}, posto {place}",
        "state.flag.in-bathroom": "in bagno",
        "state.flag.over-limit": "oltre il limite",
        "state.flag.out": "eliminato",
        "command.note": "Scrivi una nota",
        "command.roll": "Tira",
        "variant.first-game": "Prima partita",
        "variant.first-game.help": (
            "Consigli per le prime partite: le Persone arancioni e rosse non hanno effetti"
            " speciali."
        ),
        "variant.keep-behind": "Tieni quello dietro",
        "variant.keep-behind.help": (
            "Decomprimere non sostituisce la Persona dietro il giocatore."
        ),
        "variant.no-yellow": "Senza effetti gialli",
        "variant.no-yellow.help": (
            "Per i nuovi giocatori: nemmeno le Persone gialle hanno effetti speciali, e il"
            " Ragazzo sperduto è tolto dal mazzo delle Persone."
        ),
        "variant.keep-playing": "Tutti giocano fino alla fine",
        "variant.keep-playing.help": (
            "Nessuno lascia la partita: raggiungere il limite di popò non elimina più;"
            " tutti giocano fino alla fine."
        ),
        "variant.light-tracking": "Tracciamento leggero",
        "variant.light-tracking.help": (
            "Un segnapunti, non un arbitro: le file restano sul tavolo; il compagno tiene le"
            " riserve, i tiri, i segnalini di fine giro (un inserimento per giocatore), la fine,"
            " il conteggio e lo spareggio."
        ),
        # The button menu's short names of commands.
        "card.bathroom-defence": "Difesa bagno",
        "label.note": "Nota",
        "label.roll": "Tira",
        "label.choose-queue": "Scegli la fila",
        "label.reveal": "Rivela",
        "label.set-persona": "Correggi Persona",
        "label.play": "Carta Azione",
        "label.target": "La carta colpisce",
        "label.decompress": "Decomprimi",
        "label.reveal-kind": "Rivela",
        "label.effect": "L'effetto avviene",
        "label.defend": "Difesa della fila",
        "label.end-turn": "Fine turno",
        "label.add-tokens": "Aggiungi segnalini",
        "label.take-tokens": "Prendi segnalini",
        "label.set-reserve": "Fissa la riserva",
        "label.set-tokens": "Fissa i segnalini",
        "label.place-permanent": "Carta permanente",
        "label.remove-permanent": "Togli permanente",
    },
}

# The table's sentences, said from the events' kind and data: they win over
# a label of the same key.
TEXT = {lang: {**TEXT.get(lang, {}), **SENTENCES[lang], **REFUSALS[lang], **CALLER[lang]}
        for lang in SENTENCES}
