// Away days at a table over days: a person may mark themself away for up to 14 days a table
// and calendar month, and the whole table waits (every clock stands still) until they are back.
// The server keeps the days and decides (table/step.py `_away`); this page shows `live.seats[i]`'s
// `away` (until when) and `away_days` (left this month), offers the days in the menu and tells
// the others on the board. docs/web.md "Over days and Web Push".

import { h } from "./api.js";
import { getLang, seatLabel, t, tn } from "./i18n.js";
import { overDays } from "./push.js";

let connection = null;

/** "Mi., 9. Dez." / "Wed 9 Dec": the day someone is back, in the reader's language. */
export function awayDate(epoch) {
  const lang = getLang() === "de" ? "de-DE" : "en-GB";
  return new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short" }).format(new Date(epoch * 1000));
}

/** Whether anyone is away: the table takes no move then (the server refuses them). */
export function someoneAway(live) {
  return Boolean(live && (live.seats || []).some((s) => s.away !== null && s.away !== undefined));
}

/** The board's requests for the people away: the others see until when; the one away may come
 * back early. `[{ kind, text, label, primary, act, id }]`. */
export function awayRequests(table, live, seat, conn) {
  if (!table || !live || live.status !== "playing") return [];
  const out = [];
  (live.seats || []).forEach((s, i) => {
    if (s.away === null || s.away === undefined) return;
    const date = awayDate(s.away);
    if (i === seat && conn) {
      out.push({ kind: "away-me", text: t("away.you", { date }), label: t("away.back"), primary: true, act: () => conn.send({ type: "away", days: 0 }), id: "away-back" });
    } else {
      out.push({ kind: "away-days", text: t("away.banner", { name: seatLabel(table.seats[i], i), date }), label: null });
    }
  });
  return out;
}

function build(row) {
  const days = h("input", { id: "away-days", type: "number", min: "1", max: "14", value: "3", inputmode: "numeric" });
  row.append(
    h("label", { for: "away-days", id: "away-label" }),
    " ",
    days,
    " ",
    h("button", { type: "button", class: "btn btn-small", id: "away-button", "aria-describedby": "away-hint",
      onclick: () => { if (connection) connection.send({ type: "away", days: Number(days.value) || 1 }); } }),
    h("span", { id: "away-hint", class: "hint" }));
}

/** The menu's row at a table over days: how many days away, "I am away", the days still left. */
export function renderAway(table, live, seat, conn) {
  const row = document.getElementById("away-row");
  if (!row) return;
  connection = conn;
  const me = live && seat !== null && seat !== undefined && (live.seats || [])[seat];
  row.hidden = !(table && overDays(table.clock) && me && conn && live.status === "playing" && (me.away === null || me.away === undefined));
  if (row.hidden) return;
  if (!row.firstChild) build(row);
  const left = me.away_days || 0;
  const input = document.getElementById("away-days");
  input.max = String(Math.max(1, left));
  if (Number(input.value) > left) input.value = String(Math.max(1, left));
  document.getElementById("away-label").textContent = t("away.days");
  const button = document.getElementById("away-button");
  button.textContent = t("away.go");
  button.disabled = left < 1;
  document.getElementById("away-hint").textContent = tn("away.left", left, { n: left }) + " " + t("away.hint");
}
