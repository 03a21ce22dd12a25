# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""The words that were cut on a small phone (360x740), in French and
Italian: the statistics' headers broke inside a word ("Joueu/r",
"Giocato/re"), the current tab showed half its name ("Nuova p"), a colour's
swatch cut its name ("Arancione").  Each is read here whole, and shown in a
screenshot."""

from __future__ import annotations

import pytest

from tests.page_audit import cut_words
from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    browser,
    companion,
    controller,
    finished_call_of_nature,
    phones,
    shot,
)
from tests.test_web_language_crawl import LANGUAGES, open_page

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 740}
ORANGE = {"fr": "Orange", "it": "Arancione"}

# Is the element's whole box in sight, and its text inside it?
WHOLE = """(el) => {
  const r = el.getBoundingClientRect();
  return r.left >= 0 && r.right <= document.documentElement.clientWidth
    && el.scrollWidth <= el.clientWidth + 1;
}"""


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_statistics_headers_keep_their_words_whole_on_a_small_phone(companion, phones, lang):
    finished_call_of_nature(companion)
    page = controller(phones, companion, locale=LANGUAGES[lang])
    page.set_viewport_size(SMALL)
    open_page(page, companion, "/stats")
    assert page.locator(".stats-table th").count() >= 10
    # No word broken inside (a header's above all), nothing cut, no sideways scroll.
    assert cut_words(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    # Each table keeps inside its card's padding.
    assert page.eval_on_selector_all(".stats-table", """(tables) => tables.every((table) => {
        const card = table.parentElement;
        const padding = parseFloat(getComputedStyle(card).paddingRight);
        const right = card.getBoundingClientRect().right - padding;
        return table.getBoundingClientRect().right <= right + 1;
    })""")
    page.locator(".game-stats").scroll_into_view_if_needed()
    shot(page, f"cut-text-stats-{lang}")


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_current_tab_and_an_orange_swatch_show_their_whole_names(companion, phones, lang):
    page = controller(phones, companion, locale=LANGUAGES[lang])
    page.set_viewport_size(SMALL)
    open_page(page, companion, "/setup")
    page.click("[data-game=call-of-nature]")
    while page.locator(".player-row").count() < 4:
        page.click("#add-player")
    page.locator(".player-row").nth(3).scroll_into_view_if_needed()
    shot(page, f"cut-text-setup-{lang}")
    current = page.locator(".tabs a[aria-current=page]")
    assert current.evaluate(WHOLE), current.inner_text()
    swatch = page.locator(".swatch-name", has_text=ORANGE[lang])
    assert swatch.inner_text() == ORANGE[lang]
    assert swatch.evaluate(WHOLE)
    inside = swatch.evaluate("""(el) => {
        const name = el.getBoundingClientRect();
        const box = el.closest('.swatch').getBoundingClientRect();
        return name.left >= box.left && name.right <= box.right;
    }""")
    assert inside, "the colour's name spills out of its swatch"
    assert cut_words(page) == []
