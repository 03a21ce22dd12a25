"""``companion venue``: the venue board, on the venue's broker; and the
broker's ACL for the venue's tables.

    companion venue --broker localhost [--port 8090] [--db board.db]
        [--username board --password-file FILE] [--tls --ca-file FILE]
    companion venue acl --venue "Café des Jeux" "Table 1" "Table 2" [--acl FILE]

It subscribes to every table of the venue (``companion/<venue>/#``, or of
every venue), keeps what it hears in its own SQLite journal and serves the
board's page (a TV's and the phones') and the league's files.
"""

from __future__ import annotations

import argparse
import logging
import shlex
import signal
import sys
from pathlib import Path

from companion.core.text import LANGUAGES
from companion.core.venue import ROOT

from .names import topic_level

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
    p.add_argument("--language", choices=LANGUAGES, default="en")
    p.add_argument("--evening-hours", type=float, default=12.0,
                   help="how far back 'tonight' goes in the league (default 12 hours)")
    return p


def acl_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="companion venue acl",
        description="the broker's ACL for a venue's tables (each writes its own topics only; "
                    "the board and Home Assistant read), with its topics made from the names "
                    "exactly as the tables make theirs; and the commands that give each its "
                    "user and password")
    p.add_argument("tables", nargs="+", help="the tables' names, as each table's config or "
                                             "panel says them (\"Table 1\")")
    p.add_argument("--venue", required=True, help="the venue's name (\"Café des Jeux\")")
    p.add_argument("--acl", type=Path, help="write the ACL to this file (default: print it)")
    p.add_argument("--board-user", default="board", help="the board's user (default board)")
    p.add_argument("--no-home-assistant", action="store_true",
                   help="no user for Home Assistant")
    return p


def write_acl(argv: list[str]) -> int:
    from .names import acl, password_lines

    args = acl_parser().parse_args(argv)
    try:
        text = acl(args.venue, args.tables, board=args.board_user,
                   home_assistant=None if args.no_home_assistant else "homeassistant")
    except ValueError as exc:
        raise SystemExit(f"companion venue acl: {exc}") from None
    command = ["companion", "venue", "acl", "--venue", args.venue, *args.tables]
    header = (f"# Who may read and write what on the broker of the venue {args.venue}\n"
              f"# (made by: {shlex.join(command)}).\n\n")
    users = password_lines(args.tables, board=args.board_user)
    if args.acl is None:
        sys.stdout.write(header + text)
        sys.stderr.write("# Then give each its user (mosquitto_passwd asks for the password):\n"
                         + users)
    else:
        args.acl.write_text(header + text)
        print(f"wrote {args.acl}; then give each its user (mosquitto_passwd asks for the "
              f"password):\n{users}", end="")
    return 0


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
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["acl"]:
        return write_acl(argv[1:])
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
        if payload:
            board.take(topic, payload)
        else:  # a result taken back; any other empty message is refused
            board.take_empty_result(topic)

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
