// The virtual table: the OLED as it shows now and the table's five buttons,
// clickable and on the keyboard (arrows, Enter, Backspace/Escape, R).

import { $, api, boot, isController, mirror, on, openJoin, refreshSession, t, toast } from "./core.js";

const KEYBOARD = { ArrowUp: "up", ArrowDown: "down", Enter: "ok", Backspace: "back", Escape: "back", r: "roll", R: "roll" };
const oled = $("#oled");
const buttons = [...document.querySelectorAll("#keys [data-key]")];
// Presses go one after the other: sent at once, a quick second key could
// reach the table before the first (each request has its own server thread).
let pressing = Promise.resolve();

function press(key) {
  if (!isController()) {
    openJoin();
    return;
  }
  const button = buttons.find((b) => b.dataset.key === key);
  button?.classList.add("pressed");
  setTimeout(() => button?.classList.remove("pressed"), 120);
  pressing = pressing.then(() => send(key));
}

async function send(key) {
  try {
    await api("POST", `/api/keys/${key}`, {});
  } catch (err) {
    if (err.status === 403 && err.body?.error === "csrf") await refreshSession();
    toast(err.message, { error: true });
  }
}

for (const button of buttons) button.addEventListener("click", () => press(button.dataset.key));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, dialog") || event.altKey || event.ctrlKey || event.metaKey) return;
  const key = KEYBOARD[event.key];
  if (!key) return;
  event.preventDefault();
  press(key);
});
// The screen follows the frames the live stream pushes.
mirror(oled);
const watching = () => {
  for (const b of buttons) b.title = isController() ? "" : t("dock.watching");
};
on("session", watching);
on("language", watching);
boot();
