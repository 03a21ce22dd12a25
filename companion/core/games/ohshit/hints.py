"""How the button menu offers OhShit!: a poop starts on the next player; a
Toilette or a Suppositoire is most often played on one's own pile.  A count
being corrected starts at what the table has, usually one press from the
truth."""

from __future__ import annotations

from ...menu.hints import (
    CommandHint,
    Context,
    ParamHint,
    actor,
    chosen_players,
    count_of,
    player_entry,
)


def _pile_count(ctx: Context) -> int:
    count: int = player_entry(ctx, "player")["pile"][ctx.args["colour"]]
    return count


def _fullest_colour(ctx: Context) -> str | None:
    """The poop a Suppositoire most likely takes: the target's biggest heap."""
    pile = player_entry(ctx, "target")["pile"]
    heaps = [(count, kind) for kind, count in pile.items() if count]
    return max(heaps)[1] if heaps else None


def _not_constipated(ctx: Context) -> bool:
    return not player_entry(ctx, "player")["constipated"]


def _dead(ctx: Context) -> list[int]:
    return [p["seat"] for p in ctx.state["players"] if not p["alive"]]


HINTS: dict[str, CommandHint] = {
    "toilette": CommandHint(params={"target": ParamHint(start=actor)}),
    "suppositoire": CommandHint(params={
        "target": ParamHint(start=actor), "colour": ParamHint(start=_fullest_colour)}),
    "set-pile": CommandHint(params={"count": ParamHint(start=_pile_count)}),
    "set-constipated": CommandHint(params={
        "constipated": ParamHint(start=_not_constipated)}),
    "set-hand": CommandHint(params={"count": ParamHint(start=chosen_players("hand"))}),
    "set-decharge": CommandHint(params={
        "count": ParamHint(start=count_of("decharge_cards", "colour"))}),
    "set-drain": CommandHint(params={"count": ParamHint(start=count_of("drain_cards", "card"))}),
    "set-deck": CommandHint(params={"count": ParamHint(start=count_of("deck", "card"))}),
    "kill": CommandHint(),
    "revive": CommandHint(params={"player": ParamHint(offer=_dead)}),
    "skip": CommandHint(),
}
