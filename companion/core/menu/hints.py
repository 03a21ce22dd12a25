"""The per-game hints: how the menu offers each command, to keep a typical
turn to a few presses.

The menu builds every command from the game's specs without them; a hint
only names a command or a parameter on screen, says where a value starts,
narrows or orders what is offered, or leaves a parameter out.  :data:`HINTS`
is keyed by ``(game key, command name)``.  A field may be a plain value or a
function of the :class:`Context` (the game's view and the arguments entered
so far): a correction starts at what the table has now that way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..engine import Expectation


@dataclass(frozen=True)
class Context:
    """What a hint may look at: the table now (the engine's view), what is
    being answered, who acts, and the arguments chosen so far (seats as
    numbers)."""

    state: Mapping[str, Any]
    players: tuple[str, ...]
    expectation: Expectation | None
    actor: int | None
    args: Mapping[str, Any]


@dataclass(frozen=True)
class ParamHint:
    """How the menu offers one parameter.  Each field may be a value or a
    function of the :class:`Context`.

    ``start``: the value, choice or seat to start from; ``bounds``: an int
    parameter's (low, high); ``offer``: the choices or seats offered, in
    order; ``labels``: how choices are shown; ``notes``: the canned texts of
    a text parameter; ``label``: the parameter's name on screen; ``skip``:
    leave the parameter out (the game's default applies).
    """

    start: Any = None
    bounds: Any = None
    offer: Any = None
    labels: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    label: str = ""
    skip: Any = False


@dataclass(frozen=True)
class CommandHint:
    """How the menu offers one command: its name in lists, whether to ask
    before sending it (``None``: ask for corrections, and for a command with
    nothing to enter opened straight from the game screen), and its
    parameters' hints."""

    label: str = ""
    confirm: bool | None = None
    params: Mapping[str, ParamHint] = field(default_factory=dict)


# -- reading the game's view -------------------------------------------------------
# A reader that does not fit the view (a key missing, nothing chosen yet) is
# ignored by the menu, which then starts where it would without a hint.


def _state(key: str, default: Any = None) -> Callable[[Context], Any]:
    return lambda ctx: ctx.state.get(key, default)


def _actor(ctx: Context) -> int | None:
    return ctx.actor


def _player_entry(ctx: Context, arg: str, listing: str = "players") -> Mapping[str, Any]:
    entry: Mapping[str, Any] = ctx.state[listing][ctx.args[arg]]
    return entry


def _players(field_name: str, listing: str = "players") -> Callable[[Context], Any]:
    """The chosen player's ``field_name`` as the view has it now."""
    return lambda ctx: _player_entry(ctx, "player", listing)[field_name]


def _count_of(zone: str, arg: str) -> Callable[[Context], int]:
    """How many of the kind chosen as ``arg`` the view's ``zone`` counts now."""
    return lambda ctx: ctx.state[zone][ctx.args[arg]]


# -- Call of Nature ------------------------------------------------------------------

_CON_SPECIALS = {
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

# -- OhShit! -------------------------------------------------------------------------


def _pile_count(ctx: Context) -> int:
    count: int = _player_entry(ctx, "player")["pile"][ctx.args["colour"]]
    return count


def _fullest_colour(ctx: Context) -> str | None:
    """The poop a Suppositoire most likely takes: the target's biggest heap."""
    pile = _player_entry(ctx, "target")["pile"]
    heaps = [(count, kind) for kind, count in pile.items() if count]
    return max(heaps)[1] if heaps else None


def _dead(ctx: Context) -> list[int]:
    return [p["seat"] for p in ctx.state["players"] if not p["alive"]]


# -- Bathroom Rush -------------------------------------------------------------------

_BR_ACTION_CARDS = ("Give Up Your Place", "Swap", "Sneeze", "Cunning", "Change Queue",
                    "Cleaner", "Empty Bottle", "Concentration")
_BR_PERSONAS = ("Elderly Man", "Mother with Baby", "Distracted", "Avid Reader",
                "Entrepreneur", "Infamous Person")


def _free_queue(ctx: Context) -> int | None:
    return next((q["index"] for q in ctx.state["queues"]
                 if q["door"] and q["player"] is None), None)


def _actors_queue(ctx: Context) -> int | None:
    queue: int | None = ctx.state["reserves"][ctx.actor]["queue"]
    return queue


def _persona(*path: str) -> Callable[[Context], Any]:
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


_TOKENS = {"pipi": ParamHint(label="pipì"), "popo": ParamHint(label="popò")}

HINTS: dict[tuple[str, str], CommandHint] = {
    # Call of Nature: a Pressure card is most turns, and starts at +0.
    ("call-of-nature", "card"): CommandHint("Pressure card", params={
        "value": ParamHint(start=0, bounds=lambda ctx: tuple(ctx.state["card_values"]))}),
    ("call-of-nature", "special"): CommandHint("Special card", params={
        "card": ParamHint(offer=_state("specials_in_deck"), labels=_CON_SPECIALS)}),
    ("call-of-nature", "held-thresholds"): CommandHint("Thresholds held"),
    ("call-of-nature", "set-pressure"): CommandHint("Set pressure", params={
        "value": ParamHint(start=_state("pressure", 0))}),
    ("call-of-nature", "adjust-mastery"): CommandHint("Adjust Mastery", params={
        "delta": ParamHint(start=-1)}),
    ("call-of-nature", "set-draw-pile"): CommandHint("Set draw pile", params={
        "count": ParamHint(start=_state("draw_pile", 1))}),
    ("call-of-nature", "skip"): CommandHint("Skip player"),
    ("call-of-nature", "reverse"): CommandHint("Reverse direction"),
    ("call-of-nature", "note"): CommandHint("Note", params={"text": ParamHint(notes=tuple(
        f"{name} applied" for slug, name in _CON_SPECIALS.items() if slug != "u-turn"))}),

    # OhShit!: a poop starts on the next player; a Toilette or a
    # Suppositoire is most often played on one's own pile.  A count being
    # corrected starts at what the table has, usually one press from the truth.
    ("ohshit", "toilette"): CommandHint("Toilette", params={"target": ParamHint(start=_actor)}),
    ("ohshit", "suppositoire"): CommandHint("Suppositoire", params={
        "target": ParamHint(start=_actor), "colour": ParamHint(start=_fullest_colour)}),
    ("ohshit", "set-pile"): CommandHint("Set pile", params={
        "count": ParamHint(start=_pile_count)}),
    ("ohshit", "set-constipated"): CommandHint("Constipated", params={"constipated": ParamHint(
        start=lambda ctx: not _player_entry(ctx, "player")["constipated"])}),
    ("ohshit", "set-hand"): CommandHint(params={
        "count": ParamHint(start=_players("hand"))}),
    ("ohshit", "set-decharge"): CommandHint(params={
        "count": ParamHint(start=_count_of("decharge_cards", "colour"))}),
    ("ohshit", "set-drain"): CommandHint(params={
        "count": ParamHint(start=_count_of("drain_cards", "card"))}),
    ("ohshit", "set-deck"): CommandHint(params={
        "count": ParamHint(start=_count_of("deck", "card"))}),
    ("ohshit", "kill"): CommandHint("Player out"),
    ("ohshit", "revive"): CommandHint("Bring back", params={"player": ParamHint(offer=_dead)}),
    ("ohshit", "skip"): CommandHint("Skip turn"),

    # Bathroom Rush: a neutral Persona needs no name; Concentration is
    # played as the Action card of that name.  A correction starts at what
    # the table has on the reserve or the card chosen.
    ("bathroom-rush", "choose-queue"): CommandHint("Choose queue", params={
        "queue": ParamHint(start=_free_queue)}),
    ("bathroom-rush", "reveal"): CommandHint("Reveal", params={
        **_TOKENS,
        "name": ParamHint(notes=_BR_PERSONAS,
                          skip=lambda ctx: ctx.args.get("colour") == "neutral")}),
    ("bathroom-rush", "set-persona"): CommandHint("Set Persona", params={
        "pipi": ParamHint(label="pipì", start=_persona("pipi")),
        "popo": ParamHint(label="popò", start=_persona("popo")),
        "colour": ParamHint(start=_persona("colour")),
        "name": ParamHint(notes=_BR_PERSONAS, start=_persona("name"))}),
    ("bathroom-rush", "action"): CommandHint("Action card", params={
        "card": ParamHint(notes=_BR_ACTION_CARDS)}),
    ("bathroom-rush", "decompress"): CommandHint("Decompress", params={
        "concentration": ParamHint(skip=True)}),
    ("bathroom-rush", "effects-done"): CommandHint("Effects done"),
    ("bathroom-rush", "end-turn"): CommandHint("End turn"),
    ("bathroom-rush", "add-tokens"): CommandHint("Add tokens", params={
        **_TOKENS, "queue": ParamHint(start=_actors_queue), "position": ParamHint(skip=True)}),
    ("bathroom-rush", "take-tokens"): CommandHint("Take tokens", params={
        "pipi": ParamHint(label="pipì", start=1), "popo": ParamHint(label="popò")}),
    ("bathroom-rush", "set-reserve"): CommandHint("Set reserve", params={
        "pipi": ParamHint(label="pipì", start=_players("pipi", "reserves")),
        "popo": ParamHint(label="popò", start=_players("popo", "reserves"))}),
    ("bathroom-rush", "set-tokens"): CommandHint("Set tokens", params={
        "pipi": ParamHint(label="pipì", start=_persona("tokens_on_card", "pipi")),
        "popo": ParamHint(label="popò", start=_persona("tokens_on_card", "popo"))}),
    ("bathroom-rush", "unflip"): CommandHint(params={
        "queue": ParamHint(start=_flipped_queue),
        "position": ParamHint(start=_flipped_position)}),
    ("bathroom-rush", "place-permanent"): CommandHint("Permanent card", params={
        **_TOKENS, "card": ParamHint(notes=("Bathroom Defence",) + _BR_ACTION_CARDS)}),
    ("bathroom-rush", "remove-permanent"): CommandHint("Remove permanent"),
}
