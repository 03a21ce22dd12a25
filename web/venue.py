"""The panel's venue settings: where the table publishes, on the venue's MQTT
broker (see docs/venue.md).

Anyone may read whether the table is in a venue and how it is doing; only a
controller points it at a broker, with the session's CSRF token, and only
in the minutes after the owner allowed it at the table (Menu → Venue
settings → OK).  A kept password stays bound to its broker: a new broker,
port, TLS setting or user needs it typed again.  The
broker's password goes to the companion and nowhere else: never in an
answer (``has_password`` says whether one is kept), an error or the log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, jsonify

from companion.core.errors import VenueChangeRefused
from companion.core.venue import HOST_PATTERN, MAX_HOST, host_problem

from .api import controllers_only, takes
from .bodies import SAFE, UNSET, Boolean, Integer, Shape, Text, member
from .errors import ApiError
from .openapi import _error, _json, _ref, operation
from .panel import panel

bp = Blueprint("venue", __name__, url_prefix="/api/venue")

class Host(Shape):
    """A broker's host name or address, or "" for no venue: the one rule of
    ``companion.core.venue``, as the document's pattern and as the check."""

    phrase = 'a host name, an IPv4 or IPv6 address, or "" for none'

    def schema(self) -> dict:
        return {"type": "string", "maxLength": MAX_HOST, "pattern": HOST_PATTERN}

    def check(self, value: Any, where: str) -> str:
        if host_problem(value) is not None:
            raise self.refuse(value, where)
        return value


class Secret(Shape):
    """A user name or password as typed (spaces kept), without control
    characters; never said back, not even in a refusal."""

    phrase = "text of at most 256 characters, without control characters"

    def schema(self) -> dict:
        return {"type": "string", "maxLength": 256, "pattern": SAFE}

    def check(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or len(value) > 256 or not re.fullmatch(SAFE, value):
            raise ApiError(400, "bad-request", f"{where} must be {self.phrase}")
        return value


@dataclass(frozen=True)
class VenueRequest:
    """Where the table publishes.  ``broker`` "" takes the table out of its
    venue; a ``password`` left out keeps the one kept, "" forgets it."""

    broker: str = field(metadata=member(Host(), 'the broker\'s host, or "" for no venue'))
    port: int = field(default=1883, metadata=member(Integer(1, 65535), "the broker's port"))
    tls: bool = field(default=False, metadata=member(Boolean(), "speak TLS to the broker"))
    venue: str = field(default="venue", metadata=member(
        Text(1, 60, name=True), "the venue's name (its topics use its letters and digits)"))
    table: str = field(default="", metadata=member(
        Text(0, 60, blank=True), "this table's name at the venue (\"\": the companion's)"))
    username: str = field(default="", metadata=member(Secret(), "the table's user"))
    password: str = field(default=UNSET, metadata=member(
        Secret(), "the table's password; left out: the one kept"))


REQUESTS: tuple[type, ...] = (VenueRequest,)
_SPECTATOR = {"403": _error("no valid X-CSRF-Token, or a spectator's session")}
_NO_VENUE = {"404": _error("this companion cannot join a venue (error 'no-venue')")}


def _venue() -> Any:
    venue = panel().services.venue
    if venue is None:
        raise ApiError(404, "no-venue", "this companion cannot join a venue")
    return venue


@bp.get("")
@operation("whether the table publishes to a venue, where and how it is doing (never a "
           "password)", {"200": _json("the venue's status", _ref("VenueStatus")), **_NO_VENUE})
def status():
    return jsonify(_venue().status())


@bp.post("")
@operation("point the table at a venue's broker, or take it out of its venue (controllers)",
           {"202": _json("the new settings, being applied", _ref("VenueStatus")),
            **_SPECTATOR, **_NO_VENUE,
            "403": _error("no valid X-CSRF-Token, a spectator's session, or nobody allowed "
                          "the change at the table a moment ago (error 'venue-locked')"),
            "400": _error("a host, port, name, user or password the table cannot use"),
            "422": _error("a venue's or a table's name with no letter or digit to make its "
                          "topic of (error 'no-topic'), or a new broker, port, TLS setting "
                          "or user without the password (error 'password-needed')")},
           changes=True)
@controllers_only
@takes(VenueRequest)
def configure(body: VenueRequest):
    venue = _venue()
    settings = {"broker": body.broker, "port": body.port, "tls": body.tls,
                "venue": body.venue, "table": body.table.strip(), "username": body.username}
    if body.password is not UNSET:
        settings["password"] = body.password
    try:
        return jsonify(venue.configure(settings)), 202
    except VenueChangeRefused as exc:
        status = 403 if exc.code == "venue-locked" else 422
        raise ApiError(status, exc.code, str(exc)) from None


__all__ = ["REQUESTS", "VenueRequest", "bp"]
