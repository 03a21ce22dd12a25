"""How ``companion state`` says Bathroom Rush: the phase and round, the
queues, the limit and the effects in play; each player's pipì, popò and
place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...terminal import Column, Say, Terminal, flags
from ...text import phrase


def figures(state: dict[str, Any], t: Say) -> list[str]:
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


def _queue(t: Say) -> Callable[[dict[str, Any]], str]:
    def cell(row: dict[str, Any]) -> str:
        if row.get("queue") is None:
            return "-"
        if row.get("position"):
            return t("state.cell.queue-place", queue=row["queue"], place=row["position"])
        return f"{row['queue']}"

    return cell


def columns(rows: list[dict[str, Any]], t: Say) -> list[Column]:
    columns: list[Column] = [("Pipì", lambda r: str(r.get("pipi", 0))),
                             ("Popò", lambda r: str(r.get("popo", 0))),
                             (t("state.column.queue"), _queue(t))]
    if any(r.get("score") for r in rows):
        columns.append((t("state.column.score"), lambda r: str(r.get("score", ""))))
    columns.append(("", lambda r: flags(r, [
        (t("state.flag.in-bathroom"), "in_bathroom", True),
        (t("state.flag.over-limit"), "over_limit", True),
        (t("state.flag.out"), "eliminated", True)])))
    return columns


TERMINAL = Terminal(figures, columns)
