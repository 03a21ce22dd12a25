"""Bathroom Rush (2 to 4 players): the engine is in :mod:`.game`, the cards
the companion knows by name in :mod:`.cards`."""

from .game import BLUE_DIE, RED_DIE, BathroomRush

__all__ = ["BathroomRush", "BLUE_DIE", "RED_DIE"]
