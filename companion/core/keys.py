"""The names the table's inputs share, light enough to import anywhere
(the config, the panel's request checks, the drivers) without the menu:
the five keys and how each can be pressed, the dice sources, and why
joining a Wi-Fi failed."""

from __future__ import annotations

KEYS = ("up", "down", "ok", "back", "roll")
KINDS = ("press", "long", "repeat")
DICE_SOURCES = ("button", "manual", "serial", "pixels")
# Why joining a Wi-Fi failed, as the network part tells the screen and the
# panel (each says it in its language: ``menu.wifi-why-<reason>``,
# ``wifi.why.<reason>``); "failed" is every other reason.
WIFI_FAILURES = ("wrong-password", "not-found", "timeout", "failed")
