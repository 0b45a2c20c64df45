// The lobby's "Play offline" panel: fetch the offline bundle when the player asks (offline.js),
// start an offline table against the game's bots, list the offline games this browser keeps, and
// send the finished ones to the server when the network is back.

import { h, loadGames } from "./api.js";
import { onLangChange, t, tn } from "./i18n.js";
import { newOfflineGame, offlineGames, offlineReady, prepareOffline, sendGames } from "./offline.js";
import { collectOptions, renderOptionFields, restoreOptions } from "./options.js";

const MB = 1e6;
let games = [];
let kept = [];
let ready = false;

const $ = (id) => document.getElementById(id);
const OPT = "offline-opt-"; // the ids of the house rules' fields (the create form's are "opt-…")

function say(text) {
  $("offline-status").textContent = text;
}

// The house rules the game's declaration offers, as the create form draws them (options.js); the
// engine's settings for tests stay with the create form.
function houseRules() {
  const game = games.find((g) => g.name === $("offline-game").value);
  const values = collectOptions($("offline-options"));
  renderOptionFields(game, $("offline-options"), null, OPT);
  restoreOptions(values, OPT); // the same game drawn again (another language) keeps what was chosen
  $("offline-options-box").hidden = !$("offline-options").childElementCount;
}

function gameChosen() {
  $("offline-options").replaceChildren(); // another game: its own rules, at their defaults
  houseRules();
  playerChoices();
}

function playerChoices() {
  const game = games.find((g) => g.name === $("offline-game").value);
  const select = $("offline-players");
  const before = select.value;
  select.replaceChildren();
  if (!game) return;
  for (let n = Math.max(2, game.min_players); n <= game.max_players; n++) select.append(h("option", { value: String(n) }, String(n)));
  select.value = [...select.options].some((o) => o.value === before) ? before : String(Math.min(3, game.max_players));
}

function renderGames() {
  const box = $("offline-games");
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const items = [...kept].sort((a, b) => (b.created || 0) - (a.created || 0));
  box.hidden = items.length === 0;
  const unsent = items.filter((g) => g.record && !g.sent).length;
  box.replaceChildren(
    h("h3", {}, t("offline.games")),
    h("ul", { class: "table-list", id: "offline-list" }, items.map((g) => {
      const over = g.status === "over";
      const state = g.sent ? t("offline.sent") : t(over ? "offline.finished" : "offline.playing");
      const actions = h("div", { class: "button-row" },
        h("a", { class: "btn" + (over ? "" : " btn-primary"), href: `/t/${encodeURIComponent(g.id)}` }, t(over ? "mytables.result" : "offline.continue")));
      if (g.sent) actions.append(h("a", { class: "btn", href: `/replay/${encodeURIComponent(g.sent)}` }, t("lobby.replay")));
      return h("li", { class: "table-item", dataset: { offline: g.id, status: g.status || "playing" } },
        h("div", { class: "table-head" }, h("strong", {}, titles[g.game] || g.game), h("span", { class: "status" }, state)),
        actions);
    })),
    unsent ? h("p", { class: "button-row" }, h("button", { type: "button", class: "btn", id: "offline-send", onclick: send }, t("offline.send"))) : "",
  );
}

function render() {
  $("offline-hint").textContent = t("offline.hint");
  $("offline-button").hidden = ready;
  $("offline-form").hidden = !ready;
  const select = $("offline-game");
  const chosen = select.value;
  select.replaceChildren(...games.map((g) => h("option", { value: g.name }, g.title || g.name)));
  if (chosen) select.value = chosen;
  houseRules();
  playerChoices();
  renderGames();
}

async function refresh() {
  try {
    kept = await offlineGames();
  } catch {
    kept = [];
  }
  render();
}

async function fetchBundle() {
  $("offline-button").disabled = true;
  try {
    await prepareOffline(
      (done, total) => say(t("offline.fetching", { done: (done / MB).toFixed(1), total: (total / MB).toFixed(1) })),
      () => say(t("offline.preparing")),
    );
    ready = true;
    say(t("offline.ready"));
    render();
    $("offline-game").focus();
  } catch {
    say(t("serviceWorker" in navigator ? "offline.failed" : "offline.unavailable"));
  } finally {
    $("offline-button").disabled = false;
  }
}

async function start(e) {
  e.preventDefault();
  let name = "";
  try {
    name = localStorage.getItem("ml_name") || "";
  } catch {
    /* no storage */
  }
  // no name: none is stored, and the table says "Seat 1" in the language it is shown in, as it
  // does for any seat without a name
  const id = await newOfflineGame({
    game: $("offline-game").value, players: Number($("offline-players").value), name, options: collectOptions($("offline-options")),
  });
  location.href = `/t/${encodeURIComponent(id)}`;
}

async function send() {
  const button = $("offline-send");
  if (button) button.disabled = true;
  say(t("offline.sending"));
  const n = await sendGames().catch(() => 0);
  say(n ? tn("offline.sentCount", n) : t("offline.nothingToSend"));
  await refresh();
}

/** The offline panel in `section` (lobby.html #offline-panel). */
export async function mountOffline(section) {
  if (!section) return;
  $("offline-button").addEventListener("click", fetchBundle);
  $("offline-game").addEventListener("change", gameChosen);
  $("offline-form").addEventListener("submit", start);
  onLangChange(render);
  try {
    games = (await loadGames()).games || [];
  } catch {
    games = [];
  }
  ready = await offlineReady().catch(() => false);
  await refresh();
}
