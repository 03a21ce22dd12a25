"""Pixels smart dice: the protocol's bytes decoded, and dice kept connected
through a stand-in BLE client that plays those bytes as a die does; the
settled rolls reach the game through the dice tray, as the serial device's
do."""

from __future__ import annotations

import struct
import threading

import pytest

from companion.core.engine import Command, Dice, Setup
from companion.core.games.call_of_nature.game import CallOfNature
from drivers.dice import DiceTray, awaited_dice
from drivers.pixels import (
    NOTIFY,
    SERVICE,
    WRITE,
    BadPixelsMessage,
    BatteryLevel,
    IAmADie,
    OtherMessage,
    PixelsDice,
    RollState,
    decode,
)

WAIT = 10.0

ROLLING = bytes([3, 3, 0])
HANDLING = bytes([3, 2, 0])


def on_face(value: int) -> bytes:
    return bytes([3, 1, value - 1])


def i_am_a_die(leds=6, state=1, face=2, battery=87) -> bytes:
    return struct.pack("<BBBxIIHIBBBB", 2, leds, 5, 0xDEADBEEF, 0x12345678, 4096,
                       1_700_000_000, state, face, battery, 1)


# -- the bytes ---------------------------------------------------------------------


def test_the_service_and_its_characteristics_are_the_pixels_ones():
    assert SERVICE == NOTIFY == "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    assert WRITE == "6e400002-b5a3-f393-e0a9-e50e24dcca9e"


def test_a_roll_state_says_the_state_and_the_face_up():
    assert decode(on_face(5)) == RollState(1, 4)
    assert decode(on_face(5)).value == 5
    assert decode(ROLLING) == RollState(3, 0)


def test_i_am_a_die_gives_the_faces_and_the_battery():
    assert decode(i_am_a_die(leds=20, face=19, battery=42)) == IAmADie(
        led_count=20, design=5, die_id=0x12345678, roll_state=1, face_index=19,
        battery_percent=42, battery_state=1)


def test_battery_level_and_messages_of_no_use_to_the_table():
    assert decode(bytes([34, 63, 6])) == BatteryLevel(63, 6)
    assert decode(bytes([18, 65, 66])) == OtherMessage(18)


@pytest.mark.parametrize("data", [b"", bytes([3, 1]), bytes([34, 50]), i_am_a_die()[:12]])
def test_a_message_too_short_is_refused_with_its_bytes(data):
    with pytest.raises(BadPixelsMessage):
        decode(data)


# -- a stand-in BLE client ----------------------------------------------------------


class Air:
    """The room the dice are in: which dice are in reach, and each die's
    client once connected.  Tests play a die's notifications through it."""

    def __init__(self) -> None:
        self.in_reach: set[str] = set()
        self.clients: dict[str, FakeClient] = {}
        self.connects: dict[str, int] = {}
        self.changed = threading.Condition()

    def factory(self, address, on_disconnect):
        return FakeClient(self, address, on_disconnect)

    # What each die in reach advertises: its name and battery percent.
    adverts: dict[str, tuple[str, int | None]]

    async def scanner(self, seconds, seen):
        """A look: each die in reach answers once with its advertisement."""
        self.looks = getattr(self, "looks", 0) + 1
        adverts = getattr(self, "adverts", {})
        for address in sorted(self.in_reach):
            name, battery = adverts.get(address, (f"Pixel {address[-2:]}", None))
            seen(address, name, battery)

    def wait_for(self, predicate) -> bool:
        with self.changed:
            return self.changed.wait_for(predicate, WAIT)

    def connected(self, address: str) -> bool:
        client = self.clients.get(address)
        return client is not None and client.notify_callback is not None

    def notify(self, address: str, data: bytes) -> None:
        self.clients[address].play(data)

    def out_of_reach(self, address: str) -> None:
        with self.changed:
            self.in_reach.discard(address)
            client = self.clients.pop(address, None)
        if client is not None:
            client.on_disconnect(client)


class FakeClient:
    """Plays the protocol as a Pixels die: answers WhoAreYou with IAmADie
    and RequestBatteryLevel with BatteryLevel."""

    def __init__(self, air: Air, address: str, on_disconnect) -> None:
        self.air = air
        self.address = address
        self.on_disconnect = on_disconnect
        self.notify_callback = None
        self.written: list[bytes] = []

    async def connect(self):
        with self.air.changed:
            self.air.connects[self.address] = self.air.connects.get(self.address, 0) + 1
            self.air.changed.notify_all()
            if self.address not in self.air.in_reach:
                raise TimeoutError(f"device {self.address} not found")

    async def start_notify(self, char, callback):
        assert char == NOTIFY
        self.notify_callback = callback

    async def write_gatt_char(self, char, data, response=False):
        assert char == WRITE
        self.written.append(bytes(data))
        if data == bytes([1]):
            self.notify_callback(char, bytearray(i_am_a_die()))
        elif data == bytes([33]):
            self.notify_callback(char, bytearray([34, 87, 1]))
        with self.air.changed:
            self.air.clients[self.address] = self
            self.air.changed.notify_all()

    async def disconnect(self):
        with self.air.changed:
            self.notify_callback = None
            self.air.changed.notify_all()

    def play(self, data: bytes) -> None:
        # bleak calls notification callbacks on the loop: so do we.
        loop = self.air.loop
        loop.call_soon_threadsafe(self.notify_callback, NOTIFY, bytearray(data))


class Game:
    """A Call of Nature at a Respite: the game waits for the d6."""

    def __init__(self) -> None:
        self.game = CallOfNature(Setup(("Ana", "Ben", "Cy")))
        for value in (20, 20, 10):
            self.game.apply(Command("card", {"value": value}))
        self.played = threading.Condition()
        self.rolls: list[list[int]] = []

    def waiting(self):
        return awaited_dice(self.game.expected())

    def submit(self, values):
        with self.played:
            self.game.apply(Command("roll", {"values": values}))
            self.rolls.append(values)
            self.played.notify_all()


@pytest.fixture
def table():
    air = Air()
    game = Game()
    tray = DiceTray(game.waiting, game.submit, source="pixels")
    results: list[str | None] = []
    reported = threading.Condition()

    def on_roll(role, sides, value):
        with reported:
            results.append(tray.on_pixels_roll(role, sides, value))
            reported.notify_all()

    dice = PixelsDice(on_roll, factory=air.factory, delays=(0.01, 0.02)).start()
    air.loop = dice._loop
    yield air, game, tray, dice, results, reported
    dice.stop()


def wait_results(reported, results, count):
    with reported:
        return reported.wait_for(lambda: len(results) >= count, WAIT)


def test_a_settled_roll_of_the_d6_is_the_respite_roll(table):
    air, game, _tray, dice, results, reported = table
    air.in_reach.add("AA:01")
    dice.pair("AA:01", "Pixel d6", role="d6")
    assert air.wait_for(lambda: air.connected("AA:01"))
    assert game.waiting() == Dice(6, 1, "d6")

    air.notify("AA:01", HANDLING)
    air.notify("AA:01", ROLLING)
    air.notify("AA:01", on_face(5))
    assert wait_results(reported, results, 1)

    assert results == [None] and game.rolls == [[5]]
    status = dice.dice()[0]
    assert (status.name, status.role, status.battery, status.connected, status.face) == \
        ("Pixel d6", "d6", 87, True, 5)


def test_a_die_connecting_on_its_face_is_no_roll(table):
    air, game, _tray, dice, results, reported = table
    air.in_reach.add("AA:01")
    dice.pair("AA:01", role="d6")
    assert air.wait_for(lambda: air.connected("AA:01"))
    air.notify("AA:01", on_face(3))  # resting still, reported again
    air.notify("AA:01", ROLLING)
    air.notify("AA:01", on_face(2))
    assert wait_results(reported, results, 1)
    assert game.rolls == [[2]]


def test_a_roll_while_no_die_is_expected_is_ignored_and_counted(table):
    air, game, tray, dice, results, reported = table
    air.in_reach.add("AA:01")
    dice.pair("AA:01", role="d6")
    assert air.wait_for(lambda: air.connected("AA:01"))
    air.notify("AA:01", ROLLING)
    air.notify("AA:01", on_face(4))
    assert wait_results(reported, results, 1)  # the Respite roll
    assert game.waiting() is None  # play goes on: no roll awaited

    air.notify("AA:01", ROLLING)
    air.notify("AA:01", on_face(6))
    assert wait_results(reported, results, 2)

    assert results[1] == "the game is not waiting for a roll"
    assert game.rolls == [[4]] and tray.ignored == {"not-waiting": 1}


def test_the_wrong_die_is_turned_away(table):
    air, game, _tray, dice, results, reported = table
    air.in_reach.add("AA:02")
    dice.pair("AA:02", "red one", role="red")
    assert air.wait_for(lambda: air.connected("AA:02"))
    air.notify("AA:02", ROLLING)
    air.notify("AA:02", on_face(3))
    assert wait_results(reported, results, 1)
    assert results == ["the red die rolled but the game waits for d6"]
    assert game.rolls == []


def test_a_die_out_of_reach_is_reconnected_and_its_next_roll_counts(table):
    air, game, _tray, dice, results, reported = table
    air.in_reach.add("AA:01")
    dice.pair("AA:01", role="d6")
    assert air.wait_for(lambda: air.connected("AA:01"))

    air.out_of_reach("AA:01")
    tries = air.connects["AA:01"]
    # It keeps trying while out of reach...
    assert air.wait_for(lambda: air.connects["AA:01"] >= tries + 2)
    status = dice.dice()[0]
    assert not status.connected and status.problem.startswith("out of reach")

    with air.changed:
        air.in_reach.add("AA:01")
    # ...and is back once in reach.
    assert air.wait_for(lambda: air.connected("AA:01"))
    air.notify("AA:01", ROLLING)
    air.notify("AA:01", on_face(1))
    assert wait_results(reported, results, 1)
    assert game.rolls == [[1]] and dice.dice()[0].connected


def test_two_d6_dice_make_the_end_of_game_roll():
    tray_rolls = []
    tray = DiceTray(lambda: Dice(6, 2, "2d6"), tray_rolls.append, source="pixels")
    assert tray.on_pixels_roll("d6", 6, 3) is None  # waits for the second die
    assert tray_rolls == []
    assert tray.on_pixels_roll("d6", 6, 5) is None
    assert tray_rolls == [[3, 5]]


def test_a_d6_plays_the_blue_d2_folded_onto_its_faces():
    rolls = []
    tray = DiceTray(lambda: Dice(2, 1, "blue"), rolls.append, source="pixels")
    tray.on_pixels_roll("blue", 6, 5)
    tray.on_pixels_roll("blue", 6, 4)
    assert rolls == [[1], [2]]


def test_pixels_rolls_are_ignored_when_another_source_is_in_force():
    rolls = []
    tray = DiceTray(lambda: Dice(6), rolls.append, source="button")
    assert tray.on_pixels_roll("d6", 6, 4) == "the dice source is button"
    assert rolls == [] and tray.ignored == {"not-the-source": 1}


def test_a_role_is_one_of_the_games_dice():
    dice = PixelsDice(lambda *a: None, factory=Air().factory).start()
    try:
        with pytest.raises(ValueError, match=r"red, blue, d6"):
            dice.pair("AA:09", role="green")
    finally:
        dice.stop()


def test_the_configured_dice_are_paired_with_their_roles_and_report_to_the_tray():
    from companion.host.config import Config, Pixels
    from companion.parts.bus import Bus, PixelsRolled
    from companion.parts.hardware import PixelsPart
    from companion.parts.lifecycle import Setup

    class DicePartStandIn:
        """The tray the dice part hands the bus's Pixels rolls to."""

        def __init__(self, bus):
            self.game = Game()
            self.tray = DiceTray(self.game.waiting, self.game.submit, source="pixels")
            bus.subscribe(PixelsRolled, lambda rolled: self.tray.on_pixels_roll(*rolled))

    air = Air()
    air.in_reach.add("F0:12:34:56:78:9A")
    config = Config(pixels=Pixels(dice=(("F0:12:34:56:78:9A", "d6"),)))
    bus = Bus()
    stand_in = DicePartStandIn(bus)
    part = PixelsPart(Setup(config=config, bus=bus), factory=air.factory)
    part.start()
    try:
        air.loop = part.hub._loop
        assert air.wait_for(lambda: air.connected("F0:12:34:56:78:9A"))
        assert part.away() == []
        air.notify("F0:12:34:56:78:9A", ROLLING)
        air.notify("F0:12:34:56:78:9A", on_face(6))
        with stand_in.game.played:
            assert stand_in.game.played.wait_for(lambda: stand_in.game.rolls, WAIT)
        assert stand_in.game.rolls == [[6]]
        assert [(d.role, d.battery) for d in part.dice()] == [("d6", 87)]
        from companion.parts.hardware import pixels_status

        assert pixels_status(part.dice()) == "Pixels dice: d6: F0:12:34:56:78:9A 87%"
    finally:
        part.stop()


def test_the_config_names_each_die_by_address_and_role():
    from companion.host.config import ConfigError, parse

    config = parse('[pixels]\ndice = ["f0:12:34:56:78:9a d6", "F0:12:34:56:78:9B"]\n')
    assert config.pixels.dice == (("F0:12:34:56:78:9A", "d6"), ("F0:12:34:56:78:9B", None))
    with pytest.raises(ConfigError, match=r"red|blue|d6"):
        parse('[pixels]\ndice = ["F0:12:34:56:78:9A green"]\n')
