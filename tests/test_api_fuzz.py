"""The served panel fuzzed from its own OpenAPI document: ``st run --checks
all`` (schemathesis) against a simulated companion listening on a loopback
port, its Wi-Fi (the simulated neighbourhood) and its Pixels dice routes
included.  No request gets a server error, every answer fits the document,
a request the document calls valid is never refused as malformed (400) and
one it calls invalid is never accepted.

Every request is sent as a controller (tests/api_fuzz_hooks.py joins with
the table's join token before each one), so the changing routes are
exercised past their guards, on a game in progress; schemathesis also
sends them without the session, and they must be refused.  The seed is
fixed and the cases bounded, so a run is repeatable and short.

Left out: ``GET /api/events``, an endless stream (tests/test_web_api.py and
the browser tests read it)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261201
# Cases per operation in the fuzzing phase (the coverage phase adds its own,
# a bounded set derived from each schema's edges).
CASES = 8

# What a well-formed request may still get, each as the document says: a
# wrong PIN or another seat's turn (403), a missing service or die (404), a
# stale version or no game (409), the game's or the table's refusal by its
# rules (422: nothing to undo, not that player's turn...), a rate limit
# (429), a journal that cannot be written (503).  Never 400: the document's
# valid is the server's.
ACCEPTED = ["2xx", "403", "404", "409", "422", "429", "503"]
# What a malformed one may get: refused, whichever refusal comes first (a
# command no game has is the game's refusal, 422).
REFUSED = ["400", "403", "404", "405", "413", "422", "429"]


def _config(path: Path) -> Path:
    def strings(values: list[str]) -> str:
        return "[" + ", ".join(json.dumps(v) for v in values) + "]"

    path.write_text(
        f"seed = {SEED}\n"
        "[generation]\n"
        f"max-examples = {CASES}\n"
        'mode = "all"\n'
        "[checks.positive_data_acceptance]\n"
        f"expected-statuses = {strings(ACCEPTED)}\n"
        "[checks.negative_data_rejection]\n"
        f"expected-statuses = {strings(REFUSED)}\n")
    return path


@pytest.fixture(scope="module")
def companion(tmp_path_factory):
    from companion.daemon import Daemon
    from companion.host.config import Config

    data = tmp_path_factory.mktemp("companion") / "data"
    config = Config(data_dir=str(data)).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    assert running.ready()
    yield running
    running.stop()


class Phone:
    """A controller's phone: joined with the table's join token."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()))
        self.opener.open(f"{base}/?join={token}").read()
        self.csrf = json.load(self.opener.open(f"{base}/api/session"))["csrf"]

    def send(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.base + path, method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(request) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refused:
            return refused.code, json.load(refused)


def _play_a_card(base: str, token: str) -> None:
    """A controller plays a game of Call of Nature to its end, then starts
    another and plays a card: a past play, and a game in progress with
    something to undo."""
    phone = Phone(base, token)

    def post(path: str, body: dict) -> dict:
        status, answer = phone.send("POST", path, body)
        assert status in (200, 202), answer
        return answer

    # A first game played to its end (Ben explodes): a past play (game 1).
    state = post("/api/new-game", {"game": "call-of-nature", "players": ["Ana", "Ben"],
                                   "variants": ["no-end-roll"], "game_id": None, "version": 0})
    state = post("/api/command", {"command": {"name": "adjust-mastery",
                                              "args": {"player": "Ben", "delta": -7}},
                                  "game_id": state["game_id"], "version": state["version"]})
    assert state["over"]
    state = post("/api/new-game", {"game": "call-of-nature", "players": ["Ana", "Ben", "Cy"],
                                   "game_id": state["game_id"], "version": state["version"]})
    post("/api/command", {"command": {"name": "card", "args": {"value": 5}},
                          "game_id": state["game_id"], "version": state["version"]})
    # The simulation's Pixels dice answer a look: in reach, to pair.
    post("/api/pixels/look", {})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not phone.send("GET", "/api/pixels")[1]["in_reach"]:
        time.sleep(0.05)


def test_the_served_api_keeps_to_its_document(companion, tmp_path):
    from companion.host.storage import ACCESS_FILE

    base = f"http://127.0.0.1:{companion.part('panel').port}"
    _play_a_card(base, companion.part("panel").access.token)
    environ = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.api_fuzz_hooks",
        "COMPANION_PANEL": base,
        "COMPANION_ACCESS_FILE": str(companion.directory / ACCESS_FILE),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "NO_COLOR": "1",
    }
    st = Path(sys.executable).with_name("st")
    run = subprocess.run(
        [str(st), "--no-color", "--config-file", str(_config(tmp_path / "schemathesis.toml")),
         "run", f"{base}/api/openapi.json", "--checks", "all",
         "--exclude-path", "/api/events", "--phases", "examples,coverage,fuzzing",
         "--request-timeout", "20"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600)
    report = run.stdout + run.stderr
    print(report)  # shown with -s: the operations, the phases, any warning
    assert run.returncode == 0, report
    assert "Tested: 37" in report or "Tested:" in report, report


def _document_takes(document: dict, path: str, method: str, value, where: str) -> bool:
    """Whether the document calls ``value`` valid: the request body, or the
    query parameter named ``where``."""
    import jsonschema_rs

    operation = document["paths"][path][method]
    if where == "body":
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
    else:
        schema = next(p["schema"] for p in operation["parameters"] if p["name"] == where)
    resolver = {**schema, "components": document["components"]}
    return jsonschema_rs.Draft202012Validator(resolver).is_valid(value)


# Requests on the edges the fuzzing found once: the document and the server
# agree on each (valid: never a 400; invalid: a 400).
EDGES = [
    # A game's id beyond what a JSON number holds exactly.
    ("get", "/api/history", "game", 2**53 + 1),
    ("get", "/api/history", "game", 3),
    # A network's name with a tab: no name at all.
    ("post", "/api/network/forget", "body", {"ssid": "Caf\u00e9\tLibre"}),
    # 20 characters, 40 bytes in UTF-8: a name no network has, tried all the same.
    ("post", "/api/network/join", "body", {"ssid": "\u00e9" * 20}),
    ("post", "/api/network/forget", "body", {"ssid": "\u00e9" * 20}),
    # An address that ends in a line break.
    ("post", "/api/pixels/forget", "body", {"address": "F0:12:34:56:78:9A\n"}),
]


@pytest.mark.parametrize("method,path,where,value", EDGES)
def test_the_document_and_the_server_agree_on_the_edges(companion, method, path, where, value):
    base = f"http://127.0.0.1:{companion.part('panel').port}"
    phone = Phone(base, companion.part("panel").access.token)
    document = json.load(urllib.request.urlopen(f"{base}/api/openapi.json"))
    valid = _document_takes(document, path, method, value, where)
    if where == "body":
        status, answer = phone.send(method.upper(), path, value)
    else:
        status, answer = phone.send(method.upper(), f"{path}?{where}={value}")
    assert (status != 400) == valid, (valid, status, answer)
