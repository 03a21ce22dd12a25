"""The phone panel: a Flask app that shows the table live and drives it.

``create_app(table, PanelSettings(...), services=...)`` builds the app
around one :class:`~companion.core.table.Table`.  Everything the panel needs from the rest of
the companion arrives in :class:`Services`; whatever is missing is simply not
offered (no OLED mirror without ``screen_png``, no virtual table without
``press_key``, manual dice entry only without ``dice``).

Shared objects live in ``app.extensions["companion"]`` (a :class:`Panel`):
the table, the services, the access control (PIN and join token), the live
broadcast to every open phone, and the players' colours.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.routing import Rule

from companion.core.access import AccessStore
from companion.core.errors import JournalError
from companion.core.games import available
from companion.core.ports import TablePort
from companion.core.text import game_phrases, template

from .access import Access
from .colours import PlayerColours
from .live import Broadcast
from .panel import LANGUAGES, Panel, PanelSettings, Services, caller_json, state_json

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")

# Request bodies are small JSON objects: a command, a setup of a few players.
MAX_BODY = 16 * 1024


class _Rule(Rule):
    """A route that compiles its URL builder when a URL is first built
    from it, not when the route is added.

    Werkzeug compiles two builders per route (Python code generated
    through :mod:`ast`) as it adds it; the panel's routes are matched on
    every request but a URL is built from them only by ``url_for``, which
    the panel seldom calls.  Compiled at start, the builders were two thirds
    of the panel's creation: some 10 ms of a development machine's CPU, a
    tenth of a second at a tenth of its speed, before the first phone is
    answered.  Built URLs are the same (tested)."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compile_builder = super()._compile_builder
        name = "_build_unknown" if append_unknown else "_build"

        def build(rule: Rule, *args: Any, **kwargs: Any) -> tuple[str, str]:
            built = compile_builder(append_unknown)
            setattr(rule, name, built.__get__(rule, None))  # the next calls go straight there
            return built(rule, *args, **kwargs)

        return build


class _SessionCookies(SecureCookieSessionInterface):
    """Flask's signed session cookie, whose lasting is said with ``Max-Age``
    besides ``Expires``: a browser counts ``Max-Age`` from when it got the
    cookie, so a phone keeps it even when the companion's clock is far
    behind its own (a Pi without internet does not know the date), where
    the ``Expires`` date alone would already be past.

    Its signature is checked without itsdangerous's age limit, which reads
    the wall clock: a step of NTP would sign every phone out at once.  How
    long a controller stays one is counted on the clock that never steps
    (:func:`web.access.role`)."""

    def open_session(self, app: Flask, request: Any) -> Any:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        kept = request.cookies.get(self.get_cookie_name(app))
        if not kept:
            return self.session_class()
        try:
            return self.session_class(serializer.loads(kept))
        except BadSignature:
            return self.session_class()

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        super().save_session(app, session, response)
        if not session or not session.permanent:
            return
        name = self.get_cookie_name(app) + "="
        seconds = int(app.permanent_session_lifetime.total_seconds())
        cookies = response.headers.getlist("Set-Cookie")
        if not any(c.startswith(name) and "Max-Age=" not in c for c in cookies):
            return
        response.headers.remove("Set-Cookie")
        for cookie in cookies:
            if cookie.startswith(name) and "Max-Age=" not in cookie:
                cookie = f"{cookie}; Max-Age={seconds}"
            response.headers.add("Set-Cookie", cookie)


class _Panel(Flask):
    url_rule_class = _Rule
    session_interface = _SessionCookies()


def create_app(table: TablePort, settings: PanelSettings | None = None, *,
               services: Services | None = None,
               flask: Mapping[str, Any] | None = None) -> Flask:
    """The panel for ``table``, set up by ``settings`` and lent
    ``services``; ``flask`` adds Flask's own settings (``TESTING``...)."""
    settings = settings or PanelSettings()
    services = services or Services()
    app = _Panel(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        SECRET_KEY=settings.secret_key or secrets.token_hex(32),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_NAME="companion",
        SESSION_COOKIE_HTTPONLY=True,
        # Lax, not Strict: a phone that opens the panel from another app or
        # site (the QR code's link) must still send its cookie, or the page
        # would start a fresh spectator session over the controller's.
        # Changes need the CSRF header besides, which no other site can send.
        SESSION_COOKIE_SAMESITE="Lax",
        # The cookie lasts as long as the session it carries (which
        # access.role checks besides, from when the phone joined).
        PERMANENT_SESSION_LIFETIME=int(settings.session_hours * 3600),
    )
    app.config.update(flask or {})
    # A traceback never reaches a client, whatever the caller's settings.
    app.config.update(PROPAGATE_EXCEPTIONS=False, TRAP_HTTP_EXCEPTIONS=False)
    app.debug = False
    # Keep the engines' own order (a view lists what matters first).
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False

    access_file = settings.access_file
    if access_file is not None and not isinstance(access_file, AccessStore):
        try:
            access_file = AccessStore(access_file)
        except JournalError as exc:
            # A card turned read-only: the panel still shows the game, with
            # a PIN that lasts as long as this run.
            log.error("%s: the panel's PIN and sign-outs last until the companion stops",
                      exc)
            access_file = AccessStore()
    access = Access(store=access_file, attempts=settings.pin_attempts,
                    window=settings.pin_window, session_hours=settings.session_hours)
    colours = PlayerColours(_colours_file(table, settings.colours_file), settings.keep_file)
    live = Broadcast(table, render=lambda update: {**state_json(update, colours),
                                                   "caller": caller_json(update, table, settings)},
                     max_streams=settings.max_streams,
                     max_per_phone=settings.max_streams_per_phone,
                     heartbeat=settings.live_heartbeat, max_unsent=settings.live_max_unsent,
                     max_stall=settings.live_max_stall)
    if services.screen_news is not None and services.screen_frame is not None:
        live.follow_screen(services.screen_news, services.screen_frame)
    strings = _PerLanguage(LANGUAGES, panel_strings)
    app.extensions["companion"] = Panel(
        table=table,
        services=services,
        access=access,
        live=live,
        colours=colours,
        strings=strings,
        text=_PerLanguage(LANGUAGES, lambda lang: _text(lang, strings)),
        settings=settings,
    )

    from . import api, errors, network, pages, pixels, portal, venue

    errors.install(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(network.bp)
    app.register_blueprint(network.page_bp)
    app.register_blueprint(pixels.bp)
    app.register_blueprint(portal.bp)
    app.register_blueprint(venue.bp)
    return app


def panel_strings(lang: str) -> dict[str, str]:
    with open(STATIC / "i18n" / f"{lang}.json", encoding="utf-8") as file:
        return json.load(file)


class _PerLanguage(Mapping[str, Mapping[str, str]]):
    """Strings for each of ``languages``, made by ``make(lang)`` on the
    first request for that language, then kept.  A table seldom uses more
    than one or two languages: the page strings of each are some 70 kB in
    memory for as long as the companion runs.  Every string a page may show
    (:func:`_text`) imports every game's engine and phrases besides, which
    the panel's start does not need (on a Pi Zero that is a few tenths of a
    second before the first phone is answered)."""

    def __init__(self, languages: Iterable[str], make: Callable[[str], dict[str, str]]) -> None:
        self._languages = tuple(languages)
        self._make = make
        self._made: dict[str, dict[str, str]] = {}
        self._lock = threading.Lock()

    def __getitem__(self, lang: str) -> Mapping[str, str]:
        if lang not in self._languages:
            raise KeyError(lang)
        with self._lock:
            if lang not in self._made:
                self._made[lang] = self._make(lang)
            return self._made[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(self._languages)

    def __len__(self) -> int:
        return len(self._languages)


def _text(lang: str, strings: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """Every string a page may show in ``lang``: the panel's own (English
    where ``lang`` has none), then each game's phrases from its folder as
    ``<game key>:<phrase key>`` (English where the game has none in ``lang``).
    Refusals (``refusal.*``) are left out: the companion says them itself."""
    out = {**strings["en"], **strings[lang]}
    for game in available():
        phrases = game_phrases(game.key)
        keys = {key for language in ("en", lang) for key in phrases.get(language, {})
                if not key.startswith("refusal.")}
        for key in sorted(keys):
            found = template(key, lang, game.key)
            if found is not None:
                out[f"{game.key}:{key}"] = found
    return out


def _colours_file(table: TablePort, configured: Path | None) -> Path | None:
    if configured:
        return Path(configured)
    journal = getattr(table, "journal_path", None)
    if not journal or str(journal) == ":memory:":
        return None
    path = Path(journal)
    return path.with_name(path.stem + "-colours.json")


__all__ = ["Panel", "PanelSettings", "Services", "create_app", "state_json"]
