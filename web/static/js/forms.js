// Forms built from a game's command descriptions (CommandSpec / Param), so
// that every game gets its buttons without code of its own.

import { ApiError, api, refusal, bindSheet, change, closeSheet, dot, first, h, has, humanize, lang, openSheet, store, t, madeAgainst } from "./core.js";
import { boardFor } from "./games/index.js";
import { previewSaid } from "./sentences.js";

const SMALL_RANGE = 13; // int params with at most this many values get one button each

// -- names in the phone's language -----------------------------------------------

export function commandLabel(game, name) {
  return first([`${game}:command.${name}`, `cmd.${name}`]) ?? humanize(name);
}

export function commandHelp(game, spec) {
  const key = `${game}:help.${spec.name}`;
  if (has(key)) return t(key);
  // (A game's English help, where it has none in the phone's language, is left out.)
  return lang === "en" ? spec.help || "" : "";
}

export function paramLabel(game, command, param) {
  return first([`${game}:param.${command}.${param.name}`, `${game}:param.${param.name}`, `param.${param.name}`])
    ?? humanize(param.name);
}

export function paramHelp(game, command, param) {
  const key = `${game}:param.${command}.${param.name}.help`;
  if (has(key)) return t(key);
  return lang === "en" ? param.help || "" : "";
}

export function choiceLabel(game, value) {
  return first([`${game}:choice.${value}`, `${game}:card.${value}`, `choice.${value}`]) ?? humanize(value);
}

/** What to show for an expectation: the engine's sentence, or in French one
 * made of the player's name and the command's label. */
export function promptFor(exp, state) {
  if (lang === "en") return exp.prompt;
  // The game said it in this language itself.
  if (exp.said?.[lang]) return exp.said[lang];
  if (!has(`${state.game}:command.${exp.command}`)) return exp.prompt;
  const label = commandLabel(state.game, exp.command);
  const who = exp.player === null ? null : state.players[exp.player];
  return who ? `${who} · ${label}` : label;
}

/** "Reveal · Queue 1, Place in the queue 6": a command told apart from
 * others of the same name by the arguments its expectation decided. */
export function expectationLabel(game, spec, exp, { short = false } = {}) {
  const decided = spec.params.filter((p) => p.name !== "player" && p.name in exp.args);
  const label = commandLabel(game, spec.name);
  if (!decided.length) return exp.player === null ? label : `${label} · ${store.state?.players?.[exp.player] ?? ""}`;
  const args = decided.map((p) => `${paramLabel(game, spec.name, p)} ${exp.args[p.name]}`).join(" · ");
  return short ? args : `${label} · ${args}`;
}

export function specOf(game, name) {
  return store.games?.[game]?.commands.find((c) => c.name === name) ?? null;
}

/** The params a player still has to give for an expectation. */
export function paramsToAsk(spec, exp, { optional = false } = {}) {
  return spec.params.filter((p) => {
    // What the phone showed travels with the expectation; nobody types it.
    if (p.named) return false;
    if (exp && p.name in exp.args) return false;
    // "player" is who acts: the expectation names them, or the game fills it in.
    if (p.name === "player" && exp && (exp.player !== null || p.optional)) return false;
    if (p.kind === "dice" && exp?.dice) return false;
    return optional || !p.optional;
  });
}

// -- see before you tap ------------------------------------------------------------------

/**
 * A line that says what a command would do before it is confirmed: the
 * table plays it on a copy of the game (POST /api/preview) and the line
 * shows the events it would make, in the phone's language.  Nothing is
 * computed here: the sentences are the engine's.  `show(name, args)` asks
 * again for new values (an older answer arriving late is dropped);
 * `clear()` empties it.  Inside a button it is a span (`tag`) without
 * the "This will:" (`prefix`): the button says what is played.
 */
export function previewLine({ tag = "p", prefix = true, onSaid = () => {} } = {}) {
  const el = h(tag, { class: "preview", "aria-live": "polite", hidden: true });
  let asked = 0;
  const clear = () => {
    asked += 1;
    el.hidden = true;
    el.textContent = "";
    el.classList.remove("refused");
    delete el.dataset.version;
    onSaid(false);
  };
  const show = async (name, args) => {
    const mine = ++asked;
    const against = madeAgainst();
    let said;
    let refused = false;
    try {
      const preview = await api("POST", "/api/preview", { command: { name, args }, ...against });
      const state = store.state ?? {};
      said = previewSaid(preview, state, { prefix: false });
    } catch (err) {
      if (err instanceof ApiError && err.body?.error === "not-your-seat") {
        said = refusal(err);
        refused = "seat";
      } else if (!(err instanceof ApiError) || err.status === 0 || err.status === 403 || err.status === 409) {
        if (mine === asked) clear();
        return;
      } else {
        said = err.message;
        refused = true;
      }
    }
    if (mine !== asked) return;
    // A refusal is said as it is (not "This will: ..."): nothing will happen.
    el.textContent = !said ? "" : refused || !prefix ? said : `${t("preview.will")} ${said}`;
    el.classList.toggle("refused", Boolean(refused));
    el.dataset.version = String(against.version);
    el.hidden = !said;
    onSaid(Boolean(refused));
  };
  return { el, show, clear, refused: () => el.classList.contains("refused") };
}

/** Send a command made against `against` (the game and version the
 * player saw when they chose it; by default the state shown now). */
export function submitCommand(name, args, against = madeAgainst()) {
  return change("/api/command", { command: { name, args }, ...against });
}

// -- widgets: each is {el, value(), valid(), reset()} ------------------------------------

export function valuePad({ low = null, high = null, onChange = () => {} } = {}) {
  let digits = "";
  let negative = false;
  const canBeNegative = low === null || low < 0;
  const canBePositive = high === null || high > 0;
  if (!canBePositive) negative = true;
  const shown = h("output", { class: "pad-value", "aria-live": "polite" });
  const value = () => (digits === "" ? null : (negative ? -1 : 1) * Number(digits));
  const valid = () => {
    const v = value();
    return v !== null && (low === null || v >= low) && (high === null || v <= high);
  };
  const update = () => {
    const v = value();
    shown.textContent = v === null ? (negative ? "−" : "") : v > 0 && canBeNegative ? `+${v}` : String(v).replace("-", "−");
    shown.dataset.placeholder = v === null && !negative ? t("pad.placeholder") : "";
    shown.classList.toggle("invalid", v !== null && !valid());
    onChange(v, valid());
  };
  const key = (label, action, extra = {}) => h("button", { type: "button", class: "btn secondary", ...extra, onclick: action }, label);
  const sign = key("+/−", () => {
    negative = !negative;
    update();
  }, { "aria-label": t("pad.sign"), disabled: !canBeNegative || !canBePositive });
  const erase = key("⌫", () => {
    digits = digits.slice(0, -1);
    update();
  }, { "aria-label": t("pad.erase") });
  const digitsRow = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map((d) => key(String(d), () => {
    if (digits.length >= 4) return;
    digits = digits === "0" ? String(d) : digits + d;
    update();
  }, { dataset: { digit: d } }));
  const el = h("div", { class: "pad" },
    h("div", { class: "pad-display" }, sign, shown, erase),
    h("div", { class: "pad-keys" }, digitsRow));
  update();
  return {
    el, value, valid,
    reset() {
      digits = "";
      negative = !canBePositive;
      update();
    },
  };
}

/** The values among +n and −n that lie in low..high, the positive first
 * (0 is one value). */
export function signedValues(n, low, high) {
  return [...new Set([n, -n])].filter((v) => v >= low && v <= high);
}

/** The numbers printed on the cards that low..high allows: 12 stands for
 * +12 and −12, so that every value is one tap away. */
export function cardNumbers(low, high) {
  const most = Math.max(Math.abs(low), Math.abs(high));
  const numbers = [];
  for (let n = 0; n <= most; n++) if (signedValues(n, low, high).length) numbers.push(n);
  return numbers;
}

/** One button per number (see cardNumbers); `onPick(n)` at a tap. */
export function numberGrid(numbers, { onPick = () => {}, picked = null } = {}) {
  const buttons = numbers.map((n) => h("button", {
    type: "button", class: "number-key", dataset: { value: n }, "aria-pressed": String(n === picked),
    onclick: () => onPick(n),
  }, String(n)));
  return h("div", { class: "number-grid", role: "group", "aria-label": t("pad.numbers") }, buttons);
}

function pickButtons(items, { onPick = () => {}, selected = undefined, numbers = false, onChange = () => {} } = {}) {
  // items: [{value, label, colour?}]
  let current = selected;
  const buttons = items.map((item) => {
    const button = h("button", {
      type: "button", class: "option", "aria-pressed": String(item.value === current),
      dataset: { value: String(item.value) },
      onclick: () => {
        current = item.value;
        for (const b of buttons) b.setAttribute("aria-pressed", String(b === button));
        onPick(item.value);
        onChange(item.value, true);
      },
    }, item.marker ?? (item.letter
      ? h("span", { class: "poop mini", style: { background: item.colour }, dataset: { kind: String(item.value) }, "aria-hidden": "true" }, item.letter)
      : item.colour ? dot(item.colour) : null), item.label);
    return button;
  });
  return {
    el: h("div", { class: ["options", numbers && "numbers"], role: "group" }, buttons),
    value: () => current,
    valid: () => current !== undefined,
    reset() {
      current = undefined;
      for (const b of buttons) b.setAttribute("aria-pressed", "false");
    },
  };
}

/** A player's marker: the game's own (OhShit!'s letters), else their
 * colour's dot. */
export function playerMark(state, seat) {
  return boardFor(state.game).playerMarker?.(state, seat) ?? dot(state.colours?.[seat]);
}

/** Whether the game's view says a seat is out of the game (dead,
 * exploded, eliminated). */
export function outOfGame(state, seat) {
  const entry = state.state?.players?.[seat];
  return Boolean(entry && (entry.alive === false || entry.eliminated || entry.exploded || entry.out));
}

export function playerPicker(state, { onPick, allowed = null, onChange, selected = undefined } = {}) {
  const items = state.players
    .map((name, seat) => ({ value: seat, label: name, marker: playerMark(state, seat) }))
    .filter((item) => !allowed || allowed.includes(item.value));
  return pickButtons(items, { onPick, onChange, selected });
}

/** The values a form offers for a parameter now: the game's board says
 * (from the table and the values picked so far), else every choice; a
 * move of the rules is never offered on a player out of the game. */
function offeredValues(spec, param, state, args) {
  const said = boardFor(state.game).offered?.(state, spec.name, param, args);
  if (Array.isArray(said)) return said;
  if (param.kind === "player" && !spec.correction) {
    return state.players.map((_, seat) => seat).filter((seat) => !outOfGame(state, seat));
  }
  return null;
}

function widgetFor(param, game, command, state, onChange = () => {}, offer = null, selected = undefined) {
  switch (param.kind) {
    case "int": {
      const low = param.low ?? null;
      const high = param.high ?? null;
      if (low !== null && high !== null && high - low < SMALL_RANGE) {
        const items = [];
        for (let v = low; v <= high; v++) items.push({ value: v, label: v > 0 && low < 0 ? `+${v}` : String(v) });
        return pickButtons(items, { numbers: true, onChange });
      }
      return valuePad({ low, high, onChange });
    }
    case "player":
      return playerPicker(state, { onChange, allowed: offer, selected });
    case "choice": {
      const colourOf = boardFor(game).choiceColour;
      const letterOf = boardFor(game).choiceLetter;
      return pickButtons(param.choices.filter((c) => !offer || offer.includes(c)).map((c) => ({
        value: c, label: choiceLabel(game, c), colour: colourOf ? colourOf(state, c) : null,
        letter: letterOf ? letterOf(state, c) : null,
      })), { onChange, selected });
    }
    case "bool":
      return pickButtons([{ value: true, label: t("answer.yes") }, { value: false, label: t("answer.no") }], { onChange });
    case "dice": {
      const input = h("input", { class: "text-input", inputmode: "numeric", placeholder: "3 5" });
      const parse = () => input.value.split(/[\s,]+/).filter(Boolean).map(Number);
      return { el: input, value: parse, valid: () => parse().length > 0 && parse().every(Number.isInteger), reset: () => { input.value = ""; } };
    }
    default: {
      const input = h("textarea", { class: "text-input", maxlength: 200, rows: 3 });
      return { el: input, value: () => input.value.trim(), valid: () => input.value.trim().length > 0, reset: () => { input.value = ""; } };
    }
  }
}

/** A sheet with one field per parameter; submits the command. */
export function openCommandForm(spec, exp, state) {
  const game = state.game;
  // Bound to the situation it was opened for: a move made meanwhile on
  // another phone closes it, and a late submit is refused by the table.
  const against = madeAgainst(state);
  // A move the table says it would refuse is not sent: OK waits for a
  // value it accepts (the line says why).
  let refused = false;
  const preview = previewLine({
    onSaid: (no) => {
      refused = no;
      submit.disabled = no;
    },
  });
  let fields = [];
  let ready = false;
  // As soon as every value it needs is picked, the form says what the
  // command would do (and again when a value changes).
  const picked = () => {
    if (!ready) return;
    offerNow();
    const args = argsOf();
    if (args) preview.show(spec.name, args);
    else preview.clear();
  };
  const baseArgs = () => {
    const args = { ...(exp?.args ?? {}) };
    if (exp && exp.player !== null && spec.params.some((p) => p.name === "player")) args.player = exp.player;
    return args;
  };
  const chosenArgs = () => {
    const args = baseArgs();
    for (const { param, widget } of fields) if (widget.valid()) args[param.name] = widget.value();
    return args;
  };
  // A value the tap that opened the form already chose (the pile tapped):
  // picked from the start, still changeable, and named in the title.
  const chosen = exp?.chosen ?? {};
  fields = paramsToAsk(spec, exp, { optional: true }).map((param) => {
    const offer = offeredValues(spec, param, state, baseArgs());
    const start = param.name in chosen && (!offer || offer.includes(chosen[param.name])) ? chosen[param.name] : undefined;
    const widget = widgetFor(param, game, spec.name, state, () => picked(), offer, start);
    const label = paramLabel(game, spec.name, param) + (param.optional ? ` (${t("form.optional")})` : "");
    const help = paramHelp(game, spec.name, param);
    return {
      param, widget, offer: JSON.stringify(offer),
      el: h("div", { class: "field", dataset: { param: param.name }, hidden: Array.isArray(offer) && !offer.length && param.optional },
        h("span", { class: "label", text: label }), help ? h("span", { class: "help", text: help }) : null, widget.el),
    };
  });
  // What a field offers may follow another's value (a Suppositoire's
  // colours, the target's pile): its choices are drawn again when they
  // change, the value kept while still offered; a field with nothing to
  // offer is left out.
  function offerNow() {
    for (const field of fields) {
      const offer = offeredValues(spec, field.param, state, chosenArgs());
      const key = JSON.stringify(offer);
      if (key === field.offer) continue;
      const kept = field.widget.valid() && (!offer || offer.includes(field.widget.value())) ? field.widget.value() : undefined;
      const widget = widgetFor(field.param, game, spec.name, state, () => picked(), offer, kept);
      field.widget.el.replaceWith(widget.el);
      field.widget = widget;
      field.offer = key;
      field.el.hidden = Array.isArray(offer) && !offer.length && field.param.optional;
    }
  }
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "btn primary big", text: t("form.ok", { what: commandLabel(game, spec.name) }) });
  const argsOf = () => {
    const args = baseArgs();
    for (const { param, widget } of fields) {
      if (widget.valid()) args[param.name] = widget.value();
      else if (!param.optional) return null;
    }
    return args;
  };
  const form = h("form", { class: "sheet-form", novalidate: true },
    commandHelp(game, spec) ? h("p", { class: "hint", text: commandHelp(game, spec) }) : null,
    fields.map((f) => f.el), preview.el, error, submit);
  ready = true;
  picked();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (refused) return;
    const args = { ...(exp?.args ?? {}) };
    if (exp && exp.player !== null && spec.params.some((p) => p.name === "player")) args.player = exp.player;
    for (const { param, widget } of fields) {
      if (widget.valid()) args[param.name] = widget.value();
      else if (!param.optional) {
        error.textContent = t("form.missing", { what: paramLabel(game, spec.name, param) });
        error.hidden = false;
        return;
      }
    }
    submit.disabled = true;
    const done = await submitCommand(spec.name, args, against);
    submit.disabled = false;
    if (done) closeSheet();
  });
  openSheet(exp?.title ?? commandLabel(game, spec.name), form);
  bindSheet(state);
}

/** Die buttons for one roll; a single die plays at the first tap. */
export function dicePad(dice, onRoll) {
  const chosen = new Array(dice.count).fill(null);
  const confirm = h("button", { type: "button", class: "btn primary big", disabled: true, hidden: dice.count === 1 });
  const refresh = () => {
    confirm.disabled = chosen.includes(null);
    confirm.textContent = chosen.includes(null) ? t("dice.pick", { count: dice.count }) : t("dice.play", { values: chosen.join(" + ") });
  };
  const rows = chosen.map((_, index) => {
    const buttons = [];
    for (let face = 1; face <= dice.sides; face++) {
      buttons.push(h("button", {
        type: "button", class: "die", "aria-pressed": "false", "aria-label": t("dice.face", { face }),
        dataset: { die: index, face },
        onclick: (event) => {
          chosen[index] = face;
          for (const b of event.currentTarget.parentElement.children) b.setAttribute("aria-pressed", String(b === event.currentTarget));
          if (dice.count === 1) onRoll([face]);
          else refresh();
        },
      }, String(face)));
    }
    return h("div", { class: "dice-row", role: "group", "aria-label": t("dice.die", { n: index + 1 }) }, buttons);
  });
  confirm.addEventListener("click", () => onRoll([...chosen]));
  refresh();
  return h("div", { class: "dice-pad" }, rows, confirm);
}

export function playerName(state, seat) {
  return seat === null || seat === undefined ? "" : state.players[seat] ?? `#${seat}`;
}
