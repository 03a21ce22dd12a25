# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""French and Italian pages without English: every page of the panel is
opened in headless Chromium in French and in Italian, in the middle of a game
and after one, and its visible text is checked against the English strings
(the pages' and every game's phrases) and common English words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.core.engine import Command
from companion.core.text import game_phrases
from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    browser,
    companion,
    controller,
    expect,
    live,
    phones,
    play_card,
    shot,
)

pytestmark = pytest.mark.browser

I18N = Path(__file__).resolve().parent.parent / "web" / "static" / "i18n"
GAMES = ("call-of-nature", "ohshit", "bathroom-rush")
PAGES = ("/", "/history", "/stats", "/setup", "/box", "/wifi", "/virtual")
# Words of English sentences that are no words of French or Italian ones.
ENGLISH_WORDS = {"the", "and", "plays", "play", "turn", "your", "you", "with", "from",
                 "wins", "card", "cards", "undo", "history", "player", "players", "round",
                 "pressure", "queue", "game", "new", "rolls", "rolled", "nobody"}
# Words the same in the three languages (names, codes, the games' titles).
SAME = {"OhShit!", "Call of Nature", "Bathroom Rush", "Wi-Fi", "OK", "PIN", "EN", "FR", "IT",
        "English", "Français", "Italiano", "pipì", "popò", "Suspense!", "Toilette"}


def english_patterns(lang: str) -> list[re.Pattern[str]]:
    """Each English phrase that the language says otherwise, as a pattern
    of a whole line ({fields} match anything)."""
    pairs = []
    en = json.loads((I18N / "en.json").read_text())
    other = json.loads((I18N / f"{lang}.json").read_text())
    pairs += [(text, other.get(key)) for key, text in en.items()]
    for game in GAMES:
        phrases = game_phrases(game)
        pairs += [(text, phrases.get(lang, {}).get(key)) for key, text in phrases["en"].items()]
    out = []
    for english, translated in pairs:
        if english == translated or english in SAME or len(english) < 4:
            continue
        parts = re.split(r"\{\w+\}", english)
        if sum(len(p.strip()) for p in parts) < 4:
            continue
        out.append(re.compile(".*".join(re.escape(p) for p in parts), re.IGNORECASE))
    return out


# The history's command lines ("card value=25") make way for the events'
# sentences with the history page's own rework; until then they are left out.
NOT_YET = "#history .what"


def visible_lines(page) -> list[str]:
    text = page.evaluate("""(skip) => {
        const hidden = [...document.querySelectorAll(skip)];
        hidden.forEach((el) => { el.style.display = "none"; });
        const text = document.body.innerText;
        hidden.forEach((el) => { el.style.display = ""; });
        return text;
    }""", NOT_YET)
    return [line.strip() for line in text.split("\n") if line.strip()]


def english_in(page, lang: str) -> list[str]:
    return english_lines(visible_lines(page), lang)


def english_lines(lines: list[str], lang: str) -> list[str]:
    patterns = english_patterns(lang)
    found = []
    for line in lines:
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", line)}
        if line in SAME:
            continue
        if words & ENGLISH_WORDS or any(p.fullmatch(line) for p in patterns):
            found.append(line)
    return found


def open_in(phones, companion, lang: str):
    page = controller(phones, companion, locale={"fr": "fr-FR", "it": "it-IT"}[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page


def crawl(page, companion, lang: str, name: str) -> dict[str, list[str]]:
    found = {}
    for path in PAGES:
        page.goto(f"{companion.url}{path}")
        live(page)
        page.wait_for_load_state("networkidle")
        if path == "/":
            page.wait_for_selector("#board .board, #board .card")
        english = english_in(page, lang)
        # Longer words never make a page wider than the phone.
        if page.evaluate("document.documentElement.scrollWidth") > 390:
            english.append("(wider than the phone)")
        if english:
            found[path] = english
        shot(page, f"{lang}-{name}{path.replace('/', '-') or '-table'}")
    return found


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_call_of_nature_pages_have_no_english(companion, phones, lang):
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    companion.table.submit(Command("set-pressure", {"value": 40}))
    page = open_in(phones, companion, lang)
    play_card(page, 10)  # a Respite
    page.click("#roll")
    expect(page.locator("#toast")).to_be_visible()
    assert english_in(page, lang) == []
    companion.table.submit(Command("card", {"value": 25}))  # a threshold fires
    companion.table.submit(Command("note", {"text": "Ana"}))
    assert crawl(page, companion, lang, "call-of-nature") == {}
    assert page.script_errors == []


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_ohshit_pages_have_no_english_to_the_end_of_a_game(companion, phones, lang):
    companion.table.new_game("ohshit", ["Ana", "Ben"])
    companion.table.submit(Command("poop", {"colour": "spicy", "target": 1}))
    page = open_in(phones, companion, lang)
    assert crawl(page, companion, lang, "ohshit") == {}
    companion.table.submit(Command("kill", {"player": 0}))
    page.goto(companion.url)
    live(page)
    page.wait_for_selector("#result:not([hidden])")
    assert english_in(page, lang) == []
    shot(page, f"{lang}-ohshit-over")


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_bathroom_rush_table_has_no_english(companion, phones, lang):
    companion.table.new_game("bathroom-rush", ["Ana", "Ben"])
    page = open_in(phones, companion, lang)
    page.wait_for_selector("#board .board")
    assert english_in(page, lang) == []
    shot(page, f"{lang}-bathroom-rush")


def refused_in_toast(page, command: dict) -> str:
    """Send ``command`` the way the panel's forms do (the page's own
    ``change``, against the game and version it shows) and read the toast."""
    page.evaluate("""async (command) => {
        const core = await import("/static/js/core.js");
        const state = core.store.state;
        await core.change("/api/command", {command, game_id: state.game_id,
                                           version: state.version});
    }""", command)
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    return toast.locator(".toast-now").inner_text().strip()


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_refusal_reaches_a_french_or_italian_phone_in_its_language(companion, phones, lang):
    from companion.core.errors import BadArgument, WrongPlayer

    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    page = open_in(phones, companion, lang)
    before = companion.table.current().version
    # Ben plays a card on Ana's turn.
    told = refused_in_toast(page, {"name": "card", "args": {"value": 5, "player": "Ben"}})
    with pytest.raises(WrongPlayer) as refusal:
        companion.table.game.apply(Command("card", {"value": 5, "player": "Ben"}))
    assert told == refusal.value.say(lang) != str(refusal.value)
    assert "Ben" in told and "Ana" in told
    assert english_lines([told], lang) == []
    # A value the deck does not hold.
    expect(page.locator("#toast")).to_be_hidden()
    told = refused_in_toast(page, {"name": "card", "args": {"value": 99}})
    with pytest.raises(BadArgument) as refusal:
        companion.table.game.apply(Command("card", {"value": 99}))
    assert told == refusal.value.say(lang) != str(refusal.value)
    assert "99" in told and english_lines([told], lang) == []
    assert companion.table.current().version == before
    shot(page, f"{lang}-refusal")
    assert page.script_errors == []


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_bathroom_rush_refusal_says_what_the_game_waits_for_in_the_phones_language(
        companion, phones, lang):
    from companion.core.text import say

    companion.table.new_game("bathroom-rush", ["Ana", "Ben"])
    companion.table.submit(Command("choose-queue", {"queue": 1}))
    page = open_in(phones, companion, lang)
    page.wait_for_selector("#board .board")
    # Ben asks for Ana's queue.
    told = refused_in_toast(page, {"name": "choose-queue", "args": {"queue": 1}})
    assert "Ana" in told and {"fr": "file", "it": "fila"}[lang] in told
    assert english_lines([told], lang) == []
    # An Action card while the queues are being chosen: the refusal says, in
    # the phone's words, that the game waits for Ben to choose a queue.
    expect(page.locator("#toast")).to_be_hidden()
    told = refused_in_toast(page, {"name": "play", "args": {"card": "give-up-your-place"}})
    assert say("command.choose-queue", lang, game="bathroom-rush") in told
    assert "Ben" in told and english_lines([told], lang) == []
    assert page.script_errors == []


# A box whose kinds are named as the cards are printed: the Infamous Person
# acts from a bathroom, a red Persona in front of the player, the Elderly
# Man behind.
ROUND_BOX = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 30},
             {"name": "Infame", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 4},
             {"name": "Rosso", "colour": "red", "pipi": 2, "popo": 0, "copies": 6},
             {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 6}]
# Where each Persona of Ana's queue stands once she stands at its end.
ANAS_QUEUE = {1: "Infame", 6: "Rosso", 8: "Anziano"}


def tap(page, selector: str) -> None:
    """Tap and wait for the table's answer (the page shows it next)."""
    with page.expect_response(lambda r: r.request.method == "POST" and "/api/" in r.url):
        page.click(selector)


def said_on_page(page, companion, lang: str) -> None:
    """The page shows what the game waits for, said in its language, and
    nothing in English."""
    expected = companion.table.game.expected(lang)
    if expected:
        # (A reveal's question comes after the name of the player asked.)
        expect(page.locator("#prompt")).to_have_text(
            re.compile(rf"^(?:.+ — )?{re.escape(expected[0].prompt)}\s*$"))
    assert english_in(page, lang) == []


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_bathroom_rush_game_reads_without_english_phase_d_listed_in_the_pages_language(
        companion, phones, lang):
    """Three players choose their queues, the Personas are revealed by a tap
    each, and phase D lists Ana's effects (from the bathroom, in front,
    behind) in the page's language, the game's own sentences; a Queue
    Defence is offered, then the turn goes on, to the end of the game."""
    companion.dice.values = [1]
    companion.table.new_game("bathroom-rush", ["Ana", "Ben", "Cy"],
                             options={"box": ROUND_BOX})
    page = open_in(phones, companion, lang)
    page.wait_for_selector("#board .board")
    for queue in (1, 2, 3):
        said_on_page(page, companion, lang)
        tap(page, f".stand[data-queue='{queue}']")
    while companion.table.game.phase == "A":
        said_on_page(page, companion, lang)
        wait = companion.table.game.expected()[0]
        assert wait.command == "reveal-kind"
        kind = (ANAS_QUEUE.get(wait.args["position"], "Signora") if wait.args["queue"] == 1
                else "Signora")
        tap(page, f".br-kinds .persona-kind[data-kind='{kind}']")
    game = companion.table.game
    assert game.phase == "D" and game.active() == 0
    lines = game.view(lang)["effects"]
    assert len(lines) == 3
    expect(page.locator(".br-effects li")).to_have_text(lines)
    said_on_page(page, companion, lang)
    page.locator(".br-effects").evaluate("(el) => el.scrollIntoView({block: 'center'})")
    shot(page, f"{lang}-bathroom-rush-phase-d")
    # The Infamous Person in the bathroom: a Queue Defence blocks it.
    assert [e.command for e in game.expected()] == ["effect", "defend"]
    expect(page.locator("button[data-command=defend]")).to_be_visible()
    tap(page, "button[data-command=defend]")
    expect(page.locator(".br-effects li")).to_have_text(companion.table.game.view(lang)["effects"])
    said_on_page(page, companion, lang)
    # The red Persona in front: the table applies it, then says it is done.
    tap(page, "button[data-command=effect]")
    said_on_page(page, companion, lang)
    # The Elderly Man behind: he passes in front of Ana.
    tap(page, "button[data-command=effect]")
    assert companion.table.game.phase == "E"
    expect(page.locator(".br-effects")).to_have_count(0)
    said_on_page(page, companion, lang)
    # Ana decompresses with the red die; Ben's turn comes.
    tap(page, "button[data-command=decompress]")
    said_on_page(page, companion, lang)
    tap(page, "#roll")
    said_on_page(page, companion, lang)
    # Ben then Cy, at three popò, decompress and roll a 4: the fourth
    # eliminates them, and Ana is the last standing.
    companion.dice.values = [4]
    for seat in (1, 2):
        companion.table.submit(Command("set-reserve", {"player": seat, "pipi": 0, "popo": 3}))
        said_on_page(page, companion, lang)
        tap(page, "button[data-command=decompress]")
        tap(page, "#roll")
    assert companion.table.game.over
    assert companion.table.game.result().winners == (0,)
    page.wait_for_selector("#result:not([hidden])")
    expect(page.locator("#result p")).to_contain_text("Ana")
    assert english_in(page, lang) == []
    shot(page, f"{lang}-bathroom-rush-over")
    page.goto(f"{companion.url}/history")
    live(page)
    page.wait_for_load_state("networkidle")
    assert english_in(page, lang) == []
    assert page.script_errors == []
