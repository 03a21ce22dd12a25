"""Playing an engine directly with commands written as words, as the rules tests do."""

from __future__ import annotations


def play(game, *words):
    """Apply commands written as words; return the events of the last one."""
    events = []
    for text in words:
        events = game.apply(game.parse_words(text))
    return events


def kinds(events):
    return [e.kind for e in events]
