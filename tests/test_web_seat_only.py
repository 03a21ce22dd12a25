# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""Seats and the table's settings at a real table: two phones in headless
Chromium on the real server.  With "turns only from the player's own phone"
on, Ben's phone cannot play Ana's turn and is told why, Ana's can; off,
anyone can.  A newer phone taking a seat tells the older one.  The table's
language, set on the setup page, is the language of every phone without
one of its own."""

from __future__ import annotations

import pytest

from tests.test_web_e2e import (  # noqa: F401  (fixtures)
    browser,
    companion,
    controller,
    expect,
    live,
    phones,
    pick_number,
    play_card,
    shot,
    start_call_of_nature,
)
from tests.test_web_seats import wait

pytestmark = pytest.mark.browser


def sit(page, seat: int, name: str) -> None:
    page.click("#seat")
    page.click(f"#sheet [data-seat='{seat}']")
    expect(page.locator("#seat")).to_have_text(name)


def seated(companion, name: str) -> None:
    """Wait until the companion knows the seat is held (the phone told it)."""
    seats = companion.app.extensions["companion"].seats
    expect_true(lambda: name in seats.public())


def expect_true(check) -> None:
    wait(check, timeout=15.0)


def test_seat_only_keeps_a_turn_to_its_players_phone(companion, phones):
    start_call_of_nature(companion)
    phone_a = controller(phones, companion)
    phone_b = controller(phones, companion)
    sit(phone_a, 0, "Ana")
    sit(phone_b, 1, "Ben")
    seated(companion, "Ana")
    seated(companion, "Ben")
    # A controller turns the setting on from the setup page.
    phone_a.goto(companion.url + "/setup")
    phone_a.wait_for_selector("#seat-only:not([disabled])")
    expect(phone_a.locator("#seat-only-row")).to_contain_text("buttons and dice still play")
    phone_a.check("#seat-only")
    expect_true(lambda: companion.table.settings().seat_only)
    phone_a.goto(companion.url + "/")
    live(phone_a)
    # Phone B (Ben) tries Ana's turn: refused, told why, nothing changed.
    pick_number(phone_b, 6)
    phone_b.click(".card-play[data-value='6']")
    expect(phone_b.locator("#toast")).to_contain_text("only Ana's phone can play it")
    expect(phone_b.locator("#toast")).to_contain_text("Ben's")
    assert companion.table.version == 0 and companion.table.history() == []
    shot(phone_b, "seat-only-refused")
    # Phone A (Ana) plays it.
    play_card(phone_a, 9)
    expect_true(lambda: companion.table.version == 1)
    # Off again: Ana's phone plays Ben's turn for the table.
    phone_a.goto(companion.url + "/setup")
    phone_a.wait_for_selector("#seat-only:checked")
    phone_a.uncheck("#seat-only")
    expect_true(lambda: not companion.table.settings().seat_only)
    phone_a.goto(companion.url + "/")
    live(phone_a)
    play_card(phone_a, 3)
    expect_true(lambda: companion.table.version == 2)
    assert [e.source for e in companion.table.history()] == ["panel", "panel"]
    assert phone_a.script_errors == [] and phone_b.script_errors == []


def test_a_newer_phone_taking_a_seat_tells_the_older_one(companion, phones):
    start_call_of_nature(companion)
    older = controller(phones, companion)
    newer = controller(phones, companion)
    sit(older, 0, "Ana")
    seated(companion, "Ana")
    sit(newer, 0, "Ana")
    expect(older.locator("#toast")).to_contain_text("Another phone now says it is Ana's")
    expect(older.locator("#seat")).to_have_text("Me?")
    held = companion.app.extensions["companion"].seats.public()
    assert list(held) == ["Ana"]
    assert older.script_errors == [] and newer.script_errors == []


def test_the_tables_language_is_every_phones_without_its_own(companion, phones):
    start_call_of_nature(companion)
    phone_a = controller(phones, companion)
    phone_b = controller(phones, companion)
    phone_b.click(".lang-chip[data-lang='it']")  # phone B speaks Italian, its own choice
    expect(phone_b.locator("html")).to_have_attribute("lang", "it")
    live(phone_b)
    phone_a.goto(companion.url + "/setup")
    phone_a.wait_for_selector("#table-language:not([disabled])")
    phone_a.select_option("#table-language", "fr")
    # Phone A has no language of its own: it follows the table's at once.
    expect(phone_a.locator("html")).to_have_attribute("lang", "fr")
    expect(phone_a.locator("#table-box h2")).to_have_text("La table")
    assert companion.table.settings().language == "fr"
    # A phone that opens the panel now gets French; phone B keeps Italian.
    phone_c = phones()
    phone_c.goto(companion.url + "/")
    expect(phone_c.locator("html")).to_have_attribute("lang", "fr")
    phone_b.reload()
    expect(phone_b.locator("html")).to_have_attribute("lang", "it")
    assert phone_a.script_errors == [] and phone_b.script_errors == []
