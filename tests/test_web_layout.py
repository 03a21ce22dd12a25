# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""The table page's layout in headless Chromium: on a 390x844 phone the dock
never hides a player row; a tablet or a laptop gets two columns (the table
beside what it waits for); the mirror is the OLED's frame."""

from __future__ import annotations

import base64

import pytest

from companion.core.engine import Command
from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    browser,
    companion,
    controller,
    expect,
    phones,
    shot,
)

pytestmark = pytest.mark.browser

GAMES = [
    ("call-of-nature", ["Ana", "Ben", "Cy", "Dee"]),
    ("ohshit", ["Ana", "Ben", "Cy", "Dee"]),
    ("bathroom-rush", ["Ana", "Ben", "Cy", "Dee"]),
]


def hidden_rows(page) -> list[str]:
    """The player rows the dock covers, even in part, with the page
    scrolled to the top."""
    return page.evaluate("""() => {
        window.scrollTo(0, 0);
        const dock = document.querySelector('#dock').getBoundingClientRect();
        return [...document.querySelectorAll('.player')]
            .filter((row) => {
                const r = row.getBoundingClientRect();
                return r.bottom > dock.top && r.top < dock.bottom
                    && r.right > dock.left && r.left < dock.right;
            })
            .map((row) => row.textContent.trim());
    }""")


@pytest.mark.parametrize("game,players", GAMES)
def test_the_dock_never_hides_a_player_row_on_a_phone(companion, phones, game, players):
    companion.table.new_game(game, players)
    page = controller(phones, companion)
    page.wait_for_selector(".player")
    page.wait_for_selector("#dock .btn")
    assert page.viewport_size == {"width": 390, "height": 844}
    shot(page, f"layout-phone-{game}")
    assert hidden_rows(page) == []
    assert cut_labels(page) == []


@pytest.mark.parametrize("locale", ["fr-FR", "it-IT"])
def test_the_card_numbers_hide_no_row_in_french_or_italian(companion, phones, locale):
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
    companion.table.submit(Command("reverse", {}))  # the longest facts: counter-clockwise
    page = controller(phones, companion, locale=locale)
    page.wait_for_selector(".number-grid")
    assert page.locator(".number-grid .number-key").count() == 31  # 0 to 30
    assert hidden_rows(page) == []
    assert cut_labels(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # This phone's player, told of their turn on the prompt's line: still none.
    page.evaluate("localStorage.setItem('seat', 'Ana')")
    page.reload()
    page.wait_for_selector("#your-turn")
    shot(page, f"layout-phone-call-of-nature-{locale}")
    assert hidden_rows(page) == []
    assert cut_labels(page) == []


def cut_labels(page) -> list[str]:
    """The dock's buttons whose label does not fit them (cut or spilling)."""
    return page.evaluate("""() => [...document.querySelectorAll('#dock button, #dock .btn')]
        .filter((b) => b.offsetParent !== null
            && (b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight + 1))
        .map((b) => b.textContent.trim())""")


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_a_long_preview_in_the_dock_hides_no_row_and_cuts_no_label(companion, phones, locale):
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
    companion.table.submit(Command("set-pressure", {"value": 25}))
    companion.table.submit(Command("card", {"value": 1}))  # 26, Ben's turn, redo none
    companion.table.submit(Command("card", {"value": 2}))
    companion.table.undo()  # 26 again: undo and redo both in the bottom row
    page = controller(phones, companion, locale=locale)
    page.wait_for_selector(".number-grid")
    page.wait_for_selector("#dock-redo")
    assert cut_labels(page) == []
    assert hidden_rows(page) == []
    # +9 takes the Pressure from 26 to 35: past 31, a critical threshold
    # fires and Ben loses Mastery; the preview says it in several sentences.
    page.click(".number-grid [data-value='9']")
    preview = page.locator(".card-play[data-value='9'] .preview[data-version]")
    expect(preview).to_be_visible()
    said = preview.text_content()
    assert "31" in said and len(said) > 60, said
    shot(page, f"layout-phone-long-preview-{locale}")
    assert hidden_rows(page) == []
    assert cut_labels(page) == []
    # The whole of what it says can be read: the choices scroll, and
    # "another number" stays in reach.
    page.locator(".card-play[data-value='-9']").scroll_into_view_if_needed()
    expect(page.locator(".card-play[data-value='-9']")).to_be_in_viewport()
    expect(page.locator(".card-back")).to_be_in_viewport()
    assert hidden_rows(page) == []


def test_a_laptop_gets_two_columns_the_table_beside_the_dock(companion, browser):
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(companion.join_url)
        page.wait_for_selector("#conn[data-state=live]")
        page.wait_for_selector(".number-grid")
        board = page.locator("#board").bounding_box()
        dock = page.locator("#dock").bounding_box()
        assert board["x"] + board["width"] <= dock["x"] + 1  # side by side
        assert dock["y"] < board["y"] + board["height"]
        assert hidden_rows(page) == []
        shot(page, "layout-laptop")
    finally:
        context.close()


def test_the_mirror_shows_the_frame_the_oled_shows(companion, phones):
    companion.table.new_game("call-of-nature", ["Ana", "Ben"])
    page = controller(phones, companion)
    page.wait_for_selector("#oled")
    page.wait_for_function("() => document.querySelector('#oled').naturalWidth === 128")
    # The mirror follows the table: a card played, its frame pushed.
    companion.table.submit(Command("card", {"value": 5}))
    frame = companion.screen.number
    page.wait_for_function("(n) => document.querySelector('#oled').dataset.frame === String(n)",
                           arg=frame)
    shown = page.evaluate("document.querySelector('#oled').src")
    assert shown == "data:image/png;base64," + base64.b64encode(companion.screen.png()).decode()


def test_the_mirror_follows_the_display_when_it_changes_by_itself(companion, phones):
    companion.table.new_game("call-of-nature", ["Ana", "Ben"])
    page = controller(phones, companion)
    page.wait_for_selector("#oled")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    # Nothing changes on the table; the screen shows a note: the mirror follows.
    frame = companion.screen.change("note")
    page.wait_for_function("(n) => document.querySelector('#oled').dataset.frame === String(n)",
                           arg=frame)
    assert [url for url in asked if "/api/screen.png" in url] == []


# A control is in sight when its own centre (a value: the number on it)
# is inside the screen and nothing else is drawn there.
IN_SIGHT = """(el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
    const top = document.elementFromPoint(x, y);
    return !!top && el.contains(top);
}"""

# Every card value's two choices, at each Pressure: a number tapped on the
# page, both values measured once their previews are said, "another
# number" tapped; the values hidden are returned.
HIDDEN_VALUES = """async ([numbers, inSight]) => {
    const visible = eval(inSight);
    const hidden = [];
    const said = () => [...document.querySelectorAll('.card-play .preview')]
        .every((p) => p.dataset.version !== undefined);
    for (const n of numbers) {
        document.querySelector(`.number-grid [data-value='${n}']`).click();
        for (let i = 0; i < 400 && !said(); i += 1) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const back = document.querySelector('.card-back');
        if (!visible(back)) hidden.push(`${n}: another number`);
        for (const play of document.querySelectorAll('.card-play')) {
            if (!said()) hidden.push(`${play.dataset.value}: no preview`);
            if (!visible(play.querySelector('.card-play-value'))) hidden.push(play.dataset.value);
        }
        back.click();
    }
    return hidden;
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_no_preview_hides_a_card_value_or_another_number(companion, phones, locale):
    """Every value from -30 to +30 at Pressure 25, 55 and 80 (where a card
    fires a threshold, ends a round, brings a Respite): both values of a
    number and "another number" are on screen and on top, whatever the
    preview says, in real layout."""
    table = companion.table
    page = controller(phones, companion, locale=locale)
    for pressure in (25, 55, 80):
        table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
        table.submit(Command("set-pressure", {"value": pressure}))
        page.wait_for_function("(p) => document.querySelector('#pressure')?.textContent === p",
                               arg=str(pressure))
        page.wait_for_selector(".number-grid [data-value='30']")
        hidden = page.evaluate(HIDDEN_VALUES, [list(range(31)), IN_SIGHT])
        assert hidden == [], (pressure, hidden)
        if pressure == 80:
            page.click(".number-grid [data-value='12']")  # +12 ends the round
            page.wait_for_selector(".card-play[data-value='-12'] .preview[data-version]")
            shot(page, f"layout-card-values-80-{locale}")
            # The whole sentence stays the button's title.
            title = page.locator(".card-play[data-value='12']").get_attribute("title")
            assert "91" in title and len(title) > 100, title
    assert page.script_errors == []


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_the_nine_special_cards_are_in_sight_without_a_scroll(companion, phones, locale):
    table = companion.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
    table.submit(Command("set-pressure", {"value": 80}))
    page = controller(phones, companion, locale=locale)
    page.wait_for_selector("#dock [data-command=special]")
    # A message of the moment goes first (see the toasts' own tests).
    page.wait_for_function("() => document.querySelector('#toast')?.hidden !== false")
    page.click("#dock [data-command=special]")
    page.wait_for_selector("#sheet[open]")
    cards = page.locator("#sheet .choice-play")
    expect(cards).to_have_count(9)
    page.wait_for_function("() => [...document.querySelectorAll('#sheet .choice-play .preview')]"
                           ".every((p) => p.dataset.version !== undefined)")
    shot(page, f"layout-special-cards-{locale}")
    assert page.evaluate("(inSight) => [...document.querySelectorAll('#sheet .choice-play')]"
                         ".filter((b) => !eval(inSight)(b)).map((b) => b.dataset.value)",
                         IN_SIGHT) == []
    assert page.evaluate("document.querySelector('#sheet').scrollTop") == 0
    assert page.script_errors == []
