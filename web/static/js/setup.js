// Setting up a game: which game, the players in seating order with their
// colours, the variants, the options and where dice results come from.

import { $, ApiError, api, boot, gameTitle, h, has, humanize, isController, on, madeAgainst, openJoin, signOutEveryPhone, store, t, toast } from "./core.js";

const PALETTE = ["#d62828", "#1d6fd6", "#2a9d3f", "#e89a00", "#8e44ad", "#00a3a3", "#e0508a", "#7a5c3e"];
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
    });
    const swatch = h("button", {
      type: "button", class: "swatch", style: { background: player.colour },
      "aria-label": t("setup.colour", { n: index + 1 }),
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
    });
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
}

// -- variants, options, dice -----------------------------------------------------------

function renderVariants() {
  const g = game();
  const variants = Object.entries(g?.variants ?? {});
  $("#variants-box").hidden = variants.length === 0;
  $("#variants").replaceChildren(...variants.map(([name, help]) => h("label", { class: "toggle" },
    h("span", {}, h("b", { text: has(`${g.key}:variant.${name}`) ? t(`${g.key}:variant.${name}`) : humanize(name) }),
      h("small", { text: has(`${g.key}:variant.${name}.help`) ? t(`${g.key}:variant.${name}.help`) : help })),
    h("input", { type: "checkbox", name: "variant", value: name }))));
}

// A setup option kept by the companion (the Bathroom Rush box) is shown as
// what it is, with a way to play without it, never as JSON.
let saved = {};

function renderSavedBox() {
  const g = game();
  const offered = Boolean(g?.options?.box);
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

function renderOptions() {
  renderSavedBox();
  const options = Object.entries(game()?.options ?? {}).filter(([name]) => name !== "box");
  $("#options-box").hidden = options.length === 0;
  $("#options").replaceChildren(...options.map(([name, option]) => {
    const isNumber = typeof option.default === "number";
    const input = isNumber
      ? h("input", { class: "text-input", type: "number", inputmode: "numeric", name, value: option.default, dataset: { option: name, kind: "int" } })
      : h("textarea", { class: "text-input", name, rows: 3, dataset: { option: name, kind: "json" } }, JSON.stringify(option.default));
    return h("div", { class: "field" }, h("label", { text: name }), h("span", { class: "help", text: option.help || "" }), input);
  }));
}

function renderDice() {
  const dice = store.companion?.dice;
  $("#dice-box").hidden = !dice;
  if (!dice) return;
  $("#dice-sources").replaceChildren(...dice.sources.map((source) => h("button", {
    type: "button", class: "option", role: "radio", "aria-pressed": String(source === dice.source), dataset: { source },
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
  for (const input of form.querySelectorAll("[data-option]")) {
    const option = game().options[input.dataset.option];
    if (input.dataset.kind === "int") {
      const value = Number(input.value);
      if (!Number.isInteger(value)) throw new Error(t("setup.bad_option", { name: input.dataset.option }));
      if (value !== option.default) out[input.dataset.option] = value;
    } else {
      let value;
      try {
        value = JSON.parse(input.value);
      } catch (err) {
        throw new Error(t("setup.bad_option", { name: input.dataset.option }));
      }
      if (JSON.stringify(value) !== JSON.stringify(option.default)) out[input.dataset.option] = value;
    }
  }
  if (game().options?.box && saved[game().key]?.box && !$("#use-box").checked) out.box = null;
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
    const source = form.querySelector("#dice-sources [aria-pressed=true]")?.dataset.source;
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
}

$("#sign-out").addEventListener("click", () => signOutEveryPhone());

form.addEventListener("submit", start);
$("#add-player").addEventListener("click", () => {
  players.push({ name: "", colour: nextColour() });
  renderPlayers();
  playerList.querySelector("li:last-child input")?.focus();
});
on("session", renderRole);
on("companion", renderDice);

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
  saved = await api("GET", "/api/saved-options").catch(() => ({}));
  renderGames();
  renderVariants();
  renderOptions();
  fitPlayers();
  renderPlayers();
  renderDice();
  renderRole();
});
