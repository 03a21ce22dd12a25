# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""Every page in every language, at every game's telling moments, read in
headless Chromium at a phone's width: no page shows an English word in
French or Italian (names printed on the games aside), a raw text key or an
unfilled placeholder in any language, or scrolls sideways.  A refusal each
game makes is read in the phone's toast too.  The checks themselves are
shown to find a planted English sentence and a planted raw key."""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from tests.language_check import english_words, problems, raw_keys
from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    PHONE,
    browser,
    companion,
    controller,
    expect,
    live,
    phones,
    shot,
)
from tests.test_web_languages import refused_in_toast

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
PAGES = ("/", "/history", "/stats", "/setup", "/box", "/wifi", "/virtual")
NAMES = {"Ana", "Ben", "Cy"}


def visible_lines(page) -> list[str]:
    text = page.evaluate("document.body.innerText")
    return [line.strip() for line in text.split("\n") if line.strip()]


def check_page(page, lang: str) -> list[str]:
    """What is wrong with the page shown: its words, its keys, its width."""
    found = problems(visible_lines(page), lang, NAMES)
    # The attributes a screen reader says count as much as the text.
    labels = page.evaluate("""() => [...document.querySelectorAll('[aria-label], [title]')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => el.getAttribute('aria-label') || el.getAttribute('title'))""")
    found += [f"(label) {p}" for p in problems(labels, lang, NAMES)]
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        found.append(f"{width} px wide: wider than the phone's {PHONE['width']}")
    return found


def check_sheets(page, lang: str) -> list[str]:
    """What is wrong in the sheets the table page opens: the corrections
    and the other moves, with each command's label and help."""
    found = []
    for button in ("#corrections", "#more-moves"):
        if not page.locator(button).is_visible():
            continue
        page.click(button)
        page.wait_for_selector("#sheet[open]")
        lines = [line.strip() for line in page.inner_text("#sheet").split("\n") if line.strip()]
        found += [f"({button}) {p}" for p in problems(lines, lang, NAMES)]
        page.keyboard.press("Escape")
        page.wait_for_selector("#sheet:not([open])", state="attached")
    return found


def open_page(page, companion, path: str) -> None:
    page.goto(f"{companion.url}{path}")
    live(page)
    page.wait_for_load_state("networkidle")
    if path == "/":
        page.wait_for_selector("#board > *, #result:not([hidden])")


def crawl(page, companion, lang: str, paths=PAGES) -> dict[str, list[str]]:
    found = {}
    for path in paths:
        open_page(page, companion, path)
        wrong = check_page(page, lang)
        if wrong:
            found[path] = wrong
    return found


def refusal_toast(page, command: dict) -> str:
    """Send ``command`` as the panel's forms do, read the toast, and put it
    away for the next page."""
    text = refused_in_toast(page, command)
    page.evaluate("() => document.querySelector('#toast')?.hidePopover?.()")
    return text


def play_call_of_nature(table) -> None:
    """A game to its End of Game rolls, CRITICAL THRESHOLD! cards counted."""
    table.submit(Command("set-pressure", {"value": 40}))
    while not table.game.over:
        wait = table.game.expected()[0]
        if wait.command == "card":
            table.submit(Command("card", {"value": 30}))
        elif wait.command == "held-thresholds":
            table.submit(Command("held-thresholds", {"count": 1}))
        elif wait.command == "roll":
            table.submit(Command("roll", {"values": [3, 4]}))
        else:
            raise AssertionError(f"unexpected {wait.command}")


def states(table, game: str):
    """The moments of ``game`` the crawl looks at, each a name; the table
    page is read at each, every page at the last (the game over)."""
    if game == "call-of-nature":
        table.new_game(game, ["Ana", "Ben", "Cy"], variants=["threshold-cards-in-hand"])
        table.submit(Command("card", {"value": 22}))
        table.submit(Command("card", {"value": -5}))
        yield "cards", {"name": "card", "args": {"value": 5, "player": "Ana"}}
        table.submit(Command("set-pressure", {"value": 40}))
        table.submit(Command("card", {"value": 10}))
        yield "respite", {"name": "card", "args": {"value": 7}}
        table.submit(Command("roll", {"values": [6]}))
        play_call_of_nature(table)
        yield "over", None
    elif game == "ohshit":
        table.new_game(game, ["Ana", "Ben"])
        table.submit(Command("poop", {"colour": "spicy", "target": 1}))
        yield "poop", {"name": "poop", "args": {"colour": "spicy", "target": 9}}
        # The corrections, each said in its own form.
        table.submit(Command("set-pile", {"player": 1, "colour": "spicy", "count": 2}))
        table.submit(Command("set-hand", {"player": 0, "count": 1}))
        table.submit(Command("set-constipated", {"player": 1, "constipated": True}))
        table.submit(Command("set-decharge", {"colour": "grassy", "count": 1}))
        table.submit(Command("set-drain", {"card": "toilette", "count": 1}))
        table.submit(Command("set-deck", {"card": "unicorn", "count": 1}))
        yield "corrections", None
        table.submit(Command("kill", {"player": 0}))
        yield "over", None
    elif game == "bathroom-rush":
        table.new_game(game, ["Ana", "Ben", "Cy"])
        yield "queues", {"name": "choose-queue", "args": {"queue": 9}}
        for queue in (1, 2, 3):
            table.submit(Command("choose-queue", {"queue": queue}))
        yield "reveal", {"name": "play", "args": {"card": "give-up-your-place"}}
        table.new_game(game, ["Ana", "Ben", "Cy"], variants=["light-tracking"])
        yield "light", None
        for _ in range(3):
            table.submit(Command("end-turn", {}))
        assert table.game.phase == "cleanup"
        yield "cleanup", None
        for seat in (1, 2):
            table.submit(Command("set-reserve", {"player": seat, "pipi": 0, "popo": 3}))
        table.submit(Command("set-reserve", {"player": 0, "pipi": 0, "popo": 3}))
        yield "end", None


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game", ["call-of-nature", "ohshit", "bathroom-rush"])
def test_every_page_at_every_moment_of_a_game_is_in_the_phones_language(
        companion, phones, game, lang):
    page = controller(phones, companion, locale=LANGUAGES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    found: dict[str, list[str]] = {}
    moments = []
    for moment, refused in states(companion.table, game):
        moments.append(moment)
        open_page(page, companion, "/")
        wrong = check_page(page, lang)
        if not companion.table.game.over:
            wrong += check_sheets(page, lang)
        if refused is not None and not companion.table.game.over:
            told = refusal_toast(page, refused)
            wrong += problems([told], lang, NAMES)
        if wrong:
            found[f"{moment} /"] = wrong
        shot(page, f"crawl-{lang}-{game}-{moment}")
    for path, wrong in crawl(page, companion, lang, PAGES[1:]).items():
        found[f"{moments[-1]} {path}"] = wrong
    assert found == {}
    assert page.script_errors == []


def test_the_checks_find_an_english_sentence_and_a_raw_key_planted_in_a_page(companion, phones):
    """An English sentence and a raw key written into a French page: the
    crawl's check reports both; the page without them passes."""
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    page = controller(phones, companion, locale="fr-FR")
    open_page(page, companion, "/")
    assert check_page(page, "fr") == []
    page.evaluate("""() => {
        const main = document.querySelector("main");
        main.append(Object.assign(document.createElement("p"),
            {textContent: "Ben rolls 3+4 = 7. Bravo, you have saved your dignity!"}));
        main.append(Object.assign(document.createElement("p"),
            {textContent: "dice.source.pixels"}));
    }""")
    found = check_page(page, "fr")
    assert any(p.startswith("English") and "dignity" in p for p in found), found
    assert any(p.startswith("raw key ['dice.source.pixels']") for p in found), found
    # A line wider than the phone.
    page.evaluate("""() => document.querySelector("main").append(Object.assign(
        document.createElement("pre"), {textContent: "x".repeat(120)}))""")
    assert any("wider than the phone" in p for p in check_page(page, "fr"))


def test_the_words_check_tells_english_from_french_and_italian():
    assert english_words("Ben rolls 3+4 = 7. Bravo, you have saved your dignity!", "fr")
    assert english_words("1 kinds, 1 Persona cards", "it")
    assert english_words("Au tour d'Ana · Ben joue +22 : Pression 23", "fr") == []
    assert english_words("Tocca a Ana · Ben gioca +22: Pressione 23", "it") == []
    # Names printed on the games are no English to a French table.
    assert english_words("Call of Nature · OhShit! · Bathroom Rush · Lost Young Man", "fr") == []


def test_the_keys_check_finds_keys_and_placeholders_but_not_addresses():
    assert raw_keys("Dés : dice.source.pixels") == ["dice.source.pixels"]
    assert raw_keys("call-of-nature:event.turn") == ["call-of-nature:event.turn"]
    assert raw_keys("Au tour de {player}") == ["{player}"]
    assert raw_keys("{n, plural, one {# partie} other {# parties}}")
    assert raw_keys("http://192.168.4.1:8080/join · companion.local") == []
    assert raw_keys("Ana a gagné 2 parties sur 3.") == []


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_panels_own_refusals_reach_a_phone_in_its_language(companion, phones, lang):
    """A request the panel itself refuses (a body it cannot read, an address
    it does not have) is said in the phone's language from its code, as the
    table's refusals are."""
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    page = controller(phones, companion, locale=LANGUAGES[lang])
    open_page(page, companion, "/")
    told = refusal_toast(page, {"name": "card", "args": {"value": "vingt"}})
    assert told and problems([told], lang, NAMES) == []
    missing = page.evaluate("""async () => {
        const core = await import("/static/js/core.js");
        try { await core.api("GET", "/api/nothing-here"); } catch (err) { return err.message; }
    }""")
    assert missing and problems([missing], lang, NAMES) == []
    assert page.script_errors == []


# Numbers of four digits are left out: Italian writes 1234 in the browser
# and 1.234 through Babel, which does not apply CLDR's minimum grouping
# digits; no count at a table comes near.
CASES = [
    ("{n, plural, one {# partie} other {# parties}} de {name}", {"n": 0, "name": "Ana"}),
    ("{n, plural, one {# partie} other {# parties}} de {name}", {"n": 1, "name": "Ben"}),
    ("{n, plural, =0 {aucune} one {# partita} other {# partite}}", {"n": 0}),
    ("{n, plural, one {# carta} other {# carte}}", {"n": 21}),
    ("{n, plural, one {# game} other {# games}}", {"n": 12345}),
    ("Au tour de {player} · {player} joue {value:+d}", {"player": "Émile", "value": 22}),
    ("L'effetto di {persona} · su {card} · a {name}", {"persona": "la Persona rossa",
                                                        "card": "l'Anziano", "name": "Ana"}),
    ("Défense contre le {card} de {name}", {"card": "Addetto alle pulizie", "name": "Cy"}),
    ("{total, select, 2 {Désastre !} other {Bravo !}} {loss, plural, =0 {{who} garde} "
     "other {{who} perd #}}", {"total": 2, "loss": 7, "who": "Cy"}),
]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_panel_and_the_server_fill_a_template_alike(companion, phones, lang):
    """The browser's Intl and the server's Babel choose the same plural
    forms and write the same numbers; French elides alike."""
    from companion.core.text import fill

    page = controller(phones, companion, locale=LANGUAGES[lang])
    browser_said = page.evaluate("""async (cases) => {
        const core = await import("/static/js/core.js");
        return cases.map(([template, fields]) => core.fill(template, fields));
    }""", CASES)
    assert browser_said == [fill(template, lang, fields) for template, fields in CASES]
