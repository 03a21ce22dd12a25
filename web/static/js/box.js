// The box a table plays Bathroom Rush with: each kind of Persona with its
// name, colour, pipì, popò and copies, described once and kept by the
// companion; every new game starts with it.  Shared as a JSON file.

import { $, ApiError, api, boot, h, has, isController, on, openJoin, t, toast } from "./core.js";

const GAME = "bathroom-rush";
const COLOURS = ["neutral", "orange", "red", "yellow"];
const form = $("#box");
const list = $("#box-kinds");
const errorBox = $("#box-error");
let kinds = [];

function blank() {
  return { name: "", colour: "neutral", pipi: 1, popo: 0, copies: 1 };
}

function colourName(colour) {
  return has(`${GAME}:choice.${colour}`) ? t(`${GAME}:choice.${colour}`) : colour;
}

function number(kind, field, low, high) {
  return h("label", {}, t(`box.${field}`), h("input", {
    class: "text-input", type: "number", inputmode: "numeric", min: low, max: high, value: kind[field],
    dataset: { field },
    oninput: (event) => {
      kind[field] = event.currentTarget.value === "" ? null : Number(event.currentTarget.value);
      summary();
    },
  }));
}

function render() {
  list.replaceChildren(...kinds.map((kind, index) => h("li", { class: "box-kind", dataset: { index } },
    h("label", { class: "name" }, t("box.name"), h("input", {
      class: "text-input", type: "text", maxlength: 40, value: kind.name, dataset: { field: "name" },
      oninput: (event) => { kind.name = event.currentTarget.value; },
    })),
    h("label", {}, t("box.colour"), h("select", {
      class: "text-input", dataset: { field: "colour" },
      onchange: (event) => { kind.colour = event.currentTarget.value; },
    }, COLOURS.map((colour) => h("option", { value: colour, selected: colour === kind.colour }, colourName(colour))))),
    number(kind, "copies", 1, 50),
    number(kind, "pipi", 0, 9),
    number(kind, "popo", 0, 9),
    h("button", {
      type: "button", class: "btn secondary", "aria-label": t("box.remove", { n: index + 1 }), text: `✕ ${t("box.remove_short")}`,
      onclick: () => {
        kinds.splice(index, 1);
        render();
      },
    }))));
  summary();
}

function summary() {
  const cards = kinds.reduce((sum, k) => sum + (Number.isInteger(k.copies) ? k.copies : 0), 0);
  $("#box-summary").textContent = kinds.length ? t("box.summary", { kinds: kinds.length, cards }) : t("box.none");
}

function fail(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

async function keep(value) {
  errorBox.hidden = true;
  if (!isController()) {
    openJoin();
    return false;
  }
  try {
    const saved = await api("POST", "/api/saved-options", { game: GAME, name: "box", value });
    kinds = (saved[GAME]?.box ?? []).map((k) => ({ ...k }));
    render();
    toast(value === null ? t("box.forgotten") : t("box.saved"));
    return true;
  } catch (err) {
    fail(err instanceof ApiError ? err.message : String(err));
    return false;
  }
}

function plain(list) {
  return list.map((k) => ({ name: (k.name ?? "").trim(), colour: k.colour, pipi: k.pipi, popo: k.popo, copies: k.copies }));
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  keep(kinds.length ? plain(kinds) : null);
});
$("#add-kind").addEventListener("click", () => {
  kinds.push(blank());
  render();
  list.querySelector("li:last-child input")?.focus();
});
$("#forget-box").addEventListener("click", () => {
  if (confirm(t("box.forget_confirm"))) keep(null);
});
$("#export-box").addEventListener("click", () => {
  const blob = new Blob([JSON.stringify(plain(kinds), null, 2)], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(blob), download: "bathroom-rush-box.json" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});
$("#import-box").addEventListener("change", async (event) => {
  const file = event.currentTarget.files?.[0];
  event.currentTarget.value = "";
  if (!file) return;
  let read;
  try {
    read = JSON.parse(await file.text());
  } catch (err) {
    fail(t("box.bad_file"));
    return;
  }
  if (!Array.isArray(read)) {
    fail(t("box.bad_file"));
    return;
  }
  keep(read);
});
on("session", () => {
  $("#save-box").textContent = isController() ? t("box.save") : t("join.button");
});
on("language", () => {
  render();
  $("#save-box").textContent = isController() ? t("box.save") : t("join.button");
});

boot().then(async () => {
  try {
    const saved = await api("GET", "/api/saved-options");
    kinds = (saved[GAME]?.box ?? []).map((k) => ({ ...k }));
  } catch (err) {
    kinds = [];
  }
  if (!kinds.length) kinds.push(blank());
  render();
  $("#save-box").textContent = isController() ? t("box.save") : t("join.button");
});
