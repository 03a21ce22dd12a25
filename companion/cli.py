"""``companion``: play and inspect games from a terminal, and start the daemon.

    companion new call-of-nature Ana Ben Cy --variant no-end-roll
    companion play card +5
    companion play roll 4
    companion undo
    companion state --json
    companion sign-out

Every command goes through the same table as the buttons and the panel, and
the journal is the same file, so a game started here shows on the table.
Bad input prints one line and exits with status 2.

What it prints for people is in the table's language (the one chosen on the
panel's setup page, else the configured one): events, prompts, refusals,
dates.  ``--json`` keeps the machine's keys, with messages in that language.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .core.errors import CompanionError, IllegalCommand, StaleVersion
from .core.text import event_sentence

if TYPE_CHECKING:
    from .core.table import Update

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
    play.add_argument("--version", dest="expected_version", type=int, default=None,
                      help="refuse the command unless the table is at this version")


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
                               "or $COMPANION_DB when given, else the one the service uses)")


def _add_doctor(sub: Any) -> None:
    doctor = sub.add_parser("doctor", help="check the Pi's set-up and say how to fix what is wrong")
    doctor.add_argument("--config", type=Path, default=None, help="TOML config file")


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
    parser.add_argument("--db", type=Path, default=None,
                        help="journal file (default: $COMPANION_DB or the user's data directory)")
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
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(words)
    if args.action == "play" and "--json" in args.words:
        # The words run to the end of the line: a trailing --json is the flag.
        args.words = [word for word in args.words if word != "--json"]
        args.json = True
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
            from . import daemon

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


def _run(args: argparse.Namespace, out: _Output) -> int:
    from .core.games import available
    from .core.journal import Journal
    from .core.table import Table

    if args.action == "games-list":
        out.games_list([cls.describe() for cls in available()])
        return 0
    if args.action == "sign-out":
        return _sign_out(args, out)
    table = Table(Journal.open(args.db or default_db()))
    out.lang = table.settings().language or _configured_language()
    try:
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
            out.update(table.undo(source="cli"))
        elif args.action == "redo":
            out.update(table.redo(source="cli"))
        elif args.action == "state":
            out.update(table.current())
        elif args.action == "commands":
            out.commands(table.game.describe())
        elif args.action == "history":
            entries = table.history(args.game)
            game: str | None = None
            players: tuple[str, ...] = ()
            if args.game is None:
                game, players = table.game.key, tuple(table.game.players)
            else:
                past = next((g for g in table.games() if g["id"] == args.game), {})
                game, players = past.get("game"), tuple(past.get("players", ()))
            out.history(entries, game, players)
        elif args.action == "games":
            out.games(table.games())
        elif args.action == "stats":
            out.stats(table.stats())
        return 0
    finally:
        table.close()


def _sign_out(args: argparse.Namespace, out: _Output) -> int:
    """Sign every phone out through the panel's keys in the data directory:
    the running service reads them at its next request."""
    import sqlite3

    from .core.access import AccessStore
    from .core.errors import JournalError
    from .storage import ACCESS_FILE

    directory = _data_dir(args)
    if not directory.is_dir():
        raise JournalError(f"there is no data directory {directory}: name the companion's "
                           f"with --data-dir")
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
        out._json({"signed_out": True, "data_dir": str(directory), "pin": keys.pin})
    else:
        print(f"Every phone is signed out: phones watch until they join again, by the new "
              f"QR code on the table's screen or the new PIN {keys.pin}.")
    return 0


def _data_dir(args: argparse.Namespace) -> Path:
    """Where the service keeps its data: ``--data-dir``; else the folder of
    the journal named by ``--db`` or ``$COMPANION_DB``; else the config's
    data directory, the way the service finds it."""
    if args.data_dir is not None:
        return args.data_dir.expanduser()
    if args.db is not None or os.environ.get("COMPANION_DB"):
        return (args.db or default_db()).expanduser().parent
    from . import config as config_module
    from .storage import ACCESS_FILE, data_dir

    config = config_module.load(args.config)
    service = config_module.SERVICE_DATA_DIR
    if config.data_dir is None and not os.environ.get("STATE_DIRECTORY") \
            and (service / ACCESS_FILE).exists():
        # The service's own, even when this user may not write it: the
        # error then says to run it as the service's user.
        return service
    return data_dir(config, simulate=False)


def _configured_language() -> str:
    """The configured language, for a table that has not chosen its own."""
    from . import config as config_module

    try:
        return config_module.load(None).language
    except Exception:
        return "en"


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
        from .core.text import say

        return say(key, self.lang, **fields)

    def _when(self, at: float, *, with_time: bool = True) -> str:
        from .cldr import date_text

        return date_text(self.lang, at, with_time=with_time)

    def _json(self, value: Any) -> None:
        print(json.dumps(value, indent=2, ensure_ascii=False))

    def error(self, exc: Exception, code: int) -> int:
        from .core.errors import Refusal

        rule = getattr(exc, "rule", type(exc).__name__)
        message = exc.say(self.lang) if isinstance(exc, Refusal) else str(exc)
        if self.as_json:
            print(json.dumps({"error": rule, "message": message}, ensure_ascii=False))
        else:
            print(f"companion: {message}", file=sys.stderr)
        return code

    def update(self, update: Update) -> None:
        if self.as_json:
            self._json(update.to_json())
            return
        for event in update.events:
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
            # What happened, as people say it, with its date and time.
            print(f"{self._when(e.at)}  {self._entry_said(e, game, players)}")

    def _entry_said(self, entry: Any, game: str | None, players: Sequence[str]) -> str:
        """A history entry in the table's language (English: as kept)."""
        if self.lang == "en":
            return str(entry.said)
        from .core.table import Action

        events = entry.undid if entry.action == Action.UNDO else entry.events
        said = " · ".join(event_said(e, self.lang, game, players) for e in events) \
            or str(entry.said)
        if entry.action == Action.UNDO:
            return self._t("cli.undone", what=said)
        if entry.action == Action.REDO:
            return self._t("cli.redone", what=said)
        return said

    def games(self, games: list[dict]) -> None:
        if self.as_json:
            self._json(games)
            return
        if not games:
            print(self._t("cli.no-games"))
        for g in games:
            when = self._when(g["started"])
            outcome = (g["result"] or {}).get("message") or self._t(
                f"cli.status.{g['status']}", default=g["status"])
            if self.lang != "en" and g["result"]:
                outcome = event_sentence("game-over", outcome, g["result"], self.lang,
                                         g["game"], g["players"])
            print(f"#{g['id']:<4} {when}  {g['game']:<15} {', '.join(g['players'])}: {outcome}")

    def stats(self, stats: dict) -> None:
        if self.as_json:
            self._json(stats)
            return
        t = self._t
        print(t("cli.games-played", n=stats["games_played"]))
        for key, count in sorted(stats["by_game"].items()):
            print(f"  {key}: {count}")
        ranked = sorted(stats["players"].items(), key=lambda kv: (-kv[1]["won"], kv[0]))
        for name, s in ranked:
            print(f"  {name:<24} " + t("cli.won-of", won=s["won"], played=s["played"]))
        for key, game in stats.get("games", {}).items():
            print(t("cli.game-games", title=key, n=game["games"]))
            for p in game["players"]:
                print(f"  {p['name']:<24} " + t("cli.player-stats", **p))
            record = game["record"]
            if record:
                print("  " + t("cli.record", kind=record["kind"].replace("-", " "),
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


# State fields that hold a seat, said as a sentence with the player's name
# (the keys of their sentences in every language: ``cli.<field>``).
SEAT_SENTENCES = {
    "active": "{name}'s turn",
    "first_player": "{name} plays first",
    "tie_break": "tie-break for {name}",
    "winner": "{name} wins",
}
# Fields that hold seats, said with the players' names.
SEATS_SENTENCES = {"winners": "winners: {names}"}


def event_said(event: Any, lang: str, game: str | None, players: Sequence[str]) -> str:
    """An event in ``lang``: the game's own telling where it has one, else
    from its kind and data (:func:`companion.core.text.event_sentence`)."""
    if lang == "en" or game is None:
        return str(event.message)
    from .core.games import game_class

    try:
        tell = getattr(game_class(game), "event_text", None)
    except CompanionError:
        tell = None
    if callable(tell):
        return str(tell(event, lang))
    return event_sentence(event.kind, event.message, event.data, lang, game, players)
# Fields the other lines already say: who won is the result's, a phase its name's.
_SAID_ELSEWHERE = {"over", "result", "seat", "name"}


def render_state(update: Update, lang: str = "en") -> str:
    """The state as sentences, for any game: whose turn and who won by
    name, the game's figures with their labels (a game may word them in its
    text as ``state.<field>``), each player's, and what the game waits
    for."""
    from .core.text import phrase, say

    names = tuple(update.players)

    def label(field: str) -> str:
        return say(f"state.{field}", lang, game=update.game_key,
                   default=field.replace("_", " "))

    def value_of(field: str, value: Any) -> Any:
        """A value that is a word (a phase, a direction) in ``lang``."""
        if not isinstance(value, str):
            return value
        for key in (f"state.{field}.{value}", f"choice.{value}", f"card.{value}"):
            found = phrase(key, lang, update.game_key)
            if found is not None:
                return found
        return value

    def seat_sentence(field: str, **fields: Any) -> str:
        english = {**SEAT_SENTENCES, **SEATS_SENTENCES}[field]
        return say(f"cli.{field}", lang, default=english.format(**fields), **fields)

    def facts(values: dict[str, Any]) -> tuple[list[str], list[str]]:
        said: list[str] = []
        figures: list[str] = []
        for field, value in values.items():
            if (field in _SAID_ELSEWHERE or f"{field}_name" in values
                    or value is None or value == "" or value is False):
                continue
            if field in SEAT_SENTENCES and _is_seat(value, names):
                if not (update.over and field in ("active", "winner")):
                    said.append(seat_sentence(field, name=names[value]))
            elif field in SEATS_SENTENCES and isinstance(value, list):
                if value and not update.over and all(_is_seat(v, names) for v in value):
                    said.append(seat_sentence(field, names=", ".join(names[v] for v in value)))
            elif field == "message" and isinstance(value, str):
                said.append(value)
            elif value is True:
                figures.append(label(field))
            elif isinstance(value, (int, float, str)):
                # A phase's name says it better than its code: "phase Choose queues".
                named = field[:-len("_name")] if field.endswith("_name") else ""
                shown = value_of(named or field, value)
                if named in values and lang != "en":
                    # A phase's name said from its code ("phase.setup").
                    shown = phrase(f"{named}.{values[named]}", lang, update.game_key) or shown
                figures.append(f"{label(named if named in values else field)} {shown}")
        return said, figures

    title = say("title", lang, game=update.game_key, default=update.title)
    lines = [say("cli.heading", lang, title=title, number=update.game_id,
                 version=update.version)]
    said, figures = facts(update.state)
    if said:
        lines.append(" ".join(_sentence(s) for s in said))
    if figures:
        lines.append(_sentence(", ".join(figures)))
    players = update.state.get("players")
    for entry in players if isinstance(players, list) else []:
        if isinstance(entry, dict) and entry.get("name"):
            player_said, player_figures = facts(entry)
            lines.append(f"  {entry['name']}: {', '.join(player_said + player_figures) or '-'}")
    if update.over and update.result:
        said_result = update.result.message
        if lang != "en":
            said_result = event_sentence("game-over", said_result, update.result.to_json(), lang,
                                         update.game_key, names)
            lines.append(said_result)
        else:
            lines.append(f"Game over: {said_result}")
    else:
        lines += [f"> {prompt}" for prompt in _prompts(update, lang)]
    return "\n".join(lines)


def _prompts(update: Update, lang: str) -> list[str]:
    """What the game waits for, in ``lang``: the game's own prompts where it
    says them in that language, else who acts and the command's label."""
    from .core.text import phrase

    said = update.prompts.get(lang) if lang != "en" else None
    out = []
    for i, wait in enumerate(update.expected):
        if lang == "en":
            out.append(wait.prompt)
        elif said is not None and i < len(said):
            out.append(said[i])
        else:
            command = phrase(f"command.{wait.command}", lang, update.game_key)
            who = update.players[wait.player] if isinstance(wait.player, int) else None
            out.append(wait.prompt if command is None
                       else f"{who} · {command}" if who else command)
    return out


def _is_seat(value: Any, names: Sequence[str]) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


if __name__ == "__main__":
    sys.exit(main())
