"""The OpenAPI 3.1 description of ``/api``, served at ``/api/openapi.json``.

Built from the app itself: every route under ``/api`` with its methods, each
described where it is written (:func:`operation` in ``web/api.py``), and the
request bodies from the same description that checks them
(``web/bodies.py``, shaped by the games' command specs), so the document is
exactly as strict as the server.  What the answers hold is described here;
tests/test_openapi.py checks the answers against it.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from companion.core.caller import MOMENTS
from companion.core.games import record_kinds
from companion.core.keys import WIFI_FAILURES
from companion.core.text import LANGUAGES

from . import bodies


def schema_ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def json_answer(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def error_answer(description: str) -> dict:
    return json_answer(description, schema_ref("Error"))


NULLABLE_INT = {"type": ["integer", "null"]}
NULLABLE_STR = {"type": ["string", "null"]}

# Every state-changing request: refused without the session's CSRF token, or
# when the body is too large.
CHANGE_ERRORS = {
    "403": error_answer("no valid X-CSRF-Token, or a spectator's session (error 'csrf' or "
                  "'spectator')"),
    "413": error_answer("the body is larger than 16 KiB"),
}
CHANGE_SECURITY: list[dict[str, list[str]]] = [{"csrfToken": [], "sessionCookie": []}]
MALFORMED = error_answer("a malformed body (a field missing, unknown or of the wrong kind, "
                   "control characters in text, nesting deeper than 16 levels): "
                   "exactly what this document's request schema refuses")
JOURNAL_ERROR = error_answer("the table could not be saved (error 'journal'); nothing changed")
# A turn: refused to a phone of another seat too.
TURN_REFUSED = error_answer("no valid X-CSRF-Token, or a spectator's session (error 'csrf' or "
                      "'spectator'), or, with the table's setting 'seat_only' on, another "
                      "seat's turn sent from a phone that is not that seat's (error "
                      "'not-your-seat', with 'player', whose turn it is, and 'seat', the "
                      "phone's); nothing changed")


def table_change() -> dict:
    """The answers of a request that changes the table."""
    return {
        "200": json_answer("the new state", schema_ref("GameState")),
        "400": MALFORMED,
        **CHANGE_ERRORS,
        "403": TURN_REFUSED,
        "409": json_answer("made against a stale version or another game (error "
                     "'stale-version'), or no game yet ('no-game'): the fresh state is in "
                     "'state'; nothing applied", schema_ref("Conflict")),
        "422": error_answer("the game refuses it; 'error' names the rule "
                      "('not-expected', 'wrong-player', 'nothing-to-undo', "
                      "'unknown-command'...)"),
        "503": JOURNAL_ERROR,
    }


RECORD_KIND: dict[str, Any] = {"type": "string"}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "message"],
        "properties": {
            "error": {"type": "string", "description": "a short machine-readable code"},
            "message": {"type": "string",
                        "description": "what was wrong and what is allowed; a refusal of "
                                       "the table or of a game is said in the phone's "
                                       "language (the 'lang' cookie, else Accept-Language, "
                                       "else the companion's language; Content-Language "
                                       "names it)"},
            "retry_after": {"type": "integer", "minimum": 1},
        },
    },
    "Conflict": {
        "allOf": [schema_ref("Error")],
        "required": ["state"],
        "properties": {"state": schema_ref("State")},
    },
    "Dice": {
        "type": "object",
        "required": ["sides", "count", "name"],
        "properties": {
            "sides": {"type": "integer", "minimum": 2},
            "count": {"type": "integer", "minimum": 1},
            "name": {"type": "string"},
        },
    },
    "Expectation": {
        "type": "object",
        "required": ["command", "prompt", "player", "dice", "args"],
        "properties": {
            "command": {"type": "string"},
            "prompt": {"type": "string"},
            "player": NULLABLE_INT,
            "dice": {"oneOf": [schema_ref("Dice"), {"type": "null"}]},
            "args": {"type": "object"},
            "said": {"type": "object", "additionalProperties": {"type": "string"},
                     "description": "the prompt in the other languages, by the games "
                                    "that say their prompts in several"},
        },
    },
    "Event": {
        "type": "object",
        "required": ["kind", "message", "data", "alert"],
        "properties": {
            "kind": {"type": "string"},
            "message": {"type": "string"},
            "data": {"type": "object"},
            "alert": {"type": "boolean"},
            "said": {"type": "object", "additionalProperties": {"type": "string"},
                     "description": "the event said in the other languages, by the games "
                                    "that say their events from their data"},
        },
    },
    "Result": {
        "type": "object",
        "required": ["winners", "scores", "message"],
        "properties": {
            "winners": {"type": "array", "items": {"type": "integer"}},
            "scores": {"type": "array", "items": NULLABLE_INT},
            "message": {"type": "string"},
            "ranks": {"type": "array", "items": {"type": "integer", "minimum": 1},
                      "description": "each seat's place (1 = won) when the game knows more "
                                     "than its scores tell (OhShit!: the order of deaths)"},
            "said": {"type": "object", "additionalProperties": {"type": "string"},
                     "description": "how the game ended in the other languages, by the games "
                                    "that say it from more than the winners"},
        },
    },
    "GameState": {
        "type": "object",
        "description": "the table after a change; 'state' is the game's own view",
        "required": ["game_id", "game", "title", "version", "action", "state", "expected",
                     "events", "over", "result", "players", "can_undo", "can_redo",
                     "undo_text", "setup", "colours"],
        "properties": {
            "game_id": {"type": "integer"},
            "game": {"type": "string"},
            "title": {"type": "string"},
            "version": {"type": "integer", "minimum": 0},
            "action": {"enum": ["new", "command", "undo", "redo", "replay", "current"]},
            "state": {"type": "object"},
            "expected": {"type": "array", "items": schema_ref("Expectation")},
            "events": {"type": "array", "items": schema_ref("Event")},
            "over": {"type": "boolean"},
            "result": {"oneOf": [schema_ref("Result"), {"type": "null"}]},
            "players": {"type": "array", "items": {"type": "string"}},
            "can_undo": {"type": "boolean"},
            "can_redo": {"type": "boolean"},
            "undo_text": NULLABLE_STR,
            "undo_events": {"type": "array", "items": schema_ref("Event"),
                            "description": "what undo would take back, as its events"},
            "setup": schema_ref("Setup"),
            "colours": {"type": "array", "description": "each seat's colour, in seating order",
                        "items": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}},
        },
    },
    "Setup": {
        "type": "object",
        "description": "how the game was set up. To play it again, send these players "
                       "(each with its seat's colour), variants and options to "
                       "POST /api/new-game with the version shown",
        "required": ["players", "variants", "options"],
        "properties": {
            "players": {"type": "array", "minItems": 1, "items": {"type": "string"},
                        "description": "in seating order, clockwise from the first player"},
            "variants": {"type": "array", "items": {"type": "string"}},
            "options": {"type": "object", "description": "only the options set at setup; "
                                                         "the others have their defaults"},
        },
    },
    "NoGame": {
        "type": "object",
        "required": ["game", "game_id", "version"],
        "properties": {
            "game": {"type": "null"},
            "game_id": {"type": "null"},
            "version": {"const": 0},
        },
    },
    "State": {"oneOf": [schema_ref("GameState"), schema_ref("NoGame")]},
    "Param": {
        "type": "object",
        "required": ["name", "kind", "optional"],
        "properties": {
            "name": {"type": "string"},
            "kind": {"enum": ["int", "player", "choice", "dice", "text", "bool"]},
            "optional": {"type": "boolean"},
            "low": {"type": "integer"},
            "high": {"type": "integer"},
            "choices": {"type": "array", "items": {"type": "string"}},
            "help": {"type": "string"},
            "named": {"type": "boolean", "description": "given only by name, never asked: "
                                                        "what the phone showed (the "
                                                        "expectation's args carry it)"},
        },
    },
    "CommandSpec": {
        "type": "object",
        "required": ["name", "help", "correction", "params"],
        "properties": {
            "name": {"type": "string"},
            "help": {"type": "string"},
            "correction": {"type": "boolean"},
            "params": {"type": "array", "items": schema_ref("Param")},
        },
    },
    "GameDescription": {
        "type": "object",
        "required": ["key", "title", "min_players", "max_players", "variants", "commands"],
        "properties": {
            "key": {"type": "string"},
            "title": {"type": "string"},
            "min_players": {"type": "integer", "minimum": 1},
            "max_players": {"type": "integer", "minimum": 1},
            "variants": {"type": "object", "additionalProperties": {"type": "string"}},
            "commands": {"type": "array", "items": schema_ref("CommandSpec")},
            "options": {
                "type": "object",
                "description": "setup options: name -> {default, help}",
                "additionalProperties": {"type": "object", "required": ["default"]},
            },
            "implies": {
                "type": "object",
                "description": "variant -> the variants it turns on too",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            },
        },
    },
    "Command": {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 64},
            "args": {"type": "object"},
        },
    },
    "HistoryEntry": {
        "type": "object",
        "required": ["seq", "version", "action", "command", "text", "said", "events", "undid",
                     "at", "source"],
        "properties": {
            "said": {"type": "string", "description": "the entry as a sentence (English): "
                                                      "its events, or what an undo took back"},
            "undid": {"type": "array", "items": schema_ref("Event"),
                      "description": "for an undo, the events of the command taken back"},
            "seq": {"type": "integer"},
            "version": {"type": "integer"},
            "action": {"enum": ["command", "undo", "redo"]},
            "command": {"oneOf": [schema_ref("Command"), {"type": "null"}]},
            "text": {"type": "string"},
            "events": {"type": "array", "items": schema_ref("Event")},
            "at": {"type": "number"},
            "source": {"type": "string"},
        },
    },
    "Preview": {
        "type": "object",
        "description": "what a command would do; the table is unchanged",
        "required": ["game_id", "version", "command", "events", "text", "state", "expected",
                     "over", "result"],
        "properties": {
            "game_id": {"type": "integer"},
            "version": {"type": "integer", "minimum": 0,
                        "description": "the version it was played against (unchanged)"},
            "command": schema_ref("Command"),
            "events": {"type": "array", "items": schema_ref("Event")},
            "text": {"type": "string", "description": "the events' sentences, in English"},
            "state": {"type": "object", "description": "the game's view after it"},
            "expected": {"type": "array", "items": schema_ref("Expectation")},
            "over": {"type": "boolean"},
            "result": {"oneOf": [schema_ref("Result"), {"type": "null"}]},
        },
    },
    "History": {
        "type": "object",
        "required": ["game_id", "game", "version", "entries"],
        "properties": {
            "game_id": NULLABLE_INT,
            "game": NULLABLE_STR,
            "version": {"type": "integer"},
            "players": {"type": "array", "items": {"type": "string"}},
            "can_undo": {"type": "boolean"},
            "can_redo": {"type": "boolean"},
            "undo_text": NULLABLE_STR,
            "undo_events": {"type": "array", "items": schema_ref("Event")},
            "state": {"oneOf": [schema_ref("GameState"), {"type": "null"}],
                      "description": "a past game's last state (null for the current game)"},
            "entries": {"type": "array", "items": schema_ref("HistoryEntry")},
        },
    },
    "Stats": {
        "type": "object",
        "required": ["games_played", "by_game", "players", "games"],
        "properties": {
            "games": {
                "type": "object",
                "description": "per game key: its finished games, players ranked by wins "
                               "(rate in percent, current and best win streak), its record "
                               "and head to head",
                "additionalProperties": schema_ref("GameStats"),
            },
            "games_played": {"type": "integer"},
            "by_game": {"type": "object", "additionalProperties": {"type": "integer"}},
            "players": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": ["played", "won"],
                    "properties": {"played": {"type": "integer"}, "won": {"type": "integer"}},
                },
            },
            "counting": {
                "type": "object",
                "description": "only while the games of a journal written by an earlier "
                               "version are being counted (once, after the start): the "
                               "statistics are those of the games counted so far",
                "required": ["summed", "of"],
                "properties": {"summed": {"type": "integer", "minimum": 0},
                               "of": {"type": "integer", "minimum": 1}},
            },
        },
    },
    "GameStats": {
        "type": "object",
        "required": ["games", "players", "record", "head_to_head"],
        "properties": {
            "games": {"type": "integer"},
            "players": {"type": "array", "items": {
                "type": "object",
                "required": ["name", "played", "won", "rate", "streak", "best_streak"],
                "properties": {
                    "name": {"type": "string"},
                    "played": {"type": "integer"},
                    "won": {"type": "integer"},
                    "rate": {"type": "integer", "minimum": 0, "maximum": 100},
                    "streak": {"type": "integer", "description": "wins in a row, now"},
                    "best_streak": {"type": "integer"},
                    "first_played": {"type": ["number", "null"],
                                     "description": "when their first game started"},
                    "last_played": {"type": ["number", "null"],
                                    "description": "when their last game started"},
                }}},
            "record": {"oneOf": [{"type": "null"}, {
                "type": "object",
                "required": ["kind", "value", "player", "game_id", "at"],
                "properties": {
                    # The installed games' kinds, filled in as the document
                    # is made (the games load then, not as the panel starts).
                    "kind": RECORD_KIND,
                    "value": {"type": "integer"},
                    "player": {"type": "string"},
                    "game_id": {"type": "integer"},
                    "at": {"oneOf": [{"type": "number"}, {"type": "null"}]},
                }}]},
            "head_to_head": {"type": "array", "items": {
                "type": "object",
                "required": ["a", "b", "games", "a_won", "b_won"],
                "properties": {
                    "a": {"type": "string"}, "b": {"type": "string"},
                    "games": {"type": "integer"},
                    "a_won": {"type": "integer", "description": "games a won and b did not"},
                    "b_won": {"type": "integer"},
                }}},
        },
    },
    "PastGame": {
        "type": "object",
        "required": ["id", "game", "players", "started", "status", "ended", "result"],
        "properties": {
            "id": {"type": "integer"},
            "game": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "variants": {"type": "array", "items": {"type": "string"}},
            "started": {"type": "number"},
            "status": {"enum": ["playing", "over", "abandoned"]},
            "ended": {"type": ["number", "null"]},
            "result": {"oneOf": [schema_ref("Result"), {"type": "null"}]},
            "bgstats": {"type": "string", "format": "uri",
                        "description": "a finished game: the link that logs it in BG Stats "
                                       "(see GET /api/bgstats)"},
        },
    },
    "BgStatsPlay": {
        "type": "object",
        "description": "a finished game as BG Stats takes a play from another app",
        "required": ["sourceName", "playDate", "durationMin", "game", "players"],
        "properties": {
            "sourceName": {"type": "string"},
            "sourcePlayId": {"type": "string", "description": "the same for every export of "
                                                              "one game: BG Stats updates the "
                                                              "play instead of adding another"},
            "playDate": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$",
                         "description": "when it started, the table's local time"},
            "durationMin": {"type": "integer", "minimum": 0},
            "board": {"type": "string", "description": "the variants played, in the table's "
                                                       "language"},
            "game": {
                "type": "object",
                "required": ["name", "highestWins", "noPoints", "sourceGameId"],
                "properties": {
                    "name": {"type": "string"},
                    "bggId": {"type": "integer", "minimum": 1,
                              "description": "BoardGameGeek's id, when configured"},
                    "highestWins": {"type": "boolean"},
                    "noPoints": {"type": "boolean"},
                    "sourceGameId": {"type": "string", "description": "the game's key"},
                },
            },
            "players": {"type": "array", "items": {
                "type": "object",
                "required": ["name", "winner", "rank", "startPlayer"],
                "properties": {
                    "name": {"type": "string"},
                    "score": {"type": "integer"},
                    "winner": {"type": "boolean"},
                    "rank": {"type": "integer", "minimum": 1},
                    "startPlayer": {"type": "boolean"},
                    "sourcePlayerId": {"type": "string"},
                }}},
        },
    },
    "DiceSource": {
        "type": "object",
        "required": ["source", "sources", "status"],
        "properties": {
            "source": {"type": "string"},
            "sources": {"type": "array", "items": {"type": "string"}},
            "status": {"type": "string"},
        },
    },
    "Companion": {
        "type": "object",
        "description": "what the phones show besides the game",
        "required": ["dice", "faults", "screen", "virtual"],
        "properties": {
            "dice": {"oneOf": [schema_ref("DiceSource"), {"type": "null"}]},
            "faults": {"type": "array", "items": {"type": "string"}},
            "screen": {"type": "boolean", "description": "a live OLED mirror is available"},
            "virtual": {"type": "boolean", "description": "the virtual table is available"},
            "settings": schema_ref("Settings"),
            "seats": {"type": "object", "additionalProperties": {"type": "string"},
                      "description": "the claim token of the phone holding each seat, by "
                                     "player's name: a phone whose token is gone lost its "
                                     "seat to another phone"},
        },
    },
    "Settings": {
        "type": "object",
        "description": "the table's settings, kept in the journal across restarts",
        "required": ["seat_only", "language", "language_set", "configured_language", "caller",
                     "caller_moments", "speaker"],
        "properties": {
            "seat_only": {"type": "boolean",
                          "description": "a seat's turn is playable only from that seat's "
                                         "phone (the table's buttons and CLI act for anyone)"},
            "language": {"enum": list(LANGUAGES),
                         "description": "the table's language: the table's screen and every "
                                        "phone without a language of its own follow it"},
            "language_set": {"type": "boolean",
                             "description": "a controller set it (else it is the configured "
                                            "language)"},
            "configured_language": {"enum": list(LANGUAGES)},
            "caller": {"type": "boolean",
                       "description": "the caller speaks on the table's speaker"},
            "caller_moments": {"type": "array", "items": {"enum": list(MOMENTS)},
                               "description": "the moments the caller says"},
            "speaker": {"type": "boolean",
                        "description": "the table has a speaker of its own ([voice])"},
        },
    },
    "Session": {
        "type": "object",
        "required": ["role", "csrf", "companion"],
        "properties": {
            "role": {"enum": ["controller", "spectator"]},
            "csrf": {"type": "string", "minLength": 16},
            "companion": schema_ref("Companion"),
            "seat": {"type": ["string", "null"],
                     "description": "the player this phone belongs to, if it still holds "
                                    "the seat"},
            "claim": {"type": ["string", "null"],
                      "description": "this phone's claim token of its seat (see "
                                     "Companion.seats)"},
            "taken": {"type": "boolean",
                      "description": "(POST /api/seat) the seat was another phone's"},
        },
    },
    "Health": {
        "type": "object",
        "required": ["status", "game", "version", "streams"],
        "properties": {
            "status": {"const": "ok"},
            "game": NULLABLE_STR,
            "version": {"type": "integer"},
            "streams": {"type": "integer", "minimum": 0},
        },
    },
    "DiceRoll": {
        "type": "object",
        "required": ["values", "state"],
        "properties": {
            "values": {"type": "array", "items": {"type": "integer"}},
            "state": schema_ref("State"),
        },
    },
    "Pressed": {
        "type": "object",
        "required": ["pressed"],
        "properties": {"pressed": {"enum": ["up", "down", "ok", "back", "roll"]}},
    },
    # The Wi-Fi (web/network.py).
    "VenueStatus": {
        "type": "object",
        "required": ["enabled", "connected"],
        "properties": {
            "enabled": {"type": "boolean", "description": "the table publishes to a venue"},
            "broker": {"type": "string"},
            "port": {"type": "integer"},
            "tls": {"type": "boolean"},
            "venue": {"type": "string"},
            "table": {"type": "string"},
            "username": {"type": "string"},
            "has_password": {"type": "boolean",
                             "description": "a password is kept (it is never sent back)"},
            "topic": {"type": ["string", "null"],
                      "description": "where the table publishes (companion/<venue>/<table>)"},
            "connected": {"type": "boolean"},
            "error": {"type": ["string", "null"], "description": "why it is not connected"},
            "sent": {"type": "integer"},
            "dropped": {"type": "integer",
                        "description": "changes never sent: the broker was away too long"},
            "refused": {"type": "integer",
                        "description": "messages the broker refused (its ACL)"},
            "source": {"enum": ["config", "panel"],
                       "description": "where the settings come from"},
            "changes_allowed": {"type": "boolean",
                                "description": "the owner allowed a change at the table a "
                                               "moment ago (Menu → Venue → OK)"},
        },
    },
    "NetworkStatus": {
        "type": "object",
        "required": ["mode"],
        "properties": {
            "mode": {"enum": ["unmanaged", "starting", "waiting", "connected", "hotspot",
                              "joining", "disconnected", "unavailable"]},
            "ssid": {"type": ["string", "null"], "description": "the network it is on"},
            "address": {"type": ["string", "null"]},
            "hotspot": {"type": ["string", "null"],
                        "description": "the name of its own Wi-Fi (its password is shown "
                                       "on the table's screen only)"},
            "offer": {"type": ["string", "null"],
                      "description": "a known network in reach while it is the hotspot"},
            "joining": {"type": ["string", "null"]},
            "error": {"type": ["string", "null"],
                      "description": "why the last join failed, in English"},
            "failed": {
                "type": ["object", "null"],
                "description": "the last join that failed and why, for a phone to say in "
                               "its language",
                "required": ["ssid", "reason"],
                "properties": {
                    "ssid": {"type": "string"},
                    "reason": {"enum": list(WIFI_FAILURES)},
                },
            },
        },
    },
    "WifiNetwork": {
        "type": "object",
        "required": ["ssid", "signal", "secure", "known", "in_use"],
        "properties": {
            "ssid": {"type": "string"},
            "signal": {"type": "integer", "minimum": 0, "maximum": 100},
            "secure": {"type": "boolean", "description": "needs a password"},
            "security": {"type": "string"},
            "known": {"type": "boolean", "description": "remembered by the companion"},
            "in_use": {"type": "boolean"},
        },
    },
}

SERVER_ERROR = {"500": error_answer("an internal error; the message never holds a traceback")}

SERVER_ERROR = {"500": error_answer("an internal error; the message never holds a traceback")}

INFO = {
    "title": "Tabletop Companion panel API",
    "version": "1",
    "description": "The phone panel's API. Reading is open to every phone; changing "
                   "the table needs a controller session (join with the PIN or the QR "
                   "code on the table's screen) and the session's CSRF token. Errors "
                   "are {error, message}. A request body the schemas here refuse is "
                   "refused (400), and one they accept is never refused as malformed.",
}
SECURITY_SCHEMES = {
    "sessionCookie": {"type": "apiKey", "in": "cookie", "name": "companion"},
    "csrfToken": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"},
}
METHODS = ("get", "post", "put", "patch", "delete")


def operation(summary: str, responses: dict, *, description: str = "",
              changes: bool = False, parameters: list[dict] | None = None) -> Callable:
    """Describe a route where it is written: its summary and answers.
    ``changes`` marks a state-changing request (CSRF token and session).
    The request body comes from the route's :func:`takes`."""

    def describe(view: Callable) -> Callable:
        described: dict[str, Any] = {"summary": summary}
        if description:
            described["description"] = description
        if changes:
            described["security"] = CHANGE_SECURITY
        if parameters:
            described["parameters"] = parameters
        described["responses"] = {**responses, **SERVER_ERROR}
        view.openapi = described  # type: ignore[attr-defined]
        return view

    return describe


def openapi_path(rule: str) -> str:
    """``/api/keys/<any(up, down):key>`` -> ``/api/keys/{key}``."""
    return re.sub(r"<(?:[^:<>]+:)?([^:<>]+)>", r"{\1}", rule)


def _path_parameters(rule) -> list[dict]:
    out = []
    for converter, _arguments, name in _converters(rule.rule):
        schema: dict[str, Any] = {"type": "string"}
        if converter == "any":
            schema = {"enum": list(rule._converters[name].items)}
        out.append({"name": name, "in": "path", "required": True, "schema": schema})
    return out


def _converters(rule: str) -> list[tuple[str, str, str]]:
    return [(m.group(1) or "default", m.group(2) or "", m.group(3))
            for m in re.finditer(r"<(?:(\w+)(?:\(([^)]*)\))?:)?(\w+)>", rule)]


def document(app) -> dict[str, Any]:
    """The OpenAPI document of ``app``'s ``/api`` routes."""
    paths: dict[str, Any] = {}
    requests: dict[str, Any] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if not rule.rule.startswith("/api"):
            continue
        view = app.view_functions[rule.endpoint]
        described = getattr(view, "openapi", None)
        if described is None:
            raise LookupError(f"the route {rule.rule} is not described (web.openapi.operation)")
        for method in sorted(m.lower() for m in rule.methods or ()):
            if method not in METHODS:
                continue
            entry = dict(described)
            parameters = _path_parameters(rule)
            if parameters:
                entry["parameters"] = parameters
            kind = getattr(view, "request_kind", None)
            if kind is not None:
                requests[kind.__name__] = bodies.schema_of(kind)
                entry["requestBody"] = {"required": True, "content": {
                    "application/json": {"schema": schema_ref(kind.__name__)}}}
            paths.setdefault(openapi_path(rule.rule), {})[method] = entry
    RECORD_KIND["enum"] = record_kinds()
    return {
        "openapi": "3.1.0",
        "info": INFO,
        "paths": paths,
        "components": {
            "schemas": {**SCHEMAS, **bodies.schemas(), **requests},
            "securitySchemes": SECURITY_SCHEMES,
        },
    }
