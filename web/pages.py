"""The panel's pages: small HTML shells that the scripts in ``static/js``
fill from the API and keep live.

Pages are served in the phone's language (English, French or Italian):
the ``lang`` cookie set by the page's switch (the phone's own choice),
else the table's language when a controller has set it (the setup page),
else the browser's Accept-Language, else the companion's configured
language.
"""

from __future__ import annotations

from pathlib import Path

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
)

from companion.core.caller import MOMENTS

from . import access
from .panel import LANGUAGES, panel

bp = Blueprint("pages", __name__)

PAGES = ("table", "setup", "box", "history", "stats", "virtual")

# The games' boards the panel ships: static/js/games/<game key>.js, found by
# name (the other modules there are shared by every board).
SHARED_MODULES = ("index", "common", "generic")
BOARDS = tuple(sorted(path.stem for path in
                      (Path(__file__).with_name("static") / "js" / "games").glob("*.js")
                      if path.stem not in SHARED_MODULES))
# The modules every page loads, fetched early.
PRELOAD = ("core", "forms", *(f"games/{name}" for name in SHARED_MODULES + BOARDS))


def language() -> str:
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    g.vary_language = True
    chosen = current_app.extensions["companion"].table.settings().language
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or panel().language


@bp.app_context_processor
def strings():
    lang = language()
    table = current_app.extensions["companion"].strings[lang]
    fallback = current_app.extensions["companion"].strings["en"]

    def t(key: str) -> str:
        return table.get(key) or fallback.get(key) or key

    services = current_app.extensions["companion"].services
    return {"t": t, "lang": lang, "languages": LANGUAGES, "boards": BOARDS, "preload": PRELOAD,
            "has_virtual": services.press_key is not None,
            "has_screen": services.screen_png is not None,
            "has_wiring": services.wiring_svg is not None,
            "has_venue": services.venue is not None, "caller_moments": MOMENTS}


def _page(name: str, **context):
    access.csrf_token()  # the session exists before the page's scripts ask for it
    return render_template(f"{name}.html", page=name, **context)


@bp.get("/")
def table_page():
    token = request.args.get("join")
    if token is not None:
        guard = current_app.extensions["companion"].access
        if len(token) <= 64 and guard.token_matches(token):
            access.make_controller()
            # Off the address bar, so a screenshot of the panel does not share it.
            return redirect("/?joined=1", code=303)
        return redirect("/?joined=0", code=303)
    return _page("table")


@bp.get("/setup")
def setup_page():
    return _page("setup")


@bp.get("/box")
def box_page():
    """The Bathroom Rush box, described once and kept for every new game."""
    return _page("box")


@bp.get("/wiring.svg")
def wiring_svg():
    """The wiring of the config the companion runs with (the setup page shows it)."""
    drawing = current_app.extensions["companion"].services.wiring_svg
    if drawing is None:
        abort(404)
    lang = request.args.get("lang")
    return Response(drawing(lang if lang in LANGUAGES else language()),
                    mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})


@bp.get("/history")
def history_page():
    return _page("history")


@bp.get("/stats")
def stats_page():
    return _page("stats")


@bp.get("/virtual")
def virtual_page():
    if current_app.extensions["companion"].services.press_key is None:
        abort(404)
    return _page("virtual")
