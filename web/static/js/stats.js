// Statistics of the games this table has played: wins per player, games
// played, and the past games.

import { $, api, boot, gameTitle, h, lang, number, on, store, t, when } from "./core.js";
import { resultSaid } from "./sentences.js";

const percent = (rate) => number(rate / 100, { style: "percent" });

let lastGame = null;
// While the games of an earlier version's journal are counted (once, after
// the start), the statistics so far are shown and asked for again.
const COUNTING_AGAIN_MS = 3000;
let countingAgain = null;

async function load() {
  const key = store.state ? `${store.state.game_id}:${store.state.over}` : "none";
  if (key === lastGame) return;
  lastGame = key;
  const [stats, past] = await Promise.all([api("GET", "/api/stats"), api("GET", "/api/past-games")]);
  clearTimeout(countingAgain);
  if (stats.counting) {
    lastGame = null;
    countingAgain = setTimeout(() => load().catch(() => {}), COUNTING_AGAIN_MS);
  }
  renderTotals(stats);
  renderPlayers(stats);
  renderGames(stats);
  renderPast(past);
  document.querySelectorAll(".stats-table").forEach((table) => {
    fit(table);
    fitting.observe(table.parentElement);
  });
}

/** A table wider than its card (long headers on a narrow phone) stands its
 * numbers' headers upright rather than break a word. */
function fit(table) {
  table.classList.remove("upright");
  const card = table.parentElement;
  const box = getComputedStyle(card);
  const room = card.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
  if (table.offsetWidth > room + 1) table.classList.add("upright");
}
const fitting = new ResizeObserver((entries) => entries.forEach((entry) =>
  entry.target.querySelectorAll(":scope > .stats-table").forEach(fit)));

/** Per game: players with win rate and streaks, the record, head to head,
 * and the statistics to download. */
function renderGames(stats) {
  let box = $("#game-stats");
  if (!box) {
    box = h("div", { id: "game-stats" });
    $("#player-stats").closest("section").after(box);
  }
  const sections = Object.entries(stats.games ?? {}).map(([key, game]) => h("section", { class: "card game-stats", dataset: { game: key } },
    h("h2", { text: t("stats.by_game", { game: gameTitle(key), n: game.games }) }),
    h("table", { class: "stats-table" },
      h("thead", {}, h("tr", {}, h("th", { text: t("stats.player") }), h("th", { class: "num", text: t("stats.won") }),
        h("th", { class: "num", text: t("stats.played") }), h("th", { class: "num", text: t("stats.rate") }),
        h("th", { class: "num", text: t("stats.streak") }), h("th", { class: "num", text: t("stats.best_streak") }))),
      h("tbody", {}, game.players.map((p) => h("tr", { dataset: { player: p.name } },
        h("td", { text: p.name }), h("td", { class: "num", text: String(p.won) }), h("td", { class: "num", text: String(p.played) }),
        h("td", { class: "num", text: percent(p.rate) }), h("td", { class: "num", text: String(p.streak) }),
        h("td", { class: "num", text: String(p.best_streak) }))))),
    game.record ? h("p", { class: "record", text: `★ ${t(`stats.record.${game.record.kind}`, { value: game.record.value, player: game.record.player })}` }) : null,
    game.head_to_head.length ? h("div", { class: "h2h" }, h("h3", { text: t("stats.head_to_head") }),
      h("ul", {}, game.head_to_head.map((p) => h("li", { dataset: { a: p.a, b: p.b }, text: t("stats.h2h", p) })))) : null));
  const exports = h("p", { class: "exports" }, t("stats.export"), " ",
    h("a", { href: `/api/stats.csv?lang=${lang}`, id: "export-csv", download: "statistics.csv", text: t("stats.export_csv") }), " · ",
    h("a", { href: "/api/stats-data.csv", id: "export-csv-data", download: "statistics-data.csv", text: t("stats.export_csv_data") }), " · ",
    h("a", { href: "/api/stats.json", id: "export-json", download: "statistics.json", text: t("stats.export_json") }), " · ",
    h("a", { href: "/api/plays.json", id: "export-plays", download: "plays-bgstats.json", text: t("stats.export_plays") }));
  // The files to keep wait until every game is counted.
  box.replaceChildren(...sections, ...(stats.counting ? [] : [h("section", { class: "card" }, exports)]));
}

function renderTotals(stats) {
  const byGame = Object.entries(stats.by_game).map(([key, n]) => h("div", { class: "total" }, h("b", { text: number(n) }), h("span", { text: gameTitle(key) })));
  $("#totals").replaceChildren(h("div", { class: "totals" },
    h("div", { class: "total" }, h("b", { id: "games-played", text: number(stats.games_played) }), h("span", { text: t("stats.games_played", { n: stats.games_played }) })),
    byGame),
    ...(stats.counting ? [h("p", { class: "hint", id: "stats-counting", role: "status", text: t("stats.counting", { summed: number(stats.counting.summed), of: number(stats.counting.of) }) })] : []));
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
        h("td", {}, h("div", { class: "winbar", title: percent(rate), role: "img", "aria-label": percent(rate) }, h("i", { style: { width: `${rate}%` } }))));
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
    g.result ? h("div", { text: winners(g) }) : null,
    g.bgstats ? h("a", { href: g.bgstats, class: "bgstats", target: "_blank", rel: "noopener", title: t("bgstats.help"), text: t("bgstats.log") }) : null)));
}

function winners(g) {
  const names = g.result.winners.map((s) => g.players[s]).filter(Boolean);
  if (!names.length) return resultSaid(g.result, g.players, g.game);
  return t(names.length === 1 ? "result.winner" : "result.winners", { names: names.join(", ") });
}

on("state", () => load().catch(() => {}));
on("language", () => {
  lastGame = null;
  load().catch(() => {});
});
boot().then(() => load().catch(() => {}));
