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

# A Wi-Fi network's name (SSID): 1 to 32 bytes once encoded in UTF-8 (32
# ASCII letters, 16 accented ones), no control characters.  The one rule
# of the panel's description and checks and of the driver.
MAX_SSID_BYTES = 32


def ssid_problem(name: object) -> str | None:
    """Why ``name`` cannot be a Wi-Fi network's name, or None when it can."""
    if not isinstance(name, str) or not name:
        return f"a network name is text of 1 to {MAX_SSID_BYTES} bytes of UTF-8"
    size = len(name.encode("utf-8", "surrogatepass"))
    if size > MAX_SSID_BYTES:
        return f"a network name is 1 to {MAX_SSID_BYTES} bytes of UTF-8, not {size}"
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        return "a network name may not hold control characters"
    return None
