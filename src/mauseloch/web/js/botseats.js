// The table page's Bot API and ladder parts, beside table.js: whether the table is rated (shown to
// everyone at it), each challenged bot's answer while the table waits (accepted, declined,
// unanswered) with, for the table's creator, the choice of another seat kind where a bot declined or
// did not answer, and at a rated table the ladder name: asked in the join panel with the seat
// (joinLadder: table.js sends it with the join), then shown for this browser's seat. The server
// decides everything; the page only shows it (docs/bot-api.md).

import { getJSON, h, postJSON } from "./api.js";
import { isOfflineTable } from "./offline.js";
import { botLevel, errorText, onLangChange, t } from "./i18n.js";
import { LADDER_NAME_MAX, followName, ladderEntry, ladderName } from "./ladderentry.js";

const POLL_MS = 3000;
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const box = h("section", { id: "bot-seats", class: "panel bot-seats", hidden: true, "aria-live": "polite" });
let rated = false;
let challenges = [];
let choices = null; // the creator's: { bots, online } to put in a declined seat, else null
let entered = null;
let seated = false;

/** The join panel's ladder field, at a rated table (its words follow the page's language). */
function mountJoinField() {
  const panel = document.getElementById("join-panel");
  if (!panel || document.getElementById("join-ladder")) return;
  const name = document.getElementById("join-name");
  const input = h("input", { id: "join-ladder", type: "text", maxlength: String(LADDER_NAME_MAX), autocomplete: "nickname",
    "aria-describedby": "join-ladder-hint" });
  if (name) {
    followName(input, name);
    // the panel opens with the name this browser remembers (filled in without an input event)
    new MutationObserver(() => { if (!panel.hidden) input.value = ladderName(input, name); })
      .observe(panel, { attributes: true, attributeFilter: ["hidden"] });
    if (!panel.hidden) input.value = ladderName(input, name);
  }
  const field = h("p", { class: "field", id: "join-ladder-field" },
    h("label", { for: "join-ladder", "data-i18n": "ladder.yourName" }, t("ladder.yourName")), input,
    h("span", { id: "join-ladder-hint", class: "hint", "data-i18n": "ladder.nameHint" }, t("ladder.nameHint")));
  const info = document.getElementById("join-info");
  if (info) info.before(field);
  else panel.append(field);
}

/** What the join request carries at a rated table: `{name, secret}` (`name` empty when the field
    is), or null at an unrated table. */
export function joinLadder() {
  const input = document.getElementById("join-ladder");
  if (!rated || !input) return null;
  const name = ladderName(input, document.getElementById("join-name"));
  return name ? ladderEntry(name) : { name: "", secret: "" };
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
  if (rated && seated) {
    parts.push(h("p", { class: "hint", id: entered ? "ladder-entered" : "ladder-unrated" },
      entered ? t("ladder.entered", { name: entered }) : t("ladder.unrated")));
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
    const now = table.you !== null && table.you !== undefined;
    if (now && !seated && rated) await learnEntry(); // seated just now: the name the seat plays for
    seated = now;
    challenges = table.status === "waiting" ? challenged.challenges : [];
    choices = challenged.creator ? { bots: challenged.bots, online: challenged.online } : null;
    render();
    if (poll && table.status === "waiting") setTimeout(refresh, POLL_MS);
  } catch {
    /* the table page itself says what is wrong */
  }
}

/** After this browser took a seat here: say which ladder name it plays for. */
export function seatTaken() {
  refresh(false);
}

async function learnEntry() {
  try {
    const answer = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/ladder`);
    rated = answer.rated;
    entered = answer.entered || null; // the name this browser's seat plays for, if it has one here
  } catch {
    rated = false;
  }
}

async function start() {
  if (!tableId || isOfflineTable(tableId)) return; // an offline table has no server to ask
  const main = document.getElementById("main");
  if (!main) return;
  main.prepend(box);
  await learnEntry();
  if (rated) mountJoinField();
  onLangChange(render);
  await refresh();
}

start();
