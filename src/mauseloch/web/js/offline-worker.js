// The offline table: Pyodide (CPython compiled to WebAssembly) runs the server's own table
// (mauseloch.server.local: the same step and frames) from the offline bundle, against bots.
// The page talks to it as to the server's WebSocket (offline.js WorkerSocket): it posts the
// page's messages as text and gets back the very texts a server sends. No rule is written here.

import { newOfflineId } from "./offline.js";
import { getGame, keepGame } from "./offline-store.js";

const BUNDLE = "/offline/";
const BUNDLE_CACHE = "mauseloch-offline"; // offline.js's, where the bundle is kept
let table = null;
let ready = null;
let keeping = Promise.resolve(); // the snapshot being kept, if one is
let saving = Promise.resolve(); // the moves are kept one after the other, in their order

// Python's start-up (the interpreter made, its start-up modules imported) is most of a start:
// the first start in this browser keeps a snapshot of the interpreter's memory right after it,
// in the bundle's cache, and later starts restore it instead (about 0.3 s against 2.5). The
// snapshot is of this build of Pyodide only: its key names the interpreter's hash, and Pyodide
// refuses one of another build. The wheels are installed after it (msgspec's compiled module
// cannot be in a snapshot).
const SNAPSHOT = "pyodide/memory-snapshot-";

async function startPython(manifest) {
  const { loadPyodide } = await import(`${BUNDLE}pyodide/pyodide.mjs`);
  const indexURL = `${BUNDLE}pyodide/`;
  const wasm = manifest.files.find((f) => f.path === "pyodide/pyodide.asm.wasm");
  const key = `${BUNDLE}${SNAPSHOT}${wasm.sha256.slice(0, 16)}`;
  const cache = await caches.open(BUNDLE_CACHE);
  const kept = await cache.match(key);
  if (kept) {
    try {
      return await loadPyodide({ indexURL, _loadSnapshot: kept.arrayBuffer() });
    } catch (err) {
      console.warn("the kept snapshot does not start: a new one is made", err);
    }
  }
  const py = await loadPyodide({ indexURL, _makeSnapshot: true });
  const snapshot = py.makeMemorySnapshot();
  keeping = (async () => {
    for (const old of await cache.keys()) {
      if (new URL(old.url).pathname.startsWith(BUNDLE + SNAPSHOT)) await cache.delete(old);
    }
    await cache.put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
  })().catch((err) => console.warn("the snapshot is not kept", err));
  return py;
}

const manifest = async () => (await fetch(`${BUNDLE}manifest.json`)).json();

async function runtime() {
  const files = await manifest();
  const py = await startPython(files);
  const wheels = files.files.map((f) => f.path).filter((p) => p.startsWith("wheels/") && p.endsWith(".whl"));
  await py.loadPackage(
    wheels.map((p) => BUNDLE + p),
    { messageCallback: () => {} },
  );
  return py.pyimport("mauseloch.server.local");
}

/** The engine's module and the game `id` as IndexedDB keeps it, without the page's own fields
 * (`saved` null: no such game). */
async function loaded(id) {
  if (!ready) ready = runtime();
  const local = await ready;
  const kept = await getGame(id);
  if (!kept) return { local, saved: null };
  const { sent, created, ...saved } = kept;
  return { local, saved };
}

async function open(id) {
  const { local, saved } = await loaded(id);
  if (!saved) {
    self.postMessage({ type: "close", code: 4404 });
    return;
  }
  if (table) table.close();
  // once a rematch is dealt, the page hears of it (and goes there) only when it is kept
  let dealt = null;
  const post = (text) => {
    if (dealt) dealt.then(() => self.postMessage({ type: "message", text }));
    else self.postMessage({ type: "message", text });
  };
  // every move is kept at once: a reload (offline too) opens the table as it was
  const keep = (text) => {
    const kept = JSON.parse(text);
    saving = saving.then(() => keepGame(kept)).catch((err) => console.error(err));
    if (kept.id !== id) dealt = saving;
  };
  table = local.for_page(JSON.stringify(saved), post, keep, newOfflineId);
  self.postMessage({ type: "open" });
  table.open();
}

// the replay page's data of a finished game, as the server answers it for one of its own
async function replay(id) {
  const { local, saved } = await loaded(id);
  if (!saved) throw new Error(`no offline game ${id}`);
  return local.replay_for_page(JSON.stringify(saved));
}

self.addEventListener("message", (e) => {
  const msg = e.data;
  if (msg.type === "open") {
    open(msg.table).catch((err) => {
      console.error(err);
      self.postMessage({ type: "close", code: 1011 });
    });
  } else if (msg.type === "prepare") {
    // right after the bundle is fetched: the snapshot is made now, not at the first table
    manifest()
      .then(startPython)
      .then(() => keeping)
      .then(
        () => self.postMessage({ type: "prepared" }),
        (err) => {
          console.error(err);
          self.postMessage({ type: "prepared", failed: true });
        },
      );
  } else if (msg.type === "replay") {
    replay(msg.table).then(
      (text) => self.postMessage({ type: "replay", text }),
      (err) => {
        console.error(err);
        self.postMessage({ type: "replay", failed: true });
      },
    );
  } else if (msg.type === "send" && table) {
    table.receive(msg.text);
  }
});
