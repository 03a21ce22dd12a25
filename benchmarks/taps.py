"""Taps in the phone panel for Bathroom Rush, counted on the real pages.

Headless Chromium (/usr/bin/chromium, through Playwright) at a phone's size
(390x844) joins the real panel served by waitress on loopback, on a real
table and journal, and plays by tapping what a player would tap; every tap
is counted, and so is every scroll a control needed first.

Full tracking, four players, no box described, in English, French and
Italian: the setup page (the game, four names typed (the keyboard's Next
goes from one name to the next), Start), the queues chosen, the Personas of
the setup revealed, then three rounds played from a script (passes,
decompressions, Cunning, the Cleaner, Give Up Your Place, Personas of every
colour, their effects).  The table's own inputs are the commands it takes
(one per Persona revealed, effect, choice, place and die): each round prints
them beside its taps, and the median of what the panel adds.  Before each
tap the benchmark looks whether the control is on screen and on top: one
under a message is a tap blocked by a message; one off screen costs a
scroll (counted as a tap), and one under a message is a tap blocked by a
message (counted apart, not in the taps of the move it was meant for).

Light tracking (three players, English): a turn, a decompression, the
cleanup (an entry per player on the dock: the pipì, then the button naming
the player).

    .venv/bin/python benchmarks/taps.py [--shots DIR] [--lang en]

Each figure is printed with its target beside it; the script exits with 1
when one misses it.  ``--shots DIR`` saves what the phone shows at a few
moments.
"""

from __future__ import annotations

import statistics
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
FOUR = ["Ana", "Ben", "Cy", "Dee"]
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
WAIT_MS = 15_000
# The Personas turned up in the scripted game, in turn (colour, pipì,
# popò): two in three light blue, the others orange, red or yellow.
PERSONAS = [("neutral", 1, 0), ("neutral", 2, 0), ("orange", 2, 0), ("neutral", 1, 0),
            ("neutral", 3, 0), ("yellow", 1, 0), ("neutral", 1, 1), ("red", 1, 0),
            ("neutral", 2, 0), ("orange", 1, 0), ("neutral", 0, 1), ("neutral", 2, 1)]
# What each player chooses at their turn, round by round.
ROUNDS = [["pass", "decompress", "cunning", "cleaner"],
          ["give-up-your-place", "pass", "decompress", "pass"],
          ["cunning", "decompress", "cleaner", "pass"]]
# Every third Persona effect the table applies by hand gives the player a
# pipì, said on the dock before "The effect happens" (one more tap).
TOKENS_EVERY = 3
# Whether a control is on top at its centre (nothing drawn over it).
ON_TOP = """(selector) => {
    const el = document.querySelector(selector);
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!top && el.contains(top);
}"""

class Panel:
    """A phone on the panel that counts its taps."""

    def __init__(self, page: Any, table: Table) -> None:
        self.page = page
        self.table = table
        self.taps = 0
        self.reveals: list[int] = []
        self.hidden_reveals = 0

    def tap(self, selector: str) -> None:
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
                "(p) => document.querySelector('.br-kinds h2')?.textContent === p",
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




class Phone:
    """A phone on the panel playing a four-player game of full tracking
    without a box: it counts its taps, the scrolls a control needed, and
    the taps a message covered."""

    def __init__(self, page: Any, table: Table) -> None:
        self.page = page
        self.table = table
        self.taps = 0
        self.scrolls = 0
        self.blocked = 0
        self.reveals = 0
        self.hidden_reveals = 0
        self.effects = 0
        self.turned_up = 0
        # The taps that needed a scroll or were covered, for --verbose.
        self.lost: list[str] = []

    def sight(self, selector: str) -> str:
        """Where the control is: "ok" (on screen, on top at its centre),
        "off" (off screen), "covered" (under a message) or "under"
        (under something else)."""
        return str(self.page.evaluate("""(selector) => {
            const el = document.querySelector(selector);
            if (!el) return 'missing';
            const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (r.top < 0 || r.bottom > innerHeight || x < 0 || x > innerWidth) return 'off';
            const top = document.elementFromPoint(x, y);
            if (top && el.contains(top)) return 'ok';
            return top && top.closest('#toast, .toast') ? 'covered' : 'under';
        }""", selector))

    def tap(self, selector: str) -> None:
        """A tap on ``selector``; first a scroll when it is off screen (a
        tap too), and a tap lost when a message covers it (tapped again
        once the message is gone)."""
        self.page.wait_for_selector(selector, state="attached")
        where = self.sight(selector)
        if where != "ok":
            self.lost.append(f"{where}: {selector}")
        if where in ("off", "under"):
            self.page.locator(selector).first.scroll_into_view_if_needed()
            self.scrolls += 1
            self.taps += 1
        elif where == "covered":
            # A tap a message takes: counted apart (taps blocked by a
            # message), not in the taps of the move.
            self.blocked += 1
            self.page.wait_for_function(ON_TOP, arg=selector)
        self.page.locator(selector).first.click()
        self.taps += 1

    def send(self, selector: str) -> None:
        """A tap the table answers: wait until it took it and the phone
        shows what comes next."""
        version = self.table.version
        self.tap(selector)
        stop = threading.Event()
        for _ in range(WAIT_MS // 10):
            if self.table.version > version:
                break
            stop.wait(0.01)
        else:
            waits = [(e.command, e.args) for e in self.expected()]
            raise RuntimeError(f"the table did not take {selector}; it waits for {waits}")
        self.shown()

    def shown(self) -> None:
        self.page.wait_for_function(
            "(v) => (document.querySelector('#dock')?.dataset.version || '').endsWith(':' + v)"
            " && !document.querySelector('#sheet[open]')", arg=str(self.table.version))

    def expected(self) -> list[Any]:
        return list(self.table.current().expected)

    def answer(self) -> bool:
        """Play what the table waits for that is not a turn's choice (a
        reveal, an effect, a die, a queue at setup); False at a choice."""
        waits = self.expected()
        if not waits or self.table.current().over:
            return False
        first = waits[0]
        if first.command == "reveal":
            colour, pipi, popo = PERSONAS[self.turned_up % len(PERSONAS)]
            self.turned_up += 1
            target = (f"#dock .persona-printed[data-colour={colour}][data-pipi='{pipi}']"
                      f"[data-popo='{popo}']")
            self.reveals += 1
            if self.sight(target) in ("off", "under"):
                self.hidden_reveals += 1
            self.send(target)
        elif first.command == "choose-queue":
            self.send("#dock button[data-command=choose-queue]")
        elif first.command == "effect":
            self.effects += 1
            if self.effects % TOKENS_EVERY == 0 and self.page.locator(".br-effect-pipi").count():
                self.tap(".br-effect-pipi [data-pipi='1']")
            self.send("#dock button[data-command=effect]")
        elif first.dice:
            self.send("#roll")
        else:
            return False
        return True

    def to_the_choice(self) -> None:
        while self.answer():
            pass

    def choose(self, what: str) -> int:
        """The turn's choice and what it asks at once (its place); returns
        its taps (the die and the reveals that follow apart)."""
        before = self.taps
        view = self.table.current().state
        if what in ("pass", "decompress"):
            self.send(f"#dock button[data-command={what}]")
            return self.taps - before
        if what not in view.get("playable", []):
            self.send("#dock button[data-command=pass]")
            return self.taps - before
        self.send(f"#dock .action-card[data-card={what}]")
        waits = self.expected()
        if waits and waits[0].command == "target":
            if what == "cleaner":
                free = self.table.current().state["free_queue"]
                place = f"#dock .br-places button[data-queue='{free}']"
                if not self.page.locator(place).count():
                    place = "#dock .br-places button"
            elif what == "cunning":
                place = "#dock .br-places button[data-place=in_front]"
            else:
                active = waits[0].player
                place = f"#dock .br-whom button:not([data-player='{active}'])"
            self.send(place)
        return self.taps - before


Rounds = list[tuple[int, int]]


def measure_full(browser: Any, lang: str,
                 shots: Path | None = None) -> tuple[dict[str, Any], Rounds]:
    """Full tracking, four players, no box, in ``lang``: the figures and
    each round's (inputs, taps)."""
    figures: dict[str, Any] = {}
    rounds: Rounds = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        table, _app, server, join_url = serve_table(folder)
        try:
            context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                          has_touch=True, locale=LOCALES[lang])
            context.set_default_timeout(WAIT_MS)
            page = context.new_page()
            page.goto(join_url)
            page.wait_for_selector("#conn[data-state=live]")
            phone = Phone(page, table)

            def shot(what: str) -> None:
                if shots is not None:
                    page.screenshot(path=str(shots / f"full-{lang}-{what}.png"))

            # The setup page: the game, the names (the keyboard's Next goes
            # to the next name), Start.
            url = join_url.split("/?")[0]
            page.goto(f"{url}/setup")
            page.wait_for_selector("[data-game=bathroom-rush]")
            phone.tap("[data-game=bathroom-rush]")
            phone.tap("input[data-seat='0']")
            for seat, player in enumerate(FOUR):
                page.keyboard.type(player)
                if seat + 1 < len(FOUR):
                    page.keyboard.press("Enter")
            phone.tap("#start")
            page.wait_for_url(f"{url}/")
            while not table.has_game:
                threading.Event().wait(0.01)
            phone.shown()
            figures["setup page: the game, 4 names typed, Start"] = phone.taps
            phone.to_the_choice()
            figures["setup page to the first action"] = phone.taps
            figures["  of them the table's inputs"] = table.version
            shot("first-choice")
            cunning: list[int] = []
            cleaner: list[int] = []
            for number, turns in enumerate(ROUNDS, 1):
                taps, version = phone.taps, table.version
                for what in turns:
                    if table.current().over:
                        break
                    spent = phone.choose(what)
                    if what == "cunning" and spent:
                        cunning.append(spent)
                        shot(f"round{number}-cunning")
                    if what == "cleaner" and spent:
                        cleaner.append(spent)
                    phone.to_the_choice()
                rounds.append((table.version - version, phone.taps - taps))
            figures["Cunning (the card, the place)"] = max(cunning) if cunning else "-"
            figures["the Cleaner (the card, the bathroom; its die apart)"] = (
                max(cleaner) if cleaner else "-")
            figures["reveal taps needing a scroll first"] = phone.hidden_reveals
            figures["  reveal taps seen"] = phone.reveals
            figures["taps blocked by a message"] = phone.blocked
            figures["scrolls"] = phone.scrolls
            if "--verbose" in sys.argv:
                print("\n".join(f"    {line}" for line in phone.lost))
            context.close()
        finally:
            server.close()
            table.close()
    return figures, rounds

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


def measure_light(browser: Any, shots: Path | None = None) -> dict[str, int]:
    """Light tracking, three players, English: a turn, a decompression,
    an Action card, the cleanup, a full round."""
    figures: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        table, _app, server, join_url = serve_table(folder)
        try:
            context = browser.new_context(viewport=PHONE, device_scale_factor=2,
                                          is_mobile=True, has_touch=True)
            context.set_default_timeout(WAIT_MS)
            page = context.new_page()
            page.goto(join_url)
            page.wait_for_selector("#conn[data-state=live]")
            panel = Panel(page, table)
            panel.set_up(join_url.split("/?")[0], True)
            figures["setup page to the first action"] = panel.taps

            def turn(what: str, play: Any) -> None:
                before = panel.taps
                play()
                figures[what] = panel.taps - before

            turn("a turn: pass", lambda: panel.command("end-turn"))
            if shots is not None:
                page.screenshot(path=str(shots / "light-turn-choice.png"))
            turn("a turn: decompress (red die by ROLL)", panel.roll)
            turn("a turn: an Action card", lambda: panel.command("end-turn"))

            def to_round_end() -> None:
                start = table.current().state["round"]
                cleanup_from = None
                while table.current().state["round"] == start:
                    update = table.current()
                    if update.state["phase"] == "E":
                        panel.command("end-turn")
                        continue
                    if cleanup_from is None:
                        cleanup_from = panel.taps
                    entry = next(e for e in update.expected if e.command == "bathroom-tokens")
                    panel.cleanup_entry(entry.player, 1)
                if cleanup_from is not None:
                    figures["the cleanup (3 players)"] = panel.taps - cleanup_from

            to_round_end()
            turn("a full round with its cleanup", to_round_end)
            context.close()
        finally:
            server.close()
            table.close()
    return figures


TARGETS_FULL = {
    "setup page to the first action": 22,
    "Cunning (the card, the place)": 2,
    "the Cleaner (the card, the bathroom; its die apart)": 2,
    "reveal taps needing a scroll first": 0,
    "taps blocked by a message": 0,
}
TARGETS_LIGHT = {
    "a turn: pass": 1, "a turn: decompress (red die by ROLL)": 1, "a turn: an Action card": 1,
    "the cleanup (3 players)": 6, "a full round with its cleanup": 9,
}
# What the panel may add to a round beyond the table's own inputs (median).
ROUND_EXTRA = 1


def report(figures: dict[str, Any], targets: dict[str, int]) -> bool:
    met = True
    for what, value in figures.items():
        aim = targets.get(what)
        missed = aim is not None and (not isinstance(value, int) or value > aim)
        met = met and not missed
        print(f"  {what:<56} {value:>4}" + (f"   target <= {aim}" if aim is not None else "")
              + ("   MISSED" if missed else ""))
    return met


def main() -> None:
    from playwright.sync_api import sync_playwright

    shots = None
    if "--shots" in sys.argv:
        shots = Path(sys.argv[sys.argv.index("--shots") + 1])
        shots.mkdir(parents=True, exist_ok=True)
    langs = list(LOCALES)
    if "--lang" in sys.argv:
        langs = [sys.argv[sys.argv.index("--lang") + 1]]
    met = True
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--headless", "--no-sandbox"])
        try:
            for lang in langs:
                print(f"Bathroom Rush, 4 players, full tracking, no box, {lang} (taps; target)")
                figures, rounds = measure_full(browser, lang, shots)
                met = report(figures, TARGETS_FULL) and met
                print(f"  {'round':<8}{'inputs':>8}{'taps':>8}{'added':>8}")
                for number, (inputs, taps) in enumerate(rounds, 1):
                    print(f"  {number:<8}{inputs:>8}{taps:>8}{taps - inputs:>8}")
                extra = statistics.median(taps - inputs for inputs, taps in rounds)
                missed = extra > ROUND_EXTRA
                met = met and not missed
                print(f"  {'taps a round adds to its inputs (median)':<56} {extra:>4}"
                      f"   target <= {ROUND_EXTRA}" + ("   MISSED" if missed else ""))
            if "--lang" not in sys.argv:
                print("Bathroom Rush, 3 players, light tracking, en (taps; target)")
                met = report(measure_light(browser, shots), TARGETS_LIGHT) and met
        finally:
            browser.close()
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
