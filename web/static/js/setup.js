// Setting up a game: which game, the players in seating order with their
// colours, the variants, the options and where dice results come from.

import { $, ApiError, api, boot, changeLanguage, ownLanguage, post, refusal, first, gameTitle, h, has, humanize, isController, on, madeAgainst, openJoin, signOutEveryPhone, store, t, toast } from "./core.js";

// The players' colours, each with its name (said beside the swatch).
const NAMED = [
  ["#d62828", "red"], ["#1d6fd6", "blue"], ["#2a9d3f", "green"], ["#e89a00", "orange"],
  ["#8e44ad", "purple"], ["#00a3a3", "teal"], ["#e0508a", "pink"], ["#7a5c3e", "brown"],
];
const PALETTE = NAMED.map(([hex]) => hex);

export function colourName(hex) {
  const named = NAMED.find(([c]) => c === String(hex).toLowerCase());
  return named ? t(`colour.${named[1]}`) : hex;
}
const REMEMBERED = "companion.setup";

const form = $("#setup");
const gameChoice = $("#game-choice");
const playerList = $("#players");
const errorBox = $("#setup-error");
let chosen = null; // game key
let players = []; // [{name, colour}]

function remembered() {
  try {
    return JSON.parse(localStorage.getItem(REMEMBERED)) || {};
  } catch (err) {
    return {};
  }
}

function remember() {
  try {
    localStorage.setItem(REMEMBERED, JSON.stringify({ game: chosen, players }));
  } catch (err) {
    /* no storage */
  }
}

// -- the game ------------------------------------------------------------------------

function renderGames() {
  const games = Object.values(store.games || {});
  gameChoice.replaceChildren(...games.map((game) => h("button", {
    type: "button", class: "game-option", role: "radio", "aria-checked": String(game.key === chosen),
    dataset: { game: game.key },
    onclick: () => {
      chosen = game.key;
      renderGames();
      renderVariants();
      renderOptions();
      renderDice();
      fitPlayers();
    },
  }, h("span", {}, h("b", { text: gameTitle(game.key, game.title) }),
    h("small", { text: t("setup.players_range", { min: game.min_players, max: game.max_players }) })))));
}

function game() {
  return store.games?.[chosen] ?? null;
}

// -- players ---------------------------------------------------------------------------

function nextColour() {
  return PALETTE.find((c) => !players.some((p) => p.colour === c)) ?? PALETTE[players.length % PALETTE.length];
}

function fitPlayers() {
  const g = game();
  if (!g) return;
  while (players.length < g.min_players) players.push({ name: "", colour: nextColour() });
  renderPlayers();
}

function renderPlayers() {
  const max = game()?.max_players ?? 8;
  playerList.replaceChildren(...players.map((player, index) => {
    const name = h("input", {
      class: "text-input", value: player.name, maxlength: 24, autocomplete: "off", enterkeyhint: "next",
      "aria-label": t("setup.player_name", { n: index + 1 }), placeholder: t("setup.player_name", { n: index + 1 }),
      dataset: { seat: index },
      oninput: (event) => {
        player.name = event.target.value;
      },
      // The keyboard's Next goes to the next name, or makes a row for one
      // once this one is named: names are typed without a tap in between.
      onkeydown: (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        if (index + 1 >= players.length) {
          if (!player.name.trim() || players.length >= max) return;
          players.push({ name: "", colour: nextColour() });
          renderPlayers();
        }
        playerList.querySelector(`input[data-seat='${index + 1}']`)?.focus();
      },
    });
    const swatch = h("button", {
      type: "button", class: "swatch", style: { background: player.colour },
      "aria-label": `${t("setup.colour", { n: index + 1 })}: ${colourName(player.colour)}`,
      title: colourName(player.colour), dataset: { colourName: colourName(player.colour) },
      onclick: () => {
        const at = PALETTE.indexOf(player.colour);
        const taken = new Set(players.map((p) => p.colour));
        for (let step = 1; step <= PALETTE.length; step++) {
          const candidate = PALETTE[(at + step) % PALETTE.length];
          if (!taken.has(candidate) || step === PALETTE.length) {
            player.colour = candidate;
            break;
          }
        }
        renderPlayers();
      },
    }, h("span", { class: "swatch-name", text: colourName(player.colour) }));
    const move = (delta, label, text) => h("button", {
      type: "button", class: "icon-btn", "aria-label": label, text,
      disabled: index + delta < 0 || index + delta >= players.length,
      onclick: () => {
        [players[index], players[index + delta]] = [players[index + delta], players[index]];
        renderPlayers();
      },
    });
    const remove = h("button", {
      type: "button", class: "icon-btn", "aria-label": t("setup.remove", { n: index + 1 }), text: "✕",
      onclick: () => {
        players.splice(index, 1);
        renderPlayers();
      },
    });
    return h("li", { class: "player-row" }, swatch, name, move(-1, t("setup.up"), "↑"), move(1, t("setup.down"), "↓"), remove);
  }));
  $("#add-player").disabled = players.length >= max;
  renderProfiles();
}

// -- profiles: the players met before, with their colours ------------------------------

let profiles = [];

function renderProfiles() {
  let box = $("#profiles");
  if (!box) {
    box = h("div", { id: "profiles", class: "profiles" });
    $("#add-player").after(box);
  }
  const here = new Set(players.map((p) => p.name.trim().toLowerCase()));
  const offered = profiles.filter((p) => !here.has(p.name.toLowerCase()));
  const max = game()?.max_players ?? 8;
  box.hidden = offered.length === 0;
  box.replaceChildren(h("p", { class: "hint", text: t("setup.profiles") }),
    h("div", { class: "options" }, offered.map((p) => h("button", {
      type: "button", class: "option profile", dataset: { profile: p.name }, disabled: players.length >= max && !players.some((q) => !q.name.trim()),
      onclick: () => {
        const free = players.find((q) => !q.name.trim());
        const taken = players.some((q) => q !== free && q.colour === p.colour);
        const colour = taken ? nextColour() : p.colour;
        if (free) Object.assign(free, { name: p.name, colour });
        else players.push({ name: p.name, colour });
        renderPlayers();
      },
    }, h("span", { class: "dot", style: { background: p.colour } }), p.name))));
}

// -- variants, options, dice -----------------------------------------------------------

function renderVariants() {
  const g = game();
  const variants = Object.entries(g?.variants ?? {});
  $("#variants-box").hidden = variants.length === 0;
  $("#variants").replaceChildren(...variants.map(([name, help]) => h("label", { class: "toggle" },
    h("span", {}, h("b", { text: has(`${g.key}:variant.${name}`) ? t(`${g.key}:variant.${name}`) : humanize(name) }),
      h("small", { text: has(`${g.key}:variant.${name}.help`) ? t(`${g.key}:variant.${name}.help`) : help })),
    h("input", { type: "checkbox", name: "variant", value: name, onchange: () => impliedVariants(g) }))));
}

// A variant that comes on top of others (no yellow: the first game's tips
// too) ticks them, and they stay ticked while it is.
function impliedVariants(g) {
  const boxes = [...document.querySelectorAll("#variants input[name=variant]")];
  const implied = new Set(boxes.filter((b) => b.checked).flatMap((b) => g?.implies?.[b.value] ?? []));
  for (const box of boxes) {
    if (implied.has(box.value)) box.checked = true;
    box.disabled = implied.has(box.value);
  }
}

// Options as plain controls, each with a sentence: a number is a stepper,
// counts per variant are a stepper each, the box of Persona kinds is a list
// of rows.  What is chosen lives in `optionValues`; only what differs from
// the default is sent.
let optionValues = {};

function optionLabel(g, name) {
  return first([`${g.key}:option.${name}`, `option.${name}`]) ?? humanize(name);
}

function optionHelp(g, name, option) {
  return first([`${g.key}:option.${name}.help`, `option.${name}.help`]) ?? option.help ?? "";
}

function stepper({ value, low = null, high = null, label, data = {}, onChange }) {
  const input = h("input", {
    class: "text-input stepper-value", type: "number", inputmode: "numeric", value, "aria-label": label, dataset: data,
    oninput: () => {
      const v = Number(input.value);
      if (input.value !== "" && Number.isInteger(v)) onChange(v);
    },
  });
  const step = (delta) => {
    let v = Number(input.value || 0) + delta;
    if (low !== null) v = Math.max(low, v);
    if (high !== null) v = Math.min(high, v);
    input.value = String(v);
    onChange(v);
  };
  return h("div", { class: "stepper" },
    h("button", { type: "button", class: "btn secondary", "aria-label": `${label} −1`, text: "−", onclick: () => step(-1) }),
    input,
    h("button", { type: "button", class: "btn secondary", "aria-label": `${label} +1`, text: "+", onclick: () => step(1) }));
}

const BOX_COLOURS = ["neutral", "orange", "red", "yellow"];

function boxEditor(g, name) {
  const rows = h("ol", { class: "box-rows" });
  const render = () => {
    const kinds = optionValues[name] ?? [];
    rows.replaceChildren(...kinds.map((kind, index) => h("li", { class: "box-row", dataset: { kind: index } },
      h("input", {
        class: "text-input", value: kind.name, maxlength: 40, placeholder: t("setup.box.name"), "aria-label": t("setup.box.name"),
        oninput: (event) => { kind.name = event.target.value; },
      }),
      h("select", {
        class: "text-input", "aria-label": t("setup.box.colour"),
        onchange: (event) => { kind.colour = event.target.value; },
      }, BOX_COLOURS.map((c) => h("option", { value: c, selected: c === kind.colour, text: first([`${g.key}:choice.${c}`]) ?? c }))),
      ...["pipi", "popo", "copies"].map((field) => h("label", { class: "box-number" },
        h("small", { text: t(`setup.box.${field}`) }),
        stepper({
          value: kind[field], low: field === "copies" ? 1 : 0, high: field === "copies" ? 50 : 9, label: t(`setup.box.${field}`),
          onChange: (v) => { kind[field] = v; },
        }))),
      h("button", {
        type: "button", class: "icon-btn", text: "✕", "aria-label": t("setup.box.remove"),
        onclick: () => { kinds.splice(index, 1); render(); },
      }))));
  };
  const add = h("button", {
    type: "button", class: "btn secondary wide", id: "box-add", text: `+ ${t("setup.box.add")}`,
    onclick: () => {
      optionValues[name] = [...(optionValues[name] ?? []), { name: "", colour: "neutral", pipi: 0, popo: 0, copies: 1 }];
      render();
    },
  });
  render();
  return h("div", { class: "box-editor" }, rows, add);
}

// The box its owner described once (the Box page) is kept by the companion:
// the editor starts from it, and a switch plays without it.
let saved = {};

function renderSavedBox() {
  const g = game();
  const offered = Boolean(g?.options && "box" in g.options);
  $("#saved-box").hidden = !offered;
  if (!offered) return;
  const box = saved[g.key]?.box;
  $("#use-box-row").hidden = !box;
  $("#no-box").hidden = Boolean(box);
  if (box) {
    const cards = box.reduce((sum, k) => sum + k.copies, 0);
    $("#box-facts").textContent = t("box.summary", { kinds: box.length, cards });
  }
}

/** The game's options, from their defaults (or, `keep`, as chosen so far:
 * the same options drawn in another language). */
function renderOptions({ keep = false } = {}) {
  const g = game();
  renderSavedBox();
  const options = Object.entries(g?.options ?? {});
  if (!keep) {
    optionValues = Object.fromEntries(options.map(([name, option]) => [name,
      structuredClone(name === "box" && saved[g.key]?.box ? saved[g.key].box : option.default)]));
  }
  $("#options-box").hidden = options.length === 0;
  $("#options").replaceChildren(...options.map(([name, option]) => {
    const label = optionLabel(g, name);
    let control;
    if (typeof option.default === "number") {
      control = stepper({ value: optionValues[name], label, data: { option: name }, onChange: (v) => { optionValues[name] = v; } });
    } else if (option.default && typeof option.default === "object" && !Array.isArray(option.default)
      && Object.values(option.default).every((v) => typeof v === "number")) {
      control = h("div", { class: "option-parts" }, Object.keys(option.default).map((part) => {
        const partLabel = first([`${g.key}:option.${name}.${part}`, `${g.key}:card.${part}`]) ?? (has(`${g.key}:variant.${part}`) ? t(`${g.key}:variant.${part}`) : humanize(part));
        return h("label", { class: "option-part" }, h("span", { text: partLabel }),
          stepper({ value: optionValues[name][part], low: 0, label: partLabel, data: { option: name, part }, onChange: (v) => { optionValues[name][part] = v; } }));
      }));
    } else {
      control = boxEditor(g, name);
    }
    return h("div", { class: "field", dataset: { optionField: name } },
      h("span", { class: "label", text: label }), h("span", { class: "help", text: optionHelp(g, name, option) }), control);
  }));
}

/** Whether a game takes dice (a command with a roll to enter). */
function usesDice(g) {
  return !g || g.commands.some((c) => c.params.some((p) => p.kind === "dice"));
}

function renderDice() {
  const dice = store.companion?.dice;
  // A game without dice (OhShit!) offers no dice source.
  $("#dice-box").hidden = !dice || !usesDice(game());
  if (!dice) return;
  $("#dice-sources").replaceChildren(...dice.sources.map((source) => h("button", {
    type: "button", class: "option", "aria-pressed": String(source === dice.source), dataset: { source },
    onclick: (event) => {
      for (const b of event.currentTarget.parentElement.children) b.setAttribute("aria-pressed", String(b === event.currentTarget));
    },
  }, t(`dice.source.${source}`))));
}

// -- start -------------------------------------------------------------------------------

function fail(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
  errorBox.scrollIntoView({ block: "center", behavior: "smooth" });
}

function collectOptions() {
  const out = {};
  for (const [name, option] of Object.entries(game()?.options ?? {})) {
    let value = optionValues[name];
    if (Array.isArray(value)) {
      value = value.map((kind) => ({ ...kind, name: kind.name.trim() }));
      if (value.some((kind) => !kind.name)) throw new Error(t("setup.box.unnamed"));
      if (!value.length) value = option.default;
    }
    if (JSON.stringify(value) !== JSON.stringify(option.default)) out[name] = value;
  }
  // Without the kept box (switched off, or every kind removed): say so, or
  // the companion would start the game with it.
  const kept = saved[game()?.key]?.box;
  if (kept && "box" in (game()?.options ?? {}) && (!$("#use-box").checked || !("box" in out))) out.box = null;
  return out;
}

async function start(event) {
  event.preventDefault();
  errorBox.hidden = true;
  if (!isController()) {
    openJoin();
    return;
  }
  const g = game();
  if (!g) return fail(t("setup.pick_game"));
  const named = players.map((p) => ({ name: p.name.trim(), colour: p.colour }));
  if (named.some((p) => !p.name)) return fail(t("setup.name_everyone"));
  if (named.length < g.min_players || named.length > g.max_players) {
    return fail(t("setup.players_range", { min: g.min_players, max: g.max_players }));
  }
  let options;
  try {
    options = collectOptions();
  } catch (err) {
    return fail(err.message);
  }
  const current = store.state;
  if (current?.game && !current.over && !confirm(t("setup.replace", { game: gameTitle(current.game, current.title) }))) return;
  const variants = [...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value);
  const button = $("#start");
  button.disabled = true;
  try {
    const dice = store.companion?.dice;
    const source = usesDice(g) ? form.querySelector("#dice-sources [aria-pressed=true]")?.dataset.source : null;
    if (dice && source && source !== dice.source) await api("POST", "/api/dice", { source });
    remember();
    await api("POST", "/api/new-game", {
      game: g.key, players: named, variants, options, ...madeAgainst(current),
    });
    location.href = "/";
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      store.state = err.body.state;
      fail(t("setup.changed"));
    } else {
      fail(err.message);
    }
  } finally {
    button.disabled = false;
  }
}

function renderRole() {
  $("#start").textContent = isController() ? t("setup.start") : t("join.button");
  $("#phones-box").hidden = !isController();
  renderSettings();
}

// -- the table's settings --------------------------------------------------------------

function renderSettings() {
  const settings = store.companion?.settings;
  const box = $("#table-box");
  box.hidden = !settings;
  if (!settings) return;
  const seatOnly = $("#seat-only");
  const language = $("#table-language");
  seatOnly.checked = settings.seat_only;
  language.value = settings.language;
  seatOnly.disabled = language.disabled = !isController();
  const caller = $("#caller");
  caller.checked = settings.caller;
  caller.disabled = !isController() || !settings.speaker;
  $("#caller-no-speaker").hidden = settings.speaker;
  for (const box of document.querySelectorAll("input[name=caller-moment]")) {
    box.checked = (settings.caller_moments || []).includes(box.value);
    box.disabled = !isController();
  }
}

async function changeSetting(body) {
  try {
    const settings = await post("/api/settings", body);
    store.companion = { ...store.companion, settings };
    renderSettings();
    return settings;
  } catch (err) {
    renderSettings();
    toast(refusal(err), { error: true });
    return null;
  }
}

$("#seat-only").addEventListener("change", async (event) => {
  const wanted = event.currentTarget.checked;
  if (await changeSetting({ seat_only: wanted })) toast(t(wanted ? "settings.seat_only.on" : "settings.seat_only.off"));
});
$("#table-language").addEventListener("change", async (event) => {
  const settings = await changeSetting({ language: event.currentTarget.value });
  // This phone follows the table's language unless it chose its own.
  if (settings && !ownLanguage()) changeLanguage(settings.language);
});

$("#caller").addEventListener("change", async (event) => {
  const wanted = event.currentTarget.checked;
  if (await changeSetting({ caller: wanted })) toast(t(wanted ? "settings.caller.on" : "settings.caller.off"));
});
$("#caller-moments").addEventListener("change", async () => {
  const chosen = [...document.querySelectorAll("input[name=caller-moment]:checked")].map((box) => box.value);
  if (await changeSetting({ caller_moments: chosen })) toast(t("settings.caller.moments.saved"));
});

$("#sign-out").addEventListener("click", () => signOutEveryPhone());

form.addEventListener("submit", start);
$("#add-player").addEventListener("click", () => {
  players.push({ name: "", colour: nextColour() });
  renderPlayers();
  playerList.querySelector("li:last-child input")?.focus();
});
on("session", renderRole);
on("companion", () => {
  renderDice();
  renderSettings();
});
// The page speaks another language: drawn again in it, with what was
// chosen so far.
on("language", () => {
  const ticked = [...document.querySelectorAll("#variants input[name=variant]:checked")].map((box) => box.value);
  renderGames();
  renderVariants();
  for (const box of document.querySelectorAll("#variants input[name=variant]")) box.checked = ticked.includes(box.value);
  impliedVariants(game());
  renderOptions({ keep: true });
  renderPlayers();
  renderDice();
  renderRole();
});

boot().then(async () => {
  const kept = remembered();
  let state = store.state;
  try {
    state = store.state ?? (await api("GET", "/api/state"));
  } catch (err) {
    state = null;
  }
  const keys = Object.keys(store.games || {});
  chosen = [state?.game, kept.game, keys[0]].find((k) => k && keys.includes(k)) ?? null;
  if (state?.game) {
    players = state.players.map((name, seat) => ({ name, colour: state.colours?.[seat] ?? PALETTE[seat % PALETTE.length] }));
  } else if (Array.isArray(kept.players)) {
    players = kept.players.filter((p) => typeof p?.name === "string").map((p) => ({ name: p.name, colour: p.colour || nextColour() }));
  }
  try {
    profiles = await api("GET", "/api/profiles");
  } catch (err) {
    profiles = [];
  }
  renderGames();
  renderVariants();
  saved = await api("GET", "/api/saved-options").catch(() => ({}));
  renderOptions();
  fitPlayers();
  renderPlayers();
  renderDice();
  renderRole();
});
