// The offline games this browser keeps (IndexedDB), shared by the pages and the offline Web
// Worker: each game as the worker's table saves it (server/local.py's Saved: its set-up, every
// move so far and, once over, its record) plus `sent`: the server took its record.

const DB = "mauseloch-offline";
const GAMES = "games";

function opened() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(GAMES, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function run(mode, work) {
  return opened().then(
    (db) =>
      new Promise((resolve, reject) => {
        const tx = db.transaction(GAMES, mode);
        const req = work(tx.objectStore(GAMES));
        tx.oncomplete = () => {
          db.close();
          resolve(req ? req.result : undefined);
        };
        tx.onerror = () => reject(tx.error);
      }),
  );
}

export const getGame = (id) => run("readonly", (store) => store.get(id));
export const putGame = (game) => run("readwrite", (store) => store.put(game));
export const allGames = () => run("readonly", (store) => store.getAll());

/** Keep what the worker saved of a game, keeping the page's own marks (`sent`, `created`; a
 * rematch the worker dealt is created now). */
export async function keepGame(kept) {
  const before = (await getGame(kept.id)) || { created: Date.now(), sent: null };
  await putGame({ ...before, ...kept });
}
