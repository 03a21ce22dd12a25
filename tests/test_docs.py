"""The docs hold together: the README is short, every link of README.md and
docs/*.md leads to a file of the repository, every picture is one the
project's own code makes (scripts/docs-pictures) and is what it makes now,
and no file of the repository points outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from scripts import docs_pictures

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PICTURES = DOCS / "pictures"
README = ROOT / "README.md"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
# [text](target) and ![alt](target), the target up to a space or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# <img src="..."> and <a href="..."> in a page's HTML.
HTML_LINK = re.compile(r"<(?:img|a)\s[^>]*?(?:src|href)=\"([^\"]+)\"")
# Files outside the repository that nothing in it may name (spelled in two
# halves so that this file does not name them either).
OUTSIDE = ("../" + "shared", "RULES" + "-NOTES", "HARD" + "WARE.md", "STY" + "LE.md")


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # not in code blocks
    return LINK.findall(text) + HTML_LINK.findall(text)


def local(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them: lower case,
    punctuation dropped, spaces as dashes."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
            for title in re.findall(r"(?m)^#+ (.*)$", text)}


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """The page's links that lead nowhere: a missing file, a file outside
    the repository, or a heading the page linked to does not have."""
    out = []
    for target in links(page):
        if not local(target) and not target.startswith("#"):
            continue
        name, _, anchor = target.partition("#")
        path = (page.parent / name).resolve() if name else page.resolve()
        missing = not path.exists() or root.resolve() not in path.parents
        if missing or (anchor and path.suffix == ".md" and anchor not in anchors(path)):
            out.append(target)
    return out


def test_the_readme_is_short_and_says_where_the_rest_is():
    lines = README.read_text().splitlines()
    assert len(lines) < 150, f"README.md has {len(lines)} lines"
    targets = links(README)
    for page in ("docs/players.md", "docs/build.md", "docs/install.md", "docs/rules.md",
                 "docs/api.md", "docs/architecture.md", "docs/figures.md"):
        assert page in targets, f"README.md does not link to {page}"


def test_every_doc_page_is_linked_from_the_readme_or_the_docs_index():
    linked = {(README.parent / t.split("#")[0]).resolve() for t in links(README) if local(t)}
    index = DOCS / "README.md"
    linked |= {(DOCS / t.split("#")[0]).resolve() for t in links(index) if local(t)}
    for page in DOCS.glob("*.md"):
        assert page == index or page.resolve() in linked, f"nothing links to {page.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_of_the_repository(page):
    assert broken(page) == []


def named_paths(page: Path) -> list[str]:
    """The repository's files a page names in code (`companion/commands/wiring.py`),
    placeholders (`<folder>`), absolute paths, the Pi's own and what the tests
    write (`test-artifacts/`) apart."""
    out = []
    for name in re.findall(r"`([^`\s<>]+)`", page.read_text()):
        if "/" in name and not name.startswith(("/", "~", ".venv", "http", "test-artifacts/")) \
                and re.search(r"\.[a-z]+$", name):
            out.append(name)
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_page_names_is_in_the_repository(page):
    assert [name for name in named_paths(page) if not (ROOT / name).exists()] == []


def test_the_named_file_check_sees_a_file_that_is_gone(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("The screens: `drivers/screens/common.py`, `drivers/gone.py`, "
                    "`drivers/screens/<folder>.py`, `/etc/companion/config.toml`.\n")
    assert named_paths(page) == ["drivers/screens/common.py", "drivers/gone.py"]


def test_every_figure_names_a_script_that_is_there_and_every_script_has_figures():
    figures = (DOCS / "figures.md").read_text()
    named = set(re.findall(r"benchmarks/(\w+\.py)", figures))
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    assert named - scripts == set(), "figures.md names a script that is not there"
    assert scripts - named == set(), "a benchmark's figures are missing from figures.md"
    for row in re.findall(r"(?m)^\|.*\|$", figures):
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("what", "---"):
            assert cells[3] == "same" or "benchmarks/" in cells[3], row


def test_the_link_check_finds_a_missing_file_and_a_missing_picture(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("See [the guide](guide.md) and ![the screen](pictures/none.png),\n"
                    "[a site](https://example.org) and [a part](#the-parts),\n"
                    '<img src="pictures/gone.png" width="10"> and [away](../../etc/passwd),\n'
                    "[a step](guide.md#2-wire-it) and [no step](guide.md#3-fly-it).\n"
                    "```\n[not a link](nowhere.md)\n```\n## The parts\n")
    (tmp_path / "guide.md").write_text("# Guide\n\n### 2. Wire it!\n")
    assert broken(page, tmp_path) == ["pictures/none.png", "../../etc/passwd",
                                      "guide.md#3-fly-it", "pictures/gone.png"]


def test_every_picture_of_the_docs_is_one_the_project_makes():
    made = {f"{name}.png" for name in docs_pictures.SCREENS}
    made |= {f"wiring-{name}.{kind}" for name in docs_pictures.wiring_configs()
             for kind in ("svg", "png")}
    made |= {"panel-table.png", "panel-setup-wiring.png"}
    assert {p.name for p in PICTURES.iterdir()} == made
    for page in PAGES:
        for target in links(page):
            if local(target) and re.search(r"\.(png|svg|jpe?g|gif)$", target):
                path = (page.parent / target).resolve()
                assert path.parent == PICTURES.resolve(), f"{page.name}: {target}"


def test_every_picture_is_shown_or_linked_by_a_page():
    used = {(page.parent / t).resolve() for page in PAGES for t in links(page) if local(t)}
    assert sorted(p.name for p in PICTURES.iterdir() if p.resolve() not in used) == []


def test_the_screens_pictured_are_the_reference_screens_the_screen_tests_check(tmp_path):
    for made in docs_pictures.screens(tmp_path):
        kept = PICTURES / made.name
        assert kept.read_bytes() == made.read_bytes(), \
            f"docs/pictures/{made.name} is stale: run scripts/docs-pictures"


def _tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    names = [n for n in listed.stdout.decode().split("\0") if n]
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def test_no_file_of_the_repository_points_outside_it():
    found = []
    for path in _tracked_files():
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(ROOT)}: {name}" for name in OUTSIDE if name in text]
    assert found == []


@pytest.mark.browser
def test_the_panel_pictured_is_the_panel_as_it_is_now(tmp_path):
    from PIL import Image, ImageChops

    if not Path(docs_pictures.CHROMIUM).exists():
        pytest.skip(f"{docs_pictures.CHROMIUM} is missing")
    for made in docs_pictures.panel(tmp_path):
        with Image.open(PICTURES / made.name) as kept, Image.open(made) as now:
            assert kept.size == now.size == (390, 844), made.name
            diff = ImageChops.difference(kept.convert("L"), now.convert("L"))
            changed = sum(diff.histogram()[33:])
            # A font's hinting may move an edge; a changed page moves far more.
            assert changed < 0.01 * 390 * 844, \
                f"docs/pictures/{made.name} is stale ({changed} pixels): run scripts/docs-pictures"


def test_every_companion_command_a_doc_shows_is_one_the_command_line_takes():
    from companion.commands.cli import build_parser
    from tests.test_readme import commands, sh_lines

    shown = [words for page in PAGES for line in sh_lines(page.read_text())
             for words in commands(line) if Path(words[0]).name == "companion"]
    assert any(words[1] == "wiring" for words in shown)
    for words in shown:
        words = words[:words.index(">")] if ">" in words else words  # a redirection
        if words[1] == "venue":  # the venue board: a program with its own options
            from companion.venue.cli import acl_parser, parser

            if words[2:3] == ["acl"]:
                acl_parser().parse_args(words[3:])
            else:
                parser().parse_args(words[2:])
            continue
        build_parser().parse_args(words[1:])  # exits on a bad command line


def test_the_parts_pictured_are_the_plan_and_the_bus_as_they_are():
    """docs/architecture.md's picture of the parts is drawn from the
    daemon's PLAN and the parts' declarations (redraw it with
    ``companion.daemon.picture()`` when they change)."""
    from companion.daemon import picture

    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    start = "<!-- parts: drawn by companion.daemon.picture() -->\n"
    shown = page[page.index(start) + len(start):page.index("<!-- /parts -->")]
    assert shown == picture()
    assert "buttons -- KeyPressed --> screen" in shown


def test_the_builders_guide_counts_the_dice_sources_it_lists():
    from companion.core.keys import DICE_SOURCES

    page = (DOCS / "build.md").read_text(encoding="utf-8")
    section = page[page.index("### The dice"):]
    section = section[:section.index("\n### ", 1) if "\n### " in section[1:] else None]
    listed = re.findall(r"^- `(\w+)`:", section, flags=re.M)
    assert sorted(listed) == sorted(DICE_SOURCES)
    words = {2: "Two", 3: "Three", 4: "Four", 5: "Five"}
    assert f"{words[len(DICE_SOURCES)]} sources" in section


def test_the_doctors_sample_in_the_builders_guide_is_what_the_doctor_prints(tmp_path):
    """Step 5's sample: each line is the line the doctor's check prints in
    that case, run here against a Pi without I2C, a free port 8080 and a
    phone address of 192.168.1.23."""
    import socket

    from companion.commands import doctor

    page = (DOCS / "build.md").read_text(encoding="utf-8")
    step = page[page.index("### 5. Ask the doctor"):page.index("### 6. Play")]
    sample = re.findall(r"```\n(.*?)```", step, flags=re.S)[-1].splitlines()
    with socket.socket() as probe:  # the sample's port 8080, or a free one like it
        try:
            probe.bind(("0.0.0.0", 8080))
            port = 8080
        except OSError:
            probe.bind(("0.0.0.0", 0))
            port = probe.getsockname()[1]
    printed = [
        *(f.line().replace(str(tmp_path), "/dev")
          for f in doctor.check_i2c(1, doctor.Paths(dev=tmp_path, boot_configs=()))),
        doctor.check_port("0.0.0.0", port).line().replace(str(port), "8080"),
        doctor.check_phone_address("0.0.0.0", 8080, finder=lambda host: "192.168.1.23").line(),
    ]
    assert sample and all(line in printed for line in sample), (sample, printed)

