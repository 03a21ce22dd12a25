"""The Venue section of the menu: the owner, at the table, lets a controller's
phone change where the table publishes (its venue's broker) for a few
minutes.  Without that key press the panel refuses every change, so that a
phone that joined with the PIN cannot move the table, and its broker
password, elsewhere."""

from __future__ import annotations

from typing import Callable

from .levels import Choice, Confirm, Message
from .state import MenuState


class VenueSection:
    def __init__(self, state: MenuState, allow: Callable[[], None] | None) -> None:
        self.state, self._allow = state, allow

    def choices(self) -> list[Choice]:
        if self._allow is None:
            return []
        return [Choice(self.state.t("venue"), self._ask)]

    def _ask(self) -> None:
        state = self.state
        state.push(Confirm(state, state.t("venue"), state.t("venue-ask"), self._allowed))

    def _allowed(self) -> None:
        assert self._allow is not None
        self._allow()
        self.state.push(Message(self.state, self.state.t("venue"), self.state.t("venue-allowed")))
