# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""Every page in every language, at every game's telling moments, read in
headless Chromium at two phones' sizes (390x844 and 360x740): no page shows
an English word in French or Italian (names printed on the games aside), a
raw text key or an unfilled placeholder in any language, a word broken
inside, a text cut without its whole text reachable, or scrolls sideways;
axe-core finds no WCAG 2.1 A/AA violation in any page or sheet.  A refusal
each game makes is read in the phone's toast too, an Action card's preview,
past and abandoned games' histories and the setup page's colours too.  The
checks themselves are shown to find what they look for, planted in a page."""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from tests.language_check import english_words, problems, raw_keys
from tests.page_audit import axe_source, axe_violations, cut_words
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
NAMES = {"Ana", "Ben", "Cy", "Dee", "Eve", "Flo"}
# The phones every page is read at: the usual one, then a small one.
SIZES = (PHONE, {"width": 360, "height": 740})
# What axe-core found, over every page and sheet audited (printed at the end).
AUDITED = {"pages": 0, "violations": 0}


@pytest.fixture(scope="module")
def axe():
    return axe_source()


def at_sizes(page, check) -> list[str]:
    """``check(page)`` at each phone's size, what it finds said with the size."""
    found = []
    for size in SIZES:
        page.set_viewport_size(size)
        found += [f"({size['width']} px) {p}" for p in check(page)]
    page.set_viewport_size(PHONE)
    return found


def audit(page, axe) -> list[str]:
    """What axe-core finds in the page as it is now, at the small phone."""
    page.set_viewport_size(SIZES[-1])
    found = axe_violations(page, axe)
    page.set_viewport_size(PHONE)
    AUDITED["pages"] += 1
    AUDITED["violations"] += len(found)
    return [f"(axe) {v}" for v in found]


def print_audit() -> None:
    print(f"\naxe-core {AUDITED['pages']} pages and sheets audited (WCAG 2.1 A/AA): "
          f"{AUDITED['violations']} violations")


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
        widest = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > 391)
            .map((el) => `${el.tagName}.${el.className}`).slice(0, 3).join(', ')""")
        found.append(f"{width} px wide: wider than the phone's {PHONE['width']} ({widest})")
    return found


def look(page, lang: str, axe) -> list[str]:
    """Everything the crawl checks in the page shown: its words, nothing
    cut at either size, and axe-core's audit."""
    return check_page(page, lang) + at_sizes(page, cut_words) + audit(page, axe)


def sheet_lines(page) -> list[str]:
    return [line.strip() for line in page.inner_text("#sheet").split("\n") if line.strip()]


def close_sheet(page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet:not([open])", state="attached")


def check_sheets(page, lang: str, axe) -> list[str]:
    """What is wrong in the sheets the table page opens: the corrections
    and the other moves, with each command's label and help."""
    found = []
    for button in ("#corrections", "#more-moves"):
        if not page.locator(button).is_visible():
            continue
        page.click(button)
        page.wait_for_selector("#sheet[open]")
        wrong = (problems(sheet_lines(page), lang, NAMES) + at_sizes(page, cut_words)
                 + audit(page, axe))
        found += [f"({button}) {p}" for p in wrong]
        close_sheet(page)
    return found


def action_card_previews(page) -> list[str]:
    """Each Action card the board offers, said before it is played as the
    phone says it (its own preview line, the table's sentences)."""
    cards = page.eval_on_selector_all(".action-card", "(els) => els.map((b) => b.dataset.card)")
    assert cards, "no Action card offered"
    said = page.evaluate("""async (cards) => {
        const forms = await import("/static/js/forms.js");
        const core = await import("/static/js/core.js");
        const exp = core.store.state.expected.find((e) => e.command === "play");
        const out = [];
        for (const card of cards) {
            const line = forms.previewLine();
            await line.show("play", {...exp.args, card});
            out.push(line.el.textContent);
        }
        return out;
    }""", cards)
    assert len(said) == len(cards) and all(said), said
    return said


def check_past_games(page, companion, lang: str, axe) -> list[str]:
    """The history of every past game the statistics list (finished or
    abandoned)."""
    open_page(page, companion, "/stats")
    links = page.eval_on_selector_all("#past-games a.past-link",
                                      "(els) => els.map((a) => a.getAttribute('href'))")
    assert links, "the statistics list no past game"
    found = []
    for link in links:
        open_page(page, companion, link)
        page.wait_for_selector("#history li")
        found += [f"({link}) {p}" for p in look(page, lang, axe)]
    return found


def check_swatches(page, companion, lang: str, axe) -> list[str]:
    """The setup page with as many players as a game takes, each with a
    colour of the palette, its name shown on its swatch."""
    open_page(page, companion, "/setup")
    page.click("[data-game=call-of-nature]")
    while page.locator("#add-player").is_enabled():
        page.click("#add-player")
    for seat, name in enumerate(sorted(NAMES)):
        page.fill(f"input[data-seat='{seat}']", name)
    shown = page.locator(".swatch-name").all_inner_texts()
    assert len(shown) == 6 and len(set(shown)) == 6, shown
    return [f"(swatches) {p}" for p in look(page, lang, axe)]


def open_page(page, companion, path: str) -> None:
    page.goto(f"{companion.url}{path}")
    live(page)
    page.wait_for_load_state("networkidle")
    if path == "/":
        page.wait_for_selector("#board > *, #result:not([hidden])")
    if path == "/stats":
        page.wait_for_selector("#player-stats > *")
    # Two frames drawn: the page as the phone shows it.
    page.evaluate("""() => new Promise((done) =>
        requestAnimationFrame(() => requestAnimationFrame(done)))""")


def crawl(page, companion, lang: str, axe, paths=PAGES) -> dict[str, list[str]]:
    found = {}
    for path in paths:
        open_page(page, companion, path)
        wrong = look(page, lang, axe)
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
        companion, phones, axe, game, lang):
    page = controller(phones, companion, locale=LANGUAGES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    found: dict[str, list[str]] = {}
    moments = []
    for moment, refused in states(companion.table, game):
        moments.append(moment)
        open_page(page, companion, "/")
        wrong = look(page, lang, axe)
        if not companion.table.game.over:
            wrong += check_sheets(page, lang, axe)
        if refused is not None and not companion.table.game.over:
            told = refusal_toast(page, refused)
            wrong += problems([told], lang, NAMES)
        if wrong:
            found[f"{moment} /"] = wrong
        shot(page, f"crawl-{lang}-{game}-{moment}")
    for path, wrong in crawl(page, companion, lang, axe, PAGES[1:]).items():
        found[f"{moments[-1]} {path}"] = wrong
    for where, wrong in (("past games", check_past_games(page, companion, lang, axe)),
                         ("setup", check_swatches(page, companion, lang, axe))):
        if wrong:
            found[where] = wrong
    print_audit()
    assert found == {}, "\n".join(f"{where}: {p}" for where, wrong in found.items() for p in wrong)
    assert page.script_errors == []


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("variants", [[], ["light-tracking"]], ids=["full", "light"])
def test_every_action_cards_preview_is_in_the_phones_language(companion, phones, lang, variants):
    """What each Bathroom Rush Action card will do, as the phone says it
    before it is played (its own preview line): the phone's language only."""
    companion.table.new_game("bathroom-rush", ["Ana", "Ben", "Cy"], variants=variants)
    if not variants:
        for queue in (1, 2, 3):
            companion.table.submit(Command("choose-queue", {"queue": queue}))
        # Every Persona in sight turned over, an Action card is asked for.
        while (wait := companion.table.game.expected()[0]).command == "reveal":
            companion.table.submit(Command("reveal", {**wait.args, "pipi": 1, "popo": 0,
                                                      "colour": "neutral"}))
        assert wait.command == "play", wait
    page = controller(phones, companion, locale=LANGUAGES[lang])
    open_page(page, companion, "/")
    said = action_card_previews(page)
    assert problems(said, lang, NAMES) == []
    shot(page, f"crawl-{lang}-bathroom-rush-cards-{'light' if variants else 'full'}")


def test_the_page_checks_find_a_broken_word_a_cut_label_and_an_unnamed_link(companion, phones, axe):
    """A header too narrow for its word, a label clipped without its
    whole text, a strip that scrolls sideways and a link with no name,
    planted in a page that had none: each is reported."""
    page = controller(phones, companion, locale="it-IT")
    open_page(page, companion, "/stats")
    assert at_sizes(page, cut_words) == [] and audit(page, axe) == []
    page.evaluate("""() => {
        const main = document.querySelector("main");
        main.append(Object.assign(document.createElement("p"),
            {textContent: "Giocatore", style: "width: 3ch; overflow-wrap: anywhere"}));
        main.append(Object.assign(document.createElement("span"), {textContent: "Arancione",
            style: "display: block; width: 3ch; overflow: hidden; white-space: nowrap"}));
        const strip = Object.assign(document.createElement("div"),
            {style: "overflow-x: auto; white-space: nowrap; width: 100px"});
        strip.textContent = "Nuova partita ".repeat(10);
        main.append(strip);
        main.append(Object.assign(document.createElement("a"), {href: "/"}));
    }""")
    found = " ".join(at_sizes(page, cut_words))
    assert 'word broken: "Giocatore"' in found
    assert 'cut: "Arancione"' in found
    assert "scrolls sideways" in found
    assert any(v.startswith("(axe) link-name") for v in audit(page, axe))


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
