"""Clear errors for phones, and the headers every response carries.

Under ``/api`` every error is JSON ``{"error": <short code>, "message":
<sentence>}``; pages get a small error page.  A refusal of the table or of a
game (a :class:`~companion.core.errors.Refusal`) is said in the phone's
language, as its pages are (:func:`web.pages.language`: the phone's own
choice, else the table's language, else the browser's, else the configured
one).  A failure inside the panel is logged with its traceback on the
companion and reaches the phone as a plain 500, never as a stack trace.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.core.errors import (
    BadSetup,
    CardFault,
    CompanionError,
    IllegalCommand,
    JournalError,
    MovedOn,
    NoGame,
    NotYourSeat,
    Refusal,
    StaleVersion,
)

from .pages import language
from .panel import NO_GAME, current_state

log = logging.getLogger(__name__)

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

# The state of a table where no game was ever started.

HTTP_CODES = {
    400: "bad-request",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    413: "too-large",
    415: "unsupported-media-type",
    429: "too-many-attempts",
    500: "internal-error",
    503: "unavailable",
}


class ApiError(CompanionError):
    """A refusal with an HTTP status, a short code and a sentence."""

    def __init__(self, status: int, code: str, message: str, *,
                 headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extra = extra


def bad_request(message: str) -> ApiError:
    return ApiError(400, "bad-request", message)


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/api"


def json_answer(status: int, code: str, message: str, headers: dict | None = None, **extra: Any):
    body = {"error": code, "message": message, **extra}
    response = jsonify(body)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _refusal(status: int, code: str, exc: Refusal, **extra: Any):
    """A refusal in the phone's language (``Content-Language`` says which)."""
    lang = language()
    return json_answer(status, code, exc.say(lang), {"Content-Language": lang}, **extra)


# The error pages a phone may open, said in its language (the panel's
# strings ``error.page.<status>``); other statuses say their message.
PAGE_SAID = (404, 500)


def _page(status: int, message: str):
    said = f"error.page.{status}" if status in PAGE_SAID else None
    return render_template("error.html", status=status, message=message, said=said), status


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        if not _wants_json():
            return _page(exc.status, exc.message)
        return json_answer(exc.status, exc.code, exc.message, exc.headers, **exc.extra)

    @app.errorhandler(StaleVersion)
    def stale(exc: StaleVersion):
        return _refusal(409, "stale-version", exc, state=current_state())

    @app.errorhandler(NoGame)
    def no_game(exc: NoGame):
        return _refusal(409, "no-game", exc, state=dict(NO_GAME))

    @app.errorhandler(MovedOn)
    def moved_on(exc: MovedOn):
        # What the phone aimed at is gone: it gets what waits now to show.
        return _refusal(409, exc.rule, exc, state=current_state())

    @app.errorhandler(NotYourSeat)
    def not_your_seat(exc: NotYourSeat):
        return _refusal(403, exc.rule, exc, player=exc.player, seat=exc.seat)

    @app.errorhandler(IllegalCommand)
    def illegal(exc: IllegalCommand):
        return _refusal(422, exc.rule, exc)

    @app.errorhandler(BadSetup)
    def bad_setup(exc: BadSetup):
        return _refusal(422, "bad-setup", exc)

    @app.errorhandler(JournalError)
    def journal(exc: JournalError):
        log.error("the journal refused a write: %s", exc)
        if isinstance(exc, CardFault):
            # Said to the players, in their language: what happened and
            # that what was acknowledged is safe.
            lang = language()
            return json_answer(503, "journal", exc.say(lang), {"Content-Language": lang})
        return json_answer(503, "journal", f"the table could not be saved: {exc}")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        status = exc.code or 500
        message = {
            404: "there is nothing at this address",
            405: f"{request.method} is not allowed here",
            413: f"the request is larger than the {app.config['MAX_CONTENT_LENGTH']} bytes "
                 "allowed",
        }.get(status, exc.description or exc.name)
        headers = {}
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            # RFC 9110: a 405 says which methods the address takes.
            headers["Allow"] = ", ".join(sorted(exc.valid_methods))
        if _wants_json():
            return json_answer(status, HTTP_CODES.get(status, "http-error"), message, headers)
        body, status = _page(status, message)
        return body, status, headers

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("the panel failed on %s %s", request.method, request.path)
        message = "the companion hit an internal error; the table is unchanged unless it says so"
        if _wants_json():
            return json_answer(500, "internal-error", message)
        return _page(500, message)

    @app.after_request
    def headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if _wants_json():
            response.headers.setdefault("Cache-Control", "no-store")
        elif request.path.startswith("/static/"):
            # Phones revalidate, so a new companion version shows at once.
            response.headers["Cache-Control"] = "no-cache"
        if getattr(g, "vary_language", False):
            response.vary.add("Accept-Language")
            response.vary.add("Cookie")
        return response
