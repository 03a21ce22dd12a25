"""Bathroom Rush in the phone panel, end to end in headless Chromium at a
phone's size: a decompression without a form, the Action cards by name and
free text only as a note, light tracking's one-tap turn, and a French page
that says the game's events in French."""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from tests import test_web_e2e as e2e
from tests.test_web_e2e import controller, expect

browser = e2e.browser
companion = e2e.companion
phones = e2e.phones

pytestmark = pytest.mark.browser

THREE = ["Ana", "Ben", "Cy"]
BOX = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 30},
       {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 6}]
CARDS = ["Give Up Your Place", "Cunning", "Change Queue", "Cleaner", "Empty Bottle",
         "Concentration", "Swap", "Sneeze", "Desperate Scream"]


def to_the_choice(table) -> None:
    """Every Persona waiting revealed as a Signora; phase D's effects blocked."""
    while table.game.phase != "E":
        wait = table.game.expected()[0]
        if wait.command == "reveal-kind":
            table.submit(Command("reveal-kind", {**wait.args, "kind": "Signora"}))
        else:
            table.submit(Command("defend", {}))


def full_game(companion) -> None:
    companion.dice.values = [2]  # the red die gives 1 to 4
    companion.table.new_game("bathroom-rush", THREE, options={"box": BOX})
    for queue in (1, 2, 3):
        companion.table.submit(Command("choose-queue", {"queue": queue}))
    to_the_choice(companion.table)


def test_a_decompression_is_a_tap_the_red_die_then_a_tap_on_the_persona_behind(companion,
                                                                                phones):
    full_game(companion)
    page = controller(phones, companion)
    page.click("button[data-command=decompress]")
    # No form: the red die comes at once.
    expect(page.locator("#roll")).to_be_visible()
    assert page.locator("#sheet[open]").count() == 0
    page.click("#roll")
    expect(page.locator(".br-kinds h2")).to_contain_text("behind Ana")
    page.click(".br-kinds .persona-kind[data-kind=Signora]")
    expect(page.locator("#prompt")).to_have_text("Ben: play an Action card, decompress or pass?")
    kinds = [e["kind"] for entry in companion.table.history() for e in
             [ev.to_json() for ev in entry.events]]
    assert "decompressed" in kinds and "persona-replaced" in kinds
    assert page.script_errors == []


def test_every_action_card_is_offered_by_name_and_free_text_only_as_a_note(companion, phones):
    full_game(companion)
    page = controller(phones, companion)
    # Every card can be played here: each is a tap in the dock.
    expect(page.locator("#dock .br-cards .action-card")).to_have_text(CARDS)
    assert page.locator("[data-command=action]").count() == 0
    page.click("#corrections")
    assert page.locator("#sheet [data-command=action]").count() == 0
    page.click("#sheet [data-command=note]")
    page.fill("#sheet textarea, #sheet input[type=text]", "Ben's cat sat on queue 2")
    page.click("#sheet button[type=submit]")
    expect(page.locator("#events")).to_contain_text("Ben's cat sat on queue 2")
    assert companion.table.history()[-1].command.name == "note"
    assert companion.table.game.active() == 0
    assert page.script_errors == []


def test_light_tracking_a_decompression_is_one_roll_and_only_the_reserve_cards_are_named(
        companion, phones):
    companion.dice.values = [2]
    companion.table.new_game("bathroom-rush", THREE, variants=["light-tracking"])
    companion.table.submit(Command("set-reserve", {"player": 0, "pipi": 3, "popo": 0}))
    page = controller(phones, companion)
    expect(page.locator(".br-cards .action-card")).to_have_text(["Concentration",
                                                                 "Empty Bottle"])
    # Only the player whose turn it is is marked; End the turn stays a big button.
    expect(page.locator(".player.active")).to_have_count(1)
    expect(page.locator(".action-grid [data-command=end-turn]")).to_be_visible()
    version = companion.table.version
    page.click("#roll")
    expect(page.locator("#prompt")).to_contain_text("Ben")
    assert companion.table.version == version + 1
    assert companion.table.game.reserves[0]["pipi"] == 1
    assert page.script_errors == []


def test_a_french_page_says_the_games_events_and_its_card_list_in_french(companion, phones):
    full_game(companion)
    page = controller(phones, companion, locale="fr-FR")
    expect(page.locator("#dock .br-cards")).to_have_attribute("aria-label",
                                                              "Ana : quelle carte Action ?")
    page.click("button[data-command=decompress]")
    expect(page.locator("#prompt")).to_have_text("Ana décompresse : lancez le dé rouge")
    expect(page.locator("#roll")).to_have_text("⚄ LANCER rouge")
    page.click("#roll")
    expect(page.locator(".br-kinds h2")).to_have_text(
        "Quelle Persona est à la place 8 de la file 1, derrière Ana ?")
    # The history says every event in French, phase B's tokens included.
    page.goto(f"{companion.url}/history")
    history = page.locator("main")
    expect(history).to_contain_text("Ana fait 2 : défausse 0 pipì")
    expect(history).to_contain_text("B : file 1 : 1 pipì sur Signora")
    assert "[object Object]" not in history.inner_text()
    assert "rolls" not in history.inner_text()
    assert page.script_errors == []


def test_both_endings_read_in_french_without_a_stray_word(companion, phones):
    """Light tracking: Ana reaches the bathroom through a card, the final
    turns and the count; then, two players, Ana eliminated by a 4."""
    companion.table.new_game("bathroom-rush", THREE, variants=["light-tracking"])
    page = controller(phones, companion, locale="fr-FR")
    companion.table.submit(Command("reached", {"player": 0}))
    for _ in range(3):
        companion.table.submit(Command("end-turn", {}))
    expect(page.locator("#prompt")).to_have_text(
        "Décompte final : les jetons entre chacun et la porte")
    expect(page.locator(".br-entry[data-seat='1'] .br-take")).to_have_text(
        "Ben : combien de pipì ?")
    companion.table.submit(Command("count-tokens", {"player": 1, "pipi": 3, "popo": 0}))
    companion.table.submit(Command("count-tokens", {"player": 2, "pipi": 2, "popo": 1}))
    expect(page.locator("#result p")).to_have_text("Ana gagne !")
    assert "null" not in page.locator("#result").inner_text()
    companion.table.new_game("bathroom-rush", ["Ana", "Ben"], variants=["light-tracking"])
    companion.table.submit(Command("set-reserve", {"player": 0, "pipi": 0, "popo": 2}))
    companion.table.submit(Command("roll", {"values": [4]}))
    expect(page.locator("#result p")).to_have_text("Ben gagne !")
    assert "null" not in page.locator("#result").inner_text()
    expect(page.locator("#events")).to_contain_text("Ben est le dernier en jeu et gagne")
    assert page.script_errors == []
