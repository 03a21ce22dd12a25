"""How the button menu offers Call of Nature: a Pressure card is most turns,
and starts at +0; a correction starts at what the table has now."""

from __future__ import annotations

from ...hints import CommandHint, Context, ParamHint, state
from ...text import say

# The special cards' names, short enough for the OLED's lists.
SPECIAL_LABELS = {
    "u-turn": "U-TURN!",
    "critical-threshold": "CRITICAL THRESHOLD!",
    "little-trip-in-the-bushes": "Little Trip in Bushes",
    "we-are-all-the-same": "We Are All the Same",
    "suspense": "Suspense!",
    "tighten-the-sphincters": "Tighten Sphincters",
    "move-over": "Move Over!",
    "perseverance": "PERSEVERANCE!",
    "we-are-friends": "We're Friends, RIGHT?",
}


def _applied(ctx: Context) -> list[str]:
    """The notes offered: a special card applied, in the table's language."""
    return [say("menu.applied", ctx.lang,
                card=say(f"card.{slug}", ctx.lang, game="call-of-nature", default=name))
            for slug, name in SPECIAL_LABELS.items() if slug != "u-turn"]


def _card_values(ctx: Context) -> tuple[int, ...]:
    return tuple(ctx.state["card_values"])


HINTS: dict[str, CommandHint] = {
    "card": CommandHint(params={
        "value": ParamHint(start=0, bounds=_card_values)}),
    "special": CommandHint(params={
        "card": ParamHint(offer=state("specials_in_deck"), labels=SPECIAL_LABELS)}),
    "held-thresholds": CommandHint(),
    "set-pressure": CommandHint(params={
        "value": ParamHint(start=state("pressure", 0))}),
    "adjust-mastery": CommandHint(params={
        "delta": ParamHint(start=-1)}),
    "set-draw-pile": CommandHint(params={
        "count": ParamHint(start=state("draw_pile", 1))}),
    "skip": CommandHint(),
    "reverse": CommandHint(),
    "note": CommandHint(params={"text": ParamHint(offer=_applied)}),
}
