"""The Caller section: the table's speaker turned on and off, and the
moments it says (see :mod:`companion.core.caller`), kept in the table's
settings like the panel's setup page keeps them."""

from __future__ import annotations

from functools import partial
from typing import Sequence

from ..caller import MOMENTS
from .levels import Choice, ListLevel
from .state import MenuState


class CallerSection:
    """``moments``: what the caller says until a controller chooses (the
    config's ``[voice] moments``); ``speaker``: the table has one."""

    def __init__(self, state: MenuState, speaker: bool,
                 moments: Sequence[str] = MOMENTS) -> None:
        self.state, self.speaker, self.moments = state, speaker, tuple(moments)

    def choices(self) -> list[Choice]:
        if not self.speaker:
            return []
        return [Choice(self._on_off("caller"), self.open)]

    def open(self, index: int = 0) -> None:
        state = self.state
        choices = [Choice(self._on_off("caller"), self._toggle)]
        choices += [Choice(self._moment(moment), partial(self._toggle_moment, moment))
                    for moment in MOMENTS]
        state.push(ListLevel(state, state.t("caller-title"), choices, index))

    def _on(self) -> bool:
        return self.state.table.settings().caller is not False

    def _chosen(self) -> tuple[str, ...]:
        chosen = self.state.table.settings().caller_moments
        return self.moments if chosen is None else chosen

    def _on_off(self, key: str) -> str:
        return self.state.t(f"{key}-{'on' if self._on() else 'off'}")

    def _moment(self, moment: str) -> str:
        said = "on" if moment in self._chosen() else "off"
        return self.state.t(f"caller-{moment}-{said}")

    def _toggle(self) -> None:
        self.state.table.change_setting("caller", not self._on())
        self._again(0)

    def _toggle_moment(self, moment: str) -> None:
        chosen = self._chosen()
        wanted = [m for m in chosen if m != moment] if moment in chosen else [*chosen, moment]
        self.state.table.change_setting("caller_moments", wanted)
        self._again(1 + MOMENTS.index(moment))

    def _again(self, index: int) -> None:
        """The list drawn again with the new words, on the same line."""
        self.state.pop()
        self.open(index)
