// The offline table: Pyodide (CPython compiled to WebAssembly) runs the server's own table
// (mauseloch.server.local: the same step and frames) from the offline bundle, against bots.
// The page talks to it as to the server's WebSocket (offline.js WorkerSocket): it posts the
// page's messages as text and gets back the very texts a server sends. No rule is written here.

import { getGame, keepGame } from "./offline-store.js";

const BUNDLE = "/offline/";
let table = null;
let ready = null;
let saving = Promise.resolve(); // the moves are kept one after the other, in their order

async function runtime() {
  const manifest = await (await fetch(`${BUNDLE}manifest.json`)).json();
  const { loadPyodide } = await import(`${BUNDLE}pyodide/pyodide.mjs`);
  const py = await loadPyodide({ indexURL: `${BUNDLE}pyodide/` });
  const wheels = manifest.files.map((f) => f.path).filter((p) => p.startsWith("wheels/") && p.endsWith(".whl"));
  await py.loadPackage(
    wheels.map((p) => BUNDLE + p),
    { messageCallback: () => {} },
  );
  return py.pyimport("mauseloch.server.local");
}

async function open(id) {
  if (!ready) ready = runtime();
  const local = await ready;
  const kept = await getGame(id);
  if (!kept) {
    self.postMessage({ type: "close", code: 4404 });
    return;
  }
  if (table) table.close();
  const { sent, created, ...saved } = kept;
  const post = (text) => self.postMessage({ type: "message", text });
  // every move is kept at once: a reload (offline too) opens the table as it was
  const keep = (text) => {
    const kept = JSON.parse(text);
    saving = saving.then(() => keepGame(kept)).catch((err) => console.error(err));
  };
  table = local.for_page(JSON.stringify(saved), post, keep);
  self.postMessage({ type: "open" });
  table.open();
}

self.addEventListener("message", (e) => {
  const msg = e.data;
  if (msg.type === "open") {
    open(msg.table).catch((err) => {
      console.error(err);
      self.postMessage({ type: "close", code: 1011 });
    });
  } else if (msg.type === "send" && table) {
    table.receive(msg.text);
  }
});
