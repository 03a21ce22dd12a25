"""Bathroom Rush's words at the table: every prompt and event a sentence
players say, in English, French and Italian, from the event's kind and
data; no command names."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core import text
from companion.core.games.bathroom_rush import BathroomRush
from companion.core.games.bathroom_rush.sentences import SENTENCES, effect_line, event_key
from tests.test_bathroom_rush import BEN, position
from tests.test_bathroom_rush_properties import (
    legal_commands,
    new_game,
)
from tests.words import play

COMMAND_NAMES = {spec.name for spec in BathroomRush.commands if "-" in spec.name}


def fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_table_finds_the_games_sentences():
    assert text.say("card.elderly-man", "it", game="bathroom-rush") == "Anziano"
    assert text.say("prompt.pass", "fr", game="bathroom-rush", name="Ana") == "Ana : passe"


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_every_sentence_is_said_in_french_and_italian_with_the_same_fields(lang):
    english = SENTENCES["en"]
    assert set(SENTENCES[lang]) == set(english)
    for key, template in english.items():
        assert fields(SENTENCES[lang][key]) == fields(template), key


def test_the_cards_keep_their_italian_printed_names():
    for lang in ("fr", "it"):
        assert [SENTENCES[lang][f"card.{card}"] for card in (
            "elderly-man", "mother-with-baby", "avid-reader", "distracted", "entrepreneur",
            "infamous-person")] == ["Anziano", "Mamma con pupo", "Avido lettore", "Distratto",
                                    "Imprenditore", "Infame"]


def test_a_persona_effect_is_asked_as_a_sentence_in_each_language():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    assert [e.prompt for e in game.expected("en")] == [
        "Ben: Elderly Man behind you passes in front of you",
        "Ben: Queue Defence against Elderly Man?"]
    assert [e.prompt for e in game.expected("it")] == [
        "Ben: Anziano dietro di te ti passa davanti", "Ben: Difesa fila contro Anziano?"]
    assert [e.prompt for e in game.expected("fr")] == [
        "Ben : Anziano derrière toi passe devant toi", "Ben : Défense de file contre Anziano ?"]
    assert [e.command for e in game.expected("fr")] == ["effect", "defend"]


def test_an_event_is_said_again_in_another_language_from_its_kind_and_data():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"],
                    reserves={BEN: (4, 0)})
    play(game, "pass")
    moved, flipped = play(game, "effect")[:2]
    assert moved.message == "Elderly Man passes in front of Ben in queue 2"
    assert BathroomRush.event_text(moved, "it") == "Anziano passa davanti a Ben nella fila 2"
    assert BathroomRush.event_text(flipped, "fr") == (
        "Anziano (à la place 3 de la file 2, devant Ben) est retournée : son effet est épuisé")
    events = play(game, "decompress", "roll 4")
    said = [BathroomRush.event_text(e, "it") for e in events]
    assert "Ben fa 4: prende una popò" in said
    assert "Ben prende una popò: riserva 4 pipì e 1 popò" in said


def test_the_view_speaks_the_tables_language():
    game = position(["n2 Ana n1", "n1 n1 Ben o0@Elderly_Man n1", "n1 n1 Cy n1", "n1 n3"])
    play(game, "pass")
    view = game.view("it")
    assert view["phase_name"] == "Effetti delle Persone"
    assert view["effects"] == [("Anziano al posto 4 della fila 2, dietro a Ben: passa davanti "
                               "al giocatore dietro cui si trova, salvo Difesa fila")]


def said_everywhere(game, events):
    """Every event and prompt has its own sentence in every language, with
    every field filled, and names no command."""
    for lang in ("en", "fr", "it"):
        for event in events:
            key = event_key(event.kind, event.data)
            assert key in SENTENCES[lang], key
            sentence = BathroomRush.event_text(event, lang)
            assert sentence != key and "{" not in sentence, (key, sentence)
            if lang == "en":
                assert sentence == event.message
        for wait in game.expected(lang):
            assert "{" not in wait.prompt and not wait.prompt.startswith("prompt.")
            words = set(re.findall(r"[a-z]+(?:-[a-z]+)+", wait.prompt))
            assert not words & COMMAND_NAMES, wait.prompt


@given(data=st.data())
def test_every_event_and_prompt_of_a_game_is_a_sentence_in_three_languages(data):
    game = new_game(data)
    for _ in range(data.draw(st.integers(1, 150), label="steps")):
        if game.over:
            break
        events = game.apply(data.draw(legal_commands(game, corrections=True), label="command"))
        said_everywhere(game, events)


def test_the_table_sends_each_prompt_and_event_in_every_language(tmp_path):
    """A phone in French or Italian reads the game's own sentences, sent
    with every update, never the English ones its templates cannot fill."""
    from companion.core.engine import Command
    from companion.core.journal import Journal
    from companion.core.table import Table

    table = Table(Journal.open(tmp_path / "companion.db"))
    try:
        table.new_game("bathroom-rush", ["Ana", "Ben", "Cy"])
        update = table.submit(Command("choose-queue", {"queue": 1}))
        shown = update.to_json()["expected"][0]
        assert shown["prompt"].startswith("Ben: choose a queue")
        assert shown["said"]["fr"].startswith("Ben : choisis une file")
        assert shown["said"]["it"].startswith("Ben: scegli una fila")
        # A game whose prompts are English only sends them alone.
        other = table.new_game("call-of-nature", ["Ana", "Ben"])
        assert all("said" not in e for e in other.to_json()["expected"])
    finally:
        table.close()


# Phase D's list: from the bathroom, in front, behind, each line said from
# its effect's data in every language.
PHASE_D = ["n2 Ana n1", "y1@Infamous_Person r1 n1 o1 Ben o2@Elderly_Man n1 y0 n2",
           "n1 n1 Cy n1", "n1 n3"]


def test_phase_ds_list_is_said_in_french_and_italian_from_each_effects_data():
    game = position(PHASE_D)
    play(game, "pass")
    assert game.phase == "D"
    view = game.view()
    assert view["effects_said"]["fr"] == [
        ("Infame aux toilettes de la file 2 : une Persona est posée sur elle, sauf carte de "
         "défense"),
        "la Persona orange à la place 4 de la file 2, devant Ben",
        ("Anziano à la place 6 de la file 2, derrière Ben : passe devant le joueur derrière "
         "qui il se trouve, sauf Défense de file"),
        "la Persona jaune à la place 8 de la file 2"]
    assert view["effects_said"]["it"] == [
        ("Infame in bagno nella fila 2: una Persona viene messa sopra di lui, salvo carta di "
         "difesa"),
        "la Persona arancione al posto 4 della fila 2, davanti a Ben",
        ("Anziano al posto 6 della fila 2, dietro a Ben: passa davanti al giocatore dietro "
         "cui si trova, salvo Difesa fila"),
        "la Persona gialla al posto 8 della fila 2"]
    # The same lines, in the same order, whichever language the view is asked in.
    for lang in ("en", "fr", "it"):
        asked = game.view(lang)
        assert asked["effects_said"] == view["effects_said"]
        assert asked["effects"] == (view["effects"] if lang == "en"
                                    else view["effects_said"][lang])
        assert asked["effects"] == [effect_line(e, lang) for e in game._effect_data()]


def test_a_line_of_phase_d_says_how_its_effect_went_in_every_language():
    game = position(PHASE_D)
    play(game, "pass")
    play(game, "defend")  # the Infamous Person is blocked
    said = game.view()["effects_said"]
    assert game.view()["effects"][0].endswith("(blocked)")
    assert said["fr"][0].endswith("(bloqué)")
    assert said["it"][0].endswith("(bloccato)")
    assert [line.endswith(")") for line in said["fr"][1:]] == [False, False, False]


def test_outside_phase_d_no_list_is_said_in_any_language():
    game = position(PHASE_D)
    assert game.phase == "E"
    assert game.view()["effects"] == [] and game.view()["effects_said"] == {}


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_phase_ds_sentences_have_the_english_fields_and_are_translated(lang):
    keys = [k for k in SENTENCES["en"] if k.startswith(("hint.", "effect.", "effects."))]
    assert len(keys) >= 11
    for key in keys:
        assert fields(SENTENCES[lang][key]) == fields(SENTENCES["en"][key]), key
        words = re.sub(r"\{\w+\}", "", SENTENCES["en"][key])
        if re.search(r"[a-z]", words):  # more than its fields
            assert SENTENCES[lang][key] != SENTENCES["en"][key], key
