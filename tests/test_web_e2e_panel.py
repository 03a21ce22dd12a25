"""The phone panel at a real table, end to end in headless Chromium at a
phone's size: a card's preview before it is played, undo that names what
it takes back, history in sentences with dates, past games, statistics
and setup in plain words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core.engine import Command
from tests import test_web_e2e as e2e
from tests.test_web_e2e import (
    controller,
    expect,
    pick_number,
    play_card,
    shot,
    start_call_of_nature,
)

# The same browser, companion and phones as the panel's other browser tests.
browser = e2e.browser
companion = e2e.companion
phones = e2e.phones

pytestmark = pytest.mark.browser


def test_a_card_shows_what_it_will_do_before_play_and_does_exactly_that(companion, phones):
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Dee"])
    for value in (12, 11):
        companion.table.submit(Command("card", {"value": value}))
    page = controller(phones, companion)
    pick_number(page, 9)  # 23 + 9 = 32: threshold 31 fires against Dee
    preview = page.locator(".card-play[data-value='9'] .preview")
    expect(preview).to_be_visible()
    expect(preview).to_contain_text("32")
    expect(preview).to_contain_text("Dee")
    said = preview.inner_text()
    # Nothing was played by looking.
    assert companion.table.version == 2
    shot(page, "preview-card")
    page.click(".card-play[data-value='9']")
    page.wait_for_function("() => document.querySelector('#pressure')?.textContent === '32'")
    sentences = [e.message for e in companion.table.history()[-1].events]
    # The preview said the very events the card made.
    assert said == " · ".join(sentences)
    assert any("Dee" in s and "Mastery" in s for s in sentences)
    assert page.script_errors == []


TAPS = """() => {
    window.taps = 0;
    document.addEventListener("click", () => { window.taps += 1; }, true);
}"""


@pytest.mark.parametrize("value", [12, -12, 30, 0])
def test_any_card_is_two_taps_and_plays_what_its_preview_said(companion, phones, value):
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Dee"])
    companion.table.submit(Command("set-pressure", {"value": 40}))
    page = controller(phones, companion)
    page.evaluate(TAPS)
    pick_number(page, value)
    # Both values of the number are offered, each with what it would do.
    offered = page.locator(".card-play").evaluate_all("(bs) => bs.map((b) => b.dataset.value)")
    assert offered == ([str(value)] if value == 0 else [str(abs(value)), str(-abs(value))])
    preview = page.locator(f".card-play[data-value='{value}'] .preview")
    expect(preview).to_contain_text(str(40 + value))
    said = preview.inner_text()
    assert companion.table.version == 1  # nothing played by looking
    page.click(f".card-play[data-value='{value}']")
    # The table took it (a 0 leaves the Pressure as it was: the grid is back).
    page.wait_for_function("() => !document.querySelector('.card-pad.picked')")
    page.wait_for_function("(p) => document.querySelector('#pressure')?.textContent === p",
                           arg=str(40 + value))
    assert page.evaluate("window.taps") == 2
    last = companion.table.history()[-1]
    assert last.command.name == "card" and last.command.args["value"] == value
    assert said == " · ".join(e.message for e in last.events)
    assert page.script_errors == []


@pytest.mark.parametrize("locale,said", [("en-GB", "U-TURN!"), ("fr-FR", "DEMI-TOUR !"),
                                          ("it-IT", "INVERSIONE!")])
def test_a_special_card_is_two_taps_each_card_with_what_it_will_do(companion, phones, locale, said):
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Dee"])
    companion.table.submit(Command("set-pressure", {"value": 17}))
    page = controller(phones, companion, locale=locale)
    page.evaluate(TAPS)
    page.click("[data-command=special]")
    # Every special card of the deck, named as printed, each with what it will do.
    offered = page.locator("#sheet .choice-play").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.value)")
    assert offered == list(companion.table.game.specials_in_deck())
    card = page.locator("#sheet .choice-play[data-value=u-turn]")
    expect(card).to_contain_text(said)
    preview = card.locator(".preview[data-version]")
    expect(preview).to_contain_text("17")
    suspense = page.locator("#sheet .choice-play[data-value=suspense] .preview[data-version]")
    expect(suspense).to_be_visible()
    shot(page, f"special-cards-{locale}")
    assert companion.table.version == 1  # nothing played by looking
    previewed = preview.inner_text()
    card.click()
    expect(page.locator("#sheet")).not_to_be_visible()
    page.wait_for_function("() => document.querySelector('#prompt')?.textContent.includes('Dee')")
    assert page.evaluate("window.taps") == 2
    last = companion.table.history()[-1]
    assert last.command.name == "special" and last.command.args["card"] == "u-turn"
    if locale == "en-GB":  # the preview said the very events the card made
        assert previewed == " · ".join(e.message for e in last.events)
    assert companion.table.game.direction == -1
    assert page.script_errors == []


def test_a_spectator_is_offered_no_special_card(companion, phones):
    start_call_of_nature(companion)
    watcher = phones()
    watcher.goto(companion.url)
    e2e.live(watcher)
    expect(watcher.locator("#join")).to_be_visible()
    assert watcher.locator("[data-command=special]").count() == 0
    assert watcher.locator(".choice-play").count() == 0


def test_a_preview_follows_the_table_when_another_phone_plays(companion, phones):
    start_call_of_nature(companion)
    ana = controller(phones, companion)
    ben = controller(phones, companion)
    pick_number(ana, 5)
    expect(ana.locator(".card-play[data-value='5'] .preview")).to_contain_text("Ana")
    play_card(ben, 7)
    # Ana's 5 was picked for Ana's turn: it is not kept armed for Ben's (what a
    # phone sends is what its player saw); the numbers are back and say so.
    expect(ana.locator(".card-play")).to_have_count(0)
    expect(ana.locator(".number-grid [aria-pressed=true]")).to_have_count(0)
    expect(ana.locator("#toast")).to_contain_text("Your 5 was not sent")
    assert ana.script_errors == [] and ben.script_errors == []


def test_an_ohshit_poop_shows_its_effect_in_the_form_before_it_is_confirmed(companion, phones):
    companion.table.new_game("ohshit", ["Ana", "Ben"])
    page = controller(phones, companion)
    page.click("[data-command=poop]")
    page.click(".field[data-param=target] .option[data-value='1']")
    page.click(".field[data-param=colour] .option[data-value=spicy]")
    preview = page.locator("#sheet .preview")
    expect(preview).to_be_visible()
    expect(preview).to_contain_text("Ben")
    shot(page, "preview-poop")
    page.click("#sheet button[type=submit]")  # three taps: Poop, Ben, spicy... and OK
    expect(page.locator(".player[data-seat='1'] .poop[data-kind=spicy]")).to_have_text("1")
    assert page.script_errors == []


def test_undo_names_what_it_takes_back_asks_once_and_says_what_it_did(companion, phones):
    start_call_of_nature(companion)
    ana = controller(phones, companion)
    ben = controller(phones, companion)
    play_card(ana, 5)
    play_card(ana, 7)
    expect(ben.locator("#pressure")).to_have_text("12")
    ana.click("#undo")
    question = ana.locator("#undo-what")
    expect(question).to_contain_text("Ben plays +7")
    shot(ana, "undo-ask")
    assert companion.table.version == 2  # asking changes nothing
    ana.click("#undo-confirm")
    expect(ben.locator("#pressure")).to_have_text("5")
    expect(ana.locator("#toast")).to_contain_text("Undone: Ben plays +7")
    # Redo sits next to undo, and says what it played again.
    ana.click("#dock-redo")
    expect(ben.locator("#pressure")).to_have_text("12")
    expect(ana.locator("#toast")).to_contain_text("Ben plays +7")
    assert ana.script_errors == [] and ben.script_errors == []


def test_history_reads_as_sentences_with_dates(companion, phones):
    start_call_of_nature(companion)
    page = controller(phones, companion)
    play_card(page, 25)
    play_card(page, 10)  # 35: threshold 31 fires
    companion.table.undo()
    page.goto(f"{companion.url}/history")
    page.wait_for_selector("#history li.undo")
    lines = page.locator("#history li .what").all_inner_texts()
    assert lines[0].startswith("Undone: Ben plays +10")
    assert lines[-1].startswith("Ana plays +25")
    assert not any("value=" in line or "player=" in line for line in lines)
    stamp = page.locator("#history li time").first.inner_text()
    assert re.search(r"\d{4}", stamp) and re.search(r"\d{1,2}:\d{2}", stamp), stamp
    shot(page, "history-sentences")
    assert page.script_errors == []


def test_a_past_game_opens_to_its_history_and_chart(companion, phones):
    companion.table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
    companion.table.submit(Command("card", {"value": 20}))
    companion.table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}))
    first = companion.table.current().game_id
    start_call_of_nature(companion)
    page = controller(phones, companion)
    page.goto(f"{companion.url}/stats")
    page.click(f"#past-games [data-game='{first}'] a")
    page.wait_for_selector("#past-chart svg")
    expect(page.locator("#past-game")).to_contain_text("Ana, Ben")
    lines = page.locator("#history li .what").all_inner_texts()
    assert lines[-1].startswith("Ana plays +20")
    expect(page.locator("#undo")).to_be_hidden()
    shot(page, "past-game")
    assert page.script_errors == []


def test_statistics_per_game_with_records_head_to_head_and_exports(companion, phones):
    for loser in ("Ben", "Ben", "Ana"):
        companion.table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
        companion.table.submit(Command("card", {"value": 30}))
        companion.table.submit(Command("adjust-mastery", {"player": loser, "delta": -7}))
    page = controller(phones, companion)
    page.goto(f"{companion.url}/stats")
    section = page.locator(".game-stats[data-game=call-of-nature]")
    expect(section.locator("[data-player=Ana] td.num")).to_have_text(["2", "3", "67%", "0", "2"])
    expect(section.locator(".record")).to_contain_text("Highest Pressure survived: 30")
    expect(section.locator(".h2h li")).to_have_text("Ana 2 – 1 Ben (3 games)")
    with page.expect_download() as download:
        page.click("#export-csv")
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert text.startswith("Game,Player,Played,Won") and "Call of Nature,Ana" in text
    with page.expect_download() as download:
        page.click("#export-csv-data")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("game,player,played,won") and "call-of-nature,Ana" in text
    shot(page, "stats-per-game")
    assert page.script_errors == []


def test_statistics_being_counted_after_an_update_show_how_far_and_fill_in(
        companion, phones, monkeypatch):
    from tests.test_stats import call_of_nature, counting_paused_at_the_second_game

    for loser in ("Ben", "Ana", "Ben"):
        call_of_nature(companion.table, ["Ana", "Ben"], [10], loser=loser)
    companion.table.archive._tally = None  # as at the start after an update
    upkeep, release = counting_paused_at_the_second_game(companion.table, monkeypatch)
    try:
        page = controller(phones, companion)
        page.goto(f"{companion.url}/stats")
        expect(page.locator("#stats-counting")).to_contain_text("1 of 3")
        expect(page.locator("#games-played")).to_have_text("1")
        expect(page.locator("#export-csv")).to_have_count(0)  # the files wait for the count
        shot(page, "stats-counting")
    finally:
        release.set()
        upkeep.join(10)
    # The page asks again by itself, and the note goes once all are counted.
    expect(page.locator("#games-played")).to_have_text("3")
    expect(page.locator("#stats-counting")).to_have_count(0)
    expect(page.locator("#export-csv")).to_be_visible()
    assert "null" not in page.locator("#totals").inner_text()
    assert page.script_errors == []


def test_setup_speaks_plainly_colours_have_names_and_players_are_remembered(companion, phones):
    page = controller(phones, companion)
    page.goto(f"{companion.url}/setup")
    page.click("[data-game=call-of-nature]")
    for seat, name in enumerate(["Ana", "Ben"]):
        page.fill(f"input[data-seat='{seat}']", name)
    expect(page.locator(".player-row .swatch-name").first).to_have_text("Red")
    page.click(".player-row:nth-child(2) .swatch")
    expect(page.locator(".player-row:nth-child(2) .swatch-name")).to_have_text("Green")
    # Options: plain controls with a sentence each, no JSON anywhere.
    page.click("#options-box summary")
    options = page.locator("#options")
    expect(options).to_contain_text("Highest Pressure card")
    expect(options).to_contain_text("Cards taken out by each deck variant")
    assert page.locator("#options textarea").count() == 0
    assert "{" not in options.inner_text()
    page.click("[data-option-field=max_value] button[aria-label$='−1']")
    shot(page, "setup-plain")
    page.click("#start")
    page.wait_for_url(f"{companion.url}/")
    assert companion.table.game.setup.options == {"max_value": 29}
    assert companion.table.game.players == ("Ana", "Ben")
    # The next setup offers Ana and Ben with their colours.
    other = controller(phones, companion)
    other.goto(f"{companion.url}/setup")
    other.click("[data-game=ohshit]")
    expect(other.locator("input[data-seat='1']")).to_have_value("Ben")
    other.click(".player-row:nth-child(2) .icon-btn >> nth=2")  # Ben leaves the table...
    other.click("#profiles [data-profile=Ben]")  # ...and comes back in one tap
    expect(other.locator("input[data-seat='1']")).to_have_value("Ben")
    expect(other.locator(".player-row:nth-child(2) .swatch-name")).to_have_text("Green")
    assert page.script_errors == [] and other.script_errors == []


def test_a_bathroom_rush_box_is_described_with_plain_controls(companion, phones):
    page = controller(phones, companion)
    page.goto(f"{companion.url}/setup")
    page.click("[data-game=bathroom-rush]")
    for seat, name in enumerate(["Ana", "Ben"]):
        page.fill(f"input[data-seat='{seat}']", name)
    page.click("#options-box summary")
    page.click("#box-add")
    row = page.locator(".box-row").first
    row.locator("input.text-input").first.fill("Anziano")
    row.locator("select").select_option("orange")
    row.locator(".box-number").nth(0).locator("button[aria-label$='+1']").click()
    row.locator(".box-number").nth(2).locator("input").fill("19")
    row.locator(".box-number").nth(2).locator("button[aria-label$='+1']").click()
    shot(page, "setup-box")
    page.click("#start")
    page.wait_for_url(f"{companion.url}/")
    assert companion.table.game.setup.options["box"] == [
        {"name": "Anziano", "colour": "orange", "pipi": 1, "popo": 0, "copies": 20}]
    assert page.script_errors == []


def test_ohshit_poops_carry_a_letter_and_players_are_never_poop_chips(companion, phones):
    companion.table.new_game("ohshit", ["Ana", "Ben"])
    page = controller(phones, companion)
    page.click("[data-command=poop]")
    page.click(".field[data-param=target] .option[data-value='1']")
    colours = page.locator(".field[data-param=colour] .option .poop.mini")
    letters = colours.all_inner_texts()
    assert len(letters) == len(set(letters)) >= 5 and all(letters)
    # Players are picked by round dots and names, never square chips.
    assert page.locator(".field[data-param=target] .option .poop").count() == 0
    page.click(".field[data-param=colour] .option[data-value=grassy]")
    page.click("#sheet button[type=submit]")
    chip = page.locator(".player[data-seat='1'] .poop[data-kind=grassy]")
    expect(chip).to_have_attribute("data-letter", "G")
    shot(page, "ohshit-letters")
    assert page.script_errors == []


def test_an_ohshit_poop_is_three_taps_from_the_pile_with_its_preview(companion, phones):
    companion.table.new_game("ohshit", ["Ana", "Ben"])
    page = controller(phones, companion)
    page.click(".player[data-seat='1'] [data-poop-on='1']")  # Ben's pile
    # The pile said whose: chosen already, and named in the sheet's title.
    expect(page.locator(".field[data-param=target] .option[aria-pressed=true]")).to_have_attribute(
        "data-value", "1")
    expect(page.locator("#sheet-title")).to_contain_text("Ben")
    page.click(".field[data-param=colour] .option[data-value=frosty]")
    expect(page.locator("#sheet .preview")).to_contain_text("frosty poop on Ben's pile")
    page.click("#sheet button[type=submit]")
    expect(page.locator(".player[data-seat='1'] .poop[data-kind=frosty]")).to_have_text("1")
    assert page.script_errors == []
