"""The Pi Zero benchmark starts the companion as the Pi runs it: a venv
holding a byte-compiled copy of its packages, started by its console
script, with no import hook of this checkout's editable install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_benchmarks_install_is_a_copy_started_by_its_console_script(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_pi_zero import install_like_pip
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))

    (script,) = install_like_pip(tmp_path)
    python = Path(script).parent / "python"
    found = subprocess.run(
        [str(python), "-c", "import sys, companion, drivers, web, flask; "
         "print(companion.__file__, drivers.__file__, web.__file__); "
         "print(*(getattr(f, '__name__', type(f).__name__) for f in sys.meta_path))"],
        cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split("\n")
    site = tmp_path / "venv" / "lib"
    assert all(Path(path).is_relative_to(site) for path in found[0].split())
    # Python's own importers only: no editable install's finder.
    assert found[1].split() == ["BuiltinImporter", "FrozenImporter", "PathFinder"]
    compiled = list(site.rglob("companion/core/__pycache__/table.*.pyc"))
    assert compiled, "the copy is byte-compiled, as pip leaves it"
    assert (site / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
            / "web" / "static" / "i18n" / "fr.json").exists()
    shown = subprocess.run([script, "serve", "--help"], cwd=tmp_path, capture_output=True,
                           text=True, check=True).stdout
    assert shown.startswith("usage: companion serve")
