// OhShit!: every player's pile as coloured counts (the colours come from the
// game's view), who is constipated, who is dead, whose turn it is.  The chart
// is the piles side by side against the limit of five.

import { h, lang, t } from "../core.js";
import { barChart, header, playerRow } from "./common.js";

const FULL_PILE = 5;

function kinds(view) {
  return [...view.colours, view.unicorn];
}

function kindLabel(kind) {
  return lang === "fr" ? kind.french : kind.english;
}

export function choiceColour(state, value) {
  return kinds(state.state).find((k) => k.slug === value)?.hex ?? null;
}

export function render(update) {
  const view = update.state;
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
      badges: [
        p.constipated ? h("span", { class: "badge", text: t("ohshit:board.constipated") }) : null,
        !p.alive ? h("span", { class: "badge dead", text: t("ohshit:board.dead") }) : null,
      ],
      sub: p.alive ? t("ohshit:board.hand", { n: p.hand }) : null,
      right: pile(view, p),
    }))),
    legend(view));
}

function pile(view, player) {
  const chips = kinds(view).filter((k) => player.pile[k.slug] > 0).map((k) => h("span", {
    class: "poop", style: { background: k.hex }, title: kindLabel(k), "aria-label": `${player.pile[k.slug]} ${kindLabel(k)}`,
    dataset: { kind: k.slug },
  }, String(player.pile[k.slug])));
  return h("div", { class: "pile" }, chips,
    h("span", { class: ["pile-total", player.pile_total >= FULL_PILE && "full"], title: t("ohshit:board.pile_total") }, `${player.pile_total}/${FULL_PILE}`));
}

function legend(view) {
  return h("ul", { class: "facts legend", "aria-label": t("ohshit:board.legend") }, kinds(view).map((k) => h("li", {},
    h("span", { class: "dot", style: { background: k.hex } }), " ", kindLabel(k))));
}

export function chart(update) {
  const view = update.state;
  const rows = view.players.map((p) => ({
    label: p.name,
    parts: kinds(view).map((k) => ({ value: p.pile[k.slug], colour: k.hex, label: kindLabel(k) })),
    total: p.pile_total,
  }));
  return { title: t("ohshit:board.chart"), el: barChart(rows, { max: 6, limit: FULL_PILE, limitLabel: t("ohshit:board.limit") }) };
}
