"""How ``companion state`` says Call of Nature: the Pressure, the next
threshold and Respite, the round and the piles; each player's Mastery."""

from __future__ import annotations

from typing import Any

from ...terminal import Column, Say, Terminal, flags, sentences


def figures(state: dict[str, Any], t: Say) -> list[str]:
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
    lines = [sentences(first), sentences(second)]
    if state.get("phase") not in (None, "play"):
        phase = t.word("phase", state["phase"])
        lines.insert(0, t("state.line.phase", phase=str(phase).replace("-", " ")))
    return lines


def columns(rows: list[dict[str, Any]], t: Say) -> list[Column]:
    return [(t("state.column.mastery"), lambda r: str(r.get("mastery", ""))),
            ("", lambda r: flags(r, [(t("state.flag.out"), "eliminated", True)]))]


TERMINAL = Terminal(figures, columns)
