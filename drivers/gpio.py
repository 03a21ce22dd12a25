"""Claiming a GPIO pin for a moment, as the doctor does to find pins that
another program (or the running service) holds."""

from __future__ import annotations

import warnings
from typing import Any

from gpiozero import InputDevice, OutputDevice


def claim_pin(role: str, pin: int, pin_factory: Any = None) -> None:
    """Open ``pin`` as the device its ``role`` needs (an input with pull-up
    for a button or the encoder, an output otherwise) and release it; raises
    what gpiozero raises when the pin cannot be had."""
    with warnings.catch_warnings():
        # gpiozero warns of each pin library it cannot load; the finding says it once.
        warnings.simplefilter("ignore")
        if role.startswith(("button", "encoder")):
            device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
        else:
            device = OutputDevice(pin, initial_value=False, pin_factory=pin_factory)
    device.close()
