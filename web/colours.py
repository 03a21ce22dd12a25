"""The players' colours, chosen at setup on a phone, and the players'
profiles: each name with the colour it last played with, offered at the
next setup.

The engines know players by name and seat only; colours belong to the panel.
They are kept per game in a small JSON file beside the journal (profiles
under the key ``"profiles"``), written whole by the companion's ``keep``
(:func:`companion.host.storage.keep_file`: a temporary file synced, renamed over
the old one, its folder synced), so that once a choice is answered a power
cut leaves the new colours, and never a part of a file.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Callable

# ``keep(path, text)`` writes the whole file durably before it returns.
Keep = Callable[[Path, str], None]

# Distinct in sunlight and on a dark screen, and for the common colour
# blindnesses when read together with the names.
PALETTE = ("#d62828", "#1d6fd6", "#2a9d3f", "#e89a00",
           "#8e44ad", "#00a3a3", "#e0508a", "#7a5c3e")
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
# Games whose colours are remembered; older ones fall back to the palette.
KEPT_GAMES = 50
# Players remembered as profiles; the ones not seen for longest are dropped.
KEPT_PROFILES = 60
MAX_NAME = 24


def default_colour(seat: int) -> str:
    return PALETTE[seat % len(PALETTE)]


class PlayerColours:
    """The colours and profiles, in the file ``path`` written by ``keep``;
    in memory only without them."""

    def __init__(self, path: Path | None, keep: Keep | None = None) -> None:
        self._path = path if keep is not None else None
        self._keep = keep
        self._lock = threading.Lock()
        self._profiles: list[dict[str, str]] = []
        self._by_game: dict[str, list[str]] = self._load()

    def of(self, game_id: int, players: int) -> list[str]:
        chosen = self._by_game.get(str(game_id), [])
        return [chosen[s] if s < len(chosen) else default_colour(s) for s in range(players)]

    def profiles(self) -> list[dict[str, str]]:
        """The players met before, the latest first: ``{"name", "colour"}``."""
        with self._lock:
            return [dict(p) for p in self._profiles]

    def choose(self, game_id: int, colours: list[str | None],
               names: list[str] | None = None) -> None:
        """Keep a game's colours; with ``names``, remember each player with
        their colour for the next setup."""
        picked = [c.lower() if c else default_colour(s) for s, c in enumerate(colours)]
        with self._lock:
            self._by_game[str(game_id)] = picked
            for old in sorted(self._by_game, key=int)[:-KEPT_GAMES]:
                del self._by_game[old]
            if names:
                seen = [{"name": " ".join(n.split())[:MAX_NAME], "colour": c}
                        for n, c in zip(names, picked, strict=False) if n.strip()]
                keys = {p["name"].casefold() for p in seen}
                rest = [p for p in self._profiles if p["name"].casefold() not in keys]
                self._profiles = (seen + rest)[:KEPT_PROFILES]
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
        profiles = data.get("profiles")
        if isinstance(profiles, list):
            self._profiles = [
                {"name": p["name"], "colour": p["colour"]} for p in profiles
                if isinstance(p, dict) and isinstance(p.get("name"), str)
                and 0 < len(p["name"]) <= MAX_NAME
                and isinstance(p.get("colour"), str) and HEX.match(p["colour"])
            ][:KEPT_PROFILES]
        return {
            key: value for key, value in data.items()
            if key.isdigit() and isinstance(value, list)
            and all(isinstance(c, str) and HEX.match(c) for c in value)
        }

    def _save(self) -> None:
        if self._path is None or self._keep is None:
            return
        self._keep(self._path, json.dumps({**self._by_game, "profiles": self._profiles},
                                          ensure_ascii=False))
