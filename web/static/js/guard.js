// No control is retargeted under a finger.  When another phone's move
// redraws the table, a control that now acts on something else (its prompt,
// its label or what it names changed) takes no tap for a human reaction
// time: a tap that comes that soon was aimed at what the page showed before.
// It is not applied; the phone says what happened and what waits now.  A
// control that acts on the same thing as before the redraw keeps working.

import { $, keepPromptMark, showPromptChanged, t, toast } from "./core.js";

// About a human reaction time: a finger already on its way lands within it.
export const REACTION_MS = 400;

const CONTROLS = "button, [role=button], a.btn";

// What each control acts on, as drawn (its aim), and since when a control
// with that aim has been on screen without a break.
const aims = new WeakMap();
let since = new Map();
let lastPrompt = "";

/** What a control acts on: the prompt above it, its words, its data. */
function aimOf(el, prompt) {
  const data = JSON.stringify({ ...el.dataset });
  return [prompt, el.textContent.trim(), el.getAttribute("aria-label") ?? "", el.title ?? "", data].join("|");
}

/**
 * After the table was redrawn: note each control's aim.  `own`: the change
 * is this phone's own doing (its finger is not on its way to a control of
 * the page before), and what it drew anew takes taps at once; so does the
 * first drawing of the page.
 */
export function redrawn(own, now = performance.now()) {
  const roots = [$("#dock"), $("#board")].filter(Boolean);
  const prompt = $("#prompt")?.textContent.trim() ?? "";
  // A prompt that another phone's move changed is shown as new.
  if (!own && since.size && prompt && prompt !== lastPrompt) showPromptChanged(now);
  else keepPromptMark(now);
  lastPrompt = prompt;
  const next = new Map();
  for (const root of roots) {
    for (const el of root.querySelectorAll(CONTROLS)) {
      const aim = aimOf(el, el.closest("#dock") ? prompt : "");
      aims.set(el, aim);
      // (-Infinity: on screen for ever, as far as a finger is concerned,
      // even in the page's first 400 ms.)  A control drawn again as it was
      // keeps its time: a redraw of this phone's own (a seat, a setting)
      // does not cut short the hold of what another phone's move put up.
      next.set(aim, !since.size ? -Infinity : since.get(aim) ?? (own ? -Infinity : now));
    }
  }
  since = next;
}

/** Is a tap on `el` now one aimed at what the page showed before it? */
function tooSoon(el, now) {
  const aim = aims.get(el);
  if (aim === undefined) return false;
  const shown = since.get(aim);
  // (A test's robot finger, faster than any hand, may set its own.)
  return shown !== undefined && now - shown < (window.companionReactionMs ?? REACTION_MS);
}

// Taps are looked at before any control hears them.
document.addEventListener("click", (event) => {
  const el = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
  if (!el || !el.closest("#dock, #board")) return;
  if (!tooSoon(el, performance.now())) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const now = $("#prompt");
  toast(now ? t("guard.moved") : t("guard.moved.none"), { error: true });
  // The question that waits now, below, shown as new.
  showPromptChanged();
  document.body.dataset.guarded = String(Number(document.body.dataset.guarded ?? 0) + 1);
}, true);
