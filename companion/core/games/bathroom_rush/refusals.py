"""What Bathroom Rush says when it refuses a command or a setup, in every
language (``refusal.<name>``; see :mod:`companion.core.errors`).  Merged
into the game's ``TEXT``.  Cards are named as printed (in Italian), the
places and Personas with the words of :mod:`.sentences`."""

from __future__ import annotations

from typing import Mapping

REFUSALS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "card.queue-defence": "Queue Defence",
        "card.bathroom-defence": "Bathroom Defence",
        "refusal.field.pipi": "pipì",
        "refusal.field.popo": "popò",
        "refusal.field.copies": "copies",
        "refusal.box-shape": (
            "a box is a list of 1 to {most} kinds of Persona, each with its name, colour, "
            "pipì, popò and copies"
        ),
        "refusal.box-kind-shape": (
            "kind {n} of the box is not an object with name, colour, pipi, popo and copies"
        ),
        "refusal.box-kind-name": "kind {n} of the box needs a name of 1 to {most} characters",
        "refusal.box-twice": "the box names {name} twice; give each kind once with its copies",
        "refusal.box-colour": "{name}: the colour is one of {colours}, not {raw}",
        "refusal.box-number": "{name}: {field} is a whole number from {low} to {high}, not {raw}",
        "refusal.box-extra": "{name}: a kind has name, colour, pipi, popo and copies, not {extra}",
        "refusal.box-deck-disagree": (
            "the box described holds {in_box} Persona cards, not {deck}: leave the deck out "
            "or make them agree"
        ),
        "refusal.box-too-small": (
            "the box described holds {in_box} Persona cards to play with; {players} players "
            "need {least}"
        ),
        "refusal.deck-range": (
            "the Persona deck of {players} players holds {least} to {most} cards (6 in each of "
            "the {queues} queues and one behind each player), not {raw}"
        ),
        "refusal.moved-on": (
            "another move came first: the game no longer waits for that at queue {queue}, "
            "place {position}; it waits for: {now}"
        ),
        "refusal.tie-break-order": (
            "{player} rolls after {next}: the tie-break's rolls go in seating order; {next} "
            "rolls next"
        ),
        "refusal.no-yellow-deck": (
            "without the Lost Young Man the Persona deck must still hold {least} cards"
        ),
        "refusal.queue-taken": (
            "queue {queue} is taken by {holder}: two players never share a queue; the free "
            "queues are {free}"
        ),
        "refusal.change-to-taken": (
            "queue {queue} holds {holder}: two players never share a queue; {player} can only "
            "change to the free queue, {free}"
        ),
        "refusal.change-to-closed": (
            "queue {queue} has no door any more; {player} can only change to the free queue, "
            "{free}"
        ),
        "refusal.no-free-queue": "there is no free queue to change to",
        "refusal.light-card": (
            "in light tracking the queues stay on the table: {card} is played there and {name} "
            "ends the turn; the companion applies only {cards}, which act on the reserve"
        ),
        "refusal.already-revealed": (
            "the Persona {place} is already revealed; correct its values instead"
        ),
        "refusal.not-revealable": (
            "the Persona {place} stays face down: the Personas revealed now are those in a "
            "bathroom or next to a player"
        ),
        "refusal.not-revealable.count": (
            "the Persona {place} stays face down: the Personas revealed now are those between "
            "a player and the door"
        ),
        "refusal.no-box": "none: no box was described",
        "refusal.no-such-kind": "the box holds no kind {kind}; its kinds are {kinds}",
        "refusal.kind-all-seen": (
            "all {copies} {name} of the box are already face up or discarded: this Persona is "
            "another kind; still unseen: {left}"
        ),
        "refusal.no-effect": "no Persona effect waits to be resolved",
        "refusal.effect-tokens-known": (
            "the companion applies {persona}'s effect itself: tap The effect happens "
            "without tokens"
        ),
        "refusal.effect-tokens-out": (
            "{player} is out of the game: the tokens go to a player still playing"
        ),
        "refusal.effect-tokens-card": (
            "an Action card's effect moves no tokens by hand: tap The effect happens alone"
        ),
        "refusal.not-behind": (
            "{persona} no longer stands right behind {player}: defend, or correct the queue"
        ),
        "refusal.roll-first": (
            "{persona} leaves his newspaper on the Persona after him: roll the blue die"
        ),
        "refusal.defensive-card": (
            "{card} is a defensive card: it is played together with the attack or the Persona "
            "effect it blocks and is never the Action card of the turn; {player} plays another "
            "Action card, decompresses or passes"
        ),
        "refusal.no-target.give-up": (
            "Give Up Your Place needs a player with a Persona right behind them; nobody can be "
            "struck now"
        ),
        "refusal.no-target.cunning": (
            "Cunning removes a Persona in front of or behind {player}: there is none"
        ),
        "refusal.no-target.cleaner": (
            "the Cleaner strikes a bathroom Persona: no bathroom holds one that may be struck"
        ),
        "refusal.cannot-strike": (
            "{card} cannot strike position {position} of queue {queue}; it can strike: {places}"
        ),
        "refusal.queue-position": "queue {queue} position {position}",
        "refusal.takes-no-option": "{title} takes no option {unknown}; its options are: {allowed}",
        "refusal.no-card-played": "no Action card is being played",
        "refusal.card-played-is": "the card played is {card}",
        "refusal.no-card-played-yet": "no Action card has been played",
        "refusal.final-turns": (
            "{player} reached the bathroom through an Action card: in the final turns only "
            "Give Up Your Place, Swap and Sneeze may be played against {player}, and {played}"
        ),
        "refusal.eliminated": (
            "{player} was eliminated and stands in no queue; the players still in the game "
            "are {live}"
        ),
        "refusal.no-door": (
            "queue {queue} has no door any more: its player was eliminated; the queues in "
            "play are {open}"
        ),
        "refusal.no-persona-at": (
            "queue {queue} has {count} places: there is no Persona at position {position}"
        ),
        "refusal.player-at": "position {position} of queue {queue} is {player}, not a Persona",
        "refusal.to-pass": "to pass",
        "refusal.to-swap": "to swap with",
        "refusal.to-remove": "to remove",
        "refusal.neighbour-bathroom": (
            "{player} is in the bathroom of queue {queue}: there is no Persona in front of "
            "{player} {purpose}"
        ),
        "refusal.no-one-behind": "there is no Persona behind {player} in queue {queue} {purpose}",
        "refusal.no-one-front": (
            "there is no Persona in front of {player} in queue {queue} {purpose}"
        ),
        "refusal.deck-empty": "no Persona card is left in the deck or on the discard pile to draw",
        "refusal.add-tokens-none": "give at least one pipì or popò to add",
        "refusal.take-tokens-none": "give a number of pipì or popò other than 0",
        "refusal.no-permanent": "there is no permanent card behind the door of queue {queue}",
        "refusal.name-permanent": "name the card to remove from queue {queue}: {names}",
        "refusal.no-such-permanent": (
            "no permanent card {card} behind the door of queue {queue}; there: {names}"
        ),
        "refusal.flip-face-down": (
            "the Persona {place} is face down: only a revealed Persona whose effect is spent is "
            "turned over"
        ),
        "refusal.already-flipped": "{persona} {place} is already turned over",
        "refusal.face-down-reveal": "the Persona {place} is face down: reveal it instead",
        "refusal.not-flipped": "the Persona {place} is not turned over",
        "refusal.already-entered.tokens": (
            "{player} has already entered the tokens of their bathroom; still to enter: "
            "{waiting}"
        ),
        "refusal.already-entered.count": (
            "{player} has already entered their final count; still to enter: {waiting}"
        ),
        "refusal.already-arrived": "{player} is already in the bathroom",
    },
    "fr": {
        "card.queue-defence": "Défense de file",
        "card.bathroom-defence": "Défense des toilettes",
        "refusal.field.pipi": "pipì",
        "refusal.field.popo": "popò",
        "refusal.field.copies": "exemplaires",
        "refusal.box-shape": (
            "une boîte est une liste de 1 à {most} sortes de Personas, chacune avec son nom, "
            "sa couleur, ses pipì, ses popò et son nombre d'exemplaires"
        ),
        "refusal.box-kind-shape": (
            "la sorte {n} de la boîte n'est pas un objet avec nom, couleur, pipì, popò et "
            "exemplaires"
        ),
        "refusal.box-kind-name": (
            "la sorte {n} de la boîte demande un nom de 1 à {most} caractères"
        ),
        "refusal.box-twice": (
            "la boîte nomme {name} deux fois ; donnez chaque sorte une fois avec ses "
            "exemplaires"
        ),
        "refusal.box-colour": "{name} : la couleur est l'une de : {colours}, pas {raw}",
        "refusal.box-number": (
            "{name} : {field} est un nombre entier de {low} à {high}, pas {raw}"
        ),
        "refusal.box-extra": (
            "{name} : une sorte a un nom, une couleur, des pipì, des popò et des exemplaires, "
            "pas {extra}"
        ),
        "refusal.box-deck-disagree": (
            "la boîte décrite contient {in_box} cartes Persona, pas {deck} : ne donnez pas la "
            "taille de la pioche ou mettez-les d'accord"
        ),
        "refusal.box-too-small": (
            "la boîte décrite contient {in_box} cartes Persona pour jouer ; {players} joueurs "
            "en demandent {least}"
        ),
        "refusal.deck-range": (
            "la pioche de Personas pour {players} joueurs a de {least} à {most} cartes (6 dans "
            "chacune des {queues} files et une derrière chaque joueur), pas {raw}"
        ),
        "refusal.moved-on": (
            "un autre coup est passé avant : la partie n'attend plus cela en file {queue}, "
            "place {position} ; elle attend : {now}"
        ),
        "refusal.tie-break-order": (
            "{player} lance après {next} : les jets du départage suivent l'ordre des places ; "
            "{next} lance maintenant"
        ),
        "refusal.no-yellow-deck": (
            "sans le Ragazzo sperduto, la pioche de Personas doit encore avoir {least} cartes"
        ),
        "refusal.queue-taken": (
            "la file {queue} est prise par {holder} : deux joueurs ne partagent jamais une "
            "file ; les files libres sont {free}"
        ),
        "refusal.change-to-taken": (
            "la file {queue} est celle de {holder} : deux joueurs ne partagent jamais une "
            "file ; {player} ne peut passer qu'à la file libre, la {free}"
        ),
        "refusal.change-to-closed": (
            "la file {queue} n'a plus de porte ; {player} ne peut passer qu'à la file libre, "
            "la {free}"
        ),
        "refusal.no-free-queue": "il n'y a pas de file libre où passer",
        "refusal.light-card": (
            "en suivi léger les files restent sur la table : {card} s'y joue et {name} "
            "finit son tour ; le compagnon n'applique que {cards}, qui agissent sur la réserve"
        ),
        "refusal.already-revealed": (
            "la Persona {place} est déjà révélée ; corrigez plutôt ses valeurs"
        ),
        "refusal.not-revealable": (
            "la Persona {place} reste face cachée : on révèle maintenant celles des toilettes "
            "ou à côté d'un joueur"
        ),
        "refusal.not-revealable.count": (
            "la Persona {place} reste face cachée : on révèle maintenant celles entre un "
            "joueur et la porte"
        ),
        "refusal.no-box": "aucune : pas de boîte décrite",
        "refusal.no-such-kind": (
            "la boîte n'a pas de sorte {kind} ; ses sortes sont {kinds}"
        ),
        "refusal.kind-all-seen": (
            "les {copies} {name} de la boîte sont déjà visibles ou défaussés : cette Persona "
            "est d'une autre sorte ; encore cachées : {left}"
        ),
        "refusal.no-effect": "aucun effet de Persona n'attend d'être résolu",
        "refusal.effect-tokens-known": (
            "le compagnon applique lui-même l'effet de {persona} : touchez L'effet a lieu "
            "sans jetons"
        ),
        "refusal.effect-tokens-out": (
            "{player} est hors du jeu : les jetons vont à un joueur encore en jeu"
        ),
        "refusal.effect-tokens-card": (
            "l'effet d'une carte Action ne déplace pas de jetons à la main : touchez "
            "L'effet a lieu seul"
        ),
        "refusal.not-behind": (
            "{persona} n'est plus juste derrière {player} : défendez-vous, ou corrigez la file"
        ),
        "refusal.roll-first": (
            "{persona} laisse son journal sur la Persona après lui : lancez le dé bleu"
        ),
        "refusal.defensive-card": (
            "{card} est une carte de défense : elle se joue avec l'attaque ou l'effet de "
            "Persona qu'elle bloque et n'est jamais la carte Action du tour ; {player} joue "
            "une autre carte Action, décompresse ou passe"
        ),
        "refusal.no-target.give-up": (
            "Cedi il posto demande un joueur avec une Persona juste derrière lui ; personne ne "
            "peut être visé maintenant"
        ),
        "refusal.no-target.cunning": (
            "Astuzia retire une Persona devant ou derrière {player} : il n'y en a aucune"
        ),
        "refusal.no-target.cleaner": (
            "Addetto alle pulizie frappe une Persona aux toilettes : aucune toilette n'en a "
            "une qui puisse l'être"
        ),
        "refusal.cannot-strike": (
            "{card} ne peut pas frapper la place {position} de la file {queue} ; elle peut "
            "frapper : {places}"
        ),
        "refusal.queue-position": "file {queue} place {position}",
        "refusal.takes-no-option": (
            "{title} n'a pas d'option {unknown} ; ses options sont : {allowed}"
        ),
        "refusal.no-card-played": "aucune carte Action n'est en train d'être jouée",
        "refusal.card-played-is": "la carte jouée est {card}",
        "refusal.no-card-played-yet": "aucune carte Action n'a été jouée",
        "refusal.final-turns": (
            "{player} est arrivé(e) aux toilettes par une carte Action : pendant les derniers "
            "tours, seules Cedi il posto, Scambio et Starnuto peuvent être jouées contre "
            "{player}, et {played}"
        ),
        "refusal.eliminated": (
            "{player} a été éliminé(e) et n'est dans aucune file ; les joueurs encore en jeu "
            "sont {live}"
        ),
        "refusal.no-door": (
            "la file {queue} n'a plus de porte : son joueur a été éliminé ; les files en jeu "
            "sont {open}"
        ),
        "refusal.no-persona-at": (
            "la file {queue} a {count} places : il n'y a pas de Persona à la place {position}"
        ),
        "refusal.player-at": (
            "la place {position} de la file {queue} est celle de {player}, pas d'une Persona"
        ),
        "refusal.to-pass": "à dépasser",
        "refusal.to-swap": "avec qui échanger",
        "refusal.to-remove": "à faire partir",
        "refusal.neighbour-bathroom": (
            "{player} est aux toilettes de la file {queue} : il n'y a pas de Persona devant "
            "{player} {purpose}"
        ),
        "refusal.no-one-behind": (
            "il n'y a pas de Persona derrière {player} dans la file {queue} {purpose}"
        ),
        "refusal.no-one-front": (
            "il n'y a pas de Persona devant {player} dans la file {queue} {purpose}"
        ),
        "refusal.deck-empty": (
            "il ne reste aucune carte Persona à piocher, ni dans la pioche ni dans la défausse"
        ),
        "refusal.add-tokens-none": "donnez au moins un pipì ou un popò à ajouter",
        "refusal.take-tokens-none": "donnez un nombre de pipì ou de popò autre que 0",
        "refusal.no-permanent": (
            "il n'y a pas de carte permanente derrière la porte de la file {queue}"
        ),
        "refusal.name-permanent": (
            "dites quelle carte retirer de la file {queue} : {names}"
        ),
        "refusal.no-such-permanent": (
            "pas de carte permanente {card} derrière la porte de la file {queue} ; il y a : "
            "{names}"
        ),
        "refusal.flip-face-down": (
            "la Persona {place} est face cachée : on ne retourne qu'une Persona révélée dont "
            "l'effet est passé"
        ),
        "refusal.already-flipped": "{persona} {place} est déjà retournée",
        "refusal.face-down-reveal": "la Persona {place} est face cachée : révélez-la plutôt",
        "refusal.not-flipped": "la Persona {place} n'est pas retournée",
        "refusal.already-entered.tokens": (
            "{player} a déjà donné les jetons de ses toilettes ; restent à donner : {waiting}"
        ),
        "refusal.already-entered.count": (
            "{player} a déjà donné son décompte final ; restent à donner : {waiting}"
        ),
        "refusal.already-arrived": "{player} est déjà aux toilettes",
    },
    "it": {
        "card.queue-defence": "Difesa fila",
        "card.bathroom-defence": "Difesa bagno",
        "refusal.field.pipi": "pipì",
        "refusal.field.popo": "popò",
        "refusal.field.copies": "copie",
        "refusal.box-shape": (
            "una scatola è un elenco da 1 a {most} tipi di Persona, ognuno con nome, colore, "
            "pipì, popò e numero di copie"
        ),
        "refusal.box-kind-shape": (
            "il tipo {n} della scatola non è un oggetto con nome, colore, pipì, popò e copie"
        ),
        "refusal.box-kind-name": (
            "il tipo {n} della scatola richiede un nome da 1 a {most} caratteri"
        ),
        "refusal.box-twice": (
            "la scatola nomina {name} due volte; indica ogni tipo una volta con le sue copie"
        ),
        "refusal.box-colour": "{name}: il colore è uno fra {colours}, non {raw}",
        "refusal.box-number": "{name}: {field} è un numero intero da {low} a {high}, non {raw}",
        "refusal.box-extra": (
            "{name}: un tipo ha nome, colore, pipì, popò e copie, non {extra}"
        ),
        "refusal.box-deck-disagree": (
            "la scatola descritta ha {in_box} carte Persona, non {deck}: togli il numero del "
            "mazzo o mettili d'accordo"
        ),
        "refusal.box-too-small": (
            "la scatola descritta ha {in_box} carte Persona per giocare; {players} giocatori "
            "ne richiedono {least}"
        ),
        "refusal.deck-range": (
            "il mazzo delle Persona per {players} giocatori ha da {least} a {most} carte (6 in "
            "ognuna delle {queues} file e una dietro ogni giocatore), non {raw}"
        ),
        "refusal.moved-on": (
            "un'altra mossa è arrivata prima: la partita non aspetta più questo alla fila "
            "{queue}, posto {position}; aspetta: {now}"
        ),
        "refusal.tie-break-order": (
            "{player} tira dopo {next}: i tiri dello spareggio seguono l'ordine dei posti; "
            "ora tira {next}"
        ),
        "refusal.no-yellow-deck": (
            "senza il Ragazzo sperduto il mazzo delle Persona deve avere ancora {least} carte"
        ),
        "refusal.queue-taken": (
            "la fila {queue} è presa da {holder}: due giocatori non condividono mai una fila; "
            "le file libere sono {free}"
        ),
        "refusal.change-to-taken": (
            "nella fila {queue} c'è {holder}: due giocatori non condividono mai una fila; "
            "{player} può passare solo alla fila libera, la {free}"
        ),
        "refusal.change-to-closed": (
            "la fila {queue} non ha più una porta; {player} può passare solo alla fila libera, "
            "la {free}"
        ),
        "refusal.no-free-queue": "non c'è una fila libera in cui passare",
        "refusal.light-card": (
            "nel tracciamento leggero le file restano sul tavolo: {card} si gioca lì e {name} "
            "finisce il turno; il compagno applica solo {cards}, che agiscono sulla riserva"
        ),
        "refusal.already-revealed": (
            "la Persona {place} è già scoperta; correggi invece i suoi valori"
        ),
        "refusal.not-revealable": (
            "la Persona {place} resta coperta: ora si scoprono quelle in bagno o accanto a un "
            "giocatore"
        ),
        "refusal.not-revealable.count": (
            "la Persona {place} resta coperta: ora si scoprono quelle fra un giocatore e la "
            "porta"
        ),
        "refusal.no-box": "nessuno: non è stata descritta una scatola",
        "refusal.no-such-kind": "la scatola non ha il tipo {kind}; i suoi tipi sono {kinds}",
        "refusal.kind-all-seen": (
            "tutte le {copies} {name} della scatola sono già scoperte o scartate: questa "
            "Persona è di un altro tipo; ancora coperte: {left}"
        ),
        "refusal.no-effect": "nessun effetto di Persona aspetta di essere risolto",
        "refusal.effect-tokens-known": (
            "il compagno applica da sé l'effetto di {persona}: tocca L'effetto avviene "
            "senza gettoni"
        ),
        "refusal.effect-tokens-out": (
            "{player} è fuori dal gioco: i gettoni vanno a un giocatore ancora in gioco"
        ),
        "refusal.effect-tokens-card": (
            "l'effetto di una carta Azione non sposta gettoni a mano: tocca L'effetto "
            "avviene da solo"
        ),
        "refusal.not-behind": (
            "{persona} non è più subito dietro a {player}: difenditi, o correggi la fila"
        ),
        "refusal.roll-first": (
            "{persona} lascia il giornale sulla Persona dopo di lui: tira il dado blu"
        ),
        "refusal.defensive-card": (
            "{card} è una carta di difesa: si gioca insieme all'attacco o all'effetto di "
            "Persona che blocca e non è mai la carta Azione del turno; {player} gioca un'altra "
            "carta Azione, decomprime o passa"
        ),
        "refusal.no-target.give-up": (
            "Cedi il posto richiede un giocatore con una Persona subito dietro; ora nessuno "
            "può essere colpito"
        ),
        "refusal.no-target.cunning": (
            "Astuzia toglie una Persona davanti o dietro a {player}: non ce n'è nessuna"
        ),
        "refusal.no-target.cleaner": (
            "l'Addetto alle pulizie colpisce una Persona in bagno: nessun bagno ne ha una che "
            "si possa colpire"
        ),
        "refusal.cannot-strike": (
            "{card} non può colpire il posto {position} della fila {queue}; può colpire: "
            "{places}"
        ),
        "refusal.queue-position": "fila {queue} posto {position}",
        "refusal.takes-no-option": (
            "{title} non ha l'opzione {unknown}; le sue opzioni sono: {allowed}"
        ),
        "refusal.no-card-played": "nessuna carta Azione è in gioco",
        "refusal.card-played-is": "la carta giocata è {card}",
        "refusal.no-card-played-yet": "non è stata giocata nessuna carta Azione",
        "refusal.final-turns": (
            "{player} è arrivato in bagno con una carta Azione: negli ultimi turni contro "
            "{player} si possono giocare solo Cedi il posto, Scambio e Starnuto, e {played}"
        ),
        "refusal.eliminated": (
            "{player} è stato eliminato e non è in nessuna fila; i giocatori ancora in gioco "
            "sono {live}"
        ),
        "refusal.no-door": (
            "la fila {queue} non ha più una porta: il suo giocatore è stato eliminato; le file "
            "in gioco sono {open}"
        ),
        "refusal.no-persona-at": (
            "la fila {queue} ha {count} posti: non c'è nessuna Persona al posto {position}"
        ),
        "refusal.player-at": (
            "al posto {position} della fila {queue} c'è {player}, non una Persona"
        ),
        "refusal.to-pass": "da superare",
        "refusal.to-swap": "con cui scambiarsi",
        "refusal.to-remove": "da mandare via",
        "refusal.neighbour-bathroom": (
            "{player} è in bagno nella fila {queue}: non c'è nessuna Persona davanti a "
            "{player} {purpose}"
        ),
        "refusal.no-one-behind": (
            "non c'è nessuna Persona dietro a {player} nella fila {queue} {purpose}"
        ),
        "refusal.no-one-front": (
            "non c'è nessuna Persona davanti a {player} nella fila {queue} {purpose}"
        ),
        "refusal.deck-empty": (
            "non resta nessuna carta Persona da pescare, né nel mazzo né negli scarti"
        ),
        "refusal.add-tokens-none": "indica almeno una pipì o una popò da aggiungere",
        "refusal.take-tokens-none": "indica un numero di pipì o popò diverso da 0",
        "refusal.no-permanent": (
            "non c'è nessuna carta permanente dietro la porta della fila {queue}"
        ),
        "refusal.name-permanent": "di' quale carta togliere dalla fila {queue}: {names}",
        "refusal.no-such-permanent": (
            "nessuna carta permanente {card} dietro la porta della fila {queue}; ci sono: "
            "{names}"
        ),
        "refusal.flip-face-down": (
            "la Persona {place} è coperta: si gira solo una Persona scoperta il cui effetto è "
            "esaurito"
        ),
        "refusal.already-flipped": "{persona} {place} è già girata",
        "refusal.face-down-reveal": "la Persona {place} è coperta: scoprila invece",
        "refusal.not-flipped": "la Persona {place} non è girata",
        "refusal.already-entered.tokens": (
            "{player} ha già indicato i segnalini del suo bagno; mancano ancora: {waiting}"
        ),
        "refusal.already-entered.count": (
            "{player} ha già indicato il suo conteggio finale; mancano ancora: {waiting}"
        ),
        "refusal.already-arrived": "{player} è già in bagno",
    },
}
