// What the panel says of a game, in the phone's language: a change's
// events, a line of its history, what undo takes back, what a command would
// do, how a game ended.  Nothing here touches the page, so the sentence test
// says every one of them in a browser as a phone does (tests/test_sentences.py).

import { eventText, gt, has, lang, t } from "./core.js";

/** A change's events, each said, one after the other. */
export function eventsSaid(events, players = [], game = "") {
  return (events ?? []).map((e) => eventText(e, players, game)).join(" · ");
}

/** A command that made no event, by its label (its English words when
 * the game has no label for it). */
export function commandSaid(command, game = "", fallback = "") {
  if (!command) return fallback;
  if (lang !== "en" && has(`${game}:command.${command.name}`)) return gt(game, `command.${command.name}`);
  return fallback || command.name;
}

/** A line of a game's history: what happened, or what an undo took back,
 * or what a redo played again. */
export function entrySaid(entry, past) {
  const players = past.players ?? [];
  const english = lang === "en" ? entry.said : "";
  if (entry.action === "undo") {
    const what = eventsSaid(entry.undid, players, past.game) || commandSaid(entry.command, past.game);
    return english || t("history.undo_what", { what });
  }
  const what = eventsSaid(entry.events, players, past.game) || commandSaid(entry.command, past.game, english);
  if (entry.action === "redo") return english || t("history.redo_what", { what });
  return what;
}

/** What undo would take back ("" when nothing). */
export function undoSaid(state) {
  if (!state?.can_undo) return "";
  return eventsSaid(state.undo_events, state.players ?? [], state.game ?? "")
    || (lang === "en" && state.undo_text ? state.undo_text : t("undo.last_move"));
}

/** What a command would do (POST /api/preview's answer), for the state
 * shown; `prefix`: "This will:" before it. */
export function previewSaid(preview, state, { prefix = true } = {}) {
  const said = eventsSaid(preview.events, state?.players ?? [], state?.game ?? "");
  return said && prefix ? `${t("preview.will")} ${said}` : said;
}

/** How a game ended, as the game says it: its own sentence in the
 * phone's language when it says one, else its winners. */
export function resultSaid(result, players = [], game = "") {
  if (!result) return "";
  if (lang === "en") return result.message;
  if (result.said?.[lang]) return result.said[lang];
  const names = (result.winners ?? []).map((s) => players[s]).filter(Boolean);
  if (!names.length) return t("result.none");
  return t(names.length === 1 ? "result.winner" : "result.winners", { names: names.join(", ") });
}
