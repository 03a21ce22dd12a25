"""The names the table's inputs share, light enough to import anywhere
(the config, the panel's request checks, the drivers) without the menu:
the five keys and how each can be pressed, and the dice sources."""

from __future__ import annotations

KEYS = ("up", "down", "ok", "back", "roll")
KINDS = ("press", "long", "repeat")
DICE_SOURCES = ("button", "manual", "serial", "pixels")
