"""Makes every picture of the docs (docs/pictures/) from the companion's own
code, so that none goes stale:

- the table's screens: the reference screens the screen tests draw and
  check (tests/reference/4x/), copied;
- the wiring: ``companion wiring`` for the example config and two others
  (a rotary encoder; an SH1106 and no LEDs), as SVG and PNG;
- the phone panel: the real panel in headless Chromium at 390x844, on a
  game in progress (needs Debian's chromium; skipped without it).

    scripts/docs-pictures            # all of them
    scripts/docs-pictures --no-panel # without the browser

tests/test_docs.py makes them again and compares them with the committed ones.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PICTURES = ROOT / "docs" / "pictures"
REFERENCE = ROOT / "tests" / "reference" / "4x"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}

# docs/pictures/<name>.png <- tests/reference/4x/<source>.png
SCREENS = {
    "screen-call-of-nature": "en/con-pressure-15-anas-turn",
    "screen-call-of-nature-threshold": "en/alert-threshold",
    "screen-respite": "en/dice-respite-d6",
    "screen-ohshit": "en/ohshit-four-players",
    "screen-bathroom-rush-player": "en/bathroom-rush-player-ana-to-act",
    "screen-bathroom-rush-queues": "en/bathroom-rush-three-players",
    "screen-bathroom-rush-reveal": "en/bathroom-rush-reveal-box-of-12",
    "screen-home": "en/home",
    "screen-wifi": "en/wifi-hotspot",
    "screen-menu": "en/menu-main",
    "screen-call-of-nature-fr": "fr/con-pressure-15-anas-turn",
}

# docs/pictures/wiring-<name>.svg and .png: the config each is drawn from.
ENCODER = """\
[encoder]
enabled = true
"""
SH1106_NO_LEDS = """\
[display]
controller = "sh1106"

[leds]
enabled = false
"""


def wiring_configs() -> dict[str, str]:
    return {
        "example": (ROOT / "config.example.toml").read_text(),
        "encoder": ENCODER,
        "sh1106-no-leds": SH1106_NO_LEDS,
        "speaker": (ROOT / "config.speaker.example.toml").read_text(),
    }


def screens(out: Path) -> list[Path]:
    made = []
    for name, source in SCREENS.items():
        target = out / f"{name}.png"
        shutil.copyfile(REFERENCE / f"{source}.png", target)
        made.append(target)
    return made


def wiring(out: Path) -> list[Path]:
    from companion.commands import wiring
    from companion.host import config

    made = []
    for name, text in wiring_configs().items():
        parsed = config.parse(text, source=f"wiring-{name}")
        svg, png = out / f"wiring-{name}.svg", out / f"wiring-{name}.png"
        svg.write_text(wiring.svg(parsed))
        png.write_bytes(wiring.png(parsed))
        made += [svg, png]
    return made


# The game on the panel's picture: Call of Nature, a few cards in.
PANEL_GAME = (("Ana", "Ben", "Cy"), (12, 9, -4, 11))


def panel(out: Path) -> list[Path]:
    """The table page and the setup page as a phone shows them, joined as a
    controller, in English, light theme."""
    from playwright.sync_api import sync_playwright

    from companion.commands import wiring as wiring_module
    from companion.core.engine import Command
    from companion.core.journal import Journal
    from companion.core.table import Table
    from companion.host import config
    from companion.host.storage import keep_file
    from web import PanelSettings, Services, create_app
    from web.server import serve

    made = []
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Journal.open(Path(folder) / "companion.db"))
        example = config.parse(wiring_configs()["example"])
        services = Services(wiring_svg=lambda lang: wiring_module.svg(example, lang))
        app = create_app(table, PanelSettings(secret_key="docs", language="en",
                                              colours_file=Path(folder) / "colours.json",
                                              keep_file=keep_file),
                         services=services)
        server = serve(app, "127.0.0.1", 0, threads=8)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            names, cards = PANEL_GAME
            table.new_game("call-of-nature", list(names))
            for value in cards:
                table.submit(Command("card", {"value": value}))
            url = f"http://127.0.0.1:{server.port}"
            join = app.extensions["companion"].access.join_url(url)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--headless", "--no-sandbox",
                                                    "--disable-gpu", "--no-first-run"])
                context = browser.new_context(viewport=PHONE, device_scale_factor=1,
                                              is_mobile=True, has_touch=True,
                                              color_scheme="light", locale="en-GB")
                page = context.new_page()
                page.goto(join)
                page.wait_for_selector("#conn[data-state=live]")
                page.goto(url)  # without the joining's welcome over the dock
                page.wait_for_selector("#conn[data-state=live]")
                made.append(_shot(page, out / "panel-table.png"))
                page.goto(f"{url}/setup")
                # The drawing itself, loaded (an image that failed has no width).
                page.wait_for_function(
                    "() => document.querySelector('#wiring')?.naturalWidth > 0")
                page.locator("#wiring-box").scroll_into_view_if_needed()
                made.append(_shot(page, out / "panel-setup-wiring.png"))
                browser.close()
        finally:
            server.close()
            thread.join(10)
            table.close()
    return made


def _shot(page, target: Path) -> Path:
    page.evaluate("""() => document.fonts.ready.then(() => new Promise(
        (done) => requestAnimationFrame(() => requestAnimationFrame(done))))""")
    page.screenshot(path=str(target), animations="disabled", caret="hide")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-panel", action="store_true", help="skip the browser's pictures")
    parser.add_argument("--output", type=Path, default=PICTURES, help="default docs/pictures")
    args = parser.parse_args(argv)
    args.output.mkdir(parents=True, exist_ok=True)
    made = screens(args.output) + wiring(args.output)
    if not args.no_panel:
        if Path(CHROMIUM).exists():
            made += panel(args.output)
        else:
            print(f"{CHROMIUM} is missing: the panel's pictures are left as they are")
    for path in made:
        print(path.relative_to(args.output.parent.parent) if args.output == PICTURES else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
