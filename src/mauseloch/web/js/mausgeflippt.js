// Draws a Mausgeflippt view and measures reactions on this device (docs/protocol.md, "Reaction games").
//
// The server sends the next mouse ahead with the moment to show it on this page's clock
// (performance.now); the mouse is painted on the first animation frame at or after that moment,
// the same frame on every screen. A reaction's time is measured here, from that painted frame to
// the input event (event.timeStamp), and sent as a claim; the server's referee decides who was
// first. Which reactions exist comes only from view.legal_moves: no rule of the game lives here.

import { h } from "./api.js";
import { arrowKeys } from "./cards.js";
import { nameNode, t, tn } from "./i18n.js";

// Each clothing colour has a symbol and a word as well: colours are never told apart by colour alone.
const SYMBOLS = { blue: "■", brown: "▲", yellow: "★", green: "●", red: "♥" };
const HAND_KEYS = "123456789";
const WAIT_LIMIT_MS = 3000; // a window whose update does not come is shown anyway after this

/** "blue trousers" / "Hose (blau)" for a clothing face such as "trousers-blue". */
export function faceName(face) {
  const [kind, colour] = String(face).split("-");
  return t("mg.face", { kind: t("mg.kind." + kind), colour: t("mg.colour." + colour) });
}

export function mouseName(mouse) {
  return t("mg.mouse", { n: Number(String(mouse).slice(1)) });
}

export function cheeseName(cheese) {
  return t("mg.cheese." + cheese);
}

function faceEl(face, extra = "") {
  const colour = String(face).split("-")[1];
  return h("span", { class: "mg-face " + extra, dataset: { colour } },
    h("span", { class: "mg-sym", "aria-hidden": "true" }, SYMBOLS[colour] || "?"),
    h("span", { class: "mg-face-name" }, faceName(face)));
}

// ---------------------------------------------------------------- the open window, across redraws

let win = { version: -1, start: 0, shown: false, paintedAt: 0, reacted: null, raf: 0 };
let current = null; // the last render's { board, view, ctx }
let keysBound = false;

/** A `window` message: show the card of `msg.version` at `msg.start` (this page's clock). */
export function onWindow(msg, at) {
  if (msg.version === win.version) return;
  cancelAnimationFrame(win.raf);
  const start = msg.start === null || msg.start === undefined ? at + msg.in_ms : msg.start;
  win = { version: msg.version, start, shown: false, paintedAt: 0, reacted: null, raf: 0, received: at };
  waitForShow();
}

function windowOpenHere() {
  return current && current.view.window_open && current.ctx.version === win.version;
}

function waitForShow() {
  cancelAnimationFrame(win.raf);
  const step = (ts) => {
    if (win.shown) return;
    const late = ts - win.received > WAIT_LIMIT_MS;
    if (ts >= win.start && (windowOpenHere() || late) && current) {
      // This frame paints the mouse: the reaction is measured from it.
      win.shown = true;
      win.paintedAt = ts;
      redraw();
      return;
    }
    win.raf = requestAnimationFrame(step);
  };
  win.raf = requestAnimationFrame(step);
}

function redraw() {
  if (current) render(current.board, current.view, current.ctx);
}

function live() {
  return windowOpenHere() && win.shown && !win.reacted && current.ctx.canAct && current.ctx.seat !== null && current.ctx.seat !== undefined;
}

function react(move, event) {
  if (!live()) return;
  const legal = current.view.legal_moves || [];
  if (!legal.includes(move)) return;
  const ms = Math.max(0, Math.round(event.timeStamp - win.paintedAt));
  win.reacted = { move, ms };
  current.ctx.react(move, ms);
  redraw();
}

function onKey(e) {
  if (!current || current.board.dataset.game !== "mausgeflippt") return;
  const target = e.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const hand = current.view.hand || [];
  const i = HAND_KEYS.indexOf(e.key);
  if (i >= 0 && i < hand.length) {
    react("catch " + hand[i], e);
    e.preventDefault();
  } else if (e.key === " " || e.code === "Space") {
    if (target instanceof HTMLButtonElement && target.closest(".mg-hand")) return; // the button's own click
    react("flip", e);
    e.preventDefault();
  }
}

// ---------------------------------------------------------------- parts of the board

function secondsToMouse(ctx) {
  const d = ctx.live && ctx.live.deadline;
  if (!d || d.kind !== "reveal") return null;
  return Math.max(0, Math.ceil(d.due - (Date.now() / 1000 + (ctx.skew || 0))));
}

function tickCountdown() {
  const el = current && current.board.querySelector(".mg-countdown");
  if (!el) return;
  const s = secondsToMouse(current.ctx);
  el.textContent = s === null ? "" : s > 0 ? t("mg.countdown", { s }) : t("mg.getReady");
}

/** What the last mouse came to, from the events since its reveal (null: nothing decided yet). */
function lastOutcome(events, name) {
  let i = events.length - 1;
  while (i >= 0 && events[i].type !== "reveal") i--;
  if (i < 0) return null;
  let ms = null;
  let who = null;
  for (const ev of events.slice(i + 1)) {
    if (ev.type === "reaction") {
      ms = ev.ms;
      who = ev.seat;
    }
    const after = ms === null || who === null ? "" : " " + t("mg.after", { ms });
    if (ev.type === "timeout") return { kind: "timeout", title: t("mg.out.timeout"), text: t("mg.out.timeoutText", { mouse: mouseName(ev.mouse) }) };
    if (ev.type === "catch") return { kind: "caught", title: t("mg.out.caught"), text: t("mg.out.caughtText", { name: name(ev.seat), card: faceName(ev.card) }) + after };
    if (ev.type === "wrong_card") return { kind: "laundry", title: t("mg.out.laundry"), text: t("mg.out.wrongText", { name: name(ev.seat), card: faceName(ev.card) }) + after };
    if (ev.type === "protected_catch" || (ev.type === "mausgeflippt" && ev.protected)) {
      return { kind: "protected", title: t("mg.out.protected"), text: t("mg.out.protectedText", { name: name(ev.seat) }) + after };
    }
    if (ev.type === "mausgeflippt") {
      return ev.correct
        ? { kind: "caught", title: t("mg.flip"), text: t("mg.out.flipRight", { name: name(ev.seat) }) + after }
        : { kind: "laundry", title: t("mg.out.laundry"), text: t("mg.out.flipWrong", { name: name(ev.seat), cards: ev.fitting.map(faceName).join(", ") }) + after };
    }
  }
  return null;
}

function mouseEl(view, replay) {
  const m = view.mouse;
  return h("div", { class: "mg-mouse", role: "img", "aria-label": t("mg.mouseAria", { mouse: mouseName(m.mouse), cheese: cheeseName(m.cheese), clothes: m.wears.map(faceName).join(", ") }) },
    h("div", { class: "mg-mouse-head" }, h("span", { class: "mg-mouse-icon", "aria-hidden": "true" }, "🐭"), mouseName(m.mouse)),
    h("ul", { class: "mg-wears" }, m.wears.map((f) => h("li", {}, faceEl(f)))),
    h("p", { class: "mg-mouse-cheese" }, t("mg.carries", { cheese: cheeseName(m.cheese) })),
    replay && m.protected ? h("p", { class: "mg-protected-note" }, t("mg.protectedNote")) : null);
}

function centre(view, ctx) {
  const box = h("section", { class: "mg-centre", "aria-live": "polite" });
  const legal = ctx.canAct && view.legal_moves ? view.legal_moves : [];
  if (view.window_open) {
    if (ctx.replay || (win.shown && ctx.version === win.version)) {
      box.append(mouseEl(view, ctx.replay));
    } else {
      box.append(h("div", { class: "mg-mouse mg-mouse-hidden" }, h("p", { class: "mg-countdown" }, t("mg.getReady"))));
    }
  } else if (!view.is_over) {
    const outcome = ctx.replay ? null : lastOutcome(ctx.events || [], ctx.name);
    if (outcome) {
      box.append(h("div", { class: "mg-outcome mg-outcome-" + outcome.kind, role: "status" },
        h("p", { class: "mg-outcome-title" }, outcome.title), h("p", {}, outcome.text)));
    }
    if (legal.includes("reveal")) {
      const b = h("button", { type: "button", class: "btn btn-primary mg-reveal", dataset: { move: "reveal", focusKey: "reveal", primary: "1" } }, t("mg.reveal"));
      b.addEventListener("click", () => ctx.move("reveal"));
      box.append(b);
    } else {
      box.append(h("p", { class: "mg-countdown" }, ""));
    }
  }
  return box;
}

/** "3 mice, 1 piece of laundry, 0 cheeses" (and the points, when given): each count with its noun. */
function scoreParts(mice, laundry, cheese, points = null) {
  const parts = [tn("end.mg.mice", mice), tn("end.mg.laundry", laundry), tn("end.mg.cheese", cheese)];
  if (points !== null) parts.push(tn("end.mg.points", points));
  return parts.join(", ");
}

function info(view) {
  return h("section", { class: "mg-info" },
    h("span", { class: "badge-big mg-open-cheese" }, view.open_cheese ? t("mg.openCheese", { cheese: cheeseName(view.open_cheese) }) : t("mg.noCheese")),
    h("span", { class: "badge-big" }, tn("mg.cheesesLeft", view.cheeses_left)),
    h("span", { class: "badge-big" }, tn("mg.miceLeft", view.mouse_pile)));
}

function players(view, ctx) {
  const box = h("section", { class: "mg-players" });
  for (let s = 0; s < view.players; s++) {
    const revealer = view.revealer === s && !view.is_over;
    const label = [ctx.name(s), scoreParts(view.mice[s], view.laundry[s].length, view.cheese[s].length, view.score[s]), revealer ? t("mg.revealerNext") : null].filter(Boolean).join(", ");
    box.append(h("div", { class: "player mg-player" + (s === ctx.seat ? " me" : "") + (revealer ? " to-move" : ""), role: "group", "aria-label": label, dataset: { seat: String(s) } },
      h("div", { class: "player-name" }, revealer ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "◆") : null, nameNode(ctx.name(s))),
      h("div", { class: "mg-stats" },
        h("span", {}, t("mg.mice", { n: view.mice[s] })),
        h("span", {}, t("mg.laundry", { n: view.laundry[s].length })),
        h("span", {}, t("mg.cheese", { n: view.cheese[s].length })),
        h("strong", { class: "mg-score" }, t("mg.score", { n: view.score[s] }))),
      h("div", { class: "player-count" }, tn("mg.cards", view.hand_counts[s])),
      view.hands ? h("div", { class: "mg-open-hand" }, view.hands[s].map((f) => faceEl(f, "small"))) : null));
  }
  return box;
}

function hand(view, ctx) {
  const cards = view.hand || [];
  const legal = view.legal_moves || [];
  const ready = live();
  const section = h("section", { class: "mg-hand", "aria-label": t("mg.hand") }, h("h2", { class: "sr-only" }, t("mg.hand")));
  const row = h("div", { class: "mg-hand-cards" });
  cards.forEach((face, i) => {
    const move = "catch " + face;
    const key = HAND_KEYS[i] || "";
    const usable = ready && legal.includes(move);
    // Named by its hidden words ("Lay blue trousers on the mouse (key 1)"), which hold the face's
    // visible name, not by an aria-label that the keycap's digit would contradict (WCAG 2.5.3).
    const b = h("button", { type: "button", class: "mg-card" + (usable ? " legal" : ""), disabled: !usable, "aria-keyshortcuts": key || null, dataset: { move, focusKey: "card-" + i } },
      key ? h("span", { class: "mg-key", "aria-hidden": "true" }, key) : null,
      h("span", { class: "sr-only" }, t("mg.layAria", { card: faceName(face), key })),
      h("span", { "aria-hidden": "true" }, faceEl(face)));
    b.addEventListener("click", (e) => react(move, e));
    row.append(b);
  });
  arrowKeys(row, ".mg-card");
  const flip = h("button", { type: "button", class: "btn mg-flip", disabled: !(ready && legal.includes("flip")), "aria-keyshortcuts": "Space", dataset: { move: "flip", focusKey: "flip" } },
    t("mg.flip"), h("span", { class: "mg-key", "aria-hidden": "true" }, t("mg.spaceKey")));
  flip.addEventListener("click", (e) => react("flip", e));
  const mine = win.reacted && ctx.version === win.version && view.window_open
    ? h("p", { class: "mg-mine", role: "status" }, t("mg.yourReaction", { ms: win.reacted.ms }))
    : h("p", { class: "mg-mine hint" }, t("mg.keysHint"));
  section.append(row, h("div", { class: "actions" }, flip), mine);
  return section;
}

/** Draw the whole board for `view` into `board`. */
export function render(board, view, ctx) {
  current = ctx.replay ? current : { board, view, ctx };
  if (!ctx.replay && !keysBound) {
    keysBound = true;
    document.addEventListener("keydown", onKey);
    setInterval(tickCountdown, 250);
  }
  const parts = [players(view, ctx), info(view), centre(view, ctx)];
  if (!ctx.replay && ctx.seat !== null && ctx.seat !== undefined && !view.is_over) parts.push(hand(view, ctx));
  board.replaceChildren(...parts);
  board.dataset.game = "mausgeflippt";
  board.dataset.window = view.window_open ? (win.shown && ctx.version === win.version ? "shown" : "waiting") : "";
  if (!ctx.replay) {
    tickCountdown();
    if (view.window_open && ctx.version === win.version && !win.shown) waitForShow();
  }
}

/** The banner above the board: who turns the next mouse, or that everyone may react. */
export function turnText(view, name, seat) {
  if (view.window_open) return ""; // nothing that could tell the mouse is coming before it is painted
  return seat === view.revealer ? t("mg.youReveal") : t("mg.revealerNext.name", { name: name(view.revealer) });
}

/** The ranking of the end screen. */
export function endTable(view, name) {
  const res = view.result;
  const order = [...res.ranks.keys()].sort((a, b) => res.ranks[a] - res.ranks[b] || a - b);
  const body = h("tbody");
  // Three columns, so the table fits a 390 px phone: the score and, under it, what it is made of.
  for (const s of order) {
    body.append(h("tr", { dataset: { seat: String(s) } },
      h("td", { class: "rank" }, String(res.ranks[s])),
      h("th", { scope: "row" }, nameNode(name(s))),
      h("td", {}, h("strong", {}, String(res.score[s])), h("br"),
        h("span", { class: "hint" }, scoreParts(res.mice[s], res.laundry[s], res.cheese[s])))));
  }
  // MG-8: reason "mice" is also the end by timeouts, with mice left that nobody reacted to
  const why = res.reason !== "mice" ? t("mg.reason." + res.reason)
    : view.mouse_pile > 0 ? tn("mg.reason.unreacted", view.mouse_pile) : t("mg.reason.allTaken");
  return h("div", { class: "end-body" },
    h("p", { class: "reason" }, t("table.reason", { reason: why })),
    h("table", { class: "ranking" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("table.rank")),
        h("th", { scope: "col" }, t("table.player")),
        h("th", { scope: "col" }, t("mg.scoreCol")))),
      body));
}

/** The replay's lines for a decided window: every claim with the time measured and the time judged. */
export function claimLines(referee, name) {
  const lines = referee.claims.map((c) => t("mg.claimLine", {
    name: name(c.seat),
    move: c.move === "flip" ? t("mg.flip") : faceName(c.move.replace(/^catch /, "")),
    ms: c.ms,
    time: c.time,
    status: t("mg.status." + c.status),
  }));
  const d = referee.decision;
  lines.push(d.seat === null ? t("mg.decisionNone") : t("mg.decision", { name: name(d.seat), ms: d.ms }));
  return lines;
}
