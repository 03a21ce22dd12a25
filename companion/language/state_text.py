"""The table as a person reads it in a terminal: ``companion state``.

A few lines: the game and its step, whose turn, the game's figures in
sentences, then a short table with a row per player and a column per figure
(the player to play marked ``▸``), then what the game waits for.  The three
games have their own sentences and columns; any other game is said field by
field.  Scripts use ``--json``.

Every sentence and column is said in the table's language: the common ones
are ``cli.*`` in :mod:`companion.core.text`, a game's ``state.*`` in its
texts (English as it reads below).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from companion.core.text import phrase, result_sentence, say

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


class _Say:
    """Says a key in the table's language, the game's texts before the
    common ones."""

    def __init__(self, lang: str, game: str | None) -> None:
        self.lang = lang
        self.game = game

    def __call__(self, key: str, **fields: Any) -> str:
        return say(key, self.lang, game=self.game, **fields)

    def word(self, field: str, value: Any) -> Any:
        """A value that is a word (a phase, a direction, a colour), in the
        table's language; anything else as it is."""
        if not isinstance(value, str) or self.lang == "en":
            return value
        for key in (f"state.{field}.{value}", f"choice.{value}", f"card.{value}"):
            found = phrase(key, self.lang, self.game)
            if found is not None:
                return found
        return value


def render(update: Update, lang: str = "en") -> str:
    """The state of ``update`` as lines for a terminal, in ``lang``."""
    t = _Say(lang, update.game_key)
    figures = FIGURES.get(update.game_key, _generic_figures)
    state = update.state
    names = tuple(update.players)
    title = t("title") if phrase("title", lang, update.game_key) else update.title
    lines = [t("cli.heading", title=title, number=update.game_id, step=update.version)]
    turn = _turn(state, names, update.over, t)
    if turn:
        lines.append(" ".join(turn))
    lines += [_sentence(line) for line in figures(state, t) if line]
    rows = _players(state)
    if rows:
        columns = COLUMNS.get(update.game_key, _generic_columns)(rows, t)
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


def _turn(state: dict[str, Any], names: Sequence[str], over: bool, t: _Say) -> list[str]:
    said = []

    def seat(field: str) -> str | None:
        value = state.get(field)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            return names[value]
        return None

    if not over and (name := seat("active")):
        said.append(_sentence(t("cli.active", name=name)))
    if not over and (name := seat("first_player")):
        said.append(_sentence(t("cli.first_player", name=name)))
    tie_break = state.get("tie_break")
    if isinstance(tie_break, int) and (name := seat("tie_break")):
        said.append(_sentence(t("cli.tie_break", name=name)))
    message = state.get("message")
    # (The game's own sentence is English; once the game is over, the
    # result's line says it in the table's language.)
    if isinstance(message, str) and message.strip() and (t.lang == "en" or not over):
        said.append(_sentence(message))
    return said


# -- each game's figures, in sentences ----------------------------------------------------


def _call_of_nature(state: dict[str, Any], t: _Say) -> list[str]:
    first = [t("state.line.pressure", pressure=state.get("pressure", 0))]
    if state.get("next_threshold") is not None:
        first.append(t("state.line.next-threshold", threshold=state["next_threshold"],
                       cost=state.get("next_threshold_cost", 1)))
    if state.get("next_respite") is not None:
        first.append(t("state.line.next-respite", respite=state["next_respite"]))
    second = [t("state.line.round", round=state.get("round", 1))]
    if state.get("direction"):
        second[0] = t("state.line.round-direction", round=state.get("round", 1),
                      direction=t.word("direction", state["direction"]))
    second.append(t("state.line.piles", draw=state.get("draw_pile", 0),
                    played=state.get("played_pile", 0)))
    lines = [_sentences(first), _sentences(second)]
    if state.get("phase") not in (None, "play"):
        phase = t.word("phase", state["phase"])
        lines.insert(0, t("state.line.phase", phase=str(phase).replace("-", " ")))
    return lines


def _ohshit(state: dict[str, Any], t: _Say) -> list[str]:
    cards = t("state.line.cards", draw=state.get("draw_pile", 0),
              decharge=state.get("decharge", 0), drain=state.get("drain", 0))
    piles = [t("state.line.turn", turn=state.get("turn", 1)), cards]
    lines = [_sentences(piles)]
    extra = []
    if state.get("constipations_on_table"):
        extra.append(t("state.line.constipations", n=state["constipations_on_table"]))
    if state.get("reshuffles"):
        extra.append(t("state.line.reshuffles", n=state["reshuffles"]))
    if state.get("set_aside"):
        extra.append(t("state.line.set-aside", n=state["set_aside"]))
    if extra:
        lines.append(", ".join(extra))
    if state.get("full_pile"):
        lines.append(t("state.line.full-pile", n=state["full_pile"]))
    return lines


def _bathroom_rush(state: dict[str, Any], t: _Say) -> list[str]:
    phase = state.get("phase_name") or str(state.get("phase", "")).replace("-", " ")
    if t.lang != "en" and state.get("phase"):
        phase = phrase(f"phase.{state['phase']}", t.lang, t.game) or phase
    first = t("state.line.phase", phase=phase) if phase else ""
    if state.get("round"):
        first += t("state.line.round-after", round=state["round"])
    if state.get("final_round"):
        first += t("state.line.final-round")
    lines = [first]
    if state.get("free_queue"):
        lines.append(t("state.line.free-queue", queue=state["free_queue"]))
    limit = state.get("popo_limit")
    if limit:
        lines.append(t("state.line.limit-out", limit=limit) if state.get("eliminates")
                     else t("state.line.limit-keep-playing", limit=limit))
    lines.append(t("state.line.persona-deck", deck=state.get("persona_deck", 0),
                   discard=state.get("persona_discard", 0)))
    return lines + _effects(state, t.lang)


def _effects(state: dict[str, Any], lang: str) -> list[str]:
    """The effects in play, in ``lang`` where the game says them in it."""
    effects = state.get("effects")
    said = state.get("effects_said")
    if lang != "en" and isinstance(said, dict) and isinstance(said.get(lang), list):
        effects = said[lang]
    if not isinstance(effects, list):
        return []
    return [str(effect) for effect in effects if str(effect).strip()]


def _generic_figures(state: dict[str, Any], t: _Say) -> list[str]:
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


FIGURES: dict[str, Callable[[dict[str, Any], _Say], list[str]]] = {
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


def _call_of_nature_columns(rows: list[dict[str, Any]], t: _Say) -> list[Column]:
    return [(t("state.column.mastery"), lambda r: str(r.get("mastery", ""))),
            ("", lambda r: _flags(r, [(t("state.flag.out"), "eliminated", True)]))]


def _pile(t: _Say) -> Callable[[dict[str, Any]], str]:
    def cell(row: dict[str, Any]) -> str:
        pile = row.get("pile")
        total = str(row.get("pile_total", 0))
        if isinstance(pile, dict):
            held = [f"{count} {t.word('colour', colour)}" for colour, count in pile.items()
                    if count]
            if held:
                return f"{total} ({', '.join(held)})"
        return total

    return cell


def _ohshit_columns(rows: list[dict[str, Any]], t: _Say) -> list[Column]:
    return [(t("state.column.pile"), _pile(t)),
            (t("state.column.hand"), lambda r: str(r.get("hand", ""))),
            ("", lambda r: _flags(r, [(t("state.flag.constipated"), "constipated", True),
                                      (t("state.flag.out"), "alive", False)]))]


def _queue(t: _Say) -> Callable[[dict[str, Any]], str]:
    def cell(row: dict[str, Any]) -> str:
        if row.get("queue") is None:
            return "-"
        if row.get("position"):
            return t("state.cell.queue-place", queue=row["queue"], place=row["position"])
        return f"{row['queue']}"

    return cell


def _bathroom_rush_columns(rows: list[dict[str, Any]], t: _Say) -> list[Column]:
    columns: list[Column] = [("Pipì", lambda r: str(r.get("pipi", 0))),
                             ("Popò", lambda r: str(r.get("popo", 0))),
                             (t("state.column.queue"), _queue(t))]
    if any(r.get("score") for r in rows):
        columns.append((t("state.column.score"), lambda r: str(r.get("score", ""))))
    columns.append(("", lambda r: _flags(r, [
        (t("state.flag.in-bathroom"), "in_bathroom", True),
        (t("state.flag.over-limit"), "over_limit", True),
        (t("state.flag.out"), "eliminated", True)])))
    return columns


def _cell(field: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: str(row.get(field, ""))


def _generic_columns(rows: list[dict[str, Any]], t: _Say) -> list[Column]:
    fields = [field for field, value in rows[0].items()
              if field not in ("seat", "name") and isinstance(value, (int, float, str))
              and not isinstance(value, bool)]
    columns: list[Column] = [(f.replace("_", " ").capitalize(), _cell(f)) for f in fields]
    flags = [f for f, value in rows[0].items() if isinstance(value, bool)]
    columns.append(("", lambda r: ", ".join(f.replace("_", " ") for f in flags if r.get(f))))
    return columns


COLUMNS: dict[str, Callable[[list[dict[str, Any]], _Say], list[Column]]] = {
    "call-of-nature": _call_of_nature_columns,
    "ohshit": _ohshit_columns,
    "bathroom-rush": _bathroom_rush_columns,
}


def _table(rows: list[dict[str, Any]], columns: list[Column], active: Any,
           t: _Say) -> list[str]:
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


def _sentences(parts: Sequence[str]) -> str:
    return " ".join(_sentence(part) for part in parts)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
