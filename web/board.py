"""The venue board's pages: every table live, and the league.

A page for a TV across the room (1920x1080) that is also a phone's page,
its data as JSON, the league as CSV and JSON files, and a live stream that
says when anything changed.  It only reads: nothing here commands a table.
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Iterator

from flask import Flask, Response, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider

from companion.core.text import LANGUAGES

# The board page's own strings: the panel's catalogs' ``venue-board.*`` keys.
PREFIX = "venue-board."


class _StrictJSON(DefaultJSONProvider):
    """JSON as every browser parses it: a NaN or an infinity is an error
    here (the board refuses them on the way in), never text a page cannot
    read."""

    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)


def board_strings(lang: str) -> dict[str, str]:
    """The board page's strings in ``lang`` (from the panel's catalogs)."""
    from . import _strings

    return {k: v for k, v in _strings(lang).items() if k.startswith(PREFIX)}

# How long a live stream waits for a change before it says it is still there.
KEEPALIVE = 15.0


def create_board_app(board: Any, league: Callable[[list[dict[str, Any]]], dict[str, Any]],
                     to_csv: Callable[[dict[str, Any]], str], *, title: str = "Venue",
                     evening_hours: float = 12.0, language: str = "en",
                     clock: Callable[[], float] = time.time) -> Flask:
    """The board's Flask app over ``board`` (a :class:`companion.venue.board.Board`)."""
    app = Flask(__name__)
    app.json = _StrictJSON(app)
    texts = {lang: board_strings(lang) for lang in LANGUAGES}

    def period() -> tuple[str, float | None]:
        chosen = request.args.get("period", "evening")
        if chosen not in ("evening", "season"):
            chosen = "evening"
        return chosen, clock() - evening_hours * 3600 if chosen == "evening" else None

    def standing() -> dict[str, Any]:
        chosen, since = period()
        return {"period": chosen, **league(board.results(since))}

    @app.get("/")
    def page() -> str:
        lang = request.args.get("lang", language)
        return render_template("board.html", title=title,
                               lang=lang if lang in LANGUAGES else "en")

    @app.get("/api/text")
    def text() -> Response:
        lang = request.args.get("lang", language)
        return jsonify(texts.get(lang, texts["en"]))

    # Every TV and phone reads the tables again at each change: the answer
    # is made once per change (the board's generation) and refusal count.
    made: dict[str, Any] = {}

    @app.get("/api/tables")
    def tables() -> Response:
        key = (board.generation, sum(board.refused.values()))
        if made.get("key") != key:
            answer = jsonify({"title": title, "generation": key[0],
                              "tables": board.tables(), "refused": key[1]})
            made.update(key=key, body=answer.get_data())
        return Response(made["body"], mimetype="application/json")

    @app.get("/api/health")
    def health() -> Response:
        """Messages kept, refused by cause, tables and results."""
        return jsonify(board.health())

    @app.get("/api/league")
    def league_json() -> Response:
        return jsonify(standing())

    @app.get("/api/league.json")
    def league_file() -> Response:
        chosen = request.args.get("period", "evening")
        return Response(json.dumps(standing(), ensure_ascii=False, indent=1, allow_nan=False),
                        mimetype="application/json", headers={
                            "Content-Disposition": f'attachment; filename="league-{chosen}.json"'})

    @app.get("/api/league.csv")
    def league_csv() -> Response:
        chosen = request.args.get("period", "evening")
        return Response(to_csv(standing()), mimetype="text/csv", headers={
            "Content-Disposition": f'attachment; filename="league-{chosen}.csv"'})

    @app.get("/api/stream")
    def stream() -> Response:
        def changes() -> Iterator[str]:
            seen = -1
            yield "retry: 2000\n\n"
            while True:
                now = board.wait(seen, KEEPALIVE)
                if now == seen:
                    yield ": still here\n\n"
                    continue
                seen = now
                yield f"event: change\ndata: {now}\n\n"

        return Response(changes(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return app

