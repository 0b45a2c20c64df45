// Turns an event into a line of the log (or a short announcement) with the texts of its game.
// Each game has its own table (events-<game>.js), so equal type names of two games (both
// Aus die Maus! and Mausgeflippt have a `catch`) never share a text.

import { cardName, reasonText, suitName, t } from "./i18n.js";
import * as ausdiemaus from "./events-ausdiemaus.js";
import * as maumau from "./events-maumau.js";
import * as mausgeflippt from "./events-mausgeflippt.js";

const GAMES = { "mau-mau": maumau, "aus-die-maus": ausdiemaus, "mausgeflippt": mausgeflippt };

function helpers(name, game) {
  return {
    name: (seat) => (seat === null || seat === undefined ? "" : name(seat)),
    card: cardName,
    cards: (cards) => cards.map(cardName).join(", "),
    suit: suitName,
    reason: (reason) => reasonText(game, reason),
  };
}

/** One line of the event log for `ev` of `game`; `name(seat)` gives a player's name. */
export function eventText(ev, name, game) {
  const texts = GAMES[game] ? GAMES[game].TEXTS : {};
  const text = Object.hasOwn(texts, ev.type) ? texts[ev.type] : null;
  return text ? text(ev, helpers(name, game)) : t("ev.other", { type: ev.type });
}

/** The announcement `ev` deserves (a "Mau!", a chase call), or null. */
export function announcement(ev, name, game) {
  const table = GAMES[game] ? GAMES[game].ANNOUNCE : {};
  const text = Object.hasOwn(table, ev.type) ? table[ev.type] : null;
  return text ? text(ev, helpers(name, game)) : null;
}
