"""``companion venue``: the venue board, on the venue's broker.

    companion venue --broker localhost [--port 8090] [--db board.db]
        [--username board --password-file FILE] [--tls --ca-file FILE]

It subscribes to every table of the venue (``companion/<venue>/#``, or of
every venue), keeps what it hears in its own SQLite journal and serves the
board's page (a TV's and the phones') and the league's files.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

from companion.core.venue import ROOT, topic_level

log = logging.getLogger("companion.venue")

# How long the broker keeps the board's messages while the board is away.
SESSION = 7 * 24 * 3600


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion venue",
                                description="the venue board: every table live, and the "
                                            "league, from the venue's MQTT broker")
    p.add_argument("--broker", required=True, help="the broker's host[:port] (port 1883)")
    p.add_argument("--venue", default="", help="only this venue's tables (default: all)")
    p.add_argument("--username", default="", help="the board's user on the broker")
    p.add_argument("--password-file", type=Path,
                   help="a file holding the board's password (never given on the line)")
    p.add_argument("--tls", action="store_true", help="speak TLS to the broker")
    p.add_argument("--ca-file", default="", help="the CA that signed the broker's certificate")
    p.add_argument("--host", default="0.0.0.0", help="the page's address (default all)")
    p.add_argument("--port", type=int, default=8090, help="the page's port (default 8090)")
    p.add_argument("--db", type=Path, default=Path("venue-board.db"),
                   help="the board's own journal (default ./venue-board.db)")
    p.add_argument("--title", default="", help="the page's title (default: the venue)")
    p.add_argument("--language", choices=("en", "fr", "it"), default="en")
    p.add_argument("--evening-hours", type=float, default=12.0,
                   help="how far back 'tonight' goes in the league (default 12 hours)")
    return p


def broker_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":") if text.count(":") == 1 else (text, "", "")
    if not port:
        return text, 1883
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise SystemExit(f"companion venue: --broker {text!r}: the port is a number 1 to 65535")
    return host, int(port)


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)  # ends the server's loop; its finally closes the rest


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from waitress import create_server

    from drivers.mqtt import Link
    from web.board import create_board_app

    from .board import Board
    from .league import league, to_csv

    host, port = broker_address(args.broker)
    password = None
    if args.password_file:
        password = args.password_file.read_text().strip("\n")
    venue = topic_level(args.venue) if args.venue else "+"
    board = Board(args.db)

    def heard(topic: str, payload: bytes) -> None:
        if not payload and "/result/" in topic:
            board.take_empty_result(topic)
        elif payload:
            board.take(topic, payload)

    link = Link(host, port, client_id=f"companion-venue-board-{venue.strip('+') or 'all'}",
                username=args.username or None, password=password, tls=args.tls,
                ca_file=args.ca_file or None, subscriptions=(f"{ROOT}/{venue}/#",),
                on_message=heard, session_seconds=SESSION)
    link.start()
    app = create_board_app(board, league, to_csv, title=args.title or args.venue or "Venue",
                           evening_hours=args.evening_hours, language=args.language)
    server = create_server(app, host=args.host, port=args.port, threads=24,
                           channel_request_lookahead=1)
    print(f"venue board on http://{args.host}:{server.effective_port}/ "
          f"(broker {host}:{port})", flush=True)
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
        board.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
