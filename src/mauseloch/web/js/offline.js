// Playing offline: the page's side. The lobby's "Play offline" fetches, once, the offline bundle
// (Pyodide, msgspec, the engine's wheel: scripts/build_offline.py) and the pages themselves into
// the cache of the site's service worker (/sw.js, its "offline cache" section); nothing of it is
// fetched before the player asks. A table whose id starts with "offline-" is played by a Web
// Worker (offline-worker.js) that the table page's connection talks to as to the server's
// WebSocket (WorkerSocket): the same messages, so the table page does not know the difference.
// Finished games are kept in IndexedDB (offline-store.js) and sent to the server when it is back.

import { allGames, putGame } from "./offline-store.js";

export const OFFLINE_PREFIX = "offline-";
export const BUNDLE_CACHE = "mauseloch-offline";
export const SHELL_CACHE = "mauseloch-shell";

export const isOfflineTable = (id) => typeof id === "string" && id.startsWith(OFFLINE_PREFIX);

const WORKER_URL = "/static/js/offline-worker.js"; // the engine under Pyodide, behind its messages
let worker = null; // one per page: Pyodide starts once, whatever reconnects

/** The offline table's worker behind the WebSocket's face: what conn.js uses of a WebSocket. */
export class WorkerSocket extends EventTarget {
  constructor(tableId) {
    super();
    this.readyState = 0; // CONNECTING
    if (!worker) worker = new Worker(WORKER_URL, { type: "module" });
    this.worker = worker;
    this.listener = (e) => this.receive(e.data);
    this.worker.addEventListener("message", this.listener);
    this.worker.postMessage({ type: "open", table: tableId });
  }

  receive(msg) {
    if (this.readyState === 3) return;
    if (msg.type === "open") {
      this.readyState = 1; // OPEN
      this.dispatchEvent(new Event("open"));
    } else if (msg.type === "message") {
      this.dispatchEvent(new MessageEvent("message", { data: msg.text }));
    } else if (msg.type === "close") {
      this.finish(msg.code);
    }
  }

  send(text) {
    if (this.readyState === 1) this.worker.postMessage({ type: "send", text });
  }

  close() {
    this.finish(1000);
  }

  finish(code) {
    if (this.readyState === 3) return;
    this.readyState = 3; // CLOSED
    this.worker.removeEventListener("message", this.listener);
    this.dispatchEvent(new CloseEvent("close", { code }));
  }
}

/** Whether the bundle is kept here already (the player asked for it once). */
export async function offlineReady() {
  if (!("caches" in window) || !(await caches.has(BUNDLE_CACHE))) return false;
  const cache = await caches.open(BUNDLE_CACHE);
  return Boolean(await cache.match("/offline/manifest.json"));
}

/** Fetch the bundle and the pages into the service worker's caches; `progress(done, total)` in
 * bytes, then `preparing()` while Python starts once (its snapshot kept). */
export async function prepareOffline(progress = () => {}, preparing = () => {}) {
  if (!("serviceWorker" in navigator) || !("caches" in window)) throw new Error("no service worker");
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const manifest = await (await fetch("/offline/manifest.json", { cache: "no-store" })).json();
  const shell = (await (await fetch("/api/offline", { cache: "no-store" })).json()).shell;
  const bundle = await caches.open(BUNDLE_CACHE);
  const total = manifest.transferred;
  let done = 0;
  progress(done, total);
  for (const f of manifest.files) {
    const url = `/offline/${f.path}`;
    const res = await fetch(url, { cache: "no-store" });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    await bundle.put(url, res);
    done += f.transferred;
    progress(done, total);
  }
  const pages = await caches.open(SHELL_CACHE);
  await pages.addAll(shell);
  // the manifest last: with it the bundle counts as complete
  await bundle.put("/offline/manifest.json", new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/json" } }));
  await navigator.serviceWorker.ready;
  preparing();
  await warmUp();
}

/** Start Python once in a worker of this page, which keeps its snapshot (offline-worker.js): the
 * first table then starts as fast as the later ones. A failure here is the table's to tell. */
function warmUp() {
  return askWorker({ type: "prepare" }, "prepared").catch(() => null);
}

/** A worker of its own for one question: `msg` posted, the answer of type `type` (its data), and
 * the worker gone; rejected if the worker fails. */
function askWorker(msg, type) {
  return new Promise((resolve, reject) => {
    const asked = new Worker(WORKER_URL, { type: "module" });
    const end = (settle, value) => {
      asked.terminate();
      settle(value);
    };
    asked.addEventListener("message", (e) => e.data.type === type && end(resolve, e.data));
    asked.addEventListener("error", (e) => end(reject, e));
    asked.postMessage(msg);
  });
}

/** The replay page's data of a finished offline game (`{table, record, frames}`, as the server
 * answers for a table of its own), from the engine in a Web Worker. */
export async function offlineReplay(id) {
  const answer = await askWorker({ type: "replay", table: id }, "replay").catch(() => ({ failed: true }));
  if (answer.failed) throw Object.assign(new Error("no replay of this offline game"), { code: "not_found" });
  return JSON.parse(answer.text);
}

/** A new offline table's id (a rematch's too: the worker's table asks for it). */
export const newOfflineId = () => OFFLINE_PREFIX + crypto.randomUUID().replaceAll("-", "").slice(0, 12);

/** A new offline table of `game` for `players` seats: the person and the game's stand-in bots
 * (or the kinds `bots` names), with its `options` and turn `clock` (the game's defaults). */
export async function newOfflineGame({ game, players, name, bots = [], options = {}, clock = null, pace = {} }) {
  const id = newOfflineId();
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  // pace: { bot_delay, scale } as the server's --bot-delay and --clock-scale (tests, benchmarks)
  await putGame({ id, game, players, bots, name, seed, options, clock, ...pace, created: Date.now(), sent: null });
  return id;
}

export const offlineGames = () => allGames();

function withoutWindows(record) {
  const { referee, ...rest } = record;
  return rest;
}

/** Send every finished offline game the server has not got yet; returns how many it took. */
export async function sendGames() {
  let sent = 0;
  for (const game of await allGames()) {
    if (!game.record || game.sent) continue;
    const res = await fetch("/api/records", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      // without a reaction game's window logs: the server does not take what it cannot check
      body: JSON.stringify({ record: withoutWindows(game.record), name: game.name }),
    });
    if (!res.ok) continue; // refused (its reason is in the answer) or the network is gone again
    const answer = await res.json();
    await putGame({ ...game, sent: answer.table });
    sent += 1;
  }
  return sent;
}
