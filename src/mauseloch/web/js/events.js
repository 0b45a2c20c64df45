// Turns an event into a line of the log (or a short announcement) with the texts of its game.
// Each game has its own table (events-<game>.js, found through games.js), so equal type names of two games (both
// Aus die Maus! and Mausgeflippt have a `catch`) never share a text.

import { eventTables } from "./games.js";
import { cardName, reasonText, suitName, t } from "./i18n.js";

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
  const texts = eventTables(game).TEXTS;
  const text = Object.hasOwn(texts, ev.type) ? texts[ev.type] : null;
  return text ? text(ev, helpers(name, game)) : t("ev.other", { type: ev.type });
}

/** The announcement `ev` deserves (a "Mau!", a chase call), or null. */
export function announcement(ev, name, game) {
  const table = eventTables(game).ANNOUNCE;
  const text = Object.hasOwn(table, ev.type) ? table[ev.type] : null;
  return text ? text(ev, helpers(name, game)) : null;
}
