// The table page: seat handling, the WebSocket, the event log, announcements, the end screen.
// Drawing the board is left to one module per game; no game rule lives here or there.

import { applyLimits, copyLink, forgetSeat, getJSON, h, loadGames, postJSON, rememberSeat, savedInvite, saveInvite } from "./api.js";
import { TableConnection } from "./conn.js";
import { isOfflineTable, WorkerSocket } from "./offline.js";
import { learnGames } from "./declared.js";
import { announcement, eventText } from "./events.js";
import { errorText, getLang, initI18n, limitName, mountLangSwitch, nameNode, onLangChange, seatLabel, serverWords, t, tableTitle, timeLeft, tn } from "./i18n.js";
import { renderer as rendererOf } from "./games.js";
import { mountFeedback, refusalText, renderSoundToggle, signalTurn, tellMoves, titled } from "./feedback.js";
import { mountRules, renderHouseRules } from "./rules.js";
import { followSeat, renderMatchLine } from "./match.js";
import { renderEnd as renderEndScreen } from "./endscreen.js";
import { holdsMoves, renderPace } from "./pace.js";
import { renderAway, someoneAway } from "./away.js";
import { joinLadder, seatTaken } from "./botseats.js";
import { renderRequests } from "./requests.js";
import { mountPush } from "./push.js";
import { applyHint, askHint, findRoom, mountEmotes, renderEmotes, renderRoomLine, showEmote, watchRoom } from "./emotes.js";

const LOG_LIMIT = 200;
const HOUR = 3600; // seconds: a clock with more left is said in days and hours (a table over days)

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const state = {
  seat: null,
  view: null,
  table: null,
  events: [],
  conn: null,
  pending: false,
  status: "connecting",
  retryAt: 0, // when the next try to connect again starts (Date.now() ms)
  lost: false, // the connection was lost and is not back yet
  announceTimer: null,
  games: [],
  cred: null, // { seat }: the seat this page plays; its token travels only in the HttpOnly cookie
  invite: null, // the secret of a private table's invite link this page was opened with
  waitingMinutes: 30, // how long a waiting table stays open without a join (the server's limit)
  closeCode: null, // why the server closed the connection, when it was one of its limits
  live: null, // presence, stand-ins, the running clock, rematch votes (docs/protocol.md)
  skew: 0, // server clock minus this browser's, in seconds
  said: new Set(), // what the polite clock announcer has already said
  clockFrom: 0, // the seconds the running turn clock of this seat began with
  standIns: [],
};

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  const s = state.table && state.table.seats ? state.table.seats[seat] : null;
  const base = seatLabel(s, seat);
  return seat === state.seat ? `${base} (${t("common.you")})` : base;
}


function gameName() {
  return (state.view && state.view.game) || (state.table && state.table.game);
}

// ---------------------------------------------------------------- moves and errors

/** A move was sent and not answered yet, or the page is waiting for a fresh snapshot. */
function busy() {
  return state.pending || Boolean(state.conn && state.conn.resyncing);
}

function sendMove(move) {
  if (busy() || !state.conn) return;
  hideError();
  if (state.conn.move(move)) {
    state.pending = true;
    render();
  }
}

function showError(text, detail) {
  const box = $("error-box");
  box.textContent = text;
  box.title = serverWords(detail, text); // the server's own words, for those who look (English pages)
  box.hidden = false;
}

/** A refused HTTP request in the page's language (the server's message when the code is new). */
function showFailure(el, err) {
  el.textContent = errorText(err.code, err.message);
  el.title = serverWords(err.message, el.textContent);
  el.hidden = false;
}

function hideError() {
  $("error-box").hidden = true;
}

function onError(msg) {
  state.pending = false;
  // The server explains a refusal in English: shown as well on the English page, kept in the
  // error box's title on the German one.
  const local = errorText(msg.code, msg.message);
  const detail = getLang() === "en" && local !== msg.message ? `${local} (${msg.message})` : local;
  if (msg.code === "bad_token") {
    // Not a move: the seat link itself is refused. Forget it and offer to join or watch.
    showError(detail, msg.message);
    state.conn.close();
    state.conn = null;
    forgetSeat(tableId);
    history.replaceState(null, "", location.pathname);
    showJoin();
  } else if (msg.refusal && getLang() !== "en") {
    // The engine's reason in the page's words (the server's English one, with the moves legal
    // now, is made from the same catalogue: shown as it is on the English page).
    showError(t("table.refused", { message: refusalText(msg.refusal) }), msg.message);
  } else {
    showError(t("table.refused", { message: detail }), msg.message);
  }
  render();
}

// ---------------------------------------------------------------- announcements and log

function announce(text, kind) {
  const box = $("announce");
  box.replaceChildren(h("span", { class: "announce-text " + (kind || "") }, text));
  box.classList.add("show");
  clearTimeout(state.announceTimer);
  state.announceTimer = setTimeout(() => box.classList.remove("show"), 2200);
}

function announceEvents(events) {
  const game = gameName();
  for (const ev of events) {
    const text = announcement(ev, seatName, game);
    if (text) announce(text, ev.type);
  }
}

// The events of moves a stand-in played (the frames say who played each move, beside its events).
const standIns = new WeakSet();

function markStandIn(ev, by) {
  if (by === "stand-in") standIns.add(ev);
}

const TICKER_LINES = 2; // the ticker above the board: the last moves; the full log is in the menu

function renderLog() {
  const list = $("log");
  list.replaceChildren();
  // Nothing has happened for people before the game starts (the deal waits for every seat).
  const waiting = Boolean(state.table && state.table.status === "waiting");
  $("log-panel").hidden = waiting;
  const game = gameName();
  const recent = state.events.slice(-LOG_LIMIT);
  const lines = [];
  for (let i = recent.length - 1; i >= 0; i--) {
    const ev = recent[i];
    const text = eventText(ev, seatName, game);
    const byStandIn = standIns.has(ev);
    const marked = byStandIn ? `${text} ${t("table.byStandIn")}` : text;
    const cls = "ev ev-" + ev.type + (byStandIn ? " by-stand-in" : "");
    list.append(h("li", { class: cls }, marked));
    if (lines.length < TICKER_LINES) lines.push(h("li", { class: cls, title: marked }, marked));
  }
  // Newest at the bottom, next to the board, as a person reads a table top to bottom.
  $("ticker").replaceChildren(...lines.reverse());
  $("ticker-box").hidden = waiting || lines.length === 0;
}

// ---------------------------------------------------------------- drawing

/** The connection was lost and the page is trying to get it back. */
function offline() {
  return state.lost && (state.status === "reconnecting" || state.status === "connecting");
}

/** Whole seconds until the next try to connect again. */
function retrySeconds() {
  return Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000));
}

// The header says in a word how the connection stands (connected: only to screen readers, whose
// status line it is); a lost connection is told on the board, with the seconds to the next try.
function renderStatus() {
  const el = $("conn-status");
  el.dataset.state = state.status;
  // quiet while connected at a seat, and while the board's banner tells of a lost connection
  el.classList.toggle("sr-only", (state.status === "connected" && state.seat !== null) || offline());
  if (state.status === "connected") el.textContent = state.seat === null ? t("table.spectator") : t("table.connected");
  else if (state.status === "reconnecting" || (state.lost && state.status === "connecting")) el.textContent = t("table.offlineShort");
  else if (state.status === "signedOut") el.textContent = t("close.4401");
  else if (state.status === "idle") el.textContent = "";
  else if (state.status === "gone") el.textContent = t("table.gone");
  else el.textContent = t("table.connecting");
  renderOffline();
}

/** The banner on the board while the connection is lost: why, and the seconds to the next try. */
function renderOffline() {
  const box = $("offline");
  const lost = offline();
  box.hidden = !lost;
  document.body.classList.toggle("offline", lost);
  if (!lost) return;
  const s = retrySeconds();
  let text;
  if (state.status === "connecting" || s === 0) text = t("table.offlineTrying");
  else if (state.closeCode) text = t("close." + state.closeCode, { s });
  else text = t("table.offline", { s });
  if (box.textContent !== text) box.textContent = text;
}

function renderTurn() {
  const banner = $("turn-banner");
  const view = state.view;
  banner.classList.remove("mine");
  if (state.table && state.table.status === "waiting") {
    banner.textContent = t("table.waitingShort");
    return;
  }
  if (!view || view.is_over) {
    banner.textContent = "";
    return;
  }
  if (holdsMoves(state.live, view)) {
    // nobody is to move while the table is paused or waits for someone away
    banner.textContent = "⏸ " + (someoneAway(state.live) ? t("away.waits") : t("pause.banner"));
    return;
  }
  const renderer = rendererOf(view.game);
  if (renderer && renderer.turnText) {
    banner.textContent = renderer.turnText(view, seatName, state.seat); // a reaction game: no turns
  } else if (view.to_move === null || view.to_move === undefined) {
    banner.textContent = "";
  } else if (view.to_move === state.seat) {
    banner.textContent = "▶ " + t("table.yourTurn");
    banner.classList.add("mine");
  } else {
    banner.textContent = t("table.waitFor", { name: seatName(view.to_move) });
  }
}

function renderEnd() {
  const view = state.view;
  renderRoomLine(tableId, Boolean(view && view.is_over));
  renderEmotes((state.live && state.live.seats) || null);
  renderEndScreen($("end-screen"), { view, table: state.table, live: state.live, seat: state.seat, conn: state.conn,
    name: seatName, tableId, renderer: view && rendererOf(view.game), vote: askRematch });
}

/** Who sits at the table while it waits: names, and the seats still free. */
function waitingBoard() {
  const seats = (state.table && state.table.seats) || [];
  return h("section", { class: "waiting-board", "aria-label": t("table.waitingShort") },
    h("ul", { class: "seat-chips" }, seats.map((s, i) =>
      h("li", { class: "seat-chip" + (s.kind === "human" && !s.taken ? " free" : "") },
        s.kind === "human" && !s.taken ? t("lobby.free") : nameNode(seatName(i))))));
}

function askRematch() {
  if (state.conn) state.conn.rematch();
}

// ---------------------------------------------------------------- presence and the clock

function secondsLeft() {
  const d = state.live && state.live.deadline;
  if (!d) return null;
  if (typeof d.left === "number") return Math.ceil(d.left); // paused: the clock stands still
  return Math.max(0, Math.ceil(d.due - (Date.now() / 1000 + state.skew)));
}

function say(key, text) {
  // The polite announcer speaks once per turn and threshold, never every second.
  if (state.said.has(key)) return;
  state.said.add(key);
  $("clock-say").textContent = text;
}

function renderClock() {
  const el = $("turn-clock");
  const d = state.live && state.live.deadline;
  const left = secondsLeft();
  const stopped = Boolean(d) && typeof d.left === "number"; // paused, or someone away: it stands still
  el.classList.toggle("stopped", stopped && d.kind === "turn");
  if (!d || left === null || d.kind !== "turn" || (state.view && state.view.is_over)) {
    el.textContent = "";
    el.classList.remove("low", "unsure", "stopped");
    return;
  }
  const unsure = state.status !== "connected"; // the server's clock is not heard: its time is not known
  el.classList.toggle("unsure", unsure);
  if (unsure) {
    el.textContent = t("table.timeUnsure");
    el.classList.remove("low");
    return;
  }
  const mine = d.seat === state.seat;
  if (stopped) {
    // the time it will have once it runs on, and that it does not run now (the banner says why)
    el.textContent = t("time.stopped", { time: left >= HOUR ? timeLeft(left) : t("table.timeLeft", { s: left }) });
    el.classList.remove("low");
    return;
  }
  if (left >= HOUR) {
    // a table over days: days and hours, never a count of seconds
    el.textContent = timeLeft(left);
    el.classList.remove("low");
    if (mine) say(`days:${d.due}`, timeLeft(left));
    return;
  }
  el.textContent = t("table.timeLeft", { s: left }); // whose time it is, the turn line beside it says
  el.classList.toggle("low", left <= 10);
  if (mine) {
    const key = `${state.conn ? state.conn.version : ""}:${d.due}`;
    if (!state.said.has("start:" + key)) state.clockFrom = left;
    say("start:" + key, tn("table.yourTimeSay", left));
    // Hurried only on a clock that began above the threshold: a short one (Aus die Maus!'s flips,
    // 3-10 s) is said once, not overwritten before a screen reader has read it.
    if (left <= 10 && left > 0 && state.clockFrom > 10) say("hurry:" + key, tn("table.hurrySay", left));
  }
}

function renderSeats() {
  const panel = $("seat-panel");
  const live = state.live;
  if (!state.table || !live || !live.seats) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const toMove = state.view && !state.view.is_over ? state.view.to_move : null;
  $("seat-list").replaceChildren(
    ...live.seats.map((s, i) =>
      h("li", { class: "seat-presence-item" + (i === toMove ? " to-move" : ""), dataset: { seat: String(i), presence: s.presence, standIn: s.stand_in ? "1" : "0" } },
        nameNode(seatName(i)),
        s.presence === "bot" ? "" : h("span", { class: "presence presence-" + s.presence }, t("presence." + s.presence)),
        s.stand_in ? h("span", { class: "stand-in" }, t("presence.standIn")) : ""),
    ),
  );
  live.seats.forEach((s, i) => {
    if (s.stand_in && !state.standIns[i]) say(`standin:${i}:${state.conn ? state.conn.version : 0}`, t("table.standInSay", { name: seatName(i) }));
    state.standIns[i] = s.stand_in;
  });
  // an offline table is this browser's own: no seat link, no signing out elsewhere, and no leaving
  // it to a stand-in (the lobby keeps the game to go on with); its pause works as online
  $("seat-actions").hidden = state.seat === null || state.seat === undefined || !state.conn || isOfflineTable(tableId);
  $("closed-note").hidden = live.status !== "closed";
  if (live.status === "closed") $("closed-note").textContent = t("table.closed");
  if (live.status === "expired") {
    $("closed-note").hidden = false;
    $("closed-note").textContent = tn("table.expired", state.waitingMinutes);
  }
  renderClock();
}

function onLive(live) {
  setLive(live);
  render();
}

function setLive(live) {
  if (!live) return;
  state.live = live;
  if (typeof live.now === "number") state.skew = live.now - Date.now() / 1000;
  if (live.next && state.cred && state.seat !== null && !state.following) {
    state.following = true; // once: a second assignment would cancel the first page load
    // Everyone agreed to a rematch, or a match deals again: the server gives this browser's
    // cookie for the new table (the seat's token is the same there; in a match one seat on).
    rememberSeat(live.next, followSeat(state.cred, state.table, live.match || (state.table && state.table.match)).seat);
    location.href = `/t/${encodeURIComponent(live.next)}?rematch=${encodeURIComponent(tableId)}`;
  }
}

function toggleMySeat() {
  const box = $("my-seat-box");
  const open = box.hidden;
  box.hidden = !open;
  $("my-seat-button").setAttribute("aria-expanded", String(open));
  if (open && state.cred) {
    // The page cannot read the token (HttpOnly); the server makes the link for this browser's seat.
    postJSON(`/api/tables/${encodeURIComponent(tableId)}/seat-link`, {})
      .then((res) => {
        $("my-seat-link").value = new URL(res.url, location.origin).href;
        $("my-seat-link").select();
      })
      .catch((err) => showFailure($("renew-status"), err));
  }
}

// "Sign this seat out elsewhere": a new token (in this browser's cookie); every other page and
// every copy of the old seat link lose the seat. This page connects again with the new one.
async function renewSeat() {
  if (!state.cred || !confirm(t("table.signOutConfirm"))) return;
  try {
    await postJSON(`/api/tables/${encodeURIComponent(tableId)}/renew`, {});
    $("my-seat-link").value = "";
    $("my-seat-box").hidden = true;
    $("renew-status").textContent = t("table.signedOutElsewhere");
    $("renew-status").title = "";
    $("renew-status").hidden = false;
    connect(state.cred);
  } catch (err) {
    showFailure($("renew-status"), err);
  }
}

function leaveTable() {
  if (!state.conn || !confirm(t("table.leaveConfirm"))) return;
  state.conn.leave();
  state.conn = null;
  location.href = "/";
}

function renderWaiting() {
  const waiting = state.table && state.table.status === "waiting";
  $("waiting").hidden = !waiting;
  if (waiting) {
    $("invite-link").value = savedInvite(tableId) || new URL(`/t/${encodeURIComponent(tableId)}`, location.origin).href;
    $("expiry-hint").textContent = tn("table.expiryHint", state.waitingMinutes);
  }
}

function render() {
  renderStatus();
  if (state.table) {
    const info = state.games.find((g) => g.name === state.table.game);
    const title = tableTitle(state.table, info && info.title);
    $("table-title").textContent = title;
    $("table-title").title = title;
    document.title = titled(`${title || gameName()} — Mauseloch`); // with the badge while your turn waits in a hidden tab
  }
  renderWaiting();
  renderTurn();
  renderSeats();
  renderHouseRules(state.table);
  renderPace(state.table, state.live, state.seat, state.conn);
  renderAway(state.table, state.live, state.seat, state.conn);
  renderRequests($("requests"), { table: state.table, live: state.live, view: state.view, seat: state.seat,
    conn: state.conn, name: seatName, vote: askRematch });
  renderMatchLine((state.live && state.live.match) || (state.table && state.table.match), seatName);
  const board = $("board");
  const view = state.view;
  if (!view) {
    board.replaceChildren();
    return;
  }
  const renderer = rendererOf(view.game);
  if (!renderer) {
    board.replaceChildren(h("p", {}, view.game));
    return;
  }
  // Where the page stands, for people using developer tools and for the browser tests.
  board.dataset.version = String(state.conn ? state.conn.version : "");
  board.dataset.toMove = view.to_move === null || view.to_move === undefined ? "" : String(view.to_move);
  board.dataset.over = view.is_over ? "1" : "0";
  board.dataset.pending = busy() ? "1" : "0";
  // Keep keyboard focus on the same control across a redraw; when that control is gone (the
  // move was made), focus rests on the board and returns to the first choice on the next turn.
  const active = document.activeElement;
  const focusInBoard = active && (board.contains(active) || active === board);
  const focusKey = focusInBoard && active !== board ? active.dataset.focusKey || "" : focusInBoard ? "" : null;
  const waiting = state.table && state.table.status === "waiting";
  if (waiting) {
    // Before every seat is taken there is no game to show yet: no hand, nobody "to move".
    board.replaceChildren(waitingBoard());
    renderEnd();
    return;
  }
  renderer.render(board, view, {
    seat: state.seat,
    name: seatName,
    canAct: !busy() && !waiting && state.status === "connected" && !holdsMoves(state.live, view),
    paused: holdsMoves(state.live, view),
    refused: state.refused || {},
    move: sendMove,
    wishDialog: $("wish-dialog"),
    // reaction games: claims with the device's time, the recent events, the countdown
    react: (move, ms) => state.conn && state.conn.react(move, ms),
    version: state.conn ? state.conn.version : null,
    events: state.events,
    live: state.live,
    skew: state.skew,
  });
  if (focusKey !== null) {
    const again = focusKey ? board.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) : null;
    const fallback = board.querySelector("[data-primary]") || board.querySelector(".card.legal");
    const target = again || fallback || board;
    if (target !== document.activeElement) target.focus({ preventScroll: target === board });
  }
  markPresence(board);
  applyHint(board.dataset.version);
  // Your turn: a sound (if turned on), a vibration, the title's badge in a hidden tab.
  const mine = !view.is_over && state.seat !== null && view.to_move === state.seat && !holdsMoves(state.live, view);
  signalTurn(mine, board.dataset.version);
  renderEnd();
}

/** Who is here, on the board's own player boxes (the full list with words is in the menu). */
function markPresence(board) {
  const seats = (state.live && state.live.seats) || [];
  for (const box of board.querySelectorAll(".player[data-seat]")) {
    const s = seats[Number(box.dataset.seat)];
    const head = box.querySelector(".player-name");
    if (!s || !head || s.presence === "bot" || Number(box.dataset.seat) === state.seat || head.querySelector(".presence-dot")) continue;
    head.prepend(h("span", { class: "presence-dot presence-" + s.presence, title: t("presence." + s.presence) },
      h("span", { class: "sr-only" }, t("presence." + s.presence))));
  }
}

// ---------------------------------------------------------------- the menu (side panel)

// On a wide screen the menu is a side panel always in sight; on a narrow one it is a drawer over
// the table, opened by the menu button. Its contents stay in the page either way.
const WIDE = window.matchMedia("(min-width: 1100px)");

function menuOpen() {
  return $("side-panel").classList.contains("open");
}

function openMenu(open) {
  const panel = $("side-panel");
  const button = $("menu-button");
  const drawer = open && !WIDE.matches;
  panel.classList.toggle("open", open);
  document.body.classList.toggle("menu-open", open);
  button.setAttribute("aria-expanded", String(open));
  // The open drawer covers the table: what lies under it takes no focus and no clicks.
  $("main").inert = drawer;
  document.querySelector(".table-topbar").inert = drawer;
  if (open) $("side-close").focus();
  else if (panel.contains(document.activeElement)) button.focus();
}

// The sound button: in the top bar where it has room (one line: wide screens, phones held
// sideways); at the end of the last moves above the board where the top bar is two lines, so
// that the title keeps its room and the bar's turn line takes none while it is empty.
const TWO_LINE_BAR = window.matchMedia("(max-width: 900px) and (min-height: 501px)");

function placeSound() {
  const slot = $("sound-slot");
  const bar = document.querySelector(".table-topbar");
  if (TWO_LINE_BAR.matches && slot.parentElement !== $("ticker-box")) $("ticker-box").append(slot);
  else if (!TWO_LINE_BAR.matches && slot.parentElement !== bar) bar.querySelector(".turn-line").after(slot);
}

function mountMenu() {
  $("menu-button").addEventListener("click", () => openMenu(!menuOpen()));
  $("side-close").addEventListener("click", () => openMenu(false));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menuOpen() && !document.querySelector("dialog[open]")) openMenu(false);
  });
  // A tap beside the drawer (on the dimmed table) closes it.
  document.addEventListener("click", (e) => {
    if (menuOpen() && !WIDE.matches && !$("side-panel").contains(e.target) && !$("menu-button").contains(e.target)) openMenu(false);
  });
  WIDE.addEventListener("change", () => {
    if (menuOpen()) openMenu(false); // the side panel is always there on a wide screen
  });
}

// ---------------------------------------------------------------- the connection

function onSnapshot(msg) {
  setLive(msg.live);
  state.seat = msg.seat;
  state.view = msg.view;
  state.refused = msg.refused || {}; // why each card of this seat's hand does not fit, if it is to move
  state.table = msg.table;
  state.events = msg.events || [];
  const by = msg.by || [];
  for (const [i, ev] of state.events.entries()) markStandIn(ev, by[i]);
  state.pending = false;
  $("join-panel").hidden = true;
  render();
  renderLog();
}

function onUpdate(msg) {
  setLive(msg.live);
  state.view = msg.view;
  state.refused = msg.refused || {};
  state.pending = false;
  const events = msg.events || [];
  for (const ev of events) markStandIn(ev, msg.by);
  state.events.push(...events);
  if (state.events.length > LOG_LIMIT * 2) state.events = state.events.slice(-LOG_LIMIT);
  if (state.table && state.view && state.view.is_over) state.table.status = "over";
  render();
  renderLog();
  announceEvents(events);
  tellMoves(events.map((ev) => eventText(ev, seatName, gameName()))); // every move, for screen readers
}

function onStatus(status, retry, closeCode) {
  state.status = status;
  if (status === "reconnecting") {
    state.lost = true;
    state.retryAt = retry.at;
    $("offline").dataset.retryMs = String(retry.ms); // the wait chosen, for those who look (and the tests)
  } else if (status === "connected") {
    state.lost = false;
  }
  if (status !== "connecting") state.closeCode = closeCode || null;
  render();
}

function connect(cred) {
  if (state.conn) state.conn.close();
  state.seat = cred ? cred.seat : null;
  state.cred = cred;
  state.conn = new TableConnection({
    tableId,
    seat: cred ? cred.seat : null,
    token: null, // the seat's HttpOnly cookie travels in the handshake
    invite: state.invite, // watching a private table takes its invite
    // an offline table is played by the engine in a Web Worker, with the same messages
    transport: isOfflineTable(tableId) ? (_url, id) => new WorkerSocket(id) : null,
    onSnapshot,
    onUpdate,
    onError,
    onStatus,
    onLive,
    onResync: render,
    onEmote: showEmote,
    onWindow: (msg, at) => {
      const renderer = state.view ? rendererOf(state.view.game) : null;
      if (renderer && renderer.onWindow) renderer.onWindow(msg, at);
    },
  });
  state.conn.open();
}

// ---------------------------------------------------------------- joining

async function showJoin(known = null) {
  state.status = "idle";
  renderStatus();
  $("join-panel").hidden = false;
  try {
    $("join-name").value = localStorage.getItem("ml_name") || "";
  } catch {
    /* no storage */
  }
  try {
    const summary = known || (await getJSON(`/api/tables/${encodeURIComponent(tableId)}`));
    state.table = summary;
    render();
    const free = summary.status === "waiting" && summary.seats.some((s) => s.kind === "human" && !s.taken);
    $("join-button").hidden = !free;
    $("join-name").parentElement.hidden = !free;
    $("join-info").replaceChildren(free ? "" : t("table.noFreeSeat"));
    if (summary.status === "over") {
      $("join-info").append(" ", h("a", { href: `/replay/${encodeURIComponent(tableId)}` }, t("table.toReplay")));
    }
    (free ? $("join-name") : $("watch-button")).focus();
  } catch (err) {
    showFailure($("join-error"), err);
  }
}

async function join() {
  const name = $("join-name").value.trim();
  if (!name) {
    $("join-error").textContent = t("lobby.needName");
    $("join-error").hidden = false;
    $("join-name").focus();
    return;
  }
  try {
    localStorage.setItem("ml_name", name);
  } catch {
    /* no storage */
  }
  const ladder = joinLadder(); // a rated table: the ladder name the seat plays for, asked here once
  if (ladder && !ladder.name) {
    $("join-error").textContent = t("ladder.needName");
    $("join-error").hidden = false;
    $("join-ladder").focus();
    return;
  }
  try {
    const body = { name, invite: state.invite };
    if (ladder) body.ladder = ladder;
    const res = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
    rememberSeat(tableId, res.seat);
    $("join-panel").hidden = true;
    hideError();
    seatTaken();
    connect({ seat: res.seat }); // the seat's token came as an HttpOnly cookie with the answer
    offerPush(state.table);
  } catch (err) {
    showFailure($("join-error"), err);
  }
}

function copyInvite() {
  return copyLink($("invite-link"), $("copy-status"), t("lobby.copied"));
}

function main() {
  initI18n();
  mountLangSwitch($("lang-switch"));
  onLangChange(() => {
    render();
    renderLog();
    renderSoundToggle();
  });
  mountFeedback($("pace-row"), $("sound-slot")); // the sound button in the header; the switches in the menu
  mountMenu();
  mountEmotes($("sound-slot"), $("emote-mute-slot"), {
    send: (id) => state.conn && state.conn.emote(id),
    seat: () => state.seat,
    name: seatName,
  });
  $("hint-button").addEventListener("click", () => askHint(tableId, $("board").dataset.version));
  findRoom(tableId).then((found) => {
    if (!found) return;
    render();
    watchRoom(tableId, () => Boolean(state.view && state.view.is_over));
  });
  placeSound();
  TWO_LINE_BAR.addEventListener("change", placeSound);
  $("join-button").addEventListener("click", join);
  $("join-name").addEventListener("keydown", (e) => {
    if (e.key === "Enter") join();
  });
  $("watch-button").addEventListener("click", () => {
    $("join-panel").hidden = true;
    connect(null);
  });
  $("copy-invite").addEventListener("click", copyInvite);
  mountRules(() => state.table, tableId);
  loadGames()
    .then((data) => {
      state.games = data.games || [];
      learnGames(state.games); // which module draws the game, its words: the declaration's
      applyLimits(data.limits);
      limitName($("join-name"), data.limits && data.limits.name); // characters people see, as the server counts
      if (data.limits && data.limits.waiting_minutes) state.waitingMinutes = data.limits.waiting_minutes;
      render();
    })
    .catch(() => {}); // titles fall back to the game's name; the server still checks every name
  $("leave-button").addEventListener("click", leaveTable);
  $("my-seat-button").addEventListener("click", toggleMySeat);
  $("renew-button").addEventListener("click", renewSeat);
  setInterval(renderClock, 1000);
  setInterval(renderOffline, 250); // the seconds to the next try count down
  // the device is online again, or the tab is in view again: try at once rather than wait
  window.addEventListener("online", () => state.conn && state.conn.nudge());
  document.addEventListener("visibilitychange", () => !document.hidden && state.conn && state.conn.nudge());
  window.addEventListener("pagehide", (e) => {
    if (!e.persisted && state.conn) state.conn.tabClosing(); // a closed tab counts as leaving
  });
  // A private table's invite link carries its secret after "#" (never sent to a server, never
  // in a Referer): kept here for joining and sharing, and taken out of the address bar.
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) {
    state.invite = invite;
    saveInvite(tableId, location.href);
    history.replaceState(null, "", location.pathname + location.search);
  } else {
    const saved = savedInvite(tableId);
    if (saved) state.invite = new URLSearchParams(new URL(saved).hash.slice(1)).get("invite");
  }
  const params = new URLSearchParams(location.search);
  if (params.get("refused")) {
    // The server refused the seat link this page was opened with (and kept nothing of it).
    const code = params.get("refused");
    showError(errorText(code, code), code);
    history.replaceState(null, "", location.pathname);
  }
  // A seat link ("My seat link", opened on another device) carries its token after "#", which
  // no server or proxy ever sees: traded for the seat's HttpOnly cookie, and out of the address.
  const link = new URLSearchParams(location.hash.slice(1));
  if (link.has("seat") && link.has("token")) {
    const body = { seat: Number.parseInt(link.get("seat"), 10), token: link.get("token") };
    history.replaceState(null, "", location.pathname + location.search);
    postJSON(`/api/tables/${encodeURIComponent(tableId)}/open-seat`, body)
      .catch((err) => showError(errorText(err.code, err.message), err.message))
      .finally(() => start(params.has("watch")));
    return;
  }
  start(params.has("watch"));
}

// "Tell me when it is my turn": offered at every table with a seat here, over days (where people
// leave the page) and timed alike (the service worker stays quiet while this page is in sight,
// so a push comes only when the tab is hidden or closed)
function offerPush(summary) {
  if (summary) mountPush($("push-button"), $("push-status"));
}

// Whether this browser holds a seat here: the server reads its cookie (`you` in the summary).
async function start(watch) {
  if (isOfflineTable(tableId)) {
    // this browser's own table, played in a Web Worker: the person's seat is the first (a
    // rematch keeps it: no server takes "?rematch=" out of the address here, so the page does)
    if (location.search) history.replaceState(null, "", location.pathname);
    connect({ seat: 0 });
    return;
  }
  let summary = null;
  try {
    summary = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch {
    showJoin();
    return;
  }
  if (summary.you !== null && summary.you !== undefined) {
    rememberSeat(tableId, summary.you);
    connect({ seat: summary.you });
    offerPush(summary);
  } else if (watch) {
    forgetSeat(tableId);
    connect(null);
  } else {
    forgetSeat(tableId);
    showJoin(summary);
  }
}

main();
