# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""The table page at a real table: several phones in headless Chromium on the
real server. What a phone sends is what its player saw, every answer is
seen on top of whatever is open, and a lost connection turns the controls off.
"""

from __future__ import annotations

import pytest

from companion.core.engine import Command
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

pytestmark = pytest.mark.browser


def on_top(page, selector: str) -> bool:
    """Is the element at the middle of `selector` the element itself (nothing
    covers it, an open sheet neither)?  (A message takes no tap: it is
    looked for as if it did.)"""
    return page.evaluate("""(selector) => {
        const el = document.querySelector(selector);
        const box = el.getBoundingClientRect();
        const was = el.style.pointerEvents;
        el.style.pointerEvents = "auto";
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        el.style.pointerEvents = was;
        return el.contains(hit);
    }""", selector)


def test_a_value_typed_for_a_turn_played_elsewhere_is_never_sent_for_the_next(companion, phones):
    start_call_of_nature(companion)
    phone_a = controller(phones, companion)
    phone_b = controller(phones, companion)
    pick_number(phone_b, 6)  # for Ana's turn, not yet played
    expect(phone_b.locator(".card-play[data-value='6']")).to_be_enabled()
    play_card(phone_a, 9)  # phone A plays for Ana
    expect(phone_b.locator("#prompt")).to_have_text("Ben plays a card")
    # Phone B shows the numbers again and says why: nothing is armed for Ben.
    expect(phone_b.locator(".card-play")).to_have_count(0)
    expect(phone_b.locator(".number-grid [aria-pressed=true]")).to_have_count(0)
    expect(phone_b.locator(".number-grid")).to_be_visible()
    expect(phone_b.locator("#toast")).to_contain_text("Your 6 was not sent")
    expect(phone_b.locator("#toast")).to_contain_text("Ana")
    assert [e.text for e in companion.table.history()] == ["card value=9 player=0"]
    assert phone_a.script_errors == [] and phone_b.script_errors == []


def test_an_open_form_closes_when_another_phone_acts_and_says_what_changed(companion, phones):
    start_call_of_nature(companion)
    phone_a = controller(phones, companion)
    phone_b = controller(phones, companion)
    phone_b.click("#corrections")
    phone_b.click("#sheet [data-command=set-pressure]")
    phone_b.wait_for_selector("#sheet [data-param=value]")
    play_card(phone_a, 12)
    expect(phone_b.locator("#sheet")).not_to_be_visible()
    expect(phone_b.locator("#toast")).to_contain_text("Changed on another phone")
    assert on_top(phone_b, "#toast")
    # An undo on another phone closes an open form too.
    phone_b.click("#corrections")
    phone_b.click("#sheet [data-command=set-pressure]")
    phone_b.wait_for_selector("#sheet [data-param=value]")
    phone_a.click("#undo")
    phone_a.click("#undo-confirm")
    expect(phone_b.locator("#sheet")).not_to_be_visible()
    expect(phone_b.locator("#toast")).to_contain_text("taken back")
    assert companion.table.history() == [] or companion.table.history()[-1].action == "undo"


def test_the_special_cards_close_when_another_phone_plays_and_a_late_tap_is_refused(
        companion, phones):
    start_call_of_nature(companion)
    phone_a = controller(phones, companion)
    phone_b = controller(phones, companion)
    phone_b.click("[data-command=special]")  # for Ana's turn
    u_turn = phone_b.locator("#sheet .choice-play[data-value=u-turn] .preview")
    expect(u_turn).to_contain_text("Ana")
    play_card(phone_a, 9)  # phone A plays for Ana
    expect(phone_b.locator("#sheet")).not_to_be_visible()
    expect(phone_b.locator("#toast")).to_contain_text("Changed on another phone")
    # Opened again for Ben's turn, a tap that reaches the table after another
    # phone's card is refused: the U-TURN! is not put on the next player.
    phone_b.click("[data-command=special]")
    expect(u_turn).to_contain_text("Ben")

    def other_phone_first(route):
        companion.table.submit(Command("card", {"value": 4}))
        route.continue_()

    phone_b.route("**/api/command", other_phone_first)
    phone_b.click("#sheet .choice-play[data-value=u-turn]")
    expect(phone_b.locator("#toast")).to_contain_text("Another phone played first")
    phone_b.unroute("**/api/command")
    assert [e.text for e in companion.table.history()] == ["card value=9 player=0", "card value=4"]
    assert phone_a.script_errors == [] and phone_b.script_errors == []


def test_a_submit_made_against_an_old_situation_is_refused_and_explained(companion, phones):
    start_call_of_nature(companion)
    page = controller(phones, companion)
    pick_number(page, 7)

    # Another phone's card reaches the table while this phone's is on its way.
    def other_phone_first(route):
        companion.table.submit(Command("card", {"value": 4}))
        route.continue_()

    page.route("**/api/command", other_phone_first)
    page.click(".card-play[data-value='7']")
    expect(page.locator("#toast")).to_contain_text("Another phone played first")
    page.unroute("**/api/command")
    expect(page.locator("#prompt")).to_have_text("Ben plays a card")
    # Only the other phone's card was applied: the 7 was not put on Ben.
    assert [e.text for e in companion.table.history()] == ["card value=4"]


def test_a_refusal_is_seen_above_an_open_sheet(companion, phones):
    start_call_of_nature(companion)
    page = controller(phones, companion)
    # A refusal the preview could not tell beforehand (it did not answer):
    # one it tells keeps OK off, and the table's refusal comes as a toast.
    page.route("**/api/preview", lambda route: route.abort())
    page.click("#corrections")
    page.click("#sheet [data-command=adjust-mastery]")
    page.click("#sheet [data-param=player] [data-value='0']")
    page.click("#sheet [data-param=delta] [data-digit='1']")  # Mastery is already 7
    page.click("#sheet button[type=submit]")
    expect(page.locator("#toast")).to_contain_text("corrects nothing")
    expect(page.locator("#sheet")).to_be_visible()
    assert page.evaluate("document.querySelector('#toast').matches(':popover-open')")
    assert on_top(page, "#toast")
    shot(page, "refusal-over-sheet")


def test_a_roll_is_seen_on_both_phones_with_the_die_and_what_it_did(companion, phones):
    start_call_of_nature(companion)
    companion.table.submit(Command("set-pressure", {"value": 40}))
    phone_a = controller(phones, companion)
    phone_b = controller(phones, companion)
    play_card(phone_a, 10)  # Ana lands on 50: a Respite
    phone_a.click("#roll")
    for phone in (phone_a, phone_b):
        # The die and what it did, on the phone that rolled (its answer) and
        # on the other one (the live stream), whichever reaches it first.
        expect(phone.locator("#toast")).to_contain_text("Rolled 6")
        expect(phone.locator("#toast")).to_contain_text("Ana rolls 6 for the Respite")
        expect(phone.locator("#prompt")).to_have_text("Ben plays a card")
    shot(phone_b, "roll-seen-on-another-phone")


def test_an_alert_stays_beneath_a_message_that_follows_it_at_once(companion, phones):
    # A threshold fires on Ben's card, and at once another message comes: the
    # alert is not wiped, it stays beneath the newer one for its seconds.
    start_call_of_nature(companion)
    companion.table.submit(Command("set-pressure", {"value": 25}))
    page = controller(phones, companion)
    page.wait_for_selector(".number-grid")
    companion.table.submit(Command("card", {"value": 9}))  # 34: threshold 31 fires
    expect(page.locator("#toast")).to_contain_text("31")
    alert = page.locator("#toast .toast-now").inner_text()
    page.evaluate("""async () => {
        const core = await import("/static/js/core.js");
        core.toast("Rolled 4", { roll: true });
    }""")
    expect(page.locator("#toast .toast-now")).to_have_text("Rolled 4")
    expect(page.locator("#toast .toast-earlier")).to_have_text(alert)
    shot(page, "alert-beneath-a-newer-message")
    # Once the alert has had its seconds it goes; the newer message stays.
    expect(page.locator("#toast .toast-earlier")).to_have_count(0, timeout=10_000)
    expect(page.locator("#toast .toast-now")).to_have_text("Rolled 4")


def test_a_lost_connection_turns_the_controls_off_and_says_so(companion, phones):
    start_call_of_nature(companion)
    page = controller(phones, companion)
    page.wait_for_selector(".number-grid")
    companion.stop()
    expect(page.locator("#offline-note")).to_be_visible()
    assert page.evaluate("document.querySelector('#dock').inert")
    expect(page.locator("#toast")).to_contain_text("cannot be reached")
    shot(page, "offline")
    companion.start()
    live(page)
    expect(page.locator("#offline-note")).to_be_hidden()
    assert not page.evaluate("document.querySelector('#dock').inert")


RECORD_DEVICE = """
window.vibrations = [];
window.wakeLocks = [];
Object.defineProperty(navigator, "vibrate", {
    value: (pattern) => { window.vibrations.push(pattern); return true; },
});
Object.defineProperty(navigator, "wakeLock", { value: { request: async (type) => {
    window.wakeLocks.push(type);
    return { released: false, release: async () => {} };
} } });
"""


def test_a_seats_phone_is_told_of_its_turn_and_stays_awake(companion, phones):
    start_call_of_nature(companion)
    phone_a = controller(phones, companion)
    phone_b = phones()
    phone_b.add_init_script(RECORD_DEVICE)
    phone_b.goto(companion.join_url)
    live(phone_b)
    phone_b.click("#seat")
    phone_b.click("#sheet [data-seat='1']")  # "I am Ben"
    expect(phone_b.locator("#seat")).to_have_text("Ben")
    assert phone_b.locator("#your-turn").count() == 0  # Ana's turn
    assert phone_b.evaluate("window.vibrations") == []
    play_card(phone_a, 8)
    expect(phone_b.locator("#your-turn")).to_have_text("Your turn, Ben!")
    assert phone_b.evaluate("document.body.classList.contains('my-turn')")
    assert len(phone_b.evaluate("window.vibrations")) == 1
    assert "screen" in phone_b.evaluate("window.wakeLocks")
    # Phone A has no seat: it still plays for the table, Ben's card too.
    assert phone_a.locator("#your-turn").count() == 0
    play_card(phone_a, 3)
    expect(phone_b.locator("#your-turn")).to_have_count(0)
    assert len(phone_b.evaluate("window.vibrations")) == 1
    shot(phone_b, "seat-chosen")
    assert phone_b.script_errors == []
