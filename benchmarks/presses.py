"""How many key presses a typical turn takes on the table's buttons.

    .venv/bin/python benchmarks/presses.py

Drives the table menu (companion/menu/) with a real table on a temporary
journal, the way a practised player does: knowing what they want, taking
the shortest way through each list and value (a held key is counted as one
press, and no held-key repeats are used), with dice entered by hand.  Each
turn is checked against the command the table received, then its presses
are printed with the keys pressed.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.menu import KEY_ROWS, TableMenu
from companion.core.table import Table


class First:
    """Answer what the game waits for first, starting with ``target`` (a
    value, a die face or a line of a list)."""

    def __init__(self, target: Any) -> None:
        self.target = target


class Enter:
    """Enter ``target`` in the value, die or list on screen, then OK."""

    def __init__(self, target: Any) -> None:
        self.target = target


class Answer:
    """Answer by the keys (a reveal): the keys beside what the screen
    shows, to the question that starts with ``question``, then OK."""

    def __init__(self, question: str) -> None:
        self.question = question


class Player:
    """Presses keys on a menu and counts them."""

    def __init__(self, menu: TableMenu) -> None:
        self.menu = menu
        self.keys: list[str] = []

    def press(self, key: str) -> None:
        self.menu.on_key(key, "press")
        self.keys.append(key)

    def hold(self, key: str) -> None:
        self.menu.on_key(key, "press")
        self.menu.on_key(key, "long")
        self.keys.append(f"hold-{key}")

    def play(self, steps: Iterable[Any]) -> None:
        for step in steps:
            if isinstance(step, First):
                self.first(step.target)
            elif isinstance(step, Enter):
                self.enter(step.target)
            elif isinstance(step, Answer):
                self.answer(step.question)
            elif step.startswith("hold-"):
                self.hold(step[5:])
            else:
                self.press(step)

    def first(self, target: Any) -> None:
        # Look at where the entry starts (OK opens it, BACK closes it again:
        # not counted), then go there the short way: UP or DOWN on the game
        # screen opens the entry and already moves.
        self.menu.on_key("ok", "press")
        key, count = moves(self.menu.view(), target)
        self.menu.on_key("back", "press")
        if count == 0:
            self.press("ok")
        for _ in range(count):
            self.press(key)
        self.press("ok")

    def answer(self, question: str) -> None:
        # Look at each group (its key, then BACK: not counted), then press
        # the fewest keys that lead to the question, and OK.
        way = way_to(self.menu, question)
        if way is None:
            raise AssertionError(f"no way to {question!r} from {self.menu.view()}")
        for key in way:
            self.press(key)

    def enter(self, target: Any) -> None:
        key, count = moves(self.menu.view(), target)
        for _ in range(count):
            self.press(key)
        self.press("ok")


def way_to(menu: TableMenu, question: str, most: int = 12) -> list[str] | None:
    """The fewest keys from the answers beside the keys on screen to the
    question starting with ``question`` confirmed by OK (found by pressing
    and going BACK, as a player looks)."""
    for depth in range(1, most + 1):
        found = _search(menu, question, depth)
        if found is not None:
            return found
    return None


def _search(menu: TableMenu, question: str, depth: int) -> list[str] | None:
    view = menu.view()
    if view.kind == "confirm":
        return ["ok"] if view.text.startswith(question) else None
    if depth <= 1:
        return None
    if view.kind == "keys":
        for key, label in zip(KEY_ROWS, view.items, strict=True):
            if not label:
                continue
            menu.on_key(key)
            found = _search(menu, question, depth - 1)
            menu.on_key("back")
            if found is not None:
                return [key, *found]
    elif view.kind == "list":
        for index in range(len(view.items)):
            if index + 2 > depth:
                break
            for _ in range(index):
                menu.on_key("down")
            menu.on_key("ok")
            found = _search(menu, question, depth - 1 - index)
            menu.on_key("back")
            for _ in range(index):
                menu.on_key("up")
            if found is not None:
                return [*["down"] * index, "ok", *found]
    return None


def moves(view, target: Any) -> tuple[str, int]:
    """The key and the number of presses that take ``view`` to ``target``."""
    if view.kind == "value":
        gap = target - view.value
        return ("up" if gap > 0 else "down"), abs(gap)
    if view.kind == "dice":
        sides = view.high
        up = (target - view.value) % sides
        return ("up", up) if up <= sides - up else ("down", sides - up)
    if view.kind == "list":
        count = len(view.items)
        down = (view.items.index(target) - view.index) % count
        return ("down", down) if down <= count - down else ("up", count - down)
    raise ValueError(f"cannot enter {target!r} on a {view.kind} view ({view.title})")


def turn(game: str, players: list[str], prepare: Callable[[Table], None],
         steps: list[Any], expected: str, variants: tuple[str, ...] = (),
         new: bool = True) -> list[str]:
    """Play one turn on a fresh table; return the keys it took."""
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Journal.open(Path(folder) / "companion.db"))
        try:
            if new:
                table.new_game(game, players, variants)
            prepare(table)
            menu = TableMenu(table, dice_source="manual")
            table.subscribe(menu.on_update)
            player = Player(menu)
            player.play(steps)
            done = [h.text for h in table.history() if h.source == "buttons"]
            if " / ".join(done) != expected:
                raise AssertionError(f"{game}: expected {expected!r}, the table got {done!r}")
            if menu.view().kind not in ("game", "keys"):
                # (The answers beside the keys are the game screen of the
                # next reveal.)
                raise AssertionError(f"{game}: the turn ended on {menu.view()}")
            return player.keys
        finally:
            table.close()


# -- the situations --------------------------------------------------------------------

CON = ["Ana", "Ben", "Cy", "Dee"]
REVEAL_TARGET = 3
OHSHIT = ["Ana", "Ben", "Cy", "Dee"]
BR = ["Ana", "Ben", "Cy"]
COLOURS = ["Spicy", "Precious", "Grassy", "Frosty", "Fruity", "Unicorn"]


def nothing(table: Table) -> None:
    pass


def respite(table: Table) -> None:
    table.submit(Command("set-pressure", {"value": 45}))
    table.submit(Command("card", {"value": 5}))


def end_of_game(table: Table) -> None:
    table.submit(Command("adjust-mastery", {"player": "Ana", "delta": -7}))


def queues_chosen(table: Table) -> None:
    for queue in range(1, 4):
        table.submit(Command("choose-queue", {"queue": queue}))


def first_round_revealed(table: Table) -> None:
    """Every Persona of the first round revealed, but the one behind Ana:
    her turn starts with it to reveal."""
    queues_chosen(table)
    while True:
        others = [e for e in table.current().expected
                  if e.command == "reveal" and "behind Ana" not in e.prompt]
        if not others:
            break
        table.submit(Command("reveal", {**others[0].args, "pipi": 1, "popo": 0,
                                        "colour": "neutral"}))


def in_phase_e(table: Table) -> None:
    first_round_revealed(table)
    table.submit(Command("reveal", {**table.current().expected[0].args, "pipi": 1,
                                    "popo": 0, "colour": "neutral"}))


def elderly_man_behind(table: Table) -> None:
    first_round_revealed(table)
    table.submit(Command("reveal", {**table.current().expected[0].args, "pipi": 2,
                                    "popo": 0, "colour": "orange", "name": "Elderly Man"}))


# A box as its owner describes it: the likeliest kind is offered first.
BOX = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 20},
       {"name": "Ragazzo", "colour": "neutral", "pipi": 2, "popo": 0, "copies": 12},
       {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 6},
       {"name": "Distratto", "colour": "orange", "pipi": 1, "popo": 0, "copies": 6},
       {"name": "Infame", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 6}]


def boxed_queues_chosen(table: Table) -> None:
    table.new_game("bathroom-rush", BR, options={"box": BOX})
    queues_chosen(table)


# A whole box of 50 Persona cards in 12 kinds (values as a table might
# describe them): the kinds are offered beside the keys in groups.
FULL_BOX = [
    {"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 9},
    {"name": "Ragazzo", "colour": "neutral", "pipi": 2, "popo": 0, "copies": 7},
    {"name": "Turista", "colour": "neutral", "pipi": 1, "popo": 1, "copies": 6},
    {"name": "Manager", "colour": "neutral", "pipi": 3, "popo": 0, "copies": 5},
    {"name": "Bambino", "colour": "neutral", "pipi": 0, "popo": 1, "copies": 4},
    {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 4},
    {"name": "Mamma con pupo", "colour": "orange", "pipi": 2, "popo": 1, "copies": 3},
    {"name": "Distratto", "colour": "orange", "pipi": 1, "popo": 0, "copies": 3},
    {"name": "Avido lettore", "colour": "orange", "pipi": 1, "popo": 1, "copies": 3},
    {"name": "Imprenditore", "colour": "red", "pipi": 0, "popo": 0, "copies": 2},
    {"name": "Infame", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 2},
    {"name": "Giovane smarrito", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 2},
]


# A box of 16 kinds: the full box and four more a table might have.
BOX_16 = FULL_BOX + [
    {"name": "Sposa", "colour": "neutral", "pipi": 2, "popo": 1, "copies": 2},
    {"name": "Idraulico", "colour": "neutral", "pipi": 0, "popo": 2, "copies": 2},
    {"name": "Poliziotto", "colour": "orange", "pipi": 1, "popo": 0, "copies": 2},
    {"name": "Cuoco", "colour": "yellow", "pipi": 2, "popo": 0, "copies": 1},
]
# The tokens without a box: each colour with its usual printed tokens.
PRINTED = [(colour, word, tokens) for colour, word in (
    ("neutral", "light blue"), ("orange", "orange"), ("red", "red"), ("yellow", "yellow"))
    for tokens in ((1, 0), (2, 0), (1, 1), (0, 1))]


def box_queues_chosen(box: list[dict[str, Any]]) -> Callable[[Table], None]:
    def prepare(table: Table) -> None:
        table.new_game("bathroom-rush", BR, options={"box": box})
        queues_chosen(table)

    return prepare


def box_reveals(box: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """Each kind of ``box`` and the presses its first reveal takes."""
    return [(kind, len(turn("bathroom-rush", BR, box_queues_chosen(box),
                            [Answer(f"{kind['name']}:")],
                            f"reveal-kind queue=1 position=1 kind={kind['name']}", new=False)))
            for kind in box]


def printed_reveals() -> list[tuple[str, int]]:
    """Without a box: each colour with each of its usual tokens, and the
    presses its reveal takes."""
    said = {1: "1 pipì", 2: "2 pipì"}
    found = []
    for colour, word, (pipi, popo) in PRINTED:
        tokens = " and ".join(t for t in (said.get(pipi, ""), "1 popò" if popo else "") if t)
        keys = turn("bathroom-rush", BR, queues_chosen, [Answer(f"{word}, {tokens}?")],
                    f"reveal queue=1 position=1 pipi={pipi} popo={popo} colour={colour}")
        found.append((f"{word} {pipi}/{popo}", len(keys)))
    return found


def light_cleanup(table: Table) -> None:
    """Light tracking at the end of the first round: Ana entered hers."""
    for _ in range(3):
        table.submit(Command("end-turn", {}))
    table.submit(Command("bathroom-tokens", {"player": "Ana", "pipi": 0, "popo": 0}))


def situations() -> dict[str, list[tuple[str, list[str]]]]:
    con = [
        ("+3 card", turn("call-of-nature", CON, nothing, [First(3)], "card value=3")),
        ("+0 card", turn("call-of-nature", CON, nothing, [First(0)], "card value=0")),
        ("+5 card", turn("call-of-nature", CON, nothing, [First(5)], "card value=5")),
        ("-5 card", turn("call-of-nature", CON, nothing, [First(-5)], "card value=-5")),
        ("special card U-TURN!", turn("call-of-nature", CON, nothing,
                                      ["hold-ok", Enter("Ana plays a special card"),
                                       Enter("U-TURN!")], "special card=u-turn")),
    ]
    con += [(f"Respite roll {face}", turn("call-of-nature", CON, respite, [First(face)],
                                          f"roll values={face}")) for face in range(1, 7)]
    con.append(("End of Game roll 3+5", turn("call-of-nature", CON, end_of_game,
                                             [First(3), Enter(5)], "roll values=3 5")))
    ohshit = [
        (f"poop on {target}, {colour.lower()}",
         turn("ohshit", OHSHIT, nothing, [First(target), Enter(colour)],
              f"poop target={target} colour={colour.lower()} player=Ana"))
        for target in OHSHIT[1:] for colour in COLOURS
    ]
    ohshit.append(("Toilette on one's own pile",
                   turn("ohshit", OHSHIT, nothing,
                        ["hold-ok", Enter("Ana: play a Toilette on a pile"), Enter("Ana")],
                        "toilette target=Ana player=Ana")))
    br = [
        ("choose a queue (the first free)", turn("bathroom-rush", BR, nothing, [First(1)],
                                                 "choose-queue queue=1")),
        ("reveal a neutral Persona, 1 pipì",
         turn("bathroom-rush", BR, first_round_revealed, [Answer("light blue, 1 pipì?")],
              "reveal queue=1 position=8 pipi=1 popo=0 colour=neutral")),
        ("reveal an orange Persona, 2 pipì",
         turn("bathroom-rush", BR, first_round_revealed, [Answer("orange, 2 pipì?")],
              "reveal queue=1 position=8 pipi=2 popo=0 colour=orange")),
        ("reveal an Elderly Man by name, 2 pipì",
         turn("bathroom-rush", BR, first_round_revealed,
              ["hold-ok", "ok", Enter(2), Enter(0), Enter("Orange"), Enter("Elderly Man")],
              "reveal queue=1 position=8 pipi=2 popo=0 colour=orange name=Elderly Man")),
        *[(f"reveal, box of 5 kinds: {kind['name']} ({kind['copies']})",
           turn("bathroom-rush", BR, boxed_queues_chosen, [Answer(f"{kind['name']}:")],
                f"reveal-kind queue=1 position=1 kind={kind['name']}", new=False))
          for kind in BOX],
        ("Elderly Man passes in front", turn("bathroom-rush", BR, elderly_man_behind,
                                             ["ok", "ok"], "effect")),
        ("Queue Defence against the Elderly Man",
         turn("bathroom-rush", BR, elderly_man_behind,
              ["hold-ok", Enter("Ana: Queue Defence against Elderly Man?")], "defend")),
        ("decompress, red die 2", turn("bathroom-rush", BR, in_phase_e,
                                       ["hold-ok", Enter("Ana: decompress (red die)"), First(2)],
                                       "decompress / roll values=2")),
        ("pass", turn("bathroom-rush", BR, in_phase_e, ["hold-ok", Enter("Ana: pass")], "pass")),
        ("light: the turn is over", turn("bathroom-rush", BR, nothing, ["ok", "ok"],
                                                  "end-turn", ("light-tracking",))),
        ("light: decompress, red die 2",
         turn("bathroom-rush", BR, nothing,
              ["hold-ok", Enter("Ana decompresses? Roll the red die"), Enter(2)],
              "roll values=2", ("light-tracking",))),
        ("light: Ben's bathroom tokens, 2 pipì",
         turn("bathroom-rush", BR, light_cleanup,
              ["hold-ok", Enter("Ben: the tokens you take from your bathroom"), Enter(2),
               Enter(0)],
              "bathroom-tokens player=Ben pipi=2 popo=0", ("light-tracking",))),
        ("Give Up Your Place on Ben, who lets it happen",
         turn("bathroom-rush", BR, in_phase_e,
              [First("Give Up Your Place"),
               "hold-ok", Enter("Ana: Give Up Your Place on Ben, queue 2?"), "ok", "ok"],
              "play card=give-up-your-place / target queue=2 position=7 / effect")),
        ("Give Up Your Place on oneself (nothing to answer)",
         turn("bathroom-rush", BR, in_phase_e,
              [First("Give Up Your Place"), "ok", "ok"],
              "play card=give-up-your-place / target queue=1 position=7")),
        ("Cleaner on the free queue, red die 3",
         turn("bathroom-rush", BR, in_phase_e,
              [First("Cleaner"), "hold-ok",
               Enter("Ana: Cleaner on the bathroom of queue 4?"), First(3)],
              "play card=cleaner / target queue=4 position=1 / roll values=3")),
        ("Empty Bottle, red die 2",
         turn("bathroom-rush", BR, in_phase_e, [First("Empty Bottle"), First(2)],
              "play card=empty-bottle / roll values=2")),
        ("Change Queue (nothing to choose)",
         turn("bathroom-rush", BR, in_phase_e, [First("Change Queue")],
              "play card=change-queue")),
        ("Action card Swap, then end the turn",
         turn("bathroom-rush", BR, in_phase_e, [First("Swap"), "ok", "ok"],
              "play card=swap / end-turn")),
    ]
    return {"Call of Nature": con, "OhShit!": ohshit, "Bathroom Rush": br}


def main() -> None:
    results = situations()
    for game, rows in results.items():
        print(game)
        for name, keys in rows:
            if game == "OhShit!" and not name.startswith(("poop on Ben", "Toilette")):
                continue
            print(f"  {name:<44} {len(keys):>2}  {' '.join(keys)}")
    con = dict(results["Call of Nature"])
    cards = [len(turn("call-of-nature", CON, nothing, [First(v)], f"card value={v}"))
             for v in range(1, 6)]
    respites = [len(con[f"Respite roll {face}"]) for face in range(1, 7)]
    poops = [len(keys) for name, keys in results["OhShit!"] if name.startswith("poop")]
    next_poops = [len(keys) for name, keys in results["OhShit!"]
                  if name.startswith("poop on Ben")]
    br = dict(results["Bathroom Rush"])
    typical_br = len(br["reveal a neutral Persona, 1 pipì"]) + \
        len(br["decompress, red die 2"])
    print()
    print("Typical turns (presses)")
    print(f"  Call of Nature  card +1..+5: {min(cards)}..{max(cards)} (+3: {len(con['+3 card'])}),"
          f" +0: {len(con['+0 card'])}, Respite roll by hand: {min(respites)}..{max(respites)}"
          f" (mean {statistics.mean(respites):.1f})")
    print(f"  OhShit!         poop on another player: {min(poops)}..{max(poops)}"
          f" (mean {statistics.mean(poops):.1f}); on the next player: "
          f"{min(next_poops)}..{max(next_poops)} (mean {statistics.mean(next_poops):.1f})")
    print(f"  Bathroom Rush   reveal the Persona behind + decompress + red die: {typical_br}"
          f" ({len(br['reveal a neutral Persona, 1 pipì'])} + "
          f"{len(br['decompress, red die 2'])}); pass instead: "
          f"{len(br['reveal a neutral Persona, 1 pipì']) + len(br['pass'])}")
    print()
    print(f"Bathroom Rush reveals at the buttons (target: at most {REVEAL_TARGET} presses)")
    for box in (FULL_BOX, BOX_16):
        found = box_reveals(box)
        worst = max(p for _, p in found)
        cards = sum(kind["copies"] for kind, _ in found)
        print(f"  box of {len(found)} kinds ({cards} cards): worst case {worst} presses"
              f" (target {REVEAL_TARGET}: {'met' if worst <= REVEAL_TARGET else 'NOT met'});"
              f" best {min(p for _, p in found)}, mean over the cards "
              f"{sum(k['copies'] * p for k, p in found) / cards:.2f}")
    printed = printed_reveals()
    worst = max(p for _, p in printed)
    print(f"  without a box, 4 colours x 4 usual tokens: worst case {worst} presses"
          f" (target {REVEAL_TARGET}: {'met' if worst <= REVEAL_TARGET else 'NOT met'})")


if __name__ == "__main__":
    main()
