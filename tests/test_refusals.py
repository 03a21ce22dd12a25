"""Every refusal players read is said in their language.

The source is read (not run): every refusal the core, the panel, the dice
drivers and the daemon's parts raise is made from a text key
(``refusal.<name>``), never from an English sentence; every key exists in
English, French and Italian with the same fields; and each place that
raises a key gives the fields its sentence needs.  Then a few refusals are
said, to see the words inside them said in the same language.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Iterator

import pytest

from companion.core import errors
from companion.core.engine import Command
from companion.core.errors import BadArgument, BadSetup, NotExpected, Refusal, StaleVersion
from companion.core.games import GAMES
from companion.core.refusals import ENGLISH_READS_OTHER_FIELDS
from companion.core.text import COMMON, LANGUAGES, Word, Words, game_phrases, say
from companion.language.catalogs import placeholders

ROOT = Path(__file__).resolve().parent.parent
# Where refusals are raised that a phone or the table's screen shows.
SCANNED = ("companion/core", "companion/parts", "web", "drivers")
REFUSALS = {name for name, value in inspect.getmembers(errors, inspect.isclass)
            if issubclass(value, Refusal)}
# A key handed down by the caller that chose it (``_check_change(..., key)``).
KEY_VARIABLE = "key"


def fields(template: str) -> set[str]:
    """The fields a template reads, its plural and select choices' too."""
    return placeholders(template)


def game_of(path: Path) -> str | None:
    parts = path.relative_to(ROOT).parts
    if parts[:3] == ("companion", "core", "games") and len(parts) > 4:
        return parts[3].replace("_", "-")
    return None


def sources() -> Iterator[tuple[Path, ast.AST]]:
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def keys_of(node: ast.expr) -> list[str] | None:
    """The keys an argument names: a literal, or either side of ``a if c
    else b``; ``None`` when it is anything else (an f-string, a sentence)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value.startswith("refusal.") else None
    if isinstance(node, ast.IfExp):
        body, orelse = keys_of(node.body), keys_of(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def raised() -> Iterator[tuple[str, ast.Call, list[str] | None, str | None]]:
    """Every refusal made in the scanned code: where, the call, its keys."""
    for path, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and callee(node) in REFUSALS and callee(node) != (
                    "Refusal"):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Name) and first.id == KEY_VARIABLE:
                    continue
                if callee(node) == "StaleVersion":
                    continue  # made from versions; its keys are its own
                if hasattr(getattr(errors, str(callee(node))), "key_name"):
                    continue  # a card's fault: its key is its class's, its argument SQLite's word
                yield where, node, keys_of(first) if first is not None else None, game_of(path)


def known(key: str, game: str | None, lang: str = "en") -> bool:
    if key in COMMON[lang]:
        return True
    return game is not None and key in game_phrases(game).get(lang, {})


def test_the_scan_finds_the_refusals_it_looks_for():
    found = list(raised())
    # The engine's, the table's and each game's: a scan that finds nothing
    # proves nothing.
    assert len(found) > 120
    assert {"IllegalCommand", "BadArgument", "BadSetup", "NotExpected", "WrongPlayer",
            "NoGame", "UnknownCommand", "NothingToUndo"} <= {callee(c) for _, c, _, _ in found}
    assert {game for _, _, _, game in found} >= set(GAMES) | {None}


def test_every_refusal_is_raised_with_a_text_key_not_an_english_sentence():
    bad = [where for where, _, keys, _ in raised() if keys is None]
    assert bad == []


def test_a_refusal_whose_class_holds_its_key_is_said_in_every_language():
    classes = [value for _, value in inspect.getmembers(errors, inspect.isclass)
               if issubclass(value, Refusal) and hasattr(value, "key_name")]
    assert {errors.CardFull, errors.CardFailing} <= set(classes)
    for cls in classes:
        for lang in LANGUAGES:
            assert known(cls.key_name, None, lang), (cls.__name__, lang)


def test_every_key_raised_is_said_in_every_language():
    missing = []
    for where, call, keys, game in raised():
        told = next((k.value for k in call.keywords if k.arg == "game"), None)
        for key in keys or ():
            if key in COMMON["en"]:
                continue
            if game is None or not isinstance(told, (ast.Name, ast.Attribute)):
                missing.append(f"{where}: {key} is a game's and needs game=")
            for lang in LANGUAGES:
                if not known(key, game, lang):
                    missing.append(f"{where}: {key} has no {lang}")
    assert missing == []


def test_every_refusal_is_given_the_fields_its_sentence_needs():
    short = []
    for where, call, keys, game in raised():
        if any(k.arg is None for k in call.keywords):
            continue  # fields handed down with **fields
        given = {k.arg for k in call.keywords} - {"rule", "game"}
        for key in keys or ():
            needed = fields(say_template(key, game))
            if not needed <= given:
                short.append(f"{where}: {key} needs {sorted(needed - given)}")
    assert short == []


def say_template(key: str, game: str | None) -> str:
    if game is not None and key in game_phrases(game).get("en", {}):
        return game_phrases(game)["en"][key]
    return COMMON["en"][key]


def test_every_word_a_refusal_names_by_key_is_said_in_every_language():
    missing = []
    for path, tree in sources():
        game = game_of(path)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith("refusal.") and " " not in node.value
                    and not node.value.endswith(".")):
                for lang in LANGUAGES:
                    if not known(node.value, game, lang):
                        missing.append(f"{path.relative_to(ROOT)}:{node.lineno}: "
                                       f"{node.value} has no {lang}")
    assert missing == []


def refusal_phrases() -> Iterator[tuple[str, dict[str, dict[str, str]]]]:
    yield "common", {lang: {k: v for k, v in COMMON[lang].items()
                            if k.startswith(("refusal.", "dice."))} for lang in LANGUAGES}
    for game in GAMES:
        phrases = game_phrases(game)
        yield game, {lang: {k: v for k, v in phrases[lang].items()
                            if k.startswith(("refusal.", "poop."))} for lang in LANGUAGES}


@pytest.mark.parametrize(("where", "phrases"), list(refusal_phrases()),
                         ids=[where for where, _ in refusal_phrases()])
def test_every_refusal_key_has_english_french_and_italian_with_the_same_fields(where, phrases):
    assert len(phrases["en"]) > 10
    for lang in ("fr", "it"):
        assert set(phrases[lang]) == set(phrases["en"])
        differ = {key: (fields(phrases["en"][key]), fields(text))
                  for key, text in phrases[lang].items()
                  if key not in ENGLISH_READS_OTHER_FIELDS
                  and fields(text) != fields(phrases["en"][key])}
        assert differ == {}
        # Said, not left in English (a few words are the same: "pipì").
        same = [key for key, text in phrases[lang].items()
                if text == phrases["en"][key] and len(text) > 12]
        assert same == []


# -- said ------------------------------------------------------------------------------


def test_a_refusal_is_english_for_the_command_line_and_said_in_any_language(table):
    game = table
    game.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    with pytest.raises(errors.WrongPlayer) as refusal:
        game.submit(Command("card", {"value": 5, "player": "Ben"}))
    err = refusal.value
    assert (err.rule, err.key, err.game) == ("wrong-player", "refusal.wrong-player",
                                             "call-of-nature")
    assert str(err) == "it is not Ben's turn for 'card'; waiting for Ana"
    # The command is the label players see on their phone, not its name.
    assert err.say("fr") == "ce n'est pas le tour de Ben pour « Jouer » ; on attend Ana"
    assert err.say("it") == "non è il turno di Ben per 'Gioca'; si aspetta Ana"
    assert err.to_json("it") == {"error": "wrong-player", "message": err.say("it")}
    assert err.to_json() == {"error": "wrong-player", "message": str(err)}


def test_words_inside_a_refusal_are_said_in_the_sentences_language(table):
    game = table
    game.new_game("ohshit", ["Ana", "Ben", "Cy"])
    game.submit(Command("poop", {"colour": "spicy", "target": 1}))
    game.submit(Command("poop", {"colour": "unicorn", "target": 1}))
    with pytest.raises(errors.IllegalCommand) as refusal:
        game.submit(Command("suppositoire", {"target": "Ben", "colour": "precious"}))
    err = refusal.value
    assert str(err) == "Ben's pile holds no precious poop; it holds 1 spicy and 1 Unicorn"
    assert err.say("fr") == ("la pile de Ben n'a pas de caca précieux ; elle contient "
                             "1 × épicé et 1 × Licorne")
    assert err.say("it") == ("la pila di Ben non ha nessuna cacca preziosa; ha 1 × piccante "
                             "e 1 × Unicorno")


def test_a_bathroom_rush_refusal_names_places_and_personas_in_the_players_words(table):
    game = table
    game.new_game("bathroom-rush", ["Ana", "Ben"])
    with pytest.raises(NotExpected) as refusal:
        game.submit(Command("play", {"card": "sneeze"}))
    assert refusal.value.say("it") == ("'Carta Azione' non è atteso ora; "
                                       "la partita aspetta: Ana · Scegli una fila")
    game.submit(Command("choose-queue", {"queue": 2}))
    with pytest.raises(errors.IllegalCommand) as refusal:
        game.submit(Command("choose-queue", {"queue": 2}))
    assert refusal.value.say("fr").startswith("la file 2 est prise par Ana")
    assert refusal.value.say("it").startswith("la fila 2 è presa da Ana")
    game.submit(Command("choose-queue", {"queue": 1}))
    # Seven reveals wait: in English each its own prompt, elsewhere one label.
    with pytest.raises(NotExpected) as refusal:
        game.submit(Command("decompress", {}))
    assert str(refusal.value).count("Reveal the Persona") == 7
    assert refusal.value.say("fr") == ("« Décompresser » n'est pas attendu maintenant ; la "
                                       "partie attend : Révéler")
    with pytest.raises(errors.IllegalCommand) as refusal:
        game.submit(Command("set-persona", {"queue": 3, "position": 2, "pipi": 1, "popo": 1,
                                            "colour": "red"}))
    assert refusal.value.say("it") == ("la Persona al posto 2 della fila 3 è coperta: "
                                       "scoprila invece")


def test_a_stale_command_is_said_with_its_game_and_version():
    err = StaleVersion(3, 4, expected_game=7, current_game=8)
    assert str(err).startswith("the command was made against game 7 at version 3, but the "
                               "table is at game 8 at version 4")
    assert err.say("fr").startswith("la commande a été faite pour la partie 7 en version 3")
    assert err.say("it").startswith("il comando era per partita 7, versione 3")
    assert isinstance(err, ValueError) and isinstance(err, Refusal)


def test_a_bad_value_names_the_parameter_by_its_label_outside_english(table):
    game = table
    game.new_game("call-of-nature", ["Ana", "Ben"])
    with pytest.raises(BadArgument) as refusal:
        game.submit(Command("card", {"value": 99}))
    assert str(refusal.value) == "'value' is 99, outside the allowed range -30..30"
    assert refusal.value.say("fr") == (
        "« Valeur » vaut 99, hors des valeurs permises -30 à 30")
    with pytest.raises(BadSetup) as setup:
        game.new_game("call-of-nature", ["Ana"])
    assert setup.value.say("it") == "Call of Nature si gioca da 2 a 6 giocatori, non 1"


def test_a_word_and_words_are_said_in_the_language_asked():
    assert say("refusal.at-game", "fr", number=4) == "la partie 4"
    words = Words([Word("refusal.at-game", number=1), 2, Word("refusal.at-no-game")],
                  last=Word("refusal.and"))
    assert say("refusal.stale-version", "it", made=words, now="x").startswith(
        "il comando era per partita 1, 2 e nessuna partita, ma")
    # A key no text knows is said as it is: a plain sentence still works.
    assert str(NotExpected("the dice are asleep")) == "the dice are asleep"
