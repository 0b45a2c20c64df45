// The rules at hand at every table: a "Rules" button opening a dialog with this table's house
// rules first, told in sentences, then the game's rules written for players (rules_pages, served
// as HTML by /api/rules/<game>, with small pictures of the cards drawn by cards.js) and the deal
// code; and the house rules in one line under the title, always visible.
// The house rules are the table's options in the lobby's words (opt.* in the catalogue); what each
// means at this table is rulesHouse.* — the rule ids and engine words stay in docs/rules.

import { getJSON, h } from "./api.js";
import { cardSVG } from "./cards.js";
import { engineOption } from "./declared.js";
import { getLang, pluralForm, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** The table's house rules: its options in the game's order, without the engine's settings. */
function houseOptions(table) {
  if (!table || !table.options) return [];
  return Object.entries(table.options).filter(([name]) => !engineOption(table.game, name));
}

/** "Ace skips: yes" etc. for every house rule of the table. */
export function houseRules(table) {
  return houseOptions(table).map(([name, value]) => {
    const key = "opt." + name;
    const label = t(key) === key ? name.replace(/_/g, " ") : t(key);
    const shown = typeof value === "boolean" ? t(value ? "common.yes" : "common.no") : String(value);
    return `${label}: ${shown}`;
  });
}

/** What an option's value means at this table, in a sentence ("" when the catalogue has none). */
function houseSentence(name, value) {
  if (typeof value === "boolean") {
    const key = `rulesHouse.${name}.${value ? "on" : "off"}`;
    return t(key) === key ? "" : t(key);
  }
  const key = `rulesHouse.${name}.${pluralForm(value)}`;
  const s = t(key, { n: typeof value === "number" ? value.toLocaleString(getLang()) : value });
  return s === key ? "" : s;
}

/** The house rules for the dialog: "Ace skips: no — An ace is an ordinary card." */
export function houseRuleItems(table) {
  const labels = houseRules(table);
  return houseOptions(table).map(([name, value], i) => {
    const sentence = houseSentence(name, value);
    return h("li", { dataset: { option: name } }, h("strong", {}, labels[i]), sentence ? ` — ${sentence}` : "");
  });
}

/** Draw the small card pictures the rules page marks (<span class="rules-card" data-card="7H">). */
export function drawRuleCards(root) {
  for (const slot of root.querySelectorAll(".rules-card[data-card]")) {
    const svg = cardSVG(slot.dataset.card);
    if (svg) slot.innerHTML = svg; // the page's own markup from cards.js; the words name the card
  }
}

/** The always-visible line under the title. */
export function renderHouseRules(table) {
  const line = $("house-rules");
  if (!line) return;
  const rules = houseRules(table);
  line.hidden = rules.length === 0;
  line.textContent = rules.length ? `${t("rules.houseRules")}: ${rules.join(" · ")}` : "";
}

/** Wire the Rules button to the dialog; ``getTable`` gives the table summary shown so far. */
export function mountRules(getTable, tableId) {
  const button = $("rules-button");
  const dialog = $("rules-dialog");
  if (!button || !dialog) return;
  button.addEventListener("click", async () => {
    const known = getTable();
    if (!known) return;
    const body = $("rules-body");
    body.replaceChildren(h("p", {}, t("common.loading")));
    if (!dialog.open) dialog.showModal();
    try {
      // a fresh summary: the deal code appears once the deal is over
      const [rules, table] = await Promise.all([
        getJSON(`/api/rules/${encodeURIComponent(known.game)}?lang=${getLang()}`),
        getJSON(`/api/tables/${encodeURIComponent(tableId)}`).catch(() => known),
      ]);
      const page = h("div", { class: "rules-text" });
      page.innerHTML = rules.html; // the project's own pages, rendered with raw HTML escaped
      drawRuleCards(page);
      body.replaceChildren(
        h("section", { class: "rules-house", "aria-labelledby": "rules-house-heading" },
          h("h3", { id: "rules-house-heading" }, t("rules.houseRules")),
          h("ul", {}, houseRuleItems(table)),
          h("p", { class: "deal-code-line" }, `${t("rules.dealCode")}: `,
            table.deal_code ? h("code", { id: "deal-code" }, table.deal_code) : h("span", { class: "hint" }, "—")),
          table.deal_code ? h("p", { class: "hint" }, t("rules.dealCodeHint")) : ""),
        page,
      );
    } catch {
      body.replaceChildren(h("p", { class: "error" }, t("error.server_error")));
    }
  });
}
