"""The optional outputs: seven LEDs laid out as a die face, and a buzzer.

The die face shows the last roll (a d4 or d2 value shows as the same face of
a d6).  The buzzer beeps when the table reports an alert event: a threshold
fired, a Respite, an elimination.  Both are plain gpiozero devices; their
timing runs on gpiozero's own blink threads.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Sequence

from gpiozero import Buzzer, LEDBoard

from companion.core.engine import Dice, Event

if TYPE_CHECKING:
    from companion.core.table import Update

log = logging.getLogger(__name__)

# In the order of the pins: top-left, top-right, middle-left, centre,
# middle-right, bottom-left, bottom-right.
# The reference wiring (docs/build.md): the seven die-face LEDs and the buzzer.
DEFAULT_FACE_PINS = (16, 20, 21, 23, 24, 25, 18)
DEFAULT_BUZZER_PIN = 12

FACES: dict[int, tuple[int, ...]] = {
    1: (0, 0, 0, 1, 0, 0, 0),
    2: (1, 0, 0, 0, 0, 0, 1),
    3: (1, 0, 0, 1, 0, 0, 1),
    4: (1, 1, 0, 0, 0, 1, 1),
    5: (1, 1, 0, 1, 0, 1, 1),
    6: (1, 1, 1, 0, 1, 1, 1),
}

# Replaying the journal at start or taking a command back must not sound
# alerts that already sounded.
_SOUNDING_ACTIONS = frozenset({"command", "redo"})


class DieFace:
    """Seven LEDs that show a die's value."""

    def __init__(self, pins: Sequence[int] = DEFAULT_FACE_PINS, *, pin_factory=None) -> None:
        if len(pins) != 7:
            raise ValueError(f"a die face has 7 LEDs, not {len(pins)} pins")
        self.board = LEDBoard(*pins, pin_factory=pin_factory)

    def show(self, value: int) -> None:
        try:
            self.board.value = FACES[value]
        except KeyError:
            raise ValueError(f"a die face shows 1 to 6, not {value!r}") from None

    def show_roll(self, dice: Dice, values: Sequence[int]) -> None:
        """A roll listener (``table.subscribe(RollListener(face.show_roll))``,
        see ``drivers.dice``): show the roll's first die (the screen shows
        them all); clear the face for a value it cannot show."""
        if values and values[0] in FACES:
            self.show(values[0])
        else:
            self.clear()

    def clear(self) -> None:
        self.board.off()

    def close(self) -> None:
        self.board.close()


class AlertBuzzer:
    """A buzzer that beeps ``beeps`` times for each table update carrying
    alert events."""

    def __init__(self, pin: int = DEFAULT_BUZZER_PIN, *, on_time: float = 0.15,
                 off_time: float = 0.1, beeps: int = 2, pin_factory=None) -> None:
        self.buzzer = Buzzer(pin, pin_factory=pin_factory)
        self.on_time = on_time
        self.off_time = off_time
        self.beeps = beeps

    def on_update(self, update: Update) -> list[Event]:
        """A table listener (``table.subscribe(buzzer.on_update)``): beep for
        the update's alert events, in the background; return those events."""
        if update.action not in _SOUNDING_ACTIONS:
            return []
        alerts = [event for event in update.events if event.alert]
        if alerts:
            log.info("alert: %s", "; ".join(event.kind for event in alerts))
            self.buzzer.beep(self.on_time, self.off_time, n=self.beeps, background=True)
        return alerts

    def close(self) -> None:
        self.buzzer.close()
