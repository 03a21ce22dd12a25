"""The GPIO as gpiozero finds it: which pin library it could load and, when
none, why in one sentence; and claiming a pin for a moment, as the doctor
does to find pins that another program (or the running service) holds."""

from __future__ import annotations

import os
import re
import warnings
from contextlib import contextmanager
from typing import Any, Iterator

from gpiozero import InputDevice, OutputDevice
from gpiozero.exc import PinFactoryFallback

_FALLBACK = re.compile(r"Falling back from (\w+): (.*)", re.S)


class Fallbacks:
    """The pin libraries gpiozero tried and could not load, and why: gpiozero
    warns of each in several lines, the companion says them in one."""

    def __init__(self, caught: list[warnings.WarningMessage]) -> None:
        self._caught = caught

    @property
    def reasons(self) -> dict[str, str]:
        """Each library that failed, with the reason it gave."""
        reasons = {}
        for caught in self._caught:
            if issubclass(caught.category, PinFactoryFallback):
                match = _FALLBACK.match(str(caught.message))
                if match:
                    reasons[match[1]] = " ".join(match[2].split())
        return reasons

    def said(self) -> str:
        """The libraries that failed, in one line ("" when none did)."""
        return "; ".join(f"{name}: {why}" for name, why in self.reasons.items())


@contextmanager
def pin_factory_fallbacks() -> Iterator[Fallbacks]:
    """Catch gpiozero's fallback warnings while it picks its pin library;
    any other warning goes on as it would have."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            yield Fallbacks(caught)
        finally:
            others = [w for w in caught if not issubclass(w.category, PinFactoryFallback)]
    for other in others:
        warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)


def no_gpio_reason(fallbacks: Fallbacks, environ: Any = None) -> str:
    """Why no pin library could be loaded, and what to do, in one sentence."""
    environ = os.environ if environ is None else environ
    reasons = fallbacks.reasons
    lgpio = reasons.get("lgpio", "")
    native = reasons.get("native", "")
    if not reasons:
        return ("no GPIO found: on a Raspberry Pi, install lgpio in the companion's "
                "environment and check with 'companion doctor'; on another computer, run "
                "'companion serve --simulate'")
    if "No module named" in lgpio and "Pi revision" in native:
        return ("no GPIO: this computer is not a Raspberry Pi; run "
                "'companion serve --simulate' to play without one")
    if "No module named" in lgpio:
        return ("no GPIO: lgpio is not installed in the companion's environment "
                "('sudo ./scripts/install-pi.sh' installs it)")
    if lgpio:
        where = environ.get("LG_WD") or _cwd()
        return (f"no GPIO: lgpio cannot start ({lgpio}); it needs /dev/gpiochip* (the "
                f"'gpio' group) and a folder it may write for its pipes (LG_WD, here "
                f"{where}); check with 'companion doctor'")
    return f"no GPIO: {fallbacks.said()}; check with 'companion doctor'"


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return "a working directory that is gone"


def claim_pin(role: str, pin: int, pin_factory: Any = None) -> None:
    """Open ``pin`` as the device its ``role`` needs (an input with pull-up
    for a button or the encoder, an output otherwise) and release it; raises
    what gpiozero raises when the pin cannot be had (no pin library at all:
    :class:`NoGpio`, with the reason)."""
    from gpiozero.exc import BadPinFactory

    with pin_factory_fallbacks() as fallbacks:
        try:
            if role.startswith(("button", "encoder")):
                device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
            else:
                device = OutputDevice(pin, initial_value=False, pin_factory=pin_factory)
        except BadPinFactory as exc:
            raise NoGpio(no_gpio_reason(fallbacks)) from exc
    device.close()


class NoGpio(OSError):
    """No pin library could be loaded; the message says why."""
