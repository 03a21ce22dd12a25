"""A Bathroom Rush reveal at the buttons: the answers beside UP, DOWN, OK and
ROLL, any kind of a box of up to 16 kinds in at most three presses, and
nothing sent without a question on screen.

Every story drives the real menu on a real table (temporary journal), and
finds its way the way a player does: by what the screen shows.
"""

from __future__ import annotations

import itertools

import pytest

from companion.core.engine import Command
from companion.core.menu import KEY_ROWS, TableMenu
from drivers.menu_screens import render

PLAYERS = ["Ana", "Ben", "Cy"]

# A box of 16 kinds: nine light blue, four orange, one red, two yellow.
BOX_16 = [
    {"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 8},
    {"name": "Ragazzo", "colour": "neutral", "pipi": 2, "popo": 0, "copies": 6},
    {"name": "Turista", "colour": "neutral", "pipi": 1, "popo": 1, "copies": 5},
    {"name": "Manager", "colour": "neutral", "pipi": 3, "popo": 0, "copies": 4},
    {"name": "Bambino", "colour": "neutral", "pipi": 0, "popo": 1, "copies": 4},
    {"name": "Sposa", "colour": "neutral", "pipi": 2, "popo": 1, "copies": 3},
    {"name": "Idraulico", "colour": "neutral", "pipi": 0, "popo": 2, "copies": 3},
    {"name": "Poliziotto", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 2},
    {"name": "Cuoco", "colour": "neutral", "pipi": 2, "popo": 0, "copies": 2},
    {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 3},
    {"name": "Mamma con pupo", "colour": "orange", "pipi": 2, "popo": 1, "copies": 3},
    {"name": "Distratto", "colour": "orange", "pipi": 1, "popo": 0, "copies": 3},
    {"name": "Avido lettore", "colour": "orange", "pipi": 1, "popo": 1, "copies": 2},
    {"name": "Imprenditore", "colour": "red", "pipi": 0, "popo": 0, "copies": 2},
    {"name": "Infame", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 2},
    {"name": "Giovane smarrito", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 1},
]
BOX_12 = BOX_16[:5] + BOX_16[9:]
BOX_20 = BOX_16 + [{"name": f"Passante {n}", "colour": "neutral", "pipi": 1, "popo": 0,
                    "copies": 1} for n in range(1, 5)]


def menu_at_reveal(table, box=None, lang="en", **kwargs) -> TableMenu:
    options = {"box": box} if box is not None else {}
    table.new_game("bathroom-rush", PLAYERS, options=options)
    for queue in (1, 2, 3):
        table.submit(Command("choose-queue", {"queue": queue}))
    kwargs.setdefault("dice_source", "manual")
    menu = TableMenu(table, language=lang, **kwargs)
    table.subscribe(menu.on_update)
    return menu


def way_to(menu: TableMenu, question: str, depth: int = 4) -> list[str] | None:
    """The fewest keys from the screen shown to ``question`` asked and
    answered with OK, found by looking at each screen (and going BACK)."""
    for most in range(1, depth + 1):
        found = _search(menu, question, most)
        if found is not None:
            return found
    return None


def _search(menu: TableMenu, question: str, depth: int) -> list[str] | None:
    view = menu.view()
    if view.kind == "confirm":
        return ["ok"] if view.text == question else None
    if depth <= 1:
        return None
    if view.kind == "keys":
        keys = [key for key, label in zip(KEY_ROWS, view.items, strict=True) if label]
        for key in keys:
            menu.on_key(key)
            found = _search(menu, question, depth - 1)
            menu.on_key("back")
            if found is not None:
                return [key, *found]
    if view.kind == "list":
        for index, _ in enumerate(view.items):
            steps = ["down"] * index
            for key in steps:
                menu.on_key(key)
            menu.on_key("ok")
            found = _search(menu, question, depth - 1 - index)
            menu.on_key("back")
            for _ in steps:
                menu.on_key("up")
            if found is not None:
                return [*steps, "ok", *found]
    return None


def kind_question(kind) -> str:
    tokens = " and ".join(f"{n} {w}" for n, w in ((kind["pipi"], "pipì"),
                                                  (kind["popo"], "popò")) if n) or "no token"
    return f"{kind['name']}: {tokens}?"


@pytest.mark.parametrize("box", [BOX_12, BOX_16], ids=["12 kinds", "16 kinds"])
def test_every_kind_of_a_box_of_up_to_16_is_three_presses_away(table, box):
    for kind in box:
        menu = menu_at_reveal(table, box)
        way = way_to(menu, kind_question(kind))
        assert way is not None and len(way) <= 3, (kind["name"], way)
        version = table.version
        for key in way:
            menu.on_key(key)
        assert table.version == version + 1
        assert table.history()[-1].text == (
            f"reveal-kind queue=1 position=1 persona=0 kind={kind['name']}")


def test_the_groups_follow_the_colours_where_they_fit_the_likeliest_first(table):
    menu = menu_at_reveal(table, BOX_12)
    # Five light blue kinds: the likeliest alone, then four; orange; red and yellow.
    assert menu.view().items == ("Signora ×8", "Raga Turi Mana Bamb", "Anzi Mamm Dist Avid",
                                 "Impren Infame Giovan")
    menu.on_key("ok")
    assert menu.view().items == ("Anziano ×3", "Mamma con pupo ×3", "Distratto ×3",
                                 "Avido lettore ×2")
    menu.on_key("back")
    menu.on_key("roll")
    assert menu.view().items == ("Imprenditore ×2", "Infame ×2", "Giovane smarrito ×1", "")
    menu.on_key("back")
    menu.on_key("up")
    assert menu.view().kind == "confirm"  # a group of one asks straight away


def test_sixteen_kinds_fill_the_four_keys_four_by_four_in_colour_order(table):
    menu = menu_at_reveal(table, BOX_16)
    shown = []
    for key in KEY_ROWS:
        menu.on_key(key)
        shown.append([label.rsplit(" ×", 1)[0] for label in menu.view().items])
        menu.on_key("back")
    assert shown == [[k["name"] for k in BOX_16[n:n + 4]] for n in range(0, 16, 4)]


def test_beyond_16_kinds_the_likeliest_12_stay_three_presses_away_and_all_are_reachable(table):
    likeliest = sorted(BOX_20, key=lambda k: -k["copies"])[:12]
    for kind in BOX_20:
        menu = menu_at_reveal(table, BOX_20)
        way = way_to(menu, kind_question(kind), depth=12)
        assert way is not None, kind["name"]
        if kind in likeliest:
            assert len(way) <= 3, (kind["name"], way)
        for key in way:
            menu.on_key(key)
        assert table.history()[-1].text.endswith(f"kind={kind['name']}")


COLOURS = {"neutral": "light blue", "orange": "orange", "red": "red", "yellow": "yellow"}
USUAL = {(1, 0): "1 pipì", (2, 0): "2 pipì", (1, 1): "1 pipì and 1 popò", (0, 1): "1 popò"}


@pytest.mark.parametrize("colour", sorted(COLOURS))
def test_without_a_box_each_colour_and_usual_tokens_are_three_presses_away(table, colour):
    for (pipi, popo), tokens in USUAL.items():
        menu = menu_at_reveal(table)
        way = way_to(menu, f"{COLOURS[colour]}, {tokens}?")
        assert way is not None and len(way) == 3
        for key in way:
            menu.on_key(key)
        assert table.history()[-1].text == (f"reveal queue=1 position=1 persona=0 pipi={pipi} "
                                            f"popo={popo} colour={colour}")


def test_the_tokens_the_table_has_seen_in_a_colour_are_offered_first(table):
    menu = menu_at_reveal(table)
    table.submit(Command("reveal", {"queue": 1, "position": 1, "pipi": 3, "popo": 2,
                                    "colour": "orange"}))
    menu.on_key("down")
    assert menu.view().items == ("3 pipì and 2 popò", "1 pipì", "2 pipì", "1 pipì and 1 popò")


@pytest.mark.parametrize("box", [None, BOX_16], ids=["without a box", "box of 16"])
def test_no_one_or_two_stray_presses_send_anything(table, box):
    menu = menu_at_reveal(table, box)
    version = table.version
    for first, second in itertools.product(KEY_ROWS, (*KEY_ROWS, "back")):
        menu.on_key(first)
        assert table.version == version, first
        menu.on_key(second)
        assert table.version == version, (first, second)
        view = menu.view()
        if view.kind == "confirm":
            # What would be sent is on screen, and OK alone sends it.
            assert view.text.endswith("?") and view.footer == "OK: yes  BACK: no"
        while menu.view().kind != "keys" or menu.view().footer != "BACK: menu  hold OK: more":
            menu.on_key("back")
    assert table.version == version


def test_back_goes_back_one_step_at_a_time(table):
    menu = menu_at_reveal(table, BOX_16)
    home = menu.view()
    menu.on_key("up")
    group = menu.view()
    menu.on_key("down")
    assert menu.view().kind == "confirm"
    menu.on_key("back")
    assert menu.view() == group
    menu.on_key("back")
    assert menu.view() == home
    menu.on_key("back")
    assert menu.view().title == "Menu"


def test_holding_ok_on_the_reveal_lists_everything_the_game_accepts(table):
    menu = menu_at_reveal(table, BOX_16)
    menu.on_key("ok", "press")
    menu.on_key("ok", "long")
    view = menu.view()
    assert view.title == "Actions"
    assert view.items[0] == "Which Persona is in the bathroom of queue 1?"


def test_roll_picks_beside_its_key_even_with_the_roll_button_dice(table):
    rolled = []
    menu = menu_at_reveal(table, BOX_12, dice_source="button",
                          roll=lambda: rolled.append(1) or "no die is awaited")
    menu.on_key("roll")
    assert rolled == []
    assert menu.view().items[0] == "Imprenditore ×2"


def test_a_held_key_repeats_nothing_on_the_reveal(table):
    menu = menu_at_reveal(table, BOX_16)
    menu.on_key("up", "press")
    group = menu.view()
    for _ in range(5):
        menu.on_key("up", "repeat")
    assert menu.view() == group


def test_a_reveal_from_a_phone_meanwhile_takes_the_question_away(table):
    menu = menu_at_reveal(table, BOX_16)
    menu.on_key("up")
    menu.on_key("up")
    assert menu.view().kind == "confirm"
    table.submit(Command("reveal-kind", {"queue": 1, "position": 1, "kind": "Signora"}))
    view = menu.view()
    assert (view.kind, view.text) == ("keys", "queue 1, place 6")
    version = table.version
    menu.on_key("ok")  # beside OK now: a group, not the old question
    assert table.version == version


def test_the_reveal_speaks_the_tables_language(table):
    menu = menu_at_reveal(table, lang="it")
    view = menu.view()
    assert (view.text, view.items) == ("fila 1, bagno", ("azzurro", "arancione", "rosso",
                                                          "giallo"))
    menu.on_key("up")
    menu.on_key("down")
    assert menu.view().text == "azzurro, 2 pipì?"


def test_the_reveal_is_drawn_with_a_tag_beside_each_row_that_offers_something(table):
    menu = menu_at_reveal(table, [{"name": "Signora", "colour": "neutral", "pipi": 1,
                                   "popo": 0, "copies": 40},
                                  {"name": "Anziano", "colour": "orange", "pipi": 2,
                                   "popo": 0, "copies": 4}])
    image = render(menu.view(), menu.update)
    # A tag (lit block) at the left of the UP and DOWN rows; none for OK and ROLL.
    rows = [image.crop((0, top, 22, top + 10)).getbbox() for top in (13, 26, 39, 52)]
    assert rows[0] is not None and rows[1] is not None
    assert rows[2] is None and rows[3] is None
