"""The OpenAPI 3.1 description of ``/api``, served at ``/api/openapi.json``.

Written by hand so that it says what the API promises; tests/test_openapi.py
keeps it true (every route is here with its methods, and the responses match
these schemas).
"""

from __future__ import annotations

from typing import Any


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict:
    return _json(description, _ref("Error"))


NULLABLE_INT = {"type": ["integer", "null"]}
NULLABLE_STR = {"type": ["string", "null"]}

# Every state-changing request: refused without the session's CSRF token, or
# when the body is too large.
CHANGE_ERRORS = {
    "403": _error("no valid X-CSRF-Token, or a spectator's session (error 'csrf' or "
                  "'spectator')"),
    "413": _error("the body is larger than 16 KiB"),
}
CHANGE_SECURITY = [{"csrfToken": [], "sessionCookie": []}]


def _body(schema: str) -> dict:
    return {"required": True, "content": {"application/json": {"schema": _ref(schema)}}}


def _table_change(summary: str, body: str) -> dict:
    return {
        "summary": summary,
        "security": CHANGE_SECURITY,
        "requestBody": _body(body),
        "responses": {
            "200": _json("the new state", _ref("GameState")),
            "400": _error("a malformed request (missing or mistyped field, control "
                          "characters in text, nesting deeper than 16 levels)"),
            **CHANGE_ERRORS,
            "409": _json("made against a stale version (error 'stale-version'), or no game "
                         "yet ('no-game'): the fresh state is in 'state'; nothing applied",
                         _ref("Conflict")),
            "422": _error("the game refuses it; 'error' names the rule "
                          "('not-expected', 'wrong-player', 'nothing-to-undo'...)"),
        },
    }


SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "message"],
        "properties": {
            "error": {"type": "string", "description": "a short machine-readable code"},
            "message": {"type": "string", "description": "what was wrong and what is allowed"},
            "retry_after": {"type": "integer", "minimum": 1},
        },
    },
    "Conflict": {
        "allOf": [_ref("Error")],
        "required": ["state"],
        "properties": {"state": _ref("State")},
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
            "dice": {"oneOf": [_ref("Dice"), {"type": "null"}]},
            "args": {"type": "object"},
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
        },
    },
    "Result": {
        "type": "object",
        "required": ["winners", "scores", "message"],
        "properties": {
            "winners": {"type": "array", "items": {"type": "integer"}},
            "scores": {"type": "array", "items": NULLABLE_INT},
            "message": {"type": "string"},
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
            "expected": {"type": "array", "items": _ref("Expectation")},
            "events": {"type": "array", "items": _ref("Event")},
            "over": {"type": "boolean"},
            "result": {"oneOf": [_ref("Result"), {"type": "null"}]},
            "players": {"type": "array", "items": {"type": "string"}},
            "can_undo": {"type": "boolean"},
            "can_redo": {"type": "boolean"},
            "undo_text": NULLABLE_STR,
            "setup": _ref("Setup"),
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
    "State": {"oneOf": [_ref("GameState"), _ref("NoGame")]},
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
        },
    },
    "CommandSpec": {
        "type": "object",
        "required": ["name", "help", "correction", "params"],
        "properties": {
            "name": {"type": "string"},
            "help": {"type": "string"},
            "correction": {"type": "boolean"},
            "params": {"type": "array", "items": _ref("Param")},
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
            "commands": {"type": "array", "items": _ref("CommandSpec")},
            "options": {
                "type": "object",
                "description": "setup options: name -> {default, help}",
                "additionalProperties": {"type": "object", "required": ["default"]},
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
        "required": ["seq", "version", "action", "command", "text", "events", "at", "source"],
        "properties": {
            "seq": {"type": "integer"},
            "version": {"type": "integer"},
            "action": {"enum": ["command", "undo", "redo"]},
            "command": {"oneOf": [_ref("Command"), {"type": "null"}]},
            "text": {"type": "string"},
            "events": {"type": "array", "items": _ref("Event")},
            "at": {"type": "number"},
            "source": {"type": "string"},
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
            "entries": {"type": "array", "items": _ref("HistoryEntry")},
        },
    },
    "Stats": {
        "type": "object",
        "required": ["games_played", "by_game", "players"],
        "properties": {
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
            "result": {"oneOf": [_ref("Result"), {"type": "null"}]},
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
            "dice": {"oneOf": [_ref("DiceSource"), {"type": "null"}]},
            "faults": {"type": "array", "items": {"type": "string"}},
            "screen": {"type": "boolean", "description": "a live OLED mirror is available"},
            "virtual": {"type": "boolean", "description": "the virtual table is available"},
        },
    },
    "Session": {
        "type": "object",
        "required": ["role", "csrf", "companion"],
        "properties": {
            "role": {"enum": ["controller", "spectator"]},
            "csrf": {"type": "string", "minLength": 16},
            "companion": _ref("Companion"),
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
            "state": _ref("State"),
        },
    },
    "Pressed": {
        "type": "object",
        "required": ["pressed"],
        "properties": {"pressed": {"enum": ["up", "down", "ok", "back", "roll"]}},
    },
    "NewGameRequest": {
        "type": "object",
        "required": ["game", "players", "version"],
        "properties": {
            "game": {"type": "string", "description": "a key from GET /api/games"},
            "players": {
                "type": "array", "minItems": 1, "maxItems": 12,
                "description": "in seating order, clockwise from the first player",
                "items": {"oneOf": [
                    {"type": "string", "minLength": 1, "maxLength": 24},
                    {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": 24},
                        "colour": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
                    }},
                ]},
            },
            "variants": {"type": "array", "maxItems": 16, "items": {"type": "string"}},
            "options": {"type": "object"},
            "version": {"type": ["integer", "null"],
                        "description": "the version shown, or null when no game is shown"},
        },
    },
    "CommandRequest": {
        "type": "object",
        "required": ["command", "version"],
        "properties": {"command": _ref("Command"), "version": {"type": "integer", "minimum": 0}},
    },
    "VersionRequest": {
        "type": "object",
        "required": ["version"],
        "properties": {"version": {"type": "integer", "minimum": 0}},
    },
    "JoinRequest": {
        "type": "object",
        "required": ["pin"],
        "properties": {"pin": {"type": "string", "minLength": 1, "maxLength": 12}},
    },
    "DiceSourceRequest": {
        "type": "object",
        "required": ["source"],
        "properties": {"source": {"type": "string"}},
    },
}

SERVER_ERROR = {"500": _error("an internal error; the message never holds a traceback")}

PATHS: dict[str, Any] = {
    "/api/state": {"get": {
        "summary": "the table's current state (or that there is no game)",
        "responses": {"200": _json("the state", _ref("State"))},
    }},
    "/api/games": {"get": {
        "summary": "the games this companion knows, with their commands and variants",
        "responses": {"200": _json("every game", {"type": "array",
                                                  "items": _ref("GameDescription")})},
    }},
    "/api/text": {"get": {
        "summary": "the pages' strings and every game's phrases (keyed "
                   "'<game key>:<phrase key>') in one language, English where it has none",
        "parameters": [{"name": "lang", "in": "query", "required": False,
                        "schema": {"type": "string", "enum": ["en", "fr"], "default": "en"},
                        "description": "the language"}],
        "responses": {"200": _json("key to text", {"type": "object",
                                                   "additionalProperties": {"type": "string"}}),
                      "400": _error("a language the panel does not speak")},
    }},
    "/api/new-game": {"post": {
        **_table_change("start a new game (the current one is kept as abandoned)",
                        "NewGameRequest"),
    }},
    "/api/command": {"post": _table_change("play one command of the current game",
                                           "CommandRequest")},
    "/api/undo": {"post": _table_change("take back the last command", "VersionRequest")},
    "/api/redo": {"post": _table_change("play again the last command taken back",
                                        "VersionRequest")},
    "/api/history": {"get": {
        "summary": "every change of the current game, in order",
        "responses": {"200": _json("the history", _ref("History"))},
    }},
    "/api/stats": {"get": {
        "summary": "games played and won, per game and per player",
        "responses": {"200": _json("the statistics", _ref("Stats"))},
    }},
    "/api/past-games": {"get": {
        "summary": "past and current games, newest first (at most 200)",
        "responses": {"200": _json("the games", {"type": "array", "items": _ref("PastGame")})},
    }},
    "/api/session": {"get": {
        "summary": "this phone's role and CSRF token (creates the session)",
        "responses": {"200": _json("the session", _ref("Session"))},
    }},
    "/api/join": {"post": {
        "summary": "become a controller with the PIN shown on the table's screen",
        "security": [{"csrfToken": [], "sessionCookie": []}],
        "requestBody": _body("JoinRequest"),
        "responses": {
            "200": _json("this phone is now a controller", _ref("Session")),
            "400": _error("no PIN in the body"),
            "403": _error("a wrong PIN ('wrong-pin') or no valid CSRF token ('csrf')"),
            "413": CHANGE_ERRORS["413"],
            "429": {**_error("too many wrong PINs from this address; see Retry-After"),
                    "headers": {"Retry-After": {"schema": {"type": "integer"}}}},
        },
    }},
    "/api/dice": {"post": {
        "summary": "choose where dice results come from",
        "security": CHANGE_SECURITY,
        "requestBody": _body("DiceSourceRequest"),
        "responses": {
            "200": _json("the companion's dice source and faults", _ref("Companion")),
            "400": _error("an unknown source"),
            **CHANGE_ERRORS,
            "404": _error("this companion has no dice service"),
        },
    }},
    "/api/dice/roll": {"post": {
        "summary": "roll what the game waits for (OS randomness) and play it",
        "security": CHANGE_SECURITY,
        "requestBody": _body("VersionRequest"),
        "responses": {
            "200": _json("the values rolled and the new state", _ref("DiceRoll")),
            "400": _error("a malformed request"),
            **CHANGE_ERRORS,
            "404": _error("this companion has no dice service"),
            "409": _json("a stale version, no game, or another phone's roll on its way "
                         "(error 'rolling')", _ref("Conflict")),
            "422": _error("the game waits for no roll"),
        },
    }},
    "/api/screen.png": {"get": {
        "summary": "the table's OLED as it shows now",
        "responses": {
            "200": {"description": "a 128x64 PNG",
                    "content": {"image/png": {"schema": {"type": "string",
                                                         "contentMediaType": "image/png"}}}},
            "404": _error("no display to mirror"),
        },
    }},
    "/api/keys/{key}": {"post": {
        "summary": "press a button of the simulated table",
        "security": CHANGE_SECURITY,
        "parameters": [{"name": "key", "in": "path", "required": True,
                        "schema": {"enum": ["up", "down", "ok", "back", "roll"]}}],
        "responses": {
            "200": _json("the key was pressed", _ref("Pressed")),
            **CHANGE_ERRORS,
            "404": _error("not a simulation, or no such key"),
        },
    }},
    "/api/events": {"get": {
        "summary": "live updates as Server-Sent Events",
        "description": "Events: 'update' (data: State) at once and after every change; "
                       "'companion' (data: Companion) at once and when it changes. "
                       "A ': heartbeat' comment every 15 s.",
        "responses": {
            "200": {"description": "an endless event stream",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}}},
            "503": _error("too many phones are watching live; see Retry-After"),
        },
    }},
    "/api/health": {"get": {
        "summary": "whether the panel answers, and how many phones watch live",
        "responses": {"200": _json("healthy", _ref("Health"))},
    }},
    "/api/openapi.json": {"get": {
        "summary": "this document",
        "responses": {"200": _json("the OpenAPI document", {"type": "object"})},
    }},
}

for _operations in PATHS.values():
    for _operation in _operations.values():
        _operation["responses"].update(SERVER_ERROR)

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Tabletop Companion panel API",
        "version": "1",
        "description": "The phone panel's API. Reading is open to every phone; changing "
                       "the table needs a controller session (join with the PIN or the QR "
                       "code on the table's screen) and the session's CSRF token. Errors "
                       "are {error, message}.",
    },
    "paths": PATHS,
    "components": {
        "schemas": SCHEMAS,
        "securitySchemes": {
            "sessionCookie": {"type": "apiKey", "in": "cookie", "name": "companion"},
            "csrfToken": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"},
        },
    },
}
