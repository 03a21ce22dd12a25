// The venue board: every table live and the league, redrawn at each change
// the board's live stream announces (no polling).
// Its words are the panel's catalogs' `venue-board.*` strings (English,
// French, Italian), filled the panel's way (core.js).
import { has, lang, loadStrings, t } from "../js/core.js";

const w = (key, vars) => t(`venue-board.${key}`, vars);
const percent = new Intl.NumberFormat(lang, { style: "percent" });
let period = "evening";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function tableCard(t) {
  const s = t.state;
  const card = el("article", { class: `table${t.online ? "" : " offline"}`, "data-table": t.table });
  card.append(el("h3", {}, el("span", {}, s?.table || t.table),
                 el("span", { class: "state" }, t.online ? w("online") : w("offline"))));
  if (!s) {
    card.append(el("p", { class: "game" }, w("no-game")));
    return card;
  }
  const over = s.over ? ` · ${w("finished")}${s.winners?.length ? " · " + w("won-by", { winners: s.winners.join(", ") }) : ""}` : "";
  card.append(el("p", { class: "game" }, `${s.title}${over}`));
  const list = el("ol");
  for (const p of s.players) {
    const li = el("li", { class: [p.name === s.turn && !s.over ? "turn" : "", p.in ? "" : "out"].join(" ").trim() });
    li.append(el("span", { class: p.name === s.leader ? "lead" : "" }, p.name));
    li.append(el("span", {}, p.figure === null || p.figure === undefined ? "" : String(p.figure)));
    list.append(li);
  }
  card.append(list);
  if (t.alert) {
    const key = `venue-board.alert.${t.alert.event_type}`;
    const said = has(key) ? w(`alert.${t.alert.event_type}`, { player: t.alert.player || "" })
      : (t.alert.said || t.alert.event_type);
    card.append(el("p", { class: "alert" }, said));
  }
  return card;
}

function leagueTables(data) {
  const body = document.getElementById("league-body");
  body.replaceChildren();
  const games = Object.entries(data.games || {});
  if (!games.length) { body.append(el("p", {}, w("nothing"))); return; }
  for (const [key, game] of games) {
    const title = (data.titles || {})[key] || key;
    const table = el("table", {}, el("caption", {}, `${title} · ${w("played", { n: game.games })}`));
    table.append(el("tr", {}, el("th", {}, w("player")), el("th", {}, w("games")), el("th", {}, w("wins")),
                    el("th", {}, w("rate")), el("th", {}, w("rating"))));
    for (const p of game.players) {
      table.append(el("tr", {}, el("td", {}, p.name), el("td", {}, String(p.played)),
                      el("td", {}, String(p.won)), el("td", {}, percent.format(p.rate / 100)),
                      el("td", {}, p.rating ? p.rating.ordinal.toFixed(1) : "")));
    }
    body.append(table);
  }
}

let busy = null, again = false;
function refresh() {
  // One refresh at a time; changes that come meanwhile make one more.
  if (busy) { again = true; return busy; }
  busy = redraw().finally(() => {
    busy = null;
    if (again) { again = false; refresh(); }
  });
  return busy;
}

async function redraw() {
  const [tables, league] = await Promise.all([
    fetch("api/tables").then((r) => r.json()),
    fetch(`api/league?period=${period}`).then((r) => r.json()),
  ]);
  document.getElementById("tables").replaceChildren(...tables.tables.map(tableCard));
  const online = tables.tables.filter((t) => t.online).length;
  document.getElementById("status").textContent = w("tables-online", { n: online });
  document.body.dataset.generation = tables.generation;
  leagueTables(league);
}

function labels() {
  document.getElementById("league-title").textContent = w("league");
  for (const b of document.querySelectorAll(".periods button")) {
    b.textContent = w(b.dataset.period);
    b.addEventListener("click", () => {
      period = b.dataset.period;
      for (const o of document.querySelectorAll(".periods button")) o.setAttribute("aria-pressed", String(o === b));
      exports();
      refresh();
    });
  }
  exports();
}

function exports() {
  const csv = document.getElementById("csv"), json = document.getElementById("json");
  csv.textContent = w("csv"); csv.href = `api/league.csv?period=${period}`;
  json.textContent = w("json"); json.href = `api/league.json?period=${period}`;
}

await loadStrings();
labels();
refresh();
const stream = new EventSource("api/stream");
stream.addEventListener("change", () => refresh());
