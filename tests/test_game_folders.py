"""A game is a folder: a fourth game, written to a temporary folder beside
the three, is served by the menu, the OLED and the phone panel with no list
edited anywhere."""

from __future__ import annotations

import sys
import textwrap

import pytest

from companion.core import games
from companion.core import text as core_text
from companion.core.games import HINTS, hints_of
from companion.core.menu import MenuView, TableMenu
from drivers.screens import alert_screen, game_screen, generic_screen, screen_for
from web import PanelSettings, create_app

KEY = "pawn-race"
FOLDER = "pawn_race"

GAME = '''
"""Pawn race: each player steps 1 to 3; the first at 10 wins."""

from companion.core.engine import CommandSpec, Event, Expectation, Game, Param, Result
from companion.core.records import RecordRule


class PawnRace(Game):
    key = "pawn-race"
    title = "Pawn race"
    commands = (
        CommandSpec("step", (Param("amount", "int", 1, 3),
                             Param("player", "player", optional=True))),
        CommandSpec("set-position", (Param("player", "player"), Param("square", "int", 0, 9)),
                    correction=True),
    )
    state_fields = ("squares", "turn")

    def start(self):
        self.squares = [0] * len(self.players)
        self.turn = 0

    @property
    def over(self):
        return max(self.squares) >= 10

    def result(self):
        if not self.over:
            return None
        seat = self.squares.index(max(self.squares))
        return Result((seat,), tuple(self.squares), f"{self.players[seat]} wins")

    def expected(self):
        if self.over:
            return []
        return [Expectation("step", f"{self.players[self.turn]} steps", self.turn)]

    def view(self):
        return {"squares": list(self.squares), "turn": self.turn}

    def do_step(self, amount, player):
        self.squares[player] += amount
        self.turn = (self.turn + 1) % len(self.players)
        return [Event("stepped", f"{self.players[player]} steps {amount}",
                      {"player": player, "amount": amount})]

    def do_set_position(self, player, square):
        self.squares[player] = square
        return [Event("correction", f"{self.players[player]} is on {square}")]


def longest_step(scores, groups):
    steps = [(e.data["amount"], e.data["player"]) for events in groups for e in events
             if e.kind == "stepped"]
    return max(steps, default=None, key=lambda step: step[0])


GAME = PawnRace
RECORD = RecordRule("longest-step", longest_step)
'''

TEXT = '''
TEXT = {
    "en": {"title": "Pawn race", "command.step": "Step"},
    "fr": {"title": "Course de pions", "command.step": "Avancer",
           "event.stepped": "{player} avance de {amount}"},
    "it": {},
}
'''

HINTS_SOURCE = '''
from companion.core.hints import CommandHint, ParamHint

HINTS = {
    "step": CommandHint("Step", params={"amount": ParamHint(start=2)}),
    "set-position": CommandHint("Move a pawn"),
}
'''


@pytest.fixture
def pawn_race(tmp_path, monkeypatch):
    """The game's folder, written beside the three games' folders."""
    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / "__init__.py").write_text(textwrap.dedent(GAME), encoding="utf-8")
    (folder / "text.py").write_text(textwrap.dedent(TEXT), encoding="utf-8")
    (folder / "hints.py").write_text(textwrap.dedent(HINTS_SOURCE), encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    monkeypatch.setattr(games, "GAMES", games._found())
    _forget()
    yield KEY
    _forget()


def _forget() -> None:
    for name in [n for n in sys.modules if n.startswith(f"companion.core.games.{FOLDER}")]:
        del sys.modules[name]
    core_text.game_phrases.cache_clear()
    hints_of.cache_clear()


def test_the_new_folder_is_a_game_with_its_key(pawn_race):
    assert pawn_race in games.GAMES
    assert games.game_class(pawn_race).title == "Pawn race"
    assert pawn_race in [game.key for game in games.available()]


def test_the_menu_offers_the_new_game_with_its_own_hints(table, pawn_race):
    table.new_game(pawn_race, ["Ana", "Ben"], ())
    menu = TableMenu(table, dice_source="manual", join_info=lambda: ("http://x", "1234"))
    table.subscribe(menu.on_update)
    assert menu.view() == MenuView("game", "Pawn race", footer="Ana steps")
    # The hint starts a step at 2: OK opens it there, OK sends it.
    menu.on_key("ok", "press")
    assert menu.view().value == 2
    menu.on_key("ok", "press")
    assert table.history()[-1].text == "step amount=2"
    assert table.game.squares == [2, 0]
    # The correction is listed under the hint's label.
    assert HINTS[(pawn_race, "set-position")].label == "Move a pawn"
    for key in ("back", "down", "down", "down", "ok"):
        menu.on_key(key, "press")
    assert menu.view().items == ("Move a pawn",)


def test_the_statistics_count_the_new_game_with_the_record_it_brings(table, pawn_race):
    table.new_game(pawn_race, ["Ana", "Ben"], ())
    for amount in (3, 1, 3, 2, 3, 3, 3):
        table.submit({"name": "step", "args": {"amount": amount}})
    assert table.current().over  # Ana: 3 + 3 + 3 + 3 = 12
    game = table.stats()["games"][pawn_race]
    assert [(p["name"], p["won"]) for p in game["players"]] == [("Ana", 1), ("Ben", 0)]
    assert (game["record"]["kind"], game["record"]["value"], game["record"]["player"]) == \
        ("longest-step", 3, "Ana")
    assert "longest-step" in games.record_kinds()


def test_a_game_without_hints_is_offered_from_its_specs(table, tally_game):
    assert hints_of(tally_game) == {}
    table.new_game(tally_game, ["Ana", "Ben"], ())
    menu = TableMenu(table, dice_source="manual", join_info=lambda: ("http://x", "1234"))
    for key in ("back", "down", "down", "down", "ok"):
        menu.on_key(key, "press")
    assert menu.view().items == ("Set",)


def test_the_oled_draws_the_new_game_on_the_generic_screen(table, pawn_race):
    table.new_game(pawn_race, ["Ana", "Ben"], ())
    update = table.current()
    assert screen_for(pawn_race) is None
    shown = game_screen(update)
    assert shown.tobytes() == generic_screen(update.state, update.players, update.expected,
                                             "Pawn race").tobytes()
    assert shown.tobytes() != alert_screen(f"No screen for the game '{pawn_race}'",
                                           "Pawn race").tobytes()
    assert shown.getbbox() is not None


def test_the_panel_serves_the_new_game_its_phrases_and_the_generic_board(table, pawn_race):
    app = create_app(table, PanelSettings(secret_key="test"))
    phone = app.test_client()
    assert pawn_race in [game["key"] for game in phone.get("/api/games").json]
    french = phone.get("/api/text?lang=fr").json
    assert french[f"{pawn_race}:title"] == "Course de pions"
    assert french[f"{pawn_race}:command.step"] == "Avancer"
    assert french[f"{pawn_race}:event.stepped"] == "{player} avance de {amount}"
    # The phrases of the other games and the pages' own strings come too.
    assert french["call-of-nature:card.u-turn"] != "call-of-nature:card.u-turn"
    assert french["nav.table"] == phone.get("/api/text?lang=fr").json["nav.table"]
    english = phone.get("/api/text?lang=en").json
    assert english[f"{pawn_race}:command.step"] == "Step"
    # No board module for it: the page lists the boards it ships, so the
    # panel draws this game on the generic board.
    page = phone.get("/").get_data(as_text=True)
    assert 'name="boards" content="bathroom-rush call-of-nature ohshit"' in page
    assert phone.get("/static/js/games/generic.js").status_code == 200


# -- the three games' folders ------------------------------------------------------


@pytest.mark.parametrize("key", ["call-of-nature", "ohshit", "bathroom-rush"])
def test_every_game_speaks_french_wherever_it_speaks_english(key):
    phrases = core_text.game_phrases(key)
    assert phrases["en"]["title"]
    assert set(phrases["en"]) <= set(phrases["fr"])


@pytest.mark.parametrize("key", ["call-of-nature", "ohshit", "bathroom-rush"])
def test_every_hint_names_a_command_of_its_game(key):
    commands = {spec.name for spec in games.game_class(key).commands}
    assert hints_of(key)
    assert set(hints_of(key)) <= commands


def test_the_panels_own_strings_name_no_game(table):
    app = create_app(table, PanelSettings(secret_key="test"))
    for strings in app.extensions["companion"].strings.values():
        for key in strings:
            for game in games.GAMES:
                assert f".{game}." not in f".{key}.", key
