"""How the button menu offers Bathroom Rush: a reveal is answered by the
keys (a kind of the box, or a colour and its usual tokens, in at most three
presses); a neutral Persona needs no name; an Action card is chosen from
the list by its name, and the place it strikes from the places offered.  A
correction starts at what the table has on the reserve or the card chosen."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, pairwise
from typing import Any, Mapping, Sequence

from ...menu.hints import (
    KEY_ROWS,
    CommandHint,
    Context,
    ParamHint,
    Pick,
    PickGroup,
    Reader,
    chosen_players,
)
from ...text import say
from .actions import CARD_NAMES
from .cards import COLOURS
from .sentences import tokens_words

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


# -- a reveal by the keys ------------------------------------------------------------

GAME = "bathroom-rush"
# What is printed on most Personas, offered for each colour after those the
# table has already revealed in that colour (without a box described).
USUAL_PRINTED = ((1, 0), (2, 0), (1, 1), (0, 1))
# Characters a group's names share on one line of the screen.
GROUP_CHARACTERS = 20


def _reveal_title(ctx: Context) -> str:
    queue, position = int(ctx.args["queue"]), int(ctx.args["position"])
    if position == 1:
        return say("keys.bathroom", ctx.lang, game=GAME, queue=queue)
    return say("keys.place", ctx.lang, game=GAME, queue=queue, position=position)


def _colour_word(colour: str, lang: str) -> str:
    return say(f"choice.{colour}", lang, game=GAME, default=colour)


def _kind_picks(ctx: Context) -> list[PickGroup]:
    """The kinds of the box still unseen, in at most four groups of at most
    four beside the keys: by colour where that fits, the likeliest first."""
    kinds = [k for k in ctx.state.get("box") or () if k["unseen"]]
    order = {colour: n for n, colour in enumerate(COLOURS)}
    kinds.sort(key=lambda k: (order.get(k["colour"], len(order)), -k["unseen"]))
    picks = {id(k): Pick(f"{k['name']} ×{k['unseen']}", {"kind": k["name"]},
                         say("keys.reveal-kind-ask", ctx.lang, game=GAME, kind=k["name"],
                             tokens=tokens_words(k["pipi"], k["popo"], ctx.lang)))
             for k in kinds}
    rows = len(KEY_ROWS)
    if len(kinds) > rows * rows:
        # More kinds than the keys reach in three presses: the likeliest
        # in the first three groups, the others in the last.
        likeliest = sorted(kinds, key=lambda k: -k["unseen"])
        head = [k for k in kinds if k in likeliest[:rows * (rows - 1)]]
        chunks = _chunks(head, rows - 1) + [
            [k for k in kinds if k not in head]]
    else:
        chunks = _chunks(kinds, rows)
    return [PickGroup(_names_line([k["name"] for k in chunk]),
                      tuple(picks[id(k)] for k in chunk)) for chunk in chunks]


def _chunks(kinds: Sequence[Mapping[str, Any]], groups: int) -> list[list[Mapping[str, Any]]]:
    """``kinds`` (colour by colour, the likeliest first in each) cut into at
    most ``groups`` runs of at most four: mixing colours as little as can
    be, then with the fewest presses for the cards the deck holds (a run of
    one kind is two presses, not three), then splitting colours least."""
    edges = _cuts(tuple((str(k["colour"]), int(k["unseen"])) for k in kinds), groups)
    return [list(kinds[a:b]) for a, b in pairwise(edges)]


@lru_cache(maxsize=64)
def _cuts(kinds: tuple[tuple[str, int], ...], groups: int) -> tuple[int, ...]:
    """Where to cut a run of kinds, each ``(colour, cards unseen)`` (see
    :func:`_chunks`)."""
    size = len(KEY_ROWS)
    count = len(kinds)
    colours = [colour for colour, _ in kinds]
    best = (*range(0, count, size), count)
    best_cost: tuple[int, ...] | None = None
    for parts in range(1, groups + 1):
        for cuts in combinations(range(1, count), parts - 1):
            edges = (0, *cuts, count)
            runs = list(pairwise(edges))
            if any(b - a > size for a, b in runs):
                continue
            mixed = sum(len(set(colours[a:b])) - 1 for a, b in runs)
            presses = sum((2 if b - a == 1 else 3) * kinds[n][1] for a, b in runs
                          for n in range(a, b))
            split = sum(1 for cut in cuts if colours[cut - 1] == colours[cut])
            cost = (mixed, presses, split, parts)
            if best_cost is None or cost < best_cost:
                best, best_cost = edges, cost
    return best


def _names_line(names: Sequence[str]) -> str:
    """A group's names on one line: whole when they fit, else the first
    letters of each ("Raga Turi Mana Bamb")."""
    line = ", ".join(names)
    if len(line) <= GROUP_CHARACTERS:
        return line
    each = max(3, (GROUP_CHARACTERS + 1) // len(names) - 1)
    return " ".join(n[:each].rstrip() for n in names)


def _printed_picks(ctx: Context) -> list[PickGroup]:
    """Without a box: the colour beside a key, then its usual tokens."""
    seen: dict[str, dict[tuple[int, int], int]] = {c: {} for c in COLOURS}
    for queue in ctx.state.get("queues") or ():
        for slot in queue.get("slots") or ():
            colour, pipi, popo = slot.get("colour"), slot.get("pipi"), slot.get("popo")
            if colour in seen and isinstance(pipi, int) and isinstance(popo, int):
                seen[colour][(pipi, popo)] = seen[colour].get((pipi, popo), 0) + 1
    groups = []
    for colour in COLOURS:
        counted = sorted(seen[colour], key=lambda printed: -seen[colour][printed])
        usual = list(dict.fromkeys([*counted, *USUAL_PRINTED]))[:len(KEY_ROWS)]
        word = _colour_word(colour, ctx.lang)
        picks = []
        for pipi, popo in usual:
            tokens = tokens_words(pipi, popo, ctx.lang)
            picks.append(Pick(tokens, {"pipi": pipi, "popo": popo, "colour": colour},
                              say("keys.reveal-ask", ctx.lang, game=GAME,
                                  colour=word, tokens=tokens)))
        groups.append(PickGroup(word, tuple(picks)))
    return groups


_TOKENS = {"pipi": ParamHint(label="pipì"), "popo": ParamHint(label="popò")}

HINTS: dict[str, CommandHint] = {
    "choose-queue": CommandHint(params={"queue": ParamHint(start=_free_queue)}),
    "reveal": CommandHint(params={
        **_TOKENS, "name": ParamHint(notes=PERSONAS, skip=_neutral)},
        keys=_printed_picks, keys_title=_reveal_title),
    "set-persona": CommandHint(params={
        "pipi": ParamHint(label="pipì", start=_persona("pipi")),
        "popo": ParamHint(label="popò", start=_persona("popo")),
        "colour": ParamHint(start=_persona("colour")),
        "name": ParamHint(notes=PERSONAS, start=_persona("name"))}),
    "play": CommandHint(params={"card": ParamHint(labels=CARD_NAMES)}),
    "target": CommandHint(),
    "decompress": CommandHint(),
    "reveal-kind": CommandHint(params={"kind": ParamHint(offer=_unseen_kinds)},
                               keys=_kind_picks, keys_title=_reveal_title),
    # The tokens an effect applied by hand moves are told on a phone; the
    # table's buttons send the effect alone.
    "effect": CommandHint(params={name: ParamHint(skip=True) for name in ("pipi", "popo", "to")}),
    "defend": CommandHint(),
    "end-turn": CommandHint(),
    "add-tokens": CommandHint(params={
        **_TOKENS, "queue": ParamHint(start=_actors_queue), "position": ParamHint(skip=True)}),
    "take-tokens": CommandHint(params={
        "pipi": ParamHint(label="pipì", start=1), "popo": ParamHint(label="popò")}),
    "set-reserve": CommandHint(params={
        "pipi": ParamHint(label="pipì", start=chosen_players("pipi", "reserves")),
        "popo": ParamHint(label="popò", start=chosen_players("popo", "reserves"))}),
    "set-tokens": CommandHint(params={
        "pipi": ParamHint(label="pipì", start=_persona("tokens_on_card", "pipi")),
        "popo": ParamHint(label="popò", start=_persona("tokens_on_card", "popo"))}),
    "unflip": CommandHint(params={
        "queue": ParamHint(start=_flipped_queue),
        "position": ParamHint(start=_flipped_position)}),
    "place-permanent": CommandHint(params={
        **_TOKENS, "card": ParamHint(notes=("Bathroom Defence",) + ACTION_CARDS)}),
    "remove-permanent": CommandHint(),
}
