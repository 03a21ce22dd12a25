// The venue board: every table live and the league, redrawn at each change
// the board's live stream announces (no polling).
"use strict";

const WORDS = {
  en: { played: (n) => new Intl.PluralRules("en").select(n) === "one" ? `${n} game` : `${n} games`,
        online: "online", offline: "offline", turn: "turn", leads: "leads", noGame: "no game yet",
        league: "League", evening: "Tonight", season: "Season", csv: "CSV", json: "JSON",
        player: "Player", games: "Games", wins: "Wins", rate: "Won %", rating: "Rating",
        tables: (n) => new Intl.PluralRules("en").select(n) === "one" ? `${n} table` : `${n} tables`,
        over: "finished", won: (w) => `won by ${w}`, nothing: "No results yet.",
        alerts: { "threshold-fired": (p) => `Threshold: ${p} loses Mastery`,
                  "player-eliminated": (p) => `${p} is out`, "player-died": (p) => `${p} is dead`,
                  "game-over": () => "Game over", "reshuffle-needed": () => "Reshuffle the deck",
                  "reached": (p) => `${p} reaches the bathroom`, "final-round": () => "Final round",
                  "limit-reached": (p) => `${p} reaches the popò limit`,
                  "tie-break": () => "Tie-break" } },
  fr: { played: (n) => new Intl.PluralRules("fr").select(n) === "one" ? `${n} partie` : `${n} parties`,
        online: "en ligne", offline: "hors ligne", turn: "à jouer", leads: "en tête",
        noGame: "pas encore de partie", league: "Championnat", evening: "Ce soir",
        season: "Saison", csv: "CSV", json: "JSON", player: "Joueur", games: "Parties",
        wins: "Gagnées", rate: "% gagné", rating: "Cote",
        tables: (n) => new Intl.PluralRules("fr").select(n) === "one" ? `${n} table` : `${n} tables`,
        over: "terminée", won: (w) => `gagnée par ${w}`, nothing: "Pas encore de résultat.",
        alerts: { "threshold-fired": (p) => `Seuil : ${p} perd de la Maîtrise`,
                  "player-eliminated": (p) => `${p} est éliminé`, "player-died": (p) => `${p} est mort`,
                  "game-over": () => "Partie terminée", "reshuffle-needed": () => "Mélangez la pioche",
                  "reached": (p) => `${p} atteint les toilettes`, "final-round": () => "Dernier tour",
                  "limit-reached": (p) => `${p} atteint la limite de popò`,
                  "tie-break": () => "Départage" } },
  it: { played: (n) => new Intl.PluralRules("it").select(n) === "one" ? `${n} partita` : `${n} partite`,
        online: "in linea", offline: "non in linea", turn: "di turno", leads: "in testa",
        noGame: "nessuna partita", league: "Campionato", evening: "Stasera", season: "Stagione",
        csv: "CSV", json: "JSON", player: "Giocatore", games: "Partite", wins: "Vinte",
        rate: "% vinte", rating: "Forza",
        tables: (n) => new Intl.PluralRules("it").select(n) === "one" ? `${n} tavolo` : `${n} tavoli`,
        over: "finita", won: (w) => `vinta da ${w}`, nothing: "Ancora nessun risultato.",
        alerts: { "threshold-fired": (p) => `Soglia: ${p} perde Padronanza`,
                  "player-eliminated": (p) => `${p} è eliminato`, "player-died": (p) => `${p} è morto`,
                  "game-over": () => "Partita finita", "reshuffle-needed": () => "Rimescolate il mazzo",
                  "reached": (p) => `${p} arriva al bagno`, "final-round": () => "Ultimo giro",
                  "limit-reached": (p) => `${p} raggiunge il limite di popò`,
                  "tie-break": () => "Spareggio" } },
};
const lang = document.body.dataset.lang in WORDS ? document.body.dataset.lang : "en";
const w = WORDS[lang];
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
                 el("span", { class: "state" }, t.online ? w.online : w.offline)));
  if (!s) {
    card.append(el("p", { class: "game" }, w.noGame));
    return card;
  }
  const over = s.over ? ` · ${w.over}${s.winners?.length ? " · " + w.won(s.winners.join(", ")) : ""}` : "";
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
    const say = w.alerts[t.alert.event_type];
    card.append(el("p", { class: "alert" }, say ? say(t.alert.player || "") : (t.alert.said || t.alert.event_type)));
  }
  return card;
}

function leagueTables(data) {
  const body = document.getElementById("league-body");
  body.replaceChildren();
  const games = Object.entries(data.games || {});
  if (!games.length) { body.append(el("p", {}, w.nothing)); return; }
  for (const [key, game] of games) {
    const title = (data.titles || {})[key] || key;
    const table = el("table", {}, el("caption", {}, `${title} · ${w.played(game.games)}`));
    table.append(el("tr", {}, el("th", {}, w.player), el("th", {}, w.games), el("th", {}, w.wins),
                    el("th", {}, w.rate), el("th", {}, w.rating)));
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
  document.getElementById("status").textContent = `${w.tables(online)} ${w.online}`;
  document.body.dataset.generation = tables.generation;
  leagueTables(league);
}

function labels() {
  document.getElementById("league-title").textContent = w.league;
  for (const b of document.querySelectorAll(".periods button")) {
    b.textContent = w[b.dataset.period];
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
  csv.textContent = w.csv; csv.href = `api/league.csv?period=${period}`;
  json.textContent = w.json; json.href = `api/league.json?period=${period}`;
}

labels();
refresh();
const stream = new EventSource("api/stream");
stream.addEventListener("change", () => refresh());
