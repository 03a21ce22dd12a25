"""The README's commands work: every line of its ``sh`` blocks is run (the
``companion`` ones, in order, as a user types them, without ``--db``, on a
laptop where nothing is installed yet) or, when it needs
root or a Pi, checked as far as a test can (the script is there and parses,
the command line parses).  A command the README gains must be one of these."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from companion.commands.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# Commands that cannot run here, and why; their command line is parsed instead.
NOT_RUN = {
    "serve": "runs the companion until it is stopped",
    "doctor": "checks the Pi's /etc, I2C and GPIO",
}
# Scripts the README shows: checked to be there, executable, and valid bash
# (running them installs packages or the whole suite).
SCRIPTS = {"./scripts/run", "./scripts/test", "./scripts/install-pi.sh"}
# Other programs a README line may use around those.
OTHER_PROGRAMS = {"git", "cd"}


def sh_lines(text: str) -> list[str]:
    """Each command line of the ``sh`` blocks, without its comment."""
    lines = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


def commands(line: str) -> list[list[str]]:
    """The simple commands of a line (``a && b``), each without ``sudo``."""
    out = []
    for part in line.split("&&"):
        # A placeholder such as <this repository> is one word.
        words = shlex.split(re.sub(r"<[^>]*>", "PLACEHOLDER", part))
        if words[:1] == ["sudo"]:
            words = words[1:]
            if words[:1] == ["-u"]:
                words = words[2:]
        out.append(words)
    return out


LINES = sh_lines(README.read_text())
COMPANION = [words for line in LINES for words in commands(line)
             if Path(words[0]).name == "companion" and words[1] not in NOT_RUN]


def test_the_readme_shows_commands():
    assert len(COMPANION) >= 10
    assert {w[0] for line in LINES for w in commands(line)} >= {"companion", "./scripts/test"}


@pytest.fixture
def a_users_laptop(tmp_path, monkeypatch):
    """A laptop as a user has it: a home of their own, no companion
    installed (no /etc/companion, no /var/lib/companion), nothing set."""
    from companion.host import config

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    for name in ("COMPANION_DB", "STATE_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "etc" / "companion" / "config.toml")
    monkeypatch.setattr(config, "SERVICE_DATA_DIR", tmp_path / "var" / "lib" / "companion")
    return home


def test_every_companion_command_of_the_readme_works_in_order(a_users_laptop, capsys):
    # As a user types them: no --db.
    for words in COMPANION:
        code = main(words[1:])
        out, err = capsys.readouterr()
        assert code == 0, f"{shlex.join(words)} exits {code}: {err or out}"
        assert out, shlex.join(words)
    assert (a_users_laptop / ".local" / "share" / "companion" / "companion.db").exists()


@pytest.mark.parametrize("line", LINES)
def test_every_readme_line_is_run_or_checked(line):
    for words in commands(line):
        program = words[0]
        if Path(program).name == "companion":
            args = build_parser().parse_args(words[1:])  # exits on a bad command line
            assert args.action in NOT_RUN or words in COMPANION
        elif program in SCRIPTS:
            script = ROOT / program
            assert script.is_file() and script.stat().st_mode & 0o111, program
            subprocess.run(["bash", "-n", str(script)], check=True)
        else:
            assert program in OTHER_PROGRAMS, f"the README runs {program!r}: run or check it here"
