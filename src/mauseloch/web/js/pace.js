// Pause and the bots' pace at the web table. The server keeps both (TableSession.set_pace): a
// pause stops the whole table — bots, stand-ins and the turn clock, which resumes with the time
// it had left. Alone at the table, "Pause" pauses at once; with other people connected it asks
// them, and the table pauses once everyone connected agreed. Anyone seated resumes. Everyone,
// spectators included, sees who paused. The controls are made once and only updated, so a redraw
// after every move leaves them alone.

import { h } from "./api.js";
import { listNames, seatLabel, t } from "./i18n.js";
import { someoneAway } from "./away.js";

const SPEEDS = [["pace.slow", 0.5], ["pace.normal", 1], ["pace.fast", 2]];
let current = { paused: false, speed: 1 };
let stands = false; // this seat asked for the pause, agreed to it, or the table is paused
let connection = null;

function send(paused, speed) {
  if (connection) connection.send({ type: "pace", paused, speed });
}

function build(row) {
  const select = h("select", { id: "pace-speed" }, SPEEDS.map(([key, value]) => h("option", { value: String(value), "data-key": key }, t(key))));
  select.addEventListener("change", () => send(stands, Number(select.value)));
  row.append(
    h("span", { id: "pause-status", role: "status" }),
    h("button", { type: "button", class: "btn btn-small", id: "pace-button", "aria-pressed": "false", "aria-describedby": "pause-hint", onclick: () => send(!stands, current.speed) }),
    h("span", { id: "pause-hint", class: "hint" }),
    h("span", { id: "pace-speed-box" }, h("label", { for: "pace-speed", id: "pace-label" }), " ", select));
}

/** The pause's words for this page: [status line, button label, hint]; no button for spectators. */
function words(pause, live, table, seat) {
  const name = (i) => seatLabel(table.seats[i], i);
  const names = (list) => listNames(list.map(name));
  const seated = seat !== null && seat !== undefined;
  if (pause.paused) {
    return [t("pause.pausedBy", { name: name(pause.by) }), seated ? t("pace.resume") : null, seated ? t("pause.resumeHint") : ""];
  }
  if (pause.asked !== null && pause.asked !== undefined) {
    const mine = pause.asked === seat || (pause.agreed || []).includes(seat);
    const status = mine
      ? t("pause.waitingFor", { names: names(pause.waiting || []) })
      : t("pause.wants", { name: name(pause.asked) });
    if (!seated) return [status, null, ""];
    if (pause.asked === seat) return [status, t("pause.withdraw"), ""];
    return [status, mine ? t("pause.withdrawAgree") : t("pause.agree"), mine ? "" : t("pause.agreeHint")];
  }
  if (!seated) return ["", null, ""];
  const others = (live.seats || []).some((s, i) => i !== seat && s.presence === "online");
  return ["", others ? t("pause.ask") : t("pace.pause"), others ? t("pause.askHint") : t("pause.aloneHint")];
}

/** Whether a pause holds this view's moves: a paused table takes none (the server refuses them
 * with "paused"); a reaction window already open stays open, so its mouse can still be caught. */
export function holdsMoves(live, view) {
  // someone away over days holds the table as a pause does
  const paused = Boolean(live && live.pause && live.pause.paused) || someoneAway(live);
  return paused && Boolean(view) && view.to_move !== null && view.to_move !== undefined;
}

/** The pause as a request on the board (requests.js), or null when nothing about it waits for a
 * person: `{ kind, text, label, primary, act }`; `label` null: nothing for this page to press. */
export function pauseRequest(table, live, seat, conn) {
  const pause = live && live.pause;
  if (!table || !live || live.status !== "playing" || !pause || !(pause.paused || (pause.asked !== null && pause.asked !== undefined))) return null;
  const seated = seat !== null && seat !== undefined && Boolean(conn);
  const [text, label] = words(pause, live, table, seated ? seat : null);
  const standing = pause.paused || pause.asked === seat || (pause.agreed || []).includes(seat);
  const speed = (live.pace && live.pace.speed) || 1;
  return {
    kind: pause.paused ? "paused" : standing ? "pause-asked" : "pause-ask",
    text,
    label,
    primary: !standing || pause.paused, // agreeing, or going on again; a withdrawal is the quiet choice
    act: () => { if (conn) conn.send({ type: "pace", paused: !standing, speed }); },
  };
}

export function renderPace(table, live, seat, conn) {
  const row = document.getElementById("pace-row");
  if (!row) return;
  connection = conn;
  const playing = table && live && live.status === "playing";
  const pause = (live && live.pause) || { paused: false, asked: null, agreed: [], waiting: [] };
  const seated = seat !== null && seat !== undefined && Boolean(conn);
  row.hidden = !(playing && (seated || pause.paused || pause.asked !== null));
  if (row.hidden) return;
  if (!row.firstChild) build(row);
  current = (live && live.pace) || { paused: false, speed: 1 };
  stands = pause.paused || pause.asked === seat || (pause.agreed || []).includes(seat);
  const [status, label, hint] = words(pause, live, table, seated ? seat : null);
  document.getElementById("pause-status").textContent = status;
  row.classList.toggle("paused", pause.paused);
  const button = document.getElementById("pace-button");
  button.hidden = !label;
  button.setAttribute("aria-pressed", String(stands));
  if (label) button.textContent = label;
  document.getElementById("pause-hint").textContent = hint;
  const bots = table.seats ? table.seats.some((s) => s.kind === "bot") : false;
  document.getElementById("pace-speed-box").hidden = !(bots && seated);
  document.getElementById("pace-label").textContent = t("pace.speed");
  const select = document.getElementById("pace-speed");
  for (const option of select.options) option.textContent = t(option.dataset.key);
  if (document.activeElement !== select) select.value = String(current.speed);
}
