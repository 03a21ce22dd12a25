"""Two phones race for the same thing, through the real API: no command
ever lands on something other than what its sender saw when it moved its
finger.

Each race is timed on paper, not with sleeps: phone A taps at 0 ms; its
change reaches phone B's page ``LATENCY`` ms later; B's finger lands ``d``
ms after A's (0 to 400), aimed at what B's page showed 150 ms before it
landed.  What B sends is what the control under its finger acts on when it
lands: the old page's, or the redrawn one's.  The panel refuses a tap within
``REACTION_MS`` of a redraw that changed what its control acts on (the
browser test of that guard is ``test_web_e2e_guard.py``); every other tap
goes to the table, which refuses in its lock a command made against what is
no longer waited for.
"""

from __future__ import annotations

import itertools

import pytest

from companion.core.engine import Command
from tests.test_bathroom_rush import position
from tests.test_web_api import Phone, joined

THREE = ["Ana", "Ben", "Cy"]
REACTION_MS = 400
AIM_MS = 150
# How long a change takes to reach the other phone's page: the friends'
# game measured up to 281 ms; each race takes the next of these.
LATENCY = (15, 40, 90, 150, 230, 281, 350)
RACES = 200


@pytest.fixture
def app(table):
    from web import PanelSettings, create_app
    return create_app(table, PanelSettings(secret_key="race"))


def state(phone: Phone) -> dict:
    return phone.get("/api/state").json


def first_wait(view: dict, command: str) -> dict | None:
    return next((e for e in view["expected"] if e["command"] == command), None)


def fresh_game(table) -> None:
    table.new_game("bathroom-rush", THREE)
    for queue in (1, 2, 3):
        table.submit(Command("choose-queue", {"queue": queue}))


def send(phone: Phone, view: dict, exp: dict, **values):
    return phone.post("/api/command", {
        "command": {"name": exp["command"], "args": {**exp["args"], **values}},
        "game_id": view["game_id"], "version": view["version"]})


def schedule(span: int = 400):
    """(d, latency) for each race: d from 0 to ``span`` ms, latencies in turn."""
    steps = [round(i * span / (RACES - 1)) for i in range(RACES)]
    return list(zip(steps, itertools.cycle(LATENCY)))


@pytest.mark.parametrize("span", [400, 900])
def test_two_phones_revealing_never_put_a_value_on_a_persona_the_second_did_not_see(
        app, table, span):
    a, b = joined(app, "192.168.1.21"), joined(app, "192.168.1.22")
    outcomes = {"applied": 0, "refused by the table": 0, "held by the panel": 0,
                "nothing left to reveal": 0}
    misapplied = []
    fresh_game(table)
    for d, latency in schedule(span):
        before = state(b)
        if first_wait(before, "reveal") is None:
            fresh_game(table)
            before = state(b)
        mine = first_wait(before, "reveal")
        # A reveals the Persona both phones show: 1 pipì.
        assert send(a, before, mine, pipi=1, popo=0, colour="neutral").status_code == 200
        after = state(b)
        # What B's page shows as its finger lands, and what it aimed at.
        shown = after if d >= latency else before
        aimed = after if d - AIM_MS >= latency else before
        control = first_wait(shown, "reveal")
        if control is None:
            outcomes["nothing left to reveal"] += 1
            continue
        retargeted = shown is after and control["args"] != mine["args"]
        if retargeted and d - latency < REACTION_MS:
            # The panel holds the tap: it says so and shows the new prompt
            # (the browser test looks at both).
            outcomes["held by the panel"] += 1
            continue
        answer = send(b, shown, control, pipi=3, popo=0, colour="red")
        if answer.status_code == 200:
            outcomes["applied"] += 1
            target = first_wait(aimed, "reveal")
            # Applied: only to the Persona B's page showed when it aimed.
            if target is None or target["args"] != control["args"]:
                misapplied.append((d, latency, control["args"]))
            game = table.game
            placed = game.persona(control["args"]["queue"], control["args"]["position"])
            assert placed["id"] == control["args"]["persona"] and placed["pipi"] == 3
        else:
            outcomes["refused by the table"] += 1
            assert answer.status_code == 409
            body = answer.json
            # A sentence, and the table as it is now, to draw the new prompt.
            assert body["message"] and body["state"]["version"] > shown["version"]
            now = first_wait(body["state"], "reveal")
            assert now is None or now["prompt"]
    assert misapplied == []
    assert outcomes["refused by the table"] and outcomes["held by the panel"], outcomes
    if span <= REACTION_MS:
        # Within 400 ms of A's tap, B's finger always aimed at the old page:
        # nothing of B's is applied; the table or the panel refuses each.
        assert outcomes["applied"] == 0
    else:
        # Later, B aimed at the redrawn page: its tap plays, on that Persona.
        assert outcomes["applied"]
    assert sum(outcomes.values()) == RACES


def test_a_reveal_made_against_the_new_version_but_the_old_persona_is_refused_in_the_lock(
        app, table):
    a, b = joined(app, "192.168.1.21"), joined(app, "192.168.1.22")
    fresh_game(table)
    before = state(b)
    old = first_wait(before, "reveal")
    assert send(a, before, old, pipi=1, popo=0, colour="neutral").status_code == 200
    after = state(b)
    # B names the version it now has, but the card it saw: refused.
    answer = send(b, after, {**old, "args": {**first_wait(after, "reveal")["args"],
                                             "persona": old["args"]["persona"]}},
                  pipi=2, popo=0, colour="neutral")
    assert answer.status_code == 409
    assert answer.json["error"] == "moved-on"
    assert answer.json["message"].startswith("another move came first")
    assert first_wait(answer.json["state"], "reveal")["prompt"] in answer.json["message"]
    assert answer.json["state"]["version"] == after["version"]


TABLE = ["n1 n2 Ana n3", "n2 Ben n1", "n1 Cy o1", "n3 n1"]


def test_two_phones_aiming_an_action_card_at_the_same_player_apply_it_once(app, table):
    a, b = joined(app, "192.168.1.21"), joined(app, "192.168.1.22")
    held = refused = 0
    for d, latency in schedule():
        table.new_game("bathroom-rush", THREE)
        # The table's game is put in this position directly (a test's
        # shortcut past a dozen reveals; nothing reads the journal here).
        table._session.game.__dict__.update(position(TABLE).__dict__)
        table.submit(Command("play", {"card": "give-up-your-place"}))
        before = state(b)
        ben = next(e for e in before["expected"] if e["command"] == "target"
                   and e["args"]["aimed"] == "player 1")
        assert send(a, before, ben).status_code == 200
        after = state(b)
        shown = after if d >= latency else before
        control = next((e for e in shown["expected"] if e["command"] == "target"), None)
        if control is None:
            # Redrawn: nothing left to aim at; nothing to tap.
            held += 1
            continue
        answer = send(b, shown, control)
        assert answer.status_code == 409, (d, latency)
        assert answer.json["message"] and answer.json["state"]["version"] == after["version"]
        refused += 1
        # Applied once: Ben swapped with the Persona behind him, once.
        assert table.game.attack is None or table.game.attack["target"] == [2, 2]
    assert held and refused and held + refused == RACES
