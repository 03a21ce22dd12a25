// "Log in BG Stats": a finished game as a play for the BG Stats app.  The
// link is asked of the companion once per game and kept, so that a card
// drawn again (every change on the live stream redraws it) shows the same
// link at once instead of hiding it for a round trip.

import { api, h, t } from "./core.js";

const links = new Map();

/** The link for finished game `gameId`: hidden until the companion has made it. */
export function bgstatsLink(gameId) {
  const link = h("a", { class: "btn bgstats", id: "bgstats-link", target: "_blank", rel: "noopener", title: t("bgstats.help"), text: t("bgstats.log") });
  const show = (href) => { link.href = href; link.hidden = false; };
  if (links.has(gameId)) {
    show(links.get(gameId));
    return link;
  }
  link.hidden = true;
  api("GET", `/api/bgstats?game=${gameId}`).then((found) => {
    links.set(gameId, found.link);
    show(found.link);
  }).catch(() => {});
  return link;
}
