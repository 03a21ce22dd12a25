// The companion's Wi-Fi: where it is (a network, or its own hotspot), the
// networks in reach for controllers, joining one with its password, and
// forgetting one.  A password is sent once and cleared from the page at
// once; the table's screen shows the outcome (the companion may leave the
// hotspot this phone is on).

import { $, api, boot, h, isController, on, openJoin, openSheet, closeSheet, post, t, toast } from "./core.js";

let status = null;

function describe(s) {
  switch (s.mode) {
    case "connected": return t("wifi.mode.connected", { ssid: s.ssid, address: s.address || "…" });
    case "hotspot": return t("wifi.mode.hotspot", { ssid: s.hotspot });
    case "joining": return t("wifi.mode.joining", { ssid: s.joining || "" });
    case "waiting": return t("wifi.mode.waiting");
    case "unavailable": return t("wifi.mode.unavailable");
    case "unmanaged": return t("wifi.mode.unmanaged");
    default: return t("wifi.mode.disconnected");
  }
}

function renderStatus(s) {
  status = s;
  const box = $("#wifi-status");
  const parts = [h("p", { id: "wifi-mode", text: describe(s) })];
  if (s.joining && s.mode !== "joining") parts.push(h("p", { class: "hint", text: t("wifi.mode.joining", { ssid: s.joining }) }));
  const failed = s.failed
    ? t("wifi.failed", { ssid: s.failed.ssid, reason: t(`wifi.why.${s.failed.reason}`) })
    : s.error;
  if (failed) parts.push(h("p", { class: "form-error", id: "wifi-error", role: "alert", text: failed }));
  if (s.offer && isController()) {
    parts.push(h("p", { text: t("wifi.offer", { ssid: s.offer }) }),
      h("button", { class: "btn primary wide", type: "button", id: "wifi-switch", text: t("wifi.switch", { ssid: s.offer }), onclick: switchNow }));
  }
  box.replaceChildren(...parts);
}

function bars(signal) {
  return signal >= 67 ? "▂▄▆█" : signal >= 34 ? "▂▄▆" : signal >= 10 ? "▂▄" : "▂";
}

function renderNetworks(networks) {
  const list = $("#wifi-networks");
  if (!networks.length) {
    list.replaceChildren(h("li", {}, h("p", { class: "hint", text: t("wifi.none") })));
    return;
  }
  list.replaceChildren(...networks.map((n) => h("li", { class: "wifi-row", dataset: { ssid: n.ssid } },
    h("button", { class: "btn secondary wifi-pick", type: "button", onclick: () => pick(n), "aria-label": t("wifi.pick", { ssid: n.ssid }) },
      h("b", { text: n.ssid }),
      h("small", { text: ` ${bars(n.signal)} ${n.signal}% · ${t(n.secure ? "wifi.secure" : "wifi.open")}` }),
      n.in_use ? h("span", { class: "status-tag", text: t("wifi.in_use") }) : n.known ? h("span", { class: "status-tag", text: t("wifi.known") }) : null),
    n.known ? h("button", { class: "btn danger wifi-forget", type: "button", text: t("wifi.forget"), onclick: () => forget(n.ssid) }) : null)));
}

async function load() {
  renderStatus(await api("GET", "/api/network"));
  const controller = isController();
  $("#wifi-spectator").hidden = controller || status.mode === "unmanaged";
  $("#wifi-networks-box").hidden = !controller || status.mode === "unmanaged";
  if (controller && status.mode !== "unmanaged") {
    const answer = await api("GET", "/api/network/networks");
    renderStatus(answer.status);
    renderNetworks(answer.networks);
  }
}

function pick(network) {
  if (!network.secure || network.known) {
    join(network.ssid, null);
    return;
  }
  const input = h("input", { class: "text-input", id: "wifi-password", type: "password", autocomplete: "off", autocapitalize: "off", spellcheck: "false", minlength: 8, maxlength: 64, "aria-label": t("wifi.password") });
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const form = h("form", { class: "field", novalidate: true },
    h("label", { for: "wifi-password", text: t("wifi.password") }),
    h("p", { class: "help", text: t("wifi.password.help") }),
    input, error,
    h("button", { class: "btn primary big", type: "submit", text: t("wifi.connect") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const password = input.value;
    input.value = ""; // never left on the page once typed
    if (password.length < 8 || password.length > 64) {
      error.textContent = t("wifi.password.length");
      error.hidden = false;
      return;
    }
    const sent = await join(network.ssid, password);
    if (!sent) {
      error.textContent = t("wifi.password.refused");
      error.hidden = false;
    }
  });
  openSheet(network.ssid, form);
  input.focus();
}

async function join(ssid, password) {
  try {
    renderStatus(await post("/api/network/join", password ? { ssid, password } : { ssid }));
  } catch (err) {
    if (err.status === 400) return false;
    toast(err.message, { error: true });
    return true;
  }
  closeSheet();
  toast(t("wifi.joining", { ssid }), { ms: 9000 });
  return true;
}

async function switchNow() {
  try {
    renderStatus(await post("/api/network/switch", {}));
    toast(t("wifi.joining", { ssid: status.joining || "" }), { ms: 9000 });
  } catch (err) {
    toast(err.message, { error: true });
  }
}

async function forget(ssid) {
  try {
    renderStatus(await post("/api/network/forget", { ssid }));
    toast(t("wifi.forgotten", { ssid }));
    setTimeout(() => load().catch(() => {}), 1500);
  } catch (err) {
    toast(err.message, { error: true });
  }
}

$("#wifi-refresh").addEventListener("click", () => load().catch((err) => toast(err.message, { error: true })));
$("#wifi-join").addEventListener("click", openJoin);
on("session", () => load().catch(() => {}));
on("language", () => load().catch(() => {}));
boot().then(() => load().catch(() => {}));
// While it joins, look again now and then: the outcome also shows on the table.
setInterval(() => {
  if (document.visibilityState === "visible" && status && (status.mode === "joining" || status.joining)) {
    api("GET", "/api/network").then(renderStatus).catch(() => {});
  }
}, 3000);
