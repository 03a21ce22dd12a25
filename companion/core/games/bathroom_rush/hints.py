"""How the button menu offers Bathroom Rush: a neutral Persona needs no
name; an Action card is chosen from the list by its name, and the place it
strikes from the places offered.  A correction
starts at what the table has on the reserve or the card chosen."""

from __future__ import annotations

from typing import Any

from ...menu.hints import CommandHint, Context, ParamHint, Reader, chosen_players
from .actions import CARD_NAMES

ACTION_CARDS = ("Give Up Your Place", "Swap", "Sneeze", "Cunning", "Change Queue",
                "Cleaner", "Empty Bottle", "Concentration")
PERSONAS = ("Elderly Man", "Mother with Baby", "Distracted", "Avid Reader",
            "Entrepreneur", "Infamous Person")


def _unseen_kinds(ctx: Context) -> list[str]:
    """The kinds of the box still unseen, the likeliest first."""
    kinds = [k for k in ctx.state.get("box") or () if k["unseen"]]
    return [k["name"] for k in sorted(kinds, key=lambda k: -k["unseen"])]


def _free_queue(ctx: Context) -> int | None:
    return next((q["index"] for q in ctx.state["queues"]
                 if q["door"] and q["player"] is None), None)


def _actors_queue(ctx: Context) -> int | None:
    queue: int | None = ctx.state["reserves"][ctx.actor]["queue"]
    return queue


def _persona(*path: str) -> Reader:
    """What the view has at ``path`` on the card at the chosen queue and
    position (both counted from 1)."""

    def read(ctx: Context) -> Any:
        value: Any = ctx.state["queues"][ctx.args["queue"] - 1]["slots"][ctx.args["position"] - 1]
        for step in path:
            value = value[step]
        return value

    return read


def _flipped(ctx: Context) -> list[tuple[int, int]]:
    """Where the turned-over Personas are: (queue, position)."""
    return [(q["index"], slot["position"]) for q in ctx.state["queues"]
            for slot in q["slots"] if slot.get("flipped")]


def _flipped_queue(ctx: Context) -> int | None:
    return next((queue for queue, _ in _flipped(ctx)), None)


def _flipped_position(ctx: Context) -> int | None:
    return next((position for queue, position in _flipped(ctx)
                 if queue == ctx.args["queue"]), None)


def _neutral(ctx: Context) -> bool:
    return bool(ctx.args.get("colour") == "neutral")


_TOKENS = {"pipi": ParamHint(label="pipì"), "popo": ParamHint(label="popò")}

HINTS: dict[str, CommandHint] = {
    "choose-queue": CommandHint("Choose queue", params={"queue": ParamHint(start=_free_queue)}),
    "reveal": CommandHint("Reveal", params={
        **_TOKENS, "name": ParamHint(notes=PERSONAS, skip=_neutral)}),
    "set-persona": CommandHint("Set Persona", params={
        "pipi": ParamHint(label="pipì", start=_persona("pipi")),
        "popo": ParamHint(label="popò", start=_persona("popo")),
        "colour": ParamHint(start=_persona("colour")),
        "name": ParamHint(notes=PERSONAS, start=_persona("name"))}),
    "play": CommandHint("Action card", params={"card": ParamHint(labels=CARD_NAMES)}),
    "target": CommandHint("The card strikes"),
    "decompress": CommandHint("Decompress"),
    "reveal-kind": CommandHint("Reveal", params={"kind": ParamHint(offer=_unseen_kinds)}),
    "effect": CommandHint("Effect happens"),
    "defend": CommandHint("Queue Defence"),
    "end-turn": CommandHint("End turn"),
    "add-tokens": CommandHint("Add tokens", params={
        **_TOKENS, "queue": ParamHint(start=_actors_queue), "position": ParamHint(skip=True)}),
    "take-tokens": CommandHint("Take tokens", params={
        "pipi": ParamHint(label="pipì", start=1), "popo": ParamHint(label="popò")}),
    "set-reserve": CommandHint("Set reserve", params={
        "pipi": ParamHint(label="pipì", start=chosen_players("pipi", "reserves")),
        "popo": ParamHint(label="popò", start=chosen_players("popo", "reserves"))}),
    "set-tokens": CommandHint("Set tokens", params={
        "pipi": ParamHint(label="pipì", start=_persona("tokens_on_card", "pipi")),
        "popo": ParamHint(label="popò", start=_persona("tokens_on_card", "popo"))}),
    "unflip": CommandHint(params={
        "queue": ParamHint(start=_flipped_queue),
        "position": ParamHint(start=_flipped_position)}),
    "place-permanent": CommandHint("Permanent card", params={
        **_TOKENS, "card": ParamHint(notes=("Bathroom Defence",) + ACTION_CARDS)}),
    "remove-permanent": CommandHint("Remove permanent"),
}
