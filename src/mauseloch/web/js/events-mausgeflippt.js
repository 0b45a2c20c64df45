// The event log's lines for Mausgeflippt. One entry per event type of
// src/mauseloch/games/mausgeflippt/rules.py; each reads only the fields that game's event struct declares
// (tests/browser/test_event_texts.py parses this table and checks every `ev.<field>`).
// Its `catch` is a clothing card laid on a mouse — not Aus die Maus!'s cat. The reveal's line
// does not name the mouse's clothes: the board shows the mouse at the same moment on every screen.

import { cheeseName, faceName, mouseName } from "./mausgeflippt.js";
import { t, tn } from "./i18n.js";

const faces = (list) => list.map(faceName).join(", ");

export const TEXTS = {
  deal: (ev, c) => tn("mg.ev.deal", ev.count, { name: c.name(ev.seat) }),
  cheese_open: (ev, c) => tn("mg.ev.cheese_open", ev.left, { cheese: cheeseName(ev.cheese) }),
  reveal: (ev, c) => t("mg.ev.reveal", { name: c.name(ev.seat), mouse: mouseName(ev.mouse) }),
  reaction: (ev, c) => (ev.move === "timeout" ? t("mg.ev.noReaction")
    : t(ev.ms === null ? "mg.ev.reaction" : "mg.ev.reactionMs", { name: c.name(ev.seat), move: ev.move === "flip" ? t("mg.flip") : faceName(ev.move.replace(/^catch /, "")), ms: ev.ms })),
  catch: (ev, c) => t("mg.ev.catch", { name: c.name(ev.seat), card: faceName(ev.card), mouse: mouseName(ev.mouse) }),
  wrong_card: (ev, c) => t("mg.ev.wrong_card", { name: c.name(ev.seat), card: faceName(ev.card), mouse: mouseName(ev.mouse) }),
  protected_catch: (ev, c) => t("mg.ev.protected_catch", { name: c.name(ev.seat), card: faceName(ev.card), mouse: mouseName(ev.mouse) }),
  mausgeflippt: (ev, c) => (ev.protected ? t("mg.ev.flipProtected", { name: c.name(ev.seat), mouse: mouseName(ev.mouse) })
    : ev.correct ? t("mg.ev.flipRight", { name: c.name(ev.seat), mouse: mouseName(ev.mouse) })
      : t("mg.ev.flipWrong", { name: c.name(ev.seat), cards: faces(ev.fitting), n: ev.hand_count })),
  mouse_won: (ev, c) => tn("mg.ev.mouse_won", ev.total, { name: c.name(ev.seat), mouse: mouseName(ev.mouse), how: t(ev.by === "flip" ? "mg.how.flip" : "mg.how.catch") }),
  mouse_under: (ev, c) => tn("mg.ev.mouse_under", ev.pile, { mouse: mouseName(ev.mouse) }),
  laundry: (ev, c) => tn("mg.ev.laundry", ev.total, { name: c.name(ev.seat), cards: faces(ev.laundry) }),
  cheese_taken: (ev, c) => tn("mg.ev.cheese_taken", ev.total, { name: c.name(ev.seat), cheese: cheeseName(ev.cheese), mouse: mouseName(ev.mouse) }),
  draw: (ev, c) => (ev.cards ? t("mg.ev.drawOwn", { name: c.name(ev.seat), cards: faces(ev.cards) || t("mg.nothing") })
    : tn("mg.ev.draw", ev.count, { name: c.name(ev.seat), wanted: ev.wanted })),
  timeout: (ev, c) => tn("mg.ev.timeout", ev.in_row, { mouse: mouseName(ev.mouse), name: c.name(ev.seat) }),
  revealer: (ev, c) => t("mg.ev.revealer", { name: c.name(ev.seat) }),
  reshuffle: (ev, c) => tn("mg.ev.reshuffle", ev.count),
  end: (ev, c) => t("mg.ev.end", { reason: t("mg.reason." + ev.reason), scores: ev.score.map((s, i) => `${c.name(i)} ${s}`).join(", ") }),
};

// The short call shown for a moment above the board.
export const ANNOUNCE = {
  mausgeflippt: (ev, c) => t("mg.flip"),
  cheese_taken: (ev, c) => t("mg.out.protected"),
};
