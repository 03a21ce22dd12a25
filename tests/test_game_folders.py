"""A game is a folder: a fourth game, written to a temporary folder beside
the three, is served by the menu, the OLED and the phone panel with no list
edited anywhere."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.core import games
from companion.core import text as core_text
from companion.core.games import HINTS, hints_of
from companion.core.menu import MenuView, TableMenu
from drivers.screens import alert_screen, game_screen, generic_screen, screen_for
from web import PanelSettings, create_app

ROOT = Path(__file__).resolve().parent.parent
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


# -- a game whose lowest score wins, with all it brings from its folder ------------

GOLF_KEY = "mini-golf"
GOLF_FOLDER = "mini_golf"

GOLF = '''
"""Mini golf: each player's strokes hole by hole; after three holes the
fewest strokes win."""

from companion.core.engine import CommandSpec, Event, Expectation, Game, Param, Result
from companion.core.records import RecordRule, ScoreRule
from companion.core.terminal import Terminal, sentences

HOLES = 3


class MiniGolf(Game):
    key = "mini-golf"
    title = "Mini golf"
    commands = (CommandSpec("strokes", (Param("count", "int", 1, 9),)),)
    state_fields = ("strokes", "hole", "active")

    def start(self):
        self.strokes = [0] * len(self.players)
        self.hole = 1
        self.active = 0

    @property
    def over(self):
        return self.hole > HOLES

    def result(self):
        if not self.over:
            return None
        best = min(self.strokes)
        winners = tuple(s for s, n in enumerate(self.strokes) if n == best)
        return Result(winners, tuple(self.strokes), f"{self.players[winners[0]]} wins")

    def expected(self):
        if self.over:
            return []
        return [Expectation("strokes", f"{self.players[self.active]}'s strokes", self.active)]

    def view(self):
        return {"hole": self.hole, "active": self.active,
                "players": [{"seat": s, "name": n, "strokes": self.strokes[s]}
                            for s, n in enumerate(self.players)]}

    def do_strokes(self, count):
        seat = self.active
        self.strokes[seat] += count
        self.active = (seat + 1) % len(self.players)
        if self.active == 0:
            self.hole += 1
        return [Event("putted", f"{self.players[seat]} takes {count}",
                      {"player": seat, "count": count})]


def fewest_on_a_hole(scores, groups):
    tries = [(e.data["count"], e.data["player"]) for events in groups for e in events
             if e.kind == "putted"]
    return min(tries, default=None, key=lambda t: t[0])


def figures(state, t):
    return [sentences([t("state.line.hole", hole=state["hole"])])]


def columns(rows, t):
    return [(t("state.column.strokes"), lambda row: str(row["strokes"]))]


GAME = MiniGolf
RECORD = RecordRule("fewest-strokes", fewest_on_a_hole, lowest=True)
SCORING = ScoreRule(highest_wins=False)
BGG_ID = 4321
TERMINAL = Terminal(figures, columns)
'''

GOLF_TEXT = '''
TEXT = {
    "en": {"title": "Mini golf", "state.line.hole": "hole {hole} of 3",
           "state.column.strokes": "Strokes"},
    "fr": {"title": "Minigolf", "state.line.hole": "trou {hole} sur 3",
           "state.column.strokes": "Coups"},
    "it": {"title": "Minigolf", "state.line.hole": "buca {hole} di 3",
           "state.column.strokes": "Colpi"},
}
'''


@pytest.fixture
def mini_golf(tmp_path, monkeypatch):
    folder = tmp_path / GOLF_FOLDER
    folder.mkdir()
    (folder / "__init__.py").write_text(textwrap.dedent(GOLF), encoding="utf-8")
    (folder / "text.py").write_text(textwrap.dedent(GOLF_TEXT), encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    monkeypatch.setattr(games, "GAMES", games._found())
    _forget_golf()
    yield GOLF_KEY
    _forget_golf()


def _forget_golf() -> None:
    for name in [n for n in sys.modules if n.startswith(f"companion.core.games.{GOLF_FOLDER}")]:
        del sys.modules[name]
    core_text.game_phrases.cache_clear()
    hints_of.cache_clear()


def _play_a_round_of_golf(table) -> None:
    table.new_game(GOLF_KEY, ["Ana", "Ben"], ())
    for count in (4, 2, 3, 3, 5, 2):  # Ana 4+3+5 = 12, Ben 2+3+2 = 7
        table.submit({"name": "strokes", "args": {"count": count}})
    assert table.current().over


def test_the_statistics_count_the_fewest_strokes_as_the_win_and_the_record(table, mini_golf):
    _play_a_round_of_golf(table)
    game = table.stats()["games"][mini_golf]
    assert {p["name"]: p["won"] for p in game["players"]} == {"Ana": 0, "Ben": 1}
    assert (game["record"]["kind"], game["record"]["value"], game["record"]["player"]) == \
        ("fewest-strokes", 2, "Ben")


def test_its_play_is_logged_lowest_score_first_with_its_own_boardgamegeek_id(table, mini_golf):
    from companion.core import bgstats
    from companion.host.config import Config, parse

    _play_a_round_of_golf(table)
    (finished,) = [g for g in table.games() if g["status"] == "over"]
    ids = Config().bgg.ids()
    assert ids[mini_golf] == 4321  # the folder's default
    play = bgstats.play(finished, "Mini golf", bgg_id=ids[mini_golf])
    assert play["game"]["highestWins"] is False and play["game"]["noPoints"] is False
    assert play["game"]["bggId"] == 4321
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Ana", 12, 2, False), ("Ben", 7, 1, True)]
    # The config names the game by its folder, and may give another id.
    assert parse("[bgg]\nmini_golf = 99\n").bgg.ids()[mini_golf] == 99


def test_a_game_that_does_not_say_how_it_is_scored_is_not_logged_by_a_guess(table, pawn_race):
    from companion.core import bgstats
    from companion.core.errors import NoScoring

    table.new_game(pawn_race, ["Ana", "Ben"], ())
    for amount in (3, 1, 3, 2, 3, 3, 3):
        table.submit({"name": "step", "args": {"amount": amount}})
    (finished,) = [g for g in table.games() if g["status"] == "over"]
    with pytest.raises(NoScoring, match="pawn-race"):
        bgstats.play(finished, "Pawn race")


def test_the_command_line_says_its_state_with_the_folders_sentences(table, mini_golf):
    from companion.language.state_text import render

    table.new_game(mini_golf, ["Ana", "Ben"], ())
    table.submit({"name": "strokes", "args": {"count": 4}})
    said = render(table.current()).splitlines()
    assert said[0].startswith("Mini golf")
    assert "Hole 1 of 3." in said
    table_lines = said[said.index("  Player  Strokes"):]
    assert table_lines[:3] == ["  Player  Strokes", "  Ana     4", "▸ Ben     0"]
    french = render(table.current(), "fr")
    assert "Trou 1 sur 3." in french and "Coups" in french


def test_the_config_takes_the_new_games_key_and_refuses_an_unknown_one(mini_golf):
    from companion.host.config import ConfigError, parse

    assert parse("[bgg]\nmini_golf = 5\nohshit = 6\n").bgg.ids() == {mini_golf: 5, "ohshit": 6}
    with pytest.raises(ConfigError, match="mini_golf"):
        parse("[bgg]\nminigolf = 5\n")


def test_every_game_says_how_it_is_scored():
    for key in games.GAMES:
        assert isinstance(games.scoring_of(key).highest_wins, bool), key


def test_knowing_the_games_names_imports_no_engine_and_a_game_imports_only_its_own():
    # A fresh interpreter: checking a phone's new game (its key or an
    # alias), as the panel does, loads the folders' names only; starting
    # one game loads its engine and no other.
    code = textwrap.dedent("""
        import sys
        from web.bodies import NewGameRequest, read
        from companion.core.games import GAMES, canonical_key, game_class
        engines = lambda: sorted(m for m in sys.modules
                                 if m.startswith("companion.core.games.") and m.endswith(".game"))
        for name in ("call-of-nature", "chipatsu", "br", "oh-shit"):
            read(NewGameRequest, ('{"game": "%s", "players": ["Ana", "Ben"], '
                                  '"game_id": null, "version": 0}' % name).encode())
        assert canonical_key("br") == "bathroom-rush"
        assert engines() == [], engines()
        game_class("chipatsu")
        assert engines() == ["companion.core.games.call_of_nature.game"], engines()
        assert len(GAMES) == 3
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.stdout.strip() == "ok", done.stderr[-3000:]


def test_a_game_folder_exports_its_names_lazily_and_keeps_them():
    from companion.core.games import bathroom_rush, call_of_nature

    assert call_of_nature.GAME is call_of_nature.CallOfNature
    assert call_of_nature.GAME.key == "call-of-nature"
    assert "GAME" in vars(call_of_nature)  # read once, then kept
    assert bathroom_rush.RED_DIE != bathroom_rush.BLUE_DIE
    with pytest.raises(AttributeError, match="no attribute 'ENGINE'"):
        call_of_nature.ENGINE  # noqa: B018


def test_a_folder_exporting_lazily_exports_only_what_its_modules_hold(tmp_path, monkeypatch):
    # The pawn race, its engine in game.py and an __init__ that names it with
    # exports(): no records.py, so it brings no record and no scoring; a
    # terminal.py that fails to import fails loudly, not as "no such name".
    from companion.core.errors import NoScoring

    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / "game.py").write_text(textwrap.dedent(GAME), encoding="utf-8")
    (folder / "__init__.py").write_text(
        'from companion.core.games import exports\n'
        '__getattr__ = exports(__name__, "game:PawnRace")\n', encoding="utf-8")
    (folder / "terminal.py").write_text("import companion.no_such_module\n", encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    monkeypatch.setattr(games, "GAMES", games._found())
    _forget()
    try:
        assert games.game_class(KEY).key == KEY
        package = sys.modules[f"companion.core.games.{FOLDER}"]
        assert package.PawnRace is package.GAME
        assert games.record_of(KEY) is None
        with pytest.raises(NoScoring):
            games.scoring_of(KEY)
        with pytest.raises(ModuleNotFoundError, match="no_such_module"):
            games.terminal_of(KEY)
    finally:
        _forget()
