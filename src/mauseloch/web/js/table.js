// The table page: seat handling, the WebSocket, the event log, announcements, the end screen.
// Drawing the board is left to one module per game; no game rule lives here or there.

import { applyLimits, clearCredentials, copyLink, getJSON, h, loadCredentials, loadGames, postJSON, saveCredentials } from "./api.js";
import { TableConnection } from "./conn.js";
import { announcement, eventText } from "./events.js";
import { errorText, getLang, initI18n, mountLangSwitch, onLangChange, seatLabel, t, tableTitle } from "./i18n.js";
import * as ausdiemaus from "./ausdiemaus.js";
import * as maumau from "./maumau.js";

const RENDERERS = { "mau-mau": maumau, "aus-die-maus": ausdiemaus };
const LOG_LIMIT = 200;

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
  retryIn: 0,
  announceTimer: null,
  games: [],
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

function sendMove(move) {
  if (state.pending || !state.conn) return;
  hideError();
  if (state.conn.move(move)) {
    state.pending = true;
    render();
  }
}

function showError(text, detail) {
  const box = $("error-box");
  box.textContent = text;
  box.title = detail && detail !== text ? detail : ""; // the server's own words, for those who look
  box.hidden = false;
}

/** A refused HTTP request in the page's language (the server's message when the code is new). */
function showFailure(el, err) {
  el.textContent = errorText(err.code, err.message);
  el.title = err.message;
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
    clearCredentials(tableId);
    history.replaceState(null, "", location.pathname);
    showJoin();
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

function renderLog() {
  const list = $("log");
  list.replaceChildren();
  // Nothing has happened for people before the game starts (the deal waits for every seat).
  $("log-panel").hidden = Boolean(state.table && state.table.status === "waiting");
  const game = gameName();
  const recent = state.events.slice(-LOG_LIMIT);
  for (let i = recent.length - 1; i >= 0; i--) {
    const ev = recent[i];
    list.append(h("li", { class: "ev ev-" + ev.type }, eventText(ev, seatName, game)));
  }
}

// ---------------------------------------------------------------- drawing

function renderStatus() {
  const el = $("conn-status");
  el.dataset.state = state.status;
  if (state.status === "connected") el.textContent = state.seat === null ? t("table.spectator") : t("table.connected");
  else if (state.status === "reconnecting") el.textContent = t("table.reconnecting", { s: state.retryIn });
  else if (state.status === "idle") el.textContent = "";
  else if (state.status === "gone") el.textContent = t("table.gone");
  else el.textContent = t("table.connecting");
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
  if (view.to_move === null || view.to_move === undefined) {
    banner.textContent = "";
  } else if (view.to_move === state.seat) {
    banner.textContent = "▶ " + t("table.yourTurn");
    banner.classList.add("mine");
  } else {
    banner.textContent = t("table.waitFor", { name: seatName(view.to_move) });
  }
}

function renderEnd() {
  const box = $("end-screen");
  const view = state.view;
  if (!view || !view.is_over || !view.result) {
    box.hidden = true;
    box.dataset.shown = "";
    return;
  }
  const renderer = RENDERERS[view.game];
  box.replaceChildren(
    h("h2", {}, t("table.gameOver")),
    renderer.endTable(view, seatName),
    h("p", { class: "button-row" },
      h("a", { class: "btn btn-primary", href: `/replay/${encodeURIComponent(tableId)}` }, t("table.toReplay")),
      h("a", { class: "btn", href: "/" }, t("table.toLobby"))),
  );
  const first = box.hidden;
  box.hidden = false;
  if (first && box.dataset.shown !== "1") {
    box.dataset.shown = "1";
    box.focus();
  }
}

/** Who sits at the table while it waits: names, and the seats still free. */
function waitingBoard() {
  const seats = (state.table && state.table.seats) || [];
  return h("section", { class: "waiting-board", "aria-label": t("table.waitingShort") },
    h("ul", { class: "seat-chips" }, seats.map((s, i) =>
      h("li", { class: "seat-chip" + (s.kind === "human" && !s.taken ? " free" : "") },
        s.kind === "human" && !s.taken ? t("lobby.free") : seatName(i)))));
}

function renderWaiting() {
  const waiting = state.table && state.table.status === "waiting";
  $("waiting").hidden = !waiting;
  if (waiting) $("invite-link").value = new URL(`/t/${encodeURIComponent(tableId)}`, location.origin).href;
}

function render() {
  renderStatus();
  if (state.table) {
    const info = state.games.find((g) => g.name === state.table.game);
    const title = tableTitle(state.table, info && info.title);
    $("table-title").textContent = title;
    $("table-title").title = title;
    document.title = `${title || gameName()} — Mauseloch`;
  }
  renderWaiting();
  renderTurn();
  const board = $("board");
  const view = state.view;
  if (!view) {
    board.replaceChildren();
    return;
  }
  const renderer = RENDERERS[view.game];
  if (!renderer) {
    board.replaceChildren(h("p", {}, view.game));
    return;
  }
  // Where the page stands, for people using developer tools and for the browser tests.
  board.dataset.version = String(state.conn ? state.conn.version : "");
  board.dataset.toMove = view.to_move === null || view.to_move === undefined ? "" : String(view.to_move);
  board.dataset.over = view.is_over ? "1" : "0";
  board.dataset.pending = state.pending ? "1" : "0";
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
    canAct: !state.pending && !waiting && state.status === "connected",
    move: sendMove,
    wishDialog: $("wish-dialog"),
  });
  if (focusKey !== null) {
    const again = focusKey ? board.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) : null;
    const fallback = board.querySelector("[data-primary]") || board.querySelector(".card.legal");
    const target = again || fallback || board;
    if (target !== document.activeElement) target.focus({ preventScroll: target === board });
  }
  renderEnd();
}

// ---------------------------------------------------------------- the connection

function onSnapshot(msg) {
  state.seat = msg.seat;
  state.view = msg.view;
  state.table = msg.table;
  state.events = msg.events || [];
  state.pending = false;
  $("join-panel").hidden = true;
  render();
  renderLog();
}

function onUpdate(msg) {
  state.view = msg.view;
  state.pending = false;
  const events = msg.events || [];
  state.events.push(...events);
  if (state.events.length > LOG_LIMIT * 2) state.events = state.events.slice(-LOG_LIMIT);
  if (state.table && state.view && state.view.is_over) state.table.status = "over";
  render();
  renderLog();
  announceEvents(events);
}

function onStatus(status, retryIn) {
  state.status = status;
  state.retryIn = retryIn || 0;
  render();
}

function connect(cred) {
  if (state.conn) state.conn.close();
  state.seat = cred ? cred.seat : null;
  state.conn = new TableConnection({
    tableId,
    seat: cred ? cred.seat : null,
    token: cred ? cred.token : null,
    onSnapshot,
    onUpdate,
    onError,
    onStatus,
  });
  state.conn.open();
}

// ---------------------------------------------------------------- joining

async function showJoin() {
  state.status = "idle";
  renderStatus();
  $("join-panel").hidden = false;
  try {
    $("join-name").value = localStorage.getItem("ml_name") || "";
  } catch (e) {
    /* no storage */
  }
  try {
    const summary = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
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
  } catch (e) {
    /* no storage */
  }
  try {
    const res = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/join`, { name });
    const cred = { seat: res.seat, token: res.token };
    saveCredentials(tableId, cred);
    history.replaceState(null, "", res.url);
    $("join-panel").hidden = true;
    connect(cred);
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
  });
  $("join-button").addEventListener("click", join);
  $("join-name").addEventListener("keydown", (e) => {
    if (e.key === "Enter") join();
  });
  $("watch-button").addEventListener("click", () => {
    $("join-panel").hidden = true;
    connect(null);
  });
  $("copy-invite").addEventListener("click", copyInvite);
  loadGames()
    .then((data) => {
      state.games = data.games || [];
      applyLimits(data.limits);
      render();
    })
    .catch(() => {}); // titles fall back to the game's name; the server still checks every name
  const params = new URLSearchParams(location.search);
  const cred = loadCredentials(tableId);
  if (cred) connect(cred);
  else if (params.has("watch")) connect(null);
  else showJoin();
}

main();
