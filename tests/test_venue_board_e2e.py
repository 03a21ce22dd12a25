"""The venue board in Chromium: two companions in simulation play on a real
Mosquitto, and the board's page (``companion venue``) shows both tables
live on a TV (1920x1080) and on a phone (390x844), then the league, in
English, French and Italian (read by the language crawl's checks); a
controller puts a table in the venue from the setup page once the owner
allowed it at the table."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import urllib.request

import pytest

from tests.language_check import problems
from tests.mosquitto import free_port
from tests.test_venue_broker import ROOT, WAIT, broker, companions  # noqa: F401  (fixtures)
from tests.test_web_e2e import SCREENSHOTS, browser  # noqa: F401  (fixtures)
from tests.test_web_fair import wait_until

pytestmark = pytest.mark.browser
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def board(tmp_path, broker):  # noqa: F811
    password = tmp_path / "board-password"
    password.write_text("pw-board\n")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "venue", "--broker", f"127.0.0.1:{broker.port}",
         "--username", "board", "--password-file", str(password), "--host", "127.0.0.1",
         "--port", str(port), "--db", str(tmp_path / "board.db"), "--title", "Café des Jeux"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said: list[str] = []
    up = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            said.append(line)
            if "venue board on" in line:
                up.set()

    threading.Thread(target=read, daemon=True).start()
    assert up.wait(WAIT), "".join(said)
    yield f"http://127.0.0.1:{port}/"
    process.terminate()
    process.wait(30)
    assert "pw-board" not in "".join(said)  # the board's password never reaches its log


def test_two_tables_are_live_on_the_board_on_a_tv_and_a_phone(companions, board,  # noqa: F811
                                                              browser):  # noqa: F811
    from playwright.sync_api import expect

    a, b = companions("table-a"), companions("table-b")
    a.start()
    b.start()
    a.new_game(["Ana", "Ben"])
    b.new_game(["Cy", "Dee", "Eve"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tv = browser.new_page(viewport=TV)
    tv.goto(board)
    cards = tv.locator("article.table")
    expect(cards).to_have_count(2)
    expect(tv.locator('[data-table="table-b"] li.turn')).to_have_text(re.compile("^Cy"))
    b.play("card", value=7)  # the board follows without being reloaded
    expect(tv.locator('[data-table="table-b"] li.turn')).to_have_text(re.compile("^Dee"))
    a.play("card", value=10)
    a.play("adjust-mastery", player="Ben", delta=-7)  # Ben explodes: Ana wins
    expect(tv.locator('[data-table="table-a"] .game')).to_contain_text("Ana")
    expect(tv.locator("#league-body caption")).to_have_text("Call of Nature · 1 game")
    expect(tv.locator("#league-body tr", has_text="Ana")).to_contain_text("1")
    tv.screenshot(path=str(SCREENSHOTS / "venue-board-tv.png"))
    assert tv.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    phone = browser.new_page(viewport=PHONE)
    phone.goto(board + "?lang=fr")
    expect(phone.locator("article.table")).to_have_count(2)
    expect(phone.locator("#league-title")).to_have_text("Championnat")
    phone.screenshot(path=str(SCREENSHOTS / "venue-board-phone-fr.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    names = {"Ana", "Ben", "Cy", "Dee", "Eve", "Table", "A", "B", "Call", "of", "Nature"}
    for lang, words in (("en", "1 game"), ("fr", "1 partie"), ("it", "1 partita")):
        phone.goto(board + f"?lang={lang}")
        expect(phone.locator("#league-body caption")).to_contain_text(words)
        expect(phone.locator("#status")).not_to_be_empty()
        lines = [line.strip() for line in phone.evaluate("document.body.innerText").split("\n")
                 if line.strip()]
        assert problems(lines, lang, names) == [], lang
    with urllib.request.urlopen(board + "api/league.csv?period=season", timeout=30) as answer:
        csv = answer.read().decode()
    assert csv.splitlines()[0].startswith("game,player,played,won")
    assert any(line.startswith("call-of-nature,Ana,1,1,100") for line in csv.splitlines())
    a.stop()  # a table switched off: the board says so
    expect(tv.locator('[data-table="table-a"]')).to_have_class(re.compile("offline"))


def test_a_controller_puts_the_table_in_the_venue_from_the_setup_page(companions, board,  # noqa: F811
                                                                      browser):  # noqa: F811
    from playwright.sync_api import expect

    a = companions("table-a", venue=False)
    a.start()
    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"http://127.0.0.1:{a.port}/?join={a.join_token}")
    phone.goto(f"http://127.0.0.1:{a.port}/setup")
    expect(phone.locator("#venue-status")).to_have_text("This table is in no venue.")
    phone.click("#venue-details summary")
    phone.fill("#venue-broker", "127.0.0.1")
    phone.fill("#venue-port", str(a.broker.port))
    phone.fill("#venue-venue", "Cafe")
    phone.fill("#venue-table", "Table A")
    phone.fill("#venue-username", "table-a")
    phone.fill("#venue-password", "pw-a")
    phone.click("#venue-save")
    # The PIN alone is not enough: the owner allows it at the table first.
    expect(phone.locator("#venue-error")).to_contain_text("Allow it at the table first")
    expect(phone.locator("#venue-locked")).to_be_visible()
    phone.locator("#venue-box").screenshot(path=str(SCREENSHOTS / "venue-settings-locked.png"))
    # At the table: BACK twice puts away the Wi-Fi's and the panel's QR codes
    # shown once the companion is its own Wi-Fi (its Wi-Fi part starts after
    # the panel answers: the keys wait for it, as a player waits for the
    # screen), BACK opens the menu, UP UP reaches Venue, OK asks, OK allows.
    assert wait_until(lambda: a.get("/api/network")["mode"] == "hotspot")
    for key in ("back", "back", "back", "up", "up", "ok"):
        a.post(f"/api/keys/{key}", {})
    expect(phone.locator("#venue-error")).to_be_visible()
    with urllib.request.urlopen(f"http://127.0.0.1:{a.port}/api/screen.png",
                                timeout=30) as answer:  # what the table's screen asks
        (SCREENSHOTS / "venue-allow-at-the-table.png").write_bytes(answer.read())
    a.post("/api/keys/ok", {})
    # The keys are taken in turn by the screen's thread, after their answer.
    assert wait_until(lambda: a.get("/api/venue")["changes_allowed"] is True)
    phone.click("#venue-save")
    expect(phone.locator("#venue-status")).to_contain_text("Publishing on companion/cafe/table-a")
    expect(phone.locator("#venue-password")).to_have_attribute("placeholder", re.compile("kept"))
    phone.locator("#venue-box").screenshot(path=str(SCREENSHOTS / "venue-settings.png"))
    a.new_game(["Ana", "Ben"])
    tv = browser.new_page(viewport=TV)
    tv.goto(board)
    expect(tv.locator('[data-table="table-a"] li.turn')).to_have_text(re.compile("^Ana"))
