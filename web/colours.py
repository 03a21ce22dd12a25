"""The players' colours, chosen at setup on a phone.

The engines know players by name and seat only; colours belong to the panel.
They are kept per game in a small JSON file beside the journal, written to a
temporary file and renamed over the old one so that a power cut leaves
either the old colours or the new ones.
"""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path

# Distinct in sunlight and on a dark screen, and for the common colour
# blindnesses when read together with the names.
PALETTE = ("#d62828", "#1d6fd6", "#2a9d3f", "#e89a00",
           "#8e44ad", "#00a3a3", "#e0508a", "#7a5c3e")
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
# Games whose colours are remembered; older ones fall back to the palette.
KEPT_GAMES = 50


def default_colour(seat: int) -> str:
    return PALETTE[seat % len(PALETTE)]


class PlayerColours:
    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._by_game: dict[str, list[str]] = self._load()

    def of(self, game_id: int, players: int) -> list[str]:
        chosen = self._by_game.get(str(game_id), [])
        return [chosen[s] if s < len(chosen) else default_colour(s) for s in range(players)]

    def choose(self, game_id: int, colours: list[str | None]) -> None:
        picked = [c.lower() if c else default_colour(s) for s, c in enumerate(colours)]
        with self._lock:
            self._by_game[str(game_id)] = picked
            for old in sorted(self._by_game, key=int)[:-KEPT_GAMES]:
                del self._by_game[old]
            self._save()

    def _load(self) -> dict[str, list[str]]:
        if self._path is None:
            return {}
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            key: value for key, value in data.items()
            if key.isdigit() and isinstance(value, list)
            and all(isinstance(c, str) and HEX.match(c) for c in value)
        }

    def _save(self) -> None:
        if self._path is None:
            return
        temporary = self._path.with_name(self._path.name + ".tmp")
        temporary.write_text(json.dumps(self._by_game), encoding="utf-8")
        os.replace(temporary, self._path)
