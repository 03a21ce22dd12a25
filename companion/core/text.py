"""What the companion says to people, in the table's language.

Every sentence the table shows (a prompt, an event, a command's label, a
card's name) has a key and a template per language.  A game keeps its own
in ``companion/core/games/<folder>/text.py`` as ``TEXT``, a mapping from a
language to ``{key: template}``; what every game shares is in
:data:`COMMON`.  Templates are :meth:`str.format` strings whose fields come
from the event's data or the caller (``"{name} crosses {threshold}"``).

Keys, by convention: ``command.<name>`` (a command's label),
``param.<command>.<param>``, ``prompt.<name>``, ``event.<kind>`` (an
event's sentence, filled from its data), ``card.<id>``, ``variant.<name>``.

A key or field missing in a language falls back to English, then to the
text the caller gives (an event's own ``message``): a screen never shows a
key to a player.

A field that is itself a word (a card's name, a colour, a command) is given
as a :class:`Word` (or several as :class:`Words`), said in the same language
as the sentence around it; refusals (``refusal.<name>``, see
:mod:`companion.core.errors`) use them so that no English word is left inside
a French sentence.

Beyond :meth:`str.format`, a template may choose its words by a number or a
value, as ICU's message format writes it (and as the panel's pages read the
same templates): ``{count, plural, one {# card} other {# cards}}`` picks the
language's CLDR plural category of ``count`` (``=0`` an exact value; ``#``
the number written in the language), ``{total, select, 2 {...} other {...}}``
a value.  The categories and the written numbers come from the rules
installed with :func:`use_locale_rules` (Babel's, see :mod:`companion.language.cldr`).
French elides "de", "que", "le" and "la" before a filled-in word that
starts with a vowel ("au tour d'Ana", "contre l'Addetto"); Italian joins a
preposition to the article that starts a filled-in word ("su" + "la Persona"
is "sulla Persona").
"""

from __future__ import annotations

import re
import string
from functools import cache
from importlib import import_module
from typing import Any, Callable, Iterable, Mapping

from .refusals import REFUSALS

LANGUAGES = ("en", "fr", "it")
DEFAULT_LANGUAGE = "en"

Phrases = Mapping[str, Mapping[str, str]]

# The button menu's own words (``menu.*``), in the table's language.
_MENU: Phrases = {
    "en": {
        "menu.ok": "OK",
        "menu.join": "Join",
        "menu.scan-panel": "Scan to open the table on your phone",
        "menu.scan-wifi": "Scan to join the companion's Wi-Fi",
        "menu.any-key-panel": "Any key: the panel",
        "menu.home": "Tabletop Companion",
        "menu.no-game": "No game: OK to start one",
        "menu.game-over": "Game over",
        "menu.changed": "Changed meanwhile",
        "menu.changed-nothing-done": (
            "The table changed meanwhile (from a phone?): nothing was done. Look again."
        ),
        "menu.changed-no-game": (
            "The table changed meanwhile (a game started from a phone?): no game was started."
            " Look again."
        ),
        "menu.refused": "Refused",
        "menu.undo": "Undo",
        "menu.redo": "Redo",
        "menu.actions": "Actions",
        "menu.corrections": "Corrections",
        "menu.wifi-offer": "Wi-Fi: {ssid}",
        "menu.dice": "Dice: {source}",
        "menu.pixels": "Pixels dice",
        "menu.join-qr": "Join (QR code)",
        "menu.sign-out": "Sign out phones",
        "menu.venue": "Venue",
        "menu.caller-title": "Caller",
        "menu.caller-on": "Caller: on",
        "menu.caller-off": "Caller: off",
        "menu.caller-turn-on": "Turns: on",
        "menu.caller-turn-off": "Turns: off",
        "menu.caller-game-on": "Start, winner: on",
        "menu.caller-game-off": "Start, winner: off",
        "menu.caller-undo-on": "Undo: on",
        "menu.caller-undo-off": "Undo: off",
        "menu.caller-play-on": "Play: on",
        "menu.caller-play-off": "Play: off",
        "menu.new-game": "New game",
        "menu.menu": "Menu",
        "menu.nothing-to-undo": "Nothing to undo: the game is at its setup",
        "menu.undo-what": "Undo: {what}?",
        "menu.nothing-to-redo": "Nothing to redo",
        "menu.no-corrections": "{title} has no corrections",
        "menu.dice-source": "Dice source",
        "menu.dice-title": "Dice",
        "menu.find-dice": "Find dice in reach",
        "menu.looking": "Looking...",
        "menu.look-again": "Look again",
        "menu.dice-in-reach": "Dice in reach",
        "menu.make-it": "Make it {role}",
        "menu.no-role": "no role",
        "menu.role-red": "red",
        "menu.role-blue": "blue",
        "menu.role-d6": "d6",
        "menu.away": "away",
        "menu.forget-it": "Forget it",
        "menu.forget-die": "Forget {name}? Pair it again to use it.",
        "menu.die-gone": "This die is no longer paired (forgotten from a phone?)",
        "menu.wifi": "Wi-Fi",
        "menu.wifi-switch": "Join {ssid}? Phones on the companion's Wi-Fi lose it",
        "menu.wifi-join-failed": (
            "Could not join {ssid}: {reason}. Back on the companion's own Wi-Fi"
        ),
        "menu.wifi-why-wrong-password": "the password is wrong",
        "menu.wifi-why-not-found": "the network is not in reach",
        "menu.wifi-why-timeout": "the network did not answer in time",
        "menu.wifi-why-failed": "the Wi-Fi refused",
        "menu.wifi-in-reach": "{ssid} is in reach: BACK, then Wi-Fi to join it",
        "menu.wifi-lost": "Wi-Fi: the network is lost",
        "menu.date-unknown": (
            "Date unknown: the table's clock is not set (no internet); a player's phone "
            "sets it when it joins"),
        "menu.no-panel": "The phone panel is not running",
        "menu.sign-out-ask": "Sign out every phone? New PIN and QR code.",
        "menu.venue-ask": "Allow a phone to change it for 5 min?",
        "menu.venue-allowed": "A controller may change it for 5 minutes.",
        "menu.rematch-of": "Rematch: {title}",
        "menu.rematch": "Rematch",
        "menu.rematch-ask": "New {title} with {players}?",
        "menu.new-game-ask": "{title} with {players}?",
        "menu.players-of": "{title}: players",
        "menu.not-here": "Not here",
        "menu.not-a-command": "'{command}' is not a command of {title}",
        "menu.keys-enter": "OK: enter  BACK: back",
        "menu.keys-confirm": "OK: yes  BACK: no",
        "menu.keys-home": "BACK: menu  hold OK: more",
        "menu.keys-back": "BACK: back",
        "menu.source-button": "button",
        "menu.source-manual": "manual",
        "menu.source-serial": "serial",
        "menu.source-pixels": "pixels",
        "menu.yes": "Yes",
        "menu.no": "No",
        "menu.none": "(none)",
        "menu.out": "out",
        "menu.roll": "Roll",
        "menu.roll-button": "press ROLL",
        "menu.roll-device": "roll the dice device",
        "menu.roll-where": "{what}: {where}, or choose manual dice in the menu",
        "menu.nothing-to-choose": "Nothing to choose",
        "menu.nothing-to-choose-now": "no {what} can be chosen now",
        "menu.note-1": "Corrected by hand",
        "menu.note-2": "Card played by mistake",
        "menu.note-3": "House rule applied",
        "menu.note-4": "Game paused",
        "menu.param-card": "card",
        "menu.param-colour": "colour",
        "menu.param-kind": "kind",
        "menu.param-player": "player",
        "menu.param-text": "text",
        "menu.param-values": "values",
        "menu.param-count": "count",
        "menu.param-delta": "delta",
        "menu.param-value": "value",
        "menu.param-target": "target",
        "menu.applied": "{card} applied",
    },
    "fr": {
        "menu.ok": "OK",
        "menu.join": "Rejoindre",
        "menu.scan-panel": "Scannez pour ouvrir la table sur votre téléphone",
        "menu.scan-wifi": "Scannez pour rejoindre le Wi-Fi du compagnon",
        "menu.any-key-panel": "Une touche : le panneau",
        "menu.home": "Tabletop Companion",
        "menu.no-game": "Pas de partie : OK pour commencer",
        "menu.game-over": "Partie finie",
        "menu.changed": "Changé entre-temps",
        "menu.changed-nothing-done": (
            "La table a changé entre-temps (depuis un téléphone ?) : rien n'a été fait. "
            "Regardez à nouveau."
        ),
        "menu.changed-no-game": (
            "La table a changé entre-temps (une partie lancée depuis un téléphone ?) : aucune"
            " partie lancée. Regardez à nouveau."
        ),
        "menu.refused": "Refusé",
        "menu.undo": "Annuler",
        "menu.redo": "Rétablir",
        "menu.actions": "Actions",
        "menu.corrections": "Corrections",
        "menu.wifi-offer": "Wi-Fi : {ssid}",
        "menu.dice": "Dés : {source}",
        "menu.pixels": "Dés Pixels",
        "menu.join-qr": "Rejoindre (QR code)",
        "menu.sign-out": "Déconnecter",
        "menu.venue": "Lieu",
        "menu.caller-title": "Annonceur",
        "menu.caller-on": "Annonceur : oui",
        "menu.caller-off": "Annonceur : non",
        "menu.caller-turn-on": "Tours : oui",
        "menu.caller-turn-off": "Tours : non",
        "menu.caller-game-on": "Début, gagnant : oui",
        "menu.caller-game-off": "Début, gagnant : non",
        "menu.caller-undo-on": "Annulations : oui",
        "menu.caller-undo-off": "Annulations : non",
        "menu.caller-play-on": "Jeu : oui",
        "menu.caller-play-off": "Jeu : non",
        "menu.new-game": "Nouvelle partie",
        "menu.menu": "Menu",
        "menu.nothing-to-undo": "Rien à annuler : la partie est à sa mise en place",
        "menu.undo-what": "Annuler : {what} ?",
        "menu.nothing-to-redo": "Rien à rétablir",
        "menu.no-corrections": "{title} n'a pas de corrections",
        "menu.dice-source": "Source des dés",
        "menu.dice-title": "Dés",
        "menu.find-dice": "Chercher les dés",
        "menu.looking": "Recherche...",
        "menu.look-again": "Chercher encore",
        "menu.dice-in-reach": "Dés à portée",
        "menu.make-it": "En faire le {role}",
        "menu.no-role": "aucun rôle",
        "menu.role-red": "rouge",
        "menu.role-blue": "bleu",
        "menu.role-d6": "d6",
        "menu.away": "absent",
        "menu.forget-it": "L'oublier",
        "menu.forget-die": "Oublier {name} ? Associez-le à nouveau pour l'utiliser.",
        "menu.die-gone": "Ce dé n'est plus associé (oublié depuis un téléphone ?)",
        "menu.wifi": "Wi-Fi",
        "menu.wifi-switch": (
            "Rejoindre {ssid} ? Les téléphones sur le Wi-Fi du compagnon le perdent"
        ),
        "menu.wifi-join-failed": (
            "Impossible de rejoindre {ssid} : {reason}. Retour sur le Wi-Fi du compagnon"
        ),
        "menu.wifi-why-wrong-password": "le mot de passe est faux",
        "menu.wifi-why-not-found": "le réseau n'est pas à portée",
        "menu.wifi-why-timeout": "le réseau n'a pas répondu à temps",
        "menu.wifi-why-failed": "le Wi-Fi a refusé",
        "menu.wifi-in-reach": "{ssid} est à portée : RETOUR, puis Wi-Fi pour le rejoindre",
        "menu.wifi-lost": "Wi-Fi : le réseau est perdu",
        "menu.date-unknown": (
            "Date inconnue : l'horloge de la table n'est pas réglée (pas d'internet) ; le "
            "téléphone d'un joueur la règle quand il rejoint"),
        "menu.no-panel": "Le panneau des téléphones ne tourne pas",
        "menu.sign-out-ask": "Déconnecter tous les téléphones ? Nouveau PIN et QR code.",
        "menu.venue-ask": "Autoriser un téléphone 5 min ?",
        "menu.venue-allowed": "Un contrôleur peut le changer pendant 5 minutes.",
        "menu.rematch-of": "Revanche : {title}",
        "menu.rematch": "Revanche",
        "menu.rematch-ask": "Nouvelle partie de {title} avec {players} ?",
        "menu.new-game-ask": "{title} avec {players} ?",
        "menu.players-of": "{title} : joueurs",
        "menu.not-here": "Pas ici",
        "menu.not-a-command": "« {command} » n'est pas une commande de {title}",
        "menu.keys-enter": "OK : choisir  RETOUR : revenir",
        "menu.keys-confirm": "OK : oui  RETOUR : non",
        "menu.keys-home": "RETOUR : menu  OK long : plus",
        "menu.keys-back": "RETOUR : revenir",
        "menu.source-button": "bouton",
        "menu.source-manual": "à la main",
        "menu.source-serial": "port série",
        "menu.source-pixels": "dés Pixels",
        "menu.yes": "Oui",
        "menu.no": "Non",
        "menu.none": "(aucun)",
        "menu.out": "éliminé",
        "menu.roll": "Lancer",
        "menu.roll-button": "appuyez sur LANCER",
        "menu.roll-device": "lancez sur le boîtier à dés",
        "menu.roll-where": "{what} : {where}, ou choisissez les dés à la main dans le menu",
        "menu.nothing-to-choose": "Rien à choisir",
        "menu.nothing-to-choose-now": "aucun choix possible pour « {what} » maintenant",
        "menu.note-1": "Corrigé à la main",
        "menu.note-2": "Carte jouée par erreur",
        "menu.note-3": "Règle maison appliquée",
        "menu.note-4": "Partie en pause",
        "menu.param-card": "carte",
        "menu.param-colour": "couleur",
        "menu.param-kind": "sorte",
        "menu.param-player": "joueur",
        "menu.param-text": "texte",
        "menu.param-values": "dés",
        "menu.param-count": "nombre",
        "menu.param-delta": "écart",
        "menu.param-value": "valeur",
        "menu.param-target": "cible",
        "menu.applied": "{card} appliquée",
    },
    "it": {
        "menu.ok": "OK",
        "menu.join": "Entra",
        "menu.scan-panel": "Inquadra per aprire il tavolo sul telefono",
        "menu.scan-wifi": "Inquadra per entrare nel Wi-Fi del compagno",
        "menu.any-key-panel": "Un tasto: il pannello",
        "menu.home": "Tabletop Companion",
        "menu.no-game": "Nessuna partita: OK per iniziare",
        "menu.game-over": "Partita finita",
        "menu.changed": "Cambiato nel frattempo",
        "menu.changed-nothing-done": (
            "Il tavolo è cambiato nel frattempo (da un telefono?): non è stato fatto nulla. "
            "Guarda di nuovo."
        ),
        "menu.changed-no-game": (
            "Il tavolo è cambiato nel frattempo (una partita iniziata da un telefono?): "
            "nessuna partita iniziata. Guarda di nuovo."
        ),
        "menu.refused": "Rifiutato",
        "menu.undo": "Annulla",
        "menu.redo": "Ripeti",
        "menu.actions": "Azioni",
        "menu.corrections": "Correzioni",
        "menu.wifi-offer": "Wi-Fi: {ssid}",
        "menu.dice": "Dadi: {source}",
        "menu.pixels": "Dadi Pixels",
        "menu.join-qr": "Entra (codice QR)",
        "menu.sign-out": "Disconnetti telefoni",
        "menu.venue": "Locale",
        "menu.caller-title": "Annunciatore",
        "menu.caller-on": "Annunciatore: sì",
        "menu.caller-off": "Annunciatore: no",
        "menu.caller-turn-on": "Turni: sì",
        "menu.caller-turn-off": "Turni: no",
        "menu.caller-game-on": "Inizio, vincitore: sì",
        "menu.caller-game-off": "Inizio, vincitore: no",
        "menu.caller-undo-on": "Annullamenti: sì",
        "menu.caller-undo-off": "Annullamenti: no",
        "menu.caller-play-on": "Gioco: sì",
        "menu.caller-play-off": "Gioco: no",
        "menu.new-game": "Nuova partita",
        "menu.menu": "Menu",
        "menu.nothing-to-undo": "Niente da annullare: la partita è all'inizio",
        "menu.undo-what": "Annullare: {what}?",
        "menu.nothing-to-redo": "Niente da ripetere",
        "menu.no-corrections": "{title} non ha correzioni",
        "menu.dice-source": "Fonte dei dadi",
        "menu.dice-title": "Dadi",
        "menu.find-dice": "Cerca i dadi vicini",
        "menu.looking": "Ricerca...",
        "menu.look-again": "Cerca ancora",
        "menu.dice-in-reach": "Dadi vicini",
        "menu.make-it": "Rendilo il {role}",
        "menu.no-role": "nessun ruolo",
        "menu.role-red": "rosso",
        "menu.role-blue": "blu",
        "menu.role-d6": "d6",
        "menu.away": "lontano",
        "menu.forget-it": "Dimenticalo",
        "menu.forget-die": "Dimenticare {name}? Abbinalo di nuovo per usarlo.",
        "menu.die-gone": "Questo dado non è più abbinato (dimenticato da un telefono?)",
        "menu.wifi": "Wi-Fi",
        "menu.wifi-switch": "Entrare in {ssid}? I telefoni sul Wi-Fi del compagno lo perdono",
        "menu.wifi-join-failed": (
            "Impossibile entrare in {ssid}: {reason}. Di nuovo sul Wi-Fi del compagno"
        ),
        "menu.wifi-why-wrong-password": "la password è sbagliata",
        "menu.wifi-why-not-found": "la rete non è raggiungibile",
        "menu.wifi-why-timeout": "la rete non ha risposto in tempo",
        "menu.wifi-why-failed": "il Wi-Fi ha rifiutato",
        "menu.wifi-in-reach": "{ssid} è raggiungibile: INDIETRO, poi Wi-Fi per entrarvi",
        "menu.wifi-lost": "Wi-Fi: la rete è persa",
        "menu.date-unknown": (
            "Data sconosciuta: l'orologio del tavolo non è regolato (niente internet); il "
            "telefono di un giocatore lo regola quando si unisce"),
        "menu.no-panel": "Il pannello per i telefoni non è attivo",
        "menu.sign-out-ask": "Disconnettere tutti i telefoni? Nuovo PIN e codice QR.",
        "menu.venue-ask": "Autorizzare un telefono 5 min?",
        "menu.venue-allowed": "Un controllore può cambiarlo per 5 minuti.",
        "menu.rematch-of": "Rivincita: {title}",
        "menu.rematch": "Rivincita",
        "menu.rematch-ask": "Nuova partita a {title} con {players}?",
        "menu.new-game-ask": "{title} con {players}?",
        "menu.players-of": "{title}: giocatori",
        "menu.not-here": "Non qui",
        "menu.not-a-command": "'{command}' non è un comando di {title}",
        "menu.keys-enter": "OK: scegli  INDIETRO: torna",
        "menu.keys-confirm": "OK: sì  INDIETRO: no",
        "menu.keys-home": "INDIETRO: menu  OK lungo: altro",
        "menu.keys-back": "INDIETRO: torna",
        "menu.source-button": "pulsante",
        "menu.source-manual": "a mano",
        "menu.source-serial": "seriale",
        "menu.source-pixels": "dadi Pixels",
        "menu.yes": "Sì",
        "menu.no": "No",
        "menu.none": "(nessuno)",
        "menu.out": "eliminato",
        "menu.roll": "Tira",
        "menu.roll-button": "premi TIRA",
        "menu.roll-device": "tira sul dispositivo dei dadi",
        "menu.roll-where": "{what}: {where}, o scegli i dadi a mano nel menu",
        "menu.nothing-to-choose": "Niente da scegliere",
        "menu.nothing-to-choose-now": "nessuna scelta possibile per «{what}» ora",
        "menu.note-1": "Corretto a mano",
        "menu.note-2": "Carta giocata per errore",
        "menu.note-3": "Regola della casa applicata",
        "menu.note-4": "Partita in pausa",
        "menu.param-card": "carta",
        "menu.param-colour": "colore",
        "menu.param-kind": "tipo",
        "menu.param-player": "giocatore",
        "menu.param-text": "testo",
        "menu.param-values": "dadi",
        "menu.param-count": "numero",
        "menu.param-delta": "scarto",
        "menu.param-value": "valore",
        "menu.param-target": "bersaglio",
        "menu.applied": "{card} applicata",
    },
}

# The command line's own words (``cli.*``), in the table's language.
_CLI: Phrases = {
    "en": {
        "cli.heading": "{title}, game {number}, step {step}",
        "cli.column.player": "Player",
        "cli.took-back": "Took back: {what}",
        "cli.active": "{name}'s turn",
        "cli.first_player": "{name} plays first",
        "cli.tie_break": "tie-break for {name}",
        "cli.winner": "{name} wins",
        "cli.winners": "winners: {names}",
        "cli.nothing-played": "nothing played yet",
        "cli.undone": "Undone: {what}",
        "cli.redone": "Redone: {what}",
        "cli.no-games": "no games yet",
        "cli.status.playing": "playing",
        "cli.status.over": "over",
        "cli.status.abandoned": "abandoned",
        "cli.games-played": "games played: {n}",
        "cli.won-of": "won {won} of {played}",
        "cli.game-games": "{title}: {n, plural, one {# game} other {# games}}",
        "cli.player-stats": (
            "won {won} of {played} ({rate}%), {streak} in a row, best run {best_streak}"
        ),
        "cli.record": "record, {kind}: {value} by {player} (game #{number})",
        "cli.head-to-head": (
            "{a} {a_won} - {b_won} {b} ({games, plural, one {# game} other {# games}} together)"
        ),
    },
    "fr": {
        "cli.heading": "{title}, partie {number}, étape {step}",
        "cli.column.player": "Joueur",
        "cli.took-back": "Repris : {what}",
        "cli.active": "au tour de {name}",
        "cli.first_player": "{name} commence",
        "cli.tie_break": "départage pour {name}",
        "cli.winner": "{name} gagne",
        "cli.winners": "gagnants : {names}",
        "cli.nothing-played": "rien n'a encore été joué",
        "cli.undone": "Annulé : {what}",
        "cli.redone": "Rétabli : {what}",
        "cli.no-games": "pas encore de partie",
        "cli.status.playing": "en cours",
        "cli.status.over": "terminée",
        "cli.status.abandoned": "abandonnée",
        "cli.games-played": "parties jouées : {n}",
        "cli.won-of": "a gagné {won} sur {played}",
        "cli.game-games": "{title} : {n, plural, one {# partie} other {# parties}}",
        "cli.player-stats": (
            "a gagné {won} sur {played} ({rate} %), {streak} d'affilée,"
            " meilleure série {best_streak}"
        ),
        "cli.record": "record, {kind} : {value} par {player} (partie n° {number})",
        "cli.head-to-head": (
            "{a} {a_won} - {b_won} {b} ({games, plural, one {# partie} other {# parties}}"
            " ensemble)"
        ),
    },
    "it": {
        "cli.heading": "{title}, partita {number}, passo {step}",
        "cli.column.player": "Giocatore",
        "cli.took-back": "Ripreso: {what}",
        "cli.active": "tocca a {name}",
        "cli.first_player": "inizia {name}",
        "cli.tie_break": "spareggio per {name}",
        "cli.winner": "vince {name}",
        "cli.winners": "vincitori: {names}",
        "cli.nothing-played": "ancora niente di giocato",
        "cli.undone": "Annullato: {what}",
        "cli.redone": "Ripetuto: {what}",
        "cli.no-games": "ancora nessuna partita",
        "cli.status.playing": "in corso",
        "cli.status.over": "finita",
        "cli.status.abandoned": "abbandonata",
        "cli.games-played": "partite giocate: {n}",
        "cli.won-of": "ha vinto {won} su {played}",
        "cli.game-games": "{title}: {n, plural, one {# partita} other {# partite}}",
        "cli.player-stats": (
            "ha vinto {won} su {played} ({rate}%), {streak} di fila,"
            " serie migliore {best_streak}"
        ),
        "cli.record": "record, {kind}: {value} di {player} (partita n. {number})",
        "cli.head-to-head": (
            "{a} {a_won} - {b_won} {b} ({games, plural, one {# partita} other {# partite}}"
            " insieme)"
        ),
    },
}


# The caller's own words for every game (companion.core.caller; a game's
# caller.py has its own).
_CALLER: Phrases = {
    "en": {
        "caller.turn": "{player}'s turn",
        "caller.starts": "{player} starts",
        "caller.new-game": "New game of {title}: {players}",
        "caller.winner": "The game goes to {winners}!",
        "caller.no-winner": "The game is over, with no winner",
        "caller.taken-back": "Taken back: {what}",
        "caller.taken-back-nothing": "Taken back",
        "caller.moment.turn": "Whose turn it is",
        "caller.moment.game": "A game's start and its winner",
        "caller.moment.undo": "What is taken back",
        "caller.moment.play": "What happens in play",
    },
    "fr": {
        "caller.turn": "Au tour de {player}",
        "caller.starts": "{player} commence",
        "caller.new-game": "Nouvelle partie de {title} : {players}",
        "caller.winner": "La partie revient à {winners} !",
        "caller.no-winner": "La partie est finie, sans gagnant",
        "caller.taken-back": "Annulé : {what}",
        "caller.taken-back-nothing": "Annulé",
        "caller.moment.turn": "À qui le tour",
        "caller.moment.game": "Le début d'une partie et son gagnant",
        "caller.moment.undo": "Ce qui est annulé",
        "caller.moment.play": "Ce qui se passe en jeu",
    },
    "it": {
        "caller.turn": "Tocca a {player}",
        "caller.starts": "Inizia {player}",
        "caller.new-game": "Nuova partita di {title}: {players}",
        "caller.winner": "La partita va a {winners}!",
        "caller.no-winner": "La partita è finita, senza vincitori",
        "caller.taken-back": "Annullato: {what}",
        "caller.taken-back-nothing": "Annullato",
        "caller.moment.turn": "A chi tocca",
        "caller.moment.game": "L'inizio di una partita e il vincitore",
        "caller.moment.undo": "Ciò che viene annullato",
        "caller.moment.play": "Ciò che succede in gioco",
    },
}


# What every game shares (the menu's and the command line's words and the
# common refusals); a game's own TEXT may override a key.
COMMON: Phrases = {lang: {**_MENU[lang], **_CLI[lang], **_CALLER[lang], **REFUSALS[lang]}
                   for lang in LANGUAGES}


# -- the rules of each language ---------------------------------------------------------


def _plural_english(lang: str, number: float) -> str:
    return "one" if number == 1 else "other"


PluralRule = Callable[[str, float], str]
NumberFormat = Callable[[str, float], str]
_rules: dict[str, Any] = {"plural": _plural_english, "number": lambda lang, number: str(number)}


def use_locale_rules(plural: PluralRule, number: NumberFormat) -> None:
    """Choose the plural categories (``plural(lang, n)`` -> ``"one"``,
    ``"few"``, ``"other"``...) and the written numbers (``number(lang, n)``)
    that templates use; the companion installs CLDR's (:mod:`companion.language.cldr`)."""
    _rules["plural"] = plural
    _rules["number"] = number


def plural_category(lang: str, number: float) -> str:
    """The CLDR plural category of ``number`` in ``lang``."""
    found: str = _rules["plural"](lang, number)
    return found


def number_text(lang: str, number: float) -> str:
    """``number`` written as ``lang`` writes numbers."""
    found: str = _rules["number"](lang, number)
    return found


_CHOICE = re.compile(r"\{\s*(\w+)\s*,\s*(plural|select)\s*,")
_BRANCH = re.compile(r"\s*(=?[\w.-]+)\s*\{")


def _closing(text: str, start: int) -> int:
    """The index of the ``}`` that closes the ``{`` just before ``start``."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced braces in {text!r}")


def _branches(text: str) -> dict[str, str]:
    """``one {...} other {...}`` as ``{"one": "...", "other": "..."}``."""
    found: dict[str, str] = {}
    at = 0
    while at < len(text) and text[at:].strip():
        match = _BRANCH.match(text, at)
        if match is None:
            raise ValueError(f"not a choice: {text!r}")
        end = _closing(text, match.end())
        found[match.group(1)] = text[match.end():end]
        at = end + 1
    if "other" not in found:
        raise ValueError(f"a choice needs an 'other': {text!r}")
    return found


def _choose(template: str, lang: str, fields: Mapping[str, Any]) -> str:
    """``template`` with its plural and select choices made from ``fields``."""
    out = []
    at = 0
    while (match := _CHOICE.search(template, at)) is not None:
        end = _closing(template, match.end())
        name, how = match.group(1), match.group(2)
        value = fields[name]
        branches = _branches(template[match.end():end])
        if how == "plural":
            number = value if isinstance(value, (int, float)) else float(value)
            exact = f"={number:g}"
            body = branches.get(exact) or branches.get(plural_category(lang, number)) \
                or branches["other"]
            body = body.replace("#", number_text(lang, number))
        else:
            body = branches.get(str(value).lower() if isinstance(value, bool) else str(value),
                                branches["other"])
        out += [template[at:match.start()], _choose(body, lang, fields)]
        at = end + 1
    out.append(template[at:])
    return "".join(out)


# Words a language shortens before a vowel: "de" + "Ana" is "d'Ana".
_ELIDED: Mapping[str, re.Pattern[str]] = {
    "fr": re.compile(r"\b([Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque|[Ll]e|[Ll]a) \{(\w+)\}"),
}
_VOWEL = re.compile(r"[aeiouyàâäéèêëîïôöùûüæœ]", re.IGNORECASE)


# What a rule finds in a template, found once a template (most have
# nothing to elide or join): the names of the fields it would change.
_FOUND: dict[re.Pattern[str], dict[str, tuple[str, ...]]] = {}


def _fields_found(rule: re.Pattern[str], template: str) -> tuple[str, ...]:
    known = _FOUND.get(rule)
    if known is None:
        known = _FOUND[rule] = {}
    names = known.get(template)
    if names is None:
        if len(known) > 4096:
            known.clear()
        names = known[template] = tuple(m.group(2) for m in rule.finditer(template))
    return names


def _elide(template: str, lang: str, fields: Mapping[str, Any]) -> str:
    rule = _ELIDED.get(lang)
    if rule is None or not _fields_found(rule, template):
        return template

    def shorten(match: re.Match[str]) -> str:
        value = fields.get(match.group(2))
        if isinstance(value, str) and _VOWEL.match(value):
            return f"{match.group(1)[:-1]}'{{{match.group(2)}}}"
        return match.group(0)

    return rule.sub(shorten, template)


# Italian joins a preposition and the article of the word after it:
# "di" + "la Persona" is "della Persona", "su" + "l'Anziano" "sull'Anziano".
_JOINED: Mapping[str, Mapping[str, str]] = {
    prep: {"il": f"{stem}l", "lo": f"{stem}llo", "la": f"{stem}lla", "i": f"{stem}i",
           "gli": f"{stem}gli", "le": f"{stem}lle", "l'": f"{stem}ll'"}
    for prep, stem in (("di", "de"), ("a", "a"), ("da", "da"), ("in", "ne"), ("su", "su"))
}
_JOINS: Mapping[str, re.Pattern[str]] = {
    "it": re.compile(r"\b([Dd]i|[Aa]|[Dd]a|[Ii]n|[Ss]u) \{(\w+)\}"),
}
_ARTICLE = re.compile(r"(?:(il|lo|la|i|gli|le) |(l)['’])(?=\w)")


def _join(template: str, lang: str, fields: Mapping[str, Any]) -> str:
    rule = _JOINS.get(lang)
    if rule is None:
        return template
    for name in _fields_found(rule, template):
        value = fields.get(name)
        if isinstance(value, str) and _ARTICLE.match(value):
            break
    else:
        return template

    def joined(match: re.Match[str]) -> str:
        prep, name = match.group(1), match.group(2)
        value = fields.get(name)
        article = _ARTICLE.match(value) if isinstance(value, str) else None
        if article is None:
            return match.group(0)
        word = _JOINED[prep.lower()][article.group(1) or "l'"]
        word = prep[0] + word[1:]
        rest = str(value)[article.end():].replace("{", "{{").replace("}", "}}")
        return f"{word}{rest}" if word.endswith("'") else f"{word} {rest}"

    return rule.sub(joined, template)


def fill(template: str, lang: str, fields: Mapping[str, Any]) -> str:
    """``template`` said in ``lang`` with ``fields`` (already said): its
    choices made, its elisions and contractions, then its ``{fields}``
    filled in.  Raises ``KeyError`` for a missing field, ``ValueError`` for
    a broken template."""
    chosen = _choose(template, lang, fields) if "," in template else template
    shaped = _join(_elide(chosen, lang, fields), lang, fields)
    return string.Formatter().vformat(shaped, (), _Fields(fields))


class Word:
    """A field that is itself a phrase: ``key`` said with ``fields`` in the
    language of the sentence it stands in (``Word("card.toilette")``)."""

    __slots__ = ("default", "fields", "key")

    def __init__(self, key: str, /, *, default: str | None = None, **fields: Any) -> None:
        self.key = key
        self.fields = fields
        self.default = default

    def __repr__(self) -> str:
        return f"Word({self.key!r}, **{self.fields!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Word) and other.key == self.key
                and other.fields == self.fields and other.default == self.default)

    __hash__ = None  # type: ignore[assignment]


class Words:
    """Several fields said one after the other, joined by ``sep`` (a list of
    cards, of colours): each a :class:`Word` or a plain value.  ``last``
    joins the last two (``Word("refusal.and")``); ``unique`` says each
    wording once (several reveals are one "Reveal" where they are labels)."""

    __slots__ = ("items", "last", "sep", "unique")

    def __init__(self, items: Iterable[Any], sep: str = ", ", last: Word | None = None,
                 unique: bool = False) -> None:
        self.items = tuple(items)
        self.sep = sep
        self.last = last
        self.unique = unique

    def __repr__(self) -> str:
        return f"Words({list(self.items)!r}, sep={self.sep!r}, last={self.last!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and ((other.items, other.sep, other.last)
                                             == (self.items, self.sep, self.last))

    __hash__ = None  # type: ignore[assignment]


def said(value: Any, lang: str, game: str | None = None) -> Any:
    """``value`` as it reads in ``lang``: a :class:`Word` or :class:`Words`
    said there, anything else as it is."""
    if isinstance(value, Word):
        return say(value.key, lang, game=game, default=value.default, **value.fields)
    if isinstance(value, Words):
        parts = [str(said(item, lang, game)) for item in value.items]
        if value.unique:
            parts = list(dict.fromkeys(parts))
        if value.last is not None and len(parts) > 1:
            last = str(said(value.last, lang, game))
            return value.sep.join(parts[:-1]) + last + parts[-1]
        return value.sep.join(parts)
    return value


def term(name: str, key: str) -> Word:
    """A word the English command line knows by ``name`` (a command, a
    parameter, a variant): the name itself in English, where players type
    it, and the label ``key`` in the other languages."""
    return Word("refusal.term", name=name, label=Word(key, default=name))


def command_word(name: str) -> Word:
    """A command as a word: its name in English, its label elsewhere."""
    return term(name, f"command.{name}")


def param_word(game: str | None, command: str, name: str) -> Word:
    """A command parameter as a word: its name in English, elsewhere its
    label ``param.<command>.<name>``, else ``param.<name>``."""
    for key in (f"param.{command}.{name}", f"param.{name}"):
        if template(key, DEFAULT_LANGUAGE, game) is not None:
            return term(name, key)
    return term(name, f"param.{name}")


class _Fields(dict[str, Any]):
    """Fields for a template; a missing one makes the template unusable."""

    def __missing__(self, key: str) -> Any:
        raise KeyError(key)


@cache
def game_phrases(game_key: str) -> Phrases:
    """A game's own phrases (``{}`` when the game has none)."""
    folder = game_key.replace("-", "_")
    try:
        module = import_module(f"companion.core.games.{folder}.text")
    except ImportError:
        return {}
    found: Phrases = getattr(module, "TEXT", {})
    return found


def template(key: str, lang: str, game: str | None = None) -> str | None:
    """The template for ``key`` in ``lang`` (English when ``lang`` has
    none), the game's own before the common one; ``None`` when unknown."""
    sources = [game_phrases(game)] if game else []
    sources.append(COMMON)
    for language in (lang, DEFAULT_LANGUAGE):
        for phrases in sources:
            found = phrases.get(language, {}).get(key)
            if found is not None:
                return found
    return None


def phrase(key: str, lang: str, game: str | None = None, **fields: Any) -> str | None:
    """The sentence for ``key`` written in ``lang`` itself (the game's own
    before the common one), with ``fields`` filled in; ``None`` when
    ``lang`` has none (no fallback to English: the caller decides)."""
    for phrases in ([game_phrases(game)] if game else []) + [COMMON]:
        found = phrases.get(lang, {}).get(key)
        if found is not None:
            try:
                return fill(found, lang, fields)
            except (KeyError, IndexError, ValueError):
                return None
    return None


def say(key: str, lang: str, *, game: str | None = None, default: str | None = None,
        **fields: Any) -> str:
    """The sentence for ``key`` in ``lang`` with ``fields`` filled in.

    Falls back to English, then to ``default``, then to the key itself.
    Fields given as :class:`Word` or :class:`Words` are said in the same
    language as the sentence.
    """
    for language in (lang, DEFAULT_LANGUAGE):
        found = template(key, language, game)
        if found is None:
            continue
        try:
            filled = {name: said(value, language, game) for name, value in fields.items()}
            return fill(found, language, filled)
        except (KeyError, IndexError, ValueError):
            continue
    return default if default is not None else key


def language(wanted: str | None) -> str:
    """``wanted`` when the companion speaks it, else the default."""
    if wanted and wanted.split("-")[0].lower() in LANGUAGES:
        return wanted.split("-")[0].lower()
    return DEFAULT_LANGUAGE


def event_sentence(kind: str, message: str, data: Mapping[str, Any], lang: str,
                   game: str | None = None, players: Iterable[str] = ()) -> str:
    """An event said in ``lang`` from its kind and data, as the panel's
    pages say it: the game's ``event.<kind>.<value>`` (a form told apart by
    a text or yes/no value of its data) before ``event.<kind>``,
    ``event.<kind>.1`` to ``.9`` and ``event.<kind>.other``, the first whose
    fields the data fill; seats are
    the players' names, lists are joined with " + ", a choice or a card is
    its label.  English, or no template: the event's own ``message``."""
    if lang == DEFAULT_LANGUAGE:
        return message
    names = list(players)
    values = [str(v).lower() if isinstance(v, bool) else v for v in data.values()
              if isinstance(v, (str, bool))]
    # A kind said in several forms by the data it carries: ``.1``, ``.2``... in turn.
    keys = ([f"event.{kind}.{value}" for value in values] + [f"event.{kind}"]
            + [f"event.{kind}.{n}" for n in range(1, 10)] + [f"event.{kind}.other"])
    fields = _event_fields(data, names, lang, game)
    for key in keys:
        found = phrase(key, lang, game, **fields)
        if found is not None:
            return found
    return message


def result_sentence(result: Mapping[str, Any], lang: str, game: str | None = None,
                    players: Iterable[str] = ()) -> str:
    """How a game ended (a result's JSON) said in ``lang``: the game's own
    sentence in that language (``said``) where it gives one, else its
    winners said as its game-over event; English is its ``message``."""
    message = str(result.get("message", ""))
    said = result.get("said")
    if isinstance(said, Mapping) and isinstance(said.get(lang), str):
        return str(said[lang])
    if lang == DEFAULT_LANGUAGE:
        return message
    data = {k: v for k, v in result.items() if k not in ("said", "message")}
    return event_sentence("game-over", message, data, lang, game, players)


def _event_fields(data: Mapping[str, Any], names: list[str], lang: str,
                  game: str | None) -> dict[str, Any]:
    """An event's data as its sentence's fields: seats as the players'
    names, lists joined with " + ", a choice or a card as its label."""
    fields: dict[str, Any] = dict(data)
    for name in ("player", "target", "starter"):
        seat = fields.get(name)
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
            fields[name] = names[seat]
    winners = fields.get("winners")
    if isinstance(winners, list):
        fields["winners"] = ", ".join(
            names[s] if isinstance(s, int) and 0 <= s < len(names) else str(s) for s in winners)
    for name, value in data.items():
        if isinstance(value, list) and name != "winners":
            fields[name] = " + ".join(str(v) for v in value)
        elif isinstance(value, str) and game is not None:
            fields[name] = _label(value, lang, game, default=fields[name])
    return fields


def _label(value: str, lang: str, game: str, default: Any) -> Any:
    """A choice's or a card's label in ``lang``, else ``default``."""
    for key in (f"choice.{value}", f"card.{value}"):
        label = phrase(key, lang, game)
        if label is not None:
            return label
    return default
