# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""What a phone shows over the table, at 390x844 in English, French and
Italian: an open Undo sheet follows the table when another phone plays (it
names the new last move, or closes when nothing is left to undo), and a
toast (an alert, a roll's result) never covers a player's row, the TURN
badge included, wherever the page is scrolled."""

from __future__ import annotations

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

LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
LANGS = list(LOCALES)


def open_table(phones, companion, lang, selector=".board .player"):
    page = controller(phones, companion, locale=LOCALES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.wait_for_selector(selector)
    return page


# -- the Undo sheet -----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_an_open_undo_sheet_names_the_new_last_move_when_another_phone_plays(
        companion, phones, lang):
    table = companion.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    table.submit(Command("card", {"value": 5}))
    page = open_table(phones, companion, lang)
    expect(page.locator("#undo")).to_be_enabled()
    page.click("#undo")
    question = page.locator("#undo-what")
    expect(question).to_contain_text("Ana")
    expect(page.locator("#undo-moved")).to_be_hidden()
    # Another phone: Ben plays a card while the question is open.
    table.submit(Command("card", {"value": 7}), source="panel")
    expect(question).to_have_attribute("data-version", str(table.version))
    expect(question).to_contain_text("Ben")
    expect(question).not_to_contain_text("Ana")
    expect(page.locator("#undo-moved")).to_be_visible()
    shot(page, f"undo-followed-{lang}")
    page.click("#undo-confirm")
    expect(page.locator("#sheet")).not_to_be_visible()
    # Ben's card is the one taken back; Ana's stays.
    expect(page.locator("#pressure")).to_have_text("5")
    assert table.game.pressure == 5
    assert [e.action for e in table.history()][-1] == "undo"
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_an_open_undo_sheet_closes_when_nothing_is_left_to_undo(companion, phones, lang):
    table = companion.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    table.submit(Command("card", {"value": 5}))
    page = open_table(phones, companion, lang)
    page.click("#undo")
    expect(page.locator("#undo-what")).to_be_visible()
    table.undo()  # from another phone
    expect(page.locator("#sheet")).not_to_be_visible()
    expect(page.locator("#undo")).to_be_disabled()
    assert table.game.pressure == 0
    assert page.script_errors == []


# -- toasts -------------------------------------------------------------------------

COVERED = """() => {
    const toast = document.querySelector('#toast');
    if (!toast || toast.hidden) return null;
    const t = toast.getBoundingClientRect();
    const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
    const dock = document.querySelector('#dock').getBoundingClientRect().top;
    return [...document.querySelectorAll('.board .player')].filter((row) => {
        const r = row.getBoundingClientRect();
        const from = Math.max(r.top, top), to = Math.min(r.bottom, dock);
        return to > from && t.bottom > from && t.top < to && t.right > r.left && t.left < r.right;
    }).map((row) => row.querySelector('.name').textContent.trim());
}"""

SETTLED = """() => new Promise(
    (done) => requestAnimationFrame(() => requestAnimationFrame(done)))"""

# Where the page is scrolled: the top, the last row just above the dock,
# and every row scrolled up under the top bar but the last.
SCROLLS = {
    "top": "() => window.scrollTo(0, 0)",
    "last-row-above-dock": """() => {
        window.scrollTo(0, 0);
        const rows = document.querySelectorAll('.board .player');
        const last = rows[rows.length - 1].getBoundingClientRect();
        const dock = document.querySelector('#dock').getBoundingClientRect().top;
        window.scrollBy(0, last.bottom - dock + 8);
    }""",
    "last-row-under-top-bar": """() => {
        window.scrollTo(0, 0);
        const rows = document.querySelectorAll('.board .player');
        const last = rows[rows.length - 1].getBoundingClientRect();
        const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
        window.scrollBy(0, last.top - top - 4);
    }""",
}


def covered_anywhere(page) -> dict[str, list[str]]:
    """The rows the toast covers, at each scroll of the page."""
    found = {}
    for name, scroll in SCROLLS.items():
        page.evaluate(scroll)
        page.evaluate(SETTLED)
        rows = page.evaluate(COVERED)
        assert rows is not None, "the toast went before it was looked at"
        if rows:
            found[name] = rows
    return found


def readable(page) -> bool:
    """The toast lies whole in sight."""
    return page.evaluate("""() => {
        const t = document.querySelector('#toast').getBoundingClientRect();
        return t.top >= 0 && t.bottom <= window.innerHeight && t.height > 0;
    }""")


@pytest.fixture
def slow_toasts(phones):
    """Toasts that stay until they are looked at (a loaded machine may take
    longer than a toast's seconds to scroll three times)."""
    def open_phone(**options):
        page = phones(**options)
        page.add_init_script("""(() => {
            const later = window.setTimeout;
            window.setTimeout = (fn, ms, ...rest) => later(fn, ms >= 2500 ? ms * 100 : ms, ...rest);
        })()""")
        return page
    return open_phone


@pytest.mark.parametrize("lang", LANGS)
def test_an_alert_never_covers_a_players_row(companion, slow_toasts, lang):
    table = companion.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
    table.submit(Command("card", {"value": 30}))
    page = open_table(slow_toasts, companion, lang, "#dock .number-grid")
    table.submit(Command("card", {"value": 1}), source="panel")  # threshold 31: an alert
    expect(page.locator("#toast.alert")).to_be_visible()
    shot(page, f"toast-alert-{lang}")
    assert covered_anywhere(page) == {}
    assert readable(page)
    # The TURN badge is in sight, on Ben's row.
    expect(page.locator(".player.active .turn-tag")).to_be_visible()
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_rolls_result_stays_readable_without_hiding_the_table(companion, slow_toasts, lang):
    table = companion.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
    table.submit(Command("card", {"value": 25}))
    table.submit(Command("card", {"value": 25}))  # Ben: a Respite at 50
    page = open_table(slow_toasts, companion, lang, ".board .player")
    table.submit(Command("roll", {"values": [3]}), source="panel")
    toast = page.locator("#toast.roll")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("3")
    shot(page, f"toast-roll-{lang}")
    assert covered_anywhere(page) == {}
    assert readable(page)
    assert page.script_errors == []
