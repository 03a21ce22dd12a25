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

_SCALARS = frozenset({int, str, float, bool, type(None)})
# Field names per dataclass, read once: a view is made after every command.
_FIELDS: dict[type, tuple[str, ...]] = {}


def plain(value: Any) -> Any:
    """``value`` as JSON-compatible data: a dataclass becomes an object of
    its fields (in declaration order), an enum its value, a tuple a list."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    if kind is dict:
        return {str(k): v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    names = _FIELDS.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    if names is not None:
        out = {}
        for name in names:
            v = getattr(value, name)
            out[name] = v if type(v) in _SCALARS else plain(v)
        return out
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
