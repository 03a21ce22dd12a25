"""What the games' state and view dataclasses share: their JSON form,
derived from their fields.

A game declares its view as dataclasses (and its phases as enums); the
engine's :meth:`~companion.core.engine.Game.view` returns :func:`plain` of
it, so the schema a screen reads is written once, as types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any


def plain(value: Any) -> Any:
    """``value`` as JSON-compatible data: a dataclass becomes an object of
    its fields (in declaration order), an enum its value, a tuple a list."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def state_fields(schema: type) -> tuple[str, ...]:
    """The names of a state schema's annotated attributes, in order: what
    the engine serialises (``Game.state_fields``)."""
    return tuple(schema.__annotations__)
