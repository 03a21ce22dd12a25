// The history of a game, newest first, as people say it: each line is the
// sentences of what happened (the engine's events, in the phone's language),
// with its date and time.  Without ?game= it is the game being played, with
// undo (asks once, naming what it takes back) and redo; with ?game=<id> it is
// a past game: its story and its chart.

import { $, api, boot, gameTitle, h, has, isController, lang, on, store, t } from "./core.js";
import { boardFor } from "./games/index.js";
import { askUndo, redo, undoSaid } from "./undo.js";
import { bgstatsLink } from "./bgstats.js";
import { entrySaid, resultSaid } from "./sentences.js";

const list = $("#history");
const undoButton = $("#undo");
const redoButton = $("#redo");
const wanted = new URLSearchParams(location.search).get("game");
let shown = null; // "game_id:version" of the history on screen

/** "Mon 30 Nov 2026, 18:05": a line's date and time, always both, as the
 * page's language writes them. */
let dates = null;

export function dated(unixSeconds) {
  if (dates?.resolvedOptions().locale !== new Intl.DateTimeFormat(lang).resolvedOptions().locale) {
    dates = new Intl.DateTimeFormat(lang, {
      weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
    });
  }
  return dates.format(new Date(unixSeconds * 1000));
}

async function load() {
  const state = store.state;
  const key = wanted ? `past:${wanted}` : state ? `${state.game_id}:${state.version}` : "none";
  if (key === shown) return;
  shown = key;
  let past;
  try {
    past = await api("GET", wanted ? `/api/history?game=${encodeURIComponent(wanted)}` : "/api/history");
  } catch (err) {
    shown = null;
    list.replaceChildren(h("li", { class: "empty" }, h("p", { text: err.message })));
    return;
  }
  render(past);
}

function renderHead(past) {
  let head = $("#history-head");
  if (!head) {
    head = h("section", { id: "history-head" });
    list.before(head);
  }
  if (!past.state) {
    head.replaceChildren();
    return;
  }
  // A past game: what it was, who played, how it ended, and its chart.
  const groups = [];
  for (const entry of past.entries) {
    if (entry.action === "undo") groups.pop();
    else groups.push(entry.events);
  }
  const chart = boardFor(past.game).chart?.(past.state, groups);
  const ended = resultSaid(past.state.result, past.players ?? [], past.game);
  // (replaceChildren would write a null as the text "null".)
  head.replaceChildren(...[
    h("p", { class: "hint", id: "past-game", text: `${gameTitle(past.game)} · ${(past.players ?? []).join(", ")}` }),
    ended ? h("p", { id: "past-result", text: ended }) : null,
    past.state.over ? h("p", {}, bgstatsLink(past.game_id)) : null,
    chart ? h("section", { class: "card", id: "past-chart" }, h("h2", { text: chart.title }), chart.el) : null,
  ].filter(Boolean));
}

function render(past) {
  const live = !past.state;
  undoButton.hidden = !live;
  redoButton.hidden = !live;
  undoButton.disabled = !isController() || !past.can_undo;
  redoButton.disabled = !isController() || !past.can_redo;
  undoButton.title = undoSaid(past);
  renderHead(past);
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
  list.replaceChildren(...past.entries.slice().reverse().map((entry) => h("li", {
    class: [entry.action, undoneSeqs.has(entry.seq) && "undone"], dataset: { seq: entry.seq, version: entry.version },
  },
  h("div", { class: "meta" },
    h("time", { datetime: new Date(entry.at * 1000).toISOString(), text: dated(entry.at) }),
    h("span", { text: entry.source ? (has(`source.${entry.source}`) ? t(`source.${entry.source}`) : entry.source) : "" })),
  h("div", { class: ["what", entry.events.some((e) => e.alert) && "alert"], text: entrySaid(entry, past) }))));
}

undoButton.addEventListener("click", () => askUndo());
redoButton.addEventListener("click", () => redo());
on("state", load);
on("session", () => {
  shown = null;
  load();
});
on("language", () => {
  shown = null;
  load();
});
boot();
