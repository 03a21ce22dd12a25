"""The table's sentences: a game's own phrases, the fallbacks to English and
to the caller's text, and never a key shown to a player when a text exists."""

from __future__ import annotations

import pytest

from companion.core import text


@pytest.fixture
def phrases(monkeypatch):
    fake = {"en": {"event.crossed": "{name} crosses {threshold}", "card.u-turn": "U-TURN!"},
            "fr": {"event.crossed": "{name} franchit {threshold}"}}
    monkeypatch.setattr(text, "game_phrases", lambda key: fake if key == "demo" else {})
    return fake


def test_a_sentence_in_the_tables_language(phrases):
    assert text.say("event.crossed", "fr", game="demo", name="Ana", threshold=31) == \
        "Ana franchit 31"


def test_a_key_the_language_lacks_falls_back_to_english(phrases):
    assert text.say("card.u-turn", "it", game="demo") == "U-TURN!"


def test_a_missing_field_falls_back_to_the_callers_text(phrases):
    assert text.say("event.crossed", "fr", game="demo", name="Ana",
                    default="Ana crossed") == "Ana crossed"


def test_an_unknown_key_without_a_default_is_the_key(phrases):
    assert text.say("event.nothing", "en", game="demo") == "event.nothing"


@pytest.mark.parametrize("wanted, chosen", [("fr-FR", "fr"), ("it", "it"), ("de", "en"),
                                            (None, "en")])
def test_the_language_spoken_is_one_the_companion_knows(wanted, chosen):
    assert text.language(wanted) == chosen
