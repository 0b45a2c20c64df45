// The event log's lines for Mau-Mau. One entry per event type of src/mauseloch/games/maumau/rules.py;
// each reads only the fields that game's event struct declares (tests/browser/test_event_texts.py
// parses this table and checks every `ev.<field>` against docs/events.schema.json).
// `c` gives names: c.name(seat), c.card(card), c.cards(list), c.suit(suit), c.reason(reason).

import { t, tn } from "./i18n.js";

export const TEXTS = {
  deal: (ev, c) => (ev.cards ? t("mm.ev.dealOwn", { name: c.name(ev.seat), cards: c.cards(ev.cards) }) : tn("mm.ev.deal", ev.count, { name: c.name(ev.seat) })),
  start: (ev, c) => t("mm.ev.start", { card: c.card(ev.card) }),
  play: (ev, c) => t("mm.ev.play", { name: c.name(ev.seat), card: c.card(ev.card) }),
  wish: (ev, c) => t("mm.ev.wish", { name: c.name(ev.seat), suit: c.suit(ev.suit) }),
  draw: (ev, c) => (ev.cards && ev.cards.length ? t("mm.ev.drawOwn", { name: c.name(ev.seat), cards: c.cards(ev.cards) }) : tn("mm.ev.draw", ev.count, { name: c.name(ev.seat) })),
  penalty: (ev, c) => tn("mm.ev.penalty", ev.amount, { name: c.name(ev.seat) }),
  take: (ev, c) => tn("mm.ev.take", ev.amount, { name: c.name(ev.seat) }),
  skip: (ev, c) => t("mm.ev.skip", { name: c.name(ev.seat) }),
  reverse: (ev, c) => t(ev.direction === 1 ? "mm.ev.reverseCw" : "mm.ev.reverseCcw", { name: c.name(ev.seat) }),
  pass: (ev, c) => t("mm.ev.pass", { name: c.name(ev.seat) }),
  mau: (ev, c) => t("mm.ev.mau", { name: c.name(ev.seat) }),
  mau_mau: (ev, c) => t("mm.ev.mau_mau", { name: c.name(ev.seat) }),
  jack_no_win: (ev, c) => t("mm.ev.jack_no_win", { name: c.name(ev.seat) }),
  reshuffle: (ev, c) => tn("mm.ev.reshuffle", ev.count, {}),
  end: (ev, c) => t("mm.ev.end", { reason: c.reason(ev.reason) }),
};

// The short call shown for a moment above the board.
export const ANNOUNCE = {
  mau: (ev, c) => `${t("mm.mau")} — ${c.name(ev.seat)}`,
  mau_mau: (ev, c) => `${t("mm.maumau")} — ${c.name(ev.seat)}`,
};
