"""The API fuzzed from its own OpenAPI document (schemathesis): no request
gets a server error, every answer fits the document, a body the document
calls valid is never refused as malformed (400), and one it calls invalid
is never accepted.  A joined controller (PIN, session cookie, CSRF header)
sends every request, so the changing routes are exercised past their guards,
on a game in progress."""

from __future__ import annotations

import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig

from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table
from tests.fakes import FakeDie, FakeSmartDice, FixedDice
from web import Services, create_app

# What a well-formed request may still get: the table's and the game's own
# refusals (stale version, rule), a spectator's, a missing service, a
# rate limit, a full panel.  Never 400: the document's valid is the server's.
ACCEPTED = ["2xx", "403", "404", "409", "422", "429", "503"]
# What a malformed one may get: refused, whichever refusal comes first.
# (A command no game has is the game's refusal, 422.)
REFUSED = ["400", "403", "404", "405", "413", "422", "429"]


def joined_controller():
    """A panel on a game in progress, and a controller joined to it: the app,
    the session's CSRF token and cookie, and the table."""
    table = Table(Journal.open(":memory:"))
    services = Services(screen_png=lambda: b"\x89PNG\r\n\x1a\n", press_key=lambda key: None,
                        dice=FixedDice(table, [3]), faults=list,
                        pixels=FakeSmartDice([FakeDie("F0:12:34:56:78:9A", "Pixel", battery=80)]))
    # No live slot: an event stream would never end under the test client.
    app = create_app(table, config={"SECRET_KEY": "fuzz", "COLOURS_FILE": None,
                                    "MAX_STREAMS": 0, "PIN_ATTEMPTS": 1000},
                     services=services)
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    joined = client.post("/api/join", json={"pin": app.extensions["companion"].access.pin},
                         headers={"X-CSRF-Token": csrf})
    assert joined.status_code == 200
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
    table.submit(Command("card", {"value": 5}))
    return app, csrf, client.get_cookie("companion").value, table


APP, CSRF, COOKIE, TABLE = joined_controller()
CONFIG = SchemathesisConfig.from_dict({
    "seed": 20261130,
    "generation": {"max-examples": 12, "mode": "all"},
    # The controller's session: sent as the document says, and left out when
    # schemathesis checks that the guards hold without it.
    "auth": {"openapi": {"sessionCookie": {"api_key": COOKIE},
                         "csrfToken": {"api_key": CSRF}}},
    "checks": {
        "positive_data_acceptance": {"expected-statuses": ACCEPTED},
        "negative_data_rejection": {"expected-statuses": REFUSED},
        "not_a_server_error": {"expected-statuses": ["2xx", "3xx", "4xx", "503"]},
    },
})
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP, config=CONFIG)


@pytest.fixture(scope="module", autouse=True)
def _close_the_table():
    yield
    TABLE.close()


@schema.parametrize()
def test_the_api_keeps_to_its_document(case):
    case.call_and_validate()
