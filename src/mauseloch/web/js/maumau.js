// Draws a Mau-Mau view. Which cards may be played comes only from view.legal_moves.

import { h } from "./api.js";
import { arrowKeys, cardEl, suitSVG } from "./cards.js";
import { landPlayedCard, launchCard, placeHandNote, showHandNote, whyNot } from "./feedback.js";
import { cardName, nameNode, reasonText, suitName, t, tn } from "./i18n.js";

let wishHandler = null;

function countText(n) {
  return tn("table.cards", n);
}

function seatOrder(view, seat) {
  const order = [];
  const start = seat === null || seat === undefined ? 0 : seat;
  for (let i = 0; i < view.players; i++) order.push((start + i) % view.players);
  return order;
}

function playerBox(view, s, ctx, opts = {}) {
  const toMove = view.to_move === s;
  const count = view.hand_counts[s];
  const fan = h("div", { class: "fan", "aria-hidden": "true" });
  if (opts.hand) {
    for (const c of opts.hand) fan.append(cardEl(c, { className: "tiny" }));
    fan.classList.add("open");
  } else {
    for (let i = 0; i < Math.min(count, 12); i++) fan.append(cardEl(null, { className: "tiny back" }));
  }
  const label = [ctx.name(s), countText(count), toMove ? t("table.toMove") : null].filter(Boolean).join(", ");
  return h(
    "div",
    { class: "player" + (toMove ? " to-move" : ""), role: "group", "aria-label": label, dataset: { seat: String(s) } },
    h("div", { class: "player-name" },
      toMove ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶") : null,
      nameNode(ctx.name(s)),
      ),
    fan,
    h("div", { class: "player-count" }, countText(count), toMove ? h("span", { class: "badge" }, t("table.toMove")) : null),
  );
}

function openWish(dialog, moves, ctx) {
  const box = dialog.querySelector("#wish-options");
  box.replaceChildren();
  if (!box.dataset.arrows) {
    box.dataset.arrows = "1";
    arrowKeys(box, ".wish-choice");
  }
  for (const m of moves) {
    const suit = m.split(":")[1];
    box.append(
      h("button", { type: "submit", value: m, class: "btn wish-choice", "aria-label": suitName(suit), dataset: { suit } },
        h("span", { class: "wish-icon", "aria-hidden": "true" }),
        h("span", {}, suitName(suit))),
    );
    box.lastChild.querySelector(".wish-icon").innerHTML = suitSVG(suit, 30);
  }
  if (wishHandler) dialog.removeEventListener("close", wishHandler);
  wishHandler = () => {
    dialog.removeEventListener("close", wishHandler);
    wishHandler = null;
    if (dialog.returnValue) ctx.move(dialog.returnValue);
  };
  dialog.addEventListener("close", wishHandler);
  dialog.returnValue = "";
  dialog.showModal();
  const first = box.querySelector("button");
  if (first) first.focus();
}

function handSection(board, view, ctx, legal) {
  const hand = view.hand || [];
  const section = h("section", { class: "hand", "aria-label": t("mm.hand") });
  const row = h("div", { class: "hand-cards" });
  for (const card of hand) {
    const moves = legal.filter((m) => m === card || m.startsWith(card + ":"));
    const playable = moves.length > 0;
    const label = `${cardName(card)}, ${playable ? t("mm.playable") : t("mm.notPlayable")}`;
    const el = cardEl(card, { button: true, ariaLabel: view.is_over ? cardName(card) : label, className: playable ? "legal" : view.is_over ? "" : "dimmed" });
    el.dataset.focusKey = "card-" + card;
    if (view.drawn === card) el.classList.add("drawn");
    if (playable) {
      el.addEventListener("click", () => {
        launchCard(el, card);
        if (moves.length === 1 && !moves[0].includes(":")) ctx.move(moves[0]);
        else openWish(ctx.wishDialog, moves, ctx);
      });
    } else if (!view.is_over) {
      // A card that does not fit is never silent: a tap says the engine's reason next to the
      // hand (so it is no disabled button: its name says "not playable", its click says why).
      el.addEventListener("click", () => showHandNote(board, whyNot(card, view, ctx)));
    }
    row.append(el);
  }
  arrowKeys(row, "button.card");
  section.append(h("h2", { class: "sr-only" }, t("mm.hand")), row);
  return section;
}

function actions(view, ctx, legal) {
  const box = h("div", { class: "actions" });
  const add = (move, text) => {
    const b = h("button", { type: "button", class: "btn btn-action", dataset: { move, focusKey: "btn-" + move } }, text);
    b.addEventListener("click", () => ctx.move(move));
    box.append(b);
  };
  if (legal.includes("draw")) add("draw", t("mm.draw"));
  if (legal.includes("take")) add("take", t("mm.take", { n: view.penalty }));
  if (legal.includes("pass")) add("pass", view.drawn ? t("mm.pass") : t("mm.passNothing"));
  return box;
}

function centre(view, ctx) {
  const drawPile = h("div", { class: "pile draw-pile" },
    view.draw_pile > 0 ? cardEl(null, { className: "back", ariaLabel: t("mm.drawPile", { n: view.draw_pile }) }) : h("div", { class: "card empty" }),
    h("div", { class: "pile-label" }, t("mm.drawPile", { n: view.draw_pile })));
  const top = h("div", { class: "pile discard" },
    cardEl(view.top, { className: "big top-card", ariaLabel: `${t("mm.top")}: ${cardName(view.top)}` }),
    h("div", { class: "pile-label" }, t("mm.top")));
  const info = h("div", { class: "table-info" });
  if (view.wish) {
    const badge = h("div", { class: "badge-big wish", dataset: { suit: view.wish } },
      h("span", { class: "wish-icon", "aria-hidden": "true" }),
      h("span", {}, t("mm.wish", { suit: suitName(view.wish) })));
    badge.querySelector(".wish-icon").innerHTML = suitSVG(view.wish, 26);
    info.append(badge);
  }
  if (view.penalty > 0) {
    const mine = view.to_move === ctx.seat && ctx.seat !== null;
    info.append(h("div", { class: "badge-big penalty" }, "+" + view.penalty + " · " + (mine ? t("mm.penalty", { n: view.penalty }) : t("mm.penaltyOther", { n: view.penalty }))));
  }
  info.append(h("div", { class: "direction" }, t("mm.direction", { dir: view.direction === 1 ? t("mm.dir.cw") : t("mm.dir.ccw") })));
  return h("section", { class: "centre" }, drawPile, top, info);
}

/** Draw the whole board for `view` into `board`. */
export function render(board, view, ctx) {
  const legal = ctx.canAct && view.legal_moves ? view.legal_moves : [];
  const mine = ctx.seat !== null && ctx.seat !== undefined && !ctx.replay;
  const others = seatOrder(view, ctx.seat).filter((s) => !mine || s !== ctx.seat);
  const opponents = h("section", { class: "opponents" + (ctx.replay ? " all" : "") });
  for (const s of others) {
    const hand = (ctx.replay || view.is_over) && view.hands ? view.hands[s] : null;
    opponents.append(playerBox(view, s, ctx, { hand }));
  }
  const parts = [opponents, centre(view, ctx)];
  if (mine) {
    if (view.drawn && legal.length) parts.push(h("p", { class: "note" }, t("mm.drawn", { card: cardName(view.drawn) })));
    parts.push(actions(view, ctx, legal));
    parts.push(h("div", { class: "me" }, playerBox(view, ctx.seat, ctx, {})));
    parts.push(handSection(board, view, ctx, legal));
  }
  board.replaceChildren(...parts);
  board.dataset.game = "mau-mau";
  if (mine) placeHandNote(board);
  landPlayedCard(board, ctx, "play", view.top);
  const primary = board.querySelector(".card.legal, .btn-action");
  if (primary) primary.dataset.primary = "1";
}

/** The ranking table of the end screen. */
export function endTable(view, name) {
  const res = view.result;
  const order = [...res.ranks.keys()].sort((a, b) => res.ranks[a] - res.ranks[b] || a - b);
  const body = h("tbody");
  for (const s of order) {
    const hand = view.hands ? view.hands[s] : [];
    const cards = h("div", { class: "end-hand" });
    for (const c of hand) cards.append(cardEl(c, { className: "small" }));
    body.append(
      h("tr", { dataset: { seat: String(s) } },
        h("td", { class: "rank" }, String(res.ranks[s])),
        h("th", { scope: "row" }, nameNode(name(s))),
        h("td", {}, String(res.cards[s])),
        h("td", {}, String(res.points[s])),
        h("td", { class: "end-hand-cell" }, cards)),
    );
  }
  return h("div", { class: "end-body" },
    h("p", { class: "reason" }, t("table.reason", { reason: reasonText("mau-mau", res.reason) })),
    h("div", { class: "table-scroll" },
      h("table", { class: "ranking" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("table.rank")),
          h("th", { scope: "col" }, t("table.player")),
          h("th", { scope: "col" }, t("table.leftWith")),
          h("th", { scope: "col" }, t("mm.points")),
          h("th", { scope: "col", class: "end-hand-cell" }, t("end.handCol")))),
        body)));
}
