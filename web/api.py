"""The JSON API under ``/api`` that the pages (and any other client) use.

Reading is open to every phone on the network.  Changing the table needs a
controller session and the session's CSRF token in ``X-CSRF-Token``.  Every
change names the version of the state it was made against: a stale one is
refused with 409 and the fresh state, so two phones tapping the same card
apply it once.  ``web/openapi.py`` describes every route here.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import re
from typing import Any, Callable

from flask import Blueprint, Response, current_app, jsonify, request

from companion.core.engine import MAX_NAME, Command
from companion.core.errors import NotExpected
from companion.core.menu import KEYS
from companion.core.games import available, canonical_key

from . import access
from .colours import HEX
from .errors import ApiError, bad_request
from .live import TooManyStreams
from .openapi import DOCUMENT
from .panel import current_state, panel, state_json

bp = Blueprint("api", __name__, url_prefix="/api")


MAX_PLAYERS = 12
MAX_VARIANTS = 16
MAX_WORD = 64
MAX_PIN = 12
PAST_GAMES_SHOWN = 200
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")
# Bodies are a few levels deep (a setup's options are the deepest).
MAX_DEPTH = 16
# Text from a phone goes to the journal, the OLED and every other phone:
# no control characters (tab and line breaks are spaces to the engines) and
# no lone surrogates, which cannot even be stored.
UNSAFE_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# In a name, a direction override would turn the rest of a line around
# wherever the name is shown (a list of players, the history).
DIRECTION_CONTROLS = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


def companion_info(services=None) -> dict:
    """What the phones show besides the game: dice source and hardware faults.

    Pass ``services`` where there is no app context (inside a live stream).
    """
    services = services or panel().services
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
    }


# -- guards -------------------------------------------------------------------


@bp.before_app_request
def guard_state_changes():
    if request.method not in STATE_CHANGING:
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
        return view(*args, **kwargs)

    return guarded


# -- input checks -------------------------------------------------------------


def _body() -> dict:
    try:
        data = json.loads(request.get_data(cache=True) or b"null")
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise bad_request("the body must be a JSON object")
    _check_text(data, 0)
    return data


def _too_deep() -> ApiError:
    return bad_request(f"the body nests deeper than the {MAX_DEPTH} levels allowed")


def _check_text(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _too_deep()
    if isinstance(value, str):
        unsafe = UNSAFE_TEXT.search(value)
        if unsafe:
            raise bad_request(f"text may not hold control characters or lone surrogates, "
                              f"and U+{ord(unsafe.group()):04X} is one")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, depth + 1)
            _check_text(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_text(item, depth + 1)


def _version(data: dict, *, nullable: bool = False) -> int | None:
    if "version" not in data:
        raise bad_request("'version' is required: the version of the state the phone shows")
    value = data["version"]
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        allowed = "a whole number of 0 or more" + (" or null" if nullable else "")
        raise bad_request(f"'version' must be {allowed}, not {value!r}")
    return value


def _word(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_WORD:
        raise bad_request(f"{what} must be text of 1 to {MAX_WORD} characters")
    return value


def _players(value: Any) -> tuple[list[str], list[str | None]]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAYERS:
        raise bad_request(f"'players' must be a list of 1 to {MAX_PLAYERS} players in "
                          "seating order")
    names, colours = [], []
    for seat, player in enumerate(value):
        colour = None
        if isinstance(player, dict):
            colour = player.get("colour")
            player = player.get("name")
            if colour is not None and (not isinstance(colour, str) or not HEX.match(colour)):
                raise bad_request(f"player {seat + 1}'s colour must look like #1d6fd6, "
                                  f"not {colour!r}")
        if not isinstance(player, str):
            raise bad_request(f"player {seat + 1} needs a name")
        name = " ".join(player.split())
        if not 1 <= len(name) <= MAX_NAME:
            raise bad_request(f"player {seat + 1}'s name must be 1 to {MAX_NAME} characters")
        if DIRECTION_CONTROLS.search(name):
            raise bad_request(f"player {seat + 1}'s name may not hold text-direction "
                              "controls (U+202A to U+202E, U+2066 to U+2069)")
        names.append(name)
        colours.append(colour)
    return names, colours


def _check_version(version: int | None) -> None:
    """Refuse a request made against another state than the table's (for
    requests the table does not check itself).  ``None`` means "no game"."""
    table = panel().table
    current = table.version if table.has_game else None
    if version != current:
        seen = "no game" if version is None else f"version {version}"
        now = "no game" if current is None else f"version {current}"
        raise ApiError(409, "stale-version",
                       f"the request was made against {seen}, but the table is at {now}: "
                       "look at the table again and resend if still wanted",
                       state=current_state())


# -- reading ------------------------------------------------------------------


@bp.get("/state")
def state():
    return jsonify(current_state())


@bp.get("/games")
def games():
    return jsonify([cls.describe() for cls in available()])


@bp.get("/text")
def text():
    """The strings of the pages and of every game in the phone's language."""
    lang = request.args.get("lang", "en")
    found = panel().text.get(lang)
    if found is None:
        raise bad_request(f"'lang' must be one of {', '.join(panel().text)}, not {lang!r}")
    return jsonify(found)


@bp.get("/history")
def history():
    table = panel().table
    if not table.has_game:
        return jsonify({"game_id": None, "game": None, "version": 0, "entries": []})
    now = table.current()
    return jsonify({
        "game_id": now.game_id,
        "game": now.game_key,
        "version": now.version,
        "players": list(now.players),
        "can_undo": now.can_undo,
        "can_redo": now.can_redo,
        "undo_text": now.undo_text,
        "entries": [entry.to_json() for entry in table.history()],
    })


@bp.get("/stats")
def stats():
    return jsonify(panel().table.stats())


@bp.get("/past-games")
def past_games():
    played = panel().table.games()
    played.sort(key=lambda g: g["id"], reverse=True)
    return jsonify(played[:PAST_GAMES_SHOWN])


@bp.get("/session")
def session_info():
    return jsonify({"role": access.role(), "csrf": access.csrf_token(),
                    "companion": companion_info()})


@bp.get("/health")
def health():
    table = panel().table
    return jsonify({
        "status": "ok",
        "game": table.game.key if table.has_game else None,
        "version": table.version if table.has_game else 0,
        "streams": panel().live.open_streams,
    })


@bp.get("/openapi.json")
def openapi():
    return jsonify(DOCUMENT)


@bp.get("/screen.png")
def screen():
    screen_png = panel().services.screen_png
    if screen_png is None:
        raise ApiError(404, "no-screen", "this companion has no display to mirror")
    return Response(screen_png(), mimetype="image/png",
                    headers={"Cache-Control": "no-store"})


@bp.get("/events")
def events():
    live, services = panel().live, panel().services
    disconnected = request.environ.get("waitress.client_disconnected", lambda: False)
    last_info = [companion_info(services)]

    def info_if_changed():
        # Runs while the stream is sent, outside the request's app context.
        now = companion_info(services)
        if now == last_info[0]:
            return None
        last_info[0] = now
        return "companion", now

    try:
        feed = live.stream(
            [("update", current_state), ("companion", lambda: last_info[0])],
            extra=info_if_changed,
            disconnected=disconnected,
            phone=_phone_address(),
        )
    except TooManyStreams as exc:
        raise ApiError(503, "too-many-phones", str(exc), headers={"Retry-After": "10"})
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
def join():
    data = _body()
    pin = data.get("pin")
    if not isinstance(pin, str) or not 1 <= len(pin) <= MAX_PIN:
        raise bad_request(f"'pin' must be the digits shown on the table's screen "
                          f"(text of 1 to {MAX_PIN} characters)")
    try:
        right = panel().access.try_pin(request.remote_addr or "unknown", pin.strip())
    except access.PinThrottled as exc:
        raise ApiError(429, "too-many-attempts", str(exc),
                       headers={"Retry-After": str(exc.wait)}, retry_after=exc.wait) from None
    if not right:
        raise ApiError(403, "wrong-pin", "that is not the PIN on the table's screen")
    access.make_controller()
    return jsonify({"role": access.role(), "csrf": access.csrf_token(),
                    "companion": companion_info()})


# -- changing the table ---------------------------------------------------------


@bp.post("/new-game")
@controllers_only
def new_game():
    data = _body()
    known = {cls.key for cls in available()}
    game = _word(data.get("game"), "'game'")
    if canonical_key(game) not in known:
        raise bad_request(f"no game '{game}'; the games are: {', '.join(sorted(known))}")
    names, colours = _players(data.get("players"))
    variants = data.get("variants", [])
    if not isinstance(variants, list) or len(variants) > MAX_VARIANTS:
        raise bad_request(f"'variants' must be a list of at most {MAX_VARIANTS} names")
    variants = [_word(v, "a variant") for v in variants]
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise bad_request("'options' must be a JSON object")
    _check_version(_version(data, nullable=True))
    table, chosen = panel().table, panel().colours
    update = table.new_game(game, names, variants=variants, options=options)
    chosen.choose(update.game_id, colours)
    # The phones may have got the new game before its colours were kept:
    # send it again (a phone takes a message of the version it shows).
    panel().live.on_update(update)
    return jsonify(state_json(update, chosen))


@bp.post("/command")
@controllers_only
def command():
    data = _body()
    version = _version(data)
    raw = data.get("command")
    if not isinstance(raw, dict):
        raise bad_request("'command' must be an object {name, args}")
    name = _word(raw.get("name"), "the command's 'name'")
    args = raw.get("args", {})
    if not isinstance(args, dict):
        raise bad_request("the command's 'args' must be an object")
    update = panel().table.submit(Command(name, args), expected_version=version, source="panel")
    return jsonify(state_json(update, panel().colours))


@bp.post("/undo")
@controllers_only
def undo():
    update = panel().table.undo(expected_version=_version(_body()), source="panel")
    return jsonify(state_json(update, panel().colours))


@bp.post("/redo")
@controllers_only
def redo():
    update = panel().table.redo(expected_version=_version(_body()), source="panel")
    return jsonify(state_json(update, panel().colours))


def _dice():
    dice = panel().services.dice
    if dice is None:
        raise ApiError(404, "no-dice", "this companion has no dice source to choose: "
                                       "enter the dice by hand")
    return dice


@bp.post("/dice")
@controllers_only
def dice_source():
    dice = _dice()
    source = _word(_body().get("source"), "'source'")
    if source not in dice.sources:
        raise bad_request(f"no dice source '{source}'; the sources are: "
                          f"{', '.join(dice.sources)}")
    try:
        dice.source = source
    except ValueError as exc:
        raise bad_request(str(exc)) from None
    info = companion_info()
    panel().live.publish("companion", lambda: info)
    return jsonify(info)


@bp.post("/dice/roll")
@controllers_only
def dice_roll():
    dice = _dice()
    version = _version(_body())
    # The dice service checks the version too, against the table's ROLL
    # button; between phones, one roll at a time, and a tap meanwhile is
    # told to look again, not kept waiting.
    rolling = panel().rolling
    if not rolling.acquire(blocking=False):
        raise ApiError(409, "rolling", "another phone is rolling these dice right now: "
                                       "look at the table again", state=current_state())
    try:
        _check_version(version)
        if not any(e.dice for e in panel().table.current().expected):
            raise NotExpected("the game is not waiting for a roll", rule="not-waiting")
        values = [int(v) for v in dice.roll(expected_version=version)]
    finally:
        rolling.release()
    return jsonify({"values": values, "state": current_state()})


@bp.post(f"/keys/<any({', '.join(KEYS)}):key>")
@controllers_only
def press(key: str):
    press_key = panel().services.press_key
    if press_key is None:
        raise ApiError(404, "no-virtual-table", "the table's buttons can be pressed from "
                                                "a phone only in simulation")
    press_key(key)
    return jsonify({"pressed": key})
