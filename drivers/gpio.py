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

from companion.core.errors import CompanionError

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


def no_gpio_said(fallbacks: Fallbacks, environ: Any = None) -> tuple[str, str]:
    """Why no pin library could be loaded, and what to do about it."""
    environ = os.environ if environ is None else environ
    reasons = fallbacks.reasons
    lgpio = reasons.get("lgpio", "")
    native = reasons.get("native", "")
    if not reasons:
        return ("no GPIO found", ("on a Raspberry Pi, install lgpio in the companion's "
                "environment and check with 'companion doctor'; on another computer, run "
                "'companion serve --simulate'"))
    if "No module named" in lgpio and "Pi revision" in native:
        return ("no GPIO: this computer is not a Raspberry Pi",
                "run 'companion serve --simulate' to play without one")
    if "No module named" in lgpio:
        return ("no GPIO: lgpio is not installed in the companion's environment",
                "run 'sudo ./scripts/install-pi.sh' again: it installs lgpio")
    if lgpio:
        where = environ.get("LG_WD") or _cwd()
        return (f"no GPIO: lgpio cannot start ({lgpio})",
                (f"it needs /dev/gpiochip* (the 'gpio' group) and a folder it may write for "
                f"its pipes (LG_WD, here {where})"))
    return f"no GPIO: {fallbacks.said()}", "check the pin libraries named"


def no_gpio_reason(fallbacks: Fallbacks, environ: Any = None) -> str:
    """:func:`no_gpio_said` in one sentence, for the log and the panel."""
    what, fix = no_gpio_said(fallbacks, environ)
    if not fallbacks.reasons:
        return f"{what}: {fix}"
    if what.startswith("no GPIO: lgpio cannot start"):
        fix += "; check with 'companion doctor'"
    return f"{what}; {fix}"


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
            raise NoGpio(*no_gpio_said(fallbacks)) from exc
    device.close()


class NoGpio(CompanionError, OSError):
    """No pin library could be loaded: ``what`` says why, ``fix`` what to do."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(what)
        self.what = what
        self.fix = fix
