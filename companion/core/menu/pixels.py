"""The dice sections: the dice source in use (buttons, serial dice, Pixels
dice, by hand), and the Pixels dice: those paired, each given a role or
forgotten, and those in reach to pair."""

from __future__ import annotations

from functools import partial

from ..keys import DICE_SOURCES
from ..ports import SmartDice, SmartDie
from .levels import Choice, Confirm, ListLevel, LiveList
from .state import MenuState


class DiceSourceSection:
    def __init__(self, state: MenuState) -> None:
        self.state = state

    def choices(self) -> list[Choice]:
        t = self.state.t
        return [Choice(t("dice", source=t(f"source-{self.state.dice_source}")), self._open)]

    def _open(self) -> None:
        state = self.state
        current = state.dice_source
        choices = [Choice(state.t(f"source-{name}"), partial(self._choose, name))
                   for name in DICE_SOURCES]
        index = DICE_SOURCES.index(current) if current in DICE_SOURCES else 0
        state.push(ListLevel(state, state.t("dice-source"), choices, index))

    def _choose(self, name: str) -> None:
        try:
            self.state.dice_source = name
        except ValueError as refused:
            self.state.say(self.state.t("dice-title"), str(refused))
            return
        self.state.clear()


class PixelsSection:
    def __init__(self, state: MenuState, smart: SmartDice | None) -> None:
        self.state, self.smart = state, smart

    def choices(self) -> list[Choice]:
        if self.smart is None:
            return []
        return [Choice(self.state.t("pixels"), self._open)]

    def _open(self) -> None:
        smart, t = self.smart, self.state.t
        assert smart is not None

        def choices() -> list[Choice]:
            shown = [Choice(self._label(die, t(f"role-{die.role}") if die.role else t("no-role")),
                            partial(self._open_die, die.address, die.name))
                     for die in smart.dice()]
            return [*shown, Choice(t("find-dice"), self._open_in_reach)]

        self.state.push(LiveList(self.state, t("pixels"), choices))

    def _open_in_reach(self) -> None:
        smart, t = self.smart, self.state.t
        assert smart is not None
        smart.look()

        def choices() -> list[Choice]:
            heard = [Choice(self._label(die), partial(self._pair, die.address, die.name))
                     for die in smart.in_reach()]
            if smart.looking:
                return [*heard, Choice(t("looking"), lambda: None)]
            return [*heard, Choice(t("look-again"), smart.look)]

        self.state.push(LiveList(self.state, t("dice-in-reach"), choices))

    def _pair(self, address: str, name: str) -> None:
        assert self.smart is not None
        self.smart.pair(address, name)
        self.state.pop()  # the dice in reach: the paired list shows it now
        self._open_die(address, name)

    def _open_die(self, address: str, name: str) -> None:
        smart, state, t = self.smart, self.state, self.state.t
        assert smart is not None
        choices = [Choice(t("make-it", role=t(f"role-{role}")),
                          partial(self._assign, address, role)) for role in smart.roles]
        choices.append(Choice(t("no-role"), partial(self._assign, address, None)))
        forget = Confirm(state, name, t("forget-die", name=name), partial(self._forget, address))
        choices.append(Choice(t("forget-it"), partial(state.push, forget)))
        state.push(ListLevel(state, name, choices))

    def _assign(self, address: str, role: str | None) -> None:
        assert self.smart is not None
        self.state.pop()
        try:
            self.smart.assign(address, role)
        except KeyError:
            # Forgotten meanwhile, from a phone.
            self.state.say(self.state.t("pixels"), self.state.t("die-gone"))
        except ValueError as refused:
            self.state.say(self.state.t("pixels"), str(refused))

    def _forget(self, address: str) -> None:
        assert self.smart is not None
        self.state.pop()  # the die's list
        try:
            self.smart.forget(address)
        except KeyError:
            pass  # forgotten meanwhile (from a phone)

    def _label(self, die: SmartDie, role: str = "") -> str:
        """``d6: Pixel 42 87%``, ``Pixel 7 (away)``."""
        battery = f" {die.battery}%" if die.battery is not None else ""
        away = "" if die.connected or not role else f" ({self.state.t('away')})"
        return f"{role + ': ' if role else ''}{die.name}{battery}{away}"
