"""Pixels dice paired at the table: a look for the dice in reach (name,
battery), pairing one, giving it a role, forgetting it, from the button
menu and from the panel, through the stand-in BLE client and scanner of
tests/test_pixels.py; and the dice paired so kept across a restart."""

from __future__ import annotations

import json
import threading

import pytest

from companion.core.journal import Journal
from companion.core.menu import TableMenu, ViewKind
from companion.core.table import Table
from drivers.pixels import PixelsDice, advertised_battery
from tests.test_pixels import ROLLING, WAIT, Air, on_face
from web import PanelSettings, Services, create_app

DIE = "F0:12:34:56:78:9A"
OTHER = "F0:12:34:56:78:9B"


class Changes:
    """Counts the dice's ``on_change`` calls; waits on a condition."""

    def __init__(self) -> None:
        self.changed = threading.Condition()

    def __call__(self) -> None:
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, predicate) -> bool:
        with self.changed:
            return self.changed.wait_for(predicate, WAIT)


@pytest.fixture
def room():
    air = Air()
    air.in_reach |= {DIE, OTHER}
    air.adverts = {DIE: ("Pixel Red", 76), OTHER: ("Pixel Six", None)}
    changes = Changes()
    rolls: list[tuple[str, int | None, int]] = []
    hub = PixelsDice(lambda role, sides, value: rolls.append((role, sides, value)),
                     factory=air.factory, scanner=air.scanner, delays=(0.01,),
                     on_change=changes).start()
    air.loop = hub._loop
    yield air, hub, changes, rolls
    hub.stop()


def look_done(hub, changes) -> None:
    assert changes.wait_for(lambda: not hub.looking)


# -- the driver ------------------------------------------------------------------


def test_the_battery_a_die_advertises():
    assert advertised_battery({0xFFFF: bytes([6, 5, 1, 2, 0x80 | 57])}) == 57
    assert advertised_battery({0xFFFF: bytes([6, 5, 1, 2, 57])}) == 57
    assert advertised_battery({0xFFFF: bytes([6, 5])}) is None
    assert advertised_battery({}) is None


# As a d20 advertises since July 2022: 20 LEDs, design and colour, on its face
# (roll state 1), index 19 up, 57 % and charging; the scan response's service
# data is its id and firmware date.
D20_MANUFACTURER = {0xFFFF: bytes([20, 0x21, 1, 19, 0x80 | 57])}
D20_SERVICE = {"6e400001-b5a3-f393-e0a9-e50e24dcca9e":
               (0x1234ABCD).to_bytes(4, "little") + (1_700_000_000).to_bytes(4, "little")}


def test_an_advertisement_gives_the_roll_state_the_face_and_the_battery():
    from drivers.pixels import Advertised, decode_advertisement

    assert decode_advertisement(D20_MANUFACTURER, D20_SERVICE) == Advertised(
        roll_state=1, face_index=19, battery_percent=57, charging=True)
    assert decode_advertisement(D20_MANUFACTURER) == Advertised(1, 19, 57, True)


def test_an_advertisement_from_before_july_2022_is_read_as_it_was_laid_out():
    from drivers.pixels import Advertised, decode_advertisement

    # Die id (4 bytes), roll state, face index, battery 0-255; no service data.
    old = {0x1405: (0x1234ABCD).to_bytes(4, "little") + bytes([3, 5, 191])}
    assert decode_advertisement(old) == Advertised(3, 5, 75, False)
    assert advertised_battery(old) == 75
    # The same 7 bytes beside service data are today's layout (bytes 2-4).
    assert advertised_battery(old, D20_SERVICE) == 3


def test_a_look_lists_the_dice_in_reach_with_their_battery_and_not_the_paired(room):
    air, hub, changes, _rolls = room
    assert hub.look() is True
    look_done(hub, changes)
    assert [(d.address, d.name, d.battery) for d in hub.in_reach()] == [
        (DIE, "Pixel Red", 76), (OTHER, "Pixel Six", None)]
    hub.pair(DIE, "Pixel Red")
    assert [d.address for d in hub.in_reach()] == [OTHER]
    assert air.wait_for(lambda: air.connected(DIE))


def test_forgetting_a_die_disconnects_it_and_a_die_never_paired_is_refused(room):
    air, hub, _changes, _rolls = room
    hub.pair(DIE, "Pixel Red", "d6")
    assert air.wait_for(lambda: air.connected(DIE))
    hub.forget(DIE)
    assert air.wait_for(lambda: not air.connected(DIE))
    assert hub.dice() == []
    with pytest.raises(KeyError):
        hub.forget(DIE)


# -- the button menu ---------------------------------------------------------------


def choose(menu: TableMenu, label: str) -> None:
    """Move to the entry that starts with ``label`` on the list shown, and OK."""
    view = menu.view()
    assert view.kind is ViewKind.LIST, view
    matches = [i for i, item in enumerate(view.items) if item.startswith(label)]
    assert matches, f"{label!r} not in {view.items}"
    while menu.view().index != matches[0]:
        menu.on_key("down")
    menu.on_key("ok")


def test_the_menu_pairs_a_die_in_reach_gives_it_a_role_and_forgets_it(room):
    air, hub, changes, rolls = room
    table = Table(Journal.open(":memory:"))
    menu = TableMenu(table, smart_dice=hub_port(hub))
    menu.on_key("back")
    choose(menu, "Pixels dice")
    assert menu.view().items == ("Find dice in reach",)
    choose(menu, "Find dice in reach")
    look_done(hub, changes)
    view = menu.view()
    assert view.title == "Dice in reach"
    assert view.items == ("Pixel Red 76%", "Pixel Six", "Look again")
    choose(menu, "Pixel Red 76%")
    assert menu.view().title == "Pixel Red"
    choose(menu, "Make it d6")
    assert air.wait_for(lambda: air.connected(DIE))
    assert changes.wait_for(lambda: hub.dice()[0].battery == 87)
    view = menu.view()
    assert view.title == "Pixels dice"
    assert view.items == ("d6: Pixel Red 87%", "Find dice in reach")
    # The die is the game's d6 now: its settled roll is heard as one.
    air.notify(DIE, ROLLING)
    air.notify(DIE, on_face(4))
    assert changes.wait_for(lambda: rolls == [("d6", 6, 4)])
    # Forget it: asked first.
    choose(menu, "d6: Pixel Red")
    choose(menu, "Forget it")
    assert menu.view().kind is ViewKind.CONFIRM
    menu.on_key("ok")
    assert menu.view().items == ("Find dice in reach",)
    assert air.wait_for(lambda: not air.connected(DIE))
    table.close()


def test_without_smart_dice_the_menu_offers_none():
    table = Table(Journal.open(":memory:"))
    menu = TableMenu(table)
    menu.on_key("back")
    assert not any(item.startswith("Pixels") for item in menu.view().items)
    table.close()


def hub_port(hub):
    """The driver as the menu's SmartDice, as PixelsPart gives it."""
    from companion.parts.hardware import PixelsPart
    from companion.parts.lifecycle import Setup

    part = PixelsPart(Setup())
    part.hub = hub
    return part


# -- the panel ----------------------------------------------------------------------


@pytest.fixture
def phone(room):
    air, hub, changes, _rolls = room
    table = Table(Journal.open(":memory:"))
    app = create_app(table, PanelSettings(secret_key="x", max_streams=0),
                     services=Services(pixels=hub_port(hub)))
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    yield app, client, csrf, air, hub, changes
    table.close()


def join(app, client, csrf):
    pin = app.extensions["companion"].access.pin
    assert client.post("/api/join", json={"pin": pin},
                       headers={"X-CSRF-Token": csrf}).status_code == 200


def test_a_spectator_neither_sees_nor_pairs_the_dice(phone):
    _app, client, csrf, _air, hub, _changes = phone
    assert client.get("/api/pixels").status_code == 403
    assert client.post("/api/pixels/look", headers={"X-CSRF-Token": csrf}).status_code == 403
    assert hub.looking is False and hub.in_reach() == []


def test_the_panel_looks_pairs_assigns_and_forgets(phone):
    app, client, csrf, air, hub, changes = phone
    join(app, client, csrf)
    headers = {"X-CSRF-Token": csrf}
    assert client.post("/api/pixels/look", headers=headers).status_code == 202
    look_done(hub, changes)
    found = client.get("/api/pixels").json
    assert found["in_reach"] == [
        {"address": DIE, "name": "Pixel Red", "role": None, "connected": False, "battery": 76},
        {"address": OTHER, "name": "Pixel Six", "role": None, "connected": False,
         "battery": None}]
    assert found["roles"] == ["red", "blue", "d6"] and found["dice"] == []
    paired = client.post("/api/pixels/pair", json={"address": DIE.lower(), "role": "red"},
                         headers=headers)
    assert paired.status_code == 200
    assert [(d["name"], d["role"]) for d in paired.json["dice"]] == [("Pixel Red", "red")]
    assert air.wait_for(lambda: air.connected(DIE))
    moved = client.post("/api/pixels/role", json={"address": DIE, "role": None},
                        headers=headers)
    assert moved.json["dice"][0]["role"] is None
    assert client.post("/api/pixels/forget", json={"address": DIE},
                       headers=headers).json["dice"] == []
    assert air.wait_for(lambda: not air.connected(DIE))


def test_the_panel_refuses_a_die_not_heard_a_bad_address_and_a_bad_role(phone):
    app, client, csrf, air, hub, _changes = phone
    join(app, client, csrf)
    headers = {"X-CSRF-Token": csrf}
    unheard = client.post("/api/pixels/pair", json={"address": DIE}, headers=headers)
    assert unheard.status_code == 404 and unheard.json["error"] == "not-in-reach"
    assert client.post("/api/pixels/pair", json={"address": "kitchen"},
                       headers=headers).status_code == 400
    assert client.post("/api/pixels/role", json={"address": DIE, "role": "green"},
                       headers=headers).status_code == 400
    unpaired = client.post("/api/pixels/forget", json={"address": DIE}, headers=headers)
    assert unpaired.status_code == 404 and unpaired.json["error"] == "not-paired"
    assert hub.dice() == [] and air.connects == {}


def test_without_smart_dice_the_panel_says_so():
    table = Table(Journal.open(":memory:"))
    app = create_app(table, PanelSettings(secret_key="x"))
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    join(app, client, csrf)
    answer = client.get("/api/pixels")
    assert answer.status_code == 404 and answer.json["error"] == "no-pixels"
    table.close()


# -- kept across a restart ------------------------------------------------------------


def pixels_part(air, directory, *, scanner=None):
    """The Pixels dice part as the daemon makes it, over ``air``."""
    from companion.parts.hardware import PixelsPart
    from companion.parts.lifecycle import Setup

    return PixelsPart(Setup(directory=directory), factory=air.factory if air else None,
                      scanner=scanner)


def test_a_die_paired_at_the_table_is_paired_again_at_the_next_start(tmp_path):
    from companion.parts.hardware import PAIRED_FILE

    air = Air()
    air.in_reach.add(DIE)
    air.adverts = {DIE: ("Pixel Red", 76)}
    part = pixels_part(air, tmp_path, scanner=air.scanner)
    part.start()
    assert part.hub is None  # nothing to pair: no Bluetooth, no thread, until asked
    part.pair(DIE, "Pixel Red", "blue")
    air.loop = part.hub._loop
    assert air.wait_for(lambda: air.connected(DIE))
    part.stop()
    assert json.loads((tmp_path / PAIRED_FILE).read_text())["dice"] == [
        {"address": DIE, "name": "Pixel Red", "role": "blue"}]

    again = Air()
    again.in_reach.add(DIE)
    part = pixels_part(again, tmp_path)
    part.start()
    again.loop = part.hub._loop
    try:
        assert again.wait_for(lambda: again.connected(DIE))
        assert [(d.name, d.role) for d in part.dice()] == [("Pixel Red", "blue")]
        part.forget(DIE)
        assert json.loads((tmp_path / PAIRED_FILE).read_text())["dice"] == []
    finally:
        part.stop()


def test_an_unreadable_pairing_file_is_taken_as_none(tmp_path, caplog):
    from companion.parts.hardware import PAIRED_FILE

    (tmp_path / PAIRED_FILE).write_text("{not json")
    part = pixels_part(None, tmp_path)
    assert part.paired_before() == []
    assert "cannot be read" in caplog.text
