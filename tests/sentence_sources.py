"""Everything the companion says, gathered in English, French and Italian.

Random legal games of every game are played on a table (every event kind,
every Action card, every Persona, corrections, refused commands, previews,
undo and redo, the final count), and each *source* says what a player
reads of them in a language: the table's sentences, the command line's
lines, the pages served, and what a phone's scripts write (gathered as the
phone receives them, for the browser to say; see ``test_sentences.py``).

A source is a function ``(played, lang) -> iterable of (text, where)``;
:data:`SOURCES` lists them.  A new kind of sentence (the spoken caller's)
is checked by adding its source to the list, as the caller's lines are
(``caller_lines``).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from companion.core.engine import Command, Param, ParamKind
from companion.core.errors import Refusal
from companion.core.games import available, game_class
from companion.core.journal import Journal
from companion.core.table import Table
from companion.core.text import LANGUAGES

GAMES = ("call-of-nature", "ohshit", "bathroom-rush")
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
MAX_STEPS = 300
# How many games' histories are said in full (the command line's, a phone's).
HISTORIES = 12


@dataclass
class Played:
    """The games played of one game (on one table), and all they made."""

    key: str
    table: Table
    updates: list[Any] = field(default_factory=list)
    previews: list[Any] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    # Each game as it ended, and its history.
    histories: list[tuple[Any, list[Any]]] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    commands: set[str] = field(default_factory=set)


# -- random legal play ---------------------------------------------------------------------


def _value(rng: random.Random, game: Any, param: Param, wait: Any) -> Any:
    if param.name in wait.args:
        return wait.args[param.name]
    kind = param.kind
    if kind == ParamKind.PLAYER:
        if param.name == "player" and wait.player is not None and rng.random() < 0.8:
            return wait.player
        return rng.randrange(len(game.players))
    if kind == ParamKind.INT:
        low, high = game.param_range(param)
        low = -5 if low is None else low
        high = low + 12 if high is None else max(high, low)
        return rng.randint(low, min(high, low + 60))
    if kind == ParamKind.CHOICE:
        return rng.choice(param.choices)
    if kind == ParamKind.BOOL:
        return rng.random() < 0.5
    if kind == ParamKind.TEXT:
        return rng.choice(("Ana", "OK"))
    if kind == ParamKind.DICE:
        dice = wait.dice
        if dice is None:
            return [rng.randint(1, 6)]
        return [rng.randint(1, dice.sides) for _ in range(dice.count)]
    raise AssertionError(kind)


def _command(rng: random.Random, game: Any, spec: Any, wait: Any) -> Command:
    args = {}
    for param in spec.params:
        if param.optional and param.name not in wait.args and rng.random() < 0.3:
            continue
        args[param.name] = _value(rng, game, param, wait)
    return Command(spec.name, args)


class _Anything:
    """An expectation of nothing in particular (a correction, a stray command)."""

    player = None
    dice = None
    args: dict[str, Any] = {}


def _step(rng: random.Random, played: Played) -> None:
    table = played.table
    game = table.game
    specs = {spec.name: spec for spec in type(game).commands}
    roll = rng.random()
    try:
        if roll < 0.04 and table.current().can_undo:
            update = table.undo()
        elif roll < 0.06 and table.current().can_redo:
            update = table.redo()
        elif roll < 0.13:
            spec = rng.choice([s for s in specs.values() if s.correction])
            update = table.submit(_command(rng, game, spec, _Anything()))
        elif roll < 0.17:
            spec = rng.choice(list(specs.values()))
            played.commands.add(spec.name)
            update = table.submit(_command(rng, game, spec, _Anything()))
        else:
            waits = game.expected()
            update = None
            for _attempt in range(40):
                wait = rng.choice(waits)
                command = _command(rng, game, specs[wait.command], wait)
                if rng.random() < 0.06:
                    try:
                        played.previews.append((table.preview(command), game.players))
                    except Refusal as refused:
                        played.refusals.append(refused)
                try:
                    update = table.submit(command)
                    break
                except Refusal as refused:
                    if len(played.refusals) < 20_000 and rng.random() < 0.1:
                        played.refusals.append(refused)
            if update is None:
                return
    except Refusal as refused:
        played.refusals.append(refused)
        return
    played.updates.append(update)
    if update.command is not None:
        played.commands.add(update.command.name)
    played.kinds.update(e.kind for e in update.events)


def play(key: str, count: int, seed: int = 31) -> Played:
    """``count`` random games of ``key`` on a table of its own (in memory)."""
    rng = random.Random(f"{seed}:{key}")
    cls = game_class(key)
    table = Table(Journal.open(":memory:"), clock=iter(range(1_764_000_000, 1_999_999_999,
                                                             97)).__next__)
    played = Played(key, table)
    variants = sorted(cls.variants)
    for _game in range(count):
        players = NAMES[:rng.randint(cls.min_players, min(cls.max_players, len(NAMES)))]
        chosen = [v for v in variants if rng.random() < 0.3]
        try:
            played.updates.append(table.new_game(key, players, variants=chosen))
        except Refusal as refused:
            played.refusals.append(refused)
            played.updates.append(table.new_game(key, players))
        for _step_number in range(MAX_STEPS):
            if table.game.over:
                break
            _step(rng, played)
        played.histories.append((table.current(), table.history()))
    return played


# -- what each language reads ------------------------------------------------------------

Said = Iterable[tuple[str, str]]
Source = Callable[[Played, str], Said]


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


# The table's whole state is said at one update in STATE_EVERY (and at each
# game's end): its lines repeat from one update to the next.
STATE_EVERY = 6


def table_sentences(played: Played, lang: str) -> Said:
    """The events, prompts, figures and results the table says (its screen
    and ``companion state``), and what undo would take back (as the
    command line says it: the events' sentences)."""
    from companion.commands.cli import event_said, render_state

    told: dict[str, str] = {}

    def said(event: Any, players: tuple[str, ...]) -> str:
        key = json.dumps([event.kind, event.message, event.data, players], sort_keys=True)
        found = told.get(key)
        if found is None:
            found = told[key] = event_said(event, lang, played.key, players)
        return found

    for number, update in enumerate(played.updates):
        for event in update.events:
            yield said(event, update.players), f"event {event.kind}"
        if update.over or number % STATE_EVERY == 0 or update.action != "command":
            for line in _lines(render_state(update, lang)):
                yield line, "state"
        if update.undo_events and lang != "en":
            yield " · ".join(said(e, update.players) for e in update.undo_events), "undo"
        elif update.undo_text:
            yield update.undo_text, "undo"
    for preview, players in played.previews:
        for event in preview.events:
            yield said(event, players), f"preview {event.kind}"


def refusals(played: Played, lang: str) -> Said:
    for refused in played.refusals:
        yield refused.say(lang), f"refusal {getattr(refused, 'rule', '')}"


def command_line(played: Played, lang: str) -> Said:
    """``companion history``, ``games`` and ``stats`` as printed."""
    from companion.commands.cli import _Output

    out = _Output(False)
    out.lang = lang
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        out.games(played.table.games())
        out.stats(played.table.stats())
        # (A history says the events said above again: a few games' are enough.)
        for update, entries in played.histories[:HISTORIES]:
            out.history(entries, played.key, update.players)
    for line in _lines(printed.getvalue()):
        yield line, "cli"


def caller_lines(played: Played, lang: str) -> Said:
    """What the caller says of each change (companion/core/caller.py)."""
    from companion.core.caller import line

    for update in played.updates:
        said = line(update, lang)
        if said:
            yield said, "caller"


SOURCES: list[Source] = [table_sentences, refusals, command_line, caller_lines]


def gather(played_games: Iterable[Played], sources: Iterable[Source] = SOURCES,
           ) -> dict[str, dict[str, str]]:
    """Each language's distinct sentences, each with where it came from."""
    said: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for played in played_games:
        for source in sources:
            for lang in LANGUAGES:
                for text, where in source(played, lang):
                    said[lang].setdefault(text, f"{played.key} {where}")
    return said


# -- what a phone is sent, for its scripts to say -----------------------------------------


def phone_payloads(played: Played) -> Iterator[dict[str, Any]]:
    """What the panel sends a phone of these games, as it sends it: states
    (with their events said by the game), previews, histories and past
    games, each as the scripts that say them read them."""
    from web.panel import entry_text, preview_json, say_events

    game = played.key
    seen: dict[str, int] = {}

    def once(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
        # A few of each shape: the scripts say the same shape the same way
        # (what the game said itself, ``said``, is checked on the server).
        text = json.dumps(_shape(payload), sort_keys=True)
        seen[text] = seen.get(text, 0) + 1
        if seen[text] <= PER_SHAPE:
            yield payload

    for update in played.updates:
        players = list(update.players)
        events = [e.to_json() for e in update.events]
        say_events(game, update.events, events)
        for event in events:
            yield from once({"kind": "event", "game": game, "players": players, "event": event})
        if update.undo_events:
            undo = [e.to_json() for e in update.undo_events]
            say_events(game, update.undo_events, undo)
            yield from once({"kind": "undo", "game": game, "players": players, "events": undo,
                             "undo_text": update.undo_text})
        for wait in update.expected_json():
            yield from once({"kind": "prompt", "game": game, "players": players,
                             "expected": wait})
        if update.over and update.result:
            yield from once({"kind": "result", "game": game, "players": players,
                             "result": update.result.to_json()})
    for preview, players in played.previews:
        shown = preview_json(game, preview)
        yield from once({"kind": "preview", "game": game, "players": list(players),
                         "preview": shown})
    for update, entries in played.histories[:HISTORIES]:
        past = {"game": game, "players": list(update.players),
                "state": {"over": update.over,
                          "result": update.result.to_json() if update.result else None}}
        for entry in entries:
            yield from once({"kind": "entry", "past": past,
                             "entry": json.loads(entry_text(game, entry.json_text()))})
        yield from once({"kind": "past", "past": past})
    yield {"kind": "commands", "game": game, "commands": game_class(game).describe()["commands"]}


# How many payloads of one shape a phone says.
PER_SHAPE = 1


def _shape(value: Any) -> Any:
    """What tells how a script says ``value``: its words, and of its
    numbers only the plural forms they choose (0, 1, 2, many) and signs;
    what a game said itself, as one."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if -2 <= value <= 2 else ("+n" if value > 0 else "-n")
    if isinstance(value, str) and value in NAMES:
        return "name"
    if isinstance(value, dict):
        return {k: ("said" if k in ("said", "message") else _shape(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value[:3]] + ([len(value) > 3] if len(value) > 3 else [])
    return value


def every_game_key() -> list[str]:
    return [g.key for g in available()]
