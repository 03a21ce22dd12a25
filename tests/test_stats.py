"""Statistics over finished games, computed by the core from the journal:
games and wins per player, win rate, streaks, records, head to head, and
their CSV export."""

from __future__ import annotations

import csv
import io
import time

from companion.core.engine import Command, Event
from companion.core.stats import CSV_COLUMNS, compute, in_effect, summarise, to_csv


def call_of_nature(table, players, cards, loser):
    """A Call of Nature without the End of Game roll: ``cards`` played in
    turn, then ``loser`` explodes by correction."""
    table.new_game("call-of-nature", players, variants=["no-end-roll"])
    for value in cards:
        table.submit(Command("card", {"value": value}))
    table.submit(Command("adjust-mastery", {"player": loser, "delta": -7}))
    assert table.current().over


def test_wins_rates_and_streaks_per_player_per_game(table):
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")  # Ana wins
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")  # Ana wins
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ana")  # Ben wins
    stats = table.stats()
    assert stats["games_played"] == 3
    game = stats["games"]["call-of-nature"]
    assert game["games"] == 3
    ana, ben = game["players"]
    started = [g["started"] for g in table.games()]
    assert ana == {"name": "Ana", "played": 3, "won": 2, "rate": 67, "streak": 0,
                   "best_streak": 2, "first_played": started[0], "last_played": started[2]}
    assert ben == {"name": "Ben", "played": 3, "won": 1, "rate": 33, "streak": 1,
                   "best_streak": 1, "first_played": started[0], "last_played": started[2]}
    assert game["head_to_head"] == [{"a": "Ana", "b": "Ben", "games": 3, "a_won": 2,
                                     "b_won": 1}]


def test_the_highest_pressure_survived_counts_only_cards_still_in_effect(table):
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"], variants=["no-end-roll"])
    for value in (20, 25):  # Ana 20, Ben 45 (threshold 31: Ben loses 1 and survives)
        table.submit(Command("card", {"value": value}))
    table.submit(Command("card", {"value": 30}))  # Cy: 75...
    table.undo()  # ...taken back: it does not count
    table.submit(Command("card", {"value": 2}))  # Cy: 47
    table.submit(Command("adjust-mastery", {"player": "Ana", "delta": -7}))
    record = table.stats()["games"]["call-of-nature"]["record"]
    assert (record["kind"], record["value"], record["player"]) == \
        ("highest-pressure-survived", 47, "Cy")


def test_a_card_that_brings_the_pressure_down_survived_nothing(table):
    table.new_game("call-of-nature", ["Ana", "Ben", "Cy"], variants=["no-end-roll"])
    table.submit(Command("card", {"value": 20}))  # Ana: 20
    table.submit(Command("set-pressure", {"value": 85}))  # the table's own count
    table.submit(Command("card", {"value": -5}))  # Ben: 80, down from 85
    table.submit(Command("roll", {"values": [1]}))  # his Respite: nothing
    table.submit(Command("card", {"value": -10}))  # Cy: 70
    table.submit(Command("adjust-mastery", {"player": "Ana", "delta": -7}))
    record = table.stats()["games"]["call-of-nature"]["record"]
    assert (record["value"], record["player"]) == (20, "Ana")


def test_a_card_that_blows_its_player_up_survived_nothing(table):
    table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
    table.submit(Command("card", {"value": 25}))  # Ana: 25
    table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -6}))  # Ben at 1
    table.submit(Command("card", {"value": 10}))  # Ben: 35, threshold 31: he explodes
    record = table.stats()["games"]["call-of-nature"]["record"]
    assert (record["value"], record["player"]) == (25, "Ana")


def test_the_biggest_flush_in_ohshit(table):
    table.new_game("ohshit", ["Ana", "Ben", "Cy"])
    for _ in range(3):  # a third grassy: Ben's pile flushes
        table.submit(Command("poop", {"target": "Ben", "colour": "grassy"}))
    table.submit(Command("kill", {"player": "Ben"}))
    table.submit(Command("kill", {"player": "Cy"}))
    game = table.stats()["games"]["ohshit"]
    assert game["record"]["kind"] == "biggest-flush"
    assert (game["record"]["value"], game["record"]["player"]) == (3, "Ben")
    assert game["players"][0]["name"] == "Ana" and game["players"][0]["won"] == 1


def test_the_lowest_bathroom_rush_score_wins_the_record():
    games = [
        summarise(1, "bathroom-rush", {"players": ["Ana", "Ben"]},
                  {"winners": [0], "scores": [4, 9]}, 1.0, 2.0, []),
        summarise(2, "bathroom-rush", {"players": ["Ana", "Cy"]},
                  {"winners": [1], "scores": [None, 2]}, 3.0, 4.0, []),
    ]
    record = compute(games)["games"]["bathroom-rush"]["record"]
    assert (record["kind"], record["value"], record["player"], record["game_id"]) == \
        ("lowest-score", 2, "Cy", 2)


def test_events_in_effect_follow_undo_and_redo():
    a, b, c = ([Event("x", n)] for n in "abc")
    assert in_effect([("command", a), ("command", b), ("undo", []), ("command", c)]) == [a, c]
    assert in_effect([("command", a), ("undo", []), ("redo", a)]) == [a]
    assert in_effect([("undo", [])]) == []


def test_unfinished_games_do_not_count(table):
    call_of_nature(table, ["Ana", "Ben"], [5], loser="Ben")
    table.new_game("call-of-nature", ["Ana", "Dee"])
    stats = table.stats()
    assert stats["games_played"] == 1 and "Dee" not in stats["players"]


def test_the_csv_export_has_a_row_per_game_and_player_and_no_formulas(table):
    call_of_nature(table, ["=SUM(A1)", "Ben"], [5], loser="Ben")
    rows = list(csv.reader(io.StringIO(to_csv(table.stats()))))
    assert tuple(rows[0]) == CSV_COLUMNS
    day = time.strftime("%Y-%m-%d", time.localtime(table.games()[0]["started"]))
    assert rows[1] == ["call-of-nature", "'=SUM(A1)", "1", "1", "100", "1", "1", day, day]
    assert rows[2] == ["call-of-nature", "Ben", "1", "0", "0", "0", "0", day, day]


def test_a_finished_game_is_summed_up_once(table, monkeypatch):
    call_of_nature(table, ["Ana", "Ben"], [5], loser="Ben")
    table.new_game("call-of-nature", ["Ana", "Ben"])
    table.stats()
    from companion.core import archive

    loads = []
    original = archive.replay
    monkeypatch.setattr(archive, "replay",
                        lambda journal, row: loads.append(row.id) or original(journal, row))
    assert table.stats()["games_played"] == 1
    assert loads == []


# -- summaries kept in the journal ---------------------------------------------------


def test_a_finished_game_is_summed_up_in_the_journal_when_it_ends_and_not_before(table):
    journal = table._journal
    table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
    table.submit(Command("card", {"value": 10}))
    assert journal.summaries() == []
    table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}))
    [summary] = journal.summaries()
    assert (summary["game"], summary["players"], summary["winners"]) == \
        ("call-of-nature", ["Ana", "Ben"], [0])
    table.undo()  # the end taken back: no summary any more
    assert journal.summaries() == []
    table.redo()
    assert [s["winners"] for s in journal.summaries()] == [[0]]


def test_statistics_replay_no_game(table, monkeypatch):
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ana")
    table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])

    from companion.core import archive

    def no_replay(journal, row):
        raise AssertionError(f"game {row.id} was replayed for the statistics")

    monkeypatch.setattr(archive, "replay", no_replay)
    assert table.stats()["games"]["call-of-nature"]["games"] == 2


def test_a_journal_of_an_earlier_version_gets_its_summaries_once(table, reopen):
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    call_of_nature(table, ["Ana", "Ben", "Cy"], [20, 25, 2], loser="Ana")
    expected = table.stats()
    table._journal._db.execute("DELETE FROM summaries")  # as an earlier version left it
    again = reopen()
    assert [row.id for row in again._journal.unsummarised()] == [1, 2]
    assert again.archive.summarise_past_games() == 2
    assert again.archive.summarise_past_games() == 0
    assert again.stats() == expected


def test_a_statistics_request_holds_back_no_command(table, monkeypatch):
    import threading

    from companion.core import archive as table_module

    for n in range(200):
        call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben" if n % 3 else "Ana")
    table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
    inside, release = threading.Event(), threading.Event()
    to_json = table_module.Tally.to_json

    def slow_to_json(tally):
        inside.set()
        release.wait(10)
        return to_json(tally)

    monkeypatch.setattr(table_module.Tally, "to_json", slow_to_json)
    reader = threading.Thread(target=table.stats)
    reader.start()
    assert inside.wait(10)  # the statistics are being computed...
    player = threading.Thread(target=table.submit, args=(Command("card", {"value": 5}),))
    player.start()
    player.join(10)
    assert not player.is_alive()  # ...and a card went through meanwhile
    assert table.version == 1
    release.set()
    reader.join(10)


def test_summing_up_an_earlier_journal_holds_back_no_command(table, reopen, monkeypatch):
    import threading

    for _ in range(3):
        call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    again = reopen()
    again.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
    upkeep, release = counting_paused_at_the_second_game(again, monkeypatch)
    player = threading.Thread(target=again.submit, args=(Command("card", {"value": 5}),))
    player.start()
    player.join(10)
    assert not player.is_alive()
    release.set()
    upkeep.join(10)
    assert again.stats()["games"]["call-of-nature"]["games"] == 3


def counting_paused_at_the_second_game(table, monkeypatch):
    """Sum up the table's games as an earlier version left them, on a
    thread (as the companion's upkeep does) paused before it keeps the
    second; returns (thread, release)."""
    import threading

    table._journal._db.execute("DELETE FROM summaries")  # as an earlier version left it
    table.archive.count_apart()
    kept, release = threading.Event(), threading.Event()
    put = table._journal.put_summary

    def slow_put(game_id, summary):
        if game_id == 2:
            kept.set()
            release.wait(10)
        put(game_id, summary)

    monkeypatch.setattr(table._journal, "put_summary", slow_put)
    upkeep = threading.Thread(target=table.archive.summarise_past_games)
    upkeep.start()
    assert kept.wait(10)
    return upkeep, release


def test_statistics_asked_while_an_earlier_journal_is_summed_up_answer_at_once(
        table, reopen, monkeypatch):
    import threading

    for loser in ("Ben", "Ana", "Ben"):
        call_of_nature(table, ["Ana", "Ben"], [10], loser=loser)
    expected = table.stats()
    again = reopen()
    upkeep, release = counting_paused_at_the_second_game(again, monkeypatch)
    answers: list[dict] = []
    asking = threading.Thread(target=lambda: answers.append(again.stats()))
    asking.start()
    asking.join(10)
    assert not asking.is_alive()  # not held by the count
    [so_far] = answers
    assert so_far["counting"] == {"summed": 1, "of": 3}
    assert so_far["games_played"] == 1
    assert so_far["players"] == {"Ana": {"played": 1, "won": 1}, "Ben": {"played": 1, "won": 0}}
    release.set()
    upkeep.join(10)
    assert "counting" not in again.stats()
    assert again.stats() == expected  # all counted, once: no "counting"


def test_statistics_kept_between_requests_follow_a_game_that_ends_and_its_end_undone(table):
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    assert table.stats()["games_played"] == 1
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ana")
    assert table.stats()["games"]["call-of-nature"]["players"][0]["won"] == 1
    assert table.stats()["games_played"] == 2
    table.undo()  # the second game's end taken back
    assert table.stats()["games_played"] == 1
    table.redo()
    assert table.stats()["games_played"] == 2


def test_statistics_kept_up_to_date_equal_statistics_added_up_again(table):
    """Games that end, ends taken back and played again, games abandoned:
    after each, the statistics kept between requests are those of every
    summary in the journal added up from nothing."""
    from companion.core.stats import Played

    def fresh():
        return compute([Played.from_json(s) for s in table._journal.summaries()])

    steps = [("end", "Ben"), ("end", "Ana"), ("undo",), ("redo",), ("undo",), ("end-again", "Ben"),
             ("abandon",), ("end", "Ana"), ("undo",), ("undo",), ("end-again", "Ana")]
    for step in steps:
        if step[0] == "end":
            call_of_nature(table, ["Ana", "Ben"], [10], loser=step[1])
        elif step[0] == "undo":
            table.undo()
        elif step[0] == "redo":
            table.redo()
        elif step[0] == "end-again":
            table.submit(Command("adjust-mastery", {"player": step[1], "delta": -7}))
        else:
            table.new_game("call-of-nature", ["Ana", "Cy"], variants=["no-end-roll"])
        assert table.stats() == fresh(), step


def test_the_tally_kept_in_the_journal_is_used_only_while_it_still_counts_right(
        table, reopen):
    from companion.core.archive import KEPT
    from companion.core.stats import Played

    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    table.stats()
    assert table._journal.saved_options(KEPT[0])[KEPT[1]]["last"] == 2
    table.undo()  # the last game's end taken back...
    table.submit(Command("adjust-mastery", {"player": "Ana", "delta": -7}))  # ...Ana loses
    again = reopen()
    fresh = compute([Played.from_json(s) for s in again._journal.summaries()])
    assert again.stats() == fresh
    assert fresh["games"]["call-of-nature"]["players"][0]["won"] == 1  # one each


def test_a_start_adds_up_only_the_games_after_the_tally_kept(table, reopen, monkeypatch):
    from companion.core import archive

    for loser in ("Ben", "Ana", "Ben"):
        call_of_nature(table, ["Ana", "Ben"], [10], loser=loser)
    expected = table.stats()
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ana")
    expected_after = reopen().stats()
    again = reopen()
    added = []
    monkeypatch.setattr(archive.Tally, "add",
                        lambda self, played, add=archive.Tally.add: added.append(
                            played.game_id) or add(self, played))
    assert again.stats() == expected_after != expected
    assert added == []  # the fourth game was counted by the start before, and kept


def test_the_journal_keeps_the_tally_of_each_game_as_it_ends_with_nobody_asking(tmp_path):
    """The companion's upkeep counts each game soon after it ends (and its
    end taken back), so that no start has games to add up: the tally the
    journal keeps counts them without a single statistics request."""
    import threading

    from companion.core.archive import KEPT
    from companion.parts.lifecycle import Setup
    from companion.parts.table import TablePart

    part = TablePart(Setup(directory=tmp_path))
    part.start()
    part.keep_up()
    table, journal = part.table, part.journal

    def kept_games() -> int:
        kept = journal.saved_options(KEPT[0]).get(KEPT[1])
        return kept["tally"]["count"] if kept else -1

    def until(predicate) -> None:
        done = threading.Event()
        deadline = time.monotonic() + 10
        while not predicate() and time.monotonic() < deadline:
            done.wait(0.01)
        assert predicate()

    try:
        until(lambda: kept_games() == 0)
        call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
        until(lambda: kept_games() == 1)
        call_of_nature(table, ["Ana", "Ben"], [10], loser="Ana")
        table.undo()  # its end taken back
        until(lambda: kept_games() == 1 and not table.archive.changed.is_set())
    finally:
        part.stop()
    assert not part.upkeep.is_alive()


def test_at_a_start_on_an_earlier_journal_no_phone_waits_for_its_games_to_be_summed_up(
        tmp_path):
    """The upkeep sums up an earlier version's games after the start; a
    phone asking before it has begun, or meanwhile, is answered at once
    with the games counted so far, and after it with all of them."""
    import threading

    from companion.host.storage import JOURNAL_FILE
    from companion.parts.lifecycle import Setup
    from companion.parts.table import TablePart

    first = TablePart(Setup(directory=tmp_path))
    first.start()
    for loser in ("Ben", "Ana"):
        call_of_nature(first.table, ["Ana", "Ben"], [10], loser=loser)
    expected = first.table.stats()
    first.table._journal._db.execute("DELETE FROM summaries")  # as an earlier version left it
    first.stop()
    assert (tmp_path / JOURNAL_FILE).exists()

    part = TablePart(Setup(directory=tmp_path))
    part.start()
    try:
        before = part.table.stats()  # the upkeep has not begun
        assert before["counting"] == {"summed": 0, "of": 2}
        assert before["games_played"] == 0
        part.keep_up()
        waiting, deadline = threading.Event(), time.monotonic() + 10
        while "counting" in part.table.stats() and time.monotonic() < deadline:
            waiting.wait(0.01)
        assert part.table.stats() == expected
    finally:
        part.stop()
