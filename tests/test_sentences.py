# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""Every sentence the companion says, in English, French and Italian, spelled
right, contracted and elided as each language does, with nothing left in.

Random legal games of every game (tests/sentence_sources.py) are said by
every source: the table's events, prompts, figures, results and refusals,
the command line, the pages, and what a phone's own scripts write of the
same games (events, previews, prompts, history, results, the forms' labels),
said in headless Chromium as a phone says them.  Each distinct sentence
passes the checks of tests/sentence_check.py.  The counts are printed.

``SENTENCE_GAMES`` (200 by default) sets how many games of each game.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from companion.core.engine import Command, Setup
from companion.core.errors import BadSetup
from companion.core.text import LANGUAGES, event_sentence, fill, say
from companion.core.updates import Action, HistoryEntry
from tests import sentence_check
from tests.sentence_check import RULES, broken_rules, leftovers, missing_dictionaries, problems
from tests.sentence_sources import GAMES, gather, phone_payloads, play
from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    SCREENSHOTS,
    browser,
    companion,
    phones,
)

GAMES_PER_GAME = int(os.environ.get("SENTENCE_GAMES", "200"))
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
ARTIFACTS = SCREENSHOTS.parent
I18N = Path(__file__).resolve().parent.parent / "web" / "static" / "i18n"


@pytest.fixture(scope="module")
def dictionaries():
    missing = missing_dictionaries()
    if missing:
        message = f"install {' '.join(missing)} (Debian) to check the spelling"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    for lang in LANGUAGES:
        sentence_check.dictionary(lang)


@pytest.fixture(scope="module")
def played():
    return [play(key, GAMES_PER_GAME) for key in GAMES]


# What a phone's scripts say of what the panel sends (see phone_payloads).
SAY_ON_A_PHONE = """async (sent) => {
    const payloads = JSON.parse(sent);
    const s = await import("/static/js/sentences.js");
    const f = await import("/static/js/forms.js");
    const out = [];
    const add = (text, where) => { if (text) out.push([String(text), where]); };
    const say = {
        event: (p) => [s.eventsSaid([p.event], p.players, p.game), `event ${p.event.kind}`],
        undo: (p) => [s.undoSaid({ game: p.game, players: p.players, can_undo: true,
                                   undo_events: p.events, undo_text: p.undo_text }), "undo"],
        result: (p) => [s.resultSaid(p.result, p.players, p.game), "result"],
        preview: (p) => [s.previewSaid(p.preview, p), "preview"],
        prompt: (p) => [f.promptFor(p.expected, p), "prompt"],
        entry: (p) => [s.entrySaid(p.entry, p.past), "history"],
        past: (p) => [s.resultSaid(p.past.state.result, p.past.players, p.past.game), "past game"],
    };
    for (const p of payloads) {
        if (p.kind !== "commands") {
            add(...say[p.kind](p));
            continue;
        }
        for (const spec of p.commands) {
            add(f.commandLabel(p.game, spec.name), "command");
            add(f.commandHelp(p.game, spec), "command help");
            // A parameter sent only by name is never shown (no form asks it).
            for (const param of spec.params.filter((q) => !q.named)) {
                add(f.paramLabel(p.game, spec.name, param), "parameter");
                add(f.paramHelp(p.game, spec.name, param), "parameter help");
                for (const choice of param.choices ?? []) {
                    add(f.choiceLabel(p.game, choice), "choice");
                }
            }
        }
    }
    return JSON.stringify(out);
}"""


def said_on_phones(companion, phones, payloads) -> dict[str, dict[str, str]]:
    """The sentences a phone in each language writes of ``payloads``."""
    said: dict[str, dict[str, str]] = {}
    sent = json.dumps(payloads)
    for lang, locale in LOCALES.items():
        page = phones(locale=locale)
        page.goto(f"{companion.url}/stats")
        page.wait_for_selector("#conn[data-state=live]")
        assert page.evaluate("document.documentElement.lang") == lang
        found = said[lang] = {}
        for text, where in json.loads(page.evaluate(SAY_ON_A_PHONE, sent)):
            found.setdefault(text, f"phone {where}")
        assert page.script_errors == []
    return said


def pages_said(companion, phones) -> dict[str, dict[str, str]]:
    """The text of pages a phone opens with no game (the 404 page too)."""
    said: dict[str, dict[str, str]] = {}
    for lang, locale in LOCALES.items():
        page = phones(locale=locale)
        found = said[lang] = {}
        for path in ("/nothing-here", "/setup", "/stats", "/history", "/box"):
            page.goto(f"{companion.url}{path}")
            page.wait_for_load_state("networkidle")
            for line in page.evaluate("document.body.innerText").split("\n"):
                if line.strip():
                    found.setdefault(line.strip(), f"page {path}")
    return said


def test_every_sentence_of_random_games_is_spelled_and_built_right_in_every_language(
        dictionaries, played, companion, phones, capsys):
    said = gather(played)
    payloads = [payload for games in played for payload in phone_payloads(games)]
    for extra in (said_on_phones(companion, phones, payloads), pages_said(companion, phones)):
        for lang, found in extra.items():
            for text, where in found.items():
                said[lang].setdefault(text, where)
    # Every kind of event, every Action card and Persona, undo, redo and the final count.
    kinds = {kind for games in played for kind in games.kinds}
    assert {"game-over", "final-round", "tie-break", "flushed", "respite-rolled",
            "card-aimed", "revealed", "correction"} <= kinds
    wrong = {lang: problems(said[lang], lang) for lang in LANGUAGES}
    # Every sentence with a problem, for a person to read.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "sentences-wrong.txt").write_text("".join(
        f"{lang}\t{said[lang][text]}\t{', '.join(why)}\t{text}\n"
        for lang, found in wrong.items() for text, why in found.items()))
    with capsys.disabled():
        print()
        for lang in LANGUAGES:
            print(f"sentences checked in {lang}: {len(said[lang])} distinct"
                  f" ({len(wrong[lang])} with a problem), from {GAMES_PER_GAME} games of each game")
    shown = {lang: {f"{text}  [{said[lang][text]}]": why for text, why in list(found.items())[:40]}
             for lang, found in wrong.items() if found}
    assert shown == {}


# -- the checks catch what they are for ------------------------------------------------------


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: f"{rule.lang}-{rule.name}")
def test_each_grammar_rule_catches_its_planted_example_and_lets_the_right_form_pass(rule):
    assert rule.lang in broken and rule.name in broken_rules(rule.planted, rule.lang)
    assert rule.name not in broken_rules(rule.fine, rule.lang)


broken = {"en", "fr", "it"}


@pytest.mark.parametrize(("sentence", "lang"), [
    ("Ben n'a aucune carte", "fr"),
    ("Atteindre 4 popò n'élimine personne (tout le monde continue).", "fr"),
    ("Rien à annuler : la partie est à sa mise en place", "fr"),
    ("Aucun joueur ne peut jouer", "fr"),
    ("quindi nessuna può essere davanti a Cy", "it"),
    ("Niente da annullare: la partita è all'inizio", "it"),
    ("Ana non scarta nessun segnalino", "it"),
    ("An Action card, a Unicorn, a one-off, an hour", "en"),
    ("Au tour d'Ana · la pile du joueur · aux toilettes", "fr"),
])
def test_the_grammar_rules_let_right_sentences_pass(sentence, lang):
    assert broken_rules(sentence, lang) == []


@pytest.mark.parametrize("sentence", [
    "Au tour de {player}", "Ana null", "undefined", "NaN pipì", "B : [object Object]",
    "colour:yellow avance dans la file 4", "call-of-nature:event.turn",
])
def test_leftovers_are_found(sentence):
    assert leftovers(sentence)


def test_the_spell_check_finds_english_in_french_and_italian_and_passes_printed_names(
        dictionaries):
    assert problems(["Effet : Ana plays Cunning"], "fr")
    assert problems(["Questo farà: Ana plays Give Up Your Place"], "it")
    assert problems(["Ana wins with 9 (pipì + 5 × popò)"], "fr")
    assert problems(["Plus haute Pression survécue"], "fr")
    assert problems(["Ana plays Cuning"], "en")
    assert problems(["Au tour d'Ana : Addetto alle pulizie, 3 pipì et 1 popò"], "fr") == {}
    assert problems(["Ana gioca Cedi il posto contro Ben: mar 1 dic 2026"], "it") == {}
    assert problems(["Ana's Mastery falls to 6: the colour of Cy's pile"], "en") == {}


def test_the_allowed_words_are_few_and_no_dictionary_word():
    """The list of allowed words stays short and reviewed: names printed on
    the games, nothing a dictionary already has."""
    for lang, words in sentence_check.ALLOWED.items():
        assert len(words) < 120, lang
        for word in words:
            assert re.fullmatch(r"[\w'’-]+", word), word


# -- the defects players read, each said right ------------------------------------------------


def test_italian_joins_a_preposition_to_a_personas_article():
    from companion.core.games.bathroom_rush.sentences import render

    data = {"persona": "colour:red", "queue": 3, "position": 3}
    assert render("event.effect-applied", "it", data).startswith("L'effetto della Persona rossa")
    assert fill("su {persona} · di {p}", "it", {"persona": "la Persona coperta",
                                                "p": "l'Anziano"}) == \
        "sulla Persona coperta · dell'Anziano"


def test_french_elides_the_article_before_a_card_that_starts_with_a_vowel():
    from companion.core.games.bathroom_rush.sentences import render

    said = render("prompt.defend.cleaner", "fr",
                  {"target": "Ben", "name": "Ana", "card_id": "cleaner"})
    assert "contre l'Addetto alle pulizie d'Ana" in said


def test_taking_no_token_is_said_with_its_negation():
    from companion.core.games.bathroom_rush.sentences import render

    data = {"name": "Cy", "took_pipi": 0, "took_popo": 0, "queue": 1, "reserve_pipi": 3,
            "reserve_popo": 1}
    assert render("event.reserve-changed.bathroom", "fr", data).startswith(
        "Cy ne prend aucun jeton")
    assert render("event.reserve-changed.bathroom", "it", data).startswith(
        "Cy non prende nessun segnalino")
    assert render("event.reserve-changed.bathroom", "en", data).startswith("Cy takes no token")


def test_a_flush_says_how_many_cards_went_to_the_decharge():
    from companion.core.games.ohshit.game import OhShit
    from tests.words import play as play_words

    game = OhShit(Setup(("Ana", "Ben", "Cy")))
    events = play_words(game, "poop colour=spicy target=2", "poop colour=spicy target=2",
                        "poop colour=spicy target=2")
    flushed = next(e for e in events if e.kind == "flushed")
    said = {lang: event_sentence(flushed.kind, flushed.message, flushed.data, lang, "ohshit",
                                 game.players) for lang in ("fr", "it")}
    assert said["fr"] == "La pile de Cy se vide : 3 cartes partent à la Décharge, il en reste 0"
    assert said["it"].startswith("La pila di Cy si svuota: 3 carte vanno in Discarica")


def test_counted_refusals_say_one_or_many_without_parentheses():
    from companion.core.games.call_of_nature import CallOfNature

    for count, options in ((1, {"speed": 1}), (2, {"speed": 1, "colour": 2})):
        with pytest.raises(BadSetup) as refused:
            CallOfNature.check_setup(Setup(("Ana", "Ben"), options=options))
        for lang in LANGUAGES:
            assert "(s)" not in refused.value.say(lang)
        assert ("options" in refused.value.say("en")) == (count > 1)


def test_french_and_italian_pages_name_the_keys_as_the_table_does():
    for lang, roll, back in (("fr", "LANCER", "RETOUR"), ("it", "TIRA", "INDIETRO")):
        strings = json.loads((I18N / f"{lang}.json").read_text())
        assert roll in strings["dice.source.button"]
        assert f"= {back}" in strings["virtual.shortcuts"] and "ROLL" not in json.dumps(strings)
        assert "BACK" not in say("menu.keys-home", lang)


def test_a_card_aimed_at_a_place_is_an_event_said_in_every_language_and_its_redo_too(table):
    """Choosing where an Action card strikes was said "target 3 1"; undone
    and redone in French, "Rétabli: Redone: target 3 1"."""
    from companion.commands.cli import _entry_said
    from tests.test_bathroom_rush import position

    game = position(["n1 n2 Ana n3", "n2 Ben n1", "n1 Cy o1", "n3 n1"])
    events = game.apply(game.parse_words("play card=give-up-your-place"))
    events = game.apply(game.parse_words("target queue=2 position=2"))
    assert [e.kind for e in events] == ["card-aimed"]
    assert game.event_text(events[0], "fr") == \
        "Ana joue Cedi il posto à la place 2 de la file 2"
    entry = HistoryEntry.of(3, 3, Action.REDO, Command("target", {"queue": 2, "position": 2}),
                            events, 0.0, "panel")
    told = _entry_said(entry, "fr", "bathroom-rush", game.players)
    assert told == "Rétabli : Ana joue Cedi il posto à la place 2 de la file 2"


def test_the_record_of_call_of_nature_agrees_in_french(dictionaries):
    said = say("record", "fr", game="call-of-nature")
    assert problems([said], "fr") == {}


@pytest.mark.browser
def test_a_past_unfinished_game_and_a_redone_move_read_right_on_a_french_phone(companion,
                                                                                phones):
    """An unfinished game's history showed "nullnull" under its title, and a
    redone move "Rétabli: Redone: ..."."""
    table = companion.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    table.submit(Command("card", {"value": 5}))
    table.undo()
    table.redo()
    unfinished = table.current().game_id
    table.new_game("call-of-nature", ["Ana", "Ben"])
    page = phones(locale="fr-FR")
    page.goto(f"{companion.url}/history?game={unfinished}")
    page.wait_for_selector("#history li.redo")
    head = page.inner_text("#history-head")
    assert "null" not in head and "undefined" not in head
    assert page.inner_text("#past-game").startswith("Call of Nature · Ana, Ben, Cy")
    redone = page.inner_text("#history li.redo .what")
    assert redone.startswith("Rétabli : ") and "Redone" not in redone
    assert problems([redone, page.inner_text("#history li.undo .what")], "fr") == {}
    assert page.script_errors == []
