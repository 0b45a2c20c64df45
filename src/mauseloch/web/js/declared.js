// What the server says of each game (/api/games, from each game's declaration): its title, the
// prefix of its words, its options and whether it has match play (which module draws it the page
// knows itself: games.js). A page that shows
// games takes them in once (learnGames) before it draws one; nothing here names a game.

let games = null; // game name -> its entry of /api/games

/** Take in the games of /api/games. */
export function learnGames(list) {
  games = Object.fromEntries((list || []).map((g) => [g.name, g]));
}

/** Whether the server has said what the games are. */
export function gamesLearned() {
  return games !== null;
}

/** The server's entry for `game` (name, title, words, match, options, …), or null. */
export function declaredGame(game) {
  return games && Object.hasOwn(games, game) ? games[game] : null;
}

/** Whether the option `name` of `game` is an engine setting (how long a test game may run, how
 * long a reaction window stays open), not a house rule: the game's declaration says so. */
export function engineOption(game, name) {
  const info = declaredGame(game);
  const opt = info && (info.options || []).find((o) => o.name === name);
  return Boolean(opt) && opt.house_rule === false;
}
