# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""Phones follow the table's language as soon as a controller changes it:
the page comes back in the new language without waiting, and a phone that
had a sheet open finds it open again, drawn in the new language."""

from __future__ import annotations

import time

import pytest

from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    browser,
    companion,
    controller,
    expect,
    phones,
    shot,
    start_call_of_nature,
)

pytestmark = pytest.mark.browser

# The corrections sheet's title in each language (web/static/i18n).
CORRECTIONS = {"fr": "Corrections", "it": "Correzioni"}
CLOSE = {"fr": "Fermer", "it": "Chiudi"}


def test_phones_follow_the_tables_language_at_once_an_open_sheet_redrawn(companion, phones):
    start_call_of_nature(companion)
    setter = controller(phones, companion)
    reader = controller(phones, companion)  # a sheet open
    watcher = controller(phones, companion)  # the table page, nothing open
    setter.goto(companion.url + "/setup")
    setter.wait_for_selector("#table-language:not([disabled])")
    reader.click("#corrections")
    expect(reader.locator("#sheet-title")).to_have_text("Corrections")
    for lang in ("fr", "it"):
        started = time.monotonic()
        setter.select_option("#table-language", lang)
        for phone in (reader, watcher):
            expect(phone.locator("html")).to_have_attribute("lang", lang)
        # The sheet is open again, in the table's new language.
        expect(reader.locator("#sheet[open] #sheet-title")).to_have_text(CORRECTIONS[lang])
        close = reader.locator("#sheet .sheet-head button")
        expect(close).to_have_attribute("aria-label", CLOSE[lang])
        print(f"\n{lang}: both phones in the new language, the sheet open again, "
              f"after {time.monotonic() - started:.2f} s")
        expect(watcher.locator("#sheet[open]")).to_have_count(0)
        shot(reader, f"follow-language-{lang}-sheet")
        shot(watcher, f"follow-language-{lang}-table")
        # The controller's own page comes back in the language too, before it changes it again.
        expect(setter.locator("html")).to_have_attribute("lang", lang)
        setter.wait_for_selector("#table-language:not([disabled])")
    assert reader.script_errors == [] and watcher.script_errors == []
