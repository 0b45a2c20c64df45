// The lobby: create a table (game, options, seats), share its invite link, list tables, join or watch.

import { applyLimits, copyLink, getJSON, getJSONIfChanged, h, heldSeat, loadGames, postJSON, rememberSeat, saveInvite } from "./api.js";
import { learnGames } from "./declared.js";
import { followName, ladderEntry, ladderName } from "./ladderentry.js";
import { createExtras, mountCreateFields, showCreateFields } from "./match.js";
import { mountMyTables } from "./mytables.js";
import { mountOffline } from "./offline-lobby.js";
import { collectOptions, renderOptionFields, restoreOptions } from "./options.js";
import { botLevel, errorText, initI18n, limitName, mountLangSwitch, onLangChange, seatLabel, shortName, t, tableTitle } from "./i18n.js";

const state = { games: [], bots: {}, online: [], clocks: {}, tables: [], page: 0, more: false, etag: null };
// What a family sees first: the first game the server lists, with the bot that plays like a person.
const $ = (id) => document.getElementById(id);

function playerName() {
  return $("player-name").value.trim();
}

function gameInfo(name) {
  return state.games.find((g) => g.name === name);
}

function gameTitle(name) {
  const g = gameInfo(name);
  return g ? g.title : name;
}

function renderOptions() {
  const game = gameInfo($("game-select").value);
  renderOptionFields(game, $("options"), $("options-more"));
  if (!game) return;
  $("game-description").textContent = t("game." + game.name) === "game." + game.name ? game.description : t("game." + game.name);
  $("options-box").hidden = !game.options.some((opt) => opt.house_rule !== false);
  renderSeatCount();
  renderClocks();
}

// The turn clocks the server offers for this game (seconds per move), its default chosen.
function renderClocks() {
  const sel = $("clock-select");
  const clocks = state.clocks[$("game-select").value];
  sel.replaceChildren();
  if (!clocks) return;
  // A game may word its clock itself (<words>.clock.*, <words>.clockHint: in a reaction game the
  // clock is the countdown before each card); else the lobby's words for a turn clock.
  const game = gameInfo($("game-select").value);
  const own = game && game.words ? `${game.words}.clock` : null;
  const base = own && t(`${own}.normal`) !== `${own}.normal` ? own : "lobby.clock";
  for (const [name, seconds] of Object.entries(clocks.choices)) {
    const label = seconds === null ? t(`${base}.off`) : t(`${base}.${name}`, { s: seconds });
    sel.append(h("option", { value: name }, label));
  }
  sel.value = clocks.default;
  $("clock-hint").textContent = t(`${base}Hint`);
}

function renderSeatCount() {
  const game = gameInfo($("game-select").value);
  const sel = $("seat-count");
  const previous = Number(sel.value) || 0;
  sel.replaceChildren();
  if (!game) return;
  for (let n = game.min_players; n <= game.max_players; n++) sel.append(h("option", { value: n }, String(n)));
  const wanted = previous >= game.min_players && previous <= game.max_players ? previous : Math.min(game.max_players, Math.max(game.min_players, 3));
  sel.value = String(wanted);
  renderSeats();
}

function renderSeats() {
  const game = $("game-select").value;
  const n = Number($("seat-count").value);
  const list = $("seats");
  const before = [...list.querySelectorAll("select")].map((s) => s.value);
  list.replaceChildren();
  const bots = state.bots[game] || [];
  const preferred = bots.includes("heuristic") ? "heuristic" : bots[0];
  for (let i = 0; i < n; i++) {
    const label = t("lobby.seatKind", { n: i + 1 });
    if (i === 0) {
      list.append(h("li", { class: "seat-row" }, h("span", { class: "seat-label" }, label), h("span", { class: "seat-you" }, t("lobby.seatYou"))));
      continue;
    }
    const id = "seat-" + i;
    const sel = h("select", { id, name: id });
    for (const b of bots) sel.append(h("option", { value: "bot:" + b }, t("lobby.botKind", { bot: botLevel(b) })));
    sel.append(h("option", { value: "human" }, t("lobby.human")));
    for (const b of state.online) sel.append(h("option", { value: "online:" + b }, t("lobby.seatOnlineBot", { name: b }))); // Bot API
    sel.value = before[i - 1] && [...sel.options].some((o) => o.value === before[i - 1]) ? before[i - 1] : preferred ? "bot:" + preferred : "human";
    list.append(h("li", { class: "seat-row" }, h("label", { for: id, class: "seat-label" }, label), sel));
  }
}

function showError(el, message) {
  el.textContent = message;
  el.hidden = !message;
}

/** A refused request in the page's language; the server's (English) message only when the page has
    no words for its code, never as a tooltip over the page's own words. */
function showFailure(el, err) {
  showError(el, errorText(err.code, err.message));
}

/** A rated table asks for the creator's ladder name, and takes no deal code (it is dealt at random). */
function showRated() {
  const on = $("rated-table").checked;
  $("rated-name-field").hidden = !on;
  if (on) $("rated-name").value = ladderName($("rated-name"), $("player-name"));
  if ($("deal-code")) $("deal-code").disabled = on;
}

async function createTable(event) {
  event.preventDefault();
  const name = playerName();
  if (!name) {
    showError($("create-error"), t("lobby.needName"));
    $("player-name").focus();
    return;
  }
  showError($("create-error"), "");
  const n = Number($("seat-count").value);
  const seats = [{ kind: "human" }];
  for (let i = 1; i < n; i++) {
    const v = $("seat-" + i).value;
    seats.push(v === "human" ? { kind: "human" } : v.startsWith("online:") ? { kind: "online-bot", name: v.slice(7) } : { kind: "bot", bot: v.slice(4) });
  }
  const rated = $("rated-table").checked; // counts for the ladder (/ladder): asks for the ladder name here
  const ladder = rated ? ladderName($("rated-name"), $("player-name")) : "";
  if (rated && !ladder) {
    showError($("create-error"), t("ladder.needName"));
    $("rated-name").focus();
    return;
  }
  $("create-button").disabled = true;
  try {
    const body = { game: $("game-select").value, options: collectOptions($("options"), $("options-more")), seats, name, public: $("public-table").checked, ...createExtras($("game-select").value) };
    if ($("clock-select").value) body.clock = $("clock-select").value;
    if (rated) {
      body.rated = true;
      body.ladder = ladderEntry(ladder);
      delete body.deal; // a rated table is dealt at random
    }
    const res = await postJSON("/api/tables", body);
    rememberSeat(res.table, res.seat);
    const invite = new URL(res.invite, location.origin).href;
    saveInvite(res.table, invite);
    $("invite-link").value = invite;
    $("go-table").href = `/t/${encodeURIComponent(res.table)}`; // the seat's cookie came with the answer
    $("share-invite").hidden = !navigator.share;
    $("created").hidden = false;
    $("created").focus();
    loadTables();
  } catch (err) {
    showFailure($("create-error"), err);
  } finally {
    $("create-button").disabled = false;
  }
}

function copyInvite() {
  return copyLink($("invite-link"), $("copy-status"), t("lobby.copied"));
}

async function joinTable(id) {
  const name = playerName();
  if (!name) {
    showError($("join-error"), t("lobby.needName"));
    $("player-name").focus();
    return;
  }
  showError($("join-error"), "");
  try {
    const res = await postJSON(`/api/tables/${encodeURIComponent(id)}/join`, { name });
    rememberSeat(res.table, res.seat);
    location.href = `/t/${encodeURIComponent(res.table)}`; // the seat's cookie came with the answer
  } catch (err) {
    showFailure($("join-error"), err);
  }
}

function renderTables() {
  const list = $("tables");
  const active = document.activeElement;
  const focusKey = active && list.contains(active) ? active.dataset.focusKey : null;
  list.replaceChildren();
  if (!state.tables.length) {
    list.append(h("li", { class: "empty" }, t("lobby.none")));
    return;
  }
  for (const table of state.tables) {
    const status = t("lobby.status." + table.status);
    const seats = table.seats.map((s) =>
      h("li", { class: "seat-chip" + (s.taken ? "" : " free"), title: s.kind !== "human" || s.taken ? seatLabel(s, s.seat) : null },
        s.kind !== "human" || s.taken ? shortName(seatLabel(s, s.seat)) : t("lobby.free")),
    );
    const free = table.status === "waiting" && table.seats.some((s) => s.kind === "human" && !s.taken);
    const mine = heldSeat(table.id) !== null; // this browser holds a seat here: never "Join" again
    const actions = h("div", { class: "button-row" });
    const key = (what) => ({ focusKey: `${table.id}-${what}` });
    if (mine && table.status !== "over" && table.status !== "closed" && table.status !== "expired") {
      actions.append(h("a", { class: "btn btn-primary", dataset: key("mine"), href: `/t/${encodeURIComponent(table.id)}` }, t("lobby.yourSeat")));
    } else if (free) actions.append(h("button", { type: "button", class: "btn btn-primary", dataset: key("join"), onclick: () => joinTable(table.id) }, t("lobby.join")));
    if (table.status !== "over") actions.append(h("a", { class: "btn", dataset: key("watch"), href: `/t/${encodeURIComponent(table.id)}?watch=1` }, t("lobby.watch")));
    else actions.append(h("a", { class: "btn", dataset: key("replay"), href: `/replay/${encodeURIComponent(table.id)}` }, t("lobby.replay")));
    list.append(
      h("li", { class: "table-item", "aria-label": t("lobby.tableAria", { game: gameTitle(table.game), id: table.id, status }) },
        h("div", { class: "table-head" }, h("strong", {}, tableTitle(table, gameTitle(table.game))), h("span", { class: "status status-" + table.status }, status)),
        h("ul", { class: "seat-chips" }, seats),
        actions),
    );
  }
  if (focusKey) {
    const again = list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
}

// The list changes rarely: ask with the ETag of the last answer, and an unchanged list costs an
// empty 304. One small page at a time, newest first.
async function loadTables() {
  try {
    const answer = await getJSONIfChanged(`/api/tables?page=${state.page}`, state.etag);
    if (answer === null && $("tables").childElementCount) return;
    if (answer !== null) {
      state.etag = answer.etag;
      state.tables = answer.data.tables || [];
      state.more = Boolean(answer.data.more);
    }
    $("tables-newer").hidden = state.page === 0;
    $("tables-older").hidden = !state.more;
    renderTables();
  } catch (err) {
    showFailure($("join-error"), err);
  }
}

function turnPage(step) {
  state.page = Math.max(0, state.page + step);
  state.etag = null;
  loadTables();
}

async function main() {
  initI18n();
  mountLangSwitch($("lang-switch"));
  mountMyTables($("my-tables")); // the tables this browser holds a seat at (mytables.js)
  mountOffline($("offline-panel")); // playing offline: fetched only when asked (offline-lobby.js)
  const nameInput = $("player-name");
  try {
    nameInput.value = localStorage.getItem("ml_name") || "";
  } catch {
    /* no storage */
  }
  nameInput.addEventListener("input", () => {
    try {
      localStorage.setItem("ml_name", nameInput.value.trim());
    } catch {
      /* no storage */
    }
  });
  const data = await loadGames();
  applyLimits(data.limits);
  limitName(nameInput, data.limits && data.limits.name); // in characters people see, not UTF-16 units
  state.games = data.games || [];
  learnGames(state.games); // match play and the words of each game: the declaration's
  state.bots = data.bots || {};
  state.clocks = data.clocks || {};
  state.online = await getJSON("/api/bots/online").then((r) => r.bots, () => []); // bots a seat may challenge
  const sel = $("game-select");
  for (const g of state.games) sel.append(h("option", { value: g.name }, g.title)); // the server's order: the first is chosen
  sel.addEventListener("change", renderOptions);
  mountCreateFields($("clock-select").parentElement);
  // a deal code replays a known deal: a tool for those who study the games, with the engine's settings
  const dealField = $("deal-code") && $("deal-code").closest(".field");
  if (dealField) $("options-more").after(dealField);
  showCreateFields(sel.value);
  sel.addEventListener("change", () => showCreateFields(sel.value));
  $("seat-count").addEventListener("change", renderSeats);
  $("rated-table").addEventListener("change", showRated);
  followName($("rated-name"), $("player-name")); // the ladder name is the player's own until typed
  $("create-form").addEventListener("submit", createTable);
  $("copy-invite").addEventListener("click", copyInvite);
  $("share-invite").addEventListener("click", () => navigator.share({ url: $("invite-link").value, title: "Mauseloch" }).catch(() => {}));
  $("refresh-tables").addEventListener("click", loadTables);
  $("tables-newer").addEventListener("click", () => turnPage(-1));
  $("tables-older").addEventListener("click", () => turnPage(1));
  onLangChange(() => {
    const values = collectOptions($("options"), $("options-more"));
    renderOptions();
    restoreOptions(values);
    renderTables();
  });
  renderOptions();
  loadTables();
  setInterval(loadTables, 5000);
}

main();
