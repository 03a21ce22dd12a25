"""The OpenAPI document at /api/openapi.json says what the API does: every
route under /api is in it with its methods (and nothing else is), and what
the test client gets back matches the documented schemas."""

from __future__ import annotations

import re

import jsonschema
import pytest

from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table
from tests.fakes import FixedDice
from web import PanelSettings, Services, create_app
from web.openapi import document, openapi_path

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture
def app(table):
    services = Services(screen_png=lambda: b"\x89PNG\r\n\x1a\n", press_key=lambda key: None,
                        dice=FixedDice(table, [1]), faults=list)
    return create_app(table, PanelSettings(secret_key="test", max_streams=0), services=services)


def _described() -> dict:
    """The document of the panel's routes (the same for every app)."""
    table = Table(Journal.open(":memory:"))
    try:
        return document(create_app(table, PanelSettings()))
    finally:
        table.close()


DOCUMENT = _described()


def test_the_document_is_served(app):
    response = app.test_client().get("/api/openapi.json")
    assert response.status_code == 200
    assert response.json["openapi"].startswith("3.")
    assert response.json == DOCUMENT == document(app)


def test_every_api_route_is_documented_with_its_methods_and_nothing_more(app):
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api"):
            path = openapi_path(rule.rule)
            routes.setdefault(path, set()).update(m.lower() for m in rule.methods)
    routes = {path: methods & METHODS for path, methods in routes.items()}
    documented = {path: set(operations) & METHODS
                  for path, operations in DOCUMENT["paths"].items()}
    assert routes == documented


def test_every_reference_in_the_document_resolves():
    text = repr(DOCUMENT)
    for name in set(re.findall(r"#/components/schemas/([\w-]+)", text)):
        assert name in DOCUMENT["components"]["schemas"], name


def test_every_operation_documents_its_responses_and_path_parameters():
    for path, operations in DOCUMENT["paths"].items():
        for method, operation in operations.items():
            assert operation["responses"], (method, path)
            assert "500" in operation["responses"], (method, path)
            for name in re.findall(r"{(\w+)}", path):
                assert any(p["name"] == name and p["in"] == "path"
                           for p in operation.get("parameters", [])), (method, path, name)


def check(response, method: str, path: str) -> None:
    """The response's status is documented for the operation, and its JSON
    body matches the documented schema."""
    operation = DOCUMENT["paths"][path][method]
    status = str(response.status_code)
    assert status in operation["responses"], f"{method.upper()} {path} gave undocumented {status}"
    content = operation["responses"][status].get("content", {})
    if "application/json" in content:
        schema = {**content["application/json"]["schema"],
                  "components": DOCUMENT["components"]}
        jsonschema.validate(response.json, schema, cls=jsonschema.Draft202012Validator)
    else:
        assert response.content_type.split(";")[0] in content, response.content_type


def test_what_the_api_answers_matches_the_document(app, table):
    client = app.test_client()
    spectator = app.test_client()
    access = app.extensions["companion"].access

    def session(c) -> str:
        response = c.get("/api/session")
        check(response, "get", "/api/session")
        return response.json["csrf"]

    csrf = session(client)
    watcher_csrf = session(spectator)
    headers = {"X-CSRF-Token": csrf}

    def post(path, body, *, documented=None, c=client, h=None):
        response = c.post(path, json=body, headers=h or headers)
        check(response, "post", documented or path)
        return response

    def get(path):
        response = client.get(path)
        check(response, "get", path)
        return response

    get("/api/state")
    get("/api/history")
    get("/api/health")
    get("/api/openapi.json")
    get("/api/screen.png")
    assert get("/api/events").status_code == 503  # MAX_STREAMS is 0 here

    assert post("/api/join", {"pin": "x"}, h={}).status_code == 403
    assert post("/api/join", {}).status_code == 400
    assert post("/api/join", {"pin": access.pin}).status_code == 200
    assert post("/api/command", {"command": {"name": "card", "args": {"value": 5}},
                                 "game_id": 1, "version": 0}).status_code == 409
    assert post("/api/command", {"command": {"name": "card"}, "game_id": 1,
                                 "version": 0}).status_code == 400
    assert post("/api/new-game", {"game": "call-of-nature", "players": ["Ana", "Ben"],
                                  "game_id": None, "version": 0}).status_code == 200
    assert post("/api/new-game", {"game": "call-of-nature", "players": ["Ana"],
                                  "game_id": 1, "version": 0}).status_code == 422
    assert post("/api/new-game", {"game": "call-of-nature", "players": "Ana",
                                  "game_id": 1, "version": 0}).status_code == 400
    assert post("/api/command", {"command": {"name": "card", "args": {"value": 5}},
                                 "game_id": 1, "version": 0}).status_code == 200
    assert post("/api/command", {"command": {"name": "card", "args": {"value": 5}},
                                 "game_id": 1, "version": 0}).status_code == 409
    assert post("/api/command", {"command": {"name": "roll", "args": {"values": [3]}},
                                 "game_id": 1, "version": 1}).status_code == 422
    assert post("/api/command", {"command": {"name": "note", "args": {"text": "x" * 20000}},
                                 "game_id": 1, "version": 1}).status_code == 413
    assert post("/api/command", {"command": {"name": "card"}, "game_id": 1, "version": 1},
                c=spectator, h={"X-CSRF-Token": watcher_csrf}).status_code == 403
    assert post("/api/undo", {"game_id": 1, "version": 1}).status_code == 200
    assert post("/api/undo", {"game_id": 1, "version": 2}).status_code == 422
    assert post("/api/redo", {"game_id": 1, "version": 2}).status_code == 200
    assert post("/api/redo", {"game_id": 1, "version": 3}).status_code == 422
    assert post("/api/redo", {}).status_code == 400
    assert post("/api/dice", {"source": "manual"}).status_code == 200
    assert post("/api/dice", {"source": "nope"}).status_code == 400
    assert post("/api/dice/roll", {"game_id": 1, "version": 3}).status_code == 422
    assert post("/api/command", {"command": {"name": "set-pressure", "args": {"value": 20}},
                                 "game_id": 1, "version": 3}).status_code == 200
    assert post("/api/command", {"command": {"name": "card", "args": {"value": 30}},
                                 "game_id": 1, "version": 4}).status_code == 200
    assert post("/api/dice/roll", {"game_id": 1, "version": 4}).status_code == 409
    assert post("/api/dice/roll", {"game_id": 1, "version": 5}).status_code == 200
    assert post("/api/keys/ok", {}, documented="/api/keys/{key}").status_code == 200
    get("/api/history")
    get("/api/games")
    get("/api/state")

    table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}))
    get("/api/stats")
    get("/api/past-games")

    over = get("/api/state").json
    again = {"game": over["game"], "players": over["setup"]["players"],
             "variants": over["setup"]["variants"], "options": over["setup"]["options"],
             "game_id": over["game_id"], "version": over["version"]}
    assert post("/api/new-game", again).status_code == 200
    assert post("/api/new-game", again).status_code == 409
    assert post("/api/sign-out", None, c=spectator,
                h={"X-CSRF-Token": watcher_csrf}).status_code == 403
    signed_out = post("/api/sign-out", None)
    assert (signed_out.status_code, signed_out.json["role"]) == (200, "spectator")


def test_the_documented_state_promises_the_setup_that_plays_the_game_again(app):
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    client.post("/api/join", json={"pin": app.extensions["companion"].access.pin},
                headers={"X-CSRF-Token": csrf})
    client.post("/api/new-game", json={"game": "call-of-nature", "players": ["Ana", "Ben"],
                                       "variants": ["no-end-roll"], "game_id": None, "version": 0},
                headers={"X-CSRF-Token": csrf})
    state = client.get("/api/state").json
    schema = {**_ref_schema("GameState"), "components": DOCUMENT["components"]}
    jsonschema.validate(state, schema, cls=jsonschema.Draft202012Validator)
    without_setup = {key: value for key, value in state.items() if key != "setup"}
    with pytest.raises(jsonschema.ValidationError, match="'setup' is a required property"):
        jsonschema.validate(without_setup, schema, cls=jsonschema.Draft202012Validator)


def _ref_schema(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def test_the_document_describes_the_answers_without_a_dice_service_or_screen(table):
    app = create_app(table, PanelSettings(secret_key="test"))
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    client.post("/api/join", json={"pin": app.extensions["companion"].access.pin},
                headers={"X-CSRF-Token": csrf})
    check(client.get("/api/screen.png"), "get", "/api/screen.png")
    for path, documented, body in (("/api/dice", "/api/dice", {"source": "manual"}),
                                   ("/api/dice/roll", "/api/dice/roll",
                                    {"game_id": 1, "version": 0}),
                                   ("/api/keys/up", "/api/keys/{key}", {})):
        response = client.post(path, json=body, headers={"X-CSRF-Token": csrf})
        assert response.status_code == 404
        check(response, "post", documented)


def command_names(described: dict) -> set[str]:
    command = described["components"]["schemas"]["CommandRequest"]["properties"]["command"]
    return {alternative["properties"]["name"]["const"] for alternative in command["anyOf"]}


def test_the_document_follows_the_games_installed(app, table, tally_game):
    assert "add" not in command_names(DOCUMENT)
    described = document(app)
    assert {"add", "card", "poop", "reveal"} <= command_names(described)
    game = described["components"]["schemas"]["NewGameRequest"]["properties"]["game"]
    assert "tally" in game["enum"]
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    client.post("/api/join", json={"pin": app.extensions["companion"].access.pin},
                headers={"X-CSRF-Token": csrf})
    started = client.post("/api/new-game", json={"game": "tally", "players": ["Ana", "Ben"],
                                                 "game_id": None, "version": 0},
                          headers={"X-CSRF-Token": csrf})
    assert started.status_code == 200
    for args, status in (({"amount": 2}, 200), ({"amount": "2"}, 400), ({"amount": 9}, 422)):
        response = client.post("/api/command", json={
            "command": {"name": "add", "args": args}, "game_id": started.json["game_id"],
            "version": table.version},
            headers={"X-CSRF-Token": csrf})
        assert response.status_code == status, (args, response.json)
        check(response, "post", "/api/command")


def test_a_body_the_document_refuses_is_refused_and_one_it_accepts_is_not(app, table):
    """A few bodies on the edges, checked against the document and the server."""
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    client.post("/api/join", json={"pin": app.extensions["companion"].access.pin},
                headers={"X-CSRF-Token": csrf})
    table.new_game("call-of-nature", ["Ana", "Ben"])
    schema = {"$ref": "#/components/schemas/CommandRequest", "components": DOCUMENT["components"]}
    validator = jsonschema.Draft202012Validator(schema)
    shown = {"game_id": table.current().game_id, "version": 0}
    bodies = [
        {"command": {"name": "card", "args": {"value": 3}}, **shown},
        {"command": {"name": "card", "args": {"value": 3}}, "version": 0},
        {"command": {"name": "card", "args": {"value": 3}}, "version": 0, "game_id": None},
        {"command": {"name": "card", "args": {"value": 3}}, "version": 0, "game_id": 0},
        {"command": {"name": "card", "args": {"value": 3, "player": None}}, **shown},
        {"command": {"name": "card", "args": {"value": 3.0}}, **shown},
        {"command": {"name": "card", "args": {"value": True}}, **shown},
        {"command": {"name": "card", "args": {"value": "3"}}, **shown},
        {"command": {"name": "card", "args": {"value": 3}}, **shown, "extra": 1},
        {"command": {"name": "note", "args": {"text": "   "}}, **shown},
        {"command": {"name": "note", "args": {"text": "x" * 201}}, **shown},
        {"command": {"name": "special", "args": {"card": "SUSPENSE"}}, **shown},
        {"command": {"name": "roll", "args": {"values": []}}, **shown},
        {"command": {"name": "card", "args": {"value": 3}}, "game_id": 1, "version": -1},
    ]
    for body in bodies:
        valid = validator.is_valid(body)
        response = client.post("/api/command", json=body, headers={"X-CSRF-Token": csrf})
        assert (response.status_code != 400) == valid, (body, response.json)
