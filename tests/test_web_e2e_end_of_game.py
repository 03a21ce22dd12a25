# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""Call of Nature's explosion as a phone tells it, at 390x844 in English,
French and Italian: the threshold once, with the Mastery it cost, and the
End of Game rolls named in the direction of play."""

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
ORDER = {"en": "Dee, Cy and Ben", "fr": "Dee, Cy, Ben", "it": "Dee, Cy, Ben"}
DIRECTION = {"en": "counter-clockwise", "fr": "sens antihoraire", "it": "senso antiorario"}


@pytest.mark.parametrize("lang", list(LOCALES))
def test_an_explosion_says_the_threshold_once_and_the_rolls_in_the_direction_of_play(
        companion, phones, lang):
    table = companion.table
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy", "Dee"])
    table.submit(Command("card", {"value": 30}))                   # Ana: 30
    table.submit(Command("special", {"card": "u-turn"}))           # Ben: back to Ana
    table.submit(Command("adjust-mastery", {"player": "Ana", "delta": -6}))
    page = controller(phones, companion, locale=LOCALES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.wait_for_selector(".board .player")
    table.submit(Command("card", {"value": 1}), source="panel")   # Ana at 1: 31 blows her up
    out = page.locator("#events .event[data-kind=player-eliminated]")
    expect(out).to_contain_text(ORDER[lang])
    expect(out).to_contain_text(DIRECTION[lang])
    lines = page.locator("#events .event").all_inner_texts()
    # One line for the threshold and the Mastery it cost.
    assert sum("1 → 0" in line for line in lines) == 1, lines
    shot(page, f"end-of-game-order-{lang}")
    assert page.script_errors == []
