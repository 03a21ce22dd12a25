// The board of each game, by key; any other game gets the generic board.

import * as bathroomRush from "./bathroom-rush.js";
import * as callOfNature from "./call-of-nature.js";
import * as generic from "./generic.js";
import * as ohshit from "./ohshit.js";

const BOARDS = {
  "call-of-nature": callOfNature,
  ohshit,
  "bathroom-rush": bathroomRush,
};

export function boardFor(key) {
  return BOARDS[key] ?? generic;
}
