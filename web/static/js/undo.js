// Undo you can trust: undo names what it takes back (the events the command
// made, said in the phone's language), asks once, and says what it did;
// redo says what it played again.  Both are bound to the state they were
// asked from: if the table moved on meanwhile, they are refused, not
// applied to something else.

import { bindSheet, change, closeSheet, h, madeAgainst, openSheet, store, t, toast } from "./core.js";
import { eventsSaid, undoSaid as said } from "./sentences.js";

/** What undo would take back, as a sentence ("" when nothing). */
export function undoSaid(state = store.state) {
  return said(state);
}

/** Ask once ("Undo this? Ben plays +9 …") and undo on yes.  While it is
 * open it follows the table: when another phone plays (or undoes), it
 * names the new last move, says that it changed, and undoes that one;
 * with nothing left to undo it closes. */
export function askUndo(state = store.state) {
  if (!state?.can_undo) return;
  let what = undoSaid(state);
  let against = madeAgainst(state);
  const question = h("p", { class: "undo-what", id: "undo-what", text: t("undo.ask", { what }) });
  const moved = h("p", { class: "hint undo-moved", id: "undo-moved", role: "status", hidden: true });
  const yes = h("button", {
    type: "button", class: "btn primary big", id: "undo-confirm",
    onclick: async () => {
      yes.disabled = true;
      const taken = what;
      const done = await change("/api/undo", against);
      closeSheet();
      if (done) toast(t("undo.done", { what: taken }));
    },
  }, `↶ ${t("action.undo")}`);
  const no = h("button", { type: "button", class: "btn secondary big", id: "undo-cancel", onclick: closeSheet }, t("answer.no"));
  openSheet(t("action.undo"), moved, question, h("div", { class: "action-grid" }, yes, no));
  bindSheet(state, {
    follow: (fresh) => {
      if (!fresh.can_undo) return false;
      what = undoSaid(fresh);
      against = madeAgainst(fresh);
      question.textContent = t("undo.ask", { what });
      question.dataset.version = String(fresh.version);
      moved.textContent = t("undo.moved");
      moved.hidden = false;
      return true;
    },
  });
}

/** Play again what was taken back, and say what it did. */
export async function redo(state = store.state) {
  const done = await change("/api/redo", madeAgainst(state));
  if (done) toast(t("redo.done", { what: eventsSaid(done.events, done.players, done.game) || said(done) }));
  return done;
}
