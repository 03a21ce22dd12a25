"""Where a roll comes from, and how it reaches the game.

Three dice sources (docs/build.md), one in force at a time:

- ``button``: the ROLL key rolls what the game waits for, with the operating
  system's randomness;
- ``manual``: players roll the game's own dice and enter the values through
  the menus or the panel (those are commands like any other, not rolls made
  here);
- ``serial``: a dice device reports each roll (see ``drivers.serial_dice``);
- ``pixels``: Pixels smart dice report each settled roll over Bluetooth LE
  (see ``drivers.pixels``), each die the game's red, blue or d6 as the
  players chose.

A :class:`DiceTray` is the one thing that rolls and submits rolls, whoever
asked (the ROLL key, a phone, the dice device): it knows the source in
force, passes on the rolls of that source and turns the others away with a
reason the screen can show.  It takes two callables, what the game waits for
and how to submit a roll; :meth:`DiceTray.at_table` makes them from a
``companion.core.table.Table``.

Whoever wants to hear the rolls (the die-face LEDs, the screen) listens to
the table like everything else: :class:`RollListener` turns the table's
updates into ``(dice, values)`` of each roll the tray played.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections import Counter
from random import Random
from typing import Any, Callable, Iterable, Protocol, Sequence

from companion.core.engine import Command, Dice, Expectation
from companion.core.errors import CompanionError, IllegalCommand, NotExpected
from companion.core.keys import DICE_SOURCES as SOURCES
from companion.core.ports import TablePort
from companion.core.table import ANY_GAME, ANY_SEAT, ExpectedGame, Seat, Update

log = logging.getLogger(__name__)

# How the table's journal names the rolls the tray submits.
DICE_SOURCE = "dice"

ResultListener = Callable[[Dice, list[int]], None]


class Submit(Protocol):
    """Plays a roll: ``submit(values, expected_version, expected_game=)``,
    with ``seat=`` for a phone's roll; may raise ``IllegalCommand``
    (``StaleVersion`` when the table moved on, or another game replaced the
    one named)."""

    def __call__(self, values: list[int], expected_version: int | None = None, *,
                 expected_game: ExpectedGame = ANY_GAME, seat: Seat = ANY_SEAT) -> None: ...

_system_random = secrets.SystemRandom()


def roll(dice: Dice, rng: Random = _system_random) -> list[int]:
    """One roll of ``dice``: ``count`` values from 1 to ``sides``."""
    return [rng.randint(1, dice.sides) for _ in range(dice.count)]


def awaited_dice(expected: Iterable[Expectation]) -> Dice | None:
    """The dice of the roll the game waits for, if it waits for one."""
    return next((e.dice for e in expected if e.command == "roll" and e.dice), None)


class UnknownDiceSource(CompanionError, ValueError):
    def __init__(self, source: object) -> None:
        super().__init__(
            f"no dice source {source!r}; the sources are {', '.join(SOURCES)}"
        )


class DiceTray:
    """Takes rolls from the dice source in force and submits them.

    ``waiting()`` returns the dice the game waits for now (or ``None``);
    ``submit(values, expected_version)`` plays the roll and may raise
    ``IllegalCommand``.  The rolls the game took are heard from the table
    (:class:`RollListener`).
    """

    def __init__(
        self,
        waiting: Callable[[], Dice | None],
        submit: Submit,
        *,
        source: str = "button",
        rng: Random = _system_random,
    ) -> None:
        self._waiting = waiting
        self._submit = submit
        self._rng = rng
        self._ignored: Counter[str] = Counter()
        self._lock = threading.Lock()
        # The values of a several-dice roll gathered so far, and its dice.
        self._gathering: tuple[Dice | None, list[int]] = (None, [])
        self.source = source

    @classmethod
    def at_table(cls, table: TablePort, **options: Any) -> DiceTray:
        """A tray for ``table``: it waits for the roll ``table.game`` expects
        and submits ``Command("roll", {"values": ...})`` with source ``dice``.
        ``options`` are those of the constructor (``source``, ``rng``)."""

        def waiting() -> Dice | None:
            return awaited_dice(table.game.expected()) if table.has_game else None

        def submit(values: list[int], expected_version: int | None = None, *,
                   expected_game: ExpectedGame = ANY_GAME, seat: Seat = ANY_SEAT) -> None:
            table.submit(Command("roll", {"values": values}), expected_game=expected_game,
                         expected_version=expected_version, source=DICE_SOURCE, seat=seat)

        return cls(waiting, submit, **options)

    @property
    def source(self) -> str:
        return self._source

    @source.setter
    def source(self, source: str) -> None:
        if source not in SOURCES:
            raise UnknownDiceSource(source)
        self._source = source

    @property
    def ignored(self) -> dict[str, int]:
        """How many device rolls were turned away, by reason: ``not-the-source``,
        ``not-waiting``, ``wrong-dice``, ``refused``."""
        with self._lock:
            return dict(self._ignored)

    # -- the sources ----------------------------------------------------------

    def on_roll_button(self) -> str | None:
        """The ROLL key: roll what the game waits for and submit it.

        Returns ``None`` when the game took the roll, else why nothing was
        rolled, for the screen.
        """
        if self.source != "button":
            reason = _OTHER_SOURCE[self.source]
            log.info("ROLL pressed: %s", reason)
            return reason
        dice = self._waiting()
        if dice is None:
            return "the game is not waiting for a roll"
        refused = self._play(dice, roll(dice, self._rng))
        if refused is not None:
            log.info("ROLL pressed: %s", refused)
        return refused

    def roll(self, expected_version: int | None = None, *,
             expected_game: ExpectedGame = ANY_GAME, seat: Seat = ANY_SEAT) -> list[int]:
        """A phone's roll: roll what the game waits for and submit it,
        whatever the source in force (a phone's ROLL is its own dice
        button); return the values.  Raises ``NotExpected`` when the game
        waits for no roll, and the table's refusal (``StaleVersion`` with
        ``expected_game`` and ``expected_version`` when the table moved on
        meanwhile; ``NotYourSeat`` for a phone of another seat when the
        table plays turns only from the player's own phone)."""
        dice = self._waiting()
        if dice is None:
            raise NotExpected("refusal.not-waiting", rule="not-waiting")
        values = roll(dice, self._rng)
        if seat is ANY_SEAT:
            self._submit(values, expected_version, expected_game=expected_game)
        else:
            self._submit(values, expected_version, expected_game=expected_game, seat=seat)
        return values

    def on_serial_roll(self, sides: int, values: Sequence[int]) -> str | None:
        """A roll reported by the dice device.

        Returns ``None`` when the game took it; otherwise the roll is
        ignored, counted in :attr:`ignored` and logged, and the reason
        returned.
        """
        values = list(values)
        if self.source != "serial":
            return self._ignore("not-the-source", f"the dice source is {self.source}")
        dice = self._waiting()
        if dice is None:
            return self._ignore("not-waiting", "the game is not waiting for a roll")
        if sides != dice.sides or len(values) != dice.count:
            return self._ignore(
                "wrong-dice",
                f"the device rolled {len(values)} d{sides} but the game waits for "
                f"{dice.name} ({dice.count} d{dice.sides})",
            )
        reason = self._play(dice, values)
        if reason is not None:
            self._ignore("refused", reason)
        return reason

    def on_pixels_roll(self, role: str, sides: int | None, value: int) -> str | None:
        """A settled roll of the Pixels die that plays ``role`` (red, blue,
        d6), a die of ``sides`` faces when it said so.

        The roll counts when the game waits for that die: a d6 role answers
        a roll of d6 (two settled rolls make a 2d6).  A die with a multiple
        of the sides awaited folds its value onto them (a d6 as the blue
        d2: odd 1, even 2).  Otherwise it is ignored, counted and logged,
        and the reason returned; ``None`` when the game took it or waits
        for the other dice of the roll.
        """
        if self.source != "pixels":
            return self._ignore("not-the-source", f"the dice source is {self.source}")
        dice = self._waiting()
        if dice is None:
            return self._ignore("not-waiting", "the game is not waiting for a roll")
        wanted = f"d{dice.sides}" if dice.name.endswith(f"d{dice.sides}") else dice.name
        if role != wanted:
            return self._ignore("wrong-dice", f"the {role} die rolled but the game waits for "
                                              f"{dice.name}")
        if sides and sides != dice.sides:
            if sides % dice.sides:
                return self._ignore("wrong-dice", f"a d{sides} cannot roll {dice.name} "
                                                  f"(d{dice.sides})")
            value = (value - 1) % dice.sides + 1
        if not 1 <= value <= dice.sides:
            return self._ignore("wrong-dice", f"{value} is not a face of {dice.name}")
        with self._lock:
            gathered_for, values = self._gathering
            if gathered_for != dice:
                values = []
            values = values + [value]
            if len(values) < dice.count:
                self._gathering = (dice, values)
                return None
            self._gathering = (None, [])
        reason = self._play(dice, values)
        if reason is not None:
            self._ignore("refused", reason)
        return reason

    # -- inside ---------------------------------------------------------------

    def _play(self, dice: Dice, values: list[int]) -> str | None:
        try:
            self._submit(values)
        except IllegalCommand as refusal:
            return f"the game refused the roll {values}: {refusal}"
        return None

    def _ignore(self, counter: str, reason: str) -> str:
        with self._lock:
            self._ignored[counter] += 1
        log.warning("dice device roll ignored: %s", reason)
        return reason


class RollListener:
    """A table listener that hears the rolls the dice tray played:
    ``table.subscribe(RollListener(listener))`` calls ``listener(dice,
    values)`` for each of them (a roll entered by hand is a command like the
    others, not heard here).  The dice are those the game waited for before
    the roll; ``awaiting`` is the update the listener starts from (the
    table's current one), if any."""

    def __init__(self, listener: ResultListener, awaiting: Update | None = None) -> None:
        self._listener = listener
        self._awaited = awaited_dice(awaiting.expected) if awaiting is not None else None

    def __call__(self, update: Update) -> None:
        awaited, self._awaited = self._awaited, awaited_dice(update.expected)
        command = update.command
        if (update.action != "command" or update.source != DICE_SOURCE
                or command is None or command.name != "roll"):
            return
        values = [int(v) for v in command.args.get("values", ())]
        if awaited is None or len(values) != awaited.count:
            awaited = Dice(max(values, default=1), len(values) or 1, "dice")
        self._listener(awaited, values)


_OTHER_SOURCE = {
    "manual": "the dice are entered by hand: roll the game's dice and enter the values",
    "serial": "the dice come from the dice device: roll it",
    "pixels": "the dice are Pixels smart dice: roll them",
}
