// Undo you can trust: undo names what it takes back (the events the command
// made, said in the phone's language), asks once, and says what it did;
// redo says what it played again.  Both are bound to the state they were
// asked from: if the table moved on meanwhile, they are refused, not
// applied to something else.

import { change, closeSheet, eventText, h, madeAgainst, openSheet, store, t, toast } from "./core.js";

function said(events, state, fallback = "") {
  const text = (events ?? []).map((e) => eventText(e, state?.players ?? [], state?.game ?? "")).join(" · ");
  return text || fallback || "";
}

/** What undo would take back, as a sentence ("" when nothing). */
export function undoSaid(state = store.state) {
  if (!state?.can_undo) return "";
  return said(state.undo_events, state, state.undo_text);
}

/** Ask once ("Undo this? Ben plays +9 …") and undo on yes. */
export function askUndo(state = store.state) {
  if (!state?.can_undo) return;
  const what = undoSaid(state);
  const against = madeAgainst(state);
  const yes = h("button", {
    type: "button", class: "btn primary big", id: "undo-confirm",
    onclick: async () => {
      yes.disabled = true;
      const done = await change("/api/undo", against);
      closeSheet();
      if (done) toast(t("undo.done", { what }));
    },
  }, `↶ ${t("action.undo")}`);
  const no = h("button", { type: "button", class: "btn secondary big", id: "undo-cancel", onclick: closeSheet }, t("answer.no"));
  openSheet(t("action.undo"), h("p", { class: "undo-what", id: "undo-what", text: t("undo.ask", { what }) }),
    h("div", { class: "action-grid" }, yes, no));
}

/** Play again what was taken back, and say what it did. */
export async function redo(state = store.state) {
  const done = await change("/api/redo", madeAgainst(state));
  if (done) toast(t("redo.done", { what: said(done.events, done, done.undo_text) }));
  return done;
}
