// Statistics of the games this table has played: wins per player, games
// played, and the past games.

import { $, api, boot, gameTitle, h, on, store, t, when } from "./core.js";

let lastGame = null;

async function load() {
  const key = store.state ? `${store.state.game_id}:${store.state.over}` : "none";
  if (key === lastGame) return;
  lastGame = key;
  const [stats, past] = await Promise.all([api("GET", "/api/stats"), api("GET", "/api/past-games")]);
  renderTotals(stats);
  renderPlayers(stats);
  renderPast(past);
}

function renderTotals(stats) {
  const byGame = Object.entries(stats.by_game).map(([key, n]) => h("div", { class: "total" }, h("b", { text: String(n) }), h("span", { text: gameTitle(key) })));
  $("#totals").replaceChildren(h("div", { class: "totals" },
    h("div", { class: "total" }, h("b", { id: "games-played", text: String(stats.games_played) }), h("span", { text: t("stats.games_played") })),
    byGame));
}

function renderPlayers(stats) {
  const rows = Object.entries(stats.players).sort((a, b) => b[1].won - a[1].won || b[1].played - a[1].played || a[0].localeCompare(b[0]));
  if (!rows.length) {
    $("#player-stats").replaceChildren(h("p", { class: "hint", text: t("stats.none") }));
    return;
  }
  $("#player-stats").replaceChildren(h("table", { class: "stats-table" },
    h("thead", {}, h("tr", {}, h("th", { text: t("stats.player") }), h("th", { class: "num", text: t("stats.won") }), h("th", { class: "num", text: t("stats.played") }), h("th", { text: t("stats.rate") }))),
    h("tbody", {}, rows.map(([name, s]) => {
      const rate = s.played ? Math.round((100 * s.won) / s.played) : 0;
      return h("tr", { dataset: { player: name } },
        h("td", { text: name }), h("td", { class: "num", text: String(s.won) }), h("td", { class: "num", text: String(s.played) }),
        h("td", {}, h("div", { class: "winbar", title: `${rate}%`, role: "img", "aria-label": `${rate}%` }, h("i", { style: { width: `${rate}%` } }))));
    }))));
}

function renderPast(past) {
  const list = $("#past-games");
  if (!past.length) {
    list.replaceChildren(h("li", {}, h("p", { class: "hint", text: t("stats.no_games") })));
    return;
  }
  list.replaceChildren(...past.map((g) => h("li", { dataset: { game: g.id } },
    h("div", {}, h("a", { href: `/history?game=${g.id}`, class: "past-link" }, h("b", { text: gameTitle(g.game) })),
      h("span", { class: "status-tag", text: t(`status.${g.status}`) })),
    h("div", { class: "meta", text: `${when(g.started)} · ${g.players.join(", ")}` }),
    g.result ? h("div", { text: winners(g) }) : null)));
}

function winners(g) {
  const names = g.result.winners.map((s) => g.players[s]).filter(Boolean);
  return names.length ? t(names.length === 1 ? "result.winner" : "result.winners", { names: names.join(", ") }) : g.result.message;
}

on("state", () => load().catch(() => {}));
boot().then(() => load().catch(() => {}));
