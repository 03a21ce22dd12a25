"""The walls between the layers, read from the source: the core imports only
the standard library and itself; the adapters (``drivers/``, ``web/``)
import only the core of the companion; nothing imports in a circle."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "drivers", "web")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports, anywhere in its body (a function's
    late import counts: it is a dependency all the same)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            modules = {f"{source}.{alias.name}" for alias in node.names
                       if f"{source}.{alias.name}" in MODULES}
            # ``from package import module`` depends on the module; a name
            # that is not a module comes from the package itself.
            out.update(modules)
            if len(modules) < len(node.names):
                out.add(source)
    return out


def _project_edges(name: str) -> set[str]:
    """The project's modules that ``name`` imports (a package counts as its
    ``__init__``)."""
    edges = set()
    for target in _imports(name, MODULES[name]):
        if target in MODULES and target != name:
            edges.add(target)
    return edges


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}
GRAPH = {name: _project_edges(name) for name in MODULES}


def _top(module: str) -> str:
    return module.split(".")[0]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("companion.core")))
def test_the_core_imports_only_the_standard_library_and_itself(name):
    foreign = sorted(
        target for target in IMPORTS[name]
        if target and not target.startswith("companion.core")
        and _top(target) not in sys.stdlib_module_names and target != "__future__")
    assert foreign == [], f"{name} imports {foreign}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _top(n) in ("drivers", "web")))
def test_adapters_import_only_the_core_of_the_companion(name):
    outside = sorted(t for t in IMPORTS[name]
                     if _top(t) == "companion" and not t.startswith("companion.core"))
    assert outside == [], f"{name} imports {outside}"
    other = "web" if _top(name) == "drivers" else "drivers"
    assert not [t for t in IMPORTS[name] if _top(t) == other], f"{name} imports {other}"


def _cycles() -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(GRAPH[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return out


def test_no_module_imports_in_a_circle():
    assert _cycles() == []


def test_the_checker_sees_a_circle_and_a_foreign_import(monkeypatch):
    # The rules above must be able to fail: a made-up circle is found.
    monkeypatch.setitem(GRAPH, "companion.core.engine",
                        GRAPH["companion.core.engine"] | {"companion.core.table"})
    assert ["companion.core.engine", "companion.core.table"] in [
        [m for m in c if m in ("companion.core.engine", "companion.core.table")] for c in _cycles()]
    assert "companion.core.engine" in GRAPH["companion.core.table"]


# -- the games and the menu ------------------------------------------------------------
# A game knows nothing of the menu (its hints are written with the neutral
# types of companion.core.hints), and the menu reaches a game only through
# the games' package (companion.core.games), never a game's own folder.

GAME_FOLDERS = "companion.core.games."


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith(GAME_FOLDERS)))
def test_no_game_imports_the_menu(name):
    menu = sorted(t for t in IMPORTS[name] if t.startswith("companion.core.menu"))
    assert menu == [], f"{name} imports {menu}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("companion.core.menu")))
def test_the_menu_reaches_no_game_folder(name):
    folders = sorted(t for t in IMPORTS[name] if t.startswith(GAME_FOLDERS))
    assert folders == [], f"{name} imports {folders}"
    source = MODULES[name].read_text(encoding="utf-8")
    assert GAME_FOLDERS not in source, f"{name} names a game's module by its path"


# -- public names ----------------------------------------------------------------------
# What a module imports from another module of the project has a public
# name: an underscore says "this module's own", and a reader trusts it.


def _private_imports(name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.level or _top(node.module or "")
                                                 in PACKAGES):
            found += [f"{node.module}.{alias.name}" for alias in node.names
                      if alias.name.startswith("_") and not alias.name.startswith("__")]
    return found


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_another_ones_private_name(name):
    assert _private_imports(name) == [], name


# -- typed seams ----------------------------------------------------------------------
# What crosses between the layers is typed: the table (a TablePort, or the
# Table itself in the appliance), its updates, the dice.  A parameter of
# these names left without a type, or typed Any, is a seam nobody can check.

SEAMS = ("table", "update", "dice")


def _untyped_seams(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for arg in args.posonlyargs + args.args + args.kwonlyargs:
                if arg.arg not in SEAMS:
                    continue
                shown = ast.unparse(arg.annotation) if arg.annotation else None
                if shown is None or shown in ("Any", "object", "Any | None"):
                    found.append(f"{node.name}({arg.arg}: {shown})")
    return found


@pytest.mark.parametrize("name", sorted(MODULES))
def test_the_seams_are_typed(name):
    assert _untyped_seams(MODULES[name].read_text()) == [], name


def test_the_seam_check_sees_an_untyped_table():
    assert _untyped_seams("def draw(table, update: Any) -> None: ...") == [
        "draw(table: None)", "draw(update: Any)"]
