// Small helpers shared by the pages: JSON over HTTP, the seat credentials of a table, DOM helpers.

/** The error of a refused request: `code` for the page's own words, the server's message as fallback. */
function refused(res, data) {
  const err = new Error(data.error || `${res.status} ${res.statusText}`);
  err.status = res.status;
  err.code = data.code || null;
  return err;
}

export async function getJSON(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
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
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw refused(res, data);
  return data;
}

function readCookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return null;
}

function parseCred(text) {
  if (!text) return null;
  const i = text.indexOf(":");
  if (i < 1) return null;
  const seat = Number(text.slice(0, i));
  const token = text.slice(i + 1);
  if (!Number.isInteger(seat) || seat < 0 || !token) return null;
  return { seat, token };
}

/** The seat and token this browser holds for a table: from the URL, else the cookie, else localStorage. */
export function loadCredentials(tableId) {
  const params = new URLSearchParams(location.search);
  const key = "ml_" + tableId;
  if (params.has("token") && params.has("seat")) {
    const cred = parseCred(params.get("seat") + ":" + params.get("token"));
    if (cred) {
      saveCredentials(tableId, cred);
      return cred;
    }
  }
  const fromCookie = parseCred(readCookie(key));
  if (fromCookie) return fromCookie;
  try {
    return parseCred(localStorage.getItem(key));
  } catch (e) {
    return null;
  }
}

export function saveCredentials(tableId, cred) {
  const key = "ml_" + tableId;
  const value = `${cred.seat}:${cred.token}`;
  document.cookie = `${key}=${value}; path=/; max-age=${60 * 60 * 24 * 30}; SameSite=Lax`;
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    /* cookie alone then */
  }
}

/** Forget a seat that the server no longer accepts. */
export function clearCredentials(tableId) {
  const key = "ml_" + tableId;
  document.cookie = `${key}=; path=/; max-age=0; SameSite=Lax`;
  try {
    localStorage.removeItem(key);
  } catch (e) {
    /* nothing stored */
  }
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

/** Copy the invite link in `input` to the clipboard (or select it for a manual copy), then say so in `status`. */
export async function copyLink(input, status, message) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (e) {
    input.select();
    if (document.execCommand) document.execCommand("copy");
  }
  status.textContent = message;
}
