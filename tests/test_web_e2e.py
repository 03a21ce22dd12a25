"""The phone panel end to end: real headless Chromium at a phone's size, the
real waitress server on loopback, a real table playing Call of Nature.

Screenshots of the main pages are kept in test-artifacts/screenshots/.
Without /usr/bin/chromium these tests are skipped, except under CI where a
missing browser is a failure.
"""

from __future__ import annotations

import io
import json
import os
import re
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table
from companion.host.storage import keep_file
from tests.fakes import FixedDice
from web import PanelSettings, Services, create_app
from web.server import serve

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"
SECRET = "e2e-panel-secret"
# Generous: on a loaded machine a phone may take seconds to show a change.
# Every wait ends as soon as its condition holds, so passing runs stay fast.
WAIT_MS = 15_000


def _require_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def browser():
    _require_chromium()
    from playwright.sync_api import expect as playwright_expect
    from playwright.sync_api import sync_playwright

    playwright_expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def screen_png(table: Table, note: str = "") -> bytes:
    """A stand-in for the OLED: the version and the Pressure (or a note),
    128x64, 1 bit."""
    from PIL import Image, ImageDraw

    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    if table.has_game:
        draw.text((4, 4), f"{table.game.title}", fill=1)
        draw.text((4, 24), f"pressure {table.game.view().get('pressure', '-')}", fill=1)
        draw.text((4, 44), f"version {table.version}", fill=1)
    else:
        draw.text((4, 24), "no game: press OK", fill=1)
    if note:
        draw.text((64, 4), note, fill=1)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class Screen:
    """A stand-in for the table's screen: a new frame (numbered) after each
    change of the table, or when :meth:`change` says it shows something
    else; its listeners are told of each, as the real screen's are."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.number = 1
        self.note = ""
        self._lock = threading.Lock()
        self._listeners: list = []
        table.subscribe(lambda update: self.change())

    def png(self) -> bytes:
        return self.frame()[1]

    def frame(self) -> tuple[int, bytes]:
        with self._lock:
            number, note = self.number, self.note
        return number, screen_png(self.table, note)

    def change(self, note: str = "") -> int:
        with self._lock:
            self.number += 1
            self.note = note
            number, listeners = self.number, list(self._listeners)
        for listener in listeners:
            listener()
        return number

    def subscribe(self, listener):
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)


class Companion:
    """The panel served by waitress in a thread, on one journal; it can be
    stopped and started again on the same port, as after a restart."""

    def __init__(self, directory: Path) -> None:
        self.db = directory / "companion.db"
        self.colours = directory / "colours.json"
        self.port = 0
        self.pressed: list[str] = []
        self._keys = threading.Condition()
        self.table: Table | None = None
        self.app = None
        self._server = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.table = Table(Journal.open(self.db))
        table = self.table
        self.dice = FixedDice(table, [6])
        self.screen = Screen(table)
        services = Services(screen_png=self.screen.png, press_key=self._press,
                            dice=self.dice, screen_frame=self.screen.frame,
                            screen_news=self.screen.subscribe)
        self.app = create_app(table, PanelSettings(secret_key=SECRET,
                                                   colours_file=self.colours,
                                                   keep_file=keep_file),
                              services=services)
        self._server = serve(self.app, "127.0.0.1", self.port, threads=12)
        self.port = self._server.port
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        with urllib.request.urlopen(f"{self.url}/api/health", timeout=5) as answer:
            assert answer.status == 200

    def _press(self, key: str) -> None:
        if key == "roll":
            time.sleep(0.3)  # the simulated ROLL button is held a moment
        with self._keys:
            self.pressed.append(key)
            self._keys.notify_all()

    def wait_for_presses(self, count: int) -> list[str]:
        with self._keys:
            self._keys.wait_for(lambda: len(self.pressed) >= count, timeout=WAIT_MS / 1000)
            return list(self.pressed)

    def stop(self) -> None:
        self._server.close()
        self._thread.join(10)
        assert not self._thread.is_alive(), "the server did not stop"
        self.table.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def join_url(self) -> str:
        return self.app.extensions["companion"].access.join_url(self.url)

    @property
    def pin(self) -> str:
        return self.app.extensions["companion"].access.pin


@pytest.fixture
def companion(tmp_path):
    _require_chromium()
    server = Companion(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def phones(browser):
    contexts = []

    def open_phone(*, scheme: str = "light", locale: str = "en-GB", reaction_ms: int | None = 0):
        """A phone.  Its robot finger taps the instant another phone's move
        is drawn, faster than a hand: the panel's guard against a control
        retargeted under a finger (web/static/js/guard.js) would refuse it,
        so it waits ``reaction_ms`` (0) here; ``None`` keeps a hand's."""
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, color_scheme=scheme, locale=locale)
        context.set_default_timeout(WAIT_MS)
        if reaction_ms is not None:
            context.add_init_script(f"window.companionReactionMs = {int(reaction_ms)};")
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.script_errors = errors
        return page

    yield open_phone
    for context in contexts:
        context.close()


def controller(open_phone, companion, **options):
    page = open_phone(**options)
    page.goto(companion.join_url)
    live(page)
    return page


def live(page) -> None:
    page.wait_for_selector("#conn[data-state=live]")


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Fonts loaded and two frames drawn since the last change.
    page.evaluate("""() => document.fonts.ready.then(() => new Promise(
        (done) => requestAnimationFrame(() => requestAnimationFrame(done))))""")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def pick_number(page, value: int) -> None:
    """The first of a Pressure card's two taps: the number printed on it."""
    page.click(f".number-grid [data-value='{abs(value)}']")


def play_card(page, value: int) -> None:
    """A Pressure card in two taps: its number, then its value (+ or -),
    shown with what it will do."""
    pick_number(page, value)
    page.click(f".card-play[data-value='{value}']")
    # The grid is back (or makes way for the dice) once the table took the
    # card and the phone shows the new state; a number picked before that
    # would be dropped with it.
    page.wait_for_function("() => !document.querySelector('.card-pad.picked')")


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def pressure(page) -> str:
    return page.inner_text("#pressure")


def start_call_of_nature(companion) -> None:
    companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])


# -- the tests --------------------------------------------------------------------------


def test_setting_up_a_game_from_a_phone(companion, phones):
    page = controller(phones, companion)
    page.click("a[href='/setup']")
    page.wait_for_selector("[data-game=call-of-nature]")
    page.click("[data-game=call-of-nature]")
    page.click("#add-player")
    for seat, name in enumerate(["Ana", "Ben", "Cy"]):
        page.fill(f"input[data-seat='{seat}']", name)
    page.click("#players li:nth-child(3) .swatch")
    page.check("input[name=variant][value=no-end-roll]")
    shot(page, "setup")
    page.click("#start")
    page.wait_for_url(f"{companion.url}/")
    page.wait_for_selector("#pressure")
    assert pressure(page) == "0"
    assert page.inner_text("#prompt") == "Ana plays a card"
    assert page.locator(".player .name").all_inner_texts()[0].startswith("Ana")
    assert companion.table.game.players == ("Ana", "Ben", "Cy")
    assert companion.table.game.setup.variants == frozenset({"no-end-roll"})
    assert page.script_errors == []
    shot(page, "table-new-game")


def test_two_phones_play_turns_and_each_sees_the_others_move(companion, phones):
    start_call_of_nature(companion)
    ana = controller(phones, companion)
    ben = controller(phones, companion)
    play_card(ana, 25)
    expect(ben.locator("#pressure")).to_have_text("25")
    assert ben.inner_text("#prompt") == "Ben plays a card"
    play_card(ben, -10)
    expect(ana.locator("#pressure")).to_have_text("15")
    assert ana.inner_text("#prompt") == "Cy plays a card"
    play_card(ana, 20)  # 35: threshold 31 fires against Cy
    ben.wait_for_selector(".event.alert[data-kind=threshold-fired]")
    assert "Threshold 31 fired" in ben.inner_text(".event.alert[data-kind=threshold-fired]")
    assert [e.text for e in companion.table.history()] == \
        ["card value=25 player=0", "card value=-10 player=1", "card value=20 player=2"]
    shot(ana, "table-playing")
    assert ana.script_errors == [] and ben.script_errors == []


def test_undo_takes_back_the_last_card_on_every_phone(companion, phones):
    start_call_of_nature(companion)
    ana = controller(phones, companion)
    ben = controller(phones, companion)
    play_card(ana, 5)
    play_card(ana, 7)
    expect(ben.locator("#pressure")).to_have_text("12")
    ana.click("#undo")
    ana.click("#undo-confirm")
    expect(ben.locator("#pressure")).to_have_text("5")
    assert ben.inner_text("#prompt") == "Ben plays a card"
    assert companion.table.current().can_redo
    ben.goto(f"{companion.url}/history")
    ben.wait_for_selector("#history li.undo")
    assert ben.locator("#history li.undone .what").inner_text().startswith("Ben plays +7")
    shot(ben, "history")
    ben.click("#redo")
    expect(ana.locator("#pressure")).to_have_text("12")


def test_a_spectator_watches_but_cannot_act_until_they_join(companion, phones):
    start_call_of_nature(companion)
    ana = controller(phones, companion)
    watcher = phones()
    watcher.goto(companion.url)
    live(watcher)
    assert watcher.locator(".number-grid").count() == 0
    assert watcher.locator("#undo").count() == 0
    assert watcher.is_visible("#join")
    play_card(ana, 9)
    expect(watcher.locator("#pressure")).to_have_text("9")
    shot(watcher, "table-spectator")
    status = watcher.evaluate("""async () => {
        const session = await (await fetch('/api/session')).json();
        const answer = await fetch('/api/undo', {method: 'POST', body: '{"version": 1}',
            headers: {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf}});
        return answer.status;
    }""")
    assert status == 403
    assert companion.table.version == 1
    watcher.click("#join")
    watcher.fill("#pin", companion.pin)
    watcher.click("#sheet button[type=submit]")
    watcher.wait_for_selector(".number-grid")
    play_card(watcher, 3)
    expect(ana.locator("#pressure")).to_have_text("12")


def link_from_elsewhere(page, url: str) -> None:
    """Follow a link to ``url`` from a page of another site, as when a QR
    scanner or a chat opens it."""
    html = f"<a id='go' href='{url}'>companion</a>"
    page.goto("data:text/html," + urllib.parse.quote(html))
    page.click("#go")
    live(page)


def test_the_qr_codes_link_opened_from_another_app_makes_a_controller(companion, phones):
    start_call_of_nature(companion)
    page = phones()
    link_from_elsewhere(page, companion.join_url)
    play_card(page, 5)
    expect(page.locator("#pressure")).to_have_text("5")
    # And a controller who comes back by a link stays one.
    link_from_elsewhere(page, f"{companion.url}/")
    play_card(page, 2)
    expect(page.locator("#pressure")).to_have_text("7")
    assert page.script_errors == []


def test_a_phone_reconnects_by_itself_after_the_companion_restarts(companion, phones):
    start_call_of_nature(companion)
    page = controller(phones, companion)
    play_card(page, 4)
    expect(page.locator("#pressure")).to_have_text("4")
    companion.stop()
    page.wait_for_selector("#conn:not([data-state=live])")
    companion.start()
    # A move made at the table while the phone was away.
    companion.table.submit(Command("card", {"value": 6}), source="buttons")
    page.wait_for_selector("#conn[data-state=live]", timeout=15_000)
    expect(page.locator("#pressure")).to_have_text("10")
    assert page.inner_text("#conn") == "Connected"
    assert page.inner_text("#prompt") == "Cy plays a card"
    # Still a controller: the session cookie outlives the restart.
    play_card(page, 1)
    expect(page.locator("#pressure")).to_have_text("11")
    assert page.script_errors == []


def test_a_phone_that_slept_shows_the_current_state_when_it_wakes(companion, phones):
    start_call_of_nature(companion)
    page = controller(phones, companion)
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    companion.table.submit(Command("card", {"value": 8}), source="buttons")
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    expect(page.locator("#pressure")).to_have_text("8")


def test_statistics_show_wins_per_player(companion, phones):
    companion.table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
    companion.table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}))
    start_call_of_nature(companion)
    page = controller(phones, companion)
    page.goto(f"{companion.url}/stats")
    page.wait_for_selector("[data-player=Ana]")
    assert page.inner_text("#games-played") == "1"
    assert page.locator("#player-stats [data-player=Ana] td.num").all_inner_texts() == ["1", "1"]
    assert page.locator("#player-stats [data-player=Ben] td.num").all_inner_texts() == ["0", "1"]
    shot(page, "stats")


def test_a_past_games_date_shows_its_year_only_when_it_is_not_this_one(companion, phones):
    # Three games, at noon (local time): today, earlier or later this year,
    # and two years ago.
    now = time.localtime()
    this_year = time.mktime((now.tm_year, 1 if now.tm_yday != 1 else 12, 1 if now.tm_yday != 1
                             else 31, 12, 0, 0, 0, 0, -1))
    years_ago = time.mktime((now.tm_year - 2, 12, 2, 12, 0, 0, 0, 0, -1))
    today = time.time()
    companion.stop()
    times = iter(t + step for t in (years_ago, this_year, today) for step in (0, 30, 60))
    table = Table(Journal.open(companion.db), clock=lambda: next(times))
    for players in (["Ana", "Ben"], ["Cy", "Dee"], ["Eve", "Fay"]):
        table.new_game("call-of-nature", players, variants=["no-end-roll"])
        table.submit(Command("adjust-mastery", {"player": players[1], "delta": -7}))
    table.close()
    companion.start()
    page = controller(phones, companion)
    page.goto(f"{companion.url}/stats")
    page.wait_for_selector("#past-games li[data-game] .meta")
    meta = dict(zip(["years_ago", "this_year", "today"],
                    sorted(page.locator("#past-games li[data-game]").all(),
                           key=lambda li: int(li.get_attribute("data-game"))), strict=True))
    said = {key: li.locator(".meta").inner_text() for key, li in meta.items()}
    assert str(now.tm_year - 2) in said["years_ago"], said
    assert "Dec" in said["years_ago"], said
    assert str(now.tm_year) not in said["this_year"], said
    assert ("Jan" if now.tm_yday != 1 else "Dec") in said["this_year"], said
    # Today's: its time alone.
    assert re.fullmatch(r"\d{1,2}:\d{2}( [AP]M)?", said["today"].split(" · ")[0]), said
    assert not page.script_errors


def test_the_virtual_table_presses_the_buttons_in_order_from_keys_and_clicks(companion, phones):
    page = controller(phones, companion)
    page.goto(f"{companion.url}/virtual")
    live(page)
    page.click("[data-key=ok]")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("r")  # held a moment at the table: BACK must still come after it
    page.keyboard.press("Escape")
    expect(page.locator("#keys .pressed")).to_have_count(0)
    assert companion.wait_for_presses(4) == ["ok", "down", "roll", "back"]
    # The mirror's image has loaded (read as a property: the page's CSP
    # forbids evaluating a string, which a polled function may need).
    expect(page.locator("#oled")).to_have_js_property("naturalWidth", 128)
    shot(page, "virtual")


def test_the_panel_speaks_french_and_follows_a_dark_screen(companion, phones):
    start_call_of_nature(companion)
    page = controller(phones, companion, scheme="dark", locale="fr-FR")
    page.wait_for_selector("#pressure")
    assert page.inner_text("#conn") == "Connecté"
    assert page.inner_text(".pressure-label").lower() == "pression"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(11, 13, 16)"
    shot(page, "table-french-dark")
    page.click("#lang-switch")
    page.wait_for_selector("html[lang=en] #conn[data-state=live]")
    assert page.inner_text("#conn") == "Connected"


def test_every_touch_target_in_the_dock_is_at_least_48_pixels_high_and_44_wide(companion, phones):
    # 44 CSS pixels wide lets a Call of Nature card's numbers, eight to a
    # row, all sit in the dock of a 390-pixel phone (WCAG's 44 for a target).
    start_call_of_nature(companion)
    page = controller(phones, companion)
    page.wait_for_selector(".number-grid")
    sizes = page.evaluate("""() => [...document.querySelectorAll('#dock button')]
        .map(b => [b.textContent.trim(), b.getBoundingClientRect().height,
                   b.getBoundingClientRect().width])""")
    small = [(label, h, w) for label, h, w in sizes if h < 48 or w < 44]
    assert page.locator("#dock .number-key").count() == 31
    assert sizes and small == []


def test_ohshit_piles_show_coloured_counts_constipation_and_the_dead(companion, phones):
    companion.table.new_game("ohshit", ["Ana", "Ben"])
    page = controller(phones, companion)
    page.click("[data-command=poop]")
    page.click(".field[data-param=target] .option[data-value='1']")
    page.click(".field[data-param=colour] .option[data-value=spicy]")
    page.click("#sheet button[type=submit]")
    spicy = page.locator(".player[data-seat='1'] .poop[data-kind=spicy]")
    expect(spicy).to_have_text("1")
    expect(spicy).to_have_css("background-color", "rgb(214, 40, 40)")
    companion.table.submit(Command("constipation", {"target": "Ana"}))
    expect(page.locator(".player[data-seat='0'] .badge")).to_have_text("constipated")
    shot(page, "ohshit")
    companion.table.submit(Command("kill", {"player": "Ben"}))
    expect(page.locator(".player[data-seat='1'] .badge.dead")).to_have_text("dead")
    expect(page.locator("#result")).to_contain_text("Ana wins!")
    assert page.script_errors == []


def test_bathroom_rush_shows_the_queues_door_first_and_the_reserves(companion, phones):
    companion.table.new_game("bathroom-rush", ["Ana", "Ben"])
    companion.table.submit(Command("choose-queue", {"queue": 1}))
    companion.table.submit(Command("choose-queue", {"queue": 2}))
    page = controller(phones, companion)
    page.wait_for_selector(".queue")
    assert page.locator(".queue").count() == 3
    expect(page.locator(".queue.free .queue-owner")).to_contain_text("Queue 3 · free")
    first = page.locator(".queue[data-queue='1'] .queue-line > *")
    assert first.nth(0).inner_text() == "WC"
    assert page.locator(".queue[data-queue='1'] .pawn").inner_text() == "A"
    expect(page.locator(".player[data-seat='1'] .reserve")).to_contain_text("/3")
    page.click(".queue[data-queue='1'] .persona.pending >> nth=0")
    page.click(".field[data-param=pipi] .option[data-value='2']")
    page.click(".field[data-param=popo] .option[data-value='1']")
    page.click(".field[data-param=colour] .option[data-value=orange]")
    page.click("#sheet button[type=submit]")
    revealed = page.locator(".queue[data-queue='1'] .persona.orange")
    expect(revealed).to_have_attribute("aria-label", "2 pipì, 1 popò printed")
    shot(page, "bathroom-rush")
    assert page.script_errors == []


def test_with_a_box_described_a_bathroom_rush_reveal_is_one_tap_on_a_kind(companion, phones):
    box = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 30},
           {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 1}]
    companion.table.new_game("bathroom-rush", ["Ana", "Ben"], options={"box": box})
    companion.table.submit(Command("choose-queue", {"queue": 1}))
    companion.table.submit(Command("choose-queue", {"queue": 2}))
    page = controller(phones, companion)
    page.wait_for_selector(".br-kinds")
    expect(page.locator(".br-kinds h2")).to_have_text(
        "Ana — Which Persona is in the bathroom of queue 1?")
    expect(page.locator(".br-kinds .persona-kind")).to_have_text(["Signora ×30", "Anziano ×1"])
    page.click(".br-kinds .persona-kind[data-kind=Anziano]")
    revealed = page.locator(".queue[data-queue='1'] .persona.orange")
    expect(revealed).to_have_attribute("aria-label", "2 pipì, 0 popò printed")
    # All the copies of the Elderly Man are seen: the kind is no longer offered.
    expect(page.locator(".br-kinds .persona-kind")).to_have_text(["Signora ×30"])
    assert page.script_errors == []


def test_a_respite_offers_the_roll_button_or_die_entry_as_the_dice_source_says(companion, phones):
    start_call_of_nature(companion)
    companion.table.submit(Command("set-pressure", {"value": 40}))
    page = controller(phones, companion)
    play_card(page, 10)  # Ana lands on 50: a Respite
    expect(page.locator("#roll")).to_have_text("⚄ ROLL d6")
    assert page.locator(".die").count() == 0
    page.click("#roll")
    expect(page.locator("#prompt")).to_have_text("Ben plays a card")
    assert companion.table.history()[-1].source == "dice"

    page.click("#corrections")
    page.click("#sheet [data-source=manual]")
    expect(page.locator("#sheet [data-source=manual]")).to_have_attribute("aria-pressed", "true")
    page.click("#sheet button[value=close]")
    assert companion.dice.source == "manual"
    play_card(page, 30)  # Ben lands on 80: a Respite, entered by hand now
    expect(page.locator(".die")).to_have_count(6)
    assert page.locator("#roll").count() == 0
    page.click(".die[data-face='2']")
    expect(page.locator("#prompt")).to_have_text("Cy plays a card")
    assert companion.table.history()[-1].command.args == {"values": [2], "player": 1}
    assert page.script_errors == []


def test_a_game_without_a_board_of_its_own_is_played_from_its_description(
        companion, phones, tally_game):
    companion.table.new_game(tally_game, ["Ana", "Ben"])
    page = controller(phones, companion)
    page.click("[data-command=add]")
    page.click(".field[data-param=amount] .option[data-value='3']")
    page.click("#sheet button[type=submit]")
    expect(page.locator(".kv dd").first).to_have_text("3")
    expect(page.locator(".player.active .name")).to_contain_text("Ben")
    assert companion.table.history()[-1].command.args == {"amount": 3, "player": 0}
    assert page.script_errors == []


# Colours other than the palette's first three, so that keeping them shows.
CHOSEN_COLOURS = ["#8e44ad", "#e89a00", "#00a3a3"]


def finished_call_of_nature(companion) -> int:
    """Ana, Ben and Cy's game with a variant, narrower cards and colours of
    their own, ended at the table: Ben exploded.  Returns its id."""
    started = companion.table.new_game("call-of-nature", ["Ana", "Ben", "Cy"],
                                       variants=["no-end-roll"],
                                       options={"min_value": -20, "max_value": 20})
    companion.app.extensions["companion"].colours.choose(started.game_id, CHOSEN_COLOURS)
    companion.table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}),
                           source="buttons")
    return started.game_id


def colours_of(companion, game_id: int) -> list[str]:
    return companion.app.extensions["companion"].colours.of(game_id, 3)


def test_play_again_starts_the_same_game_and_is_offered_to_controllers_only(companion, phones):
    ended = finished_call_of_nature(companion)
    ana = controller(phones, companion)
    watcher = phones()
    watcher.goto(companion.url)
    live(watcher)
    expect(watcher.locator("#result")).to_contain_text("Ana, Cy share the win!")
    expect(watcher.locator("#play-again")).to_have_count(0)
    expect(ana.locator("#again-starts")).to_have_text(
        "Same seats and colours · Ana starts")
    expect(ana.locator("#other-game")).to_have_attribute("href", "/setup")
    shot(ana, "table-play-again")
    ana.click("#play-again")
    expect(ana.locator("#result")).to_be_hidden()
    expect(ana.locator("#prompt")).to_have_text("Ana plays a card")
    expect(watcher.locator("#result")).to_be_hidden()
    expect(watcher.locator("#pressure")).to_have_text("0")
    again = companion.table.current()
    assert [(g["id"], g["status"]) for g in companion.table.games()] == \
        [(ended, "over"), (again.game_id, "playing")]
    assert again.setup == {"players": ["Ana", "Ben", "Cy"], "variants": ["no-end-roll"],
                           "options": {"min_value": -20, "max_value": 20}}
    assert colours_of(companion, again.game_id) == CHOSEN_COLOURS
    assert ana.script_errors == [] and watcher.script_errors == []


def test_play_again_can_let_the_next_seat_start_and_everyone_keeps_their_colour(
        companion, phones):
    finished_call_of_nature(companion)
    page = controller(phones, companion)
    page.click("#rotate")
    expect(page.locator("#again-starts")).to_have_text(
        "Same seats and colours · Ben starts")
    page.click("#play-again")
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#prompt")).to_have_text("Ben plays a card")
    again = companion.table.current()
    assert again.players == ("Ben", "Cy", "Ana")
    assert colours_of(companion, again.game_id) == ["#e89a00", "#00a3a3", "#8e44ad"]
    assert page.script_errors == []


def test_signing_every_phone_out_from_the_setup_page_asks_first(companion, phones):
    start_call_of_nature(companion)
    ana = controller(phones, companion)
    ben = controller(phones, companion)
    old_pin = companion.pin
    ana.click("a[href='/setup']")
    live(ana)
    expect(ana.locator("#phones-box")).to_be_visible()
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    ana.once("dialog", lambda dialog: answer(dialog, False))
    ana.click("#sign-out")
    expect(ana.locator("#phones-box")).to_be_visible()
    assert companion.pin == old_pin and len(asked) == 1
    ana.once("dialog", lambda dialog: answer(dialog, True))
    ana.click("#sign-out")
    expect(ana.locator("#phones-box")).to_be_hidden()
    expect(ana.locator("#start")).to_have_text("Join with PIN")
    assert companion.pin != old_pin
    # Ben's phone still shows the pad; the table refuses it and says why.
    pick_number(ben, 5)
    ben.click(".card-play[data-value='5']")
    expect(ben.locator("#toast")).to_contain_text("only watches")
    assert companion.table.version == 0
    expect(ben.locator(".number-grid")).to_have_count(0)
    assert ana.script_errors == [] and ben.script_errors == []


def test_without_a_box_a_bathroom_rush_reveal_is_one_tap_on_its_colour_and_tokens(companion,
                                                                                  phones):
    companion.table.new_game("bathroom-rush", ["Ana", "Ben"])
    companion.table.submit(Command("choose-queue", {"queue": 1}))
    companion.table.submit(Command("choose-queue", {"queue": 2}))
    page = controller(phones, companion)
    page.wait_for_selector(".br-printed")
    expect(page.locator(".br-printed h2")).to_contain_text(
        "Reveal the Persona in the bathroom of queue 1")
    shot(page, "bathroom-rush-reveal-printed")
    # A row per colour, each with the usual tokens: one tap.
    expect(page.locator(".br-printed .printed-row")).to_have_count(4)
    page.click(".br-printed .persona-printed[data-colour=orange][data-pipi='2'][data-popo='1']")
    revealed = page.locator(".queue[data-queue='1'] .persona.orange")
    expect(revealed).to_have_attribute("aria-label", "2 pipì, 1 popò printed")
    expect(page.locator(".br-printed h2")).not_to_contain_text(
        "in the bathroom of queue 1")
    page.click(".br-printed .persona-printed[data-colour=neutral][data-pipi='1'][data-popo='0']")
    expect(page.locator(".persona.neutral")).to_have_count(1)
    assert page.script_errors == []


def test_the_box_is_described_once_shared_as_a_file_and_used_by_new_games(
        companion, phones, tmp_path):
    page = controller(phones, companion)
    page.goto(f"{companion.url}/box")
    page.wait_for_selector(".box-kind")
    first = page.locator(".box-kind").nth(0)
    first.locator("[data-field=name]").fill("Signora")
    first.locator("[data-field=copies]").fill("40")
    page.click("#add-kind")
    second = page.locator(".box-kind").nth(1)
    second.locator("[data-field=name]").fill("Anziano")
    second.locator("[data-field=colour]").select_option("orange")
    second.locator("[data-field=pipi]").fill("2")
    second.locator("[data-field=copies]").fill("3")
    expect(page.locator("#box-summary")).to_have_text("2 kinds, 43 Persona cards")
    shot(page, "bathroom-rush-box")
    page.click("#save-box")
    kept = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 40},
            {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 3}]
    expect(page.locator(".toast").last).to_contain_text("The box is kept")
    assert companion.table.saved_options("bathroom-rush") == {"box": kept}

    # A bad kind is refused with the companion's reason, and the kept box stays.
    page.locator(".box-kind").nth(1).locator("[data-field=copies]").fill("0")
    page.click("#save-box")
    expect(page.locator("#box-error")).to_contain_text("copies")
    assert companion.table.saved_options("bathroom-rush") == {"box": kept}

    with page.expect_download() as download:
        page.click("#export-box")
    exported = tmp_path / "box.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text())[0] == kept[0]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#forget-box")
    expect(page.locator(".toast").last).to_contain_text("forgotten")
    assert companion.table.saved_options("bathroom-rush") == {}
    exported.write_text(json.dumps(kept))
    page.set_input_files("#import-box", str(exported))
    expect(page.locator("#box-summary")).to_have_text("2 kinds, 43 Persona cards")
    assert companion.table.saved_options("bathroom-rush") == {"box": kept}

    # The setup page offers the box, never as JSON, and a new game starts with it.
    page.goto(f"{companion.url}/setup")
    page.click("[data-game=bathroom-rush]")
    expect(page.locator("#box-facts")).to_have_text("2 kinds, 43 Persona cards")
    expect(page.locator("#options textarea")).to_have_count(0)
    while page.locator("#players li").count() < 3:
        page.click("#add-player")
    for seat, name in enumerate(["Ana", "Ben", "Cy"]):
        page.fill(f"input[data-seat='{seat}']", name)
    page.click("#start")
    page.wait_for_url(f"{companion.url}/")
    assert [k["name"] for k in companion.table.current().state["box"]] == ["Signora", "Anziano"]
    # Each player stands at the end of a queue with one tap on it.
    for queue, name in ((2, "Ana"), (3, "Ben"), (1, "Cy")):
        stand = page.locator(f".queue[data-queue='{queue}'] .stand")
        expect(stand).to_have_text(f"{name}: stand here")
        stand.click()
        expect(page.locator(f".queue[data-queue='{queue}'] .pawn")).to_have_text(name[0])
    expect(page.locator(".stand")).to_have_count(0)
    assert [r["queue"] for r in companion.table.current().state["reserves"]] == [2, 3, 1]
    expect(page.locator(".br-kinds .persona-kind")).to_have_text(["Signora ×40", "Anziano ×3"])
    shot(page, "bathroom-rush-reveal-kind")
    assert page.script_errors == []
