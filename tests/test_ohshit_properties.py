"""OhShit! over random legal games: what must hold after every card.

``legal_commands(game)`` is the strategy of commands the game accepts now;
the table-level tests reuse it.
"""

from __future__ import annotations

import json

from hypothesis import event, given
from hypothesis import strategies as st

from companion.core.engine import Command, Setup
from companion.core.errors import GameIsOver, IllegalCommand
from companion.core.games.ohshit.game import OhShit
from companion.core.games.ohshit.model import COLOUR_SLUGS, KINDS, POOPS

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
EVENT_KINDS = {
    "poop-played", "flushed", "toilette", "constipated", "suppository",
    "constipation-lifted", "player-died", "game-over", "reshuffle", "turn", "draw",
    "correction", "note",
}
MAX_TURNS = 250


def candidate_plays(game) -> list[list[Command]]:
    """Every card the game waits for, on every seat, with every colour:
    one list per expected command."""
    seats = range(len(game.players))
    groups = []
    for wait in game.expected():
        acting = dict(wait.args)
        if wait.command == "poop":
            group = [Command("poop", {"target": t, "colour": c, **acting})
                     for t in seats for c in POOPS]
        elif wait.command == "suppositoire":
            group = [Command("suppositoire", {"target": t, "colour": c, **acting})
                     for t in seats for c in POOPS + (None,)]
        else:
            group = [Command(wait.command, {"target": t, **acting}) for t in seats]
        groups.append(group)
    return groups


class Trial:
    """Tries commands on a copy of a game.  A refused command must leave the
    copy exactly as it was, so one copy serves until a command is accepted."""

    def __init__(self, game) -> None:
        self.game_class = type(game)
        self.text = game.dumps()
        self.state = json.loads(self.text)["state"]
        self.copy = None

    def accepts(self, command: Command) -> bool:
        if self.copy is None:
            self.copy = self.game_class.loads(self.text)
        try:
            self.copy.apply(command)
        except IllegalCommand:
            now = {name: getattr(self.copy, name) for name in self.game_class.state_fields}
            assert now == self.state, f"refused {command.text()} changed the game"
            return False
        self.copy = None
        return True


def legal_plays(game) -> list[Command]:
    trial = Trial(game)
    return [c for group in candidate_plays(game) for c in group if trial.accepts(c)]


def legal_commands(game) -> st.SearchStrategy[Command]:
    """The commands ``game`` accepts now.  When there is none (the game is
    over, or the counts leave the active player no possible card) a draw
    from it is rejected, like a draw from ``st.nothing()``.

    Trying every candidate is slow, so a draw picks a card kind and a
    candidate of it, and takes the first accepted one from there on; the
    kinds come up equally often, whatever their number of candidates.
    """
    groups = candidate_plays(game)
    trial = Trial(game)

    def first_accepted(start: tuple[int, int]) -> Command | None:
        kind, index = start
        for g in range(len(groups)):
            group = groups[(kind + g) % len(groups)]
            for i in range(len(group)):
                command = group[(index + i) % len(group)]
                if trial.accepts(command):
                    return command
        return None

    if not groups:
        return st.nothing()
    picks = st.tuples(st.integers(0, len(groups) - 1), st.integers(0, 63))
    return picks.map(first_accepted).filter(lambda command: command is not None)


@st.composite
def setups(draw) -> Setup:
    """Two to six players, with the default deck or a small one that runs out."""
    seats = draw(st.integers(2, 6))
    deck = None
    if draw(st.booleans()):
        deck = {kind: draw(st.integers(0, 6)) for kind in POOPS}
        deck |= {"toilette": draw(st.integers(seats, seats + 2)),
                 "suppositoire": draw(st.integers(seats, seats + 2)),
                 "constipation": draw(st.integers(0, 3))}
        short = 5 * seats - sum(deck.values())
        if short > 0:
            deck["spicy"] += short
    return Setup(NAMES[:seats], options={"deck": deck} if deck else {})


def reaches_three(pile: dict) -> bool:
    """Three of a colour with Unicorns filling in, or three Unicorns."""
    unicorns = pile["unicorn"]
    return unicorns >= 3 or any(
        pile[c] >= 1 and pile[c] + unicorns >= 3 for c in COLOUR_SLUGS)


def check_table(game) -> None:
    view = game.view()
    for seat, player in enumerate(view["players"]):
        total = player["pile_total"]
        assert total == sum(player["pile"].values()) <= 6
        if player["alive"]:
            # the sixth card only ever lasts until the end of its owner's turn
            assert total <= 5
        else:
            assert total == 0 and not player["constipated"]
        if not player["constipated"]:
            assert not reaches_three(player["pile"]), (seat, player["pile"])
        assert player["hand"] >= 0
    counted = (sum(p["pile_total"] for p in view["players"])
               + sum(p["hand"] for p in view["players"])
               + view["draw_pile"] + view["decharge"] + view["drain"]
               + view["constipations_on_table"])
    assert counted == view["deck_total"] == sum(game.deck.values())
    assert min(view["draw_pile"], view["decharge"], view["drain"]) >= 0
    for kind in KINDS:
        face_up = (sum(p["pile"].get(kind, 0) for p in view["players"])
                   + view["decharge_cards"].get(kind, 0) + view["drain_cards"].get(kind, 0)
                   + (view["constipations_on_table"] if kind == "constipation" else 0))
        assert face_up <= game.deck[kind], kind
    assert type(game).loads(game.dumps()).dumps() == game.dumps()
    assert (view["active"] is None) == game.over
    if not game.over:
        assert view["players"][view["active"]]["alive"]


@given(setup=setups(), data=st.data())
def test_random_legal_games_keep_every_rule(setup, data):
    game = OhShit(setup)
    check_table(game)
    for _ in range(MAX_TURNS):
        if game.over:
            break
        command = data.draw(legal_commands(game))
        before = game.dumps()
        events = game.apply(command)
        assert game.dumps() != before
        assert {e.kind for e in events} <= EVENT_KINDS
        check_table(game)
    event(f"over: {game.over}, turns: {game.turn_number // 25 * 25}+")
    if game.over:
        assert game.expected() == []
        result = game.result()
        assert result.winners and all(game.alive[s] for s in result.winners)
        assert sum(result.scores) == len(result.winners)


# Every example is a whole game; thirty finished games are plenty here.
@given(setup=setups(), data=st.data())
def test_nothing_is_accepted_after_the_game_is_over(setup, data):
    game = OhShit(setup)
    for _ in range(MAX_TURNS):
        if game.over:
            break
        game.apply(data.draw(legal_commands(game)))
    event(f"over: {game.over}")
    if not game.over:
        return
    frozen = game.dumps()
    for command in (Command("poop", {"target": 0, "colour": "spicy"}),
                    Command("toilette", {"target": 0}),
                    Command("skip"), Command("revive", {"player": 0}),
                    Command("note", {"text": "one more"})):
        try:
            game.apply(command)
        except GameIsOver:
            pass
        else:
            raise AssertionError(f"{command.text()} was accepted after the game ended")
        assert game.dumps() == frozen


def test_the_strategy_offers_nothing_once_the_game_is_over():
    game = OhShit(Setup(("Ana", "Ben")))
    game.apply(Command("kill", {"player": 1}))
    assert legal_plays(game) == []


def test_the_strategy_offers_only_what_the_active_player_can_play():
    game = OhShit(Setup(("Ana", "Ben")))
    plays = legal_plays(game)
    assert {c.args["player"] for c in plays} == {0}
    # nobody holds poops yet, so every pile takes every colour; a Suppositoire has
    # nothing to remove and nobody is constipated
    assert len([c for c in plays if c.name == "poop"]) == 2 * len(POOPS)
    assert not [c for c in plays if c.name == "suppositoire"]
    assert {c.name for c in plays} == {"poop", "toilette", "constipation"}
