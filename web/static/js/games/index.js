// The board of each game, found by its key: the module ./<key>.js when the
// page lists it (every board module the panel ships, see pages.py), else the
// generic board.  A new game needs no entry here.

import * as generic from "./generic.js";

const listed = (document.querySelector('meta[name="boards"]')?.content ?? "").split(/\s+/).filter(Boolean);

const BOARDS = Object.fromEntries(await Promise.all(listed.map(async (key) => {
  try {
    return [key, await import(`./${key}.js`)];
  } catch (err) {
    console.warn(`no board for ${key}`, err);
    return [key, generic];
  }
})));

export function boardFor(key) {
  return BOARDS[key] ?? generic;
}
