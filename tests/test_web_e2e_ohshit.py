# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""OhShit! on a 390x844 phone, in English, French and Italian: a card is
only offered where the table would take it (never on a dead player; a
Suppositoire's colours are those on its target's pile), a card the preview
says will be refused cannot be sent, the setup offers no dice for a game
without dice, and the players' markers are letters, never a poop's colour."""

from __future__ import annotations

import re

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
LANGS = ["en", "fr", "it"]
ANA, BEN, CY, DEE = range(4)
POOP_COLOURS = {"rgb(214, 40, 40)", "rgb(224, 168, 0)", "rgb(46, 158, 68)",
                "rgb(47, 127, 216)", "rgb(142, 68, 173)", "rgb(240, 98, 146)"}


def open_table(phones, companion, lang):
    page = controller(phones, companion, locale=LOCALES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.wait_for_selector(".board.ohshit .player")
    return page


def offered(page, param: str) -> list[str]:
    return page.locator(f"#sheet [data-param={param}] .option").evaluate_all(
        "(buttons) => buttons.filter((b) => b.offsetParent !== null).map((b) => b.dataset.value)")


def open_card(page, command: str) -> None:
    page.click(f"#dock [data-command={command}]")
    page.wait_for_selector("#sheet[open]")


@pytest.mark.parametrize("lang", LANGS)
def test_a_dead_player_is_never_offered_as_a_target(companion, phones, lang):
    table = companion.table
    table.new_game("ohshit", ["Ana", "Ben", "Cy", "Dee"])
    table.submit(Command("kill", {"player": "Cy"}))
    page = open_table(phones, companion, lang)
    for command in ("toilette", "constipation", "suppositoire", "poop"):
        open_card(page, command)
        assert offered(page, "target") == [str(ANA), str(BEN), str(DEE)], command
        if command == "toilette":
            shot(page, f"ohshit-targets-{lang}")
        if lang != "en":  # what the card does, said in the phone's language
            expect(page.locator("#sheet .hint").first).not_to_contain_text(
                re.compile(r"player|poop"))
        page.keyboard.press("Escape")
        expect(page.locator("#sheet")).not_to_be_visible()
    # Nor is the dead player's pile a button to put a poop on.
    assert page.locator(f".player[data-seat='{CY}'] [data-poop-on]").count() == 0
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_suppositoire_offers_only_the_colours_on_its_targets_pile(companion, phones, lang):
    table = companion.table
    table.new_game("ohshit", ["Ana", "Ben", "Cy"])
    for colour, count in (("spicy", 2), ("frosty", 1)):
        table.submit(Command("set-pile", {"player": "Ben", "colour": colour, "count": count}))
    table.submit(Command("set-constipated", {"player": "Cy", "constipated": True}))
    page = open_table(phones, companion, lang)
    open_card(page, "suppositoire")
    colour = page.locator("#sheet [data-param=colour]")
    expect(colour).to_be_hidden()  # no target yet: no colour to offer
    page.click(f"#sheet [data-param=target] .option[data-value='{BEN}']")
    expect(colour).to_be_visible()
    assert offered(page, "colour") == ["spicy", "frosty"]
    page.click("#sheet [data-param=colour] .option[data-value=frosty]")
    expect(page.locator("#sheet .preview")).to_be_visible()
    shot(page, f"ohshit-suppositoire-{lang}")
    # Cy's pile is empty: no colour is asked, the Suppositoire lifts the
    # Constipation alone.
    page.click(f"#sheet [data-param=target] .option[data-value='{CY}']")
    expect(colour).to_be_hidden()
    submit = page.locator("#sheet button[type=submit]")
    expect(page.locator("#sheet .preview:not(.refused)")).to_be_visible()
    expect(submit).to_be_enabled()
    submit.click()
    expect(page.locator("#sheet")).not_to_be_visible()
    assert table.game.constipated == [False, False, False]
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_the_preview_refuses_cannot_be_sent(companion, phones, lang):
    table = companion.table
    table.new_game("ohshit", ["Ana", "Ben", "Cy"])
    table.submit(Command("set-constipated", {"player": "Ben", "constipated": True}))
    version = table.version
    page = open_table(phones, companion, lang)
    open_card(page, "toilette")
    page.click(f"#sheet [data-param=target] .option[data-value='{BEN}']")
    expect(page.locator("#sheet .preview.refused")).to_be_visible()
    submit = page.locator("#sheet button[type=submit]")
    expect(submit).to_be_disabled()
    shot(page, f"ohshit-toilette-refused-{lang}")
    page.locator("#sheet form.sheet-form").evaluate("(form) => form.requestSubmit()")
    assert table.version == version
    # Another pile: the card goes.
    page.click(f"#sheet [data-param=target] .option[data-value='{ANA}']")
    expect(page.locator("#sheet .preview:not(.refused)")).to_be_visible()
    expect(submit).to_be_enabled()
    submit.click()
    expect(page.locator("#sheet")).not_to_be_visible()
    assert table.version == version + 1
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_setup_offers_dice_only_for_a_game_with_dice(companion, phones, lang):
    page = controller(phones, companion, locale=LOCALES[lang])
    page.goto(f"{companion.url}/setup")
    page.wait_for_selector("[data-game=ohshit]")
    page.click("[data-game=call-of-nature]")
    expect(page.locator("#dice-box")).to_be_visible()
    page.click("[data-game=ohshit]")
    expect(page.locator("#dice-box")).to_be_hidden()
    shot(page, f"ohshit-setup-{lang}")
    page.click("[data-game=bathroom-rush]")
    expect(page.locator("#dice-box")).to_be_visible()
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_players_are_told_apart_by_letters_never_by_a_poop_colour(companion, phones, lang):
    table = companion.table
    table.new_game("ohshit", ["Ana", "Ben", "Bea", "Dee"])
    table.submit(Command("set-pile", {"player": "Ana", "colour": "spicy", "count": 1}))
    page = open_table(phones, companion, lang)
    marks = page.locator(".board .player .seat-mark")
    expect(marks).to_have_count(4)
    assert marks.all_inner_texts() == ["A", "Ben", "Bea", "D"]
    assert page.locator(".board .player .dot").count() == 0
    colours = marks.evaluate_all("""(marks) => marks.flatMap((m) => {
        const style = getComputedStyle(m);
        return [style.backgroundColor, style.borderTopColor, style.color];
    })""")
    assert not set(colours) & POOP_COLOURS
    # The same markers where a target is picked, and on the prompt.
    open_card(page, "toilette")
    assert page.locator("#sheet [data-param=target] .option .seat-mark").count() == 4
    assert page.locator("#sheet [data-param=target] .option .dot").count() == 0
    shot(page, f"ohshit-markers-{lang}")
    page.keyboard.press("Escape")
    assert page.locator("#dock .prompt .seat-mark").count() == 1
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_poop_from_a_pile_names_that_pile_and_has_it_chosen(companion, phones, lang):
    table = companion.table
    table.new_game("ohshit", ["Ana", "Ben", "Cy"])
    page = open_table(phones, companion, lang)
    page.click(f"[data-poop-on='{CY}']")
    page.wait_for_selector("#sheet[open]")
    expect(page.locator("#sheet-title")).to_contain_text("Cy")
    chosen = page.locator("#sheet [data-param=target] .option[aria-pressed=true]")
    expect(chosen).to_have_count(1)
    expect(chosen).to_have_attribute("data-value", str(CY))
    shot(page, f"ohshit-poop-from-pile-{lang}")
    page.click("#sheet [data-param=colour] .option[data-value=grassy]")
    page.click("#sheet button[type=submit]")
    expect(page.locator("#sheet")).not_to_be_visible()
    assert table.game.piles[CY]["grassy"] == 1
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_setup_page_describes_the_deck_kind_by_kind(companion, phones, lang):
    page = controller(phones, companion, locale=LOCALES[lang])
    page.goto(f"{companion.url}/setup")
    page.wait_for_selector("[data-game=ohshit]")
    page.click("[data-game=ohshit]")
    page.click("#options-box summary")
    deck = page.locator("[data-option-field=deck]")
    expect(deck).to_be_visible()
    # Each kind named as the game names its cards in the phone's language.
    unicorn = {"en": "Unicorn", "fr": "Licorne", "it": "Unicorno"}[lang]
    expect(deck).to_contain_text(unicorn)
    for _ in range(2):
        deck.locator(".stepper:has([data-part=unicorn]) button").last.click()
    shot(page, f"ohshit-setup-deck-{lang}")
    while page.locator("#players li").count() < 3:
        page.click("#add-player")
    for seat, name in enumerate(["Ana", "Ben", "Cy"]):
        page.fill(f"input[data-seat='{seat}']", name)
    page.click("#start")
    page.wait_for_url(f"{companion.url}/")
    assert companion.table.game.deck["unicorn"] == 6
    assert companion.table.game.deck["spicy"] == 10
    assert page.script_errors == []
