"""Bathroom Rush's state and view as types: games recorded before the
types were written replay to the same bytes.

``tests/data/bathroom_rush_games.json`` holds games played at random (full
tracking with and without the box and the variants, light tracking): the
setup, the state at the start, each command, and after each the digest of
``dumps()`` and of the view's JSON in English and French; the last state
and view in full.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from companion.core.engine import Command, Setup
from companion.core.games.bathroom_rush import BathroomRush
from companion.core.games.bathroom_rush.model import Phase, State
from companion.core.games.views import state_fields

RECORDED = json.loads((Path(__file__).parent / "data" / "bathroom_rush_games.json")
                      .read_text(encoding="utf-8"))["games"]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def recorded_view(game: BathroomRush, lang: str = "en") -> dict:
    """The view as it was recorded: without the Action cards playable now,
    which the view has told since (checked against the engine's own refusal
    in tests/test_bathroom_rush_actions.py)."""
    view = game.view(lang)
    view.pop("playable", None)
    return view


def snapshot(game: BathroomRush) -> list[str]:
    return [digest(game.dumps()), digest(json.dumps(recorded_view(game), ensure_ascii=False)),
            digest(json.dumps(recorded_view(game, "fr"), ensure_ascii=False))]


@pytest.mark.parametrize("record", RECORDED,
                         ids=[f"{len(r['setup']['players'])}p-{'+'.join(r['setup']['variants'])}"
                              f"{'-box' if r['setup']['options'].get('box') else ''}"
                              for r in RECORDED])
def test_a_recorded_game_replays_to_the_same_bytes(record):
    game = BathroomRush(BathroomRush.check_setup(Setup.from_json(record["setup"])))
    assert game.dumps() == record["start"]
    for n, (command, expected) in enumerate(zip(record["commands"], record["after"],
                                                strict=True)):
        game.apply(Command.from_json(command))
        assert snapshot(game) == expected, f"after command {n + 1}: {command}"
        # What the journal keeps reads back to the same state, the phase an enum again.
        again = BathroomRush.loads(game.dumps())
        assert again.dumps() == game.dumps()
        assert type(again.phase) is Phase
    assert game.dumps() == record["final_dumps"]
    assert json.dumps(recorded_view(game)) == json.dumps(record["final_view"])


def test_the_recorded_games_reach_every_phase_they_can():
    """The fixture is worth replaying: the games end, and go through the
    phases of full and light tracking."""
    seen = set()
    for record in RECORDED:
        game = BathroomRush(BathroomRush.check_setup(Setup.from_json(record["setup"])))
        for command in record["commands"]:
            game.apply(Command.from_json(command))
            seen.add(game.phase)
    assert seen == set(Phase)


def test_the_state_serialised_is_the_model_in_order():
    assert BathroomRush.state_fields == state_fields(State)
    assert BathroomRush.state_fields[:7] == ("queues", "reserves", "first_player", "round",
                                             "round_order", "turn", "phase")
    assert isinstance(BathroomRush.state_fields, tuple)
