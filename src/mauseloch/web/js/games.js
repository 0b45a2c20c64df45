// The one registry of the page's game modules: the page registers here, by the game's name, the
// module that draws a game's board, end table and replay lines (<module>.js) and its event texts
// (events-<module>.js); a game's declaration names no front end. A game the server declares that
// has no module here is drawn by generic.js from its view alone.

import * as ausdiemaus from "./ausdiemaus.js";
import { gamesLearned } from "./declared.js";
import * as ausdiemausEvents from "./events-ausdiemaus.js";
import * as generic from "./generic.js";
import * as maumau from "./maumau.js";
import * as maumauEvents from "./events-maumau.js";
import * as mausgeflippt from "./mausgeflippt.js";
import * as mausgeflipptEvents from "./events-mausgeflippt.js";

const MODULES = {
  "mau-mau": { renderer: maumau, events: maumauEvents },
  "aus-die-maus": { renderer: ausdiemaus, events: ausdiemausEvents },
  mausgeflippt: { renderer: mausgeflippt, events: mausgeflipptEvents },
};
const NONE = { renderer: generic, events: { TEXTS: {}, ANNOUNCE: {} } };

function entry(game) {
  return Object.hasOwn(MODULES, game) ? MODULES[game] : NONE;
}

/** The module that draws `game` (render, endTable, and turnText/onWindow/claimLines where it has
    them): its own, or the generic one; null until the server has said what the games are. */
export function renderer(game) {
  return gamesLearned() ? entry(game).renderer : null;
}

/** The event texts of `game`: { TEXTS, ANNOUNCE } (empty tables for a game without a module). */
export function eventTables(game) {
  return entry(game).events;
}
