"""The program's version: the project's, as pip installed it."""

from __future__ import annotations


def program_version() -> str:
    """The installed program's version (the project's, in pyproject.toml);
    looked up when asked, not at every start (importlib.metadata reads the
    installed packages' records)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tabletop-companion")
    except PackageNotFoundError:
        return "(not installed)"
