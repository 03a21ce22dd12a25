// What every page shares: strings, the session, the API, the live
// connection, toasts, the bottom sheet and joining with the PIN.

export const LANGUAGES = ["en", "fr", "it"];
// The page's language: the one it was drawn in, until the table's changes
// (see changeLanguage; modules that import it see the new one).
export let lang = LANGUAGES.includes(document.documentElement.lang) ? document.documentElement.lang : "en";
let strings = {};

/** The pages' strings and every game's phrases (`<game>:<key>`, from the
 * game's folder in the core), English where the language has none. */
export async function loadStrings() {
  const r = await fetch(`/api/text?lang=${lang}`, { credentials: "same-origin" });
  strings = r.ok ? await r.json() : {};
}

export function has(key) {
  return key in strings;
}

/** The string for `key`, with {name} placeholders filled from `vars`: see
 * `fill`. */
export function t(key, vars = {}) {
  return fill(strings[key] ?? key, vars);
}

// -- the rules of each language (CLDR's, through the browser's Intl) ------------------

let plurals = new Intl.PluralRules(lang);
let numbers = new Intl.NumberFormat(lang);

/** A number as the page's language writes it. */
export function number(value, options) {
  return options ? new Intl.NumberFormat(lang, options).format(value) : numbers.format(value);
}

function closing(text, start) {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** `{n, plural, one {# card} other {# cards}}` and `{v, select, a {...} other
 * {...}}` (ICU's message format, as the companion's own texts write it) made
 * from `vars`; a choice whose value is missing is left as it is. */
function choose(text, vars) {
  const choice = /\{\s*(\w+)\s*,\s*(plural|select)\s*,/g;
  let out = "";
  let at = 0;
  let match;
  while ((match = choice.exec(text)) !== null) {
    const end = closing(text, choice.lastIndex);
    if (end < 0) break;
    const [, name, how] = match;
    const branches = {};
    const body = text.slice(choice.lastIndex, end);
    const branch = /\s*(=?[\w.-]+)\s*\{/y;
    let pos = 0;
    while (pos < body.length && body.slice(pos).trim()) {
      branch.lastIndex = pos;
      const found = branch.exec(body);
      if (!found) break;
      const stop = closing(body, branch.lastIndex);
      branches[found[1]] = body.slice(branch.lastIndex, stop);
      pos = stop + 1;
    }
    let said = text.slice(match.index, end + 1);
    if (name in vars && "other" in branches) {
      const value = vars[name];
      if (how === "plural") {
        const n = Number(value);
        said = (branches[`=${n}`] ?? branches[plurals.select(n)] ?? branches.other).replaceAll("#", numbers.format(n));
      } else {
        said = branches[String(value)] ?? branches.other;
      }
      said = choose(said, vars);
    }
    out += text.slice(at, match.index) + said;
    at = end + 1;
    choice.lastIndex = at;
  }
  return out + text.slice(at);
}

const VOWEL = /^[aeiouyàâäéèêëîïôöùûüæœ]/i;

// Italian joins a preposition and the article of the word after it ("di" +
// "la Persona" is "della Persona"), as the companion's fill does.
const STEMS = { di: "de", a: "a", da: "da", in: "ne", su: "su" };
const ENDINGS = { il: "l", lo: "llo", la: "lla", i: "i", gli: "gli", le: "lle", "l'": "ll'" };

function joined(all, prep, value) {
  const article = typeof value === "string" ? /^(?:(il|lo|la|i|gli|le) |(l)['’])(?=\w)/.exec(value) : null;
  if (!article) return all;
  const word = prep[0] + (STEMS[prep.toLowerCase()] + ENDINGS[article[1] ?? "l'"]).slice(1);
  const rest = value.slice(article[0].length);
  return word.endsWith("'") ? `${word}${rest}` : `${word} ${rest}`;
}

/** A template filled from `vars`: its plural and select choices made, French
 * "de"/"que"/"le"/"la" elided before a filled-in word starting with a vowel
 * ("d'Ana"), Italian prepositions joined to a filled-in word's article,
 * then its {name} placeholders ({name:+d}: a number with its sign). */
export function fill(template, vars = {}) {
  let text = template.includes(",") ? choose(template, vars) : template;
  if (lang === "fr") {
    text = text.replace(/\b([Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque|[Ll]e|[Ll]a) \{(\w+)\}/g, (all, word, name) =>
      (typeof vars[name] === "string" && VOWEL.test(vars[name]) ? `${word.slice(0, -1)}'{${name}}` : all));
  }
  if (lang === "it") text = text.replace(/\b([Dd]i|[Aa]|[Dd]a|[Ii]n|[Ss]u) \{(\w+)\}/g, (all, prep, name) => joined(all, prep, vars[name]));
  return text.replace(/\{(\w+)(?::(\+)d)?\}/g, (all, name, sign) => {
    if (!(name in vars)) return all;
    const value = vars[name];
    return sign && typeof value === "number" ? number(value, { signDisplay: "always" }) : String(value);
  });
}

/** A game's own phrase (`key` as the game's text.py has it). */
export function gt(game, key, vars = {}) {
  return t(`${game}:${key}`, vars);
}

/** The first of `keys` that has a string, or null. */
export function first(keys, vars = {}) {
  const found = keys.find((key) => has(key));
  return found === undefined ? null : t(found, vars);
}

export function humanize(slug) {
  const text = String(slug).replace(/[-_]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// -- DOM ------------------------------------------------------------------

/** Build an element; text is always set as text (never parsed as HTML). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (name === "text") el.textContent = value;
    else if (name === "style") Object.assign(el.style, value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function $(selector) {
  return document.querySelector(selector);
}

export function dot(colour) {
  return h("span", { class: "dot", style: { background: colour || "#888" }, "aria-hidden": "true" });
}

// -- the shared store -----------------------------------------------------

export const store = {
  session: null, // {role, csrf, companion}
  state: null, // the table's state: GameState or {game: null}
  companion: null, // {dice, faults, screen, virtual}
  games: null, // descriptions by key
  offline: false, // the companion cannot be reached: controls are off
};
const listeners = {
  state: new Set(), session: new Set(), companion: new Set(), connection: new Set(), screen: new Set(),
  // The page speaks another language now: draw again what was drawn.
  language: new Set(),
};

export function on(what, fn) {
  listeners[what].add(fn);
}

function emit(what, ...args) {
  for (const fn of listeners[what]) {
    try {
      fn(...args);
    } catch (err) {
      console.error(err);
    }
  }
}

export function isController() {
  return store.session?.role === "controller";
}

/** Is `next` the same as or newer than the state shown? */
function newer(next, shown) {
  if (!shown) return true;
  if ((next.game_id ?? 0) !== (shown.game_id ?? 0)) return (next.game_id ?? 0) > (shown.game_id ?? 0);
  return next.version >= shown.version;
}

// The question another phone's move put up, shown as new: a redraw of the
// same question while its mark plays (the seats, a setting) keeps the mark
// where it was; another question ends it.
let changedPrompt = "";
let changedAt = 0;
// How long the mark plays: #prompt.changed's animation in app.css.
const MARK_MS = 1200;

/** Mark the question on screen as new (its mark's animation starts again). */
export function showPromptChanged(now = performance.now()) {
  const el = $("#prompt");
  if (!el) return;
  changedPrompt = el.textContent.trim();
  changedAt = now;
  el.style.animationDelay = "";
  if (el.classList.contains("changed")) {
    // The same element marked again: its animation starts over (a layout
    // between the two); a new element's starts as it is drawn.
    el.classList.remove("changed");
    void el.offsetWidth;
  }
  el.classList.add("changed");
}

/** After a redraw: the question marked as new keeps its mark, the animation
 * going on from where it was; another question has none. */
export function keepPromptMark(now = performance.now()) {
  const el = $("#prompt");
  const prompt = el?.textContent.trim() ?? "";
  if (prompt !== changedPrompt) {
    changedPrompt = "";
    return;
  }
  const played = now - changedAt;
  if (!prompt || played >= MARK_MS || el.classList.contains("changed")) return;
  el.style.animationDelay = `${-played}ms`;
  el.classList.add("changed");
}

/** Show a state; `force` for one that is the server's word (after a reconnect). */
export function applyState(state, { force = false } = {}) {
  if (!state) return;
  if (!force && !newer(state, store.state)) return;
  const previous = store.state;
  store.state = state;
  emit("state", state, previous);
  checkSheet(state);
}

function applyCompanion(info) {
  followTableLanguage(store.companion, info);
  store.companion = info;
  emit("companion", info);
  showFaults(info.faults || []);
}

/** Does this phone speak a language of its own (its language chip)? */
export function ownLanguage() {
  return /(?:^|;\s*)lang=/.test(document.cookie);
}

/** A phone without a language of its own follows the table's: when a
 * controller changes it, the page speaks it at once, where it is (see
 * changeLanguage). */
function followTableLanguage(before, after) {
  const was = before?.settings?.language;
  const now = after?.settings?.language;
  if (!was || !now || was === now || now === lang || ownLanguage()) return;
  changeLanguage(now);
}

// The attributes of a page's drawing that carry its words.
const WORDED = ["aria-label", "title", "placeholder", "alt", "label", "lang", "data-lang"];

/** Give the page's own elements (`here`) the words of the same page drawn
 * in another language (`there`): node by node, while both have the same
 * shape.  A part the scripts drew (the board, the dock, a list) has
 * another shape than the companion's empty one and is left to them. */
function reword(here, there) {
  if (here.matches("input, textarea")) return;
  for (const name of WORDED) {
    const value = there.getAttribute(name);
    if (value !== null && here.hasAttribute(name)) here.setAttribute(name, value);
  }
  const said = (node) => node.nodeType === Node.ELEMENT_NODE || (node.nodeType === Node.TEXT_NODE && node.data.trim());
  const mine = [...here.childNodes].filter(said);
  const theirs = [...there.childNodes].filter(said);
  const same = (a, b) => a.nodeName === b.nodeName && (a.id ?? "") === (b.id ?? "")
    && (a.classList?.[0] ?? "") === (b.classList?.[0] ?? "");
  if (mine.length === theirs.length && mine.every((node, i) => same(node, theirs[i]))) {
    mine.forEach((node, i) => {
      if (node.nodeType === Node.TEXT_NODE) node.data = theirs[i].data;
      else reword(node, theirs[i]);
    });
    return;
  }
  // Elements the scripts added among the companion's (a popover, a list's
  // rows): each of the companion's finds its own, in order, past them.
  let at = 0;
  for (const node of theirs) {
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const found = mine.findIndex((other, i) => i >= at && other.nodeType === Node.ELEMENT_NODE && same(other, node));
    if (found < 0) continue;
    reword(mine[found], node);
    at = found + 1;
  }
}

// The newest language asked for (a second change may come before the first
// is drawn: the newest wins).
let wantedLanguage = null;

/** Speak `next` on this page at once, without loading it again: its
 * strings, its own words (the page as the companion draws it in that
 * language) and everything the scripts drew, drawn again; a sheet that was
 * open opens again, in the new language.  The live stream stays open. */
export async function changeLanguage(next) {
  if (!LANGUAGES.includes(next)) return;
  wantedLanguage = next;
  if (next === lang) return;
  let page;
  let words;
  try {
    const get = (path) => fetch(path, { credentials: "same-origin" }).then((r) => {
      if (!r.ok) throw new Error(String(r.status));
      return r;
    });
    [page, words] = await Promise.all([
      get(location.pathname + location.search).then((r) => r.text()),
      get(`/api/text?lang=${next}`).then((r) => r.json()),
    ]);
  } catch (err) {
    // Not reachable now: the page in the new language, the long way.
    if (wantedLanguage === next) location.reload();
    return;
  }
  const drawn = new DOMParser().parseFromString(page, "text/html");
  if (wantedLanguage !== next || drawn.documentElement.lang !== next) return;
  const reopen = $("#sheet")?.open ? sheetOpener : null;
  lang = next;
  strings = words;
  localeRules();
  document.documentElement.lang = next;
  document.title = drawn.title;
  reword(document.body, drawn.body);
  setConnection($("#conn")?.dataset.state || "connecting");
  showFaults(store.companion?.faults || []);
  // A message said in the other language goes (the history keeps it).
  hideToast();
  closeSheet();
  emit("language", next);
  if (reopen) {
    const opener = document.getElementById(reopen);
    opener?.focus();
    opener?.click();
  }
}

/** A refusal in the phone's language where the panel knows its code, else
 * as the companion said it. */
export function refusal(err) {
  const code = err?.body?.error;
  if (code === "not-your-seat") {
    return t(err.body.seat ? "error.not_your_seat" : "error.not_your_seat.none", { name: err.body.player, seat: err.body.seat ?? "" });
  }
  if (code === "not-a-player") return t("error.not_a_player");
  if (code === "spectator") return t("error.spectator");
  return err?.message ?? String(err);
}

export function gameDescription(key) {
  return store.games?.[key] ?? null;
}

// -- the API -----------------------------------------------------------------

export class ApiError extends Error {
  /** `language`: the language the companion said the message in (its
   * Content-Language); another than the page's is said again from the
   * refusal's code, in the page's words. */
  constructor(status, body, language = lang) {
    super(apiMessage(status, body || {}, language));
    this.status = status;
    this.body = body || {};
  }
}

function apiMessage(status, body, language) {
  const code = body.error ?? "";
  if (body.message && (language === lang || (lang === "en" && !language))) return body.message;
  if (has(`error.code.${code}`)) return t(`error.code.${code}`, body);
  return lang === "en" && body.message ? body.message : t("error.code.other", { status });
}

export async function api(method, path, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRF-Token"] = store.session?.csrf || "";
    // The table takes its date from a controller's phone while its own
    // clock is not set (a Pi without internet).
    options.headers["X-Phone-Time"] = String(Date.now());
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError(0, { error: "offline", message: t("error.offline") });
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Content-Language"));
  return data;
}

/** POST, once more with a fresh session when the CSRF token has gone stale
 * (the phone slept past a restart). */
export async function post(path, body) {
  try {
    return await api("POST", path, body);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403 && err.body?.error === "csrf") {
      await refreshSession();
      return api("POST", path, body);
    }
    throw err;
  }
}

export async function refreshSession() {
  const session = await api("GET", "/api/session");
  store.session = session;
  emit("session", session);
  applyCompanion(session.companion);
  return session;
}

/**
 * Change the table: POST and show the answer.  A stale version shows the
 * fresh state and says so (`stale(fresh)` may tell it better: a text, or
 * null for the usual one); a refusal is shown as the game said it.
 * Returns the response body, or null when refused.
 */
export async function change(path, body, { retry = true, stale = null } = {}) {
  if (store.offline) {
    toast(t("error.offline"), { error: true });
    return null;
  }
  ownChanges += 1;
  try {
    const data = await api("POST", path, body);
    if (data && "state" in data && "values" in data) applyState(data.state);
    else if (data && "version" in data) applyState(data);
    return data;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const code = err.body?.error;
    if (err.status === 403 && code === "csrf" && retry) {
      await refreshSession();
      return change(path, body, { retry: false, stale });
    }
    if (err.status === 409 && err.body?.state) {
      applyState(err.body.state, { force: true });
      const told = code === "stale-version" ? stale?.(err.body.state) : null;
      // What waits now is drawn, and said: the move that came first changed it.
      const now = waitingNow(err.body.state);
      if (told) toast(told);
      else if (code === "stale-version") toast(now ? t("error.stale.now") : t("error.stale"), { error: true });
      else toast(err.message, { error: true });
      // The question that waits now is drawn below, shown as new.
      if (now) showPromptChanged();
    } else if (err.status === 403 && code === "spectator") {
      await refreshSession().catch(() => {});
      toast(t("error.spectator"), { error: true });
    } else {
      toast(refusal(err), { error: true });
    }
    return null;
  } finally {
    ownChanges -= 1;
  }
}

/** What a state waits for first, in the page's language (none: null). */
function waitingNow(state) {
  const first = state?.expected?.[0];
  return first ? (lang !== "en" && first.said?.[lang]) || first.prompt : null;
}

// Changes this phone has on their way: the state they bring is this
// phone's own doing, not "another phone acted".
let ownChanges = 0;

/** Is a change of this phone on its way (so a new state is its own)? */
export function changing() {
  return ownChanges > 0;
}

/**
 * What every change names: the game and the version of the state it was
 * made from (`state`, by default the one shown).  The table refuses it if
 * either moved on meanwhile (409 with the fresh state).
 */
export function madeAgainst(state = store.state) {
  return state?.game ? { game_id: state.game_id, version: state.version } : { game_id: null, version: 0 };
}

// -- toasts and faults ----------------------------------------------------------

let toastTimer = null;
// Every message is on screen at least this long.
const TOAST_SEEN_MS = 2500;
let lastToast = null;

/**
 * Say something on top of whatever is open (a sheet too: the toast is a
 * popover in the top layer, raised again above a sheet opened after it),
 * for `ms` (never less than 2.5 seconds), then it goes.
 */
export function toast(message, { error = false, alert = false, roll = false, ms = 4500 } = {}) {
  const el = $("#toast");
  if (!el) return;
  // A message still within its first seconds stays, beneath the newer one,
  // until it has had them: an alert is not wiped by the roll that follows.
  const now = Date.now();
  // (Only an alert or a roll stays so: two lines hold no more.)
  const earlier = lastToast && lastToast.until > now && lastToast.message !== message
    && ["alert", "roll"].includes(lastToast.kind) ? lastToast : null;
  const kinds = { error, alert, roll };
  el.replaceChildren(h("span", { class: "toast-now", text: message }));
  if (earlier) {
    const line = h("div", { class: `toast-earlier ${earlier.kind}`, text: earlier.message });
    el.append(line);
    setTimeout(() => {
      line.remove();
      replaceToast();
    }, earlier.until - now);
  }
  el.classList.toggle("error", error);
  el.classList.toggle("alert", alert);
  el.classList.toggle("roll", roll);
  el.hidden = false;
  raiseToast();
  lastToast = { message, until: now + TOAST_SEEN_MS,
                kind: Object.keys(kinds).find((k) => kinds[k]) ?? "" };
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, Math.max(ms, TOAST_SEEN_MS));
}

function hideToast() {
  const el = $("#toast");
  clearTimeout(toastTimer);
  if (el?.popover && el.matches(":popover-open")) el.hidePopover();
  if (el) el.hidden = true;
  lastToast = null;
}

function raiseToast() {
  const el = $("#toast");
  if (!el) return;
  // Under an open sheet the rest of the page is inert: the toast goes
  // into the sheet while it is open, and back when it closes.
  const sheet = $("#sheet");
  const home = sheet?.open ? sheet : document.body;
  const open = el.popover && el.matches(":popover-open");
  if (el.parentElement !== home) {
    if (open) el.hidePopover();
    home.append(el);
  }
  if (el.hidden || !el.popover || !el.showPopover) return;
  if (el.matches(":popover-open")) el.hidePopover();
  el.showPopover();
  placeToast();
}

// A toast sits over the top bar (see .toast in app.css), where it covers
// no control, and takes no tap.  Where a player's row shows through up
// there (the page scrolled), the message keeps one line.
function visibleRows() {
  return [...document.querySelectorAll(".board .player")].map((row) => row.getBoundingClientRect())
    .filter((r) => r.bottom > 0 && r.top < window.innerHeight);
}

function placeToast() {
  const el = $("#toast");
  if (!el || el.hidden) return;
  el.classList.remove("one-line");
  const box = el.getBoundingClientRect();
  const covers = visibleRows().some((r) => box.bottom > r.top && box.top < r.bottom && box.right > r.left && box.left < r.right);
  if (covers) el.classList.add("one-line");
  el.dataset.place = "top";
}

let placing = false;
function replaceToast() {
  if (placing) return;
  placing = true;
  requestAnimationFrame(() => {
    placing = false;
    placeToast();
  });
}
window.addEventListener("scroll", replaceToast, { passive: true });
window.addEventListener("resize", replaceToast);

function showFaults(faults) {
  const el = $("#faults");
  if (!el) return;
  el.replaceChildren(...faults.map((f) => h("div", { text: `⚠ ${f}` })));
  el.hidden = faults.length === 0;
}

// -- the live connection ----------------------------------------------------------

let source = null;
let reconnectTimer = null;
let backoff = 1000;
let freshStream = true;

function setConnection(state) {
  const el = $("#conn");
  if (!el) return;
  el.dataset.state = state;
  el.querySelector("b").textContent = t(`conn.${state}`);
  // Lost: nothing can be sent, so the controls say so instead of failing.
  const lost = state === "offline" || state === "reconnecting";
  const wasLost = store.offline;
  store.offline = lost;
  document.body.classList.toggle("offline", lost);
  const dock = $("#dock");
  if (dock) dock.inert = lost;
  const note = $("#offline-note");
  if (note) note.hidden = !lost;
  if (lost && !wasLost) toast(t("error.offline"), { error: true, ms: 6000 });
  if (lost !== wasLost) emit("connection", lost);
}

function connect() {
  clearTimeout(reconnectTimer);
  if (source) source.close();
  setConnection(source ? "reconnecting" : "connecting");
  source = new EventSource("/api/events");
  freshStream = true;
  source.addEventListener("open", () => {
    backoff = 1000;
    setConnection("live");
  });
  source.addEventListener("update", (event) => {
    // The first update of a stream is the table as it is now: take it
    // even if it looks older (a restarted companion, another journal).
    applyState(JSON.parse(event.data), { force: freshStream });
    if (freshStream) {
      freshStream = false;
      if (store.session) refreshSession().catch(() => {});
    }
  });
  source.addEventListener("companion", (event) => applyCompanion(JSON.parse(event.data)));
  // The table's screen shows another frame: {frame, png} (see showFrame).
  source.addEventListener("screen", (event) => emit("screen", JSON.parse(event.data)));
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) {
      // The browser gave up (an HTTP error such as 503): try again later.
      setConnection("offline");
      reconnectTimer = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 15000);
    } else {
      setConnection("reconnecting");
    }
  });
}

async function wake() {
  // A phone that slept may have missed updates, and its stream may be dead.
  try {
    applyState(await api("GET", "/api/state"), { force: true });
    await refreshSession();
  } catch (err) {
    setConnection("offline");
  }
  if (!source || source.readyState === EventSource.CLOSED) connect();
}

// -- the bottom sheet ---------------------------------------------------------------

export function openSheet(title, ...content) {
  const sheet = $("#sheet");
  if (!sheet.dataset.watched) {
    sheet.dataset.watched = "1";
    sheet.addEventListener("close", () => {
      sheetBound = null;
      raiseToast();
    });
  }
  $("#sheet-title").textContent = title;
  $("#sheet-body").replaceChildren(...content);
  sheetBound = null;
  // What opened it (the control tapped), to open it again in another language.
  if (!sheet.open) sheetOpener = document.activeElement?.id || null;
  if (!sheet.open) sheet.showModal();
  raiseToast();
  return sheet;
}

export function closeSheet() {
  const sheet = $("#sheet");
  sheetBound = null;
  if (sheet.open) sheet.close();
}

let sheetOpener = null;

// The game and version the open sheet's form was opened for: when the
// table moves on under it, it closes and says what changed.
let sheetBound = null;

/** Bind the open sheet to `state` (a form made for that situation).
 * `follow(fresh)`, when given, is asked first when the table moves on: it
 * may redraw the sheet for the new situation and return true to keep it
 * open (bound to the new state), else the sheet closes as usual. */
export function bindSheet(state, { follow = null } = {}) {
  sheetBound = state?.game ? { game_id: state.game_id, version: state.version, follow } : null;
}

function checkSheet(state) {
  const sheet = $("#sheet");
  if (!sheetBound || !sheet?.open) return;
  if (state.game_id === sheetBound.game_id && state.version === sheetBound.version) return;
  const { follow } = sheetBound;
  if (follow && state.game_id === sheetBound.game_id && follow(state)) {
    bindSheet(state, { follow });
    return;
  }
  const mine = ownChanges > 0;
  closeSheet();
  if (mine) return;
  toast(t("form.changed", { what: changeSummary(state) }), { error: true, ms: 6000 });
}

/** What a state's change did, in a few words of the phone's language. */
export function changeSummary(state) {
  if (state.action === "undo") return t("events.undone");
  if (state.action === "new") return t("events.new_game");
  const told = (state.events || []).filter((e) => e.kind !== "turn" || state.events.length === 1);
  return told.map((e) => eventText(e, state.players, state.game)).join(" · ") || t("form.changed_other");
}

// -- joining -------------------------------------------------------------------------

export function openJoin() {
  const input = h("input", {
    class: "text-input", id: "pin", inputmode: "numeric", autocomplete: "one-time-code",
    pattern: "[0-9]*", maxlength: 12, "aria-label": t("join.pin"), placeholder: "••••••",
  });
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const form = h("form", { class: "field", novalidate: true },
    h("label", { for: "pin", text: t("join.pin") }),
    h("p", { class: "help", text: t("join.help") }),
    input, error,
    h("button", { class: "btn primary big", type: "submit", text: t("join.submit") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const session = await api("POST", "/api/join", { pin: input.value.trim() });
      store.session = session;
      emit("session", session);
      closeSheet();
      toast(t("join.ok"));
    } catch (err) {
      if (err.status === 403 && err.body?.error === "csrf") await refreshSession();
      error.textContent = err.status === 429
        ? t("join.wait", { seconds: err.body?.retry_after ?? 60 })
        : err.status === 403 && err.body?.error === "wrong-pin" ? t("join.wrong") : err.message;
      error.hidden = false;
    }
  });
  openSheet(t("join.title"), form);
  input.focus();
}

/**
 * Sign every phone out (this one too), after asking: the table shows a new
 * PIN and QR code, and phones watch until they join again.
 */
export async function signOutEveryPhone() {
  if (!confirm(t("signout.confirm"))) return false;
  try {
    const session = await api("POST", "/api/sign-out", {});
    store.session = session;
    emit("session", session);
    toast(t("signout.done"));
    return true;
  } catch (err) {
    if (err.status === 403 && err.body?.error === "csrf") await refreshSession();
    else if (err.status === 403) await refreshSession().catch(() => {});
    toast(err.body?.error === "spectator" ? t("error.spectator") : err.message, { error: true });
    return false;
  }
}

// -- start -----------------------------------------------------------------------------

function languageSwitch() {
  for (const button of document.querySelectorAll(".lang-chip[data-lang]")) {
    button.addEventListener("click", () => {
      const next = button.dataset.lang;
      document.cookie = `lang=${next}; path=/; max-age=31536000; SameSite=Lax`;
      try {
        localStorage.setItem("lang", next);
      } catch (err) {
        /* private mode: the cookie is enough */
      }
      location.reload();
    });
  }
  // A language chosen earlier on this phone survives a lost cookie.
  try {
    const kept = localStorage.getItem("lang");
    if (kept && LANGUAGES.includes(kept) && kept !== lang && !document.cookie.includes("lang=")) {
      document.cookie = `lang=${kept}; path=/; max-age=31536000; SameSite=Lax`;
      location.reload();
    }
  } catch (err) {
    /* no storage */
  }
}

/** Start a page: strings, session, game descriptions, the live stream. */
export async function boot({ live = true } = {}) {
  languageSwitch();
  await loadStrings();
  setConnection("connecting");
  const [games] = await Promise.all([
    api("GET", "/api/games").catch(() => []),
    refreshSession().catch(() => null),
  ]);
  store.games = Object.fromEntries(games.map((g) => [g.key, g]));
  const params = new URLSearchParams(location.search);
  if (params.has("joined")) {
    toast(params.get("joined") === "1" ? t("join.ok") : t("join.expired"), { error: params.get("joined") !== "1" });
    history.replaceState(null, "", location.pathname);
  }
  if (live) {
    connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") wake();
    });
    window.addEventListener("online", wake);
  }
  const top = [$(".topbar"), $(".tabs")].filter(Boolean);
  const measureTop = () => document.body.style.setProperty("--top-height",
    `${top.reduce((sum, el) => sum + el.offsetHeight, 0)}px`);
  top.forEach((el) => new ResizeObserver(measureTop).observe(el));
  measureTop();
  const dock = document.querySelector(".dock");
  if (dock) {
    // Beside the page (two columns) the dock takes no height from it.
    const measure = () => document.body.style.setProperty("--dock-height",
      `${dock.getBoundingClientRect().left > 0 ? 0 : dock.offsetHeight}px`);
    new ResizeObserver(measure).observe(dock);
    measure();
    // A toast on the table page moves when the dock or the page changes.
    const watch = new ResizeObserver(replaceToast);
    watch.observe(dock);
    watch.observe(document.body);
  } else {
    document.body.style.setProperty("--dock-height", "0px");
  }
}

// -- formatting -------------------------------------------------------------------------

let clock;
let dayAndClock;
let yearDayAndClock;

/** The language's ways of writing numbers, plurals and moments (CLDR's). */
function localeRules() {
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
  clock = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" });
  dayAndClock = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  yearDayAndClock = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}
localeRules();

/** A moment as the page's language writes it (CLDR's, through Intl): the
 * time alone today, else the day too, and the year when it is not this
 * one (a date kept while the table's clock was wrong shows for what it is). */
export function when(unixSeconds) {
  const date = new Date(unixSeconds * 1000);
  const today = new Date();
  if (date.toDateString() === today.toDateString()) return clock.format(date);
  return (date.getFullYear() === today.getFullYear() ? dayAndClock : yearDayAndClock).format(date);
}

export function gameTitle(key, fallbackTitle) {
  return has(`${key}:title`) ? t(`${key}:title`) : fallbackTitle || store.games?.[key]?.title || humanize(key);
}

/** A core event in the phone's language, from its kind and data: the
 * game's `event.<kind>.<value>` (a form told apart by a value of its data,
 * such as the correction made) before `event.<kind>`, its forms `.1` to `.9`
 * and `.other`, the first whose fields the data fills; English is the
 * event's own sentence. */
export function eventText(event, players = [], game = "") {
  if (lang === "en") return event.message;
  // The game said it in this language itself (its sentences need its data).
  if (event.said?.[lang]) return event.said[lang];
  const data = { ...event.data };
  const values = Object.values(event.data || {})
    .filter((v) => typeof v === "string" || typeof v === "boolean").map(String);
  // A kind said in several forms by the data it carries: `.1`, `.2`... in turn.
  const forms = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `event.${event.kind}.${n}`);
  const keys = [...values.map((v) => `event.${event.kind}.${v}`), `event.${event.kind}`, ...forms, `event.${event.kind}.other`]
    .flatMap((k) => [`${game}:${k}`, k]).filter((k) => has(k));
  if (!keys.length) return event.message;
  for (const field of ["player", "target", "starter"]) {
    if (typeof data[field] === "number" && players[data[field]] !== undefined) data[field] = players[data[field]];
  }
  if (Array.isArray(data.winners)) data.winners = data.winners.map((s) => players[s] ?? s).join(", ");
  // Seats in the order they play (Call of Nature's End of Game rolls).
  if (Array.isArray(data.order)) data.order = data.order.map((s) => players[s] ?? s).join(", ");
  for (const [field, value] of Object.entries(data)) {
    if (Array.isArray(value)) data[field] = value.join(" + ");
    const label = typeof value === "string" ? first([`${game}:choice.${value}`, `${game}:card.${value}`]) : null;
    if (label !== null) data[field] = label;
  }
  for (const key of keys) {
    const text = t(key, data);
    if (!/\{\w+\}/.test(text)) return text;
  }
  return event.message;
}

// -- the OLED mirror --------------------------------------------------------------------

// The mirror follows the frames the live stream pushes: the frame itself
// when it is small, else its number (fetched then, only while in sight).
// Frames come in order; an older one than shown is ignored.
export function mirror(img) {
  if (!img) return;
  let shown = -1;
  let wanted = null;
  let inSight = true;
  const fetchWanted = () => {
    if (wanted === null || !inSight || document.visibilityState !== "visible") return;
    img.src = `/api/screen.png?frame=${wanted}`;
    wanted = null;
  };
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      inSight = entries.some((entry) => entry.isIntersecting);
      fetchWanted();
    }).observe(img);
  }
  document.addEventListener("visibilitychange", fetchWanted);
  on("screen", (frame) => {
    // (Frame 0: the screen has not started yet.)
    if (typeof frame?.frame !== "number" || frame.frame < 1 || frame.frame < shown) return;
    shown = frame.frame;
    img.dataset.frame = String(frame.frame);
    if (frame.png) {
      wanted = null;
      img.src = frame.png;
    } else {
      wanted = frame.frame;
      fetchWanted();
    }
  });
}
