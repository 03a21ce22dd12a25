"""The JSON API under ``/api`` that the pages (and any other client) use.

Reading is open to every phone on the network.  Changing the table needs a
controller session and the session's CSRF token in ``X-CSRF-Token``.  Every
change names the game (``game_id``) and the version of the state it was
made against, and the table checks both inside its lock: a stale one is
refused with 409 and the fresh state, so two phones tapping the same card
apply it once, and two phones tapping "Play again" start one game.

Each route says what it answers (:func:`~web.openapi.operation`) and what
body it takes (:func:`takes`, a request from ``web/bodies.py``): the OpenAPI
document at ``/api/openapi.json`` is built from both, and the body is
checked against the very description the document shows.
"""

from __future__ import annotations

import functools
import ipaddress
import json
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from companion.core import bgstats
from companion.core.errors import BadSetting, NoGame, NotExpected, UnknownCommand
from companion.core.games import available, canonical_key
from companion.core.keys import KEYS
from companion.core.stats import CSV_COLUMNS, to_csv
from companion.core.table import Update, check_made_against
from companion.core.text import Words, command_word

from . import access, bodies, seats
from .bodies import (
    UNSET,
    CommandRequest,
    DiceSourceRequest,
    JoinRequest,
    NewGameRequest,
    SavedOptionRequest,
    SeatRequest,
    SettingsRequest,
    UnknownCommandName,
    VersionRequest,
)
from .errors import ApiError, bad_request
from .live import TooManyStreams, screen_message
from .openapi import (
    CHANGE_ERRORS,
    JOURNAL_ERROR,
    MALFORMED,
    TURN_REFUSED,
    document,
    error_answer,
    json_answer,
    operation,
    schema_ref,
    table_change,
)
from .pages import language
from .panel import (
    LANGUAGES,
    current_state,
    entry_text,
    panel,
    preview_json,
    say_events,
    state_json,
)

bp = Blueprint("api", __name__, url_prefix="/api")


PAST_GAMES_SHOWN = 200
# A game's id in a query: the same description checks it and documents it.
PAST_GAME = bodies.Integer(1, 2**53, phrase="a game's id (a whole number of 1 or more)")
# History entries written to the answer at a time.
HISTORY_CHUNK = 256
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")


def companion_info(services=None, shared=None) -> dict:
    """What the phones show besides the game: dice source, hardware faults,
    the table's settings and who holds which seat.

    Pass ``services`` and ``shared`` (the Panel) where there is no app
    context (inside a live stream).
    """
    shared = shared or panel()
    services = services or shared.services
    dice = services.dice
    faults: list[str] = []
    if services.faults is not None:
        faults = [str(f) for f in services.faults()]
    return {
        "dice": None if dice is None else {
            "source": str(dice.source),
            "sources": [str(s) for s in dice.sources],
            "status": str(dice.status),
        },
        "faults": faults,
        "screen": services.screen_png is not None,
        "virtual": services.press_key is not None,
        "settings": shared.settings_json(),
        "seats": shared.seats.public(),
    }


# -- guards -------------------------------------------------------------------


@bp.before_app_request
def guard_state_changes():
    if request.method not in STATE_CHANGING or request.routing_exception is not None:
        # An address or method the panel does not have changes nothing: it
        # is answered 404 or 405 (with Allow) whatever the token.
        return None
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, "too-large",
                       f"the request is larger than the {limit} bytes allowed")
    if not access.csrf_ok(request.headers.get("X-CSRF-Token")):
        raise ApiError(403, "csrf", "the request lacks this phone's X-CSRF-Token "
                                    "(from GET /api/session); reload the page")
    return None


def controllers_only(view: Callable) -> Callable:
    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any):
        if access.role() != access.CONTROLLER:
            raise ApiError(403, "spectator", "this phone only watches: join with the PIN "
                                             "shown on the table's screen to play")
        _phone_time()
        return view(*args, **kwargs)

    return guarded


# The phone's clock, in milliseconds since the epoch (JavaScript's Date.now()).
PHONE_TIME = "X-Phone-Time"
# Phone times taken: from 2020 to 2100 (a phone whose clock is not set says 1970).
PHONE_TIME_RANGE = (1_577_836_800_000, 4_102_444_800_000)


def _phone_time() -> None:
    """A controller's phone says what time it is (``X-Phone-Time``): the
    table takes its date from it while its own clock is not set.  A
    spectator's is never read; a value that is not a plausible time is
    ignored."""
    told = panel().services.phone_time
    sent = request.headers.get(PHONE_TIME, "")
    if told is None or not sent.isdigit() or len(sent) > 16:
        return
    millis = int(sent)
    if PHONE_TIME_RANGE[0] <= millis <= PHONE_TIME_RANGE[1] and told(millis / 1000):
        _publish_companion()  # the date is known now: "Date unknown" goes


# -- input checks -------------------------------------------------------------


def takes(kind: Callable[..., Any]) -> Callable:
    """The route reads its JSON body as the request ``kind`` (a dataclass of
    ``web/bodies.py``), passed as ``body``; a body that does not fit is 400."""

    def wrap(view: Callable) -> Callable:
        @functools.wraps(view)
        def reading(*args: Any, **kwargs: Any):
            return view(*args, body=bodies.read(kind, request.get_data(cache=True)), **kwargs)

        reading.request_kind = kind  # type: ignore[attr-defined]
        return reading

    return wrap


def _check_made_against(game_id: int | None, version: int) -> None:
    """Refuse early a request made against another state than the table's
    (the table checks again, inside its lock, when it changes)."""
    table = panel().table
    now = table.current() if table.has_game else None
    check_made_against(game_id, version, now.game_id if now else None,
                       now.version if now else None)


# -- reading ------------------------------------------------------------------


@bp.get("/state")
@operation("the table's current state (or that there is no game)",
           {"200": json_answer("the state", schema_ref("State"))})
def state():
    return jsonify(current_state())


@bp.get("/games")
@operation("the games this companion knows, with their commands and variants",
           {"200": json_answer("every game",
                               {"type": "array", "items": schema_ref("GameDescription")})})
def games():
    return jsonify([cls.describe() for cls in available()])


@bp.get("/text")
@operation("the pages' strings and every game's phrases (keyed '<game key>:<phrase key>') "
           "in one language, English where it has none",
           {"200": json_answer("key to text", {"type": "object",
                                         "additionalProperties": {"type": "string"}}),
            "400": error_answer("a language the panel does not speak")},
           parameters=[{"name": "lang", "in": "query", "required": False,
                        "schema": {"type": "string", "enum": list(LANGUAGES), "default": "en"},
                        "description": "the language"}])
def text():
    """The strings of the pages and of every game in the phone's language."""
    lang = request.args.get("lang", "en")
    found = panel().text.get(lang)
    if found is None:
        raise bad_request(f"'lang' must be one of {', '.join(panel().text)}, not {lang!r}")
    return jsonify(found)


@bp.get("/history")
@operation("every change of the current game, or of a past one, in order; a past game "
           "comes with its last state ('state') for its board and chart",
           {"200": json_answer("the history", schema_ref("History")),
            "400": error_answer("'game' is not a game's id"),
            "404": error_answer("no such game in the journal")},
           parameters=[{"name": "game", "in": "query", "required": False,
                        "schema": PAST_GAME.schema(),
                        "description": "a past game's id (from GET /api/past-games); "
                                       "without it, the current game"}])
def history():
    table = panel().table
    wanted = request.args.get("game")
    past = None
    if wanted is not None:
        if not wanted.isdigit():
            raise bad_request(f"'game' must be {PAST_GAME.phrase}, not {wanted!r}")
        PAST_GAME.check(int(wanted), "'game'")
        try:
            now, entries = table.past(int(wanted))
        except NoGame as exc:
            lang = language()
            raise ApiError(404, "no-game", exc.say(lang),
                           headers={"Content-Language": lang}) from None
        current = table.has_game and table.current().game_id == now.game_id
        past = None if current else state_json(now, panel().colours)
    elif not table.has_game:
        return jsonify({"game_id": None, "game": None, "version": 0, "entries": []})
    else:
        now, entries = table.current(), table.history()
    live = past is None
    undo_events = [e.to_json() for e in now.undo_events] if live else []
    if live and now.game_key:
        say_events(now.game_key, now.undo_events, undo_events)
    head = json.dumps({
        "game_id": now.game_id,
        "game": now.game_key,
        "version": now.version,
        "players": list(now.players),
        "can_undo": live and now.can_undo,
        "can_redo": live and now.can_redo,
        "undo_text": now.undo_text if live else None,
        "undo_events": undo_events,
        "state": past,
    }, separators=(",", ":"))

    def body() -> Iterator[str]:
        # A long game has thousands of entries: they are written as text a
        # few at a time (see HistoryEntry.json_text), never all at once.
        yield f'{head[:-1]},"entries":['
        for start in range(0, len(entries), HISTORY_CHUNK):
            chunk = entries[start:start + HISTORY_CHUNK]
            yield ("," if start else "") + ",".join(entry_text(now.game_key, entry.json_text())
                                                    for entry in chunk)
        yield "]}"

    return Response(body(), mimetype="application/json")


@bp.get("/stats")
@operation("statistics of the finished games: games and wins per player, win rate, "
           "streaks, records and head to head, per game",
           {"200": json_answer("the statistics", schema_ref("Stats"))})
def stats():
    return jsonify(panel().table.stats())


_COUNTING = error_answer("the games of a journal written by an earlier version are being counted "
                   "(once, after the start); see Retry-After")


def _stats_to_keep() -> dict:
    """The statistics for a file to keep: refused while an earlier
    version's games are being counted (the page shows the count so far)."""
    found = panel().table.stats()
    if "counting" in found:
        counting = found["counting"]
        raise ApiError(503, "counting", f"the past games are being counted "
                       f"({counting['summed']} of {counting['of']}); try again in a moment",
                       headers={"Retry-After": "5"})
    return found


def _titles() -> dict[str, str]:
    return {cls.key: cls.title for cls in available()}


_CSV_LANG = {"name": "lang", "in": "query", "required": False,
             "schema": {"type": "string", "enum": list(LANGUAGES)},
             "description": "the language of the column names (default: the phone's)"}


@bp.get("/stats.csv")
@operation("the statistics per game and player as a CSV file to open in a spreadsheet: "
           "the columns named in the phone's language, the games by their names, the "
           "dates of each player's first and last game (YYYY-MM-DD); the same with the "
           "machine keys is GET /api/stats-data.csv", {
               "200": {"description": "CSV: " + ", ".join(CSV_COLUMNS) + " (named in the "
                                      "language)",
                       "content": {"text/csv": {"schema": {"type": "string"}}}},
               "400": error_answer("a language the panel does not speak"),
               "503": _COUNTING},
           parameters=[_CSV_LANG])
def stats_csv():
    lang = request.args.get("lang", language())
    if lang not in LANGUAGES:
        raise bad_request(f"'lang' must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    words = panel().text[lang]
    headers = [words.get(f"stats.csv.{column}", column) for column in CSV_COLUMNS]
    # A spreadsheet reads the BOM as "this is UTF-8" (accented names, French headers).
    text = "\ufeff" + to_csv(_stats_to_keep(), headers=headers, names=_titles())
    return Response(text, mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="statistics.csv"',
                             "Content-Language": lang})


@bp.get("/stats-data.csv")
@operation("the statistics per game and player as CSV for scripts: the machine keys as "
           "column names, the games by their keys, dates as YYYY-MM-DD", {
               "200": {"description": "CSV: " + ", ".join(CSV_COLUMNS),
                       "content": {"text/csv": {"schema": {"type": "string"}}}},
               "503": _COUNTING})
def stats_data_csv():
    return Response(to_csv(_stats_to_keep()), mimetype="text/csv",
                    headers={"Content-Disposition":
                             'attachment; filename="statistics-data.csv"'})


def _plays(games: list[dict]) -> list[dict]:
    """The finished ``games`` as plays in BG Stats' shape."""
    titles, ids = _titles(), panel().settings.bgg_ids
    # The names in the play are the table's language's (its variants).
    words = panel().text[panel().table_language()]

    def named(key: str) -> Callable[[str], str]:
        return lambda v: words.get(f"{key}:variant.{v}", v)

    return [bgstats.play(g, titles.get(g["game"], g["game"]), bgg_id=ids.get(g["game"]),
                         variant=named(g["game"]))
            for g in games if g["status"] == "over"]


@bp.get("/plays.json")
@operation("every finished game as a play in BG Stats' shape (a JSON file to keep, "
           "oldest first); see GET /api/bgstats for one play and its link",
           {"200": json_answer("the plays", {"type": "array", "items": schema_ref("BgStatsPlay")})})
def plays_file():
    played = sorted(panel().table.games(), key=lambda g: g["id"])
    return Response(json.dumps(_plays(played), ensure_ascii=False, indent=1),
                    mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="plays-bgstats.json"'})


@bp.get("/bgstats")
@operation("a finished game as a play for BG Stats, and the link that opens it there "
           "(https://app.bgstatsapp.com/createPlay.html?data=...)",
           {"200": json_answer("the play and its link", {
               "type": "object", "required": ["play", "link"],
               "properties": {"play": schema_ref("BgStatsPlay"),
                              "link": {"type": "string", "format": "uri"}}}),
            "400": error_answer("'game' is not a game's id"),
            "404": error_answer("no such game in the journal"),
            "409": error_answer("the game is not over (error 'not-over')")},
           parameters=[{"name": "game", "in": "query", "required": True,
                        "schema": PAST_GAME.schema(), "example": 1,
                        "description": "a game's id (from GET /api/past-games)"}])
def bgstats_play():
    wanted = request.args.get("game")
    if wanted is None or not wanted.isdigit():
        raise bad_request(f"'game' must be {PAST_GAME.phrase}, not {wanted!r}")
    number = PAST_GAME.check(int(wanted), "'game'")
    found = next((g for g in panel().table.games() if g["id"] == number), None)
    if found is None:
        raise ApiError(404, "no-game", f"no game {number} in the journal")
    plays = _plays([found])
    if not plays:
        raise ApiError(409, "not-over", f"game {number} is not over: it is no play yet")
    return jsonify({"play": plays[0], "link": bgstats.link(plays[0])})


@bp.get("/stats.json")
@operation("the statistics as a JSON file to keep (as GET /api/stats)",
           {"200": json_answer("the statistics", schema_ref("Stats")), "503": _COUNTING})
def stats_file():
    return Response(json.dumps(_stats_to_keep(), ensure_ascii=False, indent=1),
                    mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="statistics.json"'})


@bp.get("/profiles")
@operation("the players met before, each with the colour they last played with, "
           "the latest first: offered at the next setup",
           {"200": json_answer("the profiles", {"type": "array", "items": {
               "type": "object", "required": ["name", "colour"],
               "properties": {"name": {"type": "string"},
                              "colour": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}}}})})
def profiles():
    return jsonify(panel().colours.profiles())


@bp.get("/past-games")
@operation(f"past and current games, newest first (at most {PAST_GAMES_SHOWN})",
           {"200": json_answer("the games", {"type": "array", "items": schema_ref("PastGame")})})
def past_games():
    played = panel().table.games()
    played.sort(key=lambda g: g["id"], reverse=True)
    shown = played[:PAST_GAMES_SHOWN]
    links = {g["id"]: bgstats.link(play) for g, play in
             zip([g for g in shown if g["status"] == "over"], _plays(shown), strict=True)}
    return jsonify([{**g, "bgstats": links[g["id"]]} if g["id"] in links else g
                    for g in shown])


def _session_json() -> dict:
    seat, claim = seats.held(panel().seats)
    return {"role": access.role(), "csrf": access.csrf_token(),
            "companion": companion_info(), "seat": seat, "claim": claim}


@bp.get("/session")
@operation("this phone's role, CSRF token and seat (creates the session)",
           {"200": json_answer("the session", schema_ref("Session"))})
def session_info():
    return jsonify(_session_json())


@bp.get("/health")
@operation("whether the panel answers, and how many phones watch live",
           {"200": json_answer("healthy", schema_ref("Health"))})
def health():
    table = panel().table
    return jsonify({
        "status": "ok",
        "game": table.game.key if table.has_game else None,
        "version": table.version if table.has_game else 0,
        "streams": panel().live.open_streams,
    })


@bp.get("/openapi.json")
@operation("this document", {"200": json_answer("the OpenAPI document", {"type": "object"})})
def openapi():
    return jsonify(document(current_app))


@bp.get("/screen.png")
@operation("the table's OLED as it shows now", {
    "200": {"description": "a 128x64 PNG",
            "content": {"image/png": {"schema": {"type": "string",
                                                 "contentMediaType": "image/png"}}}},
    "404": error_answer("no display to mirror"),
})
def screen():
    screen_png = panel().services.screen_png
    if screen_png is None:
        raise ApiError(404, "no-screen", "this companion has no display to mirror")
    return Response(screen_png(), mimetype="image/png",
                    headers={"Cache-Control": "no-store"})


@bp.get("/events")
@operation("live updates as Server-Sent Events", {
    "200": {"description": "an endless event stream",
            "content": {"text/event-stream": {"schema": {"type": "string"}}}},
    "503": error_answer("too many phones are watching live; see Retry-After"),
}, description="Events: 'update' (data: State) at once and after every change; "
               "'companion' (data: Companion) at once and when it changes; "
               "'screen' (data: {frame, png}) at once and each time the table's screen "
               "shows another frame: 'frame' numbers the frames in order, 'png' is the "
               "frame as a data: URL (left out for a large frame: GET /api/screen.png). "
               "A ': heartbeat' comment every 15 s. A stream its phone does not read "
               "ends; the browser reconnects and gets the whole state first.")
def events():
    live, services = panel().live, panel().services
    disconnected = request.environ.get("waitress.client_disconnected", lambda: False)
    shared = panel()
    last_info = [companion_info(services, shared)]

    def info_if_changed():
        # Runs while the stream is sent, outside the request's app context.
        now = companion_info(services, shared)
        if now == last_info[0]:
            return None
        last_info[0] = now
        return "companion", now

    first: list[tuple[str, Callable[[], Any]]] = [("update", current_state),
                                                   ("companion", lambda: last_info[0])]
    frame = services.screen_frame
    if frame is not None:
        first.append(("screen", lambda: screen_message(frame)))
    try:
        feed = live.stream(
            first,
            extra=info_if_changed,
            disconnected=disconnected,
            phone=_phone_address(),
            unsent=request.environ.get("companion.unsent"),
            hang_up=request.environ.get("companion.hang_up"),
        )
    except TooManyStreams as exc:
        raise ApiError(503, "too-many-phones", str(exc),
                       headers={"Retry-After": "10"}) from None
    return Response(feed, mimetype="text/event-stream", headers={
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
    })


def _phone_address() -> str | None:
    """The address a phone's live streams are counted under; ``None`` for
    the companion itself (loopback: its own tools and measurements)."""
    address = request.remote_addr
    try:
        if address is None or ipaddress.ip_address(address).is_loopback:
            return None
    except ValueError:
        pass
    return address


# -- joining --------------------------------------------------------------------


@bp.post("/join")
@operation("become a controller with the PIN shown on the table's screen", {
    "200": json_answer("this phone is now a controller", schema_ref("Session")),
    "400": MALFORMED,
    "403": error_answer("a wrong PIN ('wrong-pin') or no valid CSRF token ('csrf')"),
    "413": CHANGE_ERRORS["413"],
    "429": {**error_answer("too many wrong PINs from this address; see Retry-After"),
            "headers": {"Retry-After": {"schema": {"type": "integer"}}}},
}, changes=True)
@takes(JoinRequest)
def join(body: JoinRequest):
    try:
        right = panel().access.try_pin(request.remote_addr or "unknown", body.pin.strip())
    except access.PinThrottled as exc:
        raise ApiError(429, "too-many-attempts", str(exc),
                       headers={"Retry-After": str(exc.wait)}, retry_after=exc.wait) from None
    if not right:
        raise ApiError(403, "wrong-pin", "that is not the PIN on the table's screen")
    access.make_controller()
    return jsonify(_session_json())


@bp.post("/sign-out")
@operation("sign every phone out: a new PIN and QR code on the table's screen, and every "
           "controller (this phone too) a spectator until it joins again", {
               "200": json_answer("every phone is signed out; this phone's session now",
                            schema_ref("Session")),
               **CHANGE_ERRORS,
               "503": error_answer("the panel's keys could not be saved; nothing changed"),
           }, changes=True)
@controllers_only
def sign_out():
    """Sign every phone out: a new PIN and QR code on the table's screen, and
    every controller (this phone too) a spectator until it joins again."""
    panel().access.sign_out()
    return jsonify(_session_json())


# -- changing the table ---------------------------------------------------------


@bp.post("/new-game")
@operation("start a new game (the current one is kept as abandoned)", table_change(),
           changes=True)
@controllers_only
@takes(NewGameRequest)
def new_game(body: NewGameRequest):
    names, colours = body.players
    table, chosen = panel().table, panel().colours
    update = table.new_game(canonical_key(body.game), names, variants=body.variants,
                            options=body.options, expected_game=body.game_id,
                            expected_version=body.version)
    chosen.choose(update.game_id, colours, names=list(update.players))
    # The phones may have got the new game before its colours were kept:
    # send it again (a phone takes a message of the version it shows).
    panel().live.on_update(update)
    return jsonify(state_json(update, chosen))


@bp.get("/saved-options")
@operation("the setup options kept for every new game of each kind (a described box)",
           {"200": json_answer("per game key, its saved options by name",
                         {"type": "object", "additionalProperties": {"type": "object"}})})
def saved_options():
    table = panel().table
    return jsonify({cls.key: table.saved_options(cls.key) for cls in available()
                    if getattr(cls, "options", None)})


@bp.post("/saved-options")
@operation("keep a setup option for every new game of a kind (null forgets it); the game "
           "being played keeps its own", {
               "200": json_answer("per game key, its saved options by name",
                            {"type": "object", "additionalProperties": {"type": "object"}}),
               "400": MALFORMED,
               **CHANGE_ERRORS,
               "422": error_answer("the game has no such option, or refuses the value "
                             "('bad-setup'); nothing was kept"),
               "503": JOURNAL_ERROR,
           }, changes=True)
@controllers_only
@takes(SavedOptionRequest)
def save_option(body: SavedOptionRequest):
    panel().table.save_option(canonical_key(body.game), body.name, body.value)
    return saved_options()


def _seat() -> str | None:
    """The seat of the phone sending a command (``None``: no seat); the
    table checks it inside its lock when it plays turns only from the
    player's own phone."""
    return seats.held(panel().seats)[0]


def _publish_companion() -> dict:
    info = companion_info()
    panel().live.publish("companion", lambda: info)
    return info


@bp.post("/seat")
@operation("say whose phone this is (a player of the game shown) or no one's; a seat "
           "another phone holds passes to this one, and every phone is told who holds "
           "which seat ('seats' of the companion event)", {
               "200": json_answer("this phone's session, with its seat", schema_ref("Session")),
               "400": MALFORMED,
               **CHANGE_ERRORS,
               "409": json_answer("a stale version or another game; nothing changed",
                            schema_ref("Conflict")),
               "422": error_answer("not a player of the game at the table ('not-a-player'); "
                             "nothing changed"),
           }, changes=True)
@controllers_only
@takes(SeatRequest)
def seat(body: SeatRequest):
    _check_made_against(body.game_id, body.version)
    name = body.player
    if name is not None:
        players = panel().table.current().players
        found = next((p for p in players if p.casefold() == " ".join(name.split()).casefold()),
                     None)
        if found is None:
            raise ApiError(422, "not-a-player", f"{name!r} is not a player of this game; "
                                                f"the players are: {', '.join(players)}")
        name = found
    taken = seats.take(panel().seats, name)
    _publish_companion()
    return jsonify({**_session_json(), "taken": taken})


@bp.get("/settings")
@operation("the table's settings: its language (the table's screen and every phone "
           "without a language of its own follow it) and whether a seat's turn is "
           "playable only from that seat's phone",
           {"200": json_answer("the settings", schema_ref("Settings"))})
def settings():
    return jsonify(panel().settings_json())


@bp.post("/settings")
@operation("change the table's settings (those left out stay); kept across restarts",
           {"200": json_answer("the settings now", schema_ref("Settings")),
            "400": MALFORMED,
            **CHANGE_ERRORS,
            "503": JOURNAL_ERROR}, changes=True)
@controllers_only
@takes(SettingsRequest)
def change_settings(body: SettingsRequest):
    changes = {name: value for name, value in (("seat_only", body.seat_only),
                                               ("language", body.language),
                                               ("caller", body.caller),
                                               ("caller_moments", body.caller_moments))
               if value is not UNSET}
    table = panel().table
    try:
        for name, value in changes.items():
            table.change_setting(name, value)
    except BadSetting as exc:
        raise bad_request(str(exc)) from None
    _publish_companion()
    return jsonify(panel().settings_json())


def _command_body() -> CommandRequest:
    """The command a phone sends; a name the current game does not know is
    refused with the game's own commands listed."""
    try:
        return bodies.read(CommandRequest, request.get_data(cache=True))
    except UnknownCommandName as exc:
        table = panel().table
        if not table.has_game:
            raise
        game = table.game
        raise UnknownCommand("refusal.unknown-command", game=game.key, title=game.title,
                             name=exc.name,
                             allowed=Words(command_word(s.name) for s in game.commands)
                             ) from None


@bp.post("/command")
@operation("play one command of the current game", table_change(), changes=True)
@controllers_only
def command():
    body = _command_body()
    update = panel().table.submit(body.command, expected_game=body.game_id,
                                  expected_version=body.version, source="panel",
                                  seat=_seat())
    return jsonify(state_json(update, panel().colours))


command.request_kind = CommandRequest


@bp.post("/preview")
@operation("what a command would do, played on a copy of the game: its events (the "
           "sentences to show before it is confirmed) and the state after it; nothing "
           "is written or sent to the other phones, and it is refused as /api/command "
           "would refuse it", {
               **{k: v for k, v in table_change().items() if k != "503"},
               "200": json_answer("what the command would do", schema_ref("Preview")),
           }, changes=True)
@controllers_only
def preview():
    body = _command_body()
    table = panel().table
    shown = table.preview(body.command, expected_game=body.game_id,
                          expected_version=body.version, seat=_seat())
    return jsonify(preview_json(table.game.key, shown))


preview.request_kind = CommandRequest


@bp.post("/undo")
@operation("take back the last command", table_change(), changes=True)
@controllers_only
@takes(VersionRequest)
def undo(body: VersionRequest):
    update = panel().table.undo(expected_game=body.game_id, expected_version=body.version,
                                source="panel")
    return jsonify(state_json(update, panel().colours))


@bp.post("/redo")
@operation("play again the last command taken back", table_change(), changes=True)
@controllers_only
@takes(VersionRequest)
def redo(body: VersionRequest):
    update = panel().table.redo(expected_game=body.game_id, expected_version=body.version,
                                source="panel")
    return jsonify(state_json(update, panel().colours))


def _dice():
    dice = panel().services.dice
    if dice is None:
        raise ApiError(404, "no-dice", "this companion has no dice source to choose: "
                                       "enter the dice by hand")
    return dice


@bp.post("/dice")
@operation("choose where dice results come from", {
    "200": json_answer("the companion's dice source and faults", schema_ref("Companion")),
    "400": MALFORMED,
    **CHANGE_ERRORS,
    "404": error_answer("this companion has no dice service"),
    "422": error_answer("this companion does not offer that source ('unknown-source')"),
}, changes=True)
@controllers_only
@takes(DiceSourceRequest)
def dice_source(body: DiceSourceRequest):
    dice = _dice()
    if body.source not in dice.sources:
        raise ApiError(422, "unknown-source", f"no dice source '{body.source}' here; the "
                                              f"sources are: {', '.join(dice.sources)}")
    try:
        dice.source = body.source
    except ValueError as exc:
        raise ApiError(422, "unknown-source", str(exc)) from None
    return jsonify(_publish_companion())


@bp.post("/dice/roll")
@operation("roll what the game waits for (OS randomness) and play it", {
    "200": json_answer("the values rolled and the new state", schema_ref("DiceRoll")),
    "400": MALFORMED,
    **CHANGE_ERRORS,
    "403": TURN_REFUSED,
    "404": error_answer("this companion has no dice service"),
    "409": json_answer("a stale version or another game, no game, or another phone's roll on "
                 "its way (error 'rolling')", schema_ref("Conflict")),
    "422": error_answer("the game waits for no roll"),
    "503": table_change()["503"],
}, changes=True)
@controllers_only
@takes(VersionRequest)
def dice_roll(body: VersionRequest):
    dice = _dice()
    game_id, version = body.game_id, body.version
    # The dice service checks the version too, against the table's ROLL
    # button; between phones, one roll at a time, and a tap meanwhile is
    # told to look again, not kept waiting.
    rolling = panel().rolling
    if not rolling.acquire(blocking=False):
        raise ApiError(409, "rolling", "another phone is rolling these dice right now: "
                                       "look at the table again", state=current_state())
    # The answer is the roll's own change (the dice and what they did), as
    # the live stream tells it, not a bare snapshot: whichever of the two
    # reaches the phone first, the phone that rolled says what the roll did.
    table = panel().table
    played: list[Update] = []

    def heard(update: Update) -> None:
        mine = (update.game_id, update.version) == (game_id, version + 1)
        if mine and update.action == "command":
            played.append(update)

    try:
        _check_made_against(game_id, version)
        if not any(e.dice for e in table.current().expected):
            raise NotExpected("refusal.not-waiting", rule="not-waiting")
        unsubscribe = table.subscribe(heard)
        try:
            values = [int(v) for v in dice.roll(expected_version=version, expected_game=game_id,
                                                seat=_seat())]
        finally:
            unsubscribe()
    finally:
        rolling.release()
    state = state_json(played[0], panel().colours) if played else current_state()
    return jsonify({"values": values, "state": state})


@bp.post(f"/keys/<any({', '.join(KEYS)}):key>")
@operation("press a button of the simulated table", {
    "200": json_answer("the key was pressed", schema_ref("Pressed")),
    **CHANGE_ERRORS,
    "404": error_answer("not a simulation"),
}, changes=True)
@controllers_only
def press(key: str):
    press_key = panel().services.press_key
    if press_key is None:
        raise ApiError(404, "no-virtual-table", "the table's buttons can be pressed from "
                                                "a phone only in simulation")
    press_key(key)
    return jsonify({"pressed": key})
