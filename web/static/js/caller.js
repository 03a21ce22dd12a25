// The phone as the table's caller: "Speak" on the table page says each
// change aloud with the phone's own voices (the Web Speech API, offline on
// iOS and Android), in the table's language, with the voice that speaks it.
// The words are the companion's: each live update carries the caller's
// line (`caller: {line, lang}`), the same the table's speaker says. A newer
// change cancels a line not yet finished; the table as it is (a reconnect,
// the page's first state) carries no line, so nothing is said twice.

import { $, on, t, toast } from "./core.js";

const KEPT = "companion.speak";
const button = $("#speak");
const synth = "speechSynthesis" in window ? window.speechSynthesis : null;
let speaking = synth !== null && localStorage.getItem(KEPT) === "1";
let lastSaid = null; // [game_id, version] of the newest line said

/** The phone's voice for `lang`: the default one of that language, else
 * the first that speaks it; null lets the phone choose from `lang`. */
function voiceFor(code) {
  const voices = synth.getVoices();
  const speaks = (voice) => voice.lang.toLowerCase().replace("_", "-").split("-")[0] === code;
  return voices.find((voice) => speaks(voice) && voice.default) || voices.find(speaks) || null;
}

function isNewer(state) {
  if (!lastSaid) return true;
  const [game, version] = lastSaid;
  return (state.game_id ?? 0) > game || ((state.game_id ?? 0) === game && state.version > version);
}

function heard(state) {
  const said = state?.caller;
  if (!said || !said.line || !isNewer(state)) return;
  lastSaid = [state.game_id ?? 0, state.version];
  if (!speaking) return;
  synth.cancel(); // a newer change: the unfinished line stops
  const utterance = new SpeechSynthesisUtterance(said.line);
  utterance.lang = said.lang;
  const voice = voiceFor(said.lang);
  if (voice) utterance.voice = voice;
  synth.speak(utterance);
}

function show() {
  if (!button) return;
  button.setAttribute("aria-pressed", String(speaking));
}

function toggle() {
  if (!synth) {
    toast(t("caller.speak.none"), { error: true });
    return;
  }
  speaking = !speaking;
  localStorage.setItem(KEPT, speaking ? "1" : "0");
  synth.cancel();
  if (speaking) {
    // A phone speaks later only if a tap made it speak first (iOS): a silent word.
    const unlock = new SpeechSynthesisUtterance(" ");
    unlock.volume = 0;
    synth.speak(unlock);
  }
  show();
  toast(t(speaking ? "caller.speak.on" : "caller.speak.off"));
}

if (button) {
  button.addEventListener("click", toggle);
  show();
}
on("state", heard);
