"""A table's messages to its venue's MQTT broker, and the board's reading of them.

Every companion of a venue publishes under ``companion/<venue>/<table>/``:

- ``state``: the public view of the game (game, game id, version, players,
  whose turn, each player's figure, who leads), retained, on change only;
- ``event``: each change as the history says it, with a stable ``id``
  (``<game id>:<version>``) so that a subscriber drops a duplicate;
- ``result/<game id>``: a finished game's result, retained per game;
- ``alert``: an alert (a threshold, an explosion...) as Home Assistant's
  event entity takes it (``{"event_type": ...}``);
- ``availability``: ``online``, and the broker's retained last will
  ``offline`` when the table goes away.

Home Assistant finds each table as a device from discovery messages
(:func:`discovery`).  The venue board reads the same topics and keeps what
it can check (``companion.venue.schema``): a message that is not well
formed, or whose content names another table than its topic, is refused
with its cause.  Names become topic levels in ``companion.venue.names``.

Pure: no broker, no clock; the adapters in ``drivers.mqtt`` and the parts
in ``companion.parts.venue`` and ``companion.venue`` move the bytes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .games import alert_kinds, game_class, standing_of
from .stats import Played
from .updates import HistoryEntry, Update

ROOT = "companion"
ONLINE, OFFLINE = "online", "offline"
# Home Assistant's discovery prefix and the topic of its birth message.
DISCOVERY_PREFIX = "homeassistant"
HA_STATUS = f"{DISCOVERY_PREFIX}/status"
# How many seats Home Assistant is told about: the most any game seats.
MAX_SEATS = 6


# A broker's host as the network's resolver takes it: a DNS name or an IPv4
# address (labels of 1 to 63 letters, digits, dashes or underscores, no dash
# at either end, 253 characters in all) or an IPv6 address written plainly
# ("fd00::1"), or "" for no venue.  The panel's JSON Schema uses this very
# pattern, so that the document and the check are one rule.
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_H16 = r"[0-9A-Fa-f]{1,4}"
_IPV6 = "|".join((
    rf"(?:{_H16}:){{7}}{_H16}",
    rf"(?:{_H16}:){{1,7}}:",
    rf"(?:{_H16}:){{1,6}}:{_H16}",
    *(rf"(?:{_H16}:){{1,{5 - n}}}(?::{_H16}){{1,{n + 2}}}" for n in range(5)),
    rf":(?:(?::{_H16}){{1,7}}|:)",
))
HOST_PATTERN = rf"^(?:(?:{_LABEL}\.)*{_LABEL}\.?|{_IPV6})?$"
MAX_HOST = 253


def host_problem(host: object) -> str | None:
    """Why ``host`` cannot be a broker's host, or None when it can."""
    if not isinstance(host, str) or len(host) > MAX_HOST or not re.fullmatch(HOST_PATTERN, host):
        return (f'a host name, an IPv4 or IPv6 address, or "" for none (labels of at most 63 '
                f"letters, digits or dashes), not {host!r}")
    return None


@dataclass(frozen=True)
class Topics:
    """The topics of one table of one venue."""

    venue: str
    table: str

    @property
    def base(self) -> str:
        return f"{ROOT}/{self.venue}/{self.table}"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def event(self) -> str:
        return f"{self.base}/event"

    @property
    def alert(self) -> str:
        return f"{self.base}/alert"

    @property
    def availability(self) -> str:
        return f"{self.base}/availability"

    def result(self, game_id: int) -> str:
        return f"{self.base}/result/{game_id}"

    @property
    def device_id(self) -> str:
        return f"companion_{self.venue}_{self.table}".replace("-", "_")


# -- what a table publishes -------------------------------------------------------


def state_message(update: Update, table: str) -> dict[str, Any]:
    """The public view of the table after ``update``."""
    standing = standing_of(update.game_key)
    figures = standing.figures(update.state) if standing else []
    leader = standing.leader(update.state) if standing else None
    turn = next((e.player for e in update.expected if e.player is not None), None)
    players = []
    for seat, name in enumerate(update.players):
        figure, still_in = figures[seat] if seat < len(figures) else (None, True)
        players.append({"name": name, "figure": figure, "in": still_in})
    return {
        "table": table,
        "game": update.game_key,
        "title": update.title,
        "game_id": update.game_id,
        "version": update.version,
        "figure": standing.figure if standing else None,
        "players": players,
        "turn": None if turn is None else update.players[turn],
        "leader": None if leader is None else update.players[leader],
        "over": update.over,
        "winners": [update.players[s] for s in update.result.winners] if update.result else [],
    }


def event_message(game_id: int, game: str, entry: HistoryEntry, table: str) -> dict[str, Any]:
    """One line of a game's history, with the id a subscriber drops
    duplicates by."""
    events = entry.events if entry.action != "undo" else entry.undid
    return {
        "id": f"{game_id}:{entry.version}",
        "table": table,
        "game": game,
        "game_id": game_id,
        "version": entry.version,
        "action": str(entry.action),
        "said": entry.said,
        "events": [e.to_json() for e in events],
        "alerts": [e.kind for e in events if e.alert and entry.action != "undo"],
        "at": entry.at,
    }


def result_message(played: Played, table: str, message: str = "") -> dict[str, Any]:
    """A finished game's result (from its summary)."""
    return {
        "id": played.game_id,
        "table": table,
        "game": played.game,
        "title": game_class(played.game).title,
        "game_id": played.game_id,
        "players": list(played.players),
        "winners": [played.players[s] for s in sorted(played.winners)
                    if 0 <= s < len(played.players)],
        "scores": list(played.scores),
        "message": message,
        "started": played.started,
        "ended": played.ended,
    }


def alert_message(event: Mapping[str, Any], change: str,
                  players: Sequence[str]) -> dict[str, Any]:
    """An alert as Home Assistant's event entity takes it: its kind, its
    sentence, the player it is about (if any) and ``change``, the id of the
    event message it came with."""
    seat = event.get("data", {}).get("player")
    player = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None
    return {"event_type": event["kind"], "said": event.get("message", ""), "player": player,
            "id": change}


def encode(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# -- Home Assistant ---------------------------------------------------------------


def discovery(topics: Topics, table_name: str, version: str) -> list[tuple[str, dict[str, Any]]]:
    """Home Assistant's discovery messages for a table: one device; sensors
    for the game, whose turn, the leader and each seat's figure; an event
    entity for the alerts; availability from the table's last will.  Each
    is ``(topic, payload)``, published retained.  Entity ids are set with
    ``default_entity_id`` (``sensor.<unique id>``), as Home Assistant asks
    since 2025.10 (``object_id`` is deprecated, and gone in 2026.4)."""
    device = {"identifiers": [topics.device_id], "name": table_name,
              "manufacturer": "Tabletop Companion", "model": "Tabletop Companion",
              "sw_version": version}
    common = {"availability_topic": topics.availability, "payload_available": ONLINE,
              "payload_not_available": OFFLINE, "device": device,
              "origin": {"name": "Tabletop Companion", "sw_version": version}}
    out: list[tuple[str, dict[str, Any]]] = []

    def sensor(key: str, name: str, template: str, icon: str) -> None:
        unique = f"{topics.device_id}_{key}"
        out.append((f"{DISCOVERY_PREFIX}/sensor/{topics.device_id}/{key}/config", {
            "name": name, "unique_id": unique, "default_entity_id": f"sensor.{unique}",
            "state_topic": topics.state, "value_template": template, "icon": icon,
            **common}))

    sensor("game", "Game", "{{ value_json.title }}", "mdi:cards-playing")
    sensor("turn", "Turn", "{{ value_json.turn or 'none' }}", "mdi:account-arrow-right")
    sensor("leader", "Leader", "{{ value_json.leader or 'none' }}", "mdi:crown")
    for seat in range(MAX_SEATS):
        template = (f"{{% set p = value_json.players[{seat}] if value_json.players | length > "
                    f"{seat} else none %}}{{{{ p.figure if p else 'none' }}}}")
        sensor(f"seat_{seat + 1}", f"Seat {seat + 1}", template, "mdi:account")
    unique = f"{topics.device_id}_alert"
    out.append((f"{DISCOVERY_PREFIX}/event/{topics.device_id}/alert/config", {
        "name": "Alert", "unique_id": unique, "default_entity_id": f"event.{unique}",
        "state_topic": topics.alert, "event_types": alert_kinds(), "icon": "mdi:alert",
        **common}))
    return out


# -- what the board reads ---------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """A message the board took: its venue, table, kind and content."""

    venue: str
    table: str
    kind: str  # "state", "event", "result", "availability", "alert"
    body: Mapping[str, Any] | str


def played_of(results: Sequence[Mapping[str, Any]]) -> list[Played]:
    """Results from many tables as the statistics add them up (numbered in
    the order given)."""
    out = []
    for number, r in enumerate(results, 1):
        players = tuple(str(p) for p in r["players"])
        winners = frozenset(players.index(w) for w in r["winners"] if w in players)
        scores = tuple(s if isinstance(s, int) else None for s in r.get("scores", ()))
        out.append(Played(number, str(r["game"]), players, winners, scores,
                          float(r.get("started") or 0.0), r.get("ended")))
    return out
