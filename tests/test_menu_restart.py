"""After a restart the table screen comes back to the game: the Join screens
the Wi-Fi puts up as the companion starts (its own Wi-Fi's QR code, then
the panel's and its PIN) give the screen back to the game being played on
the first move, from a phone or the keys, or on the first key."""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from companion.core.menu import TableMenu

JOIN = ("http://10.42.0.1:8080/?join=T0KEN", "482193")
HOTSPOT = ("Companion-4821", "k7m2q9txhc")


@pytest.fixture
def restarted(table, reopen):
    """A Call of Nature game under way, the companion restarted, and its
    menu as the screen starts it; ``hotspot``: on its own Wi-Fi."""
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    table.submit(Command("card", {"value": 5}))

    def make(hotspot: bool = True) -> tuple[TableMenu, object]:
        again = reopen()
        menu = TableMenu(again, join_info=lambda: JOIN,
                         wifi=(lambda: HOTSPOT) if hotspot else (lambda: None))
        again.subscribe(menu.on_update)
        menu.show_join()  # the Wi-Fi's news as the companion starts
        return menu, again

    return make


@pytest.mark.parametrize("hotspot", [True, False], ids=["own-wifi", "venue-wifi"])
def test_a_move_from_a_phone_brings_the_game_back(restarted, hotspot):
    menu, table = restarted(hotspot)
    assert menu.view().kind == ("wifi" if hotspot else "qr")
    table.submit(Command("card", {"value": 4}), source="panel")
    view = menu.view()
    assert view.kind == "game"
    assert view.footer == "Cy plays a card"


def test_the_first_key_over_a_game_being_played_is_the_game(restarted):
    menu, _ = restarted(hotspot=True)
    menu.on_key("down")
    view = menu.view()
    assert (view.kind, view.footer) == ("game", "Ben plays a card")


def test_the_panels_codes_stay_one_menu_away(restarted):
    menu, _ = restarted(hotspot=True)
    menu.on_key("ok")
    menu.on_key("back")
    items = menu.view().items
    for _ in range(items.index("Join (QR code)")):
        menu.on_key("down")
    menu.on_key("ok")
    assert menu.view().kind == "wifi"
    menu.on_key("ok")
    assert (menu.view().kind, menu.view().pin) == ("qr", JOIN[1])


def test_codes_asked_for_are_not_taken_away_by_a_move(restarted):
    menu, table = restarted(hotspot=False)
    menu.on_key("ok")
    menu.on_key("back")
    items = menu.view().items
    for _ in range(items.index("Join (QR code)")):
        menu.on_key("down")
    menu.on_key("ok")
    assert menu.view().kind == "qr"
    table.submit(Command("card", {"value": 4}), source="panel")
    assert menu.view().kind == "qr"


def test_without_a_game_the_wifi_then_the_panels_codes_as_before(table):
    menu = TableMenu(table, join_info=lambda: JOIN, wifi=lambda: HOTSPOT)
    menu.show_join()
    menu.on_key("ok")
    assert (menu.view().kind, menu.view().pin) == ("qr", JOIN[1])
