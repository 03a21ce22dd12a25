"""The panel's keys in the data directory: the PIN, the join token, the
generation of controller sessions and the wrong PINs, shared by the service
and ``companion sign-out``."""

from __future__ import annotations

import pytest

from companion.core import access as access_module
from companion.core.access import AccessStore
from companion.core.clock import Instant


@pytest.fixture
def path(tmp_path):
    return tmp_path / "panel-access.db"


def test_the_keys_are_made_once_and_kept(path):
    first = AccessStore(path)
    keys = first.keys()
    first.close()
    again = AccessStore(path)
    assert again.keys() == keys
    assert keys.generation == 1 and len(keys.pin) == 6 and keys.pin.isdigit()
    assert len(keys.token) >= 24
    again.close()


def test_the_file_is_readable_by_its_owner_only(path):
    AccessStore(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


def test_signing_out_makes_a_new_pin_token_and_generation(path):
    store = AccessStore(path)
    before = store.keys()
    after = store.sign_out()
    assert after.generation == before.generation + 1
    assert (after.pin, after.token) != (before.pin, before.token)
    assert store.keys() == after
    store.close()


def test_a_sign_out_by_another_connection_is_seen_at_the_next_read(path):
    service, cli = AccessStore(path), AccessStore(path)
    assert service.keys() == cli.keys()
    signed_out = cli.sign_out()
    assert service.keys() == signed_out
    service.close()
    cli.close()


def at(steady: float, boot: str = "boot-1") -> Instant:
    return Instant(boot, steady, 1_700_000_000.0 + steady)


def since(start: float):
    return lambda then: then.steady > start


def test_wrong_pins_are_counted_per_address_and_forgotten_after_the_window(path):
    store = AccessStore(path)
    store.add_failure("10.0.0.9", at(100.0), keep=since(40.0))
    store.add_failure("10.0.0.9", at(130.0), keep=since(70.0))
    store.add_failure("10.0.0.8", at(131.0), keep=since(71.0))
    assert store.failures("10.0.0.9") == [at(100.0), at(130.0)]
    store.add_failure("10.0.0.8", at(165.0), keep=since(105.0))
    assert store.failures("10.0.0.9") == [at(130.0)]
    store.close()


def test_a_file_of_an_earlier_version_gets_the_boot_and_its_clock(path):
    import sqlite3

    old = sqlite3.connect(path)
    old.executescript("CREATE TABLE pin_failures (address TEXT NOT NULL, at REAL NOT NULL);"
                      "INSERT INTO pin_failures VALUES ('10.0.0.9', 5.0);")
    old.close()
    store = AccessStore(path)
    assert store.failures("10.0.0.9") == [Instant("", 0.0, 5.0)]
    store.close()


def test_the_addresses_remembered_are_bounded(path, monkeypatch):
    monkeypatch.setattr(access_module, "MAX_TRACKED_ADDRESSES", 3)
    store = AccessStore(path)
    for n in range(5):
        store.add_failure(f"10.0.0.{n}", at(100.0 + n), keep=since(0.0))
    kept = [n for n in range(5) if store.failures(f"10.0.0.{n}")]
    assert kept == [2, 3, 4]
    store.close()


def test_an_in_memory_store_works_alone():
    store = AccessStore()
    keys = store.keys()
    assert store.sign_out().generation == keys.generation + 1
    store.close()
