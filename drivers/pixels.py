"""Pixels dice over Bluetooth LE: a smart die reports each roll itself.

Pixels (GameWithPixels) publish an open protocol.  A die offers one GATT
service, :data:`SERVICE`; it notifies its messages on :data:`NOTIFY` and
takes ours on :data:`WRITE`.  Each message starts with its type byte; the
ones the table needs, little-endian:

- WhoAreYou (1), sent by us; the die answers IAmADie (2): LED count, design,
  a pad byte, data set hash (4 bytes), die id (4), free flash (2), firmware
  date (4), roll state, face index, battery percent, battery state;
- RollState (3): the roll state (0 unknown, 1 on a face, 2 handled,
  3 rolling, 4 crooked) and the index of the face up (the value less one);
- RequestBatteryLevel (33), sent by us; BatteryLevel (34): percent, state.

A die in reach advertises its roll state, face and battery before any
connection (:func:`decode_advertisement`, laid out as the Pixels app's own
scanner reads it).

A roll is *settled* when a die that was rolling or handled comes to rest on
a face: only then is it a roll (a die connecting on its face is not one).

:class:`PixelsDie` keeps one die connected through an injected BLE client
factory (bleak's ``BleakClient`` in production, a stand-in that plays the
protocol's bytes in tests) and reconnects a die that went out of reach,
with a growing wait.  :class:`PixelsDice` runs every die on one asyncio loop
in one thread, and tells ``on_roll(die, value)`` of each settled roll; which
die is the game's red, blue or d6 is the players' choice (:meth:`assign`).
"""

from __future__ import annotations

import asyncio
import logging
import struct
import threading
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol

from companion.core.errors import CompanionError
from companion.core.ports import SMART_DIE_ROLES

log = logging.getLogger(__name__)

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_BATTERY_LEVEL = 33
BATTERY_LEVEL = 34

UNKNOWN, ON_FACE, HANDLING, ROLLING, CROOKED = range(5)
ROLL_STATES = ("unknown", "on face", "handled", "rolling", "crooked")
MOVING = frozenset({HANDLING, ROLLING})

# The roles a die can take at the table: the dice the games name.
ROLES = SMART_DIE_ROLES

# IAmADie: type, LED count, design, pad, hash, id, flash, firmware date,
# roll state, face index, battery percent, battery state.
_I_AM_A_DIE = struct.Struct("<BBBxIIHIBBBB")
_ROLL_STATE = struct.Struct("<BBB")
_BATTERY_LEVEL = struct.Struct("<BBB")

RECONNECT_DELAYS = (1.0, 2.0, 5.0, 10.0)


class BadPixelsMessage(CompanionError, ValueError):
    """Bytes from a die that are not the message their type byte says."""


@dataclass(frozen=True)
class IAmADie:
    led_count: int
    design: int
    die_id: int
    roll_state: int
    face_index: int
    battery_percent: int
    battery_state: int


@dataclass(frozen=True)
class RollState:
    state: int
    face_index: int

    @property
    def value(self) -> int:
        return self.face_index + 1


@dataclass(frozen=True)
class BatteryLevel:
    percent: int
    state: int


@dataclass(frozen=True)
class OtherMessage:
    """A message the table has no use for (telemetry, a debug line...)."""

    type: int


Message = IAmADie | RollState | BatteryLevel | OtherMessage


def decode(data: bytes | bytearray) -> Message:
    """One notification from a die as a message; raises
    :class:`BadPixelsMessage` for bytes too short for their type."""
    data = bytes(data)
    if not data:
        raise BadPixelsMessage("an empty message from a die")
    kind = data[0]
    layout = {I_AM_A_DIE: _I_AM_A_DIE, ROLL_STATE: _ROLL_STATE,
              BATTERY_LEVEL: _BATTERY_LEVEL}.get(kind)
    if layout is None:
        return OtherMessage(kind)
    if len(data) < layout.size:
        raise BadPixelsMessage(
            f"message type {kind} takes {layout.size} bytes, not {len(data)}: {data.hex(' ')}")
    fields = layout.unpack_from(data)
    if kind == ROLL_STATE:
        return RollState(fields[1], fields[2])
    if kind == BATTERY_LEVEL:
        return BatteryLevel(min(fields[1], 100), fields[2])
    (_, leds, design, _hash, die_id, _flash, _date, state, face, percent, battery) = fields
    return IAmADie(leds, design, die_id, state, face, min(percent, 100), battery)


def who_are_you() -> bytes:
    return bytes([WHO_ARE_YOU])


def request_battery_level() -> bytes:
    return bytes([REQUEST_BATTERY_LEVEL])


# -- one die ------------------------------------------------------------------------


class BleClient(Protocol):
    """What :class:`PixelsDie` needs of a BLE client (bleak's ``BleakClient``)."""

    async def connect(self) -> Any: ...
    async def disconnect(self) -> Any: ...
    async def start_notify(self, char: str, callback: Callable[[Any, bytearray], None]) -> Any: ...
    async def write_gatt_char(self, char: str, data: bytes, response: bool = ...) -> Any: ...


# ``factory(address, on_disconnect)`` makes a client for one die.
ClientFactory = Callable[[str, Callable[[Any], None]], BleClient]
Sleep = Callable[[float], Awaitable[None]]
# ``scanner(seconds, seen)`` looks for dice for ``seconds``, telling
# ``seen(address, name, battery)`` of each advertisement heard.
Seen = Callable[[str, str, "int | None"], None]
Scanner = Callable[[float, Seen], Awaitable[None]]

# How long a look for dice in reach lasts.
LOOK_SECONDS = 8.0


@dataclass(frozen=True)
class Advertised:
    """What a die says in its advertisement, before any connection."""

    roll_state: int
    face_index: int
    battery_percent: int
    charging: bool


def decode_advertisement(manufacturer_data: dict[int, bytes],
                         service_data: dict[str, bytes] | None = None) -> Advertised | None:
    """A die's advertisement, as the Pixels app reads it (pixels-js,
    ``packages/react-native-pixels-connect/src/getScannedPixel.ts``): the
    first manufacturer data and the first service data.

    - Since July 2022 the manufacturer data is LED count, design and
      colour, roll state, face index, then the battery: its low 7 bits the
      percent, its top bit set while charging; the service data (the scan
      response) holds the die's id and firmware date, which the table does
      not need, so a die heard without it still gives its battery.
    - Before, with no service data and 7 bytes of manufacturer data (the
      LED count and design in the company id): die id (4 bytes), roll
      state, face index, then the battery as 0-255.

    ``None`` when there is neither."""
    payload = next(iter(manufacturer_data.values()), None)
    if payload is None:
        return None
    payload = bytes(payload)
    has_service_data = bool(service_data) and any(
        len(data) >= 8 for data in (service_data or {}).values())
    if not has_service_data and len(payload) == 7:
        state, face, level = payload[4], payload[5], payload[6]
        return Advertised(state, face, round(level * 100 / 255), False)
    if len(payload) >= 5:
        state, face, battery = payload[2], payload[3], payload[4]
        return Advertised(state, face, min(battery & 0x7F, 100), bool(battery & 0x80))
    return None


def advertised_battery(manufacturer_data: dict[int, bytes],
                       service_data: dict[str, bytes] | None = None) -> int | None:
    """The battery percent a die advertises (see :func:`decode_advertisement`);
    ``None`` when the advertisement has none."""
    found = decode_advertisement(manufacturer_data, service_data)
    return found.battery_percent if found is not None else None


async def bleak_scanner(seconds: float, seen: Seen) -> None:
    """BlueZ's scan for the Pixels service, for ``seconds``."""
    from bleak import BleakScanner

    def heard(device: Any, advertisement: Any) -> None:
        battery = advertised_battery(dict(advertisement.manufacturer_data or {}),
                                     dict(advertisement.service_data or {}))
        seen(device.address, advertisement.local_name or device.name or device.address,
             battery)

    scanner: Any = BleakScanner(detection_callback=heard, service_uuids=[SERVICE])
    await scanner.start()
    try:
        await asyncio.sleep(seconds)
    finally:
        await scanner.stop()


# The simulation's dice in reach: (address, name, battery percent).
SIMULATED_DICE = (("F0:12:34:56:78:9A", "Pixel d6", 87),
                  ("F0:12:34:56:78:9B", "Pixel red", 64),
                  ("F0:12:34:56:78:9C", "Pixel blue", 41))


async def simulated_scanner(seconds: float, seen: Seen) -> None:
    """The simulation's look: its made-up dice answer one after another."""
    for address, name, battery in SIMULATED_DICE:
        await asyncio.sleep(min(0.05, seconds))
        seen(address, name, battery)


class SimulatedClient:
    """A die of the simulation: it connects at once and stays on its face
    (it never rolls: the simulation's rolls come from its ROLL button)."""

    def __init__(self, address: str, on_disconnect: Callable[[Any], None]) -> None:
        self.address = address

    async def connect(self) -> bool:
        return True

    async def disconnect(self) -> bool:
        return True

    async def start_notify(self, char: str, callback: Callable[[Any, bytearray], None]) -> None:
        return None

    async def write_gatt_char(self, char: str, data: bytes, response: bool = False) -> None:
        return None


def bleak_client(address: str, on_disconnect: Callable[[Any], None]) -> BleClient:
    """A bleak client (BlueZ on the Pi) for the die at ``address``."""
    from bleak import BleakClient

    # bleak's client takes more than this Protocol says (UUIDs, characteristics).
    client: Any = BleakClient(address, disconnected_callback=on_disconnect)
    return client


@dataclass
class DieStatus:
    """What the menu and the panel show of a die."""

    address: str
    name: str
    role: str | None = None
    connected: bool = False
    battery: int | None = None
    roll_state: str = "unknown"
    face: int | None = None
    sides: int | None = None
    problem: str = ""
    rolls: int = field(default=0)


class PixelsDie:
    """Keeps one die connected and turns its messages into settled rolls.

    ``on_roll(die, value)`` hears each settled roll.  A die that drops or
    cannot be reached is tried again after each of ``delays`` in turn (the
    last repeats) until :meth:`close`.
    """

    def __init__(self, address: str, name: str, factory: ClientFactory,
                 on_roll: Callable[[PixelsDie, int], None], *,
                 on_change: Callable[[], None] = lambda: None,
                 delays: tuple[float, ...] = RECONNECT_DELAYS,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.status = DieStatus(address, name)
        self._factory = factory
        self._on_roll = on_roll
        self._on_change = on_change
        self._delays = delays
        self._sleep = sleep
        self._state = UNKNOWN
        self._dropped: asyncio.Event | None = None
        self._closed = False
        self._client: BleClient | None = None

    @property
    def address(self) -> str:
        return self.status.address

    async def run(self) -> None:
        """Connect, listen, and reconnect after each drop, until closed."""
        self._dropped = asyncio.Event()
        failures = 0
        while not self._closed:
            self._dropped.clear()
            try:
                await self._connect()
            except Exception as error:  # bleak raises BleakError, OSError, TimeoutError...
                self._lost(f"out of reach ({error or type(error).__name__})")
                delay = self._delays[min(failures, len(self._delays) - 1)]
                failures += 1
                await self._sleep(delay)
                continue
            failures = 0
            await self._dropped.wait()
            if not self._closed:
                self._lost("out of reach (disconnected)")

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()

        def dropped(_client: Any) -> None:
            # bleak calls this on its own terms: hand it to the loop.
            loop.call_soon_threadsafe(self._dropped_now)

        client = self._factory(self.address, dropped)
        await client.connect()
        self._client = client
        await client.start_notify(NOTIFY, self._notified)
        await client.write_gatt_char(WRITE, who_are_you(), response=False)
        await client.write_gatt_char(WRITE, request_battery_level(), response=False)
        self.status.connected = True
        self.status.problem = ""
        log.info("Pixels die %s (%s) connected", self.status.name, self.address)
        self._on_change()

    def _dropped_now(self) -> None:
        if self._dropped is not None:
            self._dropped.set()

    def _lost(self, problem: str) -> None:
        self._client = None
        self._state = UNKNOWN
        changed = self.status.connected or self.status.problem != problem
        self.status.connected = False
        self.status.problem = problem
        if changed:
            log.warning("Pixels die %s (%s): %s", self.status.name, self.address, problem)
            self._on_change()

    def _notified(self, _char: Any, data: bytearray) -> None:
        try:
            message = decode(data)
        except BadPixelsMessage as bad:
            log.warning("Pixels die %s: %s", self.status.name, bad)
            return
        self.take(message)

    def take(self, message: Message) -> None:
        """One message from the die."""
        if isinstance(message, IAmADie):
            self.status.sides = message.led_count or None
            self.status.battery = message.battery_percent
            self._set_state(message.roll_state, message.face_index, settle=False)
        elif isinstance(message, BatteryLevel):
            self.status.battery = message.percent
            self._on_change()
        elif isinstance(message, RollState):
            self._set_state(message.state, message.face_index, settle=True)

    def _set_state(self, state: int, face_index: int, settle: bool) -> None:
        was = self._state
        self._state = state
        self.status.roll_state = ROLL_STATES[state] if state < len(ROLL_STATES) else "unknown"
        self.status.face = face_index + 1 if state == ON_FACE else None
        if settle and state == ON_FACE and was in MOVING:
            self.status.rolls += 1
            try:
                self._on_roll(self, face_index + 1)
            except Exception:
                log.exception("the Pixels roll listener failed")
        self._on_change()

    async def close(self) -> None:
        self._closed = True
        self._dropped_now()
        client, self._client = self._client, None
        if client is not None:
            try:
                await client.disconnect()
            except Exception as error:
                log.info("Pixels die %s did not disconnect cleanly: %s", self.status.name, error)


# -- the dice at the table --------------------------------------------------------------


class PixelsDice:
    """Every Pixels die of the table, on one asyncio loop in one thread.

    ``on_roll(role, sides, value)`` hears each settled roll of a die that
    has a role (red, blue or d6); a die without one is only shown.  Call
    :meth:`start` once, then :meth:`pair`, :meth:`assign` and
    :meth:`forget` from any thread; :meth:`dice` says how each die is.
    """

    def __init__(self, on_roll: Callable[[str, int | None, int], None], *,
                 factory: ClientFactory = bleak_client,
                 scanner: Scanner = bleak_scanner,
                 delays: tuple[float, ...] = RECONNECT_DELAYS,
                 on_change: Callable[[], None] = lambda: None) -> None:
        self._on_roll = on_roll
        self._factory = factory
        self._scanner = scanner
        # Dice heard on the last look, by address, and whether a look is on.
        self._seen: dict[str, DieStatus] = {}
        self._looking = False
        self._delays = delays
        self._on_change = on_change
        self._dice: dict[str, PixelsDie] = {}
        self._tasks: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> PixelsDice:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pixels dice",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        loop = self._loop
        if loop is None:
            return
        with self._lock:
            dice = list(self._dice.values())
        async def close_all() -> None:
            await asyncio.gather(*(die.close() for die in dice), return_exceptions=True)
            for task in self._tasks.values():
                task.cancel()

        future = asyncio.run_coroutine_threadsafe(close_all(), loop)
        try:
            future.result(timeout)
        except Exception as error:
            log.info("Pixels dice did not all close: %s", error)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout)
        self._loop = None

    # -- from any thread ----------------------------------------------------------

    def pair(self, address: str, name: str = "", role: str | None = None) -> None:
        """Connect the die at ``address`` (and keep it connected)."""
        if role is not None:
            _check_role(role)
        loop = self._loop
        if loop is None:
            raise RuntimeError("the Pixels dice are not started")
        with self._lock:
            if address in self._dice:
                if role is not None:
                    self._dice[address].status.role = role
                return
            die = PixelsDie(address, name or address, self._factory, self._rolled,
                            on_change=self._on_change, delays=self._delays)
            die.status.role = role
            self._dice[address] = die

        def begin() -> None:
            self._tasks[address] = loop.create_task(die.run())

        loop.call_soon_threadsafe(begin)

    def assign(self, address: str, role: str | None) -> None:
        """Make the die the game's ``role`` (red, blue, d6), or no die of the
        game (``None``).  A role has one die: the die that had it loses it."""
        if role is not None:
            _check_role(role)
        with self._lock:
            if address not in self._dice:
                raise KeyError(f"no Pixels die {address!r} is paired")
            for die in self._dice.values():
                if role is not None and die.status.role == role and role != "d6":
                    die.status.role = None
            self._dice[address].status.role = role
        self._on_change()

    def forget(self, address: str) -> None:
        """Disconnect the die and keep it no more."""
        with self._lock:
            die = self._dice.pop(address, None)
            self._tasks.pop(address, None)  # it ends once the die is closed
        if die is None:
            raise KeyError(f"no Pixels die {address!r} is paired")
        if self._loop is not None:
            asyncio.run_coroutine_threadsafe(die.close(), self._loop)
        self._on_change()

    def dice(self) -> list[DieStatus]:
        with self._lock:
            return [DieStatus(**vars(die.status)) for die in self._dice.values()]

    def look(self, seconds: float = LOOK_SECONDS) -> bool:
        """Look for dice in reach for ``seconds`` (in the background; the
        dice heard come in :meth:`in_reach` as they answer, and each one
        new calls ``on_change``).  False when a look is already on."""
        loop = self._loop
        if loop is None:
            raise RuntimeError("the Pixels dice are not started")
        with self._lock:
            if self._looking:
                return False
            self._looking = True
            self._seen = {}

        async def looking() -> None:
            try:
                await self._scanner(seconds, self._heard)
            except Exception as error:  # BlueZ off, no adapter...
                log.warning("looking for Pixels dice failed: %s", error)
            finally:
                with self._lock:
                    self._looking = False
                self._on_change()

        asyncio.run_coroutine_threadsafe(looking(), loop)
        self._on_change()
        return True

    @property
    def looking(self) -> bool:
        with self._lock:
            return self._looking

    def in_reach(self) -> list[DieStatus]:
        """The dice heard on the last look that are not paired: address,
        name and battery, in the order they answered."""
        with self._lock:
            return [DieStatus(**vars(seen)) for address, seen in self._seen.items()
                    if address not in self._dice]

    def _heard(self, address: str, name: str, battery: int | None) -> None:
        with self._lock:
            new = address not in self._seen
            self._seen[address] = DieStatus(address, name or address, battery=battery)
        if new:
            self._on_change()

    # -- on the loop --------------------------------------------------------------

    def _rolled(self, die: PixelsDie, value: int) -> None:
        role = die.status.role
        if role is None:
            log.info("Pixels die %s rolled %d; it is none of the game's dice",
                     die.status.name, value)
            return
        self._on_roll(role, die.status.sides, value)


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise ValueError(f"no die role {role!r}; the roles are {', '.join(ROLES)}")


async def scan(timeout: float = 5.0) -> list[tuple[str, str]]:
    """The Pixels dice in reach, as ``(address, name)``: BlueZ's scan for
    the Pixels service."""
    found: dict[str, str] = {}

    def seen(address: str, name: str, _battery: int | None) -> None:
        found.setdefault(address, name)

    await bleak_scanner(timeout, seen)
    return list(found.items())
