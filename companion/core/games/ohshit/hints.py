"""How the button menu offers OhShit!: a poop starts on the next player; a
Toilette or a Suppositoire is most often played on one's own pile.  A count
being corrected starts at what the table has, usually one press from the
truth."""

from __future__ import annotations

from ...hints import (
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


def _living_in_order(ctx: Context) -> list[int]:
    """The living players in playing order from the next one, as the menu
    lists targets."""
    players = ctx.state["players"]
    first = ((ctx.actor or 0) + 1) % len(players)
    order = [(first + step) % len(players) for step in range(len(players))]
    return [seat for seat in order if players[seat]["alive"]]


def _flushable(ctx: Context) -> list[int]:
    """Who a Toilette may be played on: the living, not constipated."""
    players = ctx.state["players"]
    return [seat for seat in _living_in_order(ctx) if not players[seat]["constipated"]]


def _colours_on_pile(ctx: Context) -> list[str]:
    """The poops a Suppositoire can take: those on the target's pile, in the
    order of the cards."""
    entry = player_entry(ctx, "target")
    return [kind for kind in (*ctx.state["colours"], ctx.state["unicorn"])
            if entry["pile"].get(kind)]


def _empty_pile(ctx: Context) -> bool:
    """An empty pile: the Suppositoire takes no poop (it only lifts a
    Constipation), so no colour is asked."""
    return not _colours_on_pile(ctx)


HINTS: dict[str, CommandHint] = {
    "toilette": CommandHint(params={"target": ParamHint(start=actor, offer=_flushable)}),
    "suppositoire": CommandHint(params={
        "target": ParamHint(start=actor),
        # Only the colours on the pile, and no "(none)": a pile that holds
        # poops always gives one up.
        "colour": ParamHint(start=_fullest_colour, offer=_colours_on_pile, none=False,
                            skip=_empty_pile)}),
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
