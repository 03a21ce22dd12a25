"""The panel's Wi-Fi: where the companion is, the networks in reach, joining
one with its password, switching to a known one, forgetting one.

Anyone on the network may read where the companion is (never a password);
the networks in reach and every change are for controllers, with the
session's CSRF token (the app-wide guard in :mod:`web.api`).  A join answers
202 at once: the companion may leave the hotspot the phone is on, and
shows the outcome on the table's screen (the new address's QR code, or why
it failed, back on its hotspot).  A password goes to the network service and
nowhere else: not in an answer, an error message or the log.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from flask import Blueprint, jsonify

from companion.core.errors import CompanionError
from companion.core.keys import ssid_problem

from . import access
from .api import controllers_only, takes
from .bodies import Refused, Shape, member
from .errors import ApiError
from .openapi import error_answer, json_answer, operation, schema_ref
from .panel import panel

bp = Blueprint("network", __name__, url_prefix="/api/network")
# The panel's Wi-Fi page (its script is static/js/wifi.js).
page_bp = Blueprint("wifi_page", __name__)

# What Wi-Fi allows: 32 bytes of UTF-8 (the driver's own rule).
MAX_SSID = 32
# A network's name: no control characters at all (not even a tab or a line
# break, which text elsewhere may hold as spaces).
SSID = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
# WPA2: 8 to 63 printable ASCII characters, or a 64-digit hex key.
PASSWORD = "^(?:[\\x20-\\x7e]{8,63}|[0-9A-Fa-f]{64})$"


class Ssid(Shape):
    """A network's name: 1 to 32 bytes of UTF-8 (what Wi-Fi allows: 32
    ASCII letters, 16 accented ones, 8 emoji), no control characters; the
    driver's own rule (:func:`drivers.network.check_ssid`)."""

    phrase = (f"a network's name: text of 1 to {MAX_SSID} bytes in UTF-8 (32 ASCII "
              "letters, fewer that are not ASCII), no control characters")
    _regex = re.compile(SSID)

    def schema(self) -> dict:
        # JSON Schema counts characters: the description says the rule in
        # bytes, and a name of 32 characters or fewer that is longer than 32
        # bytes is refused by the rule (422), not as malformed.
        return {"type": "string", "minLength": 1, "maxLength": MAX_SSID, "pattern": SSID,
                "description": f"1 to {MAX_SSID} bytes once encoded in UTF-8"}

    def check(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not 1 <= len(value) <= MAX_SSID \
                or not self._regex.fullmatch(value):
            raise self.refuse(value, where)
        problem = ssid_problem(value)
        if problem is not None:
            raise ApiError(422, "ssid-too-long", f"{where}: {problem}")
        return value


class Password(Shape):
    """A Wi-Fi password, or nothing for an open or a known network.  A
    refusal says what is wrong with it, never the value."""

    phrase = ("a Wi-Fi password: 8 to 63 printable ASCII characters or 64 hex "
              "digits, or null or \"\" for an open or a known network")
    _regex = re.compile(PASSWORD)

    def schema(self) -> dict:
        return {"anyOf": [{"type": "null"}, {"type": "string", "maxLength": 0},
                          {"type": "string", "pattern": PASSWORD}]}

    def check(self, value: Any, where: str) -> str | None:
        if value is None or value == "":
            return None
        if not isinstance(value, str) or not self._regex.fullmatch(value):
            raise Refused(f"{where} must be {self.phrase}")
        return value


@dataclass(frozen=True)
class WifiJoinRequest:
    """A network to join, with its password when it needs one."""

    ssid: str = field(metadata=member(Ssid(), "the network's name"))
    password: str | None = field(default=None, metadata=member(
        Password(), "left out (or null) for an open or a known network"))


@dataclass(frozen=True)
class WifiForgetRequest:
    """A remembered network to forget."""

    ssid: str = field(metadata=member(Ssid(), "the network's name"))


REQUESTS: tuple[type, ...] = (WifiJoinRequest, WifiForgetRequest)


@contextmanager
def _driver_errors() -> Iterator[None]:
    """Every error of the Wi-Fi's driver as a clear 4xx: a name or a
    password it refuses is 400 (its message never holds the password),
    NetworkManager failing or not answering 409, with what to do."""
    try:
        yield
    except CompanionError as exc:
        if isinstance(exc, ValueError):
            raise ApiError(400, "bad-request", str(exc)) from None
        if isinstance(exc, OSError):
            fix = getattr(exc, "fix", "")
            raise ApiError(409, "network-error", f"the Wi-Fi cannot do that now: {exc}"
                                                 + (f" ({fix})" if fix else "")) from None
        raise


def _network() -> Any:
    network = panel().services.network
    if network is None:
        raise ApiError(404, "no-network", "this companion does not manage its Wi-Fi")
    return network


_NO_NETWORK = {"404": error_answer("this companion does not manage its Wi-Fi (error 'no-network')")}
_SPECTATOR = {"403": error_answer("no valid X-CSRF-Token, or a spectator's session")}


@page_bp.get("/wifi")
def wifi_page():
    from flask import render_template

    access.csrf_token()  # the session exists before the page's script asks for it
    return render_template("wifi.html", page="wifi")


@bp.get("")
@operation("where the companion's Wi-Fi is: a network, its own hotspot, joining",
           {"200": json_answer("the Wi-Fi's status", schema_ref("NetworkStatus"))})
def status():
    network = panel().services.network
    if network is None:
        return jsonify({"mode": "unmanaged"})
    return jsonify(network.status())


@bp.get("/networks")
@operation("the networks in reach, strongest first (controllers)",
           {"200": json_answer("the networks and the status", {
               "type": "object", "required": ["networks", "status"],
               "properties": {"networks": {"type": "array", "items": schema_ref("WifiNetwork")},
                              "status": schema_ref("NetworkStatus")}}),
            **_SPECTATOR, **_NO_NETWORK})
@controllers_only
def networks():
    network = _network()
    with _driver_errors():
        return jsonify({"networks": network.networks(), "status": network.status()})


@bp.post("/join")
@operation("join a network with its password; the outcome shows on the table's screen "
           "(on failure the companion goes back to its hotspot)",
           {"202": json_answer("joining", schema_ref("NetworkStatus")), **_SPECTATOR, **_NO_NETWORK,
            "400": error_answer("no network name, one of over 32 characters or with control "
                          "characters, or a password WPA2 cannot take"),
            "422": error_answer("a name Wi-Fi cannot have: over 32 bytes of UTF-8 "
                          "(error 'ssid-too-long')")},
           changes=True)
@controllers_only
@takes(WifiJoinRequest)
def join(body: WifiJoinRequest):
    network = _network()
    with _driver_errors():
        network.join(body.ssid, body.password)
    return jsonify(network.status()), 202


@bp.post("/switch")
@operation("join the known network on offer",
           {"202": json_answer("joining", schema_ref("NetworkStatus")), **_SPECTATOR, **_NO_NETWORK,
            "409": error_answer("no known network is on offer (error 'no-offer')")},
           changes=True)
@controllers_only
def switch():
    network = _network()
    with _driver_errors():
        offer = network.switch()
    if offer is None:
        raise ApiError(409, "no-offer", "no known Wi-Fi is in reach to switch to")
    return jsonify(network.status()), 202


@bp.post("/forget")
@operation("forget a remembered network",
           {"202": json_answer("forgetting", schema_ref("NetworkStatus")),
            **_SPECTATOR, **_NO_NETWORK,
            "400": error_answer("no network name, or one of over 32 characters or with control "
                          "characters"),
            "422": error_answer("a name Wi-Fi cannot have: over 32 bytes of UTF-8 "
                          "(error 'ssid-too-long')")},
           changes=True)
@controllers_only
@takes(WifiForgetRequest)
def forget(body: WifiForgetRequest):
    network = _network()
    with _driver_errors():
        network.forget(body.ssid)
    return jsonify(network.status()), 202
