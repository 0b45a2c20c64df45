// Small helpers shared by the pages: JSON over HTTP, the seat credentials of a table, DOM helpers.

/** The error of a refused request: `code` for the page's own words, the server's message as fallback. */
function refused(res, data) {
  const err = new Error(data.error || `${res.status} ${res.statusText}`);
  err.status = res.status;
  err.code = data.code || null;
  return err;
}

/** fetch, with no network named as code "offline": the page's words, not the browser's
    "Failed to fetch". */
async function reach(url, init) {
  try {
    return await fetch(url, init);
  } catch (cause) {
    const err = new Error(String(cause?.message || cause), { cause });
    err.code = "offline";
    throw err;
  }
}

export async function getJSON(url) {
  const res = await reach(url, { headers: { Accept: "application/json" } });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw refused(res, data);
  return data;
}

let games = null;

/** /api/games, fetched once per page: the games, their bots and the server's input limits. */
export function loadGames() {
  if (!games) games = getJSON("/api/games");
  return games;
}

/** Give every input marked data-limit="name" (or "title") the server's own maximum length. */
export function applyLimits(limits, root = document) {
  for (const el of root.querySelectorAll("[data-limit]")) {
    const n = limits && limits[el.dataset.limit];
    if (Number.isInteger(n)) el.maxLength = n;
  }
}

export async function postJSON(url, body) {
  const res = await reach(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw refused(res, data);
  return data;
}

// The seat token itself lives only in an HttpOnly cookie the server sets (scripts never see it);
// the page remembers which seat it holds, which is no secret, so the lobby can say "your seat".

/** The seat this browser holds at a table (a number), or null. */
export function heldSeat(tableId) {
  try {
    const seat = Number.parseInt(localStorage.getItem("ml_seat_" + tableId) ?? "", 10);
    return Number.isInteger(seat) && seat >= 0 ? seat : null;
  } catch {
    return null;
  }
}

export function rememberSeat(tableId, seat) {
  try {
    localStorage.setItem("ml_seat_" + tableId, String(seat));
  } catch {
    /* the server's cookie is what counts */
  }
}

/** Forget a seat that the server no longer accepts. */
export function forgetSeat(tableId) {
  try {
    localStorage.removeItem("ml_seat_" + tableId);
  } catch {
    /* nothing stored */
  }
}

/** The invite link of a private table, kept by the browser that created or joined it. */
export function savedInvite(tableId) {
  try {
    return localStorage.getItem("ml_invite_" + tableId);
  } catch {
    return null;
  }
}

export function saveInvite(tableId, link) {
  try {
    localStorage.setItem("ml_invite_" + tableId, link);
  } catch {
    /* the link still works; only this page forgets it */
  }
}

/** GET with the ETag of the last answer: null when nothing changed (304). */
export async function getJSONIfChanged(url, etag) {
  const headers = { Accept: "application/json" };
  if (etag) headers["If-None-Match"] = etag;
  const res = await reach(url, { headers, cache: "no-store" });
  if (res.status === 304) return null;
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw refused(res, data);
  return { data, etag: res.headers.get("ETag") };
}

/** document.createElement with attributes, properties and children in one call. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Put `children` into `box`, keeping in place each child that equals one of them (in order).
 * A screen redrawn on every live frame (a vote, a presence change) then leaves a button under a
 * finger or the pointer where it is: a press on one copy and a release on the next is no click. */
export function replaceChanged(box, children) {
  const fresh = children.filter((c) => c !== null && c !== undefined && c !== false && c !== "")
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  const old = [...box.childNodes];
  const kept = new Set();
  let from = 0;
  const wanted = fresh.map((node) => {
    for (let k = from; k < old.length; k += 1) {
      if (old[k].isEqualNode(node)) {
        from = k + 1;
        kept.add(old[k]);
        return old[k];
      }
    }
    return node;
  });
  for (const node of old) if (!kept.has(node)) node.remove();
  // the kept children are in their order already: the new ones go in between
  wanted.forEach((node, i) => {
    if (box.childNodes[i] !== node) box.insertBefore(node, box.childNodes[i] || null);
  });
}

/** Copy the invite link in `input` to the clipboard (or select it for a manual copy), then say so in `status`. */
export async function copyLink(input, status, message) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    if (document.execCommand) document.execCommand("copy");
  }
  status.textContent = message;
}
