"""The command line: a game played from a terminal, words in, state out."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys

import pytest

from companion.commands.cli import main


@pytest.fixture
def cli(tmp_path, capsys):
    db = tmp_path / "game.db"

    def run(*words: str) -> tuple[int, str, str]:
        code = main(["--db", str(db), *words])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    run.db = db
    return run


def journal_count(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM entries").fetchone()[0]


def test_a_new_game_shows_whose_turn_it_is(cli):
    code, out, _ = cli("new", "call-of-nature", "Ana", "Ben", "Cy")
    assert code == 0
    assert "Call of Nature" in out
    assert "> Ana plays a card" in out


def test_a_card_written_as_words_is_played(cli):
    cli("new", "call-of-nature", "Ana", "Ben", "Cy")
    code, out, _ = cli("--json", "play", "card", "+5")
    update = json.loads(out)
    assert code == 0
    assert update["state"]["pressure"] == 5
    assert update["version"] == 1


def test_json_state_is_the_tables_update(cli):
    cli("new", "call-of-nature", "Ana", "Ben", "Cy")
    cli("play", "card", "30")
    code, out, _ = cli("--json", "state")
    state = json.loads(out)
    assert (code, state["game"], state["state"]["pressure"]) == (0, "call-of-nature", 30)
    assert state["expected"][0]["player"] == 1


@pytest.mark.parametrize(
    "words, message",
    [
        (["play", "jump"], "has no command 'jump'"),
        (["play", "card", "+31"], "outside the allowed range -30..30"),
        (["play", "card", "5", "player=Cy"], "not Cy's turn"),
        (["play", "roll", "7"], "not expected now"),
        (["play"], "no command given"),
    ],
)
def test_bad_input_prints_one_line_exits_2_and_changes_nothing(cli, words, message):
    cli("new", "call-of-nature", "Ana", "Ben", "Cy")
    cli("play", "card", "3")
    before = journal_count(cli.db)
    code, out, err = cli(*words)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert journal_count(cli.db) == before
    _, out, _ = cli("--json", "state")
    assert json.loads(out)["state"]["pressure"] == 3


def test_a_7_for_a_d6_names_what_is_allowed(cli):
    cli("new", "call-of-nature", "Ana", "Ben", "Cy")
    cli("play", "card", "30")
    cli("play", "card", "20")  # exactly 50: Ben has a Respite
    code, _, err = cli("play", "roll", "7")
    assert code == 2
    assert "1 to 6" in err


def test_json_errors_are_machine_readable(cli):
    cli("new", "call-of-nature", "Ana", "Ben")
    code, out, _ = cli("--json", "play", "card", "99")
    assert code == 2
    assert json.loads(out)["error"] == "out-of-range"


def test_undo_and_redo_from_the_command_line(cli):
    cli("new", "call-of-nature", "Ana", "Ben", "Cy")
    cli("play", "card", "4")
    cli("play", "card", "6")
    _, out, _ = cli("--json", "undo")
    assert json.loads(out)["state"]["pressure"] == 4
    _, out, _ = cli("--json", "redo")
    assert json.loads(out)["state"]["pressure"] == 10
    _, out, _ = cli("history")
    lines = out.splitlines()
    assert "Undone: Ben plays +6" in lines[2] and "Redone: Ben plays +6" in lines[3]
    # Each line is a sentence with its date and time, never the command's words.
    assert re.match(r"\w{3}, \w{3} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2}  Ana plays \+4", lines[0])
    assert "value=" not in out


def test_a_bad_setup_is_refused(cli):
    code, _, err = cli("new", "call-of-nature", "Ana")
    assert code == 2 and "players" in err
    code, _, err = cli("new", "chess", "Ana", "Ben")
    assert code == 2 and "no game 'chess'" in err


def test_a_foreign_database_is_refused_with_exit_1(tmp_path, capsys):
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (x)")
    assert main(["--db", str(db), "state"]) == 1
    assert "another program" in capsys.readouterr().err


def test_a_three_player_game_played_to_its_end_with_statistics(cli):
    cli("new", "call-of-nature", "Ana", "Ben", "Cy", "--variant", "no-end-roll")
    # +30 cards: 30, 60 crosses 31, 90 crosses 61, 120 crosses 91 and ends
    # the round; Mastery drains until somebody explodes.
    for _ in range(40):
        code, out, err = cli("play", "card", "+30")
        assert code == 0, err
        if "Game over" in out:
            break
    assert "Game over" in out
    _, out, _ = cli("--json", "stats")
    stats = json.loads(out)
    assert stats["games_played"] == 1
    assert stats["players"]["Cy"] == {"played": 1, "won": 0}
    assert stats["games"]["call-of-nature"]["record"]["kind"] == "highest-pressure-survived"
    _, out, _ = cli("stats")
    assert "Call of Nature: 1 game\n" in out and "record, highest Pressure survived" in out
    assert "(100%)" in out or "(0%)" in out
    _, out, _ = cli("games")
    assert "Call of Nature" in out and "Ana, Ben, Cy" in out
    code, _, err = cli("play", "card", "1")
    assert code == 2 and "over" in err


def test_the_games_list_names_every_game_and_variant(cli):
    code, out, _ = cli("games-list")
    assert code == 0
    for key in ("call-of-nature", "ohshit", "bathroom-rush", "no-end-roll"):
        assert key in out


def test_the_module_runs_as_a_program(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "companion", "--db", str(tmp_path / "x.db"), "new",
         "call-of-nature", "Ana", "Ben"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Ana plays a card" in result.stdout


def test_the_history_of_a_past_game(cli):
    cli("new", "call-of-nature", "Ana", "Ben")
    cli("play", "card", "7")
    cli("new", "ohshit", "Ana", "Ben")
    code, out, _ = cli("history", "--game", "1")
    assert code == 0 and "Ana plays +7" in out
    code, _, err = cli("history", "--game", "5")
    assert code == 2 and "no game 5" in err


# -- for people, and for scripts --------------------------------------------------


def test_the_state_says_whose_turn_by_name_and_no_seat_numbers(cli):
    cli("new", "call-of-nature", "Ana", "Ben", "Cy")
    cli("play", "card", "+5")
    code, out, _ = cli("state")
    assert code == 0
    assert "Ben's turn." in out
    assert "Pressure 5. The next threshold, at 31" in out
    assert "  Ana     7" in out
    for raw in ("active:", "seat", "respite: -", "eliminated no", "; "):
        assert raw not in out


def test_the_state_says_who_plays_first_and_the_phase_by_its_name(cli):
    code, out, _ = cli("new", "bathroom-rush", "Ana", "Ben", "Cy")
    assert code == 0
    assert "Ana's turn. Ana plays first." in out
    assert "Phase: Choose queues." in out and "phase name" not in out.lower()


def test_a_finished_game_says_who_won_once(cli):
    cli("new", "call-of-nature", "Ana", "Ben", "--variant", "no-end-roll")
    cli("play", "adjust-mastery", "Ben", "-7")
    code, out, _ = cli("state")
    assert code == 0
    assert out.count("Ana wins") == 1 and "'s turn" not in out


@pytest.mark.parametrize("words", [
    ("state", "--json"), ("--json", "state"), ("history", "--json"), ("stats", "--json"),
])
def test_json_is_accepted_before_or_after_the_command(cli, words):
    cli("new", "call-of-nature", "Ana", "Ben")
    code, out, _ = cli(*words)
    assert code == 0
    json.loads(out)


def test_json_after_a_play_is_the_flag_not_a_word(cli):
    cli("new", "call-of-nature", "Ana", "Ben")
    code, out, _ = cli("play", "card", "+5", "--json")
    assert code == 0 and json.loads(out)["state"]["pressure"] == 5


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    """``companion history | head -1``: the pipe is closed before all is
    written; no traceback, the shell's exit status for a closed pipe."""
    import os

    db = str(tmp_path / "x.db")
    main(["--db", db, "new", "call-of-nature", "Ana", "Ben"])
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        result = subprocess.run(
            [sys.executable, "-m", "companion", "--db", db, "history"],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == 141


def test_sign_out_signs_the_running_panels_phones_out(cli, tmp_path):
    from companion.core.journal import Journal
    from companion.core.table import Table
    from companion.host.storage import ACCESS_FILE
    from web import PanelSettings, create_app

    # The service: its journal (which it holds locked: sign-out does not
    # need it) and its panel on the data directory's keys.
    table = Table(Journal.open(cli.db))
    app = create_app(table, PanelSettings(secret_key="s" * 32,
                                          access_file=tmp_path / ACCESS_FILE))
    access = app.extensions["companion"].access
    old_pin = access.pin
    phone = app.test_client()
    csrf = phone.get("/api/session").json["csrf"]
    assert phone.post("/api/join", json={"pin": old_pin},
                      headers={"X-CSRF-Token": csrf}).json["role"] == "controller"

    code, out, _ = cli("sign-out")
    assert code == 0
    assert phone.get("/api/session").json["role"] == "spectator"
    assert access.pin != old_pin and f"the new PIN {access.pin}" in out
    code, out, _ = cli("--json", "sign-out")
    assert json.loads(out)["pin"] == access.pin
    table.close()


def test_sign_out_refuses_a_data_directory_that_does_not_exist(cli, tmp_path):
    code, _, err = cli("sign-out", "--data-dir", str(tmp_path / "nowhere"))
    assert code == 1
    assert "there is no data directory" in err
    assert not (tmp_path / "nowhere").exists()


LINES = (
    ["new", "ohshit", "Ana", "Ben", "--variant", "quick", "--option", "limit=5", "--json"],
    ["play", "card", "+5", "--version", "3"],
    ["undo"], ["redo", "--json"], ["state"], ["commands"], ["history", "--game", "2"],
    ["games"], ["stats", "--json"], ["games-list"],
    ["serve", "--simulate", "--config", "c.toml", "--host", "127.0.0.1", "--port", "8081"],
    ["sign-out", "--data-dir", "/tmp/x"], ["doctor", "--config", "c.toml"],
    ["wiring", "--config", "c.toml", "--output", "w.svg", "--json"],
    ["venue"],
)


def test_a_line_starting_with_its_command_reads_as_with_every_command():
    from companion.commands.cli import COMMANDS, build_parser

    assert [line[0] for line in LINES] == list(COMMANDS)
    for line in LINES:
        alone = build_parser(line[0])
        assert list(alone._subparsers._group_actions[0].choices) == [line[0]]
        assert alone.parse_args(line) == build_parser().parse_args(line)
        assert alone.parse_args(["--db", "j.db", *line]) == \
            build_parser().parse_args(["--db", "j.db", *line])


def test_serve_and_a_bad_option_still_say_what_is_wrong(capsys):
    from companion.commands.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["serve", "--simulation-please"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --simulation-please" in capsys.readouterr().err


def _speak(db, lang: str) -> None:
    from companion.core.journal import Journal
    from companion.core.table import Table

    table = Table(Journal.open(db))
    try:
        table.change_setting("language", lang)
    finally:
        table.close()


@pytest.mark.parametrize("lang", ["fr", "it"])
@pytest.mark.parametrize("game", ["call-of-nature", "ohshit", "bathroom-rush"])
def test_the_command_line_speaks_the_tables_language(cli, lang, game):
    """Events, the state, prompts, refusals, the history and its dates, the
    games and the statistics, all in the language the table speaks."""
    from tests.language_check import problems

    cli("new", game, "Ana", "Ben", "Cy")
    _speak(cli.db, lang)
    said = []
    plays = {"call-of-nature": [("play", "card", "22"), ("play", "card", "-5"),
                                ("undo",), ("redo",), ("play", "card", "99")],
             "ohshit": [("play", "poop", "colour=spicy", "target=Ben"), ("play", "kill", "Ana"),
                        ("play", "kill", "Ana")],
             "bathroom-rush": [("play", "choose-queue", "1"), ("play", "choose-queue", "1")]}
    for words in [("state",), *plays[game], ("history",), ("games",), ("stats",)]:
        _, out, err = cli(*words)
        said += (out + err).splitlines()
    wrong = problems([line.removeprefix("companion: ") for line in said], lang,
                     {"Ana", "Ben", "Cy"})
    assert wrong == []
    assert any(line.startswith("companion: ") for line in said)  # a refusal was said


@pytest.mark.parametrize("lang, record", [("fr", "plus haute Pression tenue"),
                                          ("it", "Pressione più alta superata")])
def test_the_statistics_name_the_games_and_their_records_in_the_tables_language(
        cli, lang, record):
    from tests.language_check import problems

    cli("new", "call-of-nature", "Ana", "Ben", "--variant", "no-end-roll")
    cli("play", "card", "20")
    cli("play", "adjust-mastery", "Ben", "-7")
    _speak(cli.db, lang)
    _, out, _ = cli("stats")
    assert "Call of Nature" in out and record in out
    assert "call-of-nature" not in out and "highest" not in out
    assert problems(out.splitlines(), lang, {"Ana", "Ben"}) == []
