"""The table as a person reads it in a terminal: ``companion state``.

A few lines: the game and its step, whose turn, the game's figures in
sentences, then a short table with a row per player and a column per figure
(the player to play marked ``▸``), then what the game waits for.  A game
brings its own sentences and columns from its folder (``TERMINAL``, a
:class:`companion.core.terminal.Terminal`); a game without them is said
field by field.  Scripts use ``--json``.

Every sentence and column is said in the table's language: the common ones
are ``cli.*`` in :mod:`companion.core.text`, a game's ``state.*`` in its
texts (English as it reads below).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from companion.core.games import terminal_of
from companion.core.terminal import Column, Say, sentence
from companion.core.text import phrase, result_sentence

if TYPE_CHECKING:
    from companion.core.engine import Event
    from companion.core.table import Update

MARK = "▸"
# An event kind that, right after the other kind for the same player, says
# nothing new: "Threshold 31 fired: Ana loses 1 Mastery (7 → 6)" is followed
# by "Ana's Mastery 7 → 6 (-1 level at 31)" for the panel's animations.
RESTATES = {"mastery-lost": "threshold-fired"}


def events_said(events: Sequence[Event]) -> list[Event]:
    """The events worth saying: each once."""
    kept: list[Event] = []
    for event in events:
        before = kept[-1] if kept else None
        if (before is not None and RESTATES.get(event.kind) == before.kind
                and event.data.get("player") == before.data.get("player")):
            continue
        kept.append(event)
    return kept


def render(update: Update, lang: str = "en") -> str:
    """The state of ``update`` as lines for a terminal, in ``lang``."""
    t = Say(lang, update.game_key)
    terminal = terminal_of(update.game_key)
    figures = terminal.figures if terminal else _generic_figures
    state = update.state
    names = tuple(update.players)
    title = t("title") if phrase("title", lang, update.game_key) else update.title
    lines = [t("cli.heading", title=title, number=update.game_id, step=update.version)]
    turn = _turn(state, names, update.over, t)
    if turn:
        lines.append(" ".join(turn))
    lines += [sentence(line) for line in figures(state, t) if line]
    rows = _players(state)
    if rows:
        columns = (terminal.columns if terminal else _generic_columns)(rows, t)
        active = state.get("active") if not update.over else None
        lines += ["", *_table(rows, columns, active, t), ""]
    if update.over and update.result:
        if lang == "en":
            lines.append(f"Game over: {update.result.message}")
        else:
            lines.append(result_sentence(update.result.to_json(), lang, update.game_key, names))
    else:
        lines += [f"> {prompt}" for prompt in _prompts(update, lang)]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _prompts(update: Update, lang: str) -> list[str]:
    """What the game waits for, in ``lang``: the game's own prompts where it
    says them in that language, else who acts and the command's label."""
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


# -- whose turn -------------------------------------------------------------------------


def _turn(state: dict[str, Any], names: Sequence[str], over: bool, t: Say) -> list[str]:
    said = []

    def seat(field: str) -> str | None:
        value = state.get(field)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            return names[value]
        return None

    if not over and (name := seat("active")):
        said.append(sentence(t("cli.active", name=name)))
    if not over and (name := seat("first_player")):
        said.append(sentence(t("cli.first_player", name=name)))
    tie_break = state.get("tie_break")
    if isinstance(tie_break, int) and (name := seat("tie_break")):
        said.append(sentence(t("cli.tie_break", name=name)))
    message = state.get("message")
    # (The game's own sentence is English; once the game is over, the
    # result's line says it in the table's language.)
    if isinstance(message, str) and message.strip() and (t.lang == "en" or not over):
        said.append(sentence(message))
    return said


# -- each game's figures, in sentences ----------------------------------------------------


def _generic_figures(state: dict[str, Any], t: Say) -> list[str]:
    said = []
    for field, value in state.items():
        if field in ("active", "first_player", "tie_break", "message", "over", "result",
                     "players", "winner", "winners") or field.endswith("_name"):
            continue
        if isinstance(value, bool) and value:
            said.append(field.replace("_", " "))
        elif isinstance(value, (int, float, str)) and not isinstance(value, bool) \
                and value != "":
            label = state.get(f"{field}_name")
            shown = label if isinstance(label, str) and label else value
            said.append(f"{field.replace('_', ' ')}: {shown}")
    return [", ".join(said)] if said else []




# -- the players' table --------------------------------------------------------------------



def _players(state: dict[str, Any]) -> list[dict[str, Any]]:
    for field in ("players", "reserves"):
        rows = state.get(field)
        if isinstance(rows, list) and rows and all(isinstance(r, dict) and r.get("name")
                                                    for r in rows):
            return rows
    return []


def _cell(field: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: str(row.get(field, ""))


def _generic_columns(rows: list[dict[str, Any]], t: Say) -> list[Column]:
    fields = [field for field, value in rows[0].items()
              if field not in ("seat", "name") and isinstance(value, (int, float, str))
              and not isinstance(value, bool)]
    columns: list[Column] = [(f.replace("_", " ").capitalize(), _cell(f)) for f in fields]
    flags = [f for f, value in rows[0].items() if isinstance(value, bool)]
    columns.append(("", lambda r: ", ".join(f.replace("_", " ") for f in flags if r.get(f))))
    return columns




def _table(rows: list[dict[str, Any]], columns: list[Column], active: Any,
           t: Say) -> list[str]:
    cells = [[t("cli.column.player"), *(title for title, _ in columns)]]
    for row in rows:
        cells.append([str(row["name"]), *(value(row) for _, value in columns)])
    cells = _filled_columns(cells)
    widths = [max(len(line[i]) for line in cells) for i in range(len(cells[0]))]
    out = []
    for n, line in enumerate(cells):
        seat = rows[n - 1].get("seat", n - 1) if n else None
        mark = MARK if n and seat == active else " "
        text = "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        out.append(f"{mark} {text}".rstrip())
    return out


def _filled_columns(cells: list[list[str]]) -> list[list[str]]:
    """The cells without their empty columns (no notes for anyone)."""
    keep = [i for i in range(len(cells[0])) if any(line[i] for line in cells)]
    return [[line[i] for i in keep] for line in cells]


