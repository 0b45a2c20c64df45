// Draws an Aus die Maus! view: every stack and its chips, the pile, the chase, the flip button.

import { h } from "./api.js";
import { cardEl, pawSVG } from "./cards.js";
import { landPlayedCard } from "./feedback.js";
import { cardName, nameNode, reasonText, t } from "./i18n.js";

function chipsEl(n) {
  const box = h("span", { class: "chips", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(n, 12); i++) box.append(h("span", { class: "chip" }));
  return box;
}

function playerBox(view, s, ctx) {
  const toMove = view.to_move === s;
  const chase = view.chase;
  const role = chase ? (chase.chaser === s ? "chaser" : chase.owner === s ? "owner" : null) : null;
  const label = [
    ctx.name(s),
    t("am.stack", { n: view.stacks[s] }),
    t("am.chips", { n: view.chips[s] }),
    toMove ? t("table.toMove") : null,
    role ? t("am.role." + role) : null,
  ].filter(Boolean).join(", ");
  return h(
    "div",
    { class: "player am-player" + (toMove ? " to-move" : "") + (s === ctx.seat ? " me" : ""), role: "group", "aria-label": label, dataset: { seat: String(s) } },
    h("div", { class: "player-name" },
      toMove ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶") : null,
      nameNode(ctx.name(s)),
      ),
    h("div", { class: "stack" + (view.stacks[s] > 1 ? " deep" : ""), "aria-hidden": "true", dataset: { count: String(view.stacks[s]) } },
      view.stacks[s] > 0 ? cardEl(null, { className: "small back" }) : h("div", { class: "card small empty" })),
    h("div", { class: "player-count" }, t("am.stack", { n: view.stacks[s] })),
    h("div", { class: "player-chips" }, chipsEl(view.chips[s]), t("am.chips", { n: view.chips[s] })),
    role ? h("span", { class: "badge role-" + role }, t("am.role." + role)) : null,
    toMove ? h("span", { class: "badge" }, t("table.toMove")) : null,
  );
}

function chaseBanner(view, ctx) {
  const chase = view.chase;
  if (!chase) return null;
  const paws = h("span", { class: "attempt-marks", "aria-hidden": "true" });
  paws.innerHTML = pawSVG().repeat(Math.max(0, Math.min(3, chase.attempts_left)));
  return h("section", { class: "chase-banner", role: "status" },
    h("p", { class: "call" }, t("am.call")),
    h("p", {}, t("am.chase", { chaser: ctx.name(chase.chaser), owner: ctx.name(chase.owner) })),
    h("p", { class: "attempts" }, t("am.attempts", { n: chase.attempts_left }), " ", paws));
}

/** Draw the whole board for `view` into `board`. */
export function render(board, view, ctx) {
  const legal = ctx.canAct && view.legal_moves ? view.legal_moves : [];
  const players = h("section", { class: "am-players" });
  for (let s = 0; s < view.players; s++) players.append(playerBox(view, s, ctx));
  const pile = view.pile || [];
  const centre = h("section", { class: "centre am-centre" },
    h("div", { class: "pile discard" },
      view.top ? cardEl(view.top, { className: "big top-card", ariaLabel: `${t("mm.top")}: ${cardName(view.top)}` }) : h("div", { class: "card big empty", "aria-label": t("am.pileEmpty"), role: "img" }),
      h("div", { class: "pile-label" }, t("am.pile", { n: pile.length }))),
    h("div", { class: "table-info" },
      h("div", { class: "badge-big chips-left" }, chipsEl(1), t("am.chipsLeft", { n: view.chips_left }))),
  );
  const parts = [players, chaseBanner(view, ctx), centre];
  if (legal.includes("flip")) {
    const b = h("button", { type: "button", class: "btn flip-button", "aria-label": t("am.flipAria"), dataset: { move: "flip", focusKey: "flip", primary: "1" } }, t("am.flip"));
    b.addEventListener("click", () => ctx.move("flip"));
    parts.push(h("div", { class: "actions" }, b));
  }
  board.replaceChildren(...parts.filter(Boolean));
  board.dataset.game = "aus-die-maus";
  landPlayedCard(board, ctx, "flip", view.top); // a flipped card moves from its stack to the pile
}

/** The ranking table of the end screen. */
export function endTable(view, name) {
  const res = view.result;
  const order = [...res.ranks.keys()].sort((a, b) => res.ranks[a] - res.ranks[b] || a - b);
  const body = h("tbody");
  for (const s of order) {
    body.append(
      h("tr", { dataset: { seat: String(s) } },
        h("td", { class: "rank" }, String(res.ranks[s])),
        h("th", { scope: "row" }, nameNode(name(s))),
        h("td", {}, String(res.cards[s])),
        h("td", {}, String(res.chips[s]))),
    );
  }
  return h("div", { class: "end-body" },
    h("p", { class: "reason" }, t("table.reason", { reason: reasonText("aus-die-maus", res.reason) })),
    h("table", { class: "ranking" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("table.rank")),
        h("th", { scope: "col" }, t("table.player")),
        h("th", { scope: "col" }, t("am.stackCol")),
        h("th", { scope: "col" }, t("am.chipsCol")))),
      body));
}
