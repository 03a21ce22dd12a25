"""What the table says when it refuses something, in every language.

The refusals every game shares (``refusal.<name>``; see
:mod:`companion.core.errors`), merged into
:data:`companion.core.text.COMMON`.  A game's own refusals are in its
folder's ``refusals.py``.  Fields are the same in every language; a field
that is a word (a command, a die, a card) arrives already said in the
sentence's language.

Three keys are the exception (:data:`ENGLISH_READS_OTHER_FIELDS`):
``refusal.waits-player`` and ``refusal.waits-anyone`` read in English the
engine's own prompt, elsewhere who acts and the command's label (the prompt
is an English sentence); ``refusal.term`` reads in English the name that the
command line types (``set-deck``, ``value``), elsewhere its label.
"""

from __future__ import annotations

from typing import Mapping

ENGLISH_READS_OTHER_FIELDS = frozenset({
    "refusal.waits-player", "refusal.waits-anyone", "refusal.term",
})

REFUSALS: Mapping[str, Mapping[str, str]] = {
    "en": {
        # The labels of parameters that a game does not label itself.
        "param.card": "Card",
        "param.colour": "Colour",
        "param.count": "How many",
        "param.delta": "Change",
        "param.kind": "Kind",
        "param.player": "Player",
        "param.text": "Note",
        "param.value": "Value",
        "param.values": "Dice",
        # Stale commands and missing games.
        "refusal.stale-version": (
            "the command was made against {made}, but the table is at {now}: "
            "look at the table again and resend if still wanted"
        ),
        "refusal.at-version": "version {version}",
        "refusal.at-no-game": "no game",
        "refusal.at-game": "game {number}",
        "refusal.at-game-version": "game {number} at version {version}",
        "refusal.no-game": "no game at the table yet: start one first",
        "refusal.not-your-seat": (
            "it is {player}'s turn: only {player}'s own phone may play it (this phone "
            "is {seat}'s), as the table's setting 'Turns only from the player's own phone' says"),
        "refusal.not-your-seat-none": (
            "it is {player}'s turn: only {player}'s own phone may play it (this phone has "
            "no seat), as the table's setting 'Turns only from the player's own phone' says"),
        "refusal.no-such-game": "no game {number} in the journal; see the list of games",
        "refusal.unknown-game": "no game '{name}'; the games are: {games}",
        "refusal.game-over": "the game is over; start a new game or undo",
        "refusal.card-full": (
            "the memory card is full: nothing more can be recorded; the game so far is "
            "safe. Free some space (or replace the card) and play on"),
        "refusal.card-failing": (
            "the memory card can no longer be written (it has failed or turned read-only): "
            "nothing more can be recorded; the game so far is safe. Back up the journal and "
            "replace the card"),
        "refusal.nothing-to-undo": "nothing to undo: the game is at its setup",
        "refusal.nothing-to-redo": "nothing to redo",
        # Commands and their arguments.
        "refusal.command-shape": "a command is an object with a 'name' and optional 'args'",
        "refusal.command-args": "a command's 'args' must be an object",
        "refusal.no-command": "no command given",
        "refusal.unknown-command": "{title} has no command '{name}'; its commands are: {allowed}",
        "refusal.missing-argument": "'{command}' needs '{param}'",
        "refusal.extra-argument": (
            "'{command}' takes no argument named {extra}; it takes: {takes}"
        ),
        "refusal.too-many-words": "too many words for '{command}': {words} (it takes: {takes})",
        "refusal.not-a-number": "'{param}' must be a whole number, not {raw}",
        "refusal.out-of-range": "'{param}' is {value}, outside the allowed range {low}..{high}",
        "refusal.not-a-choice": "'{param}' must be one of {choices}, not {raw}",
        "refusal.not-text": "'{param}' must be text",
        "refusal.text-length": "'{param}' must be 1 to {most} characters",
        "refusal.not-yes-no": "'{param}' must be yes or no, not {raw}",
        "refusal.not-dice": "'{param}' must be die values, not {raw}",
        "refusal.unknown-player": "no player {raw} at this table; the players are {players}",
        "refusal.not-expected": "'{command}' is not expected now; the game waits for: {now}",
        "refusal.waits-player": "{prompt}",
        "refusal.waits-anyone": "{prompt}",
        "refusal.wrong-player": "it is not {player}'s turn for '{command}'; waiting for {waiting}",
        "refusal.nothing": "nothing",
        "refusal.none": "none",
        "refusal.term": "{name}",
        "refusal.and": " and ",
        # Dice.
        "refusal.roll-not-numbers": (
            "a roll of {dice} is {count, plural, one {# whole number} other {# whole numbers}}"
            " from 1 to {sides}, not {raw}"
        ),
        "refusal.roll-count": (
            "a roll of {dice} has {count, plural, one {# value} other {# values}}, not {given}"
        ),
        "refusal.die-face": (
            "{value} is not a face of a {sides}-sided die: a {dice} roll gives 1 to {sides}"
        ),
        "refusal.not-waiting": "the game is not waiting for a roll",
        "refusal.dice-starting": "the dice are starting: roll again in a moment",
        "dice.red": "red",
        "dice.blue": "blue",
        # Setting a game up.
        "refusal.setup-shape": "a setup is an object with 'players', 'variants' and 'options'",
        "refusal.setup-players": "'players' must be a list of names",
        "refusal.setup-variants": "'variants' must be a list of variant names",
        "refusal.setup-options": "'options' must be an object",
        "refusal.player-count": "{title} is for {least} to {most} players, not {count}",
        "refusal.name-length": "a player's name must be 1 to {most} characters: {name}",
        "refusal.same-name": "two players have the same name; give each player their own",
        "refusal.unknown-variant": (
            "{n, plural, one {unknown variant} other {unknown variants}} {unknown} for {title};"
            " allowed: {allowed}"
        ),
        "refusal.unknown-option": (
            "{n, plural, one {unknown option} other {unknown options}} {unknown} for {title};"
            " allowed: {allowed}"
        ),
        "refusal.no-such-option": "{title} has no setup option {name}; its options are: {options}",
        "refusal.option-not-a-number": "option '{name}' must be a whole number, not {raw}",
        "refusal.state-of-other-game": "this state is of {found}, not {wanted}",
    },
    "fr": {
        # The labels of parameters that a game does not label itself.
        "param.card": "Carte",
        "param.colour": "Couleur",
        "param.count": "Combien",
        "param.delta": "Changement",
        "param.kind": "Sorte",
        "param.player": "Joueur",
        "param.text": "Note",
        "param.value": "Valeur",
        "param.values": "Dés",
        "refusal.stale-version": (
            "la commande a été faite pour {made}, mais la table en est à {now} : "
            "regardez la table à nouveau et renvoyez-la si vous la voulez toujours"
        ),
        "refusal.at-version": "la version {version}",
        "refusal.at-no-game": "aucune partie",
        "refusal.at-game": "la partie {number}",
        "refusal.at-game-version": "la partie {number} en version {version}",
        "refusal.no-game": "pas encore de partie sur la table : lancez-en une d'abord",
        "refusal.not-your-seat": (
            "c'est à {player} de jouer : seul le téléphone de {player} peut le faire "
            "(ce téléphone est celui de {seat})"),
        "refusal.not-your-seat-none": (
            "c'est à {player} de jouer : seul le téléphone de {player} peut le faire "
            "(ce téléphone n'est à personne)"),
        "refusal.no-such-game": (
            "pas de partie {number} dans le journal ; voyez la liste des parties"
        ),
        "refusal.unknown-game": "pas de jeu « {name} » ; les jeux sont : {games}",
        "refusal.game-over": "la partie est finie ; lancez une nouvelle partie ou annulez",
        "refusal.card-full": (
            "la carte mémoire est pleine : plus rien ne peut être enregistré ; la partie "
            "jusqu'ici est en sécurité. Libérez de la place (ou changez la carte) et "
            "continuez"),
        "refusal.card-failing": (
            "la carte mémoire ne peut plus être écrite (elle est défaillante ou en lecture "
            "seule) : plus rien ne peut être enregistré ; la partie jusqu'ici est en "
            "sécurité. Sauvegardez le journal et changez la carte"),
        "refusal.nothing-to-undo": "rien à annuler : la partie en est à sa mise en place",
        "refusal.nothing-to-redo": "rien à rétablir",
        "refusal.command-shape": (
            "une commande est un objet avec un « name » et, au besoin, des « args »"
        ),
        "refusal.command-args": "les « args » d'une commande doivent être un objet",
        "refusal.no-command": "aucune commande donnée",
        "refusal.unknown-command": (
            "{title} n'a pas de commande « {name} » ; ses commandes sont : {allowed}"
        ),
        "refusal.missing-argument": "« {command} » demande « {param} »",
        "refusal.extra-argument": (
            "« {command} » ne prend pas de paramètre {extra} ; il prend : {takes}"
        ),
        "refusal.too-many-words": (
            "trop de mots pour « {command} » : {words} (il prend : {takes})"
        ),
        "refusal.not-a-number": "« {param} » doit être un nombre entier, pas {raw}",
        "refusal.out-of-range": (
            "« {param} » vaut {value}, hors des valeurs permises {low} à {high}"
        ),
        "refusal.not-a-choice": "« {param} » doit être l'un de : {choices}, pas {raw}",
        "refusal.not-text": "« {param} » doit être un texte",
        "refusal.text-length": "« {param} » doit faire de 1 à {most} caractères",
        "refusal.not-yes-no": "« {param} » se répond par oui ou non, pas {raw}",
        "refusal.not-dice": "« {param} » doit être des faces de dé, pas {raw}",
        "refusal.unknown-player": (
            "pas de joueur {raw} à cette table ; les joueurs sont {players}"
        ),
        "refusal.not-expected": (
            "« {command} » n'est pas attendu maintenant ; la partie attend : {now}"
        ),
        "refusal.waits-player": "{player} · {command}",
        "refusal.waits-anyone": "{command}",
        "refusal.wrong-player": (
            "ce n'est pas le tour de {player} pour « {command} » ; on attend {waiting}"
        ),
        "refusal.nothing": "rien",
        "refusal.none": "aucun",
        "refusal.term": "{label}",
        "refusal.and": " et ",
        "refusal.roll-not-numbers": (
            "un lancer de {dice} donne"
            " {count, plural, one {# nombre entier} other {# nombres entiers}}"
            " de 1 à {sides}, pas {raw}"
        ),
        "refusal.roll-count": (
            "un lancer de {dice} donne {count, plural, one {# valeur} other {# valeurs}},"
            " pas {given}"
        ),
        "refusal.die-face": (
            "{value} n'est pas une face d'un dé à {sides} faces : un lancer de {dice} "
            "donne de 1 à {sides}"
        ),
        "refusal.not-waiting": "la partie n'attend pas de lancer de dés",
        "refusal.dice-starting": "les dés démarrent : relancez dans un instant",
        "dice.red": "dé rouge",
        "dice.blue": "dé bleu",
        "refusal.setup-shape": (
            "une mise en place est un objet avec « players », « variants » et « options »"
        ),
        "refusal.setup-players": "« players » doit être une liste de noms",
        "refusal.setup-variants": "« variants » doit être une liste de noms de variantes",
        "refusal.setup-options": "« options » doit être un objet",
        "refusal.player-count": "{title} se joue de {least} à {most} joueurs, pas {count}",
        "refusal.name-length": (
            "le nom d'un joueur fait de 1 à {most} caractères : {name}"
        ),
        "refusal.same-name": (
            "deux joueurs ont le même nom ; donnez à chacun le sien"
        ),
        "refusal.unknown-variant": (
            "{n, plural, one {variante inconnue} other {variantes inconnues}} {unknown}"
            " pour {title} ; permises : {allowed}"
        ),
        "refusal.unknown-option": (
            "{n, plural, one {option inconnue} other {options inconnues}} {unknown}"
            " pour {title} ; permises : {allowed}"
        ),
        "refusal.no-such-option": (
            "{title} n'a pas d'option de mise en place {name} ; ses options sont : {options}"
        ),
        "refusal.option-not-a-number": (
            "l'option « {name} » doit être un nombre entier, pas {raw}"
        ),
        "refusal.state-of-other-game": "cet état est celui de {found}, pas de {wanted}",
    },
    "it": {
        # The labels of parameters that a game does not label itself.
        "param.card": "Carta",
        "param.colour": "Colore",
        "param.count": "Quanti",
        "param.delta": "Variazione",
        "param.kind": "Tipo",
        "param.player": "Giocatore",
        "param.text": "Nota",
        "param.value": "Valore",
        "param.values": "Dadi",
        "refusal.stale-version": (
            "il comando era per {made}, ma ora il tavolo è a {now}: "
            "guarda di nuovo il tavolo e rimandalo se serve ancora"
        ),
        "refusal.at-version": "versione {version}",
        "refusal.at-no-game": "nessuna partita",
        "refusal.at-game": "partita {number}",
        "refusal.at-game-version": "partita {number}, versione {version}",
        "refusal.no-game": "ancora nessuna partita sul tavolo: iniziane una prima",
        "refusal.not-your-seat": (
            "tocca a {player}: solo il telefono di {player} può giocare "
            "(questo telefono è di {seat})"),
        "refusal.not-your-seat-none": (
            "tocca a {player}: solo il telefono di {player} può giocare "
            "(questo telefono non è di nessuno)"),
        "refusal.no-such-game": (
            "nessuna partita {number} nel registro; guarda l'elenco delle partite"
        ),
        "refusal.unknown-game": "nessun gioco '{name}'; i giochi sono: {games}",
        "refusal.game-over": "la partita è finita; iniziane una nuova o annulla",
        "refusal.card-full": (
            "la scheda di memoria è piena: non si può registrare altro; la partita fin qui "
            "è al sicuro. Libera spazio (o cambia la scheda) e continua"),
        "refusal.card-failing": (
            "la scheda di memoria non si può più scrivere (è guasta o in sola lettura): "
            "non si può registrare altro; la partita fin qui è al sicuro. Salva il "
            "giornale e cambia la scheda"),
        "refusal.nothing-to-undo": "niente da annullare: la partita è all'inizio",
        "refusal.nothing-to-redo": "niente da ripetere",
        "refusal.command-shape": "un comando è un oggetto con un 'name' e, se serve, degli 'args'",
        "refusal.command-args": "gli 'args' di un comando devono essere un oggetto",
        "refusal.no-command": "nessun comando dato",
        "refusal.unknown-command": (
            "{title} non ha il comando '{name}'; i suoi comandi sono: {allowed}"
        ),
        "refusal.missing-argument": "'{command}' richiede '{param}'",
        "refusal.extra-argument": (
            "'{command}' non ha un parametro {extra}; accetta: {takes}"
        ),
        "refusal.too-many-words": "troppe parole per '{command}': {words} (accetta: {takes})",
        "refusal.not-a-number": "'{param}' deve essere un numero intero, non {raw}",
        "refusal.out-of-range": (
            "'{param}' vale {value}, fuori dai valori ammessi da {low} a {high}"
        ),
        "refusal.not-a-choice": "'{param}' deve essere uno fra: {choices}, non {raw}",
        "refusal.not-text": "'{param}' deve essere un testo",
        "refusal.text-length": "'{param}' deve avere da 1 a {most} caratteri",
        "refusal.not-yes-no": "'{param}' si risponde con sì o no, non {raw}",
        "refusal.not-dice": "'{param}' devono essere facce di dado, non {raw}",
        "refusal.unknown-player": (
            "nessun giocatore {raw} a questo tavolo; i giocatori sono {players}"
        ),
        "refusal.not-expected": (
            "'{command}' non è atteso ora; la partita aspetta: {now}"
        ),
        "refusal.waits-player": "{player} · {command}",
        "refusal.waits-anyone": "{command}",
        "refusal.wrong-player": (
            "non è il turno di {player} per '{command}'; si aspetta {waiting}"
        ),
        "refusal.nothing": "niente",
        "refusal.none": "nessuno",
        "refusal.term": "{label}",
        "refusal.and": " e ",
        "refusal.roll-not-numbers": (
            "un lancio di {dice} dà {count, plural, one {# numero intero} other {# numeri interi}}"
            " da 1 a {sides}, non {raw}"
        ),
        "refusal.roll-count": (
            "un lancio di {dice} ha {count, plural, one {# valore} other {# valori}}, non {given}"
        ),
        "refusal.die-face": (
            "{value} non è una faccia di un dado a {sides} facce: un lancio di {dice} "
            "dà da 1 a {sides}"
        ),
        "refusal.not-waiting": "la partita non aspetta un lancio di dadi",
        "refusal.dice-starting": "i dadi si stanno avviando: tira di nuovo fra un attimo",
        "dice.red": "dado rosso",
        "dice.blue": "dado blu",
        "refusal.setup-shape": (
            "una preparazione è un oggetto con 'players', 'variants' e 'options'"
        ),
        "refusal.setup-players": "'players' deve essere un elenco di nomi",
        "refusal.setup-variants": "'variants' deve essere un elenco di nomi di varianti",
        "refusal.setup-options": "'options' deve essere un oggetto",
        "refusal.player-count": "{title} si gioca da {least} a {most} giocatori, non {count}",
        "refusal.name-length": "il nome di un giocatore ha da 1 a {most} caratteri: {name}",
        "refusal.same-name": "due giocatori hanno lo stesso nome; dai a ognuno il suo",
        "refusal.unknown-variant": (
            "{n, plural, one {variante sconosciuta} other {varianti sconosciute}} {unknown}"
            " per {title}; ammesse: {allowed}"
        ),
        "refusal.unknown-option": (
            "{n, plural, one {opzione sconosciuta} other {opzioni sconosciute}} {unknown}"
            " per {title}; ammesse: {allowed}"
        ),
        "refusal.no-such-option": (
            "{title} non ha l'opzione di preparazione {name}; le sue opzioni sono: {options}"
        ),
        "refusal.option-not-a-number": "l'opzione '{name}' deve essere un numero intero, non {raw}",
        "refusal.state-of-other-game": "questo stato è di {found}, non di {wanted}",
    },
}
