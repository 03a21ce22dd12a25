// A board for any game: players, whose turn it is, and the game's view as
// plain facts.

import { h, humanize } from "../core.js";
import { header, playerRow, waitingSeats } from "./common.js";

export function render(state) {
  const waiting = waitingSeats(state);
  const facts = h("dl", { class: "kv" });
  for (const [key, value] of Object.entries(state.state)) {
    facts.append(h("dt", { text: humanize(key) }), h("dd", { text: show(value, state) }));
  }
  return h("div", { class: "board" },
    header(state),
    h("ul", { class: "players" }, state.players.map((_, seat) => playerRow(state, seat, { active: waiting.has(seat) }))),
    h("section", { class: "card" }, facts));
}

function show(value, state) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map((v) => show(v, state)).join(", ") || "–";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
