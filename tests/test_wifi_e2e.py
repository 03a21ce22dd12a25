"""The panel's Wi-Fi page in headless Chromium, on the simulated companion
(its stand-in network manager): a controller picks the place's Wi-Fi,
types its password, and the companion joins it; the password is gone from
the page once typed."""

from __future__ import annotations

import io
import re
import time

import pytest

from tests.test_web_e2e import PHONE, browser  # noqa: F401  (the module's browser fixture)

pytestmark = pytest.mark.browser


@pytest.fixture
def companion(tmp_path):
    from companion.daemon import Daemon
    from companion.host.config import Config

    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    assert running.ready()
    yield running
    running.stop()


def screen_qr(companion) -> list[str]:
    """The QR codes on the table's screen now, as a phone reads them."""
    from PIL import Image

    zxingcpp = pytest.importorskip("zxingcpp")
    image = Image.open(io.BytesIO(companion.part("screen").png())).convert("L")
    return [found.text for found in zxingcpp.read_barcodes(image)]


def case_of_path(url: str) -> str:
    """``url`` with its scheme and host in lower case, as a browser reads it."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{host.lower()}{slash}{path}"


def wait_for(check, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := check():
            return result
        time.sleep(0.05)
    return None


def wifi_page(browser, companion):  # noqa: F811
    """A controller's phone on the panel's Wi-Fi page."""
    page = browser.new_page(viewport=PHONE)
    base = f"http://127.0.0.1:{companion.part('panel').port}"
    page.goto(companion.part("panel").access.join_url(base))
    page.goto(base + "/wifi")
    return page


def try_password(page, ssid: str, password: str) -> None:
    page.locator(".wifi-row", has_text=ssid).locator(".wifi-pick").click()
    page.fill("#wifi-password", password)
    page.click("#sheet button[type=submit]")


def test_a_controller_joins_the_places_wifi_from_the_panel(browser, companion):  # noqa: F811
    from playwright.sync_api import expect

    access = companion.part("panel").access
    page = wifi_page(browser, companion)
    try:
        expect(page.locator("#wifi-mode")).to_contain_text("its own Wi-Fi: Companion-")
        ssid, passphrase = companion.part("network").wifi_join()
        assert wait_for(lambda: screen_qr(companion) == [f"WIFI:T:WPA;S:{ssid};P:{passphrase};;"])
        cafe = page.locator(".wifi-row", has_text="Café Libre")
        try_password(page, "Café Libre", "wrong-password")
        expect(page.locator("#wifi-error")).to_have_text(
            "Could not join Café Libre: the password is wrong")
        try_password(page, "Café Libre", "croissant")
        expect(page.locator("#wifi-mode")).to_have_text(re.compile(r"On Café Libre \("))
        assert "croissant" not in page.content()
        assert page.locator("#wifi-password").count() == 0 or \
            page.locator("#wifi-password").input_value() == ""
        # The table's screen shows the panel's QR code (and its PIN) again.
        # (The scheme and host come in capitals, which URLs do not tell
        # apart: the code is smaller for it.)
        assert wait_for(lambda: [case_of_path(qr) for qr in screen_qr(companion)] == [
            case_of_path(access.join_url(f"http://{companion.part('address').host}:{companion.part('panel').port}"))])
        # Remembered, and forgotten with one tap.
        page.click("#wifi-refresh")
        expect(cafe.locator(".wifi-forget")).to_be_visible()
        cafe.locator(".wifi-forget").click()
        expect(cafe.locator(".wifi-forget")).to_have_count(0)
    finally:
        page.close()


def test_a_failed_join_is_said_in_the_tables_language_on_the_phone_and_the_screen(
        browser, companion):  # noqa: F811
    from playwright.sync_api import expect

    from companion.core.menu import ViewKind

    companion.table_part.table.change_setting("language", "fr")
    page = wifi_page(browser, companion)
    try:
        expect(page.locator("#wifi-mode")).to_contain_text("Companion-")
        try_password(page, "Café Libre", "wrong-password")
        expect(page.locator("#wifi-error")).to_have_text(
            "Impossible de rejoindre Café Libre : le mot de passe est faux")
        # The table's screen says it too, over the Join screen.
        said = ("Impossible de rejoindre Café Libre : le mot de passe est faux. "
                "Retour sur le Wi-Fi du compagnon")
        view = wait_for(lambda: (v := companion.part("screen").menu.view()).text == said and v)
        assert view and view.kind == ViewKind.MESSAGE
    finally:
        page.close()
