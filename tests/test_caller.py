"""The caller: each game's line for each kind of event, in English, French
and Italian; one line per change, the most important first; an undo says
what it took back; the table as it is says nothing; the moments chosen."""

from __future__ import annotations

import pytest

from companion.core.caller import MOMENTS, events_said, line
from companion.core.engine import Event
from companion.core.table import Table

NAMES = ["Ana", "Ben", "Cy"]
LANGS = ("en", "fr", "it")


def said(game: str, event: Event, state: dict | None = None) -> dict[str, list[str]]:
    return {lang: [p.text for p in events_said(game, [event], state or {}, NAMES, lang)]
            for lang in LANGS}


# -- Call of Nature ---------------------------------------------------------------

COUNTED = {"pressure": 35}
CALL_OF_NATURE = [
    (Event("turn", "", {"player": 2}), COUNTED,
     ["Cy's turn, pressure 35"], ["Au tour de Cy, Pression 35"],
     ["Tocca a Cy, Pressione 35"]),
    (Event("threshold-fired", "", {"player": 0, "threshold": 61, "loss": 2, "before": 6,
                                   "after": 4}), {},
     ["Threshold 61! Ana loses 2 levels of Mastery, down to 4"],
     ["Seuil 61 ! Ana perd 2 niveaux de Maîtrise, il lui en reste 4"],
     ["Soglia 61! Ana perde 2 livelli di Controllo, ne restano 4"]),
    (Event("respite", "", {"player": 1, "pressure": 50, "mastery": 5}), {},
     ["Respite at 50: Ben, roll a d6 and beat 5"],
     ["Répit à 50 : Ben, lancez un d6 pour battre 5"],
     ["Tregua a 50: Ben, tira un d6 e batti 5"]),
    (Event("respite-rolled", "", {"player": 1, "die": 6, "gained": 1, "before": 5, "after": 6}),
     {}, ["Ben rolls 6: one level back, Mastery 6"],
     ["Ben fait 6 : un niveau de regagné, Maîtrise 6"],
     ["Ben fa 6: recupera un livello, Controllo 6"]),
    (Event("respite-rolled", "", {"player": 1, "die": 2, "gained": 0, "before": 5, "after": 5}),
     {}, ["Ben rolls 2: no luck"], ["Ben fait 2 : pas de chance"], ["Ben fa 2: niente da fare"]),
    (Event("player-eliminated", "", {"player": 0, "end": "rolls"}), {},
     ["Ana explodes! Time for the End-of-Game rolls"],
     ["Ana explose ! Place aux lancers de fin de partie"],
     ["Ana esplode! Ora i tiri di fine partita"]),
    (Event("player-eliminated", "", {"player": 0, "end": "no-roll"}), {},
     ["Ana explodes! The game is over"], ["Ana explose ! La partie est finie"],
     ["Ana esplode! La partita è finita"]),
    (Event("end-roll", "", {"player": 2, "held": 0}), {},
     ["Cy holds no CRITICAL THRESHOLD! card"], ["Cy n'a aucune carte SEUIL CRITIQUE !"],
     ["Cy non ha nessuna carta SOGLIA CRITICA!"]),
    (Event("end-roll", "", {"player": 2, "dice": [1, 2], "total": 3, "loss": 2, "before": 5,
                            "after": 3}), {},
     ["Cy rolls 3: 2 levels lost, Mastery 3"], ["Cy fait 3 : 2 niveaux perdus, Maîtrise 3"],
     ["Cy fa 3: 2 livelli persi, Controllo 3"]),
    (Event("end-roll", "", {"player": 2, "dice": [6, 6], "total": 12, "loss": 0, "before": 5,
                            "after": 5}), {},
     ["Cy rolls 12: Mastery kept at 5"], ["Cy fait 12 : Maîtrise gardée à 5"],
     ["Cy fa 12: il Controllo resta a 5"]),
    (Event("round-ended", "", {"round": 2, "player": 1}), {},
     ["Round 2: shuffle and deal; Ben starts"],
     ["Manche 2 : mélangez et distribuez ; Ben commence"],
     ["Mano 2: mescolate e distribuite; inizia Ben"]),
    (Event("direction-changed", "", {"direction": "counter-clockwise"}), {},
     ["Play goes counter-clockwise"],
     ["Le jeu tourne dans le sens inverse des aiguilles d'une montre"],
     ["Si gioca in senso antiorario"]),
    (Event("reshuffle-needed", "", {"cards": 40, "pressure": 20}), {},
     ["Shuffle the played cards into a new draw pile"],
     ["Mélangez les cartes jouées en une nouvelle pioche"],
     ["Mescolate le carte giocate in un nuovo mazzo"]),
    (Event("game-over", "", {"winners": [1, 2]}), {},
     ["The game goes to Ben and Cy!"], ["La partie revient à Ben et Cy !"],
     ["La partita va a Ben e Cy!"]),
]


@pytest.mark.parametrize(("event", "state", "en", "fr", "it"), CALL_OF_NATURE,
                         ids=lambda v: v.kind if isinstance(v, Event) else "")
def test_call_of_nature_says_each_moment_in_three_languages(event, state, en, fr, it):
    assert said("call-of-nature", event, state) == {"en": en, "fr": fr, "it": it}


def test_call_of_nature_elides_its_french_before_a_vowel():
    event = Event("turn", "", {"player": 0})
    assert said("call-of-nature", event, COUNTED)["fr"] == ["Au tour d'Ana, Pression 35"]


# -- OhShit! ---------------------------------------------------------------------

def piles(*totals: int, alive: tuple[bool, ...] = (True, True, True)) -> dict:
    return {"full_pile": 5, "players": [{"pile_total": n, "alive": a}
                                        for n, a in zip(totals, alive, strict=True)]}


OHSHIT = [
    (Event("turn", "", {"player": 1, "turn": 4}), {},
     ["Ben's turn"], ["Au tour de Ben"], ["Tocca a Ben"]),
    (Event("poop-played", "", {"player": 0, "target": 1, "colour": "spicy"}), piles(0, 4, 0),
     ["Ben has 4: careful"], ["Ben en a 4 : attention"], ["Ben ne ha 4: attenzione"]),
    (Event("poop-played", "", {"player": 0, "target": 1, "colour": "spicy"}), piles(0, 3, 0),
     [], [], []),
    (Event("flushed", "", {"player": 0, "cards": {"spicy": 3}}), {},
     ["Flush! Ana's pile goes to the Décharge"],
     ["Chasse d'eau ! La pile d'Ana part à la Décharge"],
     ["Sciacquone! La pila di Ana va in Discarica"]),
    (Event("player-died", "", {"player": 2, "cards": {}}), {},
     ["Cy dies"], ["Cy meurt"], ["Cy muore"]),
    (Event("suppository", "", {"player": 0, "target": 2, "colour": "spicy"}), {},
     ["Ana gives Cy a Suppositoire"], ["Ana donne un Suppositoire à Cy"],
     ["Ana dà una Supposta a Cy"]),
    (Event("constipated", "", {"player": 1, "target": 0}), {},
     ["Ben constipates Ana"], ["Ben constipe Ana"], ["Ben fa venire la stitichezza a Ana"]),
    (Event("toilette", "", {"player": 2, "target": 0, "cards": 3}), {},
     ["Cy flushes Ana's pile"], ["Cy tire la chasse de la pile d'Ana"],
     ["Cy tira lo sciacquone della pila di Ana"]),
    (Event("game-over", "", {"winners": [0]}), {},
     ["The game goes to Ana!"], ["La partie revient à Ana !"], ["La partita va a Ana!"]),
]


@pytest.mark.parametrize(("event", "state", "en", "fr", "it"), OHSHIT,
                         ids=lambda v: v.kind if isinstance(v, Event) else "")
def test_ohshit_says_each_moment_in_three_languages(event, state, en, fr, it):
    assert said("ohshit", event, state) == {"en": en, "fr": fr, "it": it}


def test_ohshit_warns_of_a_dead_players_pile_never():
    event = Event("poop-played", "", {"player": 0, "target": 1, "colour": "spicy"})
    assert said("ohshit", event, piles(0, 4, 0, alive=(True, False, True)))["en"] == []


# -- Bathroom Rush ----------------------------------------------------------------

QUEUES = {"queues": [{"index": 1, "player": 2}, {"index": 2, "player": 0},
                     {"index": 3, "player": 1}]}
BATHROOM_RUSH = [
    (Event("turn", "", {"player": 0, "name": "Ana", "round": 1}), QUEUES,
     ["Ana's turn, queue 2"], ["À Ana de jouer, file 2"], ["Tocca a Ana, fila 2"]),
    (Event("effect-applied", "", {"persona": "elderly-man", "queue": 1, "position": 3,
                                  "beside": "Cy", "side": "front"}), {},
     ["Elderly Man acts on Cy"], ["Anziano agit sur Cy"], ["Anziano agisce su Cy"]),
    (Event("effect-applied", "", {"persona": "colour:red", "queue": 4, "position": 1}), {},
     ["The red Persona acts, in the bathroom of queue 4"],
     None, None),
    (Event("player-eliminated", "", {"player": 1, "name": "Ben", "limit": 5}), {},
     ["Ben has 5 popò and is eliminated"], ["Ben a 5 popò et est éliminé"],
     ["Ben ha 5 popò ed è eliminato"]),
    (Event("cleanup", "", {"round": 2}), {},
     ["Cleanup: round 2 is over"], ["Nettoyage : la manche 2 est finie"],
     ["Pulizia: il giro 2 è finito"]),
    (Event("turn", "", {"player": 1, "name": "Ben", "round": 1}),
     {"queues": QUEUES["queues"][:2]},  # Ben holds no queue
     ["Ben's turn"], ["À Ben de jouer"], ["Tocca a Ben"]),
    (Event("final-round", "", {"player": 0, "name": "Ana", "queue": 2}), {},
     ["Ana reaches the bathroom of queue 2: the rest of this round is the final turns, and "
      "only Give Up Your Place, Swap and Sneeze may be played against Ana"],
     ["Ana arrive aux toilettes de la file 2 : le reste de la manche est le dernier tour, et "
      "seules Cedi il posto, Scambio et Starnuto peuvent être jouées contre Ana"],
     ["Ana entra in bagno nella fila 2: il resto del giro è l'ultimo turno, e contro Ana si "
      "possono giocare solo Cedi il posto, Scambio e Starnuto"]),
    (Event("final-round", "", {"player": 1, "name": "Ben", "queue": 3, "how": "too"}), {},
     ["Ben reaches the bathroom of queue 3 too"],
     ["Ben arrive aussi aux toilettes de la file 3"],
     ["Anche Ben entra in bagno nella fila 3"]),
    (Event("final-round", "", {"players": [0, 2], "names": ["Ana", "Cy"],
                               "how": "cleanup-many"}), {},
     ["Ana and Cy reach the bathroom as the queues move up: the game ends at once"],
     ["Ana et Cy arrivent aux toilettes quand les files avancent : la partie s'arrête "
      "aussitôt"],
     ["Ana e Cy entrano in bagno mentre le file avanzano: la partita finisce subito"]),
    (Event("reached", "", {"player": 0, "name": "Ana", "how": "turn"}), {},
     ["Ana reaches the bathroom: the rest of this round is the final turns"],
     ["Ana arrive aux toilettes : le reste de la manche est le dernier tour"],
     ["Ana entra in bagno: il resto del giro è l'ultimo turno"]),
    (Event("reached", "", {"player": 2, "name": "Cy", "how": "cleanup"}), {},
     ["Cy reaches the bathroom as the queues move up: the game ends once the cleanup is done"],
     ["Cy arrive aux toilettes quand les files avancent : la partie s'arrête une fois la "
      "manche close"],
     ["Cy entra in bagno mentre le file avanzano: la partita finisce a giro chiuso"]),
    (Event("tie-break", "", {"tied": [0, 1], "names": ["Ana", "Ben"], "score": 18}), {},
     ["Ana and Ben are tied at 18: each makes a Decompression roll (red die)"],
     ["Ana et Ben sont à égalité à 18 : chacun fait un jet de Décompression (dé rouge)"],
     ["Ana e Ben sono a pari merito con 18: ognuno fa un tiro di Decompressione "
      "(dado rosso)"]),
    (Event("tie-break", "", {"player": 1, "name": "Ben", "roll": 4, "how": "roll"}), {},
     ["Tie-break: Ben rolls 4"], ["Départage : Ben fait 4"], ["Spareggio: Ben fa 4"]),
]


@pytest.mark.parametrize(("event", "state", "en", "fr", "it"), BATHROOM_RUSH,
                         ids=lambda v: v.kind if isinstance(v, Event) else "")
def test_bathroom_rush_says_each_moment_in_three_languages(event, state, en, fr, it):
    found = said("bathroom-rush", event, state)
    assert found["en"] == en
    for lang, expected in (("fr", fr), ("it", it)):
        if expected is None:  # said in the language's own words: not the English
            assert len(found[lang]) == 1 and found[lang][0] != en[0]
        else:
            assert found[lang] == expected


def test_bathroom_rush_says_the_final_count_before_the_winner():
    event = Event("game-over", "", {"player": 0, "name": "Ana", "how": "wins", "score": 23,
                                    "winners": [0], "scores": [23, 18, None]})
    found = said("bathroom-rush", event)
    assert found["en"] == ["Ana wins with 23 (pipì + 5 × popò)", "The final count: Ana 23, Ben 18"]
    assert found["fr"][1] == "Le décompte final : Ana 23, Ben 18"
    assert found["it"][1] == "Il conto finale: Ana 23, Ben 18"


# -- one line per change ------------------------------------------------------------


@pytest.fixture
def game(table: Table) -> Table:
    table.new_game("call-of-nature", NAMES)
    return table


def test_a_new_game_says_its_players_and_who_starts(table):
    update = table.new_game("call-of-nature", NAMES)
    assert line(update, "en") == "New game of Call of Nature: Ana, Ben and Cy. Ana starts."
    assert line(update, "fr") == "Nouvelle partie de Call of Nature : Ana, Ben et Cy. Ana commence."
    assert line(update, "it") == "Nuova partita di Call of Nature: Ana, Ben e Cy. Inizia Ana."


def test_a_batch_says_the_most_important_first_then_whose_turn(game):
    game.submit_words("card +5")
    update = game.submit_words("card 30")  # Ben crosses 31
    assert line(update, "en") == ("Threshold 31! Ben loses 1 level of Mastery, down to 6. "
                                  "Cy's turn, pressure 35.")


def test_an_undo_says_what_it_took_back(game):
    game.submit_words("card +5")
    undone = game.undo()
    assert line(undone, "en") == "Taken back: Ana's +5."
    assert line(undone, "fr") == "Annulé : le +5 d'Ana."
    assert line(undone, "it") == "Annullato: il +5 di Ana."


UNDONE = [
    ("ohshit", "constipation Ben", "Taken back: Ana constipates Ben.",
     "Annulé : Ana constipe Ben.", "Annullato: Ana fa venire la stitichezza a Ben."),
    ("bathroom-rush", "choose-queue 1", "Taken back: Ana stands at the end of queue 1.",
     "Annulé : Ana se place au bout de la file 1.",
     "Annullato: Ana si mette in fondo alla fila 1."),
]


@pytest.mark.parametrize(("game_key", "words", "en", "fr", "it"), UNDONE,
                         ids=[row[0] for row in UNDONE])
def test_an_undo_in_each_game_says_what_it_took_back(table, game_key, words, en, fr, it):
    table.new_game(game_key, NAMES)
    table.submit_words(words)
    undone = table.undo()
    assert {lang: line(undone, lang) for lang in LANGS} == {"en": en, "fr": fr, "it": it}


def test_a_redo_says_the_command_again(game):
    played = game.submit_words("card +5")
    game.undo()
    assert line(game.redo(), "en") == line(played, "en")


def test_the_table_as_it_is_says_nothing_so_a_reconnect_repeats_nothing(game):
    game.submit_words("card +5")
    assert line(game.current(), "en") is None


@pytest.mark.parametrize("moments", [("game", "undo", "play"), ("turn",), ()])
def test_only_the_chosen_moments_are_said(game, moments):
    game.submit_words("card +5")
    update = game.submit_words("card 30")
    said_now = line(update, "en", moments)
    assert (said_now is not None and "Threshold" in said_now) == ("play" in moments)
    assert (said_now is not None and "Cy's turn" in said_now) == ("turn" in moments)


def test_a_game_over_says_the_winner_first(game):
    game.submit_words("card 30")
    update = game.submit_words("card 30")  # Ben: 60
    update = game.submit_words("card 30")  # Cy: 90, 61 crossed
    while not update.over:
        expected = update.expected[0]
        if expected.dice is not None:
            update = game.submit({"name": "roll", "args": {"values": [1] * expected.dice.count}})
        else:
            update = game.submit_words("card 30")
    said_now = line(update, "en")
    assert said_now is not None and said_now.startswith("The game goes to ")


def test_every_moment_has_a_name_in_every_language():
    from companion.core.text import say

    for lang in LANGS:
        names = [say(f"caller.moment.{m}", lang) for m in MOMENTS]
        assert all(not n.startswith("caller.") for n in names)
        assert len(set(names)) == len(MOMENTS)
