"""Bathroom Rush's sentences, as :mod:`companion.core.text` finds them."""

from .sentences import SENTENCES as TEXT

__all__ = ["TEXT"]
