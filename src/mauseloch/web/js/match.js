// Family match play at the web table and in the lobby's create form (server/family.py keeps the
// match; mauseloch.core.match has its arithmetic): the match line under the title, the standings
// between deals, following one's seat to the next deal (everyone moves one seat on, so the lead
// rotates), and the create form's match and deal-code fields. No rule of the game lives here.

import { h } from "./api.js";
import { declaredGame } from "./declared.js";
import { t, tn, tnames } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const DEAL_CHOICES = [1, 3, 5, 10];
const TARGET_CHOICES = [0, 50, 100, 200];

/** "Match: deal 2 of 3" and who leads (seat 0 always leads: MM-1), under the table's title. */
export function renderMatchLine(match, nameOf) {
  const line = $("match-line");
  if (!line) return;
  line.hidden = !match;
  if (!match) return;
  const heading = match.target ? "match.headingTarget" : "match.heading";
  line.textContent = `${t(heading, { deal: match.deal, deals: match.deals, target: match.target })} · ${t("match.leads", { name: nameOf(0) })}`;
}

/** The standings after a deal (or the final ones), for the end screen; ``nameOf(seat)`` names a
 * seat of this table as the rest of the page does. */
export function standingsBox(match, nameOf) {
  if (!match || !match.booked) return "";
  const rows = [...match.standings].sort((a, b) => a.rank - b.rank || a.player - b.player);
  const best = rows.filter((r) => r.rank === 1).map((r) => nameOf(r.seat));
  return h("section", { class: "match-box", id: "match-standings", "aria-labelledby": "match-standings-heading" },
    h("h3", { id: "match-standings-heading" }, t("match.standings", { deal: match.booked })),
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", { class: "num" }, t("table.rank")), h("th", {}, t("table.player")),
        h("th", { class: "num" }, t("match.deal")), h("th", { class: "num" }, t("match.total")))),
      h("tbody", {}, rows.map((r) => h("tr", {},
        h("td", { class: "num" }, String(r.rank)), h("td", {}, nameOf(r.seat)),
        h("td", { class: "num" }, String(r.last)), h("td", { class: "num" }, h("strong", {}, String(r.total))))))),
    h("p", { class: "hint" }, t("match.pointsNote")),
    h("p", { role: "status", id: "match-status" }, match.over ? tnames("match.over", best) : t("match.waitNext")));
}

/** The seat credentials at the table that follows this one: the match's next deal (everyone sits
 * one seat on), or a rematch: the same seat after a single game, and after a match the seat of its
 * first deal (the server's `player`), where the new match starts. `match` is the newest. */
export function followSeat(cred, table, match) {
  if (!cred || !table || !match) return cred;
  if (match.over) {
    const info = (table.seats || [])[cred.seat];
    return info && Number.isInteger(info.player) ? { ...cred, seat: info.player } : cred;
  }
  return { ...cred, seat: (cred.seat - 1 + table.players) % table.players };
}

// ---------------------------------------------------------------- the lobby's create form

/** Add the deal-code field and the match fields to the create form (before the clock field). */
export function mountCreateFields(before) {
  const deals = h("select", { id: "match-deals", name: "deals" },
    DEAL_CHOICES.map((n) => h("option", { value: String(n) }, n === 1 ? t("match.single") : tn("match.deals", n))));
  const target = h("select", { id: "match-target", name: "target" },
    TARGET_CHOICES.map((n) => h("option", { value: String(n) }, n === 0 ? t("match.targetNone") : String(n))));
  const box = h("div", { id: "match-fields" },
    h("p", { class: "field", id: "match-deals-field" },
      h("label", { for: "match-deals", "data-i18n": "match.label" }, t("match.label")), deals),
    h("p", { class: "field", id: "match-target-field", hidden: true },
      h("label", { for: "match-target", "data-i18n": "match.targetLabel" }, t("match.targetLabel")), target),
    h("p", { class: "field" },
      h("label", { for: "deal-code", "data-i18n": "rules.dealField" }, t("rules.dealField")),
      h("input", { id: "deal-code", type: "text", autocomplete: "off", spellcheck: "false", "aria-describedby": "deal-code-hint", maxlength: "40" }),
      h("span", { id: "deal-code-hint", class: "hint", "data-i18n": "rules.dealFieldHint" }, t("rules.dealFieldHint"))));
  deals.addEventListener("change", () => { $("match-target-field").hidden = deals.value === "1"; });
  before.before(box);
}

/** Whether `game` has match play (its declaration says its result carries card points). */
function hasMatches(game) {
  return Boolean((declaredGame(game) || {}).match);
}

/** Show the match fields only for games with match play. */
export function showCreateFields(game) {
  const field = $("match-deals-field");
  if (!field) return;
  const on = hasMatches(game);
  field.hidden = !on;
  $("match-target-field").hidden = !on || $("match-deals").value === "1";
}

/** What the create request carries for match play and a deal code. */
export function createExtras(game) {
  const extra = {};
  const code = $("deal-code") ? $("deal-code").value.trim() : "";
  if (code) extra.deal = code;
  if (hasMatches(game) && $("match-deals") && $("match-deals").value !== "1") {
    extra.deals = Number($("match-deals").value);
    extra.target = Number($("match-target").value);
  }
  return extra;
}
