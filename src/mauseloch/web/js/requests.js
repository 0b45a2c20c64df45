// Requests that wait for a person, as a banner at the top of the table on every screen, each with
// its button: a pause asked for (agree, or withdraw one's own), a paused table (go on), a rematch
// or the match's next deal someone is ready for, a person whose connection is gone (the table
// waits for them a while). The menu keeps the full controls; this banner is what nobody misses
// on a phone, where the menu is a closed drawer. Who asked and who is waited for come from the
// server's `live` (docs/protocol.md); nothing here decides anything.

import { overDays } from "./push.js";
import { h } from "./api.js";
import { listNames, t, tnames } from "./i18n.js";
import { pauseRequest } from "./pace.js";
import { awayRequests } from "./away.js";

/** The requests of this moment for this page: `{ kind, text, label, primary, act, id }`. */
export function requestsOf(ctx) {
  const { table, live, view, seat, conn, name } = ctx;
  if (!table || !live) return [];
  const seated = seat !== null && seat !== undefined && Boolean(conn);
  const out = [];
  const pause = pauseRequest(table, live, seat, conn);
  if (pause) out.push({ ...pause, id: "request-pause" });
  out.push(...awayRequests(table, live, seat, conn));
  const humans = (live.seats || []).map((s, i) => ({ s, i })).filter(({ i }) => table.seats[i] && table.seats[i].kind === "human");
  const over = Boolean(view && view.is_over) && !live.next;
  const votes = live.rematch || [];
  if (over && votes.length) {
    const match = live.match || table.match;
    const between = Boolean(match && !match.over);
    const voters = votes.map(name);
    const waiting = humans.filter(({ s, i }) => s.presence !== "gone" && !votes.includes(i)).map(({ i }) => name(i));
    const mine = votes.includes(seat);
    if (between) {
      out.push(mine || !seated
        ? { kind: "next-deal", text: tnames("end.nextDealWaiting", waiting), label: null }
        : { kind: "next-deal", text: tnames("req.nextDeal", voters), label: t("match.nextDeal"), primary: true, act: ctx.vote, id: "request-next-deal" });
    } else {
      out.push(mine || !seated
        ? { kind: "rematch", text: t("table.rematchWaiting", { names: listNames(waiting) }), label: null }
        : { kind: "rematch", text: tnames("req.rematch", voters), label: t("table.rematch"), primary: true, act: ctx.vote, id: "request-rematch" });
    }
  }
  if (view && !view.is_over && live.status === "playing" && !overDays(table.clock)) {
    // a person whose connection is gone and nobody plays for yet: the table waits for them a while
    // (over days a closed page is how people play: nobody is replaced for it, nothing to say)
    const away = humans.filter(({ s, i }) => s.presence === "away" && !s.stand_in && i !== seat).map(({ i }) => name(i));
    if (away.length) out.push({ kind: "away", text: tnames("req.away", away), label: null });
  }
  return out;
}

let shown = ""; // what the banner says now: redrawn only when that changes (a live region speaks once)
const acts = new WeakMap(); // a row's button -> what it does now (the row outlives its request's words)

/** The row of request `r`: the one `old` held for it (its button the same node, so that a
 * tap under way when someone else's vote changes the words still lands), else a new one. */
function rowFor(r, old) {
  const row = old || h("div", { class: "request", dataset: { kind: r.kind } }, h("p", { class: "request-text" }, ""));
  const text = row.querySelector(".request-text");
  if (text.textContent !== r.text) text.textContent = r.text;
  let button = row.querySelector("button");
  if (!r.label) {
    if (button) button.remove();
    return row;
  }
  if (!button || button.id !== r.id) {
    if (button) button.remove();
    button = h("button", { type: "button", class: "btn btn-small", id: r.id });
    button.addEventListener("click", () => {
      const act = acts.get(button);
      if (act) act();
    });
    row.append(button);
  }
  if (button.textContent !== r.label) button.textContent = r.label;
  button.classList.toggle("btn-primary", Boolean(r.primary));
  acts.set(button, r.act);
  return row;
}

/** Draw the requests into `box` (the banner); hidden when there are none. */
export function renderRequests(box, ctx) {
  const list = requestsOf(ctx);
  const key = JSON.stringify(list.map((r) => [r.kind, r.text, r.label]));
  box.hidden = list.length === 0;
  if (key === shown) return;
  shown = key;
  const old = new Map([...box.children].map((row) => [row.dataset.key, row]));
  const seen = {};
  const rows = list.map((r) => {
    seen[r.kind] = (seen[r.kind] || 0) + 1;
    const key = `${r.kind}:${seen[r.kind]}`; // the same kind twice: two people away
    const row = rowFor(r, old.get(key));
    row.dataset.key = key;
    return row;
  });
  for (const row of old.values()) if (!rows.includes(row)) row.remove();
  rows.forEach((row, i) => {
    if (box.children[i] !== row) box.insertBefore(row, box.children[i] || null);
  });
}
