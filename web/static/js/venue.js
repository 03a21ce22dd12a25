// The setup page's venue card: where this table publishes (a venue's MQTT
// broker), read by anyone, changed by a controller.  The password is never
// sent back: a kept one shows as "kept".  A change is the owner's first: the
// table refuses it until someone allows it on the table itself (its menu),
// and a kept password needs typing again for another broker.
import { $, api, has, isController, loadStrings, on, post, t, toast } from "./core.js";

const box = $("#venue-box");
const fields = ["broker", "port", "tls", "venue", "table", "username"];

function say(status) {
  const line = $("#venue-status");
  if (!status.enabled) line.textContent = t("venue.status.off");
  else if (status.connected) line.textContent = t("venue.status.connected", status);
  else if (status.error) line.textContent = t("venue.status.error", status);
  else line.textContent = t("venue.status.connecting", status);
}

function show(status) {
  box.hidden = false;
  say(status);
  for (const name of fields) {
    const input = $(`#venue-${name}`);
    if (input.type === "checkbox") input.checked = Boolean(status[name]);
    else input.value = status[name] ?? "";
  }
  const password = $("#venue-password");
  password.value = "";
  password.placeholder = status.has_password ? t("venue.password.kept") : "";
  const controller = isController();
  for (const input of box.querySelectorAll("input, button")) input.disabled = !controller;
  $("#venue-error").hidden = controller;
  if (!controller) $("#venue-error").textContent = t("venue.controllers");
  // The owner allows a change at the table first (Menu → Venue).
  $("#venue-locked").hidden = !controller || status.changes_allowed !== false;
}

async function refresh() {
  try {
    show(await api("GET", "/api/venue"));
  } catch {
    box.hidden = true;  // this companion cannot join a venue
  }
}

async function save(body, done) {
  const error = $("#venue-error");
  error.hidden = true;
  try {
    show(await post("/api/venue", body));
    toast(t(done));
    setTimeout(refresh, 1500);  // the connection is made meanwhile
  } catch (err) {
    const code = `error.code.${err.body?.error}`;
    error.textContent = has(code) ? t(code) : err.message;
    error.hidden = false;
  }
}

$("#venue-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const body = {
    broker: $("#venue-broker").value.trim(),
    port: Number($("#venue-port").value) || 1883,
    tls: $("#venue-tls").checked,
    venue: $("#venue-venue").value.trim() || "venue",
    table: $("#venue-table").value.trim(),
    username: $("#venue-username").value,
  };
  const password = $("#venue-password").value;
  if (password) body.password = password;
  save(body, "venue.saved");
});
$("#venue-leave").addEventListener("click", () => save({ broker: "" }, "venue.left"));

await loadStrings();
on("session", refresh);
on("language", refresh);
refresh();
