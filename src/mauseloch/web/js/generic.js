// Draws a game the page has no module of its own for (its declaration names none): who sits
// where and who is to move, what the view shows everybody, this seat's hand and one button per
// legal move, and a ranking from the result. It knows nothing of any game: it reads the view.

import { h } from "./api.js";
import { nameNode, reasonText, t } from "./i18n.js";

// fields every view has, shown by the table itself (seats, turn line, end screen)
const SHOWN_ELSEWHERE = new Set(["game", "players", "options", "seat", "to_move", "legal_moves", "is_over", "result", "hand"]);

function valueText(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(valueText).join(" ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function seatBox(view, s, ctx) {
  const toMove = view.to_move === s;
  return h("div", { class: "player" + (toMove ? " to-move" : "") + (s === ctx.seat ? " me" : ""), dataset: { seat: String(s) } },
    h("div", { class: "player-name" },
      toMove ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶") : null,
      nameNode(ctx.name(s))),
    toMove ? h("span", { class: "badge" }, t("table.toMove")) : null);
}

/** Draw the whole board for `view` into `board`. */
export function render(board, view, ctx) {
  const legal = ctx.canAct && view.legal_moves ? view.legal_moves : [];
  const seats = h("section", { class: "generic-players" });
  for (let s = 0; s < view.players; s++) seats.append(seatBox(view, s, ctx));
  const facts = h("dl", { class: "generic-view" });
  for (const [key, value] of Object.entries(view)) {
    if (!SHOWN_ELSEWHERE.has(key)) facts.append(h("dt", {}, key), h("dd", {}, valueText(value)));
  }
  const parts = [seats, facts];
  if (Array.isArray(view.hand)) parts.push(h("p", { class: "generic-hand" }, `${t("table.hand")}: ${valueText(view.hand)}`));
  if (legal.length) {
    const actions = h("div", { class: "actions" });
    legal.forEach((move, i) => {
      const data = { move, focusKey: "move-" + move };
      if (i === 0) data.primary = "1";
      const b = h("button", { type: "button", class: "btn btn-action", dataset: data }, move);
      b.addEventListener("click", () => ctx.move(move));
      actions.append(b);
    });
    parts.push(actions);
  }
  board.replaceChildren(...parts);
  board.dataset.game = view.game;
}

/** The ranking table of the end screen: every per-seat list of the result is a column. */
export function endTable(view, name) {
  const res = view.result;
  const columns = Object.keys(res).filter((k) => k !== "ranks" && Array.isArray(res[k]) && res[k].length === res.ranks.length);
  const order = [...res.ranks.keys()].sort((a, b) => res.ranks[a] - res.ranks[b] || a - b);
  const body = h("tbody");
  for (const s of order) {
    body.append(h("tr", { dataset: { seat: String(s) } },
      h("td", { class: "rank" }, String(res.ranks[s])),
      h("th", { scope: "row" }, nameNode(name(s))),
      ...columns.map((k) => h("td", {}, valueText(res[k][s])))));
  }
  return h("div", { class: "end-body" },
    h("p", { class: "reason" }, t("table.reason", { reason: reasonText(view.game, res.reason) })),
    h("table", { class: "ranking" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("table.rank")),
        h("th", { scope: "col" }, t("table.player")),
        ...columns.map((k) => h("th", { scope: "col" }, k)))),
      body));
}
