"""Properties of the table over random legal games of every game.

Each game's property module exports ``legal_commands(game)``, a strategy for
a command the game accepts now; here they are mixed with undo and redo, and
after every step: undo followed by redo gives the identical state, a
refused command changes nothing, and reopening the journal replays to the
identical state.
"""

from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.engine import Command
from companion.core.errors import IllegalCommand
from companion.core.games import game_class
from companion.core.journal import Journal
from companion.core.table import Table

GAMES = {
    "call-of-nature": "tests.test_call_of_nature_properties",
    "ohshit": "tests.test_ohshit_properties",
    "bathroom-rush": "tests.test_bathroom_rush_properties",
}
NAMES = ["Ana", "Ben", "Cy", "Di", "Eve", "Flo"]


def _load(module_name):
    # Imported at collection, not inside a @given test (hypothesis refuses
    # the nesting that importing other property tests would cause).
    try:
        return importlib.import_module(module_name).legal_commands
    except (ImportError, AttributeError) as exc:
        return exc


STRATEGIES = {key: _load(module) for key, module in GAMES.items()}


def strategy_for(key):
    legal_commands = STRATEGIES[key]
    if isinstance(legal_commands, Exception):
        pytest.fail(f"{GAMES[key]} must export legal_commands: {legal_commands}")
    return legal_commands


@pytest.mark.parametrize("key", sorted(GAMES))
# tmp_path_factory gives each example a journal of its own.
@settings(suppress_health_check=[*settings.default.suppress_health_check,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_undo_redo_and_replay_give_identical_states(key, data, tmp_path_factory):
    legal_commands = strategy_for(key)
    cls = game_class(key)
    seats = data.draw(st.integers(cls.min_players, min(cls.max_players, len(NAMES))),
                      label="players")
    db = tmp_path_factory.mktemp(key) / "t.db"
    table = Table(Journal.open(db))
    try:
        table.new_game(key, NAMES[:seats])
        for _ in range(data.draw(st.integers(1, 60), label="steps")):
            if table.game.over:
                break
            step = data.draw(st.sampled_from(["command"] * 6 + ["undo", "redo", "bad"]))
            if step == "undo" and table.current().can_undo:
                table.undo()
            elif step == "redo" and table.current().can_redo:
                table.redo()
            elif step == "bad":
                before = (table.game.dumps(), table.version)
                with pytest.raises(IllegalCommand):
                    table.submit(Command("no-such-command", {}))
                assert (table.game.dumps(), table.version) == before
            else:
                table.submit(data.draw(legal_commands(table.game), label="command"))
                after = table.game.dumps()
                table.undo()
                table.redo()
                assert table.game.dumps() == after
        live = table.game.dumps()
        version = table.version
    finally:
        table.close()
    again = Table(Journal.open(db))
    try:
        assert again.game.dumps() == live
        assert again.version == version
    finally:
        again.close()
