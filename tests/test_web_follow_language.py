# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""Phones follow the table's language as soon as a controller changes it, in
headless Chromium at a phone's size: each page speaks the new language where
it is, without loading again (its live stream stays open), and reads as the
same page opened afresh in that language; a phone that had a sheet open
finds it open again, drawn in the new language."""

from __future__ import annotations

import time

import pytest

from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    browser,
    companion,
    controller,
    expect,
    live,
    phones,
    shot,
    start_call_of_nature,
)
from tests.test_web_languages import english_in, visible_lines

pytestmark = pytest.mark.browser

# The corrections sheet's title and its close button in each language
# (web/static/i18n).
CORRECTIONS = {"fr": "Corrections", "it": "Correzioni", "en": "Corrections"}
CLOSE = {"fr": "Fermer", "it": "Chiudi", "en": "Close"}
# Set once on each page: still there after a change of language means the
# page was not loaded again.
MARK = "window.drawnOnce = true"


def opened(phones, companion, path: str):
    page = controller(phones, companion)
    if path != "/":
        page.goto(companion.url + path)
        live(page)
    page.wait_for_load_state("networkidle")
    page.evaluate(MARK)
    return page


def afresh(phones, companion, path: str) -> list[str]:
    """What the page says opened now, by a phone that follows the table."""
    page = opened(phones, companion, path)
    # (Less the message a phone that joins is shown for a moment.)
    page.evaluate("document.querySelector('#toast').hidden = true")
    try:
        return visible_lines(page)
    finally:
        page.context.close()


def test_phones_follow_the_tables_language_where_they_are_an_open_sheet_redrawn(
        companion, phones):
    start_call_of_nature(companion)
    setter = opened(phones, companion, "/setup")
    setter.wait_for_selector("#table-language:not([disabled])")
    reader = opened(phones, companion, "/")  # a sheet open
    watcher = opened(phones, companion, "/history")  # nothing open
    reader.click("#corrections")
    expect(reader.locator("#sheet-title")).to_have_text("Corrections")
    for lang in ("fr", "it", "en"):
        started = time.monotonic()
        setter.select_option("#table-language", lang)
        for phone in (reader, watcher, setter):
            expect(phone.locator("html")).to_have_attribute("lang", lang)
        print(f"\n{lang}: three phones in the new language after "
              f"{time.monotonic() - started:.2f} s")
        # The sheet is open again, in the table's new language.
        expect(reader.locator("#sheet[open] #sheet-title")).to_have_text(CORRECTIONS[lang])
        expect(reader.locator("#sheet .sheet-head button")).to_have_attribute(
            "aria-label", CLOSE[lang])
        expect(watcher.locator("#sheet[open]")).to_have_count(0)
        for phone in (reader, watcher, setter):
            # Not loaded again: the page's own mark is still there, and its
            # live stream too.
            assert phone.evaluate("window.drawnOnce === true")
            expect(phone.locator("#conn")).to_have_attribute("data-state", "live")
            if lang != "en":
                assert english_in(phone, lang) == []
        # Each page reads as the same page opened afresh in that language.
        setter.wait_for_selector("#table-language:not([disabled])")
        assert visible_lines(setter) == afresh(phones, companion, "/setup")
        assert visible_lines(watcher) == afresh(phones, companion, "/history")
        shot(reader, f"follow-language-{lang}-sheet")
        shot(watcher, f"follow-language-{lang}-history")
    reader.locator("#sheet .sheet-head button").click()
    assert visible_lines(reader) == afresh(phones, companion, "/")
    for phone in (reader, watcher, setter):
        assert phone.script_errors == []
