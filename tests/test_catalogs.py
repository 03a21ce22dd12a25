"""The messages as gettext catalogs: every message in every language with
the English's fields, the catalogs in ``locale/`` as the sources say, well
formed for gettext's own tools, and a translator's catalog written back
into the sources the runtime reads."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.language import catalogs
from companion.language.catalogs import Domain, placeholders, problems

ROOT = Path(__file__).resolve().parent.parent


def test_every_message_is_in_every_language_with_the_same_fields():
    assert problems() == []


def test_the_check_finds_a_missing_text_other_fields_and_a_broken_choice():
    domain = Domain("test", (), {
        "en": {"a": "{n, plural, one {# game} other {# games}}", "b": "{player} plays",
               "c": "{n} cards", "d": "Hello"},
        "fr": {"a": "{n, plural, one {# partie} other {# parties}}", "b": "{joueur} joue",
               "c": "{n, plural, one {# carte}}", "d": "Bonjour"},
        "it": {"a": "{n, plural, one {# partita} other {# partite}}", "b": "{player} gioca",
               "c": "{n, plural, one {# carta} other {# carte}}"},
    }, {})
    assert problems([domain]) == [
        "test: b in fr reads ['joueur'], not ['player']",
        "test: c in fr is not well formed: a choice needs an 'other': ' one {# carte}'",
        "test: d has no it text",
    ]


def test_placeholders_are_read_from_plain_fields_and_choices():
    assert placeholders("{a} {b:+d} {n, plural, one {# {c}} other {#}}") == {"a", "b", "n", "c"}


def test_the_catalogs_are_what_the_sources_say():
    """After adding or changing a message: python -m companion.language.catalogs export."""
    assert catalogs.differences() == []


def test_every_catalog_passes_gettexts_own_check(tmp_path):
    if shutil.which("msgfmt") is None:
        pytest.skip("gettext's msgfmt is missing (Debian: gettext)")
    for po in sorted((ROOT / "locale").rglob("*.po")):
        subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(po)],
                       check=True, capture_output=True)


def _copy(tmp_path: Path) -> Path:
    """The sources and catalogs a translator's import touches, in a copy."""
    for path in [*(ROOT / "web/static/i18n").glob("*.json"),
                 *(ROOT / "companion").rglob("*.py"), *(ROOT / "locale").rglob("*.po*")]:
        target = tmp_path / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    return tmp_path


def _translate(po: Path, key: str, text: str) -> None:
    from babel.messages.pofile import read_po, write_po

    with po.open("rb") as f:
        read = read_po(f)
    message = next(m for m in read if m.context == key)
    message.string = text
    with po.open("wb") as f:
        write_po(f, read, width=100, sort_output=False, include_lineno=False)


def test_a_translators_catalog_goes_back_into_the_json_and_python_sources(tmp_path):
    root = _copy(tmp_path)
    panel = root / "locale/fr/LC_MESSAGES/panel.po"
    _translate(panel, "nav.history", "Journal des coups")
    game = root / "locale/it/LC_MESSAGES/call-of-nature.po"
    long = "Tocca a {player}, " + "che deve giocare una carta Pressione o una carta speciale " * 2
    _translate(game, "event.turn", long)
    before = (root / "web/static/i18n/fr.json").read_text(encoding="utf-8").split("\n")

    changed, by_hand = catalogs.import_catalogs(root)

    assert by_hand == []
    assert len(changed) == 2
    after = (root / "web/static/i18n/fr.json").read_text(encoding="utf-8").split("\n")
    # One line changed, the others as they were.
    assert [(a, b) for a, b in zip(before, after, strict=True) if a != b] == [
        ('  "nav.history": "Historique",', '  "nav.history": "Journal des coups",')]
    assert json.loads("\n".join(after))["nav.history"] == "Journal des coups"
    source = (root / "companion/core/games/call_of_nature/text.py").read_text(encoding="utf-8")
    namespace: dict = {}
    code = source.replace("from ...text import Phrases", "Phrases = dict").replace(
        "from .refusals import REFUSALS", "REFUSALS = {'en': {}, 'fr': {}, 'it': {}}").replace(
        "from .caller import CALLER", "CALLER = {'en': {}, 'fr': {}, 'it': {}}")
    exec(compile(code, "text.py", "exec"), namespace)
    assert namespace["TEXT"]["it"]["event.turn"] == long
    assert max(len(line) for line in source.split("\n")) <= 100


def test_every_dice_source_the_setup_page_offers_has_its_name_in_every_language():
    from companion.core.keys import DICE_SOURCES

    for lang in ("en", "fr", "it"):
        strings = json.loads((ROOT / f"web/static/i18n/{lang}.json").read_text(encoding="utf-8"))
        assert [s for s in DICE_SOURCES if f"dice.source.{s}" not in strings] == [], lang
