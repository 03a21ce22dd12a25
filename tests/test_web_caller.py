# ruff: noqa: F811  (the browser fixtures come from tests.test_web_e2e)
"""The phone as the table's caller, in headless Chromium: "Speak" on the
table page says each change with the Web Speech API, in the table's
language and a voice that speaks it, the same words as the table's speaker,
a newer change cancelling an unfinished line, nothing said again after a
reconnect.  Headless Chromium has no voices: an init script records the
page's calls to ``speechSynthesis`` instead of speaking them."""

from __future__ import annotations

import itertools

import pytest

from companion.core.caller import line
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

pytestmark = pytest.mark.browser

RECORD_SPEECH = """
window.spoken = [];
class RecordedUtterance {
    constructor(text) { this.text = text; this.lang = ""; this.voice = null; this.volume = 1; }
}
const voices = [
    { name: "Daniel", lang: "en-GB", default: true },
    { name: "Amélie", lang: "fr-CA", default: false },
    { name: "Thomas", lang: "fr-FR", default: true },
    { name: "Alice", lang: "it-IT", default: false },
];
window.SpeechSynthesisUtterance = RecordedUtterance;
// As a phone's voice does: a line is spoken until it ends (here: never, until
// the test says so), the next waits behind it, cancel() cuts them all.
window.speaking = [];
window.cut = [];
Object.defineProperty(window, "speechSynthesis", { value: {
    speak: (u) => {
        window.spoken.push({ text: u.text, lang: u.lang, voice: u.voice && u.voice.name,
                             volume: u.volume });
        if (u.text.trim()) window.speaking.push(u.text);
    },
    cancel: () => {
        window.spoken.push({ cancel: true });
        window.cut.push(...window.speaking);
        window.speaking = [];
    },
    getVoices: () => voices,
    get speaking() { return window.speaking.length > 0; },
    get pending() { return window.speaking.length > 1; },
    paused: false,
} });
"""


def said(page) -> list[dict]:
    """The lines the page spoke (the silent word that unlocks speech left out)."""
    return [call for call in page.evaluate("window.spoken")
            if "text" in call and call["text"].strip()]


def test_a_phone_that_speaks_says_each_change_in_the_tables_language(companion, phones):
    start_call_of_nature(companion)
    companion.table.change_setting("language", "fr")
    page = phones()
    page.add_init_script(RECORD_SPEECH)
    page.goto(companion.join_url)
    live(page)
    page.click("#speak")
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#speak")).to_have_attribute("aria-label", "Parler")
    lines = []
    for words in ("card +5", "card 30", "special u-turn"):
        lines.append(line(companion.table.submit_words(words), "fr"))
    lines.append(line(companion.table.undo(), "fr"))
    page.wait_for_function(f"() => window.spoken.filter((c) => c.text && c.text.trim())"
                           f".length >= {len(lines)}")
    spoken = said(page)
    assert [call["text"] for call in spoken] == lines
    assert lines[1] == ("Seuil 31 ! Ben perd 1 niveau de Maîtrise, il lui en reste 6. "
                        "Au tour de Cy, Pression 35.")
    assert {call["lang"] for call in spoken} == {"fr"}
    # The phone's own default voice of the table's language.
    assert {call["voice"] for call in spoken} == {"Thomas"}
    # Each newer line cancels the one before it, unfinished or not.
    calls = [c for c in page.evaluate("window.spoken") if c.get("cancel") or c["text"].strip()]
    for before, call in itertools.pairwise(calls):
        if "text" in call:
            assert before.get("cancel"), calls
    # None of them ended (the voice is slow): each was cut by the next, and
    # only the newest is being said, none waiting behind it.
    assert page.evaluate("window.cut") == lines[:-1]
    assert page.evaluate("window.speaking") == lines[-1:]
    shot(page, "caller-speaking")
    assert page.script_errors == []


def test_nothing_is_said_again_after_a_reconnect_and_a_quiet_phone_says_nothing(companion,
                                                                                phones):
    start_call_of_nature(companion)
    page = phones()
    page.add_init_script(RECORD_SPEECH)
    page.goto(companion.join_url)
    live(page)
    quiet = phones()
    quiet.add_init_script(RECORD_SPEECH)
    quiet.goto(companion.url)
    live(quiet)
    page.click("#speak")
    first = line(companion.table.submit_words("card +5"), "en")
    page.wait_for_function("() => window.spoken.some((c) => c.text && c.text.trim())")
    assert [call["text"] for call in said(page)] == [first]
    page.reload()  # the phone comes back: Speak stays on, the last line is not said again
    live(page)
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")
    second = line(companion.table.submit_words("card +6"), "en")
    page.wait_for_function("() => window.spoken.some((c) => c.text && c.text.trim())")
    assert [call["text"] for call in said(page)] == [second]
    assert second == "Cy's turn, pressure 11."
    assert said(quiet) == []


def test_the_caller_is_turned_off_and_its_moments_chosen_on_the_setup_page(companion, phones):
    start_call_of_nature(companion)
    app_settings = companion.app.extensions["companion"].settings
    object.__setattr__(app_settings, "speaker", True)  # a table with a speaker
    page = controller(phones, companion)
    page.goto(f"{companion.url}/setup")
    expect(page.locator("#caller")).to_be_checked()
    page.click("#caller")
    expect(page.locator("#toast")).to_contain_text("quiet")
    assert companion.table.settings().caller is False
    page.click("input[name=caller-moment][value=turn]")
    expect(page.locator("#toast")).to_contain_text("kept")
    assert companion.table.settings().caller_moments == ("game", "undo", "play")
    # The phones speak the moments chosen: no turn is said.
    assert line(companion.table.submit_words("card +5"), "en",
                companion.table.settings().caller_moments) is None
    page.reload()
    expect(page.locator("#caller")).not_to_be_checked()
    expect(page.locator("input[name=caller-moment][value=turn]")).not_to_be_checked()
    expect(page.locator("input[name=caller-moment][value=play]")).to_be_checked()
    page.locator("#caller-row").scroll_into_view_if_needed()
    shot(page, "setup-caller")
    assert page.script_errors == []
