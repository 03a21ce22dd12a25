// Call of Nature: the Pressure, big, on a gauge with the critical thresholds
// and the Respites (where they are, and which are armed, come from the game's
// view); each player's Mastery; whose turn it is and which way play goes.
// The chart is the Pressure over the game.

import { h, svg, t } from "../core.js";
import { header, playerRow } from "./common.js";


export function render(update) {
  const view = update.state;
  const clockwise = view.direction === "clockwise";
  const facts = [
    t("call-of-nature:board.round", { n: view.round }),
    h("span", {}, h("span", { class: "direction", "aria-hidden": "true", text: clockwise ? "↻ " : "↺ " }), t(clockwise ? "call-of-nature:board.clockwise" : "call-of-nature:board.counter")),
    t("call-of-nature:board.piles", { draw: view.draw_pile, played: view.played_pile }),
  ];
  return h("div", { class: "board con" },
    header(update, facts),
    pressureCard(view, update),
    h("ul", { class: "players" }, view.players.map((p) => playerRow(update, p.seat, {
      active: view.active === p.seat,
      out: p.eliminated,
      sub: p.eliminated ? t("call-of-nature:board.exploded") : endRollNote(view, p.seat),
      right: mastery(p.mastery, view.max_mastery),
    }))));
}

/** The values a Pressure card may have, as the table was set up: the
 * dock offers each of them as a button. */
export function valueRange(update, command) {
  const values = update.state?.card_values;
  return command === "card" && Array.isArray(values) ? values : null;
}

/** The special cards this deck holds: "Special card" lists them, each with
 * what it will do, and one tap plays it. */
export function playChoices(update, command) {
  const cards = update.state?.specials_in_deck;
  return command === "special" && Array.isArray(cards) ? cards : null;
}

function pressureCard(view, update) {
  const next = view.next_threshold;
  const hot = next !== null && next - view.pressure <= 5;
  const respite = view.next_respite;
  const card = h("section", { class: "card pressure-card" },
    h("div", { class: "pressure-box" },
      h("div", { class: "pressure-label", text: t("call-of-nature:board.pressure") }),
      h("div", { class: ["pressure", hot && "hot"], id: "pressure", "aria-label": t("call-of-nature:board.pressure_is", { n: view.pressure }) }, String(view.pressure))),
    h("div", { class: "pressure-next" },
      next === null ? t("call-of-nature:board.no_threshold") : t("call-of-nature:board.next_threshold", { n: next, gap: next - view.pressure }),
      respite ? h("small", { text: t("call-of-nature:board.next_respite", { n: respite }) }) : null),
    gauge(view));
  if (view.phase === "respite" && view.respite) {
    card.append(h("p", { class: "event alert", text: t("call-of-nature:board.respite_now", { name: update.players[view.respite.player], at: view.respite.pressure }) }));
  }
  if (view.end_rolls?.length) card.append(endRolls(view, update));
  return card;
}

function gauge(view) {
  const top = Math.max(100, view.pressure);
  const width = 340;
  const x = (v) => 10 + (v / top) * (width - 20);
  const el = svg("svg", { class: "gauge", viewBox: `0 0 ${width} 58`, role: "img", "aria-label": t("call-of-nature:board.gauge", {
    thresholds: view.thresholds.map((th) => th.at).join(", "), respites: view.respites.join(", "),
  }) });
  el.append(svg("rect", { class: "track", x: 10, y: 14, width: width - 20, height: 18, rx: 9 }));
  el.append(svg("rect", { class: ["fill", view.next_threshold !== null && view.next_threshold - view.pressure <= 5 && "hot"].filter(Boolean).join(" "), x: 10, y: 14, width: Math.max(0, x(view.pressure) - 10), height: 18, rx: 9 }));
  for (const value of view.respites) {
    el.append(svg("line", { class: "respite", x1: x(value), x2: x(value), y1: 8, y2: 38 }));
    el.append(svg("text", { class: "respite-label", x: x(value), y: 54, "text-anchor": "middle" }, String(value)));
  }
  for (const { at: value, armed } of view.thresholds) {
    el.append(svg("line", { class: ["tick", !armed && "passed"].filter(Boolean).join(" "), x1: x(value), x2: x(value), y1: 6, y2: 40 }));
    el.append(svg("text", { class: armed ? "armed" : "passed", x: x(value), y: 54, "text-anchor": "middle" }, String(value)));
  }
  return el;
}

function mastery(level, most) {
  const pips = [];
  for (let i = 1; i <= most; i++) pips.push(h("i", { class: i <= level ? "on" : "" }));
  return h("div", { class: ["mastery", level <= 2 && "low"], "aria-label": t("call-of-nature:board.mastery_is", { n: level, max: most }), title: t("call-of-nature:board.mastery") },
    pips, h("b", { text: String(level) }));
}

function endRollNote(view, seat) {
  const entry = view.end_rolls?.find((r) => r.player === seat);
  if (!entry) return null;
  if (entry.dice) return t("call-of-nature:board.end_rolled", { dice: entry.dice.join("+"), total: entry.total, loss: entry.loss });
  return t("call-of-nature:board.end_waiting");
}

function endRolls(view, update) {
  return h("p", { class: "hint", text: t("call-of-nature:board.end_of_game", { name: update.players[view.players.find((p) => p.eliminated)?.seat] ?? "" }) });
}

// -- the chart: the Pressure after each card, from the history's events ------------

function pressurePoints(events) {
  const points = [];
  for (const event of events) {
    if (event.kind === "pressure-changed") points.push({ value: event.data.after });
    else if (event.kind === "round-ended") points.push({ value: 0, round: event.data.round });
    else if (event.kind === "correction" && event.data.correction === "set-pressure") points.push({ value: event.data.after });
  }
  return points;
}

export function chart(update, groups) {
  const points = [{ value: 0 }];
  for (const group of groups) points.push(...pressurePoints(group));
  if (points[points.length - 1].value !== update.state.pressure) points.push({ value: update.state.pressure });
  const width = 360;
  const height = 200;
  const left = 30;
  const right = 8;
  const top = 10;
  const bottom = 22;
  const maxValue = Math.max(100, ...points.map((p) => p.value));
  const steps = Math.max(points.length - 1, 1);
  const x = (i) => left + (i / steps) * (width - left - right);
  const y = (v) => top + (1 - v / maxValue) * (height - top - bottom);
  const el = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("call-of-nature:board.chart") });
  el.append(svg("line", { class: "axis", x1: left, x2: width - right, y1: y(0), y2: y(0) }));
  for (const v of update.state.respites) {
    el.append(svg("line", { class: "respite", x1: left, x2: width - right, y1: y(v), y2: y(v) }));
    el.append(svg("text", { x: 2, y: y(v) + 4 }, String(v)));
  }
  for (const { at: v } of update.state.thresholds) {
    el.append(svg("line", { class: "threshold", x1: left, x2: width - right, y1: y(v), y2: y(v) }));
    el.append(svg("text", { x: 2, y: y(v) + 4 }, String(v)));
  }
  points.forEach((p, i) => {
    if (p.round) el.append(svg("line", { class: "round", x1: x(i), x2: x(i), y1: top, y2: y(0) }));
  });
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  el.append(svg("path", { class: "line", d: path }));
  const last = points[points.length - 1];
  el.append(svg("circle", { class: "point", cx: x(points.length - 1), cy: y(last.value), r: 5 }));
  el.append(svg("text", { x: left, y: height - 6 }, t("call-of-nature:board.chart_axis", { n: points.length - 1 })));
  return { title: t("call-of-nature:board.chart"), el };
}
