// The one registry of the page's game modules: a game's module draws its board, end table and
// replay lines (<module>.js), and its event texts live in events-<module>.js. Which game uses
// which module the server says (/api/games: each game's declaration, see declared.js); a game
// without a module of its own is drawn by generic.js from its view alone.

import * as ausdiemaus from "./ausdiemaus.js";
import { declaredGame, gamesLearned } from "./declared.js";
import * as ausdiemausEvents from "./events-ausdiemaus.js";
import * as generic from "./generic.js";
import * as maumau from "./maumau.js";
import * as maumauEvents from "./events-maumau.js";
import * as mausgeflippt from "./mausgeflippt.js";
import * as mausgeflipptEvents from "./events-mausgeflippt.js";

const MODULES = {
  maumau: { renderer: maumau, events: maumauEvents },
  ausdiemaus: { renderer: ausdiemaus, events: ausdiemausEvents },
  mausgeflippt: { renderer: mausgeflippt, events: mausgeflipptEvents },
};
const NONE = { renderer: generic, events: { TEXTS: {}, ANNOUNCE: {} } };

function entry(game) {
  const web = (declaredGame(game) || {}).web;
  return web && Object.hasOwn(MODULES, web) ? MODULES[web] : NONE;
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
