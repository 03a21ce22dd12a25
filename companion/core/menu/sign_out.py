"""The Sign-out section: every phone signed out of the panel (a new PIN
and QR code), which the Join screen then shows."""

from __future__ import annotations

from typing import Callable

from .levels import Choice, Confirm, Join
from .state import MenuState


class SignOutSection:
    def __init__(self, state: MenuState, sign_out: Callable[[], tuple[str, str]] | None) -> None:
        self.state, self._sign_out = state, sign_out

    def choices(self) -> list[Choice]:
        if self._sign_out is None:
            return []
        return [Choice(self.state.t("sign-out"), self._ask)]

    def _ask(self) -> None:
        state = self.state
        state.push(Confirm(state, state.t("sign-out"), state.t("sign-out-ask"), self._signed_out))

    def _signed_out(self) -> None:
        assert self._sign_out is not None
        self.state.clear()
        url, pin = self._sign_out()
        self.state.push(Join(self.state, url, pin))
