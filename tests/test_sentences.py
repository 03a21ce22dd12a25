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

import pytest

from companion.core.text import LANGUAGES
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
            for (const param of spec.params) {
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
