"""The command line finds the companion that is running, the way ``serve``
finds its data: ``sign-out`` signs out that one and says which, reading
works while it runs, and a change is refused in words."""

from __future__ import annotations

import json

import pytest

from companion.commands.cli import main
from companion.core.journal import Journal
from companion.core.table import Table
from companion.host.storage import ACCESS_FILE


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A machine's places: the service's data directory and the user's own."""
    from companion.host import config

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "share"))
    for name in ("COMPANION_DB", "STATE_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "etc" / "config.toml")
    service = tmp_path / "var" / "lib" / "companion"
    monkeypatch.setattr(config, "SERVICE_DATA_DIR", service)

    class Places:
        own = home / "share" / "companion"

    Places.service = service
    return Places


def run(capsys, *words):
    code = main(list(words))
    out, err = capsys.readouterr()
    return code, out, err


def a_companion_running_in(directory):
    """What a running companion holds: its journal, locked, with a game."""
    table = Table(Journal.open(directory / "companion.db"))
    table.new_game("call-of-nature", ["Ana", "Ben"], [], {})
    return table


def test_on_a_laptop_sign_out_finds_the_simulation_not_an_old_service_folder(machine, capsys):
    # The installer was run once (a service folder with keys), but what
    # runs is a simulation in the user's own data directory.
    machine.service.mkdir(parents=True)
    main(["--db", str(machine.service / "companion.db"), "sign-out"])
    capsys.readouterr()
    before = (machine.service / ACCESS_FILE).read_bytes()
    machine.own.mkdir(parents=True)
    table = a_companion_running_in(machine.own)
    try:
        code, out, _ = run(capsys, "sign-out")
    finally:
        table.close()
    assert code == 0
    assert out.startswith(f"Signed out every phone of the running companion (your own "
                          f"companion, data in {machine.own}).")
    assert (machine.own / ACCESS_FILE).exists()
    assert (machine.service / ACCESS_FILE).read_bytes() == before


def test_on_a_pi_sign_out_finds_the_running_service(machine, capsys):
    machine.service.mkdir(parents=True)
    table = a_companion_running_in(machine.service)
    try:
        code, out, _ = run(capsys, "--json", "sign-out")
    finally:
        table.close()
    said = json.loads(out)
    assert code == 0 and said["running"] is True
    assert said["data_dir"] == str(machine.service)
    assert (machine.service / ACCESS_FILE).exists() and not machine.own.exists()


def test_with_nothing_running_it_says_so_and_signs_out_the_one_that_ran(machine, capsys):
    machine.own.mkdir(parents=True)
    Journal.open(machine.own / "companion.db").close()
    code, out, _ = run(capsys, "sign-out")
    assert code == 0
    assert out.startswith(f"No companion is running: signed out every phone of your own "
                          f"companion (data in {machine.own})")


def test_with_no_companion_anywhere_it_says_where_it_looked(machine, capsys):
    code, _, err = run(capsys, "sign-out")
    assert code == 1
    assert "no companion is running, and none has kept its data here yet" in err
    assert str(machine.service) in err and str(machine.own) in err
    assert not machine.own.exists()


def test_two_running_companions_are_named_and_none_is_signed_out(machine, capsys):
    machine.service.mkdir(parents=True)
    machine.own.mkdir(parents=True)
    tables = [a_companion_running_in(machine.service), a_companion_running_in(machine.own)]
    try:
        code, _, err = run(capsys, "sign-out")
    finally:
        for table in tables:
            table.close()
    assert code == 1 and "more than one companion is running" in err
    assert not (machine.service / ACCESS_FILE).exists()


def test_a_folder_this_user_may_not_read_is_said_with_sudo(machine, capsys, monkeypatch):
    from companion.commands import running

    machine.service.mkdir(parents=True)
    monkeypatch.setattr(running, "status",
                        lambda d: running.CLOSED if d == machine.service else running.ABSENT)
    code, _, err = run(capsys, "sign-out")
    assert code == 1 and "run 'sudo companion sign-out'" in err


# -- reading while it runs ---------------------------------------------------------------


def test_state_and_history_read_the_running_companions_journal(machine, capsys):
    machine.service.mkdir(parents=True)
    table = a_companion_running_in(machine.service)
    table.submit_words(["card", "+5"], source="panel")
    try:
        code, out, err = run(capsys, "state")
        assert code == 0, err
        assert "Call of Nature" in out and "Ben's turn." in out
        code, out, _ = run(capsys, "history")
        assert code == 0 and "Ana plays +5" in out
        # The companion goes on writing while the CLI read.
        table.submit_words(["card", "+3"], source="panel")
        code, out, _ = run(capsys, "--json", "state")
        assert json.loads(out)["state"]["pressure"] == 8
    finally:
        table.close()


def test_a_change_while_it_runs_is_refused_saying_what_to_do(machine, capsys):
    machine.service.mkdir(parents=True)
    table = a_companion_running_in(machine.service)
    try:
        code, _, err = run(capsys, "play", "card", "+5")
    finally:
        table.close()
    assert code == 1
    assert "the companion is running with this journal" in err
    assert "play from its panel" in err and "reading ('companion state'" in err


def test_reading_a_held_journal_named_with_db_reads_it(tmp_path, capsys):
    db = tmp_path / "table.db"
    table = Table(Journal.open(db))
    table.new_game("ohshit", ["Ana", "Ben"], [], {})
    try:
        code, out, err = run(capsys, "--db", str(db), "state")
    finally:
        table.close()
    assert code == 0, err
    assert "OhShit!" in out


# -- the CLI in sentences --------------------------------------------------------------------


def test_version_prints_the_programs_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"companion {version('tabletop-companion')}\n"


def test_the_games_step_is_not_called_version(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    run(capsys, "--db", db, "new", "call-of-nature", "Ana", "Ben")
    code, out, _ = run(capsys, "--db", db, "play", "card", "+5", "--step", "0")
    assert code == 0
    assert out.count("version") == 0 and "step 1" in out
    code, _, _ = run(capsys, "--db", db, "play", "card", "+5", "--step", "0")
    assert code == 2


def test_undo_says_what_it_took_back(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    run(capsys, "--db", db, "new", "call-of-nature", "Ana", "Ben")
    run(capsys, "--db", db, "play", "card", "+7")
    code, out, _ = run(capsys, "--db", db, "undo")
    assert code == 0
    assert out.splitlines()[0] == "  Took back: Ana plays +7: pressure 7 · Ben's turn (pressure 7)"


def test_a_threshold_is_said_once(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    run(capsys, "--db", db, "new", "call-of-nature", "Ana", "Ben")
    _, out, _ = run(capsys, "--db", db, "play", "card", "+30")
    _, out, _ = run(capsys, "--db", db, "play", "card", "+5")
    said = out.split("\nCall of Nature")[0]  # what happened, before the state
    assert said.count("31") == 1 and said.count("7 → 6") == 1
    _, history, _ = run(capsys, "--db", db, "history")
    assert history.count("7 → 6") == 1


def test_the_state_is_a_short_table_of_the_players(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    run(capsys, "--db", db, "new", "call-of-nature", "Ana", "Ben", "Cy")
    run(capsys, "--db", db, "play", "card", "+5")
    _, out, _ = run(capsys, "--db", db, "state")
    lines = out.splitlines()
    assert lines[:4] == [
        "Call of Nature, game 1, step 1",
        "Ben's turn.",
        "Pressure 5. The next threshold, at 31, costs 1 Mastery. The next Respite is at 50.",
        "Round 1, play goes clockwise. 63 cards in the draw pile, 1 played.",
    ]
    assert lines[5:9] == ["  Player  Mastery", "  Ana     7", "▸ Ben     7", "  Cy      7"]


def test_ohshit_says_no_unicorn_unicorn(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    _, out, _ = run(capsys, "--db", db, "new", "ohshit", "Ana", "Ben")
    assert "unicorn unicorn" not in out and "deck total" not in out
    assert "  Player  Pile  Hand" in out


def test_bathroom_rush_says_its_popo_limit_as_a_sentence(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    _, out, _ = run(capsys, "--db", db, "new", "bathroom-rush", "Ana", "Ben")
    assert "A player who reaches 3 popò is out." in out
    assert "popo limit" not in out and "eliminates" not in out
    _, out, _ = run(capsys, "--db", db, "new", "bathroom-rush", "Ana", "Ben", "--variant",
                    "keep-playing")
    assert "Reaching 3 popò puts nobody out" in out


def test_with_nothing_running_the_cli_uses_the_journal_the_service_kept(machine, capsys):
    # On a Pi, as root, with the service stopped: its journal, not root's own.
    machine.service.mkdir(parents=True)
    a_companion_running_in(machine.service).close()
    code, out, _ = run(capsys, "state")
    assert code == 0 and "Call of Nature" in out
    assert not machine.own.exists()
