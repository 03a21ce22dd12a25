"""What the venue trusts, against a real Mosquitto (Debian's ``mosquitto``):

- the documentation's example, followed as written (its config block, its
  broker configuration, its ACL, its users), reaches the board;
- the ACL ``companion venue acl`` writes is the documented one, from the
  very names the tables turn into topics (transliterated: "Café" is cafe);
- 300 malformed messages of more than 25 kinds, published on the broker,
  leave the board's tables and page as they were, and are counted by cause;
- a table that shows a client certificate (no password) publishes to a
  broker that requires one, and a table without it does not connect.

Skipped with its reason where mosquitto or openssl is missing (under CI,
where scripts/test installs them, they fail instead)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table
from companion.host.config import Venue, section
from companion.parts.venue import VenuePart
from companion.venue import cli
from companion.venue.board import Board
from companion.venue.names import acl, topic_level
from companion.venue.schema import MAX_PAYLOAD
from drivers.mqtt import Link
from tests import mosquitto
from tests.mosquitto import Broker, signed, table_acl
from tests.test_venue_broker import WAIT, Listener

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "venue.md"


def need(*programs: str) -> None:
    why = mosquitto.available()
    for program in programs:
        if why is None and shutil.which(program) is None:
            why = f"no {program} here"
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def until(condition, what: str) -> None:
    import time

    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {WAIT} s"
        time.sleep(0.05)


@pytest.fixture
def table(tmp_path):
    table = Table(Journal.open(tmp_path / "journal.db"))
    yield table
    table.close()


# -- names --------------------------------------------------------------------------


@pytest.mark.parametrize("name, level", [
    ("Café des Jeux", "cafe-des-jeux"), ("Größe", "grosse"), ("Table 4", "table-4"),
    ("Città di Torino", "citta-di-torino"), ("Ça va à l'Œil", "ca-va-a-l-oeil"),
    ("Été / #1 +", "ete-1"), ("  Perché?  ", "perche"), ("Smørrebrød", "smorrebrod"),
])
def test_a_name_becomes_its_topic_level_transliterated(name, level):
    assert topic_level(name) == level


@pytest.mark.parametrize("name", ["", "!!!", "  -  ", "#/+"])
def test_a_name_of_no_letter_or_digit_has_no_topic_level(name):
    with pytest.raises(ValueError):
        topic_level(name)


def test_the_documented_acl_is_what_companion_venue_acl_writes(tmp_path, capsys):
    written = tmp_path / "companion.acl"
    assert cli.main(["acl", "--venue", "Café des Jeux", "Table 1", "Table 2",
                     "--acl", str(written)]) == 0
    documented = (ROOT / "docs" / "venue" / "companion.acl").read_text()
    assert written.read_text() == documented
    assert "companion/cafe-des-jeux/table-1/#" in documented
    said = capsys.readouterr().out
    assert "mosquitto_passwd /etc/mosquitto/companion.passwd table-2" in said


def _documented_config() -> dict:
    """The ``[venue]`` block of docs/venue.md, as a table's config has it."""
    text = DOCS.read_text()
    [block] = [b for b in re.findall(r"```toml\n(.*?)```", text, re.S) if "[venue]" in b]
    return tomllib.loads(block)["venue"]


def _documented_users() -> dict[str, str]:
    """The users and passwords the documentation's five commands give."""
    return dict(re.findall(r"mosquitto_passwd (?:-c )?-b \S+ (\S+) (\S+)", DOCS.read_text()))


def _documented_broker(folder: Path) -> Broker:
    """docs/venue/companion.conf and companion.acl as the venue copies them,
    on a free port of this machine (its paths made the test's own)."""
    acl_text = (ROOT / "docs" / "venue" / "companion.acl").read_text()
    broker = Broker(folder, _documented_users(), acl_text)
    conf = (ROOT / "docs" / "venue" / "companion.conf").read_text()
    conf = conf.replace("listener 1883", f"listener {broker.port} 127.0.0.1")
    conf = conf.replace("/etc/mosquitto/companion.passwd", str(folder / "passwd"))
    conf = conf.replace("/etc/mosquitto/conf.d/companion.acl", str(folder / "acl"))
    own = (folder / "mosquitto.conf").read_text()
    keep = [line for line in own.splitlines()
            if line.split(" ")[0] in ("persistence_location", "log_dest", "log_type", "user")]
    (folder / "mosquitto.conf").write_text(conf + "\n" + "\n".join(keep) + "\n")
    return broker


def test_the_documented_example_as_written_reaches_the_board(tmp_path, table):
    need()
    users = _documented_users()
    assert {"board", "table-1"} <= set(users)
    (tmp_path / "broker").mkdir()
    broker = _documented_broker(tmp_path / "broker")
    broker.start()
    config = _documented_config()
    assert config["venue"] == "Café des Jeux" and config["table"] == "Table 1"
    settings = section("venue", Venue, {**config, "broker": "127.0.0.1", "port": broker.port},
                       "docs/venue.md")
    board = Board(":memory:")
    link = Link("127.0.0.1", broker.port, client_id="board", username="board",
                password=users["board"], subscriptions=("companion/#",),
                on_message=board.take)
    link.start()
    part = VenuePart(settings, table, table._journal, table_name="pi", version="test")
    try:
        assert link.wait_connected(WAIT)
        part.start()
        table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
        table.submit(Command("card", {"value": 4}))
        until(lambda: board.events("cafe-des-jeux", "table-1"), "the table's event")
        [shown] = board.tables()
        assert (shown["venue"], shown["table"]) == ("cafe-des-jeux", "table-1")
        assert shown["state"]["version"] == 1 and shown["online"]
        assert [e["version"] for e in board.events("cafe-des-jeux", "table-1")] == [1]
        assert part.refused == 0 and board.refused == {}
    finally:
        part.stop()
        link.stop()
        broker.stop()


def test_a_commits_state_comes_before_its_event_and_results_only_when_a_game_ends(
        tmp_path, table):
    """On the documented broker: each change's state reaches a subscriber
    before its event; no result message at all (not even an empty retained
    one) until the game ends; its result then; an empty one when the end is
    taken back."""
    need()
    users = _documented_users()
    (tmp_path / "broker").mkdir()
    broker = _documented_broker(tmp_path / "broker")
    broker.start()
    heard: list[tuple[str, bytes]] = []
    link = Link("127.0.0.1", broker.port, client_id="board", username="board",
                password=users["board"], subscriptions=("companion/#",),
                on_message=lambda topic, payload: heard.append((topic, payload)))
    settings = section("venue", Venue, {**_documented_config(), "broker": "127.0.0.1",
                                        "port": broker.port, "home_assistant": False},
                       "docs/venue.md")
    part = VenuePart(settings, table, table._journal, table_name="pi", version="test")
    base = "companion/cafe-des-jeux/table-1"

    def kinds() -> list[str]:
        out = []
        for topic, payload in list(heard):
            kind = topic[len(base) + 1:]
            if kind in ("state", "event"):
                kind += f" {json.loads(payload)['version']}"
            elif kind.startswith("result/"):
                kind = "result" if payload else "result cleared"
            out.append(kind)
        return out

    try:
        link.start()
        assert link.wait_connected(WAIT)
        part.start()
        until(lambda: "availability" in kinds(), "the table online")
        table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
        until(lambda: "state 0" in kinds(), "the new game")
        for version, value in ((1, 4), (2, 5), (3, 6)):
            table.submit(Command("card", {"value": value}))
            until(lambda v=version: f"event {v}" in kinds(), f"change {version}")
        assert not [k for k in kinds() if k.startswith("result")]
        table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}))  # Ana wins
        until(lambda: "result" in kinds(), "the result")
        table.undo()
        until(lambda: "result cleared" in kinds(), "the result taken back")
        seen = kinds()
        for version in range(1, 6):  # the cards, the end, its undo
            assert seen.index(f"state {version}") < seen.index(f"event {version}"), seen
        assert seen.count("result") == 1 and seen.count("result cleared") == 1
    finally:
        part.stop()
        link.stop()
        broker.stop()


# -- the board keeps only what is well formed ------------------------------------------


def _state(**changes) -> dict:
    return {"table": "Table A", "game": "call-of-nature", "title": "Call of Nature",
            "game_id": 1, "version": 3, "figure": "mastery",
            "players": [{"name": "Ana", "figure": 2, "in": True},
                        {"name": "Ben", "figure": 1, "in": True}],
            "turn": "Ana", "leader": "Ana", "over": False, "winners": [], **changes}


def _result(**changes) -> dict:
    return {"id": 1, "table": "Table A", "game": "call-of-nature", "title": "Call of Nature",
            "game_id": 1, "players": ["Ana", "Ben"], "winners": ["Ana"], "scores": [3, 1],
            "message": "Ana wins", "started": 1000.0, "ended": 2000.0, **changes}


def _event(**changes) -> dict:
    return {"id": "1:4", "table": "Table A", "game": "call-of-nature", "game_id": 1,
            "version": 4, "action": "command", "said": "Ana plays 4", "events": [],
            "alerts": [], "at": 1500.0, **changes}


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


BASE = "companion/cafe/table-a"


def _raw(body: dict) -> bytes:
    return json.dumps(body).encode()


def _with(text_body: str) -> bytes:
    return text_body.encode()


# (what is wrong, topic, payload): each must be refused.
MALFORMED: list[tuple[str, str, bytes]] = [
    ("NaN", f"{BASE}/state", _with(json.dumps(_state())[:-1] + ', "extra": NaN}')),
    ("NaN figure", f"{BASE}/state", json.dumps(_state(figure=float("nan"))).encode()),
    ("Infinity", f"{BASE}/state", json.dumps(_state(
        players=[{"name": "Ana", "figure": float("inf")}])).encode()),
    ("-Infinity", f"{BASE}/result/1", json.dumps(_result(started=float("-inf"))).encode()),
    ("1e400", f"{BASE}/result/1", _with(json.dumps(_result()).replace("1000.0", "1e400"))),
    ("1 MB", f"{BASE}/state", _raw(_state(title="x" * 1_000_000))),
    ("just over the limit", f"{BASE}/event", _raw(_event(said="y" * MAX_PAYLOAD))),
    ("deep nesting", f"{BASE}/event", _with(json.dumps(_event())[:-1]
                                            + f', "events": {_deep(50)}}}')),
    ("very deep nesting", f"{BASE}/state", _with(_deep(30_000))),
    ("lone surrogate", f"{BASE}/state", _with(json.dumps(_state())
                                              .replace('"Ana", "figure": 2', '"\\ud800"'))),
    ("not UTF-8", f"{BASE}/state", json.dumps(_state()).encode().replace(b"Ana", b"\xff\xfe")),
    ("huge game id", f"{BASE}/state", _with(json.dumps(_state()).replace(
        '"game_id": 1', '"game_id": ' + "1" + "0" * 30))),
    ("ghost result, game id 10^30", "companion/cafe/ghost/result/1" + "0" * 30,
     _raw(_result(table="ghost"))),
    ("4000 digits", f"{BASE}/state", _with(json.dumps(_state()).replace(
        '"version": 3', '"version": ' + "9" * 4000))),
    ("title an object", f"{BASE}/state", _raw(_state(title={"x": 1}))),
    ("over a string", f"{BASE}/state", _raw(_state(over="yes"))),
    ("players an object", f"{BASE}/state", _raw(_state(players={"Ana": 1}))),
    ("a player without a name", f"{BASE}/state", _raw(_state(players=[{"figure": 1}]))),
    ("a name of 1000 letters", f"{BASE}/state", _raw(_state(
        players=[{"name": "A" * 1000}]))),
    ("negative game id", f"{BASE}/state", _raw(_state(game_id=-1))),
    ("game id as text", f"{BASE}/state", _raw(_state(game_id="1"))),
    ("version a boolean", f"{BASE}/state", _raw(_state(version=True))),
    ("a field the board does not know", f"{BASE}/state", _raw(_state(script="<b>"))),
    ("another table's name", f"{BASE}/state", _raw(_state(table="Table B"))),
    ("not JSON", f"{BASE}/state", b"{not json"),
    ("an array", f"{BASE}/state", b"[1, 2]"),
    ("an empty object", f"{BASE}/event", b"{}"),
    ("an event's bad id", f"{BASE}/event", _raw(_event(id="drop table"))),
    ("winners not among the players", f"{BASE}/result/1", _raw(_result(winners=["Zed"]))),
    ("a result on another game's topic", f"{BASE}/result/2", _raw(_result())),
    ("a result's topic without an id", f"{BASE}/result/x", _raw(_result())),
    ("an alert's type an object", f"{BASE}/alert", _raw({"event_type": {"a": 1}})),
    ("availability neither", f"{BASE}/availability", b"maybe"),
    ("no such kind", f"{BASE}/whatever", _raw(_state())),
    ("a player's figure as text", f"{BASE}/state", _raw(_state(
        players=[{"name": "Ana", "figure": "2"}]))),
    ("turn a number", f"{BASE}/state", _raw(_state(turn=3))),
    ("fifty players", f"{BASE}/state", _raw(_state(
        players=[{"name": f"P{n}"} for n in range(50)]))),
    ("an event's data nested", f"{BASE}/event", _raw(_event(
        events=[{"kind": "x", "data": {"a": {"b": {"c": 1}}}}]))),
    ("a game's key with a slash", f"{BASE}/state", _raw(_state(game="call/of"))),
    ("ghost result, game id 10^30 in its body", "companion/cafe/ghost/result/1",
     _with(json.dumps(_result(table="ghost")).replace('"game_id": 1', '"game_id": 1' + "0" * 30))),
    ("a venue level of 20,000 letters", f"companion/{'v' * 20_000}/table-a/state",
     _raw(_state())),
    ("a venue level of markup", "companion/\u2039img src=x onerror=alert(1)>/table-a/state",
     _raw(_state())),
    ("a table level of markup", "companion/cafe/<b>Table A<b>/availability", b"online"),
    ("a table level longer than a name's", f"companion/cafe/{'t' * 41}/alert",
     _raw({"event_type": "game-over", "said": "Ana wins"})),
]


def test_every_kind_of_malformed_message_is_refused_by_itself():
    board = Board(":memory:")
    for what, topic, payload in MALFORMED:
        assert board.take(topic, payload) is None, what
    assert sum(board.refused.values()) == len(MALFORMED) >= 25
    assert board.tables() == [] and board.results() == []
    assert len(board.refused) >= 10  # by cause


def test_a_message_the_database_fails_half_way_leaves_nothing_behind():
    """The table's row is written before its result: when the result's write
    fails, neither stays, and the message is counted."""
    board = Board(":memory:")
    board._db.execute("DROP TABLE results")  # the second write of a result fails
    assert board.take(f"{BASE}/result/1", _raw(_result())) is None
    assert board.tables() == [] and board.refused == {"not-stored": 1}
    assert board.take(f"{BASE}/state", _raw(_state())) is not None
    assert [t["table"] for t in board.tables()] == ["table-a"]


def test_the_boards_schema_is_json_schema_and_another_validator_reads_it_the_same():
    """SCHEMA is a valid draft 7 document, and jsonschema (an interpreter)
    refuses and takes what the board's compiled validator does."""
    import jsonschema

    from companion.venue.schema import SCHEMA, MessageRefused, _problem, parse, read_topic

    jsonschema.Draft7Validator.check_schema(SCHEMA)
    good = [("state", _state()), ("event", _event()), ("result", _result()),
            ("alert", {"event_type": "game-over", "said": "Ana wins", "player": None,
                       "id": "1:4"})]
    bad = []
    for _, topic, payload in MALFORMED:
        try:
            kind = read_topic(topic).kind
            body = parse(payload.decode())
        except (MessageRefused, UnicodeDecodeError):
            continue  # refused before the schema
        if kind != "availability" and isinstance(body, dict):
            bad.append((kind, body))
    for kind, body in good + bad:
        other = jsonschema.Draft7Validator(SCHEMA["definitions"][kind]).is_valid(body)
        assert other is (_problem(kind, body) is None), (kind, body)
    assert len(bad) >= 15


def test_300_malformed_messages_leave_the_board_and_its_page_unchanged_and_counted(tmp_path):
    need()
    from companion.venue.league import league, to_csv
    from web.board import create_board_app

    acl_text = table_acl("table-a", "cafe", "table-a")
    acl_text += "user mallory\ntopic readwrite companion/#\n\n"
    acl_text += "user board\ntopic read companion/#\n"
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", {"table-a": "pw-a", "mallory": "pw-m",
                                          "board": "pw-board"}, acl_text)
    broker.start()
    listener = Listener(broker)
    page = create_board_app(listener.board, league, to_csv).test_client()
    sender = Link("127.0.0.1", broker.port, client_id="mallory", username="mallory",
                  password="pw-m")
    sender.start()
    try:
        assert sender.wait_connected(WAIT)
        good = [(f"{BASE}/state", _raw(_state())), (f"{BASE}/event", _raw(_event())),
                (f"{BASE}/result/1", _raw(_result())), (f"{BASE}/availability", b"online")]
        for topic, payload in good:
            assert sender.publish(topic, payload)
        until(lambda: listener.board.health()["taken"] == len(good), "the good messages")
        before = (listener.board.tables(), listener.board.results(), listener.board.generation,
                  page.get("/api/tables").get_data(), page.get("/api/league").get_data())
        sent = [MALFORMED[n % len(MALFORMED)] for n in range(300)]
        for _, topic, payload in sent:
            assert sender.publish(topic, payload)
        until(lambda: sum(listener.board.refused.values()) == 300, "300 refusals")
        after = (listener.board.tables(), listener.board.results(), listener.board.generation,
                 page.get("/api/tables").get_data(), page.get("/api/league").get_data())
        assert after[:3] == before[:3]
        assert after[3] == before[3].replace(b'"refused":0', b'"refused":300')
        assert after[4] == before[4]
        health = page.get("/api/health").json
        assert health["refused"] == 300 and health["taken"] == len(good)
        causes = health["refused_by_cause"]
        assert {"not-finite", "too-large", "too-deep", "bad-unicode", "huge-number",
                "invalid-state", "other-table", "not-json", "bad-topic"} <= set(causes)
        assert sum(causes.values()) == 300
        # Nothing a browser cannot parse: JSON as JavaScript reads it.
        for path in ("/api/tables", "/api/league", "/api/health", "/api/league.json"):
            text = page.get(path).get_data(True)
            assert "NaN" not in text and "Infinity" not in text
            json.loads(text, parse_constant=lambda name, path=path: pytest.fail(f"{path}: {name}"))
    finally:
        sender.stop()
        listener.link.stop()
        broker.stop()


# -- a client certificate ------------------------------------------------------------


def test_a_table_with_a_client_certificate_publishes_to_a_broker_that_requires_one(
        tmp_path, table):
    need("openssl")
    folder = tmp_path / "ca"
    folder.mkdir()
    ca, cert, key = mosquitto.certificates(folder)
    table_cert, table_key = signed(folder, "table-a", "table-a")
    board_cert, board_key = signed(folder, "board", "board")
    acl_text = acl("Cafe", ["Table A"])
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", {}, acl_text, tls=(ca, cert, key),
                    client_certificates=True)
    broker.start()
    board = Board(":memory:")
    reader = Link("127.0.0.1", broker.port, client_id="board", tls=True, ca_file=str(ca),
                  cert_file=str(board_cert), key_file=str(board_key),
                  subscriptions=("companion/#",), on_message=board.take)
    settings = Venue(broker="127.0.0.1", port=broker.port, tls=True, ca_file=str(ca),
                     cert_file=str(table_cert), key_file=str(table_key), venue="Cafe",
                     table="Table A", home_assistant=False)
    part = VenuePart(settings, table, table._journal, table_name="pi", version="test")
    stranger = Link("127.0.0.1", broker.port, client_id="stranger", tls=True,
                    ca_file=str(ca))  # trusts the broker, shows no certificate
    try:
        reader.start()
        assert reader.wait_connected(WAIT)
        part.start()
        table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
        table.submit(Command("card", {"value": 4}))
        until(lambda: [e["version"] for e in board.events("cafe", "table-a")] == [1],
              "the table's event over its certificate")
        assert part.link.connected and part.refused == 0
        stranger.start()
        assert not stranger.wait_connected(3)
    finally:
        stranger.stop()
        part.stop()
        reader.stop()
        broker.stop()
