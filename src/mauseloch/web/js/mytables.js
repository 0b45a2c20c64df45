// The lobby's "My tables": every table this browser holds a seat at — waiting, running or
// finished, private ones included — each with its status and a way back, without accounts.
// The seat tokens stay in their HttpOnly cookies: the server reads them (GET /api/my-tables) and
// answers with the tables they open, so the page stores nothing and nobody else learns the list.

import { getJSON, h, loadGames } from "./api.js";
import { awayDate } from "./away.js";
import { onLangChange, seatLabel, t, tableTitle, tn } from "./i18n.js";

const REFRESH_MS = 30000;
const ENDED = ["over", "closed", "expired"];
let tables = [];
let titles = {};

function item(table) {
  const id = encodeURIComponent(table.id);
  const title = tableTitle(table, titles[table.game] || table.game);
  // a rematch or a match's next deal was dealt at a new table: this page follows the seat there
  const movedOn = table.status === "over" && Boolean(table.next);
  const status = movedOn ? t("mytables.movedOn") : t("lobby.status." + table.status);
  const seat = table.seats[table.you];
  const mine = yourTurn(table);
  const waits = away(table);
  const facts = [
    t("mytables.seat", { name: (seat && seat.name) || t("common.seat", { n: table.you + 1 }) }),
    t(table.public ? "mytables.public" : "mytables.private"),
  ];
  if (table.match) facts.push(t("match.heading", { deal: table.match.deal, deals: table.match.deals }));
  // over days the table waits while someone is away: who, and until when ("Anna ist weg bis Mi., 9. Dez.")
  const until = waits.map((s) => (s.seat === table.you ? t("mine.youAway", { date: awayDate(s.away) })
    : t("away.banner", { name: seatLabel(s, s.seat), date: awayDate(s.away) })));
  const actions = h("div", { class: "button-row" },
    h("a", { class: "btn" + (ENDED.includes(table.status) && !movedOn ? "" : " btn-primary"), href: `/t/${id}`, dataset: { focusKey: `${table.id}-back` } },
      t(table.status === "over" && !movedOn ? "mytables.result" : "mytables.back")));
  if (table.status === "over") actions.append(h("a", { class: "btn", href: `/replay/${id}` }, t("lobby.replay")));
  return h("li", { class: "table-item", dataset: { table: table.id, status: table.status } },
    h("div", { class: "table-head" }, h("strong", {}, title),
      h("span", { class: "status status-" + table.status + (mine ? " status-turn" : "") },
        mine ? t("mine.turnHere") : waits.length ? "⏸ " + t("away.waits") : status)),
    h("p", { class: "hint" }, facts.join(" · ")),
    waits.length ? h("p", { class: "hint table-away", dataset: { away: waits.map((s) => s.seat).join(" ") } }, until.join(" · ")) : "",
    actions);
}

/** The seats a running table waits for (away until `seat.away`): nobody moves there until they are back. */
const away = (table) => (table.status === "playing" ? table.seats.filter((s) => typeof s.away === "number") : []);
// a table that waits for someone away is nobody's turn, though its clock stands at one seat
const yourTurn = (table) => table.status === "playing" && table.to_move === table.you && away(table).length === 0;

function render(section) {
  // a table whose next deal (or rematch) is listed too is reached through that one
  const ids = new Set(tables.map((x) => x.id));
  const shown = tables.filter((x) => !(x.next && ids.has(x.next)));
  section.hidden = shown.length === 0;
  if (section.hidden) return;
  const active = document.activeElement;
  const focusKey = active && section.contains(active) ? active.dataset.focusKey : null;
  // "Du bist dran in 2 von 5": the running tables waiting for this browser's move, first
  const running = shown.filter((x) => x.status === "playing");
  const turns = running.filter(yourTurn).length;
  shown.sort((a, b) => Number(yourTurn(b)) - Number(yourTurn(a)));
  section.replaceChildren(
    h("h2", { id: "my-tables-heading" }, t("mytables.heading")),
    h("p", { class: "hint", id: "my-turns", hidden: turns === 0 }, tn("mine.yourTurn", turns, { of: running.length })),
    h("ul", { class: "table-list", id: "my-tables-list" }, shown.map(item)));
  section.setAttribute("aria-labelledby", "my-tables-heading");
  if (focusKey) {
    const again = section.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
}

async function load(section) {
  try {
    tables = (await getJSON("/api/my-tables")).tables || [];
  } catch {
    return; // the list stays as it was; the next look tries again
  }
  render(section);
}

/** Fill `section` with this browser's tables and keep it current. */
export function mountMyTables(section) {
  if (!section) return;
  loadGames()
    .then((data) => {
      titles = Object.fromEntries((data.games || []).map((g) => [g.name, g.title]));
      render(section);
    })
    .catch(() => {}); // titles fall back to the game's name
  onLangChange(() => render(section));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") load(section);
  });
  setInterval(() => {
    if (document.visibilityState === "visible") load(section);
  }, REFRESH_MS);
  load(section);
}
