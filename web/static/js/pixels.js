// The table's Pixels dice, on the Wi-Fi page, for controllers: the dice
// paired (battery, in reach or not, the game's die each one is), a look for
// the dice in reach, pairing one, and forgetting one.  The table's menu
// does the same with its keys.

import { $, api, h, isController, on, post, t, toast } from "./core.js";

let polling = null;

function battery(die) {
  return die.battery === null ? "" : ` · ${t("pixels.battery", { percent: die.battery })}`;
}

function roleChooser(die, roles) {
  const select = h("select", { class: "text-input pixels-role", "aria-label": t("pixels.role", { name: die.name }) },
    h("option", { value: "", text: t("pixels.role.none") }),
    ...roles.map((role) => h("option", { value: role, text: t(`pixels.role.${role}`) })));
  select.value = die.role ?? "";
  select.addEventListener("change", () => act("/api/pixels/role", { address: die.address, role: select.value || null }));
  return select;
}

function render(answer) {
  const paired = $("#pixels-paired");
  paired.replaceChildren(...(answer.dice.length ? answer.dice.map((die) => h("li", { class: "wifi-row", dataset: { address: die.address } },
    h("span", {}, h("b", { text: die.name }),
      h("small", { text: `${battery(die)} · ${t(die.connected ? "pixels.connected" : "pixels.away")}` })),
    roleChooser(die, answer.roles),
    h("button", { class: "btn danger", type: "button", text: t("wifi.forget"), onclick: () => act("/api/pixels/forget", { address: die.address }) })))
    : [h("li", {}, h("p", { class: "hint", text: t("pixels.none") }))]));
  const heard = $("#pixels-in-reach");
  heard.replaceChildren(...answer.in_reach.map((die) => h("li", { class: "wifi-row", dataset: { address: die.address } },
    h("button", { class: "btn secondary wifi-pick", type: "button", onclick: () => act("/api/pixels/pair", { address: die.address }), "aria-label": t("pixels.pair", { name: die.name }) },
      h("b", { text: die.name }), h("small", { text: battery(die) })))));
  const look = $("#pixels-look");
  look.disabled = answer.looking;
  look.textContent = t(answer.looking ? "pixels.looking" : "pixels.look");
  if (answer.looking && !polling) {
    // Only while a look is on: the dice come in as they answer.
    polling = setInterval(() => load().catch(() => {}), 1500);
  } else if (!answer.looking && polling) {
    clearInterval(polling);
    polling = null;
  }
}

async function act(path, body) {
  try {
    render(await post(path, body));
  } catch (err) {
    toast(err.message, { error: true });
    load().catch(() => {});
  }
}

async function load() {
  const box = $("#pixels-box");
  if (!isController()) {
    box.hidden = true;
    return;
  }
  try {
    render(await api("GET", "/api/pixels"));
    box.hidden = false;
  } catch (err) {
    box.hidden = true; // no smart dice on this companion
  }
}

$("#pixels-look").addEventListener("click", () => act("/api/pixels/look", {}));
on("session", () => load().catch(() => {}));
on("language", () => load().catch(() => {}));
