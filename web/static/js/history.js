// The history of the game being played, newest first, with undo and redo.

import { $, api, boot, change, eventText, h, has, isController, on, store, t, madeAgainst, when } from "./core.js";

const list = $("#history");
const undoButton = $("#undo");
const redoButton = $("#redo");
let shown = null; // "game_id:version" of the history on screen

async function load() {
  const state = store.state;
  const key = state ? `${state.game_id}:${state.version}` : "none";
  if (key === shown) return;
  shown = key;
  let past;
  try {
    past = await api("GET", "/api/history");
  } catch (err) {
    shown = null;
    return;
  }
  render(past);
}

function render(past) {
  undoButton.disabled = !isController() || !past.can_undo;
  redoButton.disabled = !isController() || !past.can_redo;
  undoButton.title = past.undo_text || "";
  if (!past.entries.length) {
    list.replaceChildren(h("li", { class: "empty" }, h("p", { text: past.game_id ? t("history.empty") : t("table.no_game") })));
    return;
  }
  // Which commands are taken back right now: walk the history as the table does.
  const done = [];
  const undone = [];
  const undoneSeqs = new Set();
  for (const entry of past.entries) {
    if (entry.action === "command") {
      done.push(entry);
      undone.length = 0;
    } else if (entry.action === "undo") {
      const last = done.pop();
      if (last) undone.push(last);
    } else if (entry.action === "redo") {
      const back = undone.pop();
      if (back) done.push(back);
    }
  }
  for (const entry of undone) undoneSeqs.add(entry.seq);
  const players = past.players ?? [];
  list.replaceChildren(...past.entries.slice().reverse().map((entry) => h("li", {
    class: [entry.action, undoneSeqs.has(entry.seq) && "undone"], dataset: { seq: entry.seq, version: entry.version },
  },
  h("div", { class: "meta" }, h("span", { text: `#${entry.seq} · ${when(entry.at)}` }), h("span", { text: entry.source ? (has(`source.${entry.source}`) ? t(`source.${entry.source}`) : entry.source) : "" })),
  h("div", { class: "what", text: entry.action === "command" ? entry.text : `${t(`history.${entry.action}`)}: ${entry.text.replace(/^(undo|redo) /, "")}` }),
  entry.events.map((event) => h("p", { class: ["said", event.alert && "alert"], text: eventText(event, players, past.game) })))));
}

undoButton.addEventListener("click", () => change("/api/undo", madeAgainst()));
redoButton.addEventListener("click", () => change("/api/redo", madeAgainst()));
on("state", load);
on("session", () => {
  shown = null;
  load();
});
boot();
