"""The table as a person reads it in a terminal: ``companion state``.

A few lines: the game and its step, whose turn, the game's figures in
sentences, then a short table with a row per player and a column per figure
(the player to play marked ``▸``), then what the game waits for.  The three
games have their own sentences and columns; any other game is said field by
field.  Scripts use ``--json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from .core.engine import Event
    from .core.table import Update

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


def render(update: Update) -> str:
    """The state of ``update`` as lines for a terminal."""
    figures = FIGURES.get(update.game_key, _generic_figures)
    state = update.state
    names = tuple(update.players)
    lines = [f"{update.title}, game {update.game_id}, step {update.version}"]
    turn = _turn(state, names, update.over)
    if turn:
        lines.append(" ".join(turn))
    lines += [_sentence(line) for line in figures(state) if line]
    rows = _players(state)
    if rows:
        columns = COLUMNS.get(update.game_key, _generic_columns)(rows)
        active = state.get("active") if not update.over else None
        lines += ["", *_table(rows, columns, active), ""]
    if update.over and update.result:
        lines.append(f"Game over: {update.result.message}")
    else:
        lines += [f"> {e.prompt}" for e in update.expected]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


# -- whose turn -------------------------------------------------------------------------


def _turn(state: dict[str, Any], names: Sequence[str], over: bool) -> list[str]:
    said = []

    def seat(field: str) -> str | None:
        value = state.get(field)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            return names[value]
        return None

    if not over and (name := seat("active")):
        said.append(f"{name}'s turn.")
    if not over and (name := seat("first_player")):
        said.append(f"{name} plays first.")
    tie_break = state.get("tie_break")
    if isinstance(tie_break, int) and (name := seat("tie_break")):
        said.append(f"Tie-break for {name}.")
    message = state.get("message")
    if isinstance(message, str) and message.strip():
        said.append(_sentence(message))
    return said


# -- each game's figures, in sentences ----------------------------------------------------


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _call_of_nature(state: dict[str, Any]) -> list[str]:
    first = [f"Pressure {state.get('pressure', 0)}"]
    if state.get("next_threshold") is not None:
        first.append(f"the next threshold, at {state['next_threshold']}, costs "
                     f"{state.get('next_threshold_cost', 1)} Mastery")
    if state.get("next_respite") is not None:
        first.append(f"the next Respite is at {state['next_respite']}")
    second = [f"Round {state.get('round', 1)}"]
    if state.get("direction"):
        second[0] += f", play goes {state['direction']}"
    second.append(f"{_plural(state.get('draw_pile', 0), 'card')} in the draw pile, "
                  f"{state.get('played_pile', 0)} played")
    lines = [_sentences(first), _sentences(second)]
    if state.get("phase") not in (None, "play"):
        lines.insert(0, f"Phase: {str(state['phase']).replace('-', ' ')}")
    return lines


def _ohshit(state: dict[str, Any]) -> list[str]:
    cards = (f"{_plural(state.get('draw_pile', 0), 'card')} in the draw pile, "
             f"{state.get('decharge', 0)} in the Décharge, {state.get('drain', 0)} in the Drain")
    piles = [f"Turn {state.get('turn', 1)}", cards]
    lines = [_sentences(piles)]
    extra = []
    if state.get("constipations_on_table"):
        extra.append(f"{_plural(state['constipations_on_table'], 'Constipation')} on the table")
    if state.get("reshuffles"):
        extra.append(f"the draw pile has been made again {_plural(state['reshuffles'], 'time')}")
    if state.get("set_aside"):
        extra.append(f"{_plural(state['set_aside'], 'card')} set aside")
    if extra:
        lines.append(", ".join(extra))
    if state.get("full_pile"):
        lines.append(f"A pile of {state['full_pile']} poops takes no more")
    return lines


def _bathroom_rush(state: dict[str, Any]) -> list[str]:
    phase = state.get("phase_name") or str(state.get("phase", "")).replace("-", " ")
    first = f"Phase: {phase}" if phase else ""
    if state.get("round"):
        first += f", round {state['round']}"
    if state.get("final_round"):
        first += " (the final round)"
    lines = [first]
    if state.get("free_queue"):
        lines.append(f"Queue {state['free_queue']} is the free one")
    limit = state.get("popo_limit")
    if limit:
        lines.append(f"A player who reaches {limit} popò is out" if state.get("eliminates")
                     else f"Reaching {limit} popò puts nobody out (everyone keeps playing)")
    lines.append(f"Persona deck: {_plural(state.get('persona_deck', 0), 'card')}, "
                 f"{state.get('persona_discard', 0)} discarded")
    effects = state.get("effects")
    if isinstance(effects, list):
        lines += [str(effect) for effect in effects if str(effect).strip()]
    return lines


def _generic_figures(state: dict[str, Any]) -> list[str]:
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


FIGURES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "call-of-nature": _call_of_nature,
    "ohshit": _ohshit,
    "bathroom-rush": _bathroom_rush,
}


# -- the players' table --------------------------------------------------------------------

Column = tuple[str, Callable[[dict[str, Any]], str]]


def _players(state: dict[str, Any]) -> list[dict[str, Any]]:
    for field in ("players", "reserves"):
        rows = state.get(field)
        if isinstance(rows, list) and rows and all(isinstance(r, dict) and r.get("name")
                                                    for r in rows):
            return rows
    return []


def _flags(row: dict[str, Any], flags: Sequence[tuple[str, str, bool]]) -> str:
    """The notes a row deserves: (note, field, when) for each flag."""
    return ", ".join(note for note, field, when in flags if bool(row.get(field)) == when
                     and field in row)


def _call_of_nature_columns(rows: list[dict[str, Any]]) -> list[Column]:
    return [("Mastery", lambda r: str(r.get("mastery", ""))),
            ("", lambda r: _flags(r, [("out", "eliminated", True)]))]


def _pile(row: dict[str, Any]) -> str:
    pile = row.get("pile")
    total = str(row.get("pile_total", 0))
    if isinstance(pile, dict):
        held = [f"{count} {colour}" for colour, count in pile.items() if count]
        if held:
            return f"{total} ({', '.join(held)})"
    return total


def _ohshit_columns(rows: list[dict[str, Any]]) -> list[Column]:
    return [("Pile", _pile), ("Hand", lambda r: str(r.get("hand", ""))),
            ("", lambda r: _flags(r, [("constipated", "constipated", True),
                                      ("out", "alive", False)]))]


def _queue(row: dict[str, Any]) -> str:
    if row.get("queue") is None:
        return "-"
    where = f"{row['queue']}"
    if row.get("position"):
        where += f", place {row['position']}"
    return where


def _bathroom_rush_columns(rows: list[dict[str, Any]]) -> list[Column]:
    columns: list[Column] = [("Pipì", lambda r: str(r.get("pipi", 0))),
                             ("Popò", lambda r: str(r.get("popo", 0))),
                             ("Queue", _queue)]
    if any(r.get("score") for r in rows):
        columns.append(("Score", lambda r: str(r.get("score", ""))))
    columns.append(("", lambda r: _flags(r, [("in the bathroom", "in_bathroom", True),
                                             ("over the limit", "over_limit", True),
                                             ("out", "eliminated", True)])))
    return columns


def _cell(field: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: str(row.get(field, ""))


def _generic_columns(rows: list[dict[str, Any]]) -> list[Column]:
    fields = [field for field, value in rows[0].items()
              if field not in ("seat", "name") and isinstance(value, (int, float, str))
              and not isinstance(value, bool)]
    columns: list[Column] = [(f.replace("_", " ").capitalize(), _cell(f)) for f in fields]
    flags = [f for f, value in rows[0].items() if isinstance(value, bool)]
    columns.append(("", lambda r: ", ".join(f.replace("_", " ") for f in flags if r.get(f))))
    return columns


COLUMNS: dict[str, Callable[[list[dict[str, Any]]], list[Column]]] = {
    "call-of-nature": _call_of_nature_columns,
    "ohshit": _ohshit_columns,
    "bathroom-rush": _bathroom_rush_columns,
}


def _table(rows: list[dict[str, Any]], columns: list[Column], active: Any) -> list[str]:
    cells = [["Player", *(title for title, _ in columns)]]
    for row in rows:
        cells.append([str(row["name"]), *(value(row) for _, value in columns)])
    # An empty column (no notes for anyone) is left out.
    keep = [i for i in range(len(cells[0])) if any(line[i] for line in cells)]
    cells = [[line[i] for i in keep] for line in cells]
    widths = [max(len(line[i]) for line in cells) for i in range(len(keep))]
    out = []
    for n, line in enumerate(cells):
        seat = rows[n - 1].get("seat", n - 1) if n else None
        mark = MARK if n and seat == active else " "
        text = "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        out.append(f"{mark} {text}".rstrip())
    return out


def _sentences(parts: Sequence[str]) -> str:
    return " ".join(_sentence(part) for part in parts)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
