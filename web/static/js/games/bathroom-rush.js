// Bathroom Rush: the queues as lines of cards, door (bathroom) first; where
// each player stands; the free queue; each reserve in pipì and popò with the
// popò limit.  The chart is the reserves as scores (pipì + 5 x popò).

import { dot, h, has, lang, store, t } from "../core.js";
import { barChart, header, playerRow, waitingSeats } from "./common.js";

const PIPI_COLOUR = "#e8b90c";
const POPO_COLOUR = "#7a4a1e";

export function render(update) {
  const view = update.state;
  const light = isLight(update);
  const facts = [
    view.round ? t("bathroom-rush:board.round", { n: view.round }) : null,
    t(`bathroom-rush:board.phase.${view.phase}`) !== `bathroom-rush:board.phase.${view.phase}` ? t(`bathroom-rush:board.phase.${view.phase}`) : view.phase_name,
    view.final_round ? t("bathroom-rush:board.final_round") : null,
    // Light tracking leaves the Personas on the table: it counts none.
    light ? null : t("bathroom-rush:board.deck", { n: view.persona_deck }),
  ];
  const waiting = waitingSeats(update);
  // At the cleanup and the count every player enters their own tokens: they
  // are waited for, not playing a turn.
  const entering = new Set(update.expected.filter((e) => ENTRIES.includes(e.command)).map((e) => e.player));
  return h("div", { class: "board br" },
    header(update, facts),
    // A reveal's choices are in the dock, at the thumb (see dock()).
    update.expected.some((e) => e.command === "target")
      ? h("p", { class: "hint br-tap-target", text: t("bathroom-rush:board.tap-target") }) : null,
    light ? null : h("section", { class: "queues", "aria-label": t("bathroom-rush:board.queues") }, view.queues.map((q) => queue(view, update, q))),
    view.effects?.length ? h("section", { class: "card br-effects" }, h("h2", { text: t("bathroom-rush:board.effects") }),
      h("ol", {}, effectLines(view).map((line) => h("li", { text: line })))) : null,
    h("ul", { class: "players" }, view.reserves.map((r) => playerRow(update, r.seat, {
      active: view.active === r.seat || (waiting.has(r.seat) && !entering.has(r.seat)),
      out: r.eliminated,
      sub: light ? (view.arrived.includes(r.seat) ? t("bathroom-rush:board.reached") : null) : where(r),
      right: reserve(r),
      badges: r.eliminated ? [h("span", { class: "badge dead", text: t("bathroom-rush:board.eliminated") })]
        : entering.has(r.seat) ? [h("span", { class: "badge br-to-enter", text: t("bathroom-rush:board.to_enter") })] : [],
    }))));
}

// Without a box, a reveal is one tap: a row per colour, each with the
// usual token combinations (pipì/popò printed on the card).  Anything
// else printed goes through "other values" and its form.
const COLOURS = ["neutral", "orange", "red", "yellow"];
const USUAL = [[1, 0], [2, 0], [3, 0], [0, 1], [1, 1], [2, 1]];

function printedGrid(update, exp, act, head) {
  const rows = COLOURS.map((colour) => h("div", { class: ["printed-row", colour], role: "group", "aria-label": colourName(colour), dataset: { colour } },
    h("span", { class: ["printed-colour", colour], text: colourName(colour) }),
    USUAL.map(([pipi, popo]) => h("button", {
      type: "button", class: ["option", "persona-printed", colour], dataset: { colour, pipi, popo },
      "aria-label": `${colourName(colour)} · ${t("bathroom-rush:board.persona_is", { pipi, popo })}`,
      onclick: () => act({ ...exp, args: { ...exp.args, pipi, popo, colour, name: null } }),
    }, h("span", { class: "printed" }, token(PIPI_COLOUR), String(pipi)), h("span", { class: "printed" }, token(POPO_COLOUR), String(popo))))));
  return h("section", { class: "br-kinds br-printed br-dock", "aria-label": said(exp) },
    head, h("div", { class: "printed-grid" }, rows));
}

// With the box described, a reveal is one tap on the kinds still unseen
// (with how many), for the first Persona waiting to be revealed.
function kindsGrid(view, exp, act, head) {
  const offered = view.box.filter((k) => k.unseen > 0);
  return h("section", { class: "br-kinds br-dock", "aria-label": said(exp) },
    head,
    h("div", { class: "options", role: "group" }, offered.map((k) => h("button", {
      type: "button", class: ["option", "persona-kind", k.colour], dataset: { kind: k.name },
      title: `${k.name} · ${k.pipi} pipì ${k.popo} popò`,
      onclick: () => act({ ...exp, args: { ...exp.args, kind: k.name } }),
    }, `${k.name} ×${k.unseen}`))));
}

// -- the dock: what the game waits for, where the thumb is -------------------

// The entries every player makes for themselves in light tracking.
const ENTRIES = ["bathroom-tokens", "count-tokens"];

/**
 * The dock's content when this board lays it out itself (see table.js):
 * a reveal's choices, light tracking's entries per player, the player an
 * Action card strikes.  Anything else: null, the generic dock.
 */
export function dock(update, tools) {
  const first = update.expected[0];
  if (!first || update.over) return null;
  if (first.command === "reveal-kind" || first.command === "reveal") return revealDock(update, tools);
  if (ENTRIES.includes(first.command)) return entriesDock(update, tools, first.command);
  if (first.command === "target") return targetDock(update, tools);
  if (first.command === "choose-queue") return queueDock(update, tools, first);
  const play = update.expected.find((e) => e.command === "play");
  if (play && update.state.playable) return playDock(update, tools, play);
  // An effect the companion does not know: the table applies it, and
  // says here which tokens it gives (or takes) to whose reserve.
  const effect = update.expected.find((e) => e.command === "effect");
  if (effect) {
    const byHand = update.state.phase === "D" && update.expected.some((e) => e.command === "take-tokens");
    return effectDock(update, tools, effect, byHand);
  }
  return null;
}

const effectDrafts = new Map();

function effectDock(update, tools, exp, byHand) {
  const generic = tools.expectations();
  const key = `${update.game_id}:${update.version}`;
  const draft = effectDrafts.get(key) ?? { pipi: 0, popo: 0, to: exp.player };
  effectDrafts.clear();
  effectDrafts.set(key, draft);
  const happens = h("button", { type: "button", class: "btn primary big", dataset: { command: "effect" } });
  const label = () => {
    const moved = draft.pipi || draft.popo;
    happens.textContent = moved
      ? t("bathroom-rush:board.effect_gives", { name: update.players[draft.to], pipi: signedTokens(draft.pipi), popo: signedTokens(draft.popo) })
      : t("bathroom-rush:command.effect");
  };
  happens.addEventListener("click", async () => {
    happens.disabled = true;
    const args = { player: exp.player, ...(draft.pipi || draft.popo ? { pipi: draft.pipi, popo: draft.popo, to: draft.to } : {}) };
    const done = await tools.submit("effect", args);
    if (done) effectDrafts.clear();
    else happens.disabled = false;
  });
  label();
  const choices = (what, values, colour) => h("div", { class: ["segmented", `br-effect-${what}`], role: "radiogroup", "aria-label": what === "pipi" ? "pipì" : "popò" },
    token(colour), values.map((n) => h("button", {
      type: "button", class: "option", role: "radio", dataset: { [what]: n }, "aria-pressed": String(draft[what] === n),
      onclick: (event) => {
        draft[what] = n;
        for (const b of event.currentTarget.parentElement.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b === event.currentTarget));
        label();
      },
    }, signedTokens(n))));
  const living = update.state.reserves.filter((r) => !r.eliminated);
  const to = h("div", { class: "segmented br-effect-to", role: "radiogroup", "aria-label": t("bathroom-rush:param.effect.to") },
    living.map((r) => h("button", {
      type: "button", class: "option", role: "radio", dataset: { to: r.seat }, "aria-pressed": String(draft.to === r.seat),
      onclick: (event) => {
        draft.to = r.seat;
        for (const b of event.currentTarget.parentElement.children) b.setAttribute("aria-pressed", String(b === event.currentTarget));
        label();
      },
    }, dot(update.colours?.[r.seat]), update.players[r.seat])));
  // The generic "the effect happens" (a form, for its optional tokens)
  // gives way to one tap that sends it, with the tokens picked when the
  // table applies the effect by hand; the defence stays beside it.
  for (const el of generic.main) el.querySelector?.("button[data-command=effect]")?.replaceWith(happens);
  if (!byHand) return generic;
  const tokens = h("section", { class: "br-effect-tokens", "aria-label": t("bathroom-rush:board.effect_tokens") },
    h("p", { class: "hint", text: t("bathroom-rush:board.effect_tokens") }),
    choices("pipi", [-2, -1, 0, 1, 2, 3], PIPI_COLOUR), choices("popo", [0, 1], POPO_COLOUR), to);
  return { main: [...generic.main, tokens], secondary: generic.secondary };
}

function signedTokens(n) {
  return n > 0 ? `+${n}` : String(n).replace("-", "−");
}

// The turn's choice: the generic dock (pass, decompress or the die, End
// the turn), with each Action card that can be played now as one tap of
// its own instead of a form.
function playDock(update, tools, exp) {
  const generic = tools.expectations();
  for (const el of generic.main) el.querySelector?.("button[data-command=play]")?.remove();
  const cards = update.state.playable;
  const ask = t("bathroom-rush:board.which_card", { name: update.players[exp.player] ?? "" });
  const list = cards.length ? h("section", { class: "br-cards", "aria-label": ask },
    h("div", { class: "br-card-grid", role: "group" }, cards.map((card) => h("button", {
      type: "button", class: ["btn", "secondary", "action-card"], dataset: { card, command: "play" },
      onclick: () => tools.act({ ...exp, args: { ...exp.args, card } }),
    }, t(`bathroom-rush:card.${card}`))))) : null;
  return { main: [...generic.main, list], secondary: generic.secondary };
}

function revealDock(update, tools) {
  const view = update.state;
  const kind = update.expected.find((e) => e.command === "reveal-kind");
  const printed = update.expected.find((e) => e.command === "reveal"
    && (!kind || (e.args.queue === kind.args.queue && e.args.position === kind.args.position)));
  const exp = kind ?? printed;
  const head = h("h2", { class: "prompt", id: "prompt", text: said(exp) });
  const main = [view.box && kind ? kindsGrid(view, kind, tools.act, head) : printedGrid(update, printed, tools.act, head)];
  // A card the box does not hold, or values the grid lacks: the form.
  const other = printed ? h("button", {
    type: "button", class: "btn secondary", id: "reveal-other", onclick: () => tools.act(printed),
  }, t(kind ? "bathroom-rush:board.other_card" : "bathroom-rush:board.other_values")) : null;
  return { main, secondary: other ? [other] : [] };
}

// Light tracking's entries, drafted on this phone per game, round, phase
// and player: another phone's entry redraws the dock and keeps them.
const drafts = new Map();
const PIPI_CHOICES = { "bathroom-tokens": 8, "count-tokens": 16 };
const POPO_CHOICES = { "bathroom-tokens": 3, "count-tokens": 4 };

function entriesDock(update, tools, command) {
  const view = update.state;
  const entries = update.expected.filter((e) => e.command === command);
  const me = tools.mySeat;
  // This phone's player first: their row is the one at the thumb.
  entries.sort((a, b) => (b.player === me) - (a.player === me));
  const keys = new Set(entries.map((e) => draftKey(update, e.player)));
  for (const key of drafts.keys()) if (!keys.has(key)) drafts.delete(key);
  // Saying a player reached the bathroom as the queues move up is rarer:
  // under More, each named.
  const reached = update.expected.filter((e) => e.command === "reached");
  const ask = t(command === "count-tokens" ? "bathroom-rush:board.count_ask" : "bathroom-rush:board.cleanup_ask");
  return {
    main: [h("h2", { class: "prompt", id: "prompt", text: ask }),
      h("div", { class: "br-entries" }, entries.map((exp) => entryRow(update, tools, exp, command, exp.player === me)))],
    secondary: reached.length ? [h("button", {
      type: "button", class: "btn secondary", id: "more-moves", "aria-label": t("action.more_moves"),
      onclick: () => tools.more(reached),
    }, t("action.more_moves_short"))] : [],
  };
}

function draftKey(update, seat) {
  const view = update.state;
  return `${update.game_id}:${view.round}:${view.phase}:${seat}`;
}

function entryRow(update, tools, exp, command, mine) {
  const seat = exp.player;
  const name = update.players[seat];
  const key = draftKey(update, seat);
  const draft = drafts.get(key) ?? { pipi: null, popo: 0 };
  drafts.set(key, draft);
  const take = h("button", { type: "button", class: "btn primary br-take", dataset: { seat } });
  const choices = (what, count, lead) => h("div", { class: ["segmented", `br-${what}`, count > 8 && "many"], role: "radiogroup", "aria-label": `${name} · ${what === "pipi" ? "pipì" : "popò"}` },
    lead, Array.from({ length: count }, (_, n) => h("button", {
      type: "button", class: "option", role: "radio", dataset: { [what]: n }, "aria-pressed": String(draft[what] === n),
      onclick: (event) => {
        draft[what] = n;
        for (const b of event.currentTarget.parentElement.children) b.setAttribute("aria-pressed", String(b === event.currentTarget));
        label();
      },
    }, String(n))));
  const label = () => {
    take.disabled = draft.pipi === null;
    take.textContent = draft.pipi === null
      ? t("bathroom-rush:board.takes_pick", { name })
      : t("bathroom-rush:board.takes", { name, pipi: draft.pipi, popo: draft.popo });
  };
  label();
  take.addEventListener("click", async () => {
    if (draft.pipi === null) return;
    take.disabled = true;
    const args = { player: seat, pipi: draft.pipi, popo: draft.popo };
    const stillWanted = (state) => state?.game_id === update.game_id
      && state.expected.some((e) => e.command === command && e.player === seat);
    // Another player's entry may come first: this one is still wanted, so
    // it goes again against the table as it is now.
    const again = { stale: (fresh) => (stillWanted(fresh) ? t("bathroom-rush:board.entry_again", { name }) : null) };
    let done = await tools.submit(command, args, again);
    if (!done && stillWanted(store.state)) done = await tools.submit(command, args);
    if (done) drafts.delete(key);
    else take.disabled = false;
  });
  const arrived = update.state.arrived?.includes(seat);
  // Two lines: the name and the pipì; the popò (0 to start with) and the
  // button that sends them, which names the player.
  const who = h("span", { class: "br-who", title: arrived ? t("bathroom-rush:board.reached") : name },
    dot(update.colours?.[seat]), h("b", { text: name }), arrived ? " 🚽" : null);
  const other = h("button", {
    type: "button", class: "btn secondary br-other", "aria-label": `${name} · ${t("bathroom-rush:board.other_values")}`,
    title: t("bathroom-rush:board.other_values"), onclick: () => tools.act(exp),
  }, "⋯");
  return h("div", { class: ["br-entry", mine && "mine"], dataset: { seat } },
    h("div", { class: "br-entry-line" }, who, choices("pipi", PIPI_CHOICES[command], token(PIPI_COLOUR))),
    h("div", { class: "br-entry-line" }, choices("popo", POPO_CHOICES[command], token(POPO_COLOUR)), take, other));
}

// An Action card that strikes a player (Give Up Your Place): whom, by name.
function targetDock(update, tools) {
  const view = update.state;
  const targets = update.expected.filter((e) => e.command === "target");
  const people = targets.map((e) => view.queues[e.args.queue - 1]?.slots.find((s) => s.position === e.args.position));
  if (view.attack?.card === "cunning") return cunningDock(update, tools, targets, people);
  if (view.attack?.card === "cleaner") return cleanerDock(update, tools, targets, people);
  if (!people.length || people.some((s) => !s || !("player" in s))) return null;
  const first = targets[0];
  const card = view.attack?.card;
  const ask = t("bathroom-rush:board.on_whom", {
    name: update.players[first.player], card: card && has(`bathroom-rush:card.${card}`) ? t(`bathroom-rush:card.${card}`) : said(first),
  });
  return {
    main: [h("h2", { class: "prompt", id: "prompt", text: ask }),
      h("div", { class: "action-grid br-whom" }, targets.map((e, i) => h("button", {
        type: "button", class: "btn primary big", dataset: { command: "target", player: people[i].player },
        title: said(e), onclick: () => tools.act(e),
      }, dot(update.colours?.[people[i].player]), update.players[people[i].player])))],
    secondary: [],
  };
}

// At setup, a player stands at the end of a queue: one tap on its number
// at the thumb (the queues' picture offers it too).
function queueDock(update, tools, exp) {
  const free = update.state.queues.filter((q) => q.door && q.player === null);
  return {
    main: [h("h2", { class: "prompt", id: "prompt", text: said(exp) }),
      h("div", { class: "br-queue-grid" }, free.map((q) => h("button", {
        type: "button", class: "btn primary", dataset: { command: "choose-queue", queue: q.index },
        onclick: () => tools.act({ ...exp, args: { ...exp.args, queue: q.index } }),
      }, t("bathroom-rush:board.queue", { q: q.index }))))],
    secondary: [],
  };
}

// Cunning: the Persona that leaves, by its place next to the player, said
// in words ("in front", "behind") with what is printed on it.
function cunningDock(update, tools, targets, slots) {
  const first = targets[0];
  const me = update.state.reserves[first.player];
  const ask = t("bathroom-rush:board.cunning_ask", { name: update.players[first.player] ?? "" });
  return {
    main: [h("h2", { class: "prompt", id: "prompt", text: ask }),
      h("div", { class: "action-grid br-places" }, targets.map((e, i) => {
        const where = e.args.position < me.position ? "in_front" : "behind";
        return h("button", {
          type: "button", class: "btn primary big", dataset: { command: "target", place: where },
          title: said(e), onclick: () => tools.act(e),
        }, h("span", {}, t(`bathroom-rush:board.${where}`), h("small", { text: personaSaid(slots[i]) })));
      }))],
    secondary: [],
  };
}

// The Cleaner: the bathroom it strikes, by its queue and whose queue it is.
function cleanerDock(update, tools, targets, slots) {
  const view = update.state;
  const first = targets[0];
  const ask = t("bathroom-rush:board.cleaner_ask", { name: update.players[first.player] ?? "" });
  return {
    main: [h("h2", { class: "prompt", id: "prompt", text: ask }),
      h("div", { class: "action-grid br-places" }, targets.map((e, i) => {
        const owner = view.queues[e.args.queue - 1]?.player;
        return h("button", {
          type: "button", class: "btn primary big", dataset: { command: "target", queue: e.args.queue },
          title: said(e), onclick: () => tools.act(e),
        }, h("span", {}, owner !== null && owner !== undefined ? dot(update.colours?.[owner]) : null,
          t("bathroom-rush:board.queue_of", { q: e.args.queue, name: owner !== null && owner !== undefined ? update.players[owner] : t("bathroom-rush:board.nobody") }),
          h("small", { text: personaSaid(slots[i]) })));
      }))],
    secondary: [],
  };
}

// A Persona as a button says it: its name or colour, and its tokens.
function personaSaid(slot) {
  if (!slot || !slot.revealed) return "";
  return `${slot.name ?? colourName(slot.colour)} · ${slot.pipi}/${slot.popo}`;
}

// A prompt in the page's language: the engine says it in each (``said``).
function said(exp) {
  return (lang !== "en" && exp.said?.[lang]) || exp.prompt;
}

// Phase D's list in the page's language: the engine says it in each
// (``effects_said``), from each effect's data.
function effectLines(view) {
  return (lang !== "en" && view.effects_said?.[lang]) || view.effects;
}

function isLight(update) {
  return Boolean(update.setup?.variants?.includes("light-tracking"));
}

// The expectation that taps this place, when an Action card is choosing one.
function targetAt(update, q, position) {
  return update.expected.find((e) => e.command === "target" && e.args.queue === q && e.args.position === position) ?? null;
}

function tapTarget(node, exp) {
  node.classList.add("target");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", said(exp));
  node.title = said(exp);
  const go = (event) => event.currentTarget.dispatchEvent(new CustomEvent("act", { detail: exp, bubbles: true }));
  node.addEventListener("click", go);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") go(event);
  });
  return node;
}

function where(r) {
  if (r.eliminated) return null;
  if (r.queue === null) return t("bathroom-rush:board.no_queue");
  if (r.in_bathroom) return t("bathroom-rush:board.in_bathroom", { q: r.queue });
  return t("bathroom-rush:board.in_queue", { q: r.queue, n: r.position });
}

function queue(view, update, q) {
  const owner = q.player;
  const line = [h("span", { class: "door", title: t("bathroom-rush:board.door"), "aria-label": t("bathroom-rush:board.door") }, q.door ? "WC" : "×")];
  for (const slot of q.slots) {
    const aim = targetAt(update, q.index, slot.position);
    if ("player" in slot) {
      const pawn = h("span", {
        class: "pawn", style: { background: update.colours?.[slot.player] ?? "#666" },
        title: slot.name, "aria-label": t("bathroom-rush:board.pawn", { name: slot.name, n: slot.position }),
        dataset: { player: slot.player },
      }, slot.name.slice(0, 1).toUpperCase());
      line.push(aim ? tapTarget(pawn, aim) : pawn);
    } else {
      const reveal = update.expected.find((e) => e.command === "reveal" && e.args.queue === q.index && e.args.position === slot.position);
      const card = persona(slot, reveal);
      line.push(aim && !reveal ? tapTarget(card, aim) : card);
    }
  }
  const title = !q.door ? t("bathroom-rush:board.closed", { q: q.index })
    // While players still choose, no queue is the free one yet.
    : q.free && view.phase !== "setup" ? t("bathroom-rush:board.free_queue", { q: q.index })
      : t("bathroom-rush:board.queue", { q: q.index });
  // At setup, a player stands at the end of a queue with one tap on it.
  const choose = update.expected.find((e) => e.command === "choose-queue");
  const stand = choose && q.door && owner === null ? h("button", {
    type: "button", class: "btn primary stand", dataset: { queue: q.index },
    onclick: (event) => event.currentTarget.dispatchEvent(new CustomEvent("act", {
      detail: { ...choose, args: { ...choose.args, queue: q.index } }, bubbles: true })),
  }, t("bathroom-rush:board.stand_here", { name: update.players[choose.player] ?? "" })) : null;
  return h("div", { class: ["queue", q.free && view.phase !== "setup" && "free", owner !== null && owner === view.active && "active"], dataset: { queue: q.index } },
    h("div", { class: "queue-owner" }, title, h("small", { text: owner !== null ? update.players[owner] : q.free && view.phase !== "setup" ? t("bathroom-rush:board.nobody") : "" }), stand,
      q.permanents.length ? h("small", { text: q.permanents.map((c) => c.card).join(", ") }) : null),
    h("div", { class: "queue-line" }, line));
}

// A Persona lying on the Infamous Person shows him under it (both leave at
// the cleanup).
function persona(slot, reveal) {
  const card = personaCard(slot, reveal);
  if (!slot.covers) return card;
  const under = slot.covers;
  const said = t("bathroom-rush:board.on_top_of", { name: under.name ?? colourName(under.colour) });
  card.classList.add("covering");
  card.title = `${card.title} · ${said}`;
  return h("span", { class: "br-pile", title: said, dataset: { position: slot.position } },
    card, h("small", { class: "br-under", text: `${under.tokens_on_card.pipi}/${under.tokens_on_card.popo}` }));
}

function personaCard(slot, reveal) {
  const tokens = slot.tokens_on_card ?? { pipi: 0, popo: 0 };
  const onCard = tokens.pipi || tokens.popo ? h("small", { text: `+${tokens.pipi}/${tokens.popo}` }) : null;
  if (!slot.revealed) {
    if (reveal) {
      return h("button", {
        type: "button", class: ["persona", "hidden", "pending", slot.position === 1 && "bathroom"],
        title: said(reveal), "aria-label": said(reveal), dataset: { position: slot.position },
        onclick: (event) => event.currentTarget.dispatchEvent(new CustomEvent("act", { detail: reveal, bubbles: true })),
      }, onCard ?? "?");
    }
    return h("span", { class: ["persona", "hidden", slot.position === 1 && "bathroom"], title: t("bathroom-rush:board.face_down") }, onCard ?? "?");
  }
  return h("span", {
    class: ["persona", slot.colour, slot.position === 1 && "bathroom", slot.flipped && "flipped"],
    title: `${slot.name ?? colourName(slot.colour)} · ${slot.pipi} pipì ${slot.popo} popò${slot.flipped ? ` · ${t("bathroom-rush:board.flipped")}` : ""}`,
    "aria-label": t("bathroom-rush:board.persona_is", { pipi: slot.pipi, popo: slot.popo }),
    dataset: { pipi: slot.pipi, popo: slot.popo },
  },
  h("span", { class: "printed" }, token(PIPI_COLOUR), String(slot.pipi)),
  h("span", { class: "printed" }, token(POPO_COLOUR), String(slot.popo)),
  slot.flipped ? h("small", { text: "↺" }) : onCard);
}

// A Persona's colour named in the page's language.
function colourName(colour) {
  return has(`bathroom-rush:choice.${colour}`) ? t(`bathroom-rush:choice.${colour}`) : colour;
}

function token(colour) {
  return h("span", { class: "dot", style: { background: colour }, "aria-hidden": "true" });
}

function reserve(r) {
  return h("div", { class: "reserve", "aria-label": t("bathroom-rush:board.reserve_is", { pipi: r.pipi, popo: r.popo, limit: r.popo_limit }) },
    h("span", { class: "tok", title: "pipì" }, token(PIPI_COLOUR), String(r.pipi)),
    h("span", { class: ["tok", r.popo >= r.popo_limit - 1 && "near"], title: "popò" }, token(POPO_COLOUR), `${r.popo}`,
      h("span", { class: "limit", text: `/${r.popo_limit}` })));
}

export function chart(update) {
  const view = update.state;
  const limit = view.reserves[0]?.popo_limit ?? 4;
  const rows = view.reserves.map((r) => ({
    label: r.name,
    parts: [
      { value: r.pipi, colour: PIPI_COLOUR, label: "pipì" },
      { value: r.popo * 5, colour: POPO_COLOUR, label: "popò × 5" },
    ],
    total: r.score,
  }));
  return { title: t("bathroom-rush:board.chart"), el: barChart(rows, { max: limit * 5 + 2, limit: limit * 5, limitLabel: t("bathroom-rush:board.limit", { n: limit }) }) };
}
