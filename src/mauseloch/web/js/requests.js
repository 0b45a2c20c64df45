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

/** Draw the requests into `box` (the banner); hidden when there are none. */
export function renderRequests(box, ctx) {
  const list = requestsOf(ctx);
  const key = JSON.stringify(list.map((r) => [r.kind, r.text, r.label]));
  box.hidden = list.length === 0;
  if (key === shown) return;
  shown = key;
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
  box.replaceChildren(...list.map((r) => {
    const row = h("div", { class: "request", dataset: { kind: r.kind } }, h("p", { class: "request-text" }, r.text));
    if (r.label) {
      const button = h("button", { type: "button", class: "btn btn-small" + (r.primary ? " btn-primary" : ""), id: r.id }, r.label);
      button.addEventListener("click", () => r.act && r.act());
      row.append(button);
    }
    return row;
  }));
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
}
