# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""The "Log in BG Stats" links in headless Chromium: on the result card at a
game's end, on the finished past games of the statistics page and on a past
game's history; each opens BG Stats' import with the play."""

from __future__ import annotations

import json
import re
import urllib.parse

import pytest

from tests.test_stats import call_of_nature
from tests.test_web_e2e import browser, companion, controller, expect, phones  # noqa: F401

pytestmark = pytest.mark.browser

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="


def play_of(href: str) -> dict:
    assert href.startswith(CREATE_PLAY), href
    return json.loads(urllib.parse.unquote(href[len(CREATE_PLAY):]))


def test_a_finished_game_is_logged_in_bg_stats_from_the_panel(companion, phones):
    call_of_nature(companion.table, ["Ana", "Ben"], [10], loser="Ben")
    game_id = companion.table.current().game_id
    page = controller(phones, companion)
    link = page.locator("#result #bgstats-link")
    expect(link).to_be_visible()
    expect(link).to_have_text("Log in BG Stats")
    # Every change on the live stream draws the card again: the link stays.
    expect(link).to_have_attribute("href", re.compile("^" + re.escape(CREATE_PLAY)))
    play = play_of(link.get_attribute("href"))
    assert [p["name"] for p in play["players"]] == ["Ana", "Ben"]
    assert [p["winner"] for p in play["players"]] == [True, False]

    page.goto(f"{companion.url}/stats")
    past = page.locator(f"#past-games li[data-game='{game_id}'] a.bgstats")
    expect(past).to_be_visible()
    assert play_of(past.get_attribute("href")) == play
    expect(page.locator("#export-plays")).to_have_attribute("href", "/api/plays.json")
    expect(page.locator("#export-csv")).to_have_attribute("href", "/api/stats.csv?lang=en")

    # Once another game is on, it is a past game with its own history page.
    companion.table.new_game("call-of-nature", ["Cy", "Dee"])
    page.goto(f"{companion.url}/history?game={game_id}")
    expect(page.locator("#history-head #bgstats-link")).to_be_visible()
    assert play_of(page.locator("#history-head #bgstats-link").get_attribute("href")) == play


def test_the_link_is_said_in_french(companion, phones):
    call_of_nature(companion.table, ["Ana", "Ben"], [10], loser="Ben")
    page = controller(phones, companion, locale="fr-FR")
    expect(page.locator("#result #bgstats-link")).to_have_text("Noter dans BG Stats")
