// OhShit!: every player's pile as coloured counts (the cards come from the
// game's view by slug, their names from the game's text), who is constipated,
// who is dead, whose turn it is.  The chart is the piles side by side against
// the limit the view gives.

import { h, t } from "../core.js";
import { barChart, header, playerRow } from "./common.js";

// How each card looks on a phone: the panel's choice, not the rules'.
const HEX = {
  spicy: "#d62828",
  precious: "#e0a800",
  grassy: "#2e9e44",
  frosty: "#2f7fd8",
  fruity: "#8e44ad",
  unicorn: "#f06292",
};
const OTHER = "#888888";

// Each kind also has a letter (the first of its name in the phone's
// language, more when two names start alike) and a pattern of its own, so
// that no one needs to tell the colours apart; poops are square chips with
// their letter, players round dots, never one for the other.
function kinds(view) {
  const slugs = [...view.colours, view.unicorn];
  const names = slugs.map((slug) => t(`ohshit:card.${slug}`));
  return slugs.map((slug, i) => {
    const name = names[i];
    // The shortest start of its name no other kind's name shares.
    let size = 1;
    while (size < name.length && names.some((other, j) => j !== i && other.slice(0, size).toUpperCase() === name.slice(0, size).toUpperCase())) size += 1;
    const letter = name.slice(0, size).replace(/^./, (c) => c.toUpperCase());
    return { slug, hex: HEX[slug] ?? OTHER, letter };
  });
}

export function choiceLetter(state, value) {
  return kinds(state.state).find((k) => k.slug === value)?.letter ?? null;
}

function kindLabel(kind) {
  return t(`ohshit:card.${kind.slug}`);
}

export function choiceColour(state, value) {
  return kinds(state.state).find((k) => k.slug === value)?.hex ?? null;
}

// A player is a round marker with their initials, in the page's ink: never
// a poop's colour, and told apart by its letters, not its colour.
function initials(names, seat) {
  const name = names[seat] ?? "";
  let size = 1;
  while (size < name.length && names.some((other, j) => j !== seat && other.slice(0, size).toUpperCase() === name.slice(0, size).toUpperCase())) size += 1;
  return name.slice(0, size).replace(/^./, (c) => c.toUpperCase());
}

export function playerMarker(state, seat) {
  return h("span", { class: "seat-mark", dataset: { seat }, "aria-hidden": "true" }, initials(state.players ?? [], seat));
}

/**
 * What a card may be played on, from the table as it is: never a dead
 * player; a Suppositoire's colour only among the poops on its target's
 * pile (none before a target is picked, none on an empty pile).  `null`
 * leaves the choice as the command describes it.
 */
export function offered(state, command, param, args) {
  const view = state.state;
  if (!["poop", "toilette", "constipation", "suppositoire"].includes(command)) return null;
  if (param.name === "target") return view.players.filter((p) => p.alive).map((p) => p.seat);
  if (command === "suppositoire" && param.name === "colour") {
    const target = view.players[args.target];
    if (!target) return [];
    return [...view.colours, view.unicorn].filter((kind) => target.pile[kind] > 0);
  }
  return null;
}

export function render(update) {
  const view = update.state;
  // A poop is played by tapping the pile it goes on: the sheet names it
  // and has it chosen, then the colour is asked (three taps: the pile,
  // the colour, OK).
  const poop = (update.expected ?? []).find((e) => e.command === "poop");
  const facts = [
    t("ohshit:board.turn", { n: view.turn }),
    t("ohshit:board.draw", { n: view.draw_pile }),
    t("ohshit:board.decharge", { n: view.decharge }),
    t("ohshit:board.drain", { n: view.drain }),
    view.poops_only ? t("ohshit:board.poops_only") : null,
  ];
  return h("div", { class: "board ohshit" },
    header(update, facts),
    h("ul", { class: "players" }, view.players.map((p) => playerRow(update, p.seat, {
      active: view.active === p.seat,
      out: !p.alive,
      marker: playerMarker(update, p.seat),
      badges: [
        p.constipated ? h("span", { class: "badge", text: t("ohshit:board.constipated") }) : null,
        !p.alive ? h("span", { class: "badge dead", text: t("ohshit:board.dead") }) : null,
      ],
      sub: p.alive ? t("ohshit:board.hand", { n: p.hand }) : null,
      right: poop && p.alive ? pileButton(update, poop, p, pile(view, p)) : pile(view, p),
    }))),
    legend(view));
}

function pileButton(update, exp, player, content) {
  return h("button", {
    type: "button", class: "pile-act", dataset: { poopOn: player.seat },
    "aria-label": t("board.poop_on", { name: update.players[player.seat] }),
    // The sheet names the pile and has it chosen (another can still be).
    onclick: (event) => event.currentTarget.dispatchEvent(new CustomEvent("act", {
      detail: { ...exp, chosen: { target: player.seat }, title: t("board.poop_on", { name: update.players[player.seat] }) },
      bubbles: true,
    })),
  }, content);
}

function pile(view, player) {
  const chips = kinds(view).filter((k) => player.pile[k.slug] > 0).map((k) => h("span", {
    class: "poop", style: { background: k.hex }, title: kindLabel(k), "aria-label": `${player.pile[k.slug]} ${kindLabel(k)}`,
    dataset: { kind: k.slug, letter: k.letter },
  }, String(player.pile[k.slug])));
  return h("div", { class: "pile" }, chips,
    h("span", { class: ["pile-total", player.pile_total >= view.full_pile && "full"], title: t("ohshit:board.pile_total", { n: view.full_pile }) }, `${player.pile_total}/${view.full_pile}`));
}

function legend(view) {
  return h("ul", { class: "facts legend", "aria-label": t("ohshit:board.legend") }, kinds(view).map((k) => h("li", {},
    h("span", { class: "poop mini", style: { background: k.hex }, dataset: { kind: k.slug }, "aria-hidden": "true" }, k.letter), " ", kindLabel(k))));
}

export function chart(update) {
  const view = update.state;
  const rows = view.players.map((p) => ({
    label: p.name,
    parts: kinds(view).map((k) => ({ value: p.pile[k.slug], colour: k.hex, label: kindLabel(k) })),
    total: p.pile_total,
  }));
  return { title: t("ohshit:board.chart"), el: barChart(rows, { max: view.max_pile, limit: view.full_pile, limitLabel: t("ohshit:board.limit", { n: view.full_pile }) }) };
}
