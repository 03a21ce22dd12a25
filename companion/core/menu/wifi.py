"""The Wi-Fi sections: a known network in reach offered first in the main
menu, and joining: the companion's own Wi-Fi as a QR code while it is the
hotspot, then the panel's QR code and PIN."""

from __future__ import annotations

from .levels import Choice, Confirm, Join, WifiJoin
from .state import MenuServices, MenuState, drop_put_up_joins


class WifiOfferSection:
    """A known network in reach, to switch to."""

    def __init__(self, state: MenuState, services: MenuServices) -> None:
        self.state, self.services = state, services

    def choices(self) -> list[Choice]:
        offered = self.services.network_offer
        ssid = offered() if offered is not None else None
        if not ssid:
            return []
        return [Choice(self.state.t("wifi-offer", ssid=ssid), lambda: self._ask_switch(ssid))]

    def _ask_switch(self, ssid: str) -> None:
        switch = self.services.switch_network
        if switch is None:
            return
        state = self.state

        def switch_now() -> None:
            state.clear()
            switch()

        state.push(Confirm(state, state.t("wifi"), state.t("wifi-switch", ssid=ssid),
                           switch_now))


class JoinSection:
    """The Join screens: the Wi-Fi's first while the companion is the
    hotspot, then the panel's."""

    def __init__(self, state: MenuState, services: MenuServices) -> None:
        self.state, self.services = state, services

    def choices(self) -> list[Choice]:
        return [Choice(self.state.t("join-qr"), self.open)]

    def open(self, put_up: bool = False) -> None:
        own = self.services.wifi() if self.services.wifi is not None else None
        if own is not None:
            self.state.push(WifiJoin(self.state, *own, then=self._after_wifi, put_up=put_up))
            return
        self._open_panel(put_up)

    def _after_wifi(self, wifi: WifiJoin) -> None:
        if wifi.put_up and self.state.playing():
            # Put up at a restart over a game being played: the first key
            # is the game again (BACK, Join shows the codes when wanted).
            drop_put_up_joins(self.state)
            return
        # One key later: the panel's QR code and PIN.
        self._open_panel(wifi.put_up)

    def _open_panel(self, put_up: bool) -> None:
        state = self.state
        if self.services.join_info is None:
            state.say(state.t("join"), state.t("no-panel"))
            return
        url, pin = self.services.join_info()
        state.push(Join(state, url, pin, put_up))

    def show(self) -> None:
        """Put the Join screens up, over any shown before (the Wi-Fi
        changed): a move at the table puts them away."""
        state = self.state
        state.stack = [level for level in state.stack
                       if not isinstance(level, (Join, WifiJoin))]
        self.open(put_up=True)
