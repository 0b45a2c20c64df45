// The ladder page: per game and player count, every rated entry (bots and people with a ladder
// name) with its rating, games, a small plot of its rating history and its strongest opponents.
// The ratings come from the server (GET /api/ladder); the page only shows them.

import { getJSON, h, loadGames } from "./api.js";
import { botLevel, initI18n, mountLangSwitch, onLangChange, t, tn } from "./i18n.js";

const gameSelect = document.getElementById("ladder-game");
const playersSelect = document.getElementById("ladder-players");
const rows = document.getElementById("ladder-rows");
const caption = document.getElementById("ladder-caption");
const empty = document.getElementById("ladder-empty");
const form = document.getElementById("ladder-form");
const table = document.getElementById("ladder-table");
const titles = {};
let ladders = [];
let shown = null;

function kindLabel(kind) {
  return t("ladder.kind." + kind);
}

/** An entry's name as people know it: a built-in bot by its level in the page's language, as the
    tables name it ("Heuristik-Bot"), never the server's id of its kind. */
function shownName(entry) {
  return entry.kind === "anchor" ? t("ladder.anchorName", { level: botLevel(entry.name) }) : entry.name;
}

function plot(history, name) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "ladder-plot");
  svg.setAttribute("viewBox", "0 0 100 30");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  const values = history.map((p) => p.rating);
  const first = values.length ? values[0] : 0;
  const last = values.length ? values[values.length - 1] : 0;
  svg.setAttribute("aria-label", tn("ladder.plotLabel", values.length, { name, from: first.toFixed(1), to: last.toFixed(1) }));
  if (values.length) {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const span = hi - lo || 1;
    const step = values.length > 1 ? 100 / (values.length - 1) : 0;
    const points = values.map((v, i) => `${(i * step).toFixed(1)},${(28 - ((v - lo) / span) * 26).toFixed(1)}`);
    if (values.length === 1) points.push(`100,${points[0].split(",")[1]}`);
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("points", points.join(" "));
    svg.append(line);
  }
  return svg;
}

function render() {
  rows.replaceChildren();
  if (!shown) return;
  caption.textContent = t("ladder.caption", { game: titles[shown.game] || shown.game, n: shown.players });
  empty.hidden = shown.entries.length > 0;
  shown.entries.forEach((e, i) => {
    const opponents = h("ul", { class: "ladder-opponents" },
      ...e.opponents.map((o) => h("li", {}, `${shownName(o)} (${kindLabel(o.kind)}, ${o.rating.toFixed(1)})`)));
    rows.append(h("tr", { dataset: { entry: e.id } },
      h("td", { class: "num" }, String(i + 1)),
      h("th", { scope: "row" }, shownName(e), h("span", { class: "ladder-kind" }, kindLabel(e.kind))),
      h("td", { class: "num" }, e.rating.toFixed(1)),
      h("td", { class: "num" }, String(e.games)),
      h("td", {}, plot(e.history, shownName(e))),
      h("td", {}, opponents)));
  });
}

async function show() {
  const game = gameSelect.value;
  const players = playersSelect.value;
  if (!game || !players) {
    shown = null;
    empty.hidden = false;
    table.hidden = true; // no ladder yet: the note alone, not an empty table's head
    caption.textContent = t("ladder.heading");
    return;
  }
  shown = await getJSON(`/api/ladder?game=${encodeURIComponent(game)}&players=${encodeURIComponent(players)}`);
  table.hidden = false;
  render();
}

function fillPlayers() {
  const found = ladders.find((l) => l.game === gameSelect.value);
  playersSelect.replaceChildren(...(found ? found.players : []).map((n) => h("option", { value: String(n) }, String(n))));
}

async function start() {
  initI18n();
  mountLangSwitch(document.getElementById("lang-switch"));
  const games = await loadGames();
  for (const g of games.games) titles[g.name] = g.title || g.name;
  ladders = (await getJSON("/api/ladder")).ladders;
  const params = new URLSearchParams(location.search);
  gameSelect.replaceChildren(...ladders.map((l) => h("option", { value: l.game }, titles[l.game] || l.game)));
  form.hidden = ladders.length === 0; // nothing to choose before the first rated game
  if (params.get("game")) gameSelect.value = params.get("game");
  fillPlayers();
  if (params.get("players")) playersSelect.value = params.get("players");
  gameSelect.addEventListener("change", () => { fillPlayers(); show(); });
  playersSelect.addEventListener("change", show);
  onLangChange(render);
  await show();
  document.body.dataset.ready = "1";
}

start();
