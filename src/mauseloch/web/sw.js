// The site's one service worker (served at /sw.js, scope "/"). Each concern keeps a section of
// its own below; add a new concern as a new section, and keep each section's listeners to it.
//
// Sections: 1. life (install, activate); 2. Web Push (push, notificationclick); 3. offline
// cache (fetch).

// -- 1. life ---------------------------------------------------------------------------------
self.addEventListener("install", () => {
  self.skipWaiting(); // a new version takes over at once: its sections have no state to carry
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

// -- 2. Web Push -------------------------------------------------------------------------------
// A push is a small JSON object in the seat's language (server/push/words.py): title, body, the
// table's url and a tag (a newer notice of a table replaces the older). It carries no card and
// no secret.

/** The page of `url` this browser shows now, if any (its player sees the turn already). */
async function shownPage(url) {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return pages.find((p) => new URL(p.url).pathname === url && p.visibilityState === "visible");
}

async function notify(data) {
  if (await shownPage(data.url)) return;
  await self.registration.showNotification(data.title, {
    body: data.body || "",
    tag: data.tag || data.url,
    data: { url: data.url },
    icon: "/icons/icon-192.png",
  });
}

self.addEventListener("push", (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  if (!data || typeof data.title !== "string" || typeof data.url !== "string" || !data.url.startsWith("/")) return;
  event.waitUntil(notify(data));
});

/** A tap opens the table: its page if one is open already, else a page of the site goes there,
    else a new one. */
async function openTable(url) {
  const pages = await self.clients.matchAll({ type: "window" });
  const open = pages.find((p) => new URL(p.url).pathname === url) || pages[0];
  if (!open) return self.clients.openWindow(url);
  const there = new URL(open.url).pathname === url ? open : await open.navigate(url);
  return (there || open).focus().catch(() => null);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  if (typeof url === "string" && url.startsWith("/")) event.waitUntil(openTable(url));
});

// -- 3. offline cache ---------------------------------------------------------------------------
// Filled by the page when the player asks to play offline (js/offline.js); until then both caches
// are empty and this section answers nothing from them. The offline bundle (/offline/…) comes
// from its cache; the pages, their files and /api/games from the network, the cached copy when
// the network is gone; an offline table (/t/offline-…) is the table page itself, its replay
// (/replay/offline-…) the replay page.
const BUNDLE_CACHE = "mauseloch-offline";
const SHELL_CACHE = "mauseloch-shell";

async function fromCache(name, request) {
  const cache = await caches.open(name);
  return (await cache.match(request, { ignoreSearch: true })) || fetch(request);
}

async function networkFirst(request, key) {
  try {
    const res = await fetch(request);
    if (res.ok) {
      const cache = await caches.open(SHELL_CACHE);
      if (await cache.match(key)) await cache.put(key, res.clone()); // keep a kept copy current
    }
    return res;
  } catch (err) {
    const cached = await caches.match(key, { cacheName: SHELL_CACHE, ignoreSearch: true });
    if (cached) return cached;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || event.request.method !== "GET") return;
  if (url.pathname.startsWith("/offline/")) {
    event.respondWith(fromCache(BUNDLE_CACHE, event.request));
  } else if (url.pathname.startsWith("/t/offline-")) {
    event.respondWith(networkFirst(new Request("/static/table.html"), "/static/table.html"));
  } else if (url.pathname.startsWith("/replay/offline-")) {
    event.respondWith(networkFirst(new Request("/static/replay.html"), "/static/replay.html"));
  } else if (!url.pathname.startsWith("/api/") || url.pathname === "/api/games") {
    event.respondWith(networkFirst(event.request, url.pathname));
  }
});
