"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest

from companion.core import games
from companion.core.journal import Journal
from companion.core.table import Table


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
