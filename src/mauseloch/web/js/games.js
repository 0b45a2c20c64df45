// The one registry of the games in the page code: each game's module draws its board, end table
// and replay lines (<game>.js), and its event texts live in events-<game>.js. The table, the
// replay and the event log all look a game up here, so a new game is one line below.

import * as ausdiemaus from "./ausdiemaus.js";
import * as ausdiemausEvents from "./events-ausdiemaus.js";
import * as maumau from "./maumau.js";
import * as maumauEvents from "./events-maumau.js";
import * as mausgeflippt from "./mausgeflippt.js";
import * as mausgeflipptEvents from "./events-mausgeflippt.js";

const GAMES = {
  "mau-mau": { renderer: maumau, events: maumauEvents },
  "aus-die-maus": { renderer: ausdiemaus, events: ausdiemausEvents },
  "mausgeflippt": { renderer: mausgeflippt, events: mausgeflipptEvents },
};

/** The module that draws `game` (render, endTable, and turnText/onWindow/claimLines where it has them), or null. */
export function renderer(game) {
  return Object.hasOwn(GAMES, game) ? GAMES[game].renderer : null;
}

/** The event texts of `game`: { TEXTS, ANNOUNCE } (empty tables for a game the page does not know). */
export function eventTables(game) {
  return Object.hasOwn(GAMES, game) ? GAMES[game].events : { TEXTS: {}, ANNOUNCE: {} };
}
