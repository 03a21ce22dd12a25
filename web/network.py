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

import json
from typing import Any

from flask import Blueprint, jsonify, request

from . import access
from .errors import ApiError, bad_request
from .panel import panel

bp = Blueprint("network", __name__, url_prefix="/api/network")
# The panel's Wi-Fi page (its script is static/js/wifi.js).
page_bp = Blueprint("wifi_page", __name__)

MAX_SSID_BYTES = 32
MAX_PASSWORD = 64


def _network() -> Any:
    network = panel().services.network
    if network is None:
        raise ApiError(404, "no-network", "this companion does not manage its Wi-Fi")
    return network


def _controller() -> None:
    if access.role() != access.CONTROLLER:
        raise ApiError(403, "spectator", "this phone only watches: join with the PIN "
                                         "shown on the table's screen to change the Wi-Fi")


def _body() -> dict[str, Any]:
    try:
        data = json.loads(request.get_data(cache=False) or b"null")
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise bad_request("the body must be a JSON object")
    return data


def _ssid(data: dict[str, Any]) -> str:
    ssid = data.get("ssid")
    if (not isinstance(ssid, str) or not ssid or len(ssid.encode()) > MAX_SSID_BYTES
            or any(ord(c) < 32 or ord(c) == 127 for c in ssid)):
        raise bad_request(f"'ssid' must be a network's name: 1 to {MAX_SSID_BYTES} bytes "
                          "of text without control characters")
    return ssid


def _password(data: dict[str, Any]) -> str | None:
    password = data.get("password")
    if password is None or password == "":
        return None
    # Never the value in a message: only what is wrong with it.
    if not isinstance(password, str):
        raise bad_request("'password' must be text")
    if not 8 <= len(password) <= MAX_PASSWORD:
        raise bad_request(f"a Wi-Fi password has 8 to 63 characters (64 hex digits for a "
                          f"key), not {len(password)}")
    if not all(32 <= ord(c) < 127 for c in password):
        raise bad_request("a Wi-Fi password holds printable ASCII characters only")
    return password


@page_bp.get("/wifi")
def wifi_page():
    from flask import render_template

    access.csrf_token()  # the session exists before the page's script asks for it
    return render_template("wifi.html", page="wifi")


@bp.get("")
def status():
    network = panel().services.network
    if network is None:
        return jsonify({"mode": "unmanaged"})
    return jsonify(network.status())


@bp.get("/networks")
def networks():
    _controller()
    network = _network()
    return jsonify({"networks": network.networks(), "status": network.status()})


@bp.post("/join")
def join():
    _controller()
    network = _network()
    data = _body()
    ssid = _ssid(data)
    password = _password(data)
    try:
        network.join(ssid, password)
    except ValueError:
        raise bad_request("that password cannot be a Wi-Fi's (WPA2 takes 8 to 63 "
                          "printable characters)") from None
    finally:
        password = None
        data.clear()
    return jsonify(network.status()), 202


@bp.post("/switch")
def switch():
    _controller()
    network = _network()
    if network.switch() is None:
        raise ApiError(409, "no-offer", "no known Wi-Fi is in reach to switch to")
    return jsonify(network.status()), 202


@bp.post("/forget")
def forget():
    _controller()
    network = _network()
    network.forget(_ssid(_body()))
    return jsonify(network.status()), 202


# -- its part of the OpenAPI document (web/openapi.py adds it) -----------------------------

def _schema(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _answer(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERROR = _schema("Error")
_CHANGE: dict[str, Any] = {
    "security": [{"csrfToken": [], "sessionCookie": []}],
}
_REFUSALS = {
    "403": _answer("no valid X-CSRF-Token, or a spectator's session", _ERROR),
    "404": _answer("this companion does not manage its Wi-Fi (error 'no-network')", _ERROR),
}

OPENAPI_SCHEMAS: dict[str, Any] = {
    "NetworkStatus": {
        "type": "object",
        "required": ["mode"],
        "properties": {
            "mode": {"enum": ["unmanaged", "starting", "waiting", "connected", "hotspot",
                              "joining", "disconnected", "unavailable"]},
            "ssid": {"type": ["string", "null"], "description": "the network it is on"},
            "address": {"type": ["string", "null"]},
            "hotspot": {"type": ["string", "null"],
                        "description": "the name of its own Wi-Fi (its password is shown "
                                       "on the table's screen only)"},
            "offer": {"type": ["string", "null"],
                      "description": "a known network in reach while it is the hotspot"},
            "joining": {"type": ["string", "null"]},
            "error": {"type": ["string", "null"], "description": "why the last join failed"},
        },
    },
    "WifiNetwork": {
        "type": "object",
        "required": ["ssid", "signal", "secure", "known", "in_use"],
        "properties": {
            "ssid": {"type": "string"},
            "signal": {"type": "integer", "minimum": 0, "maximum": 100},
            "secure": {"type": "boolean", "description": "needs a password"},
            "security": {"type": "string"},
            "known": {"type": "boolean", "description": "remembered by the companion"},
            "in_use": {"type": "boolean"},
        },
    },
    "WifiJoin": {
        "type": "object",
        "required": ["ssid"],
        "properties": {
            "ssid": {"type": "string", "minLength": 1},
            "password": {"type": ["string", "null"], "minLength": 8, "maxLength": 64,
                         "description": "left out for an open or a known network"},
        },
    },
    "WifiForget": {
        "type": "object",
        "required": ["ssid"],
        "properties": {"ssid": {"type": "string", "minLength": 1}},
    },
}

OPENAPI_PATHS: dict[str, Any] = {
    "/api/network": {"get": {
        "summary": "where the companion's Wi-Fi is: a network, its own hotspot, joining",
        "responses": {"200": _answer("the Wi-Fi's status", _schema("NetworkStatus"))},
    }},
    "/api/network/networks": {"get": {
        "summary": "the networks in reach, strongest first (controllers)",
        "security": [{"sessionCookie": []}],
        "responses": {
            "200": _answer("the networks and the status", {
                "type": "object", "required": ["networks", "status"],
                "properties": {"networks": {"type": "array", "items": _schema("WifiNetwork")},
                               "status": _schema("NetworkStatus")}}),
            **_REFUSALS,
        },
    }},
    "/api/network/join": {"post": {
        "summary": "join a network with its password; the outcome shows on the table's "
                   "screen (on failure the companion goes back to its hotspot)",
        **_CHANGE,
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": _schema("WifiJoin")}}},
        "responses": {
            "202": _answer("joining", _schema("NetworkStatus")),
            "400": _answer("no network name, or a password WPA2 cannot take", _ERROR),
            **_REFUSALS,
        },
    }},
    "/api/network/switch": {"post": {
        "summary": "join the known network on offer",
        **_CHANGE,
        "responses": {
            "202": _answer("joining", _schema("NetworkStatus")),
            "409": _answer("no known network is on offer (error 'no-offer')", _ERROR),
            **_REFUSALS,
        },
    }},
    "/api/network/forget": {"post": {
        "summary": "forget a remembered network",
        **_CHANGE,
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": _schema("WifiForget")}}},
        "responses": {
            "202": _answer("forgetting", _schema("NetworkStatus")),
            "400": _answer("no network name", _ERROR),
            **_REFUSALS,
        },
    }},
}
