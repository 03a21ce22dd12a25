"""The panel never retargets a control under a finger, in headless Chromium
at a phone's size: when another phone's move redraws the reveal for the
next Persona, a tap within a reaction time (400 ms) of that redraw is held,
and the phone says so with the new prompt; after it, the tap plays on what
the page shows.  The page's clock is Playwright's, paused and moved by hand:
no sleep, no race with the machine's speed.  A move refused by the table
(another phone's came first) is said, with what waits now, in each
language."""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from tests import test_web_e2e as e2e
from tests.test_web_e2e import controller, expect, shot
from web.api import companion_info

browser = e2e.browser
companion = e2e.companion
phones = e2e.phones

pytestmark = pytest.mark.browser

THREE = ["Ana", "Ben", "Cy"]
HELD = {"en": "Not played: another phone had just moved. See the new question below.",
        "fr": "Pas joué : un autre téléphone venait de jouer. Nouvelle question en bas.",
        "it": "Non giocato: un altro telefono ha appena giocato. Domanda nuova sotto."}
FIRST = {"en": "Another phone played first; yours was not played. New question below.",
         "fr": "Un autre téléphone a joué avant ; pas vous. Nouvelle question en bas.",
         "it": "Un altro telefono ha giocato prima; tu no. Domanda nuova sotto."}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}


def started(companion) -> None:
    companion.table.new_game("bathroom-rush", THREE)
    for queue in (1, 2, 3):
        companion.table.submit(Command("choose-queue", {"queue": queue}))


def reveal_first(companion, pipi: int = 1) -> dict:
    """Another phone reveals the first Persona waiting."""
    wait = companion.table.game.expected()[0]
    assert wait.command == "reveal"
    companion.table.submit(Command("reveal", {**wait.args, "pipi": pipi, "popo": 0,
                                              "colour": "neutral"}))
    return dict(wait.args)


def phone_with_a_hand(phones, companion, lang: str = "en", start_ms: int = 1_000_000):
    """A phone whose finger has a hand's reaction time, its clock paused
    ``start_ms`` after the page began to load."""
    page = phones(reaction_ms=None, locale=LOCALES[lang])
    # Time stands still on this page: it moves only when told.
    page.add_init_script(f"""((start) => {{
        let now = start;
        performance.now = () => now;
        window.advanceClock = (ms) => {{ now += ms; }};
    }})({int(start_ms)})""")
    page.goto(companion.join_url)
    e2e.live(page)
    page.wait_for_selector(".printed-grid .persona-printed")
    return page


def two_lines_in_full(page) -> None:
    """The message is whole on screen, in at most two lines, over no control."""
    seen = page.evaluate("""() => {
        const now = document.querySelector('#toast .toast-now');
        const lines = Math.round(now.getBoundingClientRect().height
                                 / parseFloat(getComputedStyle(now).lineHeight));
        const box = document.querySelector('#toast').getBoundingClientRect();
        const dock = document.querySelector('#dock').getBoundingClientRect();
        return {lines, whole: now.scrollHeight <= now.clientHeight + 1,
                overDock: box.bottom > dock.top,
                taps: getComputedStyle(document.querySelector('#toast')).pointerEvents};
    }""")
    assert seen == {"lines": seen["lines"], "whole": True, "overDock": False, "taps": "none"}
    assert seen["lines"] <= 2


def run_for(page, ms: int) -> None:
    page.evaluate("(ms) => window.advanceClock(ms)", ms)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
@pytest.mark.parametrize("after_ms", [0, 150, 399])
def test_a_tap_just_after_another_phones_redraw_is_held_and_said(companion, phones, lang,
                                                                  after_ms):
    started(companion)
    page = phone_with_a_hand(phones, companion, lang)
    old = page.locator("#prompt").text_content()
    taken = reveal_first(companion)
    expect(page.locator("#prompt")).not_to_have_text(old)
    new = page.locator("#prompt").text_content()
    # The prompt names the new place, shown as new.
    expect(page.locator("#prompt")).to_have_class("prompt changed")
    version = companion.table.version
    if after_ms:
        run_for(page, after_ms)
    page.click(".printed-grid .persona-printed[data-pipi='3'][data-popo='0']")
    expect(page.locator("#toast .toast-now")).to_have_text(HELD[lang])
    # The new question is the one drawn below, shown as new.
    expect(page.locator("#prompt")).to_have_text(new)
    expect(page.locator("#prompt")).to_have_class("prompt changed")
    two_lines_in_full(page)
    # Nothing was played: the Persona revealed by the other phone kept its
    # value, and the next one is still face down.
    assert companion.table.version == version
    assert companion.table.game.persona(taken["queue"], taken["position"])["pipi"] == 1
    if after_ms == 150:
        shot(page, f"guard-held-{lang}")
    assert page.script_errors == []


def redraw_for_news_of_the_companion(companion, page) -> None:
    """The companion's news (a seat taken, a setting) reaches the phone,
    which draws its dock again: a new ``#prompt`` for the same question."""
    page.evaluate("() => { window.promptBefore = document.querySelector('#prompt'); }")
    publish_news_of_the_companion(companion)
    page.wait_for_function("() => document.querySelector('#prompt') !== window.promptBefore")


def publish_news_of_the_companion(companion) -> None:
    shared = companion.app.extensions["companion"]
    info = companion_info(shared.services, shared)
    shared.live.publish("companion", lambda: info)


def test_a_question_shown_as_new_stays_so_through_a_redraw_of_the_same_question(
        companion, phones):
    started(companion)
    page = phone_with_a_hand(phones, companion)
    old = page.locator("#prompt").text_content()
    reveal_first(companion)
    expect(page.locator("#prompt")).not_to_have_text(old)
    new = page.locator("#prompt").text_content()
    expect(page.locator("#prompt")).to_have_class("prompt changed")
    redraw_for_news_of_the_companion(companion, page)
    expect(page.locator("#prompt")).to_have_text(new)
    expect(page.locator("#prompt")).to_have_class("prompt changed")
    # A tap within the reaction time is held, and the mark stays through
    # the next redraw of the same question too.
    page.click(".printed-grid .persona-printed[data-pipi='3'][data-popo='0']")
    expect(page.locator("#toast .toast-now")).to_have_text(HELD["en"])
    redraw_for_news_of_the_companion(companion, page)
    expect(page.locator("#prompt")).to_have_class("prompt changed")
    # Once the mark has played (1.2 s), a redraw does not play it again.
    run_for(page, 1300)
    redraw_for_news_of_the_companion(companion, page)
    expect(page.locator("#prompt")).to_have_class("prompt")
    # The next question, put up by this phone's own move, is not marked.
    page.click(".printed-grid .persona-printed[data-pipi='3'][data-popo='0']")
    expect(page.locator("#prompt")).not_to_have_text(new)
    expect(page.locator("#prompt")).to_have_class("prompt")
    assert page.script_errors == []


def test_a_tap_after_a_reaction_time_plays_on_what_the_page_shows(companion, phones):
    started(companion)
    page = phone_with_a_hand(phones, companion)
    old = page.locator("#prompt").text_content()
    reveal_first(companion)
    expect(page.locator("#prompt")).not_to_have_text(old)
    shown = companion.table.game.expected()[0].args
    drawn = page.locator("#prompt").text_content()
    run_for(page, 401)
    page.click(".printed-grid .persona-printed[data-pipi='3'][data-popo='0']")
    expect(page.locator("#prompt")).not_to_have_text(drawn)
    expect(page.locator("#toast")).to_be_hidden()
    placed = companion.table.game.persona(shown["queue"], shown["position"])
    assert placed["revealed"] and placed["pipi"] == 3 and placed["id"] == shown["persona"]
    assert page.script_errors == []


def test_a_tap_in_the_pages_first_moments_plays(companion, phones):
    # The page has just loaded (its clock at 0): nothing was redrawn under
    # the finger, so the first tap plays at once.
    started(companion)
    page = phone_with_a_hand(phones, companion, start_ms=0)
    shown = companion.table.game.expected()[0].args
    drawn = page.locator("#prompt").text_content()
    page.click(".printed-grid .persona-printed[data-pipi='2'][data-popo='0']")
    expect(page.locator("#prompt")).not_to_have_text(drawn)
    expect(page.locator("#toast")).to_be_hidden()
    assert companion.table.game.persona(shown["queue"], shown["position"])["pipi"] == 2
    assert page.script_errors == []


def test_a_control_that_still_acts_on_the_same_thing_takes_the_tap_at_once(companion, phones):
    started(companion)
    page = phone_with_a_hand(phones, companion)
    # Another phone's correction changes nothing the dock acts on.
    companion.table.submit(Command("note", {"text": "the cat sat on queue 2"}))
    expect(page.locator("#events")).to_contain_text("the cat sat on queue 2")
    shown = companion.table.game.expected()[0].args
    page.click(".printed-grid .persona-printed[data-pipi='2'][data-popo='0']")
    expect(page.locator("#toast")).to_be_hidden()
    assert companion.table.game.persona(shown["queue"], shown["position"])["pipi"] == 2


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_a_move_the_table_refuses_says_so_and_shows_what_waits_now(companion, phones, lang):
    started(companion)
    page = controller(phones, companion, locale=LOCALES[lang])
    page.wait_for_selector(".printed-grid .persona-printed")

    def other_phone_first(route) -> None:
        # Another phone's reveal reaches the table while this one's is on
        # its way: this one was made against what is gone.
        reveal_first(companion)
        route.continue_()

    page.route("**/api/command", other_phone_first)
    version = companion.table.version
    page.click(".printed-grid .persona-printed[data-pipi='3'][data-popo='0']")
    expect(page.locator("#toast .toast-now")).to_have_text(FIRST[lang])
    page.unroute("**/api/command")
    # Only the other phone's move was played; what waits now is drawn and said.
    assert companion.table.version == version + 1
    now = companion.table.game.expected(lang)[0].prompt
    expect(page.locator("#prompt")).to_contain_text(now)
    expect(page.locator("#prompt")).to_have_class("prompt changed")
    two_lines_in_full(page)
    shot(page, f"refused-by-the-table-{lang}")
    assert page.script_errors == []


ASKS = {"en": "Waiting for Ana to turn up a Persona",
        "fr": "On attend qu'Ana retourne une Persona",
        "it": "Si aspetta che Ana scopra una Persona"}
ENTER = {"en": "Enter it for Ana", "fr": "Saisir pour Ana", "it": "Inserisci per Ana"}


def seated(phones, companion, seat: int, lang: str):
    page = controller(phones, companion, locale=LOCALES[lang])
    page.click("#seat")
    page.click(f"#sheet [data-seat='{seat}']")
    expect(page.locator("#seat")).to_have_text(THREE[seat])
    return page


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_each_phone_turns_up_its_own_queues_personas_and_the_others_see_who_is_asked(
        companion, phones, lang):
    started(companion)
    ana, ben = seated(phones, companion, 0, lang), seated(phones, companion, 1, lang)
    game = companion.table.game
    # Each phone asks its own player, by name, about a place of their queue.
    for page, seat in ((ana, 0), (ben, 1)):
        queue = seat + 1  # Ana stands in queue 1, Ben in queue 2
        waits = [e for e in game.expected(lang) if e.command == "reveal"
                 and e.args["queue"] == queue]
        expect(page.locator("#prompt")).to_have_text(f"{THREE[seat]} — {waits[0].prompt}")
    shot(ana, f"reveal-own-queue-{lang}")
    # Ben's queue is all turned up: Ben's phone shows who is waited for.
    while any(e.command == "reveal" and e.args["queue"] == 2
              for e in companion.table.game.expected()):
        wait = next(e for e in companion.table.game.expected()
                    if e.command == "reveal" and e.args["queue"] == 2)
        companion.table.submit(Command("reveal", {**wait.args, "pipi": 1, "popo": 0,
                                                  "colour": "neutral"}))
    for queue in (3, 4):
        while any(e.command == "reveal" and e.args["queue"] == queue
                  for e in companion.table.game.expected()):
            wait = next(e for e in companion.table.game.expected()
                        if e.command == "reveal" and e.args["queue"] == queue)
            companion.table.submit(Command("reveal", {**wait.args, "pipi": 1, "popo": 0,
                                                      "colour": "neutral"}))
    expect(ben.locator("#prompt")).to_have_text(ASKS[lang])
    assert ben.locator(".printed-grid").count() == 0
    shot(ben, f"reveal-waiting-for-{lang}")
    # One tap, and Ben enters Ana's card for her.
    ben.click("#reveal-for")
    wait = companion.table.game.expected(lang)[0]
    expect(ben.locator("#prompt")).to_have_text(f"Ana — {wait.prompt}")
    ben.click(".printed-grid .persona-printed[data-pipi='2'][data-popo='0']")
    placed = companion.table.game.persona(wait.args["queue"], wait.args["position"])
    expect(ben.locator("#prompt")).not_to_have_text(f"Ana — {wait.prompt}")
    assert placed["pipi"] == 2
    assert ana.script_errors == [] and ben.script_errors == []


def test_news_that_comes_while_a_finger_is_down_waits_for_it_to_lift(companion, phones):
    # A control replaced between a press and its release takes no click (the
    # two land on different elements): the dock is drawn again once the
    # finger lifts, and the tap plays.
    started(companion)
    page = phones(locale="en-GB")
    page.goto(companion.join_url)
    e2e.live(page)
    page.wait_for_selector(".printed-grid .persona-printed")
    old = page.locator("#prompt").text_content()
    version = companion.table.version
    target = page.locator(".printed-grid .persona-printed[data-pipi='3'][data-popo='0']").first
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => { window.promptBefore = document.querySelector('#prompt'); }")
    publish_news_of_the_companion(companion)
    # The news reached the phone (drawn at once, or put off until the press ends).
    page.wait_for_function("""() => document.querySelector('#dock').dataset.redraw === 'after-press'
        || document.querySelector('#prompt') !== window.promptBefore""")
    page.mouse.up()
    expect(page.locator("#prompt")).not_to_have_text(old)
    assert companion.table.version == version + 1
    expect(page.locator("#dock")).not_to_have_attribute("data-redraw", "after-press")
    assert page.script_errors == []
