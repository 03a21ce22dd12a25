"""The OLED speaks the table's language: every game's screens and button
menu, walked in French and Italian through the real menu on a real table,
show no phrase that only English says.

What "only English says" is read from the word lists themselves: the
English words of the menu (``menu.*``), of the games' sentences the OLED
shows (names of commands, parameters, choices and cards, the reveal by the
keys, prompts), of the screens (``drivers/screens/words.py`` and the
Bathroom Rush page), and the names the menu would make up from a command's
own name; less whatever French or Italian writes the same way ("OK",
"Toilette").  Every string the screen draws is checked (but the rules'
refusals, which the engines word in English).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest

from companion.core.engine import Command
from companion.core.games import GAMES, game_class
from companion.core.journal import Journal
from companion.core.menu import KEY_ROWS, TableMenu, humanize
from companion.core.table import Table
from companion.core.text import COMMON, game_phrases
from drivers import screens
from drivers.menu_screens import render
from drivers.screens import canvas
from drivers.screens.bathroom_rush import PAGE_WORDS
from drivers.screens.words import WORDS

SHOWN_PREFIXES = ("label.", "keys.", "command.", "param.", "choice.", "card.", "prompt.")
PLAYERS = ["Ana", "Ben", "Cy"]


class _Named(dict):
    def __missing__(self, key):
        return "Ana" if key in ("name", "player", "who", "title") else "2"


def _filled(template: str) -> str:
    try:
        return template.format_map(_Named())
    except (ValueError, IndexError):
        return template


def _values(phrases, prefixes=None) -> set[str]:
    return {_filled(text) for key, text in phrases.items()
            if prefixes is None or key.startswith(prefixes)}


@cache
def english_only(lang: str) -> frozenset[str]:
    """The English phrases the OLED may show that ``lang`` says otherwise."""
    english = _values(COMMON["en"]) | _values(WORDS["en"]) | _values(PAGE_WORDS["en"])
    native = (_values(COMMON[lang]) | _values(WORDS[lang]) | _values(PAGE_WORDS[lang]))
    for game in GAMES:
        phrases = game_phrases(game)
        english |= _values(phrases.get("en", {}), SHOWN_PREFIXES)
        native |= _values(phrases.get(lang, {}))
        # Names the menu makes up from the specs when no sentence names them.
        for spec in game_class(game).commands:
            english.add(humanize(spec.name))
            for param in spec.params:
                english.add(humanize(param.name).lower())
                english |= {humanize(choice) for choice in param.choices}
    english |= {"Yes", "(none)"}
    own = "\n".join(native)
    return frozenset(
        phrase for phrase in english - native
        if len(phrase) >= 3 and re.search(r"[A-Za-z]{3}", phrase)
        # A word the language writes the same way in its own phrases
        # ("Suspense !", "Carte Action").
        and not _said(phrase).search(own))


@cache
def _said(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)")


@cache
def _any_of(phrases: frozenset[str]) -> re.Pattern[str]:
    ordered = sorted(phrases, key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, ordered))})(?!\w)")


def offending(shown: str, phrases: frozenset[str]) -> list[str]:
    if not _any_of(phrases).search(shown):
        return []
    return [p for p in phrases if _said(p).search(shown)]


# -- walking the screens ---------------------------------------------------------------


def situations() -> Iterator[tuple[str, str, dict]]:
    """(name, game, how to set it up) for each game at a few moments."""
    yield "call of nature", "call-of-nature", {}
    yield "call of nature, a Respite", "call-of-nature", {"commands": [
        ("set-pressure", {"value": 45}), ("card", {"value": 5})]}
    yield "ohshit", "ohshit", {}
    yield "bathroom rush, queues", "bathroom-rush", {}
    yield "bathroom rush, reveals", "bathroom-rush", {"queues": True}
    yield "bathroom rush, a box", "bathroom-rush", {"queues": True, "options": {"box": [
        {"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 20},
        {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 10}]}}
    yield "bathroom rush, a turn", "bathroom-rush", {"queues": True, "revealed": True}
    yield "bathroom rush, light", "bathroom-rush", {"variants": ("light-tracking",)}


def fresh(lang: str, game: str, how: dict) -> tuple[Table, TableMenu]:
    table = Table(Journal.open(":memory:"))
    table.new_game(game, PLAYERS, how.get("variants", ()), how.get("options"))
    for name, args in how.get("commands", ()):
        table.submit(Command(name, args))
    if how.get("queues"):
        for queue in (1, 2, 3):
            table.submit(Command("choose-queue", {"queue": queue}))
    if how.get("revealed"):
        while table.current().expected[0].command == "reveal":
            args = dict(table.current().expected[0].args)
            table.submit(Command("reveal", {**args, "pipi": 1, "popo": 0,
                                            "colour": "neutral"}))
    menu = TableMenu(table, dice_source="manual", language=lang)
    table.subscribe(menu.on_update)
    return table, menu


def walk(lang: str, game: str, how: dict) -> Iterator[tuple[str, list[str]]]:
    """Every screen reached, as (what, the strings shown)."""
    table, menu = fresh(lang, game, how)
    try:
        update = table.current()
        for page in range(screens.game_pages(update)):
            yield f"game page {page}", drawn(lambda p=page: screens.game_screen(update, lang, p))
    finally:
        table.close()
    for keys in key_paths(lang, game, how):
        table, menu = fresh(lang, game, how)
        try:
            for n, key in enumerate(keys):
                press(menu, key)
                view = menu.view()
                if view.kind == "message" and view.title == COMMON[lang]["menu.refused"]:
                    # The rules' refusals are said by the engines, in English.
                    continue
                yield " ".join(keys[:n + 1]), drawn(
                    lambda v=view, u=menu.update: render(v, u, lang))
        finally:
            table.close()


def key_paths(lang: str, game: str, how: dict) -> list[list[str]]:
    """Each line of the main menu, of the actions and of the corrections
    opened, then OK (or the first key beside an answer) pressed again and
    again through the command's values."""
    table, menu = fresh(lang, game, how)
    try:
        found: list[list[str]] = []
        home = menu.view()
        if home.kind == "keys":
            for key, label in zip(KEY_ROWS, home.items, strict=True):
                if label:
                    found.append([key, "up", "up"])
        press(menu, "back")
        main = len(menu.view().items)
        for line in range(main):
            found.append(["back", *["down"] * line, "ok", "ok", "ok"])
        table2, menu2 = fresh(lang, game, how)
        try:
            press(menu2, "hold-ok")
            actions = len(menu2.view().items)
            for line in range(actions):
                found.append(["hold-ok", *["down"] * line, *["ok"] * 6])
            # The corrections: the last line of the actions.
            press(menu2, "back")
        finally:
            table2.close()
        table3, menu3 = fresh(lang, game, how)
        try:
            press(menu3, "hold-ok")
            press(menu3, "up")  # to the corrections, the last line
            press(menu3, "ok")
            corrections = len(menu3.view().items) if menu3.view().kind == "list" else 0
            for line in range(corrections):
                found.append(["hold-ok", "up", "ok", *["down"] * line, *["ok"] * 7])
        finally:
            table3.close()
        return found
    finally:
        table.close()


def press(menu: TableMenu, key: str) -> None:
    if key.startswith("hold-"):
        menu.on_key(key[5:], "press")
        menu.on_key(key[5:], "long")
    else:
        menu.on_key(key, "press")


def drawn(draw) -> list[str]:
    """The strings the screen draws (every one goes through Canvas.text)."""
    seen: list[str] = []
    original = canvas.Canvas.text

    def text(self, xy, shown, size, **kwargs):
        seen.append(shown)
        return original(self, xy, shown, size, **kwargs)

    canvas.Canvas.text = text
    try:
        draw()
    finally:
        canvas.Canvas.text = original
    return seen


@pytest.mark.parametrize("lang", ["fr", "it"])
@pytest.mark.parametrize(("name", "game", "how"), list(situations()),
                         ids=[name for name, _, _ in situations()])
def test_no_screen_of_the_game_or_its_menu_shows_an_english_only_phrase(lang, name, game,
                                                                        how):
    phrases = english_only(lang)
    found = {}
    screens_seen = 0
    for where, strings in walk(lang, game, how):
        screens_seen += 1
        for shown in strings:
            bad = offending(shown, phrases)
            if bad:
                found.setdefault(where, set()).update(f"{b!r} in {shown!r}" for b in bad)
    assert screens_seen > 10
    assert found == {}


def test_the_english_only_phrases_are_found_where_they_are_shown():
    """The check itself: the English menu shows them."""
    phrases = english_only("fr")
    assert {"Pressure card", "Reveal", "Decompress", "Undo", "OK: yes  BACK: no",
            "manual", "Yes"} <= phrases
    assert "OK" not in phrases and "Toilette" not in phrases
    shown = []
    for _where, strings in walk("en", "bathroom-rush", {"queues": True}):
        shown += strings
    assert any(offending(s, phrases) for s in shown)
