// Pieces the boards share: the header, player rows, bar charts.

import { dot, gameTitle, h, svg, t } from "../core.js";

/** Seats the game waits for now. */
export function waitingSeats(state) {
  return new Set(state.expected.map((e) => e.player).filter((p) => p !== null));
}

export function header(state, facts = []) {
  return h("div", { class: "board-head" },
    h("h1", { text: gameTitle(state.game, state.title) }),
    h("ul", { class: "facts" }, facts.filter(Boolean).map((f) => h("li", {}, f))));
}

export function playerRow(state, seat, { active = false, out = false, sub = null, right = null, badges = [], marker = null } = {}) {
  return h("li", {
    class: ["player", active && "active", out && "out"], dataset: { seat },
    "aria-current": active ? "true" : null,
  },
  marker ?? dot(state.colours?.[seat]),
  h("div", {},
    h("div", { class: "name" }, state.players[seat], active ? h("span", { class: "turn-tag", text: t("board.turn") }) : null, badges),
    sub ? h("div", { class: "sub" }, sub) : null),
  right);
}

/** Horizontal bars, one row per label: rows = [{label, colour, parts: [{value, colour, label}]}]. */
export function barChart(rows, { max, limit = null, limitLabel = "", label = "" } = {}) {
  const rowHeight = 30;
  const labelWidth = 92;
  const width = 360;
  const barWidth = width - labelWidth - 36;
  const height = rows.length * rowHeight + 18;
  const scale = (v) => (max > 0 ? (v / max) * barWidth : 0);
  const chart = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
  rows.forEach((row, index) => {
    const y = index * rowHeight + 4;
    chart.append(svg("text", { x: 0, y: y + 17 }, row.label.length > 12 ? `${row.label.slice(0, 11)}…` : row.label));
    chart.append(svg("rect", { class: "bar-bg", x: labelWidth, y, width: barWidth, height: 22, rx: 5 }));
    let x = labelWidth;
    for (const part of row.parts) {
      if (!part.value) continue;
      const w = scale(part.value);
      const rect = svg("rect", { x, y, width: Math.max(w - 1, 1), height: 22, rx: 4, fill: part.colour });
      rect.append(svg("title", {}, `${part.label}: ${part.value}`));
      chart.append(rect);
      x += w;
    }
    chart.append(svg("text", { x: labelWidth + barWidth + 6, y: y + 17 }, String(row.total ?? row.parts.reduce((a, p) => a + p.value, 0))));
  });
  if (limit !== null) {
    const x = labelWidth + scale(limit);
    chart.append(svg("line", { class: "limit", x1: x, x2: x, y1: 0, y2: height - 14 }));
    chart.append(svg("text", { x: Math.min(x, width - 2), y: height - 2, "text-anchor": "end" }, limitLabel));
  }
  return chart;
}
