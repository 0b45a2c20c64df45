// The table page's Bot API and ladder parts, beside table.js: whether the table is rated (shown to
// everyone at it), each challenged bot's answer while the table waits (accepted, declined,
// unanswered) with, for the table's creator, the choice of another seat kind where a bot declined or
// did not answer, and for a seat of this browser at a rated table the ladder name it plays for (a
// name and a secret kept in this browser: no account). The server decides everything; the page
// only shows it (docs/bot-api.md).

import { getJSON, h, postJSON } from "./api.js";
import { botLevel, errorText, onLangChange, t } from "./i18n.js";

const POLL_MS = 3000;
const SECRET_KEY = "ml_ladder_secret";
const NAME_KEY = "ml_ladder_name";
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const box = h("section", { id: "bot-seats", class: "panel bot-seats", hidden: true, "aria-live": "polite" });
let rated = false;
let challenges = [];
let choices = null; // the creator's: { bots, online } to put in a declined seat, else null
let entered = null;
let seated = false;
let live = false;

function stored(key) {
  try {
    return localStorage.getItem(key) || "";
  } catch {
    return "";
  }
}

function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: for this page only */
  }
}

function secret() {
  let s = stored(SECRET_KEY);
  if (!s) {
    const bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    s = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    keep(SECRET_KEY, s);
  }
  return s;
}

async function enter(event) {
  event.preventDefault();
  const name = document.getElementById("ladder-name").value.trim();
  const error = document.getElementById("ladder-error");
  try {
    await postJSON(`/api/tables/${encodeURIComponent(tableId)}/ladder`, { name, secret: secret() });
    keep(NAME_KEY, name);
    entered = name;
    error.hidden = true;
  } catch (err) {
    error.textContent = errorText(err.code, err.message);
    error.hidden = false;
    return;
  }
  render();
}

async function changeSeat(event, seat) {
  event.preventDefault();
  const value = event.target.querySelector("select").value;
  const error = event.target.querySelector(".error");
  const kind = value === "human" ? { kind: "human" } : value.startsWith("online:") ? { kind: "online-bot", name: value.slice(7) } : { kind: "bot", bot: value.slice(4) };
  try {
    await postJSON(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`, kind);
  } catch (err) {
    error.textContent = errorText(err.code, err.message);
    error.hidden = false;
    return;
  }
  document.activeElement?.blur();
  await refresh(false);
}

function seatChoice(c) {
  const id = `seat-kind-${c.seat}`;
  const select = h("select", { id },
    h("option", { value: "human" }, t("lobby.human")),
    ...choices.bots.map((b) => h("option", { value: "bot:" + b }, t("lobby.botKind", { bot: botLevel(b) }))),
    ...choices.online.map((b) => h("option", { value: "online:" + b }, t("lobby.seatOnlineBot", { name: b }))));
  const form = h("form", { class: "button-row seat-change", dataset: { seat: String(c.seat) } },
    h("label", { for: id }, t("challenge.pick", { n: c.seat + 1 })),
    select,
    h("button", { type: "submit", class: "btn" }, t("challenge.change")),
    h("span", { class: "error", role: "alert", hidden: true }));
  form.addEventListener("submit", (event) => changeSeat(event, c.seat));
  return form;
}

function render() {
  const parts = [];
  if (rated) parts.push(h("p", { class: "hint", id: "ladder-rated" }, t("ladder.rated"), " ", h("a", { href: "/ladder" }, t("lobby.ladderLink"))));
  if (challenges.length) {
    parts.push(h("ul", { id: "challenge-states", class: "hint" },
      ...challenges.map((c) => h("li", { dataset: { seat: String(c.seat), state: c.state } }, t("challenge." + c.state, { bot: c.bot }),
        choices && (c.state === "declined" || c.state === "unanswered") ? seatChoice(c) : ""))));
  }
  if (rated && seated && live) {
    if (entered) {
      parts.push(h("p", { class: "hint", id: "ladder-entered" }, t("ladder.entered", { name: entered })));
    } else {
      const form = h("form", { id: "ladder-form", class: "button-row" },
        h("label", { for: "ladder-name" }, t("ladder.enterName")),
        h("input", { id: "ladder-name", type: "text", maxlength: "24", value: stored(NAME_KEY), autocomplete: "nickname" }),
        h("button", { type: "submit", class: "btn" }, t("ladder.enter")),
        h("span", { id: "ladder-error", class: "error", role: "alert", hidden: true }));
      form.addEventListener("submit", enter);
      parts.push(h("h2", { class: "hint" }, t("ladder.enterHeading")), form);
    }
  }
  const focused = document.activeElement && box.contains(document.activeElement) && document.activeElement.matches("input, select");
  if (focused) return; // never pull a field away from someone typing or choosing in it
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}

async function refresh(poll = true) {
  try {
    const [table, challenged] = await Promise.all([
      getJSON(`/api/tables/${encodeURIComponent(tableId)}`),
      getJSON(`/api/tables/${encodeURIComponent(tableId)}/challenges`),
    ]);
    seated = table.you !== null && table.you !== undefined;
    live = table.status === "waiting" || table.status === "playing";
    challenges = table.status === "waiting" ? challenged.challenges : [];
    choices = challenged.creator ? { bots: challenged.bots, online: challenged.online } : null;
    render();
    if (poll && table.status === "waiting") setTimeout(refresh, POLL_MS);
  } catch {
    /* the table page itself says what is wrong */
  }
}

async function start() {
  if (!tableId) return;
  const main = document.getElementById("main");
  if (!main) return;
  main.prepend(box);
  try {
    const answer = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/ladder`);
    rated = answer.rated;
    entered = answer.entered || null; // entered before (on an earlier deal of the match, say)
  } catch {
    rated = false;
  }
  onLangChange(render);
  await refresh();
}

start();
