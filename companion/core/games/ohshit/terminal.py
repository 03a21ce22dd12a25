"""How ``companion state`` says OhShit!: the turn and the piles of cards;
each player's pile and hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...terminal import Column, Say, Terminal, flags, sentences


def figures(state: dict[str, Any], t: Say) -> list[str]:
    cards = t("state.line.cards", draw=state.get("draw_pile", 0),
              decharge=state.get("decharge", 0), drain=state.get("drain", 0))
    piles = [t("state.line.turn", turn=state.get("turn", 1)), cards]
    lines = [sentences(piles)]
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


def _pile(t: Say) -> Callable[[dict[str, Any]], str]:
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


def columns(rows: list[dict[str, Any]], t: Say) -> list[Column]:
    return [(t("state.column.pile"), _pile(t)),
            (t("state.column.hand"), lambda r: str(r.get("hand", ""))),
            ("", lambda r: flags(r, [(t("state.flag.constipated"), "constipated", True),
                                      (t("state.flag.out"), "alive", False)]))]


TERMINAL = Terminal(figures, columns)
