"""Taps in the phone panel for Bathroom Rush, counted on the real pages.

Headless Chromium (/usr/bin/chromium, through Playwright) at a phone's size
(390x844) joins the real panel served by waitress on loopback, on a real
table and journal, and plays a 3-player game by tapping what a player would
tap; every tap is counted, from the setup page (the game, three names, Start;
the box its owner described once is used by default) to the first action,
then turns and rounds.  Dice come from the panel's ROLL button.  Before each
reveal's tap the benchmark looks whether the choice is on screen and not
under anything (the dock included): the share that would need a scroll
first is printed.  In light tracking the cleanup is an entry per player on
the dock (the pipì, then the button naming the player; popò starts at 0).

    .venv/bin/python benchmarks/taps.py [--shots DIR]

Each figure is printed with its target beside it; ``--shots DIR`` also saves
what the phone shows at the turn's choice and at the decompression's die.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.core.journal import Journal  # noqa: E402
from companion.core.table import Table  # noqa: E402
from companion.host.storage import keep_file  # noqa: E402
from tests.fakes import FixedDice  # noqa: E402
from web import PanelSettings, Services, create_app  # noqa: E402
from web.server import serve  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
PLAYERS = ["Ana", "Ben", "Cy"]
WAIT_MS = 15_000
BOX = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 20},
       {"name": "Ragazzo", "colour": "neutral", "pipi": 2, "popo": 0, "copies": 12},
       {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 6},
       {"name": "Distratto", "colour": "orange", "pipi": 1, "popo": 0, "copies": 6},
       {"name": "Infame", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 6}]


class Panel:
    """A phone on the panel that counts its taps."""

    def __init__(self, page: Any, table: Table) -> None:
        self.page = page
        self.table = table
        self.taps = 0
        self.reveals: list[int] = []
        self.hidden_reveals = 0
        self.blocked = 0

    def tap(self, selector: str) -> None:
        self.blocked += blocked_by_message(self.page, selector)
        self.page.click(selector)
        self.taps += 1

    def command(self, name: str) -> None:
        """Tap the dock's button for ``name``; wait for the table to take it."""
        version = self.table.version
        self.tap(f"button[data-command='{name}']")
        self._wait_past(version)

    def form(self, name: str, choices: dict[str, Any]) -> None:
        """Open the form of ``name``, tap each choice, then OK."""
        version = self.table.version
        self.tap(f"button[data-command='{name}']")
        for param, value in choices.items():
            self.tap(f".field[data-param={param}] .option[data-value='{value}']")
        self.tap("#sheet button[type=submit]")
        self._wait_past(version)

    def roll(self) -> None:
        version = self.table.version
        self.tap("#roll")
        self._wait_past(version)

    def action_card(self, card: str, target: str | None = None, answer: str | None = None,
                    roll: bool = False) -> None:
        """An Action card: its name in the list, the place it strikes on the
        picture of the queues, then the struck player's answer or the die."""
        version = self.table.version
        self.tap(f".br-cards .action-card[data-card='{card}']")
        self._wait_past(version)
        if target is not None:
            version = self.table.version
            self.tap(target)
            self._wait_past(version)
        if answer is not None:
            self.command(answer)
        if roll:
            self.roll()

    def reveal_kinds(self) -> None:
        """Every Persona waiting, one tap each on the first kind offered."""
        while any(e.command == "reveal-kind" for e in self.table.current().expected):
            version = self.table.version
            before = self.taps
            if not self.in_sight(".br-kinds .persona-kind"):
                self.hidden_reveals += 1
            self.tap(".br-kinds .persona-kind >> nth=0")
            self._wait_past(version)
            self.reveals.append(self.taps - before)

    def in_sight(self, selector: str) -> bool:
        """Whether the first element ``selector`` finds can be tapped where
        it is: inside the screen and on top at its centre (a toast, which
        goes by itself, does not count as covering it)."""
        return bool(self.page.evaluate("""(selector) => {
            const el = document.querySelector(selector);
            if (!el) return false;
            const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (r.top < 0 || r.bottom > innerHeight || x < 0 || x > innerWidth) return false;
            const top = document.elementFromPoint(x, y);
            return !!top && (el.contains(top) || !!top.closest('#toast'));
        }""", selector))

    def cleanup_entry(self, seat: int, pipi: int) -> None:
        """Light tracking: a player's tokens from their bathroom, on the
        dock's row that names them: the pipì, then their button."""
        version = self.table.version
        row = f".br-entry[data-seat='{seat}']"
        self.tap(f"{row} .br-pipi [data-pipi='{pipi}']")
        self.tap(f"{row} .br-take")
        self._wait_past(version)

    def set_up(self, url: str, light: bool) -> None:
        """A new game of three from the setup page, as a table does it the
        first time: the game, the players' names (a tap in each field, then
        typing), the variant for light tracking, Start.  The box described
        once by its owner is used by default."""
        self.page.goto(f"{url}/setup")
        self.page.wait_for_selector("[data-game=bathroom-rush]")
        self.tap("[data-game=bathroom-rush]")
        while self.page.locator("#players li").count() < len(PLAYERS):
            self.tap("#add-player")
        for seat, name in enumerate(PLAYERS):
            self.tap(f"input[data-seat='{seat}']")
            self.page.fill(f"input[data-seat='{seat}']", name)
        if light:
            self.tap("input[name=variant][value=light-tracking]")
        self.tap("#start")
        self.page.wait_for_url(f"{url}/")
        self.page.wait_for_selector("#conn[data-state=live]")
        while not self.table.has_game:
            threading.Event().wait(0.01)
        update = self.table.current()
        if update.expected:
            first = update.expected[0]
            self.page.wait_for_function(
                "(target) => !!document.querySelector(target)",
                arg=f"button[data-command='{first.command}']")

    def _wait_past(self, version: int) -> None:
        """Wait until the table took the tap and the phone shows what comes
        next (so that no tap lands on a button of the state before)."""
        stop = threading.Event()
        while self.table.version <= version:
            stop.wait(0.01)
        update = self.table.current()
        if not update.expected:
            return
        first = update.expected[0]
        if first.command == "reveal-kind":
            self.page.wait_for_function(
                "(p) => document.querySelector('.br-kinds h2')?.textContent.endsWith(p)",
                arg=first.prompt)
            return
        if first.command in ("bathroom-tokens", "count-tokens"):
            self.page.wait_for_function(
                "(n) => document.querySelectorAll('.br-entry').length === n",
                arg=sum(1 for e in update.expected if e.command == first.command))
            return
        who = update.players[first.player] if first.player is not None else ""
        target = "#roll" if first.dice else f"button[data-command='{first.command}']"
        self.page.wait_for_function(
            "([who, target]) => (document.querySelector('#prompt')?.textContent || '')"
            ".startsWith(who) && !!document.querySelector(target) && "
            "!document.querySelector('#sheet[open]')", arg=[who, target])


def serve_table(folder: Path) -> tuple[Table, Any, Any, str]:
    table = Table(Journal.open(folder / "companion.db"))
    dice = FixedDice(table, [2])
    services = Services(screen_png=lambda: b"", press_key=lambda key: None, dice=dice)
    app = create_app(table, PanelSettings(secret_key="taps-benchmark",
                                          colours_file=folder / "colours.json",
                                          keep_file=keep_file),
                     services=services)
    server = serve(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.port}"
    return table, app, server, app.extensions["companion"].access.join_url(url)


def measure(browser: Any, light: bool, shots: Path | None = None) -> dict[str, int]:
    figures: dict[str, int] = {}
    mode = "light" if light else "full"

    def shot(what: str) -> None:
        """A picture of the phone now, when pictures were asked for."""
        if shots is not None:
            page.screenshot(path=str(shots / f"{mode}-{what}.png"))

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        table, _app, server, join_url = serve_table(folder)
        try:
            # The owner described the box once (its page; not counted here).
            table.save_option("bathroom-rush", "box", BOX)
            context = browser.new_context(viewport=PHONE, device_scale_factor=2,
                                          is_mobile=True, has_touch=True)
            context.set_default_timeout(WAIT_MS)
            page = context.new_page()
            page.goto(join_url)
            page.wait_for_selector("#conn[data-state=live]")
            panel = Panel(page, table)
            panel.set_up(join_url.split("/?")[0], light)
            figures["setup page: game, 3 names, Start"] = panel.taps

            if not light:
                for queue in (1, 2, 3):
                    version = table.version
                    panel.tap(f".queue[data-queue='{queue}'] .stand")
                    panel._wait_past(version)
                panel.reveal_kinds()
            figures["setup page to the first action"] = panel.taps
            if panel.reveals:
                figures["a reveal (box described)"] = max(panel.reveals)

            def turn(what: str, play: Any, split: bool = True) -> None:
                """A turn's taps, with the reveals it brings; when it was the
                round's last, the reveals of the new round's bathrooms are
                the cleanup's and counted apart."""
                before = panel.taps
                start = table.current().state["round"]
                play()
                played = panel.taps
                if not light:
                    panel.reveal_kinds()
                if split and table.current().state["round"] != start and not light:
                    figures[what] = played - before
                    figures["  then the cleanup's reveals"] = panel.taps - played
                else:
                    figures[what] = panel.taps - before

            end = "end-turn" if light else "pass"
            turn("a turn: pass", lambda: panel.command(end))
            shot("turn-choice")
            if light:
                # The red die rolled at the choice is the decompression.
                turn("a turn: decompress (red die by ROLL)", panel.roll)
            else:
                # Decompress, the red die, the reveal of the Persona behind.
                turn("a turn: decompress (red die by ROLL)",
                     lambda: (panel.command("decompress"), shot("decompress-roll"),
                              panel.roll()))
            if light:
                # The card is played on the table; the turn ends.
                turn("a turn: an Action card", lambda: panel.command(end))
            else:
                # Cy makes Ana give up her place; Ana has no Queue Defence.
                turn("a turn: Give Up Your Place on a player",
                     lambda: panel.action_card("give-up-your-place",
                                               ".pawn.target[data-player='0']", "effect"))

            def to_round_end() -> None:
                """The turns left in this round, then its cleanup (light
                tracking: each player's entry, counted apart)."""
                start = table.current().state["round"]
                cleanup_from = None
                while table.current().state["round"] == start:
                    update = table.current()
                    if update.state["phase"] == "E":
                        panel.command(end)
                        continue
                    if cleanup_from is None:
                        cleanup_from = panel.taps
                    entry = next(e for e in update.expected if e.command == "bathroom-tokens")
                    panel.cleanup_entry(entry.player, 1)
                if cleanup_from is not None:
                    figures["the cleanup (3 players)"] = panel.taps - cleanup_from

            to_round_end()
            if not light:
                panel.reveal_kinds()
                # Round 3: Cy strikes the free queue's bathroom with the
                # Cleaner; Ana removes the Persona in front of her with Cunning.
                free = table.current().state["free_queue"]
                turn("a turn: the Cleaner on a bathroom (red die by ROLL)",
                     lambda: panel.action_card(
                         "cleaner", f".queue[data-queue='{free}'] .persona.target", roll=True))
                # Ana has a Persona in front and none behind: nothing to choose.
                turn("a turn: Cunning (one Persona next to the player)",
                     lambda: panel.action_card("cunning"))
                to_round_end()
                panel.reveal_kinds()
            cleanup_round = to_round_end
            turn("a full round with its cleanup", cleanup_round, split=False)
            if panel.reveals:
                figures["reveal taps needing a scroll first (%)"] = round(
                    100 * panel.hidden_reveals / len(panel.reveals))
                figures["  reveal taps seen"] = len(panel.reveals)
            figures["taps blocked by a message"] = panel.blocked
            context.close()
        finally:
            server.close()
            table.close()
    return figures


# The targets: a typical turn (pass; decompress; an Action card) at most 3
# taps including reveals in full tracking, at most 1 in light tracking;
# setup to the first action at most 20; a reveal 1 tap with a box described.
TURNS = ("a turn: pass", "a turn: decompress (red die by ROLL)",
         "a turn: Give Up Your Place on a player", "a turn: an Action card")


def blocked_by_message(page: Any, selector: str) -> bool:
    """Is the control about to be tapped under a message (a toast, a roll's
    result)?  Drawn over it, the message hides it, and would take the tap
    if it took taps at all: a tap blocked by a message."""
    toast = page.locator("#toast")
    if not toast.is_visible():
        return False
    m = toast.bounding_box()
    r = page.locator(selector).first.bounding_box(timeout=WAIT_MS)
    if not m or not r:
        return False
    return (m["y"] + m["height"] > r["y"] and m["y"] < r["y"] + r["height"]
            and m["x"] + m["width"] > r["x"] and m["x"] < r["x"] + r["width"])


def target(what: str, light: bool) -> str:
    if what == "taps blocked by a message":
        return "0"
    if what == "setup page to the first action":
        return "<= 20"
    if what == "a reveal (box described)":
        return "1"
    if what in TURNS:
        return "<= 1" if light else "<= 3"
    if what == "reveal taps needing a scroll first (%)":
        return "0"
    if light and what == "the cleanup (3 players)":
        return "<= 6 (2 a player)"
    if light and what == "a full round with its cleanup":
        return "<= 9"
    return ""


def main() -> None:
    from playwright.sync_api import sync_playwright

    shots = None
    if "--shots" in sys.argv:
        shots = Path(sys.argv[sys.argv.index("--shots") + 1])
        shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--headless", "--no-sandbox"])
        try:
            for light in (False, True):
                title = "light tracking" if light else "full tracking, box of 5 kinds described"
                print(f"Bathroom Rush, 3 players, {title} (taps; target)")
                for what, taps in measure(browser, light, shots).items():
                    aim = target(what, light)
                    print(f"  {what:<52} {taps:>3}" + (f"   target {aim}" if aim else ""))
        finally:
            browser.close()


if __name__ == "__main__":
    main()
