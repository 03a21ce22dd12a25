"""The table: durable commands, replay, undo and redo, versions, listeners."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from companion.core.engine import Command, Event
from companion.core.errors import (
    BadArgument,
    BadSetup,
    ForeignDatabase,
    GameIsOver,
    NoGame,
    NotExpected,
    NothingToRedo,
    NothingToUndo,
    StaleVersion,
    UnknownCommand,
    WrongPlayer,
)
from companion.core.journal import Journal


def add(amount, **extra):
    return Command("add", {"amount": amount, **extra})


def journal_rows(db_path):
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT version, action, command FROM entries ORDER BY seq").fetchall()


def test_a_table_without_a_game_says_so(table):
    with pytest.raises(NoGame):
        table.current()


def test_a_new_game_starts_at_version_zero(table, tally_game):
    update = table.new_game("tally", ["Ana", "Ben"], variants=["short"])
    assert (update.version, update.action, update.state["total"]) == (0, "new", 0)
    assert update.setup == {"players": ["Ana", "Ben"], "variants": ["short"], "options": {}}
    assert [e.command for e in update.expected] == ["add"]


def test_a_bad_setup_writes_nothing(table, tally_game, db_path):
    with pytest.raises(BadSetup, match="2 to 4 players"):
        table.new_game("tally", ["Ana"])
    with pytest.raises(BadSetup, match="unknown variant"):
        table.new_game("tally", ["Ana", "Ben"], variants=["long"])
    with pytest.raises(BadSetup, match="no game 'chess'"):
        table.new_game("chess", ["Ana", "Ben"])
    assert table.games() == []


def test_an_accepted_command_is_in_the_journal_when_submit_returns(table, tally_game, db_path):
    table.new_game("tally", ["Ana", "Ben"])
    update = table.submit(add(2))
    assert update.version == 1
    assert journal_rows(db_path) == [(1, "command", '{"name":"add","args":{"amount":2}}')]


@pytest.mark.parametrize(
    "command, error",
    [
        (Command("jump", {}), UnknownCommand),
        (add(4), BadArgument),
        (add(1, player="Ana"), WrongPlayer),
        (Command("roll", {"values": [3]}), NotExpected),
        (Command("set", {"total": 13}), BadArgument),
    ],
)
def test_a_refused_command_leaves_state_and_journal_untouched(table, tally_game, db_path,
                                                               command, error):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(1))
    before = table.game.dumps()
    with pytest.raises(error):
        table.submit(command)
    assert table.game.dumps() == before
    assert table.version == 1
    assert len(journal_rows(db_path)) == 1


def test_any_command_after_the_game_is_over_is_refused(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"], variants=["short"])
    for amount in (3, 3):
        update = table.submit(add(amount))
    assert update.over and update.result.winners == (1,)
    with pytest.raises(GameIsOver):
        table.submit(add(1))


def test_a_stale_version_is_refused_so_a_double_tap_applies_once(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(1), expected_version=0)
    with pytest.raises(StaleVersion) as caught:
        table.submit(add(1), expected_version=0)
    assert (caught.value.expected, caught.value.current) == (0, 1)
    assert table.game.view()["total"] == 1


def test_undo_goes_back_to_the_setup_and_redo_forward_again(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    states = [table.game.dumps()]
    for amount in (1, 2, 3):
        table.submit(add(amount))
        states.append(table.game.dumps())
    for expected in reversed(states[:-1]):
        assert table.undo().action == "undo"
        assert table.game.dumps() == expected
    with pytest.raises(NothingToUndo):
        table.undo()
    for expected in states[1:]:
        table.redo()
        assert table.game.dumps() == expected
    with pytest.raises(NothingToRedo):
        table.redo()
    assert table.version == 9


def test_a_new_command_after_undo_clears_redo(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(1))
    table.undo()
    table.submit(add(2))
    with pytest.raises(NothingToRedo):
        table.redo()


def test_undo_preview_names_the_command_it_will_take_back(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    assert table.undo_preview() is None
    table.submit(add(3))
    assert table.undo_preview() == "Ana adds 3: 3"
    now = table.current()
    assert now.undo_text == "Ana adds 3: 3"
    assert [e.kind for e in now.undo_events] == ["added"]
    table.submit(add(2))
    table.undo()
    # After an undo, undo names the command now on top, and history says
    # what the undo took back.
    assert table.current().undo_text == "Ana adds 3: 3"
    last = table.history()[-1]
    assert last.said == "Undone: Ben adds 2: 5"
    assert [e.kind for e in last.undid] == ["added"]
    table.redo()
    assert table.current().undo_text == "Ben adds 2: 5"
    assert table.history()[-1].said == "Redone: Ben adds 2: 5"


def test_undo_names_its_command_again_after_a_restart(table, tally_game, reopen):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(3))
    table.submit(add(1))
    table.undo()
    again = reopen()
    assert again.current().undo_text == "Ana adds 3: 3"
    assert [h.said for h in again.history()] == [
        "Ana adds 3: 3", "Ben adds 1: 4", "Undone: Ben adds 1: 4"]
    assert json.loads(again.history()[-1].json_text())["undid"][0]["kind"] == "added"


def test_a_preview_says_what_a_command_would_do_and_changes_nothing(table, tally_game, db_path):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(2))
    heard = []
    table.subscribe(heard.append)
    rows = journal_rows(db_path)
    preview = table.preview(add(3), expected_game=table.current().game_id, expected_version=1)
    assert preview.text == "Ben adds 3: 5"
    assert preview.state["total"] == 5 and preview.version == 1
    assert [e.command for e in preview.expected] == ["roll"]
    # Nothing changed, nothing was written, nobody was told.
    assert table.current().state["total"] == 2 and table.version == 1
    assert journal_rows(db_path) == rows and heard == []
    # The preview matches what playing it does.
    done = table.submit(add(3), expected_version=1)
    assert [e.to_json() for e in done.events] == [e.to_json() for e in preview.events]
    assert done.state == preview.state


def test_a_preview_is_refused_as_the_command_would_be(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(2))
    game_id = table.current().game_id
    with pytest.raises(StaleVersion):
        table.preview(add(1), expected_game=game_id, expected_version=0)
    with pytest.raises(StaleVersion):
        table.preview(add(1), expected_game=game_id + 1, expected_version=1)
    with pytest.raises(BadArgument):
        table.preview(add(9))
    with pytest.raises(UnknownCommand):
        table.preview(Command("fly"))
    assert table.current().state["total"] == 2


def test_replay_after_restart_gives_the_same_state_undo_included(table, tally_game, reopen):
    table.new_game("tally", ["Ana", "Ben"])
    for amount in (1, 2, 2):
        table.submit(add(amount))
    table.submit(Command("roll", {"values": [6]}))
    table.undo()
    table.undo()
    table.redo()
    table.submit(Command("set", {"total": 7}), source="panel")
    again = reopen()
    assert again.game.dumps() == table.game.dumps()
    assert again.version == table.version == 8
    assert [h.text for h in again.history()] == [h.text for h in table.history()]
    # redo history was cleared by the last command, after the restart too
    with pytest.raises(NothingToRedo):
        again.redo()
    assert again.undo().state["total"] == 5


def test_a_finished_game_is_recorded_and_undo_reopens_it(table, tally_game, reopen):
    table.new_game("tally", ["Ana", "Ben"], variants=["short"])
    table.submit(add(3))
    table.submit(add(3))
    assert table.games()[0]["status"] == "over"
    assert table.stats()["players"] == {"Ana": {"played": 1, "won": 0},
                                        "Ben": {"played": 1, "won": 1}}
    table.undo()
    assert table.games()[0]["status"] == "playing"
    assert reopen().games()[0]["result"] is None


def test_past_games_stay_for_history_and_statistics(table, tally_game):
    for _ in range(2):
        table.new_game("tally", ["Ana", "Ben"], variants=["short"])
        table.submit(add(3))
        table.submit(add(3))
    table.new_game("tally", ["Ana", "Cy"])
    games = table.games()
    assert [g["status"] for g in games] == ["over", "over", "playing"]
    stats = table.stats()
    assert stats["games_played"] == 2
    assert stats["players"]["Ben"] == {"played": 2, "won": 2}
    assert "Cy" not in stats["players"]


def test_what_follows_a_version_is_the_same_for_the_game_in_play_and_a_past_one(
        table, tally_game):
    first = table.new_game("tally", ["Ana", "Ben"]).game_id
    table.submit(add(1))
    table.undo()
    table.redo()
    in_play = [(e.version, e.action.value) for e in table.archive.history_after(first, 1)]
    assert in_play == [(2, "undo"), (3, "redo")]
    assert table.archive.history_after(first, 3) == []
    assert [e.version for e in table.archive.history_after(first, 0)] == [1, 2, 3]
    table.new_game("tally", ["Ana", "Ben"])
    assert [(e.version, e.action.value) for e in table.archive.history_after(first, 1)] == in_play
    # What follows is the game's own history, the same entries, in order.
    assert table.archive.history_after(first, -1) == table.history(first)


def test_starting_a_new_game_abandons_the_unfinished_one(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    table.new_game("tally", ["Ana", "Ben"])
    assert [g["status"] for g in table.games()] == ["abandoned", "playing"]


def test_listeners_hear_every_change_in_order(table, tally_game):
    heard = []
    table.subscribe(lambda u: heard.append((u.version, u.action)))
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(1))
    table.undo()
    table.redo()
    assert heard == [(0, "new"), (1, "command"), (2, "undo"), (3, "redo")]


def test_a_listener_that_raises_never_breaks_the_table(table, tally_game, caplog):
    heard = []

    def broken(update):
        raise RuntimeError("display unplugged")

    table.subscribe(broken)
    unsubscribe = table.subscribe(lambda u: heard.append(u.version))
    table.new_game("tally", ["Ana", "Ben"])
    assert table.submit(add(1)).version == 1
    assert heard == [0, 1]
    assert "display unplugged" in caplog.text
    unsubscribe()
    table.submit(add(1))
    assert heard == [0, 1]


def test_commands_from_many_threads_are_applied_one_at_a_time(table, tally_game):
    table.new_game("tally", ["Ana", "Ben", "Cy", "Di"])
    table.submit(Command("set", {"total": 0}))
    accepted = []
    barrier = threading.Barrier(8)

    def phone():
        barrier.wait()
        for _ in range(5):
            version = table.version
            try:
                accepted.append(
                    table.submit(Command("set", {"total": version % 4}), expected_version=version)
                )
            except StaleVersion:
                pass

    threads = [threading.Thread(target=phone) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    versions = [u.version for u in accepted]
    assert sorted(versions) == list(range(2, 2 + len(versions)))
    assert table.version == 1 + len(accepted)


def test_a_failed_journal_write_takes_the_command_back(table, tally_game, monkeypatch):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(1))
    before = table.game.dumps()

    def disk_full(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(table._journal, "append", disk_full)
    for attempt in (lambda: table.submit(add(2)), table.undo):
        with pytest.raises(OSError):
            attempt()
        assert table.game.dumps() == before
        assert table.version == 1
    monkeypatch.undo()
    table.undo()
    with pytest.raises(OSError):
        monkeypatch.setattr(table._journal, "append", disk_full)
        table.redo()
    monkeypatch.undo()
    assert table.redo().state["total"] == 1


def test_a_foreign_sqlite_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "photos.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
    before = path.read_bytes()
    with pytest.raises(ForeignDatabase, match="another program"):
        Journal.open(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"shopping list: bread, milk\n" * 200)
    before = path.read_bytes()
    with pytest.raises(ForeignDatabase, match="not a companion journal or is damaged"):
        Journal.open(path)
    assert path.read_bytes() == before


def test_a_journal_edited_outside_the_companion_is_refused_on_replay(db_path, tally_game,
                                                                     table, reopen):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(3))
    with sqlite3.connect(db_path) as db:
        db.execute("""UPDATE entries SET command = '{"name":"add","args":{"amount":9}}'""")
    with pytest.raises(ForeignDatabase, match="does not replay"):
        reopen()


def test_a_second_process_cannot_open_a_journal_in_use(table, db_path):
    from companion.core.errors import JournalError

    with pytest.raises(JournalError, match="in use by another companion process"):
        Journal.open(db_path)


def test_the_journal_uses_wal_and_full_sync(table):
    db = table._journal._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_table_busy_with_a_command_does_not_answer(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    assert table.answers(timeout=0.01)
    entered, release = threading.Event(), threading.Event()
    append = table._journal.append

    def slow_append(*args, **kwargs):  # a disk that hangs in the middle of a write
        entered.set()
        release.wait(10)
        return append(*args, **kwargs)

    table._journal.append = slow_append
    worker = threading.Thread(target=table.submit, args=(add(1),))
    worker.start()
    assert entered.wait(10)
    assert not table.answers(timeout=0.01)
    release.set()
    worker.join(10)
    assert table.answers(timeout=0.01)


def test_a_slow_listener_holds_back_no_input_and_is_told_every_change_in_order(
        table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    entered, release = threading.Event(), threading.Event()
    told = []

    def slow_listener(update):
        told.append(update.version)
        if update.version == 1:
            entered.set()
            release.wait(10)

    table.subscribe(slow_listener)
    first = threading.Thread(target=table.submit, args=(add(1),))
    first.start()
    assert entered.wait(10)  # the listener sits on the first change...
    second = threading.Thread(target=table.submit, args=(add(2),))
    second.start()
    second.join(10)
    assert not second.is_alive()  # ...and the second input went through all the same
    assert table.version == 2 and table.answers(timeout=0.01)
    assert told == [1]  # told in order: the second change waits for the first's listener
    release.set()
    first.join(10)
    assert told == [1, 2]


def test_after_a_restart_undo_walks_back_through_every_state(table, tally_game, reopen):
    # Replay keeps only some snapshots; undo must still give each state back.
    table.new_game("tally", ["Ana", "Ben", "Cy", "Di"])
    states = [table.game.dumps()]
    for step in range(80):
        if table.game.expected()[0].command == "roll":
            table.submit(Command("roll", {"values": [step % 6 + 1]}))
        else:
            table.submit(Command("set", {"total": step % 4}))
        states.append(table.game.dumps())
    again = reopen()
    for expected in reversed(states[:-1]):
        again.undo()
        assert again.game.dumps() == expected
    for expected in states[1:]:
        again.redo()
        assert again.game.dumps() == expected


def test_a_past_game_can_be_looked_back_on(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"], variants=["short"])
    table.submit(add(3))
    table.submit(add(3))
    first = table.current().game_id
    table.new_game("tally", ["Cy", "Di"])
    table.submit(add(1))
    assert [h.text for h in table.history(first)] == ["add amount=3", "add amount=3"]
    assert [h.text for h in table.history()] == ["add amount=1"]
    with pytest.raises(NoGame, match="no game 99"):
        table.history(99)


# -- versions that name the game ------------------------------------------------------


def test_a_command_made_against_a_replaced_game_is_refused_even_at_the_same_version(
        table, tally_game):
    old = table.new_game("tally", ["Ana", "Ben"])
    new = table.new_game("tally", ["Cy", "Di"])
    assert (old.version, new.version) == (0, 0) and new.game_id == old.game_id + 1
    for change in (lambda: table.submit(add(3), expected_game=old.game_id, expected_version=0),
                   lambda: table.undo(expected_game=old.game_id, expected_version=0),
                   lambda: table.redo(expected_game=old.game_id, expected_version=0)):
        with pytest.raises(StaleVersion) as caught:
            change()
        assert str(caught.value).startswith(
            f"the command was made against game {old.game_id} at version 0, but the table "
            f"is at game {new.game_id} at version 0")
        assert (caught.value.expected_game, caught.value.current_game) == \
            (old.game_id, new.game_id)
    assert table.game.view()["total"] == 0 and table.version == 0
    assert [h.text for h in table.history()] == []
    played = table.submit(add(3), expected_game=new.game_id, expected_version=0)
    assert (played.game_id, played.version, played.state["total"]) == (new.game_id, 1, 3)


def test_a_new_game_names_the_game_and_version_it_replaces(table, tally_game):
    first = table.new_game("tally", ["Ana", "Ben"], expected_game=None)
    with pytest.raises(StaleVersion, match="made against no game, but the table is at game"):
        table.new_game("tally", ["Ana", "Ben"], expected_game=None)
    table.submit(add(1))
    with pytest.raises(StaleVersion, match=f"game {first.game_id} at version 0, but the "
                                           f"table is at game {first.game_id} at version 1"):
        table.new_game("tally", ["Ana", "Ben"], expected_game=first.game_id, expected_version=0)
    with pytest.raises(StaleVersion):
        table.new_game("tally", ["Ana", "Ben"], expected_game=first.game_id + 1)
    assert [g["id"] for g in table.games()] == [first.game_id]
    second = table.new_game("tally", ["Ana", "Ben"], expected_game=first.game_id,
                            expected_version=1)
    assert second.game_id == first.game_id + 1
    # The buttons and the CLI act on whatever game is current.
    assert table.new_game("tally", ["Ana", "Ben"]).game_id == second.game_id + 1


def test_thirty_two_play_again_taps_at_once_start_one_game(table, tally_game):
    over = table.new_game("tally", ["Ana", "Ben"], variants=["short"])
    table.submit(Command("set", {"total": 50}))
    shown = table.current()
    assert shown.over
    barrier = threading.Barrier(32)
    started, refused = [], []

    def tap():
        barrier.wait()
        try:
            started.append(table.new_game("tally", ["Ana", "Ben"], variants=["short"],
                                          expected_game=shown.game_id,
                                          expected_version=shown.version))
        except StaleVersion:
            refused.append(True)

    threads = [threading.Thread(target=tap) for _ in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert (len(started), len(refused)) == (1, 31)
    assert [g["id"] for g in table.games()] == [over.game_id, started[0].game_id]


# -- memory that does not grow with a snapshot per command -----------------------------


def test_a_long_game_keeps_one_snapshot_in_n_and_undoes_every_step(tally_game):
    from companion.core.table import SNAPSHOT_EVERY, Table

    steps = 10_000
    table = Table(Journal.open(":memory:"))
    table.new_game("tally", ["Ana", "Ben", "Cy", "Di"])
    states = [table.game.dumps()]
    for step in range(steps):
        if table.game.expected()[0].command == "roll":
            table.submit(Command("roll", {"values": [step % 6 + 1]}))
        else:
            table.submit(Command("set", {"total": step % 4}))
        states.append(table.game.dumps())
    assert table.snapshots_kept() == -(-steps // SNAPSHOT_EVERY)
    for expected in reversed(states[:-1]):
        table.undo()
        assert table.game.dumps() == expected
    assert table.snapshots_kept() == 0 and not table.current().can_undo
    for expected in states[1:SNAPSHOT_EVERY * 3]:
        table.redo()
        assert table.game.dumps() == expected
    assert table.snapshots_kept() == 3
    table.close()


def test_a_refused_command_between_snapshots_changes_nothing(table, tally_game):
    table.new_game("tally", ["Ana", "Ben", "Cy", "Di"])
    table.submit(Command("set", {"total": 2}))
    table.submit(Command("set", {"total": 3}))
    before = table.game.dumps()
    with pytest.raises(BadArgument):
        table.submit(Command("set", {"total": 13}))
    assert table.game.dumps() == before
    table.undo()
    assert table.game.view()["total"] == 2


def test_a_history_entry_as_text_is_its_json(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit(add(3), source="panel")
    table.undo(source="buttons")
    for entry in table.history():
        assert json.loads(entry.json_text()) == entry.to_json()
        assert entry.events == tuple(Event.from_json(e) for e in entry.to_json()["events"])
    assert [e.text for e in table.history()] == ["add amount=3", "undo add amount=3"]
    assert table.history()[0].events[0].kind == "added"


def test_the_whole_file_is_checked_after_the_start_and_a_damaged_page_is_found(
        db_path, table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    for n in range(400):
        table.submit(Command("set", {"total": n % 4}) if table.game.expected()[0].command
                     != "roll" else Command("roll", {"values": [n % 6 + 1]}))
    assert table._journal.check() is None
    table.close()
    data = bytearray(db_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) > 6 * page
    last = len(data) - page
    data[last:last + 12] = b"\xff" * 12  # the last page's b-tree header, far from the file's
    db_path.write_bytes(bytes(data))
    damaged = Journal.open(db_path)  # the start reads the header only...
    try:
        assert damaged.check() is not None  # ...and the check finds the damage
    finally:
        damaged.close()
