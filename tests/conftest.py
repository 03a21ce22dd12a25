"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from companion.core import games
from companion.core.journal import Journal
from companion.core.table import Table

# How hard the property tests look: "quick" by default (a run of the suite
# stays a few minutes on two cores), "thorough" under CI (CI=true), or the
# profile named by HYPOTHESIS_PROFILE.  The tests carry no numbers of their own.
# No deadline: the cores are shared, and speed is the benchmarks' business.
# Derandomized: the same examples at every run, so that a run of the suite
# passes or fails for the code alone (HYPOTHESIS_PROFILE=explore looks for
# new ones, with a random seed).
_PROFILE: dict[str, Any] = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow],
                            "derandomize": True}
settings.register_profile("explore", max_examples=500, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=10, **_PROFILE)
settings.register_profile("thorough", max_examples=100, print_blob=True, **_PROFILE)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("thorough" if os.environ.get("CI") == "true" else "quick"))


@pytest.fixture
def tally_game(monkeypatch):
    """Register the test game ``tally`` (see tests/tally.py)."""
    monkeypatch.setitem(games.GAMES, "tally", "tests.tally:Tally")
    return "tally"


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "companion.db"


@pytest.fixture
def table(db_path):
    table = Table(Journal.open(db_path), clock=iter(range(1_000_000, 10_000_000)).__next__)
    yield table
    table.close()


@pytest.fixture
def reopen(db_path, table):
    """Close the table and open its journal again, as after a restart."""
    opened = []

    def _reopen() -> Table:
        table.close()
        for earlier in opened:
            earlier.close()
        t = Table(Journal.open(db_path))
        opened.append(t)
        return t

    yield _reopen
    for t in opened:
        t.close()


# -- nothing written where the suite runs --------------------------------------------


# What the test tools keep there on purpose (all in .gitignore): pytest's and
# Hypothesis' caches, schemathesis' run, the browser tests' screenshots.
TOOLS_FOLDERS = {".pytest_cache", ".hypothesis", ".schemathesis", "test-artifacts"}


@pytest.fixture(autouse=True)
def _writes_nothing_into_the_working_directory():
    """A test (or the benchmark it runs) keeps its files in its own temporary
    directory: one that leaves a new file where the suite runs (a
    ``pixels.json`` at the repository's root, say) fails."""
    here = os.getcwd()
    before = set(os.listdir(here))
    yield
    left = sorted(set(os.listdir(here)) - before - TOOLS_FOLDERS)
    for name in left:
        # Gone from the working directory, so that the next test starts clean.
        path = os.path.join(here, name)
        if os.path.isfile(path):
            os.unlink(path)
    assert not left, f"the test wrote {left} into the working directory {here}"
