"""Two QR codes, nothing to type: the Wi-Fi screen (its QR code decoded
from the rendered image), the table menu's Join that shows it before the
panel's, a known network offered from the menu, and the captive portal's
answers to the phones' connectivity checks.

The reference images are regenerated like the other screens':
``UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/test_wifi_join.py``;
a copy at 4x scale (``*-4x.png``) is written beside each, for review.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.core.menu import TableMenu
from drivers.menu_screens import render
from drivers.screens import wifi_qr_text, wifi_screen

zxingcpp = pytest.importorskip("zxingcpp")

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("UPDATE_REFERENCE") == "1"

CASES = {
    "wifi-hotspot": ("Companion-4821", "k7m2q9txhc"),
    "wifi-special-characters": ('Café; "Libre"', r"pass:word\x,y"),
    "wifi-long-name": ("The games table upstairs", "k7m2q9txhc"),
}


def decoded(image: Image.Image) -> list[str]:
    """What a QR decoder reads off the image, at the OLED's own pixels, an
    address with its scheme and host in lower case as a browser reads them
    (the panel's code carries them in capitals: a smaller code)."""
    return [as_browser_reads(found.text)
            for found in zxingcpp.read_barcodes(image.convert("L"))
            if found.format == zxingcpp.BarcodeFormat.QRCode]


def as_browser_reads(text: str) -> str:
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        return text
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{host.lower()}{slash}{path}"


# -- the Wi-Fi QR code ------------------------------------------------------------------------


def test_the_wifi_qr_text_is_wpa_with_name_and_password():
    assert wifi_qr_text("Companion-4821", "k7m2q9txhc") == \
        "WIFI:T:WPA;S:Companion-4821;P:k7m2q9txhc;;"


def test_the_formats_special_characters_are_escaped():
    assert wifi_qr_text('Café; "Libre"', r"pass:word\x,y") == \
        r'WIFI:T:WPA;S:Café\; \"Libre\";P:pass\:word\\x\,y;;'


@pytest.mark.parametrize("name", CASES)
def test_the_wifi_screen_matches_its_reference(name, tmp_path):
    image = wifi_screen(*CASES[name])
    assert image.mode == "1" and image.size == (128, 64)
    reference = REFERENCE / f"{name}.png"
    if UPDATE or not reference.exists():
        image.save(reference)
        image.resize((512, 256), Image.Resampling.NEAREST).save(REFERENCE / f"{name}-4x.png")
        if not UPDATE:
            pytest.fail(f"wrote missing reference {reference.name}; look at it and commit it")
    difference = ImageChops.difference(image, Image.open(reference).convert("1")).getbbox()
    if difference is not None:
        image.save(tmp_path / f"{name}.png")
    assert difference is None, f"{name} differs from its reference within {difference}"


@pytest.mark.parametrize("name", CASES)
def test_a_phone_camera_reads_the_exact_wifi_string_off_the_screen(name):
    ssid, passphrase = CASES[name]
    assert decoded(wifi_screen(ssid, passphrase)) == [wifi_qr_text(ssid, passphrase)]


def test_the_reference_image_itself_holds_the_wifi_string():
    committed = Image.open(REFERENCE / "wifi-hotspot.png")
    assert decoded(committed) == ["WIFI:T:WPA;S:Companion-4821;P:k7m2q9txhc;;"]


# -- the menu: the Wi-Fi first, then the panel -----------------------------------------------


class NoTable:
    def current(self):
        from companion.core.errors import NoGame

        raise NoGame("no game")


def menu(wifi=None, offer=None, switch=None) -> TableMenu:
    return TableMenu(NoTable(), join_info=lambda: ("http://10.42.0.1:8080/?join=T0KEN", "482193"),
                     wifi=wifi, network_offer=offer, switch_network=switch)


def test_on_the_hotspot_join_shows_the_wifi_then_one_key_later_the_panel():
    table_menu = menu(wifi=lambda: ("Companion-4821", "k7m2q9txhc"))
    table_menu.show_join()
    first = table_menu.view()
    assert (first.kind, first.title, first.pin) == ("wifi", "Companion-4821", "k7m2q9txhc")
    assert decoded(render(first)) == ["WIFI:T:WPA;S:Companion-4821;P:k7m2q9txhc;;"]
    table_menu.on_key("ok")
    second = table_menu.view()
    assert (second.kind, second.pin) == ("qr", "482193")
    assert decoded(render(second)) == ["http://10.42.0.1:8080/?join=T0KEN"]
    table_menu.on_key("ok")
    assert table_menu.view().kind == "game"


def test_on_a_venues_wifi_join_shows_the_panel_only():
    table_menu = menu(wifi=lambda: None)
    table_menu.show_join()
    assert table_menu.view().kind == "qr"


def test_the_main_menus_join_entry_also_starts_with_the_wifi():
    table_menu = menu(wifi=lambda: ("Companion-4821", "k7m2q9txhc"))
    table_menu.on_key("back")
    items = table_menu.view().items
    for _ in range(items.index("Join (QR code)")):
        table_menu.on_key("down")
    table_menu.on_key("ok")
    assert table_menu.view().kind == "wifi"


def test_a_known_network_in_reach_is_offered_by_the_menu_and_joined_on_ok():
    switched = []
    table_menu = menu(wifi=lambda: ("Companion-4821", "k7m2q9txhc"), offer=lambda: "Home",
                      switch=lambda: switched.append("Home"))
    table_menu.on_key("back")
    view = table_menu.view()
    assert view.items[0] == "Wi-Fi: Home"
    table_menu.on_key("ok")
    asked = table_menu.view()
    assert asked.kind == "confirm" and "Join Home?" in asked.text
    table_menu.on_key("ok")
    assert switched == ["Home"]
    assert table_menu.view().kind == "game"


def test_nothing_on_offer_adds_no_wifi_entry():
    table_menu = menu(offer=lambda: None)
    table_menu.on_key("back")
    assert not any(item.startswith("Wi-Fi") for item in table_menu.view().items)


# -- the captive portal -----------------------------------------------------------------------

CHECKS = {
    "android": ["/generate_204", "/gen_204"],
    "ios and macos": ["/hotspot-detect.html", "/library/test/success.html"],
    "windows": ["/connecttest.txt", "/ncsi.txt", "/redirect"],
}
PANEL = "http://10.42.0.1:8080/"


@pytest.fixture
def portal():
    from web.portal import create_portal_app

    return create_portal_app(lambda: PANEL).test_client()


@pytest.mark.parametrize("system", CHECKS)
def test_a_phones_connectivity_check_on_port_80_leads_to_the_panel(portal, system):
    for path in CHECKS[system]:
        host = {"android": "connectivitycheck.gstatic.com", "ios and macos": "captive.apple.com",
                "windows": "www.msftconnecttest.com"}[system]
        answer = portal.get(path, headers={"Host": host})
        # Not the 204 / "Success" / "Microsoft Connect Test" they expect:
        # the phone says "sign in to the network" and opens the panel.
        assert answer.status_code == 302, path
        assert answer.headers["Location"] == PANEL
        assert answer.headers["Cache-Control"] == "no-store"


def test_any_other_address_on_port_80_leads_to_the_panel_too(portal):
    answer = portal.get("/some/page?q=1", headers={"Host": "example.org"})
    assert (answer.status_code, answer.headers["Location"]) == (302, PANEL)


@pytest.mark.parametrize("path", [p for paths in CHECKS.values() for p in paths])
def test_the_panel_itself_answers_the_checks_when_it_is_on_port_80(table, path):
    from web import PanelSettings, create_app

    app = create_app(table, PanelSettings(secret_key="k" * 64))
    answer = app.test_client().get(path, headers={"Host": "captive.apple.com"})
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/"


def test_the_portal_listens_on_its_own_port_and_stops(unused_port=0):
    import urllib.request

    from web.portal import create_portal_app, serve_portal

    server = serve_portal(create_portal_app(lambda: PANEL), "127.0.0.1", 0)
    try:
        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(f"http://127.0.0.1:{server.port}/generate_204", timeout=5)
        except urllib.error.HTTPError as answer:
            assert (answer.code, answer.headers["Location"]) == (302, PANEL)
        else:
            raise AssertionError("no redirect")
    finally:
        server.close()
    assert not server.alive


# -- the simulated companion: the virtual table starts on the Wi-Fi -------------------------


def test_the_simulated_companion_shows_its_wifi_then_the_panel_on_the_virtual_table(tmp_path):
    import io
    import time

    from companion.daemon import Daemon
    from companion.host.config import Config

    config = Config(data_dir=str(tmp_path / "data")).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    try:
        ssid, passphrase = running.part("network").wifi_join()

        def screen_says(expected: list[str]) -> bool:
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                if decoded(Image.open(io.BytesIO(running.part("screen").png()))) == expected:
                    return True
                time.sleep(0.05)
            return False

        assert screen_says([wifi_qr_text(ssid, passphrase)])
        running.part("keypad").press("ok")
        access, port = running.part("panel").access, running.part("panel").port
        assert screen_says([access.join_url(f"http://{running.part('address').host}:{port}")])
    finally:
        running.stop()
