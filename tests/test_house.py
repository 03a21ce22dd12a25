"""The house rules of the companion's code, measured with radon: no class
over 300 lines and no function over cyclomatic complexity 15 in
``companion/``, but for the exceptions listed here, each with its reason.

An exception that no longer exceeds the limit is an error too: take it off
the list, so that the list says what is true.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"

MAX_CLASS_LINES = 300
MAX_COMPLEXITY = 15

# A game's rules in one class, as python-chess keeps chess in its Board: the
# phases, what the game waits for and every command's rule read side by side
# with the rulebook.  Their parts that stand alone are already modules of the
# game's folder (cards, queues, actions, sentences...).
GAME_RULES = ("a game's rules in one class, as python-chess's Board: its phases, "
              "what it waits for and each command's rule, read beside the rulebook")

LARGE_CLASSES: dict[str, str] = {
    "core/games/bathroom_rush/game.py::BathroomRush": GAME_RULES,
    "core/games/call_of_nature/game.py::CallOfNature": GAME_RULES,
    "core/games/ohshit/game.py::OhShit": GAME_RULES,
    "parts/network.py::NetworkPart": (
        "the Wi-Fi's one worker and the state the panel and the menu read: the "
        "hotspot, the known networks, joining and forgetting, each a job run in "
        "turn on its thread (its jobs, tuples named by a string, are the next to "
        "become types, as the screen's notes did)"),
}

COMPLEX_FUNCTIONS: dict[str, str] = {
    "core/games/views.py::plain": (
        "a game's view made JSON after every command: each kind of value tested "
        "inline, since a call per value costs a Pi Zero measurably "
        "(benchmarks/bench_latency.py)"),
    "core/games/bathroom_rush/actions.py::ActionCards._targets": (
        "who an action card may target: one branch per card of the rulebook"),
    "core/games/bathroom_rush/sentences.py::render": (
        "a Bathroom Rush event said as a sentence: one branch per kind of event"),
    "core/games/bathroom_rush/game.py::BathroomRush.state_view": (
        "the game's public state for the screens and the phones, field by field"),
    "core/games/bathroom_rush/game.py::BathroomRush.expected": (
        "what the game waits for, one branch per phase and step of the turn"),
    "core/games/bathroom_rush/game.py::BathroomRush._light_waits": (
        "what light tracking waits for, one branch per phase of the turn"),
}


def _blocks(block: Function | Class, parent: str = "") -> Iterator[tuple[str, Function | Class]]:
    name = f"{parent}.{block.name}" if parent else block.name
    yield name, block
    if isinstance(block, Class):
        for method in block.methods:
            yield from _blocks(method, name)
        for inner in block.inner_classes:
            yield from _blocks(inner, name)
    else:
        for closure in block.closures:
            yield from _blocks(closure, name)


def measured() -> dict[str, Function | Class]:
    """Every class, function, method and closure of ``companion/``, by
    ``path::qualified.name`` (the path under ``companion/``)."""
    found: dict[str, Function | Class] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        for top in cc_visit(path.read_text(encoding="utf-8")):
            if isinstance(top, Function) and top.is_method:
                continue  # reached from its class
            for name, block in _blocks(top):
                found[f"{where}::{name}"] = block
    return found


def _lines(block: Function | Class) -> int:
    return block.endline - block.lineno + 1


def test_the_measure_sees_the_code() -> None:
    blocks = measured()
    assert len(blocks) > 1000
    assert "core/menu/machine.py::TableMenu.on_key" in blocks
    assert "core/engine.py::Game.check_expected" in blocks


def test_no_class_is_over_300_lines() -> None:
    over = {name: _lines(block) for name, block in measured().items()
            if isinstance(block, Class) and _lines(block) > MAX_CLASS_LINES
            and name not in LARGE_CLASSES}
    assert not over, (
        f"classes over {MAX_CLASS_LINES} lines (split them by job, or list them in "
        f"LARGE_CLASSES with the reason): {over}")


def test_no_function_is_over_complexity_15() -> None:
    over = {name: block.complexity for name, block in measured().items()
            if isinstance(block, Function) and block.complexity > MAX_COMPLEXITY
            and name not in COMPLEX_FUNCTIONS}
    assert not over, (
        f"functions over complexity {MAX_COMPLEXITY} (split them, or list them in "
        f"COMPLEX_FUNCTIONS with the reason): {over}")


def test_every_exception_is_still_needed() -> None:
    blocks = measured()
    stale = [name for name in LARGE_CLASSES
             if name not in blocks or _lines(blocks[name]) <= MAX_CLASS_LINES]
    stale += [name for name, block in ((n, blocks.get(n)) for n in COMPLEX_FUNCTIONS)
              if not isinstance(block, Function) or block.complexity <= MAX_COMPLEXITY]
    assert not stale, f"within the limits now (take them off the lists): {stale}"


def test_the_table_menu_is_a_small_core() -> None:
    blocks = measured()
    for name in ("core/menu/machine.py::TableMenu.on_key",
                 "core/menu/home.py::GameScreen.on_key",
                 "core/menu/home.py::GameScreen.keys"):
        block = blocks[name]
        assert isinstance(block, Function) and block.complexity <= MAX_COMPLEXITY, name
    assert _lines(blocks["core/menu/machine.py::TableMenu"]) <= MAX_CLASS_LINES


# -- one name, one place -------------------------------------------------------

LANGUAGE_LITERAL = re.compile(r"""["']en["'],\s*["']fr["'],\s*["']it["']""")


def test_the_languages_are_listed_once() -> None:
    """``companion.core.text.LANGUAGES`` is the list: the config and the
    panel take it, no other Python module or page spells it again, and the
    panel's scripts and string files say the same languages."""
    from companion.core.text import LANGUAGES
    from companion.host import config
    from web import panel

    assert config.LANGUAGES is LANGUAGES and panel.LANGUAGES is LANGUAGES
    spelled = [path.relative_to(ROOT).as_posix()
               for folder in ("companion", "web", "drivers")
               for path in sorted((ROOT / folder).rglob("*"))
               if path.suffix in (".py", ".html") and path != ROOT / "companion/core/text.py"
               and LANGUAGE_LITERAL.search(path.read_text(encoding="utf-8"))]
    assert not spelled, f"the language list spelled again in {spelled}"
    script = (ROOT / "web/static/js/core.js").read_text(encoding="utf-8")
    listed = re.search(r"export const LANGUAGES = \[([^\]]*)\]", script)
    assert listed is not None
    assert tuple(re.findall(r'"(\w+)"', listed[1])) == LANGUAGES
    files = sorted(p.stem for p in (ROOT / "web/static/i18n").glob("*.json"))
    assert files == sorted(LANGUAGES)


def test_the_stale_version_check_is_made_in_one_place() -> None:
    """Only ``check_made_against`` (in the table's module) raises
    :class:`StaleVersion`: the table, the panel and the dice service call it."""
    raising = [path.relative_to(ROOT).as_posix()
               for folder in ("companion", "web", "drivers")
               for path in sorted((ROOT / folder).rglob("*.py"))
               if "raise StaleVersion(" in path.read_text(encoding="utf-8")]
    assert raising == ["companion/core/table.py"]
    source = (ROOT / "companion/core/table.py").read_text(encoding="utf-8")
    body = source[source.index("def check_made_against("):]
    body = body[:body.index("\ndef ", 1)]
    assert source.count("raise StaleVersion(") == body.count("raise StaleVersion(") == 2


# -- one place per kind of thing -----------------------------------------------

# The folders of ``companion/`` and what each holds; only the package's own
# files and the composition root stay at the top.
FOLDERS = {"core", "parts", "commands", "language", "host", "venue"}
AT_THE_TOP = {"__init__.py", "__main__.py", "daemon.py"}


def test_companion_keeps_each_kind_of_module_in_its_folder() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in AT_THE_TOP)
    assert not loose, f"modules loose in companion/ (put them in a folder): {loose}"
    folders = {p.name for p in PACKAGE.iterdir()
               if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == FOLDERS, f"companion/'s folders changed: {sorted(folders ^ FOLDERS)}"


def test_every_part_of_the_daemon_lives_in_parts() -> None:
    """Each class that is a part of the daemon's life cycle (a ``Component``)
    is defined in ``companion/parts/``, and every entry of the daemon's plan
    points there."""
    from companion.daemon import PLAN

    defined = [path.relative_to(ROOT).as_posix()
               for folder in ("companion", "web", "drivers")
               for path in sorted((ROOT / folder).rglob("*.py"))
               if re.search(r"^class \w+\((?:\w+, )*(?:Component|Retrying)\b",
                            path.read_text(encoding="utf-8"), re.M)]
    assert defined and all(p.startswith("companion/parts/") for p in defined), defined
    assert all(entry.startswith("companion.parts.") for entry in PLAN), PLAN
