// The event log's lines for Aus die Maus! One entry per event type of
// src/mauseloch/games/ausdiemaus/rules.py; each reads only the fields that game's event struct declares
// (tests/browser/test_event_texts.py parses this table and checks every `ev.<field>`).
// Its `catch` is the cat catching a mouse (seat = catcher, owner) — not Mausgeflippt's `catch`.

import { t, tn } from "./i18n.js";

export const TEXTS = {
  deal: (ev, c) => t("am.ev.deal", { stacks: ev.stacks.join(" / ") }),
  start: (ev, c) => t("am.ev.start", { card: c.card(ev.card) }),
  flip: (ev, c) => t("am.ev.flip", { name: c.name(ev.seat), card: c.card(ev.card) }),
  call: (ev, c) => tn("am.ev.call", ev.paws, { name: c.name(ev.seat), chaser: c.name(ev.chaser) }),
  chase: (ev, c) => tn("am.ev.chase", ev.attempts_left, { chaser: c.name(ev.chaser), owner: c.name(ev.owner) }),
  catch: (ev, c) => t("am.ev.catch", { name: c.name(ev.seat), owner: c.name(ev.owner) }),
  escape: (ev, c) => t("am.ev.escape", { name: c.name(ev.seat), chaser: c.name(ev.chaser) }),
  pile_won: (ev, c) => (ev.chip
    ? tn("am.ev.pile_won_chip", ev.chips_left, { name: c.name(ev.seat), cards: ev.count })
    : tn("am.ev.pile_won", ev.count, { name: c.name(ev.seat) })),
  new_pile: (ev, c) => t("am.ev.new_pile", { name: c.name(ev.seat), card: c.card(ev.card) }),
  end: (ev, c) => t("am.ev.end", { reason: c.reason(ev.reason) }),
};

// The short call shown for a moment above the board.
export const ANNOUNCE = {
  call: (ev, c) => t("am.call"),
};
