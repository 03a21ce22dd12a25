// The live table: the board of the game being played, what it waits for at
// the bottom of the screen, corrections, undo, the chart and the OLED mirror.

import {
  $, ApiError, api, applyState, bindSheet, post, refusal, boot, change, changeSummary, changing, closeSheet, dot, eventText, gameTitle, h, has,
  isController, lang, mirror, on, openJoin, openSheet, store, t, toast, madeAgainst,
} from "./core.js";
import {
  cardNumbers, choiceLabel, commandHelp, commandLabel, dicePad, expectationLabel, numberGrid, openCommandForm, paramsToAsk,
  promptFor, signedValues, specOf, submitCommand, valuePad, previewLine, playerMark,
} from "./forms.js";
import { askUndo, redo, undoSaid } from "./undo.js";
import { bgstatsLink } from "./bgstats.js";
import { resultSaid } from "./sentences.js";
import { boardFor } from "./games/index.js";
import "./caller.js";
import { redrawn } from "./guard.js";

const board = $("#board");
const dock = $("#dock");
const eventsBox = $("#events");
const resultBox = $("#result");
const chartCard = $("#chart-card");
const oled = $("#oled");

// The chart's history: one group of events per command in effect, so that
// an undo takes back its group (kept from /api/history and the live updates).
let groups = [];
let groupsOf = null; // game_id the groups belong to
let lastVersion = null;
let dockSignature = "";
let pads = new Map(); // inline value pads kept across updates, by command

function render(state, previous) {
  renderSeat(state, previous);
  renderBoard(state);
  renderEvents(state, previous);
  renderResult(state, previous);
  renderDock(state);
  trackHistory(state);
}

function renderBoard(state) {
  if (!state.game) {
    board.replaceChildren(h("section", { class: "card empty" },
      h("h1", { text: t("table.no_game") }),
      h("p", { text: t("table.no_game.help") })));
    document.title = t("app.name");
    return;
  }
  document.title = `${gameTitle(state.game, state.title)} · ${t("app.name")}`;
  board.replaceChildren(boardFor(state.game).render(state));
}

// The change whose lines the events box shows (to say them again in
// another language).
let toldState = null;

function renderEvents(state, previous) {
  if (!state.game || state.action === "current" || state.action === "replay") {
    if (!previous || previous.game_id !== state.game_id) {
      eventsBox.replaceChildren();
      toldState = null;
    }
    return;
  }
  // A version already told is not told again; one first shown as a bare
  // snapshot (a 409's state, a roll's answer) is told when its change comes.
  const told = previous && !["current", "replay"].includes(previous.action);
  if (told && previous.game_id === state.game_id && previous.version === state.version) return;
  toldState = state;
  eventsBox.replaceChildren(...eventLines(state));
  if (document.visibilityState !== "visible") return;
  const dice = state.action === "command" ? diceOf(state) : null;
  const alerts = state.events.filter((e) => e.alert);
  if (dice) {
    // A roll is seen on every phone: the dice and what they did.
    const did = state.events.filter((e) => e.kind !== "turn").map((e) => eventText(e, state.players, state.game));
    toast([t("dice.rolled", { values: dice.join(" + ") }), ...did].join(" · "),
      { alert: alerts.length > 0, roll: true, ms: 6000 });
  } else if (alerts.length) {
    // Thresholds, flushes, eliminations: worth interrupting the phone for.
    toast(alerts.map((e) => eventText(e, state.players, state.game)).join(" · "), { alert: true, ms: 6000 });
  }
  if (alerts.length && navigator.vibrate) navigator.vibrate(180);
}

/** The events box's lines for a change: the last four things it did. */
function eventLines(state) {
  const lines = [];
  if (state.action === "undo") lines.push(h("div", { class: "event", text: t("events.undone") }));
  if (state.action === "new") lines.push(h("div", { class: "event", text: t("events.new_game") }));
  for (const event of state.events) {
    if (event.kind === "turn" && state.events.length > 1) continue;
    lines.push(h("div", { class: ["event", event.alert && "alert"], dataset: { kind: event.kind } }, eventText(event, state.players, state.game)));
  }
  const dice = state.action === "command" ? diceOf(state) : null;
  if (dice) lines.unshift(h("div", { class: "event", text: t("dice.rolled", { values: dice.join(" + ") }) }));
  return lines.slice(-4);
}

function renderResult(state, previous) {
  const result = state.game && state.over ? state.result : null;
  resultBox.hidden = !result;
  if (!result) return;
  const winners = result.winners.map((s) => state.players[s]);
  // (replaceChildren would write a null as the text "null".)
  resultBox.replaceChildren(...[
    h("h2", { text: t("result.title") }),
    h("p", { text: winners.length ? t(winners.length === 1 ? "result.winner" : "result.winners", { names: winners.join(", ") }) : t("result.none") }),
    // How it ended, where the game says it in the phone's language.
    lang === "en" || result.said?.[lang] ? h("div", { class: "hint", text: resultSaid(result, state.players, state.game) }) : null,
    bgstatsLink(state.game_id),
    isController() && state.setup ? playAgain(state) : null].filter(Boolean));
  // The game just ended on this phone: the card is at the top of the page.
  if (previous?.game_id === state.game_id && !previous.over) window.scrollTo({ top: 0, behavior: "smooth" });
}

// -- the same game again ------------------------------------------------------------

// The finished game whose "let the next seat start" box is ticked, so that
// it stays ticked while the card is drawn again.
let rotatedGame = null;

/** The players of `state`'s setup in seating order with their colours,
 * starting from the next seat when `rotate`. */
function seatsAgain(state, rotate) {
  const seats = state.setup.players.map((name, seat) => ({ name, colour: state.colours?.[seat] }));
  if (rotate) seats.push(seats.shift());
  return seats;
}

function playAgain(state) {
  const seats = state.setup.players;
  const starts = h("small", { id: "again-starts" });
  const showStarter = () => {
    starts.textContent = t("result.again_starts", { name: seatsAgain(state, rotatedGame === state.game_id)[0].name });
  };
  showStarter();
  const button = h("button", {
    type: "button", class: "btn primary big", id: "play-again",
    onclick: async () => {
      const shown = store.state;
      if (!shown?.over || shown.game_id !== state.game_id) return;
      button.disabled = true;
      const started = await change("/api/new-game", {
        game: shown.game,
        players: seatsAgain(shown, rotatedGame === shown.game_id),
        variants: shown.setup.variants,
        options: shown.setup.options,
        ...madeAgainst(shown),
      }, {
        // Two phones tapped it: the other one's game is the one wanted.
        stale: (fresh) => (fresh.game_id !== shown.game_id && fresh.game === shown.game ? t("result.again_elsewhere") : null),
      });
      if (!started) button.disabled = false;
    },
  }, h("span", {}, "↻ ", t("result.again")), starts);
  const rotate = seats.length > 1
    ? h("label", { class: "toggle", id: "rotate" },
      h("span", {}, h("b", { text: t("result.rotate", { name: seats[1] }) }),
        h("small", { text: t("result.rotate_help", { name: seats[0] }) })),
      h("input", {
        type: "checkbox", checked: rotatedGame === state.game_id,
        onchange: (event) => {
          rotatedGame = event.currentTarget.checked ? state.game_id : null;
          showStarter();
        },
      }))
    : null;
  return h("div", { class: "again" }, button, rotate,
    h("a", { class: "btn secondary", id: "other-game", href: "/setup", text: t("table.new_game") }));
}

// -- the dock ------------------------------------------------------------------

// A press on the dock ends before the dock is drawn again: a control
// replaced between a press and its release takes no click (the two land on
// different elements) and the tap would be lost.  News that comes while a
// finger or the mouse is down waits for it to lift (or for PRESS_MS, a
// press that long is no tap); the guard then holds what changed under it.
const PRESS_MS = 1000;
let pressed = false;
let putOff = null; // the timer of a drawing put off by a press
dock.addEventListener("pointerdown", () => { pressed = true; }, true);

/** The dock drawn again whatever it showed; `own` as for the guard. */
function drawDockAgain(own) {
  dockSignature = "";
  if (store.state) renderDock(store.state);
  redrawn(own);
}

function drawPutOff() {
  clearTimeout(putOff);
  putOff = null;
  delete dock.dataset.redraw;
  drawDockAgain(false);
}

function released() {
  if (!pressed) return;
  pressed = false;
  // After the click this release makes.
  if (putOff !== null) setTimeout(drawPutOff);
}
document.addEventListener("pointerup", released, true);
document.addEventListener("pointercancel", released, true);

function renderDock(state) {
  const companion = store.companion;
  const signature = JSON.stringify([
    store.session?.role, state.game_id, state.version, state.colours, companion?.dice?.source, myName(),
  ]);
  if (signature === dockSignature) return;
  if (pressed) {
    putOff ??= setTimeout(() => { pressed = false; drawPutOff(); }, PRESS_MS);
    // (A script waits for it before it lifts its finger.)
    dock.dataset.redraw = "after-press";
    return;
  }
  dockSignature = signature;
  const inner = h("div", { class: "dock-inner" });
  if (!isController()) {
    inner.append(h("div", { class: "watching" },
      h("p", { text: t("dock.watching") }),
      h("button", { type: "button", class: "btn primary", id: "join", text: t("join.button"), onclick: openJoin })));
    dock.replaceChildren(inner);
    return;
  }
  if (!state.game) {
    inner.append(h("a", { class: "btn primary big", href: "/setup", text: t("table.setup") }));
    dock.replaceChildren(inner);
    return;
  }
  // A finished game offers what comes next on its result card; the dock
  // keeps undo and the corrections, for a last move entered wrong.
  let secondary = [];
  if (!state.over) {
    // A board may put what the game waits for at the thumb its own way (a
    // reveal's choices, an entry per player); else the generic dock.
    const actions = boardFor(state.game).dock?.(state, dockTools(state)) ?? expectations(state);
    inner.append(...actions.main);
    secondary = actions.secondary;
  }
  // Undo asks once, naming what it takes back; redo sits next to it.
  const redoButton = state.can_redo ? h("button", {
    type: "button", class: "btn secondary", id: "dock-redo", onclick: () => redo(state),
  }, "↷ ", t("action.redo")) : null;
  inner.append(h("div", { class: "dock-row" },
    ...secondary,
    h("button", {
      type: "button", class: "btn secondary", id: "undo", disabled: !state.can_undo,
      title: undoSaid(state),
      onclick: () => askUndo(state),
    }, "↶ ", t("action.undo")),
    redoButton,
    h("button", {
      type: "button", class: "btn secondary", id: "corrections",
      onclick: () => openCorrections(state),
    }, "⋯ ", t("action.corrections_short"))));
  dock.replaceChildren(inner);
  // Which state the dock shows (a script waits for it before its next tap).
  dock.dataset.version = `${state.game_id}:${state.version}`;
  showSeatChip(state);
}

/** What a board's own dock may use: play an expectation (as a tap on the
 * board does), send a command, this phone's seat, the generic dock. */
function dockTools(state) {
  return {
    act, mySeat: mySeat(state), expectations: () => expectations(state), more: (exps) => openMoreMoves(state, exps),
    submit: (name, args, options) => change("/api/command", { command: { name, args }, ...madeAgainst(store.state) }, options),
  };
}

// With many things waiting (queue operations anyone may trigger), the ones
// for a named player stay in the dock and the rest go behind "More moves".
const DOCK_MAX = 4;

/** The dock's content for what the game waits for: `main` (prompt, pad,
 * dice, big buttons) and `secondary` buttons that share the bottom row. */
function expectations(state) {
  const all = state.expected.filter((e) => specOf(state.game, e.command));
  let main = all;
  let more = [];
  if (all.length > DOCK_MAX) {
    main = all.filter((e) => e.player !== null || e.dice);
    if (!main.length) main = all.slice(0, DOCK_MAX - 1);
    more = all.filter((e) => !main.includes(e));
  }
  const out = [];
  // This phone's player is told of their turn on the prompt's own line.
  const me = mySeat(state);
  const yourTurn = me !== null && all.some((e) => e.player === me)
    ? h("span", { class: "your-turn", id: "your-turn", role: "status" }, t("seat.your_turn", { name: state.players[me] }))
    : null;
  if (main.length) {
    const first = main[0];
    out.push(h("div", { class: ["prompt", yourTurn && "mine"] },
      yourTurn, first.player !== null ? playerMark(state, first.player) : null,
      h("span", { id: "prompt" }, promptFor(first, state))));
  } else if (yourTurn) {
    out.push(h("div", { class: "prompt mine" }, yourTurn));
  }
  const repeated = (exp) => all.filter((e) => e.command === exp.command).length > 1;
  // An inline pad takes the room of the big buttons (they join the bottom
  // row); a die leaves them big: rolling is one choice among the turn's.
  let inline = false;
  let rolled = false;
  const buttons = [];
  for (const exp of main) {
    const spec = specOf(state.game, exp.command);
    if (exp.dice) {
      if (exp !== main[0]) out.push(h("div", { class: "prompt" }, exp.player !== null ? playerMark(state, exp.player) : null, promptFor(exp, state)));
      out.push(diceAction(state, exp, spec));
      rolled = true;
      continue;
    }
    // The prompt above says what they are; the buttons tell them apart.
    const label = repeated(exp) ? expectationLabel(state.game, spec, exp, { short: true }) : commandLabel(state.game, exp.command);
    const ask = paramsToAsk(spec, exp);
    // A command with only optional parameters (Decompress, with Concentration
    // or not) opens its form, so that the option can be chosen.
    if (paramsToAsk(spec, exp, { optional: true }).length === 0) {
      buttons.push(h("button", {
        type: "button", class: "btn primary big", dataset: { command: exp.command },
        onclick: () => submitCommand(exp.command, withPlayer(spec, exp, {}), madeAgainst(state)),
      }, label));
    } else if (!inline && !rolled && ask.length === 1 && ask[0].kind === "int" && wideRange(ask[0])) {
      inline = true;
      // The values a game says its cards may have, one button each when
      // they fit the dock (a value in one tap); else the digits.
      const range = boardFor(state.game).valueRange?.(state, exp.command, ask[0]);
      const numbers = range ? cardNumbers(...range) : [];
      out.push(numbers.length && numbers.length <= GRID_MAX
        ? inlineGrid(state, exp, spec, ask[0], range, numbers)
        : inlinePad(state, exp, spec, ask[0]));
    } else {
      // A choice the game offers one by one (Call of Nature's special
      // cards) is played at one tap from a list that says what each does.
      const choices = ask.length === 1 && ask[0].kind === "choice"
        && paramsToAsk(spec, exp, { optional: true }).length === 1
        ? boardFor(state.game).playChoices?.(state, exp.command) : null;
      buttons.push(h("button", {
        type: "button", class: "btn secondary big", dataset: { command: exp.command },
        onclick: () => (choices ? openChoicePlays(state, exp, spec, ask[0], choices) : openCommandForm(spec, exp, state)),
      }, label));
    }
  }
  const secondary = [];
  if (inline) {
    secondary.push(...buttons.map((b) => {
      b.classList.remove("big");
      return b;
    }));
  } else if (buttons.length) out.push(h("div", { class: "action-grid" }, buttons));
  if (more.length) {
    secondary.push(h("button", {
      type: "button", class: "btn secondary", id: "more-moves",
      onclick: () => openMoreMoves(state, more),
    }, t("action.more_moves_short")));
  }
  return { main: out, secondary };
}

function openMoreMoves(state, exps) {
  const list = h("ul", { class: "menu-list" }, exps.map((exp) => {
    const spec = specOf(state.game, exp.command);
    // The same move for several players ("reaches the bathroom") names whom.
    const several = exps.filter((e) => e.command === exp.command).length > 1;
    return h("li", {}, h("button", {
      type: "button", class: "btn secondary", dataset: { command: exp.command, ...(exp.args && "player" in exp.args ? { player: exp.args.player } : {}) },
      onclick: () => {
        if (paramsToAsk(spec, exp, { optional: true }).length === 0) {
          submitCommand(exp.command, withPlayer(spec, exp, {}), madeAgainst(state)).then((done) => done && closeSheet());
        } else {
          openCommandForm(spec, exp, state);
        }
      },
    }, h("span", {}, several ? promptFor(exp, state) : commandLabel(state.game, exp.command),
      h("small", { text: commandHelp(state.game, spec) })), "›"));
  }));
  openSheet(t("action.more_moves"), list);
  bindSheet(state);
}

/**
 * The choices of a command's one parameter (the special cards), each a
 * button that names it with what it will do (said by the table, as a
 * card's +N and −N are) and plays it at a tap.  Bound like every form to
 * the situation it was opened for: another phone's move closes it, and a
 * late tap is refused by the table.
 */
function openChoicePlays(state, exp, spec, param, choices) {
  const against = madeAgainst(state);
  const list = h("ul", { class: "menu-list choice-plays" }, choices.map((value) => {
    // The whole of what it will do is the button's title (two lines show).
    const preview = previewLine({ tag: "span", prefix: false, onSaid: () => { button.title = preview.el.textContent; } });
    const args = withPlayer(spec, exp, { [param.name]: value });
    const button = h("button", {
      type: "button", class: "btn secondary choice-play", dataset: { command: exp.command, value },
      onclick: async () => {
        for (const b of list.querySelectorAll("button")) b.disabled = true;
        const done = await submitCommand(exp.command, args, against);
        if (done) closeSheet();
        else for (const b of list.querySelectorAll("button")) b.disabled = false;
      },
    }, h("span", {}, h("b", { text: choiceLabel(state.game, value) }), preview.el));
    preview.el.hidden = false;
    preview.el.textContent = "…";
    preview.show(exp.command, args);
    return h("li", {}, button);
  }));
  const who = exp.player !== null ? state.players[exp.player] : null;
  openSheet(who ? `${commandLabel(state.game, exp.command)} · ${who}` : commandLabel(state.game, exp.command), list);
  bindSheet(state);
}

function wideRange(param) {
  return param.low === undefined || param.high === undefined || param.high - param.low >= 13;
}

function withPlayer(spec, exp, args) {
  const out = { ...exp.args, ...args };
  if (exp.player !== null && spec.params.some((p) => p.name === "player")) out.player = exp.player;
  return out;
}

/** A value picked on a pad of an older situation of this game was not
 * sent: say so, with what changed under it. */
function sayDropped(state) {
  const dropped = [...pads.values()].find((old) => old.value() !== null);
  if (dropped && !changing() && dropped.gameId === state.game_id) {
    toast(t("pad.dropped", { value: dropped.value(), what: changeSummary(state) }), { error: true, ms: 6000 });
  }
}

function inlinePad(state, exp, spec, param) {
  const play = h("button", { type: "button", class: "btn primary", id: "play", disabled: true, dataset: { command: exp.command } });
  // A pad belongs to one situation (game, version, who plays): a value typed
  // for Zoé is never sent for the next player once another phone played.
  const key = `${state.game_id}:${state.version}:${exp.command}:${exp.player}`;
  let pad = pads.get(key);
  if (!pad) {
    sayDropped(state);
  }
  const label = (value, ok) => {
    // What the card would do, said by the table before Play is tapped.
    if (ok) pad.preview.show(exp.command, withPlayer(spec, exp, { [param.name]: value }));
    else pad.preview?.clear();
    play.disabled = !ok;
    play.textContent = ok
      ? `${commandLabel(state.game, exp.command)} ${value > 0 && (param.low ?? -1) < 0 ? "+" : ""}${value}`
      : commandLabel(state.game, exp.command);
  };
  if (!pad) {
    pad = valuePad({ low: param.low ?? null, high: param.high ?? null, onChange: (v, ok) => pad?.onChange?.(v, ok) });
    pad.slot = h("div", { class: "pad-action" });
    pad.gameId = state.game_id;
    pad.preview = previewLine();
    pad.el.querySelector(".pad-display").append(pad.slot);
    pads = new Map([[key, pad]]);
  }
  pad.onChange = label;
  label(pad.value(), pad.valid());
  play.addEventListener("click", async () => {
    if (!pad.valid()) return;
    play.disabled = true;
    const done = await submitCommand(exp.command, withPlayer(spec, exp, { [param.name]: pad.value() }), madeAgainst(state));
    if (done) pad.reset();
    else label(pad.value(), pad.valid());
  });
  pad.slot.replaceChildren(play);
  return h("div", { class: "inline-pad", dataset: { command: exp.command } }, pad.el, pad.preview.el);
}

// A grid of card numbers fits the dock up to five rows of eight; more
// (a table that set a wide range of values) gets the digit pad.
const GRID_MAX = 40;

/**
 * A card in two taps: its number (12), then the value it has (+12 or
 * −12), each offered with what it will do, said by the table.  While a
 * number is picked the choices take the grid's place, so the dock keeps
 * its height; "another number" brings the grid back.  Bound like the pad
 * to the situation it was drawn for.
 */
function inlineGrid(state, exp, spec, param, [low, high], numbers) {
  const key = `${state.game_id}:${state.version}:${exp.command}:${exp.player}`;
  let pad = pads.get(key);
  if (!pad) {
    sayDropped(state);
    let picked = null;
    pad = { gameId: state.game_id, value: () => picked, pick: (n) => { picked = n; } };
    pads = new Map([[key, pad]]);
  }
  const label = commandLabel(state.game, exp.command);
  const signed = (v) => (v > 0 && low < 0 ? `+${v}` : String(v).replace("-", "−"));
  const choices = h("div", { class: "card-choices", role: "group" });
  const grid = numberGrid(numbers, { picked: pad.value(), onPick: (n) => show(n) });
  const box = h("div", { class: "inline-pad card-pad", dataset: { command: exp.command } }, grid, choices);
  const play = (value) => {
    // The values share the room the grid leaves: a long preview is cut to
    // the lines its button holds (the whole sentence in its title), so
    // that no value ever goes under another control.
    const preview = previewLine({ tag: "span", prefix: false, onSaid: () => requestAnimationFrame(() => fitPreview(button, preview.el)) });
    const button = h("button", {
      type: "button", class: "btn primary card-play", dataset: { value, command: exp.command },
      "aria-label": `${label} ${signed(value)}`,
      onclick: async () => {
        for (const b of choices.querySelectorAll("button")) b.disabled = true;
        const done = await submitCommand(exp.command, withPlayer(spec, exp, { [param.name]: value }), madeAgainst(state));
        if (done) show(null);
        else for (const b of choices.querySelectorAll("button")) b.disabled = false;
      },
    }, h("b", { class: "card-play-value", text: signed(value) }), preview.el);
    preview.el.hidden = false;
    preview.el.textContent = "…";
    preview.show(exp.command, withPlayer(spec, exp, { [param.name]: value }));
    return button;
  };
  function show(n) {
    pad.pick(n);
    for (const b of grid.children) b.setAttribute("aria-pressed", String(Number(b.dataset.value) === n));
    box.classList.toggle("picked", n !== null);
    if (n === null) {
      choices.replaceChildren();
      return;
    }
    const values = signedValues(n, low, high);
    choices.style.setProperty("--plays", String(values.length));
    choices.replaceChildren(...values.map(play),
      h("button", { type: "button", class: "btn secondary card-back", onclick: () => show(null) }, "← ", t("pad.another")));
  }
  if (pad.value() !== null) show(pad.value());
  return box;
}

/** Cut a value's preview to the whole lines its button has room for;
 * the button's title keeps the whole sentence. */
function fitPreview(button, preview) {
  if (!button.isConnected || preview.hidden) return;
  preview.style.removeProperty("-webkit-line-clamp");
  const style = getComputedStyle(button);
  const room = button.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const line = parseFloat(getComputedStyle(preview).lineHeight) || 16;
  if (preview.scrollHeight > room + 1) preview.style.setProperty("-webkit-line-clamp", String(Math.max(1, Math.floor(room / line))));
  button.title = preview.textContent;
}

function diceAction(state, exp, spec) {
  const diceParam = spec.params.find((p) => p.kind === "dice");
  const manual = (note) => h("div", { class: "dice-manual" },
    note ? h("p", { class: "hint", text: note }) : null,
    dicePad(exp.dice, (values) => submitCommand(exp.command, withPlayer(spec, exp, { [diceParam.name]: values }), madeAgainst(state))));
  const dice = store.companion?.dice;
  // A die named by its colour is said in the page's language.
  const name = has(`dice.name.${exp.dice.name}`) ? t(`dice.name.${exp.dice.name}`) : exp.dice.name;
  if (!dice || dice.source === "manual") return manual(t("dice.enter", { dice: name }));
  if (dice.source === "serial") {
    const hand = h("details", {}, h("summary", { class: "btn secondary wide", text: t("dice.by_hand") }), manual(null));
    return h("div", { class: "dice-serial" }, h("p", { class: "hint", text: t("dice.serial", { status: dice.status }) }), hand);
  }
  return h("button", {
    type: "button", class: "btn primary big roll-btn", id: "roll",
    onclick: async (event) => {
      event.currentTarget.disabled = true;
      const done = await change("/api/dice/roll", madeAgainst(state));
      if (!done) event.target.disabled = false;
    },
  }, "⚄ ", t("dice.roll", { dice: name }));
}

/** The dice a command was given (its dice parameter), or null. */
function diceOf(state) {
  const command = state.command;
  const spec = command && specOf(state.game, command.name);
  const param = spec?.params.find((p) => p.kind === "dice");
  const values = param && command.args?.[param.name];
  return Array.isArray(values) ? values : null;
}

// A board may offer what the game waits for on its own pieces (a face-down
// card to reveal): it sends an "act" event with the expectation.
board.addEventListener("act", (event) => act(event.detail));

/** Play what the game waits for: at once when nothing is left to ask,
 * else through its form. */
function act(exp) {
  const state = store.state;
  const spec = state?.game && specOf(state.game, exp.command);
  if (!spec) return;
  if (!isController()) {
    openJoin();
    return;
  }
  if (paramsToAsk(spec, exp, { optional: true }).length === 0) return submitCommand(exp.command, withPlayer(spec, exp, {}), madeAgainst(state));
  openCommandForm(spec, exp, state);
  return null;
}

// -- corrections ------------------------------------------------------------------

function openCorrections(state) {
  const game = store.games?.[state.game];
  const list = h("ul", { class: "menu-list" });
  if (state.can_redo) {
    list.append(h("li", {}, h("button", {
      type: "button", class: "btn secondary", id: "redo",
      onclick: async () => {
        if (await redo(state)) closeSheet();
      },
    }, h("span", {}, `↷ ${t("action.redo")}`))));
  }
  for (const spec of game?.commands.filter((c) => c.correction) ?? []) {
    list.append(h("li", {}, h("button", {
      type: "button", class: "btn secondary", dataset: { command: spec.name },
      onclick: () => {
        if (paramsToAsk(spec, null, { optional: true }).length === 0) {
          submitCommand(spec.name, {}, madeAgainst(state)).then((done) => done && closeSheet());
        } else {
          openCommandForm(spec, null, state);
        }
      },
    }, h("span", {}, commandLabel(state.game, spec.name), h("small", { text: commandHelp(state.game, spec) })), "›")));
  }
  const content = [list];
  const dice = store.companion?.dice;
  if (dice) content.push(diceSources(dice));
  content.push(h("a", { class: "btn secondary wide", href: "/history", text: t("nav.history") }));
  openSheet(t("action.corrections"), ...content);
  bindSheet(state);
}

export function diceSources(dice) {
  return h("div", { class: "field" }, h("span", { class: "label", text: t("setup.dice") }),
    h("div", { class: "segmented", role: "group" }, dice.sources.map((source) => h("button", {
      type: "button", class: "option", "aria-pressed": String(source === dice.source), dataset: { source },
      onclick: async (event) => {
        const group = event.currentTarget.parentElement; // currentTarget is gone after the await
        const info = await change("/api/dice", { source });
        if (info) {
          for (const b of group.children) b.setAttribute("aria-pressed", String(b.dataset.source === source));
        }
      },
    }, t(`dice.source.${source}`)))),
    h("p", { class: "hint", text: dice.status }));
}

// -- my seat: whose phone this is -------------------------------------------------------

// The name of the player this phone belongs to, kept on the phone: a seat
// is found by name, so it holds for the next game with the same players.
function myName() {
  try {
    return localStorage.getItem("seat");
  } catch (err) {
    return null;
  }
}

function setMyName(name, { tell = true } = {}) {
  if (tell) claimSeat(name);
  try {
    if (name) localStorage.setItem("seat", name);
    else localStorage.removeItem("seat");
  } catch (err) {
    /* private mode: the seat lasts as long as the page */
  }
  dockSignature = "";
  if (store.state) {
    lastMyTurn = isMyTurn(store.state);
    renderDock(store.state);
  }
}

// -- my seat on the companion ---------------------------------------------------------
// A controller's seat is kept on the companion too (POST /api/seat), where
// the table's setting "turns only from the player's own phone" checks it.
// A newer phone that says it is Ana takes Ana's seat: this phone, whose
// claim is gone from the companion's list, says so and is no one's again.

let claiming = 0;

async function claimSeat(name) {
  if (!isController() || !store.state?.game) return;
  if (name && !store.state.players.includes(name)) return;
  claiming += 1;
  try {
    const session = await post("/api/seat", { player: name, ...madeAgainst() });
    store.session = { ...store.session, seat: session.seat, claim: session.claim };
    // The seats as the companion has them now (the live event may come later).
    store.companion = { ...store.companion, seats: session.companion.seats };
  } catch (err) {
    // A stale version: the next state tries again.
    if (!(err instanceof ApiError) || err.status !== 409) toast(refusal(err), { error: true });
  } finally {
    claiming -= 1;
  }
}

/** Keep the companion's seat and this phone's in step: claim the seat the
 * phone remembers when the companion has nobody in it (after a restart, or
 * once the phone joined), and give it up, saying so, when another phone
 * holds it. */
function syncSeat() {
  if (!isController() || !store.state?.game || claiming) return;
  const name = myName();
  if (!name || !store.state.players.includes(name)) return;
  const held = store.companion?.seats?.[name];
  if (held === undefined) {
    claimSeat(name);
    return;
  }
  if (store.session?.seat === name && store.session?.claim === held) return;
  store.session = { ...store.session, seat: null, claim: null };
  toast(t("seat.taken", { name }), { alert: true, ms: 6000 });
  setMyName(null, { tell: false });
}

export function mySeat(state) {
  const name = myName();
  const seat = name ? state?.players?.indexOf(name) ?? -1 : -1;
  return seat >= 0 ? seat : null;
}

function isMyTurn(state) {
  const me = mySeat(state);
  return me !== null && !state.over && state.expected.some((e) => e.player === me);
}

/** "I am Ana" in the top bar while a game is played: a tap says whose
 * phone this is. */
function showSeatChip(state) {
  const slot = $("#seat-slot");
  if (!slot) return;
  if (!state?.game) {
    slot.replaceChildren();
    return;
  }
  const me = mySeat(state);
  slot.replaceChildren(h("button", {
    type: "button", class: ["chip", "seat-chip", me !== null && "mine"], id: "seat",
    onclick: () => openSeatPicker(store.state),
  }, me === null ? t("seat.button_short") : state.players[me]));
}

export function openSeatPicker(state) {
  const me = mySeat(state);
  const list = h("div", { class: "options", role: "group" },
    state.players.map((name, seat) => h("button", {
      type: "button", class: "option", "aria-pressed": String(seat === me), dataset: { seat },
      onclick: () => {
        setMyName(name);
        closeSheet();
      },
    }, playerMark(state, seat), t("seat.mine", { name }))),
    h("button", {
      type: "button", class: "option", "aria-pressed": String(me === null), dataset: { seat: "none" },
      onclick: () => {
        setMyName(null);
        closeSheet();
      },
    }, t("seat.none")));
  openSheet(t("seat.title"), h("p", { class: "hint", text: t("seat.help") }), list);
}

let lastMyTurn = false;
let wakeLock = null;

/** Tell this phone's player of their turn (a vibration as it comes), and
 * keep the screen awake while a game is played. */
function renderSeat(state) {
  const mine = state.game ? isMyTurn(state) : false;
  document.body.classList.toggle("my-turn", mine);
  if (mine && !lastMyTurn && navigator.vibrate && document.visibilityState === "visible") {
    try {
      navigator.vibrate([220, 120, 220]);
    } catch (err) {
      /* the phone does not allow it */
    }
  }
  lastMyTurn = mine;
  keepAwake(Boolean(state.game && !state.over));
}

async function keepAwake(wanted) {
  if (!("wakeLock" in navigator)) return;
  if (!wanted) {
    if (wakeLock) wakeLock.release().catch(() => {});
    wakeLock = null;
    return;
  }
  if (wakeLock && !wakeLock.released) return;
  if (document.visibilityState !== "visible") return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
  } catch (err) {
    wakeLock = null; // not allowed here (no HTTPS, battery saver): the screen may sleep
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && store.state) keepAwake(Boolean(store.state.game && !store.state.over));
});

// -- the chart's history ----------------------------------------------------------------

async function loadHistory(state) {
  try {
    const history = await api("GET", "/api/history");
    if (history.game_id !== store.state?.game_id) return;
    groups = [];
    for (const entry of history.entries) {
      if (entry.action === "undo") groups.pop();
      else groups.push(entry.events);
    }
    groupsOf = history.game_id;
    lastVersion = history.version;
    renderChart(store.state);
  } catch (err) {
    /* the chart waits for the next update */
  }
}

function trackHistory(state) {
  if (!state.game) {
    chartCard.hidden = true;
    return;
  }
  const stepped = groupsOf === state.game_id && lastVersion !== null && state.version === lastVersion + 1;
  if (stepped && state.action === "undo") groups.pop();
  else if (stepped && (state.action === "command" || state.action === "redo")) groups.push(state.events);
  else if (!(groupsOf === state.game_id && state.version === lastVersion)) {
    lastVersion = null;
    loadHistory(state);
    renderChart(state);
    return;
  }
  lastVersion = state.version;
  renderChart(state);
}

function renderChart(state) {
  if (!state?.game) return;
  const chart = boardFor(state.game).chart?.(state, groups);
  chartCard.hidden = !chart;
  if (!chart) return;
  $("#chart-title").textContent = chart.title;
  $("#chart").replaceChildren(chart.el);
}

// -- the OLED mirror --------------------------------------------------------------------

// It follows the table's screen as the live stream pushes its frames.
mirror(oled);

// -- start --------------------------------------------------------------------------------

on("state", (state, previous) => {
  render(state, previous);
  syncSeat();
  // Another phone's move may have retargeted a control under a finger.
  redrawn(changing() || previous?.game_id !== state.game_id);
});
on("session", () => {
  syncSeat();
  dockSignature = "";
  if (store.state) {
    renderDock(store.state);
    renderResult(store.state);
  }
  redrawn(true);
});
// A board asks for its dock again (a choice made on this phone only).
document.addEventListener("redraw-dock", () => drawDockAgain(true));
on("companion", () => {
  syncSeat();
  drawDockAgain(true);
});
// The page speaks another language: everything drawn again in it, the
// events box too (without telling its change again).
on("language", () => {
  dockSignature = "";
  pads = new Map();
  if (toldState) eventsBox.replaceChildren(...eventLines(toldState));
  if (store.state) {
    showSeatChip(store.state);
    renderBoard(store.state);
    renderResult(store.state, store.state);
    renderDock(store.state);
    renderChart(store.state);
  }
  syncSeat();
  redrawn(true);
});
boot().then(async () => {
  if (!store.state) {
    try {
      applyState(await api("GET", "/api/state"));
    } catch (err) {
      /* the live stream brings it */
    }
  }
});
