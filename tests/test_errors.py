"""Every error of the companion, its adapters included, is under the one
root, ``companion.core.errors.CompanionError``: a caller catches all of ours
with it, and each also is the built-in that fits (``ValueError``...)."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

from companion.core.errors import CompanionError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "drivers", "web")


def _module_names() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__main__":
                continue
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def _exceptions() -> list[type[BaseException]]:
    found = []
    for name in _module_names():
        module = importlib.import_module(name)
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, BaseException) and cls.__module__ == name]
    return found


EXCEPTIONS = _exceptions()


def test_the_adapters_and_the_appliance_define_exceptions_of_their_own():
    # The walk below finds them: this is what keeps it honest.
    modules = {cls.__module__.split(".")[0] for cls in EXCEPTIONS}
    assert modules == {"companion", "drivers", "web"}


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_exception_is_under_the_root_error(cls):
    assert issubclass(cls, CompanionError)


def test_the_cores_exceptions_are_all_in_errors_py():
    outside = [f"{cls.__module__}.{cls.__name__}" for cls in EXCEPTIONS
               if cls.__module__.startswith("companion.core")
               and cls.__module__ != "companion.core.errors"]
    assert outside == []
