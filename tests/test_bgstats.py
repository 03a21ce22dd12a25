"""Plays where the players keep them: a finished game as a BG Stats play
(the link of BG Stats' "push plays to BG Stats from other apps or
websites", and the JSON file of every play), checked field by field against
the names BG Stats documents; and the statistics' CSV in the page's
language with dates, beside the one with the machine keys."""

from __future__ import annotations

import csv
import io
import json
import re
import time
import urllib.parse

import pytest

from companion.core import bgstats
from companion.core.engine import Command
from tests.test_stats import call_of_nature
from web import PanelSettings, create_app

# The fields BG Stats documents for a play pushed from another app.
PLAY_FIELDS = {"sourceName", "playDate", "durationMin", "game", "players", "board",
               "comments", "location"}
GAME_FIELDS = {"bggId", "name", "highestWins", "noPoints", "sourceGameId"}
PLAYER_FIELDS = {"name", "score", "winner", "rank", "startPlayer", "role", "sourcePlayerId"}
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="


def check_play(play: dict) -> None:
    """Only documented names, of the documented kinds."""
    assert set(play) <= PLAY_FIELDS, set(play) - PLAY_FIELDS
    assert {"sourceName", "playDate", "durationMin", "game", "players"} <= set(play)
    assert isinstance(play["sourceName"], str) and play["sourceName"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", play["playDate"])
    assert isinstance(play["durationMin"], int)
    assert set(play["game"]) <= GAME_FIELDS, set(play["game"]) - GAME_FIELDS
    for player in play["players"]:
        assert set(player) <= PLAYER_FIELDS, set(player) - PLAYER_FIELDS
        assert isinstance(player["winner"], bool) and isinstance(player["startPlayer"], bool)
        assert isinstance(player["rank"], int) and player["rank"] >= 1


def data_of(link: str) -> dict:
    assert link.startswith(CREATE_PLAY)
    return json.loads(urllib.parse.unquote(link[len(CREATE_PLAY):]))


def test_a_played_game_is_a_bg_stats_play_and_link(table):
    call_of_nature(table, ["Ana", "Ben", "Cy"], [10, 4], loser="Cy")
    game = table.games()[0]
    play = bgstats.play(game, "Call of Nature", bgg_id=123456)
    check_play(play)
    assert play["sourceName"] == "Tabletop Companion"
    assert play["playDate"] == time.strftime("%Y-%m-%d %H:%M:%S",
                                             time.localtime(game["started"]))
    assert play["game"] == {"name": "Call of Nature", "bggId": 123456, "highestWins": True,
                            "noPoints": False, "sourceGameId": "call-of-nature"}
    assert play["board"] == "no-end-roll"
    result = game["result"]
    assert [p["name"] for p in play["players"]] == ["Ana", "Ben", "Cy"]
    assert [p["startPlayer"] for p in play["players"]] == [True, False, False]
    assert [p["score"] for p in play["players"]] == result["scores"]
    winners = {game["players"][s] for s in result["winners"]}
    assert {p["name"] for p in play["players"] if p["winner"]} == winners
    assert {p["rank"] for p in play["players"] if p["winner"]} == {1}
    assert all(p["rank"] > 1 for p in play["players"] if not p["winner"])
    # The link BG Stats opens holds the same play.
    assert data_of(bgstats.link(play)) == play


def test_without_a_bgg_id_the_game_is_matched_by_its_name(table):
    call_of_nature(table, ["Ana", "Ben"], [3], loser="Ben")
    play = bgstats.play(table.games()[0], "Call of Nature")
    check_play(play)
    assert "bggId" not in play["game"]


def test_ranks_follow_the_games_scoring():
    def played(game: str, winners: list[int], scores: list[int]) -> dict:
        return {"id": 1, "game": game, "players": ["A", "B", "C", "D"], "started": 0.0,
                "ended": 600.0, "status": "over",
                "result": {"winners": winners, "scores": scores, "message": ""}}

    # Bathroom Rush: the lowest score wins; equal scores share a place.
    rush = bgstats.play(played("bathroom-rush", [2], [9, 5, 1, 5]), "Bathroom Rush")
    assert [p["rank"] for p in rush["players"]] == [4, 2, 1, 2]
    assert rush["durationMin"] == 10 and rush["game"]["highestWins"] is False
    # OhShit!: survivors win, no points.
    ohshit = bgstats.play(played("ohshit", [0, 3], [1, 0, 0, 1]), "OhShit!")
    assert [p["rank"] for p in ohshit["players"]] == [1, 2, 2, 1]
    assert ohshit["game"]["noPoints"] is True
    assert all("score" not in p for p in ohshit["players"])


@pytest.fixture
def panel(table):
    app = create_app(table, PanelSettings(secret_key="bgstats", bgg_ids={"call-of-nature": 123456}))
    return app.test_client()


def test_the_panel_gives_the_link_and_the_file_of_every_play(table, panel):
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    call_of_nature(table, ["Cy", "Dee"], [7], loser="Cy")
    table.new_game("call-of-nature", ["Eve", "Fay"])  # not over: no play yet
    table.submit(Command("card", {"value": 2}))
    first, second, playing = sorted(g["id"] for g in table.games())

    answer = panel.get(f"/api/bgstats?game={first}")
    assert answer.status_code == 200
    play = answer.json["play"]
    check_play(play)
    assert play["game"]["bggId"] == 123456
    assert [p["name"] for p in play["players"]] == ["Ana", "Ben"]
    assert data_of(answer.json["link"]) == play
    assert panel.get(f"/api/bgstats?game={playing}").status_code == 409
    assert panel.get("/api/bgstats?game=999").status_code == 404

    # Every play in one file, oldest first.
    exported = panel.get("/api/plays.json")
    assert "plays-bgstats.json" in exported.headers["Content-Disposition"]
    plays = json.loads(exported.data)
    assert [[p["name"] for p in play["players"]] for play in plays] == [["Ana", "Ben"],
                                                                        ["Cy", "Dee"]]
    for each in plays:
        check_play(each)

    # Each past game that is over carries its link.
    past = {g["id"]: g for g in panel.get("/api/past-games").json}
    assert data_of(past[second]["bgstats"])["players"][0]["name"] == "Cy"
    assert "bgstats" not in past[playing]


def test_the_csv_is_in_the_pages_language_with_dates_and_the_keys_are_in_a_second(
        table, panel):
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    day = time.strftime("%Y-%m-%d", time.localtime(table.games()[0]["started"]))

    french = panel.get("/api/stats.csv?lang=fr")
    assert french.headers["Content-Language"] == "fr"
    rows = list(csv.reader(io.StringIO(french.data.decode("utf-8-sig"))))
    assert rows[0] == ["Jeu", "Joueur", "Parties", "Victoires", "Taux de victoire (%)",
                       "Victoires d’affilée en cours", "Meilleure série de victoires",
                       "Première partie", "Dernière partie"]
    assert rows[1] == ["Call of Nature", "Ana", "1", "1", "100", "1", "1", day, day]
    italian = panel.get("/api/stats.csv", headers={"Accept-Language": "it"})
    assert next(csv.reader(io.StringIO(italian.data.decode("utf-8-sig"))))[0] == "Gioco"

    keys = panel.get("/api/stats-data.csv")
    rows = list(csv.reader(io.StringIO(keys.data.decode())))
    assert rows[0] == ["game", "player", "played", "won", "win_rate_percent",
                       "current_streak", "best_streak", "first_played", "last_played"]
    assert rows[1] == ["call-of-nature", "Ana", "1", "1", "100", "1", "1", day, day]


@pytest.mark.parametrize(("started", "ended", "minutes"), [
    (1_000_000.0, 1_000_000.0 + 25 * 60, 25),
    (1_000_000.0, 1_000_000.0 + 10, 1),
    # What a journal may hold after a reboot onto a wrong clock: a game
    # that ends before it starts, or lasts a week; its length is unknown.
    (1_000_000.0, 1_000_000.0 - 86400, 0),
    (1_000_000.0, 1_000_000.0 + 7 * 86400, 0),
    (1_000_000.0, None, 0),
])
def test_a_games_length_is_never_negative_nor_absurd(table, started, ended, minutes):
    call_of_nature(table, ["Ana", "Ben"], [10], loser="Ben")
    game = {**table.games()[0], "started": started, "ended": ended}
    assert bgstats.play(game, "Call of Nature")["durationMin"] == minutes
