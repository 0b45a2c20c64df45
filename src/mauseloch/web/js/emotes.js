// Warmth without chat at a table: quick reactions ("emotes", a fixed set, never free text) shown
// as a short bubble at the sender's seat, muted per seat or all at once; and what a family room
// adds to its tables: the way back to the room, its next game's invitation, a learner's "Tipp".
// The server decides everything (server/emotes.py, server/rooms.py); the page only shows it.

import { getJSON, h, postJSON } from "./api.js";
import { cardName, errorText, t } from "./i18n.js";

export const EMOTES = ["clap", "wow", "laugh", "heart", "mau", "well_played", "oh_no", "good_luck"];
const MUTE_KEY = "ml_emote_mute"; // {all: bool, names: [seat names muted]}
const ROOMS_KEY = "ml_rooms"; // the rooms this browser is a member of (their ids)
const BUBBLE_MS = 2500;

const $ = (id) => document.getElementById(id);
let ctx = null; // { send(id), seat(), name(seat), tableId }

function load(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v === null ? fallback : v;
  } catch {
    return fallback;
  }
}

function save(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode: for this page only */
  }
}

function muted() {
  const m = load(MUTE_KEY, { all: false, names: [] });
  return { all: Boolean(m.all), names: Array.isArray(m.names) ? m.names : [] };
}

/** The rooms this browser joined (the room page notes each one). */
export function knownRooms() {
  const ids = load(ROOMS_KEY, []);
  return Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : [];
}

export function noteRoom(id) {
  const ids = knownRooms().filter((r) => r !== id);
  save(ROOMS_KEY, [id, ...ids].slice(0, 10));
}

export function forgetRoom(id) {
  save(ROOMS_KEY, knownRooms().filter((r) => r !== id));
}

// ---------------------------------------------------------------- emotes

/** The emote button (beside the sound button) and its row of reactions, the mute switches in the menu. */
export function mountEmotes(slot, menuAnchor, context) {
  ctx = context;
  if (!slot || $("emote-button")) return;
  const button = h("button", { type: "button", class: "btn btn-small emote-button", id: "emote-button",
    "aria-expanded": "false", "aria-controls": "emote-bar", hidden: true }, "☺");
  const bar = h("div", { class: "emote-bar", id: "emote-bar", role: "group", hidden: true });
  for (const id of EMOTES) {
    const b = h("button", { type: "button", class: "btn btn-small emote-choice", dataset: { emote: id } });
    b.addEventListener("click", () => {
      ctx.send(id);
      openBar(false);
    });
    bar.append(b);
  }
  button.addEventListener("click", () => openBar(bar.hidden));
  slot.append(button);
  document.body.append(bar, h("div", { class: "emote-layer", id: "emote-layer", "aria-live": "polite" }));
  if (menuAnchor) {
    const all = h("input", { type: "checkbox", id: "emote-mute-all" });
    all.addEventListener("change", () => {
      save(MUTE_KEY, { ...muted(), all: all.checked });
      renderEmotes();
    });
    menuAnchor.append(h("section", { class: "emote-mute", id: "emote-mute" },
      h("h3", { id: "emote-mute-heading" }),
      // each label holds its box, so the whole line is the touch target
      h("p", { class: "sound-row" }, h("label", { class: "sound-switch" }, all, h("span", { id: "emote-mute-all-label" }))),
      h("ul", { id: "emote-mute-seats", class: "emote-mute-seats" })));
  }
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !bar.hidden) openBar(false);
  });
  renderEmotes();
}

function openBar(open) {
  const bar = $("emote-bar");
  const button = $("emote-button");
  bar.hidden = !open;
  button.setAttribute("aria-expanded", String(open));
  if (open) {
    const r = button.getBoundingClientRect();
    bar.style.top = `${Math.round(r.bottom + window.scrollY + 4)}px`;
    bar.style.right = `${Math.max(4, Math.round(document.documentElement.clientWidth - r.right))}px`;
    bar.querySelector("button").focus();
  }
}

/** Words, the mute switches per seat, and the button only for a person seated. */
export function renderEmotes(seats = null) {
  const button = $("emote-button");
  if (!button || !ctx) return;
  placeAgain();
  const seat = ctx.seat();
  button.hidden = seat === null || seat === undefined;
  button.setAttribute("aria-label", t("emote.bar"));
  button.title = t("emote.bar");
  $("emote-bar").setAttribute("aria-label", t("emote.bar"));
  for (const b of $("emote-bar").querySelectorAll("[data-emote]")) b.textContent = t("emote." + b.dataset.emote);
  const m = muted();
  const heading = $("emote-mute-heading");
  if (!heading) return;
  heading.textContent = t("emote.bar");
  $("emote-mute-all").checked = m.all;
  $("emote-mute-all-label").textContent = t("emote.muteAll");
  if (seats === null) return;
  const list = $("emote-mute-seats");
  list.replaceChildren();
  seats.forEach((s, i) => {
    if (i === seat || s.presence === "bot") return;
    const name = ctx.name(i);
    const box = h("input", { type: "checkbox", id: `emote-mute-${i}`, dataset: { seat: String(i) } });
    box.checked = m.names.includes(name);
    box.addEventListener("change", () => {
      const now = muted();
      const names = now.names.filter((n) => n !== name);
      if (box.checked) names.push(name);
      save(MUTE_KEY, { ...now, names });
    });
    list.append(h("li", {}, h("label", { class: "sound-switch" }, box, h("span", {}, t("emote.muteSeat", { name })))));
  });
}

/** A seat's emote arrived: a bubble at that seat for a moment, unless muted here. */
export function showEmote(msg) {
  if (!ctx || !EMOTES.includes(msg.emote)) return;
  const m = muted();
  const name = ctx.name(msg.seat);
  if (m.all || (msg.seat !== ctx.seat() && m.names.includes(name))) return;
  const layer = $("emote-layer");
  const r = seatBox(msg.seat).getBoundingClientRect();
  for (const old of layer.querySelectorAll(`[data-seat="${msg.seat}"]`)) old.remove();
  const bubble = h("div", { class: "emote-bubble", dataset: { seat: String(msg.seat), emote: msg.emote }, role: "status" },
    h("span", { class: "sr-only" }, t("emote.said", { name, emote: t("emote." + msg.emote) })),
    h("span", { "aria-hidden": "true" }, t("emote." + msg.emote)));
  layer.append(bubble);
  place(bubble, r);
  setTimeout(() => bubble.remove(), BUBBLE_MS);
}

/** The box a seat's bubble sits beside: its player, this browser's own hand, else the board. */
function seatBox(seat) {
  return document.querySelector(`#board .player[data-seat="${seat}"]`)
    || (seat === ctx.seat() ? document.querySelector("#board .hand") : null) || $("board");
}

/** The bubbles still up, placed again: a redraw of the board moves the names and cards they
    were placed beside (the next frame, once the redraw is laid out). */
function placeAgain() {
  requestAnimationFrame(() => {
    const layer = $("emote-layer");
    if (!layer || !ctx) return;
    for (const b of layer.querySelectorAll(".emote-bubble")) place(b, seatBox(Number(b.dataset.seat)).getBoundingClientRect());
  });
}

// What a bubble must never hide: a seat's name and the cards (hands, piles, counts).
const KEEP_CLEAR = "#board .player-name, #board .card, #board .stack, #board .hand";

/** The bubble beside its seat's box (above, below, right, left: the first place in sight that
    covers no name and no card), else above it; always inside the window's width. */
function place(bubble, r) {
  const w = bubble.offsetWidth;
  const hgt = bubble.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const gap = 4;
  const centred = r.left + r.width / 2 - w / 2;
  const spots = [
    [centred, r.top - hgt - gap],
    [centred, r.bottom + gap],
    [r.right + gap, r.top + r.height / 2 - hgt / 2],
    [r.left - w - gap, r.top + r.height / 2 - hgt / 2],
  ].map(([x, y]) => [Math.min(Math.max(gap, x), vw - w - gap), y]);
  const keep = [...document.querySelectorAll(KEEP_CLEAR)].map((el) => el.getBoundingClientRect()).filter((k) => k.width && k.height);
  const clear = ([x, y]) => y >= 0 && y + hgt <= vh
    && !keep.some((k) => x < k.right && x + w > k.left && y < k.bottom && y + hgt > k.top);
  const [x, y] = spots.find(clear) || [spots[0][0], Math.max(0, spots[0][1])];
  bubble.style.left = `${Math.round(x + window.scrollX)}px`;
  bubble.style.top = `${Math.round(y + window.scrollY)}px`;
}

// ---------------------------------------------------------------- a room's table

const room = { id: null, data: null, hint: null, timer: null };

/** Whether this table belongs to one of this browser's rooms: then the way back, the next game's
    invitation on the end screen and, for a learning member, the "Tipp" button. */
export async function findRoom(tableId) {
  for (const id of knownRooms()) {
    try {
      const data = await getJSON(`/api/rooms/${encodeURIComponent(id)}`);
      if (data.tables.some((tb) => tb.id === tableId)) {
        room.id = id;
        room.data = data;
        return data;
      }
    } catch (err) {
      if (err.status === 404) forgetRoom(id); // removed, or the room is gone
    }
  }
  return null;
}

function learning() {
  const d = room.data;
  if (!d || !d.settings.hints) return false;
  return d.settings.learning.includes(d.you);
}

/** The room's line on the table page: back to the room, and the invitation to its next game. */
export function renderRoomLine(tableId, over) {
  const line = $("room-line");
  if (!line) return;
  const d = room.data;
  line.hidden = !d;
  if (!d) return;
  const parts = [h("a", { href: `/r/${encodeURIComponent(d.id)}`, class: "room-back" }, t("room.back"))];
  const next = over ? d.tables.find((tb) => tb.invited && tb.id !== tableId) : null;
  if (next) {
    const starter = next.seats.find((s) => s.member && s.taken);
    const who = (starter && starter.name) || d.name;
    const take = h("button", { type: "button", class: "btn btn-primary room-take", dataset: { table: next.id } }, t("room.takeSeat"));
    take.addEventListener("click", async () => {
      try {
        await postJSON(`/api/rooms/${encodeURIComponent(d.id)}/tables/${encodeURIComponent(next.id)}/join`, {});
        location.href = `/t/${encodeURIComponent(next.id)}`;
      } catch (err) {
        take.after(h("span", { class: "error", role: "alert" }, errorText(err.code, err.message)));
      }
    });
    parts.push(h("span", { class: "room-invite" }, t("room.invitationAt", { name: who })), take);
  }
  const hintButton = $("hint-button");
  if (hintButton) hintButton.hidden = !learning() || over; // a tip is for a move still to make
  line.replaceChildren(...parts);
}

/** Ask the room again now and then while the game is over: someone may start the next one. */
export function watchRoom(tableId, isOver) {
  if (room.timer || !room.id) return;
  room.timer = setInterval(async () => {
    if (!isOver()) return;
    try {
      room.data = await getJSON(`/api/rooms/${encodeURIComponent(room.id)}`);
      renderRoomLine(tableId, true);
    } catch {
      /* asked again in a moment */
    }
  }, 3000);
}

/** "Tipp": the strongest bot's move for this seat, highlighted, and why in a sentence. */
export async function askHint(tableId, version) {
  const say = $("hint-say");
  try {
    const got = await postJSON(`/api/rooms/${encodeURIComponent(room.id)}/tables/${encodeURIComponent(tableId)}/hint`, {});
    room.hint = got.hint ? { ...got.hint, version } : null;
    say.textContent = got.hint ? [t("hint.card", { move: moveWords(got.hint.move) }), got.hint.reason ? t(got.hint.reason) : ""].join(" ").trim() : t("hint.none");
  } catch (err) {
    room.hint = null;
    say.textContent = errorText(err.code, err.message);
  }
  say.hidden = false;
  applyHint(version);
}

/** A move as people say it: a card's name, else the words on its button ("Draw a card"). */
function moveWords(move) {
  const card = move.split(":")[0];
  const named = cardName(card);
  if (named && named !== card) return named;
  const button = $("board").querySelector(`[data-move="${CSS.escape(move)}"]`);
  return button ? button.textContent : move;
}

/** The tip's card stays marked through redraws of the same state. */
export function applyHint(version) {
  const board = $("board");
  for (const el of board.querySelectorAll(".hint-card")) el.classList.remove("hint-card");
  const say = $("hint-say");
  if (!room.hint || room.hint.version !== version) {
    if (say && room.hint) say.hidden = true;
    return;
  }
  const card = room.hint.move.split(":")[0];
  const el = board.querySelector(`[data-focus-key="card-${CSS.escape(card)}"]`) || board.querySelector(`[data-move="${CSS.escape(room.hint.move)}"]`);
  if (el) el.classList.add("hint-card");
}
