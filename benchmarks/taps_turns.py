"""Taps per typical turn in the phone panel, counted on the real pages, for
Call of Nature and OhShit!.

Headless Chromium (/usr/bin/chromium, through Playwright) at a phone's size
(390x844) joins the real panel served by waitress on loopback, on a real
table and journal, and plays by tapping what a player would tap; every tap
is counted, and each turn waits until the table took it.  The preview of
what a card or poop will do is shown while the value is picked, and costs no
tap.  Dice come from the panel's ROLL button.  Each turn is printed beside
its target, and the script exits with 1 when one misses it.

    .venv/bin/python benchmarks/taps_turns.py
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.core.engine import Command  # noqa: E402
from companion.core.journal import Journal  # noqa: E402
from companion.core.table import Table  # noqa: E402
from companion.host.storage import keep_file  # noqa: E402
from tests.fakes import FixedDice  # noqa: E402
from web import PanelSettings, Services, create_app  # noqa: E402
from web.server import serve  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
WAIT_MS = 15_000


class Phone:
    """A phone on the panel that counts its taps."""

    def __init__(self, page: Any, table: Table) -> None:
        self.page = page
        self.table = table
        self.taps = 0

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1

    def turn(self, taps: list[str], *, preview: str | None = None) -> int:
        """Tap ``taps`` in order (waiting for ``preview`` to show before the
        last one); return how many, once the table took the turn."""
        before, version = self.taps, self.table.version
        for n, selector in enumerate(taps):
            if preview and n == len(taps) - 1:
                self.page.wait_for_selector(f"{preview}:not([hidden])")
            self.tap(selector)
        done = threading.Event()
        while self.table.version <= version:
            done.wait(0.01)
        # The phone shows the new state: no sheet open, no number picked.
        self.page.wait_for_function(
            "() => document.querySelector('#sheet[open]') === null && "
            "!document.querySelector('.card-pad.picked')")
        return self.taps - before


def serve_table(folder: Path) -> tuple[Table, Any, str]:
    table = Table(Journal.open(folder / "companion.db"))
    dice = FixedDice(table, [3])
    services = Services(screen_png=lambda: b"", press_key=lambda key: None, dice=dice)
    app = create_app(table, PanelSettings(secret_key="taps-benchmark",
                                          colours_file=folder / "colours.json",
                                          keep_file=keep_file),
                     services=services)
    server = serve(app, "127.0.0.1", 0, threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{server.port}"
    return table, server, app.extensions["companion"].access.join_url(url)


def open_phone(browser: Any, join_url: str, table: Table) -> Phone:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(join_url)
    page.wait_for_selector("#conn[data-state=live]")
    return Phone(page, table)


def card(value: int) -> list[str]:
    """A Pressure card: its number, then its value (+ or -)."""
    return [f".number-grid [data-value='{abs(value)}']", f".card-play[data-value='{value}']"]


def card_preview(value: int) -> str:
    """What the card will do, once the table said it."""
    return f".card-play[data-value='{value}'] .preview[data-version]"

# (what, taps, target): the target is the most taps the turn may take.
Figure = tuple[str, int, int | None]


def measure(browser: Any) -> list[Figure]:
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as name:
        table, server, join_url = serve_table(Path(name))
        try:
            table.new_game("call-of-nature", ["Ana", "Ben", "Cy"])
            phone = open_phone(browser, join_url, table)
            figures.append(("Call of Nature: a card of one digit (+9): 9, +9", phone.turn(
                card(9), preview=card_preview(9)), 2))
            figures.append(("Call of Nature: a card of two digits (+12): 12, +12", phone.turn(
                card(12), preview=card_preview(12)), 2))
            figures.append(("Call of Nature: a minus card (−10): 10, −10", phone.turn(
                card(-10), preview=card_preview(-10)), 2))
            figures.append(("Call of Nature: a special card (U-TURN!): Special, the card",
                            phone.turn(["[data-command=special]",
                                        "#sheet .choice-play[data-value=u-turn]"],
                                       preview="#sheet .choice-play[data-value=u-turn]"
                                               " .preview[data-version]"), 2))
            table.submit(Command("set-pressure", {"value": 44}))
            phone.page.wait_for_selector(".number-grid")
            phone.turn(card(6), preview=card_preview(6))  # 50: a Respite, its d6 waits
            phone.page.wait_for_selector("#roll")
            figures.append(("Call of Nature: a roll (ROLL button)", phone.turn(["#roll"]), 1))
            phone.page.context.close()

            table.new_game("ohshit", ["Ana", "Ben", "Cy"])
            phone = open_phone(browser, join_url, table)
            figures.append(("OhShit!: a poop: the pile, the colour, OK", phone.turn(
                [".player[data-seat='1'] [data-poop-on='1']",
                 ".field[data-param=colour] .option[data-value=grassy]",
                 "#sheet button[type=submit]"], preview="#sheet .preview"), 3))
            phone.page.context.close()
        finally:
            server.close()
            table.close()
    return figures


def main() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--headless", "--no-sandbox"])
        try:
            figures = measure(browser)
        finally:
            browser.close()
    print("Taps per typical turn on a 390x844 phone (the preview shown before "
          "each confirmation)")
    print(f"  {'turn':<64} {'taps':>4}  target")
    missed = []
    for what, taps, target in figures:
        said = "-" if target is None else f"≤ {target}"
        if target is not None and taps > target:
            said += "  MISSED"
            missed.append(what)
        print(f"  {what:<64} {taps:>4}  {said}")
    if missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
