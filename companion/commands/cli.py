"""``companion``: play and inspect games from a terminal, and start the daemon.

    companion new call-of-nature Ana Ben Cy --variant no-end-roll
    companion play card +5
    companion play roll 4
    companion undo
    companion state --json
    companion sign-out
    companion --version

Every command goes through the same table as the buttons and the panel, and
the journal is the same file, so a game started here shows on the table.
Without ``--db`` the journal is the running companion's (found as
:mod:`companion.commands.running` says), else the user's own.  While a companion
runs, reading (``state``, ``history``...) reads its journal as it is, and a
change is refused: it is made on the panel.  Bad input prints one line and
exits with status 2.

What it prints for people is in the table's language (the one chosen on the
panel's setup page, else the configured one): events, the state, prompts,
refusals, dates.  ``--json`` keeps the machine's keys, with its messages in
that language.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from companion.core.errors import CompanionError, IllegalCommand, StaleVersion
from companion.core.text import event_sentence, phrase, result_sentence, say

if TYPE_CHECKING:
    from companion.core.table import Table, Update

EXIT_BAD_INPUT = 2
EXIT_ERROR = 1
# A reader that went away (``companion history | head -1``), as the shell says SIGPIPE.
EXIT_CLOSED_PIPE = 128 + 13
JSON_HELP = "print JSON for scripts (before or after the command)"


def default_db() -> Path:
    """Where the journal lives: ``$COMPANION_DB``, else the user's data
    directory (``~/.local/share/companion/companion.db`` on Linux)."""
    if os.environ.get("COMPANION_DB"):
        return Path(os.environ["COMPANION_DB"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "companion" / "companion.db"


class _PrintVersion(argparse.Action):
    """``--version``: the version is looked up only when asked for (a
    lookup on every start would slow ``companion serve`` on a Pi Zero)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from companion.host.version import program_version

        print(f"{parser.prog} {program_version()}")
        parser.exit()


def _add_new(sub: Any) -> None:
    new = sub.add_parser("new", help="start a new game")
    new.add_argument("game", help="call-of-nature, ohshit or bathroom-rush")
    new.add_argument("players", nargs="+", help="player names in seating order, first player first")
    new.add_argument("--variant", action="append", default=[], metavar="NAME",
                     help="a variant (repeat for several); see 'companion games-list'")
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a setup option; VALUE is read as JSON when it can be")


def _add_play(sub: Any) -> None:
    play = sub.add_parser("play", help="play a command written as words, e.g. 'card +5'")
    play.add_argument("words", nargs=argparse.REMAINDER, help="the command and its arguments")
    play.add_argument("--step", "--version", dest="expected_version", type=int, default=None,
                      metavar="N", help="refuse the command unless the game is at this step "
                                        "(the step 'companion state' shows)")


def _add_history(sub: Any) -> None:
    history = sub.add_parser("history", help="show the current game's history, or a past one's")
    history.add_argument("--game", type=int, default=None, metavar="ID",
                         help="a past game, by the id 'companion games' shows")


def _add_serve(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run the companion: table, buttons, display and panel")
    serve.add_argument("--config", type=Path, default=None,
                       help="TOML config file (default /etc/companion/config.toml)")
    serve.add_argument("--simulate", action="store_true",
                       help="no Pi needed: mock pins, a simulated dice device, "
                            "the display in the panel")
    serve.add_argument("--host", default=None, help="address to listen on (overrides the config)")
    serve.add_argument("--port", type=int, default=None,
                       help="port to listen on (overrides the config)")


def _add_sign_out(sub: Any) -> None:
    sign_out = sub.add_parser(
        "sign-out", help="sign every phone out of the panel: a new PIN and QR code, and "
                         "phones watch until they join again (works while the companion runs)")
    sign_out.add_argument("--config", type=Path, default=None,
                          help="TOML config file, for its data_dir (default "
                               "/etc/companion/config.toml)")
    sign_out.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                          help="the companion's data directory (default: the folder of --db "
                               "or $COMPANION_DB when given, else the running companion's)")


def _add_doctor(sub: Any) -> None:
    doctor = sub.add_parser("doctor", help="check the Pi's set-up and say how to fix what is wrong")
    doctor.add_argument("--config", type=Path, default=None, help="TOML config file")


def _add_wiring(sub: Any) -> None:
    wiring = sub.add_parser(
        "wiring", help="draw the wiring of the config: the Pi's header with each pin's role")
    wiring.add_argument("--config", type=Path, default=None,
                        help="TOML config file (default /etc/companion/config.toml, else "
                             "the built-in defaults)")
    wiring.add_argument("--output", type=Path, default=None, metavar="FILE",
                        help="write the drawing there: FILE.svg or FILE.png (default: the "
                             "SVG on standard output)")


def _plain(name: str, help: str) -> Callable[[Any], None]:
    return lambda sub: sub.add_parser(name, help=help)


# Each command's part of the command line, in the order --help lists them.
COMMANDS: dict[str, Callable[[Any], None]] = {
    "new": _add_new,
    "play": _add_play,
    "undo": _plain("undo", "take back the last command"),
    "redo": _plain("redo", "play again the last command taken back"),
    "state": _plain("state", "show the current game"),
    "commands": _plain("commands", "list the current game's commands"),
    "history": _add_history,
    "games": _plain("games", "list past and current games"),
    "stats": _plain("stats", "wins per player and games played"),
    "games-list": _plain("games-list", "list the games the companion knows, with their variants"),
    "serve": _add_serve,
    "sign-out": _add_sign_out,
    "doctor": _add_doctor,
    "wiring": _add_wiring,
    "venue": _plain("venue", "the venue board: every table live and the league, from the "
                             "venue's MQTT broker (companion venue --help)"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``command``, only that command's part of it
    (a line that starts with the command needs no other: argparse builds
    every command's parser, and on a Pi Zero the fourteen of them are a
    few hundredths of a second of ``companion serve``'s start)."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The Tabletop Companion: keeps the public state of the game at the table.",
    )
    parser.add_argument("--version", action=_PrintVersion, nargs=0,
                        help="print the program's version and exit")
    parser.add_argument("--db", type=Path, default=None,
                        help="journal file (default: $COMPANION_DB, else the running "
                             "companion's, else the user's data directory)")
    parser.add_argument("--json", action="store_true", help=JSON_HELP)
    sub = parser.add_subparsers(dest="action", metavar="COMMAND", required=True)
    for name, add in COMMANDS.items():
        if command is None or name == command:
            add(sub)
    # --json after the command too (``companion state --json``); SUPPRESS keeps
    # the one given before the command when it is not repeated after.
    for name, each in sub.choices.items():
        if name not in ("serve", "doctor"):
            each.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                              help=JSON_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:
        # The reader went away: say nothing more, and let the exit's own
        # flush write to nowhere instead of printing a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLOSED_PIPE
    return code


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["venue"]:  # a program of its own, with its own options
        from companion.venue.cli import main as venue

        return venue(words[1:])
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(words)
    if args.action == "play":
        _flags_after_the_words(args, parser)
    if args.action in ("serve", "doctor"):
        if args.action == "serve":
            # The start builds what lives as long as the process (modules,
            # the panel's app) and frees little: the collector walking it
            # again and again would cost a tenth of the start's CPU, which a
            # Pi Zero's core feels.  The daemon turns it back on once started.
            gc.disable()
        try:
            # The daemon wires drivers and web around the core; imported
            # only here so that the CLI stays light.
            from companion import daemon

            return daemon.main(args)
        finally:
            gc.enable()  # whatever ended the start (a bad config...)
    out = _Output(args.json)
    try:
        return _run(args, out)
    except (IllegalCommand, StaleVersion, ValueError, LookupError) as exc:
        return out.error(exc, EXIT_BAD_INPUT)
    except CompanionError as exc:
        return out.error(exc, EXIT_ERROR)


def _flags_after_the_words(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """The words of ``play`` run to the end of the line: a trailing
    ``--json`` or ``--step N`` is the flag, not a word."""
    words: list[str] = []
    rest = list(args.words)
    while rest:
        word = rest.pop(0)
        name, _, value = word.partition("=")
        if word == "--json":
            args.json = True
        elif name in ("--step", "--version"):
            if not value:
                value = rest.pop(0) if rest else ""
            try:
                args.expected_version = int(value)
            except ValueError:
                parser.error(f"--step takes a number (the step 'companion state' shows), "
                             f"not {value!r}")
        else:
            words.append(word)
    args.words = words


def _run(args: argparse.Namespace, out: _Output) -> int:
    from companion.core.errors import JournalInUse
    from companion.core.games import available
    from companion.core.journal import Journal
    from companion.core.table import Table

    if args.action == "games-list":
        out.games_list([cls.describe() for cls in available()])
        return 0
    if args.action == "sign-out":
        return _sign_out(args, out)
    if args.action == "wiring":
        return _wiring(args, out)
    path = _journal_path(args)
    try:
        table = Table(Journal.open(path))
    except JournalInUse:
        if args.action not in READING:
            raise JournalInUse(
                f"the companion is running with this journal ({path}): play from its panel "
                f"or its buttons, or stop it first; reading ('companion state', "
                f"'companion history') works while it runs") from None
        table = Table(Journal.open_read_only(path))
    out.lang = table.settings().language or _configured_language()
    try:
        _act(args, table, out)
        return 0
    finally:
        table.close()


def _act(args: argparse.Namespace, table: Table, out: _Output) -> None:
    """What a command of the journal does at ``table``."""
    if args.action == "new":
        update = table.new_game(args.game, args.players, args.variant,
                                _options(args.option))
        out.update(update)
    elif args.action == "play":
        if not args.words:
            raise IllegalCommand("no command given; see 'companion commands'",
                                 rule="unknown-command")
        out.update(table.submit_words(args.words, expected_version=args.expected_version,
                                      source="cli"))
    elif args.action == "undo":
        taking_back = _taking_back(table.current(), out.lang) if table.has_game else None
        out.update(table.undo(source="cli"), took_back=taking_back)
    elif args.action == "redo":
        out.update(table.redo(source="cli"))
    elif args.action == "state":
        out.update(table.current())
    elif args.action == "commands":
        out.commands(table.game.describe())
    elif args.action == "history":
        _history(args, table, out)
    elif args.action == "games":
        out.games(table.games())
    elif args.action == "stats":
        out.stats(table.stats())


def _history(args: argparse.Namespace, table: Table, out: _Output) -> None:
    """A game's history (the current one, else ``--game``), in the table's
    language with its players' names."""
    entries = table.history(args.game)
    game: str | None = None
    players: tuple[str, ...] = ()
    if args.game is None:
        game, players = table.game.key, tuple(table.game.players)
    else:
        past = next((g for g in table.games() if g["id"] == args.game), {})
        game, players = past.get("game"), tuple(past.get("players", ()))
    out.history(entries, game, players)


# The commands that only read the journal: they may read it while a companion runs.
READING = ("state", "commands", "history", "games", "stats")


def _configured_language() -> str:
    """The configured language, for a table that has not chosen its own."""
    from companion.host import config as config_module

    try:
        return config_module.load(None).language
    except Exception:
        return "en"


def _journal_path(args: argparse.Namespace) -> Path:
    """The journal a command uses: ``--db``; else ``$COMPANION_DB``; else the
    running companion's; else the user's own."""
    if args.db is not None or os.environ.get("COMPANION_DB"):
        return Path(args.db or default_db()).expanduser()
    from companion.commands import running

    found = running.places(_config_or_none(None))
    live = running.running(found)
    if len(live) == 1:
        return live[0].journal
    if not live:
        # None runs: the journal of the one that ran, where serve would look first.
        for place in found:
            if place.status == running.CLOSED:
                print(f"companion: {place.who}'s data in {place.directory} cannot be read by "
                      f"this user; this is your own journal ('sudo companion {args.action}' "
                      f"uses the service's)", file=sys.stderr)
                break
            if place.status == running.STOPPED and place.journal.exists():
                return place.journal
    return default_db()


def _config_or_none(path: Path | None) -> Any:
    """The config, for its data_dir; a default config file that cannot be
    read is no reason to refuse a look at the journal."""
    from companion.host import config as config_module

    try:
        return config_module.load(path)
    except (config_module.ConfigError, OSError):
        if path is not None:
            raise
        return None


def _sign_out(args: argparse.Namespace, out: _Output) -> int:
    """Sign every phone out through the panel's keys in the data directory
    of the companion that runs (else of the one that ran): the running
    service reads them at its next request."""
    import sqlite3

    from companion.core.access import AccessStore
    from companion.core.errors import JournalError
    from companion.host.storage import ACCESS_FILE

    directory, who, live = _sign_out_where(args)
    path = directory / ACCESS_FILE
    try:
        store = AccessStore(path)
        try:
            keys = store.sign_out()
        finally:
            store.close()
    except (sqlite3.Error, OSError, JournalError) as exc:
        raise JournalError(f"cannot sign the phones out in {directory} ({exc}); run it as "
                           f"the companion's user, e.g. with sudo") from None
    if out.as_json:
        out._json({"signed_out": True, "data_dir": str(directory), "running": live,
                   "pin": keys.pin})
        return 0
    if live:
        print(f"Signed out every phone of the running companion ({who}, data in "
              f"{directory}).")
    else:
        print(f"No companion is running: signed out every phone of {who} (data in "
              f"{directory}); they are spectators when it starts.")
    print(f"Phones watch until they join again, by the new QR code on the table's screen "
          f"or the new PIN {keys.pin}.")
    return 0


def _wiring(args: argparse.Namespace, out: _Output) -> int:
    """The config's wiring: its connections as JSON, or the drawing."""
    from companion.commands import wiring
    from companion.host import config as config_module

    config = config_module.load(args.config)
    if out.as_json:
        out._json({"wires": [w.as_json() for w in wiring.wires(config)],
                   "notes": list(wiring.diagram(config).notes)})
        return 0
    if args.output is None:
        sys.stdout.write(wiring.svg(config))
        return 0
    kind = args.output.suffix.lower()
    if kind not in (".svg", ".png"):
        raise ValueError(f"--output must end in .svg or .png, not {args.output.name!r}")
    drawing = wiring.png(config) if kind == ".png" else wiring.svg(config).encode()
    args.output.write_bytes(drawing)
    source = args.config or (config_module.DEFAULT_PATH if config_module.DEFAULT_PATH.exists()
                             else "the built-in defaults")
    print(f"The wiring of {source} is in {args.output}: "
          f"{len(wiring.wires(config))} wires, in the order of their steps.")
    return 0


def _sign_out_where(args: argparse.Namespace) -> tuple[Path, str, bool]:
    """The data directory to sign out, who uses it, and whether it runs:
    ``--data-dir``; else the folder of ``--db`` or ``$COMPANION_DB``; else
    the running companion's, found where ``serve`` keeps its data; else the
    first of those places that holds a companion's data."""
    from companion.commands import running
    from companion.core.errors import JournalError

    if args.data_dir is not None or args.db is not None or os.environ.get("COMPANION_DB"):
        directory = (args.data_dir.expanduser() if args.data_dir is not None
                     else (args.db or default_db()).expanduser().parent)
        if not directory.is_dir():
            raise JournalError(f"there is no data directory {directory}: name the "
                               f"companion's with --data-dir")
        place = running.Place(directory, "the companion", running.status(directory))
        return directory, place.who, place.status == running.RUNNING
    found = running.places(_config_or_none(args.config))
    live = running.running(found)
    if len(live) > 1:
        raise JournalError(
            "more than one companion is running (" + "; ".join(p.describe() for p in live)
            + "): name one with --data-dir")
    if live:
        return live[0].directory, live[0].who, True
    for place in found:
        if place.status == running.CLOSED:
            raise JournalError(
                f"cannot tell whether {place.who} runs: this user may not read "
                f"{place.directory}; run 'sudo companion sign-out'")
        if place.status == running.STOPPED and place.has_data:
            return place.directory, place.who, False
    looked = ", ".join(str(place.directory) for place in found)
    raise JournalError(f"no companion is running, and none has kept its data here yet "
                       f"(looked in {looked}); start it, or name its data directory "
                       f"with --data-dir")


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise IllegalCommand(f"an option is KEY=VALUE, not {pair!r}", rule="bad-option")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return options


class _Output:
    """Prints for people, or JSON for scripts."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.lang = "en"

    def _t(self, key: str, **fields: Any) -> str:
        return say(key, self.lang, **fields)

    def _title(self, game: str) -> str:
        """A game's printed name (its key if it is not installed)."""
        return say("title", self.lang, game=game, default=game)

    def _when(self, at: float) -> str:
        from companion.language.cldr import date_text

        return date_text(self.lang, at)

    def _json(self, value: Any) -> None:
        print(json.dumps(value, indent=2, ensure_ascii=False))

    def error(self, exc: Exception, code: int) -> int:
        from companion.core.errors import Refusal

        rule = getattr(exc, "rule", type(exc).__name__)
        message = exc.say(self.lang) if isinstance(exc, Refusal) else str(exc)
        if self.as_json:
            print(json.dumps({"error": rule, "message": message}, ensure_ascii=False))
        else:
            print(f"companion: {message}", file=sys.stderr)
        return code

    def update(self, update: Update, took_back: str | None = None) -> None:
        if self.as_json:
            self._json(update.to_json())
            return
        from companion.language.state_text import events_said

        if took_back:
            print("  " + self._t("cli.took-back", what=took_back))
        for event in events_said(update.events):
            print(("! " if event.alert else "  ")
                  + event_said(event, self.lang, update.game_key, update.players))
        print(render_state(update, self.lang))

    def commands(self, described: dict) -> None:
        if self.as_json:
            self._json(described)
            return
        print(f"{described['title']} commands:")
        for command in described["commands"]:
            params = " ".join(
                f"[{p['name']}]" if p["optional"] else f"<{p['name']}>" for p in command["params"]
            )
            kind = " (correction)" if command["correction"] else ""
            print(f"  {command['name']} {params}{kind}  {command['help']}")

    def history(self, entries, game: str | None = None, players: Sequence[str] = ()) -> None:
        if self.as_json:
            self._json([e.to_json() for e in entries])
            return
        if not entries:
            print(self._t("cli.nothing-played"))
        for e in entries:
            # What happened, as people say it, with its date and time (CLDR's).
            print(f"{self._when(e.at)}  {_entry_said(e, self.lang, game, players)}")

    def games(self, games: list[dict]) -> None:
        if self.as_json:
            self._json(games)
            return
        if not games:
            print(self._t("cli.no-games"))
        for g in games:
            when = self._when(g["started"])
            if g["result"]:
                outcome = result_sentence(g["result"], self.lang, g["game"], g["players"])
            else:
                outcome = self._t(f"cli.status.{g['status']}", default=g["status"])
            title = self._title(g["game"])
            print(f"#{g['id']:<4} {when}  {title:<15} {', '.join(g['players'])}: {outcome}")

    def stats(self, stats: dict) -> None:
        if self.as_json:
            self._json(stats)
            return
        t = self._t
        print(t("cli.games-played", n=stats["games_played"]))
        for key, count in sorted(stats["by_game"].items()):
            print(f"  {self._title(key)}: {count}")
        ranked = sorted(stats["players"].items(), key=lambda kv: (-kv[1]["won"], kv[0]))
        for name, s in ranked:
            print(f"  {name:<24} " + t("cli.won-of", won=s["won"], played=s["played"]))
        for key, game in stats.get("games", {}).items():
            print(t("cli.game-games", title=self._title(key), n=game["games"]))
            for p in game["players"]:
                print(f"  {p['name']:<24} " + t("cli.player-stats", **p))
            record = game["record"]
            if record:
                kind = say("record", self.lang, game=key,
                           default=record["kind"].replace("-", " "))
                print("  " + t("cli.record", kind=kind,
                               value=record["value"], player=record["player"],
                               number=record["game_id"]))
            for pair in game["head_to_head"]:
                print("  " + t("cli.head-to-head", **pair))

    def games_list(self, described: list[dict]) -> None:
        if self.as_json:
            self._json(described)
            return
        for d in described:
            print(f"{d['key']}: {d['title']}, {d['min_players']}-{d['max_players']} players")
            for name, text in d["variants"].items():
                print(f"    --variant {name}  {text}")


def render_state(update: Update, lang: str = "en") -> str:
    """The state as a person reads it, in ``lang``: see :mod:`companion.language.state_text`."""
    from companion.language.state_text import render

    return render(update, lang)


def _taking_back(current: Update, lang: str) -> str | None:
    """What undo takes back, in ``lang``."""
    if lang == "en" or not current.undo_events:
        return current.undo_text
    return " · ".join(event_said(e, lang, current.game_key, current.players)
                      for e in current.undo_events)


def event_said(event: Any, lang: str, game: str | None, players: Sequence[str]) -> str:
    """An event in ``lang``: the game's own telling where it has one, else
    from its kind and data (:func:`companion.core.text.event_sentence`)."""
    if lang == "en" or game is None:
        return str(event.message)
    from companion.core.games import game_class

    try:
        tell = getattr(game_class(game), "event_text", None)
    except CompanionError:
        tell = None
    if callable(tell):
        return str(tell(event, lang))
    return event_sentence(event.kind, event.message, event.data, lang, game, players)


def command_label(command: Any, lang: str, game: str | None) -> str | None:
    """A command that made no event, by its label in ``lang``."""
    if command is None:
        return None
    return phrase(f"command.{command.name}", lang, game)


def _entry_said(entry: Any, lang: str = "en", game: str | None = None,
                players: Sequence[str] = ()) -> str:
    """A history entry as people say it, each thing once, in ``lang``."""
    from companion.core.text import say
    from companion.core.updates import change_text
    from companion.language.state_text import events_said

    if lang == "en":
        if entry.action == "undo":
            return f"Undone: {change_text(events_said(entry.undid), entry.command)}"
        if entry.action == "redo":
            return f"Redone: {change_text(events_said(entry.events), entry.command)}"
        return change_text(events_said(entry.events), entry.command)
    events = events_said(entry.undid if entry.action == "undo" else entry.events)
    told = " · ".join(event_said(e, lang, game, players) for e in events) \
        or command_label(entry.command, lang, game) or change_text(events, entry.command)
    if entry.action == "undo":
        return say("cli.undone", lang, what=told)
    if entry.action == "redo":
        return say("cli.redone", lang, what=told)
    return told


if __name__ == "__main__":
    sys.exit(main())
